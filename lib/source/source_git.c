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
#include <unistd.h>

#include <git2.h>
#include <git2/sys/repository.h>

#include "git_loose.h"
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
/* Loose blobs are streamed (git_loose.c); packed ones are read whole by
 * libgit2, which cannot stream them in 1.5. Those over this size are read
 * one at a time, so that memory grows with the largest of them, not with
 * the number of workers times it. */
#define TD_GIT_WHOLE_READ_BYTES (32u << 20)

/* An entry whose name occurs more than once in its tree (git never writes
 * one; a crafted tree can hold one): the name comes back once, skipped as a
 * duplicate, and none of its copies is read. */
enum { DUP_NONE = 0, DUP_FIRST = 1, DUP_LATER = 2 };

typedef struct git_frame {
	git_tree *tree;
	size_t next_idx;
	size_t prefix_len;   /* bytes of walk_path that name this tree, with '/' */
	unsigned char *dup;  /* DUP_* per entry; NULL when every name is unique */
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
	pthread_mutex_t big_lock;   /* held while a packed blob over TD_GIT_WHOLE_READ_BYTES is read */
	td_loose_dirs_t dirs;       /* object directories, for streaming loose blobs */
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

/* Give repo an object database whose loose objects are read by
 * git_loose.c, never by libgit2 (see git_loose.h); dirs as
 * td_loose_odb_new's. */
static int install_odb(git_repository *repo, td_loose_dirs_t *dirs, const char *path, td_error_t *err)
{
	git_buf objects = GIT_BUF_INIT;
	git_odb *odb = NULL;
	int rc;

	if (git_repository_item_path(&objects, repo, GIT_REPOSITORY_ITEM_OBJECTS))
		return td_error_set(err, TD_EGIT, "unable to find the objects of '%s': %s", path, git_errmsg());
	rc = td_loose_odb_new(&odb, dirs, objects.ptr, err);
	git_buf_dispose(&objects);
	if (rc)
		return rc;
	if (git_repository_set_odb(repo, odb))
		rc = td_error_set(err, TD_EGIT, "unable to set the object database of '%s': %s", path,
				  git_errmsg());
	git_odb_free(odb); /* the repository holds its own reference */
	return rc;
}

/* rev (may be NULL) is named apart from the path when the repository
 * cannot be opened: "repository '/x/repo' for revision 'v1'". */
static int open_repo(git_repository **out, td_loose_dirs_t *dirs, const char *path, const char *rev,
		     td_error_t *err)
{
	int gerr = git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL), rc;

	if (!gerr) {
		if ((rc = install_odb(*out, dirs, path, err))) {
			git_repository_free(*out);
			*out = NULL;
		}
		return rc;
	}
	*out = NULL;
	/* libgit2 1.5 knows SHA-1 object ids only; say so plainly. */
	if (strstr(git_errmsg(), "objectformat"))
		return td_error_set(err, TD_EUNSUPPORTED,
				    "unable to open repository '%s': %s (only SHA-1 repositories are supported)",
				    path, git_errmsg());
	return td_error_set(err, gerr == GIT_ENOTFOUND ? TD_ENOTFOUND : TD_EGIT,
			    "unable to open repository '%s'%s%s%s: %s", path, rev ? " for revision '" : "",
			    rev ? rev : "", rev ? "'" : "", git_errmsg());
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

/* A name as a path component sees it: up to its first '/' (an unsafe
 * name "a/b" would come back as the path of an "a" beside it). */
static size_t name_key_len(const char *name)
{
	return strcspn(name, "/");
}

typedef struct name_at {
	const char *name;
	size_t len, idx;
} name_at;

static int name_at_cmp(const void *pa, const void *pb)
{
	const name_at *a = pa, *b = pb;
	int c = td_path_cmp(a->name, a->len, b->name, b->len);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Mark the entries of tree whose names repeat; *out NULL when none do.
 * Names already in byte order take one pass; others (git's own order puts
 * a subtree "a" after a blob "a.c", as it sorts it as "a/") are sorted
 * here; the marks are kept only when a name repeats. */
static int find_duplicates(unsigned char **out, const git_tree *tree)
{
	size_t n = git_tree_entrycount(tree);
	name_at *names;
	unsigned char *dup;
	int sorted = 1;

	*out = NULL;
	for (size_t i = 1; i < n && sorted; i++) {
		const char *a = git_tree_entry_name(git_tree_entry_byindex(tree, i - 1));
		const char *b = git_tree_entry_name(git_tree_entry_byindex(tree, i));

		sorted = td_path_cmp(a, name_key_len(a), b, name_key_len(b)) < 0;
	}
	if (sorted)
		return TD_OK;
	if (!(names = td_malloc_array(n, sizeof(*names))))
		return TD_ENOMEM;
	if (!(dup = calloc(n, 1))) {
		free(names);
		return TD_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		names[i].name = git_tree_entry_name(git_tree_entry_byindex(tree, i));
		names[i].len = name_key_len(names[i].name);
		names[i].idx = i;
	}
	qsort(names, n, sizeof(*names), name_at_cmp);
	for (size_t i = 1; i < n; i++) {
		if (td_path_cmp(names[i - 1].name, names[i - 1].len, names[i].name, names[i].len))
			continue;
		if (!dup[names[i - 1].idx])
			dup[names[i - 1].idx] = DUP_FIRST;
		dup[names[i].idx] = DUP_LATER;
	}
	free(names);
	for (size_t i = 0; i < n; i++)
		if (dup[i]) {
			*out = dup;
			return TD_OK;
		}
	free(dup);
	return TD_OK;
}

static int push_tree(git_source *gs, git_tree *tree, size_t prefix_len, td_error_t *err)
{
	void *stack = gs->stack;
	unsigned char *dup;

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
	if (find_duplicates(&dup, tree)) {
		git_tree_free(tree);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	gs->stack[gs->depth].dup = dup;
	gs->stack[gs->depth].tree = tree;
	gs->stack[gs->depth].next_idx = 0;
	gs->stack[gs->depth].prefix_len = prefix_len;
	gs->depth++;
	return TD_OK;
}

static void git_source_close(td_source_t *src)
{
	git_source *gs = src->impl;

	while (gs->depth) {
		gs->depth--;
		git_tree_free(gs->stack[gs->depth].tree);
		free(gs->stack[gs->depth].dup);
	}
	free(gs->stack);
	free(gs->walk_path);
	if (gs->pool_ready) {
		for (size_t i = 0; i < gs->n_free; i++)
			git_repository_free(gs->pool_free[i]);
		pthread_cond_destroy(&gs->pool_cond);
		pthread_mutex_destroy(&gs->pool_lock);
		pthread_mutex_destroy(&gs->big_lock);
	}
	td_loose_dirs_release(&gs->dirs);
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
	if (pthread_mutex_init(&gs->big_lock, NULL)) {
		pthread_cond_destroy(&gs->pool_cond);
		pthread_mutex_destroy(&gs->pool_lock);
		rc = td_error_set(err, TD_ENOMEM, "unable to create a lock");
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
	if (!rc && (src->opts.repo || strlen(gs->open_path) != strlen(where)) &&
	    !(src->revision = td_strndup(rev, strlen(rev))))
		rc = TD_ENOMEM;
	if (rc) {
		rc = td_error_set(err, rc, "out of memory");
		goto out;
	}
	if ((rc = open_repo(&gs->repo, &gs->dirs, gs->open_path, rev, err)))
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

#define TD_GIT_DUPLICATE_DETAIL "the name occurs more than once in its tree"

static int skip_duplicate(git_source *gs, const git_tree_entry *te, size_t prefix_len, td_file_t *out,
			  td_error_t *err)
{
	const char *name = git_tree_entry_name(te);
	char *key = td_strndup(name, name_key_len(name));

	if (!key || set_path(out, gs, prefix_len, key) ||
	    !(out->skip_detail = td_strndup(TD_GIT_DUPLICATE_DETAIL, strlen(TD_GIT_DUPLICATE_DETAIL)))) {
		free(key);
		td_file_release(out);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	free(key);
	out->type = TD_ENTRY_SKIPPED;
	out->skip_reason = TD_SKIP_DUPLICATE;
	return 1;
}

static int git_source_next(td_source_t *src, td_file_t *out, td_error_t *err)
{
	git_source *gs = src->impl;

	while (gs->depth) {
		git_frame *f = &gs->stack[gs->depth - 1];
		const git_tree_entry *te;
		git_filemode_t mode;
		size_t prefix_len = f->prefix_len;
		int rc, dup;

		if (f->next_idx >= git_tree_entrycount(f->tree)) {
			git_tree_free(f->tree);
			free(f->dup);
			gs->depth--;
			continue;
		}
		/* Subtrees count too: a bomb of trees that name one subtree
		 * ten times over lists nothing, but walks 10^9 of them. */
		if ((rc = td_source_count(src, err)))
			return rc;
		dup = f->dup ? f->dup[f->next_idx] : DUP_NONE;
		te = git_tree_entry_byindex(f->tree, f->next_idx++);
		mode = git_tree_entry_filemode(te);
		if (dup == DUP_LATER)
			continue;
		if (dup == DUP_FIRST)
			return skip_duplicate(gs, te, prefix_len, out, err);
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

	if ((rc = open_repo(out, NULL, gs->open_path, NULL, err))) {
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

typedef struct blob_stream {
	const td_file_t *entry;
	td_sink_fn sink;
	void *ctx;
} blob_stream;

static int blob_header(void *ctx, const td_loose_header_t *h)
{
	const blob_stream *bs = ctx;

	if (h->type != GIT_OBJECT_BLOB)
		return TD_EFORMAT;
	return h->size == bs->entry->size_bytes ? 0 : TD_EIO;
}

static int blob_body(void *ctx, const void *data, size_t len)
{
	const blob_stream *bs = ctx;

	return bs->sink(bs->ctx, data, len);
}

/* The blob from a loose object, streamed: 1 when there is none (it is
 * packed), else as read(). */
static int read_loose(git_source *gs, const td_file_t *entry, const git_oid *id, td_sink_fn sink, void *ctx,
		      const char **skip_reason, td_error_t *err)
{
	char hex[GIT_OID_HEXSZ + 1];
	blob_stream bs = { entry, sink, ctx };
	td_error_t e = { 0 };
	int fd = -1, rc;

	git_oid_tostr(hex, sizeof(hex), id);
	for (size_t i = 0; i < gs->dirs.count && fd < 0; i++) {
		fd = td_loose_open(gs->dirs.dir[i], id);
		if (fd < 0 && errno != ENOENT && errno != ENOTDIR) {
			*skip_reason = TD_SKIP_UNREADABLE;
			return td_error_set(err, TD_EIO, "unable to read blob %s of '%s' in '%s': %s", hex,
					    entry->path, gs->open_path,
					    errno == EINVAL ? "not a regular file" : strerror(errno));
		}
	}
	if (fd < 0)
		return 1;
	/* The sink gets a block at a time: no blob is held whole. */
	rc = td_loose_inflate(fd, id->id, blob_header, blob_body, &bs, &e);
	close(fd);
	if (!rc)
		return TD_OK;
	if (rc == TD_ECANCELED || rc == TD_ENOMEM)
		return td_error_set(err, rc, "reading '%s' stopped", entry->path);
	if (rc == TD_EIO && !e.msg[0]) {
		*skip_reason = TD_SKIP_CHANGED;
		return td_error_set(err, TD_EIO, "'%s' changed after it was listed", entry->path);
	}
	*skip_reason = TD_SKIP_UNREADABLE;
	return td_error_set(err, TD_EIO, "unable to read blob %s of '%s' in '%s': %s", hex, entry->path,
			    gs->open_path, e.msg[0] ? e.msg : "not a blob");
}

/* A packed blob, read whole by libgit2 and fed in blocks. */
static int read_packed(git_source *gs, const td_file_t *entry, const git_oid *id, td_sink_fn sink, void *ctx,
		       const char **skip_reason, td_error_t *err)
{
	int big = entry->size_bytes > TD_GIT_WHOLE_READ_BYTES;
	git_repository *repo;
	git_blob *blob = NULL;
	const unsigned char *data;
	uint64_t size, off;
	int rc;

	if ((rc = pool_get(gs, &repo, err)))
		return rc;
	if (big)
		pthread_mutex_lock(&gs->big_lock);
	if (git_blob_lookup(&blob, repo, id)) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), id);
		*skip_reason = TD_SKIP_UNREADABLE;
		rc = td_error_set(err, TD_EIO, "unable to read blob %s of '%s' in '%s': %s",
				  hex, entry->path, gs->open_path, git_errmsg());
		goto out;
	}
	data = git_blob_rawcontent(blob);
	size = (uint64_t)git_blob_rawsize(blob);
	if (size != entry->size_bytes) {
		*skip_reason = TD_SKIP_CHANGED;
		rc = td_error_set(err, TD_EIO, "'%s' changed after it was listed", entry->path);
		goto out;
	}
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
	if (big)
		pthread_mutex_unlock(&gs->big_lock);
	pool_put(gs, repo);
	return rc;
}

static int git_source_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
			   const char **skip_reason, td_error_t *err)
{
	git_source *gs = src->impl;
	git_oid id;
	int rc;

	if (entry->type != TD_ENTRY_FILE || !entry->has_gitoid)
		return td_error_set(err, TD_EINVAL, "'%s' is not a file of '%s'", entry->path, src->root);
	memcpy(id.id, entry->gitoid, TD_GITOID_BYTES);
	rc = read_loose(gs, entry, &id, sink, ctx, skip_reason, err);
	if (rc == 1)
		rc = read_packed(gs, entry, &id, sink, ctx, skip_reason, err);
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

int td_git_strict_hash(int on, td_error_t *err)
{
	if (git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, on ? 1 : 0) < 0)
		return td_error_set(err, TD_EGIT, "unable to set libgit2's object hash check");
	return TD_OK;
}
