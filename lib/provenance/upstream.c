/* Vendor patches matched to upstream commits, and the upstream fixes a
 * target lacks (treedrift/upstream.h).
 *
 * Cherry-picks are found as git cherry finds them, cheaply: only upstream
 * commits that touch exactly the patch's paths can have its patch id, so
 * only theirs are computed. Backports: the upstream commits that touched
 * the patch's files (the history's path index) are scored by the share of
 * the patch's normalised lines they changed the same way (a multiset
 * intersection). Fixes: each commit's lines per file against the base's
 * and the target's content, both read once per file and kept as sorted
 * line hashes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "patch_impl.h"
#include "treedrift/provenance.h"
#include "treedrift/upstream.h"

/* A file larger than this is not read for its lines (a limit). */
#define FILE_MAX_BYTES (64u * 1024 * 1024)

const char *td_upstream_kind_name(td_upstream_kind_t k)
{
	switch (k) {
	case TD_UPSTREAM_CHERRY_PICK: return "cherry-pick";
	case TD_UPSTREAM_BACKPORT: return "backport (modified)";
	default: return "local";
	}
}

const char *td_claim_name(td_claim_t c)
{
	switch (c) {
	case TD_CLAIM_HOLDS: return "holds";
	case TD_CLAIM_DIFFERS: return "differs";
	case TD_CLAIM_NOT_FOUND: return "not in history";
	default: return "none";
	}
}

const char *td_fix_status_name(td_fix_status_t s)
{
	static const char *const names[] = { "missing", "partial", "not applicable", "applied" };
	return (unsigned)s < 4 ? names[s] : "missing";
}

size_t td_fix_lacking(const size_t count[4])
{
	return count[TD_FIX_MISSING] + count[TD_FIX_PARTIAL];
}

void td_upstream_opts_init(td_upstream_opts_t *o)
{
	memset(o, 0, sizeof(*o));
}

static void fix_release(td_upstream_fix_t *f)
{
	free(f->subject);
	for (size_t k = 0; k < f->nfiles; k++)
		free(f->files[k]);
	free(f->files);
	free(f->patch);
	for (size_t k = 0; k < f->nfixed_by; k++)
		free(f->fixed_by[k]);
	free(f->fixed_by);
	td_commit_tags_release(&f->tags);
	memset(f, 0, sizeof(*f));
}

void td_upstream_free(td_upstream_t *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->npatches; i++) {
		free(u->patches[i].subject);
		td_commit_tags_release(&u->patches[i].tags);
	}
	free(u->patches);
	for (size_t i = 0; i < u->nfixes; i++)
		fix_release(&u->fixes[i]);
	free(u->fixes);
	free(u);
}

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* A commit's net count (added minus removed) of a line in one file. */
typedef struct line_event {
	uint64_t h;
	size_t commit;
	long net;
} line_event_t;

/* The lines of one changed file, base and target, as sorted hashes; and
 * the net count of each line in each commit of the history touching it,
 * sorted by line then commit (load_events). */
typedef struct content {
	int state;               /* 0 not read, 1 read, -1 unreadable */
	uint64_t *base, *target;
	size_t nbase, ntarget;
	int events_state;        /* 0 not built, 1 built */
	line_event_t *events;
	size_t nevents;
} content_t;

typedef struct engine {
	const td_history_t *h;
	const td_result_t *r;
	const td_patch_set_t *set;
	const td_upstream_opts_t *opts;
	td_error_t *err;
	git_repository *repo;
	git_tree *base_tree;
	td_source_t *target_src;
	int target_tried;
	unsigned char (*pids)[TD_PATCHID_BYTES]; /* upstream patch ids, computed on demand */
	char *pid_state;         /* 0 not computed, 1 computed, -1 failed */
	uint64_t *keys;          /* per commit: hash of its path set */
	size_t *by_key;          /* commit indices sorted by key */
	content_t *contents;     /* per change of the result */
	long *taken_by;          /* per commit: the patch that took it, or -1 */
	int *status_of;          /* per commit: its td_fix_status_t once judged, or -1 */
	td_upstream_t *u;
} engine_t;

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --- path sets ------------------------------------------------------------ */

static uint64_t paths_key(char *const *paths, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		for (const char *s = paths[i];; s++) {
			h ^= (unsigned char)*s;
			h *= 0x100000001b3ull;
			if (!*s)
				break;
		}
	return h;
}

/* A commit's path-set key, sorted by key then history order. */
typedef struct keyed {
	uint64_t key;
	size_t commit;
} keyed_t;

static int keyed_cmp(const void *a, const void *b)
{
	const keyed_t *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->commit < y->commit ? -1 : x->commit > y->commit;
}

static int index_paths(engine_t *e)
{
	const td_history_t *h = e->h;
	keyed_t *v = td_malloc_array(h->count ? h->count : 1, sizeof(*v));

	if (!v || !(e->keys = td_malloc_array(h->count ? h->count : 1, sizeof(*e->keys))) ||
	    !(e->by_key = td_malloc_array(h->count ? h->count : 1, sizeof(*e->by_key)))) {
		free(v);
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < h->count; i++) {
		v[i].key = e->keys[i] = paths_key(h->commits[i].paths, h->commits[i].npaths);
		v[i].commit = i;
	}
	if (h->count > 1)
		qsort(v, h->count, sizeof(*v), keyed_cmp);
	for (size_t i = 0; i < h->count; i++)
		e->by_key[i] = v[i].commit;
	free(v);
	return TD_OK;
}

