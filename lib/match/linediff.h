/* Line counts of two buffers as git counts them: libgit2's diff of buffers
 * with its default options (git's default algorithm, Myers), so that the
 * counts equal `git diff --numstat`. No diff text is produced. libgit2 is
 * given each distinct line as a short token, which diffs the same (see
 * linediff.c) at a fraction of libgit2's hashing. Used for the
 * line counts of modified files (lines.c); general enough for the line
 * similarity of two files and per-patch counts. */
#ifndef TD_LINEDIFF_H
#define TD_LINEDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"

typedef struct td_linediff {
	uint64_t added;     /* lines only in the new buffer */
	uint64_t removed;   /* lines only in the old buffer */
	uint64_t unchanged; /* lines of the old buffer kept in the new one */
	uint64_t old_lines; /* lines of each buffer ('\n'-ended, or a last one without) */
	uint64_t new_lines;
	int binary;         /* 1: git takes one side for binary (a NUL in its first 8000
			     * bytes); added, removed and unchanged are then 0 */
} td_linediff_t;

/* Lines of buf as git splits them: one per '\n', plus a last one without. */
uint64_t td_line_count(const void *buf, size_t len);

/* Diff old against new and count. Thread-safe; takes its own reference on
 * libgit2 (a caller diffing many pairs may hold one around the calls so
 * that libgit2 is not set up and torn down each time). 0, or TD_EGIT /
 * TD_ENOMEM with err set. */
int td_linediff(td_linediff_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		size_t new_len, td_error_t *err);

/* One line of a diff walk: origin '+' (only in new), '-' (only in old) or
 * ' ' (in both); old_line and new_line are 1-based, 0 on the side the line
 * is not on; hunk counts the hunks from 0. content has no NUL. Return 0 to
 * go on, a negative TD_E* code to stop. */
typedef int (*td_linediff_line_fn)(void *ctx, char origin, const char *content, size_t len, uint64_t old_line,
				   uint64_t new_line, size_t hunk);

/* Diff old against new as td_linediff does and call fn for every line of
 * every hunk (git's three lines of context), in order. *binary gets 1 when
 * git takes a side for binary (fn is not called). 0, the code fn returned
 * (err is then the caller's), or TD_EGIT / TD_ENOMEM with err set. */
int td_linediff_walk(int *binary, const void *old_buf, size_t old_len, const void *new_buf, size_t new_len,
		     td_linediff_line_fn fn, void *ctx, td_error_t *err);

struct td_result;
struct td_lines_opts;

/* What td_lines_visit hands over for one changed file: change index into
 * r->changes; both sides' content (old is "" for an added file), or NULL
 * with missing saying why. Runs on td_lines_visit's threads, concurrently:
 * 0 to go on, or a negative code with err set. */
typedef int (*td_lines_visit_fn)(void *ctx, size_t change, const void *old_buf, size_t old_len,
				 const void *new_buf, size_t new_len, const char *missing, td_error_t *err);

/* Read both sides of every modified and added file of r, as td_lines_count
 * reads them (same sources, threads and archive passes), and hand each pair
 * to fn instead of counting. r is not changed. */
int td_lines_visit(struct td_result *r, const struct td_lines_opts *opts, td_lines_visit_fn fn, void *ctx,
		   td_error_t *err);

#endif
