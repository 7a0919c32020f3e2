/* Writing a database: a private temporary copy beside it (files.c) takes
 * the versions added, and commit renames it into place, so the file at the
 * path is always either the old database or the new one, whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "scan_sink.h"
#include "internal.h"

#define TD_DB_WRITER_CACHE_KIB 65536

enum {
	ST_VERSION_FIND, ST_VERSION_INSERT, ST_VERSION_UPDATE, ST_VERSION_DELETE, ST_ENTRY_DELETE, ST_PATH_FIND,
	ST_PATH_INSERT, ST_CONTENT_FIND, ST_CONTENT_INSERT, ST_CONTENT_FILL, ST_ENTRY_INSERT,
	ST_COUNT
};

static const char *const writer_sql[ST_COUNT] = {
	[ST_VERSION_FIND] = "SELECT id FROM version WHERE label = ?1",
	[ST_VERSION_INSERT] = "INSERT INTO version (label, root, source_kind, scanned_at, tool_version,"
			      " file_count, total_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_VERSION_UPDATE] = "UPDATE version SET root = ?2, source_kind = ?3, scanned_at = ?4,"
			      " tool_version = ?5, file_count = ?6, total_bytes = ?7 WHERE id = ?1",
	[ST_VERSION_DELETE] = "DELETE FROM version WHERE id = ?1",
	[ST_ENTRY_DELETE] = "DELETE FROM entry WHERE version_id = ?1",
	[ST_PATH_FIND] = "SELECT id FROM path WHERE path = ?1",
	[ST_PATH_INSERT] = "INSERT INTO path (path) VALUES (?1) ON CONFLICT (path) DO NOTHING",
	[ST_CONTENT_FIND] = "SELECT id, gitoid IS NULL, tlsh IS NULL AND sketch IS NULL,"
			    " sha256_ws IS NULL OR ws_bytes IS NULL FROM content WHERE sha256 = ?1",
	[ST_CONTENT_INSERT] = "INSERT INTO content (sha256, size, tlsh, tlsh_status, sketch_kind,"
			      " sketch, gitoid, sha256_ws, ws_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
			      " ON CONFLICT (sha256) DO NOTHING",
	/* A later scan may know more of the same bytes: the blob id (a git
	 * source), the TLSH a SHA-256-only pass left out, or the normalised
	 * SHA-256 and its length, which older schemas did not hold. */
	[ST_CONTENT_FILL] = "UPDATE content SET gitoid = coalesce(gitoid, ?2),"
			    " tlsh = CASE WHEN ?6 THEN ?3 ELSE tlsh END,"
			    " tlsh_status = CASE WHEN ?6 THEN ?4 ELSE tlsh_status END,"
			    " sketch_kind = CASE WHEN ?6 THEN ?5 ELSE sketch_kind END,"
			    " sketch = CASE WHEN ?6 THEN ?7 ELSE sketch END,"
			    " sha256_ws = coalesce(sha256_ws, ?8), ws_bytes = coalesce(ws_bytes, ?9) WHERE id = ?1",
	[ST_ENTRY_INSERT] = "INSERT INTO entry (version_id, path_id, type, mode, size, mtime_ns, ino,"
			    " dev, content_id, link_target, gitoid, skip_reason, skip_detail)"
			    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
};

/* After a replace or a delete: drop what no version refers to any more. */
static const char gc_sql[] =
	"DELETE FROM content WHERE id NOT IN (SELECT content_id FROM entry WHERE content_id IS NOT NULL);"
	"DELETE FROM path WHERE id NOT IN (SELECT path_id FROM entry);";

typedef struct sq_writer {
	td_db_writer_t base;
	td_db_files_t f;  /* the lock, the temporary file, the path */
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	/* Rows found vs. rows added during this add: when most are new (a
	 * first version) an insert is tried before the lookup, which saves
	 * an index search per row; when most exist (a point release), the
	 * lookup goes first. */
	size_t paths_found, paths_added, contents_found, contents_added;
	int vacuum;       /* a delete or a prune: commit gives back the free pages */
} sq_writer_t;

/* "2024-05-01T12:00:00Z" */
static void utc_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		out[0] = '\0';
}