/* The upstream patch id of commit i. */
static int upstream_pid(engine_t *e, size_t i, const unsigned char **out)
{
	const td_history_commit_t *c = &e->h->commits[i];
	git_oid id;

	*out = NULL;
	if (!e->pid_state[i]) {
		e->pid_state[i] = -1;
		if (!git_oid_fromstr(&id, c->id) &&
		    !td_patchid_commit(e->pids[i], e->repo, &id, c->paths, c->npaths))
			e->pid_state[i] = 1;
	}
	if (e->pid_state[i] == 1)
		*out = e->pids[i];
	return TD_OK;
}

/* --- shares ---------------------------------------------------------------- */

/* Size of the multiset intersection of a[0..na) and b[0..nb) (b sorted
 * here, in scratch). */
static size_t common_count(const uint64_t *a_sorted, size_t na, const uint64_t *b, size_t nb, uint64_t *scratch)
{
	size_t i = 0, j = 0, n = 0;

	if (!nb)
		return 0;
	memcpy(scratch, b, nb * sizeof(*b));
	qsort(scratch, nb, sizeof(*scratch), u64_cmp);
	while (i < na && j < nb) {
		if (a_sorted[i] < scratch[j])
			i++;
		else if (a_sorted[i] > scratch[j])
			j++;
		else
			n++, i++, j++;
	}
	return n;
}

/* A patch's lines, sorted per file, for scoring against many commits. */
typedef struct plines {
	uint64_t **added, **removed;
	size_t total;
	uint64_t *scratch;
	size_t scratch_cap;
} plines_t;

static void plines_release(plines_t *pl, size_t nfiles)
{
	for (size_t k = 0; pl->added && k < nfiles; k++) {
		free(pl->added[k]);
		free(pl->removed[k]);
	}
	free(pl->added);
	free(pl->removed);
	free(pl->scratch);
	memset(pl, 0, sizeof(*pl));
}

static uint64_t *sorted_copy(const uint64_t *v, size_t n)
{
	uint64_t *c = td_malloc_array(n ? n : 1, sizeof(*c));
	if (c && n) {
		memcpy(c, v, n * sizeof(*v));
		qsort(c, n, sizeof(*c), u64_cmp);
	}
	return c;
}

static int plines_init(plines_t *pl, const td_patch_t *p)
{
	memset(pl, 0, sizeof(*pl));
	if (!(pl->added = calloc(p->nfiles ? p->nfiles : 1, sizeof(*pl->added))) ||
	    !(pl->removed = calloc(p->nfiles ? p->nfiles : 1, sizeof(*pl->removed))))
		return TD_ENOMEM;
	for (size_t k = 0; k < p->nfiles; k++) {
		const td_patch_file_t *f = &p->files[k];
		if (!(pl->added[k] = sorted_copy(f->added_hashes, f->nadded_hashes)) ||
		    !(pl->removed[k] = sorted_copy(f->removed_hashes, f->nremoved_hashes)))
			return TD_ENOMEM;
		pl->total += f->nadded_hashes + f->nremoved_hashes;
	}
	return TD_OK;
}

