/* Writing a PostgreSQL database. Many writers may add versions at once:
 * - content and paths are shared by all versions: each batch of them is
 *   inserted and committed at once on a connection of its own (aux), in
 *   SHA-256 and path order so that two writers never wait on each other
 *   in a cycle; a row nobody refers to yet is harmless;
 * - a version's own rows (version, entry) go in one transaction on the
 *   other connection (tx), entries by COPY, which td_db_writer_commit
 *   commits: until then no reader sees any of it, and a writer that dies
 *   leaves nothing of it;
 * - a label is held by a session advisory lock from the version's start to
 *   the commit: a second writer of the same label is refused (TD_ELOCKED)
 *   at once, before it reads anything;
 * - a commit after a version was replaced or deleted drops the content and
 *   paths no version refers to, unless another writer is at work (the
 *   writers' lock, pg_impl.h): then they stay for the next one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "pg_impl.h"
#include "scan_sink.h"
#include "internal.h"

/* Entries per batch of paths and content. */
#define PG_WRITE_BATCH 4096
/* How often a batch that lost a deadlock is tried again. */
#define PG_WRITE_RETRIES 8
/* COPY data per PQputCopyData call. */
#define PG_COPY_CHUNK ((size_t)1 << 20)

enum { C_SHA, C_SIZE, C_TLSH, C_STATUS, C_KIND, C_SKETCH, C_GITOID, C_WS, C_WS_BYTES, C_COUNT };

typedef struct pg_writer {
	td_db_writer_t base;
	char *shown;      /* the URI without its password */
	PGconn *tx;       /* the versions' transaction */
	PGconn *aux;      /* shared rows, locks and ids: autocommit */
	int in_tx;
	int writing;      /* the writers' lock is held (shared) */
	int dropped;      /* a version was replaced or deleted: rows may be left unreferenced */
	/* The version being added. */
	int adding, replaced, replace;
	long long vid;
	char *label;                  /* a copy: the scan's meta is gone when it fails */
	td_pg_buf_t rows;             /* its entries as COPY (binary) tuples */
	size_t nrows;
	/* The batch: its paths and contents as arrays, and where each entry's
	 * path_id and content_id go in rows. */
	td_pg_buf_t paths, content[C_COUNT];
	size_t *path_at, *content_at;
	uint32_t npaths, ncontent;
} pg_writer_t;

static int oom(pg_writer_t *w, td_error_t *err)
{
	return td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", w->shown);
}

static void batch_start(pg_writer_t *w)
{
	static const uint32_t oid[C_COUNT] = { TD_PG_OID_BYTEA, TD_PG_OID_INT8, TD_PG_OID_BYTEA, TD_PG_OID_INT4,
					       TD_PG_OID_INT4, TD_PG_OID_BYTEA, TD_PG_OID_BYTEA,
					       TD_PG_OID_BYTEA, TD_PG_OID_INT8 };

	td_pg_array_start(&w->paths, TD_PG_OID_BYTEA);
	for (int i = 0; i < C_COUNT; i++)
		td_pg_array_start(&w->content[i], oid[i]);
	w->npaths = w->ncontent = 0;
}

static void pg_writer_destroy(pg_writer_t *w)
{
	if (!w)
		return;
	PQfinish(w->tx); /* a transaction still open is rolled back */
	PQfinish(w->aux);
	td_pg_buf_release(&w->rows);
	td_pg_buf_release(&w->paths);
	for (int i = 0; i < C_COUNT; i++)
		td_pg_buf_release(&w->content[i]);
	free(w->path_at);
	free(w->content_at);
	free(w->label);
	free(w->shown);
	free(w);
}

void td_pg_writer_free(td_db_writer_t *base)
{
	pg_writer_destroy((pg_writer_t *)base);
}

