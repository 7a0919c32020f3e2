/* The JSON report, schema 4 (doc/formats.md, doc/treedrift-compare.schema.json).
 * Keys come in a fixed order and numbers in a fixed form, so that the same
 * result gives the same bytes. Strings are always valid UTF-8: a byte that
 * is not part of well-formed UTF-8 becomes U+FFFD, and path-like fields then
 * carry their exact bytes in hex beside them ("path_bytes"). Controls and
 * bidirectional formatting characters are written as \uXXXX escapes, so
 * that the file is safe to show on a terminal. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/lines.h"
#include "treedrift/annotate.h"
#include "treedrift/json.h"
#include "treedrift/origin.h"
#include "treedrift/patch.h"
#include "treedrift/rollup.h"
#include "internal.h"

static const char hex_digits[] = "0123456789abcdef";

static void json_cstr(FILE *f, const char *s)
{
	if (s)
		td_json_string(f, s, strlen(s));
	else
		fputs("null", f);
}

/* "key": "text" and, when text is not valid UTF-8, "key_bytes": "hex". */
static void json_path_fields(FILE *f, const char *key, const char *s, size_t len)
{
	fprintf(f, "\"%s\": ", key);
	td_json_string(f, s, len);
	if (td_utf8_valid(s, len))
		return;
	fprintf(f, ", \"%s_bytes\": \"", key);
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];
		fputc(hex_digits[b >> 4], f);
		fputc(hex_digits[b & 15], f);
	}
	fputc('"', f);
}

/* A number with a fixed number of decimals (trimmed: up to that many), or
 * null when it is not finite: JSON has no NaN or Infinity. */
static void json_decimal(FILE *f, double x, int decimals, int trimmed)
{
	char num[TD_REPORT_NUM_MAX];

	if (!isfinite(x)) {
		fputs("null", f);
		return;
	}
	if (trimmed)
		td_report_trimmed(num, x, decimals);
	else
		td_report_fixed(num, x, decimals);
	fputs(num, f);
}

static void json_bool(FILE *f, int b)
{
	fputs(b ? "true" : "false", f);
}

static void json_meta(FILE *f, const char *side, const td_tree_t *t)
{
	const td_tree_meta_t none = { 0 };
	const td_tree_meta_t *m = t ? &t->meta : &none;

	fprintf(f, "  \"%s\": {\"label\": ", side);
	json_cstr(f, m->label);
	fputs(", ", f);
	if (m->root)
		json_path_fields(f, "root", m->root, strlen(m->root));
	else
		fputs("\"root\": null", f);
	fputs(", \"source_kind\": ", f);
	json_cstr(f, m->source_kind);
	fputs(", \"scanned_at\": ", f);
	json_cstr(f, m->scanned_at);
	fputs(", \"tool_version\": ", f);
	json_cstr(f, m->tool_version);
	fputs("},\n", f);
}

/* totals.build: changed files by build status, with a kernel config. */
static void json_build_totals(FILE *f, const td_totals_t *t)
{
	static const char *const names[3] = { "not_built", "built", "support" };
	static const int order[3] = { 1, 0, 2 };

	fputs(",\n    \"build\": {", f);
	for (int i = 0; i < 3; i++) {
		const td_build_totals_t *b = &t->by_built[order[i]];
		fprintf(f, "%s\"%s\": {\"files\": %" PRIu64 ", \"distance\": %" PRIu64 ", \"risk\": ",
			i ? ", " : "", names[order[i]], b->files, b->distance);
		json_decimal(f, b->risk, 1, 0);
		fputc('}', f);
	}
	fputc('}', f);
}