static const td_history_file_t *commit_file(const td_history_commit_t *c, const char *path)
{
	size_t lo = 0, hi = c->nfiles;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(c->files[mid].path, path);
		if (!cmp)
			return &c->files[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The share of p's lines that commit c changed the same way. */
static int share_in(plines_t *pl, const td_patch_t *p, const td_history_commit_t *c, double *out)
{
	size_t found = 0;

	*out = 0;
	if (!pl->total)
		return TD_OK;
	for (size_t k = 0; k < p->nfiles; k++) {
		const td_history_file_t *cf = commit_file(c, p->files[k].path);
		size_t need;
		void *s = pl->scratch;
		if (!cf)
			continue;
		need = cf->nadded > cf->nremoved ? cf->nadded : cf->nremoved;
		if (td_grow(&s, &pl->scratch_cap, need ? need : 1, sizeof(uint64_t)))
			return TD_ENOMEM;
		pl->scratch = s;
		found += common_count(pl->added[k], p->files[k].nadded_hashes, cf->added, cf->nadded, pl->scratch);
		found += common_count(pl->removed[k], p->files[k].nremoved_hashes, cf->removed, cf->nremoved,
				      pl->scratch);
	}
	*out = (double)found / (double)pl->total;
	return TD_OK;
}

/* --- patches ---------------------------------------------------------------- */

static int hex_to_bytes(unsigned char out[TD_PATCHID_BYTES], const char *hex)
{
	git_oid id;

	if (!hex || strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&id, hex))
		return -1;
	memcpy(out, id.id, TD_PATCHID_BYTES);
	return 0;
}

static int set_match(engine_t *e, td_patch_upstream_t *pu, size_t c, td_upstream_kind_t kind, double share)
{
	const td_history_commit_t *hc = &e->h->commits[c];
	const char *msg = hc->message ? hc->message : hc->subject;

	pu->kind = kind;
	pu->share = share;
	memcpy(pu->commit, hc->id, TD_HISTORY_ID_HEX);
	if (!(pu->subject = td_strndup(hc->subject ? hc->subject : "", hc->subject ? strlen(hc->subject) : 0)) ||
	    td_commit_tags_parse(&pu->tags, msg, msg ? strlen(msg) : 0))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	pu->fix = pu->tags.nfixes || pu->tags.cc_stable || pu->tags.ncves;
	return TD_OK;
}

/* The upstream commit with p's patch id, preferring the declared one. */
static int find_cherry_pick(engine_t *e, const td_patch_t *p, long claimed, long *out)
{
	unsigned char want[TD_PATCHID_BYTES];
	char **paths = NULL;
	size_t lo = 0, hi = e->h->count;
	uint64_t key;
	int rc = TD_OK;

	*out = -1;
	if (!p->nfiles || hex_to_bytes(want, p->patch_id))
		return TD_OK;
	if (!(paths = td_malloc_array(p->nfiles, sizeof(*paths))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	for (size_t k = 0; k < p->nfiles; k++)
		paths[k] = p->files[k].path;
	qsort(paths, p->nfiles, sizeof(*paths), str_cmp);
	key = paths_key(paths, p->nfiles);
	free(paths);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->keys[e->by_key[mid]] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j < e->h->count && e->keys[e->by_key[j]] == key; j++) {
		size_t c = e->by_key[j];
		const unsigned char *pid;
		if ((rc = upstream_pid(e, c, &pid)))
			break;
		if (!pid || memcmp(pid, want, TD_PATCHID_BYTES))
			continue;
		if (*out < 0 || (long)c == claimed)
			*out = (long)c;
	}
	return rc;
}

/* The commit that changed most of p's lines the same way, among those that
 * touched its files. */
static int find_backport(engine_t *e, const td_patch_t *p, plines_t *pl, long *best, double *best_share)
{
	size_t *cands = NULL, n = 0, cap = 0;
	int rc = TD_OK;

	*best = -1;
	*best_share = 0;
	if (!pl->total)
		return TD_OK;
	for (size_t k = 0; k < p->nfiles; k++) {
		const td_history_touch_t *t;
		size_t nt;
		if (!p->files[k].nadded_hashes && !p->files[k].nremoved_hashes)
			continue;
		td_history_find(&t, &nt, e->h, p->files[k].path);
		for (size_t j = 0; j < nt; j++) {
			void *g = cands;
			if (td_grow(&g, &cap, n + 1, sizeof(*cands))) {
				free(cands);
				return td_error_set(e->err, TD_ENOMEM, "out of memory");
			}
			cands = g;
			cands[n++] = t[j].commit;
		}
	}
	if (n > 1) {
		size_t w = 1;
		qsort(cands, n, sizeof(*cands), td_size_cmp);
		for (size_t j = 1; j < n; j++)
			if (cands[j] != cands[w - 1])
				cands[w++] = cands[j];
		n = w;
	}
	for (size_t j = 0; j < n; j++) {
		double s;
		if ((rc = share_in(pl, p, &e->h->commits[cands[j]], &s))) {
			rc = td_error_set(e->err, rc, "out of memory");
			break;
		}
		if (s > *best_share) {
			*best_share = s;
			*best = (long)cands[j];
		}
	}
	free(cands);
	return rc;
}

static int match_patches(engine_t *e)
{
	td_upstream_t *u = e->u;
	int rc = TD_OK;

	if (!e->set || !e->set->count)
		return TD_OK;
	if (!(u->patches = calloc(e->set->count, sizeof(*u->patches))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	u->npatches = e->set->count;
	for (size_t i = 0; i < e->set->count && !rc; i++) {
		const td_patch_t *p = &e->set->patches[i];
		td_patch_upstream_t *pu = &u->patches[i];
		long claimed = -1, cp = -1, bp = -1;
		double share = 0;
		plines_t pl;

		if (p->origin.commit) {
			u->claims++;
			claimed = td_history_commit_index(e->h, p->origin.commit);
			pu->claim = claimed < 0 ? TD_CLAIM_NOT_FOUND : TD_CLAIM_DIFFERS;
			if (claimed >= 0)
				memcpy(pu->claim_commit, e->h->commits[claimed].id, TD_HISTORY_ID_HEX);
		}
		if (plines_init(&pl, p)) {
			plines_release(&pl, p->nfiles);
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		}
		if ((rc = find_cherry_pick(e, p, claimed, &cp)))
			goto next;
		if (cp >= 0) {
			rc = set_match(e, pu, (size_t)cp, TD_UPSTREAM_CHERRY_PICK, 1.0);
			u->cherry_picks++;
		} else {
			if ((rc = find_backport(e, p, &pl, &bp, &share)))
				goto next;
			/* the declared commit wins a tie */
			if (claimed >= 0 && bp != claimed) {
				double cs;
				if ((rc = share_in(&pl, p, &e->h->commits[claimed], &cs))) {
					rc = td_error_set(e->err, rc, "out of memory");
					goto next;
				}
				if (cs >= share && cs > TD_UPSTREAM_BACKPORT_SHARE) {
					bp = claimed;
					share = cs;
				}
			}
			if (bp >= 0 && share > TD_UPSTREAM_BACKPORT_SHARE) {
				rc = set_match(e, pu, (size_t)bp, TD_UPSTREAM_BACKPORT, share);
				u->backports++;
			}
		}
		if (!rc && claimed >= 0) {
			if (pu->kind != TD_UPSTREAM_NONE && !strcmp(pu->commit, e->h->commits[claimed].id)) {
				pu->claim = TD_CLAIM_HOLDS;
				pu->claim_share = pu->share;
			} else if ((rc = share_in(&pl, p, &e->h->commits[claimed], &pu->claim_share))) {
				rc = td_error_set(e->err, rc, "out of memory");
			}
		}
		if (pu->claim == TD_CLAIM_HOLDS)
			u->claims_hold++;
		if (!rc && pu->kind != TD_UPSTREAM_NONE) {
			long c = td_history_commit_index(e->h, pu->commit);
			if (c >= 0 && e->taken_by[c] < 0)
				e->taken_by[c] = (long)i;
		}
next:
		plines_release(&pl, p->nfiles);
	}
	return rc;
}

/* --- content ---------------------------------------------------------------- */

typedef struct buf {
	char *p;
	size_t len, cap;
} buf_t;

static int buf_sink(void *ctx, const void *data, size_t len)
{
	buf_t *b = ctx;
	void *p = b->p;

	if (b->len + len > FILE_MAX_BYTES || td_grow(&p, &b->cap, b->len + len + 1, 1))
		return 1;
	b->p = p;
	memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

/* The sorted hashes of the non-trivial lines of text[0..len); none for a
 * binary text (a NUL in its first 8000 bytes, as git decides). */
static int hash_lines(uint64_t **out, size_t *n, const char *text, size_t len)
{
	size_t cap = 0, pos = 0;
	uint64_t *v = NULL;

	*out = NULL;
	*n = 0;
	if (memchr(text, '\0', len < 8000 ? len : 8000))
		return TD_OK;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		int trivial;
		uint64_t h = td_line_hash(text + pos, end - pos, &trivial);
		if (!trivial) {
			void *g = v;
			if (td_grow(&g, &cap, *n + 1, sizeof(*v))) {
				free(v);
				*n = 0;
				return TD_ENOMEM;
			}
			v = g;
			v[(*n)++] = h;
		}
		pos = end + 1;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), u64_cmp);
	*out = v;
	return TD_OK;
}

/* The target's content of f: 0 with b filled, 1 when it cannot be read. */
static int read_target(engine_t *e, const td_file_t *f, buf_t *b)
{
	td_error_t ignored;
	const char *skip = NULL;

	if (!e->target_tried) {
		e->target_tried = 1;
		if (e->opts->target_spec &&
		    td_source_open(&e->target_src, e->opts->target_spec, e->opts->source, &ignored))
			e->target_src = NULL;
	}
	if (!e->target_src || f->type != TD_ENTRY_FILE)
		return 1;
	if (!strcmp(td_source_kind(e->target_src), "dir")) {
		char path[8192];
		FILE *fp;
		char chunk[65536];
		size_t got;
		int bad = 0;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", td_source_root(e->target_src), f->path) >=
			    sizeof(path) ||
		    !(fp = fopen(path, "rb")))
			return 1;
		while (!bad && (got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
			bad = buf_sink(b, chunk, got);
		bad |= ferror(fp);
		fclose(fp);
		return bad ? 1 : 0;
	}
	if (!strcmp(td_source_kind(e->target_src), "git") && f->has_gitoid)
		return td_source_read(e->target_src, f, buf_sink, b, &skip, &ignored) ? 1 : 0;
	return 1;
}

static int read_base(engine_t *e, const char *path, buf_t *b)
{
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	int rc = 1;

	if (!e->base_tree || git_tree_entry_bypath(&te, e->base_tree, path))
		return 1;
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB && !git_blob_lookup(&blob, e->repo, git_tree_entry_id(te)) &&
	    git_blob_rawsize(blob) <= FILE_MAX_BYTES &&
	    !buf_sink(b, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob)))
		rc = 0;
	git_blob_free(blob);
	git_tree_entry_free(te);
	return rc;
}

/* Read change ci's base and target lines once. */
static int load_content(engine_t *e, size_t ci, content_t **out)
{
	content_t *c = &e->contents[ci];
	const td_change_t *ch = &e->r->changes[ci];
	buf_t b = { NULL, 0, 0 };
	int rc = TD_OK;

	*out = c;
	if (c->state)
		return TD_OK;
	c->state = -1;
	if (ch->upstream) {
		const td_file_t *f = ch->upstream;
		if (!read_base(e, f->path, &b) && (rc = hash_lines(&c->base, &c->nbase, b.p ? b.p : "", b.len)))
			goto out;
		free(b.p);
		memset(&b, 0, sizeof(b));
	}
	if (read_target(e, ch->target, &b))
		goto out;
	if ((rc = hash_lines(&c->target, &c->ntarget, b.p ? b.p : "", b.len)))
		goto out;
	c->state = 1;
out:
	free(b.p);
	return rc ? td_error_set(e->err, rc, "out of memory") : TD_OK;
}

static size_t count_of(const uint64_t *v, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - first;
}

static int event_cmp(const void *pa, const void *pb)
{
	const line_event_t *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->commit > b->commit) - (a->commit < b->commit);
}

/* The net count of each line of path in each commit of the history that
 * touches it, into c once. */
static int load_events(const engine_t *e, content_t *c, const char *path)
{
	const td_history_touch_t *t;
	size_t n, total = 0, k = 0;

	if (c->events_state)
		return TD_OK;
	td_history_find(&t, &n, e->h, path);
	for (size_t i = 0; i < n; i++)
		total += e->h->commits[t[i].commit].files[t[i].file].nadded +
			 e->h->commits[t[i].commit].files[t[i].file].nremoved;
	if (total && !(c->events = td_malloc_array(total, sizeof(*c->events))))
		return TD_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const td_history_file_t *f = &e->h->commits[t[i].commit].files[t[i].file];
		for (size_t j = 0; j < f->nadded; j++)
			c->events[k++] = (line_event_t){ f->added[j], t[i].commit, 1 };
		for (size_t j = 0; j < f->nremoved; j++)
			c->events[k++] = (line_event_t){ f->removed[j], t[i].commit, -1 };
	}
	if (k > 1)
		qsort(c->events, k, sizeof(*c->events), event_cmp);
	/* one event a line and commit, its net count; none where that is 0 */
	for (size_t i = 0; i < total;) {
		line_event_t m = c->events[i];
		for (i++; i < total && c->events[i].h == m.h && c->events[i].commit == m.commit; i++)
			m.net += c->events[i].net;
		if (m.net)
			c->events[c->nevents++] = m;
	}
	c->events_state = 1;
	return TD_OK;
}