int td_pg_writer_open(td_db_writer_t **out, const char *uri, unsigned flags, td_error_t *err)
{
	pg_writer_t *w;
	int rc;

	*out = NULL;
	if (flags & ~(unsigned)TD_DB_APPEND)
		return td_error_set(err, TD_EINVAL, "unknown flags 0x%x writing a database", flags);
	if (!(w = calloc(1, sizeof(*w))) || !(w->shown = td_db_display_name(uri)) ||
	    !(w->path_at = td_malloc_array(PG_WRITE_BATCH, sizeof(size_t))) ||
	    !(w->content_at = td_malloc_array(PG_WRITE_BATCH, sizeof(size_t)))) {
		pg_writer_destroy(w);
		return td_error_set(err, TD_ENOMEM, "out of memory writing a database");
	}
	w->base.be = &td_db_backend_pg;
	if (!(flags & TD_DB_APPEND)) {
		rc = td_error_set(err, TD_EINVAL, "refusing to replace '%s' whole: a PostgreSQL database is"
				  " only added to (drop --new)", w->shown);
		goto out;
	}
	if ((rc = td_pg_connect(&w->aux, uri, w->shown, 0, err)) ||
	    (rc = td_pg_schema_ready(w->aux, w->shown, err)) ||
	    (rc = td_pg_connect(&w->tx, uri, w->shown, 0, err)))
		goto out;
	rc = TD_OK;
out:
	if (rc) {
		pg_writer_destroy(w);
		return rc;
	}
	*out = &w->base;
	return TD_OK;
}

/* A query with binary parameters and binary results; text[i] is used
 * where bufs[i] is NULL. */
static PGresult *query(PGconn *c, const char *sql, int n, td_pg_buf_t *const *bufs, const char *const *text)
{
	const char *values[C_COUNT + 1];
	int lengths[C_COUNT + 1], formats[C_COUNT + 1];

	for (int i = 0; i < n && i < C_COUNT + 1; i++) {
		int bin = bufs && bufs[i];
		values[i] = bin ? (const char *)bufs[i]->p : text[i];
		lengths[i] = bin ? (int)bufs[i]->len : 0;
		formats[i] = bin;
	}
	return PQexecParams(c, sql, n, NULL, values, lengths, formats, 1);
}

/* Run a statement of the batch, again when it lost a deadlock. */
static PGresult *batch_query(pg_writer_t *w, const char *sql, int n, td_pg_buf_t *const *bufs)
{
	PGresult *r = NULL;

	for (int tries = 0; tries < PG_WRITE_RETRIES; tries++) {
		PQclear(r);
		r = query(w->aux, sql, n, bufs, NULL);
		if (!td_pg_retryable(r))
			break;
	}
	return r;
}

static void patch_id(td_pg_buf_t *b, size_t at, int64_t id)
{
	uint64_t v = (uint64_t)id;

	for (int i = 7; i >= 0; i--, v >>= 8)
		b->p[at + (size_t)i] = (uint8_t)v;
}

/* Put each id the query yields (ordinal, id) where the batch's entries
 * want it; *missing counts the rows without one. */
static int place_ids(pg_writer_t *w, PGresult *r, const size_t *at, uint32_t n, const char *what,
		     uint32_t *missing, td_error_t *err)
{
	int rows;

	*missing = 0;
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return td_pg_fail(err, w->aux, r, "write", w->shown);
	rows = PQntuples(r);
	if ((uint32_t)rows != n)
		return td_error_set(err, TD_EDB, "unable to write '%s': %u %s rows of a batch are missing", w->shown,
				    n - (uint32_t)rows, what);
	for (int i = 0; i < rows; i++) {
		int64_t ord = td_pg_i64(r, i, 0);
		if (ord < 1 || ord > n)
			return td_error_set(err, TD_EDB, "unable to write '%s': bad row in a batch", w->shown);
		if (PQgetisnull(r, i, 1))
			(*missing)++;
		else
			patch_id(&w->rows, at[ord - 1], td_pg_i64(r, i, 1));
	}
	return TD_OK;
}

/* Each batch is one statement per table, which looks every key up once:
 * the rows already there give their ids, the others are inserted (in key
 * order, so that two writers never wait on each other in a cycle) and
 * give theirs. A key another writer committed meanwhile gives no id (its
 * insert did nothing): the statement is then run again, and finds it. */
