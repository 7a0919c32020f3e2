/* Line provenance (treedrift/provenance.h): both sides of each changed file
 * are read again by the line-count machinery (td_lines_visit), diffed with
 * libgit2 (td_linediff_walk), and each changed line is looked up in the
 * upstream changes of its path. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "linediff.h"
#include "treedrift/digest.h"
#include "treedrift/lines.h"
#include "treedrift/provenance.h"

/* One upstream line change of a path: its hash and the commit that made it. */
typedef struct up_line {
	td_line_hash_t hash;
	size_t commit;
	int used;
} up_line_t;

/* The upstream changes of one kind: sorted by (hash, commit). */
typedef struct pool {
	up_line_t *v;
	size_t n;
} pool_t;

/* Which pool: deciding lines added and removed, then trivial ones. */
enum { POOL_ADDED, POOL_REMOVED, POOL_ADDED_TRIVIAL, POOL_REMOVED_TRIVIAL, POOLS };

/* One changed or context line of the walk. */
typedef struct event {
	uint64_t old_line;
	uint64_t new_line;
	td_line_hash_t hash;
	char origin;
	int trivial;
	int upstream;          /* decided: 1 upstream, 0 local */
	size_t hunk;
} event_t;

typedef struct file_walk {
	pool_t pool[POOLS];
	event_t *ev;
	size_t nev, cap;
	size_t *commits;
	size_t ncommits, cap_commits;
	int nomem;
} file_walk_t;

typedef struct prov_ctx {
	td_provenance_t *p;
	td_result_t *r;
	long *slot;                  /* change index -> index in p->files, -1 */
	const td_provenance_opts_t *o;
} prov_ctx_t;

const char *td_prov_state_name(td_prov_state_t s)
{
	switch (s) {
	case TD_PROV_DONE: return "done";
	case TD_PROV_BINARY: return "binary";
	case TD_PROV_MISSING: return "missing";
	default: return "unknown";
	}
}

void td_provenance_opts_init(td_provenance_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	td_lines_opts_init(&o->lines);
	o->added_distance = 300;
}

static int cmp_up(const void *a, const void *b)
{
	const up_line_t *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->commit < y->commit ? -1 : x->commit > y->commit;
}

/* The hashes of history file f that pool k holds. */
static const td_line_hash_t *pool_lines(const td_history_file_t *f, int k, size_t *n)
{
	switch (k) {
	case POOL_ADDED: *n = f->nadded; return f->added;
	case POOL_REMOVED: *n = f->nremoved; return f->removed;
	case POOL_ADDED_TRIVIAL: *n = f->nadded_trivial; return f->added_trivial;
	default: *n = f->nremoved_trivial; return f->removed_trivial;
	}
}

/* The upstream changes of path, from every commit that touched it. */
static int collect(file_walk_t *w, const td_history_t *h, const char *path)
{
	const td_history_touch_t *t;
	size_t n;

	td_history_find(&t, &n, h, path);
	for (int k = 0; k < POOLS; k++) {
		pool_t *p = &w->pool[k];
		size_t total = 0, len;
		for (size_t i = 0; i < n; i++) {
			pool_lines(&h->commits[t[i].commit].files[t[i].file], k, &len);
			total += len;
		}
		if (total && !(p->v = td_malloc_array(total, sizeof(*p->v))))
			return TD_ENOMEM;
		for (size_t i = 0; i < n; i++) {
			const td_line_hash_t *v = pool_lines(&h->commits[t[i].commit].files[t[i].file], k, &len);
			for (size_t j = 0; j < len; j++)
				p->v[p->n++] = (up_line_t){ v[j], t[i].commit, 0 };
		}
		if (p->n > 1)
			qsort(p->v, p->n, sizeof(*p->v), cmp_up);
	}
	return TD_OK;
}

/* Take the earliest unused upstream change with this hash; its commit in
 * *commit. 1 when there was one. */
