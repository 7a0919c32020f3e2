/* Line similarity for copy verification: undo an identifier prefix rename,
 * then diff (linediff.c). The rename is found from the identifiers alone:
 * a copied driver renamed throughout has one leading segment ("e1000" of
 * e1000_probe, E1000_CTRL) that its origin uses often and it never, and one
 * ("acme") the other way round. Rewriting that one segment, and nothing
 * else, keeps unrelated files apart: templated files (defconfigs, board
 * headers, .dtsi) share their prefixes (CONFIG_), so nothing is rewritten
 * and their few common lines stay few. */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "internal.h"
#include "linediff.h"
#include "linehash.h"
#include "similar.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

/* A leading segment, pointing into its buffer, and its uses there: the
 * slots of td_segments_t's open-addressing hash table. */
typedef struct td_seg {
	const char *key;   /* NULL: an empty slot */
	uint32_t len;
	uint32_t uses;
} seg_t;

/* Whether a byte is a letter, digit or '_' (ASCII: the C locale's isalnum
 * and '_'): one load a byte where the identifiers are scanned. */
#define WORD_BYTE(c) ((unsigned)(((c) | 0x20) - 'a') < 26 || (unsigned)((c) - '0') < 10 || (c) == '_')
#define WORD_BYTES4(c) WORD_BYTE(c), WORD_BYTE((c) + 1), WORD_BYTE((c) + 2), WORD_BYTE((c) + 3)
#define WORD_BYTES16(c) WORD_BYTES4(c), WORD_BYTES4((c) + 4), WORD_BYTES4((c) + 8), WORD_BYTES4((c) + 12)
#define WORD_BYTES64(c) WORD_BYTES16(c), WORD_BYTES16((c) + 16), WORD_BYTES16((c) + 32), WORD_BYTES16((c) + 48)
static const unsigned char word_byte[256] = { WORD_BYTES64(0), WORD_BYTES64(64), WORD_BYTES64(128),
					      WORD_BYTES64(192) };

static inline int is_word(unsigned char c)
{
	return word_byte[c];
}

static inline int is_letter(unsigned char c)
{
	return (unsigned)((c | 0x20) - 'a') < 26;
}

