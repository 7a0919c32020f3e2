/* Per-patch drift: replay a series on its base, then score each patch and
 * attribute the comparison's changed files to the patches.
 *
 * Every patch becomes a pair of trees (before, after) in one repository: a
 * git range's commits as they are; a series applied with git_apply_to_tree
 * onto the base, in memory (a mempack backend takes every object written,
 * so a real repository is never written to). Each pair is diffed tree to
 * tree, as git diff-tree does (no rename detection), which gives the files,
 * the line counts and the blobs to score.
 *
 * Surviving lines: each file's lines carry the patch that added them (0 for
 * the base), carried forward through every later patch's hunks, as blame
 * would find them. At the end the lines are matched against the target's
 * file: when the series gives the target's content they are the target's;
 * otherwise the series' result is diffed against the target to carry them
 * once more. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "patch_impl.h"
#include "treedrift/digest.h"
#include "treedrift/lines.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"
#include "similar.h"

/* Pairs of a removed and an added file that pair_renames diffs at most in
 * one patch. */
#define RENAME_PAIRS_MAX 1024

/* Files of one directory that copies_in_dir looks at, at most: a bigger
 * directory is not searched. */
#define DIR_FILES_MAX 20000
uint64_t td_patch_copy_file_max = TD_PATCH_COPY_FILE_MAX;

/* A base file larger than this is not read for a series (a limit). */
#define BASE_FILE_MAX_BYTES (256u * 1024 * 1024)

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* One path through the series. */
typedef struct track {
	char *path;
	uint32_t *orig;        /* origin of each line: 0 base, k patch k-1 */
	size_t n, cap;
	git_oid blob;          /* content after the last patch that touched it */
	uint32_t mode;
	int seen;              /* a patch touched it */
	int present;           /* it exists after the series */
	int lines_ok;          /* orig[] is valid */
	int equal;             /* the series' content is the target's: 1, 0, -1 unknown */
	size_t *patches;
	size_t npatches, pcap;
} track_t;

typedef struct dig_ent {
	git_oid id;
	int used;
	td_digest_t d;
} dig_ent_t;

/* An added file of the result that compare found copied or moved from an
 * upstream file; both paths borrowed from the result. */
typedef struct copy {
	const char *path;
	const char *origin;
} copy_t;

/* A file of the patch being walked that it removes, or adds with no
 * origin compare found (pair_renames, then copies_in_dirs). */
typedef struct rename_side {
	git_oid id;
	size_t file;   /* index into the patch's files */
	int added;
} rename_side_t;

typedef struct engine {
	git_repository *repo;      /* borrowed from the list or owned (owns_repo) */
	int owns_repo;
	td_digester_t *dg;
	const td_result_t *result;
	const td_patch_opts_t *opts;
	td_patch_set_t *set;
	copy_t *copies;            /* by path (collect_copies) */
	size_t ncopies;
	const git_tree *before;    /* the tree the patch being walked applies to; NULL for a root commit */
	rename_side_t *sides;      /* of the patch being walked */
	size_t nsides, sides_cap;
	track_t *tracks;
	size_t ntracks, tcap;
	size_t *tmap;              /* open addressing: track index + 1, 0 free */
	size_t tmap_cap;
	dig_ent_t *dmap;
	size_t dmap_used, dmap_cap;
	uint32_t *scratch;
	size_t scratch_cap;
	td_source_t *target_src;   /* opened on first need */
	int target_tried;
	td_error_t *err;
	/* the patch id of the patch being walked: binary files' parts summed
	 * as they come, text files' paths for one git_diff_patchid */
	unsigned char pid_sum[TD_PATCHID_BYTES];
	size_t pid_files;
	char **pid_paths;          /* borrowed from the patch's files */
	size_t pid_npaths, pid_cap;
} engine_t;

/* --- hash maps ----------------------------------------------------------- */

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int tmap_grow(engine_t *e)
{
	size_t cap = e->tmap_cap ? e->tmap_cap * 2 : 1024;
	size_t *m = calloc(cap, sizeof(*m));

	if (!m)
		return TD_ENOMEM;
	for (size_t i = 0; i < e->ntracks; i++) {
		size_t h = (size_t)fnv(e->tracks[i].path, strlen(e->tracks[i].path)) & (cap - 1);
		while (m[h])
			h = (h + 1) & (cap - 1);
		m[h] = i + 1;
	}
	free(e->tmap);
	e->tmap = m;
	e->tmap_cap = cap;
	return TD_OK;
}

static track_t *track_find(engine_t *e, const char *path, size_t len)
{
	size_t h;

	if (!e->tmap_cap)
		return NULL;
	h = (size_t)fnv(path, len) & (e->tmap_cap - 1);
	while (e->tmap[h]) {
		track_t *t = &e->tracks[e->tmap[h] - 1];
		if (!strncmp(t->path, path, len) && !t->path[len])
			return t;
		h = (h + 1) & (e->tmap_cap - 1);
	}
	return NULL;
}

static int track_get(engine_t *e, const char *path, track_t **out)
{
	size_t len = strlen(path), h;
	void *p = e->tracks;
	track_t *t;

	if ((*out = track_find(e, path, len)))
		return TD_OK;
	if ((e->ntracks + 1) * 2 > e->tmap_cap && tmap_grow(e))
		return TD_ENOMEM;
	if (td_grow(&p, &e->tcap, e->ntracks + 1, sizeof(*e->tracks)))
		return TD_ENOMEM;
	e->tracks = p;
	t = &e->tracks[e->ntracks];
	memset(t, 0, sizeof(*t));
	if (!(t->path = td_strndup(path, len)))
		return TD_ENOMEM;
	t->equal = -1;
	h = (size_t)fnv(path, len) & (e->tmap_cap - 1);
	while (e->tmap[h])
		h = (h + 1) & (e->tmap_cap - 1);
	e->tmap[h] = ++e->ntracks;
	*out = t;
	return TD_OK;
}

static size_t oid_hash(const git_oid *id, size_t cap)
{
	uint64_t h;
	memcpy(&h, id->id, sizeof(h));
	return (size_t)h & (cap - 1);
}

static int dmap_grow(engine_t *e)
{
	size_t cap = e->dmap_cap ? e->dmap_cap * 2 : 4096;
	dig_ent_t *m = calloc(cap, sizeof(*m));

	if (!m)
		return TD_ENOMEM;
	for (size_t i = 0; i < e->dmap_cap; i++) {
		size_t h;
		if (!e->dmap[i].used)
			continue;
		h = oid_hash(&e->dmap[i].id, cap);
		while (m[h].used)
			h = (h + 1) & (cap - 1);
		m[h] = e->dmap[i];
	}
	free(e->dmap);
	e->dmap = m;
	e->dmap_cap = cap;
	return TD_OK;
}

/* The digest of a blob that blob_digest computed, or NULL. */
static const td_digest_t *digest_known(const engine_t *e, const git_oid *id, size_t *slot)
{
	size_t h;

	for (h = e->dmap_cap ? oid_hash(id, e->dmap_cap) : 0; e->dmap_cap && e->dmap[h].used;
	     h = (h + 1) & (e->dmap_cap - 1))
		if (git_oid_equal(&e->dmap[h].id, id))
			return &e->dmap[h].d;
	*slot = h;
	return NULL;
}

/* The digest of a blob, computed once. */
static int blob_digest(engine_t *e, const git_oid *id, const td_digest_t **out)
{
	git_blob *b = NULL;
	dig_ent_t *d;
	size_t h = 0;
	int rc;

	if ((*out = digest_known(e, id, &h)))
		return TD_OK;
	/* Not there: insert (growing moves the entries, so find the slot anew). */
	if ((e->dmap_used + 1) * 2 > e->dmap_cap) {
		if (dmap_grow(e))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		h = oid_hash(id, e->dmap_cap);
		while (e->dmap[h].used)
			h = (h + 1) & (e->dmap_cap - 1);
	}
	if (git_blob_lookup(&b, e->repo, id))
		return td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
	d = &e->dmap[h];
	td_digester_start(e->dg, 1);
	rc = td_digester_update(e->dg, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	if (!rc)
		rc = td_digester_finish(&d->d, e->dg);
	git_blob_free(b);
	if (rc)
		return td_error_set(e->err, rc, "unable to digest a blob");
	d->id = *id;
	d->used = 1;
	e->dmap_used++;
	*out = &d->d;
	return TD_OK;
}

/* --- scoring ------------------------------------------------------------- */

static int is_file_mode(uint32_t mode)
{
	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

static int blob_bytes_distance(engine_t *e, const git_oid *a, const git_oid *b, int *dist)
{
	git_blob *x = NULL, *y = NULL;

	if (git_blob_lookup(&x, e->repo, a) || git_blob_lookup(&y, e->repo, b)) {
		git_blob_free(x);
		return td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
	}
	*dist = td_fallback_distance_bytes(git_blob_rawcontent(x), (size_t)git_blob_rawsize(x),
					   git_blob_rawcontent(y), (size_t)git_blob_rawsize(y));
	git_blob_free(x);
	git_blob_free(y);
	return TD_OK;
}

/* The two blobs of a delta, looked up when td_lines_score_pair asks. */
typedef struct delta_content {
	engine_t *e;
	const git_oid *id[2];
	git_blob *blob[2];
} delta_content_t;

static int delta_blob(void *ctx, int side, const void **data, size_t *len, td_error_t *err)
{
	delta_content_t *dc = ctx;

	if (!dc->blob[side] && git_blob_lookup(&dc->blob[side], dc->e->repo, dc->id[side]))
		return td_error_set(err, TD_EGIT, "unable to read a blob: %s", git_msg());
	*data = git_blob_rawcontent(dc->blob[side]);
	*len = (size_t)git_blob_rawsize(dc->blob[side]);
	return TD_OK;
}

/* A modified file's distance from the digests of its blobs, as compare
 * scores it (td_lines_score_pair: cosmetic changes and small files too). */
static int score_blobs(engine_t *e, const git_diff_delta *d, const td_digest_t *a, const td_digest_t *b,
		       td_patch_file_t *f)
{
	delta_content_t dc = { e, { &d->old_file.id, &d->new_file.id }, { NULL, NULL } };
	td_scored_by_t by = TD_SCORED_TLSH;
	int rc = td_lines_score_pair(&f->distance, &by, a, b, e->result->len_diff, !e->opts->tlsh_small_files,
				     delta_blob, &dc, e->err);

	f->fallback = by == TD_SCORED_FALLBACK;
	git_blob_free(dc.blob[0]);
	git_blob_free(dc.blob[1]);
	return rc;
}

/* Score d's two blobs by score_blobs, their digests computed once. */
static int score_ids(engine_t *e, const git_diff_delta *d, td_patch_file_t *f)
{
	const td_digest_t *a, *b;
	int rc;

	/* b's insertion may move a: look a up again (found, so nothing moves). */
	if ((rc = blob_digest(e, &d->old_file.id, &a)) || (rc = blob_digest(e, &d->new_file.id, &b)) ||
	    (rc = blob_digest(e, &d->old_file.id, &a)))
		return rc;
	return score_blobs(e, d, a, b, f);
}

/* The added file f scored against d's old side, the file it came from
 * (score_ids), and copied from there; unless that is no nearer than a new
 * file: then the added distance, copied from nowhere. */
static int score_from(engine_t *e, const git_diff_delta *d, td_patch_file_t *f)
{
	int rc = score_ids(e, d, f);

	if (rc)
		return rc;
	if (f->distance >= e->opts->added_distance) {
		f->distance = e->opts->added_distance;
		f->fallback = 0;
		return TD_OK;
	}
	if (!(f->copied_from = td_strndup(d->old_file.path, strlen(d->old_file.path))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

static int copy_cmp(const void *a, const void *b)
{
	return strcmp(((const copy_t *)a)->path, ((const copy_t *)b)->path);
}

/* The result's added files with a copy or move origin, sorted by path. */
static int collect_copies(engine_t *e)
{
	const td_result_t *r = e->result;
	size_t n = 0;

	for (int fill = 0; fill < 2; fill++) {
		for (size_t i = 0; i < r->count; i++) {
			const td_change_t *c = &r->changes[i];
			if (c->status != TD_STATUS_ADDED || !c->target || !c->origin ||
			    (c->origin_kind != TD_ORIGIN_COPIED && c->origin_kind != TD_ORIGIN_MOVED))
				continue;
			if (fill)
				e->copies[e->ncopies++] = (copy_t){ c->target->path, c->origin->path };
			else
				n++;
		}
		if (!fill && !n)
			return TD_OK;
		if (!fill && !(e->copies = td_malloc_array(n, sizeof(*e->copies))))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
	}
	qsort(e->copies, e->ncopies, sizeof(*e->copies), copy_cmp);
	return TD_OK;
}

/* The upstream path the result's added file `path` came from, or NULL. */
static const char *copy_origin(const engine_t *e, const char *path)
{
	copy_t key = { path, NULL };
	const copy_t *c = e->ncopies ? bsearch(&key, e->copies, e->ncopies, sizeof(key), copy_cmp) : NULL;

	return c ? c->origin : NULL;
}

/* An added file that compare found copied or moved from an upstream file
 * is scored against that file as the tree before the patch has it, as
 * compare scores it against its origin. Any other scores the added
 * distance, and so does one whose origin is not a regular file there, or
 * whose content as the patch adds it is no nearer to the origin than that
 * (a stub that later patches filled, say). */
static int score_added(engine_t *e, const git_diff_delta *d, td_patch_file_t *f)
{
	const char *from = copy_origin(e, d->new_file.path);
	git_tree_entry *te = NULL;
	git_diff_delta copy;

	f->distance = e->opts->added_distance;
	if (!from || !e->before || !is_file_mode(d->new_file.mode) ||
	    git_tree_entry_bypath(&te, e->before, from))
		return TD_OK;
	copy = *d;
	copy.status = GIT_DELTA_MODIFIED;
	copy.old_file.path = from;
	copy.old_file.mode = (uint16_t)git_tree_entry_filemode(te);
	git_oid_cpy(&copy.old_file.id, git_tree_entry_id(te));
	git_tree_entry_free(te);
	if (!is_file_mode(copy.old_file.mode))
		return TD_OK;
	return score_from(e, &copy, f);
}

/* Score one delta as compare scores a file: added by score_added,
 * deleted = 0, modified by score_blobs. */
static int score_delta(engine_t *e, const git_diff_delta *d, td_patch_file_t *f)
{
	uint32_t om = d->old_file.mode, nm = d->new_file.mode;

	f->fallback = 0;
	switch (d->status) {
	case GIT_DELTA_ADDED:
		return score_added(e, d, f);
	case GIT_DELTA_DELETED:
		f->distance = 0;
		return TD_OK;
	default:
		break;
	}
	f->fallback = 1;
	if (d->status == GIT_DELTA_TYPECHANGE || is_file_mode(om) != is_file_mode(nm) ||
	    (!is_file_mode(om) && om != nm)) {
		f->distance = e->opts->added_distance;
		return TD_OK;
	}
	if (om == GIT_FILEMODE_COMMIT) {
		char x[GIT_OID_HEXSZ + 1], y[GIT_OID_HEXSZ + 1];
		git_oid_tostr(x, sizeof(x), &d->old_file.id);
		git_oid_tostr(y, sizeof(y), &d->new_file.id);
		f->distance = td_fallback_distance_bytes((const uint8_t *)x, strlen(x), (const uint8_t *)y, strlen(y));
		return TD_OK;
	}
	if (!is_file_mode(om))
		return blob_bytes_distance(e, &d->old_file.id, &d->new_file.id, &f->distance);
	if (git_oid_equal(&d->old_file.id, &d->new_file.id)) {
		f->distance = 0; /* a mode change: the same content */
		f->fallback = 0;
		return TD_OK;
	}
	return score_ids(e, d, f);
}

/* --- line origins -------------------------------------------------------- */

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;
	const char *p = s, *end = s + n;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))))
		k++, p++;
	return k + (n && s[n - 1] != '\n');
}