static void json_totals(FILE *f, const td_totals_t *t, int build_info)
{
	fprintf(f, "  \"totals\": {\n"
		"    \"identical\": %" PRIu64 ",\n"
		"    \"modified\": %" PRIu64 ",\n"
		"    \"added\": %" PRIu64 ",\n"
		"    \"removed\": %" PRIu64 ",\n"
		"    \"skipped\": %" PRIu64 ",\n"
		"    \"mismatched\": %" PRIu64 ",\n"
		"    \"added_bytes\": %" PRIu64 ",\n"
		"    \"removed_bytes\": %" PRIu64 ",\n"
		"    \"modified_distance\": %" PRIu64 ",\n"
		"    \"added_distance\": %" PRIu64 ",\n"
		"    \"total_distance\": %" PRIu64 ",\n"
		"    \"fallback_scored\": %" PRIu64 ",\n"
		"    \"lines_added\": %" PRIu64 ",\n"
		"    \"lines_removed\": %" PRIu64 ",\n"
		"    \"lines_binary\": %" PRIu64 ",\n"
		"    \"lines_missing\": %" PRIu64 ",\n"
		"    \"cosmetic\": %" PRIu64 ",\n"
		"    \"cosmetic_unknown\": %" PRIu64 ",\n"
		"    \"lines_scored\": %" PRIu64 ",\n"
		"    \"total_risk\": ",
		t->identical, t->modified, t->added, t->removed, t->skipped, t->mismatched,
		t->added_bytes, t->removed_bytes, t->modified_distance, t->added_distance,
		t->total_distance, t->fallback_scored, t->lines_added, t->lines_removed,
		t->lines_binary, t->lines_missing, t->cosmetic, t->cosmetic_unknown, t->lines_scored);
	json_decimal(f, t->total_risk, 1, 0);
	fputs(",\n    \"classes\": {", f);
	for (td_class_t cls = TD_CLASS_CLEAN; cls < TD_CLASS_COUNT; cls++)
		fprintf(f, "%s\"%s\": {\"files\": %" PRIu64 ", \"distance\": %" PRIu64 "}",
			cls == TD_CLASS_CLEAN ? "" : ", ", td_class_name(cls),
			t->by_class[cls].files, t->by_class[cls].distance);
	fputc('}', f);
	if (build_info)
		json_build_totals(f, t);
	fputs("\n  },\n", f);
}

/* "kernel": what --arch, --config and the policy did. */
static void json_kernel(FILE *f, const td_annotate_info_t *k)
{
	fputs("  \"kernel\": {\"arch\": ", f);
	json_cstr(f, k->arch ? (k->srcarch ? k->srcarch : k->arch) : NULL);
	fprintf(f, ", \"arch_dropped\": %" PRIu64 ", ", k->arch_dropped);
	if (k->config)
		json_path_fields(f, "config", k->config, strlen(k->config));
	else
		fputs("\"config\": null", f);
	fputs(", \"built_only\": ", f);
	json_bool(f, k->built_only);
	fprintf(f, ", \"built_dropped\": %" PRIu64 ", \"kbuild_sources\": %" PRIu64
		", \"kbuild_warnings\": %" PRIu64 ", \"policy\": ",
		k->built_dropped, k->kbuild_sources, k->kbuild_warnings);
	json_cstr(f, k->policy);
	fputs(", \"policy_builtin\": ", f);
	json_bool(f, k->policy_builtin);
	fputs("},\n", f);
}

static void json_rollup_rows(FILE *f, const td_rollup_t *ru)
{
	fputc('[', f);
	for (size_t i = 0; i < ru->count; i++) {
		const td_rollup_row_t *row = &ru->rows[i];
		fputs(i ? ",\n      {" : "\n      {", f);
		json_path_fields(f, "key", row->key, row->key_len);
		fprintf(f, ", \"distance\": %" PRIu64 ", \"risk\": ", row->distance);
		json_decimal(f, row->risk, 1, 0);
		fprintf(f, ", \"identical\": %" PRIu64 ", \"modified\": %" PRIu64 ", \"added\": %" PRIu64
			", \"removed\": %" PRIu64 ", \"skipped\": %" PRIu64 ", \"clean\": %" PRIu64
			", \"safe\": %" PRIu64 ", \"dirty\": %" PRIu64 ", \"new\": %" PRIu64 "}",
			row->by_status[TD_STATUS_IDENTICAL], row->by_status[TD_STATUS_MODIFIED],
			row->by_status[TD_STATUS_ADDED], row->by_status[TD_STATUS_REMOVED],
			row->by_status[TD_STATUS_SKIPPED], row->by_class[TD_CLASS_CLEAN],
			row->by_class[TD_CLASS_SAFE], row->by_class[TD_CLASS_DIRTY], row->by_class[TD_CLASS_NEW]);
	}
	fputs(ru->count ? "\n    ]" : "]", f);
}