static const char path_sql[] =
	"WITH t AS MATERIALIZED (SELECT u.path, u.i, p.id FROM unnest($1::bytea[]) WITH ORDINALITY AS u(path, i)"
	" LEFT JOIN path p ON p.path = u.path),"
	" ins AS (INSERT INTO path (path) SELECT DISTINCT path FROM t WHERE id IS NULL ORDER BY 1"
	" ON CONFLICT (path) DO NOTHING RETURNING id, path)"
	" SELECT t.i, coalesce(t.id, ins.id) FROM t LEFT JOIN ins ON t.id IS NULL AND ins.path = t.path";
/* The columns of content, one array each: a column added to the schema is
 * added here, to C_* and to put_file. A content already there may be
 * filled in: a later scan may know more of the same bytes (the blob id of
 * a git source, the TLSH a SHA-256-only pass left out, or the normalised
 * SHA-256 and its length, which older schemas did not hold, as in write.c). */
static const char content_sql[] =
	"WITH t AS MATERIALIZED (SELECT u.*, x.id,"
	" (x.gitoid IS NULL AND u.gitoid IS NOT NULL) OR (x.sha256_ws IS NULL AND u.sha256_ws IS NOT NULL)"
	" OR (x.ws_bytes IS NULL AND u.ws_bytes IS NOT NULL)"
	" OR (x.tlsh IS NULL AND x.sketch IS NULL AND (u.tlsh IS NOT NULL OR u.sketch IS NOT NULL)) AS more,"
	" x.tlsh IS NULL AND x.sketch IS NULL AND (u.tlsh IS NOT NULL OR u.sketch IS NOT NULL) AS fill"
	" FROM unnest($1::bytea[], $2::int8[], $3::bytea[], $4::int4[], $5::int4[], $6::bytea[], $7::bytea[],"
	" $8::bytea[], $9::int8[]) WITH ORDINALITY"
	" AS u(sha, size, tlsh, tlsh_status, sketch_kind, sketch, gitoid, sha256_ws, ws_bytes, i)"
	" LEFT JOIN content x ON x.sha256 = u.sha),"
	" ins AS (INSERT INTO content (sha256, size, tlsh, tlsh_status, sketch_kind, sketch, gitoid, sha256_ws,"
	" ws_bytes) SELECT DISTINCT ON (sha) sha, size, tlsh, tlsh_status, sketch_kind, sketch, gitoid, sha256_ws,"
	" ws_bytes"
	" FROM t WHERE id IS NULL ORDER BY sha ON CONFLICT (sha256) DO NOTHING RETURNING id, sha256),"
	" upd AS (UPDATE content c SET gitoid = coalesce(c.gitoid, f.gitoid),"
	" tlsh = CASE WHEN f.fill THEN f.tlsh ELSE c.tlsh END,"
	" tlsh_status = CASE WHEN f.fill THEN f.tlsh_status ELSE c.tlsh_status END,"
	" sketch_kind = CASE WHEN f.fill THEN f.sketch_kind ELSE c.sketch_kind END,"
	" sketch = CASE WHEN f.fill THEN f.sketch ELSE c.sketch END,"
	" sha256_ws = coalesce(c.sha256_ws, f.sha256_ws), ws_bytes = coalesce(c.ws_bytes, f.ws_bytes)"
	" FROM (SELECT DISTINCT ON (id) * FROM t WHERE more ORDER BY id) f WHERE c.id = f.id)"
	" SELECT t.i, coalesce(t.id, ins.id) FROM t LEFT JOIN ins ON t.id IS NULL AND ins.sha256 = t.sha";

/* Run a batch's statement and put each id it yields (ordinal, id) where
 * the batch's entries want it; again while some key gave no id. */