/* Byte order, a shorter key first when one starts the other (strcmp's). */
static int seg_cmp(const seg_t *a, const seg_t *b)
{
	int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The leading segment of the word w[0..n): after leading underscores, the
 * letters and digits up to the next '_', as spelt; its length (with *at its
 * offset), or 0 when the word has none (no '_' after it, too short or long,
 * or not starting with a letter). */
static size_t leading_segment(size_t *at, const char *w, size_t n)
{
	size_t i = 0, k;

	while (i < n && w[i] == '_')
		i++;
	if (i == n || !is_letter((unsigned char)w[i]))
		return 0;
	for (k = i; k < n && w[k] != '_'; k++)
		;
	if (k == n || k - i < 2 || k - i > TD_RENAME_PREFIX_MAX)
		return 0;
	*at = i;
	return k - i;
}

static size_t seg_hash(const char *p, size_t n)
{
	uint64_t h = FNV_OFFSET;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * FNV_PRIME;
	return (size_t)(h ^ (h >> 32));
}

/* The slot of key p[0..n) in t: its own, or the empty one it would take. */
static seg_t *seg_slot(const td_segments_t *t, const char *p, size_t n)
{
	size_t at = seg_hash(p, n) & t->mask;

	while (t->slot[at].key && (t->slot[at].len != n || memcmp(t->slot[at].key, p, n)))
		at = (at + 1) & t->mask;
	return &t->slot[at];
}

static int seg_grow(td_segments_t *t)
{
	td_segments_t bigger = { NULL, t->mask ? 2 * t->mask + 1 : 255, t->n, t->frequent };

	if (!(bigger.slot = td_calloc_array(bigger.mask + 1, sizeof(*bigger.slot))))
		return TD_ENOMEM;
	for (size_t i = 0; t->mask && i <= t->mask; i++)
		if (t->slot[i].key)
			*seg_slot(&bigger, t->slot[i].key, t->slot[i].len) = t->slot[i];
	free(t->slot);
	*t = bigger;
	return TD_OK;
}

#if defined(__SSE2__)
/* A bit for each word byte of p[0..16). */
static inline unsigned word_mask16(const char *p)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	const __m128i l = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
	const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
	__m128i w = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(25)), l);

	w = _mm_or_si128(w, _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
	w = _mm_or_si128(w, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
	return (unsigned)_mm_movemask_epi8(w);
}
#endif

/* The start of the word bytes that end at buf[j], not before lo. */
static size_t word_start(const char *buf, size_t lo, size_t j)
{
#if defined(__SSE2__)
	for (; j - lo >= 16; j -= 16) {
		unsigned other = ~word_mask16(buf + j - 16) & 0xffffu;
		if (other)
			return j - 16 + (size_t)(31 - __builtin_clz(other)) + 1;
	}
#endif
	while (j > lo && is_word((unsigned char)buf[j - 1]))
		j--;
	return j;
}

/* The end of the word bytes from buf[j] on, not after len. */
static size_t word_end(const char *buf, size_t j, size_t len)
{
#if defined(__SSE2__)
	for (; len - j >= 16; j += 16) {
		unsigned other = ~word_mask16(buf + j) & 0xffffu;
		if (other)
			return j + (size_t)__builtin_ctz(other);
	}
#endif
	while (j < len && is_word((unsigned char)buf[j]))
		j++;
	return j;
}

int td_segments_init(td_segments_t *t, const char *buf, size_t len)
{
	seg_t *last = NULL;

	memset(t, 0, sizeof(*t));
	if (seg_grow(t))
		return TD_ENOMEM;
	/* only a word with a '_' has a segment: from each '_' not in a word
	 * seen yet, back to its word's start and on to its end */
	for (size_t i = 0; i < len;) {
		const char *u = memchr(buf + i, '_', len - i);
		size_t at = 0, n, us, end;
		seg_t *s;
		if (!u)
			break;
		us = (size_t)(u - buf);
		i = word_start(buf, i, us);
		end = word_end(buf, us + 1, len);
		/* the word's first '_' is us: a word that starts before it has
		 * its leading segment there */
		if (i < us)
			n = is_letter((unsigned char)buf[i]) && us - i >= 2 && us - i <= TD_RENAME_PREFIX_MAX ? us - i : 0;
		else
			n = leading_segment(&at, buf + i, end - i);
		if (n) {
			const char *key = buf + i + at;
			/* identifiers of one prefix tend to come together */
			if (last && last->len == n && !memcmp(last->key, key, n))
				s = last;
			else
				s = seg_slot(t, key, n);
			if (!s->key) {
				if (2 * (t->n + 1) > t->mask + 1) {
					if (seg_grow(t)) {
						td_segments_release(t);
						return TD_ENOMEM;
					}
					s = seg_slot(t, key, n);
				}
				s->key = key;
				s->len = (uint32_t)n;
				t->n++;
			}
			t->frequent += ++s->uses == TD_RENAME_MIN_USES;
			last = s;
		}
		i = end;
	}
	return TD_OK;
}

static size_t uses_of(const td_segments_t *t, const seg_t *key)
{
	const seg_t *s = seg_slot(t, key->key, key->len);

	return s->key ? s->uses : 0;
}

/* Whether a and b are the same letters in another casing. */
static int other_casing(const seg_t *a, const seg_t *b)
{
	return a->len == b->len && memcmp(a->key, b->key, a->len) && !strncasecmp(a->key, b->key, a->len);
}

/* The most used segment of a that b never uses (ties: the first key); with
 * like, only another casing of like. */
static const seg_t *only_in(const td_segments_t *a, const td_segments_t *b, const seg_t *like)
{
	const seg_t *best = NULL;

	for (size_t i = 0; i <= a->mask; i++) {
		const seg_t *s = &a->slot[i];
		if (!s->key || s->uses < TD_RENAME_MIN_USES || (like && !other_casing(s, like)))
			continue;
		if (best && (s->uses < best->uses || (s->uses == best->uses && seg_cmp(s, best) > 0)))
			continue;
		if (!uses_of(b, s))
			best = s;
	}
	return best;
}

static void set_name(char out[TD_RENAME_PREFIX_MAX + 1], const seg_t *s)
{
	memcpy(out, s->key, s->len);
	out[s->len] = '\0';
}

void td_segments_release(td_segments_t *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

void td_rename_detect_in(td_similarity_t *out, const td_segments_t *old_segs, const td_segments_t *new_segs)
{
	const seg_t *from = only_in(old_segs, new_segs, NULL), *to = only_in(new_segs, old_segs, NULL);
	const seg_t *from1, *to1;

	out->renamed = 0;
	if (!from || !to)
		return;
	set_name(out->from[0], from);
	set_name(out->to[0], to);
	out->renamed = 1;
	from1 = only_in(old_segs, new_segs, from);
	to1 = only_in(new_segs, old_segs, to);
	if (from1 && to1) {
		set_name(out->from[1], from1);
		set_name(out->to[1], to1);
		out->renamed = 2;
	}
}

int td_rename_detect(td_similarity_t *out, const char *old_buf, size_t old_len, const char *new_buf,
		     size_t new_len)
{
	td_segments_t a = { 0 }, b = { 0 };
	int rc;

	out->renamed = 0;
	if (!(rc = td_segments_init(&a, old_buf, old_len)) && !(rc = td_segments_init(&b, new_buf, new_len)))
		td_rename_detect_in(out, &a, &b);
	td_segments_release(&a);
	td_segments_release(&b);
	return rc;
}

/* The first match of name (n >= 1 bytes) in p[0..len), or NULL: memmem,
 * without its set-up, which costs more than the search where a name is
 * looked for on each of many short lines. Eight places at a time, those
 * whose first and last bytes are the name's. */
static const char *find_name(const char *p, size_t len, const char *name, size_t n)
{
	unsigned char first, last;
	size_t i = 0;

	if (!n || n > len)
		return NULL;
	first = (unsigned char)name[0];
	last = (unsigned char)name[n - 1];
	while (i + n - 1 + 8 <= len) {
		uint64_t m = td_bytes_equal(td_load_bytes(p + i, 8), first) &
			     td_bytes_equal(td_load_bytes(p + i + n - 1, 8), last);
		if (!m) {
			i += 8;
			continue;
		}
		/* the lowest mark is at or before the first match: a false
		 * one moves on by a byte */
		i += (size_t)__builtin_ctzll(m) / 8;
		if (!memcmp(p + i, name, n))
			return p + i;
		i++;
	}
	for (; i + n <= len; i++)
		if ((unsigned char)p[i] == first && !memcmp(p + i, name, n))
			return p + i;
	return NULL;
}

/* The lengths of a rename's names, and what they make a renamed buffer
 * grow by. */
typedef struct rename_spec {
	size_t tn[2], fn[2];
	size_t grow;       /* the most a match grows */
	size_t shortest;   /* the shortest to */
} rename_spec_t;

/* 0, or TD_ENOMEM for no rename or an empty name. */
static int rename_spec(rename_spec_t *r, const td_similarity_t *s)
{
	memset(r, 0, sizeof(*r));
	if (s->renamed < 1 || s->renamed > 2)
		return TD_ENOMEM;
	r->shortest = SIZE_MAX;
	for (int k = 0; k < s->renamed; k++) {
		r->tn[k] = strlen(s->to[k]);
		r->fn[k] = strlen(s->from[k]);
		if (r->fn[k] > r->tn[k] && r->fn[k] - r->tn[k] > r->grow)
			r->grow = r->fn[k] - r->tn[k];
		if (r->tn[k] < r->shortest)
			r->shortest = r->tn[k];
	}
	return r->shortest ? TD_OK : TD_ENOMEM;
}

/* Room for len bytes renamed and a NUL: each match of at least shortest
 * bytes grows by at most grow. 0 when that overflows. */
static size_t rename_room(const rename_spec_t *r, size_t len)
{
	size_t cap = len + (len / r->shortest + 1) * r->grow + 1;

	return cap < len ? 0 : cap;
}

/* src[0..len) with each s->to[k] replaced by s->from[k] into dst (of
 * rename_room bytes); the bytes written, without a NUL. */
static size_t rename_copy(char *dst, const td_similarity_t *s, const rename_spec_t *r, const char *src, size_t len)
{
	size_t o = 0, next[2] = { 0, 0 };
	int searched[2] = { 0, 0 };

	/* next[k]: where to[k] next starts at or after i (len: nowhere); at
	 * each match, the first rename whose to starts there */
	for (size_t i = 0;;) {
		size_t at = len;
		int m = -1;
		for (int k = 0; k < s->renamed; k++) {
			if (!searched[k] || next[k] < i) {
				const char *p = find_name(src + i, len - i, s->to[k], r->tn[k]);
				next[k] = p ? (size_t)(p - src) : len;
				searched[k] = 1;
			}
			if (next[k] < at) {
				at = next[k];
				m = k;
			}
		}
		memcpy(dst + o, src + i, at - i);
		o += at - i;
		if (m < 0)
			return o;
		memcpy(dst + o, s->from[m], r->fn[m]);
		o += r->fn[m];
		i = at + r->tn[m];
	}
}

int td_rename_apply(char **out, size_t *out_len, const td_similarity_t *s, const char *new_buf,
		    size_t new_len)
{
	rename_spec_t r;
	size_t cap;
	char *buf;

	*out = NULL;
	*out_len = 0;
	if (rename_spec(&r, s) || !(cap = rename_room(&r, new_len)) || !(buf = malloc(cap)))
		return TD_ENOMEM;
	*out_len = rename_copy(buf, s, &r, new_buf, new_len);
	buf[*out_len] = '\0';
	*out = buf;
	return TD_OK;
}

/* out->value and binary from the diff of old and new (new with the
 * rename, if any, already undone). */
static int similarity_of(td_similarity_t *out, const void *old_buf, size_t old_len, const void *new_buf,
			 size_t new_len, td_error_t *err)
{
	td_linediff_t d;
	int rc;

	if ((rc = td_linediff(&d, old_buf, old_len, new_buf, new_len, err)))
		return rc;
	out->binary = d.binary;
	if (d.binary)
		out->value = 0;
	else if (!d.old_lines && !d.new_lines)
		out->value = 1;
	else
		out->value = 2.0 * (double)d.unchanged / (double)(d.old_lines + d.new_lines);
	return TD_OK;
}

/* The diff of td_similarity, with the rename already in out. */
static int similarity_diff(td_similarity_t *out, const void *old_buf, size_t old_len, const void *new_buf,
			   size_t new_len, td_error_t *err)
{
	char *renamed = NULL;
	size_t renamed_len = 0;
	int rc;

	if (out->renamed && (rc = td_rename_apply(&renamed, &renamed_len, out, new_buf, new_len)))
		return td_error_set(err, rc, "out of memory");
	rc = similarity_of(out, old_buf, old_len, renamed ? renamed : new_buf, renamed ? renamed_len : new_len,
			   err);
	free(renamed);
	return rc;
}

int td_similarity(td_similarity_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		  size_t new_len, td_error_t *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = td_rename_detect(out, old_buf, old_len, new_buf, new_len)))
		return td_error_set(err, rc, "out of memory");
	return similarity_diff(out, old_buf, old_len, new_buf, new_len, err);
}

