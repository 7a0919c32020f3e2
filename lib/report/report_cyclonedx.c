/* The CycloneDX report: a CycloneDX 1.5 JSON BOM whose subject
 * (metadata.component) is the target tree. Its pedigree names the upstream
 * tree it derives from as the ancestor. A CycloneDX patch has no field that
 * names a file, so each modified or added file is a component of type "file"
 * whose own pedigree holds its ancestor (the upstream file, with its hash)
 * and its patch: "backport" when the file equals another upstream version's
 * (matches_version), "unofficial" otherwise. treedrift's own figures go in
 * "treedrift:" properties. With --patches, the target's pedigree also
 * lists the patches (target_patches). Validated against doc/schema/cyclonedx in the
 * tests; see doc/formats.md, "CycloneDX". */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/json.h"
#include "treedrift/patch.h"
#include "internal.h"

static const char hex_digits[] = "0123456789abcdef";

static void cstr(FILE *f, const char *s)
{
	td_json_string(f, s, strlen(s));
}

static void hashes(FILE *f, const td_file_t *file, const char *indent)
{
	if (!file->has_digest || file->type != TD_ENTRY_FILE)
		return;
	fprintf(f, ",\n%s\"hashes\": [{\"alg\": \"SHA-256\", \"content\": \"", indent);
	for (int i = 0; i < TD_SHA256_BYTES; i++) {
		fputc(hex_digits[file->digest.sha256[i] >> 4], f);
		fputc(hex_digits[file->digest.sha256[i] & 15], f);
	}
	fputs("\"}]", f);
}

static void property(FILE *f, int *first, const char *name, const char *value, size_t len)
{
	fprintf(f, "%s\n        {\"name\": \"treedrift:%s\", \"value\": ", *first ? "" : ",", name);
	td_json_string(f, value, len);
	fputs("}", f);
	*first = 0;
}

static void property_c(FILE *f, int *first, const char *name, const char *value)
{
	property(f, first, name, value, strlen(value));
}

static void property_hex(FILE *f, int *first, const char *name, const char *s, size_t len)
{
	fprintf(f, "%s\n        {\"name\": \"treedrift:%s\", \"value\": \"", *first ? "" : ",", name);
	for (size_t i = 0; i < len; i++) {
		fputc(hex_digits[(unsigned char)s[i] >> 4], f);
		fputc(hex_digits[(unsigned char)s[i] & 15], f);
	}
	fputs("\"}", f);
	*first = 0;
}

static const char *tree_name(const td_tree_t *t, const char *fallback)
{
	if (t && t->meta.label)
		return t->meta.label;
	if (t && t->meta.root)
		return t->meta.root;
	return fallback;
}

/* The upstream file a change derives from: the same path, or the file it was
 * moved or copied from; NULL for a wholly new file. */
static const td_file_t *ancestor_file(const td_change_t *c)
{
	if (c->origin && (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED))
		return c->origin;
	return c->upstream;
}

static void file_component(FILE *f, const td_result_t *r, const td_change_t *c, size_t n, int policy)
{
	const td_file_t *file = td_report_change_file(c);
	const td_file_t *anc = ancestor_file(c);
	const char *base = r->base_version;
	int backport = c->matches_version && c->version_match == TD_VERSION_MATCH_BACKPORT &&
		       (!base || strcmp(c->matches_version, base));
	int first = 1;
	char num[TD_REPORT_NUM_MAX];

	fprintf(f, "    {\n      \"type\": \"file\",\n      \"bom-ref\": \"file-%zu\",\n      \"name\": ", n);
	td_json_string(f, file->path, file->path_len);
	hashes(f, file, "      ");
	fputs(",\n      \"pedigree\": {", f);
	if (anc) {
		fprintf(f, "\n        \"ancestors\": [{\"type\": \"file\", \"bom-ref\": \"upstream-file-%zu\", "
			"\"name\": ", n);
		td_json_string(f, anc->path, anc->path_len);
		if (base) {
			fputs(", \"version\": ", f);
			cstr(f, base);
		}
		hashes(f, anc, "          ");
		fputs("}],", f);
	}
	fprintf(f, "\n        \"patches\": [{\"type\": \"%s\"}]", backport ? "backport" : "unofficial");
	fputs("\n      },\n      \"properties\": [", f);
	property_c(f, &first, "status", td_status_name(c->status));
	snprintf(num, sizeof(num), "%d", c->distance);
	property_c(f, &first, "distance", num);
	if (td_class_name(c->cls))
		property_c(f, &first, "class", td_class_name(c->cls));
	snprintf(num, sizeof(num), "%" PRIu64, file->size_bytes);
	property_c(f, &first, "size_bytes", num);
	if (!td_utf8_valid(file->path, file->path_len))
		property_hex(f, &first, "path_bytes", file->path, file->path_len);
	if (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED)
	{
		char sim[TD_REPORT_NUM_MAX];
		property_c(f, &first, "origin", c->origin_kind == TD_ORIGIN_MOVED ? "moved" : "copied");
		if (*td_report_similarity(sim, c))
			property_c(f, &first, "similarity", sim);
	}
	if (c->matches_version) {
		property_c(f, &first, "matches_version", c->matches_version);
		property_c(f, &first, "version_match", td_version_match_name(c->version_match));
	}
	if (td_cosmetic_name(c->cosmetic))
		property_c(f, &first, "cosmetic", td_cosmetic_name(c->cosmetic));
	if (policy && c->policy_class)
		property_c(f, &first, "policy_class", c->policy_class);
	if (policy && isfinite(c->risk)) {
		td_report_fixed(num, c->risk, 1);
		property_c(f, &first, "risk", num);
	}
	if (c->built != TD_BUILT_UNKNOWN)
		property_c(f, &first, "built", c->built == TD_BUILT_YES ? "yes" :
					       c->built == TD_BUILT_SUPPORT ? "support" : "no");
	fputs("\n      ]\n    }", f);
}

