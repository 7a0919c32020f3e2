/* Reading a PostgreSQL database: versions, a version loaded as a tree, and
 * a tree matched against every version. Each call reads in one read-only
 * REPEATABLE READ transaction, so it sees each version whole (committed
 * before it began) or not at all, and blocks no writer. */
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "pg_impl.h"
#include "internal.h"

/* Files per round trip when matching. */
#define PG_MATCH_BATCH 8192

static int read_begin(td_db_t *db, td_error_t *err)
{
	return td_pg_exec(db->pg, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "read", db->path, err);
}

static void read_end(td_db_t *db)
{
	PQclear(PQexec(db->pg, "COMMIT"));
}

/* A query with binary parameters (arrays, bytea) and binary results. */
static PGresult *query(td_db_t *db, const char *sql, int n, const td_pg_buf_t *const *bufs,
		       const char *const *text)
{
	const char *values[8];
	int lengths[8], formats[8];

	for (int i = 0; i < n && i < 8; i++) {
		values[i] = bufs && bufs[i] ? (const char *)bufs[i]->p : text[i];
		lengths[i] = bufs && bufs[i] ? (int)bufs[i]->len : 0;
		formats[i] = bufs && bufs[i] ? 1 : 0;
	}
	return PQexecParams(db->pg, sql, n, NULL, values, lengths, formats, 1);
}

/* A nullable bytea or text value as a NUL-terminated copy (NULL stays
 * NULL); *len its size. */
static int value_copy(char **field, size_t *len, const PGresult *r, int row, int col)
{
	size_t n;

	*field = NULL;
	if (len)
		*len = 0;
	if (PQgetisnull(r, row, col))
		return TD_OK;
	n = (size_t)PQgetlength(r, row, col);
	if (!(*field = td_strndup(PQgetvalue(r, row, col), n)))
		return TD_ENOMEM;
	if (len)
		*len = n;
	return TD_OK;
}

/* A fixed-size bytea: 1 when present with exactly len bytes, 0 when NULL,
 * -1 otherwise. */
static int value_fixed(uint8_t *out, size_t len, const PGresult *r, int row, int col)
{
	if (PQgetisnull(r, row, col))
		return 0;
	if ((size_t)PQgetlength(r, row, col) != len)
		return -1;
	memcpy(out, PQgetvalue(r, row, col), len);
	return 1;
}

#define VERSION_COLUMNS "id, label, root, source_kind, scanned_at, tool_version, file_count, total_bytes"

static int meta_from_row(td_tree_meta_t *m, const PGresult *r, int row)
{
	if (value_copy(&m->label, NULL, r, row, 1) || value_copy(&m->root, NULL, r, row, 2) ||
	    value_copy(&m->source_kind, NULL, r, row, 3) || value_copy(&m->scanned_at, NULL, r, row, 4) ||
	    value_copy(&m->tool_version, NULL, r, row, 5)) {
		td_tree_meta_release(m);
		return TD_ENOMEM;
	}
	return TD_OK;
}

