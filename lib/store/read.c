/* Reading a database: versions, and a version loaded as a tree. A
 * handle opens the file read-only and never writes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "internal.h"

int td_sq_open(td_db_t *h, const char *path, td_error_t *err)
{
	int rc = td_db_open_existing(&h->db, path, 0, err);

	if (!rc && (rc = td_db_user_version(h->db, &h->schema)) != SQLITE_OK)
		rc = td_sql_error(err, h->db, rc, "read", path);
	return rc;
}

/* The size of the file this handle has open, not of whatever the path
 * names now: a writer may have renamed a new database over it since. */
uint64_t td_sq_size_bytes(td_db_t *db)
{
	sqlite3_int64 size = 0;

	if (td_db_query_int(db->db, "SELECT c.page_count * s.page_size"
			    " FROM pragma_page_count() c, pragma_page_size() s", &size) != SQLITE_OK || size < 0)
		return 0;
	return (uint64_t)size;
}

void td_sq_close(td_db_t *db)
{
	sqlite3_close(db->db);
	db->db = NULL;
}

/* Copy a nullable TEXT column into *field (NULL stays NULL). */
static int column_text(char **field, sqlite3_stmt *st, int col)
{
	const unsigned char *t;

	*field = NULL;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return TD_OK;
	if (!(t = sqlite3_column_text(st, col)))
		return TD_ENOMEM;
	*field = td_strndup((const char *)t, (size_t)sqlite3_column_bytes(st, col));
	return *field ? TD_OK : TD_ENOMEM;
}

/* Copy a nullable BLOB column; *len is its size. A NUL is appended so text
 * stored as a blob (paths, link targets) can be used as a C string. */
static int column_blob(char **field, size_t *len, sqlite3_stmt *st, int col)
{
	const void *b;
	int n;

	*field = NULL;
	*len = 0;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return TD_OK;
	b = sqlite3_column_blob(st, col);
	n = sqlite3_column_bytes(st, col);
	*field = td_strndup(n ? (const char *)b : "", (size_t)n);
	if (!*field)
		return TD_ENOMEM;
	*len = (size_t)n;
	return TD_OK;
}

/* A fixed-size BLOB column: 1 when present with exactly len bytes, 0 when
 * NULL, -1 when present with another size. */
static int column_fixed(uint8_t *out, size_t len, sqlite3_stmt *st, int col)
{
	const void *b;

	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return 0;
	b = sqlite3_column_blob(st, col);
	if ((size_t)sqlite3_column_bytes(st, col) != len || !b)
		return -1;
	memcpy(out, b, len);
	return 1;
}

static int version_meta_from_row(td_tree_meta_t *m, sqlite3_stmt *st, int col)
{
	if (column_text(&m->label, st, col) || column_text(&m->root, st, col + 1) ||
	    column_text(&m->source_kind, st, col + 2) || column_text(&m->scanned_at, st, col + 3) ||
	    column_text(&m->tool_version, st, col + 4)) {
		td_tree_meta_release(m);
		return TD_ENOMEM;
	}
	return TD_OK;
}

#define VERSION_COLUMNS "id, label, root, source_kind, scanned_at, tool_version, file_count, total_bytes"

int td_sq_versions(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	td_version_t *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = NULL;
	*count = 0;
	rc = sqlite3_prepare_v2(db->db, "SELECT " VERSION_COLUMNS " FROM version ORDER BY id", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		void *p = v;
		if (td_grow(&p, &cap, n + 1, sizeof(*v))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
			goto out;
		}
		v = p;
		memset(&v[n], 0, sizeof(v[n]));
		if (version_meta_from_row(&v[n].meta, st, 1)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
			goto out;
		}
		v[n].file_count = (uint64_t)sqlite3_column_int64(st, 6);
		v[n].total_bytes = (uint64_t)sqlite3_column_int64(st, 7);
		n++;
	}
	if (rc != SQLITE_DONE) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	rc = TD_OK;
out:
	sqlite3_finalize(st);
	if (rc) {
		td_versions_free(v, n);
		return rc;
	}
	*out = v;
	*count = n;
	return TD_OK;
}

