/* Load: turn tree specs (a database, a directory, git:REPO@REV or an archive)
 * into trees ready to compare, reading as little content as it can: files
 * with equal git blob ids are never read, files of equal size get SHA-256
 * only, and TLSH is computed only for content that differs. */
#ifndef TREEDRIFT_LOAD_H
#define TREEDRIFT_LOAD_H

#include "treedrift/common.h"
#include "treedrift/scan.h"
#include "treedrift/source.h"
#include "treedrift/store.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct td_load_opts {
	td_scan_opts_t scan;         /* scan.progress_ctx: the upstream side's progress */
	void *progress_ctx_target;   /* td_load_pair*: progress_ctx for the target side's
				      * passes, so a caller can tell the sides apart;
				      * NULL: scan.progress_ctx for both */
	td_source_opts_t source;
	const char *upstream_label;  /* database version to compare against; NULL: newest */
	const char *target_label;    /* when the target is a database */
	int upstream_full;           /* digest every upstream file in full, as copy detection
				      * needs: TD_UPSTREAM_FULL_IF_ADDED or _ALWAYS; 0 never */
} td_load_opts_t;

/* td_load_opts_t.upstream_full */
#define TD_UPSTREAM_FULL_IF_ADDED 1 /* only when the target has paths upstream lacks */
#define TD_UPSTREAM_FULL_ALWAYS 2

TD_EXTERN void td_load_opts_init(td_load_opts_t *o);

/* 1 when spec names a treedrift database (by content, not name). */
TD_EXTERN int td_spec_is_db(const char *spec);

/* Load one tree, digested in full: a database version (label NULL: newest)
 * or a scanned source. Caller frees with td_tree_free(). */
TD_EXTERN int td_load_tree(td_tree_t **out, const char *spec, const char *label, const td_load_opts_t *opts,
		 td_scan_stats_t *stats, td_error_t *err);

/* Load both sides of a comparison. Caller frees both with td_tree_free(). */
TD_EXTERN int td_load_pair(td_tree_t **upstream_out, td_tree_t **target_out, const char *upstream_spec,
		 const char *target_spec, const td_load_opts_t *opts, td_scan_stats_t *stats,
		 td_error_t *err);

/* td_load_pair that keeps an upstream database open for the stages after the
 * comparison (td_origin_versions) and for further pairs, so that a run opens
 * it once. When *upstream_db is NULL and upstream_spec names a database, it
 * is opened, upstream is loaded from it, and *upstream_db gets the handle;
 * when *upstream_db is set (by an earlier call), upstream is loaded from
 * that handle and upstream_spec is not opened again. *upstream_db stays
 * NULL when upstream is a source. The caller frees *upstream_db with
 * td_db_free(), after an error too; the trees as with td_load_pair. */
TD_EXTERN int td_load_pair_db(td_tree_t **upstream_out, td_tree_t **target_out, td_db_t **upstream_db,
		    const char *upstream_spec, const char *target_spec, const td_load_opts_t *opts,
		    td_scan_stats_t *stats, td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