static int orig_reserve(uint32_t **v, size_t *cap, size_t n)
{
	void *p = *v;
	if (td_grow(&p, cap, n ? n : 1, sizeof(**v)))
		return TD_ENOMEM;
	*v = p;
	return TD_OK;
}

/* Carry t's line origins through gp's hunks; added lines get origin.
 * Returns 0, TD_ENOMEM, or 1 when the hunks do not fit the lines. */
static int carry_lines(engine_t *e, track_t *t, git_patch *gp, uint32_t origin)
{
	size_t nh = git_patch_num_hunks(gp), cursor = 0, out = 0, need;
	size_t adds = 0, dels = 0, ctx = 0;

	if (git_patch_line_stats(&ctx, &adds, &dels, gp))
		return 1;
	need = t->n + adds + 1;
	if (orig_reserve(&e->scratch, &e->scratch_cap, need))
		return TD_ENOMEM;
	for (size_t h = 0; h < nh; h++) {
		const git_diff_hunk *hunk;
		size_t nl, start;
		if (git_patch_get_hunk(&hunk, &nl, gp, h))
			return 1;
		start = hunk->old_lines ? (size_t)hunk->old_start - 1 : (size_t)hunk->old_start;
		if (start < cursor || start > t->n)
			return 1;
		if (start > cursor)
			memcpy(e->scratch + out, t->orig + cursor, (start - cursor) * sizeof(uint32_t));
		out += start - cursor;
		cursor = start;
		for (size_t k = 0; k < nl; k++) {
			const git_diff_line *l;
			if (git_patch_get_line_in_hunk(&l, gp, h, k))
				return 1;
			switch (l->origin) {
			case GIT_DIFF_LINE_CONTEXT:
				if (cursor >= t->n || out >= need)
					return 1;
				e->scratch[out++] = t->orig[cursor++];
				break;
			case GIT_DIFF_LINE_DELETION:
				if (cursor >= t->n)
					return 1;
				cursor++;
				break;
			case GIT_DIFF_LINE_ADDITION:
				if (out >= need)
					return 1;
				e->scratch[out++] = origin;
				break;
			default:
				break;
			}
		}
	}
	if (out + (t->n - cursor) > need)
		return 1;
	if (t->n > cursor)
		memcpy(e->scratch + out, t->orig + cursor, (t->n - cursor) * sizeof(uint32_t));
	out += t->n - cursor;
	if (orig_reserve(&t->orig, &t->cap, out))
		return TD_ENOMEM;
	if (out)
		memcpy(t->orig, e->scratch, out * sizeof(uint32_t));
	t->n = out;
	return TD_OK;
}

/* Lines of the blob, all from the base. */
static int base_lines(engine_t *e, track_t *t, const git_oid *id)
{
	git_blob *b;
	size_t n;

	if (git_blob_lookup(&b, e->repo, id))
		return td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
	n = count_lines(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	if (orig_reserve(&t->orig, &t->cap, n))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	memset(t->orig, 0, n * sizeof(uint32_t));
	t->n = n;
	t->lines_ok = 1;
	return TD_OK;
}

static int track_patch(track_t *t, size_t idx)
{
	void *p = t->patches;

	if (t->npatches && t->patches[t->npatches - 1] == idx)
		return TD_OK;
	if (td_grow(&p, &t->pcap, t->npatches + 1, sizeof(*t->patches)))
		return TD_ENOMEM;
	t->patches = p;
	t->patches[t->npatches++] = idx;
	return TD_OK;
}

/* Follow one delta of patch idx in the path's track. */
static int follow(engine_t *e, const git_diff_delta *d, git_patch *gp, int binary, size_t idx)
{
	const char *path = d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path;
	track_t *t;
	int rc;

	if (track_get(e, path, &t) || track_patch(t, idx))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	if (d->status == GIT_DELTA_DELETED) {
		t->seen = 1;
		t->present = 0;
		t->n = 0;
		t->lines_ok = 1;
		return TD_OK;
	}
	if (!is_file_mode(d->new_file.mode) || binary || !gp) {
		t->n = 0;
		t->lines_ok = 0;
	} else {
		if (d->status == GIT_DELTA_ADDED || d->status == GIT_DELTA_TYPECHANGE ||
		    !is_file_mode(d->old_file.mode)) {
			t->n = 0;
			t->lines_ok = 1;
		} else if (!t->seen || !t->present || !t->lines_ok) {
			if ((rc = base_lines(e, t, &d->old_file.id)))
				return rc;
		}
		rc = carry_lines(e, t, gp, (uint32_t)idx + 1);
		if (rc == TD_ENOMEM)
			return td_error_set(e->err, rc, "out of memory");
		if (rc)
			t->lines_ok = 0;
	}
	t->seen = 1;
	t->present = 1;
	t->blob = d->new_file.id;
	t->mode = d->new_file.mode;
	return TD_OK;
}

/* --- one patch ----------------------------------------------------------- */

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const td_patch_file_t *)a)->path, ((const td_patch_file_t *)b)->path);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add s[0..n) to a sorted set of strings, once. */
static int set_add(char ***set, size_t *count, const char *s, size_t n)
{
	char *copy, **p;

	for (size_t i = 0; i < *count; i++)
		if (!strncmp((*set)[i], s, n) && !(*set)[i][n])
			return TD_OK;
	if (!(copy = td_strndup(s, n)))
		return TD_ENOMEM;
	if (!(p = td_realloc_array(*set, *count + 1, sizeof(**set)))) {
		free(copy);
		return TD_ENOMEM;
	}
	*set = p;
	p[(*count)++] = copy;
	return TD_OK;
}

/* A patch's class is that of its changes to files the tree had: modified,
 * removed, retyped, or added as a move or copy of one (issue 18's model:
 * new code is not a change to upstream's). A patch that only adds new files
 * is new. Its distance and risk still count every file. */
static int patch_totals(engine_t *e, td_patch_t *p)
{
	long long dist = 0, changed = 0;
	size_t nnew = 0;

	p->lines_added = p->lines_removed = 0;
	p->risk = 0;
	p->fallback = 0;
	for (size_t i = 0; i < p->nfiles; i++) {
		td_patch_file_t *f = &p->files[i];
		const char *slash = strchr(f->path, '/');
		p->lines_added += f->lines_added;
		p->lines_removed += f->lines_removed;
		dist += f->distance;
		if (f->status == 'A' && !f->copied_from)
			nnew++;
		else
			changed += f->distance;
		p->fallback += f->fallback;
		p->risk += f->distance * f->weight;
		if (f->policy_class && set_add(&p->classes, &p->nclasses, f->policy_class, strlen(f->policy_class)))
			return TD_ENOMEM;
		if (slash ? set_add(&p->top_dirs, &p->ntop_dirs, f->path, (size_t)(slash - f->path))
			  : set_add(&p->top_dirs, &p->ntop_dirs, ".", 1))
			return TD_ENOMEM;
	}
	if (p->nclasses)
		qsort(p->classes, p->nclasses, sizeof(*p->classes), str_cmp);
	if (p->ntop_dirs)
		qsort(p->top_dirs, p->ntop_dirs, sizeof(*p->top_dirs), str_cmp);
	p->distance = dist > INT_MAX ? INT_MAX : (int)dist;
	if (nnew < p->nfiles)
		p->cls = td_classify(changed > INT_MAX ? INT_MAX : (int)changed, &e->result->thresholds);
	else
		p->cls = nnew ? TD_CLASS_NEW : TD_CLASS_NONE;
	return TD_OK;
}

/* Count file f (delta d) into the patch id: a binary file's part now, a
 * text file's path for the diff run_patch makes. Gitlinks count for
 * nothing, as in git. */
static int patchid_file(engine_t *e, const git_diff_delta *d, td_patch_file_t *f, int binary)
{
	unsigned char part[TD_PATCHID_BYTES];

	if (d->old_file.mode == GIT_FILEMODE_COMMIT || d->new_file.mode == GIT_FILEMODE_COMMIT)
		return TD_OK;
	e->pid_files++;
	if (binary) {
		if (td_patchid_binary_part(part, f->path, d->old_file.mode, &d->old_file.id, d->new_file.mode,
					   &d->new_file.id))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		td_patchid_sum(e->pid_sum, part);
		return TD_OK;
	}
	{
		void *grown = e->pid_paths;
		if (td_grow(&grown, &e->pid_cap, e->pid_npaths + 1, sizeof(*e->pid_paths)))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		e->pid_paths = grown;
	}
	e->pid_paths[e->pid_npaths++] = f->path;
	return TD_OK;
}

/* Keep a removed regular file, or an added one with no origin, for
 * pair_renames and copies_in_dirs. */
static int note_side(engine_t *e, const git_diff_delta *d, size_t file, const td_patch_file_t *f)
{
	int added = d->status == GIT_DELTA_ADDED;
	void *p = e->sides;

	if (added ? f->copied_from || !is_file_mode(d->new_file.mode)
		  : d->status != GIT_DELTA_DELETED || !is_file_mode(d->old_file.mode))
		return TD_OK;
	if (td_grow(&p, &e->sides_cap, e->nsides + 1, sizeof(*e->sides)))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	e->sides = p;
	e->sides[e->nsides++] = (rename_side_t){ added ? d->new_file.id : d->old_file.id, file, added };
	return TD_OK;
}