static int take(pool_t *p, td_line_hash_t hash, size_t *commit)
{
	up_line_t *v = p->v;
	size_t lo = 0, hi = p->n, n = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].hash < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].hash == hash; lo++)
		if (!v[lo].used) {
			v[lo].used = 1;
			*commit = v[lo].commit;
			return 1;
		}
	return 0;
}

static int add_commit(file_walk_t *w, size_t commit)
{
	for (size_t i = 0; i < w->ncommits; i++)
		if (w->commits[i] == commit)
			return TD_OK;
	if (td_grow((void **)&w->commits, &w->cap_commits, w->ncommits + 1, sizeof(*w->commits)))
		return TD_ENOMEM;
	w->commits[w->ncommits++] = commit;
	return TD_OK;
}

static int on_line(void *ctx, char origin, const char *content, size_t len, uint64_t old_line, uint64_t new_line,
		   size_t hunk)
{
	file_walk_t *w = ctx;
	event_t *e;
	size_t commit;

	if (td_grow((void **)&w->ev, &w->cap, w->nev + 1, sizeof(*w->ev)))
		return TD_ENOMEM;
	e = &w->ev[w->nev++];
	memset(e, 0, sizeof(*e));
	e->old_line = old_line;
	e->new_line = new_line;
	e->origin = origin;
	e->hunk = hunk;
	if (origin == ' ')
		return TD_OK;
	e->hash = td_line_hash(content, len, &e->trivial);
	if (e->trivial)
		return TD_OK;
	e->upstream = take(&w->pool[origin == '+' ? POOL_ADDED : POOL_REMOVED], e->hash, &commit);
	if (e->upstream && add_commit(w, commit))
		return TD_ENOMEM;
	return TD_OK;
}

/* Trivial lines follow the deciding changed line before them in their hunk,
 * else the one after. Without either, the same trivial change made upstream
 * to the path decides (a hunk that only removes a blank line). */
static int decide_trivial(file_walk_t *w)
{
	for (size_t i = 0; i < w->nev; i++) {
		event_t *e = &w->ev[i];
		size_t commit;
		int found = 0;
		if (e->origin == ' ' || !e->trivial)
			continue;
		for (size_t k = i; k-- > 0 && w->ev[k].hunk == e->hunk;)
			if (w->ev[k].origin != ' ' && !w->ev[k].trivial) {
				e->upstream = w->ev[k].upstream;
				found = 1;
				break;
			}
		for (size_t k = i + 1; !found && k < w->nev && w->ev[k].hunk == e->hunk; k++)
			if (w->ev[k].origin != ' ' && !w->ev[k].trivial) {
				e->upstream = w->ev[k].upstream;
				found = 1;
			}
		if (found)
			continue;
		e->upstream = take(&w->pool[e->origin == '+' ? POOL_ADDED_TRIVIAL : POOL_REMOVED_TRIVIAL], e->hash,
				   &commit);
		if (e->upstream && add_commit(w, commit))
			return TD_ENOMEM;
	}
	return TD_OK;
}

/* A growable byte buffer for the base with the upstream changes. */
typedef struct buf {
	char *data;
	size_t len, cap;
} buf_t;

static int put(buf_t *b, const char *p, size_t n)
{
	if (!n)
		return TD_OK;
	if (b->len + n < b->len || td_grow((void **)&b->data, &b->cap, b->len + n, 1))
		return TD_ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return TD_OK;
}

/* The base lines [*next, upto] (1-based) into b; *next moves past them. */
static int put_base(buf_t *b, const char *base, size_t base_len, size_t *off, uint64_t *next, uint64_t upto,
		    int keep)
{
	while (*next <= upto && *off < base_len) {
		const char *s = base + *off, *nl = memchr(s, '\n', base_len - *off);
		size_t n = nl ? (size_t)(nl - s) + 1 : base_len - *off;
		if (keep && put(b, s, n))
			return TD_ENOMEM;
		*off += n;
		(*next)++;
	}
	return TD_OK;
}

/* Line n (1-based) of buf: its start and length with its '\n'. The walk
 * asks for increasing n, so the cursor moves forward only. */
typedef struct cursor {
	const char *buf;
	size_t len, off;
	uint64_t line;         /* the line that starts at off */
} cursor_t;

