/* A streaming scan's hand-over thread: entry i of the listing goes to the
 * sink as soon as it is final, in listing order, while the walk and the
 * workers go on. It sleeps on a condition variable and is woken by the
 * listing's watch (scan_impl.h); no wake-up is lost, so it never polls.
 *
 * Why no wake-up is lost. The thread announces the entry it waits for
 * (waiting = i), then looks whether i is final; the worker that makes i
 * final then reads waiting. All four are sequentially consistent, so at
 * least one side sees the other: either the thread sees i final and does
 * not sleep, or the worker sees waiting == i and signals under the mutex.
 * The thread looks again under the mutex before it sleeps, so the signal
 * either finds it asleep or comes before its look, which then sees i
 * final. The end of the listing and the end of the scan are flags set
 * before an unconditional signal under the mutex, checked the same way. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "scan_impl.h"
#include "scan_sink.h"

/* Entries the thread lets pile up before it is woken: files finish
 * roughly in listing order, and a wake-up per file would cost more than
 * the hand-over. */
#define SINK_BATCH 256

/* No entry: the thread waits for the end of the scan. */
#define WAIT_NONE SIZE_MAX

typedef struct feeder {
	const td_listing_t *l;
	const td_entry_sink_t *sink;
	atomic_int finished;       /* the scan is over: every entry that will be final is */
	_Atomic size_t waiting;    /* the entry the thread sleeps on; WAIT_NONE: none */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	size_t written;            /* entries handed over */
	int rc;
	td_error_t err;
} feeder_t;

static void feeder_wake(feeder_t *fd)
{
	pthread_mutex_lock(&fd->lock);
	pthread_cond_signal(&fd->wake);
	pthread_mutex_unlock(&fd->lock);
}

/* The listing's watch: entry index is final. */
static void feeder_final(void *ctx, size_t index)
{
	feeder_t *fd = ctx;

	if (atomic_load(&fd->waiting) == index)
		feeder_wake(fd);
}

/* The listing's watch: nothing more will be listed. */
static void feeder_complete(void *ctx)
{
	feeder_wake(ctx);
}

/* The listing's watch: the sink's own files are left out. */
static int feeder_leave_out(void *ctx, const td_file_t *f)
{
	feeder_t *fd = ctx;

	return fd->sink->leave_out(fd->sink->ctx, f);
}

/* 1 while waiting for entry i (WAIT_NONE: for the end) is still to do. */
static int must_wait(feeder_t *fd, size_t i)
{
	if (atomic_load(&fd->finished))
		return 0;
	if (i == WAIT_NONE)
		return 1;
	if (td_listing_final(fd->l, i))
		return 0;
	/* An entry past the end of a complete listing never comes. */
	return !(td_listing_complete(fd->l) && i >= td_listing_count(fd->l));
}

static void feeder_wait(feeder_t *fd, size_t i)
{
	atomic_store(&fd->waiting, i);
	if (must_wait(fd, i)) {
		pthread_mutex_lock(&fd->lock);
		if (must_wait(fd, i))
			pthread_cond_wait(&fd->wake, &fd->lock);
		pthread_mutex_unlock(&fd->lock);
	}
	atomic_store(&fd->waiting, WAIT_NONE);
}

/* The entry to sleep on: one a batch ahead, so that the thread wakes once
 * per batch; the next to hand over when the one a batch ahead is final
 * already (a large file holds the others up); WAIT_NONE when a complete
 * listing is all handed over. */
static size_t wait_target(const feeder_t *fd)
{
	size_t next = fd->written, ahead = next + SINK_BATCH;

	if (td_listing_complete(fd->l)) {
		size_t n = td_listing_count(fd->l);
		if (next >= n)
			return WAIT_NONE;
		if (ahead >= n)
			ahead = n - 1;
	}
	return td_listing_final(fd->l, ahead) ? next : ahead;
}

static void *feeder_run(void *arg)
{
	feeder_t *fd = arg;

	for (;;) {
		if (td_listing_final(fd->l, fd->written)) {
			fd->rc = fd->sink->put(fd->sink->ctx, td_listing_at(fd->l, fd->written), &fd->err);
			if (fd->rc)
				break;
			fd->written++;
			continue;
		}
		if (atomic_load(&fd->finished)) {
			if (!td_listing_final(fd->l, fd->written))
				break; /* all handed over, or the scan stopped short and says why */
			continue;
		}
		feeder_wait(fd, wait_target(fd));
	}
	return NULL;
}

int td_scan_sink(td_tree_t **out, td_source_t *src, const char *label, const td_scan_opts_t *opts,
		 td_scan_stats_t *stats, const td_entry_sink_t *sink, td_error_t *err)
{
	td_listing_watch_t watch = { 0 };
	td_listing_t *l = NULL;
	td_tree_t *tree = NULL;
	pthread_t thread;
	feeder_t fd;
	int started = 0, rc;

	*out = NULL;
	if (td_listing_new(&l, src) || (label && td_meta_set(&td_listing_tree(l)->meta.label, label))) {
		td_listing_free(l);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	if (sink->begin && (rc = sink->begin(sink->ctx, &td_listing_tree(l)->meta, err))) {
		td_listing_free(l);
		return rc;
	}
	memset(&fd, 0, sizeof(fd));
	fd.l = l;
	fd.sink = sink;
	atomic_init(&fd.finished, 0);
	atomic_init(&fd.waiting, WAIT_NONE);
	pthread_mutex_init(&fd.lock, NULL);
	pthread_cond_init(&fd.wake, NULL);
	watch.final = feeder_final;
	watch.complete = feeder_complete;
	watch.leave_out = sink->leave_out ? feeder_leave_out : NULL;
	watch.ctx = &fd;
	if (pthread_create(&thread, NULL, feeder_run, &fd) == 0)
		started = 1;
	rc = td_scan_stream(l, src, opts, stats, &watch, err);
	atomic_store(&fd.finished, 1);
	feeder_wake(&fd);
	if (started)
		pthread_join(thread, NULL);
	else if (!rc)
		feeder_run(&fd); /* no thread to spare: hand over after the scan */
	if (!rc && fd.rc) {
		rc = fd.rc;
		if (err)
			*err = fd.err;
	}
	if (!rc && fd.written != td_listing_count(l))
		rc = td_error_set(err, TD_EINVAL, "the scan of '%s' handed over %zu of %zu entries",
				  td_source_root(src), fd.written, td_listing_count(l));
	if (!rc)
		rc = td_listing_take(l, &tree, err);
	pthread_cond_destroy(&fd.wake);
	pthread_mutex_destroy(&fd.lock);
	td_listing_free(l);
	if (rc) {
		td_tree_free(tree);
		return rc;
	}
	*out = tree;
	return TD_OK;
}