/* ---- line bags ---- */

/* The hash of line p[0..n) (a '\n' only at its end), as td_linebag_init
 * keeps it. */
static uint64_t line_hash(const char *p, size_t n)
{
	size_t len;

	return n ? td_line_next(p, p + n, &len) : 0;
}

/* A line hash as a table holds it: folded to 32 bits, never 0. */
static inline uint32_t slot_key(uint64_t h)
{
	uint32_t k = (uint32_t)(h ^ (h >> 32));

	return k ? k : 1;
}

/* The slot of line hash h in t (an empty one when it is not there). */
static inline size_t lineset_slot(const td_lineset_t *t, uint64_t h)
{
	uint32_t k = slot_key(h);
	size_t at = (size_t)k & t->mask;

	while (t->slot[at].key && t->slot[at].key != k)
		at = (at + 1) & t->mask;
	return at;
}

static void lineset_release(td_lineset_t *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static int lineset_init(td_lineset_t *t, const uint64_t *h, size_t n)
{
	size_t slots = 16;

	memset(t, 0, sizeof(*t));
	while (slots < 2 * n) {
		if (slots > SIZE_MAX / 4)
			return TD_ENOMEM;
		slots *= 2;
	}
	if (!(t->slot = td_calloc_array(slots, sizeof(*t->slot))))
		return TD_ENOMEM;
	t->mask = slots - 1;
	for (size_t i = 0; i < n; i++) {
		size_t at = lineset_slot(t, h[i]);
		t->slot[at].key = slot_key(h[i]);
		t->slot[at].count++;
	}
	return TD_OK;
}

int td_linebag_init(td_linebag_t *out, const char *buf, size_t len, int table)
{
	size_t cap = len / 32 + 16;

	memset(out, 0, sizeof(*out));
	if (!(out->hash = td_malloc_array(cap, sizeof(uint64_t))))
		goto nomem;
	for (const char *p = buf, *end = buf + len; p < end;) {
		size_t n;
		uint64_t h = td_line_next(p, end, &n);
		if (out->n == cap && td_grow((void **)&out->hash, &cap, cap + 1, sizeof(uint64_t)))
			goto nomem;
		out->hash[out->n++] = h;
		p += n;
	}
	if (table) {
		if (lineset_init(&out->set, out->hash, out->n))
			goto nomem;
		out->has_set = 1;
	}
	return TD_OK;
nomem:
	td_linebag_release(out);
	return TD_ENOMEM;
}

void td_linebag_release(td_linebag_t *b)
{
	free(b->hash);
	lineset_release(&b->set);
	memset(b, 0, sizeof(*b));
}

/* The lines of slot at taken since t->now last changed (reset when
 * stale). */
static inline uint32_t *slot_used(td_lineset_t *t, size_t at)
{
	if (t->slot[at].stamp != t->now) {
		t->slot[at].stamp = t->now;
		t->slot[at].used = 0;
	}
	return &t->slot[at].used;
}

/* Takes a line of slot at: 1, or 0 when none is left. */
static inline int slot_take(td_lineset_t *t, size_t at)
{
	uint32_t *used = slot_used(t, at);

	if (*used >= t->slot[at].count)
		return 0;
	(*used)++;
	return 1;
}

/* Takes a line of hash h from those of t not taken since t->now last
 * changed: 1, or 0 when none is left. */
static inline int lineset_take(td_lineset_t *t, uint64_t h)
{
	size_t at = lineset_slot(t, h);

	return t->slot[at].key && slot_take(t, at);
}

/* The lines of a that the lines of t share with it, a line of t's taken
 * once. */
static size_t shared_lines(const td_linebag_t *a, td_lineset_t *t)
{
	size_t shared = 0;

	t->now++;
	for (size_t i = 0; i < a->n; i++)
		shared += lineset_take(t, a->hash[i]);
	return shared;
}

/* shared_lines(a, t), with the lines of a that t has none left for in
 * rest (room for a->n), *nrest of them. */
static size_t shared_split(const td_linebag_t *a, td_lineset_t *t, uint64_t *rest, size_t *nrest)
{
	size_t shared = 0;

	t->now++;
	*nrest = 0;
	for (size_t i = 0; i < a->n; i++)
		if (lineset_take(t, a->hash[i]))
			shared++;
		else
			rest[(*nrest)++] = a->hash[i];
	return shared;
}

double td_linebag_bound(const td_linebag_t *a, td_linebag_t *b)
{
	if (!a->n && !b->n)
		return 1;
	if (!b->has_set)
		return 1; /* no table: no bound */
	return 2.0 * (double)shared_lines(a, &b->set) / (double)(a->n + b->n);
}

double td_linebag_order_bound(const td_linebag_t *a, td_linebag_t *b)
{
	td_lineset_t *t = &b->set;
	size_t slots = t->mask + 1, kept = 0, frequent = 0;
	uint32_t *start = NULL, *pos = NULL, *tails = NULL;
	double bound = -1;

	if (!a->n && !b->n)
		return 1;
	if (!b->has_set || b->n > UINT32_MAX)
		return -1;
	/* where each slot's lines are, in order: pos[start[s] .. start[s + 1]) */
	if (!(start = td_calloc_array(slots + 1, sizeof(*start))) ||
	    !(pos = td_malloc_array(b->n ? b->n : 1, sizeof(*pos))) ||
	    !(tails = td_malloc_array(a->n < b->n ? a->n + 1 : b->n + 1, sizeof(*tails))))
		goto out;
	for (size_t s = 0; s < slots; s++)
		start[s + 1] = start[s] + t->slot[s].count;
	t->now++;
	for (size_t j = 0; j < b->n; j++) {
		size_t at = lineset_slot(t, b->hash[j]);
		pos[start[at] + (*slot_used(t, at))++] = (uint32_t)j;
	}
	/* the longest increasing run of b's positions, a's lines in order and
	 * each line's positions from the last, so that a line is kept once
	 * (patience sorting: tails[k] is the least end of a run of k + 1) */
	t->now++;
	for (size_t i = 0; i < a->n; i++) {
		size_t at = lineset_slot(t, a->hash[i]);
		if (!t->slot[at].key)
			continue;
		if (t->slot[at].count > TD_ORDER_FREQUENT) {
			/* counted as the bags count them, out of order */
			frequent += (size_t)slot_take(t, at);
			continue;
		}
		for (size_t q = start[at + 1]; q-- > start[at];) {
			uint32_t p = pos[q];
			size_t lo = 0, hi = kept;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (tails[mid] < p)
					lo = mid + 1;
				else
					hi = mid;
			}
			tails[lo] = p;
			if (lo == kept)
				kept++;
		}
	}
	bound = 2.0 * (double)(kept + frequent) / (double)(a->n + b->n);
out:
	free(start);
	free(pos);
	free(tails);
	return bound;
}

