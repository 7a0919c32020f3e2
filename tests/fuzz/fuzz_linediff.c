/* libFuzzer target: two buffers (the input split where its first two bytes
 * say) diffed by td_linediff_walk, which hands libgit2 each distinct line
 * as a token, must give every line (origin, numbers, hunk, content) as
 * libgit2 gives them diffing the buffers themselves; td_linediff's counts
 * must agree with that walk. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "linediff.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One reference on libgit2 for the whole run, so that each input does not
 * set it up and tear it down again. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	git_libgit2_init();
	return 0;
}

typedef struct line {
	char origin;
	uint64_t old_line, new_line;
	size_t hunk;
	const char *content;
	size_t len;
} line_t;

typedef struct walk {
	line_t *line;
	size_t n, cap, hunks;
} walk_t;

static int add(walk_t *w, char origin, const char *content, size_t len, uint64_t old_line, uint64_t new_line,
	       size_t hunk)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		if (!(w->line = realloc(w->line, w->cap * sizeof(*w->line))))
			abort();
	}
	w->line[w->n++] = (line_t){ origin, old_line, new_line, hunk, content, len };
	return 0;
}

static int on_walk(void *ctx, char origin, const char *content, size_t len, uint64_t old_line, uint64_t new_line,
		   size_t hunk)
{
	return add(ctx, origin, content, len, old_line, new_line, hunk);
}

static int raw_file(const git_diff_delta *delta, float progress, void *payload)
{
	(void)progress;
	if (delta->flags & GIT_DIFF_FLAG_BINARY)
		((walk_t *)payload)->hunks = SIZE_MAX; /* binary */
	return 0;
}

static int raw_binary(const git_diff_delta *delta, const git_diff_binary *binary, void *payload)
{
	(void)delta;
	(void)binary;
	((walk_t *)payload)->hunks = SIZE_MAX; /* binary */
	return 0;
}

static int raw_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	(void)delta;
	(void)hunk;
	((walk_t *)payload)->hunks++;
	return 0;
}

static int raw_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line,
		    void *payload)
{
	char origin = line->origin == GIT_DIFF_LINE_ADDITION   ? '+'
		      : line->origin == GIT_DIFF_LINE_DELETION ? '-'
		      : line->origin == GIT_DIFF_LINE_CONTEXT  ? ' '
							       : 0;

	(void)delta;
	(void)hunk;
	if (origin)
		add(payload, origin, line->content, line->content_len,
		    line->old_lineno > 0 ? (uint64_t)line->old_lineno : 0,
		    line->new_lineno > 0 ? (uint64_t)line->new_lineno : 0, ((walk_t *)payload)->hunks - 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk_t want = { 0 }, got = { 0 };
	git_diff_options opts;
	td_linediff_t d;
	td_error_t err;
	const char *old, *new;
	size_t at, ol, nl;
	uint64_t added = 0, removed = 0;
	int binary;

	if (size < 2)
		return 0;
	at = ((size_t)data[0] | (size_t)data[1] << 8) % (size - 1);
	old = (const char *)data + 2;
	ol = at;
	new = old + at;
	nl = size - 2 - at;
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) ||
	    git_diff_buffers(ol ? old : NULL, ol, NULL, nl ? new : NULL, nl, NULL, &opts, raw_file, raw_binary, raw_hunk,
			     raw_line, &want))
		abort();
	if (td_linediff_walk(&binary, old, ol, new, nl, on_walk, &got, &err) || td_linediff(&d, old, ol, new, nl, &err))
		abort();
	if (binary != (want.hunks == SIZE_MAX) || d.binary != binary)
		abort();
	if (!binary) {
		if (got.n != want.n)
			abort();
		for (size_t i = 0; i < got.n; i++) {
			const line_t *a = &got.line[i], *b = &want.line[i];
			if (a->origin != b->origin || a->old_line != b->old_line || a->new_line != b->new_line ||
			    a->hunk != b->hunk || a->len != b->len || memcmp(a->content, b->content, a->len))
				abort();
			added += a->origin == '+';
			removed += a->origin == '-';
		}
		if (d.added != added || d.removed != removed)
			abort();
	}
	free(want.line);
	free(got.line);
	return 0;
}