/* "rollups": the ones asked for; absent when none was. */
static void json_rollups(FILE *f, const td_analysis_t *a)
{
	const char *sep = "\n";

	if (!a->dir_rollup && !a->class_rollup && !a->subsystem_rollup)
		return;
	fputs("  \"rollups\": {", f);
	if (a->dir_rollup) {
		fprintf(f, "%s    \"by_dir_depth\": %u,\n    \"by_dir\": ", sep, a->by_dir);
		json_rollup_rows(f, a->dir_rollup);
		sep = ",\n";
	}
	if (a->class_rollup) {
		fprintf(f, "%s    \"by_class\": ", sep);
		json_rollup_rows(f, a->class_rollup);
		sep = ",\n";
	}
	if (a->subsystem_rollup) {
		fprintf(f, "%s    \"by_subsystem\": ", sep);
		json_rollup_rows(f, a->subsystem_rollup);
	}
	fputs("\n  },\n", f);
}

/* How many changes an origin explains (doc/formats.md, "origins"). */
static void json_origin_counts(FILE *f, const td_analysis_t *a)
{
	const td_origin_counts_t n = a->origin_counts;

	fprintf(f, "  \"origins\": {\"moved\": %" PRIu64 ", \"copied\": %" PRIu64
		", \"matches_version\": %" PRIu64 ", \"backport\": %" PRIu64 ", \"backport_distance\": %" PRIu64
		", \"rollback\": %" PRIu64 ", \"rollback_distance\": %" PRIu64 "},\n", n.moved, n.copied,
		n.matches_version, n.backport, n.backport_distance, n.rollback, n.rollback_distance);
}

static const char *entry_type_name(td_entry_type_t type)
{
	switch (type) {
	case TD_ENTRY_FILE: return "file";
	case TD_ENTRY_SYMLINK: return "symlink";
	case TD_ENTRY_GITLINK: return "gitlink";
	case TD_ENTRY_SKIPPED: return "skipped";
	}
	return "unknown";
}

static void json_sha256(FILE *f, const char *key, const td_file_t *file)
{
	char hex[2 * TD_SHA256_BYTES + 1];

	fprintf(f, ", \"%s\": ", key);
	if (file && file->has_digest) {
		td_sha256_hex(hex, file->digest.sha256);
		fprintf(f, "\"%s\"", hex);
	} else {
		fputs("null", f);
	}
}

static void json_tlsh(FILE *f, const char *key, const td_file_t *file)
{
	char hex[TD_TLSH_HEX_CHARS + 1];

	fprintf(f, ", \"%s\": ", key);
	if (file && file->has_digest && file->digest.tlsh_status == TD_TLSH_OK) {
		td_tlsh_format(hex, &file->digest.tlsh);
		fprintf(f, "\"%s\"", hex);
	} else {
		fputs("null", f);
	}
}

