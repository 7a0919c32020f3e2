/* What scan.c and sink.c share: the listing a streaming scan fills; not
 * public. */
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

/* Told how a listing grows: final(ctx, i) once for each entry as it
 * becomes final, from any thread; complete(ctx) once when nothing more
 * will be listed. Each may be NULL.
 * The listing sets an entry final, and td_listing_final reads it, with
 * sequentially consistent operations, and final() comes after the store.
 * So a thread that announces which entry it waits for (a seq_cst store)
 * and then finds it not final, and a final() that then reads the
 * announcement (a seq_cst load), cannot both miss each other: at least
 * one of them sees the other (sink.c relies on it). */
/* With TD_NEED_FULL: no file at the entry's path is compared with it, so
 * its whitespace-normalised digest, which only tells whether such a change
 * is cosmetic, is left out (td_digester_start_unpaired). */
#define TD_WANT_UNPAIRED 0x10u
/* With TD_NEED_FULL: of the whitespace-normalised text only its length,
 * unless watch->ws_wanted, asked once the entry is digested, wants its
 * SHA-256 too (files held whole in memory; others get both). */
#define TD_WANT_WS_LENGTH 0x20u
/* The td_need_t of a want. */
#define TD_WANT_NEED(w) ((td_need_t)((w) & 0x0fu))

typedef struct td_listing_watch {
	void (*final)(void *ctx, size_t index);
	void (*complete)(void *ctx);
	/* 1: leave the entry the walk found out of the listing altogether
	 * (random-access sources only). May be NULL. */
	int (*leave_out)(void *ctx, const td_file_t *f);
	/* What to compute for an entry the walk found (random-access sources
	 * only): a td_need_t, with TD_NEED_FULL perhaps or'ed with
	 * TD_WANT_UNPAIRED or TD_WANT_WS_LENGTH; NULL: everything
	 * (TD_NEED_FULL). */
	unsigned (*need)(void *ctx, const td_file_t *f);
	/* For an entry digested with TD_WANT_WS_LENGTH: 1 when the SHA-256 of
	 * its whitespace-normalised text, ws_bytes long, is wanted. Required
	 * when need asks for TD_WANT_WS_LENGTH. */
	int (*ws_wanted)(void *ctx, const td_file_t *f, uint64_t ws_bytes);
	void *ctx;
} td_listing_watch_t;

/* List src into l and digest its files, at once for random-access sources
 * (reading starts while the walk goes on; what watch->need asks, or
 * everything), listing first for archives (everything). opts->reuse, or
 * what opts->reuse_wait gives, is applied as td_scan_reuse does; with
 * reuse_wait, watch->need and ws_wanted are asked only once it has. watch
 * may be NULL. */
int td_scan_stream(td_listing_t *l, td_source_t *src, const td_scan_opts_t *opts,
		   td_scan_stats_t *stats, const td_listing_watch_t *watch, td_error_t *err);

/* Move the entries into the listing's tree, sorted, into *out (caller
 * frees with td_tree_free()); the listing is left empty. */
int td_listing_take(td_listing_t *l, td_tree_t **out, td_error_t *err);

#endif
