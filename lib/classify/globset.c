/* The globset (globset.h): patterns indexed by a literal key each, so that a
 * lookup tries only the patterns whose key the path holds. */
#include <stdlib.h>
#include <string.h>

#include "globset.h"
#include "internal.h"
#include "treedrift/compare.h"

/* Kinds of key, in the order entries sort. */
enum { KEY_PREFIX, KEY_SUFFIX, KEY_PART, KEY_NONE, KEY_KINDS };

struct td_globset_entry {
	char *pattern;
	size_t len;          /* strlen(pattern): longer is better */
	int kind;            /* KEY_* */
	const char *key;     /* the literal key, inside pattern */
	size_t key_len;
	uint32_t value;
	uint32_t order;      /* insertion order: earlier is better */
};

struct td_globset {
	struct td_globset_entry *entries; /* once built: by kind, key length, key, then best first */
	size_t count;
	size_t cap;
	size_t *key_lens[KEY_KINDS];      /* per kind, the distinct key lengths, ascending */
	size_t key_lens_count[KEY_KINDS];
	size_t unindexed;                 /* entries of KEY_NONE */
	int built;
};

int td_globset_new(td_globset_t **out)
{
	*out = calloc(1, sizeof(td_globset_t));
	return *out ? TD_OK : TD_ENOMEM;
}

void td_globset_free(td_globset_t *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->count; i++)
		free(s->entries[i].pattern);
	free(s->entries);
	for (int k = 0; k < KEY_KINDS; k++)
		free(s->key_lens[k]);
	free(s);
}

static int is_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']' || c == '\\';
}

/* Literal prefix: the bytes every path the pattern matches starts with:
 * none for a pattern matched against the last part (no '/'), else those
 * before the first wildcard or escape, after a leading '/'. */
static size_t literal_prefix(const char *p, const char **at)
{
	size_t n = 0;

	*at = p;
	if (!strchr(p, '/'))
		return 0;
	if (*p == '/')
		p++;
	while (p[n] && !strchr("*?[\\", p[n]))
		n++;
	*at = p;
	return n;
}

/* Literal suffix: the bytes every matching path ends with. The last pattern
 * part matches the last path part, unless the pattern is a directory (it
 * ends in a slash, or in a part "**"), so its bytes after the last wildcard, escape or set
 * bracket end every matching path. */
static size_t literal_suffix(const char *p, size_t plen, const char **at)
{
	const char *q = p;
	size_t qlen = plen, n = 0;

	*at = p + plen;
	if (memchr(p, '/', plen)) {
		if (*q == '/')
			q++, qlen--;
		if (!qlen || q[qlen - 1] == '/' ||
		    (qlen >= 3 && !memcmp(q + qlen - 3, "/**", 3)))
			return 0;
	}
	while (n < qlen && q[qlen - 1 - n] != '/' && !is_special(q[qlen - 1 - n]))
		n++;
	*at = q + qlen - n;
	return n;
}

/* The longest wholly literal part of a pattern with a '/': each pattern
 * part but "**" matches one whole path part, so a literal one must equal a
 * part of every matching path. */
static size_t literal_part(const char *p, size_t plen, const char **at)
{
	size_t best = 0, i = 0;

	*at = p;
	if (!memchr(p, '/', plen))
		return 0;
	while (i < plen) {
		size_t j = i, special = 0;

		while (j < plen && p[j] != '/')
			special |= (size_t)(p[j] == '*' || p[j] == '?' || p[j] == '[' || p[j] == '\\'), j++;
		if (!special && j - i > best) {
			best = j - i;
			*at = p + i;
		}
		i = j + 1;
	}
	return best;
}

/* Index an entry by its longest literal key; ties to the prefix, then the
 * part, which are the more selective. */
static void choose_key(struct td_globset_entry *e)
{
	const char *pre, *suf, *part;
	size_t lp = literal_prefix(e->pattern, &pre);
	size_t ls = literal_suffix(e->pattern, e->len, &suf);
	size_t lq = literal_part(e->pattern, e->len, &part);

	if (!lp && !ls && !lq) {
		e->kind = KEY_NONE;
		e->key = e->pattern;
		e->key_len = 0;
	} else if (lp >= lq && lp >= ls) {
		e->kind = KEY_PREFIX, e->key = pre, e->key_len = lp;
	} else if (lq >= ls) {
		e->kind = KEY_PART, e->key = part, e->key_len = lq;
	} else {
		e->kind = KEY_SUFFIX, e->key = suf, e->key_len = ls;
	}
}

int td_globset_add(td_globset_t *s, const char *pattern, uint32_t value)
{
	struct td_globset_entry *e;

	if (s->built || s->count >= UINT32_MAX)
		return TD_EINVAL;
	if (td_grow((void **)&s->entries, &s->cap, s->count + 1, sizeof(*s->entries)))
		return TD_ENOMEM;
	e = &s->entries[s->count];
	e->len = strlen(pattern);
	if (!(e->pattern = td_strndup(pattern, e->len)))
		return TD_ENOMEM;
	e->value = value;
	e->order = (uint32_t)s->count;
	choose_key(e);
	s->count++;
	return TD_OK;
}