static void json_origin(FILE *f, const td_change_t *c)
{
	fputs(", \"origin\": ", f);
	if (!c->origin || (c->origin_kind != TD_ORIGIN_MOVED && c->origin_kind != TD_ORIGIN_COPIED)) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	json_path_fields(f, "path", c->origin->path, c->origin->path_len);
	fprintf(f, ", \"kind\": \"%s\", \"distance\": %d, \"similarity\": ",
		c->origin_kind == TD_ORIGIN_MOVED ? "moved" : "copied", c->distance);
	if (c->has_similarity)
		json_decimal(f, c->similarity, 3, 0);
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_built(FILE *f, const td_change_t *c)
{
	fputs(", \"built\": ", f);
	fputs(c->built == 1 ? "true" : c->built == 0 ? "false" : "null", f);
	fputs(", \"support\": ", f);
	json_bool(f, c->built == 2);
}

static void json_policy(FILE *f, const td_change_t *c)
{
	fputs(", \"policy_class\": ", f);
	json_cstr(f, c->policy_class);
	fputs(", \"weight\": ", f);
	json_decimal(f, c->weight, 3, 1);
	fputs(", \"risk\": ", f);
	json_decimal(f, c->risk, 1, 0);
}

static void json_skip(FILE *f, const td_change_t *c)
{
	const td_file_t *file = td_report_skipped_file(c);
	const char *side = "target";

	if (c->target && c->target->type == TD_ENTRY_SKIPPED &&
	    c->upstream && c->upstream->type == TD_ENTRY_SKIPPED)
		side = "both";
	else if (file && file == c->upstream)
		side = "upstream";
	fputs(", \"skip_reason\": ", f);
	json_cstr(f, file ? file->skip_reason : NULL);
	fputs(", \"skip_detail\": ", f);
	json_cstr(f, file ? file->skip_detail : NULL);
	fprintf(f, ", \"skip_side\": \"%s\"", side);
}

static void json_strings(FILE *f, char *const *v, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		json_cstr(f, v[i]);
	}
	fputc(']', f);
}

/* A changed file's patches: their ids, and whether they give its content. */
static void json_change_patches(FILE *f, const td_patch_set_t *s, const td_patch_file_ref_t *ref)
{
	fputs(", \"patches\": [", f);
	for (size_t k = 0; ref && k < ref->npatches; k++) {
		if (k)
			fputs(", ", f);
		json_cstr(f, s->patches[ref->patches[k]].id);
	}
	fputs("], \"patches_reproduce\": ", f);
	if (!ref || ref->reproduced < 0)
		fputs("null", f);
	else
		json_bool(f, ref->reproduced);
}

/* What a commit message says it fixes. */
static void json_tags(FILE *f, const td_commit_tags_t *t)
{
	fputs("{\"fixes\": ", f);
	json_strings(f, t->fixes, t->nfixes);
	fputs(", \"cc_stable\": ", f);
	json_bool(f, t->cc_stable);
	fputs(", \"cves\": ", f);
	json_strings(f, t->cves, t->ncves);
	fputs(", \"reverts\": ", f);
	json_cstr(f, t->reverts);
	fputc('}', f);
}

/* A patch's "upstream": its match in the history and its declared origin,
 * checked (with --history). */
static void json_patch_upstream(FILE *f, const td_patch_upstream_t *u, const td_patch_t *p)
{
	fprintf(f, ",\n     \"upstream\": {\"match\": \"%s\", \"commit\": ",
		u->kind == TD_UPSTREAM_CHERRY_PICK ? "cherry-pick" : u->kind == TD_UPSTREAM_BACKPORT ? "backport" : "local");
	json_cstr(f, u->commit[0] ? u->commit : NULL);
	fputs(", \"subject\": ", f);
	json_cstr(f, u->subject);
	fputs(", \"share\": ", f);
	json_decimal(f, u->share, 3, 1);
	fputs(", \"fix\": ", f);
	json_bool(f, u->fix);
	fputs(", \"tags\": ", f);
	if (u->kind != TD_UPSTREAM_NONE)
		json_tags(f, &u->tags);
	else
		fputs("null", f);
	fputs(", \"claim\": ", f);
	if (u->claim == TD_CLAIM_NONE) {
		fputs("null", f);
	} else {
		fprintf(f, "{\"commit\": ");
		json_cstr(f, p->origin.commit);
		fprintf(f, ", \"status\": \"%s\", \"found\": ", td_claim_name(u->claim));
		json_cstr(f, u->claim_commit[0] ? u->claim_commit : NULL);
		fputs(", \"share\": ", f);
		json_decimal(f, u->claim_share, 3, 1);
		fputc('}', f);
	}
	fputc('}', f);
}

