/* Line counts through libgit2's git_diff_buffers: only the callbacks that
 * count run, no patch text is built. */
#include <string.h>

#include <git2.h>

#include "internal.h"
#include "linediff.h"

/* Eight bytes at a time: a byte's high bit is set in
 * ~(((x & low7) + low7) | x | low7) exactly when the byte of x is zero, so
 * with x the bytes xor '\n' that counts the '\n's, without the false
 * marks of the shorter test. Each byte of sums counts its lane's marks for
 * up to 255 words. */
uint64_t td_line_count(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	const uint64_t low7 = TD_BYTE_ONES * 0x7f;
	uint64_t lines = 0;
	size_t i = 0;

	while (len - i >= 8) {
		uint64_t sums = 0;
		for (int k = 0; k < 255 && len - i >= 8; k++, i += 8) {
			uint64_t x;
			memcpy(&x, b + i, 8);
			x ^= TD_BYTE_ONES * '\n';
			sums += ~(((x & low7) + low7) | x | low7) >> 7;
		}
		sums = (sums & 0x00ff00ff00ff00ffull) + ((sums >> 8) & 0x00ff00ff00ff00ffull);
		lines += (sums * 0x0001000100010001ull) >> 48;
	}
	for (; i < len; i++)
		lines += b[i] == '\n';
	return lines + (len && b[len - 1] != '\n');
}

static int on_file(const git_diff_delta *delta, float progress, void *payload)
{
	td_linediff_t *out = payload;

	(void)progress;
	if (delta->flags & GIT_DIFF_FLAG_BINARY)
		out->binary = 1;
	return 0;
}

static int on_binary(const git_diff_delta *delta, const git_diff_binary *binary, void *payload)
{
	td_linediff_t *out = payload;

	(void)delta;
	(void)binary;
	out->binary = 1;
	return 0;
}

static int on_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line,
		   void *payload)
{
	td_linediff_t *out = payload;

	(void)delta;
	(void)hunk;
	if (line->origin == GIT_DIFF_LINE_ADDITION)
		out->added++;
	else if (line->origin == GIT_DIFF_LINE_DELETION)
		out->removed++;
	return 0;
}

int td_linediff(td_linediff_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		size_t new_len, td_error_t *err)
{
	git_diff_options opts;
	const git_error *e;
	int rc = TD_OK;

	memset(out, 0, sizeof(*out));
	out->old_lines = td_line_count(old_buf, old_len);
	out->new_lines = td_line_count(new_buf, new_len);
	if (git_libgit2_init() < 0)
		return td_error_set(err, TD_EGIT, "unable to initialize libgit2");
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) ||
	    git_diff_buffers(old_len ? old_buf : NULL, old_len, NULL, new_len ? new_buf : NULL, new_len, NULL,
			     &opts, on_file, on_binary, NULL, on_line, out)) {
		e = git_error_last();
		rc = td_error_set(err, e && e->klass == GIT_ERROR_NOMEMORY ? TD_ENOMEM : TD_EGIT,
				  "unable to diff: %s", e && e->message ? e->message : "unknown libgit2 error");
		memset(out, 0, sizeof(*out));
		goto out;
	}
	if (out->binary)
		out->added = out->removed = 0;
	else
		out->unchanged = out->old_lines - out->removed;
out:
	git_libgit2_shutdown();
	return rc;
}

typedef struct walk_ctx {
	td_linediff_line_fn fn;
	void *ctx;
	int binary;
	size_t hunk;          /* hunks seen */
	int stopped;          /* the code fn returned */
} walk_ctx_t;

static int walk_file(const git_diff_delta *delta, float progress, void *payload)
{
	(void)progress;
	if (delta->flags & GIT_DIFF_FLAG_BINARY)
		((walk_ctx_t *)payload)->binary = 1;
	return 0;
}

static int walk_binary(const git_diff_delta *delta, const git_diff_binary *binary, void *payload)
{
	(void)delta;
	(void)binary;
	((walk_ctx_t *)payload)->binary = 1;
	return 0;
}

static int walk_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	(void)delta;
	(void)hunk;
	((walk_ctx_t *)payload)->hunk++;
	return 0;
}

static int walk_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line,
		     void *payload)
{
	walk_ctx_t *w = payload;
	char origin;

	(void)delta;
	(void)hunk;
	switch (line->origin) {
	case GIT_DIFF_LINE_ADDITION: origin = '+'; break;
	case GIT_DIFF_LINE_DELETION: origin = '-'; break;
	case GIT_DIFF_LINE_CONTEXT: origin = ' '; break;
	default: return 0; /* "no newline at end of file" markers */
	}
	w->stopped = w->fn(w->ctx, origin, line->content, line->content_len,
			   line->old_lineno > 0 ? (uint64_t)line->old_lineno : 0,
			   line->new_lineno > 0 ? (uint64_t)line->new_lineno : 0, w->hunk ? w->hunk - 1 : 0);
	return w->stopped ? 1 : 0;
}

int td_linediff_walk(int *binary, const void *old_buf, size_t old_len, const void *new_buf, size_t new_len,
		     td_linediff_line_fn fn, void *ctx, td_error_t *err)
{
	git_diff_options opts;
	const git_error *e;
	walk_ctx_t w = { fn, ctx, 0, 0, 0 };
	int rc = TD_OK, g;

	*binary = 0;
	if (git_libgit2_init() < 0)
		return td_error_set(err, TD_EGIT, "unable to initialize libgit2");
	if ((g = git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION)) == 0)
		g = git_diff_buffers(old_len ? old_buf : NULL, old_len, NULL, new_len ? new_buf : NULL, new_len, NULL,
				     &opts, walk_file, walk_binary, walk_hunk, walk_line, &w);
	if (w.stopped) {
		rc = w.stopped;
	} else if (g) {
		e = git_error_last();
		rc = td_error_set(err, e && e->klass == GIT_ERROR_NOMEMORY ? TD_ENOMEM : TD_EGIT,
				  "unable to diff: %s", e && e->message ? e->message : "unknown libgit2 error");
	}
	*binary = w.binary;
	git_libgit2_shutdown();
	return rc;
}
