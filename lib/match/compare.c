/* Match and classify: a merge walk over two path-sorted trees. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "treedrift/compare.h"

void td_compare_opts_init(td_compare_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->thresholds.clean_below = TD_DEFAULT_CLEAN_BELOW;
	o->thresholds.dirty_above = TD_DEFAULT_DIRTY_ABOVE;
	o->len_diff = 1;
	o->added_distance = TD_DEFAULT_ADDED_DISTANCE;
}

td_class_t td_classify(int distance, const td_thresholds_t *t)
{
	if (distance < t->clean_below)
		return TD_CLASS_CLEAN;
	if (distance > t->dirty_above)
		return TD_CLASS_DIRTY;
	return TD_CLASS_SAFE;
}

const char *td_status_name(td_status_t s)
{
	static const char *const names[] = { "identical", "modified", "added", "removed", "skipped" };
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

const char *td_class_name(td_class_t c)
{
	static const char *const names[TD_CLASS_COUNT] = { NULL, "clean", "safe", "dirty", "new" };
	return (unsigned)c < TD_CLASS_COUNT ? names[c] : NULL;
}

const char *td_version_match_name(td_version_match_t m)
{
	static const char *const names[] = { NULL, "backport", "rollback" };
	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : NULL;
}

td_class_t td_class_parse(const char *name)
{
	for (int c = TD_CLASS_CLEAN; c < TD_CLASS_COUNT; c++)
		if (name && !strcmp(name, td_class_name((td_class_t)c)))
			return (td_class_t)c;
	return TD_CLASS_NONE;
}

static int any_glob(const char *const *globs, const td_file_t *f)
{
	for (; *globs; globs++)
		if (td_glob_match(*globs, f->path, f->path_len))
			return 1;
	return 0;
}

static int in_scope(const td_compare_opts_t *o, const td_file_t *f)
{
	if (o->include && *o->include && !any_glob(o->include, f))
		return 0;
	return !(o->exclude && any_glob(o->exclude, f));
}

static int path_cmp(const td_file_t *a, const td_file_t *b)
{
	return td_path_cmp(a->path, a->path_len, b->path, b->path_len);
}

/* Same content, proven without TLSH. */
static int same_content(const td_file_t *u, const td_file_t *t)
{
	if (u->type != t->type)
		return 0;
	switch (u->type) {
	case TD_ENTRY_FILE:
		if (u->has_gitoid && t->has_gitoid)
			return !memcmp(u->gitoid, t->gitoid, TD_GITOID_BYTES);
		return u->has_digest && t->has_digest &&
		       !memcmp(u->digest.sha256, t->digest.sha256, TD_SHA256_BYTES);
	case TD_ENTRY_SYMLINK:
	case TD_ENTRY_GITLINK:
		return u->link_len == t->link_len &&
		       (!u->link_len || !memcmp(u->link_target, t->link_target, u->link_len));
	default:
		return 0;
	}
}

static int score_modified(const td_file_t *u, const td_file_t *t, const td_compare_opts_t *o,
			  int *fallback)
{
	*fallback = 1;
	if (u->type != t->type)
		return o->added_distance;
	if (u->type == TD_ENTRY_FILE) {
		if (!u->has_digest || !t->has_digest || u->digest.sha_only || t->digest.sha_only)
			return o->added_distance;
		return td_digest_distance(&u->digest, &t->digest, o->len_diff, fallback);
	}
	return td_fallback_distance_bytes((const uint8_t *)u->link_target, u->link_len,
					  (const uint8_t *)t->link_target, t->link_len);
}

const char *td_cosmetic_name(td_cosmetic_t c)
{
	switch (c) {
	case TD_COSMETIC_NO: return "no";
	case TD_COSMETIC_YES: return "yes";
	case TD_COSMETIC_UNKNOWN: return "unknown";
	default: return NULL;
	}
}