/* With --patches: the target's pedigree lists each patch, in series order.
 * A CycloneDX patch has no name, so its id and subject go in the one issue
 * it "resolves". The type follows the origin: with --history the verified
 * one (cherry-pick or backport of an upstream commit, else unofficial),
 * and a patch that matches an upstream fix also resolves that commit (a
 * defect) and the CVE ids it names (security); without, the declared one:
 * cherry-pick when it names the upstream commit it was picked from,
 * backport when otherwise upstream, unofficial for the rest. */
static void target_patches(FILE *f, const td_patch_set_t *s, const td_upstream_t *u)
{
	fputs("\n        \"patches\": [", f);
	for (size_t i = 0; i < s->count; i++) {
		const td_patch_t *p = &s->patches[i];
		const td_patch_upstream_t *pu = u && i < u->npatches ? &u->patches[i] : NULL;
		const char *type = p->origin.status != TD_PATCH_UPSTREAM ? "unofficial"
				   : p->origin.commit && p->origin.evidence && strstr(p->origin.evidence, "cherry picked")
					   ? "cherry-pick"
					   : "backport";
		if (pu)
			type = pu->kind == TD_UPSTREAM_CHERRY_PICK ? "cherry-pick"
			       : pu->kind == TD_UPSTREAM_BACKPORT ? "backport" : "unofficial";
		fprintf(f, "%s\n          {\"type\": \"%s\", \"resolves\": [{\"type\": \"enhancement\", \"id\": ",
			i ? "," : "", type);
		cstr(f, p->id);
		if (p->subject) {
			fputs(", \"name\": ", f);
			cstr(f, p->subject);
		}
		fputc('}', f);
		if (pu && pu->kind != TD_UPSTREAM_NONE && pu->fix) {
			fputs(", {\"type\": \"defect\", \"id\": ", f);
			cstr(f, pu->commit);
			if (pu->subject) {
				fputs(", \"name\": ", f);
				cstr(f, pu->subject);
			}
			fputc('}', f);
			for (size_t k = 0; k < pu->tags.ncves; k++) {
				fputs(", {\"type\": \"security\", \"id\": ", f);
				cstr(f, pu->tags.cves[k]);
				fputc('}', f);
			}
		}
		fputs("]}", f);
	}
	fputs(s->count ? "\n        ]," : "],", f);
}

static void totals_properties(FILE *f, const td_result_t *r)
{
	const td_totals_t *t = &r->totals;
	const struct { const char *name; uint64_t v; } rows[] = {
		{ "identical", t->identical }, { "modified", t->modified }, { "added", t->added },
		{ "removed", t->removed }, { "skipped", t->skipped },
		{ "total_distance", t->total_distance },
		{ "clean", t->by_class[TD_CLASS_CLEAN].files }, { "safe", t->by_class[TD_CLASS_SAFE].files },
		{ "dirty", t->by_class[TD_CLASS_DIRTY].files }, { "new", t->by_class[TD_CLASS_NEW].files },
	};
	int first = 1;
	char num[32];

	fputs(",\n      \"properties\": [", f);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(num, sizeof(num), "%" PRIu64, rows[i].v);
		property_c(f, &first, rows[i].name, num);
	}
	fputs("\n      ]", f);
}

int td_report_cyclonedx(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	size_t *idx = NULL, n = 0, listed = 0;
	const char *upstream_name;
	int policy, rc;

	if (!f || !r)
		return TD_EINVAL;
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	policy = td_report_has_policy(r);
	upstream_name = tree_name(r->upstream, "upstream");
	fputs("{\n  \"bomFormat\": \"CycloneDX\",\n  \"specVersion\": \"1.5\",\n  \"version\": 1,\n"
	      "  \"metadata\": {\n    \"tools\": {\"components\": [{\"type\": \"application\", "
	      "\"name\": \"treedrift\", \"version\": ", f);
	cstr(f, td_version());
	fputs("}]},\n    \"component\": {\n      \"type\": \"application\",\n      \"bom-ref\": \"target\",\n"
	      "      \"name\": ", f);
	cstr(f, tree_name(r->target, "target"));
	if (r->target && r->target->meta.label) {
		fputs(",\n      \"version\": ", f);
		cstr(f, r->target->meta.label);
	}
	fputs(",\n      \"pedigree\": {\n        \"ancestors\": [{\"type\": \"application\", "
	      "\"bom-ref\": \"upstream\", \"name\": ", f);
	cstr(f, upstream_name);
	if (r->base_version) {
		fputs(", \"version\": ", f);
		cstr(f, r->base_version);
	}
	fputs("}],", f);
	if (a->patches)
		target_patches(f, a->patches, a->upstream);
	fprintf(f, "\n        \"notes\": \"%" PRIu64 " files modified, %" PRIu64 " added and %" PRIu64
		" removed relative to the ancestor; each modified or added file is listed as a "
		"component with its own pedigree\"\n      }", r->totals.modified, r->totals.added,
		r->totals.removed);
	totals_properties(f, r);
	fputs("\n    }\n  },\n  \"components\": [", f);
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		if (!td_report_is_scored(c))
			continue;
		fputs(listed ? ",\n" : "\n", f);
		file_component(f, r, c, listed++, policy);
	}
	fputs(listed ? "\n  ]\n}\n" : "]\n}\n", f);
	rc = td_report_finish(f);
	free(idx);
	return rc;
}