static int exec_sql(sq_writer_t *w, const char *sql, const char *what, td_error_t *err)
{
	int rc = sqlite3_exec(w->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? TD_OK : td_sql_error(err, w->db, rc, what, w->f.path);
}

static int meta_put(sq_writer_t *w, const char *key, const char *value, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(w->db, "INSERT INTO meta (key, value) VALUES (?1, ?2)"
				    " ON CONFLICT (key) DO UPDATE SET value = excluded.value", -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK)
		rc = td_sql_error(err, w->db, rc, "write", w->f.path);
	sqlite3_finalize(st);
	return rc;
}

static int schema_create(sq_writer_t *w, td_error_t *err)
{
	char tool[64], now[32], pragmas[128];
	int rc;

	snprintf(tool, sizeof(tool), "treedrift %s", td_version());
	snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 TD_DB_APPLICATION_ID, TD_DB_SCHEMA_VERSION);
	utc_now(now);
	if ((rc = exec_sql(w, "BEGIN", "write", err)) ||
	    (rc = exec_sql(w, td_db_schema_sql, "create", err)))
		return rc;
	for (int v = 1; v < TD_DB_SCHEMA_VERSION; v++)
		if ((rc = exec_sql(w, td_db_migrate_sql[v - 1], "create", err)))
			return rc;
	if ((rc = exec_sql(w, pragmas, "create", err)) ||
	    (rc = meta_put(w, "created_by", tool, err)) ||
	    (rc = meta_put(w, "created_at", now, err)) ||
	    (rc = exec_sql(w, "COMMIT", "write", err)))
		return rc;
	return TD_OK;
}

/* Copy the existing database into the temporary one, page by page. */
static int copy_existing(sq_writer_t *w, sqlite3 *src, td_error_t *err)
{
	sqlite3_backup *b = sqlite3_backup_init(w->db, "main", src, "main");
	int rc;

	if (!b)
		return td_sql_error(err, w->db, sqlite3_errcode(w->db), "copy", w->f.path);
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		if (td_sql_code(rc) == TD_EFORMAT)
			return td_error_set(err, TD_EFORMAT, "unable to copy '%s': %s", w->f.path,
					    sqlite3_errstr(rc));
		return td_error_set(err, td_sql_code(rc), "unable to copy '%s': %s", w->f.path,
				    sqlite3_errmsg(w->db));
	}
	return TD_OK;
}

/* Bring a copied database of an older schema up to this build's, in the
 * temporary file: the old file stays as it was until commit renames. */
static int migrate(sq_writer_t *w, td_error_t *err)
{
	char pragma[64];
	int schema = 0, rc = td_db_user_version(w->db, &schema);

	if (rc != SQLITE_OK)
		return td_sql_error(err, w->db, rc, "read", w->f.path);
	if (!schema)
		return td_error_set(err, TD_EFORMAT, "'%s' has no treedrift schema", w->f.path);
	if (schema == TD_DB_SCHEMA_VERSION)
		return TD_OK;
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d;", TD_DB_SCHEMA_VERSION);
	if ((rc = exec_sql(w, "BEGIN", "write", err)))
		return rc;
	for (int v = schema; v < TD_DB_SCHEMA_VERSION && !rc; v++)
		rc = exec_sql(w, td_db_migrate_sql[v - 1], "migrate", err);
	if (!rc)
		rc = exec_sql(w, pragma, "migrate", err);
	if (!rc)
		rc = exec_sql(w, "COMMIT", "write", err);
	if (rc)
		sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static void writer_close_db(sq_writer_t *w)
{
	for (int i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(w->st[i]);
		w->st[i] = NULL;
	}
	sqlite3_close(w->db);
	w->db = NULL;
}

/* Drop everything but the old database: the temporary file and the lock. */
static void writer_discard(sq_writer_t *w)
{
	writer_close_db(w);
	td_db_files_discard(&w->f);
}

static void sq_writer_destroy(sq_writer_t *w)
{
	if (!w)
		return;
	writer_close_db(w);
	td_db_files_release(&w->f);
	free(w);
}

/* A private file: the rollback journal in memory (a failed add rolls
 * back), no fsync until commit (the rename publishes it), no other
 * connection ever. */
static int writer_configure(sq_writer_t *w, td_error_t *err)
{
	char pragmas[256];

	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
		 " PRAGMA temp_store = MEMORY; PRAGMA cache_size = -%d;", TD_DB_WRITER_CACHE_KIB);
	return exec_sql(w, pragmas, "configure", err);
}

