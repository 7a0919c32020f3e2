/* Line similarity for copy verification: undo an identifier prefix rename,
 * then diff (linediff.c). The rename is found from the identifiers alone:
 * a copied driver renamed throughout has one leading segment ("e1000" of
 * e1000_probe, E1000_CTRL) that its origin uses often and it never, and one
 * ("acme") the other way round. Rewriting that one segment, and nothing
 * else, keeps unrelated files apart: templated files (defconfigs, board
 * headers, .dtsi) share their prefixes (CONFIG_), so nothing is rewritten
 * and their few common lines stay few. */
#include <ctype.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "linediff.h"
#include "similar.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

/* A leading segment, pointing into its buffer, and its uses there. */
typedef struct seg {
	const char *key;   /* NULL: an empty slot */
	uint32_t len;
	uint32_t uses;
} seg_t;

/* The leading segments of a buffer: an open-addressing hash table. */
typedef struct seg_table {
	seg_t *slot;
	size_t mask, n;
} seg_table_t;

/* A letter, digit or '_' (ASCII: the C locale's isalnum, without a call). */
static inline int is_word(unsigned char c)
{
	return (unsigned)((c | 0x20) - 'a') < 26 || (unsigned)(c - '0') < 10 || c == '_';
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
	if (i == n || !isalpha((unsigned char)w[i]))
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
static seg_t *seg_slot(const seg_table_t *t, const char *p, size_t n)
{
	size_t at = seg_hash(p, n) & t->mask;

	while (t->slot[at].key && (t->slot[at].len != n || memcmp(t->slot[at].key, p, n)))
		at = (at + 1) & t->mask;
	return &t->slot[at];
}

static int seg_grow(seg_table_t *t)
{
	seg_table_t bigger = { NULL, t->mask ? 2 * t->mask + 1 : 255, t->n };

	if (!(bigger.slot = calloc(bigger.mask + 1, sizeof(*bigger.slot))))
		return TD_ENOMEM;
	for (size_t i = 0; t->mask && i <= t->mask; i++)
		if (t->slot[i].key)
			*seg_slot(&bigger, t->slot[i].key, t->slot[i].len) = t->slot[i];
	free(t->slot);
	*t = bigger;
	return TD_OK;
}

/* The leading segments of buf with their uses. Release with free(t->slot). */
static int count_segments(seg_table_t *t, const char *buf, size_t len)
{
	memset(t, 0, sizeof(*t));
	if (seg_grow(t))
		return TD_ENOMEM;
	for (size_t i = 0; i < len;) {
		size_t j = i, at = 0, n;
		seg_t *s;
		if (!is_word((unsigned char)buf[i])) {
			i++;
			continue;
		}
		while (j < len && is_word((unsigned char)buf[j]))
			j++;
		n = leading_segment(&at, buf + i, j - i);
		if (n) {
			s = seg_slot(t, buf + i + at, n);
			if (!s->key) {
				if (2 * (t->n + 1) > t->mask + 1) {
					if (seg_grow(t)) {
						free(t->slot);
						return TD_ENOMEM;
					}
					s = seg_slot(t, buf + i + at, n);
				}
				s->key = buf + i + at;
				s->len = (uint32_t)n;
				t->n++;
			}
			s->uses++;
		}
		i = j;
	}
	return TD_OK;
}

static size_t uses_of(const seg_table_t *t, const seg_t *key)
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
static const seg_t *only_in(const seg_table_t *a, const seg_table_t *b, const seg_t *like)
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

int td_rename_detect(td_similarity_t *out, const char *old_buf, size_t old_len, const char *new_buf,
		     size_t new_len)
{
	seg_table_t a = { 0 }, b = { 0 };
	const seg_t *from, *to, *from1, *to1;
	int rc;

	out->renamed = 0;
	if ((rc = count_segments(&a, old_buf, old_len)) || (rc = count_segments(&b, new_buf, new_len)))
		goto out;
	from = only_in(&a, &b, NULL);
	to = only_in(&b, &a, NULL);
	if (!from || !to)
		goto out;
	set_name(out->from[0], from);
	set_name(out->to[0], to);
	out->renamed = 1;
	from1 = only_in(&a, &b, from);
	to1 = only_in(&b, &a, to);
	if (from1 && to1) {
		set_name(out->from[1], from1);
		set_name(out->to[1], to1);
		out->renamed = 2;
	}
out:
	free(a.slot);
	free(b.slot);
	return rc;
}

int td_rename_apply(char **out, size_t *out_len, const td_similarity_t *s, const char *new_buf,
		    size_t new_len)
{
	size_t o = 0, cap, grow = 0, shortest = SIZE_MAX, tn[2] = { 0, 0 }, fn[2] = { 0, 0 };
	char *buf;

	*out = NULL;
	*out_len = 0;
	if (s->renamed < 1 || s->renamed > 2)
		return TD_ENOMEM;
	for (int r = 0; r < s->renamed; r++) {
		tn[r] = strlen(s->to[r]);
		fn[r] = strlen(s->from[r]);
		if (fn[r] > tn[r] && fn[r] - tn[r] > grow)
			grow = fn[r] - tn[r];
		if (tn[r] < shortest)
			shortest = tn[r];
	}
	if (!shortest)
		return TD_ENOMEM;
	/* each match of at least shortest bytes grows by at most grow */
	cap = new_len + (new_len / shortest + 1) * grow + 1;
	if (cap < new_len || !(buf = malloc(cap)))
		return TD_ENOMEM;
	for (size_t i = 0; i < new_len;) {
		int r = -1;
		/* the first rename whose to starts here (the first byte decides most) */
		for (int k = 0; k < s->renamed && r < 0; k++)
			if (new_buf[i] == s->to[k][0] && tn[k] <= new_len - i && !memcmp(new_buf + i, s->to[k], tn[k]))
				r = k;
		if (r >= 0) {
			memcpy(buf + o, s->from[r], fn[r]);
			o += fn[r];
			i += tn[r];
			continue;
		}
		buf[o++] = new_buf[i++];
	}
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return TD_OK;
}

int td_similarity(td_similarity_t *out, const void *old_buf, size_t old_len, const void *new_buf,
		  size_t new_len, td_error_t *err)
{
	td_linediff_t d;
	char *renamed = NULL;
	size_t renamed_len = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = td_rename_detect(out, old_buf, old_len, new_buf, new_len)) ||
	    (out->renamed && (rc = td_rename_apply(&renamed, &renamed_len, out, new_buf, new_len)))) {
		rc = td_error_set(err, rc, "out of memory");
		goto out;
	}
	if ((rc = td_linediff(&d, old_buf, old_len, renamed ? renamed : new_buf,
			      renamed ? renamed_len : new_len, err)))
		goto out;
	out->binary = d.binary;
	if (d.binary)
		out->value = 0;
	else if (!d.old_lines && !d.new_lines)
		out->value = 1;
	else
		out->value = 2.0 * (double)d.unchanged / (double)(d.old_lines + d.new_lines);