static int batch_ids(pg_writer_t *w, const char *sql, int n, td_pg_buf_t *const *bufs, const size_t *at,
		     uint32_t count, const char *what, td_error_t *err)
{
	int rc = TD_OK;

	for (int tries = 0; tries < PG_WRITE_RETRIES; tries++) {
		PGresult *r = batch_query(w, sql, n, bufs);
		uint32_t missing = 0;

		if ((rc = place_ids(w, r, at, count, what, &missing, err)) || !missing) {
			PQclear(r);
			return rc;
		}
		PQclear(r);
	}
	return td_error_set(err, TD_EDB, "unable to write '%s': %s rows of a batch are missing", w->shown, what);
}

/* Store the batch's paths and contents (committed at once) and put their
 * ids into the entries' rows. */
static int batch_flush(pg_writer_t *w, td_error_t *err)
{
	td_pg_buf_t *pargs[1] = { &w->paths }, *cargs[C_COUNT];
	int rc = TD_OK;

	td_pg_array_finish(&w->paths, w->npaths);
	for (int i = 0; i < C_COUNT; i++) {
		td_pg_array_finish(&w->content[i], w->ncontent);
		cargs[i] = &w->content[i];
		if (w->content[i].failed)
			return oom(w, err);
	}
	if (w->paths.failed || w->rows.failed)
		return oom(w, err);
	if (w->npaths && (rc = batch_ids(w, path_sql, 1, pargs, w->path_at, w->npaths, "path", err)))
		goto out;
	if (w->ncontent)
		rc = batch_ids(w, content_sql, C_COUNT, cargs, w->content_at, w->ncontent, "content", err);
out:
	batch_start(w);
	return rc;
}

static void field_null(td_pg_buf_t *b)
{
	td_pg_buf_u32(b, UINT32_MAX);
}

static void field_i64(td_pg_buf_t *b, int64_t v)
{
	td_pg_buf_u32(b, 8);
	td_pg_buf_u64(b, (uint64_t)v);
}

static void field_bytes(td_pg_buf_t *b, const void *p, size_t n)
{
	if (!p) {
		field_null(b);
		return;
	}
	if (n > INT32_MAX) {
		b->failed = 1;
		return;
	}
	td_pg_buf_u32(b, (uint32_t)n);
	td_pg_buf_bytes(b, p, n);
}

/* One entry: its COPY tuple (ids to be placed), its path and its content
 * into the batch. Integers are stored as signed 64 bits: a uint64 above
 * INT64_MAX (an ino, a dev) reads back unchanged. */
static int put_file(pg_writer_t *w, const td_file_t *f, td_error_t *err)
{
	td_pg_buf_t *b = &w->rows;

	if (!f->path || !f->path_len)
		return td_error_set(err, TD_EINVAL, "empty path in version '%s'", w->label);
	if (f->type < TD_ENTRY_FILE || f->type > TD_ENTRY_SKIPPED)
		return td_error_set(err, TD_EINVAL, "unknown entry type %d for '%.*s' in version '%s'", (int)f->type,
				    (int)(f->path_len > 256 ? 256 : f->path_len), f->path, w->label);
	td_pg_buf_u16(b, 13);
	field_i64(b, w->vid);
	w->path_at[w->npaths++] = b->len + 4;
	field_i64(b, 0);
	td_pg_buf_u32(b, 4);
	td_pg_buf_u32(b, (uint32_t)f->type);
	field_i64(b, (int64_t)f->mode);
	field_i64(b, (int64_t)f->size_bytes);
	field_i64(b, f->mtime_ns);
	field_i64(b, (int64_t)f->ino);
	field_i64(b, (int64_t)f->dev);
	if (f->has_digest) {
		w->content_at[w->ncontent] = b->len + 4;
		field_i64(b, 0);
	} else {
		field_null(b);
	}
	field_bytes(b, f->link_target, f->link_len);
	field_bytes(b, f->has_gitoid && !f->has_digest ? f->gitoid : NULL, TD_GITOID_BYTES);
	field_bytes(b, f->skip_reason, f->skip_reason ? strlen(f->skip_reason) : 0);
	field_bytes(b, f->skip_detail, f->skip_detail ? strlen(f->skip_detail) : 0);
	w->nrows++;
	td_pg_array_bytes(&w->paths, f->path, f->path_len);
	if (f->has_digest) {
		const td_digest_t *d = &f->digest;
		uint8_t tlsh[TD_DB_TLSH_BYTES];
		int ok = d->tlsh_status == TD_TLSH_OK;
		if (ok)
			td_db_tlsh_pack(tlsh, &d->tlsh);
		td_pg_array_bytes(&w->content[C_SHA], d->sha256, TD_SHA256_BYTES);
		td_pg_array_i64(&w->content[C_SIZE], (int64_t)d->size_bytes);
		td_pg_array_bytes(&w->content[C_TLSH], ok ? tlsh : NULL, sizeof(tlsh));
		td_pg_array_i32(&w->content[C_STATUS], (int32_t)d->tlsh_status);
		td_pg_array_i32(&w->content[C_KIND], (int32_t)d->sketch_kind);
		td_pg_array_bytes(&w->content[C_SKETCH],
				  d->sketch_kind == TD_SKETCH_NONE ? NULL : d->sketch ? (const void *)d->sketch : "",
				  d->sketch_len);
		td_pg_array_bytes(&w->content[C_GITOID], f->has_gitoid ? f->gitoid : NULL, TD_GITOID_BYTES);
		td_pg_array_bytes(&w->content[C_WS], d->has_sha256_ws ? d->sha256_ws : NULL, TD_SHA256_BYTES);
		if (d->has_ws_bytes)
			td_pg_array_i64(&w->content[C_WS_BYTES], (int64_t)d->ws_bytes);
		else
			td_pg_array_bytes(&w->content[C_WS_BYTES], NULL, 0); /* NULL */
		w->ncontent++;
	}
	if (b->failed)
		return oom(w, err);
	if (w->npaths == PG_WRITE_BATCH)
		return batch_flush(w, err);
	return TD_OK;
}

