/* The scan pipeline. A random-access source (a directory, git) is walked
 * on the calling thread while a pool of workers reads and digests what is
 * already listed: entries go into a listing whose slots never move, each
 * worker takes the next slot from a shared counter and writes the digest
 * into that slot, and a writer may store every slot as soon as it is
 * final. The tree handed back is sorted, so the result does not depend on
 * the thread count. Sequential sources (archives) are read by one thread
 * that hands each file's bytes to the workers through a bounded queue. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "treedrift/scan.h"
#include "scan_impl.h"
#include "source_impl.h"

/* Memory the archive reader may hold in queued file contents. */
#define QUEUE_LIMIT_BYTES (64u << 20)
/* A file larger than this is digested by the archive reader itself. */
#define INLINE_LIMIT_BYTES (16u << 20)
#define PROGRESS_INTERVAL_NS 200000000L
/* Files up to this size that need TLSH are read whole into one of a
 * worker's two lanes; larger ones are streamed. */
#define LANE_LIMIT_BYTES (4u << 20)
/* Two lanes run in lockstep for at least this many bytes at a time. */
#define LOCKSTEP_MIN_BYTES 1024

static unsigned worker_count(const td_scan_opts_t *opts)
{
	long n;

	if (opts && opts->jobs)
		return opts->jobs > 256 ? 256 : opts->jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

static int canceled(const td_scan_opts_t *opts)
{
	return opts && opts->cancel && *opts->cancel;
}

static char *now_iso8601(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return td_strndup(buf, strlen(buf));
}

/* Turn an entry into a skipped one, keeping its path. */
static int mark_skipped(td_file_t *f, const char *reason, const char *detail)
{
	free(f->skip_detail);
	f->skip_detail = NULL;
	if (detail && !(f->skip_detail = td_strndup(detail, strlen(detail))))
		return TD_ENOMEM;
	td_digest_release(&f->digest);
	f->has_digest = 0;
	f->type = TD_ENTRY_SKIPPED;
	f->skip_reason = reason;
	return TD_OK;
}

static void set_digest(td_file_t *f, td_digest_t *d)
{
	td_digest_release(&f->digest);
	f->digest = *d;
	f->has_digest = 1;
	f->size_bytes = d->size_bytes;
	memset(d, 0, sizeof(*d));
}

/* ---- progress ---- */

typedef struct progress {
	_Atomic uint64_t files_done;
	_Atomic uint64_t bytes_done;
	uint64_t files_total;
	uint64_t bytes_total;
} progress_t;

static void report_progress(const td_scan_opts_t *opts, progress_t *p)
{
	if (opts && opts->progress)
		opts->progress(opts->progress_ctx, atomic_load(&p->files_done), p->files_total,
			       atomic_load(&p->bytes_done), p->bytes_total);
}

/* ---- the listing: entries at addresses that stay put ---- */

/* Segment k holds LISTING_SEG0 << k slots: a handful of segments hold any
 * real tree, and no slot moves while the listing grows. */
#define LISTING_SEG0 4096
#define LISTING_SEGS 40
/* A sleeping worker is woken at least this often while the listing grows,
 * and at once for a file that needs reading. */
#define LISTING_WAKE_EVERY 256

typedef struct slot {
	td_file_t *f;         /* in files[], or in the caller's tree when borrowed */
	unsigned char want;   /* what the workers compute: a td_need_t and TD_WANT_* flags */
	atomic_uchar final;   /* *f is done with: digested, skipped, or nothing to do */
} slot_t;

struct td_listing {
	td_tree_t *tree;      /* the meta; the entries once taken */
	slot_t *seg[LISTING_SEGS];
	td_file_t *files[LISTING_SEGS]; /* the entries, beside their slots */
	int borrowed;         /* the entries are a tree's, not the listing's */
	unsigned nseg;
	size_t cap;           /* slots allocated */
	_Atomic size_t count; /* slots published */
	atomic_int complete;  /* no slot will be added */
};

/* The segment of slot i and its place in it. */
static unsigned locate(size_t i, size_t *off)
{
	size_t b = i / LISTING_SEG0 + 1;
	unsigned k = 0;

	while (b >> (k + 1))
		k++;
	*off = i - LISTING_SEG0 * (((size_t)1 << k) - 1);
	return k;
}

static slot_t *slot_at(const td_listing_t *l, size_t i)
{
	size_t off;
	unsigned k = locate(i, &off);

	return &l->seg[k][off];
}

/* Free the segments (and the entries' storage, not the entries). */
static void listing_free_segments(td_listing_t *l)
{
	for (unsigned k = 0; k < l->nseg; k++) {
		free(l->seg[k]);
		free(l->files[k]);
		l->seg[k] = NULL;
		l->files[k] = NULL;
	}
	l->nseg = 0;
	l->cap = 0;
}

static int fill_meta(td_tree_t *tree, td_source_t *src);
static int sort_and_merge_duplicates(td_tree_t *tree);

int td_listing_new(td_listing_t **out, td_source_t *src)
{
	td_listing_t *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l)
		return TD_ENOMEM;
	if (td_tree_new(&l->tree) || fill_meta(l->tree, src)) {
		td_listing_free(l);
		return TD_ENOMEM;
	}
	*out = l;
	return TD_OK;
}

void td_listing_free(td_listing_t *l)
{
	size_t n;

	if (!l)
		return;
	n = atomic_load(&l->count);
	for (size_t i = 0; i < n && !l->borrowed; i++)
		td_file_release(slot_at(l, i)->f);
	listing_free_segments(l);
	td_tree_free(l->tree);
	free(l);
}

td_tree_t *td_listing_tree(td_listing_t *l)
{
	return l->tree;
}

size_t td_listing_count(const td_listing_t *l)
{
	return atomic_load_explicit(&l->count, memory_order_acquire);
}

int td_listing_complete(const td_listing_t *l)
{
	return atomic_load(&l->complete);
}

int td_listing_final(const td_listing_t *l, size_t i)
{
	return i < atomic_load(&l->count) && atomic_load(&slot_at(l, i)->final);
}

const td_file_t *td_listing_at(const td_listing_t *l, size_t i)
{
	return slot_at(l, i)->f;
}