out:
	free(renamed);
	return rc;
}

/* ---- line bags ---- */

#define MIX_MULT 0x9e3779b97f4a7c15ull

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MIX_MULT;
	return h ^ (h >> 29);
}

/* Hash of line p[0..n), eight bytes at a time. */
static uint64_t raw_hash(const char *p, size_t n)
{
	uint64_t h = n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = mix(h, w);
	}
	w = 0;
	memcpy(&w, p + i, n - i);
	return mix(h, w);
}

/* Hash of line p[0..n) with each word's leading segment (before its first
 * '_', after leading underscores) left out. */
static uint64_t masked_hash(const char *p, size_t n)
{
	uint64_t h = FNV_OFFSET;

	for (size_t i = 0; i < n;) {
		if (is_word((unsigned char)p[i])) {
			size_t j = i, k;
			while (j < n && is_word((unsigned char)p[j]))
				j++;
			for (k = i; k < j && p[k] == '_'; k++)
				;
			while (k < j && p[k] != '_')
				k++;
			if (k == j)
				k = i; /* no '_' after a segment: the word as it is */
			for (; k < j; k++)
				h = (h ^ (unsigned char)p[k]) * FNV_PRIME;
			h = (h ^ 0x1f) * FNV_PRIME;
			i = j;
			continue;
		}
		h = (h ^ (unsigned char)p[i++]) * FNV_PRIME;
	}
	return h;
}

