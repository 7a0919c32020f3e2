/* Trend: one comparison's figures per release, which `treedrift trend`
 * tabulates and td_report_trend_svg (treedrift/report.h) charts. */
#ifndef TREEDRIFT_TREND_H
#define TREEDRIFT_TREND_H

#include <stdint.h>
#include <stdio.h>

#include "treedrift/compare.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct td_trend_point {
	char *label;              /* the release's name; owned */
	uint64_t total_distance;
	uint64_t modified;
	uint64_t added;
	uint64_t removed;
	uint64_t by_class[TD_CLASS_COUNT]; /* files of each td_class_t */
	int has_local;            /* 1 with a history (--history): local_distance and the
				   * fixes are set */
	uint64_t local_distance;  /* the local part of total_distance (treedrift/provenance.h) */
	uint64_t fixes_lacking;   /* upstream fixes missing or partial in the release
				   * (treedrift/upstream.h) */
	uint64_t cves_lacking;    /* of them, those naming a CVE id */
} td_trend_point_t;

/* Fill p from a finished comparison; label is copied. 0 or TD_ENOMEM. */
TD_EXTERN int td_trend_point_init(td_trend_point_t *p, const char *label, const td_result_t *r);
struct td_analysis;
/* The same from a finished analysis (treedrift/analysis.h): its result,
 * and with a history its local distance and the fixes the release lacks. */
TD_EXTERN int td_trend_point_of_analysis(td_trend_point_t *p, const char *label, const struct td_analysis *a);
TD_EXTERN void td_trend_point_release(td_trend_point_t *p);

#ifdef __cplusplus
}
#endif
#endif