/* Counts of upstream commits by td_fix_status_t, as JSON members. */
static void json_by_status(FILE *f, const size_t count[4])
{
	fprintf(f, "\"missing\": %zu, \"partial\": %zu, \"not_applicable\": %zu, \"applied\": %zu",
		count[TD_FIX_MISSING], count[TD_FIX_PARTIAL], count[TD_FIX_NOT_APPLICABLE], count[TD_FIX_APPLIED]);
}

/* "upstream_summary" and "missing_fixes": every upstream commit of the
 * history that touches a file of the base or the target, with its status. */
static void json_missing_fixes(FILE *f, const td_upstream_t *u)
{
	fprintf(f, "  \"upstream_summary\": {\"cherry_picks\": %zu, \"backports\": %zu, \"claims\": %zu, "
		   "\"claims_hold\": %zu, ",
		u->cherry_picks, u->backports, u->claims, u->claims_hold);
	json_by_status(f, u->status_count);
	fputs(",\n    \"fixes\": {", f);
	json_by_status(f, u->fix_count);
	fputs("}, \"cves\": {", f);
	json_by_status(f, u->cve_count);
	fputs("}},\n", f);
	fputs("  \"missing_fixes\": [", f);
	for (size_t i = 0; i < u->nfixes; i++) {
		const td_upstream_fix_t *x = &u->fixes[i];
		fputs(i ? ",\n    {\"id\": " : "\n    {\"id\": ", f);
		json_cstr(f, x->id);
		fputs(", \"subject\": ", f);
		json_cstr(f, x->subject);
		fprintf(f, ", \"status\": \"%s\", \"reason\": ", td_fix_status_name(x->status));
		json_cstr(f, x->why);
		fputs(", \"patch\": ", f);
		json_cstr(f, x->patch);
		fputs(", \"reverted_by\": ", f);
		json_cstr(f, x->reverted_by[0] ? x->reverted_by : NULL);
		fputs(", \"fixed_by\": ", f);
		json_strings(f, x->fixed_by, x->nfixed_by);
		fputs(", \"built\": ", f);
		if (x->built < 0)
			fputs("null", f);
		else
			json_bool(f, x->built);
		fputs(", \"fix\": ", f);
		json_bool(f, x->fix);
		fputs(",\n     \"tags\": ", f);
		json_tags(f, &x->tags);
		fprintf(f, ", \"lines\": %" PRIu64 ", \"lines_in_target\": %" PRIu64 ", \"files_as_in_base\": %zu"
			", \"files\": ", x->lines, x->lines_in_target, x->files_as_in_base);
		json_strings(f, x->files, x->nfiles);
		fputc('}', f);
	}
	fputs(u->nfixes ? "\n  ],\n" : "],\n", f);
}

