/* Base-version detection: which version of a multi-version database a
 * target tree is based on. Versions are ranked by the number of target
 * files they hold identically at the same path, then by the total distance
 * of the rest (as compare scores it), then by label (the higher first). */
#ifndef TREEDRIFT_BASE_H
#define TREEDRIFT_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/store.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How well one version explains the target. */
typedef struct td_base_candidate {
	char *label;
	size_t version;      /* index as td_db_versions lists the versions */
	uint64_t identical;  /* target files identical in this version */
	int scored;          /* 1: the fields below are set (see score_top) */
	uint64_t modified;   /* target files at a path of the version, other content */
	uint64_t added;      /* target files at paths the version lacks */
	uint64_t removed;    /* version entries at paths the target lacks */
	uint64_t distance;   /* total distance of the modified and added files */
} td_base_candidate_t;

typedef struct td_base_result {
	td_base_candidate_t *candidates; /* every version, best first */
	size_t count;
	uint64_t target_files;  /* target entries that can match: files, symlinks, gitlinks */
	/* The files that tell the best from the runner-up: target files
	 * identical in the best version only, and in the runner-up only. */
	uint64_t only_best;
	uint64_t only_next;
	int ambiguous;          /* see td_base_rank */
} td_base_result_t;

typedef struct td_base_opts {
	size_t score_top;       /* score this many versions (most identical files first) and any
				 * tied with the last of them; default 3, at least 2; 0: all */
	int len_diff;           /* 1: TLSH distance with the length term (default) */
	int added_distance;     /* score of a target file the version lacks (default 300) */
	/* Scores one version: sets c's modified, added, removed and distance.
	 * NULL: file by file at the same path, as td_compare scores without
	 * copies or other versions. td_analyzer_rank_base sets it to the whole
	 * analysis, so that the distance is the one compare reports. */
	int (*score)(void *ctx, td_base_candidate_t *c, td_error_t *err);
	void *score_ctx;
} td_base_opts_t;

TD_EXTERN void td_base_opts_init(td_base_opts_t *o);

/* Rank db's versions for target (digested in full). The answer is
 * ambiguous when the runner-up is about as good as the best: with a = the
 * files identical in the best only and b = those identical in the runner-up
 * only, when a < 2 * b (so also whenever the identical counts tie and some
 * file tells them apart), or, when no file tells them apart (a = b = 0),
 * when their total distances are equal too. A database of one version is
 * never ambiguous. Caller frees with td_base_result_free(). */
TD_EXTERN int td_base_rank(td_base_result_t **out, td_db_t *db, const td_tree_t *target,
		 const td_base_opts_t *o, td_error_t *err);
TD_EXTERN void td_base_result_free(td_base_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
