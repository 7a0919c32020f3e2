/* The treedrift database (doc/db-schema.md): SQLite, content stored once per
 * SHA-256, paths stored once, each version a list of (path, content) rows.
 * Readers open the file read-only. Writers build a private temporary copy
 * beside it and rename it into place, so the file at the path is always
 * either the old database or the new one, whole. */
#define _DEFAULT_SOURCE /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "scan_impl.h"
#include "internal.h"

/* "SQLite format 3" and its NUL: the first 16 bytes of every database. */
static const char sqlite_magic[16] = "SQLite format 3";

#define TD_DB_TLSH_BYTES (4 + TD_TLSH_BODY_BYTES) /* checksum, lvalue, q1, q2, body */
#define TD_DB_BUSY_TIMEOUT_MS 5000
#define TD_DB_WRITER_CACHE_KIB 65536
/* Preallocation cap when loading, whatever file_count claims. */
#define TD_DB_LOAD_RESERVE_MAX 4000000

static const char schema_sql[] =
	"CREATE TABLE meta (\n"
	"\tkey TEXT PRIMARY KEY NOT NULL,\n"
	"\tvalue TEXT\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE content (\n"
	"\tid INTEGER PRIMARY KEY,\n"
	"\tsha256 BLOB NOT NULL UNIQUE CHECK (length(sha256) = 32),\n"
	"\tsize INTEGER NOT NULL,\n"
	"\ttlsh BLOB CHECK (tlsh IS NULL OR length(tlsh) = 36),\n"
	"\ttlsh_status INTEGER NOT NULL,\n"
	"\tsketch_kind INTEGER NOT NULL DEFAULT 0,\n"
	"\tsketch BLOB,\n"
	"\tgitoid BLOB CHECK (gitoid IS NULL OR length(gitoid) = 20)\n"
	");\n"
	"CREATE INDEX content_gitoid ON content (gitoid) WHERE gitoid IS NOT NULL;\n"
	"CREATE TABLE path (\n"
	"\tid INTEGER PRIMARY KEY,\n"
	"\tpath BLOB NOT NULL UNIQUE CHECK (length(path) > 0)\n"
	");\n"
	"CREATE TABLE version (\n"
	"\tid INTEGER PRIMARY KEY,\n"
	"\tlabel TEXT NOT NULL UNIQUE CHECK (length(label) > 0),\n"
	"\troot TEXT,\n"
	"\tsource_kind TEXT,\n"
	"\tscanned_at TEXT,\n"
	"\ttool_version TEXT,\n"
	"\tfile_count INTEGER NOT NULL,\n"
	"\ttotal_bytes INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE entry (\n"
	"\tversion_id INTEGER NOT NULL REFERENCES version (id),\n"
	"\tpath_id INTEGER NOT NULL REFERENCES path (id),\n"
	"\ttype INTEGER NOT NULL CHECK (type BETWEEN 1 AND 4),\n"
	"\tmode INTEGER NOT NULL,\n"
	"\tsize INTEGER NOT NULL,\n"
	"\tmtime_ns INTEGER NOT NULL,\n"
	"\tino INTEGER NOT NULL,\n"
	"\tdev INTEGER NOT NULL,\n"
	"\tcontent_id INTEGER REFERENCES content (id),\n"
	"\tlink_target BLOB,\n"
	"\tgitoid BLOB CHECK (gitoid IS NULL OR length(gitoid) = 20),\n"
	"\tskip_reason TEXT,\n"
	"\tskip_detail TEXT,\n"
	"\tPRIMARY KEY (version_id, path_id)\n"
	") WITHOUT ROWID;\n";

/* Built at commit, not row by row: for a new database one sort at the end
 * is cheaper than an index insert per entry. A copied database has it. */
static const char index_sql[] = "CREATE INDEX IF NOT EXISTS entry_path ON entry (path_id, content_id);";

/* The tables of schema 1, as validate_schema looks for them. */
#define SCHEMA_TABLES "('meta', 'content', 'path', 'version', 'entry')"
#define SCHEMA_TABLE_COUNT 5

struct td_db {
	sqlite3 *db;
	char *path;
};

/* SQLite result code to ours: a full disk or an I/O error is TD_EIO, a file
 * that is not (or no longer) a database TD_EFORMAT. */
static int sql_code(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_NOMEM: return TD_ENOMEM;
	case SQLITE_FULL:
	case SQLITE_IOERR: return TD_EIO;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB: return TD_EFORMAT;
	case SQLITE_CONSTRAINT: return TD_EINVAL;
	default: return TD_EDB;
	}
}

static int sql_error(td_error_t *err, sqlite3 *db, int rc, const char *what, const char *path)
{
	const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
	return td_error_set(err, sql_code(rc), "unable to %s '%s': %s", what, path, msg);
}

static int not_ours(td_error_t *err, const char *path)
{
	return td_error_set(err, TD_EFORMAT, "'%s' is not a treedrift database", path);
}

static char *str_concat(const char *a, const char *b)
{
	size_t alen = strlen(a), blen = strlen(b);
	char *s;

	if (alen > SIZE_MAX - blen - 1)
		return NULL;
	s = malloc(alen + blen + 1);
	if (!s)
		return NULL;
	memcpy(s, a, alen);
	memcpy(s + alen, b, blen + 1);
	return s;
}

/* Read the first bytes of path, without blocking on a FIFO: 1 when it is a
 * regular file that starts with the SQLite magic, 0 when it is something
 * else, a negative errno when it cannot be opened. */
static int sniff(const char *path)
{
	char head[sizeof(sqlite_magic)];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	return n == (ssize_t)sizeof(head) && !memcmp(head, sqlite_magic, sizeof(head));
}

int td_db_sniff(const char *path)
{
	return path && sniff(path) == 1;
}

