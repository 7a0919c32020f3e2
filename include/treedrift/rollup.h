/* Rollups: a result's changes summed per directory (like git diff --dirstat),
 * per policy class, or per MAINTAINERS subsystem. Each row sums the changes
 * whose key it is; rows come sorted by distance, highest first, then by key
 * in byte order, so the output is the same whatever produced the result. */
#ifndef TREEDRIFT_ROLLUP_H
#define TREEDRIFT_ROLLUP_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/maintainers.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct td_rollup_row {
	char *key;              /* directory, class or subsystem name; NUL-terminated */
	size_t key_len;
	uint64_t distance;      /* sum over the modified and added files */
	double risk;            /* sum of their risk */
	uint64_t by_status[5];  /* files of each td_status_t, identical and skipped too */
	uint64_t by_class[TD_CLASS_COUNT]; /* files of each td_class_t (NONE unused) */
} td_rollup_row_t;

/* The rows, owned by the rollup. Only keys with at least one modified, added
 * or removed file have a row. */
typedef struct td_rollup {
	td_rollup_row_t *rows;
	size_t count;
} td_rollup_t;

/* td_rollup_by_dir flags. */
#define TD_ROLLUP_CUMULATIVE 1u /* count a file in every directory above it up to depth, too */

/* The key of top-level files in a directory rollup. */
#define TD_ROLLUP_TOP "."

/* Sum r's changes per directory, up to depth parts (--by-dir N, N >= 1): a
 * file counts in its directory cut to depth parts ("drivers/net/phy/x.c" at
 * depth 2: "drivers/net"), a file less deep in its own directory
 * ("kernel/fork.c": "kernel"), a top-level file in ".". With
 * TD_ROLLUP_CUMULATIVE it counts in each of those directories' parents as
 * well ("drivers" and "drivers/net"), so that rows overlap; without it every
 * file counts in one row and the rows add up to the totals. A file's path is
 * its target path, or the upstream one for a removed file. Caller frees *out
 * with td_rollup_free(). */
TD_EXTERN int td_rollup_by_dir(td_rollup_t **out, const td_result_t *r, unsigned depth, unsigned flags,
		     td_error_t *err);

/* Sum r's changes per policy class (td_change_t.policy_class; "other" where
 * no policy set one). Caller frees *out with td_rollup_free(). */
TD_EXTERN int td_rollup_by_class(td_rollup_t **out, const td_result_t *r, td_error_t *err);

/* The key of changes no MAINTAINERS section covers. */
#define TD_ROLLUP_NO_SUBSYSTEM "(none)"

/* Sum r's changes per MAINTAINERS subsystem (td_maintainers_lookup on the
 * path as in td_rollup_by_dir). Caller frees *out with td_rollup_free(). */
TD_EXTERN int td_rollup_by_subsystem(td_rollup_t **out, const td_result_t *r, const td_maintainers_t *m,
			   td_error_t *err);

TD_EXTERN void td_rollup_free(td_rollup_t *ru);

#ifdef __cplusplus
}
#endif
#endif