/* The first event of line h (or where it would be). */
static size_t first_event(const content_t *c, uint64_t h)
{
	size_t lo = 0, hi = c->nevents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->events[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The net counts of line h in the commits before commit i and after it. */
static void net_around(const content_t *c, uint64_t h, size_t i, long *before, long *after)
{
	*before = *after = 0;
	for (size_t lo = first_event(c, h); lo < c->nevents && c->events[lo].h == h; lo++) {
		if (c->events[lo].commit < i)
			*before += c->events[lo].net;
		else if (c->events[lo].commit > i)
			*after += c->events[lo].net;
	}
}

/* A commit's deciding lines and how many of them the target has: those
 * later commits of the history leave as it made them (need, have), and
 * all of them (all_need, all_have). */
typedef struct tally {
	uint64_t need, have;
	uint64_t all_need, all_have;
	uint64_t undone;     /* lines left out as undoing earlier commits, the target as the base */
} tally_t;

/* A line of net count d in the commit, which the base has b times and the
 * target t times: the |d| deciding lines into *need, and into *have those
 * the target shows taken. */
static void tally_line(uint64_t *need, uint64_t *have, long d, long b, long t)
{
	if (d > 0) {
		*need += (uint64_t)d;
		*have += (uint64_t)(t - b <= 0 ? 0 : t - b >= d ? d : t - b);
	} else {
		*need += (uint64_t)-d;
		*have += (uint64_t)(b - t <= 0 ? 0 : b - t >= -d ? -d : b - t);
	}
}

/* Whether a later commit of the history undid commit i's change of net
 * count d to line h, one that the target has (fully or in part) or that it
 * lacks nothing of (not applicable: it only undoes earlier commits, say a
 * revert of this one): judged before this one. */
static int superseded(const engine_t *e, const content_t *c, uint64_t h, size_t i, long d)
{
	for (size_t lo = first_event(c, h); lo < c->nevents && c->events[lo].h == h; lo++) {
		int st = e->status_of[c->events[lo].commit];
		if (c->events[lo].commit > i && (c->events[lo].net > 0) != (d > 0) && st >= 0 &&
		    st != TD_FIX_MISSING)
			return 1;
	}
	return 0;
}

/* How many of file cf's deciding lines (of commit i) the target has: for
 * each line, its net count in the commit (added minus removed) against
 * how much more (or less) often the target has it than the base.
 * - The part that undoes what earlier commits of the history did (removing
 *   a line they added to the path, as in a file they created or moved
 *   there, or adding back one they removed) is judged against the count
 *   they left where the target shows it; where the target shows the base's
 *   count it has both or neither, and that part decides nothing (undone).
 * - Superseded: a later commit undoes the change (removes a line this one
 *   adds, or adds back one it removes), one the target has or lacks nothing
 *   of (superseded). The target is not asked for it (tally_t.need);
 *   all_need counts it. One the target lacks does not excuse it: the
 *   target then lacks both (a fix, and the rework of its line).
 */
static int judge_file(const engine_t *e, const td_history_file_t *cf, const content_t *c, size_t commit,
		      tally_t *out)
{
	uint64_t *a = sorted_copy(cf->added, cf->nadded), *r = sorted_copy(cf->removed, cf->nremoved);
	size_t i = 0, j = 0;

	if (!a || !r) {
		free(a);
		free(r);
		return TD_ENOMEM;
	}
	while (i < cf->nadded || j < cf->nremoved) {
		uint64_t h = i < cf->nadded && (j >= cf->nremoved || a[i] <= r[j]) ? a[i] : r[j];
		long d = 0, b, t, before, later, pre, x;
		while (i < cf->nadded && a[i] == h)
			d++, i++;
		while (j < cf->nremoved && r[j] == h)
			d--, j++;
		if (!d)
			continue;
		b = (long)count_of(c->base, c->nbase, h);
		t = (long)count_of(c->target, c->ntarget, h);
		net_around(c, h, commit, &before, &later);
		pre = b + before < 0 ? 0 : b + before;
		/* The part that undoes what earlier commits did (x, of d's sign)
		 * is judged against the count they left, the rest against the
		 * base's. */
		if (d > 0 && pre < b)
			x = b - pre < d ? b - pre : d;
		else if (d < 0 && pre > b)
			x = -(pre - b < -d ? pre - b : -d);
		else
			x = 0;
		d -= x;
		/* superseded: that much of the change leaves need, the rest first */
		if (((d + x > 0 && later < 0) || (d + x < 0 && later > 0)) && superseded(e, c, h, commit, d + x)) {
			long sup = labs(later) < labs(d + x) ? labs(later) : labs(d + x), k;
			k = sup < labs(d) ? sup : labs(d);
			if (k)
				tally_line(&out->all_need, &out->all_have, d > 0 ? k : -k, b, t);
			d += d > 0 ? -k : k;
			sup -= k;
			k = sup < labs(x) ? sup : labs(x);
			if (k)
				tally_line(&out->all_need, &out->all_have, x > 0 ? k : -k, pre, t);
			x += x > 0 ? -k : k;
		}
		/* where the target shows the base's count it has both or neither */
		if (x && (x > 0 ? t < b : t > b)) {
			tally_line(&out->all_need, &out->all_have, x, pre, t);
			tally_line(&out->need, &out->have, x, pre, t);
		} else if (x) {
			out->undone += (uint64_t)labs(x);
		}
		if (d) {
			tally_line(&out->all_need, &out->all_have, d, b, t);
			tally_line(&out->need, &out->have, d, b, t);
		}
	}
	free(a);
	free(r);
	return TD_OK;
}

static long change_index(const td_result_t *r, const char *path)
{
	size_t lo = 0, hi = r->count, len = strlen(path);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const td_file_t *f = r->changes[mid].target ? r->changes[mid].target : r->changes[mid].upstream;
		int c = td_path_cmp(f->path, f->path_len, path, len);
		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Appends a copy of s to v[0..*n). 0 or TD_ENOMEM. */
static int add_string(char ***v, size_t *n, const char *s)
{
	char **g = td_realloc_array(*v, *n + 1, sizeof(**v));
	if (!g)
		return TD_ENOMEM;
	*v = g;
	if (!(g[*n] = td_strndup(s, strlen(s))))
		return TD_ENOMEM;
	(*n)++;
	return TD_OK;
}

/* The reason of a commit whose files the configuration does not build:
 * the one not applicable whose changes the target's source may have. */
static const char why_not_built[] = "not built";

/* Whether the provenance found a line of change ci's diff that commit i
 * made. */
static int explains(const engine_t *e, size_t ci, size_t i)
{
	const td_file_provenance_t *fp = e->opts->provenance ? td_provenance_find(e->opts->provenance, ci) : NULL;

	return fp && fp->ncommits && bsearch(&i, fp->commits, fp->ncommits, sizeof(*fp->commits), size_cmp) != NULL;
}

/* The status of commit i; *listed 0 when it touches nothing of base or target. */
static int judge_commit(engine_t *e, size_t i, td_upstream_fix_t *fx, int *listed)
{
	const td_history_commit_t *c = &e->h->commits[i];
	tally_t t = { 0, 0, 0, 0, 0 };
	size_t applicable = 0, removed = 0, unbuilt = 0, judged = 0, explained = 0;
	int rc;

	*listed = 0;
	fx->built = e->opts->config ? 0 : -1;
	for (size_t k = 0; k < c->npaths; k++) {
		long ci = change_index(e->r, c->paths[k]);
		const td_change_t *ch;
		if (ci < 0)
			continue;
		ch = &e->r->changes[ci];
		if (add_string(&fx->files, &fx->nfiles, c->paths[k]))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
		if (!ch->target) {
			removed++;
			continue;
		}
		if (e->opts->config && ch->built == TD_BUILT_NO) {
			unbuilt++;
			continue;
		}
		applicable++;
		if (e->opts->config && ch->built == TD_BUILT_YES)
			fx->built = 1;
		/* the base's content: none of the range's changes */
		if (ch->status == TD_STATUS_IDENTICAL) {
			fx->files_as_in_base++;
			continue;
		}
		{
			const td_history_file_t *cf = commit_file(c, c->paths[k]);
			content_t *ct;
			if (!cf || cf->binary)
				continue;
			if ((rc = load_content(e, (size_t)ci, &ct)))
				return rc;
			if (ct->state != 1)
				continue;
			if (load_events(e, ct, c->paths[k]) || judge_file(e, cf, ct, i, &t))
				return td_error_set(e->err, TD_ENOMEM, "out of memory");
			judged++;
			explained += explains(e, (size_t)ci, i);
		}
	}
	if (!fx->nfiles)
		return TD_OK;
	*listed = 1;
	fx->lines = t.need;
	fx->lines_in_target = t.have;
	if (e->taken_by[i] >= 0) {
		const td_patch_t *p = &e->set->patches[e->taken_by[i]];
		fx->status = TD_FIX_APPLIED;
		fx->why = e->u->patches[e->taken_by[i]].kind == TD_UPSTREAM_CHERRY_PICK ? "cherry-pick" : "backport";
		if (!(fx->patch = td_strndup(p->id, strlen(p->id))))
			return td_error_set(e->err, TD_ENOMEM, "out of memory");
	} else if (!applicable) {
		fx->status = TD_FIX_NOT_APPLICABLE;
		fx->why = removed ? "file removed" : why_not_built;
	} else if (!t.need && !t.all_need && t.undone) {
		/* it only undoes earlier commits, and the target has both or
		 * neither: it lacks nothing of it */
		fx->status = TD_FIX_NOT_APPLICABLE;
		fx->why = "undoes earlier";
	} else if (t.need || !t.all_need) {
		/* With no deciding line at all (it only moves lines, or its
		 * files are binary), the lines of the target's diff that the
		 * provenance finds it made decide. */
		uint64_t need = t.need ? t.need : judged, have = t.need ? t.have : explained;
		fx->status = need && have == need && !fx->files_as_in_base ? TD_FIX_APPLIED
			     : have ? TD_FIX_PARTIAL : TD_FIX_MISSING;
		fx->why = "content";
	} else {
		/* every deciding line superseded by later commits */
		int all = t.all_have == t.all_need && !fx->files_as_in_base;
		fx->status = all ? TD_FIX_APPLIED : TD_FIX_NOT_APPLICABLE;
		fx->why = all ? "content" : "superseded";
	}
	return TD_OK;
}

/* How strongly a commit's message says it fixes something: it names a CVE
 * id, it is meant for stable, it has a Fixes: line, or none of them. */
static int fix_rank(const td_upstream_fix_t *x)
{
	return x->tags.ncves ? 3 : x->tags.cc_stable ? 2 : x->tags.nfixes ? 1 : 0;
}

static int fix_cmp(const void *pa, const void *pb)
{
	const td_upstream_fix_t *a = pa, *b = pb;
	int ga = a->status >= TD_FIX_NOT_APPLICABLE, gb = b->status >= TD_FIX_NOT_APPLICABLE;

	if (ga != gb)
		return ga - gb;
	if (a->built != b->built)
		return b->built - a->built;
	if (fix_rank(a) != fix_rank(b))
		return fix_rank(b) - fix_rank(a);
	return (int)a->status - (int)b->status;
}

/* qsort is not stable: history order is kept by sorting (entry, index). */
typedef struct fix_ix {
	td_upstream_fix_t f;
	size_t i;
} fix_ix_t;

static int fix_ix_cmp(const void *pa, const void *pb)
{
	const fix_ix_t *a = pa, *b = pb;
	int c = fix_cmp(&a->f, &b->f);
	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* The listed commit of history index j among v[0..n) (the listed commits,
 * in history order), or NULL: one that touches no file of the base or the
 * target. */
static td_upstream_fix_t *listed(fix_ix_t *v, size_t n, size_t j)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].i < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].i == j ? &v[lo].f : NULL;
}

/* The earlier commit of the history that id names for v[k], or NULL: id is
 * not in the history (before the base, or elsewhere), or names no earlier
 * commit. *in_history tells which. */
static td_upstream_fix_t *earlier(const engine_t *e, fix_ix_t *v, size_t k, const char *id, int *in_history)
{
	long j = td_history_commit_index(e->h, id);

	*in_history = j >= 0 && (size_t)j < v[k].i;
	return *in_history ? listed(v, k, (size_t)j) : NULL;
}

/* A commit and a later one that reverts it, where the target has neither:
 * upstream undid it, so the target lacks nothing, and both are not
 * applicable ("reverted", "revert"). v[0..n) are the listed commits in
 * history order. From the newest, so that a revert reverted in turn
 * cancels with its own revert and leaves the commit it reverted as it is. */
static void cancel_reverts(const engine_t *e, fix_ix_t *v, size_t n)
{
	for (size_t k = n; k-- > 0;) {
		td_upstream_fix_t *r = &v[k].f, *t;
		int in_history;
		if (!r->tags.reverts || r->status != TD_FIX_MISSING ||
		    !(t = earlier(e, v, k, r->tags.reverts, &in_history)) || t->status != TD_FIX_MISSING)
			continue;
		t->status = r->status = TD_FIX_NOT_APPLICABLE;
		t->why = "reverted";
		r->why = "revert";
		memcpy(t->reverted_by, r->id, TD_HISTORY_ID_HEX);
	}
}

/* Whether the target does not have listed commit t: missing, or not
 * applicable but for a configuration that does not build it (the source
 * may have it). */
static int lacks(const td_upstream_fix_t *t)
{
	return t->status == TD_FIX_MISSING || (t->status == TD_FIX_NOT_APPLICABLE && t->why != why_not_built);
}

/* Whether the target lacks what id, a Fixes: line of v[k], names: an
 * earlier commit of the history that it lacks (lacks(), or touching none of
 * its files), or a merge of the range all of whose merged commits (earlier,
 * at least one) it lacks: the bug came with them, or with merging them. Not
 * for an id outside the history (before the base: the target has it).
 * Sets *out; 0, or TD_EGIT / TD_ENOMEM with the error set. */
static int lacks_named(const engine_t *e, fix_ix_t *v, size_t k, const char *id, int *out)
{
	const td_upstream_fix_t *t;
	size_t *merged = NULL, n = 0;
	int in_history, merge, rc;

	t = earlier(e, v, k, id, &in_history);
	if (in_history) {
		*out = !t || lacks(t);
		return TD_OK;
	}
	*out = 0;
	if ((rc = td_history_merged(&merged, &n, &merge, e->h, id, e->err)))
		return rc;
	*out = merge && n > 0;
	for (size_t q = 0; q < n && *out; q++)
		*out = merged[q] < v[k].i && (!(t = listed(v, k, merged[q])) || lacks(t));
	free(merged);
	return TD_OK;
}

/* A missing commit whose Fixes: lines all name what the target lacks
 * (lacks_named): the bug it fixes came with that, so the target does not
 * have that either, and it is not applicable ("fixed commit missing"). A
 * Fixes: line naming a commit outside the history (before the base: the
 * target has it) keeps it as it is. Oldest first, so that a fix of such a
 * fix follows it. 0, or TD_EGIT / TD_ENOMEM. */
static int skip_unneeded_fixes(const engine_t *e, fix_ix_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		td_upstream_fix_t *x = &v[k].f;
		int lacked = 1, rc;
		if (x->status != TD_FIX_MISSING || !x->tags.nfixes)
			continue;
		for (size_t q = 0; q < x->tags.nfixes && lacked; q++)
			if ((rc = lacks_named(e, v, k, x->tags.fixes[q], &lacked)))
				return rc;
		if (lacked) {
			x->status = TD_FIX_NOT_APPLICABLE;
			x->why = "fixed commit missing";
		}
	}
	return TD_OK;
}