/* Publish f as the next slot, wanting want: moved in, or (borrowed) by
 * reference. Only one thread adds; any may read the slots below count. */
static int listing_add(td_listing_t *l, td_file_t *f, unsigned want, size_t *index)
{
	size_t n = atomic_load_explicit(&l->count, memory_order_relaxed), off;
	unsigned k;
	slot_t *s;

	if (n == l->cap) {
		size_t len = (size_t)LISTING_SEG0 << l->nseg;
		if (l->nseg == LISTING_SEGS || !(l->seg[l->nseg] = td_malloc_array(len, sizeof(slot_t))) ||
		    (!l->borrowed && !(l->files[l->nseg] = td_malloc_array(len, sizeof(td_file_t))))) {
			if (l->nseg < LISTING_SEGS) {
				free(l->seg[l->nseg]);
				l->seg[l->nseg] = NULL;
			}
			return TD_ENOMEM;
		}
		l->nseg++;
		l->cap += len;
	}
	k = locate(n, &off);
	s = &l->seg[k][off];
	if (l->borrowed) {
		s->f = f;
	} else {
		s->f = &l->files[k][off];
		*s->f = *f;
		memset(f, 0, sizeof(*f));
	}
	s->want = (unsigned char)want;
	atomic_init(&s->final, 0);
	*index = n;
	atomic_store(&l->count, n + 1);
	return TD_OK;
}

/* Move the n entries (the listing's own) into out[0..n), freeing each
 * segment once it is copied, so that the two copies are never both
 * resident in full. */
static void listing_drain(td_listing_t *l, td_file_t *out, size_t n)
{
	size_t i = 0;

	for (unsigned k = 0; k < l->nseg; k++) {
		size_t len = (size_t)LISTING_SEG0 << k;
		for (size_t j = 0; j < len && i < n; j++)
			out[i++] = l->files[k][j];
		free(l->seg[k]);
		free(l->files[k]);
		l->seg[k] = NULL;
		l->files[k] = NULL;
	}
	l->nseg = 0;
}

/* Move the entries into the listing's tree, sorted, and hand it over. */
static int listing_take(td_listing_t *l, td_tree_t **out)
{
	td_tree_t *tree = l->tree;
	size_t n = atomic_load(&l->count);
	void *files = tree->files;
	int rc;

	*out = NULL;
	if (td_grow(&files, &tree->cap, tree->count + n, sizeof(td_file_t)))
		return TD_ENOMEM;
	tree->files = files;
	listing_drain(l, tree->files + tree->count, n);
	tree->count += n;
	l->cap = 0;
	atomic_store(&l->count, 0);
	if ((rc = sort_and_merge_duplicates(tree)))
		return rc;
	l->tree = NULL;
	*out = tree;
	return TD_OK;
}

/* ---- the worker pool over a listing ---- */

typedef struct pool {
	td_listing_t *l;
	td_source_t *src;
	_Atomic size_t next;
	_Atomic int failed;
	_Atomic unsigned sleepers;  /* workers waiting for the listing to grow */
	_Atomic uint64_t files_read;
	_Atomic uint64_t bytes_read;
	const td_scan_opts_t *opts;
	progress_t progress;
	pthread_mutex_t lock;
	pthread_cond_t listed;      /* the listing grew or ended */
	pthread_cond_t done_cond;
	unsigned running;
	td_error_t err;
	const td_listing_watch_t *watch;
} pool_t;

static void pool_wake(pool_t *p)
{
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->listed);
	pthread_mutex_unlock(&p->lock);
}

static void pool_fail(pool_t *p, const td_error_t *e, int rc)
{
	pthread_mutex_lock(&p->lock);
	if (!p->err.code) {
		p->err = *e;
		p->err.code = rc;
	}
	pthread_mutex_unlock(&p->lock);
	atomic_store(&p->failed, 1);
	pool_wake(p);
}

/* Wait until slot k is listed: 1, or 0 when the listing ended without it.
 * A worker counts itself a sleeper before it looks at count, and the
 * lister looks at sleepers after it raised count (both sequentially
 * consistent), so a wake-up is never lost. */
static int pool_wait_listed(pool_t *p, size_t k)
{
	if (k < td_listing_count(p->l))
		return 1;
	pthread_mutex_lock(&p->lock);
	atomic_fetch_add(&p->sleepers, 1);
	while (k >= atomic_load(&p->l->count) && !atomic_load(&p->l->complete) &&
	       !atomic_load(&p->failed))
		pthread_cond_wait(&p->listed, &p->lock);
	atomic_fetch_sub(&p->sleepers, 1);
	pthread_mutex_unlock(&p->lock);
	return k < td_listing_count(p->l);
}

/* Slot index is final: tell the watcher. The store is sequentially
 * consistent, as td_listing_final's load is: see scan_impl.h. */
static void listing_finish(td_listing_t *l, size_t index, const td_listing_watch_t *watch)
{
	atomic_store(&slot_at(l, index)->final, 1);
	if (watch && watch->final)
		watch->final(watch->ctx, index);
}

/* Nothing more will be listed: say so, once. */
static void listing_end(td_listing_t *l, const td_listing_watch_t *watch)
{
	if (!atomic_exchange(&l->complete, 1) && watch && watch->complete)
		watch->complete(watch->ctx);
}

static void slot_finish(pool_t *p, size_t index)
{
	listing_finish(p->l, index, p->watch);
}

static void file_done(pool_t *p, const td_file_t *f, size_t index)
{
	atomic_fetch_add(&p->progress.files_done, 1);
	atomic_fetch_add(&p->progress.bytes_done, f->size_bytes);
	slot_finish(p, index);
}

static int sink_digest(void *ctx, const void *data, size_t len)
{
	return td_digester_update(ctx, data, len);
}

/* Start dg on a file for want. */
static void digester_start(td_digester_t *dg, unsigned want)
{
	if (want & TD_WANT_UNPAIRED)
		td_digester_start_unpaired(dg);
	else if (want & TD_WANT_WS_LENGTH)
		td_digester_start_ws_length(dg);
	else
		td_digester_start(dg, TD_WANT_NEED(want) == TD_NEED_FULL);
}