static int writer_prepare(sq_writer_t *w, td_error_t *err)
{
	int rc;

	for (int i = 0; i < ST_COUNT; i++) {
		rc = sqlite3_prepare_v3(w->db, writer_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &w->st[i], NULL);
		if (rc != SQLITE_OK)
			return td_sql_error(err, w->db, rc, "prepare", w->f.path);
	}
	return TD_OK;
}

int td_sq_writer_open(td_db_writer_t **out, const char *path, unsigned flags, td_error_t *err)
{
	sq_writer_t *w;
	sqlite3 *src = NULL;
	struct stat st;
	int exists = 0, rc;

	*out = NULL;
	if (!path || !*path)
		return td_error_set(err, TD_EINVAL, "no database path");
	if (flags & ~(unsigned)TD_DB_APPEND)
		return td_error_set(err, TD_EINVAL, "unknown flags 0x%x writing '%s'", flags, path);
	w = calloc(1, sizeof(*w));
	if (!w)
		return td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", path);
	if ((rc = td_db_files_open(&w->f, path, &st, &exists, err)))
		goto out;
	/* Check the file in place before anything is built. APPEND reads it,
	 * so it must be ours and not newer; CREATE replaces it, which is only
	 * safe when it is a treedrift database (of any schema) or empty. */
	if (exists && (flags & TD_DB_APPEND || st.st_size > 0)) {
		rc = td_db_open_existing(&src, w->f.path, !(flags & TD_DB_APPEND), err);
		if (rc == TD_EFORMAT && !(flags & TD_DB_APPEND) && err) {
			char why[sizeof(err->msg)];
			snprintf(why, sizeof(why), "%s", err->msg);
			td_error_set(err, rc, "refusing to replace it: %s", why);
		}
		if (rc)
			goto out;
		if (!(flags & TD_DB_APPEND)) {
			sqlite3_close(src);
			src = NULL;
		}
	}
	if ((rc = td_db_files_temp(&w->f, exists, st.st_mode, err)))
		goto out;
	rc = sqlite3_open_v2(w->f.tmp_path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, w->db, rc, "open", w->f.tmp_path);
		goto out;
	}
	td_db_harden(w->db);
	sqlite3_extended_result_codes(w->db, 1);
	/* Configured before the copy, so that no rollback journal file is
	 * ever made beside the temporary one. */
	rc = writer_configure(w, err);
	if (!rc && src)
		rc = copy_existing(w, src, err);
	if (!rc && src)
		rc = migrate(w, err);
	if (!rc && !src)
		rc = schema_create(w, err);
	if (!rc)
		rc = writer_prepare(w, err);
out:
	sqlite3_close(src);
	if (rc) {
		sq_writer_destroy(w);
		return rc;
	}
	w->base.be = &td_db_backend_sqlite;
	*out = &w->base;
	return TD_OK;
}

void td_sq_writer_free(td_db_writer_t *base)
{
	sq_writer_destroy((sq_writer_t *)base);
}

int td_db_writer_set_max_pages(td_db_writer_t *base, unsigned max_pages, td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	char sql[64];

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %u", max_pages);
	return exec_sql(w, sql, "configure", err);
}

/* Step a statement that yields no row, then reset it. On failure it is
 * left as is, so that sqlite3_errmsg still tells why. */
static int run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE)
		return rc;
	sqlite3_reset(st);
	return SQLITE_OK;
}

/* Step a lookup: SQLITE_ROW with the row still current, SQLITE_DONE
 * (reset), or an error. */
static int lookup(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_DONE)
		sqlite3_reset(st);
	return rc;
}

/* Insert with ON CONFLICT DO NOTHING: 1 when a row was added, 0 when it
 * existed, or a negative SQLite code. */
static int try_insert(sq_writer_t *w, sqlite3_stmt *ins, sqlite3_int64 *id)
{
	int rc = run(ins);

	if (rc != SQLITE_OK)
		return -rc;
	if (!sqlite3_changes(w->db))
		return 0;
	*id = sqlite3_last_insert_rowid(w->db);
	return 1;
}

