#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "scan_impl.h"
#include "treedrift/load.h"
#include "treedrift/store.h"

void td_load_opts_init(td_load_opts_t *o)
{
	memset(o, 0, sizeof(*o));
}

int td_spec_is_db(const char *spec)
{
	return strncmp(spec, "git:", 4) && strncmp(spec, "archive:", 8) && td_db_sniff(spec);
}

/* One side of a comparison while it is being loaded. */
typedef struct side {
	td_tree_t *tree;
	td_source_t *src;  /* NULL when the tree came from a database */
	uint8_t *need;
	td_scan_opts_t scan; /* the load's, with this side's progress context */
} side_t;

static void side_release(side_t *s)
{
	td_tree_free(s->tree);
	td_source_free(s->src);
	free(s->need);
	memset(s, 0, sizeof(*s));
}

static void side_init(side_t *s, const td_load_opts_t *o, int target)
{
	memset(s, 0, sizeof(*s));
	s->scan = o->scan;
	if (target && o->progress_ctx_target)
		s->scan.progress_ctx = o->progress_ctx_target;
}

/* A listed source side's room for what to read of each entry. */
static int side_need(side_t *s, td_error_t *err)
{
	if (!(s->need = calloc(s->tree->count ? s->tree->count : 1, 1)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

int td_load_tree(td_tree_t **out, const char *spec, const char *label, const td_load_opts_t *opts,
		 td_scan_stats_t *stats, td_error_t *err)
{
	td_load_opts_t defaults;
	side_t s;
	int rc;

	*out = NULL;
	if (!opts) {
		td_load_opts_init(&defaults);
		opts = &defaults;
	}
	memset(&s, 0, sizeof(s));
	if (td_spec_is_db(spec))
		rc = td_db_load_path(&s.tree, spec, NULL, label, 0, err);
	else if (!(rc = td_source_open(&s.src, spec, &opts->source, err)))
		rc = td_scan(&s.tree, s.src, &opts->scan, stats, err);
	if (!rc) {
		*out = s.tree;
		s.tree = NULL;
	}
	side_release(&s);
	return rc;
}

static int is_file(const td_file_t *f)
{
	return f && f->type == TD_ENTRY_FILE;
}

static int full(const td_file_t *f)
{
	return f->has_digest && !f->digest.sha_only;
}

static void want(side_t *s, const td_file_t *f, td_need_t n)
{
	if (s->src && !(f->has_digest && (n == TD_NEED_SHA || full(f))))
		if (s->need[f - s->tree->files] < n)
			s->need[f - s->tree->files] = (uint8_t)n;
}

/* What a pair of files (uf, NULL or not a file for an added tf) must have
 * read on each side: nothing where git blob ids prove identity, SHA-256
 * where sizes match, everything where they differ. */
static td_need_t pair_need(const td_file_t *uf, const td_file_t *tf)
{
	if (!is_file(uf))
		return TD_NEED_FULL;
	if (uf->has_gitoid && tf->has_gitoid && !memcmp(uf->gitoid, tf->gitoid, TD_GITOID_BYTES))
		return TD_NEED_NONE;
	return uf->size_bytes && uf->size_bytes == tf->size_bytes ? TD_NEED_SHA : TD_NEED_FULL;
}

/* Whether uf's normalised text is known by its digest and its length. */
static int ws_known(const td_file_t *uf)
{
	return is_file(uf) && full(uf) && uf->digest.has_sha256_ws && uf->digest.has_ws_bytes;
}

/* The upstream side as the target's walk sees it. A database loads on a
 * thread of its own while the walk lists ahead (td_db_loader_t): on a big
 * tree, that load is a fraction of a second with a core idle. */
typedef struct upstream {
	td_db_loader_t *loader;     /* a database still loading, or NULL */
	const td_tree_t *tree;      /* once loaded */
} upstream_t;

/* Open the upstream side u: a database is loaded whole, on a thread when
 * the target is walked (target_db 0), else here; a source is listed only.
 * keep (may be NULL): see td_db_load_path. */
static int upstream_open(upstream_t *up, side_t *u, td_db_t **keep, const char *spec, int target_db,
			 const td_load_opts_t *o, td_scan_stats_t *stats, td_error_t *err)
{
	int rc, db = (keep && *keep) || td_spec_is_db(spec);

	memset(up, 0, sizeof(*up));
	side_init(u, o, 0);
	if (db && !target_db)
		return td_db_loader_start(&up->loader, spec, keep, o->upstream_label, 0, err);
	if (db)
		rc = td_db_load_path(&u->tree, spec, keep, o->upstream_label, 0, err);
	else if (!(rc = td_source_open(&u->src, spec, &o->source, err)) &&
		 !(rc = td_scan_list(&u->tree, u->src, &u->scan, stats, err)))
		rc = side_need(u, err);
	if (rc)
		return rc;
	up->tree = u->tree;
	return TD_OK;
}

/* td_scan_opts_t's reuse_wait: the upstream tree, once loaded. */
static int upstream_wait(void *ctx, int wait, const td_tree_t **tree, td_error_t *err)
{
	upstream_t *up = ctx;
	int rc = td_db_loader_wait(up->loader, wait, &up->tree, err);

	*tree = up->tree;
	return rc;
}

/* pair_need of a target entry as the walk finds it; ctx is the upstream
 * side (upstream_t). Its whitespace-normalised digest only tells whether
 * its change is cosmetic: an added file goes without, and one whose
 * upstream file's is known waits for the length (target_ws_wanted). */
static unsigned target_need(void *ctx, const td_file_t *tf)
{
	const td_file_t *uf;
	td_need_t n;

	if (!is_file(tf))
		return TD_NEED_NONE;
	uf = td_tree_find(((const upstream_t *)ctx)->tree, tf->path, tf->path_len);
	if (!is_file(uf))
		return TD_NEED_FULL | TD_WANT_UNPAIRED;
	n = pair_need(uf, tf);
	return n == TD_NEED_FULL && ws_known(uf) ? n | TD_WANT_WS_LENGTH : n;
}

/* A change is cosmetic only where the normalised texts are as long. */
static int target_ws_wanted(void *ctx, const td_file_t *tf, uint64_t ws_bytes)
{
	const td_file_t *uf = td_tree_find(((const upstream_t *)ctx)->tree, tf->path, tf->path_len);

	return !ws_known(uf) || uf->digest.ws_bytes == ws_bytes;
}

/* Decide what a source upstream must read (pair_need with each target
 * file; the target is read as far as it needs while it is opened). */
static void plan_upstream(side_t *u, const side_t *t, int upstream_full)
{
	int added = 0;

	if (!u->src)
		return;
	for (size_t j = 0; j < t->tree->count; j++) {
		const td_file_t *tf = &t->tree->files[j];
		const td_file_t *uf;
		if (!is_file(tf))
			continue;
		uf = td_tree_find(u->tree, tf->path, tf->path_len);
		if (is_file(uf))
			want(u, uf, pair_need(uf, tf));
		else
			added = 1;
	}
	if (upstream_full == TD_UPSTREAM_FULL_ALWAYS || (upstream_full && added))
		for (size_t i = 0; i < u->tree->count; i++)
			if (is_file(&u->tree->files[i]))
				want(u, &u->tree->files[i], TD_NEED_FULL);
}

/* After the SHA-256 pass: pairs whose content differs need TLSH. */
static int plan_second_pass(side_t *u, side_t *t)
{
	int more = 0;

	if (u->src)
		memset(u->need, 0, u->tree->count);
	if (t->src)
		memset(t->need, 0, t->tree->count);
	for (size_t j = 0; j < t->tree->count; j++) {
		const td_file_t *tf = &t->tree->files[j];
		const td_file_t *uf;
		if (!is_file(tf) || !tf->has_digest)
			continue;
		uf = td_tree_find(u->tree, tf->path, tf->path_len);
		/* either side may hold SHA-256 only: an archive target is
		 * digested in full while listed, a directory upstream is not */
		if (!tf->digest.sha_only && !(is_file(uf) && uf->has_digest && uf->digest.sha_only))
			continue;
		if (is_file(uf) && uf->has_digest &&
		    !memcmp(uf->digest.sha256, tf->digest.sha256, TD_SHA256_BYTES))
			continue;
		want(t, tf, TD_NEED_FULL);
		if (is_file(uf))
			want(u, uf, TD_NEED_FULL);
		more = 1;
	}
	return more;
}

static int digest_side(side_t *s, td_scan_stats_t *stats, td_error_t *err)
{
	if (!s->src)
		return TD_OK;
	return td_scan_digest(s->tree, s->src, s->need, &s->scan, stats, err);
}

/* Open the target side of a pair, with digests taken from the upstream
 * side where the content is provably the same (td_scan_reuse). A directory
 * or git revision is read while it is walked, each file as far as its
 * pair_need with upstream asks: the walk of a big tree takes a core for a
 * good while. An archive is digested in full as it is listed. */
static int target_open(side_t *t, upstream_t *up, const char *spec, int is_db, const td_load_opts_t *o,
		       td_scan_stats_t *stats, td_error_t *err)
{
	td_listing_watch_t watch = { .need = target_need, .ws_wanted = target_ws_wanted, .ctx = up };
	td_listing_t *l = NULL;
	td_scan_opts_t so;
	int rc;

	side_init(t, o, 1);
	if (is_db)
		return td_db_load_path(&t->tree, spec, NULL, o->target_label, 0, err);
	if ((rc = td_source_open(&t->src, spec, &o->source, err)))
		return rc;
	so = t->scan;
	so.reuse = up->tree;
	if (up->loader) {
		so.reuse_wait = upstream_wait;
		so.reuse_ctx = up;
	}
	if (td_listing_new(&l, t->src))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (!(rc = td_scan_stream(l, t->src, &so, stats, &watch, err)))
		rc = td_listing_take(l, &t->tree, err);
	td_listing_free(l);
	return rc ? rc : side_need(t, err);
}

/* td_load_pair and td_load_pair_db; upstream_db may be NULL. */
static int load_pair(td_tree_t **upstream_out, td_tree_t **target_out, td_db_t **upstream_db,
		     const char *upstream_spec, const char *target_spec, const td_load_opts_t *opts,
		     td_scan_stats_t *stats, td_error_t *err)
{
	td_load_opts_t defaults;
	upstream_t up;
	side_t u, t;
	int rc, target_db = td_spec_is_db(target_spec);

	*upstream_out = *target_out = NULL;
	memset(&u, 0, sizeof(u));
	memset(&t, 0, sizeof(t));
	if (!opts) {
		td_load_opts_init(&defaults);
		opts = &defaults;
	}
	if ((rc = upstream_open(&up, &u, upstream_db, upstream_spec, target_db, opts, stats, err)))
		goto out;
	rc = target_open(&t, &up, target_spec, target_db, opts, stats, err);
	if (up.loader) {
		const td_tree_t *loaded;
		/* the upstream side's error first, as when it is opened first */
		int load_rc = td_db_loader_wait(up.loader, 1, &loaded, err);
		if (load_rc)
			rc = load_rc;
		else
			u.tree = td_db_loader_take(up.loader);
	}
	if (rc)
		goto out;
	plan_upstream(&u, &t, opts->upstream_full);
	if ((rc = digest_side(&u, stats, err)))
		goto out;
	if (plan_second_pass(&u, &t) &&
	    ((rc = digest_side(&u, stats, err)) || (rc = digest_side(&t, stats, err))))
		goto out;
	*upstream_out = u.tree;
	*target_out = t.tree;
	u.tree = t.tree = NULL;
out:
	td_db_loader_free(up.loader);
	side_release(&u);
	side_release(&t);
	return rc;
}

int td_load_pair(td_tree_t **upstream_out, td_tree_t **target_out, const char *upstream_spec,
		 const char *target_spec, const td_load_opts_t *opts, td_scan_stats_t *stats,
		 td_error_t *err)
{
	return load_pair(upstream_out, target_out, NULL, upstream_spec, target_spec, opts, stats, err);
}

int td_load_pair_db(td_tree_t **upstream_out, td_tree_t **target_out, td_db_t **upstream_db,
		    const char *upstream_spec, const char *target_spec, const td_load_opts_t *opts,
		    td_scan_stats_t *stats, td_error_t *err)
{
	if (!upstream_db) {
		*upstream_out = *target_out = NULL;
		return td_error_set(err, TD_EINVAL, "no place for the upstream database handle");
	}
	return load_pair(upstream_out, target_out, upstream_db, upstream_spec, target_spec, opts, stats,
			 err);
}
