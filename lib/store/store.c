/* The store's public API over its two backends (store_impl.h): an SQLite
 * file, or a PostgreSQL server named by a URI. Each call goes to the
 * backend the handle was opened with. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "internal.h"

const td_db_backend_t td_db_backend_sqlite = {
	"sqlite", td_sq_open, td_sq_close, td_sq_versions, td_sq_load, td_sq_load_reuse, td_sq_check, td_sq_size_bytes, td_sq_match,
	td_sq_writer_open, td_sq_writer_add, td_sq_writer_add_scan, td_sq_writer_delete, td_sq_writer_prune,
	td_sq_writer_commit, td_sq_writer_free,
};

const td_db_backend_t td_db_backend_pg = {
	"postgresql", td_pg_open, td_pg_close, td_pg_versions, td_pg_load, td_pg_load_reuse, td_pg_check, td_pg_size_bytes, td_pg_match,
	td_pg_writer_open, td_pg_writer_add, td_pg_writer_add_scan, td_pg_writer_delete, td_pg_writer_prune,
	td_pg_writer_commit, td_pg_writer_free,
};

int td_db_is_uri(const char *spec)
{
	return spec && (!strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11));
}

static const td_db_backend_t *backend_of(const char *spec)
{
	return td_db_is_uri(spec) ? &td_db_backend_pg : &td_db_backend_sqlite;
}

/* Append n bytes of s to buf (of at least strlen(spec) + 1 bytes). */
static size_t put(char *buf, size_t at, const char *s, size_t n)
{
	memcpy(buf + at, s, n);
	return at + n;
}

char *td_db_display_name(const char *spec)
{
	const char *auth, *auth_end, *at, *colon, *query, *p;
	size_t len, n = 0;
	char *out;

	if (!spec)
		return NULL;
	len = strlen(spec);
	if (!(out = malloc(len + 1)))
		return NULL;
	if (!td_db_is_uri(spec)) {
		memcpy(out, spec, len + 1);
		return out;
	}
	/* scheme://[user[:password]@]hosts[/dbname][?params] */
	auth = strstr(spec, "://") + 3;
	auth_end = auth + strcspn(auth, "/?");
	at = NULL;
	for (p = auth; p < auth_end; p++)
		if (*p == '@')
			at = p;
	n = put(out, n, spec, (size_t)(auth - spec));
	if (at) {
		colon = memchr(auth, ':', (size_t)(at - auth));
		n = put(out, n, auth, (size_t)((colon ? colon : at) - auth));
		n = put(out, n, at, (size_t)(auth_end - at));
	} else {
		n = put(out, n, auth, (size_t)(auth_end - auth));
	}
	query = strchr(auth_end, '?');
	n = put(out, n, auth_end, (size_t)((query ? query : spec + len) - auth_end));
	if (query) {
		/* Every parameter but password=, in its order. */
		int first = 1;
		for (p = query + 1; *p;) {
			size_t plen = strcspn(p, "&");
			if (!(plen >= 9 && !strncmp(p, "password=", 9))) {
				n = put(out, n, first ? "?" : "&", 1);
				n = put(out, n, p, plen);
				first = 0;
			}
			p += plen;
			if (*p == '&')
				p++;
		}
	}
	out[n] = '\0';
	return out;
}

int td_db_open(td_db_t **out, const char *path, td_error_t *err)
{
	td_db_t *h;
	int rc;

	*out = NULL;
	if (!path)
		return td_error_set(err, TD_EINVAL, "no database path");
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = td_db_display_name(path))) {
		free(h);
		return td_error_set(err, TD_ENOMEM, "out of memory opening a database");
	}
	h->be = backend_of(path);
	rc = h->be->open(h, path, err);
	if (rc) {
		td_db_free(h);
		return rc;
	}
	*out = h;
	return TD_OK;
}

void td_db_free(td_db_t *db)
{
	if (!db)
		return;
	db->be->close(db);
	free(db->path);
	free(db);
}

int td_db_versions(td_version_t **out, size_t *count, td_db_t *db, td_error_t *err)
{
	return db->be->versions(db, out, count, err);
}

