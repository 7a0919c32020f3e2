/* The Markdown report: a manifest of where the target differs from upstream,
 * one table row per modified or added file (path, size, policy class,
 * distance, class, nearest upstream), then a table of the removed files. Strings are
 * escaped as in the HTML report (C escapes for controls, bidirectional
 * formatting characters, backslash and bytes that are not well-formed UTF-8),
 * then for Markdown: a backslash before each character that could start
 * markup or end a table cell. See doc/formats.md, "Markdown". */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/lines.h"
#include "treedrift/patch.h"
#include "treedrift/upstream.h"
#include "internal.h"

/* One byte of C-escaped text, with a backslash before each character that
 * could start markup or end a table cell. */
static void md_char(FILE *f, unsigned char c)
{
	if (strchr("\\`*_[]<>|&~$", c) && c)
		fputc('\\', f);
	fputc(c, f);
}

static void md_text(FILE *f, const char *s, size_t len)
{
	td_escape_walk(f, s, len, md_char);
}

static void md_cstr(FILE *f, const char *s)
{
	if (s)
		md_text(f, s, strlen(s));
}

static void md_meta(FILE *f, const char *side, const td_tree_t *t)
{
	fprintf(f, "- **%s**: ", side);
	if (t && t->meta.label)
		md_cstr(f, t->meta.label);
	else
		fputs("(no label)", f);
	if (t && t->meta.root) {
		fputs(" (", f);
		md_cstr(f, t->meta.root);
		fputs(")", f);
	}
	fputs("\n", f);
}

static void md_origin(FILE *f, const td_change_t *c)
{
	if (c->origin && (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED)) {
		char sim[TD_REPORT_NUM_MAX];
		md_text(f, c->origin->path, c->origin->path_len);
		fputs(c->origin_kind == TD_ORIGIN_MOVED ? " (moved)" : " (copied)", f);
		if (c->origin_kind == TD_ORIGIN_COPIED && *td_report_similarity(sim, c))
			fprintf(f, " similarity %s", sim);
	} else if (c->status == TD_STATUS_MODIFIED && c->upstream) {
		fputs("same path", f);
	} else {
		fputs("none", f);
	}
	if (c->matches_version) {
		fputs(c->version_match == TD_VERSION_MATCH_ROLLBACK ? "; rollback to " : "; backport of ", f);
		md_cstr(f, c->matches_version);
	}
}

static void md_row(FILE *f, const td_change_t *c, int policy, int lines)
{
	const td_file_t *file = td_report_change_file(c);
	const char *cls = td_class_name(c->cls);
	char text[TD_LINES_TEXT_MAX];

	fputs("| ", f);
	md_text(f, file->path, file->path_len);
	fprintf(f, " | %s | %" PRIu64 " | ", td_report_status_word(c), file->size_bytes);
	if (lines)
		fprintf(f, "%s | ", c->lines ? td_lines_text(text, c) : "-");
	if (c->policy_class)
		md_cstr(f, c->policy_class);
	else
		fputs(policy ? "other" : "-", f);
	fprintf(f, " | %d | %s | ", c->distance, cls ? cls : "-");
	if (policy) {
		char num[TD_REPORT_NUM_MAX];
		if (isfinite(c->risk))
			td_report_fixed(num, c->risk, 1);
		else
			memcpy(num, "-", 2);
		fprintf(f, "%s | ", num);
	}
	md_origin(f, c);
	fputs(" |\n", f);
}

static void md_list(FILE *f, char *const *v, size_t n, const char *none)
{
	if (!n)
		fputs(none, f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		md_cstr(f, v[i]);
	}
}

/* With --history, the origin verified against it: the upstream commit the
 * patch is (cherry-pick) or mostly is (backport), and whether the declared
 * commit holds. */
static void md_verified(FILE *f, const td_patch_upstream_t *u)
{
	fputs("; verified: ", f);
	td_report_patch_verified(f, u, md_cstr);
}

/* With --rebase-onto: the counts, then the patches the newer tree has
 * already and those in conflict there, in series order (# as in the
 * certification). */
static void md_rebase(FILE *f, const td_patch_set_t *s)
{
	if (!s->rebase_onto)
		return;
	fputs("\n### Rebase onto ", f);
	md_cstr(f, s->rebase_onto);
	fputs("\n\nEach patch applied in turn, as git rebase applies a commit: ", f);
	td_report_rebase_counts(f, s);
	fputs(".\n", f);
	if (!s->rebase_count[TD_REBASE_PRESENT] && !s->rebase_count[TD_REBASE_CONFLICT])
		return;
	fputs("\n| # | patch | status | conflict |\n|---:|---|---|---|\n", f);
	for (size_t i = 0; i < s->count; i++) {
		const td_patch_t *p = &s->patches[i];
		if (p->rebase != TD_REBASE_PRESENT && p->rebase != TD_REBASE_CONFLICT)
			continue;
		fprintf(f, "| %zu | ", i + 1);
		md_cstr(f, p->subject ? p->subject : p->id);
		fprintf(f, " | %s | ", td_report_rebase_word(p->rebase));
		if (p->rebase_file)
			td_report_rebase_conflict(f, p, md_cstr);
		fputs(" |\n", f);
	}
}

