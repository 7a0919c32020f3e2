/* A version loaded from a database at a path (td_db_load_path), here or on
 * a thread of its own (td_db_loader_t) while the caller walks the tree that
 * is to use it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/store.h"
#include "internal.h"

struct td_db_loader {
	const char *path;   /* the arguments, as td_db_loader_start got them */
	td_db_t **keep;
	const char *label;
	unsigned flags;
	pthread_t thread;
	int running;        /* started and not yet joined */
	atomic_int done;
	int rc;             /* the load's outcome, with err */
	td_error_t err;
	td_tree_t *tree;
};

int td_db_load_path(td_tree_t **out, const char *path, td_db_t **keep, const char *label, unsigned flags,
		    td_error_t *err)
{
	td_db_t *db = keep ? *keep : NULL;
	int rc;

	*out = NULL;
	if (!db && (rc = td_db_open(&db, path, err)))
		return rc;
	rc = flags & TD_DB_LOAD_REUSE ? td_db_load_reuse(out, db, err) : td_db_load(out, db, label, err);
	if (keep)
		*keep = db;
	else
		td_db_free(db);
	return rc;
}

/* Load as td_db_loader_start says, into l->tree, l->rc and l->err. */
static void load(td_db_loader_t *l)
{
	l->rc = td_db_load_path(&l->tree, l->path, l->keep, l->label, l->flags, &l->err);
}

static void *load_run(void *arg)
{
	td_db_loader_t *l = arg;

	load(l);
	atomic_store(&l->done, 1);
	return NULL;
}

int td_db_loader_start(td_db_loader_t **out, const char *path, td_db_t **keep, const char *label,
		       unsigned flags, td_error_t *err)
{
	td_db_loader_t *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	l->path = path;
	l->keep = keep;
	l->label = label;
	l->flags = flags;
	atomic_init(&l->done, 0);
	if (!pthread_create(&l->thread, NULL, load_run, l))
		l->running = 1;
	else {
		/* no thread to spare: loaded here, waited for at once */
		load(l);
		atomic_store(&l->done, 1);
	}
	*out = l;
	return TD_OK;
}

int td_db_loader_wait(void *loader, int wait, const td_tree_t **tree, td_error_t *err)
{
	td_db_loader_t *l = loader;

	if (!wait && !atomic_load(&l->done))
		return 1;
	if (l->running) {
		pthread_join(l->thread, NULL);
		l->running = 0;
	}
	if (l->rc) {
		if (err)
			*err = l->err;
		return l->rc;
	}
	*tree = l->tree;
	return TD_OK;
}

td_tree_t *td_db_loader_take(td_db_loader_t *l)
{
	const td_tree_t *tree;
	td_tree_t *taken;

	if (td_db_loader_wait(l, 1, &tree, NULL))
		return NULL;
	taken = l->tree;
	l->tree = NULL;
	return taken;
}

void td_db_loader_free(td_db_loader_t *l)
{
	if (!l)
		return;
	if (l->running)
		pthread_join(l->thread, NULL);
	td_tree_free(l->tree);
	free(l);
}
