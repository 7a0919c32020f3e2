/* Per-patch drift: the declared-origin parser on many header styles, the
 * patch text parser, and td_patch_analyze on a repository built here (a
 * git range, the same series as format-patch files, an mbox and a quilt
 * series on a directory and an archive), checked against git's numbers;
 * files scored as compare scores them. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patch_impl.h"
#include "shell_fixture.h"
#include "treedrift/compare.h"
#include "treedrift/lines.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"
#include "treedrift/patch.h"
#include "treedrift/policy.h"

static char tmp[4096];

static char *capture(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	if (!p || !buf)
		abort();
	while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0)
		n += got;
	buf[n] = '\0';
	pclose(p);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

/* --- origins ------------------------------------------------------------- */

static void origin_is(const char *subject, const char *text, td_patch_status_t want, const char *commit,
		      const char *evidence_part, int line)
{
	td_patch_origin_t o;
	int ok = td_patch_origin_parse(&o, subject, text, text ? strlen(text) : 0) == 0 && o.status == want &&
		 (commit ? o.commit && !strcmp(o.commit, commit) : !o.commit) &&
		 (!evidence_part || (o.evidence && strstr(o.evidence, evidence_part)));
	check_count++;
	if (!ok) {
		check_failures++;
		fprintf(stderr, "%s:%d: origin of '%s' = %s commit %s evidence '%s'\n", __FILE__, line,
			subject ? subject : "", td_patch_status_name(o.status), o.commit ? o.commit : "(none)",
			o.evidence ? o.evidence : "");
	}
	td_patch_origin_release(&o);
}
#define ORIGIN(s, t, w, c, e) origin_is(s, t, w, c, e, __LINE__)