/* How many of a patch's files it adds, and of them how many came from
 * another file (copied_from): " (3 added, 2 copied)"; nothing for none. */
static void md_added_files(FILE *f, const td_patch_t *p)
{
	size_t added = 0, copied = 0;

	for (size_t i = 0; i < p->nfiles; i++) {
		added += p->files[i].status == 'A';
		copied += p->files[i].status == 'A' && p->files[i].copied_from;
	}
	if (!added)
		return;
	fprintf(f, " (%zu added", added);
	if (copied)
		fprintf(f, ", %zu copied", copied);
	fputs(")", f);
}

/* With --patches: the certification of contents, one entry per patch in
 * series order (purpose, size, location, class, risk, origin), then the
 * changed files no patch explains. */
static void md_patches(FILE *f, const td_analysis_t *a, int policy)
{
	const td_patch_set_t *s = a->patches;

	fputs("\n## Patches\n\n", f);
	fprintf(f, "%zu patches from ", s->count);
	md_cstr(f, s->source);
	fprintf(f, " (%s). %zu changed files no patch explains; %zu the patches do not reproduce.\n\n",
		s->kind, s->unexplained, s->not_reproduced);
	fprintf(f, "| # | patch | purpose | size | location | distance | class |%s origin |\n", policy ? " risk |" : "");
	fprintf(f, "|---:|---|---|---|---|---:|---|%s---|\n", policy ? "---:|" : "");
	for (size_t i = 0; i < s->count; i++) {
		const td_patch_t *p = &s->patches[i];
		const char *cls = td_class_name(p->cls);
		fprintf(f, "| %zu | ", i + 1);
		md_cstr(f, p->id);
		fputs(" | ", f);
		md_cstr(f, p->subject ? p->subject : "");
		fprintf(f, " | %zu %s", p->nfiles, p->nfiles == 1 ? "file" : "files");
		md_added_files(f, p);
		fprintf(f, ", +%" PRIu64 " -%" PRIu64 " lines, %" PRIu64 " surviving | ", p->lines_added,
			p->lines_removed, p->lines_surviving);
		md_list(f, p->top_dirs, p->ntop_dirs, "-");
		if (policy) {
			fputs(" (", f);
			md_list(f, p->classes, p->nclasses, "other");
			fputs(")", f);
		}
		fprintf(f, " | %d | %s | ", p->distance, cls ? cls : "-");
		if (policy) {
			char num[TD_REPORT_NUM_MAX];
			if (isfinite(p->risk))
				td_report_fixed(num, p->risk, 1);
			else
				memcpy(num, "-", 2);
			fprintf(f, "%s | ", num);
		}
		fputs(td_patch_status_name(p->origin.status), f);
		if (p->origin.commit) {
			fputs(" (", f);
			md_cstr(f, p->origin.commit);
			fputs(")", f);
		}
		if (a->upstream && i < a->upstream->npatches)
			md_verified(f, &a->upstream->patches[i]);
		fputs(" |\n", f);
	}
	md_rebase(f, s);
	if (!s->unexplained)
		return;
	fputs("\n### Changed files no patch explains\n\n| path | status |\n|---|---|\n", f);
	for (size_t i = 0; i < s->nfiles; i++) {
		const td_change_t *c = &a->result->changes[s->files[i].change];
		const td_file_t *file = td_report_change_file(c);
		if (s->files[i].npatches)
			continue;
		fputs("| ", f);
		md_text(f, file->path, file->path_len);
		fprintf(f, " | %s |\n", td_status_name(c->status));
	}
}

/* Fixes the Markdown lists at most; the JSON has every commit. */
#define MD_FIXES_MAX 50

/* A commit id, cut to git's 12 digits. */
static void md_commit(FILE *f, const char *id)
{
	fprintf(f, "%.12s", id);
}

/* With --history: the fixes among the upstream commits the target lacks
 * (missing or partial), in the analysis's order (a CVE first), and the
 * counts. The commits that are no fixes are only counted. */