static int path_id(sq_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
{
	sqlite3_stmt *find = w->st[ST_PATH_FIND], *ins = w->st[ST_PATH_INSERT];
	int rc = td_db_bind_bytes(ins, 1, f->path, f->path_len), added;

	if (rc == SQLITE_OK)
		rc = td_db_bind_bytes(find, 1, f->path, f->path_len);
	if (rc != SQLITE_OK)
		return rc;
	if (w->paths_added >= w->paths_found) {
		if ((added = try_insert(w, ins, id)) != 0)
			return added > 0 ? (w->paths_added++, SQLITE_OK) : -added;
	}
	rc = lookup(find);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(find, 0);
		sqlite3_reset(find);
		w->paths_found++;
		return SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		return rc;
	if ((added = try_insert(w, ins, id)) <= 0)
		return added ? -added : SQLITE_INTERNAL;
	w->paths_added++;
	return SQLITE_OK;
}

void td_db_tlsh_pack(uint8_t out[TD_DB_TLSH_BYTES], const td_tlsh_t *h)
{
	out[0] = h->checksum;
	out[1] = h->lvalue;
	out[2] = h->q1_ratio;
	out[3] = h->q2_ratio;
	memcpy(out + 4, h->body, TD_TLSH_BODY_BYTES);
}

/* Bind the digest part shared by insert and fill: TLSH packed, or NULL
 * unless it was computed; the sketch exactly when there is a sketch kind. */
static int bind_digest(sqlite3_stmt *st, int col_tlsh, int col_status, int col_kind, int col_sketch,
		       const td_digest_t *d, uint8_t tlsh[TD_DB_TLSH_BYTES])
{
	int ok = d->tlsh_status == TD_TLSH_OK;
	int rc;

	if (ok)
		td_db_tlsh_pack(tlsh, &d->tlsh);
	rc = ok ? sqlite3_bind_blob(st, col_tlsh, tlsh, TD_DB_TLSH_BYTES, SQLITE_STATIC)
		: sqlite3_bind_null(st, col_tlsh);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, col_status, (int)d->tlsh_status);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, col_kind, (int)d->sketch_kind);
	if (rc == SQLITE_OK)
		rc = d->sketch_kind == TD_SKETCH_NONE ? sqlite3_bind_null(st, col_sketch)
			: td_db_bind_bytes(st, col_sketch, d->sketch ? (const void *)d->sketch : "", d->sketch_len);
	return rc;
}

/* The normalised SHA-256 at col, its length at col + 1. */
static int bind_ws(sqlite3_stmt *st, int col, const td_digest_t *d)
{
	int rc = d->has_sha256_ws ? sqlite3_bind_blob(st, col, d->sha256_ws, TD_SHA256_BYTES, SQLITE_STATIC)
				  : sqlite3_bind_null(st, col);

	if (rc == SQLITE_OK)
		rc = d->has_ws_bytes ? sqlite3_bind_int64(st, col + 1, (sqlite3_int64)d->ws_bytes)
				     : sqlite3_bind_null(st, col + 1);
	return rc;
}

/* Fill in what a content row lacked: the blob id (a git source), or the
 * TLSH a SHA-256-only pass left out. */
static int content_fill(sq_writer_t *w, const td_file_t *f, sqlite3_int64 id, int fill_gitoid,
			int fill_digest)
{
	sqlite3_stmt *st = w->st[ST_CONTENT_FILL];
	uint8_t tlsh[TD_DB_TLSH_BYTES];
	int rc = sqlite3_bind_int64(st, 1, id);

	if (rc == SQLITE_OK)
		rc = bind_ws(st, 8, &f->digest);
	if (rc == SQLITE_OK)
		rc = fill_gitoid ? sqlite3_bind_blob(st, 2, f->gitoid, TD_GITOID_BYTES, SQLITE_STATIC)
				 : sqlite3_bind_null(st, 2);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 6, fill_digest);
	if (rc == SQLITE_OK)
		rc = bind_digest(st, 3, 4, 5, 7, &f->digest, tlsh);
	return rc == SQLITE_OK ? run(st) : rc;
}

/* An existing content row by SHA-256: SQLITE_ROW (and *id) when found,
 * SQLITE_DONE when absent. */
