/* Patches matched to upstream commits and the upstream fixes a target lacks,
 * on the repository tests/data/upstream/make_repo.sh builds: every outcome
 * once (cherry-pick, modified backport, local; applied, partial, missing,
 * not applicable), a wrong cherry-pick claim and one naming a commit that
 * is nowhere; then the target as a directory (no history), --config, and
 * (make_half.sh) a fix of two files of which the target left one as in the
 * base, and (make_later.sh) commits that upstream reverts or fixes later. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patch_impl.h"
#include "shell_fixture.h"
#include "treedrift/compare.h"
#include "treedrift/history.h"
#include "treedrift/load.h"
#include "treedrift/patch.h"
#include "treedrift/upstream.h"

static char tmp[4096];

static const td_patch_upstream_t *by_subject(const td_patch_set_t *s, const td_upstream_t *u, const char *subj)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->patches[i].subject, subj))
			return &u->patches[i];
	fprintf(stderr, "no patch '%s'\n", subj);
	return NULL;
}

static const td_upstream_fix_t *fix_of(const td_upstream_t *u, const char *subj)
{
	for (size_t i = 0; i < u->nfixes; i++)
		if (!strcmp(u->fixes[i].subject, subj))
			return &u->fixes[i];
	fprintf(stderr, "no fix '%s'\n", subj);
	return NULL;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compare upstream and target, patches from source (may be NULL), the
 * history, then match; unbuilt (may be NULL) is marked not built. */
static td_upstream_t *run(const char *upstream, const char *target, const char *source, const char *unbuilt,
			  td_patch_set_t **set_out, td_history_t **h_out, td_result_t **r_out)
{
	td_load_opts_t lo;
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_patch_opts_t po;
	td_patch_set_t *s = NULL;
	td_history_opts_t ho;
	td_history_t *h = NULL;
	td_upstream_opts_t uo;
	td_upstream_t *up = NULL;
	td_error_t err;
	const char *paths[64];
	size_t n = 0;

	td_load_opts_init(&lo);
	if (td_load_pair(&u, &t, upstream, target, &lo, NULL, &err) || td_compare(&r, u, t, NULL, &err)) {
		fprintf(stderr, "compare: %s\n", err.msg);
		exit(1);
	}
	td_patch_opts_init(&po);
	po.base_spec = upstream;
	po.target_spec = target;
	if (source && td_patch_analyze(&s, source, r, &po, &err)) {
		fprintf(stderr, "patches: %s\n", err.msg);
		exit(1);
	}
	for (size_t i = 0; i < r->count && n < 64; i++) {
		td_change_t *c = &r->changes[i];
		const td_file_t *f = c->target ? c->target : c->upstream;
		if (c->status != TD_STATUS_IDENTICAL)
			paths[n++] = f->path;
		c->built = unbuilt ? (strcmp(f->path, unbuilt) ? TD_BUILT_YES : TD_BUILT_NO) : TD_BUILT_UNKNOWN;
	}
	qsort(paths, n, sizeof(*paths), path_cmp);
	td_history_opts_init(&ho);
	ho.paths = paths;
	ho.npaths = n;
	if (td_history_load(&h, fmt("git:%s/r@tip", tmp), "base", &ho, &err)) {
		fprintf(stderr, "history: %s\n", err.msg);
		exit(1);
	}
	td_upstream_opts_init(&uo);
	uo.target_spec = target;
	uo.config = unbuilt != NULL;
	CHECK_INT(td_upstream_analyze(&up, h, r, s, &uo, &err), 0);
	if (!up) {
		fprintf(stderr, "upstream: %s\n", err.msg);
		exit(1);
	}
	*set_out = s;
	*h_out = h;
	*r_out = r;
	return up;
}

static void check_fix(const td_upstream_t *u, const char *subj, td_fix_status_t want, const char *why, int fix)
{
	const td_upstream_fix_t *f = fix_of(u, subj);
	CHECK(f != NULL);
	if (!f)
		return;
	if (f->status != want || strcmp(f->why, why) || f->fix != fix)
		fprintf(stderr, "fix '%s': %s (%s) fix %d\n", subj, td_fix_status_name(f->status), f->why, f->fix);
	CHECK_INT(f->status, want);
	CHECK_STR(f->why, why);
	CHECK_INT(f->fix, fix);
}