int td_pg_versions(td_db_t *db, td_version_t **out, size_t *count, td_error_t *err)
{
	PGresult *r = NULL;
	td_version_t *v = NULL;
	size_t n = 0;
	int rc, rows;

	*out = NULL;
	*count = 0;
	if ((rc = read_begin(db, err)))
		return rc;
	r = query(db, "SELECT " VERSION_COLUMNS " FROM version ORDER BY id", 0, NULL, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = td_pg_fail(err, db->pg, r, "read", db->path);
		goto out;
	}
	rows = PQntuples(r);
	if (rows && !(v = calloc((size_t)rows, sizeof(*v)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
		goto out;
	}
	for (; n < (size_t)rows; n++) {
		if (meta_from_row(&v[n].meta, r, (int)n)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
			goto out;
		}
		v[n].file_count = (uint64_t)td_pg_i64(r, (int)n, 6);
		v[n].total_bytes = (uint64_t)td_pg_i64(r, (int)n, 7);
	}
	rc = TD_OK;
out:
	PQclear(r);
	read_end(db);
	if (rc) {
		td_versions_free(v, n);
		return rc;
	}
	*out = v;
	*count = n;
	return TD_OK;
}

static const char *const load_sql[TD_DB_SCHEMA_VERSION] = { /* by schema */
	TD_DB_LOAD_SQL("NULL::bytea, NULL::bigint", "JOIN", "$1::bigint"),
	TD_DB_LOAD_SQL("c.sha256_ws, NULL::bigint", "JOIN", "$1::bigint"),
	TD_DB_LOAD_SQL("c.sha256_ws, c.ws_bytes", "JOIN", "$1::bigint"),
};

/* The content half of a row. 0, TD_ENOMEM, or 1 when a value is malformed. */
static int content_from_row(td_digest_t *d, const PGresult *r, int row)
{
	uint8_t tlsh[TD_DB_TLSH_BYTES];
	int32_t status = td_pg_i32(r, row, LOAD_TLSH_STATUS), kind = td_pg_i32(r, row, LOAD_SKETCH_KIND);
	int has_tlsh;
	char *sketch;
	size_t len;

	if (value_fixed(d->sha256, TD_SHA256_BYTES, r, row, LOAD_SHA256) != 1)
		return 1;
	if (status < TD_TLSH_OK || status > TD_TLSH_TOO_UNIFORM || kind < TD_SKETCH_NONE || kind > TD_SKETCH_HIST)
		return 1;
	d->size_bytes = (uint64_t)td_pg_i64(r, row, LOAD_CSIZE);
	d->tlsh_status = (td_tlsh_status_t)status;
	has_tlsh = value_fixed(tlsh, sizeof(tlsh), r, row, LOAD_TLSH);
	if (has_tlsh < 0 || (has_tlsh == 1) != (status == TD_TLSH_OK))
		return 1;
	if (has_tlsh)
		td_db_tlsh_unpack(&d->tlsh, tlsh);
	d->has_sha256_ws = value_fixed(d->sha256_ws, TD_SHA256_BYTES, r, row, LOAD_SHA256_WS);
	if (d->has_sha256_ws < 0)
		return 1;
	if ((d->has_ws_bytes = !PQgetisnull(r, row, LOAD_WS_BYTES))) {
		int64_t n = td_pg_i64(r, row, LOAD_WS_BYTES);
		if (PQgetlength(r, row, LOAD_WS_BYTES) != 8 || n < 0)
			return 1;
		d->ws_bytes = (uint64_t)n;
	}
	d->sketch_kind = (td_sketch_kind_t)kind;
	if (value_copy(&sketch, &len, r, row, LOAD_SKETCH))
		return TD_ENOMEM;
	d->sketch = (uint8_t *)sketch;
	d->sketch_len = len;
	if ((kind == TD_SKETCH_NONE) != (sketch == NULL))
		return 1;
	if ((kind == TD_SKETCH_RAW && len > TD_SKETCH_RAW_MAX_BYTES) ||
	    (kind == TD_SKETCH_HIST && len != TD_SKETCH_HIST_BYTES))
		return 1;
	return TD_OK;
}

/* Fill f from a row of load_sql. 0, TD_ENOMEM, or 1 when malformed. */
static int file_from_row(td_file_t *f, const PGresult *r, int row)
{
	int32_t type = td_pg_i32(r, row, LOAD_TYPE);
	int rc, g;

	memset(f, 0, sizeof(*f));
	if (type < TD_ENTRY_FILE || type > TD_ENTRY_SKIPPED)
		return 1;
	f->type = (td_entry_type_t)type;
	f->mode = (uint32_t)td_pg_i64(r, row, LOAD_MODE);
	f->size_bytes = (uint64_t)td_pg_i64(r, row, LOAD_SIZE);
	f->mtime_ns = td_pg_i64(r, row, LOAD_MTIME);
	f->ino = (uint64_t)td_pg_i64(r, row, LOAD_INO);
	f->dev = (uint64_t)td_pg_i64(r, row, LOAD_DEV);
	if (value_copy(&f->path, &f->path_len, r, row, LOAD_PATH) ||
	    value_copy(&f->link_target, &f->link_len, r, row, LOAD_LINK) ||
	    value_copy(&f->skip_detail, NULL, r, row, LOAD_SKIP_DETAIL))
		return TD_ENOMEM;
	if (!f->path || !f->path_len)
		return 1;
	if (!PQgetisnull(r, row, LOAD_SKIP_REASON))
		f->skip_reason = td_db_skip_reason_static(PQgetvalue(r, row, LOAD_SKIP_REASON),
							  PQgetlength(r, row, LOAD_SKIP_REASON));
	if (!PQgetisnull(r, row, LOAD_CONTENT_ID)) {
		f->has_digest = 1;
		if ((rc = content_from_row(&f->digest, r, row)) != TD_OK)
			return rc;
	}
	g = value_fixed(f->gitoid, TD_GITOID_BYTES, r, row, LOAD_GITOID);
	if (!g && f->has_digest)
		g = value_fixed(f->gitoid, TD_GITOID_BYTES, r, row, LOAD_CGITOID);
	if (g < 0)
		return 1;
	f->has_gitoid = g;
	return TD_OK;
}

/* The version row a label names (NULL: the newest). */
static int find_version(td_db_t *db, const char *label, char id[32], uint64_t *file_count,
			td_tree_meta_t *meta, td_error_t *err)
{
	const char *const params[1] = { label };
	PGresult *r = label ? query(db, "SELECT " VERSION_COLUMNS " FROM version WHERE label = $1", 1, NULL, params)
			    : query(db, "SELECT " VERSION_COLUMNS " FROM version ORDER BY id DESC LIMIT 1", 0, NULL,
				    NULL);
	int rc = TD_OK;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		rc = td_pg_fail(err, db->pg, r, "read", db->path);
	else if (!PQntuples(r))
		rc = label ? td_error_set(err, TD_ENOTFOUND, "no version '%s' in '%s'", label, db->path)
			   : td_error_set(err, TD_ENOTFOUND, "'%s' holds no versions", db->path);
	else {
		snprintf(id, 32, "%lld", (long long)td_pg_i64(r, 0, 0));
		*file_count = (uint64_t)td_pg_i64(r, 0, 6);
		if (meta_from_row(meta, r, 0))
			rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", db->path);
	}
	PQclear(r);
	return rc;
}

/* Append the files of r's rows (load_sql's columns) to t; label names the
 * version in the message about a malformed row (NULL: none). */
static int append_rows(td_tree_t *t, td_db_t *db, const PGresult *r, const char *label, td_error_t *err)
{
	td_file_t f;
	int rc = TD_OK, rows = PQntuples(r);

	memset(&f, 0, sizeof(f));
	for (int i = 0; i < rows && rc == TD_OK; i++) {
		rc = file_from_row(&f, r, i);
		if (rc == TD_OK)
			rc = td_tree_append(t, &f);
		if (rc == TD_ENOMEM)
			td_error_set(err, rc, "out of memory loading '%s'", db->path);
		else if (rc && label)
			rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: malformed entry in version '%s'",
					  db->path, label);
		else if (rc)
			rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: malformed entry", db->path);
	}
	td_file_release(&f);
	return rc;
}

int td_pg_load(td_db_t *db, const char *label, td_tree_t **out, td_error_t *err)
{
	PGresult *r = NULL;
	td_tree_t *t = NULL;
	uint64_t file_count = 0;
	char vid[32];
	const char *params[1] = { vid };
	int rc;

	*out = NULL;
	if ((rc = td_tree_new(&t)) != TD_OK)
		return td_error_set(err, rc, "out of memory loading '%s'", db->path);
	if ((rc = read_begin(db, err))) {
		td_tree_free(t);
		return rc;
	}
	if ((rc = find_version(db, label, vid, &file_count, &t->meta, err)) != TD_OK)
		goto out;
	if ((rc = td_db_load_reserve(t, db->path, file_count, err)))
		goto out;
	r = query(db, load_sql[td_db_schema_index(db)], 1, NULL, params);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = td_pg_fail(err, db->pg, r, "read", db->path);
		goto out;
	}
	if ((rc = append_rows(t, db, r, t->meta.label, err)))
		goto out;
	if (td_tree_sort(t)) {
		rc = td_error_set(err, TD_EFORMAT, "'%s' is corrupt: duplicate path in version '%s'",
				  db->path, t->meta.label);
		goto out;
	}
	rc = TD_OK;
out:
	PQclear(r);
	read_end(db);
	if (rc) {
		td_tree_free(t);
		return rc;
	}
	*out = t;
	return TD_OK;
}

