/* A scan that hands its entries to a sink while it runs, as the database
 * writer stores them (store/write.c); not public. */
#ifndef TD_SCAN_SINK_H
#define TD_SCAN_SINK_H

#include "treedrift/scan.h"

/* Where a scan hands its entries. A callback that returns non-zero stops
 * the hand-over with that code and its text in err. */
typedef struct td_entry_sink {
	/* Once, before the walk, with the scan's meta (root, source_kind,
	 * scanned_at, tool_version, and label when one was given): failing here
	 * fails the scan before anything is read. May be NULL. */
	int (*begin)(void *ctx, const td_tree_meta_t *meta, td_error_t *err);
	/* Once for each entry, in the order the walk listed it, as soon as it
	 * is final (digested, or skipped with its reason), while later files
	 * are still read; from one thread at a time, not always the caller's.
	 * f is borrowed for the call. */
	int (*put)(void *ctx, const td_file_t *f, td_error_t *err);
	/* 1: leave an entry the walk of a directory found out of the scan
	 * altogether, as if it were not there (the sink's own files inside the
	 * tree); called from the walking thread before put. May be NULL. */
	int (*leave_out)(void *ctx, const td_file_t *f);
	void *ctx;
} td_entry_sink_t;

/* td_scan, with every entry also handed to sink on a thread of its own
 * (or, with no thread to spare, after the scan). label (may be NULL) goes
 * into the meta. On success every entry went to sink exactly once and *out
 * gets the tree, sorted (caller frees with td_tree_free()); otherwise the
 * scan's error, or else the sink's, and *out stays NULL. */
int td_scan_sink(td_tree_t **out, td_source_t *src, const char *label, const td_scan_opts_t *opts,
		 td_scan_stats_t *stats, const td_entry_sink_t *sink, td_error_t *err);

#endif