static int digest_one(pool_t *p, td_digester_t *dg, td_file_t *f, unsigned want)
{
	const char *reason = NULL;
	td_error_t e = { 0 };
	td_digest_t d;
	int rc;

	/* streamed: the normalised digest now or never */
	digester_start(dg, want & ~TD_WANT_WS_LENGTH);
	rc = td_source_read(p->src, f, sink_digest, dg, &reason, &e);
	atomic_fetch_add(&p->files_read, 1);
	if (rc && reason)
		return mark_skipped(f, reason, e.msg[0] ? e.msg : NULL);
	if (rc) {
		pool_fail(p, &e, rc);
		return rc;
	}
	rc = td_digester_finish(&d, dg);
	if (rc) {
		td_error_set(&e, rc, "unable to digest '%s'", f->path);
		pool_fail(p, &e, rc);
		return rc;
	}
	atomic_fetch_add(&p->bytes_read, d.size_bytes);
	set_digest(f, &d);
	return TD_OK;
}

/* A file held in memory to be digested in lockstep with another. */
typedef struct lane {
	td_digester_t *dg;
	td_file_t *f;
	size_t index;
	unsigned want;
	uint8_t *data;
	size_t len, off, cap;
} lane_t;

/* Read f into the lane. 1: it is there; 0: it was skipped meanwhile. */
static int lane_fill(pool_t *p, lane_t *l, td_file_t *f, size_t index, unsigned want)
{
	const char *reason = NULL;
	td_error_t e = { 0 };
	int rc;

	l->f = f;
	l->index = index;
	l->want = want;
	l->len = l->off = 0;
	/* Read into the lane itself: one copy, into memory that stays warm. */
	if (td_grow((void **)&l->data, &l->cap, (size_t)f->size_bytes + 1, 1)) {
		l->f = NULL;
		td_error_set(&e, TD_ENOMEM, "out of memory");
		pool_fail(p, &e, TD_ENOMEM);
		return TD_ENOMEM;
	}
	rc = td_source_read_all(p->src, f, l->data, l->cap, &l->len, &reason, &e);
	atomic_fetch_add(&p->files_read, 1);
	if (rc && reason) {
		l->f = NULL;
		if ((rc = mark_skipped(f, reason, e.msg[0] ? e.msg : NULL))) {
			td_error_set(&e, rc, "out of memory");
			pool_fail(p, &e, rc);
			return rc;
		}
		file_done(p, f, index);
		return 0;
	}
	if (rc) {
		l->f = NULL;
		pool_fail(p, &e, rc);
		return rc;
	}
	digester_start(l->dg, want);
	return 1;
}

static int lane_finish(pool_t *p, lane_t *l)
{
	td_error_t e = { 0 };
	td_digest_t d;
	int rc = td_digester_finish(&d, l->dg);

	/* the normalised digest, from the content still held, when its length
	 * leaves the change possibly cosmetic */
	if (!rc && (l->want & TD_WANT_WS_LENGTH) && !d.has_sha256_ws &&
	    p->watch->ws_wanted(p->watch->ctx, l->f, d.ws_bytes)) {
		if (!(rc = td_sha256_ws(d.sha256_ws, l->data, l->len)))
			d.has_sha256_ws = 1;
		else
			td_digest_release(&d);
	}
	if (rc) {
		td_error_set(&e, rc, "unable to digest '%s'", l->f->path);
		pool_fail(p, &e, rc);
		return rc;
	}
	atomic_fetch_add(&p->bytes_read, d.size_bytes);
	set_digest(l->f, &d);
	file_done(p, l->f, l->index);
	l->f = NULL;
	return TD_OK;
}

/* The next file for this worker: small ones that need TLSH go to a free
 * lane, the others are digested on the spot. Returns 1 when a lane was
 * filled, 0 when the listing is done, or an error. */
static int pool_next(pool_t *p, td_digester_t *dg, lane_t *l)
{
	while (!atomic_load(&p->failed) && !canceled(p->opts)) {
		size_t k = atomic_fetch_add(&p->next, 1);
		unsigned want;
		slot_t *s;
		int rc;

		if (!pool_wait_listed(p, k))
			return 0;
		s = slot_at(p->l, k);
		want = s->want;
		if (TD_WANT_NEED(want) == TD_NEED_NONE)
			continue;
		if (TD_WANT_NEED(want) == TD_NEED_FULL && s->f->size_bytes <= LANE_LIMIT_BYTES) {
			if ((rc = lane_fill(p, l, s->f, k, want)))
				return rc;
			continue;
		}
		if ((rc = digest_one(p, dg, s->f, want)))
			return rc;
		file_done(p, s->f, k);
	}
	return 0;
}

/* The lane's unread bytes; NULL for a lane that never held any. */
static const uint8_t *lane_rest(const lane_t *l)
{
	return l->data ? l->data + l->off : NULL;
}

/* Two lanes: while both hold a file, TLSH runs on them in lockstep; the
 * one that ends first is refilled. Each file's digest is its own, so the
 * result does not depend on which files shared a lane. */
static int pool_run(pool_t *p, td_digester_t *dg, lane_t lanes[2])
{
	int rc;

	for (;;) {
		for (int i = 0; i < 2; i++)
			if (!lanes[i].f && (rc = pool_next(p, dg, &lanes[i])) < 0)
				return rc;
		if (lanes[0].f && lanes[1].f) {
			lane_t *a = &lanes[0], *b = &lanes[1];
			size_t ra = a->len - a->off, rb = b->len - b->off;
			size_t n = ra < rb ? ra : rb;

			if (n < LOCKSTEP_MIN_BYTES) {
				/* Too short to pay for the lockstep: finish it alone,
				 * so that the other is not cut into small pieces. */
				lane_t *s = ra < rb ? a : b;
				if (n && (rc = td_digester_update(s->dg, lane_rest(s), n)))
					return rc;
				s->off = s->len;
			} else {
				if ((rc = td_digester_update2(a->dg, lane_rest(a), n, b->dg,
							      lane_rest(b), n)))
					return rc;
				a->off += n;
				b->off += n;
			}
		} else {
			lane_t *a = lanes[0].f ? &lanes[0] : lanes[1].f ? &lanes[1] : NULL;

			if (!a)
				return TD_OK;
			if (a->len > a->off &&
			    (rc = td_digester_update(a->dg, lane_rest(a), a->len - a->off)))
				return rc;
			a->off = a->len;
		}
		for (int i = 0; i < 2; i++)
			if (lanes[i].f && lanes[i].off == lanes[i].len && (rc = lane_finish(p, &lanes[i])))
				return rc;
	}
}