/* ---- similarity with a bound first ---- */

/* As git decides binary for a diff: a NUL in the first 8000 bytes. */
static int looks_binary(const char *p, size_t n)
{
	return memchr(p, 0, n < 8000 ? n : 8000) != NULL;
}

/* Lines of a pair from which the bound in order is worth its cost before
 * a diff (a pair of 1,000-line files diffs in about a millisecond). */
#define ORDER_MIN_LINES 4096

/* Whether a similarity bound rules a pair out: below need, or with above
 * not above it. */
static int below(double bound, double need, int above)
{
	return above ? bound <= need : bound < need;
}

void td_simfile_init(td_simfile_t *f, const void *buf, size_t len)
{
	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->len = len;
}

void td_simfile_release(td_simfile_t *f)
{
	if (f->has_bag)
		td_linebag_release(&f->bag);
	if (f->has_segs)
		td_segments_release(&f->segs);
	free(f->line_at);
	free(f->touched);
	free(f->line);
	free(f->rest);
	free(f->renamed_hash);
	memset(f, 0, sizeof(*f));
}

/* f->touched: the lines of f with a match of one of s's to names, in
 * order, kept for the next pair with the same names. A name has no
 * newline, so each match is in one line. 0 or TD_ENOMEM. */
static int touched_lines(td_simfile_t *f, const td_similarity_t *s)
{
	int same = f->touched_for == s->renamed;

	for (int k = 0; same && k < s->renamed; k++)
		same = !strcmp(f->touched_to[k], s->to[k]);
	if (same)
		return TD_OK;
	f->touched_for = 0;
	/* each name's lines, then sorted together */
	if (!f->touched && !(f->touched = td_malloc_array(2 * f->bag.n + 1, sizeof(*f->touched))))
		return TD_ENOMEM;
	if (!f->line_at) {
		size_t n = 0;
		if (!(f->line_at = td_malloc_array(f->bag.n + 1, sizeof(*f->line_at))))
			return TD_ENOMEM;
		/* as td_linebag_init splits them */
		for (size_t i = 0; i < f->len && n < f->bag.n;) {
			const char *nl = memchr(f->buf + i, '\n', f->len - i);
			f->line_at[n++] = i;
			i = nl ? (size_t)(nl - f->buf) + 1 : f->len;
		}
		f->line_at[n] = f->len;
	}
	f->ntouched = 0;
	for (int k = 0; k < s->renamed; k++) {
		size_t tn = strlen(s->to[k]), line = 0;
		for (size_t i = 0; i < f->len && f->bag.n;) {
			const char *m = find_name(f->buf + i, f->len - i, s->to[k], tn);
			if (!m)
				break;
			/* matches come in order: on to the match's line */
			while (f->line_at[line + 1] <= (size_t)(m - f->buf))
				line++;
			f->touched[f->ntouched++] = line;
			i = f->line_at[line + 1];
		}
	}
	if (s->renamed > 1 && f->ntouched) {
		size_t u = 1;
		qsort(f->touched, f->ntouched, sizeof(*f->touched), td_size_cmp);
		for (size_t i = 1; i < f->ntouched; i++)
			if (f->touched[i] != f->touched[u - 1])
				f->touched[u++] = f->touched[i];
		f->ntouched = u;
	}
	for (int k = 0; k < s->renamed; k++)
		memcpy(f->touched_to[k], s->to[k], sizeof(f->touched_to[k]));
	f->touched_for = s->renamed;
	return TD_OK;
}

