/* Upstream history: the commits of an upstream repository after the base a
 * target was taken from, loaded once for provenance (which changed lines
 * upstream made too) and for matching patches to upstream commits.
 *
 * History specs (td_history_load's spec):
 *   git:REPO                 every ref of REPO that descends from the base
 *   git:REPO@TIP[@TIP...]    the commits BASE..TIP, for every TIP given
 * The base is a revision of REPO (anything git rev-parse takes).
 *
 * Each non-merge commit of the range is loaded with its id, subject,
 * message, author, time, every path it touches (against its first parent,
 * without rename detection, as `git patch-id` diffs), and, for the paths the
 * caller asks for, its added and removed lines as hashes. Merge commits are
 * left out and counted: their changes are those of the commits they merge
 * (a conflict resolution made in a merge is not seen); td_history_merged
 * says which commits a merge brought.
 *
 * Lines are hashed as `git patch-id` normalises them: every whitespace byte
 * (space, tab, CR, LF, VT, FF) is removed before hashing. Lines that are
 * trivial after that (empty, or one of "{", "}", "};", "(", ")", ");") are
 * not in the hash lists: they decide nothing. */
#ifndef TREEDRIFT_HISTORY_H
#define TREEDRIFT_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits against a runaway range. */
#define TD_HISTORY_MAX_COMMITS 2000000u
#define TD_HISTORY_MAX_TIPS 64u

/* Hex commit id with NUL. */
#define TD_HISTORY_ID_HEX 41

/* A line's hash, normalised as above. 0 is never a hash. */
typedef uint64_t td_line_hash_t;

/* The hash of line[0..len) (without its '\n'); *trivial (may be NULL) gets 1
 * for a line that decides nothing (then the hash is still computed). Pure. */
TD_EXTERN td_line_hash_t td_line_hash(const char *line, size_t len, int *trivial);

/* One file a commit touches, with its content loaded. */
typedef struct td_history_file {
	char *path;                /* the new path; the old one for a deletion */
	char status;               /* 'A' added, 'M' modified, 'D' deleted, 'T' type changed */
	int binary;                /* no lines for it */
	td_line_hash_t *added;     /* hashes of its non-trivial added lines, in diff order */
	size_t nadded;
	td_line_hash_t *removed;   /* hashes of its non-trivial removed lines, in diff order */
	size_t nremoved;
	td_line_hash_t *added_trivial;   /* hashes of its trivial added lines, in diff order */
	size_t nadded_trivial;
	td_line_hash_t *removed_trivial; /* hashes of its trivial removed lines, in diff order */
	size_t nremoved_trivial;
	uint64_t lines_added;      /* every added line, trivial ones included */
	uint64_t lines_removed;
} td_history_file_t;

typedef struct td_history_commit {
	char id[TD_HISTORY_ID_HEX];
	char *subject;             /* the summary line */
	char *message;             /* the whole message, subject included */
	char *author;              /* "Name <mail>" */
	int64_t time;              /* commit time, seconds since the epoch */
	char **paths;              /* every path it touches, sorted, distinct */
	size_t npaths;
	td_history_file_t *files;  /* the touched paths the loader was asked for, sorted by path */
	size_t nfiles;
} td_history_commit_t;

/* Where one path was touched: commit index and index into its files. */
typedef struct td_history_touch {
	size_t commit;
	size_t file;
} td_history_touch_t;

typedef struct td_history {
	char *repo;                /* the repository path as given */
	char base[TD_HISTORY_ID_HEX];
	char **tips;               /* the tips' commit ids, as given or found; sorted */
	size_t ntips;
	td_history_commit_t *commits; /* oldest first (topological, then commit time) */
	size_t count;
	size_t merges_skipped;     /* merge commits of the range, not loaded (td_history_merged) */
	struct td_history_impl *impl; /* private: repository handle, path index, patch-id cache */
} td_history_t;

typedef struct td_history_opts {
	const char *const *paths;  /* sorted (strcmp), distinct: the paths whose lines are
				    * loaded; NULL: every path */
	size_t npaths;
	unsigned jobs;             /* threads; 0 = online CPUs */
	uint64_t max_file_bytes;   /* a blob larger than this is taken as binary; 0 = 64 MiB */
} td_history_opts_t;

TD_EXTERN void td_history_opts_init(td_history_opts_t *o);

/* Parse spec ("git:REPO[@TIP...]") and load the commits BASE..TIP of REPO,
 * base being a revision of it. A base that is not in REPO, or a TIP that
 * does not descend from it, is TD_EINVAL. opts may be NULL. Caller frees
 * *out with td_history_free(). */
TD_EXTERN int td_history_load(td_history_t **out, const char *spec, const char *base,
			      const td_history_opts_t *opts, td_error_t *err);
TD_EXTERN void td_history_free(td_history_t *h);

/* The repository of a history spec ("git:REPO[@...]"), copied into out
 * (caller frees); TD_EINVAL for another spec. */
TD_EXTERN int td_history_spec_repo(char **out, const char *spec, td_error_t *err);

/* The loaded files of path, in commit order (oldest first): *out is
 * borrowed from h; *n 0 when no commit touched it (or it was not asked for). */
TD_EXTERN void td_history_find(const td_history_touch_t **out, size_t *n, const td_history_t *h,
			       const char *path);

/* Index of the commit whose hex id is id or starts with it (an
 * abbreviation of 7 digits or more, as commit messages write them; the
 * first in history order when several commits share it), or -1. */
TD_EXTERN long td_history_commit_index(const td_history_t *h, const char *id);

/* Whether id (as td_history_commit_index takes it) names one merge commit
 * of the range (*is_merge); if so, the indices of the loaded commits it
 * merged, ascending, into *out (caller frees; NULL when none) and their
 * count into *n: the commits its other parents bring that its first parent
 * does not have, from the range. Not thread-safe (one caller at a time per
 * history, as td_history_patch_id).
 * 0, or TD_EGIT / TD_ENOMEM. */
TD_EXTERN int td_history_merged(size_t **out, size_t *n, int *is_merge, const td_history_t *h, const char *id,
				td_error_t *err);

/* The patch id of commit i as `git patch-id --stable` computes it (libgit2's
 * git_diff_patchid over the commit's whole diff against its first parent),
 * hex into out. Computed on first use and kept; not thread-safe (one caller
 * at a time per history). 0, or TD_EGIT / TD_ENOMEM / TD_EINVAL. */
TD_EXTERN int td_history_patch_id(char out[TD_HISTORY_ID_HEX], td_history_t *h, size_t i, td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