/* Run a statement that yields one integer (a pragma). */
static int query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		} else if (rc == SQLITE_DONE) {
			rc = SQLITE_ERROR;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Is db a treedrift database this build can read? TD_EFORMAT when it is
 * some other SQLite file, TD_ENEWER when a newer schema wrote it. */
static int validate_schema(sqlite3 *db, const char *path, td_error_t *err)
{
	sqlite3_int64 app_id = 0, user_version = 0, tables = 0;
	int rc;

	if ((rc = query_int(db, "PRAGMA application_id", &app_id)) != SQLITE_OK ||
	    (rc = query_int(db, "PRAGMA user_version", &user_version)) != SQLITE_OK)
		return sql_error(err, db, rc, "read", path);
	if (app_id != TD_DB_APPLICATION_ID)
		return not_ours(err, path);
	if (user_version > TD_DB_SCHEMA_VERSION)
		return td_error_set(err, TD_ENEWER,
				    "'%s' was written by a newer treedrift (schema %lld); this one reads up to %d",
				    path, (long long)user_version, TD_DB_SCHEMA_VERSION);
	if (user_version < 1)
		return td_error_set(err, TD_EFORMAT, "'%s' has no treedrift schema (user_version %lld)",
				    path, (long long)user_version);
	rc = query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
		       SCHEMA_TABLES, &tables);
	if (rc != SQLITE_OK)
		return sql_error(err, db, rc, "read", path);
	if (tables != SCHEMA_TABLE_COUNT)
		return td_error_set(err, TD_EFORMAT, "'%s' is not a treedrift database: tables are missing",
				    path);
	return TD_OK;
}

/* Open an existing database read-only; never creates a file. With
 * schema_ok_newer, a newer schema passes (to be replaced, not read). */
static int open_existing(sqlite3 **out, const char *path, int schema_ok_newer, td_error_t *err)
{
	sqlite3 *db = NULL;
	int rc, s = sniff(path);

	*out = NULL;
	if (s < 0)
		return td_error_set(err, s == -ENOENT ? TD_ENOTFOUND : TD_EIO, "unable to open '%s': %s",
				    path, strerror(-s));
	if (!s)
		return not_ours(err, path);
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		rc = sql_error(err, db, rc, "open", path);
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, TD_DB_BUSY_TIMEOUT_MS);
	rc = validate_schema(db, path, err);
	if (rc && !(schema_ok_newer && rc == TD_ENEWER)) {
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return TD_OK;
}

int td_db_open(td_db_t **out, const char *path, td_error_t *err)
{
	td_db_t *h;
	int rc;

	*out = NULL;
	if (!path)
		return td_error_set(err, TD_EINVAL, "no database path");
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = td_strndup(path, strlen(path)))) {
		free(h);
		return td_error_set(err, TD_ENOMEM, "out of memory opening '%s'", path);
	}
	rc = open_existing(&h->db, path, 0, err);
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
	sqlite3_close(db->db);
	free(db->path);
	free(db);
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