static void *pool_worker(void *arg)
{
	pool_t *p = arg;
	td_digester_t *dg = NULL;
	lane_t lanes[2];
	int rc;

	memset(lanes, 0, sizeof(lanes));
	if (td_digester_new(&dg) || td_digester_new(&lanes[0].dg) || td_digester_new(&lanes[1].dg)) {
		td_error_t e;
		td_error_set(&e, TD_ENOMEM, "out of memory");
		pool_fail(p, &e, TD_ENOMEM);
		goto out;
	}
	rc = pool_run(p, dg, lanes);
	if (rc && !atomic_load(&p->failed)) {
		td_error_t e;
		td_error_set(&e, rc, "unable to digest '%s'",
			     lanes[0].f ? lanes[0].f->path : lanes[1].f ? lanes[1].f->path : "?");
		pool_fail(p, &e, rc);
	}
out:
	for (int i = 0; i < 2; i++) {
		td_digester_free(lanes[i].dg);
		free(lanes[i].data);
	}
	td_digester_free(dg);
	pthread_mutex_lock(&p->lock);
	p->running--;
	pthread_cond_signal(&p->done_cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int already_done(const td_file_t *f, td_need_t want)
{
	if (want == TD_NEED_NONE || f->type != TD_ENTRY_FILE)
		return 1;
	return f->has_digest && (!f->digest.sha_only || want == TD_NEED_SHA);
}

/* Wait for the workers, reporting progress meanwhile. */
static void pool_wait(pool_t *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->running) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += PROGRESS_INTERVAL_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->done_cond, &p->lock, &ts);
		if (p->running) {
			pthread_mutex_unlock(&p->lock);
			report_progress(p->opts, &p->progress);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
}

static void pool_init(pool_t *p, td_listing_t *l, td_source_t *src, const td_scan_opts_t *opts,
		      const td_listing_watch_t *watch)
{
	memset(p, 0, sizeof(*p));
	p->l = l;
	p->src = src;
	p->opts = opts;
	p->watch = watch;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->listed, NULL);
	pthread_cond_init(&p->done_cond, NULL);
}

static void pool_destroy(pool_t *p)
{
	pthread_cond_destroy(&p->done_cond);
	pthread_cond_destroy(&p->listed);
	pthread_mutex_destroy(&p->lock);
}

/* Start up to n workers into threads[]; *started says how many did. */
static int pool_start(pool_t *p, pthread_t *threads, unsigned n, unsigned *started, td_error_t *err)
{
	unsigned i = 0;

	p->running = n;
	for (; i < n; i++)
		if (pthread_create(&threads[i], NULL, pool_worker, p))
			break;
	pthread_mutex_lock(&p->lock);
	p->running -= n - i;
	pthread_mutex_unlock(&p->lock);
	*started = i;
	return i ? TD_OK : td_error_set(err, TD_ENOMEM, "unable to start worker threads");
}

/* Wait for the workers to drain the listing (which must be complete or be
 * completed meanwhile) and gather what they did. */
static int pool_join(pool_t *p, pthread_t *threads, unsigned started, td_scan_stats_t *stats,
		     td_error_t *err)
{
	int rc = TD_OK;

	pool_wait(p);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	report_progress(p->opts, &p->progress);
	if (p->err.code) {
		if (err)
			*err = p->err;
		rc = p->err.code;
	} else if (canceled(p->opts)) {
		rc = td_error_set(err, TD_ECANCELED, "scan canceled");
	}
	if (stats) {
		stats->files_read += atomic_load(&p->files_read);
		stats->bytes_read += atomic_load(&p->bytes_read);
	}
	return rc;
}

/* The listing holds what is to be read; digest it on the pool. */
static int pool_run_listed(pool_t *p, unsigned nthreads, td_scan_stats_t *stats, td_error_t *err)
{
	pthread_t *threads = td_malloc_array(nthreads, sizeof(pthread_t));
	unsigned started = 0;
	int rc;

	if (!threads)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (!(rc = pool_start(p, threads, nthreads, &started, err)))
		rc = pool_join(p, threads, started, stats, err);
	free(threads);
	return rc;
}

int td_scan_digest(td_tree_t *tree, td_source_t *src, const uint8_t *need,
		   const td_scan_opts_t *opts, td_scan_stats_t *stats, td_error_t *err)
{
	td_listing_t l;
	pool_t p;
	size_t ntodo = 0;
	unsigned nthreads;
	int rc = TD_OK;

	if (!td_source_random_access(src)) {
		/* Archives were digested in full as they were listed. */
		for (size_t i = 0; i < tree->count; i++)
			if (!already_done(&tree->files[i], need ? need[i] : TD_NEED_FULL) &&
			    !tree->files[i].link_target)
				return td_error_set(err, TD_EINVAL,
						    "'%s' cannot be read again: archives are read once",
						    td_source_root(src));
		return TD_OK;
	}
	/* The pool works on a listing that refers to the tree's entries. */
	memset(&l, 0, sizeof(l));
	l.borrowed = 1;
	pool_init(&p, &l, src, opts, NULL);
	for (size_t i = 0; i < tree->count && !rc; i++) {
		td_need_t want = need ? (td_need_t)need[i] : TD_NEED_FULL;
		size_t index;

		if (already_done(&tree->files[i], want))
			want = TD_NEED_NONE;
		else
			ntodo++, p.progress.bytes_total += tree->files[i].size_bytes;
		if (listing_add(&l, &tree->files[i], want, &index))
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
	}
	p.progress.files_total = ntodo;
	atomic_store(&l.complete, 1);
	nthreads = worker_count(opts);
	if (!rc && ntodo)
		rc = pool_run_listed(&p, nthreads < ntodo ? nthreads : (unsigned)ntodo, stats, err);
	listing_free_segments(&l);
	pool_destroy(&p);
	return rc;
}
/* ---- sequential sources: one reader, workers behind a bounded queue ---- */

