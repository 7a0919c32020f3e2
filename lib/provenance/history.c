/* The upstream history (treedrift/history.h): walk BASE..TIP with libgit2,
 * diff each non-merge commit's tree against its first parent's without
 * content (object ids only), keep every touched path, and build the patch
 * (blobs read, lines hashed) only of the deltas whose path was asked for.
 * Commits are spread over a pool of threads, each with its own repository
 * handle (libgit2 objects are not shared between threads). */
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "internal.h"
#include "patch_impl.h"
#include "treedrift/history.h"

#define HISTORY_MAX_THREADS 64
#define HISTORY_DEFAULT_MAX_FILE_BYTES (64u << 20)
/* The hash lists of one file: a larger diff is cut off here. */
#define HISTORY_MAX_LINES_PER_FILE (16u << 20)

typedef struct path_touch {
	const char *path;
	td_history_touch_t t;
} path_touch_t;

struct td_history_impl {
	git_repository *repo;       /* for patch ids, on the caller's thread */
	int libgit2_ref;
	path_touch_t *index;        /* loaded files by (path, commit) */
	size_t nindex;
	td_history_touch_t *touches;/* index's touches, in the same order (td_history_find's view) */
	struct commit_id *by_id;    /* the commits by id, then index (td_history_commit_index) */
	char (*patch_ids)[TD_HISTORY_ID_HEX]; /* "" until computed */
	char (*merge_ids)[TD_HISTORY_ID_HEX]; /* the range's merge commits (td_history_merged) */
	size_t nmerges;
	struct commit_id *merges_by_id; /* merge_ids by id */
};

/* ---- line hashes ------------------------------------------------------ */

/* The patch stage's hash (patch_id.c), which git patch-id's rules shape:
 * the same lines must give the same keys on both sides. */
td_line_hash_t td_line_hash(const char *line, size_t len, int *trivial)
{
	return td_patch_line_hash(line, len, trivial);
}

/* ---- specs -------------------------------------------------------------- */

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Split "git:REPO[@TIP...]": the repository is the longest prefix before
 * an '@' that is a directory (a path may hold '@'), else up to the first. */
