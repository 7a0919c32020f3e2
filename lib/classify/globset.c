#include <stdlib.h>
#include <string.h>

#include "globset.h"
#include "internal.h"
#include "treedrift/compare.h"

struct td_globset_entry {
	char *pattern;
	size_t len;          /* strlen(pattern): longer is better */
	const char *prefix;  /* literal prefix, inside pattern */
	size_t prefix_len;
	uint32_t value;
	uint32_t order;      /* insertion order: earlier is better */
};

struct td_globset {
	struct td_globset_entry *entries; /* once built: by prefix, then best first */
	size_t count;
	size_t cap;
	size_t *prefix_lens;              /* the distinct prefix lengths, ascending */
	size_t prefix_lens_count;
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
	free(s->prefix_lens);
	free(s);
}

/* The bytes every path the pattern matches starts with: none for a pattern
 * matched against the last part (no '/'), else those before the first
 * wildcard or escape, after a leading '/'. */
static void literal_prefix(struct td_globset_entry *e)
{
	const char *p = e->pattern;
	size_t n = 0;

	e->prefix = p;
	e->prefix_len = 0;
	if (!strchr(p, '/'))
		return;
	if (*p == '/')
		p++;
	while (p[n] && !strchr("*?[\\", p[n]))
		n++;
	e->prefix = p;
	e->prefix_len = n;
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
	literal_prefix(e);
	s->count++;
	return TD_OK;
}

static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
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
	int c = cmp_bytes(a->prefix, a->prefix_len, b->prefix, b->prefix_len);

	if (c)
		return c;
	return better(a, b) ? -1 : better(b, a);
}

static int cmp_sizes(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return a < b ? -1 : a > b;
}

int td_globset_build(td_globset_t *s)
{
	size_t n = 0;

	if (s->built)
		return TD_EINVAL;
	if (s->count) /* entries is NULL when nothing was added */
		qsort(s->entries, s->count, sizeof(*s->entries), cmp_entries);
	if (!(s->prefix_lens = td_malloc_array(s->count, sizeof(size_t))))
		return TD_ENOMEM;
	for (size_t i = 0; i < s->count; i++)
		s->prefix_lens[i] = s->entries[i].prefix_len;
	qsort(s->prefix_lens, s->count, sizeof(size_t), cmp_sizes);
	for (size_t i = 0; i < s->count; i++)
		if (!n || s->prefix_lens[n - 1] != s->prefix_lens[i])
			s->prefix_lens[n++] = s->prefix_lens[i];
	s->prefix_lens_count = n;
	s->built = 1;
	return TD_OK;
}

/* First entry whose prefix is not below key. */
static size_t lower_bound(const td_globset_t *s, const char *key, size_t key_len)
{
	size_t lo = 0, hi = s->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct td_globset_entry *e = &s->entries[mid];

		if (cmp_bytes(e->prefix, e->prefix_len, key, key_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int td_globset_best(const td_globset_t *s, const char *path, size_t path_len,
		    td_globset_accept_fn accept, void *ctx, uint32_t *value, const char **pattern)
{
	const struct td_globset_entry *best = NULL;

	if (!s || !s->built)
		return 0;
	for (size_t k = 0; k < s->prefix_lens_count; k++) {
		size_t plen = s->prefix_lens[k];

		if (plen > path_len)
			break;
		/* the run of entries whose prefix is path[0..plen), best first */
		for (size_t i = lower_bound(s, path, plen); i < s->count; i++) {
			const struct td_globset_entry *e = &s->entries[i];

			if (e->prefix_len != plen || memcmp(e->prefix, path, plen))
				break;
			if (best && !better(e, best))
				break;
			if (td_glob_match(e->pattern, path, path_len) &&
			    (!accept || accept(e->value, path, path_len, ctx))) {
				best = e;
				break;
			}
		}
	}
	if (!best)
		return 0;
	*value = best->value;
	if (pattern)
		*pattern = best->pattern;
	return 1;
}