/* The files of every version for scan --reuse, as the SQLite backend gives
 * them (read.c): one row per path, content and stat, in path order. */
#define REUSE_SQL(ws)                                                                                  \
	"SELECT p.path, e.type, e.mode, e.size, e.mtime_ns, e.ino, e.dev, NULL::bytea, NULL::bytea,"   \
	" NULL::text, NULL::bytea, e.content_id, c.sha256, c.size, c.tlsh, c.tlsh_status, c.sketch_kind," \
	" c.sketch, c.gitoid, " ws " FROM (SELECT DISTINCT path_id, content_id, type, mode, size, mtime_ns," \
	" ino, dev FROM entry WHERE type = 1 AND content_id IS NOT NULL) e"                               \
	" JOIN path p ON p.id = e.path_id JOIN content c ON c.id = e.content_id ORDER BY p.path"
static const char *const reuse_sql[TD_DB_SCHEMA_VERSION] = { /* by schema */
	REUSE_SQL("NULL::bytea, NULL::bigint"),
	REUSE_SQL("c.sha256_ws, NULL::bigint"),
	REUSE_SQL("c.sha256_ws, c.ws_bytes"),
};

int td_pg_load_reuse(td_db_t *db, td_tree_t **out, td_error_t *err)
{
	PGresult *r = NULL;
	td_tree_t *t = NULL;
	int rc;

	*out = NULL;
	if ((rc = td_tree_new(&t)) != TD_OK || td_meta_set(&t->meta.database, db->path)) {
		td_tree_free(t);
		return td_error_set(err, TD_ENOMEM, "out of memory loading '%s'", db->path);
	}
	if ((rc = read_begin(db, err))) {
		td_tree_free(t);
		return rc;
	}
	r = query(db, reuse_sql[td_db_schema_index(db)], 0, NULL, NULL);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = td_pg_fail(err, db->pg, r, "read", db->path);
		goto out;
	}
	rc = append_rows(t, db, r, NULL, err);