static void md_missing_fixes(FILE *f, const td_upstream_t *u)
{
	size_t want = td_fix_lacking(u->fix_count), shown = 0;
	char tags[256];

	fputs("\n## Missing upstream fixes\n\n", f);
	fprintf(f, "Of %zu upstream commits that touch the target's files, %zu are missing and %zu partial; "
		   "of those, %zu are fixes (Fixes:, Cc: stable or a CVE id) and %zu name a CVE.\n",
		u->nfixes, u->status_count[TD_FIX_MISSING], u->status_count[TD_FIX_PARTIAL], want,
		td_fix_lacking(u->cve_count));
	if (!want)
		return;
	fputs("\n| status | tags | commit | subject | files |\n|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < u->nfixes && shown < MD_FIXES_MAX; i++) {
		const td_upstream_fix_t *x = &u->fixes[i];
		if (x->status != TD_FIX_MISSING && x->status != TD_FIX_PARTIAL)
			break;
		if (!x->fix)
			continue;
		td_report_fix_tags(tags, sizeof(tags), &x->tags);
		fprintf(f, "| %s | %s | %.12s | ", td_fix_status_name(x->status), tags, x->id);
		md_cstr(f, x->subject);
		/* what to take with it */
		if (x->nfixed_by) {
			fputs(" (fixed later by ", f);
			td_report_fixed_by(f, x, md_commit);
			fputc(')', f);
		}
		fputs(" | ", f);
		td_report_fix_files(f, x, md_cstr);
		fputs(" |\n", f);
		shown++;
	}
	if (shown < want)
		fprintf(f, "\n... and %zu more fixes (the JSON report lists every commit).\n", want - shown);
}

int td_report_markdown(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	const td_totals_t *t = &r->totals;
	size_t *idx = NULL, n = 0, removed = 0;
	int policy, rc;

	if (!f || !r)
		return TD_EINVAL;
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	policy = td_report_has_policy(r);
	fputs("# Differences from upstream\n\n", f);
	md_meta(f, "Target", r->target);
	md_meta(f, "Upstream", r->upstream);
	fputs("- **Base version**: ", f);
	if (r->base_version)
		md_cstr(f, r->base_version);
	else
		fputs("(unknown)", f);
	fprintf(f, "\n- **Classes**: clean below %d, safe %d to %d, dirty above %d\n",
		r->thresholds.clean_below, r->thresholds.clean_below, r->thresholds.dirty_above,
		r->thresholds.dirty_above);
	fprintf(f, "- **Policy**: %s\n", policy ? "path policy applied" : "none");
	if (r->lines_counted) {
		fputs("- **Lines**: ", f);
		td_report_line_totals(f, t, TD_MINUS_SIGN, " in modified files");
		fputc('\n', f);
	}
	if (t->cosmetic || t->cosmetic_unknown) {
		fputs("- **Cosmetic**: ", f);
		td_report_cosmetic_totals(f, t);
		fputc('\n', f);
	}
	if (r->lines_missing) {
		fputs("- **Line counts missing**: ", f);
		md_cstr(f, r->lines_missing);
		fputc('\n', f);
	}
	fprintf(f, "- **Generated by**: treedrift %s\n\n", td_version());

	fputs("## Summary\n\n| | files | distance |\n|---|---:|---:|\n", f);
	fprintf(f, "| identical | %" PRIu64 " | |\n", t->identical);
	fprintf(f, "| modified | %" PRIu64 " | %" PRIu64 " |\n", t->modified, t->modified_distance);
	fprintf(f, "| added | %" PRIu64 " | %" PRIu64 " |\n", t->added, t->added_distance);
	fprintf(f, "| removed | %" PRIu64 " | |\n", t->removed);
	fprintf(f, "| skipped | %" PRIu64 " | |\n", t->skipped);
	for (int c = TD_CLASS_CLEAN; c < TD_CLASS_COUNT; c++)
		fprintf(f, "| %s | %" PRIu64 " | %" PRIu64 " |\n", td_class_name((td_class_t)c),
			t->by_class[c].files, t->by_class[c].distance);
	fprintf(f, "| **total** | %" PRIu64 " | %" PRIu64 " |\n\n", t->mismatched, t->total_distance);

	fputs("## Modified and added files\n\n", f);
	fprintf(f, "| path | status | size |%s policy class | distance | class |%s nearest upstream |\n",
		r->lines_counted ? " lines |" : "", policy ? " risk |" : "");
	fprintf(f, "|---|---|---:|%s---|---:|---|%s---|\n", r->lines_counted ? "---:|" : "",
		policy ? "---:|" : "");
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		if (td_report_is_scored(c))
			md_row(f, c, policy, r->lines_counted);
		else if (c->status == TD_STATUS_REMOVED)
			removed++;
	}
	if (removed) {
		fputs("\n## Removed files\n\n| path | upstream size |\n|---|---:|\n", f);
		for (size_t i = 0; i < n; i++) {
			const td_change_t *c = &r->changes[idx[i]];
			const td_file_t *file = td_report_change_file(c);
			if (c->status != TD_STATUS_REMOVED)
				continue;
			fputs("| ", f);
			md_text(f, file->path, file->path_len);
			fprintf(f, " | %" PRIu64 " |\n", file->size_bytes);
		}
	}
	if (a->patches)
		md_patches(f, a, policy);
	if (a->upstream)
		md_missing_fixes(f, a->upstream);
	rc = td_report_finish(f);
	free(idx);
	return rc;
}