typedef struct seq_job {
	size_t index;          /* into the tree being built */
	uint8_t *data;         /* NULL: already digested by the reader */
	size_t len;
	td_digest_t digest;
	int rc;
	struct seq_job *next;
} seq_job_t;

typedef struct seq_queue {
	pthread_mutex_t lock;
	pthread_cond_t can_push;
	pthread_cond_t can_pop;
	seq_job_t *head, *tail;
	size_t queued_bytes;
	int closed;
	seq_job_t **done;      /* finished jobs, applied once all have run */
	size_t ndone, done_cap;
	int oom;
} seq_queue_t;

/* Called with q->lock held. */
static int seq_record_done(seq_queue_t *q, seq_job_t *job)
{
	void *done = q->done;

	if (td_grow(&done, &q->done_cap, q->ndone + 1, sizeof(seq_job_t *)))
		return TD_ENOMEM;
	q->done = done;
	q->done[q->ndone++] = job;
	return TD_OK;
}

static void *seq_worker(void *arg)
{
	seq_queue_t *q = arg;
	td_digester_t *dg = NULL;

	if (td_digester_new(&dg)) {
		pthread_mutex_lock(&q->lock);
		q->oom = 1;
		pthread_mutex_unlock(&q->lock);
	}
	for (;;) {
		seq_job_t *job;
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->closed)
			pthread_cond_wait(&q->can_pop, &q->lock);
		job = q->head;
		if (!job) {
			pthread_mutex_unlock(&q->lock);
			break;
		}
		q->head = job->next;
		if (!q->head)
			q->tail = NULL;
		pthread_mutex_unlock(&q->lock);

		if (!dg) {
			job->rc = TD_ENOMEM;
		} else {
			td_digester_start(dg, 1);
			job->rc = td_digester_update(dg, job->data, job->len);
			if (!job->rc)
				job->rc = td_digester_finish(&job->digest, dg);
		}
		free(job->data);
		job->data = NULL;

		pthread_mutex_lock(&q->lock);
		q->queued_bytes -= job->len;
		pthread_cond_signal(&q->can_push);
		if (seq_record_done(q, job)) {
			q->oom = 1;
			td_digest_release(&job->digest);
			free(job);
		}
		pthread_mutex_unlock(&q->lock);
	}
	td_digester_free(dg);
	return NULL;
}

static void seq_push(seq_queue_t *q, seq_job_t *job)
{
	pthread_mutex_lock(&q->lock);
	while (q->queued_bytes && q->queued_bytes + job->len > QUEUE_LIMIT_BYTES)
		pthread_cond_wait(&q->can_push, &q->lock);
	q->queued_bytes += job->len;
	if (q->tail)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
	pthread_cond_signal(&q->can_pop);
	pthread_mutex_unlock(&q->lock);
}

/* Collects an archive member's bytes; past INLINE_LIMIT_BYTES it digests
 * them itself instead of holding them. */
typedef struct seq_buf {
	uint8_t *data;
	size_t len, cap;
	td_digester_t *inline_dg;
	int inlined;
} seq_buf_t;

static int sink_buffer(void *ctx, const void *data, size_t len)
{
	seq_buf_t *b = ctx;
	void *p = b->data;

	if (b->inlined)
		return td_digester_update(b->inline_dg, data, len);
	if (b->len + len > INLINE_LIMIT_BYTES) {
		b->inlined = 1;
		td_digester_start(b->inline_dg, 1);
		if (td_digester_update(b->inline_dg, b->data, b->len))
			return TD_EIO;
		free(b->data);
		b->data = NULL;
		b->len = b->cap = 0;
		return td_digester_update(b->inline_dg, data, len);
	}
	if (td_grow(&p, &b->cap, b->len + len, 1))
		return TD_ENOMEM;
	b->data = p;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return TD_OK;
}

static int list_sequential(td_tree_t *tree, td_source_t *src, const td_scan_opts_t *opts,
			   td_scan_stats_t *stats, td_error_t *err)
{
	seq_queue_t q;
	pthread_t *threads;
	unsigned nthreads = worker_count(opts), started = 0;
	td_digester_t *inline_dg = NULL;
	int rc = TD_OK;
	uint64_t files = 0, bytes = 0;

	memset(&q, 0, sizeof(q));
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.can_push, NULL);
	pthread_cond_init(&q.can_pop, NULL);
	threads = td_malloc_array(nthreads, sizeof(pthread_t));
	if (!threads || td_digester_new(&inline_dg)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (; started < nthreads; started++)
		if (pthread_create(&threads[started], NULL, seq_worker, &q))
			break;
	if (!started) {
		rc = td_error_set(err, TD_ENOMEM, "unable to start worker threads");
		goto out;
	}
	for (;;) {
		td_file_t f;
		seq_buf_t b = { .inline_dg = inline_dg };
		const char *reason = NULL;
		td_error_t e = { 0 };
		seq_job_t *job;

		if (canceled(opts)) {
			rc = td_error_set(err, TD_ECANCELED, "scan canceled");
			break;
		}
		rc = td_source_next(&f, src, err);
		if (rc <= 0)
			break;
		rc = TD_OK;
		if (f.type != TD_ENTRY_FILE || f.link_target) {
			if ((rc = td_tree_append(tree, &f)))
				td_file_release(&f);
			if (rc)
				break;
			continue;
		}
		rc = td_source_read(src, &f, sink_buffer, &b, &reason, &e);
		files++;
		if (rc && reason) {
			free(b.data);
			rc = mark_skipped(&f, reason, e.msg[0] ? e.msg : NULL);
		} else if (rc) {
			free(b.data);
			if (err)
				*err = e;
			td_file_release(&f);
			break;
		} else if (b.inlined) {
			td_digest_t d;
			rc = td_digester_finish(&d, inline_dg);
			if (!rc) {
				bytes += d.size_bytes;
				set_digest(&f, &d);
			}
		} else {
			job = calloc(1, sizeof(*job));
			if (!job) {
				free(b.data);
				rc = TD_ENOMEM;
			} else {
				job->index = tree->count;
				job->data = b.data;
				job->len = b.len;
				bytes += b.len;
				seq_push(&q, job);
			}
		}
		if (!rc)
			rc = td_tree_append(tree, &f);
		if (rc) {
			td_file_release(&f);
			td_error_set(err, rc, "out of memory");
			break;
		}
		if (opts && opts->progress && !(files & 1023))
			opts->progress(opts->progress_ctx, files, 0, bytes, 0);
	}
out:
	pthread_mutex_lock(&q.lock);
	q.closed = 1;
	pthread_cond_broadcast(&q.can_pop);
	pthread_mutex_unlock(&q.lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (q.oom && !rc)
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < q.ndone; i++) {
		seq_job_t *job = q.done[i];
		if (!rc && job->rc)
			rc = td_error_set(err, job->rc, "unable to digest '%s'",
					  tree->files[job->index].path);
		if (!job->rc && job->index < tree->count)
			set_digest(&tree->files[job->index], &job->digest);
		td_digest_release(&job->digest);
		free(job);
	}
	if (stats) {
		stats->files_read += files;
		stats->bytes_read += bytes;
	}
	free(q.done);
	free(threads);
	td_digester_free(inline_dg);
	pthread_cond_destroy(&q.can_pop);
	pthread_cond_destroy(&q.can_push);
	pthread_mutex_destroy(&q.lock);
	return rc;
}

