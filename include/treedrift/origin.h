/* Origins: where the changed files of a comparison came from, beyond the
 * same path. Two stages that run on a finished td_compare result, before the
 * reports:
 * - td_origin_versions: with a database of many upstream versions, a
 *   modified or added file that equals another version's file at its path
 *   gets matches_version: a backport when that version is newer than the
 *   base, a rollback when it is older. Either is still drift from the base
 *   and keeps its score.
 * - td_origin_find: an added file (and, with find_copies, a modified one)
 *   that equals an upstream file at another path is moved (distance 0); one
 *   whose nearest upstream file by TLSH distance is within the copy
 *   threshold is copied from it, and scores that distance instead of the
 *   distance of a wholly new file.
 * td_origin_find updates the changes' scores and classes, and both the totals. */
#ifndef TREEDRIFT_ORIGIN_H
#define TREEDRIFT_ORIGIN_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/store.h"
#include "treedrift/tlsh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A nearest upstream file at this TLSH distance or less makes a copy. Set
 * from linux 6.12 against 6.1: below 40 nearly every pair found is a real
 * copy, from 40 to 70 about half, from 70 to 100 few (templated files, such
 * as device-tree bindings, sit that near each other); see bench/README.md. */
#define TD_DEFAULT_COPY_THRESHOLD 70

/* Copy verification (doc/formats.md, "similarity"; calibrated on U-Boot and
 * linux, see doc/calibration.md): the TLSH index gives each added file its
 * TD_DEFAULT_COPY_CANDIDATES nearest upstream files within
 * TD_DEFAULT_COPY_BOUND, and the line similarity of each decides: the most
 * similar one at TD_DEFAULT_COPY_SIMILARITY or more is the origin. */
#define TD_DEFAULT_COPY_BOUND 200
#define TD_DEFAULT_COPY_CANDIDATES 4
#define TD_DEFAULT_COPY_SIMILARITY 0.5
/* Most candidates per file that td_origin_find and td_tlsh_index_nearest_k take. */
#define TD_COPY_CANDIDATES_MAX 16

typedef struct td_origin_opts {
	int copy_threshold;   /* default TD_DEFAULT_COPY_THRESHOLD (70); < 0: exact (moved) matches only.
			       * Without verification (or content to verify with): the TLSH
			       * bound of a copy */
	int find_copies;      /* 1: look for a better origin of modified files too */
	unsigned threads;     /* search threads; 0: the online CPUs */
	int verify;           /* 1 (default): added files' copies are verified by line similarity */
	int copy_bound;       /* verified: TLSH bound of the candidates (default TD_DEFAULT_COPY_BOUND) */
	unsigned copy_candidates; /* verified: candidates per file, 1..TD_COPY_CANDIDATES_MAX
			       * (default TD_DEFAULT_COPY_CANDIDATES) */
	double copy_similarity; /* verified: least similarity of a copy (default
			       * TD_DEFAULT_COPY_SIMILARITY) */
} td_origin_opts_t;

TD_EXTERN void td_origin_opts_init(td_origin_opts_t *o);

/* What td_origin_find did. */
typedef struct td_origin_stats {
	uint64_t searched;    /* files looked up */
	uint64_t moved;       /* found with identical content at another path */
	uint64_t copied;      /* found within the copy threshold */
	uint64_t candidates;  /* upstream files with a TLSH digest */
	uint64_t distances;   /* TLSH distances computed (some cut short) */
	uint64_t verified;    /* candidate pairs whose similarity was measured */
	uint64_t unverified;  /* added files judged by TLSH alone: no content to verify with */
	uint64_t diffed;      /* of the pairs verified, those diffed: the others' line counts
			       * or line bags ruled them out (similar.h) */
} td_origin_stats_t;