out:
	PQclear(r);
	read_end(db);
	if (rc) {
		td_tree_free(t);
		return rc;
	}
	*out = t;
	return TD_OK;
}

/* ---- matching ---- */

/* Both join the batch (unnest of arrays, with each file's place in it) to
 * path by its unique index, and yield per file the ascending ids of the
 * versions that hold it, from entry_path (path_id, content_id,
 * version_id): one index range per file, and one row per file however
 * many versions hold it. */
static const char match_content_sql[] =
	"SELECT t.i::int4, a.v FROM unnest($1::bytea[], $2::bytea[], $3::int4[]) AS t(path, sha, i)"
	" JOIN path p ON p.path = t.path JOIN content c ON c.sha256 = t.sha"
	" CROSS JOIN LATERAL (SELECT array_agg(e.version_id ORDER BY e.version_id) AS v FROM entry e"
	" WHERE e.path_id = p.id AND e.content_id = c.id) a WHERE a.v IS NOT NULL";
static const char match_link_sql[] =
	"SELECT t.i::int4, a.v FROM unnest($1::bytea[], $2::int4[], $3::bytea[], $4::int4[])"
	" AS t(path, type, link, i) JOIN path p ON p.path = t.path"
	" CROSS JOIN LATERAL (SELECT array_agg(e.version_id ORDER BY e.version_id) AS v FROM entry e"
	" WHERE e.path_id = p.id AND e.content_id IS NULL AND e.type = t.type AND e.link_target = t.link) a"
	" WHERE a.v IS NOT NULL";

