/* The text report: a header, the files a view lists, the skipped files and
 * the totals, for a terminal or a log. Every string from a tree (paths,
 * labels, roots, reasons) is escaped so that it cannot forge a line or send
 * the terminal a control sequence. See doc/formats.md, "Text". */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/origin.h"
#include "treedrift/annotate.h"
#include "treedrift/lines.h"
#include "treedrift/rollup.h"
#include "internal.h"

#define ANSI_RESET "\033[0m"
#define STATUS_WIDTH 9
#define CLASS_WIDTH 5
#define TOTALS_LABEL_WIDTH 15
#define TOTALS_NUMBER_WIDTH 7

static const char *class_color(td_class_t cls)
{
	switch (cls) {
	case TD_CLASS_CLEAN: return "\033[32m";
	case TD_CLASS_SAFE: return "\033[33m";
	case TD_CLASS_DIRTY: return "\033[31m";
	case TD_CLASS_NEW: return "\033[36m";
	default: return NULL;
	}
}

static void put_octal(FILE *f, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\\%03o", p[i]);
}

/* C-style escapes, as git's quotepath and `ls --quoting-style=escape`:
 * \a \b \t \n \v \f \r \\ and \ooo for every other unsafe or invalid byte. */
static void put_escaped(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len) {
		uint32_t cp;
		size_t n = td_utf8_put_plain(f, p, len);
		const char *esc = NULL;

		if (n) {
			p += n;
			len -= n;
			continue;
		}
		if (!(n = td_utf8_next(p, len, &cp))) {
			put_octal(f, p, 1);
			p++;
			len--;
			continue;
		}
		switch (cp) {
		case '\a': esc = "\\a"; break;
		case '\b': esc = "\\b"; break;
		case '\t': esc = "\\t"; break;
		case '\n': esc = "\\n"; break;
		case '\v': esc = "\\v"; break;
		case '\f': esc = "\\f"; break;
		case '\r': esc = "\\r"; break;
		case '\\': esc = "\\\\"; break;
		}
		if (esc)
			fputs(esc, f);
		else if (td_utf8_unsafe(cp))
			put_octal(f, p, n);
		else
			fwrite(p, 1, n, f);
		p += n;
		len -= n;
	}
}

static void put_escaped_str(FILE *f, const char *s)
{
	if (s)
		put_escaped(f, s, strlen(s));
	else
		fputc('-', f);
}

static void put_file_path(FILE *f, const td_file_t *file)
{
	if (file)
		put_escaped(f, file->path, file->path_len);
	else
		fputc('-', f);
}

/* text left-aligned in width columns, coloured when color is set; the
 * padding stays outside the colour codes. */
static void put_padded(FILE *f, const char *text, const char *color, int width)
{
	int len = (int)strlen(text);

	if (color)
		fprintf(f, "%s%s%s", color, text, ANSI_RESET);
	else
		fputs(text, f);
	if (len < width)
		fprintf(f, "%*s", width - len, "");
}

static void put_class(FILE *f, td_class_t cls, int color, int width)
{
	const char *name = td_class_name(cls);

	put_padded(f, name ? name : "-", name && color ? class_color(cls) : NULL, width);
}

static void put_meta(FILE *f, const char *side, const td_tree_meta_t *m)
{
	fprintf(f, "%s: ", side);
	if (m->label) {
		put_escaped_str(f, m->label);
		fputs(" (", f);
		put_escaped_str(f, m->root);
		fputs(", ", f);
	} else {
		put_escaped_str(f, m->root);
		fputs(" (", f);
	}
	put_escaped_str(f, m->source_kind);
	if (m->scanned_at) {
		fputs(", scanned ", f);
		put_escaped_str(f, m->scanned_at);
	}
	fputs(")\n", f);
}