static int check_label(const pg_writer_t *w, const char *label, td_error_t *err)
{
	if (!label || !*label)
		return td_error_set(err, TD_EINVAL, "a version needs a label to be written to '%s'", w->shown);
	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return td_error_set(err, TD_EINVAL,
					    "a version label must be printable (no control characters) to be"
					    " written to '%s'", w->shown);
	return TD_OK;
}

/* One value of a one-row query on c, as text; NULL in *out when no row. */
static int query_one(pg_writer_t *w, PGconn *c, const char *sql, const char *param, char *out, size_t size,
		     td_error_t *err)
{
	const char *const params[1] = { param };
	PGresult *r = PQexecParams(c, sql, param ? 1 : 0, NULL, params, NULL, NULL, 0);
	int rc = TD_OK;

	out[0] = '\0';
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		rc = td_pg_fail(err, c, r, "write", w->shown);
	else if (PQntuples(r) && !PQgetisnull(r, 0, 0))
		snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return rc;
}

/* Hold the writers' lock, shared, to the commit: it waits while another
 * writer drops unreferenced rows. */
static int hold_writers_lock(pg_writer_t *w, td_error_t *err)
{
	int rc = TD_OK;

	if (!w->writing &&
	    !(rc = td_pg_exec(w->aux, "SELECT pg_advisory_lock_shared(" PG_WRITERS_KEY ", 0)", "lock", w->shown, err)))
		w->writing = 1;
	return rc;
}

/* Take the label's lock, held to the commit: TD_ELOCKED when another
 * writer holds it. */
static int hold_label(pg_writer_t *w, const char *label, td_error_t *err)
{
	char held[8];
	int rc;

	if ((rc = query_one(w, w->aux, "SELECT pg_try_advisory_lock(" PG_LOCK_KEY ", hashtext($1))", label, held,
			    sizeof(held), err)))
		return rc;
	return strcmp(held, "t") ? td_error_set(err, TD_ELOCKED, "version '%s' is being written to '%s' by another"
						" writer", label, w->shown)
				 : TD_OK;
}

/* Whether this writer is the only one holding the writers' lock: then it
 * holds it alone too, to the commit (*alone 1). */