int td_db_versions(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	td_version_t *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = NULL;
	*count = 0;
	rc = sqlite3_prepare_v2(db->db, "SELECT " VERSION_COLUMNS " FROM version ORDER BY id", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		rc = sql_error(err, db->db, rc, "read", db->path);
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
		rc = sql_error(err, db->db, rc, "read", db->path);
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

void td_versions_free(td_version_t *v, size_t count)
{
	if (!v)
		return;
	for (size_t i = 0; i < count; i++)
		td_tree_meta_release(&v[i].meta);
	free(v);
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
		rc = sql_error(err, db->db, rc, "read", db->path);
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
		rc = sql_error(err, db->db, rc, "read", db->path);
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
static const char *skip_reason_static(const char *text, int len)
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

static void tlsh_pack(uint8_t out[TD_DB_TLSH_BYTES], const td_tlsh_t *h)
{
	out[0] = h->checksum;
	out[1] = h->lvalue;
	out[2] = h->q1_ratio;
	out[3] = h->q2_ratio;
	memcpy(out + 4, h->body, TD_TLSH_BODY_BYTES);
}

static void tlsh_unpack(td_tlsh_t *h, const uint8_t in[TD_DB_TLSH_BYTES])
{
	h->checksum = in[0];
	h->lvalue = in[1];
	h->q1_ratio = in[2];
	h->q2_ratio = in[3];
	memcpy(h->body, in + 4, TD_TLSH_BODY_BYTES);
}

enum {
	LOAD_PATH, LOAD_TYPE, LOAD_MODE, LOAD_SIZE, LOAD_MTIME, LOAD_INO, LOAD_DEV, LOAD_LINK,
	LOAD_GITOID, LOAD_SKIP_REASON, LOAD_SKIP_DETAIL, LOAD_CONTENT_ID, LOAD_SHA256, LOAD_CSIZE,
	LOAD_TLSH, LOAD_TLSH_STATUS, LOAD_SKETCH_KIND, LOAD_SKETCH, LOAD_CGITOID
};

/* One query for the whole version: entries in primary-key order, each
 * joined to its path and (if any) its content. */
static const char load_sql[] =
	"SELECT p.path, e.type, e.mode, e.size, e.mtime_ns, e.ino, e.dev, e.link_target, e.gitoid,"
	" e.skip_reason, e.skip_detail, e.content_id, c.sha256, c.size, c.tlsh, c.tlsh_status,"
	" c.sketch_kind, c.sketch, c.gitoid"
	" FROM entry e CROSS JOIN path p ON p.id = e.path_id"
	" LEFT JOIN content c ON c.id = e.content_id"
	" WHERE e.version_id = ?1";

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
		tlsh_unpack(&d->tlsh, tlsh);
	d->sketch_kind = (td_sketch_kind_t)kind;
	if (column_blob(&sketch, &len, st, LOAD_SKETCH))
		return TD_ENOMEM;
	d->sketch = (uint8_t *)sketch;
	d->sketch_len = len;
	if ((kind == TD_SKETCH_NONE) != (sketch == NULL))
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
		f->skip_reason = skip_reason_static((const char *)r, len);
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

int td_db_load(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err)
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
	if (td_meta_set(&t->meta.database, db->path)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", db->path);
		goto out;
	}
	if (file_count && file_count <= TD_DB_LOAD_RESERVE_MAX) {
		void *p = NULL;
		size_t cap = 0;
		if (td_grow(&p, &cap, (size_t)file_count, sizeof(td_file_t))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", db->path);
			goto out;
		}
		t->files = p;
		t->cap = cap;
	}
	rc = sqlite3_prepare_v2(db->db, load_sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 1, vid);
	if (rc != SQLITE_OK) {
		rc = sql_error(err, db->db, rc, "read", db->path);
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
		rc = sql_error(err, db->db, rc, "read", db->path);
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

/* The first row of a check query, as text; NULL when it yields no row. */
static int first_problem(sqlite3 *db, const char *sql, char *buf, size_t size, int *found)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	*found = 0;
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		snprintf(buf, size, "%s", t ? (const char *)t : "?");
		*found = 1;
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* integrity_check's first report, without its "*** in database main ***"
 * heading: "On tree page 183 cell 23: Rowid 90 out of order". */
static const char *first_line(char *text)
{
	static const char heading[] = "*** in database main ***\n";
	char *nl;

	if (!strncmp(text, heading, sizeof(heading) - 1))
		text += sizeof(heading) - 1;
	if ((nl = strchr(text, '\n')) != NULL)
		*nl = '\0';
	return text;
}

/* treedrift's own invariants, each a query whose first row describes the
 * first violation. */
static const char *const consistency_sql[] = {
	"SELECT 'table ' || quote(\"table\") || ' refers to a missing row of ' || quote(parent)"
	" FROM pragma_foreign_key_check LIMIT 1",
	"SELECT 'version ' || quote(v.label) || ' lists ' || v.file_count || ' files but holds ' ||"
	" (SELECT count(*) FROM entry e WHERE e.version_id = v.id)"
	" FROM version v WHERE v.file_count != (SELECT count(*) FROM entry e WHERE e.version_id = v.id)"
	" LIMIT 1",
	"SELECT 'version ' || quote(v.label) || ' has a wrong total size'"
	" FROM version v WHERE v.total_bytes != (SELECT coalesce(sum(e.size), 0) FROM entry e"
	" WHERE e.version_id = v.id AND e.type = 1) LIMIT 1",
	"SELECT 'content ' || c.id || ' has a malformed digest' FROM content c"
	" WHERE c.tlsh_status NOT BETWEEN 0 AND 2 OR c.sketch_kind NOT BETWEEN 0 AND 2"
	" OR (c.tlsh IS NULL) = (c.tlsh_status = 0) OR (c.sketch IS NULL) != (c.sketch_kind = 0)"
	" LIMIT 1",
};

int td_db_check(td_db_t *db, td_error_t *err)
{
	char problem[512];
	int found = 0, rc;

	if ((rc = validate_schema(db->db, db->path, err)) != TD_OK)
		return rc;
	rc = first_problem(db->db, "PRAGMA integrity_check", problem, sizeof(problem), &found);
	if (rc != SQLITE_OK)
		return td_error_set(err, TD_EFORMAT, "'%s' is corrupt: %s", db->path, sqlite3_errmsg(db->db));
	if (!found || strcmp(problem, "ok"))
		return td_error_set(err, TD_EFORMAT, "'%s' is corrupt: %s", db->path,
				    found ? first_line(problem) : "integrity check gave no answer");
	for (size_t i = 0; i < sizeof(consistency_sql) / sizeof(consistency_sql[0]); i++) {
		rc = first_problem(db->db, consistency_sql[i], problem, sizeof(problem), &found);
		if (rc != SQLITE_OK)
			return td_error_set(err, TD_EFORMAT, "'%s' is corrupt: %s", db->path,
					    sqlite3_errmsg(db->db));
		if (found)
			return td_error_set(err, TD_EFORMAT, "'%s' is inconsistent: %s", db->path, problem);
	}
	return TD_OK;
}

/* Bind a path (or any byte string) as a BLOB; SQLITE_STATIC: the caller's
 * buffer outlives the statement's use of it. */
static int bind_bytes(sqlite3_stmt *st, int col, const void *p, size_t len)
{
	if (!p)
		return sqlite3_bind_null(st, col);
	if (len > INT_MAX)
		return SQLITE_TOOBIG;
	return sqlite3_bind_blob(st, col, len ? p : "", (int)len, SQLITE_STATIC);
}

static int version_ids(td_db_t *db, sqlite3_int64 **out, size_t *count, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 *ids = NULL;
	size_t n = 0, cap = 0;
	int rc = sqlite3_prepare_v2(db->db, "SELECT id FROM version ORDER BY id", -1, &st, NULL);

	if (rc != SQLITE_OK)
		goto sqlerr;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		void *p = ids;
		if (td_grow(&p, &cap, n + 1, sizeof(*ids))) {
			sqlite3_finalize(st);
			free(ids);
			return td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
		}
		ids = p;
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE)
		goto sqlerr;
	sqlite3_finalize(st);
	*out = ids;
	*count = n;
	return TD_OK;
sqlerr:
	rc = sql_error(err, db->db, rc, "read", db->path);
	sqlite3_finalize(st);
	free(ids);
	return rc;
}

/* Index of a version id among the ascending ids; -1 when absent. */
static long version_index(const sqlite3_int64 *ids, size_t n, sqlite3_int64 id)
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

/* Both use the index entry_path (path_id, content_id), whose keys end with
 * version_id: each file costs a path lookup, a content lookup and one
 * index range, and the rows come in version order. */
static const char match_content_sql[] =
	"SELECT e.version_id FROM path p CROSS JOIN content c CROSS JOIN entry e"
	" WHERE p.path = ?1 AND c.sha256 = ?2 AND e.path_id = p.id AND e.content_id = c.id"
	" ORDER BY e.version_id";
static const char match_link_sql[] =
	"SELECT e.version_id FROM path p CROSS JOIN entry e"
	" WHERE p.path = ?1 AND e.path_id = p.id AND e.content_id IS NULL AND e.type = ?2"
	" AND e.link_target = ?3 ORDER BY e.version_id";

void td_db_matches_free(td_db_matches_t *m)
{
	if (!m)
		return;
	free(m->identical);
	free(m->start);
	free(m->version);
	free(m);
}

int td_db_match(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err)
{
	sqlite3_stmt *by_content = NULL, *by_link = NULL;
	sqlite3_int64 *ids = NULL;
	td_db_matches_t *m;
	size_t nids = 0, cap = 0, hits = 0;
	int rc;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
	if ((rc = version_ids(db, &ids, &nids, err)) != TD_OK)
		goto out;
	m->version_count = nids;
	m->file_count = tree->count;
	m->identical = calloc(nids ? nids : 1, sizeof(*m->identical));
	m->start = td_malloc_array(tree->count + 1, sizeof(*m->start));
	if (!m->identical || !m->start || tree->count == SIZE_MAX) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
		goto out;
	}
	rc = sqlite3_prepare_v2(db->db, match_content_sql, -1, &by_content, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->db, match_link_sql, -1, &by_link, NULL);
	/* One read transaction: without it every lookup takes and drops the
	 * file lock and checks for a hot journal. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		rc = sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	for (size_t i = 0; i < tree->count; i++) {
		const td_file_t *f = &tree->files[i];
		sqlite3_stmt *st = NULL;

		m->start[i] = hits;
		if (f->has_digest) {
			st = by_content;
			rc = bind_bytes(st, 1, f->path, f->path_len);
			if (rc == SQLITE_OK)
				rc = sqlite3_bind_blob(st, 2, f->digest.sha256, TD_SHA256_BYTES, SQLITE_STATIC);
		} else if ((f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK) && f->link_target) {
			st = by_link;
			rc = bind_bytes(st, 1, f->path, f->path_len);
			if (rc == SQLITE_OK)
				rc = sqlite3_bind_int(st, 2, (int)f->type);
			if (rc == SQLITE_OK)
				rc = bind_bytes(st, 3, f->link_target, f->link_len);
		}
		if (!st)
			continue;
		while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			long v = version_index(ids, nids, sqlite3_column_int64(st, 0));
			void *p = m->version;
			rc = SQLITE_OK;
			if (v < 0)
				continue;
			if (hits == UINT32_MAX || td_grow(&p, &cap, hits + 1, sizeof(*m->version))) {
				sqlite3_reset(st);
				rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
				goto out;
			}
			m->version = p;
			m->version[hits++] = (uint32_t)v;
			m->identical[v]++;
		}
		if (rc != SQLITE_DONE) {
			rc = sql_error(err, db->db, rc, "read", db->path);
			goto out;
		}
		sqlite3_reset(st);
	}
	m->start[tree->count] = hits;
	rc = TD_OK;
out:
	sqlite3_finalize(by_content);
	sqlite3_finalize(by_link);
	if (!sqlite3_get_autocommit(db->db))
		sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL);
	free(ids);
	if (rc) {
		td_db_matches_free(m);
		return rc;
	}
	*out = m;
	return TD_OK;
}

/*
 * Writer.
 */

enum {
	ST_VERSION_FIND, ST_VERSION_INSERT, ST_VERSION_UPDATE, ST_ENTRY_DELETE, ST_PATH_FIND,
	ST_PATH_INSERT, ST_CONTENT_FIND, ST_CONTENT_INSERT, ST_CONTENT_FILL, ST_ENTRY_INSERT,
	ST_COUNT
};

static const char *const writer_sql[ST_COUNT] = {
	[ST_VERSION_FIND] = "SELECT id FROM version WHERE label = ?1",
	[ST_VERSION_INSERT] = "INSERT INTO version (label, root, source_kind, scanned_at, tool_version,"
			      " file_count, total_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_VERSION_UPDATE] = "UPDATE version SET root = ?2, source_kind = ?3, scanned_at = ?4,"
			      " tool_version = ?5, file_count = ?6, total_bytes = ?7 WHERE id = ?1",
	[ST_ENTRY_DELETE] = "DELETE FROM entry WHERE version_id = ?1",
	[ST_PATH_FIND] = "SELECT id FROM path WHERE path = ?1",
	[ST_PATH_INSERT] = "INSERT INTO path (path) VALUES (?1) ON CONFLICT (path) DO NOTHING",
	[ST_CONTENT_FIND] = "SELECT id, gitoid IS NULL, tlsh IS NULL AND sketch IS NULL"
			    " FROM content WHERE sha256 = ?1",
	[ST_CONTENT_INSERT] = "INSERT INTO content (sha256, size, tlsh, tlsh_status, sketch_kind,"
			      " sketch, gitoid) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
			      " ON CONFLICT (sha256) DO NOTHING",
	/* A later scan may know more of the same bytes: the blob id (a git
	 * source), or the TLSH a SHA-256-only pass left out. */
	[ST_CONTENT_FILL] = "UPDATE content SET gitoid = coalesce(gitoid, ?2),"
			    " tlsh = CASE WHEN ?6 THEN ?3 ELSE tlsh END,"
			    " tlsh_status = CASE WHEN ?6 THEN ?4 ELSE tlsh_status END,"
			    " sketch_kind = CASE WHEN ?6 THEN ?5 ELSE sketch_kind END,"
			    " sketch = CASE WHEN ?6 THEN ?7 ELSE sketch END WHERE id = ?1",
	[ST_ENTRY_INSERT] = "INSERT INTO entry (version_id, path_id, type, mode, size, mtime_ns, ino,"
			    " dev, content_id, link_target, gitoid, skip_reason, skip_detail)"
			    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
};

/* After a replace: drop what no version refers to any more. */
static const char gc_sql[] =
	"DELETE FROM content WHERE id NOT IN (SELECT content_id FROM entry WHERE content_id IS NOT NULL);"
	"DELETE FROM path WHERE id NOT IN (SELECT path_id FROM entry);";

struct td_db_writer {
	char *path;       /* the database written (a symlink resolved) */
	char *dir;        /* its directory, synced after the rename */
	char *tmp_path;   /* path + ".tmp-XXXXXX" */
	char *lock_path;  /* path + ".lock" */
	int lock_fd;
	int tmp_fd;
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	/* Rows found vs. rows added during this add: when most are new (a
	 * first version) an insert is tried before the lookup, which saves
	 * an index search per row; when most exist (a point release), the
	 * lookup goes first. */
	size_t paths_found, paths_added, contents_found, contents_added;
};

/* "2024-05-01T12:00:00Z" */
static void utc_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		out[0] = '\0';
}

static int path_split_dir(td_db_writer_t *w)
{
	const char *slash = strrchr(w->path, '/');

	if (!slash)
		w->dir = td_strndup(".", 1);
	else if (slash == w->path)
		w->dir = td_strndup("/", 1);
	else
		w->dir = td_strndup(w->path, (size_t)(slash - w->path));
	return w->dir ? TD_OK : TD_ENOMEM;
}

static long lock_holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return end != buf && pid > 0 ? pid : 0;
}

/* Record our pid in the lock file for the message a second writer shows.
 * Failing only makes that message vaguer. */
static void lock_note_pid(int fd)
{
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (n > 0 && ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n)
		return;
}

/* flock the lock file. The holder before us unlinks it while still holding
 * the lock, so a lock taken on a file no longer at lock_path is stale:
 * open it again. */
static int lock_acquire(td_db_writer_t *w, td_error_t *err)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat held, named;
		int fd = open(w->lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);

		if (fd < 0)
			return td_error_set(err, TD_EIO, "unable to create lock '%s': %s", w->lock_path,
					    strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;
			long holder = e == EWOULDBLOCK ? lock_holder_pid(fd) : 0;
			close(fd);
			if (e != EWOULDBLOCK)
				return td_error_set(err, TD_EIO, "unable to lock '%s': %s", w->lock_path,
						    strerror(e));
			if (holder)
				return td_error_set(err, TD_ELOCKED,
						    "'%s' is being written by another treedrift (pid %ld)",
						    w->path, holder);
			return td_error_set(err, TD_ELOCKED, "'%s' is being written by another treedrift",
					    w->path);
		}
		if (fstat(fd, &held) || stat(w->lock_path, &named) || held.st_ino != named.st_ino ||
		    held.st_dev != named.st_dev) {
			close(fd);
			continue;
		}
		lock_note_pid(fd);
		w->lock_fd = fd;
		return TD_OK;
	}
	return td_error_set(err, TD_ELOCKED, "unable to lock '%s': it keeps changing", w->lock_path);
}

