/* Line counts of modified files: read both sides again and diff them
 * (linediff.c). A directory or git side is read file by file by a pool of
 * threads; an archive side in one pass that holds only the wanted members,
 * a batch at a time, each batch diffed before the pass goes on. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <openssl/evp.h>

#include "internal.h"
#include "linediff.h"
#include "pairs.h"
#include "source_impl.h"
#include "treedrift/lines.h"

/* Threads at most, whatever opts.jobs says. */
#define LINES_MAX_THREADS 256
/* A worker's read buffer over this size is freed after its file. */
#define LINES_KEEP_BUFFER_BYTES (4u << 20)

enum { UP = 0, TG = 1 };

/* Why one side of one file could not be read. */
enum cause { C_TOO_LARGE, C_CHANGED, C_VANISHED, C_UNREADABLE, C_HARDLINK, C_NOT_FOUND, C_COUNT };

static const char *const file_reasons[2][C_COUNT] = {
	{ "the upstream file is over the size limit for line counts",
	  "the upstream file changed after it was read",
	  "the upstream file vanished after it was read",
	  "the upstream file cannot be read",
	  "the upstream file is a hard link in the archive",
	  "the upstream file is not in the archive any more" },
	{ "the target file is over the size limit for line counts",
	  "the target file changed after it was read",
	  "the target file vanished after it was read",
	  "the target file cannot be read",
	  "the target file is a hard link in the archive",
	  "the target file is not in the archive any more" },
};

static const char *const side_names[2] = { "upstream", "target" };

typedef struct side {
	const td_tree_t *tree;
	td_source_t *src;      /* NULL when the side is not read */
	int archive;           /* src is sequential */
	const char *missing;   /* kept by the result: why the side cannot be read */
	atomic_int used;       /* a file's counts are missing for that reason */
	int32_t *job_of;       /* archives: index in tree->files -> job, -1 for none */
} side_t;

typedef struct job {
	td_change_t *c;
	uint8_t *held[2];      /* archive content of that side; owned until the batch is done */
	size_t held_len[2];
	const char *missing[2];/* static: why that side could not be read in the pass */
	int in_pass;           /* two archives: wanted in the current pass over the target */
	int done;
} job_t;

typedef struct lines_ctx {
	td_result_t *r;
	side_t side[2];
	job_t *jobs;
	size_t njobs;
	uint64_t max_file_bytes;
	uint64_t held_bytes;
	unsigned threads;
	const td_source_opts_t *source_opts; /* to open an archive again */
	/* the batch the workers take from */
	const size_t *batch;
	size_t nbatch;
	atomic_size_t next;
	atomic_int failed;
	pthread_mutex_t lock;
	td_error_t err;        /* the first failure, under lock */
	td_lines_visit_fn visit; /* td_lines_visit: called instead of counting */
	void *visit_ctx;
} lines_ctx_t;

static const td_file_t *side_file(const td_change_t *c, int s)
{
	return s == UP ? c->upstream : c->target;
}

static int wants_content(const td_change_t *c, int s)
{
	return side_file(c, s) && side_file(c, s)->type == TD_ENTRY_FILE;
}

static void fail(lines_ctx_t *x, const td_error_t *e)
{
	pthread_mutex_lock(&x->lock);
	if (!atomic_load(&x->failed)) {
		x->err = *e;
		atomic_store(&x->failed, 1);
	}
	pthread_mutex_unlock(&x->lock);
}

static enum cause cause_of(const char *skip_reason)
{
	if (skip_reason && !strcmp(skip_reason, TD_SKIP_CHANGED))
		return C_CHANGED;
	if (skip_reason && !strcmp(skip_reason, TD_SKIP_VANISHED))
		return C_VANISHED;
	return C_UNREADABLE;
}

/* ---- one side's content, on a worker ---- */

typedef struct worker_buf {
	uint8_t *data;
	size_t cap;
} worker_buf_t;

/* Read a file of a random-access side whole into wb. 0 with *data set,
 * 0 with *missing set, or TD_ENOMEM. */
static int read_direct(lines_ctx_t *x, worker_buf_t *wb, int s, const td_file_t *f, const uint8_t **data,
		       size_t *len, const char **missing)
{
	td_error_t err = { 0 };
	const char *skip = NULL;
	size_t need;
	int rc;

	if (f->size_bytes > x->max_file_bytes) {
		*missing = file_reasons[s][C_TOO_LARGE];
		return TD_OK;
	}
	need = (size_t)f->size_bytes + 1;
	if (td_grow((void **)&wb->data, &wb->cap, need, 1))
		return TD_ENOMEM;
	rc = td_source_read_all(x->side[s].src, f, wb->data, need, len, &skip, &err);
	if (rc == TD_ENOMEM)
		return rc;
	if (rc) {
		*missing = file_reasons[s][cause_of(skip)];
		return TD_OK;
	}
	*data = wb->data;
	return TD_OK;
}

/* Side s of job j: a symlink's target text, held archive content, or a
 * file read now. Sets *data or *missing; returns 0 or TD_ENOMEM. */
static int content(lines_ctx_t *x, worker_buf_t *wb, job_t *j, int s, const uint8_t **data, size_t *len,
		   const char **missing)
{
	const td_file_t *f = side_file(j->c, s);
	side_t *sd = &x->side[s];

	*data = NULL;
	*len = 0;
	*missing = NULL;
	if (!f) {
		/* an added file (td_lines_visit): nothing before it */
		*data = (const uint8_t *)"";
		return TD_OK;
	}
	if (f->type == TD_ENTRY_SYMLINK) {
		*data = (const uint8_t *)(f->link_target ? f->link_target : "");
		*len = f->link_len;
		return TD_OK;
	}
	if (sd->missing) {
		*missing = sd->missing;
		atomic_store(&sd->used, 1);
		return TD_OK;
	}
	if (j->missing[s]) {
		*missing = j->missing[s];
		return TD_OK;
	}
	if (sd->archive) {
		if (!j->held[s]) {
			*missing = file_reasons[s][C_NOT_FOUND];
			return TD_OK;
		}
		*data = j->held[s];
		*len = j->held_len[s];
		return TD_OK;
	}
	return read_direct(x, wb, s, f, data, len, missing);
}

/* A side without a normalised digest (a schema 1 database): decide from
 * the content, read here anyway. */