static int writers_lock_alone(pg_writer_t *w, int *alone, td_error_t *err)
{
	char held[8];
	int rc = query_one(w, w->aux, "SELECT pg_try_advisory_lock(" PG_WRITERS_KEY ", 0)", NULL, held,
			   sizeof(held), err);

	*alone = !rc && !strcmp(held, "t");
	return rc;
}

/* The id of version label as the versions' transaction sees it (a version
 * this writer added and has not committed counts); "" when there is none. */
static int version_id(pg_writer_t *w, const char *label, char *id, size_t size, td_error_t *err)
{
	return query_one(w, w->tx, "SELECT id FROM version WHERE label = $1", label, id, size, err);
}

/* The versions' transaction, begun when it is not yet. */
static int begin_tx(pg_writer_t *w, td_error_t *err)
{
	int rc = TD_OK;

	if (!w->in_tx && !(rc = td_pg_exec(w->tx, "BEGIN", "write", w->shown, err)))
		w->in_tx = 1;
	return rc;
}

/* Start a version: the label's lock, then whether it is taken, then its id. */
static int add_begin(pg_writer_t *w, const char *label, int replace, td_error_t *err)
{
	char buf[32];
	int rc;

	if ((rc = check_label(w, label, err)))
		return rc;
	free(w->label);
	if (!(w->label = td_strndup(label, strlen(label))))
		return oom(w, err);
	w->replaced = 0;
	w->rows.len = 0;
	w->rows.failed = 0;
	w->nrows = 0;
	batch_start(w);
	if ((rc = hold_label(w, label, err)))
		return rc;
	w->adding = 1; /* from here on, add_end releases the lock */
	if ((rc = hold_writers_lock(w, err)))
		return rc;
	if ((rc = version_id(w, label, buf, sizeof(buf), err)))
		return rc;
	if (buf[0]) {
		if (!replace)
			return td_error_set(err, TD_EINVAL, "version '%s' already in '%s'", label, w->shown);
		w->replaced = 1;
	} else if ((rc = query_one(w, w->aux, "SELECT nextval(pg_get_serial_sequence('version', 'id'))", NULL,
				   buf, sizeof(buf), err))) {
		return rc;
	}
	w->vid = strtoll(buf, NULL, 10);
	return TD_OK;
}

static int copy_rows(pg_writer_t *w, td_error_t *err)
{
	static const uint8_t header[19] = { 'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0 };
	static const uint8_t trailer[2] = { 0xff, 0xff };
	PGresult *r = PQexec(w->tx, "COPY entry (version_id, path_id, type, mode, size, mtime_ns, ino, dev,"
			     " content_id, link_target, gitoid, skip_reason, skip_detail) FROM STDIN (FORMAT binary)");
	int ok;

	if (PQresultStatus(r) != PGRES_COPY_IN) {
		int rc = td_pg_fail(err, w->tx, r, "write", w->shown);
		PQclear(r);
		return rc;
	}
	PQclear(r);
	ok = PQputCopyData(w->tx, (const char *)header, sizeof(header)) == 1;
	for (size_t at = 0; ok && at < w->rows.len; at += PG_COPY_CHUNK) {
		size_t n = w->rows.len - at < PG_COPY_CHUNK ? w->rows.len - at : PG_COPY_CHUNK;
		ok = PQputCopyData(w->tx, (const char *)w->rows.p + at, (int)n) == 1;
	}
	if (ok)
		ok = PQputCopyData(w->tx, (const char *)trailer, sizeof(trailer)) == 1;
	if (PQputCopyEnd(w->tx, ok ? NULL : "treedrift stopped the copy") != 1)
		ok = 0;
	r = PQgetResult(w->tx);
	ok = ok && PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok) {
		int rc = td_pg_fail(err, w->tx, r, "write", w->shown);
		PQclear(r);
		while ((r = PQgetResult(w->tx)) != NULL)
			PQclear(r);
		return rc;
	}
	PQclear(r);
	while ((r = PQgetResult(w->tx)) != NULL)
		PQclear(r);
	return TD_OK;
}

/* The version row and its entries, in tx's transaction under a savepoint
 * of their own: a version that fails leaves the ones added before it. */