/* Order of keys: kind, then length, then bytes. */
static int cmp_key(int akind, const char *a, size_t alen, int bkind, const char *b, size_t blen)
{
	if (akind != bkind)
		return akind < bkind ? -1 : 1;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return alen ? memcmp(a, b, alen) : 0;
}

/* Better of two matching entries: the longer pattern, then the earlier. */
static int better(const struct td_globset_entry *a, const struct td_globset_entry *b)
{
	if (a->len != b->len)
		return a->len > b->len;
	return a->order < b->order;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct td_globset_entry *a = pa, *b = pb;
	int c = cmp_key(a->kind, a->key, a->key_len, b->kind, b->key, b->key_len);

	if (c)
		return c;
	return better(a, b) ? -1 : better(b, a);
}

int td_globset_build(td_globset_t *s)
{
	if (s->built)
		return TD_EINVAL;
	if (s->count) /* entries is NULL when nothing was added */
		qsort(s->entries, s->count, sizeof(*s->entries), cmp_entries);
	for (int k = 0; k < KEY_KINDS; k++)
		if (!(s->key_lens[k] = td_malloc_array(s->count ? s->count : 1, sizeof(size_t))))
			return TD_ENOMEM;
	for (size_t i = 0; i < s->count; i++) {
		const struct td_globset_entry *e = &s->entries[i];
		size_t *n = &s->key_lens_count[e->kind];

		/* sorted by kind then length: each distinct length comes once, ascending */
		if (!*n || s->key_lens[e->kind][*n - 1] != e->key_len)
			s->key_lens[e->kind][(*n)++] = e->key_len;
		if (e->kind == KEY_NONE)
			s->unindexed++;
	}
	s->built = 1;
	if (s->unindexed > TD_GLOBSET_MAX_UNINDEXED)
		return TD_EUNSUPPORTED;
	return TD_OK;
}

size_t td_globset_unindexed(const td_globset_t *s)
{
	return s ? s->unindexed : 0;
}

/* First entry whose key is not below (kind, key). */
static size_t lower_bound(const td_globset_t *s, int kind, const char *key, size_t key_len)
{
	size_t lo = 0, hi = s->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct td_globset_entry *e = &s->entries[mid];

		if (cmp_key(e->kind, e->key, e->key_len, kind, key, key_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct lookup {
	const char *path;
	size_t path_len;
	td_globset_accept_fn accept;
	void *ctx;
	const struct td_globset_entry *best;
	size_t tried;        /* entries whose key the path holds: the work done */
	int count_only;      /* count them all, match none */
};

/* The run of entries with key (kind, key), best first: the first that
 * matches and is accepted, if better than the best so far. */
static void probe(const td_globset_t *s, struct lookup *l, int kind, const char *key, size_t key_len)
{
	for (size_t i = lower_bound(s, kind, key, key_len); i < s->count; i++) {
		const struct td_globset_entry *e = &s->entries[i];

		if (cmp_key(e->kind, e->key, e->key_len, kind, key, key_len))
			break;
		l->tried++;
		if (l->count_only)
			continue;
		if (l->best && !better(e, l->best))
			break;
		if (td_glob_match(e->pattern, l->path, l->path_len) &&
		    (!l->accept || l->accept(e->value, l->path, l->path_len, l->ctx))) {
			l->best = e;
			break;
		}
	}
}

static void lookup_run(const td_globset_t *s, struct lookup *l)
{
	const char *path = l->path;
	size_t len = l->path_len, base = len;

	while (base > 0 && path[base - 1] != '/')
		base--;
	for (size_t k = 0; k < s->key_lens_count[KEY_PREFIX]; k++) {
		size_t n = s->key_lens[KEY_PREFIX][k];
		if (n > len)
			break;
		probe(s, l, KEY_PREFIX, path, n);
	}
	for (size_t k = 0; k < s->key_lens_count[KEY_SUFFIX]; k++) {
		size_t n = s->key_lens[KEY_SUFFIX][k];
		if (n > len - base)
			break;
		probe(s, l, KEY_SUFFIX, path + len - n, n);
	}
	if (s->key_lens_count[KEY_PART]) {
		for (size_t i = 0; i <= len;) {
			const char *slash = memchr(path + i, '/', len - i);
			size_t end = slash ? (size_t)(slash - path) : len;

			if (end > i)
				probe(s, l, KEY_PART, path + i, end - i);
			i = end + 1;
		}
	}
	if (s->unindexed)
		probe(s, l, KEY_NONE, "", 0);
}

int td_globset_best(const td_globset_t *s, const char *path, size_t path_len,
		    td_globset_accept_fn accept, void *ctx, uint32_t *value, const char **pattern)
{
	struct lookup l = { path, path_len, accept, ctx, NULL, 0, 0 };

	if (!s || !s->built || !path)
		return 0;
	lookup_run(s, &l);
	if (!l.best)
		return 0;
	*value = l.best->value;
	if (pattern)
		*pattern = l.best->pattern;
	return 1;
}

size_t td_globset_candidates(const td_globset_t *s, const char *path, size_t path_len)
{
	struct lookup l = { path, path_len, NULL, NULL, NULL, 0, 1 };

	if (!s || !s->built || !path)
		return 0;
	lookup_run(s, &l);
	return l.tried;
}