/* The versions of each file as the rows come: file i's are
 * pool[at[i]] .. pool[at[i] + count[i] - 1] (a file is a regular file or
 * a link, so it has one row at most). */
typedef struct match_ctx {
	td_db_t *db;
	const int64_t *ids;
	size_t nids;
	size_t *at;
	uint32_t *count;
	uint32_t *pool;
	size_t npool, cap;
} match_ctx_t;

static int run_batch(match_ctx_t *mc, const char *sql, int nparams, const td_pg_buf_t *const *bufs,
		     size_t base, size_t end, td_error_t *err)
{
	PGresult *r = query(mc->db, sql, nparams, bufs, NULL);
	int rc = TD_OK, rows;

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = td_pg_fail(err, mc->db->pg, r, "read", mc->db->path);
		goto out;
	}
	rows = PQntuples(r);
	for (int i = 0; i < rows; i++) {
		size_t file = base + (size_t)td_pg_i32(r, i, 0), n;
		const uint8_t *elems;
		void *p = mc->pool;

		if (file >= end || mc->count[file] || td_pg_i64_array(r, i, 1, &elems, &n)) {
			rc = td_error_set(err, TD_EFORMAT, "unexpected match row from '%s'", mc->db->path);
			goto out;
		}
		if (n > SIZE_MAX - mc->npool || td_grow(&p, &mc->cap, mc->npool + n, sizeof(*mc->pool))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", mc->db->path);
			goto out;
		}
		mc->pool = p;
		mc->at[file] = mc->npool;
		for (size_t k = 0; k < n; k++) {
			long v = td_db_version_index(mc->ids, mc->nids, td_pg_i64_at(elems, k));
			if (v >= 0) /* else committed after this read began */
				mc->pool[mc->npool + mc->count[file]++] = (uint32_t)v;
		}
		mc->npool += mc->count[file];
	}
out:
	PQclear(r);
	return rc;
}