static int side_cmp(const void *x, const void *y)
{
	const rename_side_t *a = x, *b = y;
	int c = git_oid_cmp(&a->id, &b->id);

	if (c)
		return c;
	if (a->added != b->added)
		return a->added - b->added;
	return (a->file > b->file) - (a->file < b->file);
}

/* The added side a renamed from the removed side r with changes: scored as
 * r's file modified would be, unless that is no nearer than a new file. */
static int renamed_with_changes(engine_t *e, td_patch_t *p, const rename_side_t *r, const rename_side_t *a)
{
	td_patch_file_t *f = &p->files[a->file];
	git_diff_delta d;

	memset(&d, 0, sizeof(d));
	d.status = GIT_DELTA_MODIFIED;
	d.old_file.id = r->id;
	d.new_file.id = a->id;
	d.old_file.path = p->files[r->file].path;
	d.new_file.path = f->path;
	d.old_file.mode = d.new_file.mode = GIT_FILEMODE_BLOB;
	return score_from(e, &d, f);
}

/* Files the patch renamed, as git pairs them (diff -M), among its removed
 * files and the added ones compare found no origin for:
 * - an added file of the same content as a removed one (the first in path
 *   order) is an exact rename, and scores 0;
 * - else the removed file whose lines it shares most, at copy_similarity
 *   or more (ties: the first in path order), renamed it with changes, and
 *   it scores as that file modified would. At most RENAME_PAIRS_MAX pairs
 *   are diffed in a patch; past that, exact renames only.
 * A removed file may be the source of several. */
static int pair_renames(engine_t *e, td_patch_t *p)
{
	rename_side_t *s = e->sides;
	size_t n = e->nsides, from = SIZE_MAX, removed = 0, added = 0;
	git_blob **gone;
	int rc = TD_OK;

	if (n > 1)
		qsort(s, n, sizeof(*s), side_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && git_oid_cmp(&s[i].id, &s[i - 1].id))
			from = SIZE_MAX;
		if (!s[i].added) {
			removed++;
			if (from == SIZE_MAX)
				from = s[i].file;
		} else if (from != SIZE_MAX) {
			td_patch_file_t *f = &p->files[s[i].file];
			if (!(f->copied_from = td_strndup(p->files[from].path, strlen(p->files[from].path))))
				return td_error_set(e->err, TD_ENOMEM, "out of memory");
			f->distance = 0;
			f->fallback = 0;
		} else {
			added++;
		}
	}
	if (!removed || !added || removed * added > RENAME_PAIRS_MAX)
		return TD_OK;
	/* each blob read once: the removed ones into gone[], by side */
	if (!(gone = calloc(n, sizeof(*gone))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	for (size_t j = 0; j < n && rc == TD_OK; j++)
		if (!s[j].added && git_blob_lookup(&gone[j], e->repo, &s[j].id))
			rc = td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
	for (size_t i = 0; i < n && rc == TD_OK; i++) {
		const rename_side_t *best = NULL;
		double best_value = 0;
		git_blob *b = NULL;
		if (!s[i].added || p->files[s[i].file].copied_from)
			continue;
		if (git_blob_lookup(&b, e->repo, &s[i].id)) {
			rc = td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
			break;
		}
		for (size_t j = 0; j < n; j++) {
			td_similarity_t sim;
			if (s[j].added)
				continue;
			if ((rc = td_similarity(&sim, git_blob_rawcontent(gone[j]), (size_t)git_blob_rawsize(gone[j]),
						git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), e->err)))
				break;
			if (sim.binary || sim.value < e->opts->copy_similarity)
				continue;
			if (!best || sim.value > best_value || (sim.value == best_value && s[j].file < best->file)) {
				best = &s[j];
				best_value = sim.value;
			}
		}
		git_blob_free(b);
		if (!rc && best)
			rc = renamed_with_changes(e, p, best, &s[i]);
	}
	for (size_t j = 0; j < n; j++)
		git_blob_free(gone[j]);
	free(gone);
	return rc;
}

/* The length of the longest start that a and b share, and then of the
 * longest end of what is left. */
static size_t name_overlap(const char *a, size_t an, const char *b, size_t bn)
{
	size_t pre = 0, suf = 0;

	while (pre < an && pre < bn && a[pre] == b[pre])
		pre++;
	while (suf < an - pre && suf < bn - pre && a[an - 1 - suf] == b[bn - 1 - suf])
		suf++;
	return pre + suf;
}

/* The extension of name (from its last '.'; "" without one). */
static const char *name_ext(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? dot : name + strlen(name);
}

/* The digest of the blob of a directory's entry for copy_in_dir; NULL in
 * *out when it is larger than td_patch_copy_file_max (its content then not
 * read). */
static int candidate_digest(engine_t *e, git_odb *odb, const git_oid *id, const td_digest_t **out)
{
	size_t slot, size;
	git_object_t type;

	if (!(*out = digest_known(e, id, &slot))) {
		if (git_odb_read_header(&size, &type, odb, id))
			return td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
		if ((uint64_t)size > td_patch_copy_file_max)
			return TD_OK;
		return blob_digest(e, id, out);
	}
	if ((*out)->size_bytes > td_patch_copy_file_max)
		*out = NULL;
	return TD_OK;
}

/* One candidate of copies_in_dir: a file of the directory, by its index
 * there, with its TLSH distance from the added file. */
typedef struct dir_cand {
	size_t entry;
	int distance;
} dir_cand_t;

/* Offer entry i at distance d to the k nearest in c[0..*n), kept nearest
 * first (ties: the first entry). */
static void nearest_offer(dir_cand_t *c, size_t *n, size_t k, size_t i, int d)
{
	size_t at = *n;

	if (at == k && d >= c[k - 1].distance)
		return;
	if (at < k)
		(*n)++;
	else
		at = k - 1;
	for (; at > 0 && c[at - 1].distance > d; at--)
		c[at] = c[at - 1];
	c[at] = (dir_cand_t){ i, d };
}

/* Files a patch copied from files it keeps, as git diff -C
 * --find-copies-harder pairs them, within a directory: an added text file
 * with no origin yet is diffed with the regular files of its directory in
 * the tree before the patch that are nearest to it by TLSH (the
 * TD_DEFAULT_COPY_CANDIDATES nearest within TD_DEFAULT_COPY_BOUND) and with
 * the one of its extension whose name shares most with its own (at least
 * half the shorter name, as compare finds templated files), and the most
 * similar at copy_similarity or more (ties: the nearer) is where it came
 * from. A file without a TLSH digest (under 50 bytes, or too uniform) is
 * left new, and so is one larger than td_patch_copy_file_max. */
static int copy_in_dir(engine_t *e, td_patch_t *p, const rename_side_t *side)
{
	td_patch_file_t *f = &p->files[side->file];
	const char *slash = strrchr(f->path, '/'), *base = slash ? slash + 1 : f->path, *ext = name_ext(base);
	size_t dir_len = slash ? (size_t)(slash - f->path) : 0, base_len = strlen(base), nnear = 0;
	dir_cand_t near[TD_DEFAULT_COPY_CANDIDATES + 1];
	size_t named = SIZE_MAX, named_overlap = 0;
	const td_digest_t *dg;
	td_tlsh_t tlsh;
	git_tree *dir = NULL;
	git_blob *blob = NULL;
	git_odb *odb = NULL;
	double best_value = 0;
	size_t best = SIZE_MAX;
	int best_distance = 0, rc;

	if (!e->before)
		return TD_OK;
	if ((rc = blob_digest(e, &side->id, &dg)))
		return rc;
	if (dg->tlsh_status != TD_TLSH_OK || dg->size_bytes > td_patch_copy_file_max)
		return TD_OK;
	tlsh = dg->tlsh; /* the map may move as the directory's files are digested */
	if (!dir_len) {
		if (git_tree_dup(&dir, (git_tree *)e->before))
			return td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
	} else {
		char *d = td_strndup(f->path, dir_len);
		git_tree_entry *te = NULL;
		if (!d)
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		rc = git_tree_entry_bypath(&te, e->before, d);
		free(d);
		if (rc || git_tree_entry_type(te) != GIT_OBJECT_TREE) {
			git_tree_entry_free(te);
			return TD_OK; /* a new directory */
		}
		rc = git_tree_lookup(&dir, e->repo, git_tree_entry_id(te));
		git_tree_entry_free(te);
		if (rc)
			return td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
	}
	if (git_tree_entrycount(dir) > DIR_FILES_MAX)
		goto out; /* rc is TD_OK */
	if (git_repository_odb(&odb, e->repo)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to read the object database: %s", git_msg());
		goto out;
	}
	for (size_t i = 0, n = git_tree_entrycount(dir); i < n; i++) {
		const git_tree_entry *te = git_tree_entry_byindex(dir, i);
		const char *name = git_tree_entry_name(te);
		const td_digest_t *cd;
		if (!is_file_mode(git_tree_entry_filemode(te)))
			continue;
		if ((rc = candidate_digest(e, odb, git_tree_entry_id(te), &cd)))
			goto out;
		if (!cd)
			continue;
		if (cd->tlsh_status == TD_TLSH_OK) {
			int d = td_tlsh_distance_bounded(&tlsh, &cd->tlsh, e->result->len_diff, TD_DEFAULT_COPY_BOUND);
			if (d <= TD_DEFAULT_COPY_BOUND)
				nearest_offer(near, &nnear, TD_DEFAULT_COPY_CANDIDATES, i, d);
		}
		if (!strcmp(name_ext(name), ext)) {
			size_t len = strlen(name), shorter = len < base_len ? len : base_len;
			size_t ov = name_overlap(name, len, base, base_len);
			if (2 * ov >= shorter && ov > named_overlap) {
				named = i;
				named_overlap = ov;
			}
		}
	}
	if (named != SIZE_MAX) {
		size_t k = 0;
		while (k < nnear && near[k].entry != named)
			k++;
		if (k == nnear) {
			const td_digest_t *cd; /* known, not too large: the loop digested it */
			if ((rc = blob_digest(e, git_tree_entry_id(git_tree_entry_byindex(dir, named)), &cd)))
				goto out;
			near[nnear++] = (dir_cand_t){ named, cd->tlsh_status == TD_TLSH_OK
								? td_tlsh_distance(&tlsh, &cd->tlsh, e->result->len_diff)
								: INT_MAX };
		}
	}
	if (!nnear)
		goto out;
	if (git_blob_lookup(&blob, e->repo, &side->id)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
		goto out;
	}
	for (size_t k = 0; k < nnear; k++) {
		const git_tree_entry *te = git_tree_entry_byindex(dir, near[k].entry);
		git_blob *from = NULL;
		td_similarity_t sim;
		if (git_blob_lookup(&from, e->repo, git_tree_entry_id(te))) {
			rc = td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
			goto out;
		}
		rc = td_similarity(&sim, git_blob_rawcontent(from), (size_t)git_blob_rawsize(from),
				   git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), e->err);
		git_blob_free(from);
		if (rc)
			goto out;
		if (sim.binary || sim.value < e->opts->copy_similarity)
			continue;
		if (best == SIZE_MAX || sim.value > best_value ||
		    (sim.value == best_value && near[k].distance < best_distance)) {
			best = near[k].entry;
			best_value = sim.value;
			best_distance = near[k].distance;
		}
	}
	if (best != SIZE_MAX) {
		const git_tree_entry *te = git_tree_entry_byindex(dir, best);
		const char *name = git_tree_entry_name(te);
		size_t len = strlen(name);
		char *from = malloc(dir_len + 1 + len + 1);
		git_diff_delta d;
		if (!from) {
			rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
			goto out;
		}
		if (dir_len) {
			memcpy(from, f->path, dir_len);
			from[dir_len] = '/';
			memcpy(from + dir_len + 1, name, len + 1);
		} else {
			memcpy(from, name, len + 1);
		}
		memset(&d, 0, sizeof(d));
		d.status = GIT_DELTA_MODIFIED;
		d.old_file.id = *git_tree_entry_id(te);
		d.new_file.id = side->id;
		d.old_file.path = from;
		d.new_file.path = f->path;
		d.old_file.mode = d.new_file.mode = GIT_FILEMODE_BLOB;
		rc = score_from(e, &d, f);
		free(from);
	}
out:
	git_odb_free(odb);
	git_blob_free(blob);
	git_tree_free(dir);
	return rc;
}