/* What --arch, --config and the policy did. */
static void put_kernel_header(FILE *f, const td_analysis_t *a)
{
	const td_annotate_info_t *k = a->kernel;

	if (!k)
		return;
	if (k->arch) {
		fputs("arch: ", f);
		put_escaped_str(f, k->srcarch ? k->srcarch : k->arch);
		fprintf(f, " (%" PRIu64 " file%s of other architectures left out of the two trees)\n",
			k->arch_dropped, k->arch_dropped == 1 ? "" : "s");
	}
	if (k->config) {
		fputs("config: ", f);
		put_escaped_str(f, k->config);
		fprintf(f, " (%" PRIu64 " source%s built, %" PRIu64 " Kbuild construct%s not understood",
			k->kbuild_sources, k->kbuild_sources == 1 ? "" : "s", k->kbuild_warnings,
			k->kbuild_warnings == 1 ? "" : "s");
		if (k->built_only)
			fprintf(f, ", %" PRIu64 " not-built file%s left out", k->built_dropped,
				k->built_dropped == 1 ? "" : "s");
		fputs(")\n", f);
	}
	if (k->policy) {
		fputs("policy: ", f);
		put_escaped_str(f, k->policy);
		fputs(k->policy_builtin ? " (built-in)\n" : "\n", f);
	}
}

/* The history and the split of the total distance, with --history. */
static void put_history_header(FILE *f, const td_analysis_t *a)
{
	const td_provenance_t *p = a->provenance;
	const td_history_t *h = p ? p->history : NULL;

	if (!h)
		return;
	fputs("history: ", f);
	put_escaped_str(f, h->repo);
	fprintf(f, ", base %.12s, %zu commit%s (%zu merge%s left out)\n", h->base, h->count, h->count == 1 ? "" : "s",
		h->merges_skipped, h->merges_skipped == 1 ? "" : "s");
	fprintf(f, "provenance: distance %" PRIu64 " upstream + %" PRIu64 " local; lines %" PRIu64 " upstream, %" PRIu64
		" local; classes from the %s distance\n", p->distance_upstream, p->distance_local, p->lines_upstream,
		p->lines_local, a->classify_local ? "local" : "total");
}

static void put_header(FILE *f, const td_analysis_t *a)
{
	const td_result_t *r = a->result;
	const td_tree_meta_t none = { 0 };

	put_meta(f, "upstream", r->upstream ? &r->upstream->meta : &none);
	put_meta(f, "target", r->target ? &r->target->meta : &none);
	if (r->base_version) {
		fputs("base version: ", f);
		put_escaped_str(f, r->base_version);
		fputc('\n', f);
	}
	fprintf(f, "classes: clean < %d, safe %d-%d, dirty > %d (TLSH distance, length term %s)\n",
		r->thresholds.clean_below, r->thresholds.clean_below, r->thresholds.dirty_above,
		r->thresholds.dirty_above, r->len_diff ? "on" : "off");
	put_kernel_header(f, a);
	put_history_header(f, a);
	if (r->lines_missing) {
		fputs("line counts missing: ", f);
		put_escaped_str(f, r->lines_missing);
		fputc('\n', f);
	}
}

/* "+A −R", "(binary)" or "(lines missing)" after a modified file's path. */
static void put_lines(FILE *f, const td_change_t *c)
{
	char text[TD_LINES_TEXT_MAX];

	if (c->lines == TD_LINES_COUNTED)
		fprintf(f, "  %s", td_lines_text(text, c));
	else if (c->lines == TD_LINES_BINARY)
		fputs("  (binary)", f);
	else if (c->lines == TD_LINES_MISSING)
		fputs("  (lines missing)", f);
}

static void put_annotations(FILE *f, const td_change_t *c, int policy)
{
	char weight[TD_REPORT_NUM_MAX], risk[TD_REPORT_NUM_MAX];

	if (c->origin && c->origin_kind == TD_ORIGIN_MOVED) {
		fputs("  (moved from ", f);
		put_file_path(f, c->origin);
		fputc(')', f);
	} else if (c->origin && c->origin_kind == TD_ORIGIN_COPIED) {
		char sim[TD_REPORT_NUM_MAX];
		fputs("  (copied from ", f);
		put_file_path(f, c->origin);
		fprintf(f, ", distance %d", c->distance);
		if (*td_report_similarity(sim, c))
			fprintf(f, ", similarity %s", sim);
		fputc(')', f);
	}
	if (c->matches_version) {
		fputs(c->version_match == TD_VERSION_MATCH_ROLLBACK ? "  (rollback to " : "  (backport of ", f);
		put_escaped_str(f, c->matches_version);
		fputc(')', f);
	}
	if (c->cosmetic == TD_COSMETIC_UNKNOWN)
		fputs("  (cosmetic unknown)", f);
	if (c->built == TD_BUILT_NO)
		fputs("  (not built)", f);
	else if (c->built == TD_BUILT_SUPPORT)
		fputs("  (support file)", f);
	if (policy && td_report_is_scored(c)) {
		td_report_trimmed(weight, c->weight, 3);
		td_report_fixed(risk, c->risk, 1);
		fputs("  (policy ", f);
		put_escaped_str(f, c->policy_class);
		fprintf(f, ", weight %s, risk %s)", weight, risk);
	}
}

