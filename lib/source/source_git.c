/* Git tree source: one revision of a repository, walked from the object
 * database with libgit2 (no checkout, no index, no work tree).
 *
 * Threads: libgit2 objects may be used by one thread at a time only
 * (libgit2's docs/threading.md). The walk (next) keeps its own repository
 * handle; readers, which may run on several worker threads at once, check
 * out a handle of their own from a small pool, opened on demand. Pack
 * files are shared between handles inside libgit2, under its own locks.
 * libgit2's error text is thread-local, so it is copied into err on the
 * thread that made the call. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include "internal.h"
#include "source_impl.h"

#ifdef GIT_OID_SHA1_SIZE
#define TD_GIT_RAW_OID_BYTES GIT_OID_SHA1_SIZE
#else
#define TD_GIT_RAW_OID_BYTES GIT_OID_RAWSZ
#endif
_Static_assert(TD_GIT_RAW_OID_BYTES == TD_GITOID_BYTES, "git blob ids are SHA-1");

/* Trees nest no deeper than this: a limit against hostile repositories. */
#define TD_GIT_MAX_DEPTH 4096
/* Reader handles opened at most; further readers wait for a free one. */
#define TD_GIT_POOL_MAX 64

typedef struct git_frame {
	git_tree *tree;
	size_t next_idx;
	size_t prefix_len;   /* bytes of walk_path that name this tree, with '/' */
} git_frame;

typedef struct git_source {
	char *open_path;     /* REPO as given, to open reader handles alike */
	git_repository *repo;/* the walk's handle: next() only */
	git_odb *odb;        /* of repo */
	git_frame *stack;
	size_t depth, stack_cap;
	char *walk_path;
	size_t walk_cap;

	pthread_mutex_t pool_lock;
	pthread_cond_t pool_cond;
	git_repository **pool_free; /* idle reader handles */
	size_t n_free, free_cap;
	size_t n_open;              /* reader handles in existence */
	size_t pool_max;
	int libgit2_ref;            /* holds one git_libgit2_init() */
	int pool_ready;
} git_source;

static const char *git_errmsg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

static int git_code(int gerr)
{
	switch (gerr) {
	case GIT_ENOTFOUND: return TD_ENOTFOUND;
	case GIT_EINVALIDSPEC: return TD_ENOTFOUND;
	case GIT_EAMBIGUOUS: return TD_EINVAL;
	default: return TD_EGIT;
	}
}

/* Split "REPO@REV" at an '@' whose left part exists as a path and whose
 * right part is not empty, trying the last '@' first (a repository path may
 * hold '@' too, and so may REV, e.g. "main@{1}"). Without one, REV = HEAD,
 * unless the whole does not exist either: then the last '@' splits it, so
 * that the error names the missing repository without the revision. */
static int split_where(const char *where, char **repo_out, char **rev_out)
{
	size_t len = strlen(where);
	struct stat st;

	*repo_out = *rev_out = NULL;
	for (size_t i = len; i-- > 0;) {
		char *repo;

		if (where[i] != '@' || i == 0 || i + 1 == len)
			continue;
		if (!(repo = td_strndup(where, i)))
			return TD_ENOMEM;
		if (stat(repo, &st) == 0) {
			*repo_out = repo;
			*rev_out = td_strndup(where + i + 1, len - i - 1);
			return *rev_out ? TD_OK : TD_ENOMEM;
		}
		free(repo);
	}
	if (stat(where, &st) != 0) {
		const char *at = strrchr(where, '@');
		if (at && at > where && at[1]) {
			*repo_out = td_strndup(where, (size_t)(at - where));
			*rev_out = td_strndup(at + 1, strlen(at + 1));
			return *repo_out && *rev_out ? TD_OK : TD_ENOMEM;
		}
	}
	*repo_out = td_strndup(where, len);
	*rev_out = td_strndup("HEAD", 4);
	return *repo_out && *rev_out ? TD_OK : TD_ENOMEM;
}

