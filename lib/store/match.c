/* Matching a tree against every version of a database at once: which
 * versions hold each file exactly, at the same path. */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "internal.h"

static int version_ids(td_db_t *db, int64_t **out, size_t *count, td_error_t *err)
{
	sqlite3_stmt *st = NULL;
	int64_t *ids = NULL;
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
	rc = td_sql_error(err, db->db, rc, "read", db->path);
	sqlite3_finalize(st);
	free(ids);
	return rc;
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

int td_sq_match(td_db_t *db, const td_tree_t *tree, td_db_matches_t **out, td_error_t *err)
{
	sqlite3_stmt *by_content = NULL, *by_link = NULL;
	int64_t *ids = NULL;
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
		rc = td_sql_error(err, db->db, rc, "read", db->path);
		goto out;
	}
	for (size_t i = 0; i < tree->count; i++) {
		const td_file_t *f = &tree->files[i];
		sqlite3_stmt *st = NULL;

		m->start[i] = hits;
		if (f->has_digest) {
			st = by_content;
			rc = td_db_bind_bytes(st, 1, f->path, f->path_len);
			if (rc == SQLITE_OK)
				rc = sqlite3_bind_blob(st, 2, f->digest.sha256, TD_SHA256_BYTES, SQLITE_STATIC);
		} else if ((f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK) && f->link_target) {
			st = by_link;
			rc = td_db_bind_bytes(st, 1, f->path, f->path_len);
			if (rc == SQLITE_OK)
				rc = sqlite3_bind_int(st, 2, (int)f->type);
			if (rc == SQLITE_OK)
				rc = td_db_bind_bytes(st, 3, f->link_target, f->link_len);
		}
		if (!st)
			continue;
		while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			long v = td_db_version_index(ids, nids, sqlite3_column_int64(st, 0));
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
			rc = td_sql_error(err, db->db, rc, "read", db->path);
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