/* x, a later commit, into t's fixed_by, once. 0 or TD_ENOMEM. */
static int add_fixed_by(const engine_t *e, td_upstream_fix_t *t, const td_upstream_fix_t *x)
{
	if (t->nfixed_by && !strcmp(t->fixed_by[t->nfixed_by - 1], x->id))
		return TD_OK;
	return add_string(&t->fixed_by, &t->nfixed_by, x->id) ? td_error_set(e->err, TD_ENOMEM, "out of memory")
							       : TD_OK;
}

/* Each listed commit's fixed_by: the later listed commits whose Fixes:
 * lines name it, or a merge of the range that merged it (as lacks_named
 * takes them), in history order. 0, or TD_EGIT / TD_ENOMEM. */
static int note_fixed_by(const engine_t *e, fix_ix_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const td_upstream_fix_t *x = &v[k].f;
		for (size_t q = 0; q < x->tags.nfixes; q++) {
			size_t *merged = NULL, nm = 0;
			int in_history, merge, rc = TD_OK;
			td_upstream_fix_t *t = earlier(e, v, k, x->tags.fixes[q], &in_history);
			if (in_history) {
				if (t && (rc = add_fixed_by(e, t, x)))
					return rc;
				continue;
			}
			if ((rc = td_history_merged(&merged, &nm, &merge, e->h, x->tags.fixes[q], e->err)))
				return rc;
			for (size_t j = 0; j < nm && !rc; j++)
				if (merged[j] < v[k].i && (t = listed(v, k, merged[j])))
					rc = add_fixed_by(e, t, x);
			free(merged);
			if (rc)
				return rc;
		}
	}
	return TD_OK;
}

