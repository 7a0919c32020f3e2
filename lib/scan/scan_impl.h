/* Hooks between the scan pipeline and the database writer; not public. */
#ifndef TD_SCAN_IMPL_H
#define TD_SCAN_IMPL_H

#include "treedrift/scan.h"

/* The entries of a scan in the order they were listed, at addresses that
 * stay put while the listing grows, so that a writer can store entry i
 * while later ones are still being listed and read. One thread lists;
 * any thread may read an entry once it is final. */
typedef struct td_listing td_listing_t;

/* An empty listing with the meta of src; caller frees with td_listing_free(). */
int td_listing_new(td_listing_t **out, td_source_t *src);
void td_listing_free(td_listing_t *l);
/* The tree the entries go to: its meta is for the caller to complete. */
td_tree_t *td_listing_tree(td_listing_t *l);
/* Entries listed so far. */
size_t td_listing_count(const td_listing_t *l);
/* 1 once nothing more will be listed. */
int td_listing_complete(const td_listing_t *l);
/* 1 when entry i is listed and final: digested, skipped, or needing nothing. */
int td_listing_final(const td_listing_t *l, size_t i);
/* Entry i, which must be final. Borrowed until td_listing_take or _free. */
const td_file_t *td_listing_at(const td_listing_t *l, size_t i);

/* Called once for each entry as it becomes final, from any thread. */
typedef void (*td_file_done_fn)(void *ctx, size_t index);

/* List src into l and digest every file in full, at once for random-access
 * sources (reading starts while the walk goes on), listing first for
 * archives. opts->reuse is applied as td_scan_reuse does. */
int td_scan_stream(td_listing_t *l, td_source_t *src, const td_scan_opts_t *opts,
		   td_scan_stats_t *stats, td_error_t *err, td_file_done_fn done, void *done_ctx);

/* Move the entries into the listing's tree, sorted, into *out (caller
 * frees with td_tree_free()); the listing is left empty. */
int td_listing_take(td_listing_t *l, td_tree_t **out, td_error_t *err);

#endif