/* f's touched lines out of its table, or back in. */
static void touched_count(td_simfile_t *f, int back)
{
	td_lineset_t *t = &f->bag.set;

	for (size_t i = 0; i < f->ntouched; i++) {
		td_lineslot_t *slot = &t->slot[lineset_slot(t, f->bag.hash[f->touched[i]])];
		if (back)
			slot->count++;
		else
			slot->count--;
	}
}

/* td_linebag_renamed_bound; with need >= 0, first a looser bound that
 * renames nothing: the lines old shares with f's untouched ones, plus one
 * for each touched line (renamed, a line can match one line of old) up to
 * the lines old has left; it is returned when it is below need (with
 * above, not above it). */
static double renamed_bound(const td_linebag_t *old_bag, td_simfile_t *f, const td_similarity_t *s, double need,
			    int above)
{
	td_lineset_t *t = &f->bag.set, changed;
	rename_spec_t r;
	uint64_t *h;
	size_t kept, nrest;
	double bound = -1;

	if (!f->has_bag || !f->bag.has_set || rename_spec(&r, s) || touched_lines(f, s))
		return -1;
	if (!old_bag->n && !f->bag.n)
		return 1;
	if (td_grow((void **)&f->rest, &f->rest_cap, old_bag->n, sizeof(*f->rest)))
		return -1;
	/* the lines old shares with the untouched ones, and the rest of old's
	 * for the renamed lines */
	touched_count(f, 0);
	kept = shared_split(old_bag, t, f->rest, &nrest);
	touched_count(f, 1);
	if (need >= 0) {
		bound = 2.0 * (double)(kept + (f->ntouched < nrest ? f->ntouched : nrest)) /
			(double)(old_bag->n + f->bag.n);
		if (below(bound, need, above))
			return bound;
		bound = -1;
	}
	if (td_grow((void **)&f->renamed_hash, &f->renamed_cap, f->ntouched ? f->ntouched : 1, sizeof(*h)))
		return -1;
	h = f->renamed_hash;
	for (size_t i = 0; i < f->ntouched; i++) {
		size_t j = f->touched[i], at = f->line_at[j], len = f->line_at[j + 1] - at;
		size_t room = rename_room(&r, len), n;
		if (!room || td_grow((void **)&f->line, &f->line_cap, room, 1))
			return -1;
		n = rename_copy(f->line, s, &r, f->buf + at, len);
		h[i] = line_hash(f->line, n);
	}
	if (lineset_init(&changed, h, f->ntouched))
		return -1;
	changed.now++;
	for (size_t i = 0; i < nrest; i++)
		kept += (size_t)lineset_take(&changed, f->rest[i]);
	bound = 2.0 * (double)kept / (double)(old_bag->n + f->bag.n);
	lineset_release(&changed);
	return bound;
}