static int judge_fixes(engine_t *e)
{
	td_upstream_t *u = e->u;
	fix_ix_t *v = NULL;
	size_t n = 0;
	int rc = TD_OK;

	if (!(v = calloc(e->h->count ? e->h->count : 1, sizeof(*v))))
		return td_error_set(e->err, TD_ENOMEM, "out of memory");
	/* Newest first, so that a commit's supersession by later ones the
	 * target has is known when it is judged; v is put back in history
	 * order after. */
	for (size_t i = e->h->count; i-- > 0;) {
		const td_history_commit_t *c = &e->h->commits[i];
		td_upstream_fix_t *fx = &v[n].f;
		const char *msg = c->message ? c->message : c->subject;
		int listed;
		if ((rc = judge_commit(e, i, fx, &listed)))
			goto out;
		if (!listed) {
			fix_release(fx);
			continue;
		}
		e->status_of[i] = (int)fx->status;
		memcpy(fx->id, c->id, TD_HISTORY_ID_HEX);
		v[n].i = i;
		n++;
		if (!(fx->subject = td_strndup(c->subject ? c->subject : "", c->subject ? strlen(c->subject) : 0)) ||
		    td_commit_tags_parse(&fx->tags, msg, msg ? strlen(msg) : 0)) {
			rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
			goto out;
		}
		fx->fix = fx->tags.nfixes || fx->tags.cc_stable || fx->tags.ncves;
	}
	for (size_t k = 0; k < n / 2; k++) {
		fix_ix_t x = v[k];
		v[k] = v[n - 1 - k];
		v[n - 1 - k] = x;
	}
	cancel_reverts(e, v, n);
	if ((rc = skip_unneeded_fixes(e, v, n)) || (rc = note_fixed_by(e, v, n)))
		goto out;
	for (size_t k = 0; k < n; k++) {
		const td_upstream_fix_t *fx = &v[k].f;
		u->status_count[fx->status]++;
		u->fix_count[fx->status] += (size_t)fx->fix;
		u->cve_count[fx->status] += fx->tags.ncves > 0;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), fix_ix_cmp);
	if (!(u->fixes = calloc(n ? n : 1, sizeof(*u->fixes)))) {
		rc = td_error_set(e->err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < n; k++)
		u->fixes[k] = v[k].f;
	u->nfixes = n;
	n = 0;
out:
	for (size_t k = 0; k < n; k++)
		fix_release(&v[k].f);
	/* the entry being filled when it failed */
	if (rc && n < e->h->count)
		fix_release(&v[n].f);
	free(v);
	return rc;
}