/* The version row a label names (NULL: the newest). */
static int find_version(td_db_t *db, const char *label, sqlite3_int64 *id, uint64_t *file_count,
			td_tree_meta_t *meta, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	const char *sql = label ? "SELECT " VERSION_COLUMNS " FROM version WHERE label = ?1"
				: "SELECT " VERSION_COLUMNS " FROM version ORDER BY id DESC LIMIT 1";
	int rc = sqlite3_prepare_v2(db->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && label)
		rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		if (label)
			rc = td_error_set(err, TD_ENOTFOUND, "no version '%s' in '%s'", label, db->path);
		else
			rc = td_error_set(err, TD_ENOTFOUND, "'%s' holds no versions", db->path);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	*id = sqlite3_column_int64(st, 0);
	*file_count = (uint64_t)sqlite3_column_int64(st, 6);
	rc = version_meta_from_row(meta, st, 1);
	if (rc)
		td_error_set(err, rc, "out of memory reading '%s'", db->path);
out:
	sqlite3_finalize(st);
	return rc;
}

/* Skip reasons are static strings in a td_file_t: map stored text back to
 * them. A reason this build does not know reads as "unsupported". */
const char *td_db_skip_reason_static(const char *text, int len)
{
	static const char *const known[] = {
		TD_SKIP_FIFO, TD_SKIP_SOCKET, TD_SKIP_DEVICE, TD_SKIP_UNREADABLE, TD_SKIP_VANISHED,
		TD_SKIP_CHANGED, TD_SKIP_TOO_LARGE, TD_SKIP_UNSAFE_PATH, TD_SKIP_DUPLICATE,
		TD_SKIP_LINK_ESCAPE, TD_SKIP_UNSUPPORTED, TD_SKIP_DIR_UNREADABLE,
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i]) == (size_t)len && !memcmp(known[i], text, (size_t)len))
			return known[i];
	return TD_SKIP_UNSUPPORTED;
}

void td_db_tlsh_unpack(td_tlsh_t *h, const uint8_t in[TD_DB_TLSH_BYTES])
{
	h->checksum = in[0];
	h->lvalue = in[1];
	h->q1_ratio = in[2];
	h->q2_ratio = in[3];
	memcpy(h->body, in + 4, TD_TLSH_BODY_BYTES);
}

/* Entries in primary-key order (store_impl.h). */
static const char *const load_sql[TD_DB_SCHEMA_VERSION] = { /* by schema */
	TD_DB_LOAD_SQL("NULL, NULL", "CROSS JOIN", "?1"),
	TD_DB_LOAD_SQL("c.sha256_ws, NULL", "CROSS JOIN", "?1"),
	TD_DB_LOAD_SQL("c.sha256_ws, c.ws_bytes", "CROSS JOIN", "?1"),
};

/* The files of every version for --reuse: one row per path, content and
 * stat (git versions, with no stat, give one row per path and content),
 * in path order. The version_id bound is not used. */
#define REUSE_SQL(ws)                                                                                  \
	"SELECT p.path, e.type, e.mode, e.size, e.mtime_ns, e.ino, e.dev, NULL, NULL, NULL, NULL,"     \
	" e.content_id, c.sha256, c.size, c.tlsh, c.tlsh_status, c.sketch_kind, c.sketch, c.gitoid, "  \
	ws " FROM (SELECT DISTINCT path_id, content_id, type, mode, size, mtime_ns, ino, dev"            \
	" FROM entry WHERE type = 1 AND content_id IS NOT NULL AND ?1 IS NOT NULL) e"                    \
	" CROSS JOIN path p ON p.id = e.path_id CROSS JOIN content c ON c.id = e.content_id"             \
	" ORDER BY p.path"