/* f's own hashes with the touched lines' renamed: a name holds no
 * newline, so a rename moves no line. */
int td_simfile_renamed_bag(td_linebag_t *out, const td_simfile_t *f)
{
	memset(out, 0, sizeof(*out));
	if (!(out->hash = td_malloc_array(f->bag.n ? f->bag.n : 1, sizeof(*out->hash))))
		return TD_ENOMEM;
	memcpy(out->hash, f->bag.hash, f->bag.n * sizeof(*out->hash));
	for (size_t i = 0; i < f->ntouched; i++)
		out->hash[f->touched[i]] = f->renamed_hash[i];
	out->n = f->bag.n;
	if (lineset_init(&out->set, out->hash, out->n)) {
		td_linebag_release(out);
		return TD_ENOMEM;
	}
	out->has_set = 1;
	return TD_OK;
}

double td_linebag_renamed_bound(const td_linebag_t *old_bag, td_simfile_t *f, const td_similarity_t *s)
{
	return renamed_bound(old_bag, f, s, -1, 0);
}

/* 2 * min(a, b) / (a + b): the similarity of files of a and b lines
 * when the shorter one's lines are all kept. */
static double count_bound(size_t a, size_t b)
{
	return a + b ? 2.0 * (double)(a < b ? a : b) / (double)(a + b) : 1;
}