static void test_origins(void)
{
	ORIGIN("fix a thing", "fix a thing\n\nbody\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
	       TD_PATCH_UPSTREAM, "0123456789abcdef0123456789abcdef01234567", "cherry picked");
	ORIGIN("x", "commit 1A2B3C4D5E6F upstream.\n\nbody\n", TD_PATCH_UPSTREAM, "1a2b3c4d5e6f", "upstream");
	ORIGIN("x", "[ Upstream commit deadbeefcafe ]\n\nbody\n", TD_PATCH_UPSTREAM, "deadbeefcafe", "Upstream commit");
	/* DEP-3 */
	ORIGIN("x", "Origin: upstream, https://git.kernel.org/linus/abcdef1234567\n", TD_PATCH_UPSTREAM,
	       "abcdef1234567", "Origin:");
	ORIGIN("x", "Origin: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=abcdef1234567890\n",
	       TD_PATCH_UPSTREAM, "abcdef1234567890", NULL);
	ORIGIN("x", "Origin: https://git.kernel.org/linus/\n", TD_PATCH_UPSTREAM, NULL, NULL);
	ORIGIN("x", "Origin: backport, https://github.com/foo/bar/commit/1234567abc\n", TD_PATCH_UPSTREAM,
	       "1234567abc", NULL);
	ORIGIN("x", "Origin: https://lore.kernel.org/lkml/20230101.1234-1-a@b.c/\n", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("x", "Origin: vendor, Ubuntu\n", TD_PATCH_LOCAL, NULL, "vendor");
	ORIGIN("x", "Origin: other\n", TD_PATCH_UNKNOWN, NULL, NULL);
	ORIGIN("x", "Origin: http://kernel.ubuntu.com/git?p=x.git;a=commit;h=5c847404dcb2e3195ad0057877e1422ae90892b8\n",
	       TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("x", "Origin: https://patchwork.ozlabs.org/patch/963258/\n", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("x", "Description: keep the old ABI\nForwarded: not-needed\n", TD_PATCH_LOCAL, NULL, "not-needed");
	ORIGIN("x", "Forwarded: no\n", TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("x", "Forwarded: https://lore.kernel.org/x\n", TD_PATCH_SUBMITTED, NULL, "Forwarded");
	ORIGIN("x", "Origin: upstream, https://git.kernel.org/linus/abcdef1\nForwarded: not-needed\n",
	       TD_PATCH_UPSTREAM, "abcdef1", "Origin");
	/* Yocto */
	ORIGIN("x", "Upstream-Status: Backport [https://github.com/a/b/commit/abcdef0]\n", TD_PATCH_UPSTREAM, NULL,
	       "Backport");
	ORIGIN("x", "Upstream-Status: Submitted [list@example.org]\n", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("x", "Upstream-Status: Pending\n", TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("x", "Upstream-Status: Inappropriate [oe specific]\n", TD_PATCH_LOCAL, NULL, NULL);
	/* Subject prefixes */
	ORIGIN("UPSTREAM: usb: fix", NULL, TD_PATCH_UPSTREAM, NULL, "UPSTREAM:");
	ORIGIN("BACKPORT: mm: fix", "", TD_PATCH_UPSTREAM, NULL, NULL);
	ORIGIN("FROMGIT: mm: fix", "", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("FROMLIST: mm: fix", "", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("BACKPORT: FROMLIST: mm: fix", "", TD_PATCH_SUBMITTED, NULL, NULL);
	ORIGIN("ANDROID: vendor hook", "", TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("[PATCH 2/7] ANDROID: vendor hook", "", TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("[nrf fromtree] drivers: x", "", TD_PATCH_UPSTREAM, NULL, "nrf fromtree");
	ORIGIN("[nrf noup] boards: y", "", TD_PATCH_LOCAL, NULL, NULL);
	ORIGIN("[nrf fromlist] z", "", TD_PATCH_SUBMITTED, NULL, NULL);
	/* A cherry-pick line beats a subject prefix; none at all is unknown. */
	ORIGIN("FROMLIST: a", "a\n\n(cherry picked from commit abcdef0123)\n", TD_PATCH_UPSTREAM, "abcdef0123", NULL);
	ORIGIN("plain", "plain\n\nSigned-off-by: A <a@b>\n", TD_PATCH_UNKNOWN, NULL, NULL);
	ORIGIN("upstream: not a prefix", "commit message about upstream commit deadbeef\n", TD_PATCH_UNKNOWN, NULL,
	       NULL);
	/* Headers inside the diff are not read. */
	ORIGIN("x", "subject\n---\ndiff --git a/f b/f\n+Origin: upstream\n", TD_PATCH_UNKNOWN, NULL, NULL);
}

/* --- patch text ---------------------------------------------------------- */

static void test_text(void)
{
	static const char mail[] =
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"From: Jane Dev <jane@example.org>\n"
		"Date: Tue, 3 Oct 2023 10:00:00 +0200\n"
		"Subject: [PATCH 1/2] UPSTREAM: net: fix a\n"
		" long subject\n"
		"\n"
		"The body.\n"
		"\n"
		"(cherry picked from commit 1111111111111111111111111111111111111111)\n"
		"---\n"
		" f.c | 2 +-\n"
		"\n"
		"diff --git a/f.c b/f.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/f.c\n"
		"+++ b/f.c\n"
		"@@ -1,2 +1,2 @@\n"
		" one\n"
		"-two\n"
		"+TWO\n"
		"-- \n"
		"2.39.2\n";
	static const char dep3[] =
		"Description: Keep the old interface\n"
		" Some users need it.\n"
		" .\n"
		" More text.\n"
		"Author: Ben <ben@example.org>\n"
		"Forwarded: not-needed\n"
		"\n"
		"Index: linux/f.c\n"
		"===================================================================\n"
		"--- linux.orig/f.c\t2023-01-01 00:00:00.000000000 +0000\n"
		"+++ linux/f.c\t2023-01-01 00:00:00.000000000 +0000\n"
		"@@ -1,2 +1,3 @@\n"
		" one\n"
		"\n"
		"+three\n"
		"--- /dev/null\n"
		"+++ linux/new.c\n"
		"@@ -0,0 +1 @@\n"
		"+new\n";
	td_patch_t p;
	td_error_t err;
	char *diff;
	size_t len;

	memset(&p, 0, sizeof(p));
	CHECK_INT(td_patch_parse_text(&p, &diff, &len, mail, strlen(mail), 1, "m", &err), 0);
	CHECK_STR(p.subject, "UPSTREAM: net: fix a long subject");
	CHECK_STR(p.author, "Jane Dev <jane@example.org>");
	CHECK_STR(p.date, "Tue, 3 Oct 2023 10:00:00 +0200");
	CHECK(p.message && !strncmp(p.message, "The body.", 9) && !strstr(p.message, "f.c |"));
	CHECK_INT(p.origin.status, TD_PATCH_UPSTREAM);
	CHECK_STR(p.origin.commit, "1111111111111111111111111111111111111111");
	CHECK(diff && !strstr(diff, "2.39.2") && strstr(diff, "+TWO\n"));
	free(diff);
	td_patch_release(&p);

	memset(&p, 0, sizeof(p));
	CHECK_INT(td_patch_parse_text(&p, &diff, &len, dep3, strlen(dep3), 1, "d", &err), 0);
	CHECK_STR(p.subject, "Keep the old interface");
	CHECK_STR(p.author, "Ben <ben@example.org>");
	CHECK(p.message && strstr(p.message, "Some users need it.\n\nMore text."));
	CHECK_INT(p.origin.status, TD_PATCH_LOCAL);
	CHECK_STR(diff, "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,3 @@\n one\n \n+three\n"
			"diff --git a/new.c b/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+new\n");
	free(diff);
	td_patch_release(&p);

	/* -p0 and unsafe paths */
	CHECK_INT(td_patch_normalize(&diff, &len, "--- f.c\n+++ f.c\n@@ -1 +1 @@\n-a\n+b\n", 33, 0, "p0", &err), 0);
	CHECK(diff && strstr(diff, "diff --git a/f.c b/f.c\n"));
	free(diff);
	CHECK_INT(td_patch_normalize(&diff, &len, "--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n", 39, 1, "evil", &err),
		  TD_EINVAL);
	CHECK(strstr(err.msg, "evil") && strstr(err.msg, "unsafe"));
	CHECK_INT(td_patch_normalize(&diff, &len, "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n", 37, 1, "short", &err),
		  TD_EINVAL);
	CHECK(strstr(err.msg, "short") && strstr(err.msg, "ends early"));
	CHECK(td_patch_path_ok("a/b.c", 5) && !td_patch_path_ok("/a", 2) && !td_patch_path_ok("a//b", 4) &&
	      !td_patch_path_ok("a/./b", 5) && !td_patch_path_ok("a/", 2));
}

/* --- the fixture --------------------------------------------------------- */

#define GIT "GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent git -c user.name=t -c user.email=t@example.com " \
	"-c init.defaultBranch=main -c commit.gpgsign=false -c tag.gpgsign=false "

/* base, then nine patches on branch vendor:
 *  1 a.c +3          2 a.c +2 -1 (replaces a line of 1)
 *  3 tmp.c created   4 tmp.c deleted
 *  5 b.txt +1 (cherry-picked)   6 reverts 5
 *  7 old.txt renamed to new/place.txt   8 bin.dat changed (binary)
 *  9 doc/readme +1 (Forwarded: not-needed) */
static int build_fixture(void)
{
	return sh(fmt(
		"set -e; cd '%s'; " GIT "init -q repo; cd repo; "
		"awk 'BEGIN { for (i = 1; i <= 100; i++) printf \"line %%d of a.c, int v%%d = %%d * %%d;\\n\", i, i, i, i * 7 }' > a.c; "
		"printf 'b one\\nb two\\n' > b.txt; mkdir doc; printf 'read me\\n' > doc/readme; "
		"printf 'old one\\nold two\\nold three\\n' > old.txt; "
		"printf '\\000\\001\\002binary\\000' > bin.dat; "
		GIT "add -A; " GIT "commit -q -m base; " GIT "tag base; " GIT "checkout -q -b vendor; "
		"sed -i '10a p1 added A\\np1 added B\\np1 added C' a.c; " GIT "commit -q -am 'p1: edit a.c'; "
		"sed -i 's/^p1 added B$/p2 replaced B/; 52a p2 new' a.c; " GIT "commit -q -am 'p2: more a.c'; "
		"printf '1\\n2\\n3\\n4\\n5\\n' > tmp.c; " GIT "add tmp.c; " GIT "commit -q -m 'p3: add tmp'; "
		GIT "rm -q tmp.c; " GIT "commit -q -m 'p4: delete tmp'; "
		"printf 'p5 line\\n' >> b.txt; " GIT "commit -q -am 'p5: change b' "
		"-m '(cherry picked from commit abcdef1234567890abcdef1234567890abcdef12)'; "
		GIT "revert --no-edit HEAD >/dev/null; "
		"mkdir new; " GIT "mv old.txt new/place.txt; " GIT "commit -q -m 'p7: rename'; "
		"printf '\\000\\003\\004other\\000' > bin.dat; " GIT "commit -q -am 'p8: binary'; "
		"printf 'local line\\n' >> doc/readme; " GIT "commit -q -am 'p9: local' -m 'Forwarded: not-needed'; "
		"mkdir ../base ../target; " GIT "archive base | tar -x -C ../base; "
		GIT "archive vendor | tar -x -C ../target; "
		"printf 'vendor only\\n' >> ../target/b.txt; printf 'extra\\n' > ../target/extra.txt; "
		GIT "archive --format=tar base > ../base.tar; "
		GIT "archive --format=tar --prefix=linux-1.0/ base > ../base-top.tar; "
		GIT "format-patch -q -o ../fp base..vendor; "
		GIT "format-patch --stdout base..vendor > ../all.mbox; "
		"mkdir ../quilt; cp ../fp/0001-*.patch ../fp/0002-*.patch ../quilt/; "
		"printf 'one\\n' > ../quilt/x.diff; "
		"printf -- '--- a.c\\n+++ a.c\\n@@ -1,1 +1,2 @@\\n line 1 of a.c, int v1 = 1 * 7;\\n+p0 line\\n' > ../quilt/p0.diff; "
		"printf -- '--- a/a.c\\n+++ b/a.c\\n@@ -40,2 +40,3 @@\\n line 40 of a.c, int v40 = 40 * 280;\\n+offset line\\n"
		" line 41 of a.c, int v41 = 41 * 287;\\n' > ../quilt/offset.diff; "
		"(cd ../quilt; printf '# a comment\\n%%s\\n\\n%%s   # p1 is the default\\np0.diff -p0\\noffset.diff\\n' "
		"  \"$(ls 0001-*)\" \"$(ls 0002-*)\" > series); "
		"mkdir ../bad; cp ../fp/0001-*.patch ../bad/; "
		"printf 'From: x <x@y>\\nSubject: broken\\n\\n--- a/a.c\\n+++ b/a.c\\n@@ -30,2 +30,2 @@\\n line 30 of a.c, int v30 = 30 * 210;\\n-nothing like this\\n+x\\n' "
		"  > ../bad/0002-broken.patch",
		tmp));
}

static td_result_t *compare_specs(const char *up, const char *tg)
{
	td_load_opts_t lo;
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_error_t err;

	td_load_opts_init(&lo);
	if (td_load_pair(&u, &t, up, tg, &lo, NULL, &err) || td_compare(&r, u, t, NULL, &err)) {
		fprintf(stderr, "compare %s %s: %s\n", up, tg, err.msg);
		return NULL;
	}
	return r;
}

static const td_patch_file_t *pfile(const td_patch_t *p, const char *path)
{
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i].path, path))
			return &p->files[i];
	return NULL;
}

static const td_patch_file_ref_t *ref_of(const td_patch_set_t *s, const td_result_t *r, const char *path)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		const td_change_t *c = &r->changes[s->files[i].change];
		const td_file_t *f = c->target ? c->target : c->upstream;
		if (!strcmp(f->path, path))
			return &s->files[i];
	}
	return NULL;
}

/* The numbers every source kind of the nine patches must give. */
static void check_nine(const td_patch_set_t *s, int binary_known)
{
	const td_patch_file_t *f;

	CHECK_INT(s->count, 9);
	if (s->count != 9)
		return;
	CHECK_STR(s->patches[0].subject, "p1: edit a.c");
	CHECK_STR(s->patches[0].author, "t <t@example.com>");
	CHECK_INT(s->patches[0].nfiles, 1);
	f = pfile(&s->patches[0], "a.c");
	CHECK(f && f->status == 'M' && f->lines_added == 3 && f->lines_removed == 0 && f->lines_surviving == 2);
	CHECK(f && f->distance > 0 && f->distance < 100);
	CHECK_INT(s->patches[0].cls, td_classify(s->patches[0].distance, &(td_thresholds_t){ TD_DEFAULT_CLEAN_BELOW, TD_DEFAULT_DIRTY_ABOVE }));
	CHECK_INT(s->patches[0].ntop_dirs, 1);
	CHECK_STR(s->patches[0].top_dirs[0], ".");
	f = pfile(&s->patches[1], "a.c");
	CHECK(f && f->lines_added == 2 && f->lines_removed == 1 && f->lines_surviving == 2);
	f = pfile(&s->patches[2], "tmp.c");
	CHECK(f && f->status == 'A' && f->lines_added == 5 && f->lines_surviving == 0 &&
	      f->distance == TD_DEFAULT_ADDED_DISTANCE);
	/* a patch that only adds a new file is new, not dirty; one that only
	 * removes or renames is clean */
	CHECK_INT(s->patches[2].cls, TD_CLASS_NEW);
	CHECK_INT(s->patches[2].distance, TD_DEFAULT_ADDED_DISTANCE);
	f = pfile(&s->patches[3], "tmp.c");
	CHECK(f && f->status == 'D' && f->lines_removed == 5 && f->distance == 0);
	CHECK_INT(s->patches[3].cls, TD_CLASS_CLEAN);
	CHECK_INT(s->patches[4].origin.status, TD_PATCH_UPSTREAM);
	CHECK_STR(s->patches[4].origin.commit, "abcdef1234567890abcdef1234567890abcdef12");
	CHECK_INT(s->patches[4].lines_surviving, 0);
	CHECK_INT(s->patches[5].origin.status, TD_PATCH_UNKNOWN);
	CHECK_INT(s->patches[6].nfiles, 2);
	f = pfile(&s->patches[6], "new/place.txt");
	CHECK(f && f->status == 'A' && f->lines_added == 3 && f->lines_surviving == 3);
	/* compare_specs finds no origins: the rename within the patch scores 0 */
	CHECK(f && f->distance == 0 && f->copied_from && !strcmp(f->copied_from, "old.txt"));
	CHECK_INT(s->patches[6].distance, 0);
	CHECK_INT(s->patches[6].cls, TD_CLASS_CLEAN);
	f = pfile(&s->patches[6], "old.txt");
	CHECK(f && f->status == 'D' && f->lines_removed == 3);
	CHECK_INT(s->patches[6].ntop_dirs, 2);
	if (binary_known) {
		f = pfile(&s->patches[7], "bin.dat");
		CHECK(f && f->binary && f->lines_added == 0);
	}
	CHECK_INT(s->patches[8].origin.status, TD_PATCH_LOCAL);
	CHECK_STR(s->patches[8].top_dirs[0], "doc");
}

static void test_git_range(void)
{
	td_result_t *r = compare_specs(fmt("git:%s/repo@base", tmp), fmt("git:%s/repo@vendor", tmp));
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;
	char *ids, *want;
	const td_patch_file_ref_t *ref;

	if (!r)
		{ CHECK(0); return; }
	td_patch_opts_init(&o);
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/repo@base..vendor", tmp), r, &o, &err), 0);
	if (!s) {
		fprintf(stderr, "%s\n", err.msg);
		td_result_free(r);
		CHECK(0);
		return;
	}
	CHECK_STR(s->kind, "git");
	check_nine(s, 1);
	/* ids: git rev-list's, oldest first */
	want = capture(fmt("cd '%s/repo' && git rev-list --reverse base..vendor | tr '\\n' ' '", tmp));
	ids = calloc(1, 9 * 41 + 1);
	for (size_t i = 0, at = 0; i < s->count && i < 9; i++)
		at += (size_t)snprintf(ids + at, 9 * 41 + 1 - at, "%s ", s->patches[i].id);
	CHECK(!strncmp(ids, want, strlen(want)));
	free(ids);
	free(want);
	/* each changed file: its patches */
	ref = ref_of(s, r, "a.c");
	CHECK(ref && ref->npatches == 2 && ref->patches[0] == 0 && ref->patches[1] == 1 && ref->reproduced == 1);
	ref = ref_of(s, r, "old.txt");
	CHECK(ref && ref->npatches == 1 && ref->patches[0] == 6 && ref->reproduced == 1);
	CHECK(!ref_of(s, r, "b.txt")); /* reverted: identical */
	CHECK(!ref_of(s, r, "tmp.c"));
	CHECK_INT(s->unexplained, 0);
	CHECK_INT(s->not_reproduced, 0);
	td_patch_set_free(s);
	td_result_free(r);
}

/* A directory target with a change no patch made, and a file no patch made. */
static void test_unexplained(void)
{
	td_result_t *r = compare_specs(fmt("git:%s/repo@base", tmp), fmt("%s/target", tmp));
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;
	const td_patch_file_ref_t *ref;

	if (!r)
		{ CHECK(0); return; }
	td_patch_opts_init(&o);
	o.target_spec = fmt("%s/target", tmp);
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/repo@base..vendor", tmp), r, &o, &err), 0);
	if (!s)
		{ td_result_free(r); CHECK(0); return; }
	ref = ref_of(s, r, "b.txt");
	CHECK(ref && ref->npatches == 2 && ref->patches[0] == 4 && ref->patches[1] == 5 && ref->reproduced == 0);
	ref = ref_of(s, r, "extra.txt");
	CHECK(ref && ref->npatches == 0 && ref->reproduced == -1);
	CHECK_INT(s->unexplained, 1);
	CHECK_INT(s->not_reproduced, 1);
	/* a.c still reproduced, its surviving lines the same */
	ref = ref_of(s, r, "a.c");
	CHECK(ref && ref->reproduced == 1);
	CHECK_INT(s->patches[0].lines_surviving, 2);
	td_patch_set_free(s);
	td_result_free(r);
}

static void test_series_kinds(void)
{
	td_result_t *r = compare_specs(fmt("%s/base", tmp), fmt("%s/target", tmp));
	/* an archive with one top folder applies as the scan reads it: without it */
	const char *bases[] = { "base", "base.tar", "base-top.tar", "repo@base" };
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;

	if (!r)
		{ CHECK(0); return; }
	td_patch_opts_init(&o);
	o.target_spec = fmt("%s/target", tmp);
	for (size_t b = 0; b < sizeof(bases) / sizeof(*bases); b++) {
		o.base_spec = b == 3 ? fmt("git:%s/%s", tmp, bases[b]) : fmt("%s/%s", tmp, bases[b]);
		CHECK_INT(td_patch_analyze(&s, fmt("%s/fp", tmp), r, &o, &err), 0);
		if (!s) {
			fprintf(stderr, "%s: %s\n", o.base_spec, err.msg);
			CHECK(0);
			continue;
		}
		CHECK_STR(s->kind, "dir");
		check_nine(s, 1);
		CHECK_STR(s->patches[0].id, "0001-p1-edit-a.c.patch");
		/* b.txt: the target adds a line no patch made */
		CHECK_INT(s->not_reproduced, 1);
		td_patch_set_free(s);
		s = NULL;
	}
	o.base_spec = fmt("%s/base", tmp);
	CHECK_INT(td_patch_analyze(&s, fmt("%s/all.mbox", tmp), r, &o, &err), 0);
	if (s) {
		CHECK_STR(s->kind, "mbox");
		check_nine(s, 1);
		CHECK_INT(strlen(s->patches[0].id), 40);
		td_patch_set_free(s);
		s = NULL;
	}
	/* quilt: comments, -p0 */
	CHECK_INT(td_patch_analyze(&s, fmt("%s/quilt/series", tmp), r, &o, &err), 0);
	if (s) {
		const td_patch_file_t *f;
		CHECK_STR(s->kind, "series");
		CHECK_INT(s->count, 4);
		CHECK_STR(s->patches[2].id, "p0.diff");
		f = s->count == 4 ? pfile(&s->patches[2], "a.c") : NULL;
		CHECK(f && f->lines_added == 1 && f->lines_surviving == 0); /* not in the target */
		/* a hunk 4 lines below where its header says: applied there, as patch(1) would */
		f = s->count == 4 ? pfile(&s->patches[3], "a.c") : NULL;
		CHECK(f && f->lines_added == 1 && f->lines_removed == 0);
		td_patch_set_free(s);
		s = NULL;
	} else {
		fprintf(stderr, "%s\n", err.msg);
	}
	/* a patch that does not apply: the patch and the hunk, and no set */
	CHECK_INT(td_patch_analyze(&s, fmt("%s/bad", tmp), r, &o, &err), TD_EINVAL);
	CHECK(!s);
	CHECK(strstr(err.msg, "0002-broken.patch") && strstr(err.msg, "'a.c'") && strstr(err.msg, "hunk 1 of 1") &&
	      strstr(err.msg, "@@ -30,2 +30,2 @@"));
	fprintf(stderr, "(expected) %s\n", err.msg);
	/* a series needs its base */
	o.base_spec = NULL;
	CHECK_INT(td_patch_analyze(&s, fmt("%s/fp", tmp), r, &o, &err), TD_EINVAL);
	td_result_free(r);
}

static void test_policy(void)
{
	static const char text[] = "[class code]\nweight = 2\npaths = *.c\n[class docs]\nweight = 0.5\npaths = doc/\n";
	td_result_t *r = compare_specs(fmt("git:%s/repo@base", tmp), fmt("git:%s/repo@vendor", tmp));
	td_policy_t *pol = NULL;
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;

	if (!r || td_policy_parse(&pol, text, strlen(text), "t", &err))
		{ td_result_free(r); CHECK(0); return; }
	td_patch_opts_init(&o);
	o.policy = pol;
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/repo@base..vendor", tmp), r, &o, &err), 0);
	if (s && s->count == 9) {
		CHECK_INT(s->patches[0].nclasses, 1);
		CHECK_STR(s->patches[0].classes[0], "code");
		CHECK(s->patches[0].risk == 2.0 * s->patches[0].distance);
		CHECK_STR(s->patches[8].classes[0], "docs");
		CHECK_STR(s->patches[6].classes[0], "other");
	}
	td_patch_set_free(s);
	td_policy_free(pol);
	td_result_free(r);
}

/* A patch's files are scored as compare scores them: a re-indenting
 * patch 0, a small file from its line diff (unless small files keep TLSH). */
static void test_scoring(void)
{
	td_result_t *r;
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;
	const td_patch_file_t *f;

	if (sh(fmt("set -e; cd '%s'; " GIT "init -q scored; cd scored; "
		   "awk 'BEGIN { for (i = 1; i <= 40; i++) printf \"int w_%%d(void) { return %%d * 3; }\\n\", i, i }' > w.c; "
		   "awk 'BEGIN { for (i = 1; i <= 12; i++) printf \"static int s_%%d = %%d + 1;\\n\", i, i }' > s.c; "
		   GIT "add -A; " GIT "commit -q -m base; " GIT "tag base; "
		   "sed -i 's/^/\\t/' w.c; " GIT "commit -q -am 'p1: indent'; "
		   "sed -i '5s/.*/static long s_vendor = 5;/' s.c; " GIT "commit -q -am 'p2: small'",
		   tmp))) {
		CHECK(0);
		return;
	}
	r = compare_specs(fmt("git:%s/scored@base", tmp), fmt("git:%s/scored@HEAD", tmp));
	if (!r)
		{ CHECK(0); return; }
	for (int keep_tlsh = 0; keep_tlsh < 2; keep_tlsh++) {
		td_patch_opts_init(&o);
		o.tlsh_small_files = keep_tlsh;
		CHECK_INT(td_patch_analyze(&s, fmt("git:%s/scored@base..HEAD", tmp), r, &o, &err), 0);
		if (!s || s->count != 2)
			{ CHECK(0); break; }
		f = pfile(&s->patches[0], "w.c");
		CHECK(f && f->lines_added == 40 && f->lines_removed == 40 && f->distance == 0 && !f->fallback);
		f = pfile(&s->patches[1], "s.c");
		CHECK(f && f->lines_added == 1 && f->lines_removed == 1 && !f->fallback);
		if (f && !keep_tlsh)
			CHECK_INT(f->distance, td_lines_distance(2.0 / 24.0));
		if (f && keep_tlsh)
			CHECK(f->distance > 0 && f->distance != td_lines_distance(2.0 / 24.0));
		td_patch_set_free(s);
		s = NULL;
	}
	td_result_free(r);
}

/* An added file that compare finds copied from an upstream file scores, in
 * the patch that adds it, its distance from that file (the same as
 * compare's, as no patch touched the origin); an added file with no origin
 * scores the added distance; a renamed file (moved) scores 0. For a git
 * range, and for the series applied to a directory, whose base tree must
 * then hold the origin though no patch touches it. */
static void test_copies(void)
{
	td_load_opts_t lo;
	td_origin_opts_t oo;
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_patch_opts_t o;
	td_patch_set_t *s = NULL;
	td_error_t err;
	const td_patch_file_t *f;
	const td_change_t *c = NULL;
	td_result_t *bare;
	int renamed = -1;

	if (sh(fmt("set -e; cd '%s'; " GIT "init -q copies; cd copies; mkdir drv; "
		   "awk 'BEGIN { for (i = 1; i <= 120; i++) printf \"static int acme_reg_%%d(struct acme *a) { return readl(a->base + %%d); }\\n\", i, i * 4 }' > drv/acme.c; "
		   "awk 'BEGIN { for (i = 1; i <= 90; i++) printf \"static const char *other_name_%%d = \\\"o%%d\\\";\\n\", i, i * 7 }' > drv/other.c; "
		   "mkdir big; awk 'BEGIN { for (i = 1; i <= 3000; i++) printf \"static int huge_%%d = %%d;\\n\", i, i * 7 }' > big/huge.c; "
		   "printf 'one\\ntwo\\nthree\\n' > notes.txt; "
		   GIT "add -A; " GIT "commit -q -m base; " GIT "tag base; "
		   "sed '7s/.*/static int acme_vendor(void) { return 7; }/; 90d' drv/acme.c > drv/acme2.c; "
		   GIT "add drv/acme2.c; " GIT "commit -q -m 'p1: copy acme'; "
		   "awk 'BEGIN { for (i = 1; i <= 60; i++) printf \"zeta %%d omega %%d kappa\\n\", i * 13, i * i }' > fresh.c; "
		   GIT "add fresh.c; " GIT "commit -q -m 'p2: new file'; "
		   GIT "mv notes.txt moved.txt; " GIT "commit -q -m 'p3: rename'; "
		   GIT "mv drv/acme.c drv/acme_v2.c; sed -i '30s/.*/static int acme_v2(void) { return 2; }/' drv/acme_v2.c; "
		   "awk 'BEGIN { for (i = 1; i <= 60; i++) printf \"theta %%d sigma %%d rho\\n\", i * 17, i * i * 3 }' > fresh2.c; "
		   "sed '5s/.*/zeta vendor/; 40d' fresh.c > fresh3.c; sed '3d; 50s/o/p/' drv/other.c > drv/other2.c; "
		   "sed '7d' big/huge.c > big/huge2.c; "
		   GIT "add -A; " GIT "commit -q -m 'p4: rename with a change, a new file, a copy of fresh.c'; "
		   "mkdir ../copies-base ../copies-target; " GIT "archive base | tar -x -C ../copies-base; "
		   GIT "archive HEAD | tar -x -C ../copies-target; " GIT "format-patch -q -o ../copies-fp base..HEAD",
		   tmp))) {
		CHECK(0);
		return;
	}
	td_load_opts_init(&lo);
	lo.upstream_full = 1;
	td_origin_opts_init(&oo);
	if (td_load_pair(&u, &t, fmt("%s/copies-base", tmp), fmt("%s/copies-target", tmp), &lo, NULL, &err) ||
	    td_compare(&r, u, t, NULL, &err) || td_origin_find(r, &oo, NULL, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		td_result_free(r);
		CHECK(0);
		return;
	}
	if (!(bare = compare_specs(fmt("%s/copies-base", tmp), fmt("%s/copies-target", tmp)))) {
		td_result_free(r);
		CHECK(0);
		return;
	}
	for (size_t i = 0; i < r->count; i++)
		if (r->changes[i].target && !strcmp(r->changes[i].target->path, "drv/acme2.c"))
			c = &r->changes[i];
	CHECK(c && c->origin_kind == TD_ORIGIN_COPIED && c->origin && !strcmp(c->origin->path, "drv/acme.c"));
	CHECK(c && c->distance > 0 && c->distance < TD_DEFAULT_ADDED_DISTANCE);
	for (int series = 0; series < 2 && c; series++) {
		td_patch_opts_init(&o);
		o.base_spec = fmt("%s/copies-base", tmp);
		CHECK_INT(td_patch_analyze(&s, series ? fmt("%s/copies-fp", tmp) : fmt("git:%s/copies@base..HEAD", tmp),
					   r, &o, &err), 0);
		if (!s || s->count != 4)
			{ CHECK(0); break; }
		f = pfile(&s->patches[0], "drv/acme2.c");
		CHECK(f && f->status == 'A' && f->copied_from && !strcmp(f->copied_from, "drv/acme.c"));
		CHECK(f && f->distance == c->distance && !f->fallback);
		CHECK_INT(s->patches[0].distance, c->distance);
		f = pfile(&s->patches[1], "fresh.c");
		CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
		f = pfile(&s->patches[2], "moved.txt");
		CHECK(f && f->copied_from && !strcmp(f->copied_from, "notes.txt") && f->distance == 0);
		CHECK_INT(s->patches[2].distance, 0);
		f = pfile(&s->patches[3], "drv/acme_v2.c");
		CHECK(f && f->copied_from && !strcmp(f->copied_from, "drv/acme.c"));
		if (f)
			renamed = f->distance;
		CHECK(f && f->distance > 0 && f->distance < TD_DEFAULT_ADDED_DISTANCE && !f->fallback);
		f = pfile(&s->patches[3], "fresh2.c");
		CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
		/* a copy of a file an earlier patch added, which this one keeps */
		f = pfile(&s->patches[3], "fresh3.c");
		CHECK(f && f->copied_from && !strcmp(f->copied_from, "fresh.c"));
		CHECK(f && f->distance > 0 && f->distance < TD_DEFAULT_ADDED_DISTANCE && !f->fallback);
		td_patch_set_free(s);
		s = NULL;
	}
	/* Without compare's origins: the renames within a patch, the changed
	 * one scored as with its origin, and the copies of files of the same
	 * directory that the patch keeps: the same scores as with them. */
	td_patch_opts_init(&o);
	td_patch_copy_file_max = 32 << 10; /* big/huge2.c is over it, the others under */
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/copies@base..HEAD", tmp), bare, &o, &err), 0);
	td_patch_copy_file_max = TD_PATCH_COPY_FILE_MAX;
	f = s && s->count == 4 ? pfile(&s->patches[0], "drv/acme2.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "drv/acme.c") && c && f->distance == c->distance);
	f = s && s->count == 4 ? pfile(&s->patches[3], "fresh3.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "fresh.c"));
	f = s && s->count == 4 ? pfile(&s->patches[2], "moved.txt") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "notes.txt") && f->distance == 0);
	f = s && s->count == 4 ? pfile(&s->patches[3], "drv/acme_v2.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "drv/acme.c") && f->distance == renamed);
	f = s && s->count == 4 ? pfile(&s->patches[3], "fresh2.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
	f = s && s->count == 4 ? pfile(&s->patches[3], "drv/other2.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "drv/other.c"));
	/* over the size limit: not searched for */
	f = s && s->count == 4 ? pfile(&s->patches[3], "big/huge2.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
	td_patch_set_free(s);
	s = NULL;
	/* A series, without compare's origins: its base holds the upstream
	 * files of each directory it adds a file to, so that drv/other.c, which
	 * no patch touches, is there for drv/other2.c. */
	o.base_spec = fmt("%s/copies-base", tmp);
	CHECK_INT(td_patch_analyze(&s, fmt("%s/copies-fp", tmp), bare, &o, &err), 0);
	f = s && s->count == 4 ? pfile(&s->patches[3], "drv/other2.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "drv/other.c"));
	CHECK(f && f->distance > 0 && f->distance < TD_DEFAULT_ADDED_DISTANCE);
	f = s && s->count == 4 ? pfile(&s->patches[3], "fresh3.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "fresh.c"));
	f = s && s->count == 4 ? pfile(&s->patches[3], "big/huge2.c") : NULL;
	CHECK(f && f->copied_from && !strcmp(f->copied_from, "big/huge.c"));
	o.base_spec = NULL;
	td_patch_set_free(s);
	s = NULL;
	/* Renames and copies need copy_similarity. */
	o.copy_similarity = 1.0;
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/copies@base..HEAD", tmp), bare, &o, &err), 0);
	f = s && s->count == 4 ? pfile(&s->patches[3], "drv/acme_v2.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
	f = s && s->count == 4 ? pfile(&s->patches[0], "drv/acme2.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
	f = s && s->count == 4 ? pfile(&s->patches[3], "fresh3.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == TD_DEFAULT_ADDED_DISTANCE);
	/* A patch's class comes from its changes to files the tree had: the
	 * copy, now new, makes its patch new; the fourth adds five new files
	 * and removes one, a change of distance 0. */
	if (s && s->count == 4) {
		CHECK_INT(s->patches[0].cls, TD_CLASS_NEW);
		CHECK_INT(s->patches[3].cls, TD_CLASS_CLEAN);
		CHECK(s->patches[3].distance >= 5 * TD_DEFAULT_ADDED_DISTANCE);
	}
	td_patch_set_free(s);
	s = NULL;
	/* A copy no nearer to its origin than the added distance is not one. */
	td_patch_opts_init(&o);
	o.added_distance = c ? c->distance : 1;
	CHECK_INT(td_patch_analyze(&s, fmt("git:%s/copies@base..HEAD", tmp), r, &o, &err), 0);
	f = s && s->count == 4 ? pfile(&s->patches[0], "drv/acme2.c") : NULL;
	CHECK(f && !f->copied_from && f->distance == o.added_distance);
	f = s && s->count == 4 ? pfile(&s->patches[2], "moved.txt") : NULL;
	CHECK(f && f->copied_from && f->distance == 0);
	td_patch_set_free(s);
	td_result_free(r);
	td_result_free(bare);
}

int main(void)
{
	test_origins();
	test_text();
	check_tmpdir(tmp, sizeof(tmp), "patch");
	if (build_fixture()) {
		CHECK(0);
	} else {
		test_git_range();
		test_unexplained();
		test_series_kinds();
		test_policy();
		test_scoring();
		test_copies();
	}
	sh(fmt("rm -rf '%s'", tmp));
	return check_finish();
}