static int cosmetic_from_content(td_change_t *c, const uint8_t *data[2], const size_t len[2], td_error_t *err)
{
	uint8_t ws[2][TD_SHA256_BYTES];
	int rc;

	for (int s = UP; s <= TG; s++)
		if ((rc = td_sha256_ws(ws[s], data[s], len[s])))
			return td_error_set(err, rc, "unable to digest a file");
	td_change_set_cosmetic(c, memcmp(ws[UP], ws[TG], TD_SHA256_BYTES) ? TD_COSMETIC_NO : TD_COSMETIC_YES);
	return TD_OK;
}

static int count_job(lines_ctx_t *x, worker_buf_t wb[2], job_t *j, td_error_t *err)
{
	const uint8_t *data[2];
	size_t len[2];
	const char *missing[2];
	td_linediff_t d;
	td_change_t *c = j->c;
	int rc;

	if (j->done)
		return TD_OK;
	for (int s = UP; s <= TG; s++)
		if ((rc = content(x, &wb[s], j, s, &data[s], &len[s], &missing[s])))
			return td_error_set(err, rc, "out of memory");
	j->done = 1;
	if (x->visit) {
		const char *why = missing[UP] ? missing[UP] : missing[TG];
		return x->visit(x->visit_ctx, (size_t)(c - x->r->changes), why ? NULL : data[UP], len[UP],
				why ? NULL : data[TG], len[TG], why, err);
	}
	if (missing[UP] || missing[TG]) {
		c->lines = TD_LINES_MISSING;
		c->lines_missing = missing[UP] ? missing[UP] : missing[TG];
		return TD_OK;
	}
	if ((rc = td_linediff(&d, data[UP], len[UP], data[TG], len[TG], err)))
		return rc;
	if (c->cosmetic == TD_COSMETIC_UNKNOWN && (rc = cosmetic_from_content(c, data, len, err)))
		return rc;
	c->lines = d.binary ? TD_LINES_BINARY : TD_LINES_COUNTED;
	c->lines_added = d.added;
	c->lines_removed = d.removed;
	return TD_OK;
}

/* A rare big file's buffer is not kept for the small ones after it. */
static void trim_buffers(worker_buf_t wb[2])
{
	for (int s = UP; s <= TG; s++)
		if (wb[s].cap > LINES_KEEP_BUFFER_BYTES) {
			free(wb[s].data);
			wb[s].data = NULL;
			wb[s].cap = 0;
		}
}

static void *worker(void *arg)
{
	lines_ctx_t *x = arg;
	worker_buf_t wb[2] = { { 0 }, { 0 } };
	td_error_t err = { 0 };

	while (!atomic_load(&x->failed)) {
		size_t i = atomic_fetch_add(&x->next, 1);
		if (i >= x->nbatch)
			break;
		if (count_job(x, wb, &x->jobs[x->batch[i]], &err)) {
			fail(x, &err);
			break;
		}
		trim_buffers(wb);
	}
	free(wb[UP].data);
	free(wb[TG].data);
	return NULL;
}

/* Count the jobs of batch on the threads (this one among them). */
static int run_batch(lines_ctx_t *x, const size_t *batch, size_t n, td_error_t *err)
{
	pthread_t tid[LINES_MAX_THREADS];
	unsigned started = 0, want = x->threads;

	if (!n)
		return TD_OK;
	x->batch = batch;
	x->nbatch = n;
	atomic_store(&x->next, 0);
	if (want > n)
		want = (unsigned)n;
	for (unsigned i = 1; i < want; i++, started++)
		if (pthread_create(&tid[started], NULL, worker, x))
			break;
	worker(x);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (atomic_load(&x->failed)) {
		*err = x->err;
		return x->err.code ? x->err.code : TD_EGIT;
	}
	return TD_OK;
}

/* ---- archives: one pass, a batch at a time ---- */

static void drop_held(job_t *j, int s)
{
	free(j->held[s]);
	j->held[s] = NULL;
	j->held_len[s] = 0;
}

static int same_sha256(const uint8_t *data, size_t len, const td_file_t *f)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	if (!f->has_digest || f->digest.sha_only)
		return len == f->size_bytes;
	if (!EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL) || md_len != TD_SHA256_BYTES)
		return 0;
	return !memcmp(md, f->digest.sha256, TD_SHA256_BYTES);
}

/* The tree path of a member: without the single top folder when the scan
 * dropped it (td_scan_list's auto strip), which the first member shows:
 * its path as listed is not in the tree then. */
typedef struct strip {
	int decided;
	size_t len;            /* bytes to drop, "top/" */
	char *top;
} strip_t;

static int decide_strip(strip_t *st, const td_source_t *src, const td_tree_t *t, const td_file_t *e)
{
	size_t n;

	st->decided = 1;
	if (!td_source_auto_strip(src))
		return TD_OK;
	n = strcspn(e->path, "/");
	if (n >= e->path_len || td_tree_find(t, e->path, e->path_len))
		return TD_OK;
	if (!(st->top = td_strndup(e->path, n + 1)))
		return TD_ENOMEM;
	st->len = n + 1;
	return TD_OK;
}

static const td_file_t *find_member(const strip_t *st, const td_tree_t *t, const td_file_t *e)
{
	if (!st->len)
		return td_tree_find(t, e->path, e->path_len);
	if (e->path_len <= st->len || memcmp(e->path, st->top, st->len))
		return NULL;
	return td_tree_find(t, e->path + st->len, e->path_len - st->len);
}

/* Hold member e of side s for job j (the tree's file f), or say why not. */
static int hold_member(lines_ctx_t *x, int s, job_t *j, const td_file_t *f, const td_file_t *e,
		       uint64_t *held)
{
	td_error_t err = { 0 };
	const char *skip = NULL;
	uint8_t *buf;
	size_t len = 0;
	int rc;

	if (e->link_target) {
		j->missing[s] = file_reasons[s][C_HARDLINK];
		return TD_OK;
	}
	if (e->size_bytes > x->max_file_bytes || f->size_bytes > x->max_file_bytes) {
		j->missing[s] = file_reasons[s][C_TOO_LARGE];
		return TD_OK;
	}
	if (!(buf = malloc((size_t)e->size_bytes + 1)))
		return TD_ENOMEM;
	rc = td_source_read_all(x->side[s].src, e, buf, (size_t)e->size_bytes + 1, &len, &skip, &err);
	if (rc == TD_ENOMEM) {
		free(buf);
		return rc;
	}
	if (rc || !same_sha256(buf, len, f)) {
		free(buf);
		j->missing[s] = file_reasons[s][rc ? cause_of(skip) : C_CHANGED];
		return TD_OK;
	}
	j->held[s] = buf;
	j->held_len[s] = len;
	*held += len;
	return TD_OK;
}

