/* Line provenance: which changed lines of a target the upstream history
 * explains, for a tree that has no history of its own (a tarball BSP).
 *
 * Each modified or added file is diffed against the base (libgit2, git's
 * default algorithm, as td_lines_count counts). A changed line is upstream
 * when an upstream commit of the history made the same change to the same
 * path: the same line added (for a line only in the target) or removed (for
 * a line only in the base), lines normalised as `git patch-id` does
 * (treedrift/history.h). Each upstream line change is used once: a line the
 * target adds three times is upstream three times only when upstream added
 * it three times. Trivial lines (blank, lone braces and parentheses) never
 * decide: such a line takes the provenance of the nearest deciding changed
 * line of its hunk (the one before it, else the one after it), and is local
 * in a hunk without one.
 *
 * Per file, the base with only the upstream changes applied (upstream lines
 * inserted, upstream removals removed) is built and scored as compare scores
 * files (TLSH, or the fallback for small files): the upstream distance is
 * base vs that, the local distance that vs the target. The file's distance
 * is split between upstream and local in proportion to those two (all of it
 * to one side when the other has no lines); the totals sum the splits. */
#ifndef TREEDRIFT_PROVENANCE_H
#define TREEDRIFT_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/history.h"
#include "treedrift/lines.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum td_prov_state {
	TD_PROV_DONE = 0,     /* lines split, distances computed */
	TD_PROV_BINARY = 1,   /* git takes a side for binary: all local, no lines */
	TD_PROV_MISSING = 2   /* a side could not be read (missing says why): all local */
} td_prov_state_t;

/* "done", "binary", "missing". */
TD_EXTERN const char *td_prov_state_name(td_prov_state_t s);

typedef struct td_file_provenance {
	size_t change;              /* index into the result's changes */
	td_prov_state_t state;
	const char *missing;        /* TD_PROV_MISSING: why (owned by the provenance) */
	uint64_t added_upstream;    /* target lines an upstream commit added */
	uint64_t added_local;
	uint64_t removed_upstream;  /* base lines an upstream commit removed */
	uint64_t removed_local;
	size_t *commits;            /* history commit indices that explain a line, ascending */
	size_t ncommits;
	/* scored as compare scores a modified file; a change all of one side
	 * has the change's own distance on that side and 0 on the other */
	int distance_upstream;      /* base vs base with the upstream changes */
	int distance_local;         /* base with the upstream changes vs target */
	int fallback;               /* 1 when a distance came from the fallback sketches */
	uint64_t split_upstream;    /* the change's distance, split: the two sum to it */
	uint64_t split_local;
} td_file_provenance_t;

typedef struct td_provenance {
	td_history_t *history;      /* owned */
	td_file_provenance_t *files;/* the modified and added files, in the result's order */
	size_t nfiles;
	uint64_t lines_upstream;    /* sums over the files */
	uint64_t lines_local;
	uint64_t distance_upstream; /* the total distance, split: the two sum to it */
	uint64_t distance_local;
	uint64_t files_upstream;    /* files whose changed lines are all upstream */
	uint64_t files_local;       /* all local (binary and unread files included) */
	uint64_t files_mixed;       /* both */
	size_t commits_used;        /* history commits that explain at least one line */
} td_provenance_t;

typedef struct td_provenance_opts {
	td_lines_opts_t lines;      /* how the two sides are read again (threads, archives) */
	int added_distance;         /* score of a wholly new file (td_compare_opts_t's) */
	int tlsh_small_files;       /* 1: small files keep TLSH (td_analysis_opts_t's), as compare scored them */
} td_provenance_opts_t;

TD_EXTERN void td_provenance_opts_init(td_provenance_opts_t *o);

/* Split the changed lines of r's modified and added files into upstream and
 * local by history. Takes ownership of history (also on failure). r is only
 * read. Caller frees *out with td_provenance_free(). */
TD_EXTERN int td_provenance_compute(td_provenance_t **out, td_result_t *r, td_history_t *history,
				    const td_provenance_opts_t *opts, td_error_t *err);
TD_EXTERN void td_provenance_free(td_provenance_t *p);

/* The provenance of change index i of the result, or NULL. */
TD_EXTERN const td_file_provenance_t *td_provenance_find(const td_provenance_t *p, size_t change);

/* Re-class r's changes by their local distance (--classify local): a
 * modified file by distance_local, an added file with no local line as
 * that distance's class; then r's totals are updated. */
TD_EXTERN void td_provenance_classify_local(td_result_t *r, const td_provenance_t *p);

#ifdef __cplusplus
}
#endif
#endif