static void lineset_release(td_lineset_t *t)
{
	free(t->key);
	free(t->count);
	free(t->used);
	free(t->stamp);
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
	if (!(t->key = calloc(slots, sizeof(*t->key))) || !(t->count = calloc(slots, sizeof(*t->count))) ||
	    !(t->used = calloc(slots, sizeof(*t->used))) || !(t->stamp = calloc(slots, sizeof(*t->stamp)))) {
		lineset_release(t);
		return TD_ENOMEM;
	}
	t->mask = slots - 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = h[i] ? h[i] : 1;
		size_t at = (size_t)(k ^ (k >> 32)) & t->mask;
		while (t->key[at] && t->key[at] != k)
			at = (at + 1) & t->mask;
		t->key[at] = k;
		t->count[at]++;
	}
	return TD_OK;
}

int td_linebag_init(td_linebag_t *out, const char *buf, size_t len, int table)
{
	const char *us = memchr(buf, '_', len);
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->n = td_line_count(buf, len);
	out->table = table;
	if (!(out->raw = td_malloc_array(out->n ? out->n : 1, sizeof(uint64_t))))
		goto nomem;
	for (size_t i = 0; i < len && n < out->n;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) + 1 : len;
		uint64_t under;
		if (us && us < buf + i)
			us = memchr(buf + i, '_', len - i);
		under = us && us < buf + e;
		out->underscored += under;
		out->raw[n++] = (raw_hash(buf + i, e - i) & ~(uint64_t)1) | under;
		i = e;
	}
	out->n = n;
	if (table) {
		if (lineset_init(&out->set[0], out->raw, n))
			goto nomem;
		out->has_sets = 1;
	}
	return TD_OK;
nomem:
	td_linebag_release(out);
	return TD_ENOMEM;
}

int td_linebag_mask(td_linebag_t *b, const char *buf, size_t len)
{
	size_t n = 0;

	if (b->has_masked)
		return TD_OK;
	free(b->masked); /* from a call that ran out of memory */
	if (!(b->masked = td_malloc_array(b->n ? b->n : 1, sizeof(uint64_t))))
		return TD_ENOMEM;
	for (size_t i = 0; i < len && n < b->n;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) + 1 : len;
		b->masked[n++] = masked_hash(buf + i, e - i);
		i = e;
	}
	if (b->table && lineset_init(&b->set[1], b->masked, b->n))
		return TD_ENOMEM;
	b->has_masked = 1;
	return TD_OK;
}

void td_linebag_release(td_linebag_t *b)
{
	free(b->raw);
	free(b->masked);
	lineset_release(&b->set[0]);
	lineset_release(&b->set[1]);
	memset(b, 0, sizeof(*b));
}

double td_linebag_masked_ceiling(const td_linebag_t *a, const td_linebag_t *b, size_t plain)
{
	size_t under = a->underscored < b->underscored ? a->underscored : b->underscored;

	if (!a->n && !b->n)
		return 1;
	return 2.0 * (double)(plain + under) / (double)(a->n + b->n);
}

double td_linebag_bound(const td_linebag_t *a, td_linebag_t *b, int masked, size_t *plain)
{
	const uint64_t *x = masked ? a->masked : a->raw;
	td_lineset_t *t = &b->set[masked ? 1 : 0];
	size_t shared = 0, shared_plain = 0;

	if (plain)
		*plain = 0;
	if (!a->n && !b->n)
		return 1;
	if (!b->has_sets)
		return 1; /* no table: no bound */
	t->now++;
	for (size_t i = 0; i < a->n; i++) {
		uint64_t k = x[i] ? x[i] : 1;
		size_t at = (size_t)(k ^ (k >> 32)) & t->mask;
		while (t->key[at] && t->key[at] != k)
			at = (at + 1) & t->mask;
		if (!t->key[at])
			continue;
		if (t->stamp[at] != t->now) {
			t->stamp[at] = t->now;
			t->used[at] = 0;
		}
		if (t->used[at] < t->count[at]) {
			t->used[at]++;
			shared++;
			shared_plain += !(x[i] & 1);
		}
	}
	if (plain && !masked)
		*plain = shared_plain;
	return 2.0 * (double)shared / (double)(a->n + b->n);
}