static int content_find(sq_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
{
	sqlite3_stmt *find = w->st[ST_CONTENT_FIND];
	const td_digest_t *d = &f->digest;
	int fill_gitoid, fill_digest, fill_ws, rc = lookup(find);

	if (rc != SQLITE_ROW)
		return rc;
	*id = sqlite3_column_int64(find, 0);
	fill_gitoid = sqlite3_column_int(find, 1) && f->has_gitoid;
	fill_digest = sqlite3_column_int(find, 2) &&
		      (d->tlsh_status == TD_TLSH_OK || d->sketch_kind != TD_SKETCH_NONE);
	fill_ws = sqlite3_column_int(find, 3) && (d->has_sha256_ws || d->has_ws_bytes);
	sqlite3_reset(find);
	if (fill_gitoid || fill_digest || fill_ws) {
		rc = content_fill(w, f, *id, fill_gitoid, fill_digest);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_ROW;
}

/* The content row of a digest: found by SHA-256 or inserted. */
static int content_id(sq_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
{
	sqlite3_stmt *ins = w->st[ST_CONTENT_INSERT];
	const td_digest_t *d = &f->digest;
	uint8_t tlsh[TD_DB_TLSH_BYTES];
	int rc = sqlite3_bind_blob(w->st[ST_CONTENT_FIND], 1, d->sha256, TD_SHA256_BYTES, SQLITE_STATIC);
	int added;

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_blob(ins, 1, d->sha256, TD_SHA256_BYTES, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(ins, 2, (sqlite3_int64)d->size_bytes);
	if (rc == SQLITE_OK)
		rc = bind_digest(ins, 3, 4, 5, 6, d, tlsh);
	if (rc == SQLITE_OK)
		rc = f->has_gitoid ? sqlite3_bind_blob(ins, 7, f->gitoid, TD_GITOID_BYTES, SQLITE_STATIC)
				   : sqlite3_bind_null(ins, 7);
	if (rc == SQLITE_OK)
		rc = bind_ws(ins, 8, d);
	if (rc != SQLITE_OK)
		return rc;
	if (w->contents_added >= w->contents_found) {
		if ((added = try_insert(w, ins, id)) != 0)
			return added > 0 ? (w->contents_added++, SQLITE_OK) : -added;
	}
	rc = content_find(w, f, id);
	if (rc == SQLITE_ROW) {
		w->contents_found++;
		return SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		return rc;
	if ((added = try_insert(w, ins, id)) <= 0)
		return added ? -added : SQLITE_INTERNAL;
	w->contents_added++;
	return SQLITE_OK;
}

static int bind_text_or_null(sqlite3_stmt *st, int col, const char *s)
{
	return s ? sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, col);
}

/* One entry row. Integers are stored as SQLite's signed 64 bits: a uint64
 * above INT64_MAX (an ino, a dev) reads back unchanged. */
static int add_entry(sq_writer_t *w, sqlite3_int64 vid, const td_file_t *f)
{
	sqlite3_stmt *st = w->st[ST_ENTRY_INSERT];
	sqlite3_int64 pid = 0, cid = 0;
	int rc = path_id(w, f, &pid);

	if (rc == SQLITE_OK && f->has_digest)
		rc = content_id(w, f, &cid);
	if (rc != SQLITE_OK)
		return rc;
	if ((rc = sqlite3_bind_int64(st, 1, vid)) ||
	    (rc = sqlite3_bind_int64(st, 2, pid)) ||
	    (rc = sqlite3_bind_int(st, 3, (int)f->type)) ||
	    (rc = sqlite3_bind_int64(st, 4, (sqlite3_int64)f->mode)) ||
	    (rc = sqlite3_bind_int64(st, 5, (sqlite3_int64)f->size_bytes)) ||
	    (rc = sqlite3_bind_int64(st, 6, f->mtime_ns)) ||
	    (rc = sqlite3_bind_int64(st, 7, (sqlite3_int64)f->ino)) ||
	    (rc = sqlite3_bind_int64(st, 8, (sqlite3_int64)f->dev)) ||
	    (rc = f->has_digest ? sqlite3_bind_int64(st, 9, cid) : sqlite3_bind_null(st, 9)) ||
	    (rc = td_db_bind_bytes(st, 10, f->link_target, f->link_len)) ||
	    (rc = f->has_gitoid && !f->has_digest
		  ? sqlite3_bind_blob(st, 11, f->gitoid, TD_GITOID_BYTES, SQLITE_STATIC)
		  : sqlite3_bind_null(st, 11)) ||
	    (rc = bind_text_or_null(st, 12, f->skip_reason)) ||
	    (rc = bind_text_or_null(st, 13, f->skip_detail)))
		return rc;
	return run(st);
}

/* Labels reach terminals and reports: printable, as scan --label and
 * check (schema.c) have them. */
static int check_label(const sq_writer_t *w, const char *label, td_error_t *err)
{
	if (!label || !*label)
		return td_error_set(err, TD_EINVAL, "a version needs a label to be written to '%s'", w->f.path);
	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return td_error_set(err, TD_EINVAL,
					    "a version label must be printable (no control characters) to be"
					    " written to '%s'", w->f.path);
	return TD_OK;
}

static int check_tree(const sq_writer_t *w, const td_tree_t *tree, td_error_t *err)
{
	const char *label = tree->meta.label;
	int rc = check_label(w, label, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < tree->count; i++) {
		const td_file_t *f = &tree->files[i];
		if (!f->path || !f->path_len)
			return td_error_set(err, TD_EINVAL, "empty path in version '%s'", label);
		if (f->type < TD_ENTRY_FILE || f->type > TD_ENTRY_SKIPPED)
			return td_error_set(err, TD_EINVAL, "unknown entry type %d for '%.*s' in version '%s'",
					    (int)f->type, (int)(f->path_len > 256 ? 256 : f->path_len), f->path,
					    label);
	}
	return TD_OK;
}

/* The id of version label: SQLITE_ROW with *vid set, SQLITE_DONE when
 * there is none, or an error. */
static int version_id(sq_writer_t *w, const char *label, sqlite3_int64 *vid)
{
	sqlite3_stmt *find = w->st[ST_VERSION_FIND];
	int rc = sqlite3_bind_text(find, 1, label, -1, SQLITE_STATIC);

	if (rc == SQLITE_OK && (rc = lookup(find)) == SQLITE_ROW) {
		*vid = sqlite3_column_int64(find, 0);
		sqlite3_reset(find);
	}
	return rc;
}

/* Run statement i (a delete by version id) for version vid. */
static int run_for_version(sq_writer_t *w, int i, sqlite3_int64 vid)
{
	int rc = sqlite3_bind_int64(w->st[i], 1, vid);

	return rc == SQLITE_OK ? run(w->st[i]) : rc;
}

/* The version row: a new one, or (replace) the old one updated in place,
 * so that the version keeps its place among the others. */
static int put_version(sq_writer_t *w, const td_tree_meta_t *m, size_t count, uint64_t total,
		       int replace, sqlite3_int64 *vid, int *replaced, td_error_t *err)
{
	sqlite3_stmt *st;
	int rc;

	*replaced = 0;
	rc = version_id(w, m->label, vid);
	if (rc == SQLITE_ROW) {
		if (!replace)
			return td_error_set(err, TD_EINVAL, "version '%s' already in '%s'", m->label, w->f.path);
		*replaced = 1;
		if ((rc = run_for_version(w, ST_ENTRY_DELETE, *vid)) != SQLITE_OK)
			return td_sql_error(err, w->db, rc, "write", w->f.path);
		st = w->st[ST_VERSION_UPDATE];
		rc = sqlite3_bind_int64(st, 1, *vid);
	} else if (rc == SQLITE_DONE) {
		st = w->st[ST_VERSION_INSERT];
		rc = sqlite3_bind_text(st, 1, m->label, -1, SQLITE_STATIC);
	} else {
		return td_sql_error(err, w->db, rc, "read", w->f.path);
	}
	if (rc == SQLITE_OK)
		rc = bind_text_or_null(st, 2, m->root);
	if (rc == SQLITE_OK)
		rc = bind_text_or_null(st, 3, m->source_kind);
	if (rc == SQLITE_OK)
		rc = bind_text_or_null(st, 4, m->scanned_at);
	if (rc == SQLITE_OK)
		rc = bind_text_or_null(st, 5, m->tool_version);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 6, (sqlite3_int64)count);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 7, (sqlite3_int64)total);
	if (rc == SQLITE_OK)
		rc = run(st);
	if (rc != SQLITE_OK)
		return td_sql_error(err, w->db, rc, "write", w->f.path);
	if (!*replaced)
		*vid = sqlite3_last_insert_rowid(w->db);
	return TD_OK;
}

/* Open a version: the transaction and the version row, with count
 * entries of total bytes (a scan corrects both at its end). */
static int add_begin(sq_writer_t *w, const td_tree_meta_t *meta, size_t count, uint64_t total,
		     int replace, sqlite3_int64 *vid, int *replaced, td_error_t *err)
{
	int rc;

	w->paths_found = w->paths_added = w->contents_found = w->contents_added = 0;
	if ((rc = exec_sql(w, "BEGIN", "write", err)))
		return rc;
	return put_version(w, meta, count, total, replace, vid, replaced, err);
}

static int add_file(sq_writer_t *w, sqlite3_int64 vid, const td_file_t *f, const char *label,
		    td_error_t *err)
{
	int src = add_entry(w, vid, f);

	if (src == SQLITE_CONSTRAINT_PRIMARYKEY)
		return td_error_set(err, TD_EINVAL, "duplicate path '%.*s' in version '%s'",
				    (int)(f->path_len > 256 ? 256 : f->path_len), f->path, label);
	if (src != SQLITE_OK)
		return td_sql_error(err, w->db, src, "write", w->f.path);
	return TD_OK;
}

/* Commit the version, or roll it back when rc is an error; after entries
 * were deleted (dropped), with what no version refers to any more. */
static int add_end(sq_writer_t *w, int dropped, int rc, td_error_t *err)
{
	if (!rc && dropped)
		rc = exec_sql(w, gc_sql, "write", err);
	if (!rc)
		rc = exec_sql(w, "COMMIT", "write", err);
	if (rc) {
		for (int i = 0; i < ST_COUNT; i++)
			sqlite3_reset(w->st[i]);
		if (w->db && !sqlite3_get_autocommit(w->db))
			sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL);
	}
	return rc;
}

int td_sq_writer_add(td_db_writer_t *base, const td_tree_t *tree, int replace, td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	sqlite3_int64 vid = 0;
	int replaced = 0, rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	if ((rc = check_tree(w, tree, err)))
		return rc;
	if ((rc = add_begin(w, &tree->meta, tree->count, td_db_tree_bytes(tree), replace, &vid, &replaced,
			    err)))
		return add_end(w, replaced, rc, err);
	for (size_t i = 0; i < tree->count && !rc; i++)
		rc = add_file(w, vid, &tree->files[i], tree->meta.label, err);
	return add_end(w, replaced, rc, err);
}

int td_sq_writer_delete(td_db_writer_t *base, const char *label, td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	sqlite3_int64 vid = 0;
	int rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	if (!label)
		return td_error_set(err, TD_EINVAL, "which version of '%s' to delete?", w->f.path);
	if ((rc = exec_sql(w, "BEGIN", "write", err)))
		return rc;
	if ((rc = version_id(w, label, &vid)) != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? td_error_set(err, TD_ENOTFOUND, "no version '%s' in '%s'", label, w->f.path)
				       : td_sql_error(err, w->db, rc, "read", w->f.path);
		return add_end(w, 0, rc, err);
	}
	/* the entries first: they refer to the version row */
	if ((rc = run_for_version(w, ST_ENTRY_DELETE, vid)) == SQLITE_OK)
		rc = run_for_version(w, ST_VERSION_DELETE, vid);
	rc = rc == SQLITE_OK ? TD_OK : td_sql_error(err, w->db, rc, "write", w->f.path);
	if (!(rc = add_end(w, 1, rc, err)))
		w->vacuum = 1;
	return rc;
}

int td_sq_writer_prune(td_db_writer_t *base, td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	int rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	if ((rc = exec_sql(w, "BEGIN", "write", err)))
		return rc;
	if (!(rc = add_end(w, 1, TD_OK, err)))
		w->vacuum = 1;
	return rc;
}

/* ---- writing while scanning ---- */

/* The version a scan adds, as the scan's entry sink sees it. */
typedef struct scan_add {
	sq_writer_t *w;
	char *own_dir;    /* the database's directory inside the tree scanned, or NULL */
	int replace;
	int begun;        /* a transaction may be open */
	int replaced;
	sqlite3_int64 vid;
	const char *label;
} scan_add_t;

/* Before the walk: the version row, so that a label already taken fails
 * before anything is read. */
static int scan_add_begin(void *ctx, const td_tree_meta_t *meta, td_error_t *err)
{
	scan_add_t *a = ctx;
	int rc = check_label(a->w, meta->label, err);

	if (rc)
		return rc;
	a->label = meta->label;
	a->begun = 1;
	return add_begin(a->w, meta, 0, 0, a->replace, &a->vid, &a->replaced, err);
}

/* Each entry as soon as it is final, in the order the walk found it. */
static int scan_add_put(void *ctx, const td_file_t *f, td_error_t *err)
{
	scan_add_t *a = ctx;

	return add_file(a->w, a->vid, f, a->label, err);
}

/* The writer's own lock and temporary files, when the database is inside
 * the directory scanned: they are not part of the tree. */
static int scan_add_leave_out(void *ctx, const td_file_t *f)
{
	const scan_add_t *a = ctx;
	const char *slash = strrchr(f->path, '/');
	size_t dir_len = slash ? (size_t)(slash - f->path) : 0;

	if (!a->own_dir || dir_len != strlen(a->own_dir) || memcmp(f->path, a->own_dir, dir_len))
		return 0;
	return td_db_files_ours(&a->w->f, slash ? slash + 1 : f->path);
}

/* The version row holds what the scan found: files skipped while they
 * were read no longer count. */
static int update_version_totals(sq_writer_t *w, const td_tree_t *tree, sqlite3_int64 vid,
				 td_error_t *err)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "UPDATE version SET file_count = %zu, total_bytes = %lld WHERE id = %lld",
		 tree->count, (long long)td_db_tree_bytes(tree), (long long)vid);
	return exec_sql(w, sql, "write", err);
}

