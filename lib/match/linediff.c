/* Line counts through libgit2's git_diff_buffers, of the lines as tokens:
 * only the callbacks that count run, no patch text is built. */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "internal.h"
#include "linediff.h"
#include "linehash.h"

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

/* ---- lines as tokens ----
 * libgit2 hashes both buffers (SHA-1 with collision detection, for the
 * blob ids of the delta), then every line, a byte at a time, before the
 * diff proper: two thirds of its time on the pairs of a kernel compare.
 * With git's default options (no whitespace option, no indent heuristic)
 * only which lines are equal decides the diff, so each distinct line of
 * the two buffers gets a number and libgit2 diffs the numbers, a few bytes
 * each, as lines: the same hunks at the same places.
 * Lines keep their '\n', so that a last line without one differs from the
 * same line with one, as in git. */

#define TOKEN_DIGITS "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
/* Lines looked up ahead of the one numbered, so that their slots are in
 * cache when wanted: the table of a big pair is far bigger than L1. */
#define TOKEN_PREFETCH 8
/* libgit2 takes a side for binary when its first 8000 bytes hold a NUL
 * (GIT_FILTER_BYTES_TO_CHECK_NUL) or it is over 512 MiB
 * (DIFF_MAX_FILESIZE); such pairs go to libgit2 as they are. An empty
 * side is text (libgit2 is given none). */
#define GIT_BINARY_PROBE 8000
#define GIT_MAX_TEXT 0x20000000u
/* Lines of a pair numbered at most (the numbers and places are 32-bit);
 * a pair with more goes to libgit2 as it is. */
#define TOKEN_MAX_LINES (UINT32_MAX / 4)

static int git_takes_for_text(const void *buf, size_t len)
{
	return !len || (len <= GIT_MAX_TEXT && !memchr(buf, '\0', len < GIT_BINARY_PROBE ? len : GIT_BINARY_PROBE));
}

/* A distinct line in the table of tokenize: 32 bits of its hash and its
 * number + 1 (0: an empty slot). */
typedef struct token_slot {
	uint32_t tag;
	uint32_t id;
} token_slot_t;

/* Two buffers' lines, numbered over both (the new buffer's after the old
 * one's), and the buffers libgit2 diffs instead. */
typedef struct tokens {
	const char *buf[2]; /* the buffers */
	uint64_t lines[2];
	uint32_t *off, *len; /* each line's place in its buffer, with its '\n' */
	char *tok[2];       /* each line's token and '\n' */
	size_t tok_len[2];
} tokens_t;

static void tokens_release(tokens_t *t)
{
	free(t->off);
	free(t->len);
	free(t->tok[0]);
	free(t->tok[1]);
}

/* Line i of side of t. */
static const char *token_line(const tokens_t *t, int side, uint64_t i, size_t *len)
{
	size_t k = (size_t)(side ? t->lines[0] + i : i);

	*len = t->len[k];
	return t->buf[side] + t->off[k];
}

/* Split t->buf[0] and [1] (len[i] bytes each, at most GIT_MAX_TEXT) into
 * lines: each one's hash into *id (room for *cap, grown as needed), its
 * place and length into t->off and t->len, and the count of each side
 * into t->lines. One pass: the hash finds the line's end. 0 or TD_ENOMEM. */
static int split_lines(tokens_t *t, uint64_t **id, size_t *cap, const size_t len[2])
{
	size_t k = 0, off_cap = *cap, len_cap = *cap;

	for (int side = 0; side < 2; side++) {
		for (const char *p = t->buf[side], *end = p + len[side]; p < end; p += t->len[k++]) {
			size_t n;
			if (k == *cap && (td_grow((void **)id, cap, k + 1, sizeof(**id)) ||
					  td_grow((void **)&t->off, &off_cap, k + 1, sizeof(*t->off)) ||
					  td_grow((void **)&t->len, &len_cap, k + 1, sizeof(*t->len))))
				return TD_ENOMEM;
			(*id)[k] = td_line_next(p, end, &n);
			t->off[k] = (uint32_t)(p - t->buf[side]);
			t->len[k] = (uint32_t)n;
		}
		t->lines[side] = k - (side ? t->lines[0] : 0);
	}
	return TD_OK;
}

