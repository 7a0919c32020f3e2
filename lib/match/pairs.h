/* Diffs of arbitrary (upstream file, target file) pairs of a comparison,
 * read again from where the trees came from, as td_lines_count reads the
 * modified files: for copy verification (origin.c, with similarity) and
 * the line scores of small files (lines.c). A side that is an archive is not
 * read for pairs (it would take a pass over the archive per batch): its
 * pairs are missing. */
#ifndef TD_PAIRS_H
#define TD_PAIRS_H

#include <stddef.h>

#include "linediff.h"
#include "similar.h"
#include "treedrift/compare.h"
#include "treedrift/lines.h"

typedef enum td_pair_mode {
	TD_PAIR_LINES = 0,      /* td_linediff of the two files */
	TD_PAIR_SIMILARITY = 1  /* td_similarity (a prefix rename undone) */
} td_pair_mode_t;

typedef struct td_pair {
	const td_file_t *up;    /* a file of r->upstream (borrowed) */
	const td_file_t *tg;    /* a file of r->target (borrowed) */
	td_pair_mode_t mode;
	double floor;           /* TD_PAIR_SIMILARITY: a pair whose line bags (similar.h) bound
				 * its similarity below floor, or not above a pair of the same
				 * target before it that reached floor, is not diffed
				 * (sim.bounded) */
	td_linediff_t d;        /* out, TD_PAIR_LINES */
	td_similarity_t sim;    /* out, TD_PAIR_SIMILARITY */
	const char *missing;    /* out: why a side could not be read (static or kept by r); NULL when diffed */
} td_pair_t;

/* An upstream file in several pairs of similarity is read and hashed for
 * the first; what the bounds want of it is kept, without its content, for
 * the others, up to this many bytes for all such files at once (over it, a
 * file is made for its pair alone). Only a pair that the bounds leave in
 * reads it again, to diff it. */
#define TD_PAIRS_KEEP_BYTES ((size_t)64 << 20)
/* TD_PAIRS_KEEP_BYTES; tests lower it. Set it before td_pairs_diff runs. */
extern size_t td_pairs_keep_bytes;

/* Diff every pair on o->jobs threads. A side that cannot be read at all
 * sets *side_missing (kept by r; may be NULL) and every pair's missing.
 * 0, or TD_ENOMEM / TD_EGIT with err set. */
int td_pairs_diff(td_result_t *r, td_pair_t *pairs, size_t n, const td_lines_opts_t *o,
		  const char **side_missing, td_error_t *err);

#endif
