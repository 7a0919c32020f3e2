/* Trees built in memory for the origin and base tests: files with real
 * digests of generated content, and databases of several versions. */
#ifndef TD_TEST_TREE_FIXTURE_H
#define TD_TEST_TREE_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "treedrift/compare.h"
#include "treedrift/digest.h"
#include "treedrift/store.h"
#include "treedrift/tree.h"

static uint64_t fx_rng_state = 0x9e3779b97f4a7c15u;

static inline uint64_t fx_rng(void)
{
	fx_rng_state ^= fx_rng_state << 13;
	fx_rng_state ^= fx_rng_state >> 7;
	fx_rng_state ^= fx_rng_state << 17;
	return fx_rng_state;
}

/* n bytes of text-like content: words from a small alphabet, seeded. */
static inline char *fx_text(uint64_t seed, size_t n)
{
	char *p = malloc(n + 1);
	uint64_t save = fx_rng_state;

	fx_rng_state = seed * 0x2545f4914f6cdd1du + 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = fx_rng();
		p[i] = r % 7 == 0 ? ' ' : r % 31 == 0 ? '\n' : (char)('a' + (r >> 8) % 26);
	}
	p[n] = 0;
	fx_rng_state = save;
	return p;
}

/* Change every step-th byte of s, from offset from. */
static inline void fx_edit(char *s, size_t n, size_t from, size_t step)
{
	for (size_t i = from; i < n; i += step)
		s[i] = s[i] == 'x' ? 'y' : 'x';
}

static inline void fx_add(td_tree_t *t, const char *path, const char *data, size_t len)
{
	td_file_t f;
	td_digester_t *dg = NULL;

	memset(&f, 0, sizeof(f));
	f.path = strdup(path);
	f.path_len = strlen(path);
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.size_bytes = len;
	CHECK(td_digester_new(&dg) == 0);
	td_digester_start(dg, 1);
	CHECK(td_digester_update(dg, data, len) == 0);
	CHECK(td_digester_finish(&f.digest, dg) == 0);
	td_digester_free(dg);
	f.has_digest = 1;
	CHECK(td_tree_append(t, &f) == 0);
}

static inline void fx_add_text(td_tree_t *t, const char *path, uint64_t seed, size_t n)
{
	char *s = fx_text(seed, n);
	fx_add(t, path, s, n);
	free(s);
}

static inline td_tree_t *fx_tree(const char *label)
{
	td_tree_t *t = NULL;
	CHECK(td_tree_new(&t) == 0);
	if (label)
		td_meta_set(&t->meta.label, label);
	td_meta_set(&t->meta.root, "/fixture");
	td_meta_set(&t->meta.source_kind, "dir");
	return t;
}

static char fx_dir[4096];

static inline void fx_tmpdir(void)
{
	check_tmpdir(fx_dir, sizeof(fx_dir), "fixture");
}

static inline void fx_cleanup(const char *db) /* db: a path under fx_dir */
{
	char lock[4400];
	snprintf(lock, sizeof(lock), "%s.lock", db);
	unlink(db);
	unlink(lock);
	rmdir(fx_dir);
}

/* Append tree (sorted first) to the database at path as a version. */
static inline void fx_db_add(const char *path, td_tree_t *t)
{
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };

	CHECK(td_tree_sort(t) == 0);
	CHECK(td_db_writer_open(&w, path, TD_DB_APPEND, &err) == 0);
	CHECK(td_db_writer_add(w, t, 0, &err) == 0);
	CHECK(td_db_writer_commit(w, &err) == 0);
	if (err.msg[0])
		fprintf(stderr, "db: %s\n", err.msg);
	td_db_writer_free(w);
}

/* The change of a result at path (its target's, or its upstream's when
 * removed), or NULL. */
static inline const td_change_t *fx_change(const td_result_t *r, const char *path)
{
	for (size_t i = 0; i < r->count; i++) {
		const td_file_t *f = r->changes[i].target ? r->changes[i].target : r->changes[i].upstream;
		if (f && !strcmp(f->path, path))
			return &r->changes[i];
	}
	return NULL;
}

#endif