static int open_repo(git_repository **out, const char *path, td_error_t *err)
{
	int gerr = git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);

	if (!gerr)
		return TD_OK;
	*out = NULL;
	/* libgit2 1.5 knows SHA-1 object ids only; say so plainly. */
	if (strstr(git_errmsg(), "objectformat"))
		return td_error_set(err, TD_EUNSUPPORTED,
				    "unable to open repository '%s': %s (only SHA-1 repositories are supported)",
				    path, git_errmsg());
	return td_error_set(err, gerr == GIT_ENOTFOUND ? TD_ENOTFOUND : TD_EGIT,
			    "unable to open repository '%s': %s", path, git_errmsg());
}

/* "git:/abs/repo@<hex id>": the work tree for a normal repository, the git
 * directory for a bare one, without a trailing '/'. */
static int make_root(td_source_t *src, git_repository *repo, const git_oid *id)
{
	const char *dir = git_repository_is_bare(repo) ? git_repository_path(repo)
						       : git_repository_workdir(repo);
	char hex[GIT_OID_HEXSZ + 1];
	size_t dir_len, cap;

	if (!dir)
		dir = git_repository_path(repo);
	dir_len = strlen(dir);
	while (dir_len > 1 && dir[dir_len - 1] == '/')
		dir_len--;
	git_oid_tostr(hex, sizeof(hex), id);
	cap = dir_len + sizeof(hex) + 8;
	if (!(src->root = malloc(cap)))
		return TD_ENOMEM;
	snprintf(src->root, cap, "git:%.*s@%s", (int)dir_len, dir, hex);
	return TD_OK;
}