int td_sq_writer_add_scan(td_db_writer_t *base, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats,
			  td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	scan_add_t a = { .w = w, .replace = replace };
	td_entry_sink_t sink = { scan_add_begin, scan_add_put, scan_add_leave_out, &a };
	td_tree_t *tree = NULL;
	int rc;

	*out = NULL;
	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	if (!strcmp(td_source_kind(src), "dir"))
		a.own_dir = td_db_files_dir_under(&w->f, td_source_root(src));
	rc = td_scan_sink(&tree, src, label, opts, stats, &sink, err);
	free(a.own_dir);
	if (!rc)
		rc = update_version_totals(w, tree, a.vid, err);
	if (a.begun)
		rc = add_end(w, a.replaced, rc, err);
	if (rc) {
		td_tree_free(tree);
		return rc;
	}
	*out = tree;
	return TD_OK;
}

int td_sq_writer_commit(td_db_writer_t *base, td_error_t *err)
{
	sq_writer_t *w = (sq_writer_t *)base;
	char tool[64], now[32], problem[512];
	int found = 0, rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->f.path);
	snprintf(tool, sizeof(tool), "treedrift %s", td_version());
	utc_now(now);
	if ((rc = exec_sql(w, td_db_index_sql, "index", err)) || (rc = meta_put(w, "modified_by", tool, err)) ||
	    (rc = meta_put(w, "modified_at", now, err)))
		goto fail;
	/* the pages a deleted version freed go back: a smaller file, which is
	 * what a delete or a prune is for (VACUUM rewrites the private copy
	 * only) */
	if (w->vacuum && (rc = exec_sql(w, "VACUUM", "write", err)))
		goto fail;
	/* What is renamed into place must at least be structurally sound; a
	 * quick check reads every page once (a few ms per MB). */
	rc = td_db_first_problem(w->db, "PRAGMA quick_check", problem, sizeof(problem), &found);
	if (rc != SQLITE_OK || !found || strcmp(problem, "ok")) {
		rc = td_error_set(err, TD_EFORMAT, "refusing to replace '%s': the new database is corrupt: %s",
				  w->f.path, rc != SQLITE_OK ? sqlite3_errmsg(w->db)
				  : found ? td_db_first_line(problem) : "no answer");
		goto fail;
	}
	writer_close_db(w);
	return td_db_files_publish(&w->f, err);
fail:
	writer_discard(w);
	return rc;
}