/* --- the run ------------------------------------------------------------------ */

static void engine_release(engine_t *e)
{
	if (e->contents)
		for (size_t i = 0; i < e->r->count; i++) {
			free(e->contents[i].base);
			free(e->contents[i].target);
			free(e->contents[i].events);
		}
	free(e->contents);
	free(e->keys);
	free(e->by_key);
	free(e->pids);
	free(e->pid_state);
	free(e->taken_by);
	free(e->status_of);
	td_source_free(e->target_src);
	git_tree_free(e->base_tree);
	git_repository_free(e->repo);
}

int td_upstream_analyze(td_upstream_t **out, const td_history_t *h, const td_result_t *result,
			const td_patch_set_t *set, const td_upstream_opts_t *opts, td_error_t *err)
{
	td_upstream_opts_t defaults;
	engine_t e;
	git_oid base;
	git_commit *bc = NULL;
	int rc;

	*out = NULL;
	if (!h || !result)
		return td_error_set(err, TD_EINVAL, "td_upstream_analyze needs a history and a result");
	if (!opts) {
		td_upstream_opts_init(&defaults);
		opts = &defaults;
	}
	memset(&e, 0, sizeof(e));
	e.h = h;
	e.r = result;
	e.set = set;
	e.opts = opts;
	e.err = err;
	if (git_libgit2_init() < 0)
		return td_error_set(err, TD_EGIT, "unable to initialise libgit2: %s", git_msg());
	if (git_repository_open_ext(&e.repo, h->repo, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) ||
	    git_oid_fromstr(&base, h->base) || git_commit_lookup(&bc, e.repo, &base) ||
	    git_commit_tree(&e.base_tree, bc)) {
		rc = td_error_set(err, TD_EGIT, "unable to read the base '%s' of '%s': %s", h->base, h->repo,
				  git_msg());
		goto out;
	}
	if (!(e.u = calloc(1, sizeof(*e.u))) ||
	    !(e.pids = calloc(h->count ? h->count : 1, sizeof(*e.pids))) ||
	    !(e.pid_state = calloc(h->count ? h->count : 1, 1)) ||
	    !(e.taken_by = td_malloc_array(h->count ? h->count : 1, sizeof(*e.taken_by))) ||
	    !(e.status_of = td_malloc_array(h->count ? h->count : 1, sizeof(*e.status_of))) ||
	    !(e.contents = calloc(result->count ? result->count : 1, sizeof(*e.contents)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < h->count; i++) {
		e.taken_by[i] = -1;
		e.status_of[i] = -1;
	}
	if ((rc = index_paths(&e)) || (rc = match_patches(&e)) || (rc = judge_fixes(&e)))
		goto out;
	*out = e.u;
	e.u = NULL;
out:
	git_commit_free(bc);
	td_upstream_free(e.u);
	engine_release(&e);
	git_libgit2_shutdown();
	return rc;
}