/* A modified regular file: equal normalised digests make it cosmetic,
 * normalised texts of other lengths not. Else it is unknown until
 * td_lines_count reads both. */
static td_cosmetic_t cosmetic_of(const td_file_t *u, const td_file_t *t)
{
	const td_digest_t *ud = &u->digest, *td = &t->digest;

	if (u->type != TD_ENTRY_FILE || t->type != TD_ENTRY_FILE)
		return TD_COSMETIC_NONE;
	if (!u->has_digest || !t->has_digest)
		return TD_COSMETIC_UNKNOWN;
	if (ud->has_sha256_ws && td->has_sha256_ws)
		return memcmp(ud->sha256_ws, td->sha256_ws, TD_SHA256_BYTES) ? TD_COSMETIC_NO : TD_COSMETIC_YES;
	if (ud->has_ws_bytes && td->has_ws_bytes && ud->ws_bytes != td->ws_bytes)
		return TD_COSMETIC_NO;
	return TD_COSMETIC_UNKNOWN;
}

void td_change_set_cosmetic(td_change_t *c, int v)
{
	c->cosmetic = (td_cosmetic_t)v;
	if (v != TD_COSMETIC_YES)
		return;
	c->distance = 0;
	c->fallback = 0;
	c->scored_by_lines = 0;
	c->cls = TD_CLASS_CLEAN;
	c->risk = 0;
}

static void fill_change(td_change_t *c, const td_file_t *u, const td_file_t *t,
			const td_compare_opts_t *o)
{
	memset(c, 0, sizeof(*c));
	c->upstream = u;
	c->target = t;
	c->built = -1;
	c->weight = 1.0;
	if ((t && t->type == TD_ENTRY_SKIPPED) || (u && u->type == TD_ENTRY_SKIPPED)) {
		c->status = TD_STATUS_SKIPPED;
		return;
	}
	if (!u) {
		c->status = TD_STATUS_ADDED;
		c->distance = o->added_distance;
		c->cls = TD_CLASS_NEW;
	} else if (!t) {
		c->status = TD_STATUS_REMOVED;
	} else if (same_content(u, t)) {
		c->status = TD_STATUS_IDENTICAL;
		c->origin_kind = TD_ORIGIN_SAME_PATH;
	} else {
		c->status = TD_STATUS_MODIFIED;
		c->origin_kind = TD_ORIGIN_SAME_PATH;
		c->distance = score_modified(u, t, o, &c->fallback);
		c->cls = td_classify(c->distance, &o->thresholds);
		c->risk = c->distance;
		td_change_set_cosmetic(c, cosmetic_of(u, t));
		return;
	}
	c->risk = c->distance;
}

static uint64_t file_size(const td_file_t *f)
{
	return f && f->type == TD_ENTRY_FILE ? f->size_bytes : 0;
}

static void add_build_totals(td_totals_t *t, const td_change_t *c)
{
	td_build_totals_t *b;

	if (c->built < 0 || c->built > 2)
		return;
	b = &t->by_built[c->built];
	b->files++;
	if (c->status != TD_STATUS_REMOVED) {
		b->distance += (uint64_t)c->distance;
		b->risk += c->risk;
	}
}

static void add_line_totals(td_totals_t *t, const td_change_t *c)
{
	switch (c->lines) {
	case TD_LINES_COUNTED:
		t->lines_added += c->lines_added;
		t->lines_removed += c->lines_removed;
		break;
	case TD_LINES_BINARY:
		t->lines_binary++;
		break;
	case TD_LINES_MISSING:
		t->lines_missing++;
		break;
	default:
		break;
	}
}