static int version_ids(td_db_t *db, int64_t **out, size_t *count, td_error_t *err)
{
	PGresult *r = query(db, "SELECT id FROM version ORDER BY id", 0, NULL, NULL);
	int64_t *ids = NULL;
	int rows, rc = TD_OK;

	*out = NULL;
	*count = 0;
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc = td_pg_fail(err, db->pg, r, "read", db->path);
		goto out;
	}
	rows = PQntuples(r);
	if (!(ids = td_malloc_array(rows ? (size_t)rows : 1, sizeof(*ids)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
		goto out;
	}
	for (int i = 0; i < rows; i++)
		ids[i] = td_pg_i64(r, i, 0);
	*out = ids;
	*count = (size_t)rows;
out:
	PQclear(r);
	return rc;
}

int td_pg_match(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err)
{
	match_ctx_t mc = { .db = db };
	td_pg_buf_t cp = { 0 }, cs = { 0 }, ci = { 0 }, lp = { 0 }, lt = { 0 }, ll = { 0 }, li = { 0 };
	const td_pg_buf_t *cargs[3] = { &cp, &cs, &ci }, *largs[4] = { &lp, &lt, &ll, &li };
	int64_t *ids = NULL;
	td_db_matches_t *m;
	size_t h = 0;
	int rc;

	*out = NULL;
	if (!(m = calloc(1, sizeof(*m))))
		return td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
	if ((rc = read_begin(db, err))) {
		free(m);
		return rc;
	}
	if ((rc = version_ids(db, &ids, &mc.nids, err)))
		goto out;
	mc.ids = ids;
	m->version_count = mc.nids;
	m->file_count = tree->count;
	m->identical = calloc(mc.nids ? mc.nids : 1, sizeof(*m->identical));
	m->start = td_malloc_array(tree->count + 1, sizeof(*m->start));
	mc.at = td_malloc_array(tree->count + 1, sizeof(*mc.at));
	mc.count = calloc(tree->count + 1, sizeof(*mc.count));
	if (!m->identical || !m->start || !mc.at || !mc.count || tree->count == SIZE_MAX) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
		goto out;
	}
	for (size_t base = 0; base < tree->count && mc.nids; base += PG_MATCH_BATCH) {
		size_t end = tree->count - base < PG_MATCH_BATCH ? tree->count : base + PG_MATCH_BATCH;
		uint32_t nc = 0, nl = 0;

		td_pg_array_start(&cp, TD_PG_OID_BYTEA);
		td_pg_array_start(&cs, TD_PG_OID_BYTEA);
		td_pg_array_start(&ci, TD_PG_OID_INT4);
		td_pg_array_start(&lp, TD_PG_OID_BYTEA);
		td_pg_array_start(&lt, TD_PG_OID_INT4);
		td_pg_array_start(&ll, TD_PG_OID_BYTEA);
		td_pg_array_start(&li, TD_PG_OID_INT4);
		for (size_t i = base; i < end; i++) {
			const td_file_t *f = &tree->files[i];
			if (f->has_digest) {
				td_pg_array_bytes(&cp, f->path, f->path_len);
				td_pg_array_bytes(&cs, f->digest.sha256, TD_SHA256_BYTES);
				td_pg_array_i32(&ci, (int32_t)(i - base));
				nc++;
			} else if ((f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK) && f->link_target) {
				td_pg_array_bytes(&lp, f->path, f->path_len);
				td_pg_array_i32(&lt, (int32_t)f->type);
				td_pg_array_bytes(&ll, f->link_target, f->link_len);
				td_pg_array_i32(&li, (int32_t)(i - base));
				nl++;
			}
		}
		td_pg_array_finish(&cp, nc);
		td_pg_array_finish(&cs, nc);
		td_pg_array_finish(&ci, nc);
		td_pg_array_finish(&lp, nl);
		td_pg_array_finish(&lt, nl);
		td_pg_array_finish(&ll, nl);
		td_pg_array_finish(&li, nl);
		if (cp.failed || cs.failed || ci.failed || lp.failed || lt.failed || ll.failed || li.failed) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
			goto out;
		}
		if (nc && (rc = run_batch(&mc, match_content_sql, 3, cargs, base, end, err)))
			goto out;
		if (nl && (rc = run_batch(&mc, match_link_sql, 4, largs, base, end, err)))
			goto out;
	}
	/* By file, each file's versions ascending (as the ids are), as the
	 * SQLite backend gives them. */
	if (mc.npool && !(m->version = td_malloc_array(mc.npool, sizeof(*m->version)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory matching against '%s'", db->path);
		goto out;
	}
	for (size_t i = 0; i < tree->count; i++) {
		m->start[i] = h;
		for (uint32_t k = 0; k < mc.count[i]; k++) {
			m->version[h++] = mc.pool[mc.at[i] + k];
			m->identical[mc.pool[mc.at[i] + k]]++;
		}
	}
	m->start[tree->count] = h;
	rc = TD_OK;
out:
	read_end(db);
	td_pg_buf_release(&cp);
	td_pg_buf_release(&cs);
	td_pg_buf_release(&ci);
	td_pg_buf_release(&lp);
	td_pg_buf_release(&lt);
	td_pg_buf_release(&ll);
	td_pg_buf_release(&li);
	free(mc.pool);
	free(mc.at);
	free(mc.count);
	free(ids);
	if (rc) {
		td_db_matches_free(m);
		return rc;
	}
	*out = m;
	return TD_OK;
}