/* The first word git prints for args in the fixture's repository. */
static void git_word(char *out, size_t cap, const char *args)
{
	FILE *pp = popen(fmt("git -C '%s/r' %s", tmp, args), "r");

	if (!pp || !fgets(out, (int)cap, pp))
		out[0] = '\0';
	if (pp)
		pclose(pp);
	out[strcspn(out, " \n")] = '\0';
}

static void free_all(td_upstream_t *u, td_patch_set_t *s, td_history_t *h, td_result_t *r)
{
	td_upstream_free(u);
	td_patch_set_free(s);
	td_history_free(h);
	td_result_free(r);
}

int main(void)
{
	td_patch_set_t *s;
	td_history_t *h;
	td_result_t *r;
	td_upstream_t *u;
	const td_patch_upstream_t *p;
	const td_upstream_fix_t *f;

	check_tmpdir(tmp, sizeof(tmp), "upstream");
	if (sh(fmt("sh '%s/upstream/make_repo.sh' '%s' >/dev/null 2>&1", TD_TEST_DATA, tmp)))
		return 1;

	/* the git range */
	u = run(fmt("git:%s/r@base", tmp), fmt("git:%s/r@vendor", tmp), fmt("git:%s/r@base..vendor", tmp), NULL,
		&s, &h, &r);
	CHECK_INT(u->npatches, 7);
	/* each patch id is git's */
	for (size_t i = 0; i < s->count; i++) {
		char want[64];
		git_word(want, sizeof(want), fmt("show %s | git patch-id --stable", s->patches[i].id));
		CHECK_STR(s->patches[i].patch_id, want);
	}
	/* the patch stage hashes lines as the history does */
	{
		static const char *const lines[] = { "", "  {", "};", " int x = 1;\n", "\treturn 0;", "a b\tc\r", "());" };
		for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
			int t1, t2;
			CHECK(td_patch_line_hash(lines[i], strlen(lines[i]), &t1) == td_line_hash(lines[i], strlen(lines[i]), &t2));
			CHECK_INT(t1, t2);
		}
	}
	CHECK_INT(u->cherry_picks, 1);
	CHECK_INT(u->backports, 1);
	CHECK_INT(u->claims, 4);
	CHECK_INT(u->claims_hold, 2);
	if ((p = by_subject(s, u, "a: fix an overflow"))) {
		CHECK_INT(p->kind, TD_UPSTREAM_CHERRY_PICK);
		CHECK_INT(p->claim, TD_CLAIM_HOLDS);
		CHECK_STR(p->subject, "a: fix an overflow");
		CHECK_INT(p->fix, 1);
		CHECK_INT(p->tags.nfixes, 1);
	}
	if ((p = by_subject(s, u, "b: handle errors"))) {
		/* 8 lines (4 removed, 4 added), 7 of them upstream's */
		CHECK_INT(p->kind, TD_UPSTREAM_BACKPORT);
		CHECK(p->share > 0.87 && p->share < 0.88);
		CHECK_INT(p->claim, TD_CLAIM_HOLDS);
		CHECK_INT(p->tags.cc_stable, 1);
	}
	if ((p = by_subject(s, u, "c: the vendor tweak"))) {
		/* 2 of its 8 lines are upstream's: not a backport */
		CHECK_INT(p->kind, TD_UPSTREAM_NONE);
		CHECK_INT(p->claim, TD_CLAIM_NONE);
	}
	if ((p = by_subject(s, u, "d: a vendor feature"))) {
		/* the wrong claim: the commit is there, the patch is not it */
		CHECK_INT(p->kind, TD_UPSTREAM_NONE);
		CHECK_INT(p->claim, TD_CLAIM_DIFFERS);
		CHECK(p->claim_commit[0] != '\0');
		CHECK(p->claim_share == 0);
	}
	if ((p = by_subject(s, u, "f: a vendor knob")))
		CHECK_INT(p->claim, TD_CLAIM_NOT_FOUND);
	if ((p = by_subject(s, u, "a: the vendor own")))
		CHECK_INT(p->kind, TD_UPSTREAM_NONE);

	CHECK_INT(u->nfixes, 7);
	check_fix(u, "a: fix an overflow", TD_FIX_APPLIED, "cherry-pick", 1);
	check_fix(u, "b: handle errors", TD_FIX_APPLIED, "backport", 1);
	check_fix(u, "c: bound the length (CVE-2024-0001)", TD_FIX_PARTIAL, "content", 1);
	check_fix(u, "d: fix a leak", TD_FIX_MISSING, "content", 1);
	check_fix(u, "gone: fix a race", TD_FIX_NOT_APPLICABLE, "file removed", 1);
	check_fix(u, "e: fix a typo", TD_FIX_MISSING, "content", 1);
	check_fix(u, "f: clean up", TD_FIX_MISSING, "content", 0);
	if ((f = fix_of(u, "c: bound the length (CVE-2024-0001)"))) {
		CHECK_INT(f->lines, 4);
		CHECK_INT(f->lines_in_target, 2);
		CHECK_INT(f->tags.ncves, 1);
	}
	if ((f = fix_of(u, "a: fix an overflow")))
		CHECK(f->patch && !strcmp(f->patch, s->patches[0].id));
	CHECK_INT(u->status_count[TD_FIX_MISSING], 3);
	CHECK_INT(u->status_count[TD_FIX_PARTIAL], 1);
	CHECK_INT(u->status_count[TD_FIX_NOT_APPLICABLE], 1);
	CHECK_INT(u->status_count[TD_FIX_APPLIED], 2);
	/* the fixes of each status: Fixes: d, e, gone and a; stable b; a CVE c */
	CHECK_INT(u->fix_count[TD_FIX_MISSING], 2);
	CHECK_INT(u->fix_count[TD_FIX_PARTIAL], 1);
	CHECK_INT(u->fix_count[TD_FIX_NOT_APPLICABLE], 1);
	CHECK_INT(u->fix_count[TD_FIX_APPLIED], 2);
	CHECK_INT(u->cve_count[TD_FIX_MISSING], 0);
	CHECK_INT(u->cve_count[TD_FIX_PARTIAL], 1);
	CHECK_INT(u->cve_count[TD_FIX_APPLIED], 0);
	CHECK_INT(td_fix_lacking(u->fix_count), 3);
	CHECK_INT(td_fix_lacking(u->cve_count), 1);
	CHECK_INT(td_fix_lacking(u->status_count), 4);
	/* order: missing and partial; a CVE first, then Fixes: (missing before
	 * partial in each), then the others */
	CHECK_STR(u->fixes[0].subject, "c: bound the length (CVE-2024-0001)");
	CHECK_STR(u->fixes[1].subject, "d: fix a leak");
	CHECK_STR(u->fixes[2].subject, "e: fix a typo");
	CHECK_STR(u->fixes[3].subject, "f: clean up");
	/* then not applicable and applied: for stable before Fixes: */
	CHECK_STR(u->fixes[4].subject, "b: handle errors");
	CHECK_STR(u->fixes[5].subject, "gone: fix a race");
	CHECK_INT(u->fixes[6].status, TD_FIX_APPLIED);
	free_all(u, s, h, r);

	/* no history, no patches: the target as a directory; what the vendor
	 * took is known from the content alone */
	if (sh(fmt("mkdir '%s/base' '%s/tgt' && git -C '%s/r' archive base | tar -x -C '%s/base' && "
		   "git -C '%s/r' archive vendor | tar -x -C '%s/tgt'", tmp, tmp, tmp, tmp, tmp, tmp)))
		return 1;
	u = run(fmt("%s/base", tmp), fmt("%s/tgt", tmp), NULL, NULL, &s, &h, &r);
	CHECK_INT(u->npatches, 0);
	check_fix(u, "a: fix an overflow", TD_FIX_APPLIED, "content", 1);
	check_fix(u, "b: handle errors", TD_FIX_PARTIAL, "content", 1);
	check_fix(u, "c: bound the length (CVE-2024-0001)", TD_FIX_PARTIAL, "content", 1);
	check_fix(u, "d: fix a leak", TD_FIX_MISSING, "content", 1);
	check_fix(u, "gone: fix a race", TD_FIX_NOT_APPLICABLE, "file removed", 1);
	free_all(u, s, h, r);

	/* with a configuration that does not build e.c */
	u = run(fmt("git:%s/r@base", tmp), fmt("git:%s/r@vendor", tmp), fmt("git:%s/r@base..vendor", tmp), "e.c",
		&s, &h, &r);
	check_fix(u, "e: fix a typo", TD_FIX_NOT_APPLICABLE, "not built", 1);
	check_fix(u, "d: fix a leak", TD_FIX_MISSING, "content", 1);
	if ((f = fix_of(u, "d: fix a leak")))
		CHECK_INT(f->built, 1);
	free_all(u, s, h, r);

	/* a fix of two files, one of them left as in the base: part of it, not
	 * all, whatever the other file has */
	if (sh(fmt("rm -rf '%s/r' && sh '%s/upstream/make_half.sh' '%s' >/dev/null 2>&1", tmp, TD_TEST_DATA, tmp)))
		return 1;
	u = run(fmt("git:%s/r@base", tmp), fmt("git:%s/r@vendor", tmp), NULL, NULL, &s, &h, &r);
	check_fix(u, "xy: fix both", TD_FIX_PARTIAL, "content", 1);
	if ((f = fix_of(u, "xy: fix both"))) {
		CHECK_INT(f->nfiles, 2);
		CHECK_INT(f->files_as_in_base, 1);
		CHECK_INT(f->lines, 2);
		CHECK_INT(f->lines_in_target, 2);
	}
	free_all(u, s, h, r);

	/* commits that upstream reverts: a commit and its revert cancel where
	 * the target has neither; a revert reverted in turn cancels with that,
	 * leaving the commit it reverted missing; a revert of a commit the
	 * target took is missing. Commits that later ones fix: the fix of a
	 * commit the target lacks does not apply, and is named with it; the
	 * fix of one it took, of the base, or of two of which it took one, is
	 * missing; the fix of a merge is as the fix of the commits it merged */
	if (sh(fmt("rm -rf '%s/r' && sh '%s/upstream/make_later.sh' '%s' >/dev/null 2>&1", tmp, TD_TEST_DATA, tmp)))
		return 1;
	u = run(fmt("git:%s/r@base", tmp), fmt("git:%s/r@vendor", tmp), fmt("git:%s/r@base..vendor", tmp), NULL,
		&s, &h, &r);
	CHECK_INT(u->nfixes, 20);
	check_fix(u, "g: fix a bound", TD_FIX_NOT_APPLICABLE, "reverted", 1);
	check_fix(u, "Revert \"g: fix a bound\"", TD_FIX_NOT_APPLICABLE, "revert", 0);
	check_fix(u, "h: check the size (CVE-2024-0002)", TD_FIX_MISSING, "content", 1);
	check_fix(u, "Revert \"h: check the size (CVE-2024-0002)\"", TD_FIX_NOT_APPLICABLE, "reverted", 1);
	check_fix(u, "Revert \"Revert \"h: check the size (CVE-2024-0002)\"\"", TD_FIX_NOT_APPLICABLE, "revert", 1);
	check_fix(u, "k: fix a race", TD_FIX_APPLIED, "cherry-pick", 1);
	check_fix(u, "Revert \"k: fix a race\"", TD_FIX_MISSING, "content", 0);
	if ((f = fix_of(u, "g: fix a bound"))) {
		const td_upstream_fix_t *g2 = fix_of(u, "Revert \"g: fix a bound\"");
		CHECK(g2 && !strcmp(f->reverted_by, g2->id));
		CHECK(g2 && g2->tags.reverts && !strcmp(g2->tags.reverts, f->id));
		CHECK(g2 && !g2->reverted_by[0]);
	}
	if ((f = fix_of(u, "Revert \"k: fix a race\""))) {
		CHECK(f->tags.reverts && strlen(f->tags.reverts) == 12);
		CHECK(!f->reverted_by[0]);
	}
	check_fix(u, "m: add a cache", TD_FIX_MISSING, "content", 0);
	check_fix(u, "m: fix the cache", TD_FIX_NOT_APPLICABLE, "fixed commit missing", 1);
	check_fix(u, "n: bound a copy (CVE-2024-0003)", TD_FIX_MISSING, "content", 1);
	check_fix(u, "n: fix a regression of the bound", TD_FIX_NOT_APPLICABLE, "fixed commit missing", 1);
	check_fix(u, "p: fix a leak", TD_FIX_APPLIED, "cherry-pick", 1);
	check_fix(u, "p: fix the leak fix", TD_FIX_MISSING, "content", 1);
	check_fix(u, "q: fix an old bug", TD_FIX_MISSING, "content", 1);
	check_fix(u, "s: fix two", TD_FIX_MISSING, "content", 1);
	check_fix(u, "t: fix the cache user", TD_FIX_NOT_APPLICABLE, "fixed commit missing", 1);
	check_fix(u, "w: add a queue", TD_FIX_MISSING, "content", 0);
	check_fix(u, "w: fix the queue", TD_FIX_NOT_APPLICABLE, "fixed commit missing", 1);
	check_fix(u, "x: add a pool", TD_FIX_APPLIED, "cherry-pick", 0);
	check_fix(u, "x: fix the pool", TD_FIX_MISSING, "content", 1);
	{
		const td_upstream_fix_t *m1 = fix_of(u, "m: add a cache"), *m2 = fix_of(u, "m: fix the cache");
		const td_upstream_fix_t *p1 = fix_of(u, "p: fix a leak"), *p2 = fix_of(u, "p: fix the leak fix");
		const td_upstream_fix_t *s1 = fix_of(u, "s: fix two");
		CHECK(m1 && m2 && s1 && m1->nfixed_by == 3 && !strcmp(m1->fixed_by[0], m2->id) &&
		      !strcmp(m1->fixed_by[1], s1->id));
		CHECK(p1 && p2 && s1 && p1->nfixed_by == 2 && !strcmp(p1->fixed_by[0], p2->id) &&
		      !strcmp(p1->fixed_by[1], s1->id));
		CHECK(m2 && m2->nfixed_by == 0);
	}
	{
		/* a fix that names a merge is in the fixed_by of what it merged */
		const td_upstream_fix_t *w1 = fix_of(u, "w: add a queue"), *w2 = fix_of(u, "w: fix the queue");
		CHECK(w1 && w2 && w1->nfixed_by == 1 && !strcmp(w1->fixed_by[0], w2->id));
	}
	CHECK_INT(u->status_count[TD_FIX_MISSING], 9);
	CHECK_INT(u->status_count[TD_FIX_NOT_APPLICABLE], 8);
	CHECK_INT(u->status_count[TD_FIX_APPLIED], 3);
	CHECK_INT(u->cve_count[TD_FIX_MISSING], 2);
	CHECK_INT(u->cve_count[TD_FIX_NOT_APPLICABLE], 3);
	CHECK_INT(td_fix_lacking(u->fix_count), 6);
	CHECK_INT(h->merges_skipped, 2);
	/* what a merge brought: the commits of its branch; nothing for a
	 * commit that is not a merge */
	{
		char w[64];
		size_t *m = NULL, n = 0;
		int is_merge = -1;
		td_error_t err;
		git_word(w, sizeof(w), "rev-parse --short=12 tip~3");
		CHECK_INT(td_history_merged(&m, &n, &is_merge, h, w, &err), 0);
		CHECK_INT(is_merge, 1);
		CHECK_INT(n, 1);
		if (n == 1)
			CHECK_STR(h->commits[m[0]].subject, "w: add a queue");
		free(m);
		CHECK_INT(td_history_merged(&m, &n, &is_merge, h, h->commits[0].id, &err), 0);
		CHECK_INT(is_merge, 0);
		CHECK(m == NULL && n == 0);
	}
	free_all(u, s, h, r);

	/* with m.c not built, the source may have its feature: a fix of it in
	 * another file stays missing */
	u = run(fmt("git:%s/r@base", tmp), fmt("git:%s/r@vendor", tmp), fmt("git:%s/r@base..vendor", tmp), "m.c",
		&s, &h, &r);
	check_fix(u, "m: add a cache", TD_FIX_NOT_APPLICABLE, "not built", 0);
	check_fix(u, "m: fix the cache", TD_FIX_NOT_APPLICABLE, "not built", 1);
	check_fix(u, "t: fix the cache user", TD_FIX_MISSING, "content", 1);
	free_all(u, s, h, r);

	sh(fmt("rm -rf '%s'", tmp));
	return check_finish();
}