static void lock_release(td_db_writer_t *w)
{
	if (w->lock_fd < 0)
		return;
	unlink(w->lock_path);
	close(w->lock_fd);
	w->lock_fd = -1;
}

/* Is name base + ".tmp-" + 6 letters or digits, maybe followed by one of
 * SQLite's side-file suffixes? */
static int is_our_temp(const char *name, const char *base, size_t base_len)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	const char *p;

	if (strncmp(name, base, base_len) || strncmp(name + base_len, ".tmp-", 5))
		return 0;
	p = name + base_len + 5;
	for (int i = 0; i < 6; i++, p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(p, suffixes[i]))
			return 1;
	return 0;
}

/* Remove temporary files a killed writer left. Called with the lock held:
 * every writer of this path holds it while its temporary file exists, so
 * any temporary file seen now is stale. */
static void remove_stale_temps(td_db_writer_t *w)
{
	const char *slash = strrchr(w->path, '/');
	const char *base = slash ? slash + 1 : w->path;
	size_t base_len = strlen(base);
	struct dirent *d;
	DIR *dir;

	dir = opendir(w->dir);
	if (!dir)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (is_our_temp(d->d_name, base, base_len)) {
			char *p = str_concat(w->dir, "/");
			char *full = p ? str_concat(p, d->d_name) : NULL;
			if (full)
				unlink(full);
			free(p);
			free(full);
		}
	}
	closedir(dir);
}

