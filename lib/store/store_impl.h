/* What the store's files share (schema.c, read.c, match.c, files.c,
 * write.c), and its hooks for tests; not part of the public API. */
#ifndef TD_STORE_IMPL_H
#define TD_STORE_IMPL_H

#include <sys/stat.h>

#include <sqlite3.h>

#include "treedrift/store.h"

/* The application_id every treedrift database carries: "TDr1". */
#define TD_DB_APPLICATION_ID 0x54447231

/* A packed TLSH in the content table: checksum, lvalue, q1, q2, body. */
#define TD_DB_TLSH_BYTES (4 + TD_TLSH_BODY_BYTES)

/* ---- store.c: the two backends behind the public API ----
 *
 * A database is an SQLite file or a PostgreSQL server (a postgresql:// or
 * postgres:// URI). The public td_db_* functions pick the backend from the
 * name and call it through this table; nothing above the store knows which
 * one it reads. A schema change is made once per backend: schema.c for
 * SQLite, pg_schema.c for PostgreSQL (each with its migration list). */
typedef struct td_db_backend {
	const char *name; /* "sqlite", "postgresql" */
	int (*open)(td_db_t *db, const char *spec, td_error_t *err);
	void (*close)(td_db_t *db);
	int (*versions)(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err);
	int (*load)(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err);
	int (*load_reuse)(td_db_t *db, td_tree_t **out, td_error_t *err);
	int (*check)(td_db_t *db, td_error_t *err);
	uint64_t (*size_bytes)(td_db_t *db);
	int (*match)(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err);
	int (*writer_open)(td_db_writer_t **out, const char *spec, unsigned flags, td_error_t *err);
	int (*writer_add)(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err);
	int (*writer_add_scan)(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			       int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats,
			       td_error_t *err);
	int (*writer_delete)(td_db_writer_t *w, const char *label, td_error_t *err);
	int (*writer_prune)(td_db_writer_t *w, td_error_t *err);
	int (*writer_commit)(td_db_writer_t *w, td_error_t *err);
	void (*writer_free)(td_db_writer_t *w);
} td_db_backend_t;

extern const td_db_backend_t td_db_backend_sqlite;
extern const td_db_backend_t td_db_backend_pg;

/* A read handle. path is what messages and reports show: the file name,
 * or the URI with its password removed (never the password). */
struct td_db {
	const td_db_backend_t *be;
	char *path;
	sqlite3 *db;      /* SQLite */
	struct pg_conn *pg; /* PostgreSQL (libpq's PGconn) */
	int schema;        /* its user_version: 1 has no content.sha256_ws, 2 no content.ws_bytes */
};

/* What every writer starts with; each backend's writer embeds it first. */
struct td_db_writer {
	const td_db_backend_t *be;
};

/* 1 when spec names a PostgreSQL database (postgresql:// or postgres://). */
int td_db_is_uri(const char *spec);

/* What both backends share when they turn rows into files. */
/* Skip reasons are static strings in a td_file_t: stored text mapped back
 * to them; a reason this build does not know reads as "unsupported". */
const char *td_db_skip_reason_static(const char *text, int len);
void td_db_tlsh_pack(uint8_t out[TD_DB_TLSH_BYTES], const td_tlsh_t *h);
void td_db_tlsh_unpack(td_tlsh_t *h, const uint8_t in[TD_DB_TLSH_BYTES]);

/* Loading a version: one query for the whole version, entries joined to
 * their path and (if any) their content, the columns in this order. WS is
 * the sha256_ws and ws_bytes columns, each a NULL of its type where the
 * database's schema lacks it; JOIN the join to path; WHERE the backend's placeholder for the version id. */
