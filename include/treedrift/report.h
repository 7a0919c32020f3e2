/* Reports: each formats a finished analysis (treedrift/analysis.h); none
 * computes anything the analysis should hold. Formats are documented in
 * doc/formats.md. */
#ifndef TREEDRIFT_REPORT_H
#define TREEDRIFT_REPORT_H

#include <stdio.h>

#include "treedrift/analysis.h"
#include "treedrift/compare.h"
#include "treedrift/trend.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TD_JSON_SCHEMA_VERSION 5

typedef enum td_format {
	TD_FORMAT_TEXT = 0,
	TD_FORMAT_JSON,
	TD_FORMAT_CSV,
	TD_FORMAT_HTML,
	TD_FORMAT_MARKDOWN,
	TD_FORMAT_CYCLONEDX
} td_format_t;

/* Parse a --format name; -1 when unknown. */
TD_EXTERN int td_format_parse(const char *name);

typedef enum td_sort {
	TD_SORT_PATH = 0,
	TD_SORT_DISTANCE = 1, /* highest first, then path */
	TD_SORT_RISK = 2      /* highest first, then path */
} td_sort_t;

/* What a report lists and how; totals always cover the whole comparison. */
typedef struct td_view {
	unsigned only_classes;  /* bit (1 << td_class_t); 0 = any */
	unsigned only_statuses; /* bit (1 << td_status_t); 0 = any but identical */
	int show_identical;     /* list identical files too */
	td_sort_t sort;
	int color;              /* text: ANSI colours */
	int csv_raw;            /* csv: cells as they are, no quote before =, +, -, @, tab, CR */
} td_view_t;

TD_EXTERN void td_view_init(td_view_t *v);

/* Indices into r->changes that the view selects, in its order. Caller frees
 * *out with free(). */
TD_EXTERN int td_view_select(size_t **out, size_t *count, const td_result_t *r, const td_view_t *v);

/* Write a in fmt to f. Returns 0, or TD_EIO when writing failed. */
TD_EXTERN int td_report_write(FILE *f, const td_analysis_t *a, td_format_t fmt, const td_view_t *v, td_error_t *err);

TD_EXTERN int td_report_text(FILE *f, const td_analysis_t *a, const td_view_t *v);
TD_EXTERN int td_report_json(FILE *f, const td_analysis_t *a, const td_view_t *v);
TD_EXTERN int td_report_csv(FILE *f, const td_analysis_t *a, const td_view_t *v);
/* One self-contained HTML page (no network): summary, treemap, histogram and
 * a sortable, filterable table of the files the view lists. */
TD_EXTERN int td_report_html(FILE *f, const td_analysis_t *a, const td_view_t *v);
/* A Markdown manifest of where the target differs from upstream. */
TD_EXTERN int td_report_markdown(FILE *f, const td_analysis_t *a, const td_view_t *v);
/* A CycloneDX 1.5 JSON SBOM: the target's pedigree names the upstream
 * ancestor, each modified or added file is a component with its patch. */
TD_EXTERN int td_report_cyclonedx(FILE *f, const td_analysis_t *a, const td_view_t *v);

/* A standalone SVG line chart of total distance, one point per release in
 * the given order (labels XML-escaped). Returns 0, or TD_EIO when writing
 * failed. */
TD_EXTERN int td_report_trend_svg(FILE *f, const td_trend_point_t *points, size_t n, const char *title);

#ifdef __cplusplus
}
#endif
#endif
