/* Base-version detection: identical counts from one td_db_match call, then
 * the distances of the leading versions, each loaded in turn. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/base.h"
#include "treedrift/compare.h"
#include "treedrift/origin.h"
#include "internal.h"

#define DEFAULT_SCORE_TOP 3

void td_base_opts_init(td_base_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->score_top = DEFAULT_SCORE_TOP;
	o->len_diff = 1;
	o->added_distance = TD_DEFAULT_ADDED_DISTANCE;
}

void td_base_result_free(td_base_result_t *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++)
		free(r->candidates[i].label);
	free(r->candidates);
	free(r);
}

static int can_match(const td_file_t *f)
{
	return f->type == TD_ENTRY_FILE || f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK;
}

/* The distance compare gives a changed file (see lib/compare.c). */
static int score_file(const td_file_t *u, const td_file_t *t, const td_base_opts_t *o)
{
	int fallback;

	if (u->type != t->type)
		return o->added_distance;
	if (u->type == TD_ENTRY_FILE) {
		if (!u->has_digest || !t->has_digest || u->digest.sha_only || t->digest.sha_only)
			return o->added_distance;
		return td_digest_distance(&u->digest, &t->digest, o->len_diff, &fallback);
	}
	return td_fallback_distance_bytes((const uint8_t *)u->link_target, u->link_len,
					  (const uint8_t *)t->link_target, t->link_len);
}

/* 1 when version v holds target file i identically: a binary search of
 * the file's versions, which td_db_match lists ascending, so that scoring
 * every version of a database where all tie costs O(V N log V), not
 * O(V^2 N). */
static int holds(const td_db_matches_t *m, size_t i, size_t v)
{
	size_t lo = m->start[i], hi = m->start[i + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->version[mid] == v)
			return 1;
		if (m->version[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int score_version(td_base_candidate_t *c, td_db_t *db, const td_tree_t *target,
			 const td_db_matches_t *m, const td_base_opts_t *o, td_error_t *err)
{
	td_tree_t *vt = NULL;
	int rc;

	if (o->score) {
		if ((rc = o->score(o->score_ctx, c, err)))
			return rc;
		c->scored = 1;
		return TD_OK;
	}
	if ((rc = td_db_load(&vt, db, c->label, err)))
		return rc;
	c->modified = c->added = c->removed = c->distance = 0;
	for (size_t i = 0; i < target->count; i++) {
		const td_file_t *t = &target->files[i], *u;
		if (!can_match(t) || holds(m, i, c->version))
			continue;
		u = td_tree_find(vt, t->path, t->path_len);
		if (u && u->type != TD_ENTRY_SKIPPED) {
			c->modified++;
			c->distance += (uint64_t)score_file(u, t, o);
		} else if (!u) {
			c->added++;
			c->distance += (uint64_t)o->added_distance;
		}
	}
	for (size_t i = 0; i < vt->count; i++)
		c->removed += !td_tree_find(target, vt->files[i].path, vt->files[i].path_len);
	c->scored = 1;
	td_tree_free(vt);
	return TD_OK;
}

static int by_identical(const void *pa, const void *pb)
{
	const td_base_candidate_t *a = pa, *b = pb;
	int c;

	if (a->identical != b->identical)
		return a->identical > b->identical ? -1 : 1;
	if (a->scored != b->scored)
		return a->scored ? -1 : 1;
	if (a->scored && a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	c = td_version_label_cmp(a->label, b->label);
	if (c)
		return -c;
	return a->version < b->version ? -1 : a->version > b->version;
}

static void judge(td_base_result_t *r, const td_db_matches_t *m)
{
	const td_base_candidate_t *best, *next;
	uint64_t a = 0, b = 0;

	if (r->count < 2)
		return;
	best = &r->candidates[0];
	next = &r->candidates[1];
	for (size_t i = 0; i < m->file_count; i++) {
		int in_best = holds(m, i, best->version), in_next = holds(m, i, next->version);
		a += in_best && !in_next;
		b += in_next && !in_best;
	}
	r->only_best = a;
	r->only_next = b;
	if (!a && !b)
		r->ambiguous = best->distance == next->distance;
	else
		r->ambiguous = a < 2 * b;
}

int td_base_rank(td_base_result_t **out, td_db_t *db, const td_tree_t *target,
		 const td_base_opts_t *o, td_error_t *err)
{
	td_base_opts_t defaults;
	td_version_t *v = NULL;
	td_db_matches_t *m = NULL;
	td_base_result_t *r;
	size_t nv = 0, top;
	int rc;

	*out = NULL;
	if (!o) {
		td_base_opts_init(&defaults);
		o = &defaults;
	}
	if (!(r = calloc(1, sizeof(*r))))
		return td_error_set(err, TD_ENOMEM, "out of memory ranking versions");
	if ((rc = td_db_versions(&v, &nv, db, err)))
		goto out;
	if (!nv) {
		rc = td_error_set(err, TD_ENOTFOUND, "the database holds no version");
		goto out;
	}
	if ((rc = td_db_match(&m, db, target, err)))
		goto out;
	if (!(r->candidates = calloc(nv, sizeof(*r->candidates)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory ranking versions");
		goto out;
	}
	for (size_t i = 0; i < target->count; i++)
		r->target_files += can_match(&target->files[i]);
	for (size_t i = 0; i < nv; i++) {
		td_base_candidate_t *c = &r->candidates[r->count];
		const char *label = v[i].meta.label ? v[i].meta.label : "";
		if (!(c->label = td_strndup(label, strlen(label)))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory ranking versions");
			goto out;
		}
		c->version = i;
		c->identical = m->identical[i];
		r->count++;
	}
	qsort(r->candidates, r->count, sizeof(*r->candidates), by_identical);
	top = o->score_top ? o->score_top : r->count;
	if (top < 2)
		top = 2;
	if (top > r->count)
		top = r->count;
	while (top < r->count && r->candidates[top].identical == r->candidates[top - 1].identical)
		top++;
	for (size_t i = 0; i < top; i++)
		if ((rc = score_version(&r->candidates[i], db, target, m, o, err)))
			goto out;
	qsort(r->candidates, r->count, sizeof(*r->candidates), by_identical);
	judge(r, m);
	rc = TD_OK;
out:
	td_db_matches_free(m);
	td_versions_free(v, nv);
	if (rc) {
		td_base_result_free(r);
		return rc;
	}
	*out = r;
	return TD_OK;
}