void td_simold_init(td_simold_t *o, const void *buf, size_t len)
{
	memset(o, 0, sizeof(*o));
	o->buf = buf;
	o->len = len;
	o->binary = looks_binary(o->buf, len);
}

/* What the bounds want of o, made from its buffer when it is not yet
 * (the lines are counted as the bag splits them). */
static size_t simold_lines(td_simold_t *o)
{
	if (!o->has_lines) {
		o->lines = o->has_bag ? o->bag.n : (size_t)td_line_count(o->buf, o->len);
		o->has_lines = 1;
	}
	return o->lines;
}

static int simold_bag(td_simold_t *o)
{
	if (!o->has_bag) {
		if (td_linebag_init(&o->bag, o->buf, o->len, 0))
			return TD_ENOMEM;
		o->has_bag = 1;
	}
	return TD_OK;
}

static int simold_segs(td_simold_t *o)
{
	if (!o->has_segs) {
		if (td_segments_init(&o->segs, o->buf, o->len))
			return TD_ENOMEM;
		o->has_segs = 1;
	}
	return TD_OK;
}

int td_simold_keep(td_simold_t *o)
{
	uint64_t *shrunk;
	size_t bytes = 1;
	char *at;

	if (o->binary)
		return TD_EINVAL;
	if (simold_bag(o) || simold_segs(o))
		return TD_ENOMEM;
	simold_lines(o);
	/* made for a guess of the lines: no more room than they take */
	if (o->bag.n && (shrunk = realloc(o->bag.hash, o->bag.n * sizeof(*o->bag.hash))))
		o->bag.hash = shrunk;
	/* the segments point into the buffer: into a copy of their names */
	for (size_t i = 0; i <= o->segs.mask; i++)
		bytes += o->segs.slot[i].key ? o->segs.slot[i].len : 0;
	if (!(o->names = malloc(bytes)))
		return TD_ENOMEM;
	at = o->names;
	for (size_t i = 0; i <= o->segs.mask; i++) {
		seg_t *s = &o->segs.slot[i];
		if (!s->key)
			continue;
		memcpy(at, s->key, s->len);
		s->key = at;
		at += s->len;
	}
	o->buf = NULL;
	o->len = 0;
	o->bytes = sizeof(*o) + o->bag.n * sizeof(*o->bag.hash) + (o->segs.mask + 1) * sizeof(seg_t) + bytes;
	return TD_OK;
}