/* ---- listing ---- */

static int list_random(td_tree_t *tree, td_source_t *src, const td_scan_opts_t *opts, td_error_t *err)
{
	for (;;) {
		td_file_t f;
		int rc;

		if (canceled(opts))
			return td_error_set(err, TD_ECANCELED, "scan canceled");
		rc = td_source_next(&f, src, err);
		if (rc <= 0)
			return rc;
		if ((rc = td_tree_append(tree, &f))) {
			td_file_release(&f);
			return td_error_set(err, rc, "out of memory");
		}
	}
}

/* An archive whose every path starts with the same folder ("linux-6.1/")
 * is read as if that folder were the root. */
static int strip_single_top(td_tree_t *tree)
{
	char *first;
	size_t n;

	if (!tree->count)
		return TD_OK;
	n = strcspn(tree->files[0].path, "/");
	if (tree->files[0].path[n] != '/')
		return TD_OK;
	for (size_t i = 0; i < tree->count; i++) {
		const td_file_t *f = &tree->files[i];
		if (f->path_len <= n + 1 || memcmp(f->path, tree->files[0].path, n + 1))
			return TD_OK;
	}
	/* a copy: files[0].path loses the folder in the loop below, and the
	 * hard link targets after it are compared with the folder */
	if (!(first = td_strndup(tree->files[0].path, n + 1)))
		return TD_ENOMEM;
	for (size_t i = 0; i < tree->count; i++) {
		td_file_t *f = &tree->files[i];
		memmove(f->path, f->path + n + 1, f->path_len - n);
		f->path_len -= n + 1;
		if (f->type == TD_ENTRY_FILE && f->link_target && f->link_len > n + 1 &&
		    !memcmp(f->link_target, first, n + 1)) {
			memmove(f->link_target, f->link_target + n + 1, f->link_len - n);
			f->link_len -= n + 1;
		}
	}
	free(first);
	return TD_OK;
}

static int path_cmp(const td_file_t *a, const td_file_t *b)
{
	return td_path_cmp(a->path, a->path_len, b->path, b->path_len);
}

static int file_order(const void *pa, const void *pb)
{
	return path_cmp(pa, pb);
}

/* Sort; a path that occurs more than once (archives can hold that) keeps
 * one entry, skipped as a duplicate: which copy is "the" file is unknowable. */
static int sort_and_merge_duplicates(td_tree_t *tree)
{
	size_t out = 0;

	if (!td_files_in_order(tree->files, tree->count))
		qsort(tree->files, tree->count, sizeof(td_file_t), file_order);
	for (size_t i = 0; i < tree->count; i++) {
		if (out && !path_cmp(&tree->files[out - 1], &tree->files[i])) {
			td_file_t *kept = &tree->files[out - 1];
			td_file_release(&tree->files[i]);
			if ((!kept->skip_reason || strcmp(kept->skip_reason, TD_SKIP_DUPLICATE)) &&
			    mark_skipped(kept, TD_SKIP_DUPLICATE, "the path occurs more than once"))
				return TD_ENOMEM;
			continue;
		}
		if (out != i)
			tree->files[out] = tree->files[i];
		out++;
	}
	tree->count = out;
	return TD_OK;
}

/* Archive hard links take the digest of the member they name. */
static int resolve_hardlinks(td_tree_t *tree)
{
	for (size_t i = 0; i < tree->count; i++) {
		td_file_t *f = &tree->files[i];
		const td_file_t *to;
		if (f->type != TD_ENTRY_FILE || !f->link_target)
			continue;
		to = td_tree_find(tree, f->link_target, f->link_len);
		if (!to || to->type != TD_ENTRY_FILE || !to->has_digest || to->link_target) {
			if (mark_skipped(f, TD_SKIP_LINK_ESCAPE, "hard link to a member that is not a file"))
				return TD_ENOMEM;
			continue;
		}
		if (td_digest_copy(&f->digest, &to->digest))
			return TD_ENOMEM;
		f->has_digest = 1;
		f->size_bytes = to->size_bytes;
		f->mode = to->mode;
		free(f->link_target);
		f->link_target = NULL;
		f->link_len = 0;
	}
	return TD_OK;
}

/* A git revision given by name is the label until one is set: the root
 * has only the commit id. */
static int fill_meta(td_tree_t *tree, td_source_t *src)
{
	const char *rev = td_source_revision(src);

	if ((rev && !tree->meta.label && td_meta_set(&tree->meta.label, rev)) ||
	    td_meta_set(&tree->meta.root, td_source_root(src)) ||
	    td_meta_set(&tree->meta.source_kind, td_source_kind(src)) ||
	    td_meta_set(&tree->meta.tool_version, td_version()))
		return TD_ENOMEM;
	free(tree->meta.scanned_at);
	tree->meta.scanned_at = now_iso8601();
	return tree->meta.scanned_at ? TD_OK : TD_ENOMEM;
}