static int line_at(cursor_t *c, uint64_t n, const char **p, size_t *len)
{
	while (c->line < n && c->off < c->len) {
		const char *nl = memchr(c->buf + c->off, '\n', c->len - c->off);
		c->off = nl ? (size_t)(nl - c->buf) + 1 : c->len;
		c->line++;
	}
	if (c->line != n || c->off >= c->len)
		return 0;
	{
		const char *s = c->buf + c->off, *nl = memchr(s, '\n', c->len - c->off);
		*p = s;
		*len = nl ? (size_t)(nl - s) + 1 : c->len - c->off;
	}
	return 1;
}

/* The base with only the upstream changes applied; added lines are taken
 * from the target's content by their line numbers. */
static int apply_upstream(buf_t *b, const file_walk_t *w, const char *base, size_t base_len, const char *target,
			  size_t target_len)
{
	cursor_t tc = { target, target_len, 0, 1 };
	uint64_t next = 1;
	size_t off = 0;

	for (size_t i = 0; i < w->nev; i++) {
		const event_t *e = &w->ev[i];
		if (e->origin == ' ') {
			if (put_base(b, base, base_len, &off, &next, e->old_line, 1))
				return TD_ENOMEM;
		} else if (e->origin == '-') {
			if (put_base(b, base, base_len, &off, &next, e->old_line - 1, 1) ||
			    put_base(b, base, base_len, &off, &next, e->old_line, !e->upstream))
				return TD_ENOMEM;
		} else if (e->upstream) {
			const char *p;
			size_t n;
			if (line_at(&tc, e->new_line, &p, &n) && put(b, p, n))
				return TD_ENOMEM;
		}
	}
	return put_base(b, base, base_len, &off, &next, UINT64_MAX, 1);
}

static int digest_of(td_digest_t *out, const void *data, size_t len)
{
	td_digester_t *dg = NULL;
	int rc;

	if ((rc = td_digester_new(&dg)))
		return rc;
	td_digester_start(dg, 1);
	if (!(rc = td_digester_update(dg, data, len)))
		rc = td_digester_finish(out, dg);
	td_digester_free(dg);
	return rc;
}

/* A content to score and its digest. */
typedef struct text {
	const void *data;
	size_t len;
	td_digest_t d;
} text_t;

static int text_digest(text_t *t, const void *data, size_t len, td_error_t *err)
{
	int rc;

	t->data = data ? data : "";
	t->len = len;
	if ((rc = digest_of(&t->d, t->data, len)))
		return td_error_set(err, rc, "unable to digest a file");
	return TD_OK;
}

/* The two texts of a score, for td_lines_score_pair to read. */
static int give_content(void *ctx, int side, const void **data, size_t *len, td_error_t *err)
{
	const text_t *const *pair = ctx;

	(void)err;
	*data = pair[side]->data;
	*len = pair[side]->len;
	return TD_OK;
}

/* Distance of two texts as compare scores a modified file (cosmetic
 * changes and small files included); 0 when equal. */
static int score(const prov_ctx_t *x, int *out, int *fallback, const text_t *a, const text_t *b, td_error_t *err)
{
	const text_t *pair[2] = { a, b };
	td_scored_by_t by = TD_SCORED_TLSH;
	int rc = td_lines_score_pair(out, &by, &a->d, &b->d, x->r->len_diff, !x->o->tlsh_small_files, give_content,
				     pair, err);

	*fallback |= !rc && by == TD_SCORED_FALLBACK;
	return rc;
}

/* The two distances of a file with lines of both sides: base (old) to
 * that (m), each text digested once, and that to the target (new); a new
 * file's upstream distance is the added distance. */
