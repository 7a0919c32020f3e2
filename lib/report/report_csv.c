/* The CSV report (RFC 4180): one header row, then one row per listed file,
 * CRLF line ends. Fields are bytes: paths go out exactly as they are, invalid
 * UTF-8 included, quoted where RFC 4180 needs it. A text cell that a
 * spreadsheet would read as a formula gets a quote in front (OWASP's advice
 * on CSV injection) unless the view asks for raw cells. See doc/formats.md,
 * "CSV". */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/lines.h"
#include "internal.h"

/* The columns, in order; doc/formats.md documents each. Stable: new columns
 * are only ever appended. */
static const char csv_header[] =
	"path,status,class,distance,fallback,size,upstream_size,origin,origin_distance,"
	"matches_version,policy_class,risk,built,version_match,lines,lines_added,lines_removed,cosmetic,similarity,scored_by\r\n";

static int needs_quotes(const char *s, size_t len)
{
	if (!len)
		return 0;
	if (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t')
		return 1;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

/* A cell a spreadsheet could take for a formula: =, +, -, @, tab or CR first. */
static int formula_like(const char *s, size_t len)
{
	return len && s[0] && strchr("=+-@\t\r", s[0]);
}

/* One text cell; neutralise: a formula-like cell goes out as "'...". */
static void csv_field(FILE *f, const char *s, size_t len, int first, int neutralise)
{
	int quote = neutralise && formula_like(s, len);

	if (!first)
		fputc(',', f);
	if (!quote && !needs_quotes(s, len)) {
		fwrite(s, 1, len, f);
		return;
	}
	fputc('"', f);
	if (quote)
		fputc('\'', f);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

static void csv_cstr(FILE *f, const char *s, int neutralise)
{
	csv_field(f, s ? s : "", s ? strlen(s) : 0, 0, neutralise);
}

static void csv_number(FILE *f, uint64_t n)
{
	fprintf(f, ",%" PRIu64, n);
}

static const char *built_name(int built)
{
	switch (built) {
	case 0: return "no";
	case 1: return "yes";
	case 2: return "support";
	default: return "";
	}
}

static void csv_row(FILE *f, const td_change_t *c, int policy, int neutralise)
{
	const td_file_t *file = td_report_change_file(c);
	int scored = td_report_is_scored(c);
	int has_origin = c->origin &&
			 (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED);
	char num[TD_REPORT_NUM_MAX];

	csv_field(f, file->path, file->path_len, 1, neutralise);
	csv_cstr(f, td_status_name(c->status), neutralise);
	csv_cstr(f, scored ? td_class_name(c->cls) : NULL, neutralise);
	if (scored)
		fprintf(f, ",%d,%d", c->distance, c->fallback ? 1 : 0);
	else
		fputs(",,", f);
	csv_number(f, file->size_bytes);
	if (c->upstream)
		csv_number(f, c->upstream->size_bytes);
	else
		fputc(',', f);
	if (has_origin) {
		csv_field(f, c->origin->path, c->origin->path_len, 0, neutralise);
		fprintf(f, ",%d", c->distance);
	} else {
		fputs(",,", f);
	}
	csv_cstr(f, c->matches_version, neutralise);
	csv_cstr(f, policy ? c->policy_class : NULL, neutralise);
	if (policy && scored && isfinite(c->risk)) {
		char risk[TD_REPORT_NUM_MAX];
		td_report_fixed(risk, c->risk, 1);
		fprintf(f, ",%s", risk);
	} else {
		fputc(',', f);
	}
	csv_cstr(f, built_name(c->built), neutralise);
	csv_cstr(f, td_version_match_name(c->version_match), neutralise);
	csv_cstr(f, td_lines_state_name(c->lines), neutralise);
	if (c->lines == TD_LINES_COUNTED) {
		csv_number(f, c->lines_added);
		csv_number(f, c->lines_removed);
	} else {
		fputs(",,", f);
	}
	csv_cstr(f, td_cosmetic_name(c->cosmetic), neutralise);
	fprintf(f, ",%s", td_report_similarity(num, c));
	csv_cstr(f, td_report_scored_by(c), neutralise);
	fputs("\r\n", f);
}

int td_report_csv(FILE *f, const td_analysis_t *a, const td_view_t *v)
{
	const td_result_t *r = a ? a->result : NULL;
	size_t *idx = NULL, n = 0;
	int policy, rc;

	if (!f || !r)
		return TD_EINVAL;
	if ((rc = td_view_select(&idx, &n, r, v)))
		return rc;
	policy = td_report_has_policy(r);
	fputs(csv_header, f);
	for (size_t i = 0; i < n; i++)
		csv_row(f, &r->changes[idx[i]], policy, !(v && v->csv_raw));
	rc = td_report_finish(f);
	free(idx);
	return rc;
}