/* "(upstream +A −R, local +A −R, local distance N)" with a history. */
static void put_provenance(FILE *f, const td_file_provenance_t *fp)
{
	if (!fp)
		return;
	if (fp->state != TD_PROV_DONE) {
		fprintf(f, "  (local: %s)", fp->state == TD_PROV_BINARY ? "binary" : "not read");
		return;
	}
	fprintf(f, "  (upstream +%" PRIu64 " " TD_MINUS_SIGN "%" PRIu64 ", local +%" PRIu64 " " TD_MINUS_SIGN "%" PRIu64
		", local distance %d)", fp->added_upstream, fp->removed_upstream, fp->added_local, fp->removed_local,
		fp->distance_local);
}

static void put_change(FILE *f, const td_change_t *c, const td_view_t *v, int policy,
		       const td_file_provenance_t *fp)
{
	fprintf(f, "  %-*s ", STATUS_WIDTH, td_report_status_word(c));
	put_class(f, c->cls, v->color, CLASS_WIDTH);
	if (td_report_is_scored(c))
		fprintf(f, " %4d%c ", c->distance, c->scored_by_lines ? '~' : c->fallback ? '*' : ' ');
	else
		fprintf(f, " %4s  ", "-");
	put_file_path(f, td_report_change_file(c));
	put_lines(f, c);
	put_annotations(f, c, policy);
	put_provenance(f, fp);
	fputc('\n', f);
}

/* The analysis's dirty core files (treedrift/analysis.h) that the view
 * lists: the ones to look at first. */
static int put_dirty_core(FILE *f, const td_analysis_t *a, const size_t *idx, size_t n, const td_view_t *v)
{
	const td_result_t *r = a->result;
	unsigned char *listed;
	size_t count = 0;

	if (!(listed = calloc(r->count ? r->count : 1, 1)))
		return TD_ENOMEM;
	for (size_t i = 0; i < n; i++)
		listed[idx[i]] = 1;
	for (size_t i = 0; i < a->dirty_core_count; i++)
		count += listed[a->dirty_core[i]];
	fprintf(f, "Dirty core files (policy weight > %.1f, by risk): %zu\n", TD_CORE_WEIGHT, count);
	for (size_t i = 0; i < a->dirty_core_count; i++)
		if (listed[a->dirty_core[i]])
			put_change(f, &r->changes[a->dirty_core[i]], v, 1,
				   td_provenance_find(a->provenance, a->dirty_core[i]));
	fputc('\n', f);
	free(listed);
	return TD_OK;
}

static void put_list(FILE *f, const td_result_t *r, const size_t *idx, size_t n, const td_view_t *v, int policy,
		     const td_provenance_t *prov)
{
	uint64_t mismatched = r->totals.mismatched;
	size_t listed = 0;
	int fallback = 0, by_lines = 0;

	for (size_t i = 0; i < n; i++)
		if (r->changes[idx[i]].status != TD_STATUS_SKIPPED)
			listed++;
	fprintf(f, "%" PRIu64 " mismatched file%s", mismatched, mismatched == 1 ? "" : "s");
	if (listed != mismatched)
		fprintf(f, " (%zu listed)", listed);
	fputs(listed ? ":\n" : "\n", f);
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		if (c->status == TD_STATUS_SKIPPED)
			continue;
		put_change(f, c, v, policy, td_provenance_find(prov, idx[i]));
		fallback |= td_report_is_scored(c) && c->fallback && !c->scored_by_lines;
		by_lines |= td_report_is_scored(c) && c->scored_by_lines;
	}
	if (fallback)
		fputs("  * scored by the fallback: no TLSH digest on one side\n", f);
	if (by_lines)
		fprintf(f, "  ~ scored from the line diff: a small file (under %d bytes), where TLSH is unreliable\n",
			TD_LINES_SMALL_FILE_BYTES);
}

