/* The oracle of the line diffs as tokens, shared by test_linediff and
 * fuzz_linediff: libgit2's diff of two buffers as they are, line by line,
 * and td_linediff_walk's and td_linediff's answers set against it. */
#ifndef TD_LINEDIFF_ORACLE_H
#define TD_LINEDIFF_ORACLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "linediff.h"

/* One line of a walk, as the callback or libgit2 gives it. */
typedef struct oracle_line {
	char origin;
	uint64_t old_line, new_line;
	size_t hunk;
	const char *content;
	size_t len;
} oracle_line_t;

typedef struct oracle_walk {
	oracle_line_t *line;
	size_t n, cap;
	size_t hunks;
	int binary;
} oracle_walk_t;

static int oracle_add(void *ctx, char origin, const char *content, size_t len, uint64_t old_line,
		      uint64_t new_line, size_t hunk)
{
	oracle_walk_t *w = ctx;

	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		if (!(w->line = realloc(w->line, w->cap * sizeof(*w->line))))
			abort();
	}
	w->line[w->n++] = (oracle_line_t){ origin, old_line, new_line, hunk, content, len };
	return 0;
}

static int oracle_file(const git_diff_delta *delta, float progress, void *payload)
{
	(void)progress;
	if (delta->flags & GIT_DIFF_FLAG_BINARY)
		((oracle_walk_t *)payload)->binary = 1;
	return 0;
}

static int oracle_binary(const git_diff_delta *delta, const git_diff_binary *binary, void *payload)
{
	(void)delta;
	(void)binary;
	((oracle_walk_t *)payload)->binary = 1;
	return 0;
}

static int oracle_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	(void)delta;
	(void)hunk;
	((oracle_walk_t *)payload)->hunks++;
	return 0;
}

static int oracle_git_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line,
			   void *payload)
{
	char origin = line->origin == GIT_DIFF_LINE_ADDITION   ? '+'
		      : line->origin == GIT_DIFF_LINE_DELETION ? '-'
		      : line->origin == GIT_DIFF_LINE_CONTEXT  ? ' '
							       : 0;

	(void)delta;
	(void)hunk;
	if (origin)
		oracle_add(payload, origin, line->content, line->content_len,
			   line->old_lineno > 0 ? (uint64_t)line->old_lineno : 0,
			   line->new_lineno > 0 ? (uint64_t)line->new_lineno : 0,
			   ((oracle_walk_t *)payload)->hunks - 1);
	return 0;
}

/* Whether td_linediff_walk and td_linediff give what libgit2 gives diffing
 * old and new themselves: the same binary verdict and, for text, every
 * line with the same origin, numbers, hunk and content, and the counts of
 * that walk. 1 or 0; -1 when a diff failed. */
static int oracle_check(const char *old, size_t ol, const char *new, size_t nl)
{
	oracle_walk_t want = { 0 }, got = { 0 };
	git_diff_options opts;
	td_linediff_t d;
	td_error_t err;
	uint64_t added = 0, removed = 0;
	int same = -1;

	git_libgit2_init();
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) ||
	    git_diff_buffers(ol ? old : NULL, ol, NULL, nl ? new : NULL, nl, NULL, &opts, oracle_file, oracle_binary,
			     oracle_hunk, oracle_git_line, &want) ||
	    td_linediff_walk(&got.binary, old, ol, new, nl, oracle_add, &got, &err) ||
	    td_linediff(&d, old, ol, new, nl, &err))
		goto out;
	same = got.binary == want.binary && d.binary == want.binary && (want.binary || got.n == want.n);
	for (size_t i = 0; same && !want.binary && i < got.n; i++) {
		const oracle_line_t *a = &got.line[i], *b = &want.line[i];
		same = a->origin == b->origin && a->old_line == b->old_line && a->new_line == b->new_line &&
		       a->hunk == b->hunk && a->len == b->len && !memcmp(a->content, b->content, a->len);
		added += a->origin == '+';
		removed += a->origin == '-';
	}
	if (same && (d.added != added || d.removed != removed))
		same = 0;
out:
	git_libgit2_shutdown();
	free(want.line);
	free(got.line);
	return same;
}

#endif