enum {
	LOAD_PATH, LOAD_TYPE, LOAD_MODE, LOAD_SIZE, LOAD_MTIME, LOAD_INO, LOAD_DEV, LOAD_LINK,
	LOAD_GITOID, LOAD_SKIP_REASON, LOAD_SKIP_DETAIL, LOAD_CONTENT_ID, LOAD_SHA256, LOAD_CSIZE,
	LOAD_TLSH, LOAD_TLSH_STATUS, LOAD_SKETCH_KIND, LOAD_SKETCH, LOAD_CGITOID, LOAD_SHA256_WS,
	LOAD_WS_BYTES
};
#define TD_DB_LOAD_SQL(ws, join, version)                                                            \
	"SELECT p.path, e.type, e.mode, e.size, e.mtime_ns, e.ino, e.dev, e.link_target, e.gitoid,"    \
	" e.skip_reason, e.skip_detail, e.content_id, c.sha256, c.size, c.tlsh, c.tlsh_status,"        \
	" c.sketch_kind, c.sketch, c.gitoid, " ws                                                      \
	" FROM entry e " join " path p ON p.id = e.path_id"                                             \
	" LEFT JOIN content c ON c.id = e.content_id"                                                   \
	" WHERE e.version_id = " version

/* db->schema - 1, for tables by schema (a schema out of range as 1). */
static inline int td_db_schema_index(const td_db_t *db)
{
	return db->schema >= 1 && db->schema <= TD_DB_SCHEMA_VERSION ? db->schema - 1 : 0;
}

/* Index of a version id among the ascending ids[0..n); -1 when absent. */
long td_db_version_index(const int64_t *ids, size_t n, int64_t id);
/* The bytes of a tree's regular files: a version's total_bytes. */
uint64_t td_db_tree_bytes(const td_tree_t *tree);
/* Ready t to load a version of the database at path: its meta names the
 * database, and room for file_count files is taken at once (up to a cap,
 * whatever a corrupt count claims). 0, or TD_ENOMEM with err set. */
int td_db_load_reserve(td_tree_t *t, const char *path, uint64_t file_count, td_error_t *err);

/* ---- the SQLite backend: schema.c, read.c, match.c, write.c ---- */
int td_sq_open(td_db_t *db, const char *path, td_error_t *err);
void td_sq_close(td_db_t *db);
int td_sq_versions(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err);
int td_sq_load(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err);
int td_sq_load_reuse(td_db_t *db, td_tree_t **out, td_error_t *err);
int td_sq_check(td_db_t *db, td_error_t *err);
uint64_t td_sq_size_bytes(td_db_t *db);
int td_sq_match(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err);
int td_sq_writer_open(td_db_writer_t **out, const char *path, unsigned flags, td_error_t *err);
int td_sq_writer_add(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err);
int td_sq_writer_add_scan(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err);
int td_sq_writer_delete(td_db_writer_t *w, const char *label, td_error_t *err);
int td_sq_writer_prune(td_db_writer_t *w, td_error_t *err);
int td_sq_writer_commit(td_db_writer_t *w, td_error_t *err);
void td_sq_writer_free(td_db_writer_t *w);

/* ---- the PostgreSQL backend: pg_schema.c, pg_read.c, pg_write.c ---- */
int td_pg_open(td_db_t *db, const char *uri, td_error_t *err);
void td_pg_close(td_db_t *db);
int td_pg_versions(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err);
int td_pg_load(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err);
int td_pg_load_reuse(td_db_t *db, td_tree_t **out, td_error_t *err);
int td_pg_check(td_db_t *db, td_error_t *err);
uint64_t td_pg_size_bytes(td_db_t *db);
int td_pg_match(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err);
int td_pg_writer_open(td_db_writer_t **out, const char *uri, unsigned flags, td_error_t *err);
int td_pg_writer_add(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err);
int td_pg_writer_add_scan(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err);
int td_pg_writer_delete(td_db_writer_t *w, const char *label, td_error_t *err);
int td_pg_writer_prune(td_db_writer_t *w, td_error_t *err);
int td_pg_writer_commit(td_db_writer_t *w, td_error_t *err);
void td_pg_writer_free(td_db_writer_t *w);

/* ---- schema.c: the schema, opening, checking ---- */

/* The tables of schema 1; a new database runs it and then every
 * migration, so that a new and a migrated database hold the same SQL. */