int td_scan_list(td_tree_t **out, td_source_t *src, const td_scan_opts_t *opts,
		 td_scan_stats_t *stats, td_error_t *err)
{
	td_tree_t *tree = NULL;
	int sequential = !td_source_random_access(src);
	int rc;

	*out = NULL;
	if ((rc = td_tree_new(&tree)) || (rc = fill_meta(tree, src))) {
		td_tree_free(tree);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	rc = sequential ? list_sequential(tree, src, opts, stats, err) : list_random(tree, src, opts, err);
	if (rc)
		goto fail;
	if (sequential && td_source_auto_strip(src) && strip_single_top(tree)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto fail;
	}
	if ((rc = sort_and_merge_duplicates(tree)) || (sequential && (rc = resolve_hardlinks(tree)))) {
		td_error_set(err, rc, "out of memory");
		goto fail;
	}
	if (stats)
		stats->files_listed += tree->count;
	*out = tree;
	return TD_OK;
fail:
	td_tree_free(tree);
	return rc;
}

/* ---- reuse ---- */

/* Open-addressing index of a tree's digested files by git blob id. */
typedef struct oid_index {
	const td_file_t **slots;
	size_t mask;
} oid_index_t;

static size_t oid_hash(const uint8_t *oid)
{
	size_t h;
	memcpy(&h, oid, sizeof(h)); /* a blob id is already uniformly spread */
	return h;
}

static int oid_index_build(oid_index_t *ix, const td_tree_t *t)
{
	size_t n = 0, cap = 16;

	for (size_t i = 0; i < t->count; i++)
		n += t->files[i].has_gitoid && t->files[i].has_digest;
	while (cap < 2 * n)
		cap *= 2;
	ix->slots = calloc(cap, sizeof(*ix->slots));
	if (!ix->slots)
		return TD_ENOMEM;
	ix->mask = cap - 1;
	for (size_t i = 0; i < t->count; i++) {
		const td_file_t *f = &t->files[i];
		size_t h;
		if (!f->has_gitoid || !f->has_digest || f->digest.sha_only || f->type != TD_ENTRY_FILE)
			continue;
		for (h = oid_hash(f->gitoid) & ix->mask; ix->slots[h]; h = (h + 1) & ix->mask)
			if (!memcmp(ix->slots[h]->gitoid, f->gitoid, TD_GITOID_BYTES))
				break;
		if (!ix->slots[h])
			ix->slots[h] = f;
	}
	return TD_OK;
}

static const td_file_t *oid_index_find(const oid_index_t *ix, const uint8_t *oid)
{
	for (size_t h = oid_hash(oid) & ix->mask; ix->slots[h]; h = (h + 1) & ix->mask)
		if (!memcmp(ix->slots[h]->gitoid, oid, TD_GITOID_BYTES))
			return ix->slots[h];
	return NULL;
}

static int same_stat(const td_file_t *a, const td_file_t *b)
{
	return a->ino && a->mtime_ns && a->size_bytes == b->size_bytes && a->mtime_ns == b->mtime_ns &&
	       a->ino == b->ino && a->dev == b->dev;
}

static int take_digest(td_file_t *f, const td_file_t *from)
{
	td_digest_t d;

	if (td_digest_copy(&d, &from->digest))
		return TD_ENOMEM;
	set_digest(f, &d);
	return TD_OK;
}

/* The entry of ref at f's path with f's stat. ref may hold a path more
 * than once (td_db_load_reuse: every version's), next to each other. */
static const td_file_t *find_same_stat(const td_tree_t *ref, const td_file_t *f)
{
	const td_file_t *r = td_tree_find(ref, f->path, f->path_len), *end = ref->files + ref->count;

	if (!r)
		return NULL;
	while (r > ref->files && !td_path_cmp(r[-1].path, r[-1].path_len, f->path, f->path_len))
		r--;
	for (; r < end && !td_path_cmp(r->path, r->path_len, f->path, f->path_len); r++)
		if (r->type == TD_ENTRY_FILE && r->has_digest && !r->digest.sha_only && same_stat(f, r))
			return r;
	return NULL;
}

/* Take the digest of f from ref where it is provably the same content:
 * the same git blob id at any path, or the same path and stat. 1 if taken. */
static int reuse_one(td_file_t *f, const td_tree_t *ref, const oid_index_t *ix)
{
	const td_file_t *r = NULL;

	if (f->type != TD_ENTRY_FILE || (f->has_digest && !f->digest.sha_only))
		return 0;
	if (f->has_gitoid)
		r = oid_index_find(ix, f->gitoid);
	if (!r && f->ino)
		r = find_same_stat(ref, f);
	return r && !take_digest(f, r);
}

size_t td_scan_reuse(td_tree_t *tree, const td_tree_t *ref)
{
	oid_index_t ix = { 0 };
	size_t reused = 0;

	if (!ref || oid_index_build(&ix, ref))
		return 0;
	for (size_t i = 0; i < tree->count; i++)
		reused += (size_t)reuse_one(&tree->files[i], ref, &ix);
	free(ix.slots);
	return reused;
}

/* ---- listing and digesting at once ---- */

/* The walk's state: the tree whose digests may be taken, and, until it is
 * loaded (td_scan_opts_t's reuse_wait), what the walk has found. */
typedef struct walk {
	pool_t *p;
	const td_tree_t *ref;
	oid_index_t ix;
	size_t reused;
	int ready;
	td_file_t *held;
	size_t nheld, held_cap;
	uint64_t reported;
} walk_t;

/* An entry the walk found, into the listing: its digest taken from the
 * tree to reuse where the content is provably the same, then what the
 * workers compute for it decided. */
static int walk_add(walk_t *w, td_file_t *f, td_error_t *err)
{
	pool_t *p = w->p;
	unsigned want;
	size_t index;

	if (w->ref && reuse_one(f, w->ref, &w->ix))
		w->reused++;
	want = p->watch && p->watch->need ? p->watch->need(p->watch->ctx, f) : TD_NEED_FULL;
	if (already_done(f, TD_WANT_NEED(want)))
		want = TD_NEED_NONE;
	if (want != TD_NEED_NONE) {
		p->progress.files_total++;
		p->progress.bytes_total += f->size_bytes;
	}
	if (listing_add(p->l, f, want, &index)) {
		td_file_release(f);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	if (want == TD_NEED_NONE)
		slot_finish(p, index);
	if (atomic_load(&p->sleepers) && (want != TD_NEED_NONE || !(index % LISTING_WAKE_EVERY)))
		pool_wake(p);
	if (!(index % LISTING_WAKE_EVERY) && td_monotonic_ns() - w->reported >= PROGRESS_INTERVAL_NS) {
		report_progress(p->opts, &p->progress);
		w->reported = td_monotonic_ns();
	}
	return TD_OK;
}

/* Ask whether the tree to reuse is loaded (with wait, until it is): 0 when
 * it is, and what the walk held is listed; 1 when not yet; else an error. */
static int walk_ready(walk_t *w, int wait, td_error_t *err)
{
	const td_scan_opts_t *o = w->p->opts;
	int rc = o->reuse_wait(o->reuse_ctx, wait, &w->ref, err);
	size_t i = 0;

	if (rc)
		return rc;
	w->ready = 1;
	if (w->ref && oid_index_build(&w->ix, w->ref))
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
	for (; i < w->nheld && !rc; i++)
		rc = walk_add(w, &w->held[i], err);
	for (; i < w->nheld; i++)
		td_file_release(&w->held[i]);
	free(w->held);
	w->held = NULL;
	w->nheld = w->held_cap = 0;
	return rc;
}

/* An entry found before the tree to reuse is loaded waits for it. */
static int walk_hold(walk_t *w, td_file_t *f, td_error_t *err)
{
	void *held = w->held;

	if (td_grow(&held, &w->held_cap, w->nheld + 1, sizeof(*w->held))) {
		td_file_release(f);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	w->held = held;
	w->held[w->nheld++] = *f;
	return TD_OK;
}

/* List a random-access source into the pool's listing while the workers
 * digest what is listed. */
static int stream_walk(walk_t *w, td_source_t *src, td_error_t *err)
{
	pool_t *p = w->p;
	int rc;

	for (;;) {
		td_file_t f;

		if (canceled(p->opts))
			return td_error_set(err, TD_ECANCELED, "scan canceled");
		if (atomic_load(&p->failed))
			return TD_OK; /* the pool reports why */
		rc = td_source_next(&f, src, err);
		if (rc < 0)
			return rc;
		if (!rc)
			return w->ready ? TD_OK : walk_ready(w, 1, err);
		if (p->watch && p->watch->leave_out && p->watch->leave_out(p->watch->ctx, &f)) {
			td_file_release(&f);
			continue;
		}
		if (!w->ready && (rc = walk_ready(w, 0, err)) < 0) {
			td_file_release(&f);
			return rc;
		}
		if ((rc = w->ready ? walk_add(w, &f, err) : walk_hold(w, &f, err)))
			return rc;
	}
}

/* A sequential source is listed (and digested) first; then its entries
 * are published, all final. */
static int stream_listed(td_listing_t *l, td_source_t *src, const td_scan_opts_t *opts,
			 td_scan_stats_t *stats, const td_listing_watch_t *watch, td_error_t *err)
{
	const td_tree_t *ref = opts ? opts->reuse : NULL;
	td_tree_t *tree;
	int rc;

	if ((rc = td_scan_list(&tree, src, opts, stats, err)))
		return rc;
	if (opts && opts->reuse_wait && (rc = opts->reuse_wait(opts->reuse_ctx, 1, &ref, err))) {
		td_tree_free(tree);
		return rc;
	}
	if (ref) {
		size_t n = td_scan_reuse(tree, ref);
		if (stats)
			stats->files_reused += n;
	}
	for (size_t i = 0; i < tree->count && !rc; i++) {
		size_t index;
		if ((rc = listing_add(l, &tree->files[i], TD_NEED_NONE, &index))) {
			td_error_set(err, rc, "out of memory");
			break;
		}
		listing_finish(l, index, watch);
	}
	/* What moved belongs to the listing now; the rest is freed here. */
	for (size_t i = 0; i < tree->count; i++)
		td_file_release(&tree->files[i]);
	tree->count = 0;
	td_tree_free(tree);
	return rc;
}

int td_scan_stream(td_listing_t *l, td_source_t *src, const td_scan_opts_t *opts,
		   td_scan_stats_t *stats, const td_listing_watch_t *watch, td_error_t *err)
{
	unsigned nthreads = worker_count(opts), started = 0;
	walk_t w = { 0 };
	pthread_t *threads;
	td_error_t pool_err;
	pool_t p;
	int rc;

	w.p = &p;
	w.ref = opts ? opts->reuse : NULL;
	w.ready = !(opts && opts->reuse_wait);
	w.reported = td_monotonic_ns();
	if (!td_source_random_access(src))
		rc = stream_listed(l, src, opts, stats, watch, err);
	else if (w.ready && w.ref && oid_index_build(&w.ix, w.ref))
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
	else if (!(threads = td_malloc_array(nthreads, sizeof(pthread_t))))
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
	else {
		pool_init(&p, l, src, opts, watch);
		rc = pool_start(&p, threads, nthreads, &started, err);
		if (!rc)
			rc = stream_walk(&w, src, err);
		listing_end(l, watch);
		pool_wake(&p);
		if (started) {
			int pool_rc = pool_join(&p, threads, started, stats, &pool_err);
			if (!rc && pool_rc) {
				rc = pool_rc;
				if (err)
					*err = pool_err;
			}
		}
		pool_destroy(&p);
		free(threads);
		if (stats) {
			stats->files_listed += atomic_load(&l->count);
			stats->files_reused += w.reused;
		}
	}
	for (size_t i = 0; i < w.nheld; i++)
		td_file_release(&w.held[i]);
	free(w.held);
	listing_end(l, watch);
	free(w.ix.slots);
	return rc;
}

int td_listing_take(td_listing_t *l, td_tree_t **out, td_error_t *err)
{
	int rc = listing_take(l, out);

	return rc ? td_error_set(err, rc, "out of memory") : TD_OK;
}

int td_scan(td_tree_t **out, td_source_t *src, const td_scan_opts_t *opts,
	    td_scan_stats_t *stats, td_error_t *err)
{
	td_listing_t *l;
	int rc;

	*out = NULL;
	if (td_listing_new(&l, src))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	rc = td_scan_stream(l, src, opts, stats, NULL, err);
	if (!rc)
		rc = td_listing_take(l, out, err);
	td_listing_free(l);
	return rc;
}