static void json_patch(FILE *f, const td_patch_t *p, const td_patch_upstream_t *up, int policy)
{
	const char *cls = td_class_name(p->cls);

	fputs("    {\"id\": ", f);
	json_cstr(f, p->id);
	fputs(", \"subject\": ", f);
	json_cstr(f, p->subject);
	fputs(", \"author\": ", f);
	json_cstr(f, p->author);
	fputs(", \"date\": ", f);
	json_cstr(f, p->date);
	fprintf(f, ",\n     \"lines_added\": %" PRIu64 ", \"lines_removed\": %" PRIu64
		   ", \"lines_surviving\": %" PRIu64 ", \"distance\": %d, \"fallback_scored\": %d",
		p->lines_added, p->lines_removed, p->lines_surviving, p->distance, p->fallback);
	fputs(", \"class\": ", f);
	json_cstr(f, cls);
	if (policy) {
		fputs(", \"risk\": ", f);
		json_decimal(f, p->risk, 3, 1);
		fputs(", \"policy_classes\": ", f);
		json_strings(f, p->classes, p->nclasses);
	}
	fputs(", \"top_dirs\": ", f);
	json_strings(f, p->top_dirs, p->ntop_dirs);
	fprintf(f, ",\n     \"origin\": {\"status\": \"%s\", \"commit\": ", td_patch_status_name(p->origin.status));
	json_cstr(f, p->origin.commit);
	fputs(", \"evidence\": ", f);
	json_cstr(f, p->origin.evidence);
	fputs("}, \"patch_id\": ", f);
	json_cstr(f, p->patch_id);
	if (up)
		json_patch_upstream(f, up, p);
	if (p->rebase != TD_REBASE_NOT_CHECKED) {
		fprintf(f, ", \"rebase\": {\"status\": \"%s\", \"conflicts\": %zu, ", td_rebase_status_name(p->rebase),
			p->rebase_conflicts);
		if (p->rebase_file)
			json_path_fields(f, "file", p->rebase_file, strlen(p->rebase_file));
		else
			fputs("\"file\": null", f);
		fputs(", \"why\": ", f);
		json_cstr(f, p->rebase_file ? td_rebase_why_name(p->rebase_why) : NULL);
		fprintf(f, ", \"regions\": %zu}", p->rebase_regions);
	}
	fputs(",\n     \"files\": [", f);
	for (size_t i = 0; i < p->nfiles; i++) {
		const td_patch_file_t *pf = &p->files[i];
		fputs(i ? ",\n       {" : "\n       {", f);
		json_path_fields(f, "path", pf->path, strlen(pf->path));
		fprintf(f, ", \"status\": \"%s\", \"binary\": ",
			pf->status == 'A' ? "added" : pf->status == 'D' ? "removed" : pf->status == 'T' ? "type_changed"
											 : "modified");
		json_bool(f, pf->binary);
		fprintf(f, ", \"lines_added\": %" PRIu64 ", \"lines_removed\": %" PRIu64
			   ", \"lines_surviving\": %" PRIu64 ", \"distance\": %d, \"fallback\": ",
			pf->lines_added, pf->lines_removed, pf->lines_surviving, pf->distance);
		json_bool(f, pf->fallback);
		if (pf->copied_from) {
			fputs(", ", f);
			json_path_fields(f, "copied_from", pf->copied_from, strlen(pf->copied_from));
		} else {
			fputs(", \"copied_from\": null", f);
		}
		if (policy) {
			fputs(", \"policy_class\": ", f);
			json_cstr(f, pf->policy_class);
		}
		fputc('}', f);
	}
	fputs(p->nfiles ? "]}" : "]}", f);
}

/* "patch_source" and "patches", with --patches. */
static void json_patches(FILE *f, const td_patch_set_t *s, const td_upstream_t *u, int policy)
{
	fputs("  \"patch_source\": {\"source\": ", f);
	json_cstr(f, s->source);
	fprintf(f, ", \"kind\": \"%s\", \"count\": %zu, \"unexplained\": %zu, \"not_reproduced\": %zu", s->kind,
		s->count, s->unexplained, s->not_reproduced);
	if (s->rebase_onto) {
		fputs(", \"rebase\": {", f);
		json_path_fields(f, "onto", s->rebase_onto, strlen(s->rebase_onto));
		fprintf(f, ", \"applies\": %zu, \"present\": %zu, \"conflict\": %zu, \"moved\": %zu}",
			s->rebase_count[TD_REBASE_APPLIES], s->rebase_count[TD_REBASE_PRESENT],
			s->rebase_count[TD_REBASE_CONFLICT], s->rebase_moved);
	}
	fputs("},\n", f);
	fputs("  \"patches\": [", f);
	for (size_t i = 0; i < s->count; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_patch(f, &s->patches[i], u && i < u->npatches ? &u->patches[i] : NULL, policy);
	}
	fputs(s->count ? "\n  ],\n" : "],\n", f);
}

