/* Scan: list a source's entries and digest their content on a pool of
 * worker threads. Results land in path order whatever the thread count. */
#ifndef TREEDRIFT_SCAN_H
#define TREEDRIFT_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/source.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How much of a file's content a digest pass computes. */
typedef enum td_need {
	TD_NEED_NONE = 0,  /* leave as it is (digest known, or not needed) */
	TD_NEED_SHA = 1,   /* SHA-256 only: enough to prove identity */
	TD_NEED_FULL = 2   /* SHA-256 + TLSH (+ fallback sketch) */
} td_need_t;

/* Progress, called from one thread at a time, at most a few times a second. */
typedef void (*td_progress_fn)(void *ctx, uint64_t files_done, uint64_t files_total,
			       uint64_t bytes_done, uint64_t bytes_total);

typedef struct td_scan_opts {
	unsigned jobs;               /* worker threads; 0 = online CPUs */
	const td_tree_t *reuse;      /* a previous scan: reuse digests of files whose
				      * size, mtime and inode match, or whose git blob id does */
	/* Or a tree still being loaded (td_db_loader_wait): td_scan and
	 * td_db_writer_add_scan list ahead and decide nothing until
	 * reuse_wait(reuse_ctx, wait, &tree, err) returns 0 with the tree to
	 * reuse (NULL: none). Without wait it may return 1: not yet. Another
	 * value is an error, and ends the scan. A directory or git revision
	 * asks without wait as it is walked, and with wait at the end; an
	 * archive, with wait, once read. */
	int (*reuse_wait)(void *ctx, int wait, const td_tree_t **tree, td_error_t *err);
	void *reuse_ctx;
	td_progress_fn progress;
	void *progress_ctx;
	const volatile int *cancel;  /* non-NULL and set: stop with TD_ECANCELED */
} td_scan_opts_t;

/* Counters of what a scan did; for --stats and the benchmark. */
typedef struct td_scan_stats {
	uint64_t files_listed;
	uint64_t files_read;         /* content reads (a file read twice counts twice) */
	uint64_t bytes_read;
	uint64_t files_reused;       /* digests taken from --reuse or a reference */
} td_scan_stats_t;

/* List every entry of src into a new sorted tree, with meta from the source.
 * Sequential sources (archives) are digested in full while listed, as their
 * content passes only once. Archives with a single top-level folder lose it
 * unless opts->no_auto_strip was given to the source. */
TD_EXTERN int td_scan_list(td_tree_t **out, td_source_t *src, const td_scan_opts_t *opts,
		 td_scan_stats_t *stats, td_error_t *err);

/* Digest the files of tree (listed from src) that need it: need[i] for
 * tree->files[i], or every file in full when need is NULL. Files already
 * digested at least as far as asked are left alone. Files that vanish or
 * change meanwhile become TD_ENTRY_SKIPPED with the reason. */
TD_EXTERN int td_scan_digest(td_tree_t *tree, td_source_t *src, const uint8_t *need,
		   const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err);

/* List and digest everything in full: what `treedrift scan` stores. */
TD_EXTERN int td_scan(td_tree_t **out, td_source_t *src, const td_scan_opts_t *opts,
	    td_scan_stats_t *stats, td_error_t *err);

/* Take digests from ref where they are provably the same content: same git
 * blob id at any path, or for directory scans the same path, size, mtime,
 * inode and device. Returns the number of files reused. */
TD_EXTERN size_t td_scan_reuse(td_tree_t *tree, const td_tree_t *ref);

#ifdef __cplusplus
}
#endif
#endif
