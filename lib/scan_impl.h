/* Hooks between the scan pipeline and the database writer; not public. */
#ifndef TD_SCAN_IMPL_H
#define TD_SCAN_IMPL_H

#include "treedrift/scan.h"

/* Called once for every index of the tree, from any thread, when that
 * file's entry is final (digested, skipped, or needing nothing). */
typedef void (*td_file_done_fn)(void *ctx, size_t index);

/* td_scan_digest, telling done about each file as it is finished, so that
 * a writer can store entries while later ones are still being read. */
int td_scan_digest_notify(td_tree_t *tree, td_source_t *src, const uint8_t *need,
			  const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err,
			  td_file_done_fn done, void *done_ctx);

#endif