/* A modified file's line counts; null where there are none. */
static void json_lines(FILE *f, const td_change_t *c)
{
	fputs(", \"lines\": ", f);
	json_cstr(f, td_lines_state_name(c->lines));
	if (c->lines == TD_LINES_COUNTED)
		fprintf(f, ", \"lines_added\": %" PRIu64 ", \"lines_removed\": %" PRIu64, c->lines_added,
			c->lines_removed);
	else
		fputs(", \"lines_added\": null, \"lines_removed\": null", f);
	fputs(", \"lines_missing\": ", f);
	json_cstr(f, c->lines == TD_LINES_MISSING ? c->lines_missing : NULL);
}

static void json_change(FILE *f, const td_change_t *c, int policy, int build_info)
{
	const td_file_t *file = td_report_change_file(c);
	int scored = td_report_is_scored(c);

	fputs("    {", f);
	json_path_fields(f, "path", file->path, file->path_len);
	fprintf(f, ", \"status\": \"%s\", \"type\": \"%s\"", td_status_name(c->status),
		entry_type_name(file->type));
	if (scored && td_class_name(c->cls))
		fprintf(f, ", \"class\": \"%s\"", td_class_name(c->cls));
	else
		fputs(", \"class\": null", f);
	if (scored)
		fprintf(f, ", \"distance\": %d", c->distance);
	else
		fputs(", \"distance\": null", f);
	fputs(", \"fallback\": ", f);
	json_bool(f, scored && c->fallback);
	fputs(", \"scored_by\": ", f);
	json_cstr(f, td_report_scored_by(c));
	fprintf(f, ", \"size\": %" PRIu64, file->size_bytes);
	if (c->upstream)
		fprintf(f, ", \"upstream_size\": %" PRIu64, c->upstream->size_bytes);
	else
		fputs(", \"upstream_size\": null", f);
	json_sha256(f, "sha256", c->target);
	json_sha256(f, "upstream_sha256", c->upstream);
	json_tlsh(f, "tlsh", c->target);
	json_tlsh(f, "upstream_tlsh", c->upstream);
	json_origin(f, c);
	fputs(", \"matches_version\": ", f);
	json_cstr(f, c->matches_version);
	fputs(", \"version_match\": ", f);
	json_cstr(f, td_version_match_name(c->version_match));
	json_lines(f, c);
	fputs(", \"cosmetic\": ", f);
	json_cstr(f, td_cosmetic_name(c->cosmetic));
	if (build_info)
		json_built(f, c);
	if (policy)
		json_policy(f, c);
	if (c->status == TD_STATUS_SKIPPED)
		json_skip(f, c);
}

