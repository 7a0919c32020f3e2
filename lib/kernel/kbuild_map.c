/* String-keyed hash map (see kbuild_map.h). */
#include <stdlib.h>
#include <string.h>

#include "kbuild_map.h"
#include "internal.h"

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a 64-bit offset basis */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;       /* FNV-1a 64-bit prime */
	}
	return h;
}

void td_kbmap_init(td_kbmap_t *m)
{
	memset(m, 0, sizeof(*m));
}

void td_kbmap_release(td_kbmap_t *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static td_kbmap_slot_t *probe(td_kbmap_slot_t *slots, size_t cap, const char *key,
			      size_t len, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	for (;;) {
		td_kbmap_slot_t *s = &slots[i];
		if (!s->key || (s->hash == h && s->key_len == len && !memcmp(s->key, key, len)))
			return s;
		i = (i + 1) & (cap - 1);
	}
}

td_kbmap_slot_t *td_kbmap_find(const td_kbmap_t *m, const char *key, size_t len)
{
	td_kbmap_slot_t *s;

	if (!m->cap)
		return NULL;
	s = probe(m->slots, m->cap, key, len, hash_bytes(key, len));
	return s->key ? s : NULL;
}

static int grow(td_kbmap_t *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	td_kbmap_slot_t *ns;

	if (ncap < m->cap)
		return TD_ENOMEM;
	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return TD_ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		td_kbmap_slot_t *s = &m->slots[i];
		if (s->key)
			*probe(ns, ncap, s->key, s->key_len, s->hash) = *s;
	}
	free(m->slots);
	m->slots = ns;
	m->cap = ncap;
	return TD_OK;
}

td_kbmap_slot_t *td_kbmap_insert(td_kbmap_t *m, const char *key, size_t len, int *added)
{
	uint64_t h = hash_bytes(key, len);
	td_kbmap_slot_t *s;

	if (added)
		*added = 0;
	if ((m->count + 1) * 4 >= m->cap * 3 && grow(m))
		return NULL;
	s = probe(m->slots, m->cap, key, len, h);
	if (s->key)
		return s;
	if (!(s->key = td_strndup(key, len)))
		return NULL;
	s->key_len = len;
	s->hash = h;
	s->value = NULL;
	m->count++;
	if (added)
		*added = 1;
	return s;
}