/* Find the origins of r's added files (and modified ones, with find_copies)
 * among all upstream files of r, whatever include/exclude left out of the
 * comparison. Identical content (SHA-256) at another path comes first: an
 * added file is then "moved", distance 0, from that path (one that the
 * target no longer has first, then the first path in byte order); a
 * modified file is "copied" at distance 0. Otherwise, for an added file with
 * verify: its copy_candidates nearest upstream files by TLSH distance
 * within copy_bound are diffed with it (pairs.h: read again as
 * td_lines_count reads, identifiers' prefix rename undone, similar.h), and
 * the most similar one at copy_similarity or more (ties: the nearer) makes
 * a copy, scored by its TLSH distance, with its similarity; with none, the
 * file stays new. When no candidate's content can be read (a database
 * scanned from an archive, an archive side) or all are binary, the nearest
 * makes a copy when within copy_threshold, unverified, and
 * r->copies_unverified says why. Without verify, and for a modified file
 * (find_copies), the upstream file nearest by TLSH distance (with
 * r->len_diff; ties: the first path) makes a copy when its distance is at
 * most copy_threshold, and, for a modified file, below its same-path
 * distance. Files without a TLSH digest (under 50 bytes,
 * or too uniform) can only be found moved. Upstream files without a full
 * digest are not candidates (load a source upstream with upstream_full).
 * Files that already have matches_version are left alone. Deterministic
 * whatever the thread count. stats may be NULL. */
TD_EXTERN int td_origin_find(td_result_t *r, const td_origin_opts_t *o, td_origin_stats_t *stats, td_error_t *err);

/* Mark the modified and added files of r that equal (by SHA-256, or link
 * target) the file at their path in a version of db other than
 * r->base_version: matches_version names it and version_match says how.
 * A version newer than the base (in td_version_label_cmp order) makes a
 * backport, of the newest such version nearest to the base; only when no
 * newer version holds the file, an older one makes a rollback, to the
 * nearest. The file keeps its status, distance and class: it is still drift
 * from the base, shown apart.
 * r must come from td_compare (the labels are kept with it) and have a
 * base_version that db holds; without one this does nothing. *marked (may
 * be NULL) gets the number of files marked. */
TD_EXTERN int td_origin_versions(td_result_t *r, td_db_t *db, size_t *marked, td_error_t *err);

/* How many changes of r carry each note: moved, copied, or equal to another
 * version's file (matches_version: backports and rollbacks, with the
 * distance to the base that each group keeps). */
typedef struct td_origin_counts {
	uint64_t moved;
	uint64_t copied;
	uint64_t matches_version;
	uint64_t backport;
	uint64_t backport_distance;
	uint64_t rollback;
	uint64_t rollback_distance;
} td_origin_counts_t;

TD_EXTERN void td_origin_count(td_origin_counts_t *out, const td_result_t *r);

/* Order of version labels: runs of digits compare as numbers, other bytes
 * as bytes ("v6.1.9" < "v6.1.10" < "v6.2"). Returns < 0, 0 or > 0. */
TD_EXTERN int td_version_label_cmp(const char *a, const char *b);

/* Nearest-neighbour search over a fixed set of TLSH digests, the engine of
 * td_origin_find, exposed for benchmarks and tools. The index copies the
 * digests; it is read-only once built, so any number of threads may query it. */
typedef struct td_tlsh_index td_tlsh_index_t;

/* Build an index over n digests (index i names digests[i]). Caller frees
 * with td_tlsh_index_free(). */
TD_EXTERN int td_tlsh_index_new(td_tlsh_index_t **out, const td_tlsh_t *digests, size_t n, int len_diff,
		      td_error_t *err);
TD_EXTERN void td_tlsh_index_free(td_tlsh_index_t *ix);

/* The digest nearest to q with distance <= limit, skipping index skip (use
 * SIZE_MAX to skip none); ties go to the lowest index. Returns its distance
 * and sets *found, or returns limit + 1 and sets *found to SIZE_MAX when no
 * digest is that near. *distances (may be NULL) grows by the number of
 * distances computed. */
TD_EXTERN int td_tlsh_index_nearest(const td_tlsh_index_t *ix, const td_tlsh_t *q, int limit, size_t skip,
			  size_t *found, uint64_t *distances);

/* The k (1..TD_COPY_CANDIDATES_MAX) nearest digests to q with distance <=
 * limit, skipping index skip, nearest first (ties: the lowest index): fills
 * found[] and dist[] and returns how many (0..k). */
TD_EXTERN size_t td_tlsh_index_nearest_k(const td_tlsh_index_t *ix, const td_tlsh_t *q, int limit, size_t skip,
				  size_t k, size_t *found, int *dist, uint64_t *distances);

#ifdef __cplusplus
}
#endif
#endif