static const char *const reuse_sql[TD_DB_SCHEMA_VERSION] = {
	REUSE_SQL("NULL, NULL"),
	REUSE_SQL("c.sha256_ws, NULL"),
	REUSE_SQL("c.sha256_ws, c.ws_bytes"),
};

/* The content half of a row. 0, TD_ENOMEM, or 1 when a value is malformed. */
static int content_from_row(td_digest_t *d, sqlite3_stmt *st)
{
	uint8_t tlsh[TD_DB_TLSH_BYTES];
	sqlite3_int64 status = sqlite3_column_int64(st, LOAD_TLSH_STATUS);
	sqlite3_int64 kind = sqlite3_column_int64(st, LOAD_SKETCH_KIND);
	int has_tlsh;
	char *sketch;
	size_t len;

	if (column_fixed(d->sha256, TD_SHA256_BYTES, st, LOAD_SHA256) != 1)
		return 1;
	if (status < TD_TLSH_OK || status > TD_TLSH_TOO_UNIFORM || kind < TD_SKETCH_NONE ||
	    kind > TD_SKETCH_HIST)
		return 1;
	d->size_bytes = (uint64_t)sqlite3_column_int64(st, LOAD_CSIZE);
	d->tlsh_status = (td_tlsh_status_t)status;
	has_tlsh = column_fixed(tlsh, sizeof(tlsh), st, LOAD_TLSH);
	if (has_tlsh < 0 || (has_tlsh == 1) != (status == TD_TLSH_OK))
		return 1;
	if (has_tlsh)
		td_db_tlsh_unpack(&d->tlsh, tlsh);
	d->has_sha256_ws = column_fixed(d->sha256_ws, TD_SHA256_BYTES, st, LOAD_SHA256_WS);
	if (d->has_sha256_ws < 0)
		return 1;
	if ((d->has_ws_bytes = sqlite3_column_type(st, LOAD_WS_BYTES) != SQLITE_NULL)) {
		sqlite3_int64 n = sqlite3_column_int64(st, LOAD_WS_BYTES);
		if (sqlite3_column_type(st, LOAD_WS_BYTES) != SQLITE_INTEGER || n < 0)
			return 1;
		d->ws_bytes = (uint64_t)n;
	}
	d->sketch_kind = (td_sketch_kind_t)kind;
	if (column_blob(&sketch, &len, st, LOAD_SKETCH))
		return TD_ENOMEM;
	d->sketch = (uint8_t *)sketch;
	d->sketch_len = len;
	if ((kind == TD_SKETCH_NONE) != (sketch == NULL))
		return 1;
	/* The fallback distance of two raw sketches is quadratic in their
	 * length: a sketch longer than any scan makes is refused. */
	if ((kind == TD_SKETCH_RAW && len > TD_SKETCH_RAW_MAX_BYTES) ||
	    (kind == TD_SKETCH_HIST && len != TD_SKETCH_HIST_BYTES))
		return 1;
	return TD_OK;
}