typedef struct pass {
	int s;                 /* the side read */
	int only_marked;       /* hold only jobs with in_pass set */
	uint64_t budget;       /* flush when this much is held */
	size_t *batch;         /* jobs resolved since the last flush */
	size_t n;
	/* what to do with a batch: count it, or (upstream of two archives)
	 * read the target for it first */
	int (*flush)(lines_ctx_t *x, struct pass *p, td_error_t *err);
} pass_t;

static void pass_resolve(pass_t *p, size_t ji)
{
	p->batch[p->n++] = ji;
}

/* Read side p->s from its first member to its last, holding what the jobs
 * want; p->flush runs on each batch of p->budget bytes and at the end. */
static int archive_pass(lines_ctx_t *x, pass_t *p, td_error_t *err)
{
	side_t *sd = &x->side[p->s];
	strip_t st = { 0 };
	uint64_t held = 0;
	td_file_t e;
	td_error_t lerr = { 0 };
	int rc = TD_OK, more;

	memset(&e, 0, sizeof(e));
	p->n = 0;
	while ((more = td_source_next(&e, sd->src, &lerr)) > 0) {
		const td_file_t *f;
		int32_t ji;

		if (!st.decided && (rc = decide_strip(&st, sd->src, sd->tree, &e)))
			goto nomem;
		if (e.type == TD_ENTRY_FILE && (f = find_member(&st, sd->tree, &e)) &&
		    (ji = sd->job_of[f - sd->tree->files]) >= 0) {
			job_t *j = &x->jobs[ji];
			if (!j->done && !j->held[p->s] && !j->missing[p->s] && (!p->only_marked || j->in_pass)) {
				if ((rc = hold_member(x, p->s, j, f, &e, &held)))
					goto nomem;
				pass_resolve(p, (size_t)ji);
			}
		}
		td_file_release(&e);
		if (held >= p->budget) {
			if ((rc = p->flush(x, p, err)))
				goto out;
			held = 0;
			p->n = 0;
		}
	}
	/* An archive that ends in an error: what it did not give is missing. */
	(void)more;
	for (size_t i = 0; i < x->njobs; i++) {
		job_t *j = &x->jobs[i];
		if (!j->done && wants_content(j->c, p->s) && !j->held[p->s] && !j->missing[p->s] &&
		    (!p->only_marked || j->in_pass)) {
			j->missing[p->s] = file_reasons[p->s][C_NOT_FOUND];
			pass_resolve(p, i);
		}
	}
	rc = p->flush(x, p, err);
	p->n = 0;
	goto out;
nomem:
	rc = td_error_set(err, rc, "out of memory");
out:
	td_file_release(&e);
	free(st.top);
	return rc;
}

/* Count a batch, then let its content go. */
static int flush_count(lines_ctx_t *x, pass_t *p, td_error_t *err)
{
	int rc = run_batch(x, p->batch, p->n, err);

	for (size_t i = 0; i < p->n; i++) {
		drop_held(&x->jobs[p->batch[i]], UP);
		drop_held(&x->jobs[p->batch[i]], TG);
	}
	return rc;
}