static int split_spec(char **repo, char ***tips, size_t *ntips, const char *spec, td_error_t *err)
{
	const char *body, *cut = NULL, *p;
	char **t = NULL;
	size_t n = 0;
	int rc = TD_OK;

	*repo = NULL;
	*tips = NULL;
	*ntips = 0;
	if (strncmp(spec, "git:", 4) || !spec[4])
		return td_error_set(err, TD_EINVAL, "history '%s' is not git:REPO[@TIP...]", spec);
	body = spec + 4;
	for (p = strchr(body, '@'); p; p = strchr(p + 1, '@')) {
		char *prefix = td_strndup(body, (size_t)(p - body));
		int dir;
		if (!prefix)
			return td_error_set(err, TD_ENOMEM, "out of memory");
		dir = is_dir(prefix);
		free(prefix);
		if (dir)
			cut = p;
	}
	if (!cut && !is_dir(body))
		cut = strchr(body, '@');
	if (!(*repo = td_strndup(body, cut ? (size_t)(cut - body) : strlen(body))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (!**repo) {
		rc = td_error_set(err, TD_EINVAL, "history '%s' names no repository", spec);
		goto out;
	}
	for (p = cut; p; p = strchr(p + 1, '@')) {
		const char *end = strchr(p + 1, '@');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		char **g;
		if (!len) {
			rc = td_error_set(err, TD_EINVAL, "history '%s' has an empty tip", spec);
			goto out;
		}
		if (n >= TD_HISTORY_MAX_TIPS) {
			rc = td_error_set(err, TD_EINVAL, "history '%s' has more than %u tips", spec,
					  TD_HISTORY_MAX_TIPS);
			goto out;
		}
		if (!(g = td_realloc_array(t, n + 1, sizeof(*t))) || !(t = g, g[n] = td_strndup(p + 1, len))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
out:
	if (rc) {
		for (size_t i = 0; i < n; i++)
			free(t[i]);
		free(t);
		free(*repo);
		*repo = NULL;
		return rc;
	}
	*tips = t;
	*ntips = n;
	return TD_OK;
}

int td_history_spec_repo(char **out, const char *spec, td_error_t *err)
{
	char **tips;
	size_t n;
	int rc;

	if ((rc = split_spec(out, &tips, &n, spec, err)))
		return rc;
	for (size_t i = 0; i < n; i++)
		free(tips[i]);
	free(tips);
	return TD_OK;
}

void td_history_opts_init(td_history_opts_t *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---- one commit --------------------------------------------------------- */

static int git_fail(td_error_t *err, const char *what, const char *subject)
{
	const git_error *e = git_error_last();

	return td_error_set(err, e && e->klass == GIT_ERROR_NOMEMORY ? TD_ENOMEM : TD_EGIT, "unable to %s '%s': %s",
			    what, subject, e && e->message ? e->message : "unknown libgit2 error");
}

static int wanted(const td_history_opts_t *o, const char *path)
{
	size_t lo = 0, hi = o->npaths;

	if (!o->paths)
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(o->paths[mid], path);
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int push_hash(td_line_hash_t **v, size_t *n, size_t *cap, td_line_hash_t h)
{
	if (*n >= HISTORY_MAX_LINES_PER_FILE)
		return TD_OK;
	if (td_grow((void **)v, cap, *n + 1, sizeof(**v)))
		return TD_ENOMEM;
	(*v)[(*n)++] = h;
	return TD_OK;
}

/* The lines of one changed file as hashes into f: libgit2's patch of the
 * two blobs (NULL for the side that does not exist), without context:
 * only the lines added and removed are wanted, and they are the same. */
static int load_file(td_history_file_t *f, git_blob *old_blob, git_blob *new_blob, uint64_t max_size,
		     const char *id, td_error_t *err)
{
	git_patch *patch = NULL;
	git_diff_options dopts;
	size_t cap_a = 0, cap_r = 0, cap_ta = 0, cap_tr = 0;
	int rc = TD_OK;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	dopts.max_size = (git_off_t)max_size;
	dopts.context_lines = 0;
	dopts.interhunk_lines = 0;
	if (git_patch_from_blobs(&patch, old_blob, f->path, new_blob, f->path, &dopts)) {
		rc = git_fail(err, "diff commit", id);
		goto out;
	}
	if (!patch || (git_patch_get_delta(patch)->flags & GIT_DIFF_FLAG_BINARY)) {
		f->binary = 1;
		goto out;
	}
	for (size_t h = 0, nh = git_patch_num_hunks(patch); h < nh; h++) {
		int nl = git_patch_num_lines_in_hunk(patch, h);
		for (int l = 0; l < nl; l++) {
			const git_diff_line *line;
			int trivial;
			td_line_hash_t hash;
			if (git_patch_get_line_in_hunk(&line, patch, h, (size_t)l)) {
				rc = git_fail(err, "diff commit", id);
				goto out;
			}
			if (line->origin != GIT_DIFF_LINE_ADDITION && line->origin != GIT_DIFF_LINE_DELETION)
				continue;
			hash = td_line_hash(line->content, line->content_len, &trivial);
			if (line->origin == GIT_DIFF_LINE_ADDITION) {
				f->lines_added++;
				rc = trivial ? push_hash(&f->added_trivial, &f->nadded_trivial, &cap_ta, hash)
					     : push_hash(&f->added, &f->nadded, &cap_a, hash);
			} else {
				f->lines_removed++;
				rc = trivial ? push_hash(&f->removed_trivial, &f->nremoved_trivial, &cap_tr, hash)
					     : push_hash(&f->removed, &f->nremoved, &cap_r, hash);
			}
			if (rc) {
				td_error_set(err, rc, "out of memory");
				goto out;
			}
		}
	}
out:
	git_patch_free(patch);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int diff_with_parent(git_diff **out, git_repository *repo, git_commit *c, uint64_t max_size,
			    const char *id, td_error_t *err)
{
	git_commit *parent = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff_options dopts;
	int rc = TD_OK;

	*out = NULL;
	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	dopts.max_size = (git_off_t)max_size;
	if ((git_commit_parentcount(c) && git_commit_parent(&parent, c, 0)) ||
	    (parent && git_commit_tree(&old_tree, parent)) || git_commit_tree(&new_tree, c) ||
	    git_diff_tree_to_tree(out, repo, old_tree, new_tree, &dopts))
		rc = git_fail(err, "diff commit", id);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(parent);
	return rc;
}

/* The state of one commit's tree walk. */
typedef struct walk {
	git_repository *repo;
	td_history_commit_t *hc;
	const td_history_opts_t *o;
	uint64_t max_size;
	size_t cap_paths, cap_files;
	char path[4096];
} walk_t;

static int is_tree(const git_tree_entry *e)
{
	return e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

static int lookup_blob(git_blob **out, git_repository *repo, const git_tree_entry *e)
{
	*out = NULL;
	if (!e || git_tree_entry_filemode(e) == GIT_FILEMODE_COMMIT)
		return 0;
	return git_blob_lookup(out, repo, git_tree_entry_id(e));
}

/* One changed non-tree entry at w->path: old and/or new (NULL when absent). */
static int touch(walk_t *w, const git_tree_entry *old, const git_tree_entry *new, td_error_t *err)
{
	td_history_commit_t *hc = w->hc;
	td_history_file_t *f;
	git_blob *ob = NULL, *nb = NULL;
	char *p;
	int rc = TD_OK;

	if (!(p = strdup(w->path)) || td_grow((void **)&hc->paths, &w->cap_paths, hc->npaths + 1, sizeof(*hc->paths))) {
		free(p);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	hc->paths[hc->npaths++] = p;
	if (!wanted(w->o, p))
		return TD_OK;
	if (td_grow((void **)&hc->files, &w->cap_files, hc->nfiles + 1, sizeof(*hc->files)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	f = &hc->files[hc->nfiles++];
	memset(f, 0, sizeof(*f));
	f->status = !old ? 'A' : !new ? 'D' : git_tree_entry_filemode(old) != git_tree_entry_filemode(new) &&
		(git_tree_entry_filemode(old) == GIT_FILEMODE_LINK || git_tree_entry_filemode(new) == GIT_FILEMODE_LINK ||
		 git_tree_entry_filemode(old) == GIT_FILEMODE_COMMIT || git_tree_entry_filemode(new) == GIT_FILEMODE_COMMIT)
		? 'T' : 'M';
	if (!(f->path = strdup(p)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if ((old && git_tree_entry_filemode(old) == GIT_FILEMODE_COMMIT) ||
	    (new && git_tree_entry_filemode(new) == GIT_FILEMODE_COMMIT)) {
		f->binary = 1; /* a submodule: no lines */
		return TD_OK;
	}
	if (lookup_blob(&ob, w->repo, old) || lookup_blob(&nb, w->repo, new))
		rc = git_fail(err, "read a blob of commit", hc->id);
	else
		rc = load_file(f, ob, nb, w->max_size, hc->id, err);
	git_blob_free(ob);
	git_blob_free(nb);
	return rc;
}

static int walk_trees(walk_t *w, git_tree *old, git_tree *new, td_error_t *err);

/* Set w->path to prefix + name; 0, or TD_EINVAL when it does not fit. */
static int path_push(walk_t *w, size_t at, const char *name, td_error_t *err)
{
	size_t n = strlen(name);

	if (at + n + 2 > sizeof(w->path))
		return td_error_set(err, TD_EINVAL, "path '%.64s...' of commit '%s' is too long", w->path, w->hc->id);
	memcpy(w->path + at, name, n + 1);
	return TD_OK;
}

/* An entry on one side only, or a tree facing a non-tree: every file
 * under it is added (old NULL) or deleted (new NULL). */
static int one_side(walk_t *w, const git_tree_entry *old, const git_tree_entry *new, td_error_t *err)
{
	const git_tree_entry *e = old ? old : new;
	git_tree *t = NULL;
	int rc;

	if (!is_tree(e))
		return touch(w, old, new, err);
	if (git_tree_lookup(&t, w->repo, git_tree_entry_id(e)))
		return git_fail(err, "read a tree of commit", w->hc->id);
	rc = old ? walk_trees(w, t, NULL, err) : walk_trees(w, NULL, t, err);
	git_tree_free(t);
	return rc;
}

/* Merge walk over two trees in git's entry order, skipping subtrees with
 * the same id: only what changed is visited, as `git diff-tree -r` does. */
static int walk_trees(walk_t *w, git_tree *old, git_tree *new, td_error_t *err)
{
	size_t at = strlen(w->path), i = 0, j = 0;
	size_t no = old ? git_tree_entrycount(old) : 0, nn = new ? git_tree_entrycount(new) : 0;
	int rc = TD_OK;

	if (at) {
		w->path[at++] = '/';
		w->path[at] = '\0';
	}
	while (!rc && (i < no || j < nn)) {
		const git_tree_entry *a = i < no ? git_tree_entry_byindex(old, i) : NULL;
		const git_tree_entry *b = j < nn ? git_tree_entry_byindex(new, j) : NULL;
		int c = !a ? 1 : !b ? -1 : git_tree_entry_cmp(a, b);
		if ((rc = path_push(w, at, c <= 0 ? git_tree_entry_name(a) : git_tree_entry_name(b), err)))
			break;
		if (c < 0) {
			rc = one_side(w, a, NULL, err);
			i++;
		} else if (c > 0) {
			rc = one_side(w, NULL, b, err);
			j++;
		} else {
			if (!git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) ||
			    git_tree_entry_filemode(a) != git_tree_entry_filemode(b)) {
				if (is_tree(a) && is_tree(b)) {
					git_tree *ta = NULL, *tb = NULL;
					if (git_tree_lookup(&ta, w->repo, git_tree_entry_id(a)) ||
					    git_tree_lookup(&tb, w->repo, git_tree_entry_id(b)))
						rc = git_fail(err, "read a tree of commit", w->hc->id);
					else
						rc = walk_trees(w, ta, tb, err);
					git_tree_free(ta);
					git_tree_free(tb);
				} else if (is_tree(a) || is_tree(b)) {
					if (!(rc = one_side(w, a, NULL, err))) {
						rc = path_push(w, at, git_tree_entry_name(b), err);
						rc = rc ? rc : one_side(w, NULL, b, err);
					}
				} else {
					rc = touch(w, a, b, err);
				}
			}
			i++;
			j++;
		}
	}
	w->path[at ? at - 1 : 0] = '\0';
	return rc;
}

static int load_commit(td_history_commit_t *hc, git_repository *repo, const git_oid *oid,
		       const td_history_opts_t *o, uint64_t max_size, td_error_t *err)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	const git_signature *sig;
	const char *s;
	walk_t *w = NULL;
	size_t alen;
	int rc = TD_OK;

	git_oid_tostr(hc->id, sizeof(hc->id), oid);
	if (git_commit_lookup(&c, repo, oid)) {
		rc = git_fail(err, "read commit", hc->id);
		goto out;
	}
	s = git_commit_summary(c);
	sig = git_commit_author(c);
	hc->time = (int64_t)git_commit_time(c);
	alen = strlen(sig->name) + strlen(sig->email) + 4;
	if (!(hc->subject = strdup(s ? s : "")) ||
	    !(hc->message = strdup(git_commit_message(c) ? git_commit_message(c) : "")) ||
	    !(hc->author = malloc(alen)) || !(w = calloc(1, sizeof(*w)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(hc->author, alen, "%s <%s>", sig->name, sig->email);
	if ((git_commit_parentcount(c) && git_commit_parent(&parent, c, 0)) ||
	    (parent && git_commit_tree(&old_tree, parent)) || git_commit_tree(&new_tree, c)) {
		rc = git_fail(err, "read commit", hc->id);
		goto out;
	}
	w->repo = repo;
	w->hc = hc;
	w->o = o;
	w->max_size = max_size;
	if ((rc = walk_trees(w, old_tree, new_tree, err)))
		goto out;
	/* git's tree order puts "dir/" after "dir.c"; the lists are in strcmp order */
	if (hc->npaths > 1)
		qsort(hc->paths, hc->npaths, sizeof(*hc->paths), cmp_str);
	for (size_t i = 1; i < hc->nfiles; i++)
		for (size_t j = i; j > 0 && strcmp(hc->files[j - 1].path, hc->files[j].path) > 0; j--) {
			td_history_file_t t = hc->files[j];
			hc->files[j] = hc->files[j - 1];
			hc->files[j - 1] = t;
		}
out:
	free(w);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(parent);
	git_commit_free(c);
	return rc;
}

/* ---- the pool ----------------------------------------------------------- */

typedef struct pool {
	const char *repo_path;
	const git_oid *oids;
	td_history_commit_t *commits;
	size_t count;
	const td_history_opts_t *o;
	uint64_t max_size;
	atomic_size_t next;
	atomic_int failed;
	pthread_mutex_t lock;
	td_error_t err;
} pool_t;

static void pool_fail(pool_t *p, const td_error_t *e)
{
	pthread_mutex_lock(&p->lock);
	if (!atomic_load(&p->failed)) {
		p->err = *e;
		atomic_store(&p->failed, 1);
	}
	pthread_mutex_unlock(&p->lock);
}

static void *pool_worker(void *arg)
{
	pool_t *p = arg;
	git_repository *repo = NULL;
	td_error_t err = { 0 };

	if (git_repository_open_ext(&repo, p->repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		git_fail(&err, "open repository", p->repo_path);
		pool_fail(p, &err);
		return NULL;
	}
	while (!atomic_load(&p->failed)) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->count)
			break;
		if (load_commit(&p->commits[i], repo, &p->oids[i], p->o, p->max_size, &err)) {
			pool_fail(p, &err);
			break;
		}
	}
	git_repository_free(repo);
	return NULL;
}

static int run_pool(pool_t *p, unsigned jobs, td_error_t *err)
{
	pthread_t tid[HISTORY_MAX_THREADS];
	unsigned started = 0;

	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = n > 0 ? (unsigned)n : 1;
	}
	if (jobs > HISTORY_MAX_THREADS)
		jobs = HISTORY_MAX_THREADS;
	if (jobs > p->count)
		jobs = p->count ? (unsigned)p->count : 1;
	for (unsigned i = 1; i < jobs; i++, started++)
		if (pthread_create(&tid[started], NULL, pool_worker, p))
			break;
	pool_worker(p);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (atomic_load(&p->failed)) {
		*err = p->err;
		return p->err.code ? p->err.code : TD_EGIT;
	}
	return TD_OK;
}

/* ---- the range ---------------------------------------------------------- */

static int resolve(git_oid *out, git_repository *repo, const char *rev, const char *repo_path, td_error_t *err)
{
	git_object *obj = NULL, *peeled = NULL;
	int rc = TD_OK;

	if (git_revparse_single(&obj, repo, rev) || git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT))
		rc = td_error_set(err, TD_EINVAL, "revision '%s' is not a commit of '%s'", rev, repo_path);
	else
		git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
	return rc;
}

static int add_tip(git_oid **tips, size_t *n, const git_oid *oid)
{
	git_oid *g;

	for (size_t i = 0; i < *n; i++)
		if (git_oid_equal(&(*tips)[i], oid))
			return TD_OK;
	if (*n >= TD_HISTORY_MAX_TIPS * 1024u)
		return TD_OK;
	if (!(g = td_realloc_array(*tips, *n + 1, sizeof(*g))))
		return TD_ENOMEM;
	git_oid_cpy(&g[*n], oid);
	*tips = g;
	(*n)++;
	return TD_OK;
}

/* Every ref that points (through tags) at a commit descending from base. */
static int tips_from_refs(git_oid **tips, size_t *n, git_repository *repo, const git_oid *base, td_error_t *err)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int rc = TD_OK, g;

	if (git_reference_iterator_new(&it, repo))
		return git_fail(err, "list the refs of", git_repository_path(repo));
	while (!rc && !(g = git_reference_next(&ref, it))) {
		git_object *obj = NULL;
		if (!git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT)) {
			const git_oid *id = git_object_id(obj);
			if (!git_oid_equal(id, base) && git_graph_descendant_of(repo, id, base) == 1 &&
			    add_tip(tips, n, id))
				rc = td_error_set(err, TD_ENOMEM, "out of memory");
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	return rc;
}

/* The range's non-merge commits into *out, oldest first, and its merge
 * commits' ids into *merges. */
static int walk_range(git_oid **out, size_t *count, char (**merges)[TD_HISTORY_ID_HEX], size_t *nmerges,
		      git_repository *repo, const git_oid *base, const git_oid *tips, size_t ntips, td_error_t *err)
{
	git_revwalk *walk = NULL;
	git_oid oid, *v = NULL;
	char(*m)[TD_HISTORY_ID_HEX] = NULL;
	size_t n = 0, cap = 0, nm = 0, mcap = 0;
	int rc = TD_OK, g;

	*out = NULL;
	*merges = NULL;
	*count = *nmerges = 0;
	if (git_revwalk_new(&walk, repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME | GIT_SORT_REVERSE) ||
	    git_revwalk_hide(walk, base)) {
		rc = git_fail(err, "walk", git_repository_path(repo));
		goto out;
	}
	for (size_t i = 0; i < ntips; i++)
		if (git_revwalk_push(walk, &tips[i])) {
			rc = git_fail(err, "walk", git_repository_path(repo));
			goto out;
		}
	while (!(g = git_revwalk_next(&oid, walk))) {
		git_commit *c;
		unsigned parents;
		if (git_commit_lookup(&c, repo, &oid)) {
			rc = git_fail(err, "walk", git_repository_path(repo));
			goto out;
		}
		parents = git_commit_parentcount(c);
		git_commit_free(c);
		if (n + nm >= TD_HISTORY_MAX_COMMITS) {
			rc = td_error_set(err, TD_EINVAL, "history of '%s' has more than %u commits",
					  git_repository_path(repo), TD_HISTORY_MAX_COMMITS);
			goto out;
		}
		if (parents > 1) {
			if (td_grow((void **)&m, &mcap, nm + 1, sizeof(*m))) {
				rc = td_error_set(err, TD_ENOMEM, "out of memory");
				goto out;
			}
			git_oid_tostr(m[nm++], TD_HISTORY_ID_HEX, &oid);
			continue;
		}
		if (td_grow((void **)&v, &cap, n + 1, sizeof(*v))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		git_oid_cpy(&v[n++], &oid);
	}
	if (g != GIT_ITEROVER)
		rc = git_fail(err, "walk", git_repository_path(repo));
out:
	git_revwalk_free(walk);
	if (rc) {
		free(v);
		free(m);
		return rc;
	}
	*out = v;
	*count = n;
	*merges = m;
	*nmerges = nm;
	return TD_OK;
}

/* ---- the path index ------------------------------------------------------ */

static int cmp_touch(const void *a, const void *b)
{
	const path_touch_t *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	return x->t.commit < y->t.commit ? -1 : x->t.commit > y->t.commit;
}

/* The fewest hex digits of an id td_history_commit_index takes (git's
 * shortest abbreviation). */
#define HISTORY_ID_ABBREV_MIN 7

/* A commit's id and index, for the lookup by id. */
struct commit_id {
	const char *id;
	size_t i;
};

static int cmp_commit_id(const void *a, const void *b)
{
	const struct commit_id *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static int build_index(td_history_t *h, td_error_t *err)
{
	struct td_history_impl *im = h->impl;
	size_t n = 0, k = 0;

	if (!(im->by_id = td_malloc_array(h->count ? h->count : 1, sizeof(*im->by_id))) ||
	    !(im->merges_by_id = td_malloc_array(im->nmerges ? im->nmerges : 1, sizeof(*im->merges_by_id))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < h->count; i++)
		im->by_id[i] = (struct commit_id){ h->commits[i].id, i };
	if (h->count > 1)
		qsort(im->by_id, h->count, sizeof(*im->by_id), cmp_commit_id);
	for (size_t i = 0; i < im->nmerges; i++)
		im->merges_by_id[i] = (struct commit_id){ im->merge_ids[i], i };
	if (im->nmerges > 1)
		qsort(im->merges_by_id, im->nmerges, sizeof(*im->merges_by_id), cmp_commit_id);
	for (size_t i = 0; i < h->count; i++)
		n += h->commits[i].nfiles;
	if (!n)
		return TD_OK;
	if (!(im->index = td_malloc_array(n, sizeof(*im->index))) ||
	    !(im->touches = td_malloc_array(n, sizeof(*im->touches))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < h->count; i++)
		for (size_t f = 0; f < h->commits[i].nfiles; f++) {
			im->index[k].path = h->commits[i].files[f].path;
			im->index[k].t.commit = i;
			im->index[k].t.file = f;
			k++;
		}
	qsort(im->index, n, sizeof(*im->index), cmp_touch);
	for (size_t i = 0; i < n; i++)
		im->touches[i] = im->index[i].t;
	im->nindex = n;
	return TD_OK;
}

void td_history_find(const td_history_touch_t **out, size_t *n, const td_history_t *h, const char *path)
{
	const struct td_history_impl *im = h ? h->impl : NULL;
	size_t lo = 0, hi, first;

	*out = NULL;
	*n = 0;
	if (!im || !im->nindex)
		return;
	hi = im->nindex;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(im->index[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < im->nindex && !strcmp(im->index[lo].path, path))
		lo++;
	if (lo > first) {
		*out = &im->touches[first];
		*n = lo - first;
	}
}

/* The ids of v[0..n) (sorted by id) that id names, whole or abbreviated
 * (HISTORY_ID_ABBREV_MIN hex digits or more): v[*first .. return value). */
static size_t named_ids(size_t *first, const struct commit_id *v, size_t n, const char *id)
{
	size_t len = strlen(id), lo = 0, hi = n;

	*first = 0;
	if (!v || len < HISTORY_ID_ABBREV_MIN || len >= TD_HISTORY_ID_HEX)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strncmp(v[mid].id, id, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (hi < n && !strncmp(v[hi].id, id, len))
		hi++;
	return hi;
}

long td_history_commit_index(const td_history_t *h, const char *id)
{
	const struct td_history_impl *im = h ? h->impl : NULL;
	size_t at = 0, end = im ? named_ids(&at, im->by_id, h->count, id) : 0;
	long first = -1;

	/* an abbreviation may name several: the first in history order */
	for (; at < end; at++)
		if (first < 0 || im->by_id[at].i < (size_t)first)
			first = (long)im->by_id[at].i;
	return first;
}

/* The merge of the range that id names (as td_history_commit_index takes
 * it), or NULL: none, or several. */
static const char *find_merge(const struct td_history_impl *im, const char *id)
{
	size_t at = 0, end = im ? named_ids(&at, im->merges_by_id, im->nmerges, id) : 0;

	return end == at + 1 ? im->merges_by_id[at].id : NULL;
}

int td_history_merged(size_t **out, size_t *n, int *is_merge, const td_history_t *h, const char *id, td_error_t *err)
{
	struct td_history_impl *im = h->impl;
	const char *merge = find_merge(im, id);
	git_commit *c = NULL;
	git_revwalk *walk = NULL;
	git_oid oid, base;
	size_t *v = NULL, nv = 0, cap = 0;
	int rc = TD_OK, g;

	*out = NULL;
	*n = 0;
	*is_merge = merge != NULL;
	if (!merge)
		return TD_OK;
	/* what its other parents bring that its first does not have, within
	 * the range (the base hidden too) */
	if (git_oid_fromstr(&oid, merge) || git_oid_fromstr(&base, h->base) || git_commit_lookup(&c, im->repo, &oid) ||
	    git_revwalk_new(&walk, im->repo) || git_revwalk_hide(walk, git_commit_parent_id(c, 0)) ||
	    git_revwalk_hide(walk, &base)) {
		rc = git_fail(err, "walk the merge", merge);
		goto out;
	}
	for (unsigned p = 1; p < git_commit_parentcount(c); p++)
		if (git_revwalk_push(walk, git_commit_parent_id(c, p))) {
			rc = git_fail(err, "walk the merge", merge);
			goto out;
		}
	while (!(g = git_revwalk_next(&oid, walk))) {
		char hex[TD_HISTORY_ID_HEX];
		long i;
		git_oid_tostr(hex, sizeof(hex), &oid);
		if ((i = td_history_commit_index(h, hex)) < 0)
			continue; /* a merge */
		if (td_grow((void **)&v, &cap, nv + 1, sizeof(*v))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		v[nv++] = (size_t)i;
	}
	if (g != GIT_ITEROVER) {
		rc = git_fail(err, "walk the merge", merge);
		goto out;
	}
	if (nv > 1)
		qsort(v, nv, sizeof(*v), td_size_cmp);
	*out = v;
	*n = nv;
	v = NULL;
out:
	free(v);
	git_revwalk_free(walk);
	git_commit_free(c);
	return rc;
}

int td_history_patch_id(char out[TD_HISTORY_ID_HEX], td_history_t *h, size_t i, td_error_t *err)
{
	struct td_history_impl *im = h->impl;
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_oid oid, pid;
	int rc = TD_OK;

	out[0] = '\0';
	if (i >= h->count)
		return td_error_set(err, TD_EINVAL, "no commit %zu in the history", i);
	if (im->patch_ids[i][0]) {
		memcpy(out, im->patch_ids[i], TD_HISTORY_ID_HEX);
		return TD_OK;
	}
	if (git_oid_fromstr(&oid, h->commits[i].id) || git_commit_lookup(&c, im->repo, &oid)) {
		rc = git_fail(err, "read commit", h->commits[i].id);
		goto out;
	}
	if ((rc = diff_with_parent(&diff, im->repo, c, HISTORY_DEFAULT_MAX_FILE_BYTES, h->commits[i].id, err)))
		goto out;
	if (git_diff_patchid(&pid, diff, NULL)) {
		rc = git_fail(err, "compute the patch id of", h->commits[i].id);
		goto out;
	}
	git_oid_tostr(im->patch_ids[i], TD_HISTORY_ID_HEX, &pid);
	memcpy(out, im->patch_ids[i], TD_HISTORY_ID_HEX);
out:
	git_diff_free(diff);
	git_commit_free(c);
	return rc;
}

/* ---- load / free --------------------------------------------------------- */

static void commit_release(td_history_commit_t *c)
{
	free(c->subject);
	free(c->message);
	free(c->author);
	for (size_t i = 0; i < c->npaths; i++)
		free(c->paths[i]);
	free(c->paths);
	for (size_t i = 0; i < c->nfiles; i++) {
		free(c->files[i].path);
		free(c->files[i].added);
		free(c->files[i].removed);
		free(c->files[i].added_trivial);
		free(c->files[i].removed_trivial);
	}
	free(c->files);
}

void td_history_free(td_history_t *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->count; i++)
		commit_release(&h->commits[i]);
	free(h->commits);
	for (size_t i = 0; i < h->ntips; i++)
		free(h->tips[i]);
	free(h->tips);
	free(h->repo);
	if (h->impl) {
		git_repository_free(h->impl->repo);
		free(h->impl->index);
		free(h->impl->touches);
		free(h->impl->by_id);
		free(h->impl->patch_ids);
		free(h->impl->merge_ids);
		free(h->impl->merges_by_id);
		if (h->impl->libgit2_ref)
			git_libgit2_shutdown();
		free(h->impl);
	}
	free(h);
}

int td_history_load(td_history_t **out, const char *spec, const char *base, const td_history_opts_t *opts,
		    td_error_t *err)
{
	td_history_opts_t dflt;
	td_history_t *h = NULL;
	char **tip_names = NULL;
	size_t ntip_names = 0, ntips = 0, count = 0;
	git_oid base_oid, *tips = NULL, *oids = NULL;
	pool_t pool;
	int rc = TD_OK;

	*out = NULL;
	if (!opts) {
		td_history_opts_init(&dflt);
		opts = &dflt;
	}
	if (!base || !*base)
		return td_error_set(err, TD_EINVAL, "history '%s' needs a base commit", spec);
	if (!(h = calloc(1, sizeof(*h))) || !(h->impl = calloc(1, sizeof(*h->impl)))) {
		free(h);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	if ((rc = split_spec(&h->repo, &tip_names, &ntip_names, spec, err)))
		goto out;
	if (git_libgit2_init() < 0) {
		rc = td_error_set(err, TD_EGIT, "unable to initialize libgit2");
		goto out;
	}
	h->impl->libgit2_ref = 1;
	if (git_repository_open_ext(&h->impl->repo, h->repo, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		rc = git_fail(err, "open repository", h->repo);
		goto out;
	}
	if ((rc = resolve(&base_oid, h->impl->repo, base, h->repo, err)))
		goto out;
	git_oid_tostr(h->base, sizeof(h->base), &base_oid);
	for (size_t i = 0; i < ntip_names; i++) {
		git_oid t;
		if ((rc = resolve(&t, h->impl->repo, tip_names[i], h->repo, err)))
			goto out;
		if (!git_oid_equal(&t, &base_oid) && git_graph_descendant_of(h->impl->repo, &t, &base_oid) != 1) {
			rc = td_error_set(err, TD_EINVAL, "history tip '%s' does not descend from the base '%s'",
					  tip_names[i], base);
			goto out;
		}
		if (add_tip(&tips, &ntips, &t)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (!ntip_names && (rc = tips_from_refs(&tips, &ntips, h->impl->repo, &base_oid, err)))
		goto out;
	if (ntips && !(h->tips = td_malloc_array(ntips, sizeof(*h->tips)))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ntips; i++) {
		if (!(h->tips[i] = malloc(TD_HISTORY_ID_HEX))) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
			goto out;
		}
		git_oid_tostr(h->tips[i], TD_HISTORY_ID_HEX, &tips[i]);
		h->ntips++;
	}
	if (h->ntips > 1)
		qsort(h->tips, h->ntips, sizeof(*h->tips), cmp_str);
	if (ntips && (rc = walk_range(&oids, &count, &h->impl->merge_ids, &h->impl->nmerges, h->impl->repo, &base_oid,
				      tips, ntips, err)))
		goto out;
	h->merges_skipped = h->impl->nmerges;
	if (count && (!(h->commits = calloc(count, sizeof(*h->commits))) ||
		      !(h->impl->patch_ids = calloc(count, sizeof(*h->impl->patch_ids))))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	h->count = count;
	memset(&pool, 0, sizeof(pool));
	pool.repo_path = h->repo;
	pool.oids = oids;
	pool.commits = h->commits;
	pool.count = count;
	pool.o = opts;
	pool.max_size = opts->max_file_bytes ? opts->max_file_bytes : HISTORY_DEFAULT_MAX_FILE_BYTES;
	if (count) {
		pthread_mutex_init(&pool.lock, NULL);
		rc = run_pool(&pool, opts->jobs, err);
		pthread_mutex_destroy(&pool.lock);
		if (rc)
			goto out;
	}
	rc = build_index(h, err);
out:
	for (size_t i = 0; i < ntip_names; i++)
		free(tip_names[i]);
	free(tip_names);
	free(tips);
	free(oids);
	if (rc) {
		td_history_free(h);
		return rc;
	}
	*out = h;
	return TD_OK;
}