void td_result_update_totals(td_result_t *r)
{
	td_totals_t *t = &r->totals;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		switch (c->status) {
		case TD_STATUS_IDENTICAL:
			t->identical++;
			continue;
		case TD_STATUS_SKIPPED:
			t->skipped++;
			continue;
		case TD_STATUS_REMOVED:
			t->removed++;
			t->removed_bytes += file_size(c->upstream);
			add_build_totals(t, c);
			continue;
		case TD_STATUS_MODIFIED:
			t->modified++;
			t->modified_distance += (uint64_t)c->distance;
			t->cosmetic += c->cosmetic == TD_COSMETIC_YES;
			t->cosmetic_unknown += c->cosmetic == TD_COSMETIC_UNKNOWN;
			add_line_totals(t, c);
			break;
		case TD_STATUS_ADDED:
			t->added++;
			t->added_bytes += file_size(c->target);
			t->added_distance += (uint64_t)c->distance;
			break;
		}
		t->fallback_scored += c->fallback != 0;
		t->lines_scored += c->scored_by_lines != 0;
		t->total_risk += c->risk;
		add_build_totals(t, c);
		if ((unsigned)c->cls < TD_CLASS_COUNT) {
			t->by_class[c->cls].files++;
			t->by_class[c->cls].distance += (uint64_t)c->distance;
		}
	}
	t->mismatched = t->modified + t->added + t->removed;
	t->total_distance = t->modified_distance + t->added_distance;
}

/* A result and the strings later stages hand it to keep (the labels of
 * matches_version): td_compare allocates this, td_result_free frees it all. */
typedef struct result_impl {
	td_result_t pub;
	char **strings;
	size_t nstrings, cap;
} result_impl_t;

int td_result_keep_string(td_result_t *r, const char *s, const char **out)
{
	result_impl_t *ri = (result_impl_t *)r;
	void *p = ri->strings;
	char *copy;

	*out = NULL;
	if (td_grow(&p, &ri->cap, ri->nstrings + 1, sizeof(*ri->strings)))
		return TD_ENOMEM;
	ri->strings = p;
	if (!(copy = td_strndup(s, strlen(s))))
		return TD_ENOMEM;
	ri->strings[ri->nstrings++] = copy;
	*out = copy;
	return TD_OK;
}

int td_compare(td_result_t **out, td_tree_t *upstream, td_tree_t *target,
	       const td_compare_opts_t *opts, td_error_t *err)
{
	td_compare_opts_t defaults;
	td_result_t *r;
	size_t i = 0, j = 0, cap;

	*out = NULL;
	if (!opts) {
		td_compare_opts_init(&defaults);
		opts = &defaults;
	}
	r = calloc(1, sizeof(result_impl_t));
	cap = upstream->count + target->count;
	if (!r || !(r->changes = td_malloc_array(cap, sizeof(td_change_t)))) {
		free(r);
		td_tree_free(upstream);
		td_tree_free(target);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	r->upstream = upstream;
	r->target = target;
	r->thresholds = opts->thresholds;
	r->len_diff = opts->len_diff;
	if (upstream->meta.label && td_meta_set(&r->base_version, upstream->meta.label)) {
		td_result_free(r);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	while (i < upstream->count || j < target->count) {
		const td_file_t *u = i < upstream->count ? &upstream->files[i] : NULL;
		const td_file_t *t = j < target->count ? &target->files[j] : NULL;
		int c = !u ? 1 : !t ? -1 : path_cmp(u, t);
		if (c < 0)
			t = NULL, i++;
		else if (c > 0)
			u = NULL, j++;
		else
			i++, j++;
		if (!in_scope(opts, u ? u : t))
			continue;
		fill_change(&r->changes[r->count++], u, t, opts);
	}
	td_result_update_totals(r);
	*out = r;
	return TD_OK;
}

void td_result_free(td_result_t *r)
{
	result_impl_t *ri = (result_impl_t *)r;

	if (!r)
		return;
	for (size_t i = 0; i < ri->nstrings; i++)
		free(ri->strings[i]);
	free(ri->strings);
	free(r->changes);
	td_tree_free(r->upstream);
	td_tree_free(r->target);
	free(r->base_version);
	free(r);
}
