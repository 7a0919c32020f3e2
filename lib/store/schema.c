/* The database's schema (doc/db-schema.md) and what every connection
 * shares: error text, opening an existing file read-only, telling a
 * treedrift database from any other file, and the checks of `check`. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "internal.h"

/* "SQLite format 3" and its NUL: the first 16 bytes of every database. */
static const char sqlite_magic[16] = "SQLite format 3";

#define TD_DB_BUSY_TIMEOUT_MS 5000

const char td_db_schema_sql[] =
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

/* The whitespace-normalised SHA-256 (doc/db-schema.md): added by ALTER
 * TABLE, so that SQLite stores the same CREATE TABLE text for a database
 * created with it and one migrated to it. */
const char *const td_db_migrate_sql[TD_DB_SCHEMA_VERSION - 1] = {
	"ALTER TABLE content ADD COLUMN sha256_ws BLOB"
	" CHECK (sha256_ws IS NULL OR length(sha256_ws) = 32);",
	"ALTER TABLE content ADD COLUMN ws_bytes INTEGER CHECK (ws_bytes IS NULL OR ws_bytes >= 0);",
};

/* Built at commit, not row by row: for a new database one sort at the end
 * is cheaper than an index insert per entry. A copied database has it. */
const char td_db_index_sql[] = "CREATE INDEX IF NOT EXISTS entry_path ON entry (path_id, content_id);";

/* The tables of every schema, as validate_schema looks for them. */
#define SCHEMA_TABLES "('meta', 'content', 'path', 'version', 'entry')"
#define SCHEMA_TABLE_COUNT 5

int td_sql_code(int rc)
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

int td_sql_error(td_error_t *err, sqlite3 *db, int rc, const char *what, const char *path)
{
	const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);

	/* SQLite says "attempt to write a readonly database" when a read-only
	 * connection finds a journal it would have to roll back. treedrift
	 * never leaves one (it renames whole files into place): another
	 * program's write into the file was interrupted. */
	if (db && sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
		return td_error_set(err, TD_EDB,
				    "unable to %s '%s': it has a hot journal ('%s-journal'), left by another"
				    " program whose write into it was interrupted; open it once with write"
				    " access (sqlite3 '%s' 'PRAGMA quick_check') to roll that write back",
				    what, path, path, path);
	return td_error_set(err, td_sql_code(rc), "unable to %s '%s': %s", what, path, msg);
}

static int not_ours(td_error_t *err, const char *path)
{
	return td_error_set(err, TD_EFORMAT, "'%s' is not a treedrift database", path);
}

char *td_str_concat(const char *a, const char *b)
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
	return path && (td_db_is_uri(path) || sniff(path) == 1);
}

int td_db_query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out)
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

int td_db_user_version(sqlite3 *db, int *out)
{
	sqlite3_int64 v = 0;
	int rc = td_db_query_int(db, "PRAGMA user_version", &v);

	*out = rc == SQLITE_OK && v > 0 && v <= TD_DB_SCHEMA_VERSION ? (int)v : 0;
	return rc;
}

/* Copy at most size - 1 bytes of s into buf, each byte that is not
 * printable ASCII as '?': names from a database go into messages. */
static const char *printable(char *buf, size_t size, const unsigned char *s, int len)
{
	size_t n = 0;

	for (int i = 0; s && i < len && n + 1 < size; i++)
		buf[n++] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
	buf[n] = '\0';
	return buf;
}

/* Every object in the schema of db is one treedrift makes, with the SQL
 * text it makes it with: a trigger, a view, an index of someone else's or
 * a table with a column added (a generated column) would run SQL from the
 * file inside treedrift. The reference is the database's own schema
 * (user_version, at most this build's) made afresh in memory. */
static int objects_are_ours(sqlite3 *db, int schema, const char *path, td_error_t *err)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *theirs = NULL, *ours = NULL;
	int rc = sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(ref, td_db_schema_sql, NULL, NULL, NULL);
	for (int v = 1; v < schema && v < TD_DB_SCHEMA_VERSION && rc == SQLITE_OK; v++)
		rc = sqlite3_exec(ref, td_db_migrate_sql[v - 1], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(ref, td_db_index_sql, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(ref, "SELECT 1 FROM sqlite_schema WHERE type = ?1 AND name = ?2"
					" AND tbl_name = ?3 AND sql IS ?4", -1, &ours, NULL);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, ref, rc, "check the schema of", path);
		goto out;
	}
	rc = sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema", -1, &theirs, NULL);
	if (rc != SQLITE_OK) {
		rc = td_sql_error(err, db, rc, "read", path);
		goto out;
	}
	while ((rc = sqlite3_step(theirs)) == SQLITE_ROW) {
		char type[16], name[80];
		int found = SQLITE_OK;

		for (int i = 0; i < 4 && found == SQLITE_OK; i++)
			found = sqlite3_bind_value(ours, i + 1, sqlite3_column_value(theirs, i));
		if (found == SQLITE_OK)
			found = sqlite3_step(ours);
		sqlite3_reset(ours);
		if (found == SQLITE_ROW)
			continue;
		if (found != SQLITE_DONE) {
			rc = td_sql_error(err, ref, found, "check the schema of", path);
			goto out;
		}
		printable(type, sizeof(type), sqlite3_column_text(theirs, 0), sqlite3_column_bytes(theirs, 0));
		printable(name, sizeof(name), sqlite3_column_text(theirs, 1), sqlite3_column_bytes(theirs, 1));
		rc = td_error_set(err, TD_EFORMAT,
				  "'%s' holds a %s '%s' that treedrift did not make; treedrift runs no SQL"
				  " from a database", path, type, name);
		goto out;
	}
	rc = rc == SQLITE_DONE ? TD_OK : td_sql_error(err, db, rc, "read", path);
