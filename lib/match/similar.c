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

typedef struct seg {
	char key[TD_RENAME_PREFIX_MAX + 1];
} seg_t;

typedef struct seg_count {
	const char *key;
	size_t uses;
} seg_count_t;

static int is_word(unsigned char c)
{
	return isalnum(c) || c == '_';
}

static int seg_cmp(const void *a, const void *b)
{
	return strcmp(((const seg_t *)a)->key, ((const seg_t *)b)->key);
}

/* The leading segment of the word w[0..n): after leading underscores, the
 * letters and digits up to the next '_', as spelt; 0 when the word has none
 * (no '_' after it, too short or long, or not starting with a letter). */
static int leading_segment(char key[TD_RENAME_PREFIX_MAX + 1], const char *w, size_t n)
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
	memcpy(key, w + i, k - i);
	key[k - i] = '\0';
	return 1;
}

/* The leading segments of buf with their uses, sorted by key. *out and
 * *keys are malloc'd (keys holds the strings). */
static int count_segments(seg_count_t **out, size_t *nout, seg_t **keys, const char *buf, size_t len)
{
	seg_t *s = NULL;
	seg_count_t *c = NULL;
	size_t n = 0, cap = 0, nc = 0;

	*out = NULL;
	*nout = 0;
	*keys = NULL;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		if (!is_word((unsigned char)buf[i])) {
			i++;
			continue;
		}
		while (j < len && is_word((unsigned char)buf[j]))
			j++;
		if (n == cap) {
			void *p = s;
			if (td_grow(&p, &cap, n + 1, sizeof(*s)))
				goto nomem;
			s = p;
		}
		n += leading_segment(s[n].key, buf + i, j - i);
		i = j;
	}
	if (n)
		qsort(s, n, sizeof(*s), seg_cmp);
	if (!(c = td_malloc_array(n ? n : 1, sizeof(*c))))
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		if (nc && !strcmp(c[nc - 1].key, s[i].key)) {
			c[nc - 1].uses++;
			continue;
		}
		c[nc].key = s[i].key;
		c[nc++].uses = 1;
	}
	*out = c;
	*nout = nc;
	*keys = s;
	return TD_OK;
nomem:
	free(s);
	free(c);
	return TD_ENOMEM;
}

static size_t uses_of(const seg_count_t *c, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(c[mid].key, key);
		if (!d)
			return c[mid].uses;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The most used segment of a that b never uses (ties: the first key); with
 * like, only another casing of like. */
static const char *only_in(const seg_count_t *a, size_t na, const seg_count_t *b, size_t nb, const char *like)
{
	const seg_count_t *best = NULL;

	for (size_t i = 0; i < na; i++)
		if (a[i].uses >= TD_RENAME_MIN_USES && (!best || a[i].uses > best->uses) &&
		    (!like || (strcmp(a[i].key, like) && !strcasecmp(a[i].key, like))) &&
		    !uses_of(b, nb, a[i].key))
			best = &a[i];
	return best ? best->key : NULL;
}

int td_rename_detect(td_similarity_t *out, const char *old_buf, size_t old_len, const char *new_buf,
		     size_t new_len)
{
	seg_count_t *a = NULL, *b = NULL;
	seg_t *ka = NULL, *kb = NULL;
	size_t na = 0, nb = 0;
	const char *from, *to;
	int rc;

	out->renamed = 0;
	if ((rc = count_segments(&a, &na, &ka, old_buf, old_len)) ||
	    (rc = count_segments(&b, &nb, &kb, new_buf, new_len)))
		goto out;
	from = only_in(a, na, b, nb, NULL);
	to = only_in(b, nb, a, na, NULL);
	if (!from || !to)
		goto out;
	memcpy(out->from[0], from, strlen(from) + 1);
	memcpy(out->to[0], to, strlen(to) + 1);
	out->renamed = 1;
	from = only_in(a, na, b, nb, out->from[0]);
	to = only_in(b, nb, a, na, out->to[0]);
	if (from && to) {
		memcpy(out->from[1], from, strlen(from) + 1);
		memcpy(out->to[1], to, strlen(to) + 1);
		out->renamed = 2;
	}
out:
	free(a);
	free(b);
	free(ka);
	free(kb);
	return rc;
}

/* The rename of s whose to matches p[0..n) at its start, or -1. */
static int rename_at(const td_similarity_t *s, const char *p, size_t n)
{
	for (int r = 0; r < s->renamed; r++) {
		size_t tn = strlen(s->to[r]);
		if (tn && tn <= n && !memcmp(p, s->to[r], tn))
			return r;
	}
	return -1;
}

int td_rename_apply(char **out, size_t *out_len, const td_similarity_t *s, const char *new_buf,
		    size_t new_len)
{
	size_t o = 0, cap, grow = 0, shortest = SIZE_MAX;
	char *buf;

	*out = NULL;
	*out_len = 0;
	for (int r = 0; r < s->renamed; r++) {
		size_t tn = strlen(s->to[r]), fn = strlen(s->from[r]);
		if (fn > tn && fn - tn > grow)
			grow = fn - tn;
		if (tn < shortest)
			shortest = tn;
	}
	if (!s->renamed || !shortest)
		return TD_ENOMEM;
	/* each match of at least shortest bytes grows by at most grow */
	cap = new_len + (new_len / shortest + 1) * grow + 1;
	if (cap < new_len || !(buf = malloc(cap)))
		return TD_ENOMEM;
	for (size_t i = 0; i < new_len;) {
		int r = rename_at(s, new_buf + i, new_len - i);
		if (r >= 0) {
			size_t fn = strlen(s->from[r]);
			memcpy(buf + o, s->from[r], fn);
			o += fn;
			i += strlen(s->to[r]);
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

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull
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
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->n = td_line_count(buf, len);
	if (!(out->raw = td_malloc_array(out->n ? out->n : 1, sizeof(uint64_t))) ||
	    !(out->masked = td_malloc_array(out->n ? out->n : 1, sizeof(uint64_t))))
		goto nomem;
	for (size_t i = 0; i < len && n < out->n;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) + 1 : len;
		out->raw[n] = raw_hash(buf + i, e - i);
		if (table)
			out->masked[n] = masked_hash(buf + i, e - i);
		n++;
		i = e;
	}
	out->n = n;
	if (table) {
		if (lineset_init(&out->set[0], out->raw, n) || lineset_init(&out->set[1], out->masked, n))
			goto nomem;
		out->has_sets = 1;
	}
	return TD_OK;
nomem:
	td_linebag_release(out);
	return TD_ENOMEM;
}

void td_linebag_mask(td_linebag_t *b, const char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n < b->n;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) + 1 : len;
		b->masked[n++] = masked_hash(buf + i, e - i);
		i = e;
	}
}

void td_linebag_release(td_linebag_t *b)
{
	free(b->raw);
	free(b->masked);
	lineset_release(&b->set[0]);
	lineset_release(&b->set[1]);
	memset(b, 0, sizeof(*b));
}

double td_linebag_bound(const td_linebag_t *a, td_linebag_t *b, int masked)
{
	const uint64_t *x = masked ? a->masked : a->raw;
	td_lineset_t *t = &b->set[masked ? 1 : 0];
	size_t shared = 0;

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
		}
	}
	return 2.0 * (double)shared / (double)(a->n + b->n);
}