extern const char td_db_schema_sql[];
/* td_db_migrate_sql[v - 1] takes schema v to v + 1; SQL without BEGIN. */
extern const char *const td_db_migrate_sql[TD_DB_SCHEMA_VERSION - 1];
/* Run a statement that yields one integer (a pragma): SQLITE_OK, or a
 * SQLite code (SQLITE_ERROR when it yields no row). */
int td_db_query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out);
/* The user_version of an open database (a SQLite code on failure). */
int td_db_user_version(sqlite3 *db, int *out);
/* The index of entries by path, built at commit. */
extern const char td_db_index_sql[];

/* SQLite result code to ours: a full disk or an I/O error is TD_EIO, a
 * file that is not (or no longer) a database TD_EFORMAT. */
int td_sql_code(int rc);
/* Set err to "unable to WHAT 'PATH': SQLite's message"; returns the code. */
int td_sql_error(td_error_t *err, sqlite3 *db, int rc, const char *what, const char *path);

/* A database is input: run none of its SQL. Its schema is not trusted (no
 * function a schema names runs unless harmless), defensive mode is on, and
 * triggers and views are off. Every connection gets this first. */
void td_db_harden(sqlite3 *db);

/* Open an existing database read-only; never creates a file. With
 * schema_ok_newer, a newer schema passes (to be replaced, not read). */
int td_db_open_existing(sqlite3 **out, const char *path, int schema_ok_newer, td_error_t *err);

/* The first row of a query as text into buf; *found 0 when it yields no
 * row. Returns an SQLite code. */
int td_db_first_problem(sqlite3 *db, const char *sql, char *buf, size_t size, int *found);
/* integrity_check's first report, without its heading; cuts text. */
const char *td_db_first_line(char *text);

/* Bind a byte string as a BLOB (NULL as NULL); SQLITE_STATIC: the
 * caller's buffer outlives the statement's use of it. */
int td_db_bind_bytes(sqlite3_stmt *st, int col, const void *p, size_t len);

/* a + b, malloc'd; NULL when out of memory. */
char *td_str_concat(const char *a, const char *b);

/* ---- files.c: the files a writer keeps beside the database ---- */

typedef struct td_db_files {
	char *path;       /* the database written (a symlink resolved) */
	char *dir;        /* its directory, synced after the rename */
	char *tmp_path;   /* path + ".tmp-XXXXXX" */
	char *lock_path;  /* path + ".lock" */
	int lock_fd;
	int tmp_fd;
} td_db_files_t;

/* Resolve path (a symlink to a database writes the database), take the
 * lock and remove temporary files a killed writer left. *exists says
 * whether a database is there, with its stat in *st. Release with
 * td_db_files_release() whatever the result. */
int td_db_files_open(td_db_files_t *f, const char *path, struct stat *st, int *exists,
		     td_error_t *err);
/* Create the temporary database file beside the database, with mode
 * (& 07777) when mode_set, else 0666 less the umask. */
int td_db_files_temp(td_db_files_t *f, int mode_set, mode_t mode, td_error_t *err);
/* The temporary file is complete: make it durable, rename it into place,
 * sync the directory and drop the lock. */
int td_db_files_publish(td_db_files_t *f, td_error_t *err);
/* Remove the temporary file and drop the lock; the old database stays. */
void td_db_files_discard(td_db_files_t *f);
void td_db_files_release(td_db_files_t *f);
/* 1 when name, a file name in f->dir, is one of the writer's own: the
 * lock or a temporary file of this database. */
int td_db_files_ours(const td_db_files_t *f, const char *name);
/* The database's directory relative to root, an absolute directory
 * without symlinks ("" for root itself), malloc'd; NULL when it is not
 * under root (or out of memory). */
char *td_db_files_dir_under(const td_db_files_t *f, const char *root);

/* ---- hooks for tests ---- */

/* Cap the writer's temporary database at max_pages pages (PRAGMA
 * max_page_count), so that a test can make a write fail as it would on a
 * full disk. */
int td_db_writer_set_max_pages(td_db_writer_t *w, unsigned max_pages, td_error_t *err);

#endif