/* Create path + ".tmp-XXXXXX" like mkstemp, but with mode 0666 so the
 * umask applies as it would to any new file. */
static int temp_create(td_db_writer_t *w, td_error_t *err)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(w->path);
	struct timespec ts;
	uint64_t x;

	w->tmp_path = malloc(len + sizeof(".tmp-XXXXXX"));
	if (!w->tmp_path)
		return td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", w->path);
	memcpy(w->tmp_path, w->path, len);
	memcpy(w->tmp_path + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid() << 40;
	for (int tries = 0; tries < 1000; tries++) {
		uint64_t r = x;
		for (int i = 0; i < 6; i++, r /= 62)
			w->tmp_path[len + 5 + i] = letters[r % 62];
		w->tmp_fd = open(w->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
		if (w->tmp_fd >= 0)
			return TD_OK;
		if (errno != EEXIST)
			break;
		x = x * 6364136223846793005u + 1442695040888963407u;
	}
	{
		int e = errno;
		free(w->tmp_path);
		w->tmp_path = NULL;
		return td_error_set(err, TD_EIO, "unable to create a temporary file beside '%s': %s",
				    w->path, strerror(e));
	}
}

static int exec_sql(td_db_writer_t *w, const char *sql, const char *what, td_error_t *err)
{
	int rc = sqlite3_exec(w->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? TD_OK : sql_error(err, w->db, rc, what, w->path);
}

static int meta_put(td_db_writer_t *w, const char *key, const char *value, td_error_t *err)
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
		rc = sql_error(err, w->db, rc, "write", w->path);
	sqlite3_finalize(st);
	return rc;
}

static int schema_create(td_db_writer_t *w, td_error_t *err)
{
	char tool[64], now[32], pragmas[128];
	int rc;

	snprintf(tool, sizeof(tool), "treedrift %s", td_version());
	snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 TD_DB_APPLICATION_ID, TD_DB_SCHEMA_VERSION);
	utc_now(now);
	if ((rc = exec_sql(w, "BEGIN", "write", err)) ||
	    (rc = exec_sql(w, schema_sql, "create", err)) ||
	    (rc = exec_sql(w, pragmas, "create", err)) ||
	    (rc = meta_put(w, "created_by", tool, err)) ||
	    (rc = meta_put(w, "created_at", now, err)) ||
	    (rc = exec_sql(w, "COMMIT", "write", err)))
		return rc;
	return TD_OK;
}

/* Copy the existing database into the temporary one, page by page. */
static int copy_existing(td_db_writer_t *w, sqlite3 *src, td_error_t *err)
{
	sqlite3_backup *b = sqlite3_backup_init(w->db, "main", src, "main");
	int rc;

	if (!b)
		return sql_error(err, w->db, sqlite3_errcode(w->db), "copy", w->path);
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		if (sql_code(rc) == TD_EFORMAT)
			return td_error_set(err, TD_EFORMAT, "unable to copy '%s': %s", w->path,
					    sqlite3_errstr(rc));
		return td_error_set(err, sql_code(rc), "unable to copy '%s': %s", w->path,
				    sqlite3_errmsg(w->db));
	}
	return TD_OK;
}

static void writer_close_db(td_db_writer_t *w)
{
	for (int i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(w->st[i]);
		w->st[i] = NULL;
	}
	sqlite3_close(w->db);
	w->db = NULL;
}

/* Drop everything but the old database: the temporary file and the lock. */
static void writer_discard(td_db_writer_t *w)
{
	writer_close_db(w);
	if (w->tmp_fd >= 0) {
		close(w->tmp_fd);
		w->tmp_fd = -1;
	}
	if (w->tmp_path) {
		unlink(w->tmp_path);
		free(w->tmp_path);
		w->tmp_path = NULL;
	}
	lock_release(w);
}

void td_db_writer_free(td_db_writer_t *w)
{
	if (!w)
		return;
	writer_discard(w);
	free(w->path);
	free(w->dir);
	free(w->lock_path);
	free(w);
}

/* The path a chain of symlinks leads to, even when its end does not exist
 * yet, so that the rename replaces the database a link points to and not
 * the link. NULL with errno set on failure. */
static char *follow_links(const char *path)
{
	char *cur = td_strndup(path, strlen(path));

	for (int hops = 0; cur && hops < 40; hops++) {
		char target[PATH_MAX], *next, *dir;
		const char *slash;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		target[n] = '\0';
		slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			next = td_strndup(target, (size_t)n);
		} else {
			dir = td_strndup(cur, (size_t)(slash - cur + 1));
			next = dir ? str_concat(dir, target) : NULL;
			free(dir);
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	} else {
		errno = ENOMEM;
	}
	return NULL;
}