/* The history and the split of the total distance (--history). */
static void json_provenance(FILE *f, const td_analysis_t *a)
{
	const td_provenance_t *p = a->provenance;
	const td_history_t *h = p->history;

	fputs("  \"provenance\": {\"history\": {\"repo\": ", f);
	json_cstr(f, h->repo);
	fprintf(f, ", \"base\": \"%s\", \"tips\": [", h->base);
	for (size_t i = 0; i < h->ntips; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", h->tips[i]);
	fprintf(f, "], \"commits\": %zu, \"merges_skipped\": %zu},\n", h->count, h->merges_skipped);
	fprintf(f, "    \"classify\": \"%s\", \"distance_upstream\": %" PRIu64 ", \"distance_local\": %" PRIu64
		   ", \"lines_upstream\": %" PRIu64 ", \"lines_local\": %" PRIu64 ",\n    \"files_upstream\": %" PRIu64
		   ", \"files_local\": %" PRIu64 ", \"files_mixed\": %" PRIu64 ", \"commits_used\": %zu},\n",
		a->classify_local ? "local" : "total", p->distance_upstream, p->distance_local, p->lines_upstream,
		p->lines_local, p->files_upstream, p->files_local, p->files_mixed, p->commits_used);
}

/* A changed file's "provenance": null for a file without one. */
static void json_file_provenance(FILE *f, const td_provenance_t *p, const td_file_provenance_t *fp)
{
	fputs(", \"provenance\": ", f);
	if (!fp) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"state\": \"%s\", \"added_upstream\": %" PRIu64 ", \"added_local\": %" PRIu64
		   ", \"removed_upstream\": %" PRIu64 ", \"removed_local\": %" PRIu64 ", \"distance_upstream\": %d"
		   ", \"distance_local\": %d, \"split_upstream\": %" PRIu64 ", \"split_local\": %" PRIu64
		   ", \"fallback\": ",
		td_prov_state_name(fp->state), fp->added_upstream, fp->added_local, fp->removed_upstream,
		fp->removed_local, fp->distance_upstream, fp->distance_local, fp->split_upstream, fp->split_local);
	json_bool(f, fp->fallback);
	fputs(", \"missing\": ", f);
	json_cstr(f, fp->missing);
	fputs(", \"commits\": [", f);
	for (size_t i = 0; i < fp->ncommits; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", p->history->commits[fp->commits[i]].id);
	fputs("]}", f);
}

int td_report_json(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	size_t *idx = NULL, *refs = NULL, n = 0;
	int policy, build_info, rc;

	if (!f || !r)
		return TD_EINVAL;
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	if (a->patches && (rc = td_report_patch_refs(&refs, a->patches, r))) {
		free(idx);
		return rc;
	}
	policy = td_report_has_policy(r);
	build_info = td_report_has_build_info(r);

	fprintf(f, "{\n  \"schema\": %d,\n  \"tool\": \"treedrift\",\n  \"version\": ",
		TD_JSON_SCHEMA_VERSION);
	json_cstr(f, td_version());
	fputs(",\n", f);
	json_meta(f, "upstream", r->upstream);
	json_meta(f, "target", r->target);
	fputs("  \"base_version\": ", f);
	json_cstr(f, r->base_version);
	fprintf(f, ",\n  \"thresholds\": {\"clean_below\": %d, \"dirty_above\": %d},\n",
		r->thresholds.clean_below, r->thresholds.dirty_above);
	fputs("  \"length_term\": ", f);
	json_bool(f, r->len_diff);
	fputs(",\n  \"policy_applied\": ", f);
	json_bool(f, policy);
	fputs(",\n  \"build_info\": ", f);
	json_bool(f, build_info);
	fputs(",\n  \"lines_counted\": ", f);
	json_bool(f, r->lines_counted);
	fputs(",\n  \"lines_missing\": ", f);
	json_cstr(f, r->lines_missing);
	fputs(",\n", f);
	if (a->kernel)
		json_kernel(f, a->kernel);
	json_totals(f, &r->totals, build_info);
	json_origin_counts(f, a);
	json_rollups(f, a);
	if (a->provenance)
		json_provenance(f, a);
	if (a->patches)
		json_patches(f, a->patches, a->upstream, policy);
	if (a->upstream)
		json_missing_fixes(f, a->upstream);
	fputs("  \"files\": [", f);
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		fputs(i ? ",\n" : "\n", f);
		json_change(f, c, policy, build_info);
		if (a->provenance)
			json_file_provenance(f, a->provenance, td_provenance_find(a->provenance, idx[i]));
		if (a->patches && c->status != TD_STATUS_IDENTICAL && c->status != TD_STATUS_SKIPPED)
			json_change_patches(f, a->patches,
					    refs[idx[i]] ? &a->patches->files[refs[idx[i]] - 1] : NULL);
		fputc('}', f);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", f);
	rc = td_report_finish(f);
	free(idx);
	free(refs);
	return rc;
}