static int score_mixed(const prov_ctx_t *x, td_file_provenance_t *f, int added, const void *old_buf,
		       size_t old_len, const buf_t *m, const void *new_buf, size_t new_len, td_error_t *err)
{
	text_t t[3];
	int rc;

	memset(t, 0, sizeof(t));
	if (!(rc = text_digest(&t[1], m->data, m->len, err)) && !(rc = text_digest(&t[2], new_buf, new_len, err))) {
		if (added)
			f->distance_upstream = x->o->added_distance;
		else if (!(rc = text_digest(&t[0], old_buf, old_len, err)))
			rc = score(x, &f->distance_upstream, &f->fallback, &t[0], &t[1], err);
		if (!rc)
			rc = score(x, &f->distance_local, &f->fallback, &t[1], &t[2], err);
	}
	for (int k = 0; k < 3; k++)
		td_digest_release(&t[k].d);
	return rc;
}

/* The change's distance split in proportion to the two distances. */
static void split(td_file_provenance_t *f, uint64_t d)
{
	uint64_t up_lines = f->added_upstream + f->removed_upstream;
	uint64_t lo_lines = f->added_local + f->removed_local;
	uint64_t u = (uint64_t)f->distance_upstream, l = (uint64_t)f->distance_local;

	if (f->state != TD_PROV_DONE || !up_lines) {
		f->split_local = d;
	} else if (!lo_lines) {
		f->split_upstream = d;
	} else {
		if (!u && !l) {
			u = up_lines;
			l = lo_lines;
		}
		f->split_upstream = (d * u + (u + l) / 2) / (u + l);
		f->split_local = d - f->split_upstream;
	}
}

static int on_file(void *ctx, size_t change, const void *old_buf, size_t old_len, const void *new_buf, size_t new_len,
		   const char *missing, td_error_t *err)
{
	prov_ctx_t *x = ctx;
	const td_change_t *c = &x->r->changes[change];
	td_file_provenance_t *f;
	file_walk_t w;
	buf_t m = { 0 };
	int binary = 0, rc = TD_OK;

	if (x->slot[change] < 0)
		return TD_OK;
	f = &x->p->files[x->slot[change]];
	memset(&w, 0, sizeof(w));
	if (missing) {
		char *copy = strdup(missing);
		if (!copy)
			return td_error_set(err, TD_ENOMEM, "out of memory");
		f->state = TD_PROV_MISSING;
		f->missing = copy;
		return TD_OK;
	}
	if (collect(&w, x->p->history, c->target->path)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = td_linediff_walk(&binary, old_buf, old_len, new_buf, new_len, on_line, &w, err))) {
		if (rc == TD_ENOMEM)
			td_error_set(err, rc, "out of memory");
		goto out;
	}
	if (binary) {
		f->state = TD_PROV_BINARY;
		goto out;
	}
	if (decide_trivial(&w)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < w.nev; i++) {
		const event_t *e = &w.ev[i];
		if (e->origin == '+')
			(*(e->upstream ? &f->added_upstream : &f->added_local))++;
		else if (e->origin == '-')
			(*(e->upstream ? &f->removed_upstream : &f->removed_local))++;
	}
	/* only commits whose lines decided: ascending, as the history's order */
	for (size_t i = 1; i < w.ncommits; i++)
		for (size_t j = i; j > 0 && w.commits[j - 1] > w.commits[j]; j--) {
			size_t t = w.commits[j];
			w.commits[j] = w.commits[j - 1];
			w.commits[j - 1] = t;
		}
	f->commits = w.commits;
	f->ncommits = w.ncommits;
	w.commits = NULL;
	if (apply_upstream(&m, &w, old_buf, old_len, new_buf, new_len)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	/* A change all of one side is the file's own distance, however compare
	 * scored it (a copy's from its origin, a small file's from its lines). */
	if (!f->added_upstream && !f->removed_upstream) {
		f->distance_local = c->distance;
	} else if (!f->added_local && !f->removed_local) {
		f->distance_upstream = c->distance;
	} else {
		rc = score_mixed(x, f, c->status == TD_STATUS_ADDED, old_buf, old_len, &m, new_buf, new_len, err);
	}
	f->state = TD_PROV_DONE;
out:
	free(m.data);
	for (int k = 0; k < POOLS; k++)
		free(w.pool[k].v);
	free(w.ev);
	free(w.commits);
	return rc;
}