static void put_skipped(FILE *f, const td_result_t *r, const size_t *idx, size_t n)
{
	int header = 0;

	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		const td_file_t *file;

		if (c->status != TD_STATUS_SKIPPED)
			continue;
		if (!header) {
			fputs("\nSkipped files:\n", f);
			header = 1;
		}
		file = td_report_skipped_file(c);
		fputs("  ", f);
		put_file_path(f, td_report_change_file(c));
		fputs(": ", f);
		put_escaped_str(f, file ? file->skip_reason : NULL);
		if (file && file->skip_detail) {
			fputs(" (", f);
			put_escaped_str(f, file->skip_detail);
			fputc(')', f);
		}
		if (file && file == c->upstream && c->upstream != c->target)
			fputs(" [upstream]", f);
		fputc('\n', f);
	}
}

static void put_total(FILE *f, const char *label, const char *color, const char *number)
{
	fputs("  ", f);
	put_padded(f, label, color, TOTALS_LABEL_WIDTH);
	fprintf(f, " %*s", TOTALS_NUMBER_WIDTH, number);
}

static void put_count(FILE *f, const char *label, const char *color, uint64_t n)
{
	char num[32];

	snprintf(num, sizeof(num), "%" PRIu64, n);
	put_total(f, label, color, num);
}

static void put_provenance_totals(FILE *f, const td_analysis_t *a)
{
	const td_provenance_t *p = a->provenance;

	if (!p)
		return;
	put_count(f, "upstream part", NULL, p->distance_upstream);
	fprintf(f, "  lines %" PRIu64 ", %" PRIu64 " files all upstream, %" PRIu64 " mixed\n", p->lines_upstream,
		p->files_upstream, p->files_mixed);
	put_count(f, "local part", NULL, p->distance_local);
	fprintf(f, "  lines %" PRIu64 ", %" PRIu64 " files all local\n", p->lines_local, p->files_local);
	put_count(f, "commits used", NULL, p->commits_used);
	fprintf(f, "  of %zu upstream commits explain a line\n", p->history->count);
}

/* Changed files by build status: built, not built, support file. */
static void put_build_totals(FILE *f, const td_result_t *r, int policy)
{
	static const char *const labels[3] = { "not built", "built", "support files" };
	static const int order[3] = { 1, 0, 2 };

	for (int i = 0; i < 3; i++) {
		const td_build_totals_t *b = &r->totals.by_built[order[i]];
		put_count(f, labels[order[i]], NULL, b->files);
		fprintf(f, "  distance %" PRIu64, b->distance);
		if (policy) {
			char risk[TD_REPORT_NUM_MAX];
			td_report_fixed(risk, b->risk, 1);
			fprintf(f, ", risk %s", risk);
		}
		fputc('\n', f);
	}
}

static void put_totals(FILE *f, const td_result_t *r, const td_view_t *v, int policy)
{
	const td_totals_t *t = &r->totals;

	fputs("\nTotals:\n", f);
	put_count(f, "identical", NULL, t->identical);
	fputc('\n', f);
	put_count(f, "modified", NULL, t->modified);
	fprintf(f, "  distance %" PRIu64, t->modified_distance);
	if (r->lines_counted) {
		fputs(", lines ", f);
		td_report_line_totals(f, t, TD_MINUS_SIGN, "");
	}
	fputc('\n', f);
	if (t->cosmetic || t->cosmetic_unknown) {
		put_count(f, "cosmetic", NULL, t->cosmetic);
		fputs("  whitespace only: distance 0, clean", f);
		if (t->cosmetic_unknown)
			fprintf(f, "; %" PRIu64 " unknown", t->cosmetic_unknown);
		fputc('\n', f);
	}
	put_count(f, "added", NULL, t->added);
	fprintf(f, "  distance %" PRIu64 ", %" PRIu64 " bytes\n", t->added_distance, t->added_bytes);
	put_count(f, "removed", NULL, t->removed);
	fprintf(f, "  %" PRIu64 " bytes\n", t->removed_bytes);
	put_count(f, "skipped", NULL, t->skipped);
	fputc('\n', f);
	for (td_class_t cls = TD_CLASS_CLEAN; cls < TD_CLASS_COUNT; cls++) {
		put_count(f, td_class_name(cls), v->color ? class_color(cls) : NULL, t->by_class[cls].files);
		fprintf(f, "  distance %" PRIu64 "\n", t->by_class[cls].distance);
	}
	put_count(f, "total distance", NULL, t->total_distance);
	fputc('\n', f);
	put_count(f, "fallback-scored", NULL, t->fallback_scored);
	fputc('\n', f);
	if (t->lines_scored) {
		put_count(f, "line-scored", NULL, t->lines_scored);
		fputc('\n', f);
	}
	if (policy) {
		char risk[TD_REPORT_NUM_MAX];
		td_report_fixed(risk, t->total_risk, 1);
		put_total(f, "total risk", NULL, risk);
		fputc('\n', f);
	}
	if (td_report_has_build_info(r))
		put_build_totals(f, r, policy);
}