static int version_write(pg_writer_t *w, const td_tree_meta_t *m, uint64_t count, uint64_t total, td_error_t *err)
{
	char id[32], n[32], bytes[32];
	const char *params[8];
	int lengths[8] = { 0 }, formats[8] = { 0 };
	PGresult *r;
	int rc;

	snprintf(id, sizeof(id), "%lld", w->vid);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)count);
	snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)total);
	if ((rc = begin_tx(w, err)))
		return rc;
	if ((rc = td_pg_exec(w->tx, "SAVEPOINT td_version", "write", w->shown, err)))
		return rc;
	params[0] = id;
	params[1] = m->label;
	params[2] = m->root;
	lengths[2] = m->root ? (int)strlen(m->root) : 0;
	formats[2] = 1; /* bytea, as it is */
	params[3] = m->source_kind;
	params[4] = m->scanned_at;
	params[5] = m->tool_version;
	params[6] = n;
	params[7] = bytes;
	if (w->replaced) {
		char sql[64];
		snprintf(sql, sizeof(sql), "DELETE FROM entry WHERE version_id = %lld", w->vid);
		if ((rc = td_pg_exec(w->tx, sql, "write", w->shown, err)))
			goto out;
		r = PQexecParams(w->tx, "UPDATE version SET root = $3, source_kind = $4, scanned_at = $5,"
				 " tool_version = $6, file_count = $7, total_bytes = $8 WHERE id = $1 AND label = $2",
				 8, NULL, params, lengths, formats, 0);
	} else {
		r = PQexecParams(w->tx, "INSERT INTO version (id, label, root, source_kind, scanned_at, tool_version,"
				 " file_count, total_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
				 8, NULL, params, lengths, formats, 0);
	}
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		rc = td_pg_fail(err, w->tx, r, "write", w->shown);
	PQclear(r);
	if (!rc)
		rc = copy_rows(w, err);
	if (!rc && w->replaced)
		w->dropped = 1;
out:
	PQclear(PQexec(w->tx, rc ? "ROLLBACK TO SAVEPOINT td_version" : "RELEASE SAVEPOINT td_version"));
	return rc;
}

/* Finish a version: the last batch, then its rows; or, on error, drop it
 * and its label's lock. */
static int add_end(pg_writer_t *w, const td_tree_meta_t *m, uint64_t count, uint64_t total, int rc,
		   td_error_t *err)
{
	if (!w->adding)
		return rc;
	w->adding = 0;
	if (!rc)
		rc = batch_flush(w, err);
	if (!rc)
		rc = version_write(w, m, count, total, err);
	if (rc) {
		const char *const params[1] = { w->label };
		PQclear(PQexecParams(w->aux, "SELECT pg_advisory_unlock(" PG_LOCK_KEY ", hashtext($1))", 1, NULL,
				     params, NULL, NULL, 0));
	}
	w->rows.len = 0;
	return rc;
}

int td_pg_writer_add(td_db_writer_t *base, const td_tree_t *tree, int replace, td_error_t *err)
{
	pg_writer_t *w = (pg_writer_t *)base;
	int rc = add_begin(w, tree->meta.label, replace, err);

	for (size_t i = 0; i < tree->count && !rc; i++)
		rc = put_file(w, &tree->files[i], err);
	return add_end(w, &tree->meta, tree->count, td_db_tree_bytes(tree), rc, err);
}

static int scan_begin(void *ctx, const td_tree_meta_t *meta, td_error_t *err)
{
	pg_writer_t *w = ctx;

	return add_begin(w, meta->label, w->replace, err);
}

static int scan_put(void *ctx, const td_file_t *f, td_error_t *err)
{
	return put_file(ctx, f, err);
}

int td_pg_writer_add_scan(td_db_writer_t *base, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err)
{
	pg_writer_t *w = (pg_writer_t *)base;
	td_entry_sink_t sink = { scan_begin, scan_put, NULL, w };
	td_tree_t *tree = NULL;
	int rc;

	*out = NULL;
	w->replace = replace; /* for scan_begin */
	rc = td_scan_sink(&tree, src, label, opts, stats, &sink, err);
	if (w->adding) {
		if (rc)
			add_end(w, NULL, 0, 0, rc, err);
		else
			rc = add_end(w, &tree->meta, tree->count, td_db_tree_bytes(tree), rc, err);
	}
	if (rc) {
		td_tree_free(tree);
		return rc;
	}
	*out = tree;
	return TD_OK;
}