void td_provenance_free(td_provenance_t *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nfiles; i++) {
		free((char *)p->files[i].missing);
		free(p->files[i].commits);
	}
	free(p->files);
	td_history_free(p->history);
	free(p);
}

const td_file_provenance_t *td_provenance_find(const td_provenance_t *p, size_t change)
{
	size_t lo = 0, hi = p ? p->nfiles : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->files[mid].change < change)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (p ? p->nfiles : 0) && p->files[lo].change == change ? &p->files[lo] : NULL;
}

static int wants_provenance(const td_change_t *c)
{
	return (c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED) && c->target;
}

static void sum(td_provenance_t *p, const td_result_t *r, const td_history_t *h)
{
	unsigned char *used = calloc(h->count ? h->count : 1, 1);

	for (size_t i = 0; i < p->nfiles; i++) {
		td_file_provenance_t *f = &p->files[i];
		uint64_t up = f->added_upstream + f->removed_upstream, lo = f->added_local + f->removed_local;
		split(f, (uint64_t)r->changes[f->change].distance);
		p->lines_upstream += up;
		p->lines_local += lo;
		p->distance_upstream += f->split_upstream;
		p->distance_local += f->split_local;
		if (up && lo)
			p->files_mixed++;
		else if (up)
			p->files_upstream++;
		else
			p->files_local++;
		for (size_t k = 0; used && k < f->ncommits; k++)
			if (!used[f->commits[k]]) {
				used[f->commits[k]] = 1;
				p->commits_used++;
			}
	}
	free(used);
}

int td_provenance_compute(td_provenance_t **out, td_result_t *r, td_history_t *history,
			  const td_provenance_opts_t *opts, td_error_t *err)
{
	td_provenance_opts_t dflt;
	td_provenance_t *p = NULL;
	prov_ctx_t x;
	size_t n = 0;
	int rc = TD_OK;

	*out = NULL;
	memset(&x, 0, sizeof(x));
	if (!opts) {
		td_provenance_opts_init(&dflt);
		opts = &dflt;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		td_history_free(history);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	p->history = history;
	for (size_t i = 0; i < r->count; i++)
		n += wants_provenance(&r->changes[i]);
	if (!(x.slot = td_malloc_array(r->count ? r->count : 1, sizeof(*x.slot))) ||
	    (n && !(p->files = calloc(n, sizeof(*p->files))))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < r->count; i++) {
		x.slot[i] = -1;
		if (!wants_provenance(&r->changes[i]))
			continue;
		x.slot[i] = (long)p->nfiles;
		p->files[p->nfiles].change = i;
		/* until read: a type the diff does not read (a symlink added, a
		 * file that replaced a symlink) stays local */
		p->files[p->nfiles].state = TD_PROV_MISSING;
		p->nfiles++;
	}
	x.p = p;
	x.r = r;
	x.o = opts;
	if ((rc = td_lines_visit(r, &opts->lines, on_file, &x, err)))
		goto out;
	for (size_t i = 0; i < p->nfiles; i++)
		if (p->files[i].state == TD_PROV_MISSING && !p->files[i].missing &&
		    !(p->files[i].missing = strdup("not read for provenance (not a regular file on both sides)"))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
	sum(p, r, history);
out:
	free(x.slot);
	if (rc) {
		td_provenance_free(p);
		return rc;
	}
	*out = p;
	return TD_OK;
}

void td_provenance_classify_local(td_result_t *r, const td_provenance_t *p)
{
	for (size_t i = 0; p && i < p->nfiles; i++) {
		const td_file_provenance_t *f = &p->files[i];
		td_change_t *c = &r->changes[f->change];
		if (c->status == TD_STATUS_MODIFIED)
			c->cls = td_classify(f->state == TD_PROV_DONE ? f->distance_local : c->distance, &r->thresholds);
		else if (c->status == TD_STATUS_ADDED && f->state == TD_PROV_DONE && !f->added_local)
			c->cls = td_classify(f->distance_local, &r->thresholds);
	}
	td_result_update_totals(r);
}