/* Number the distinct lines of t->buf (len[i] bytes in buf[i], at most
 * GIT_MAX_TEXT; TOKEN_MAX_LINES lines in all) and write each line as its
 * number, in the fewest base-64 digits that number them all, then '\n'.
 * Sets t->lines. 0 or TD_ENOMEM. */
static int tokenize(tokens_t *t, const size_t len[2])
{
	/* a guess of the lines (C has about 30 bytes a line), grown if short */
	size_t cap = (len[0] + len[1]) / 24 + 16, total, slots = 16, mask, width = 1, k;
	token_slot_t *slot = NULL;
	uint64_t *id = NULL; /* each line's hash, then its number */
	uint32_t *first = NULL, distinct = 0;
	int rc = TD_ENOMEM;

	if (!(id = td_malloc_array(cap, sizeof(*id))) || !(t->off = td_malloc_array(cap, sizeof(*t->off))) ||
	    !(t->len = td_malloc_array(cap, sizeof(*t->len))) || split_lines(t, &id, &cap, len))
		goto out;
	total = (size_t)(t->lines[0] + t->lines[1]);
	while (slots < 2 * total)
		slots *= 2;
	mask = slots - 1;
	if (!(first = td_malloc_array(total + 1, sizeof(*first))) || !(slot = td_calloc_array(slots, sizeof(*slot))))
		goto out;
	for (k = 0; k < total; k++) {
		uint64_t h = id[k];
		size_t at = (size_t)h & mask, n;
		const char *line = token_line(t, k >= t->lines[0], k >= t->lines[0] ? k - t->lines[0] : k, &n);
		uint32_t tag = (uint32_t)(h >> 32), i;
		if (k + TOKEN_PREFETCH < total)
			__builtin_prefetch(&slot[id[k + TOKEN_PREFETCH] & mask]);
		for (;; at = (at + 1) & mask) {
			if (!(i = slot[at].id)) {
				first[distinct] = (uint32_t)k;
				slot[at] = (token_slot_t){ tag, i = ++distinct };
				break;
			}
			if (slot[at].tag == tag && t->len[first[i - 1]] == n) {
				size_t j = first[i - 1];
				if (!memcmp(t->buf[j >= t->lines[0]] + t->off[j], line, n))
					break;
			}
		}
		id[k] = i - 1;
	}
	for (uint64_t room = 64; room < distinct; room *= 64)
		width++;
	k = 0;
	for (int side = 0; side < 2; side++) {
		char *o;
		t->tok_len[side] = (size_t)t->lines[side] * (width + 1);
		if (!(t->tok[side] = o = malloc(t->tok_len[side] ? t->tok_len[side] : 1)))
			goto out;
		for (uint64_t i = 0; i < t->lines[side]; i++, k++) {
			uint64_t v = id[k];
			for (size_t d = width; d-- > 0; v >>= 6)
				o[d] = TOKEN_DIGITS[v & 63];
			o += width;
			*o++ = '\n';
		}
	}
	rc = TD_OK;
out:
	free(slot);
	free(id);
	free(first);
	return rc;
}

typedef struct walk_ctx {
	td_linediff_line_fn fn;
	void *ctx;
	const tokens_t *t;    /* the lines, when libgit2 diffs tokens */
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
	uint64_t old_line = line->old_lineno > 0 ? (uint64_t)line->old_lineno : 0;
	uint64_t new_line = line->new_lineno > 0 ? (uint64_t)line->new_lineno : 0;
	const char *content = line->content;
	size_t len = line->content_len;
	char origin;

	(void)delta;
	(void)hunk;
	switch (line->origin) {
	case GIT_DIFF_LINE_ADDITION: origin = '+'; break;
	case GIT_DIFF_LINE_DELETION: origin = '-'; break;
	case GIT_DIFF_LINE_CONTEXT: origin = ' '; break;
	default: return 0; /* "no newline at end of file" markers */
	}
	if (w->t->tok[0])
		content = origin == '+' ? token_line(w->t, 1, new_line - 1, &len)
					: token_line(w->t, 0, old_line - 1, &len);
	w->stopped = w->fn(w->ctx, origin, content, len, old_line, new_line, w->hunk ? w->hunk - 1 : 0);
	return w->stopped ? 1 : 0;
}