static int push_tree(git_source *gs, git_tree *tree, size_t prefix_len, td_error_t *err)
{
	void *stack = gs->stack;

	if (gs->depth >= TD_GIT_MAX_DEPTH) {
		git_tree_free(tree);
		return td_error_set(err, TD_EFORMAT, "trees nested deeper than %d levels in '%s'",
				    TD_GIT_MAX_DEPTH, gs->open_path);
	}
	if (td_grow(&stack, &gs->stack_cap, gs->depth + 1, sizeof(*gs->stack))) {
		git_tree_free(tree);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	gs->stack = stack;
	gs->stack[gs->depth].tree = tree;
	gs->stack[gs->depth].next_idx = 0;
	gs->stack[gs->depth].prefix_len = prefix_len;
	gs->depth++;
	return TD_OK;
}

static void git_source_close(td_source_t *src)
{
	git_source *gs = src->impl;

	while (gs->depth)
		git_tree_free(gs->stack[--gs->depth].tree);
	free(gs->stack);
	free(gs->walk_path);
	if (gs->pool_ready) {
		for (size_t i = 0; i < gs->n_free; i++)
			git_repository_free(gs->pool_free[i]);
		pthread_cond_destroy(&gs->pool_cond);
		pthread_mutex_destroy(&gs->pool_lock);
	}
	free(gs->pool_free);
	git_odb_free(gs->odb);
	git_repository_free(gs->repo);
	free(gs->open_path);
	/* libgit2 counts init/shutdown pairs under its own lock. */
	if (gs->libgit2_ref)
		git_libgit2_shutdown();
	free(gs);
	src->impl = NULL;
}

static int git_source_open(td_source_t *src, const char *where, td_error_t *err)
{
	git_source *gs;
	git_object *obj = NULL, *peeled = NULL;
	git_tree *tree = NULL;
	char *rev = NULL;
	int gerr, rc;

	if (!(gs = calloc(1, sizeof(*gs))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	src->impl = gs;
	if (git_libgit2_init() < 0) {
		rc = td_error_set(err, TD_EGIT, "unable to initialize libgit2: %s", git_errmsg());
		goto out;
	}
	gs->libgit2_ref = 1;
	if (pthread_mutex_init(&gs->pool_lock, NULL)) {
		rc = td_error_set(err, TD_ENOMEM, "unable to create a lock");
		goto out;
	}
	if (pthread_cond_init(&gs->pool_cond, NULL)) {
		pthread_mutex_destroy(&gs->pool_lock);
		rc = td_error_set(err, TD_ENOMEM, "unable to create a condition variable");
		goto out;
	}
	gs->pool_ready = 1;
	/* Without thread support in libgit2, reads must not overlap at all. */
	gs->pool_max = (git_libgit2_features() & GIT_FEATURE_THREADS) ? TD_GIT_POOL_MAX : 1;

	if (src->opts.repo && !*src->opts.repo) {
		rc = td_error_set(err, TD_EINVAL, "empty repository path for revision '%s'", where);
		goto out;
	}
	if (!*where) {
		rc = td_error_set(err, TD_EINVAL, "empty repository path in 'git:'");
		goto out;
	}
	if (src->opts.repo) {
		gs->open_path = td_strndup(src->opts.repo, strlen(src->opts.repo));
		rev = td_strndup(where, strlen(where));
		rc = gs->open_path && rev ? TD_OK : TD_ENOMEM;
	} else {
		rc = split_where(where, &gs->open_path, &rev);
	}
	if (rc) {
		rc = td_error_set(err, rc, "out of memory");
		goto out;
	}
	if ((rc = open_repo(&gs->repo, gs->open_path, err)))
		goto out;
	if ((gerr = git_repository_odb(&gs->odb, gs->repo))) {
		rc = td_error_set(err, TD_EGIT, "unable to open the object database of '%s': %s",
				  gs->open_path, git_errmsg());
		goto out;
	}
	if ((gerr = git_revparse_single(&obj, gs->repo, rev))) {
		rc = td_error_set(err, git_code(gerr), "unable to find revision '%s' in '%s': %s",
				  rev, gs->open_path, git_errmsg());
		goto out;
	}
	/* The root names the commit when there is one, else the tree. */
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0) {
		rc = make_root(src, gs->repo, git_object_id(peeled));
	} else if (git_object_peel(&peeled, obj, GIT_OBJECT_TREE) == 0) {
		rc = make_root(src, gs->repo, git_object_id(peeled));
	} else {
		rc = td_error_set(err, TD_EINVAL, "revision '%s' in '%s' is not a commit or a tree",
				  rev, gs->open_path);
		goto out;
	}
	if (rc) {
		rc = td_error_set(err, rc, "out of memory");
		goto out;
	}
	if ((gerr = git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE))) {
		rc = td_error_set(err, TD_EGIT, "unable to read the tree of '%s' in '%s': %s",
				  rev, gs->open_path, git_errmsg());
		goto out;
	}
	rc = push_tree(gs, tree, 0, err);
out:
	git_object_free(peeled);
	git_object_free(obj);
	free(rev);
	return rc;
}

/* A name that cannot be a path component of a checkout. */
static int unsafe_name(const char *name)
{
	return !*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/');
}

static int set_path(td_file_t *out, const git_source *gs, size_t prefix_len, const char *name)
{
	size_t name_len = strlen(name);

	if (!(out->path = malloc(prefix_len + name_len + 1)))
		return TD_ENOMEM;
	if (prefix_len)
		memcpy(out->path, gs->walk_path, prefix_len);
	memcpy(out->path + prefix_len, name, name_len + 1);
	out->path_len = prefix_len + name_len;
	return TD_OK;
}

/* Descend into a subtree: its prefix is the parent's plus "name/". */
static int enter_tree(git_source *gs, const git_tree_entry *te, size_t prefix_len, td_error_t *err)
{
	const char *name = git_tree_entry_name(te);
	size_t name_len = strlen(name), need;
	void *buf = gs->walk_path;
	git_tree *sub;

	if (git_tree_lookup(&sub, gs->repo, git_tree_entry_id(te)))
		return td_error_set(err, TD_EGIT, "unable to read tree '%.*s%s' in '%s': %s",
				    (int)prefix_len, gs->walk_path ? gs->walk_path : "", name,
				    gs->open_path, git_errmsg());
	need = prefix_len + name_len + 1;
	if (need < prefix_len || td_grow(&buf, &gs->walk_cap, need, 1)) {
		git_tree_free(sub);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	gs->walk_path = buf;
	memcpy(gs->walk_path + prefix_len, name, name_len);
	gs->walk_path[prefix_len + name_len] = '/';
	return push_tree(gs, sub, need, err);
}

static void fill_blob(git_source *gs, const git_tree_entry *te, td_file_t *out)
{
	const git_oid *id = git_tree_entry_id(te);
	git_object_t type;
	size_t size;

	out->type = TD_ENTRY_FILE;
	out->has_gitoid = 1;
	memcpy(out->gitoid, id->id, TD_GITOID_BYTES);
	/* The header alone: loose objects inflate a few bytes, packed ones
	 * (deltas too) read the size from the entry header. */
	if (git_odb_read_header(&size, &type, gs->odb, id) == 0)
		out->size_bytes = size;
	else
		git_error_clear(); /* read() will report a missing blob */
}

static int fill_symlink(git_source *gs, const git_tree_entry *te, td_file_t *out, td_error_t *err)
{
	const git_oid *id = git_tree_entry_id(te);
	git_blob *blob;
	size_t len;

	out->type = TD_ENTRY_SYMLINK;
	out->has_gitoid = 1;
	memcpy(out->gitoid, id->id, TD_GITOID_BYTES);
	if (git_blob_lookup(&blob, gs->repo, id))
		return td_error_set(err, TD_EGIT, "unable to read symlink '%s' in '%s': %s",
				    out->path, gs->open_path, git_errmsg());
	len = (size_t)git_blob_rawsize(blob);
	out->link_target = td_strndup(git_blob_rawcontent(blob), len);
	git_blob_free(blob);
	if (!out->link_target)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	out->link_len = len;
	out->size_bytes = len;
	/* A blob may hold a NUL; td_link_escapes reads up to it, which is
	 * as far as a checkout's symlink would go. */
	if (out->path && td_link_escapes(out->path, out->path_len, out->link_target) &&
	    !(out->skip_detail = td_strndup(TD_LINK_OUTSIDE, strlen(TD_LINK_OUTSIDE))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

static int fill_gitlink(const git_tree_entry *te, td_file_t *out, td_error_t *err)
{
	char hex[GIT_OID_HEXSZ + 1];

	out->type = TD_ENTRY_GITLINK;
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(te));
	if (!(out->link_target = td_strndup(hex, GIT_OID_HEXSZ)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	out->link_len = GIT_OID_HEXSZ;
	return TD_OK;
}

static int git_source_next(td_source_t *src, td_file_t *out, td_error_t *err)
{
	git_source *gs = src->impl;

	while (gs->depth) {
		git_frame *f = &gs->stack[gs->depth - 1];
		const git_tree_entry *te;
		git_filemode_t mode;
		size_t prefix_len = f->prefix_len;
		int rc;

		if (f->next_idx >= git_tree_entrycount(f->tree)) {
			git_tree_free(f->tree);
			gs->depth--;
			continue;
		}
		te = git_tree_entry_byindex(f->tree, f->next_idx++);
		mode = git_tree_entry_filemode(te);
		if (mode == GIT_FILEMODE_TREE && !unsafe_name(git_tree_entry_name(te))) {
			if ((rc = enter_tree(gs, te, prefix_len, err)))
				return rc;
			continue;
		}
		if (set_path(out, gs, prefix_len, git_tree_entry_name(te)))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		out->mode = (uint32_t)mode;
		if (unsafe_name(git_tree_entry_name(te))) {
			out->type = TD_ENTRY_SKIPPED;
			out->skip_reason = TD_SKIP_UNSAFE_PATH;
			return 1;
		}
		switch (mode) {
		case GIT_FILEMODE_BLOB:
		case GIT_FILEMODE_BLOB_EXECUTABLE:
			fill_blob(gs, te, out);
			rc = TD_OK;
			if (src->opts.max_file_size && out->size_bytes > src->opts.max_file_size) {
				out->type = TD_ENTRY_SKIPPED;
				out->skip_reason = TD_SKIP_TOO_LARGE;
			}
			break;
		case GIT_FILEMODE_LINK:
			rc = fill_symlink(gs, te, out, err);
			break;
		case GIT_FILEMODE_COMMIT:
			rc = fill_gitlink(te, out, err);
			break;
		default:
			out->type = TD_ENTRY_SKIPPED;
			out->skip_reason = TD_SKIP_UNSUPPORTED;
			rc = TD_OK;
			break;
		}
		if (rc) {
			td_file_release(out);
			return rc;
		}
		return 1;
	}
	return 0;
}

/* A reader handle for this thread: an idle one, a new one, or (at the
 * limit) the next one returned. */
static int pool_get(git_source *gs, git_repository **out, td_error_t *err)
{
	int rc;

	pthread_mutex_lock(&gs->pool_lock);
	while (!gs->n_free && gs->n_open >= gs->pool_max)
		pthread_cond_wait(&gs->pool_cond, &gs->pool_lock);
	if (gs->n_free) {
		*out = gs->pool_free[--gs->n_free];
		pthread_mutex_unlock(&gs->pool_lock);
		return TD_OK;
	}
	gs->n_open++;
	pthread_mutex_unlock(&gs->pool_lock);

	if ((rc = open_repo(out, gs->open_path, err))) {
		pthread_mutex_lock(&gs->pool_lock);
		gs->n_open--;
		pthread_cond_signal(&gs->pool_cond);
		pthread_mutex_unlock(&gs->pool_lock);
	}
	return rc;
}

static void pool_put(git_source *gs, git_repository *repo)
{
	void *buf;

	pthread_mutex_lock(&gs->pool_lock);
	buf = gs->pool_free;
	if (td_grow(&buf, &gs->free_cap, gs->n_free + 1, sizeof(*gs->pool_free)) == TD_OK) {
		gs->pool_free = buf;
		gs->pool_free[gs->n_free++] = repo;
	} else {
		git_repository_free(repo);
		gs->n_open--;
	}
	pthread_cond_signal(&gs->pool_cond);
	pthread_mutex_unlock(&gs->pool_lock);
}

static int git_source_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
			   const char **skip_reason, td_error_t *err)
{
	git_source *gs = src->impl;
	git_repository *repo;
	git_blob *blob = NULL;
	const unsigned char *data;
	uint64_t size, off;
	git_oid id;
	int rc;

	if (entry->type != TD_ENTRY_FILE || !entry->has_gitoid)
		return td_error_set(err, TD_EINVAL, "'%s' is not a file of '%s'", entry->path, src->root);
	memcpy(id.id, entry->gitoid, TD_GITOID_BYTES);
	if ((rc = pool_get(gs, &repo, err)))
		return rc;
	if (git_blob_lookup(&blob, repo, &id)) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &id);
		*skip_reason = TD_SKIP_UNREADABLE;
		rc = td_error_set(err, TD_EIO, "unable to read blob %s of '%s' in '%s': %s",
				  hex, entry->path, gs->open_path, git_errmsg());
		goto out;
	}
	data = git_blob_rawcontent(blob);
	size = (uint64_t)git_blob_rawsize(blob);
	for (off = 0; off < size;) {
		size_t n = size - off > TD_READ_BLOCK_BYTES ? TD_READ_BLOCK_BYTES : (size_t)(size - off);

		if (sink(ctx, data + off, n)) {
			rc = td_error_set(err, TD_ECANCELED, "reading '%s' stopped", entry->path);
			goto out;
		}
		off += n;
	}
out:
	git_blob_free(blob);
	pool_put(gs, repo);
	return rc;
}

const td_source_ops_t td_source_git_ops = {
	.kind = "git",
	.random_access = 1,
	.open = git_source_open,
	.next = git_source_next,
	.read = git_source_read,
	.close = git_source_close,
};