static int resolve_target(td_db_writer_t *w, const char *path, struct stat *st, int *exists,
			  td_error_t *err)
{
	*exists = 0;
	w->path = follow_links(path);
	if (!w->path)
		return td_error_set(err, errno == ENOMEM ? TD_ENOMEM : TD_EIO, "unable to resolve '%s': %s",
				    path, strerror(errno));
	if (stat(w->path, st)) {
		if (errno == ENOENT)
			return TD_OK;
		return td_error_set(err, TD_EIO, "unable to stat '%s': %s", w->path, strerror(errno));
	}
	if (!S_ISREG(st->st_mode))
		return td_error_set(err, TD_EINVAL, "'%s' is not a regular file", w->path);
	*exists = 1;
	return TD_OK;
}

/* A private file: the rollback journal in memory (a failed add rolls
 * back), no fsync until commit (the rename publishes it), no other
 * connection ever. */
static int writer_configure(td_db_writer_t *w, td_error_t *err)
{
	char pragmas[256];

	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
		 " PRAGMA temp_store = MEMORY; PRAGMA cache_size = -%d;", TD_DB_WRITER_CACHE_KIB);
	return exec_sql(w, pragmas, "configure", err);
}

static int writer_prepare(td_db_writer_t *w, td_error_t *err)
{
	int rc;

	for (int i = 0; i < ST_COUNT; i++) {
		rc = sqlite3_prepare_v3(w->db, writer_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &w->st[i], NULL);
		if (rc != SQLITE_OK)
			return sql_error(err, w->db, rc, "prepare", w->path);
	}
	return TD_OK;
}