/* One rollup table: a row per key, by distance; risk only with a policy. */
static void put_rollup(FILE *f, const char *title, const char *key_name, const td_rollup_t *ru,
		       int policy)
{
	fprintf(f, "\n%s: %zu row%s\n", title, ru->count, ru->count == 1 ? "" : "s");
	if (!ru->count)
		return;
	fprintf(f, "  %8s", "distance");
	if (policy)
		fprintf(f, " %9s", "risk");
	fprintf(f, " %8s %5s %7s %5s  %s\n", "modified", "added", "removed", "dirty", key_name);
	for (size_t i = 0; i < ru->count; i++) {
		const td_rollup_row_t *row = &ru->rows[i];

		fprintf(f, "  %8" PRIu64, row->distance);
		if (policy) {
			char risk[TD_REPORT_NUM_MAX];
			td_report_fixed(risk, row->risk, 1);
			fprintf(f, " %9s", risk);
		}
		fprintf(f, " %8" PRIu64 " %5" PRIu64 " %7" PRIu64 " %5" PRIu64 "  ",
			row->by_status[TD_STATUS_MODIFIED], row->by_status[TD_STATUS_ADDED],
			row->by_status[TD_STATUS_REMOVED], row->by_class[TD_CLASS_DIRTY]);
		put_escaped(f, row->key, row->key_len);
		fputc('\n', f);
	}
}

static void put_rollups(FILE *f, const td_analysis_t *a, int policy)
{
	char title[64];

	if (a->dir_rollup) {
		snprintf(title, sizeof(title), "By directory (depth %u)", a->by_dir);
		put_rollup(f, title, "directory", a->dir_rollup, policy);
	}
	if (a->class_rollup)
		put_rollup(f, "By policy class", "class", a->class_rollup, policy);
	if (a->subsystem_rollup)
		put_rollup(f, "By MAINTAINERS subsystem", "subsystem", a->subsystem_rollup, policy);
}

/* The files explained by an origin, when there are any: moved, copied, and
 * when some file equals another upstream version's, backports and rollbacks. */
static void put_origin_totals(FILE *f, const td_analysis_t *a)
{
	const td_origin_counts_t n = a->origin_counts;

	if (!n.moved && !n.copied && !n.matches_version)
		return;
	put_count(f, "moved", NULL, n.moved);
	fputc('\n', f);
	put_count(f, "copied", NULL, n.copied);
	fputc('\n', f);
	if (!n.matches_version)
		return;
	put_count(f, "backport", NULL, n.backport);
	fprintf(f, "  distance %" PRIu64 "  (equal to a newer upstream version)\n", n.backport_distance);
	put_count(f, "rollback", NULL, n.rollback);
	fprintf(f, "  distance %" PRIu64 "  (equal to an older upstream version)\n", n.rollback_distance);
}

/* A patch id as a column: a commit id cut to 12 digits. */
static void put_patch_id(FILE *f, const char *id)
{
	size_t n = strlen(id);

	if (n == 40 && strspn(id, "0123456789abcdef") == 40)
		n = 12;
	put_escaped(f, id, n);
}

/* The changed files of one kind: none of the patches touch them (want 0),
 * or the patches do not give their content (want 1). */