/* td_linediff_walk, on the tokens when git takes both sides for text
 * (t->buf[0] and the line counts are then set, and t->tok[0] unless the
 * pair has too many lines); t must be released. Without context, no
 * unchanged line is walked: the hunks' changes are git's all the same
 * (the diff is made before its context is chosen), and a count wants no
 * more. */
static int walk(tokens_t *t, int *binary, const void *old_buf, size_t old_len, const void *new_buf,
		size_t new_len, int context, td_linediff_line_fn fn, void *ctx, td_error_t *err)
{
	walk_ctx_t w = { fn, ctx, t, 0, 0, 0 };
	git_diff_options opts;
	const git_error *e;
	int g;

	*binary = 0;
	memset(t, 0, sizeof(*t));
	if (git_takes_for_text(old_buf, old_len) && git_takes_for_text(new_buf, new_len)) {
		size_t len[2] = { old_len, new_len };
		t->buf[0] = old_buf;
		t->buf[1] = new_buf;
		/* a line has a byte at least: only sides this big can have too
		 * many lines to number, which libgit2 then takes as they are */
		if (old_len + new_len > TOKEN_MAX_LINES) {
			t->lines[0] = td_line_count(old_buf, old_len);
			t->lines[1] = td_line_count(new_buf, new_len);
		}
		if (t->lines[0] + t->lines[1] <= TOKEN_MAX_LINES) {
			if (tokenize(t, len))
				return td_error_set(err, TD_ENOMEM, "out of memory");
			old_buf = t->tok[0];
			old_len = t->tok_len[0];
			new_buf = t->tok[1];
			new_len = t->tok_len[1];
		}
	}
	if (git_libgit2_init() < 0)
		return td_error_set(err, TD_EGIT, "unable to initialize libgit2");
	if ((g = git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION)) == 0) {
		if (!context)
			opts.context_lines = 0;
		g = git_diff_buffers(old_len ? old_buf : NULL, old_len, NULL, new_len ? new_buf : NULL, new_len, NULL,
				     &opts, walk_file, walk_binary, walk_hunk, walk_line, &w);
	}
	if (w.stopped) {
		g = w.stopped;
	} else if (g) {
		e = git_error_last();
		g = td_error_set(err, e && e->klass == GIT_ERROR_NOMEMORY ? TD_ENOMEM : TD_EGIT,
				 "unable to diff: %s", e && e->message ? e->message : "unknown libgit2 error");
	}
	git_libgit2_shutdown();
	*binary = w.binary;
	return g;
}

int td_linediff_walk(int *binary, const void *old_buf, size_t old_len, const void *new_buf, size_t new_len,
		     td_linediff_line_fn fn, void *ctx, td_error_t *err)
{
	tokens_t t;
	int rc = walk(&t, binary, old_buf, old_len, new_buf, new_len, 1, fn, ctx, err);

	tokens_release(&t);
	return rc;
}

static int count_line(void *ctx, char origin, const char *content, size_t len, uint64_t old_line,
		      uint64_t new_line, size_t hunk)
{
	td_linediff_t *out = ctx;

	(void)content;
	(void)len;
	(void)old_line;
	(void)new_line;
	(void)hunk;
	out->added += origin == '+';
	out->removed += origin == '-';
	return 0;
}

int td_linediff(td_linediff_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		size_t new_len, td_error_t *err)
{
	tokens_t t;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = walk(&t, &out->binary, old_buf, old_len, new_buf, new_len, 0, count_line, out, err);
	out->old_lines = t.buf[0] ? t.lines[0] : td_line_count(old_buf, old_len);
	out->new_lines = t.buf[0] ? t.lines[1] : td_line_count(new_buf, new_len);
	tokens_release(&t);
	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	if (out->binary)
		out->added = out->removed = 0;
	else
		out->unchanged = out->old_lines - out->removed;
	return TD_OK;
}