int td_db_writer_open(td_db_writer_t **out, const char *path, unsigned flags, td_error_t *err)
{
	td_db_writer_t *w;
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
	w->lock_fd = -1;
	w->tmp_fd = -1;
	if ((rc = resolve_target(w, path, &st, &exists, err)))
		goto out;
	if (path_split_dir(w) || !(w->lock_path = str_concat(w->path, ".lock"))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", path);
		goto out;
	}
	if ((rc = lock_acquire(w, err)))
		goto out;
	remove_stale_temps(w);
	/* Check the file in place before anything is built. APPEND reads it,
	 * so it must be ours and not newer; CREATE replaces it, which is only
	 * safe when it is a treedrift database (of any schema) or empty. */
	if (exists && (flags & TD_DB_APPEND || st.st_size > 0)) {
		rc = open_existing(&src, w->path, !(flags & TD_DB_APPEND), err);
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
	if ((rc = temp_create(w, err)))
		goto out;
	if (exists && fchmod(w->tmp_fd, st.st_mode & 07777)) {
		rc = td_error_set(err, TD_EIO, "unable to set the mode of '%s': %s", w->tmp_path,
				  strerror(errno));
		goto out;
	}
	rc = sqlite3_open_v2(w->tmp_path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		rc = sql_error(err, w->db, rc, "open", w->tmp_path);
		goto out;
	}
	sqlite3_extended_result_codes(w->db, 1);
	rc = src ? copy_existing(w, src, err) : TD_OK;
	if (!rc)
		rc = writer_configure(w, err);
	if (!rc && !src)
		rc = schema_create(w, err);
	if (!rc)
		rc = writer_prepare(w, err);
out:
	sqlite3_close(src);
	if (rc) {
		td_db_writer_free(w);
		return rc;
	}
	*out = w;
	return TD_OK;
}

int td_db_writer_set_max_pages(td_db_writer_t *w, unsigned max_pages, td_error_t *err)
{
	char sql[64];

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->path);
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
static int try_insert(td_db_writer_t *w, sqlite3_stmt *ins, sqlite3_int64 *id)
{
	int rc = run(ins);

	if (rc != SQLITE_OK)
		return -rc;
	if (!sqlite3_changes(w->db))
		return 0;
	*id = sqlite3_last_insert_rowid(w->db);
	return 1;
}

static int path_id(td_db_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
{
	sqlite3_stmt *find = w->st[ST_PATH_FIND], *ins = w->st[ST_PATH_INSERT];
	int rc = bind_bytes(ins, 1, f->path, f->path_len), added;

	if (rc == SQLITE_OK)
		rc = bind_bytes(find, 1, f->path, f->path_len);
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

/* Bind the digest part shared by insert and fill: TLSH packed, or NULL
 * unless it was computed; the sketch exactly when there is a sketch kind. */
static int bind_digest(sqlite3_stmt *st, int col_tlsh, int col_status, int col_kind, int col_sketch,
		       const td_digest_t *d, uint8_t tlsh[TD_DB_TLSH_BYTES])
{
	int ok = d->tlsh_status == TD_TLSH_OK;
	int rc;

	if (ok)
		tlsh_pack(tlsh, &d->tlsh);
	rc = ok ? sqlite3_bind_blob(st, col_tlsh, tlsh, TD_DB_TLSH_BYTES, SQLITE_STATIC)
		: sqlite3_bind_null(st, col_tlsh);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, col_status, (int)d->tlsh_status);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, col_kind, (int)d->sketch_kind);
	if (rc == SQLITE_OK)
		rc = d->sketch_kind == TD_SKETCH_NONE ? sqlite3_bind_null(st, col_sketch)
			: bind_bytes(st, col_sketch, d->sketch ? (const void *)d->sketch : "", d->sketch_len);
	return rc;
}

/* Fill in what a content row lacked: the blob id (a git source), or the
 * TLSH a SHA-256-only pass left out. */
static int content_fill(td_db_writer_t *w, const td_file_t *f, sqlite3_int64 id, int fill_gitoid,
			int fill_digest)
{
	sqlite3_stmt *st = w->st[ST_CONTENT_FILL];
	uint8_t tlsh[TD_DB_TLSH_BYTES];
	int rc = sqlite3_bind_int64(st, 1, id);

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
static int content_find(td_db_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
{
	sqlite3_stmt *find = w->st[ST_CONTENT_FIND];
	const td_digest_t *d = &f->digest;
	int fill_gitoid, fill_digest, rc = lookup(find);

	if (rc != SQLITE_ROW)
		return rc;
	*id = sqlite3_column_int64(find, 0);
	fill_gitoid = sqlite3_column_int(find, 1) && f->has_gitoid;
	fill_digest = sqlite3_column_int(find, 2) &&
		      (d->tlsh_status == TD_TLSH_OK || d->sketch_kind != TD_SKETCH_NONE);
	sqlite3_reset(find);
	if (fill_gitoid || fill_digest) {
		rc = content_fill(w, f, *id, fill_gitoid, fill_digest);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_ROW;
}

/* The content row of a digest: found by SHA-256 or inserted. */
static int content_id(td_db_writer_t *w, const td_file_t *f, sqlite3_int64 *id)
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
static int add_entry(td_db_writer_t *w, sqlite3_int64 vid, const td_file_t *f)
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
	    (rc = bind_bytes(st, 10, f->link_target, f->link_len)) ||
	    (rc = f->has_gitoid && !f->has_digest
		  ? sqlite3_bind_blob(st, 11, f->gitoid, TD_GITOID_BYTES, SQLITE_STATIC)
		  : sqlite3_bind_null(st, 11)) ||
	    (rc = bind_text_or_null(st, 12, f->skip_reason)) ||
	    (rc = bind_text_or_null(st, 13, f->skip_detail)))
		return rc;
	return run(st);
}

static int check_tree(const td_db_writer_t *w, const td_tree_t *tree, td_error_t *err)
{
	const char *label = tree->meta.label;

	if (!label || !*label)
		return td_error_set(err, TD_EINVAL, "a version needs a label to be written to '%s'", w->path);
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

/* The version row: a new one, or (replace) the old one updated in place,
 * so that the version keeps its place among the others. */
static int put_version(td_db_writer_t *w, const td_tree_t *tree, int replace, sqlite3_int64 *vid,
		       int *replaced, td_error_t *err)
{
	const td_tree_meta_t *m = &tree->meta;
	sqlite3_stmt *find = w->st[ST_VERSION_FIND], *st;
	uint64_t total = 0;
	int rc;

	for (size_t i = 0; i < tree->count; i++)
		if (tree->files[i].type == TD_ENTRY_FILE)
			total += tree->files[i].size_bytes;
	*replaced = 0;
	if ((rc = sqlite3_bind_text(find, 1, m->label, -1, SQLITE_STATIC)) != SQLITE_OK)
		return sql_error(err, w->db, rc, "write", w->path);
	rc = lookup(find);
	if (rc == SQLITE_ROW) {
		*vid = sqlite3_column_int64(find, 0);
		sqlite3_reset(find);
		if (!replace)
			return td_error_set(err, TD_EINVAL, "version '%s' already in '%s'", m->label, w->path);
		*replaced = 1;
		st = w->st[ST_ENTRY_DELETE];
		if ((rc = sqlite3_bind_int64(st, 1, *vid)) != SQLITE_OK || (rc = run(st)) != SQLITE_OK)
			return sql_error(err, w->db, rc, "write", w->path);
		st = w->st[ST_VERSION_UPDATE];
		rc = sqlite3_bind_int64(st, 1, *vid);
	} else if (rc == SQLITE_DONE) {
		st = w->st[ST_VERSION_INSERT];
		rc = sqlite3_bind_text(st, 1, m->label, -1, SQLITE_STATIC);
	} else {
		return sql_error(err, w->db, rc, "read", w->path);
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
		rc = sqlite3_bind_int64(st, 6, (sqlite3_int64)tree->count);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 7, (sqlite3_int64)total);
	if (rc == SQLITE_OK)
		rc = run(st);
	if (rc != SQLITE_OK)
		return sql_error(err, w->db, rc, "write", w->path);
	if (!*replaced)
		*vid = sqlite3_last_insert_rowid(w->db);
	return TD_OK;
}

/* Open a version: its checks, the transaction and the version row. */
static int add_begin(td_db_writer_t *w, const td_tree_t *tree, int replace, sqlite3_int64 *vid,
		     int *replaced, td_error_t *err)
{
	int rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->path);
	if ((rc = check_tree(w, tree, err)))
		return rc;
	w->paths_found = w->paths_added = w->contents_found = w->contents_added = 0;
	if ((rc = exec_sql(w, "BEGIN", "write", err)))
		return rc;
	return put_version(w, tree, replace, vid, replaced, err);
}

static int add_file(td_db_writer_t *w, sqlite3_int64 vid, const td_file_t *f, const char *label,
		    td_error_t *err)
{
	int src = add_entry(w, vid, f);

	if (src == SQLITE_CONSTRAINT_PRIMARYKEY)
		return td_error_set(err, TD_EINVAL, "duplicate path '%.*s' in version '%s'",
				    (int)(f->path_len > 256 ? 256 : f->path_len), f->path, label);
	if (src != SQLITE_OK)
		return sql_error(err, w->db, src, "write", w->path);
	return TD_OK;
}

/* Commit the version, or roll it back when rc is an error. */
static int add_end(td_db_writer_t *w, int replaced, int rc, td_error_t *err)
{
	if (!rc && replaced)
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

int td_db_writer_add(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err)
{
	sqlite3_int64 vid = 0;
	int replaced = 0, rc;

	if ((rc = add_begin(w, tree, replace, &vid, &replaced, err)))
		return w->db ? add_end(w, replaced, rc, err) : rc;
	for (size_t i = 0; i < tree->count && !rc; i++)
		rc = add_file(w, vid, &tree->files[i], tree->meta.label, err);
	return add_end(w, replaced, rc, err);
}

/* ---- writing while scanning ---- */

/* Entries the writer lets pile up before it is woken. */
#define WRITER_BATCH 256

/* The writer thread's view of a scan: entry i of the listing may be
 * written once it is final; finished is set when the scan is over. */
typedef struct scan_writer {
	td_db_writer_t *w;
	const td_listing_t *l;
	const char *label;
	sqlite3_int64 vid;
	atomic_int finished;
	_Atomic size_t waiting;    /* the entry the writer sleeps on; SIZE_MAX: none */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	size_t written;
	int rc;
	td_error_t err;
} scan_writer_t;

static void scan_writer_wake(scan_writer_t *sw)
{
	pthread_mutex_lock(&sw->lock);
	pthread_cond_signal(&sw->wake);
	pthread_mutex_unlock(&sw->lock);
}

/* Entry index is final. Either the writer sees that after announcing that
 * it waits for it, or the scan sees the announcement (both are
 * sequentially consistent), so a wake-up is never lost. */
static void scan_writer_ready(void *ctx, size_t index)
{
	scan_writer_t *sw = ctx;

	if (atomic_load(&sw->waiting) == index)
		scan_writer_wake(sw);
}

/* Sleep until entry i is final or the scan is over. */
static void scan_writer_wait(scan_writer_t *sw, size_t i)
{
	atomic_store(&sw->waiting, i);
	if (!td_listing_final(sw->l, i) && !atomic_load(&sw->finished)) {
		struct timespec ts;

		pthread_mutex_lock(&sw->lock);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50000000L; /* a safety net only */
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!td_listing_final(sw->l, i) && !atomic_load(&sw->finished))
			pthread_cond_timedwait(&sw->wake, &sw->lock, &ts);
		pthread_mutex_unlock(&sw->lock);
	}
	atomic_store(&sw->waiting, SIZE_MAX);
}

/* Entries go in in listing order, each as soon as it is final; the whole
 * version is one transaction. */
static void *scan_writer_run(void *arg)
{
	scan_writer_t *sw = arg;

	for (;;) {
		size_t ahead;

		if (td_listing_final(sw->l, sw->written)) {
			if ((sw->rc = add_file(sw->w, sw->vid, td_listing_at(sw->l, sw->written), sw->label,
					       &sw->err)))
				break;
			sw->written++;
			continue;
		}
		if (atomic_load(&sw->finished)) {
			if (!td_listing_final(sw->l, sw->written))
				break; /* all written, or the scan stopped short and reports why */
			continue;
		}
		/* Sleep on an entry a batch ahead, not on each: files finish
		 * roughly in order, and one wake-up per file would cost more
		 * than the writing. */
		ahead = sw->written + WRITER_BATCH;
		if (td_listing_complete(sw->l)) {
			size_t n = td_listing_count(sw->l);
			if (ahead >= n)
				ahead = n ? n - 1 : 0;
		}
		scan_writer_wait(sw, ahead);
	}
	return NULL;
}

/* The version row holds what the scan found: files skipped while they
 * were read no longer count. */
static int update_version_totals(td_db_writer_t *w, const td_tree_t *tree, sqlite3_int64 vid,
				 td_error_t *err)
{
	uint64_t total = 0;
	char sql[160];

	for (size_t i = 0; i < tree->count; i++)
		if (tree->files[i].type == TD_ENTRY_FILE)
			total += tree->files[i].size_bytes;
	snprintf(sql, sizeof(sql), "UPDATE version SET file_count = %zu, total_bytes = %lld WHERE id = %lld",
		 tree->count, (long long)total, (long long)vid);
	return exec_sql(w, sql, "write", err);
}

int td_db_writer_add_scan(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats,
			  td_error_t *err)
{
	scan_writer_t sw;
	td_listing_t *l = NULL;
	td_tree_t *tree = NULL;
	pthread_t thread;
	int replaced = 0, started = 0, rc;

	*out = NULL;
	memset(&sw, 0, sizeof(sw));
	if (td_listing_new(&l, src) ||
	    (label && td_meta_set(&td_listing_tree(l)->meta.label, label))) {
		td_listing_free(l);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	sw.w = w;
	sw.l = l;
	sw.label = td_listing_tree(l)->meta.label;
	/* The version row first: a label already taken fails before the walk. */
	if ((rc = add_begin(w, td_listing_tree(l), replace, &sw.vid, &replaced, err))) {
		if (w->db)
			rc = add_end(w, replaced, rc, err);
		td_listing_free(l);
		return rc;
	}
	atomic_store(&sw.waiting, SIZE_MAX);
	pthread_mutex_init(&sw.lock, NULL);
	pthread_cond_init(&sw.wake, NULL);
	if (pthread_create(&thread, NULL, scan_writer_run, &sw) == 0)
		started = 1;
	rc = td_scan_stream(l, src, opts, stats, err, scan_writer_ready, &sw);
	atomic_store(&sw.finished, 1);
	scan_writer_wake(&sw);
	if (started)
		pthread_join(thread, NULL);
	else if (!rc)
		scan_writer_run(&sw); /* no thread to spare: write after the scan */
	if (!rc && sw.rc) {
		rc = sw.rc;
		if (err)
			*err = sw.err;
	}
	if (!rc && sw.written != td_listing_count(l))
		rc = td_error_set(err, TD_EINVAL, "version '%s' was not written whole", sw.label);
	if (!rc)
		rc = td_listing_take(l, &tree, err);
	if (!rc)
		rc = update_version_totals(w, tree, sw.vid, err);
	rc = add_end(w, replaced, rc, err);
	pthread_cond_destroy(&sw.wake);
	pthread_mutex_destroy(&sw.lock);
	td_listing_free(l);
	if (rc) {
		td_tree_free(tree);
		return rc;
	}
	*out = tree;
	return TD_OK;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -1;
	if (fsync(fd) && errno != EINVAL)
		rc = -1;
	close(fd);
	return rc;
}

int td_db_writer_commit(td_db_writer_t *w, td_error_t *err)
{
	char tool[64], now[32], problem[512];
	int found = 0, rc;

	if (!w->db)
		return td_error_set(err, TD_EINVAL, "the writer of '%s' is closed", w->path);
	snprintf(tool, sizeof(tool), "treedrift %s", td_version());
	utc_now(now);
	if ((rc = exec_sql(w, index_sql, "index", err)) || (rc = meta_put(w, "modified_by", tool, err)) ||
	    (rc = meta_put(w, "modified_at", now, err)))
		goto fail;
	/* What is renamed into place must at least be structurally sound; a
	 * quick check reads every page once (a few ms per MB). */
	rc = first_problem(w->db, "PRAGMA quick_check", problem, sizeof(problem), &found);
	if (rc != SQLITE_OK || !found || strcmp(problem, "ok")) {
		rc = td_error_set(err, TD_EFORMAT, "refusing to replace '%s': the new database is corrupt: %s",
				  w->path, rc != SQLITE_OK ? sqlite3_errmsg(w->db)
				  : found ? first_line(problem) : "no answer");
		goto fail;
	}
	writer_close_db(w);
	/* SQLite wrote every page when its transactions committed; make them
	 * durable before the name points at them. */
	if (fsync(w->tmp_fd)) {
		rc = td_error_set(err, TD_EIO, "unable to write '%s': %s", w->path, strerror(errno));
		goto fail;
	}
	if (close(w->tmp_fd)) {
		w->tmp_fd = -1;
		rc = td_error_set(err, TD_EIO, "unable to write '%s': %s", w->path, strerror(errno));
		goto fail;
	}
	w->tmp_fd = -1;
	if (rename(w->tmp_path, w->path)) {
		rc = td_error_set(err, TD_EIO, "unable to replace '%s': %s", w->path, strerror(errno));
		goto fail;
	}
	free(w->tmp_path);
	w->tmp_path = NULL;
	if (sync_dir(w->dir)) {
		rc = td_error_set(err, TD_EIO, "'%s' is written but its directory could not be synced: %s",
				  w->path, strerror(errno));
		lock_release(w);
		return rc;
	}
	lock_release(w);
	return TD_OK;
fail:
	writer_discard(w);
	return rc;
}