void td_versions_free(td_version_t *v, size_t count)
{
	if (!v)
		return;
	for (size_t i = 0; i < count; i++)
		td_tree_meta_release(&v[i].meta);
	free(v);
}

uint64_t td_db_size_bytes(td_db_t *db)
{
	return db->be->size_bytes(db);
}

int td_db_load(td_tree_t **out, td_db_t *db, const char *label, td_error_t *err)
{
	return db->be->load(db, label, out, err);
}

int td_db_load_reuse(td_tree_t **out, td_db_t *db, td_error_t *err)
{
	return db->be->load_reuse(db, out, err);
}

int td_db_check(td_db_t *db, td_error_t *err)
{
	return db->be->check(db, err);
}

int td_db_match(td_db_matches_t **out, td_db_t *db, const td_tree_t *tree, td_error_t *err)
{
	return db->be->match(db, tree, out, err);
}

void td_db_matches_free(td_db_matches_t *m)
{
	if (!m)
		return;
	free(m->identical);
	free(m->start);
	free(m->version);
	free(m);
}

int td_db_writer_open(td_db_writer_t **out, const char *path, unsigned flags, td_error_t *err)
{
	*out = NULL;
	if (!path || !*path)
		return td_error_set(err, TD_EINVAL, "no database path");
	return backend_of(path)->writer_open(out, path, flags, err);
}

int td_db_writer_add(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err)
{
	return w->be->writer_add(w, tree, replace, err);
}

int td_db_writer_add_scan(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats,
			  td_error_t *err)
{
	return w->be->writer_add_scan(w, out, src, label, replace, opts, stats, err);
}

int td_db_writer_delete(td_db_writer_t *w, const char *label, td_error_t *err)
{
	return w->be->writer_delete(w, label, err);
}

int td_db_writer_prune(td_db_writer_t *w, td_error_t *err)
{
	return w->be->writer_prune(w, err);
}

int td_db_copy(size_t *copied, td_db_writer_t *w, td_db_t *src, const char *label, int replace,
	       td_error_t *err)
{
	td_version_t *v = NULL;
	size_t nv = 0;
	int rc;

	*copied = 0;
	if (label) {
		td_tree_t *t = NULL;
		if (!(rc = td_db_load(&t, src, label, err)))
			rc = td_db_writer_add(w, t, replace, err);
		td_tree_free(t);
		*copied = !rc;
		return rc;
	}
	if ((rc = td_db_versions(&v, &nv, src, err)))
		return rc;
	for (size_t i = 0; i < nv && !rc; i++) {
		td_tree_t *t = NULL;
		if (!(rc = td_db_load(&t, src, v[i].meta.label, err)))
			rc = td_db_writer_add(w, t, replace, err);
		td_tree_free(t);
		if (!rc)
			(*copied)++;
	}
	td_versions_free(v, nv);
	return rc;
}

int td_db_writer_commit(td_db_writer_t *w, td_error_t *err)
{
	return w->be->writer_commit(w, err);
}

void td_db_writer_free(td_db_writer_t *w)
{
	if (w)
		w->be->writer_free(w);
}

uint64_t td_db_tree_bytes(const td_tree_t *tree)
{
	uint64_t total = 0;

	for (size_t i = 0; i < tree->count; i++)
		if (tree->files[i].type == TD_ENTRY_FILE)
			total += tree->files[i].size_bytes;
	return total;
}

/* Preallocation cap when loading, whatever file_count claims. */
#define TD_DB_LOAD_RESERVE_MAX 4000000

int td_db_load_reserve(td_tree_t *t, const char *path, uint64_t file_count, td_error_t *err)
{
	if (td_meta_set(&t->meta.database, path))
		return td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", path);
	if (file_count && file_count <= TD_DB_LOAD_RESERVE_MAX) {
		void *p = NULL;
		size_t cap = 0;
		if (td_grow(&p, &cap, (size_t)file_count, sizeof(td_file_t)))
			return td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", path);
		t->files = p;
		t->cap = cap;
	}
	return TD_OK;
}

long td_db_version_index(const int64_t *ids, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] == id)
			return (long)mid;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
