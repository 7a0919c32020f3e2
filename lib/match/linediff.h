/* Line counts of two buffers as git counts them: libgit2's diff of buffers
 * with its default options (git's default algorithm, Myers), so that the
 * counts equal `git diff --numstat`. No diff text is produced. Used for the
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

#endif
