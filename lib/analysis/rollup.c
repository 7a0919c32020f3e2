/* Rollups: every change gives one or more (key, change) pairs; sorting the
 * pairs by key groups them, each group becomes a row. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "treedrift/policy.h"
#include "treedrift/rollup.h"

struct key_ref {
	const char *key;     /* borrowed from the result (or static) */
	size_t len;
	size_t change;       /* index into r->changes */
};

struct refs {
	struct key_ref *v;
	size_t count;
	size_t cap;
};

void td_rollup_free(td_rollup_t *ru)
{
	if (!ru)
		return;
	for (size_t i = 0; i < ru->count; i++)
		free(ru->rows[i].key);
	free(ru->rows);
	free(ru);
}

static int emit(struct refs *rs, const char *key, size_t len, size_t change)
{
	if (td_grow((void **)&rs->v, &rs->cap, rs->count + 1, sizeof(*rs->v)))
		return TD_ENOMEM;
	rs->v[rs->count].key = key;
	rs->v[rs->count].len = len;
	rs->v[rs->count].change = change;
	rs->count++;
	return TD_OK;
}

/* The path a change is filed under: the target's, or upstream's when removed. */
static const td_file_t *change_file(const td_change_t *c)
{
	return c->target ? c->target : c->upstream;
}

static int cmp_keys(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int cmp_refs(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;

	return cmp_keys(a->key, a->len, b->key, b->len);
}

static int cmp_rows(const void *pa, const void *pb)
{
	const td_rollup_row_t *a = pa, *b = pb;

	if (a->distance != b->distance)
		return a->distance > b->distance ? -1 : 1;
	return cmp_keys(a->key, a->key_len, b->key, b->key_len);
}

static void add_change(td_rollup_row_t *row, const td_change_t *c)
{
	if ((unsigned)c->status < sizeof(row->by_status) / sizeof(row->by_status[0]))
		row->by_status[c->status]++;
	if (c->cls != TD_CLASS_NONE && (unsigned)c->cls < sizeof(row->by_class) / sizeof(row->by_class[0]))
		row->by_class[c->cls]++;
	if ((c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED) && c->distance > 0)
		row->distance += (uint64_t)c->distance;
	row->risk += c->risk;
}

static int mismatched(const td_rollup_row_t *row)
{
	return row->by_status[TD_STATUS_MODIFIED] || row->by_status[TD_STATUS_ADDED] ||
	       row->by_status[TD_STATUS_REMOVED];
}

/* Group the pairs into rows; takes the pairs' array. */
static int build_rows(td_rollup_t **out, const td_result_t *r, struct refs *rs, td_error_t *err)
{
	td_rollup_t *ru = NULL;
	size_t groups = 0;
	int rc = TD_ENOMEM;

	if (rs->count) /* v is NULL for an empty result */
		qsort(rs->v, rs->count, sizeof(*rs->v), cmp_refs);
	for (size_t i = 0; i < rs->count; i++)
		if (!i || cmp_refs(&rs->v[i - 1], &rs->v[i]))
			groups++;
	if (!(ru = calloc(1, sizeof(*ru))) || !(ru->rows = td_malloc_array(groups, sizeof(*ru->rows))))
		goto out;
	for (size_t i = 0; i < rs->count;) {
		td_rollup_row_t row;
		size_t j = i;

		memset(&row, 0, sizeof(row));
		for (; j < rs->count && !cmp_refs(&rs->v[i], &rs->v[j]); j++)
			add_change(&row, &r->changes[rs->v[j].change]);
		if (mismatched(&row)) {
			if (!(row.key = td_strndup(rs->v[i].key, rs->v[i].len)))
				goto out;
			row.key_len = rs->v[i].len;
			ru->rows[ru->count++] = row;
		}
		i = j;
	}
	qsort(ru->rows, ru->count, sizeof(*ru->rows), cmp_rows);
	*out = ru;
	ru = NULL;
	rc = TD_OK;
out:
	td_rollup_free(ru);
	free(rs->v);
	rs->v = NULL;
	if (rc)
		td_error_set(err, rc, "out of memory");
	return rc;
}

static int check_result(const td_result_t *r, td_error_t *err)
{
	if (!r || (r->count && !r->changes))
		return td_error_set(err, TD_EINVAL, "no result to roll up");
	for (size_t i = 0; i < r->count; i++)
		if (!change_file(&r->changes[i]))
			return td_error_set(err, TD_EINVAL, "change %zu has neither side", i);
	return TD_OK;
}

int td_rollup_by_dir(td_rollup_t **out, const td_result_t *r, unsigned depth, unsigned flags,
		     td_error_t *err)
{
	struct refs rs = { 0 };
	int rc;

	*out = NULL;
	if (!depth)
		return td_error_set(err, TD_EINVAL, "rollup depth must be at least 1");
	if ((rc = check_result(r, err)))
		return rc;
	for (size_t i = 0; i < r->count; i++) {
		const td_file_t *f = change_file(&r->changes[i]);
		size_t dirs = 0, seen = 0;

		/* dirs: how many directories deep the file's row is */
		for (size_t k = 0; k < f->path_len && dirs < depth; k++)
			dirs += f->path[k] == '/';
		if (!dirs && (rc = emit(&rs, TD_ROLLUP_TOP, 1, i)))
			goto fail;
		for (size_t k = 0; k < f->path_len && seen < dirs; k++) {
			if (f->path[k] != '/')
				continue;
			seen++;
			if ((seen == dirs || (flags & TD_ROLLUP_CUMULATIVE)) && (rc = emit(&rs, f->path, k, i)))
				goto fail;
		}
	}
	return build_rows(out, r, &rs, err);
fail:
	free(rs.v);
	return td_error_set(err, rc, "out of memory");
}

/* The one key of a change, for rollups that have one per change. */
typedef const char *(*key_of_fn)(const td_change_t *c, const void *ctx);

static int rollup_by_key(td_rollup_t **out, const td_result_t *r, key_of_fn key_of, const void *ctx,
			 td_error_t *err)
{
	struct refs rs = { 0 };
	int rc;

	*out = NULL;
	if ((rc = check_result(r, err)))
		return rc;
	for (size_t i = 0; i < r->count; i++) {
		const char *key = key_of(&r->changes[i], ctx);

		if ((rc = emit(&rs, key, strlen(key), i))) {
			free(rs.v);
			return td_error_set(err, rc, "out of memory");
		}
	}
	return build_rows(out, r, &rs, err);
}

static const char *class_of(const td_change_t *c, const void *ctx)
{
	(void)ctx;
	return c->policy_class ? c->policy_class : TD_POLICY_OTHER;
}

int td_rollup_by_class(td_rollup_t **out, const td_result_t *r, td_error_t *err)
{
	return rollup_by_key(out, r, class_of, NULL, err);
}

static const char *subsystem_of(const td_change_t *c, const void *ctx)
{
	const td_file_t *f = change_file(c);
	const char *name = td_maintainers_lookup(ctx, f->path, f->path_len);

	return name ? name : TD_ROLLUP_NO_SUBSYSTEM;
}

int td_rollup_by_subsystem(td_rollup_t **out, const td_result_t *r, const td_maintainers_t *m,
			   td_error_t *err)
{
	if (!m) {
		*out = NULL;
		return td_error_set(err, TD_EINVAL, "no MAINTAINERS to roll up by");
	}
	return rollup_by_key(out, r, subsystem_of, m, err);
}