/* Reopen a sequential side for another pass. */
static int reopen(lines_ctx_t *x, int s, td_error_t *err)
{
	td_source_opts_t so;
	side_t *sd = &x->side[s];
	char *spec;
	size_t n = strlen(sd->tree->meta.root) + sizeof("archive:");
	int rc;

	if (!(spec = malloc(n)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	snprintf(spec, n, "archive:%s", sd->tree->meta.root);
	memset(&so, 0, sizeof(so));
	so.strip_components = x->source_opts->strip_components;
	so.no_auto_strip = x->source_opts->no_auto_strip;
	td_source_free(sd->src);
	sd->src = NULL;
	rc = td_source_open(&sd->src, spec, &so, err);
	free(spec);
	return rc;
}

/* Two archives: a batch of upstream content is held; read the target
 * archive once more for the same files, then count them. */
static int flush_both(lines_ctx_t *x, pass_t *p, td_error_t *err)
{
	size_t *batch2 = NULL;
	pass_t q;
	int rc;

	if (!p->n)
		return TD_OK;
	if (!(batch2 = td_malloc_array(x->njobs, sizeof(*batch2))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->n; i++)
		x->jobs[p->batch[i]].in_pass = 1;
	memset(&q, 0, sizeof(q));
	q.s = TG;
	q.only_marked = 1;
	q.budget = UINT64_MAX;
	q.batch = batch2;
	q.flush = flush_count;
	if ((rc = reopen(x, TG, err)) == TD_OK)
		rc = archive_pass(x, &q, err);
	else {
		/* the target archive went away meanwhile */
		for (size_t i = 0; i < p->n; i++)
			x->jobs[p->batch[i]].missing[TG] = file_reasons[TG][C_NOT_FOUND];
		rc = TD_OK;
	}
	/* jobs whose target is a symlink were not in the target pass */
	if (!rc)
		rc = flush_count(x, p, err);
	for (size_t i = 0; i < p->n; i++)
		x->jobs[p->batch[i]].in_pass = 0;
	free(batch2);
	return rc;
}

/* ---- the sides ---- */

static const char *kind_phrase(const char *kind)
{
	if (kind && !strcmp(kind, "dir"))
		return "a directory";
	if (kind && !strcmp(kind, "archive"))
		return "an archive";
	return "a source it does not keep";
}

/* Keep a reason with the result; sets *out. */
static int keep_reason(td_result_t *r, const char **out, td_error_t *err, const char *fmt, ...)
	TD_PRINTF(4, 5);

static int keep_reason(td_result_t *r, const char **out, td_error_t *err, const char *fmt, ...)
{
	char buf[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (td_result_keep_string(r, buf, out))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

/* A database scanned from git whose repository cannot be opened: name the
 * repository (root is "git:REPO@COMMIT") and say whether it is gone. */
static int db_repo_gone(lines_ctx_t *x, side_t *sd, const char *name, const char *why, td_error_t *err)
{
	const char *root = sd->tree->meta.root + 4, *at = strrchr(root, '@');
	int len = at ? (int)(at - root) : (int)strlen(root);
	char repo[1024];
	struct stat st;

	snprintf(repo, sizeof(repo), "%.*s", len, root);
	if (stat(repo, &st))
		return keep_reason(x->r, &sd->missing, err,
				   "%s is a database without its repository ('%s' is gone)", name, repo);
	return keep_reason(x->r, &sd->missing, err, "%s is a database whose repository cannot be read (%s)",
			   name, why);
}

/* A database version scanned from git or from a directory. */
static int db_readable(const td_tree_meta_t *m)
{
	if (!m->source_kind || !m->root)
		return 0;
	if (!strcmp(m->source_kind, "git"))
		return !strncmp(m->root, "git:", 4);
	return !strcmp(m->source_kind, "dir") && m->root[0] == '/';
}

/* Open side s where its tree came from, or keep why it cannot be read. */
static int side_open(lines_ctx_t *x, int s, const td_source_opts_t *so, td_error_t *err)
{
	side_t *sd = &x->side[s];
	const td_tree_meta_t *m = &sd->tree->meta;
	const char *name = side_names[s];
	td_source_opts_t o;
	td_error_t oerr = { 0 };
	char *spec = NULL;
	size_t n;
	int rc;

	memset(&o, 0, sizeof(o));
	/* A database keeps no content, but git's blobs stay in the repository
	 * and a directory's files where they were: each is read only when it
	 * still has the size, mtime and inode the scan recorded. */
	if (m->database && !db_readable(m))
		return keep_reason(x->r, &sd->missing, err,
				   "%s is a database scanned from %s, which keeps no content", name,
				   kind_phrase(m->source_kind));
	if (!m->root || !*m->root || !m->source_kind)
		return keep_reason(x->r, &sd->missing, err, "%s does not say where it was read from", name);
	if (!strcmp(m->source_kind, "archive")) {
		o.strip_components = so->strip_components;
		o.no_auto_strip = so->no_auto_strip;
	}
	n = strlen(m->root) + sizeof("archive:");
	if (!(spec = malloc(n)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	snprintf(spec, n, "%s%s", strcmp(m->source_kind, "archive") ? "" : "archive:", m->root);
	rc = td_source_open(&sd->src, spec, &o, &oerr);
	free(spec);
	if (rc == TD_ENOMEM)
		return td_error_set(err, rc, "out of memory");
	if (!rc && strcmp(td_source_kind(sd->src), m->source_kind)) {
		td_source_free(sd->src);
		sd->src = NULL;
		rc = td_error_set(&oerr, TD_EINVAL, "'%s' is no longer %s", m->root, kind_phrase(m->source_kind));
	}
	if (rc && m->database && !strcmp(m->source_kind, "dir"))
		return keep_reason(x->r, &sd->missing, err,
				   "%s is a database scanned from a directory that cannot be read (%s)", name,
				   oerr.msg);
	if (rc && m->database)
		return db_repo_gone(x, sd, name, oerr.msg, err);
	if (rc)
		return keep_reason(x->r, &sd->missing, err, "%s cannot be read again (%s)", name, oerr.msg);
	sd->archive = !td_source_random_access(sd->src);
	return TD_OK;
}

static int index_jobs(lines_ctx_t *x, int s, td_error_t *err)
{
	side_t *sd = &x->side[s];

	if (!(sd->job_of = td_malloc_array(sd->tree->count ? sd->tree->count : 1, sizeof(int32_t))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < sd->tree->count; i++)
		sd->job_of[i] = -1;
	for (size_t i = 0; i < x->njobs; i++)
		if (wants_content(x->jobs[i].c, s))
			sd->job_of[side_file(x->jobs[i].c, s) - sd->tree->files] = (int32_t)i;
	return TD_OK;
}

static unsigned thread_count(const td_lines_opts_t *o)
{
	long n;

	if (o->jobs)
		return o->jobs > LINES_MAX_THREADS ? LINES_MAX_THREADS : o->jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > LINES_MAX_THREADS ? LINES_MAX_THREADS : (unsigned)n;
}

static int countable(const td_change_t *c)
{
	const td_file_t *u = c->upstream, *t = c->target;

	return c->status == TD_STATUS_MODIFIED && u && t &&
	       (u->type == TD_ENTRY_FILE || u->type == TD_ENTRY_SYMLINK) &&
	       (t->type == TD_ENTRY_FILE || t->type == TD_ENTRY_SYMLINK);
}

/* r->lines_missing: the reasons of the sides that cost a file its counts. */
static int set_result_reason(lines_ctx_t *x, td_error_t *err)
{
	const char *a = atomic_load(&x->side[UP].used) ? x->side[UP].missing : NULL;
	const char *b = atomic_load(&x->side[TG].used) ? x->side[TG].missing : NULL;

	if (a && b)
		return keep_reason(x->r, &x->r->lines_missing, err, "%s; %s", a, b);
	x->r->lines_missing = a ? a : b;
	return TD_OK;
}

const char *td_lines_state_name(td_lines_state_t s)
{
	switch (s) {
	case TD_LINES_COUNTED: return "counted";
	case TD_LINES_BINARY: return "binary";
	case TD_LINES_MISSING: return "missing";
	default: return NULL;
	}
}

const char *td_lines_text(char out[TD_LINES_TEXT_MAX], const td_change_t *c)
{
	out[0] = '\0';
	if (c->lines == TD_LINES_COUNTED)
		snprintf(out, TD_LINES_TEXT_MAX, "+%" PRIu64 " \xe2\x88\x92%" PRIu64, c->lines_added, c->lines_removed);
	else if (td_lines_state_name(c->lines))
		snprintf(out, TD_LINES_TEXT_MAX, "%s", td_lines_state_name(c->lines));
	return out;
}

void td_lines_opts_init(td_lines_opts_t *o)
{
	memset(o, 0, sizeof(*o));
}

static int run(lines_ctx_t *x, const td_lines_opts_t *o, td_error_t *err)
{
	size_t *batch = NULL, n = 0;
	int need[2] = { 0, 0 }, rc = TD_OK;
	pass_t p;

	for (size_t i = 0; i < x->njobs; i++)
		for (int s = UP; s <= TG; s++)
			need[s] |= wants_content(x->jobs[i].c, s);
	for (int s = UP; s <= TG; s++)
		if (need[s] && ((rc = side_open(x, s, &o->source, err)) ||
				(x->side[s].archive && (rc = index_jobs(x, s, err)))))
			return rc;
	if (!(batch = td_malloc_array(x->njobs ? x->njobs : 1, sizeof(*batch))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	memset(&p, 0, sizeof(p));
	p.batch = batch;
	p.budget = x->held_bytes;
	p.flush = flush_count;
	if (x->side[UP].archive && x->side[TG].archive) {
		p.s = UP;
		p.budget = x->held_bytes / 2;
		p.flush = flush_both;
		rc = archive_pass(x, &p, err);
		/* files whose upstream is a symlink: the target pass alone */
		for (size_t i = 0; !rc && i < x->njobs; i++)
			if (!x->jobs[i].done && wants_content(x->jobs[i].c, TG))
				batch[p.n++] = i;
		if (!rc && p.n)
			rc = flush_both(x, &p, err);
	} else if (x->side[UP].archive || x->side[TG].archive) {
		p.s = x->side[UP].archive ? UP : TG;
		rc = archive_pass(x, &p, err);
	}
	/* what no pass took: random-access sides, symlinks, unreadable sides */
	for (size_t i = 0; !rc && i < x->njobs; i++)
		if (!x->jobs[i].done)
			batch[n++] = i;
	if (!rc)
		rc = run_batch(x, batch, n, err);
	free(batch);
	return rc;
}

/* Modified files, and with the visitor added ones too. */
static int wanted_job(const lines_ctx_t *x, const td_change_t *c)
{
	return countable(c) || (x->visit && c->status == TD_STATUS_ADDED && c->target &&
				c->target->type == TD_ENTRY_FILE);
}

static int lines_run(td_result_t *r, const td_lines_opts_t *opts, td_lines_visit_fn visit, void *visit_ctx,
		     td_error_t *err)
{
	td_lines_opts_t defaults;
	lines_ctx_t x;
	int rc, git_ref = 0;

	if (!opts) {
		td_lines_opts_init(&defaults);
		opts = &defaults;
	}
	memset(&x, 0, sizeof(x));
	x.r = r;
	x.visit = visit;
	x.visit_ctx = visit_ctx;
	x.side[UP].tree = r->upstream;
	x.side[TG].tree = r->target;
	x.max_file_bytes = opts->max_file_bytes ? opts->max_file_bytes : TD_LINES_DEFAULT_MAX_FILE_BYTES;
	x.held_bytes = opts->held_bytes ? opts->held_bytes : TD_LINES_DEFAULT_HELD_BYTES;
	x.threads = thread_count(opts);
	x.source_opts = &opts->source;
	if (!visit)
		r->lines_missing = NULL;
	for (size_t i = 0; i < r->count; i++) {
		td_change_t *c = &r->changes[i];
		if (!visit) {
			c->lines = TD_LINES_NONE;
			c->lines_added = c->lines_removed = 0;
			c->lines_missing = NULL;
		}
		x.njobs += wanted_job(&x, c);
	}
	if (pthread_mutex_init(&x.lock, NULL))
		return td_error_set(err, TD_ENOMEM, "unable to create a lock");
	if (!(x.jobs = calloc(x.njobs ? x.njobs : 1, sizeof(job_t)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	x.njobs = 0;
	for (size_t i = 0; i < r->count; i++)
		if (wanted_job(&x, &r->changes[i]))
			x.jobs[x.njobs++].c = &r->changes[i];
	/* one reference for the whole run, so that each diff's is cheap */
	if (git_libgit2_init() < 0) {
		rc = td_error_set(err, TD_EGIT, "unable to initialize libgit2");
		goto out;
	}
	git_ref = 1;
	if ((rc = run(&x, opts, err)))
		goto out;
	if (visit)
		goto out;
	if ((rc = set_result_reason(&x, err)))
		goto out;
	r->lines_counted = 1;
	td_result_update_totals(r);
out:
	if (git_ref)
		git_libgit2_shutdown();
	for (size_t i = 0; x.jobs && i < x.njobs; i++) {
		drop_held(&x.jobs[i], UP);
		drop_held(&x.jobs[i], TG);
	}
	for (int s = UP; s <= TG; s++) {
		td_source_free(x.side[s].src);
		free(x.side[s].job_of);
	}
	free(x.jobs);
	pthread_mutex_destroy(&x.lock);
	if (rc && !visit) {
		for (size_t i = 0; i < r->count; i++) {
			r->changes[i].lines = TD_LINES_NONE;
			r->changes[i].lines_missing = NULL;
		}
		r->lines_missing = NULL;
		td_result_update_totals(r);
	}
	return rc;
}

int td_lines_count(td_result_t *r, const td_lines_opts_t *opts, td_error_t *err)
{
	return lines_run(r, opts, NULL, NULL, err);
}

int td_lines_visit(td_result_t *r, const td_lines_opts_t *opts, td_lines_visit_fn fn, void *ctx, td_error_t *err)
{
	return lines_run(r, opts, fn, ctx, err);
}

/* ---- pairs (pairs.h) ---- */

/* An upstream file in several pairs of similarity: what their bounds want
 * of it, made on the first and kept without its content until the last is
 * done. Only a pair that is diffed reads it again. */
typedef struct shared_old {
	atomic_size_t left;    /* its pairs not done yet */
	enum { OLD_NONE, OLD_MAKING, OLD_KEPT, OLD_NOT_KEPT } state; /* under the pairs' lock */
	td_simold_t old;       /* OLD_KEPT */
} shared_old_t;

typedef struct pairs_ctx {
	lines_ctx_t *x;
	td_pair_t *p;
	size_t *unit;          /* [nunit + 1]: unit u is p[unit[u] .. unit[u + 1]), one target file */
	size_t nunit;
	atomic_size_t next;
	shared_old_t *shared;  /* [nshared] */
	size_t nshared;
	uint32_t *shared_of;   /* per upstream file: 1 + its index in shared, or 0 */
	atomic_size_t kept;    /* bytes the shared files hold, up to td_pairs_keep_bytes */
	pthread_mutex_t lock;  /* the shared files' states */
	pthread_cond_t made;   /* one left OLD_MAKING */
} pairs_ctx_t;

/* Side s's content of file f for a pair. Sets *data or *missing; 0 or TD_ENOMEM. */
static int pair_side(lines_ctx_t *x, worker_buf_t *wb, int s, const td_file_t *f, const uint8_t **data,
		     size_t *len, const char **missing)
{
	side_t *sd = &x->side[s];

	*data = NULL;
	*len = 0;
	*missing = NULL;
	if (f->type == TD_ENTRY_SYMLINK) {
		*data = (const uint8_t *)(f->link_target ? f->link_target : "");
		*len = f->link_len;
		return TD_OK;
	}
	if (sd->missing) {
		*missing = sd->missing;
		atomic_store(&sd->used, 1);
		return TD_OK;
	}
	return read_direct(x, wb, s, f, data, len, missing);
}

/* The target of a unit, read once for its pairs, with what they share. */
typedef struct unit_target {
	const uint8_t *data;
	size_t len;
	td_simfile_t file;     /* its line bag and identifier segments */
	double best;           /* the best similarity reached in the unit so far, at its floor */
} unit_target_t;

/* The index of f in t's files, or SIZE_MAX when it is not one of them. */
static size_t file_index(const td_tree_t *t, const td_file_t *f)
{
	uintptr_t at = (uintptr_t)f, first = (uintptr_t)t->files;

	return at >= first && at < first + t->count * sizeof(*f) ? (size_t)(at - first) / sizeof(*f) : SIZE_MAX;
}

/* The shared entry of pair p's upstream file, or NULL: only pairs of
 * similarity share one (shared_plan counts no other). */
static shared_old_t *shared_entry(const pairs_ctx_t *pc, const td_pair_t *p)
{
	size_t i = pc->shared_of && p->mode == TD_PAIR_SIMILARITY ? file_index(pc->x->r->upstream, p->up) : SIZE_MAX;

	return i != SIZE_MAX && pc->shared_of[i] ? &pc->shared[pc->shared_of[i] - 1] : NULL;
}

/* 1 when the caller is to make sh (and then to call shared_made); 0 when
 * sh is made, kept or not. */
static int shared_take(pairs_ctx_t *pc, shared_old_t *sh)
{
	int make;

	pthread_mutex_lock(&pc->lock);
	while (sh->state == OLD_MAKING)
		pthread_cond_wait(&pc->made, &pc->lock);
	if ((make = sh->state == OLD_NONE))
		sh->state = OLD_MAKING;
	pthread_mutex_unlock(&pc->lock);
	return make;
}

static void shared_made(pairs_ctx_t *pc, shared_old_t *sh, int kept)
{
	pthread_mutex_lock(&pc->lock);
	sh->state = kept ? OLD_KEPT : OLD_NOT_KEPT;
	pthread_cond_broadcast(&pc->made);
	pthread_mutex_unlock(&pc->lock);
}

size_t td_pairs_keep_bytes = TD_PAIRS_KEEP_BYTES;

/* Whether o, kept, fits under td_pairs_keep_bytes with the others: then
 * it is counted there. */
static int shared_fits(pairs_ctx_t *pc, const td_simold_t *o)
{
	size_t bytes = o->bytes, now = atomic_load(&pc->kept);

	do {
		if (now > td_pairs_keep_bytes || bytes > td_pairs_keep_bytes - now)
			return 0;
	} while (!atomic_compare_exchange_weak(&pc->kept, &now, now + bytes));
	return 1;
}

/* One pair of sh's is done: the last lets it go. */
static void shared_done(pairs_ctx_t *pc, shared_old_t *sh)
{
	if (sh && atomic_fetch_sub(&sh->left, 1) == 1) {
		atomic_fetch_sub(&pc->kept, sh->old.bytes);
		td_simold_release(&sh->old);
	}
}

/* Pair p's similarity: bounded from its upstream file's lines (kept from
 * an earlier pair when it is shared), diffed when that cannot rule it out. */
static int similarity_pair(pairs_ctx_t *pc, worker_buf_t wb[2], td_pair_t *p, unit_target_t *t, td_error_t *err)
{
	shared_old_t *sh = shared_entry(pc, p);
	td_simold_t local, *old = &local;
	const uint8_t *up = NULL;
	size_t up_len = 0;
	const char *missing = NULL;
	int rc = TD_OK, make = sh && shared_take(pc, sh), reached = t->best >= p->floor;

	memset(&local, 0, sizeof(local));
	if (sh && !make && sh->state == OLD_KEPT) {
		old = &sh->old;
	} else {
		if ((rc = pair_side(pc->x, &wb[UP], UP, p->up, &up, &up_len, &missing)) || missing) {
			if (make)
				shared_made(pc, sh, 0);
			goto out;
		}
		td_simold_init(&local, up, up_len);
		if (make) {
			int kept = !local.binary && !(rc = td_simold_keep(&local)) && shared_fits(pc, &local);
			if (kept) {
				sh->old = local;
				memset(&local, 0, sizeof(local));
				old = &sh->old;
			}
			shared_made(pc, sh, kept);
			if (rc == TD_ENOMEM)
				goto out;
			rc = TD_OK;
		}
	}
	/* below the floor while no pair of the unit reached it, or no better
	 * than the best one that did (a tie goes to the earlier, nearer
	 * candidate): not diffed */
	if ((rc = td_similarity_bound(&p->sim, old, &t->file, reached ? t->best : p->floor, reached, err)) ||
	    p->sim.bounded)
		goto out;
	if (!up && ((rc = pair_side(pc->x, &wb[UP], UP, p->up, &up, &up_len, &missing)) || missing))
		goto out;
	if ((rc = td_similarity_measure(&p->sim, up, up_len, &t->file, err)))
		goto out;
	if (!p->sim.binary && p->sim.value >= p->floor && p->sim.value > t->best)
		t->best = p->sim.value;
out:
	p->missing = missing;
	td_simold_release(&local);
	shared_done(pc, sh);
	return rc == TD_ENOMEM && !err->code ? td_error_set(err, rc, "out of memory") : rc;
}

static int diff_pair(pairs_ctx_t *pc, worker_buf_t wb[2], td_pair_t *p, unit_target_t *t, td_error_t *err)
{
	const uint8_t *up;
	size_t up_len;
	const char *missing;
	int rc;

	if (p->mode == TD_PAIR_SIMILARITY)
		return similarity_pair(pc, wb, p, t, err);
	if ((rc = pair_side(pc->x, &wb[UP], UP, p->up, &up, &up_len, &missing)))
		return td_error_set(err, rc, "out of memory");
	if (missing) {
		p->missing = missing;
		return TD_OK;
	}
	return td_linediff(&p->d, up, up_len, t->data, t->len, err);
}

static void *pairs_worker(void *arg)
{
	pairs_ctx_t *pc = arg;
	lines_ctx_t *x = pc->x;
	worker_buf_t wb[2] = { { 0 }, { 0 } };
	td_error_t err = { 0 };

	while (!atomic_load(&x->failed)) {
		size_t u = atomic_fetch_add(&pc->next, 1), a, b;
		unit_target_t t;
		const char *missing;
		int rc = TD_OK;

		if (u >= pc->nunit)
			break;
		a = pc->unit[u];
		b = pc->unit[u + 1];
		memset(&t, 0, sizeof(t));
		t.best = -1;
		if ((rc = pair_side(x, &wb[TG], TG, pc->p[a].tg, &t.data, &t.len, &missing))) {
			td_error_set(&err, rc, "out of memory");
			fail(x, &err);
			break;
		}
		td_simfile_init(&t.file, t.data, t.len);
		for (size_t i = a; i < b && !rc; i++) {
			if (missing) {
				pc->p[i].missing = missing;
				shared_done(pc, shared_entry(pc, &pc->p[i]));
			} else if ((rc = diff_pair(pc, wb, &pc->p[i], &t, &err)))
				fail(x, &err);
		}
		td_simfile_release(&t.file);
		if (rc)
			break;
		trim_buffers(wb);
	}
	free(wb[UP].data);
	free(wb[TG].data);
	return NULL;
}

static int pairs_run(lines_ctx_t *x, pairs_ctx_t *pc, td_error_t *err)
{
	pthread_t tid[LINES_MAX_THREADS];
	unsigned started = 0, want = x->threads;

	if (want > pc->nunit)
		want = (unsigned)pc->nunit;
	for (unsigned i = 1; i < want; i++, started++)
		if (pthread_create(&tid[started], NULL, pairs_worker, pc))
			break;
	pairs_worker(pc);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (atomic_load(&x->failed)) {
		*err = x->err;
		return x->err.code ? x->err.code : TD_EGIT;
	}
	return TD_OK;
}

/* The upstream files in more than one pair of similarity, for
 * shared_entry. 0 or TD_ENOMEM. */
static int shared_plan(pairs_ctx_t *pc)
{
	const td_tree_t *t = pc->x->r->upstream;
	size_t n = pc->unit[pc->nunit], shared = 0;

	if (!t || !t->count || t->count >= UINT32_MAX)
		return TD_OK;
	if (!(pc->shared_of = calloc(t->count, sizeof(*pc->shared_of))))
		return TD_ENOMEM;
	/* count each file's pairs, then number those with two or more */
	for (size_t i = 0; i < n; i++) {
		const td_pair_t *p = &pc->p[i];
		size_t f = file_index(t, p->up);
		if (p->mode == TD_PAIR_SIMILARITY && p->up->type == TD_ENTRY_FILE && f != SIZE_MAX)
			pc->shared_of[f]++;
	}
	for (size_t f = 0; f < t->count; f++)
		shared += pc->shared_of[f] > 1;
	if (!shared || !(pc->shared = calloc(shared, sizeof(*pc->shared)))) {
		free(pc->shared_of);
		pc->shared_of = NULL;
		return shared ? TD_ENOMEM : TD_OK;
	}
	pc->nshared = shared;
	for (size_t f = 0, k = 0; f < t->count; f++) {
		uint32_t uses = pc->shared_of[f];
		pc->shared_of[f] = 0;
		if (uses > 1) {
			atomic_init(&pc->shared[k].left, uses);
			pc->shared_of[f] = (uint32_t)++k;
		}
	}
	return TD_OK;
}

/* Open side s for pairs: where it came from, unless it is an archive. */
static int pairs_side_open(lines_ctx_t *x, int s, const td_lines_opts_t *o, td_error_t *err)
{
	side_t *sd = &x->side[s];
	int rc;

	if ((rc = side_open(x, s, &o->source, err)) || !sd->archive)
		return rc;
	td_source_free(sd->src);
	sd->src = NULL;
	return keep_reason(x->r, &sd->missing, err, "%s is an archive, which is read again only for line counts",
			   side_names[s]);
}

int td_pairs_diff(td_result_t *r, td_pair_t *pairs, size_t n, const td_lines_opts_t *o,
		  const char **side_missing, td_error_t *err)
{
	td_lines_opts_t defaults;
	lines_ctx_t x;
	pairs_ctx_t pc;
	int need[2] = { 0, 0 }, rc = TD_OK, git_ref = 0;

	if (side_missing)
		*side_missing = NULL;
	if (!n)
		return TD_OK;
	if (!o) {
		td_lines_opts_init(&defaults);
		o = &defaults;
	}
	memset(&x, 0, sizeof(x));
	memset(&pc, 0, sizeof(pc));
	x.r = r;
	x.side[UP].tree = r->upstream;
	x.side[TG].tree = r->target;
	x.max_file_bytes = o->max_file_bytes ? o->max_file_bytes : TD_LINES_DEFAULT_MAX_FILE_BYTES;
	x.threads = thread_count(o);
	x.source_opts = &o->source;
	if (pthread_mutex_init(&x.lock, NULL))
		return td_error_set(err, TD_ENOMEM, "unable to create a lock");
	if (pthread_mutex_init(&pc.lock, NULL)) {
		pthread_mutex_destroy(&x.lock);
		return td_error_set(err, TD_ENOMEM, "unable to create a lock");
	}
	if (pthread_cond_init(&pc.made, NULL)) {
		pthread_mutex_destroy(&pc.lock);
		pthread_mutex_destroy(&x.lock);
		return td_error_set(err, TD_ENOMEM, "unable to create a condition variable");
	}
	pc.x = &x;
	pc.p = pairs;
	if (!(pc.unit = td_malloc_array(n + 1, sizeof(*pc.unit)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		memset(&pairs[i].d, 0, sizeof(pairs[i].d));
		memset(&pairs[i].sim, 0, sizeof(pairs[i].sim));
		pairs[i].missing = NULL;
		need[UP] |= pairs[i].up->type == TD_ENTRY_FILE;
		need[TG] |= pairs[i].tg->type == TD_ENTRY_FILE;
		if (!i || pairs[i].tg != pairs[i - 1].tg)
			pc.unit[pc.nunit++] = i;
	}
	pc.unit[pc.nunit] = n;
	for (int s = UP; s <= TG; s++)
		if (need[s] && (rc = pairs_side_open(&x, s, o, err)))
			goto out;
	if (git_libgit2_init() < 0) {
		rc = td_error_set(err, TD_EGIT, "unable to initialize libgit2");
		goto out;
	}
	git_ref = 1;
	if (shared_plan(&pc)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = pairs_run(&x, &pc, err)))
		goto out;
	if (side_missing) {
		const char *a = atomic_load(&x.side[UP].used) ? x.side[UP].missing : NULL;
		const char *b = atomic_load(&x.side[TG].used) ? x.side[TG].missing : NULL;
		if (a && b)
			rc = keep_reason(r, side_missing, err, "%s; %s", a, b);
		else
			*side_missing = a ? a : b;
	}
out:
	if (git_ref)
		git_libgit2_shutdown();
	for (int s = UP; s <= TG; s++)
		td_source_free(x.side[s].src);
	/* what a failure left kept */
	for (size_t i = 0; i < pc.nshared; i++)
		td_simold_release(&pc.shared[i].old);
	free(pc.shared);
	free(pc.shared_of);
	free(pc.unit);
	pthread_cond_destroy(&pc.made);
	pthread_mutex_destroy(&pc.lock);
	pthread_mutex_destroy(&x.lock);
	return rc;
}

/* ---- small files ---- */

/* Changed-line fraction -> distance: doc/calibration.md, produced by
 * bench/calibrate_lines.py, capped at the score of a wholly new file
 * (TD_DEFAULT_ADDED_DISTANCE). Fractions in increasing order; the last row
 * holds from there to 1. */
static const struct {
	double fraction;
	int distance;
} calibration[] = {
	{ 0.0000, 0 },
	{ 0.0025, 2 },
	{ 0.0071, 4 },
	{ 0.0142, 7 },
	{ 0.0280, 11 },
	{ 0.0533, 18 },
	{ 0.0835, 27 },
	{ 0.1210, 41 },
	{ 0.1718, 57 },
	{ 0.2392, 78 },
	{ 0.3430, 112 },
	{ 0.4592, 155 },
	{ 0.6202, 184 },
	{ 0.7600, 239 },
	{ 0.8960, 300 },
};

int td_lines_distance(double changed_fraction)
{
	size_t n = sizeof(calibration) / sizeof(calibration[0]);

	if (!(changed_fraction > 0))
		return calibration[0].distance;
	for (size_t i = 1; i < n; i++)
		if (changed_fraction <= calibration[i].fraction) {
			double a = calibration[i - 1].fraction, b = calibration[i].fraction;
			double t = b > a ? (changed_fraction - a) / (b - a) : 1;
			double d = calibration[i - 1].distance + t * (calibration[i].distance - calibration[i - 1].distance);
			return (int)(d + 0.5);
		}
	return calibration[n - 1].distance;
}

/* The distance of a small pair's line diff; 0 when the diff cannot give
 * one (binary, no lines), 1 with *out set. */
static int small_distance(const td_linediff_t *d, int *out)
{
	uint64_t lines = d->old_lines + d->new_lines;

	if (d->binary || !lines)
		return 0;
	*out = td_lines_distance((double)(d->added + d->removed) / (double)lines);
	return 1;
}

int td_lines_score_pair(int *distance, td_scored_by_t *by, const td_digest_t *old_d, const td_digest_t *new_d,
			int len_diff, int small_by_lines, td_lines_content_fn get, void *ctx, td_error_t *err)
{
	const void *data[2];
	size_t len[2];
	td_linediff_t d;
	int fallback = 0, rc;

	*distance = 0;
	if (!memcmp(old_d->sha256, new_d->sha256, TD_SHA256_BYTES)) {
		*by = TD_SCORED_EQUAL;
		return TD_OK;
	}
	if (old_d->has_sha256_ws && new_d->has_sha256_ws &&
	    !memcmp(old_d->sha256_ws, new_d->sha256_ws, TD_SHA256_BYTES)) {
		*by = TD_SCORED_COSMETIC;
		return TD_OK;
	}
	*distance = td_digest_distance(old_d, new_d, len_diff, &fallback);
	*by = fallback ? TD_SCORED_FALLBACK : TD_SCORED_TLSH;
	if (fallback || !small_by_lines || old_d->size_bytes >= TD_LINES_SMALL_FILE_BYTES ||
	    new_d->size_bytes >= TD_LINES_SMALL_FILE_BYTES)
		return TD_OK;
	for (int s = 0; s < 2; s++)
		if ((rc = get(ctx, s, &data[s], &len[s], err)))
			return rc;
	if ((rc = td_linediff(&d, data[0], len[0], data[1], len[1], err)))
		return rc;
	if (small_distance(&d, distance))
		*by = TD_SCORED_LINES;
	return TD_OK;
}

static int is_small(const td_change_t *c)
{
	return c->status == TD_STATUS_MODIFIED && !c->matches_version && c->upstream && c->target &&
	       c->upstream->type == TD_ENTRY_FILE && c->target->type == TD_ENTRY_FILE &&
	       c->origin_kind == TD_ORIGIN_SAME_PATH && !c->fallback && c->cosmetic != TD_COSMETIC_YES &&
	       c->upstream->size_bytes < TD_LINES_SMALL_FILE_BYTES &&
	       c->target->size_bytes < TD_LINES_SMALL_FILE_BYTES;
}

int td_lines_score_small(td_result_t *r, const td_lines_opts_t *opts, td_error_t *err)
{
	td_pair_t *p = NULL;
	size_t n = 0, *at = NULL;
	const char *why = NULL;
	int rc;

	r->small_unscored = NULL;
	for (size_t i = 0; i < r->count; i++)
		n += is_small(&r->changes[i]);
	if (!n)
		return TD_OK;
	if (!(p = td_malloc_array(n, sizeof(*p))) || !(at = td_malloc_array(n, sizeof(*at)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	n = 0;
	for (size_t i = 0; i < r->count; i++)
		if (is_small(&r->changes[i])) {
			memset(&p[n], 0, sizeof(p[n]));
			p[n].up = r->changes[i].upstream;
			p[n].tg = r->changes[i].target;
			p[n].mode = TD_PAIR_LINES;
			at[n++] = i;
		}
	if ((rc = td_pairs_diff(r, p, n, opts, &why, err)))
		goto out;
	for (size_t k = 0; k < n; k++) {
		td_change_t *c = &r->changes[at[k]];
		if (p[k].missing || !small_distance(&p[k].d, &c->distance))
			continue;
		c->fallback = 0;
		c->scored_by_lines = 1;
		c->cls = td_classify(c->distance, &r->thresholds);
		c->risk = c->distance * c->weight;
	}
	r->small_unscored = why;
	td_result_update_totals(r);
out:
	free(p);
	free(at);
	return rc;
}