/* The added files with no origin yet, after pair_renames: copy_in_dir. */
static int copies_in_dirs(engine_t *e, td_patch_t *p)
{
	int rc = TD_OK;

	for (size_t i = 0; i < e->nsides && !rc; i++)
		if (e->sides[i].added && !p->files[e->sides[i].file].copied_from)
			rc = copy_in_dir(e, p, &e->sides[i]);
	return rc;
}

/* One file of a patch: fill p's next file from delta d (a delta made by
 * the tree walk below: paths, ids, modes, status). */
static int one_file(engine_t *e, size_t idx, git_diff_delta *d)
{
	td_patch_t *p = &e->set->patches[idx];
	td_patch_file_t *f;
	git_blob *ob = NULL, *nb = NULL;
	git_patch *gp = NULL;
	git_diff_options o;
	size_t ctx, adds = 0, dels = 0;
	int binary = 0, rc = TD_OK;
	const char *path = d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path;
	void *grown = p->files;
	size_t cap = p->nfiles; /* grown one at a time: p->files has no capacity field */

	if (!(grown = td_realloc_array(p->files, cap + 1, sizeof(*p->files))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	p->files = grown;
	f = &p->files[p->nfiles];
	memset(f, 0, sizeof(*f));
	if (!(f->path = td_strndup(path, strlen(path))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	p->nfiles++;
	f->status = d->status == GIT_DELTA_ADDED ? 'A' : d->status == GIT_DELTA_DELETED ? 'D'
		  : d->status == GIT_DELTA_TYPECHANGE ? 'T' : 'M';
	f->weight = 1.0;
	if (e->opts->policy) {
		td_policy_match_t m;
		if (!td_policy_lookup(&m, e->opts->policy, f->path, strlen(f->path))) {
			f->policy_class = m.class_name;
			f->weight = m.weight;
		}
	}
	/* Lines: regular files (and symlinks as git counts them); not gitlinks. */
	if (d->old_file.mode != GIT_FILEMODE_COMMIT && d->new_file.mode != GIT_FILEMODE_COMMIT) {
		git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
		o.context_lines = 0;
		o.interhunk_lines = 0;
		if ((d->status != GIT_DELTA_ADDED && git_blob_lookup(&ob, e->repo, &d->old_file.id)) ||
		    (d->status != GIT_DELTA_DELETED && git_blob_lookup(&nb, e->repo, &d->new_file.id)) ||
		    git_patch_from_blobs(&gp, ob, d->old_file.path, nb, d->new_file.path, &o)) {
			rc = td_error_set(e->err, TD_EGIT, "patch '%s': unable to diff '%s': %s", p->id, path,
					  git_msg());
			goto out;
		}
		binary = (git_patch_get_delta(gp)->flags & GIT_DIFF_FLAG_BINARY) != 0;
		if (!binary) {
			git_patch_line_stats(&ctx, &adds, &dels, gp);
			if ((rc = td_patch_file_hash_lines(f, gp))) {
				rc = td_error_set(e->err, rc, "patch '%s': unable to read the lines of '%s'", p->id,
						  path);
				goto out;
			}
		}
	} else {
		binary = 1;
	}
	f->binary = binary;
	if ((rc = patchid_file(e, d, f, binary)))
		goto out;
	f->lines_added = adds;
	f->lines_removed = dels;
	if (!(rc = score_delta(e, d, f)) && !(rc = note_side(e, d, p->nfiles - 1, f)))
		rc = follow(e, d, gp, binary, idx);
out:
	git_patch_free(gp);
	git_blob_free(ob);
	git_blob_free(nb);
	return rc;
}

static int kind_of(uint32_t mode)
{
	return mode == GIT_FILEMODE_TREE ? 0 : is_file_mode(mode) ? 1 : mode == GIT_FILEMODE_LINK ? 2 : 3;
}

/* Git's tree order: a tree's name sorts as if it ended in '/'. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *x = git_tree_entry_name(a), *y = git_tree_entry_name(b);
	size_t i = 0;
	int cx, cy;

	while (x[i] && x[i] == y[i])
		i++;
	cx = x[i] ? (unsigned char)x[i] : git_tree_entry_filemode(a) == GIT_FILEMODE_TREE ? '/' : 0;
	cy = y[i] ? (unsigned char)y[i] : git_tree_entry_filemode(b) == GIT_FILEMODE_TREE ? '/' : 0;
	return cx - cy;
}

/* Path buffer shared by the walk. */
typedef struct pathbuf {
	char *p;
	size_t len, cap;
} pathbuf_t;

static int pb_push(pathbuf_t *b, const char *name, size_t *saved)
{
	size_t n = strlen(name);
	void *p = b->p;

	*saved = b->len;
	if (td_grow(&p, &b->cap, b->len + n + 2, 1))
		return TD_ENOMEM;
	b->p = p;
	if (b->len)
		b->p[b->len++] = '/';
	memcpy(b->p + b->len, name, n + 1);
	b->len += n;
	return TD_OK;
}

static int walk_trees(engine_t *e, size_t idx, const git_tree *a, const git_tree *b, pathbuf_t *pb, unsigned depth);

/* A pair of entries of one name (either may be NULL). */
static int walk_pair(engine_t *e, size_t idx, const git_tree_entry *x, const git_tree_entry *y, pathbuf_t *pb,
		     unsigned depth)
{
	uint32_t xm = x ? (uint32_t)git_tree_entry_filemode(x) : 0, ym = y ? (uint32_t)git_tree_entry_filemode(y) : 0;
	git_tree *tx = NULL, *ty = NULL;
	git_diff_delta d;
	size_t saved;
	int rc;

	if (x && y && git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)) && xm == ym)
		return TD_OK;
	if (pb_push(pb, git_tree_entry_name(x ? x : y), &saved))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	if ((x && xm == GIT_FILEMODE_TREE) || (y && ym == GIT_FILEMODE_TREE)) {
		/* same name, both trees (a blob and a tree of one name sort apart) */
		if ((x && git_tree_lookup(&tx, e->repo, git_tree_entry_id(x))) ||
		    (y && git_tree_lookup(&ty, e->repo, git_tree_entry_id(y)))) {
			git_tree_free(tx);
			return td_error_set(e->err, TD_EGIT, "unable to read tree '%s': %s", pb->p, git_msg());
		}
		rc = walk_trees(e, idx, tx, ty, pb, depth + 1);
		git_tree_free(tx);
		git_tree_free(ty);
	} else {
		memset(&d, 0, sizeof(d));
		d.status = !x ? GIT_DELTA_ADDED : !y ? GIT_DELTA_DELETED
			 : kind_of(xm) != kind_of(ym) ? GIT_DELTA_TYPECHANGE : GIT_DELTA_MODIFIED;
		d.old_file.path = d.new_file.path = pb->p;
		if (x) {
			git_oid_cpy(&d.old_file.id, git_tree_entry_id(x));
			d.old_file.mode = (uint16_t)xm;
		}
		if (y) {
			git_oid_cpy(&d.new_file.id, git_tree_entry_id(y));
			d.new_file.mode = (uint16_t)ym;
		}
		rc = one_file(e, idx, &d);
	}
	pb->len = saved;
	pb->p[saved] = '\0';
	return rc;
}

/* The changed entries of two trees (either may be NULL), recursing only
 * into subtrees whose ids differ: git diff-tree -r without renames. */
static int walk_trees(engine_t *e, size_t idx, const git_tree *a, const git_tree *b, pathbuf_t *pb, unsigned depth)
{
	size_t na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0, i = 0, j = 0;
	int rc = TD_OK;

	if (depth > 4096)
		return td_error_set(e->err, TD_EINVAL, "trees nest deeper than 4096");
	while (!rc && (i < na || j < nb)) {
		const git_tree_entry *x = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *y = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !x ? 1 : !y ? -1 : entry_cmp(x, y);
		if (c < 0)
			y = NULL, i++;
		else if (c > 0)
			x = NULL, j++;
		else
			i++, j++;
		rc = walk_pair(e, idx, x, y, pb, depth);
	}
	return rc;
}

/* Diff the trees of patch idx and fill its files. */
static int run_patch(engine_t *e, size_t idx, const git_oid *before, const git_oid *after)
{
	td_patch_t *p = &e->set->patches[idx];
	git_tree *a = NULL, *b = NULL;
	pathbuf_t pb = { NULL, 0, 0 };
	int rc;

	if ((before && git_tree_lookup(&a, e->repo, before)) || git_tree_lookup(&b, e->repo, after)) {
		git_tree_free(a);
		return td_error_set(e->err, TD_EGIT, "patch '%s': unable to read its trees: %s", p->id, git_msg());
	}
	memset(e->pid_sum, 0, sizeof(e->pid_sum));
	e->pid_files = e->pid_npaths = 0;
	e->before = a;
	e->nsides = 0;
	if (!(rc = pb_push(&pb, "", &(size_t){ 0 }) ? TD_ENOMEM : TD_OK))
		rc = walk_trees(e, idx, a, b, &pb, 0);
	else
		td_error_set(e->err, rc, "out of memory");
	if (!rc)
		rc = pair_renames(e, p);
	if (!rc)
		rc = copies_in_dirs(e, p);
	if (!rc && e->pid_files) {
		unsigned char part[TD_PATCHID_BYTES];
		git_oid id;
		if (td_patchid_text_part(part, e->repo, a, b, e->pid_paths, e->pid_npaths)) {
			rc = td_error_set(e->err, TD_EGIT, "patch '%s': unable to compute its patch id: %s", p->id,
					  git_msg());
		} else {
			td_patchid_sum(e->pid_sum, part);
			memcpy(id.id, e->pid_sum, TD_PATCHID_BYTES);
			if (!(p->patch_id = malloc(GIT_OID_HEXSZ + 1)))
				rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
			else
				git_oid_tostr(p->patch_id, GIT_OID_HEXSZ + 1, &id);
		}
	}
	if (!rc)
		if (p->nfiles)
			qsort(p->files, p->nfiles, sizeof(*p->files), file_cmp);
	free(pb.p);
	e->before = NULL;
	git_tree_free(a);
	git_tree_free(b);
	return rc;
}

/* --- series replay ------------------------------------------------------- */

/* Apply only one delta, and of it the first `limit` hunks: to find which
 * hunk of a patch that does not apply fails. */
typedef struct pick {
	size_t want, delta, hunk, limit;
} pick_t;

static int pick_delta(const git_diff_delta *d, void *payload)
{
	pick_t *p = payload;
	(void)d;
	p->hunk = 0;
	return p->delta++ == p->want ? 0 : 1;
}

static int pick_hunk(const git_diff_hunk *h, void *payload)
{
	pick_t *p = payload;
	(void)h;
	return p->hunk++ < p->limit ? 0 : 1;
}

static int try_apply(git_repository *repo, git_tree *tree, git_diff *diff, pick_t *pk)
{
	git_apply_options ao;
	git_index *idx = NULL;
	int g;

	git_apply_options_init(&ao, GIT_APPLY_OPTIONS_VERSION);
	ao.delta_cb = pick_delta;
	ao.hunk_cb = pick_hunk;
	ao.payload = pk;
	pk->delta = 0;
	g = git_apply_to_tree(&idx, repo, tree, diff, &ao);
	git_index_free(idx);
	return g;
}

/* The error for a patch that does not apply: its file and hunk. */
static int apply_error(engine_t *e, const char *id, git_tree *tree, git_diff *diff, const char *why)
{
	char msg[512];
	size_t nd = git_diff_num_deltas(diff);

	snprintf(msg, sizeof(msg), "%s", why);
	for (size_t d = 0; d < nd; d++) {
		pick_t pk = { d, 0, 0, SIZE_MAX };
		const git_diff_delta *dl = git_diff_get_delta(diff, d);
		git_patch *gp = NULL;
		size_t nh;
		if (!try_apply(e->repo, tree, diff, &pk))
			continue;
		if (git_patch_from_diff(&gp, diff, d) || !gp)
			break;
		nh = git_patch_num_hunks(gp);
		for (size_t k = 1; k <= nh; k++) {
			const git_diff_hunk *h;
			size_t nl, hl;
			pick_t one = { d, 0, 0, k };
			if (!try_apply(e->repo, tree, diff, &one) || git_patch_get_hunk(&h, &nl, gp, k - 1))
				continue;
			hl = strlen(h->header);
			while (hl && (h->header[hl - 1] == '\n' || h->header[hl - 1] == '\r'))
				hl--;
			td_error_set(e->err, TD_EINVAL, "patch '%s' does not apply: '%s', hunk %zu of %zu (%.*s): %s",
				     id, dl->old_file.path ? dl->old_file.path : dl->new_file.path, k, nh, (int)hl,
				     h->header, msg);
			git_patch_free(gp);
			return TD_EINVAL;
		}
		git_patch_free(gp);
		return td_error_set(e->err, TD_EINVAL, "patch '%s' does not apply: '%s': %s", id,
				    dl->old_file.path ? dl->old_file.path : dl->new_file.path, msg);
	}
	return td_error_set(e->err, TD_EINVAL, "patch '%s' does not apply: %s", id, msg);
}

/* Read path (relative, checked) under root into a new buffer; 1 when it is
 * not there, 0 with *mode set. */
static int read_under(const char *root, const char *path, char **buf, size_t *len, uint32_t *mode,
		      td_error_t *err)
{
	size_t rl = strlen(root), pl = strlen(path);
	char *full = malloc(rl + pl + 2);
	struct stat st;
	int rc = TD_OK, fd = -1;

	*buf = NULL;
	*len = 0;
	if (!full)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	snprintf(full, rl + pl + 2, "%s/%s", root, path);
	if (lstat(full, &st)) {
		rc = errno == ENOENT || errno == ENOTDIR ? 1 : td_error_set(err, TD_EIO, "unable to stat '%s'", full);
		goto out;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(full, target, sizeof(target));
		if (n < 0 || (size_t)n >= sizeof(target)) {
			rc = td_error_set(err, TD_EIO, "unable to read link '%s'", full);
			goto out;
		}
		*mode = GIT_FILEMODE_LINK;
		*len = (size_t)n;
		if (!(*buf = td_strndup(target, (size_t)n)))
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = 1;
		goto out;
	}
	if ((uint64_t)st.st_size > BASE_FILE_MAX_BYTES) {
		rc = td_error_set(err, TD_ENOMEM, "'%s' is over %u bytes", full, BASE_FILE_MAX_BYTES);
		goto out;
	}
	*mode = (st.st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
	if ((fd = open(full, O_RDONLY | O_NOFOLLOW)) < 0 || !(*buf = malloc((size_t)st.st_size + 1))) {
		rc = td_error_set(err, fd < 0 ? TD_EIO : TD_ENOMEM, "unable to read '%s'", full);
		goto out;
	}
	while (*len < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + *len, (size_t)st.st_size - *len);
		if (n <= 0) {
			rc = td_error_set(err, TD_EIO, "unable to read '%s'", full);
			goto out;
		}
		*len += (size_t)n;
	}
out:
	if (fd >= 0)
		close(fd);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	free(full);
	return rc;
}

typedef struct path_set {
	char **paths;
	size_t n, cap;
} path_set_t;

static int path_set_add(path_set_t *s, const char *path)
{
	void *p = s->paths;
	if (td_grow(&p, &s->cap, s->n + 1, sizeof(*s->paths)))
		return TD_ENOMEM;
	s->paths = p;
	return (s->paths[s->n] = td_strndup(path, strlen(path))) ? (s->n++, TD_OK) : TD_ENOMEM;
}

/* For copy_in_dir in a series: the upstream files of the directory of
 * path, a file upstream lacks that the series adds, unless dirs has that
 * directory (then add it there). A directory of over DIR_FILES_MAX files
 * is left out, as copy_in_dir leaves it. */
static int add_dir_files(const engine_t *e, path_set_t *paths, path_set_t *dirs, const char *path)
{
	const td_tree_t *u = e->result->upstream;
	const char *slash = strrchr(path, '/');
	size_t dn = slash ? (size_t)(slash - path) + 1 : 0; /* with its '/' */
	size_t lo = 0, hi, end, count = 0;
	char *dir;

	if (!u || td_tree_find(u, path, strlen(path)))
		return TD_OK;
	for (size_t i = 0; i < dirs->n; i++)
		if (strlen(dirs->paths[i]) == dn && !memcmp(dirs->paths[i], path, dn))
			return TD_OK;
	if (!(dir = td_strndup(path, dn)) || path_set_add(dirs, dir)) {
		free(dir);
		return TD_ENOMEM;
	}
	free(dir);
	for (hi = u->count; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (td_path_cmp(u->files[mid].path, u->files[mid].path_len, path, dn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < u->count && u->files[end].path_len >= dn && !memcmp(u->files[end].path, path, dn);
	     end++)
		count += !memchr(u->files[end].path + dn, '/', u->files[end].path_len - dn);
	if (count > DIR_FILES_MAX)
		return TD_OK;
	for (size_t i = lo; i < end; i++) {
		const td_file_t *f = &u->files[i];
		if (f->type == TD_ENTRY_FILE && !memchr(f->path + dn, '/', f->path_len - dn) &&
		    path_set_add(paths, f->path))
			return TD_ENOMEM;
	}
	return TD_OK;
}

static int add_blob_entry(git_repository *repo, git_index *idx, const char *path, const void *buf, size_t len,
			  uint32_t mode)
{
	git_index_entry ie;

	memset(&ie, 0, sizeof(ie));
	if (git_blob_create_from_buffer(&ie.id, repo, buf, len))
		return -1;
	ie.path = path;
	ie.mode = mode;
	ie.file_size = (uint32_t)len;
	return git_index_add(idx, &ie);
}

typedef struct arch_ctx {
	char *buf;
	size_t len, cap;
} arch_ctx_t;

static int arch_sink(void *ctx, const void *data, size_t len)
{
	arch_ctx_t *a = ctx;
	void *p = a->buf;
	if (a->len + len > BASE_FILE_MAX_BYTES || td_grow(&p, &a->cap, a->len + len + 1, 1))
		return 1;
	a->buf = p;
	memcpy(a->buf + a->len, data, len);
	a->len += len;
	return 0;
}

static int path_cmp_qsort(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One wanted entry f of a stream into idx under path: its content (a
 * symlink's target) as a blob. */
static int stream_entry(engine_t *e, td_source_t *src, td_file_t *f, git_index *idx, const char *path)
{
	arch_ctx_t a = { NULL, 0, 0 };
	const char *skip = NULL;
	int rc;

	if (f->type == TD_ENTRY_SYMLINK)
		return add_blob_entry(e->repo, idx, path, f->link_target, f->link_len, GIT_FILEMODE_LINK)
			       ? td_error_set(e->err, TD_EGIT, "unable to store '%s': %s", path, git_msg())
			       : TD_OK;
	rc = td_source_read(src, f, arch_sink, &a, &skip, e->err);
	if (!rc && add_blob_entry(e->repo, idx, path, a.buf ? a.buf : "", a.len,
				  (f->mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB))
		rc = td_error_set(e->err, TD_EGIT, "unable to store '%s': %s", path, git_msg());
	free(a.buf);
	return rc;
}

static int path_wanted(const path_set_t *paths, const char *path)
{
	return paths->n && bsearch(&path, paths->paths, paths->n, sizeof(*paths->paths), path_cmp_qsort) != NULL;
}

/* The files of paths (sorted) from a source read in order (git, an
 * archive) into *idx. An archive whose entries all lie in one top folder
 * has it dropped, as the scan drops it (td_source_auto_strip): each entry
 * is looked for both as it is and without its first part, and the second
 * set is kept when the folder turns out to be the only one. */
static int base_tree_from_stream(engine_t *e, td_source_t *src, const path_set_t *paths, git_index **idx,
				 size_t *strip)
{
	git_index *stripped = NULL;
	char *top = NULL;
	size_t top_len = 0;
	int single = td_source_auto_strip(src), more, rc = TD_OK;
	td_file_t f;

	if (single && git_index_new(&stripped))
		return td_error_set(e->err, TD_EGIT, "unable to make an index: %s", git_msg());
	while ((more = td_source_next(&f, src, e->err)) > 0) {
		int file = f.type == TD_ENTRY_FILE || f.type == TD_ENTRY_SYMLINK;
		size_t n = strcspn(f.path, "/");
		const char *rest = f.path[n] ? f.path + n + 1 : NULL;
		if (single && !rest)
			single = 0;
		else if (single && !top && !(top = td_strndup(f.path, top_len = n)))
			rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
		else if (single && (n != top_len || memcmp(f.path, top, n)))
			single = 0;
		if (!rc && file && path_wanted(paths, f.path))
			rc = stream_entry(e, src, &f, *idx, f.path);
		else if (!rc && file && single && rest && path_wanted(paths, rest))
			rc = stream_entry(e, src, &f, stripped, rest);
		td_file_release(&f);
		if (rc)
			break;
	}
	if (!rc && more < 0)
		rc = more;
	if (!rc && single && top) {
		git_index_free(*idx);
		*idx = stripped;
		stripped = NULL;
		*strip = top_len + 1;
	}
	git_index_free(stripped);
	free(top);
	return rc;
}

/* The files of paths from a source (a directory, git, an archive), as a
 * tree in the in-memory repository; *strip the bytes of an archive's top
 * folder dropped from its paths, 0 for none. */
static int base_tree_from_source(engine_t *e, td_source_t *src, path_set_t *paths, git_oid *out, size_t *strip)
{
	git_index *idx = NULL;
	int rc = TD_OK;

	*strip = 0;
	if (git_index_new(&idx)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to make an index: %s", git_msg());
		goto out;
	}
	if (paths->n)
		qsort(paths->paths, paths->n, sizeof(*paths->paths), path_cmp_qsort);
	if (!strcmp(td_source_kind(src), "dir")) {
		for (size_t i = 0; i < paths->n; i++) {
			char *buf;
			size_t len;
			uint32_t mode;
			if (i && !strcmp(paths->paths[i], paths->paths[i - 1]))
				continue;
			rc = read_under(td_source_root(src), paths->paths[i], &buf, &len, &mode, e->err);
			if (rc == 1) {
				rc = TD_OK;
				continue;
			}
			if (rc)
				goto out;
			if (add_blob_entry(e->repo, idx, paths->paths[i], buf, len, mode))
				rc = td_error_set(e->err, TD_EGIT, "unable to store '%s': %s", paths->paths[i],
						  git_msg());
			free(buf);
			if (rc)
				goto out;
		}
	} else if ((rc = base_tree_from_stream(e, src, paths, &idx, strip))) {
		goto out;
	}
	if (git_index_write_tree_to(out, idx, e->repo))
		rc = td_error_set(e->err, TD_EGIT, "unable to write the base tree: %s", git_msg());
out:
	git_index_free(idx);
	return rc;
}

/* An in-memory backend in front of e->repo's object database, so that what
 * is written (blobs, trees of applied patches) never reaches the
 * repository itself. */
static int add_mempack(engine_t *e)
{
	git_odb_backend *mem = NULL;
	git_odb *odb = NULL;
	int rc = TD_OK;

	if (git_repository_odb(&odb, e->repo) || git_mempack_new(&mem) || git_odb_add_backend(odb, mem, 1000)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to add an in-memory backend: %s", git_msg());
		if (mem && odb)
			mem->free(mem);
	}
	git_odb_free(odb);
	return rc;
}

/* A repository for the series: the base's own (git) with an in-memory
 * backend in front for every write, or an in-memory one. *base gets the
 * base tree. */
static int series_repo(engine_t *e, td_source_t *src, path_set_t *paths, git_oid *base)
{
	git_odb_backend *mem = NULL;
	git_odb *odb = NULL;
	size_t strip;
	int rc = TD_OK;

	if (!strcmp(td_source_kind(src), "git")) {
		const char *root = td_source_root(src) + 4; /* "git:/abs@hex" */
		const char *at = strrchr(root, '@');
		char *path = at ? td_strndup(root, (size_t)(at - root)) : NULL;
		git_commit *c = NULL;
		git_oid cid;
		if (!path)
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		if (git_repository_open_ext(&e->repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) ||
		    git_oid_fromstr(&cid, at + 1) || git_commit_lookup(&c, e->repo, &cid)) {
			rc = td_error_set(e->err, TD_EGIT, "unable to open '%s': %s", td_source_root(src), git_msg());
			free(path);
			return rc;
		}
		free(path);
		e->owns_repo = 1;
		git_oid_cpy(base, git_commit_tree_id(c));
		git_commit_free(c);
		return add_mempack(e);
	}
	if (git_odb_new(&odb) || git_mempack_new(&mem) || git_odb_add_backend(odb, mem, 1000)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to make an in-memory repository: %s", git_msg());
		if (mem)
			mem->free(mem);
		git_odb_free(odb);
		return rc;
	}
	if (git_repository_wrap_odb(&e->repo, odb)) {
		git_odb_free(odb);
		return td_error_set(e->err, TD_EGIT, "unable to make an in-memory repository: %s", git_msg());
	}
	git_odb_free(odb);
	e->owns_repo = 1;
	return base_tree_from_source(e, src, paths, base, &strip);
}

/* --- hunk offsets --------------------------------------------------------
 * libgit2 applies a hunk only at the line its header names; patch(1) and
 * git apply look for it above and below (an offset, no fuzz), and series
 * made for an older base rely on that. So before libgit2 sees a patch, each
 * hunk is found in the file as the earlier hunks left it, searching out
 * from where its header says, and its "+c" start is rewritten to the line
 * found. A hunk not found keeps its header, and libgit2 reports it. */

typedef struct span {
	const char *p;
	size_t n;       /* without the '\n' */
} span_t;

typedef struct image {
	span_t *lines;
	size_t n, cap;
} image_t;

static int image_put(image_t *im, size_t at, size_t remove, const span_t *add, size_t nadd)
{
	void *p = im->lines;

	if (nadd > remove && td_grow(&p, &im->cap, im->n + nadd - remove, sizeof(*im->lines)))
		return TD_ENOMEM;
	im->lines = p;
	if (im->n > at + remove)
		memmove(im->lines + at + nadd, im->lines + at + remove, (im->n - at - remove) * sizeof(*im->lines));
	if (nadd)
		memcpy(im->lines + at, add, nadd * sizeof(*add));
	im->n = im->n + nadd - remove;
	return TD_OK;
}

static int image_load(image_t *im, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	im->n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		span_t l = { p, nl ? (size_t)(nl - p) : (size_t)(end - p) };
		if (image_put(im, im->n, 0, &l, 1))
			return TD_ENOMEM;
		p = nl ? nl + 1 : end;
	}
	return TD_OK;
}

static int match_at(const image_t *im, size_t pos, const span_t *pre, size_t npre)
{
	if (pos + npre > im->n)
		return 0;
	for (size_t i = 0; i < npre; i++)
		if (im->lines[pos + i].n != pre[i].n || memcmp(im->lines[pos + i].p, pre[i].p, pre[i].n))
			return 0;
	return 1;
}

/* Where pre[] is in im, nearest to want; SIZE_MAX when nowhere. */
static size_t find_hunk(const image_t *im, size_t want, const span_t *pre, size_t npre)
{
	if (want > im->n)
		want = im->n;
	for (size_t off = 0; off <= im->n; off++) {
		if (off <= want && match_at(im, want - off, pre, npre))
			return want - off;
		if (off && want + off <= im->n && match_at(im, want + off, pre, npre))
			return want + off;
	}
	return SIZE_MAX;
}

typedef struct fixbuf {
	char *p;
	size_t len, cap;
} fixbuf_t;

static int fb_put(fixbuf_t *b, const char *s, size_t n)
{
	void *p = b->p;
	if (td_grow(&p, &b->cap, b->len + n + 1, 1))
		return TD_ENOMEM;
	b->p = p;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return TD_OK;
}

static int next_text_line(const char *text, size_t len, size_t *pos, span_t *l)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	l->p = text + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->n = nl ? (size_t)(nl - l->p) : len - *pos;
	*pos += l->n + (nl != NULL);
	return 1;
}

/* text, a normalized diff, with each hunk's new start set to where it
 * applies in tree. *out NULL: nothing to change. */
static int fix_offsets(engine_t *e, git_tree *tree, const char *text, size_t len, char **out, size_t *out_len)
{
	fixbuf_t o = { NULL, 0, 0 };
	image_t im = { NULL, 0, 0 };
	span_t *pre = NULL, *post = NULL;
	size_t pos = 0, pre_cap = 0, post_cap = 0;
	git_blob *blob = NULL;
	int have = 0, changed = 0, rc = TD_OK;
	long long delta = 0, shift = 0;
	span_t l;

	*out = NULL;
	*out_len = 0;
	while (next_text_line(text, len, &pos, &l)) {
		unsigned long a, b, c, d;
		char *end;
		size_t npre = 0, npost = 0, want, at;
		const char *tail;
		if (l.n > 6 && !memcmp(l.p, "--- a/", 6) && l.p[6] != '"') {
			git_tree_entry *te = NULL;
			char *path = td_strndup(l.p + 6, l.n - 6);
			git_blob_free(blob);
			blob = NULL;
			have = 0;
			delta = shift = 0;
			if (!path) {
				rc = TD_ENOMEM;
				goto out;
			}
			if (!git_tree_entry_bypath(&te, tree, path) && git_tree_entry_type(te) == GIT_OBJECT_BLOB &&
			    !git_blob_lookup(&blob, e->repo, git_tree_entry_id(te))) {
				if ((rc = image_load(&im, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob))))
					goto out;
				have = 1;
			}
			git_tree_entry_free(te);
			free(path);
		} else if (l.n > 7 && !memcmp(l.p, "--- ", 4)) {
			have = 0;
		}
		if (!have || l.n < 4 || memcmp(l.p, "@@ -", 4)) {
			if (fb_put(&o, l.p, l.n) || fb_put(&o, "\n", 1)) {
				rc = TD_ENOMEM;
				goto out;
			}
			continue;
		}
		/* "@@ -a[,b] +c[,d] @@tail" */
		a = strtoul(l.p + 4, &end, 10);
		b = *end == ',' ? strtoul(end + 1, &end, 10) : 1;
		if (strncmp(end, " +", 2)) {
			have = 0;
			if (fb_put(&o, l.p, l.n) || fb_put(&o, "\n", 1))
				rc = TD_ENOMEM;
			if (rc)
				goto out;
			continue;
		}
		c = strtoul(end + 2, &end, 10);
		d = *end == ',' ? strtoul(end + 1, &end, 10) : 1;
		tail = end;
		(void)c;
		/* the hunk's lines, by its counts */
		{
			size_t save = pos;
			unsigned long ob = b, nd = d;
			span_t hl;
			while ((ob || nd) && next_text_line(text, len, &pos, &hl)) {
				void *p;
				char k = hl.n ? hl.p[0] : ' ';
				span_t body = { hl.n ? hl.p + 1 : hl.p, hl.n ? hl.n - 1 : 0 };
				if (k == '\\')
					continue;
				if (k == ' ' || k == '-') {
					p = pre;
					if (td_grow(&p, &pre_cap, npre + 1, sizeof(*pre))) {
						rc = TD_ENOMEM;
						goto out;
					}
					pre = p;
					pre[npre++] = body;
					ob -= ob > 0;
				}
				if (k == ' ' || k == '+') {
					p = post;
					if (td_grow(&p, &post_cap, npost + 1, sizeof(*post))) {
						rc = TD_ENOMEM;
						goto out;
					}
					post = p;
					post[npost++] = body;
					nd -= nd > 0;
				}
			}
			pos = save;
		}
		want = (size_t)((long long)(b ? a - 1 : a) + delta + shift < 0 ? 0
								      : (long long)(b ? a - 1 : a) + delta + shift);
		at = npre ? find_hunk(&im, want, pre, npre) : (want > im.n ? im.n : want);
		if (at == SIZE_MAX) {
			have = 0; /* libgit2 says where it fails */
			if (fb_put(&o, l.p, l.n) || fb_put(&o, "\n", 1)) {
				rc = TD_ENOMEM;
				goto out;
			}
			continue;
		}
		shift += (long long)at - (long long)want;
		delta += (long long)npost - (long long)npre;
		if ((rc = image_put(&im, at, npre, post, npost)))
			goto out;
		{
			char head[128];
			int hn = snprintf(head, sizeof(head), "@@ -%lu,%lu +%zu,%lu", a, b, at + 1, d);
			changed |= at + 1 != c;
			if (hn < 0 || (size_t)hn >= sizeof(head) || fb_put(&o, head, (size_t)hn) ||
			    fb_put(&o, tail, (size_t)(l.p + l.n - tail)) || fb_put(&o, "\n", 1)) {
				rc = TD_ENOMEM;
				goto out;
			}
		}
	}
	if (changed) {
		*out = o.p;
		*out_len = o.len;
		o.p = NULL;
	}
out:
	git_blob_free(blob);
	free(o.p);
	free(im.lines);
	free(pre);
	free(post);
	return rc;
}

/* Apply the series onto the base: trees[2i], trees[2i+1] = before, after. */
static int replay_series(engine_t *e, td_patch_list_t *l, git_oid *trees)
{
	git_diff **diffs = calloc(l->count ? l->count : 1, sizeof(*diffs));
	path_set_t paths = { NULL, 0, 0 }, dirs = { NULL, 0, 0 };
	td_source_t *src = NULL;
	git_oid cur;
	int rc = TD_OK;

	if (!diffs)
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < l->count; i++) {
		if (!l->diff_lens[i])
			continue;
		if (git_diff_from_buffer(&diffs[i], l->diffs[i], l->diff_lens[i])) {
			rc = td_error_set(e->err, TD_EINVAL, "patch '%s': %s", l->patches[i].id, git_msg());
			goto out;
		}
		for (size_t d = 0; d < git_diff_num_deltas(diffs[i]); d++) {
			const git_diff_delta *dl = git_diff_get_delta(diffs[i], d);
			const char *ps[2] = { dl->old_file.path, dl->new_file.path };
			for (int k = 0; k < 2; k++) {
				if (!ps[k])
					continue;
				if (!td_patch_path_ok(ps[k], strlen(ps[k]))) {
					rc = td_error_set(e->err, TD_EINVAL, "patch '%s': unsafe path '%s'",
							  l->patches[i].id, ps[k]);
					goto out;
				}
				if (path_set_add(&paths, ps[k])) {
					rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
					goto out;
				}
			}
			/* the neighbours of an added file, for copy_in_dir */
			if (dl->status == GIT_DELTA_ADDED && add_dir_files(e, &paths, &dirs, dl->new_file.path)) {
				rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
				goto out;
			}
		}
	}
	/* The origins of copies too, for score_added. */
	for (size_t i = 0; i < e->ncopies; i++) {
		if (path_set_add(&paths, e->copies[i].origin)) {
			rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (!e->opts->base_spec) {
		rc = td_error_set(e->err, TD_EINVAL, "a patch series needs the base tree it applies to");
		goto out;
	}
	if (td_spec_is_db(e->opts->base_spec)) {
		rc = td_error_set(e->err, TD_EUNSUPPORTED,
				  "a patch series applies to the upstream tree's files: give upstream as a directory, "
				  "git:REPO@REV or an archive, not a database ('%s')", e->opts->base_spec);
		goto out;
	}
	if ((rc = td_source_open(&src, e->opts->base_spec, e->opts->source, e->err)))
		goto out;
	if ((rc = series_repo(e, src, &paths, &cur)))
		goto out;
	for (size_t i = 0; i < l->count; i++) {
		git_tree *tree = NULL;
		git_index *idx = NULL;
		git_oid next = cur;
		if (diffs[i]) {
			if (git_tree_lookup(&tree, e->repo, &cur)) {
				rc = td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
				goto out;
			}
			{
				char *fixed = NULL;
				size_t fixed_len = 0;
				git_diff *fd = NULL;
				if ((rc = fix_offsets(e, tree, l->diffs[i], l->diff_lens[i], &fixed, &fixed_len))) {
					git_tree_free(tree);
					rc = td_error_set(e->err, rc, "out of memory");
					goto out;
				}
				/* The diff may point into its text: the list keeps the text. */
				if (fixed && !git_diff_from_buffer(&fd, fixed, fixed_len)) {
					git_diff_free(diffs[i]);
					diffs[i] = fd;
					free(l->diffs[i]);
					l->diffs[i] = fixed;
					l->diff_lens[i] = fixed_len;
				} else {
					free(fixed);
				}
			}
			if (git_apply_to_tree(&idx, e->repo, tree, diffs[i], NULL)) {
				char why[256];
				snprintf(why, sizeof(why), "%s", git_msg());
				rc = apply_error(e, l->patches[i].id, tree, diffs[i], why);
				git_tree_free(tree);
				goto out;
			}
			if (git_index_write_tree_to(&next, idx, e->repo))
				rc = td_error_set(e->err, TD_EGIT, "patch '%s': unable to write its tree: %s",
						  l->patches[i].id, git_msg());
			git_index_free(idx);
			git_tree_free(tree);
			if (rc)
				goto out;
		}
		trees[2 * i] = cur;
		trees[2 * i + 1] = next;
		cur = next;
	}
out:
	for (size_t i = 0; i < l->count; i++)
		git_diff_free(diffs[i]);
	free(diffs);
	for (size_t i = 0; i < paths.n; i++)
		free(paths.paths[i]);
	free(paths.paths);
	for (size_t i = 0; i < dirs.n; i++)
		free(dirs.paths[i]);
	free(dirs.paths);
	td_source_free(src);
	return rc;
}

/* --- rebase check --------------------------------------------------------
 * Each patch applied in turn to a newer tree (opts->rebase_spec), after the
 * patches before it that applied, as git rebase (or git am -3) applies a
 * commit: each of its files is a three-way merge of the file before the
 * patch (the ancestor), the newer tree's file as the patches before left it
 * (ours) and the file after the patch (theirs). A file of the base that the
 * newer tree lacks is followed to where it moved (find_moved); there is no
 * other rename detection. A patch whose every file is already as it would
 * leave it is present: the newer tree has it. */

/* A file of the base that the patches change and the newer tree lacks,
 * and where the newer tree has it: of its files with the same name (as
 * git's rename detection looks first), the one whose lines it shares most,
 * at copy_similarity or more. */
typedef struct moved {
	char *from;
	char *to;               /* NULL: not found */
	git_blob *base;         /* the base's file */
	double best;
	git_oid id;             /* the newer tree's file at to */
	uint32_t mode;
	size_t tried;
} moved_t;

/* Files of the same name diffed at most for one moved file. */
#define MOVED_CANDIDATES_MAX 256

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* One entry f of the newer tree (path its path there): the moved files of
 * its name that it is more like than what they have. */
static int moved_candidate(engine_t *e, td_source_t *src, td_file_t *f, const char *path, moved_t *moved,
			   size_t nmoved)
{
	arch_ctx_t a = { NULL, 0, 0 };
	const char *skip = NULL, *name = base_name(path);
	int read = 0, rc = TD_OK;

	for (size_t i = 0; i < nmoved && !rc; i++) {
		moved_t *m = &moved[i];
		td_similarity_t sim;
		if (strcmp(base_name(m->from), name) || !strcmp(m->from, path) || m->tried >= MOVED_CANDIDATES_MAX)
			continue;
		if (!read++ && (rc = td_source_read(src, f, arch_sink, &a, &skip, e->err)))
			break;
		m->tried++;
		if ((rc = td_similarity(&sim, git_blob_rawcontent(m->base), (size_t)git_blob_rawsize(m->base),
					a.buf ? a.buf : "", a.len, e->err)))
			break;
		if (sim.binary || sim.value < e->opts->copy_similarity || sim.value <= m->best)
			continue;
		free(m->to);
		if (!(m->to = td_strndup(path, strlen(path))))
			rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
		else if (git_blob_create_from_buffer(&m->id, e->repo, a.buf ? a.buf : "", a.len))
			rc = td_error_set(e->err, TD_EGIT, "unable to store '%s': %s", path, git_msg());
		m->best = sim.value;
		m->mode = (f->mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
	}
	free(a.buf);
	return rc;
}

/* The files of the base tree that the patches change (paths) and that the
 * newer tree (idx, read from spec with strip) lacks: *moved, with where
 * the newer tree has them, each added to idx. */
static int find_moved(engine_t *e, const path_set_t *paths, git_tree *base, git_index *idx, size_t strip,
		      moved_t **moved, size_t *nmoved)
{
	td_source_t *src = NULL;
	td_file_t f;
	size_t n = 0;
	int more, rc = TD_OK;

	*moved = NULL;
	*nmoved = 0;
	for (size_t i = 0; i < paths->n; i++) {
		git_tree_entry *te = NULL;
		moved_t *m;
		if ((i && !strcmp(paths->paths[i], paths->paths[i - 1])) || git_index_get_bypath(idx, paths->paths[i], 0) ||
		    git_tree_entry_bypath(&te, base, paths->paths[i]))
			continue;
		if (git_tree_entry_type(te) != GIT_OBJECT_BLOB) {
			git_tree_entry_free(te);
			continue;
		}
		if (!(m = td_realloc_array(*moved, n + 1, sizeof(*m)))) {
			git_tree_entry_free(te);
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		}
		*moved = m;
		m += n;
		memset(m, 0, sizeof(*m));
		m->from = paths->paths[i];
		rc = git_blob_lookup(&m->base, e->repo, git_tree_entry_id(te));
		git_tree_entry_free(te);
		*nmoved = ++n;
		if (rc)
			return td_error_set(e->err, TD_EGIT, "unable to read a blob: %s", git_msg());
	}
	if (!n)
		return TD_OK;
	if ((rc = td_source_open(&src, e->opts->rebase_spec, e->opts->source, e->err)))
		return rc;
	while ((more = td_source_next(&f, src, e->err)) > 0) {
		const char *path = f.path;
		if (strip && strlen(path) > strip)
			path += strip;
		if (f.type == TD_ENTRY_FILE)
			rc = moved_candidate(e, src, &f, path, *moved, n);
		td_file_release(&f);
		if (rc)
			break;
	}
	if (!rc && more < 0)
		rc = more;
	for (size_t i = 0; i < n && !rc; i++) {
		git_index_entry ie;
		if (!(*moved)[i].to || git_index_get_bypath(idx, (*moved)[i].to, 0))
			continue;
		memset(&ie, 0, sizeof(ie));
		ie.path = (*moved)[i].to;
		ie.id = (*moved)[i].id;
		ie.mode = (*moved)[i].mode;
		if (git_index_add(idx, &ie))
			rc = td_error_set(e->err, TD_EGIT, "index: %s", git_msg());
	}
	td_source_free(src);
	return rc;
}

/* An entry of tree at path into *ie (id and mode); 0 when it has none. */
static int tree_entry_at(git_tree *tree, const char *path, git_index_entry *ie)
{
	git_tree_entry *te = NULL;

	memset(ie, 0, sizeof(*ie));
	if (!tree || git_tree_entry_bypath(&te, tree, path))
		return 0;
	git_oid_cpy(&ie->id, git_tree_entry_id(te));
	ie->mode = git_tree_entry_filemode(te);
	ie->path = path;
	git_tree_entry_free(te);
	return ie->mode != GIT_FILEMODE_TREE;
}

static int same_entry(int have_a, const git_index_entry *a, int have_b, const git_index_entry *b)
{
	return have_a == have_b && (!have_a || (a->mode == b->mode && git_oid_equal(&a->id, &b->id)));
}

/* One file of a patch (before: ancestor, after: theirs) merged into idx
 * (ours) at where; base is the tree the first patch applies to (NULL:
 * none). Returns 0 merged (*present 1 when ours already was the result),
 * 1 in conflict with *why (and for lines *regions, the conflicting ones),
 * or an error. */
static int rebase_file(engine_t *e, git_index *idx, git_tree *base, git_tree *before, git_tree *after,
		       const char *path, const char *where, int *present, td_rebase_why_t *why, size_t *regions)
{
	git_index_entry b, t, o;
	const git_index_entry *cur = git_index_get_bypath(idx, where, 0);
	git_merge_file_options mo;
	int hb = tree_entry_at(before, path, &b), ht = tree_entry_at(after, path, &t), ho = cur != NULL;
	git_merge_file_result m;
	git_index_entry out;
	int rc = TD_OK;

	*present = 0;
	*regions = 0;
	if (ho) {
		memset(&o, 0, sizeof(o));
		git_oid_cpy(&o.id, &cur->id);
		o.mode = cur->mode;
		o.path = where;
	}
	t.path = where;
	if (same_entry(ho, &o, ht, &t)) {
		*present = 1;
		return 0;
	}
	if (same_entry(ho, &o, hb, &b)) {
		if (!ht)
			return git_index_remove_bypath(idx, where) ? td_error_set(e->err, TD_EGIT, "index: %s", git_msg())
								   : 0;
		return git_index_add(idx, &t) ? td_error_set(e->err, TD_EGIT, "index: %s", git_msg()) : 0;
	}
	if (!hb || !ht || !ho) {
		git_index_entry in_base;
		*why = !hb ? TD_REBASE_ADDED_BOTH : !ht ? TD_REBASE_CHANGED_THERE
			 : !base || tree_entry_at(base, path, &in_base) ? TD_REBASE_REMOVED_THERE : TD_REBASE_NOT_ADDED;
		return 1;
	}
	*why = TD_REBASE_LINES;
	/* patience: git's merges use histogram, which libgit2 lacks; on the
	 * U-Boot fork patience gives git's outcome for 98% of the patches,
	 * Myers for 91% */
	git_merge_file_options_init(&mo, GIT_MERGE_FILE_OPTIONS_VERSION);
	mo.flags |= GIT_MERGE_FILE_DIFF_PATIENCE;
	if (git_merge_file_from_index(&m, e->repo, &b, &o, &t, &mo))
		return td_error_set(e->err, TD_EGIT, "unable to merge '%s': %s", path, git_msg());
	if (!m.automergeable) {
		for (size_t i = 0; m.ptr && i + 7 <= m.len; i++)
			if ((!i || m.ptr[i - 1] == '\n') && !memcmp(m.ptr + i, "<<<<<<<", 7))
				++*regions;
		git_merge_file_result_free(&m);
		return 1;
	}
	memset(&out, 0, sizeof(out));
	out.path = where;
	out.mode = o.mode == b.mode ? t.mode : o.mode;
	if (git_blob_create_from_buffer(&out.id, e->repo, m.ptr ? m.ptr : "", m.len) || git_index_add(idx, &out))
		rc = td_error_set(e->err, TD_EGIT, "unable to store '%s': %s", path, git_msg());
	else
		*present = git_oid_equal(&out.id, &o.id) && out.mode == o.mode;
	git_merge_file_result_free(&m);
	return rc;
}

/* Where the newer tree has path: there when it does (idx), else where it
 * moved it (moved, by from), else path. */
static const char *rebase_where(const git_index *idx, const moved_t *moved, size_t nmoved, const char *path)
{
	if (git_index_get_bypath((git_index *)idx, path, 0))
		return path;
	for (size_t i = 0; i < nmoved; i++)
		if (moved[i].to && !strcmp(moved[i].from, path))
			return moved[i].to;
	return path;
}

/* Patch p (trees a, b) merged into idx, which holds the tree *cur: *cur
 * moves on when it applies; on a conflict idx is read back from *cur. */
static int rebase_one(engine_t *e, td_patch_t *p, git_index *idx, git_tree *base, const moved_t *moved,
		      size_t nmoved, const git_oid *a, const git_oid *b, git_oid *cur)
{
	git_tree *ta = NULL, *tb = NULL, *tc = NULL;
	size_t present = 0, conflicts = 0;
	int rc = TD_OK;

	if ((a && git_tree_lookup(&ta, e->repo, a)) || git_tree_lookup(&tb, e->repo, b)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
		goto out;
	}
	for (size_t k = 0; k < p->nfiles; k++) {
		int here;
		size_t regions;
		td_rebase_why_t why;
		rc = rebase_file(e, idx, base, ta, tb, p->files[k].path,
				 rebase_where(idx, moved, nmoved, p->files[k].path), &here, &why, &regions);
		if (rc < 0 || rc > 1)
			goto out;
		if (rc == 1 && !conflicts++) {
			if (!(p->rebase_file = td_strndup(p->files[k].path, strlen(p->files[k].path)))) {
				rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
				goto out;
			}
			p->rebase_why = why;
			p->rebase_regions = regions;
		}
		present += rc == 0 && here;
		rc = TD_OK;
	}
	p->rebase_conflicts = conflicts;
	if (conflicts) {
		p->rebase = TD_REBASE_CONFLICT;
		if (git_tree_lookup(&tc, e->repo, cur) || git_index_read_tree(idx, tc))
			rc = td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
	} else if (present == p->nfiles) {
		p->rebase = TD_REBASE_PRESENT;
	} else {
		p->rebase = TD_REBASE_APPLIES;
		if (git_index_write_tree_to(cur, idx, e->repo))
			rc = td_error_set(e->err, TD_EGIT, "patch '%s': unable to write its tree: %s", p->id,
					  git_msg());
	}
out:
	git_tree_free(ta);
	git_tree_free(tb);
	git_tree_free(tc);
	return rc;
}

/* Every patch of the set on opts->rebase_spec, in order. trees and
 * has_before as td_patch_analyze has them. */
static int rebase_check(engine_t *e, const git_oid *trees, const int *has_before)
{
	td_patch_set_t *s = e->set;
	path_set_t paths = { NULL, 0, 0 };
	td_source_t *src = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL, *base = NULL;
	moved_t *moved = NULL;
	size_t nmoved = 0, strip;
	git_oid cur;
	int rc = TD_OK;

	if (td_spec_is_db(e->opts->rebase_spec))
		return td_error_set(e->err, TD_EUNSUPPORTED,
				    "patches apply to a tree's files: give the tree to rebase onto as a directory, "
				    "git:REPO@REV or an archive, not a database ('%s')", e->opts->rebase_spec);
	if (!(s->rebase_onto = td_strndup(e->opts->rebase_spec, strlen(e->opts->rebase_spec))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	/* the files the patches touch, as the newer tree has them */
	for (size_t i = 0; i < s->count; i++)
		for (size_t k = 0; k < s->patches[i].nfiles; k++)
			if (path_set_add(&paths, s->patches[i].files[k].path)) {
				rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
				goto out;
			}
	if ((!e->owns_repo && (rc = add_mempack(e))) ||
	    (rc = td_source_open(&src, e->opts->rebase_spec, e->opts->source, e->err)) ||
	    (rc = base_tree_from_source(e, src, &paths, &cur, &strip)))
		goto out;
	if (git_index_new(&idx) || git_tree_lookup(&tree, e->repo, &cur) || git_index_read_tree(idx, tree) ||
	    (s->count && has_before[0] && git_tree_lookup(&base, e->repo, &trees[0]))) {
		rc = td_error_set(e->err, TD_EGIT, "unable to read a tree: %s", git_msg());
		goto out;
	}
	/* the files upstream moved, followed there (before any patch applies) */
	if (base && (rc = find_moved(e, &paths, base, idx, strip, &moved, &nmoved)))
		goto out;
	for (size_t i = 0; i < nmoved; i++)
		s->rebase_moved += moved[i].to != NULL;
	if (s->rebase_moved && git_index_write_tree_to(&cur, idx, e->repo)) {
		rc = td_error_set(e->err, TD_EGIT, "unable to write a tree: %s", git_msg());
		goto out;
	}
	for (size_t i = 0; i < s->count; i++) {
		td_patch_t *p = &s->patches[i];
		if ((rc = rebase_one(e, p, idx, base, moved, nmoved, has_before[i] ? &trees[2 * i] : NULL,
				     &trees[2 * i + 1], &cur)))
			goto out;
		s->rebase_count[p->rebase]++;
	}
out:
	for (size_t i = 0; i < nmoved; i++) {
		free(moved[i].to);
		git_blob_free(moved[i].base);
	}
	free(moved);
	git_index_free(idx);
	git_tree_free(tree);
	git_tree_free(base);
	for (size_t i = 0; i < paths.n; i++)
		free(paths.paths[i]);
	free(paths.paths);
	td_source_free(src);
	return rc;
}

/* A git range: each commit against its first parent. */
static int commit_trees(engine_t *e, td_patch_list_t *l, git_oid *trees, int *has_before)
{
	for (size_t i = 0; i < l->count; i++) {
		git_commit *c, *parent = NULL;
		if (git_commit_lookup(&c, e->repo, &l->commits[i]))
			return td_error_set(e->err, TD_EGIT, "unable to read commit '%s': %s", l->patches[i].id,
					    git_msg());
		has_before[i] = git_commit_parentcount(c) > 0;
		if (has_before[i] && git_commit_parent(&parent, c, 0)) {
			git_commit_free(c);
			return td_error_set(e->err, TD_EGIT, "unable to read the parent of '%s': %s",
					    l->patches[i].id, git_msg());
		}
		if (parent)
			git_oid_cpy(&trees[2 * i], git_commit_tree_id(parent));
		git_oid_cpy(&trees[2 * i + 1], git_commit_tree_id(c));
		git_commit_free(parent);
		git_commit_free(c);
	}
	return TD_OK;
}

/* --- the target ---------------------------------------------------------- */

/* The target's content of f, when it can be read: 0 with *buf (caller
 * frees), 1 when it cannot. */
static int target_content(engine_t *e, const td_file_t *f, char **buf, size_t *len)
{
	td_error_t ignored;
	uint32_t mode;

	*buf = NULL;
	*len = 0;
	if (!e->target_tried) {
		e->target_tried = 1;
		if (e->opts->target_spec &&
		    td_source_open(&e->target_src, e->opts->target_spec, e->opts->source, &ignored))
			e->target_src = NULL;
	}
	if (!e->target_src)
		return 1;
	if (!strcmp(td_source_kind(e->target_src), "dir"))
		return read_under(td_source_root(e->target_src), f->path, buf, len, &mode, &ignored) ? 1 : 0;
	if (!strcmp(td_source_kind(e->target_src), "git") && f->has_gitoid) {
		arch_ctx_t a = { NULL, 0, 0 };
		const char *skip = NULL;
		if (td_source_read(e->target_src, f, arch_sink, &a, &skip, &ignored)) {
			free(a.buf);
			return 1;
		}
		*buf = a.buf;
		*len = a.len;
		return 0;
	}
	return 1;
}

/* Does the series give the target's content of t? 1, 0, or -1 unknown. */
static int same_as_target(engine_t *e, const track_t *t, const td_file_t *f, int *rc)
{
	const td_digest_t *d;

	*rc = TD_OK;
	if (!f || !t->present)
		return !f && !t->present;
	if (f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK)
		return -1;
	if (f->type != TD_ENTRY_FILE || !is_file_mode(t->mode))
		return f->type == TD_ENTRY_FILE ? 0 : -1;
	if (f->has_gitoid)
		return !memcmp(f->gitoid, t->blob.id, TD_GITOID_BYTES);
	if (!f->has_digest)
		return -1;
	if ((*rc = blob_digest(e, &t->blob, &d)))
		return -1;
	return !memcmp(d->sha256, f->digest.sha256, TD_SHA256_BYTES);
}

static td_patch_file_t *patch_file(td_patch_t *p, const char *path)
{
	td_patch_file_t key;
	key.path = (char *)path;
	if (!p->nfiles)
		return NULL;
	return bsearch(&key, p->files, p->nfiles, sizeof(*p->files), file_cmp);
}

/* Count the surviving lines of each track against the target. */
static int survive(engine_t *e)
{
	for (size_t i = 0; i < e->ntracks; i++) {
		track_t *t = &e->tracks[i];
		const td_file_t *f = td_tree_find(e->result->target, t->path, strlen(t->path));
		int rc;
		t->equal = same_as_target(e, t, f, &rc);
		if (rc)
			return rc;
		if (!t->present || !t->lines_ok || !f || f->type != TD_ENTRY_FILE)
			continue;
		if (t->equal == 0) {
			/* Carry the lines once more, from the series' content to the target's. */
			char *buf;
			size_t len;
			git_blob *b = NULL;
			git_patch *gp = NULL;
			git_diff_options o;
			git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
			o.context_lines = 0;
			o.interhunk_lines = 0;
			if (target_content(e, f, &buf, &len))
				continue;
			if (git_blob_lookup(&b, e->repo, &t->blob) ||
			    git_patch_from_blob_and_buffer(&gp, b, NULL, buf, len, NULL, &o)) {
				git_blob_free(b);
				free(buf);
				return td_error_set(e->err, TD_EGIT, "unable to diff '%s' with the target: %s", t->path,
						    git_msg());
			}
			rc = carry_lines(e, t, gp, 0);
			git_patch_free(gp);
			git_blob_free(b);
			free(buf);
			if (rc == TD_ENOMEM)
				return td_error_set(e->err, rc, "out of memory");
			if (rc)
				continue;
		}
		for (size_t k = 0; k < t->n;) {
			uint32_t o = t->orig[k];
			size_t run = 1;
			while (k + run < t->n && t->orig[k + run] == o)
				run++;
			if (o) {
				td_patch_file_t *pf = patch_file(&e->set->patches[o - 1], t->path);
				if (pf)
					pf->lines_surviving += run;
			}
			k += run;
		}
	}
	return TD_OK;
}

static int attribute(engine_t *e)
{
	const td_result_t *r = e->result;
	td_patch_set_t *s = e->set;
	size_t n = 0;

	for (size_t i = 0; i < r->count; i++) {
		td_status_t st = r->changes[i].status;
		n += st == TD_STATUS_MODIFIED || st == TD_STATUS_ADDED || st == TD_STATUS_REMOVED;
	}
	if (n && !(s->files = calloc(n, sizeof(*s->files))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		const td_file_t *f = c->target ? c->target : c->upstream;
		td_patch_file_ref_t *ref;
		const track_t *t;
		if (c->status != TD_STATUS_MODIFIED && c->status != TD_STATUS_ADDED && c->status != TD_STATUS_REMOVED)
			continue;
		ref = &s->files[s->nfiles++];
		ref->change = i;
		ref->reproduced = -1;
		t = track_find(e, f->path, f->path_len);
		if (!t || memchr(f->path, '\0', f->path_len)) {
			s->unexplained++;
			continue;
		}
		if (!(ref->patches = td_malloc_array(t->npatches, sizeof(*ref->patches))))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		if (t->npatches)
			memcpy(ref->patches, t->patches, t->npatches * sizeof(*ref->patches));
		ref->npatches = t->npatches;
		ref->reproduced = t->equal;
		s->not_reproduced += t->equal == 0;
	}
	return TD_OK;
}

/* --- public -------------------------------------------------------------- */

void td_patch_opts_init(td_patch_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->added_distance = TD_DEFAULT_ADDED_DISTANCE;
	o->copy_similarity = TD_DEFAULT_COPY_SIMILARITY;
}

void td_patch_set_free(td_patch_set_t *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->count; i++)
		td_patch_release(&s->patches[i]);
	free(s->patches);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].patches);
	free(s->files);
	free(s->source);
	free(s->rebase_onto);
	free(s);
}

static void engine_release(engine_t *e)
{
	for (size_t i = 0; i < e->ntracks; i++) {
		free(e->tracks[i].path);
		free(e->tracks[i].orig);
		free(e->tracks[i].patches);
	}
	free(e->tracks);
	free(e->tmap);
	for (size_t i = 0; i < e->dmap_cap; i++)
		if (e->dmap[i].used)
			td_digest_release(&e->dmap[i].d);
	free(e->dmap);
	free(e->scratch);
	free(e->pid_paths);
	free(e->copies);
	free(e->sides);
	td_digester_free(e->dg);
	td_source_free(e->target_src);
	if (e->owns_repo)
		git_repository_free(e->repo);
}

int td_patch_analyze(td_patch_set_t **out, const char *source, const td_result_t *result,
		     const td_patch_opts_t *opts, td_error_t *err)
{
	td_patch_list_t list;
	td_patch_opts_t defaults;
	engine_t e;
	git_oid *trees = NULL;
	int *has_before = NULL;
	int rc;

	*out = NULL;
	memset(&list, 0, sizeof(list));
	memset(&e, 0, sizeof(e));
	if (!opts) {
		td_patch_opts_init(&defaults);
		opts = &defaults;
	}
	if (!result || !source)
		return td_error_set(err, TD_EINVAL, "td_patch_analyze needs a source and a result");
	git_libgit2_init();
	e.result = result;
	e.opts = opts;
	e.err = err;
	if ((rc = td_patch_list_read(&list, source, err)))
		goto out;
	if (!(e.set = calloc(1, sizeof(*e.set))) || !(e.set->source = td_strndup(source, strlen(source))) ||
	    !(trees = td_malloc_array(list.count ? 2 * list.count : 1, sizeof(*trees))) ||
	    !(has_before = calloc(list.count ? list.count : 1, sizeof(*has_before))) || td_digester_new(&e.dg)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	e.set->kind = list.kind;
	if ((rc = collect_copies(&e)))
		goto out;
	if (list.repo) {
		e.repo = list.repo;
		rc = commit_trees(&e, &list, trees, has_before);
	} else {
		rc = replay_series(&e, &list, trees);
		for (size_t i = 0; i < list.count; i++)
			has_before[i] = 1;
	}
	if (rc)
		goto out;
	/* The set takes the patches over from the list. */
	e.set->patches = list.patches;
	e.set->count = list.count;
	list.patches = NULL;
	for (size_t i = 0; i < e.set->count; i++)
		if ((rc = run_patch(&e, i, has_before[i] ? &trees[2 * i] : NULL, &trees[2 * i + 1])))
			goto out;
	if ((rc = survive(&e)))
		goto out;
	if (opts->rebase_spec && (rc = rebase_check(&e, trees, has_before)))
		goto out;
	for (size_t i = 0; i < e.set->count; i++) {
		td_patch_t *p = &e.set->patches[i];
		if (patch_totals(&e, p)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		for (size_t k = 0; k < p->nfiles; k++)
			p->lines_surviving += p->files[k].lines_surviving;
	}
	if ((rc = attribute(&e)))
		goto out;
	*out = e.set;
	e.set = NULL;
out:
	free(trees);
	free(has_before);
	td_patch_set_free(e.set);
	engine_release(&e);
	td_patch_list_release(&list);
	git_libgit2_shutdown();
	return rc;
}