out:
	sqlite3_finalize(theirs);
	sqlite3_finalize(ours);
	sqlite3_close(ref);
	return rc;
}

/* Is db a treedrift database this build can read? TD_EFORMAT when it is
 * some other SQLite file, or holds objects treedrift does not make;
 * TD_ENEWER when a newer schema wrote it. */
static int validate_schema(sqlite3 *db, const char *path, td_error_t *err)
{
	sqlite3_int64 app_id = 0, user_version = 0, tables = 0;
	int rc;

	if ((rc = td_db_query_int(db, "PRAGMA application_id", &app_id)) != SQLITE_OK ||
	    (rc = td_db_query_int(db, "PRAGMA user_version", &user_version)) != SQLITE_OK)
		return td_sql_error(err, db, rc, "read", path);
	if (app_id != TD_DB_APPLICATION_ID)
		return not_ours(err, path);
	if (user_version > TD_DB_SCHEMA_VERSION)
		return td_error_set(err, TD_ENEWER,
				    "'%s' was written by a newer treedrift (schema %lld); this one reads up to %d",
				    path, (long long)user_version, TD_DB_SCHEMA_VERSION);
	if (user_version < 1)
		return td_error_set(err, TD_EFORMAT, "'%s' has no treedrift schema (user_version %lld)",
				    path, (long long)user_version);
	rc = td_db_query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
		       SCHEMA_TABLES, &tables);
	if (rc != SQLITE_OK)
		return td_sql_error(err, db, rc, "read", path);
	if (tables != SCHEMA_TABLE_COUNT)
		return td_error_set(err, TD_EFORMAT, "'%s' is not a treedrift database: tables are missing",
				    path);
	return objects_are_ours(db, (int)user_version, path, err);
}

void td_db_harden(sqlite3 *db)
{
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)NULL);
}

int td_db_open_existing(sqlite3 **out, const char *path, int schema_ok_newer, td_error_t *err)
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
		rc = td_sql_error(err, db, rc, "open", path);
		sqlite3_close(db);
		return rc;
	}
	td_db_harden(db);
	sqlite3_busy_timeout(db, TD_DB_BUSY_TIMEOUT_MS);
	rc = validate_schema(db, path, err);
	if (rc && !(schema_ok_newer && rc == TD_ENEWER)) {
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return TD_OK;
}

/* The first row of a check query, as text; NULL when it yields no row. */
int td_db_first_problem(sqlite3 *db, const char *sql, char *buf, size_t size, int *found)
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
const char *td_db_first_line(char *text)
{
	static const char heading[] = "*** in database main ***\n";
	char *nl;

	if (!strncmp(text, heading, sizeof(heading) - 1))
		text += sizeof(heading) - 1;
	if ((nl = strchr(text, '\n')) != NULL)
		*nl = '\0';
	return text;
}

_Static_assert(TD_SKETCH_RAW_MAX_BYTES == 4096 && TD_SKETCH_HIST_BYTES == 1024,
	       "consistency_sql spells out the sketch sizes");

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
	/* the rule of the writer and of scan --label: no control characters */
	"SELECT 'version ' || v.id || ' has a label that is not printable text' FROM version v"
	" WHERE typeof(v.label) != 'text' OR v.label GLOB '*[' || char(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,"
	" 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127) || ']*'"
	" LIMIT 1",
	"SELECT 'content ' || c.id || ' has a sketch of ' || length(c.sketch) || ' bytes"
	" (at most 4096 raw, 1024 histogram)' FROM content c"
	" WHERE (c.sketch_kind = 1 AND length(c.sketch) > 4096)"
	" OR (c.sketch_kind = 2 AND length(c.sketch) != 1024) LIMIT 1",
};

int td_sq_check(td_db_t *db, td_error_t *err)
{
	char problem[512];
	int found = 0, rc;

	if ((rc = validate_schema(db->db, db->path, err)) != TD_OK)
		return rc;
	rc = td_db_first_problem(db->db, "PRAGMA integrity_check", problem, sizeof(problem), &found);
	if (rc != SQLITE_OK)
		return td_error_set(err, TD_EFORMAT, "'%s' is corrupt: %s", db->path, sqlite3_errmsg(db->db));
	if (!found || strcmp(problem, "ok"))
		return td_error_set(err, TD_EFORMAT, "'%s' is corrupt: %s", db->path,
				    found ? td_db_first_line(problem) : "integrity check gave no answer");
	for (size_t i = 0; i < sizeof(consistency_sql) / sizeof(consistency_sql[0]); i++) {
		rc = td_db_first_problem(db->db, consistency_sql[i], problem, sizeof(problem), &found);
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
int td_db_bind_bytes(sqlite3_stmt *st, int col, const void *p, size_t len)
{
	if (!p)
		return sqlite3_bind_null(st, col);
	if (len > INT_MAX)
		return SQLITE_TOOBIG;
	return sqlite3_bind_blob(st, col, len ? p : "", (int)len, SQLITE_STATIC);
}