int td_pg_writer_delete(td_db_writer_t *base, const char *label, td_error_t *err)
{
	pg_writer_t *w = (pg_writer_t *)base;
	char id[32], sql[192];
	int rc;

	if (!label)
		return td_error_set(err, TD_EINVAL, "which version of '%s' to delete?", w->shown);
	if ((rc = hold_label(w, label, err)) || (rc = hold_writers_lock(w, err)) || (rc = begin_tx(w, err)))
		return rc;
	if ((rc = version_id(w, label, id, sizeof(id), err)))
		return rc;
	if (!id[0])
		return td_error_set(err, TD_ENOTFOUND, "no version '%s' in '%s'", label, w->shown);
	/* under a savepoint, as a version added: a failure leaves the others */
	snprintf(sql, sizeof(sql), "SAVEPOINT td_version; DELETE FROM entry WHERE version_id = %s;"
		 " DELETE FROM version WHERE id = %s", id, id);
	rc = td_pg_exec(w->tx, sql, "write", w->shown, err);
	PQclear(PQexec(w->tx, rc ? "ROLLBACK TO SAVEPOINT td_version" : "RELEASE SAVEPOINT td_version"));
	if (!rc)
		w->dropped = 1;
	return rc;
}

int td_pg_writer_prune(td_db_writer_t *base, td_error_t *err)
{
	pg_writer_t *w = (pg_writer_t *)base;
	int rc, alone;

	if ((rc = hold_writers_lock(w, err)) || (rc = begin_tx(w, err)) || (rc = writers_lock_alone(w, &alone, err)))
		return rc;
	if (!alone)
		return td_error_set(err, TD_ELOCKED, "'%s' is being written by other writers: what no version"
				    " refers to may be about to be; try again when they are done", w->shown);
	/* held alone to the commit: drop_unreferenced takes it again */
	w->dropped = 1;
	return TD_OK;
}

/* Before the commit of a replace or a delete: the content and paths no
 * version refers to, dropped in the same transaction when no other writer
 * holds the writers' lock (this one's shared hold does not stand in its
 * way). */
static int drop_unreferenced(pg_writer_t *w, td_error_t *err)
{
	int rc, alone;

	if (!w->dropped)
		return TD_OK;
	if ((rc = writers_lock_alone(w, &alone, err)) || !alone)
		return rc;
	return td_pg_exec(w->tx, "DELETE FROM content c WHERE NOT EXISTS (SELECT 1 FROM entry e WHERE"
			  " e.content_id = c.id); DELETE FROM path p WHERE NOT EXISTS (SELECT 1 FROM entry e"
			  " WHERE e.path_id = p.id)", "write", w->shown, err);
}

int td_pg_writer_commit(td_db_writer_t *base, td_error_t *err)
{
	pg_writer_t *w = (pg_writer_t *)base;
	char sql[256];
	int rc = TD_OK;

	if (w->in_tx) {
		snprintf(sql, sizeof(sql), "INSERT INTO meta (key, value) VALUES ('modified_by', 'treedrift %s'),"
			 " ('modified_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))"
			 " ON CONFLICT (key) DO UPDATE SET value = excluded.value", td_version());
		rc = td_pg_exec(w->tx, sql, "write", w->shown, err);
		if (!rc)
			rc = drop_unreferenced(w, err);
		if (!rc)
			rc = td_pg_exec(w->tx, "COMMIT", "commit", w->shown, err);
		else
			PQclear(PQexec(w->tx, "ROLLBACK"));
		w->in_tx = 0;
	}
	PQclear(PQexec(w->aux, "SELECT pg_advisory_unlock_all()"));
	w->writing = w->dropped = 0;
	return rc;
}