static void put_patch_files(FILE *f, const td_analysis_t *a, int not_reproduced)
{
	const td_patch_set_t *s = a->patches;

	for (size_t i = 0; i < s->nfiles; i++) {
		const td_patch_file_ref_t *ref = &s->files[i];
		const td_change_t *c = &a->result->changes[ref->change];
		if (not_reproduced ? ref->reproduced != 0 || !ref->npatches : ref->npatches != 0)
			continue;
		fprintf(f, "  %-8s  ", td_status_name(c->status));
		put_file_path(f, td_report_change_file(c));
		fputc('\n', f);
	}
}

/* With --rebase-onto: the counts, then in series order the patches that
 * the newer tree has already and those that conflict there. */
static void put_rebase(FILE *f, const td_patch_set_t *s)
{
	if (!s->rebase_onto)
		return;
	fputs("\nRebase onto ", f);
	put_escaped_str(f, s->rebase_onto);
	fputs(": ", f);
	td_report_rebase_counts(f, s);
	fputc('\n', f);
	for (size_t i = 0; i < s->count; i++) {
		const td_patch_t *p = &s->patches[i];
		if (p->rebase != TD_REBASE_PRESENT && p->rebase != TD_REBASE_CONFLICT)
			continue;
		fprintf(f, "  %-13s  ", td_report_rebase_word(p->rebase));
		put_patch_id(f, p->id);
		fputs("  ", f);
		put_escaped_str(f, p->subject);
		if (p->rebase_file) {
			fputs("  (", f);
			td_report_rebase_conflict(f, p, put_escaped_str);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

/* A patch's upstream match and its declared origin, checked. */
static void put_patch_upstream(FILE *f, const td_patch_upstream_t *u, const td_patch_t *p)
{
	char share[TD_REPORT_NUM_MAX];

	fputs("      upstream: ", f);
	if (u->kind == TD_UPSTREAM_NONE) {
		fputs("none (local)", f);
	} else {
		fprintf(f, "%s of ", td_upstream_kind_name(u->kind));
		put_patch_id(f, u->commit);
		if (u->kind == TD_UPSTREAM_BACKPORT) {
			td_report_fixed(share, 100.0 * u->share, 0);
			fprintf(f, " (%s%% of its lines)", share);
		}
		if (u->fix)
			fputs(", an upstream fix", f);
	}
	if (u->claim != TD_CLAIM_NONE) {
		fputs("; declared ", f);
		put_escaped_str(f, p->origin.commit);
		fprintf(f, ": %s", u->claim == TD_CLAIM_HOLDS ? "holds" : "does not hold");
		if (u->claim == TD_CLAIM_DIFFERS) {
			td_report_fixed(share, 100.0 * u->claim_share, 0);
			fprintf(f, " (%s%% of its lines are that commit's)", share);
		} else if (u->claim == TD_CLAIM_NOT_FOUND) {
			fputs(" (not in the history)", f);
		}
	}
	fputc('\n', f);
}

/* The upstream commits whose changes the target lacks, the first
 * TD_REPORT_FIXES_TOP of them, and the counts of every status. */
#define TD_REPORT_FIXES_TOP 20
static void put_missing_fixes(FILE *f, const td_analysis_t *a)
{
	const td_upstream_t *u = a->upstream;
	char tags[256];
	size_t shown = 0;

	if (!u)
		return;
	if (u->npatches) {
		fputs("\nPatches against upstream: ", f);
		td_report_patch_matches(f, u);
		fputc('\n', f);
	}
	/* The headline counts the fixes: most commits a fork lacks are features. */
	fprintf(f, "\nMissing upstream fixes (Fixes:, Cc: stable or a CVE id): %zu missing, %zu partial; naming a CVE: "
		   "%zu missing, %zu partial\n",
		u->fix_count[TD_FIX_MISSING], u->fix_count[TD_FIX_PARTIAL], u->cve_count[TD_FIX_MISSING],
		u->cve_count[TD_FIX_PARTIAL]);
	fprintf(f, "  of all %zu upstream commits touching the target's files: %zu missing, %zu partial, %zu applied, "
		   "%zu not applicable\n",
		u->nfixes, u->status_count[TD_FIX_MISSING], u->status_count[TD_FIX_PARTIAL],
		u->status_count[TD_FIX_APPLIED], u->status_count[TD_FIX_NOT_APPLICABLE]);
	for (size_t i = 0; i < u->nfixes && shown < TD_REPORT_FIXES_TOP; i++) {
		const td_upstream_fix_t *x = &u->fixes[i];
		if (x->status != TD_FIX_MISSING && x->status != TD_FIX_PARTIAL)
			break;
		if (!shown)
			fprintf(f, "  %-8s %-5s %-20s %-12s  %s\n", "status", "built", "tags", "id", "subject (files)");
		fprintf(f, "  %-8s %-5s ", td_fix_status_name(x->status),
			x->built < 0 ? "-" : x->built ? "yes" : "no");
		td_report_fix_tags(tags, sizeof(tags), &x->tags);
		fprintf(f, "%-20s ", tags);
		put_patch_id(f, x->id);
		fputs("  ", f);
		put_escaped_str(f, x->subject);
		fputs(" (", f);
		td_report_fix_files(f, x, put_escaped_str);
		fputs(")\n", f);
		/* what to take with it */
		if (x->nfixed_by) {
			fprintf(f, "  %-8s %-5s %-20s fixed later by ", "", "", "");
			td_report_fixed_by(f, x, put_patch_id);
			fputc('\n', f);
		}
		shown++;
	}
	if (shown < td_fix_lacking(u->status_count))
		fprintf(f, "  ... and %zu more (--format json lists them all)\n", td_fix_lacking(u->status_count) - shown);
}

/* Per-patch drift, riskiest first. */
static int put_patches(FILE *f, const td_analysis_t *a, int policy)
{
	const td_patch_set_t *s = a->patches;
	size_t *order;

	if (!s)
		return TD_OK;
	if (td_report_patch_order(&order, s))
		return TD_ENOMEM;
	fprintf(f, "\nPatches: %zu (%s, ", s->count, s->kind);
	put_escaped_str(f, s->source);
	fputs(")\n", f);
	if (s->count) {
		fprintf(f, "  %8s", "distance");
		if (policy)
			fprintf(f, " %9s", "risk");
		fprintf(f, " %-5s %7s %7s %9s  %-9s  %-12s  %s\n", "class", "+lines", "-lines", "surviving", "origin",
			"id", "subject");
	}
	for (size_t k = 0; k < s->count; k++) {
		const td_patch_t *p = &s->patches[order[k]];
		const char *cls = td_class_name(p->cls);
		fprintf(f, "  %8d", p->distance);
		if (policy) {
			char risk[TD_REPORT_NUM_MAX];
			td_report_fixed(risk, p->risk, 1);
			fprintf(f, " %9s", risk);
		}
		fprintf(f, " %-5s %7" PRIu64 " %7" PRIu64 " %9" PRIu64 "  %-9s  ", cls ? cls : "-", p->lines_added,
			p->lines_removed, p->lines_surviving, td_patch_status_name(p->origin.status));
		put_patch_id(f, p->id);
		fputs("  ", f);
		put_escaped_str(f, p->subject);
		fputc('\n', f);
		if (a->upstream && order[k] < a->upstream->npatches)
			put_patch_upstream(f, &a->upstream->patches[order[k]], p);
	}
	free(order);
	fprintf(f, "\nChanged files no patch explains: %zu\n", s->unexplained);
	put_patch_files(f, a, 0);
	fprintf(f, "\nChanged files the patches do not reproduce: %zu\n", s->not_reproduced);
	put_patch_files(f, a, 1);
	put_rebase(f, s);
	return TD_OK;
}

int td_report_text(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	td_view_t defaults;
	size_t *idx = NULL, n = 0;
	int policy, rc;

	if (!f || !r)
		return TD_EINVAL;
	if (!v) {
		td_view_init(&defaults);
		v = &defaults;
	}
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	policy = td_report_has_policy(r);
	put_header(f, a);
	fputc('\n', f);
	if (policy && (rc = put_dirty_core(f, a, idx, n, v)))
		goto out;
	put_list(f, r, idx, n, v, policy, a->provenance);
	put_skipped(f, r, idx, n);
	put_totals(f, r, v, policy);
	put_provenance_totals(f, a);
	put_origin_totals(f, a);
	put_rollups(f, a, policy);
	if ((rc = put_patches(f, a, policy)))
		goto out;
	put_missing_fixes(f, a);
	rc = td_report_finish(f);
out:
	free(idx);
	return rc;
}