void td_simold_release(td_simold_t *o)
{
	td_linebag_release(&o->bag);
	td_segments_release(&o->segs);
	free(o->names);
	memset(o, 0, sizeof(*o));
}

int td_similarity_bound(td_similarity_t *out, td_simold_t *old, td_simfile_t *nf, double need, int above,
			td_error_t *err)
{
	td_linebag_t rb, *nb = &nf->bag, *ob = &old->bag;
	double bound;

	memset(out, 0, sizeof(*out));
	/* a binary side is diffed whole (td_similarity_measure) */
	if (old->binary || looks_binary(nf->buf, nf->len))
		return TD_OK;
	if (!nf->has_bag) {
		if (td_linebag_init(nb, nf->buf, nf->len, 1))
			goto nomem;
		nf->has_bag = 1;
	}
	/* no diff keeps more lines than the shorter side has, renamed or not */
	bound = count_bound(simold_lines(old), nb->n);
	if (below(bound, need, above))
		goto bounded;
	if (simold_bag(old))
		goto nomem;
	if (!nf->has_segs) {
		if (td_segments_init(&nf->segs, nf->buf, nf->len))
			goto nomem;
		nf->has_segs = 1;
	}
	/* a rename needs a name that starts TD_RENAME_MIN_USES identifiers of
	 * new: without one, old's segments are not wanted */
	if (nf->segs.frequent) {
		if (simold_segs(old))
			goto nomem;
		td_rename_detect_in(out, &old->segs, &nf->segs);
	}
	/* the diff is of new with the rename, if any, undone: bound that */
	if (!out->renamed)
		bound = td_linebag_bound(ob, nb);
	else if ((bound = renamed_bound(ob, nf, out, need, above)) < 0)
		goto nomem;
	/* a big pair costs a slow diff: first the bound in order */
	if (!below(bound, need, above) && ob->n + nb->n >= ORDER_MIN_LINES) {
		double order = -1;
		if (!out->renamed)
			order = td_linebag_order_bound(ob, nb);
		else if (!td_simfile_renamed_bag(&rb, nf)) {
			order = td_linebag_order_bound(ob, &rb);
			td_linebag_release(&rb);
		}
		if (order >= 0 && order < bound)
			bound = order;
	}
	if (!below(bound, need, above))
		return TD_OK;
bounded:
	out->value = bound;
	out->bounded = 1;
	return TD_OK;
nomem:
	return td_error_set(err, TD_ENOMEM, "out of memory");
}

int td_similarity_measure(td_similarity_t *out, const void *old_buf, size_t old_len, const td_simfile_t *nf,
			  td_error_t *err)
{
	char *renamed = NULL;
	size_t renamed_len = 0;
	int rc;

	if (looks_binary(old_buf, old_len) || looks_binary(nf->buf, nf->len))
		return td_similarity(out, old_buf, old_len, nf->buf, nf->len, err);
	if (out->renamed && (rc = td_rename_apply(&renamed, &renamed_len, out, nf->buf, nf->len)))
		return td_error_set(err, rc, "out of memory");
	rc = similarity_of(out, old_buf, old_len, renamed ? renamed : nf->buf, renamed ? renamed_len : nf->len,
			   err);
	free(renamed);
	return rc;
}

int td_similarity_bounded(td_similarity_t *out, const void *old_buf, size_t old_len, td_simfile_t *nf,
			  double need, int above, td_error_t *err)
{
	td_simold_t old;
	int rc;

	td_simold_init(&old, old_buf, old_len);
	if (!(rc = td_similarity_bound(out, &old, nf, need, above, err)) && !out->bounded)
		rc = td_similarity_measure(out, old_buf, old_len, nf, err);
	td_simold_release(&old);
	return rc;
}