/* Fill f from a row of load_sql. 0, TD_ENOMEM, or 1 when malformed. */
static int file_from_row(td_file_t *f, sqlite3_stmt *st)
{
	sqlite3_int64 type = sqlite3_column_int64(st, LOAD_TYPE);
	int rc, g;

	memset(f, 0, sizeof(*f));
	if (type < TD_ENTRY_FILE || type > TD_ENTRY_SKIPPED)
		return 1;
	f->type = (td_entry_type_t)type;
	f->mode = (uint32_t)sqlite3_column_int64(st, LOAD_MODE);
	f->size_bytes = (uint64_t)sqlite3_column_int64(st, LOAD_SIZE);
	f->mtime_ns = sqlite3_column_int64(st, LOAD_MTIME);
	f->ino = (uint64_t)sqlite3_column_int64(st, LOAD_INO);
	f->dev = (uint64_t)sqlite3_column_int64(st, LOAD_DEV);
	if (column_blob(&f->path, &f->path_len, st, LOAD_PATH) ||
	    column_blob(&f->link_target, &f->link_len, st, LOAD_LINK) ||
	    column_text(&f->skip_detail, st, LOAD_SKIP_DETAIL))
		return TD_ENOMEM;
	if (!f->path || !f->path_len)
		return 1;
	if (sqlite3_column_type(st, LOAD_SKIP_REASON) != SQLITE_NULL) {
		const unsigned char *r = sqlite3_column_text(st, LOAD_SKIP_REASON);
		int len = sqlite3_column_bytes(st, LOAD_SKIP_REASON);
		if (!r)
			return TD_ENOMEM;
		f->skip_reason = td_db_skip_reason_static((const char *)r, len);
	}
	if (sqlite3_column_type(st, LOAD_CONTENT_ID) != SQLITE_NULL) {
		f->has_digest = 1;
		if ((rc = content_from_row(&f->digest, st)) != TD_OK)
			return rc;
	}
	/* The entry's own blob id (no content read), else its content's. */
	g = column_fixed(f->gitoid, TD_GITOID_BYTES, st, LOAD_GITOID);
	if (!g && f->has_digest)
		g = column_fixed(f->gitoid, TD_GITOID_BYTES, st, LOAD_CGITOID);
	if (g < 0)
		return 1;
	f->has_gitoid = g;
	return TD_OK;
}

int td_sq_load_reuse(td_db_t *db, td_tree_t **out, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	td_tree_t *t = NULL;
	td_file_t f;
	int rc;

	*out = NULL;
	memset(&f, 0, sizeof(f));
	if ((rc = td_tree_new(&t)) != TD_OK || td_meta_set(&t->meta.database, db->path)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", db->path);
		goto out;
	}
	rc = sqlite3_prepare_v2(db->db, reuse_sql[td_db_schema_index(db)], -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 1, 1);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = file_from_row(&f, st);
		if (rc == TD_OK)
			rc = td_tree_append(t, &f);
		if (rc == TD_ENOMEM) {
			td_error_set(err, rc, "out of memory loading '%s'", db->path);
			goto out;
		}
		if (rc) {
			rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: malformed entry", db->path);
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	rc = TD_OK;
out:
	td_file_release(&f);
	sqlite3_finalize(st);
	if (rc) {
		td_tree_free(t);
		return rc;
	}
	*out = t;
	return TD_OK;
}

int td_sq_load(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	td_tree_t *t = NULL;
	sqlite3_int64 vid = 0;
	uint64_t file_count = 0;
	td_file_t f;
	int rc;

	*out = NULL;
	memset(&f, 0, sizeof(f));
	if ((rc = td_tree_new(&t)) != TD_OK) {
		td_error_set(err, rc, "out of memory loading '%s'", db->path);
		goto out;
	}
	if ((rc = find_version(db, label, &vid, &file_count, &t->meta, err)) != TD_OK)
		goto out;
	if ((rc = td_db_load_reserve(t, db->path, file_count, err)))
		goto out;
	rc = sqlite3_prepare_v2(db->db, load_sql[td_db_schema_index(db)], -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 1, vid);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = file_from_row(&f, st);
		if (rc == TD_OK)
			rc = td_tree_append(t, &f);
		if (rc == TD_ENOMEM) {
			td_error_set(err, rc, "out of memory loading '%s'", db->path);
			goto out;
		}
		if (rc) {
			rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: malformed entry in version '%s'",
					  db->path, t->meta.label);
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	if (td_tree_sort(t)) {
		rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: duplicate path in version '%s'",
				  db->path, t->meta.label);
		goto out;
	}
	rc = TD_OK;
out:
	td_file_release(&f);
	sqlite3_finalize(st);
	if (rc) {
		td_tree_free(t);
		return rc;
	}
	*out = t;
	return TD_OK;
}
