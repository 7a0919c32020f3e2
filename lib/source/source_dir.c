/* Directory tree source.
 *
 * The walk works on directory fds (openat, fdopendir, fstatat with
 * AT_SYMLINK_NOFOLLOW), never on full paths, so depth and path length are
 * bounded only by memory and TD_DIR_PATH_MAX_BYTES, and it never follows a
 * symlink: a symlink to a directory is recorded, not descended, and symlink
 * loops cost nothing. It keeps an explicit stack, not recursion, and at most
 * TD_DIR_OPEN_FDS directory fds open: deeper ancestors are closed once their
 * entries are read and reopened through ".." on the way back up.
 *
 * Files are read relative to the root fd without following a symlink in any
 * component (openat2 with RESOLVE_NO_SYMLINKS, or one O_NOFOLLOW open per
 * component), so a directory swapped for a symlink after the listing cannot
 * send a read outside the tree. A file swapped for a FIFO or a device is
 * opened O_NONBLOCK | O_NOCTTY and turned down by fstat, so it cannot hang
 * the scan; one swapped for another file is caught by its dev/inode.
 *
 * Each directory is listed whole and sorted before any of it is returned,
 * a subdirectory's name taken as name + "/", and a subdirectory is walked
 * at its place in that order: entries come in byte order of their paths
 * (td_tree_sort's order), the same on every file system. Entries named
 * ".git" are left out at any depth (see name_is_skipped). */
#define _DEFAULT_SOURCE /* syscall(), DT_DIR */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>
#if defined(SYS_openat2) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define TD_HAVE_OPENAT2 1
#endif
#endif
#endif

#include "source_dir.h"
#include "source_impl.h"
#include "internal.h"

/* Directory fds the walk keeps open, at most (plus the root fd). */
#define TD_DIR_OPEN_FDS 16
/* Longest path the walk builds; a directory whose entries could be longer
 * comes back as dir_unreadable. Far beyond PATH_MAX, which the walk and the
 * reads do not need. */
#define TD_DIR_PATH_MAX_BYTES (1024 * 1024)
/* Longest symlink target read (Linux allows PATH_MAX - 1). */
#define TD_DIR_LINK_MAX_BYTES (64 * 1024)
/* The names of one directory. */
#define TD_DIR_NAMES_MAX_BYTES ((size_t)256 * 1024 * 1024)
/* Longest error text taken from strerror_r. */
#define TD_DIR_ERRTEXT_BYTES 128

/* One directory on the walk's stack. */
struct dir_frame {
	int fd;            /* -1 while closed to bound the fds in use */
	DIR *dir;          /* when fd came from fdopendir: owns fd */
	int listed;        /* names[] holds the listing */
	char *names;       /* the listing: each a byte (1: a directory), the name, a NUL */
	size_t names_len, names_cap;
	char **sorted;     /* into names, in walk order */
	size_t sorted_count, sorted_pos;
	dev_t dev;
	ino_t ino;
	size_t path_len;   /* the directory's path is walk.path[0..path_len) */
};

struct dir_walk {
	int root_fd;       /* O_DIRECTORY; read() opens files relative to it */
	int use_openat2;   /* fixed at open: read() runs on many threads */
	int started;
	struct dir_frame *stack;
	size_t depth, stack_cap;
	char *path;        /* path of the entry being built */
	size_t path_cap;
};

static const char *errtext(int e, char *buf, size_t len)
{
	/* XSI strerror_r: strerror() need not be thread-safe and read() runs
	 * on worker threads. */
	if (strerror_r(e, buf, len) != 0)
		snprintf(buf, len, "error %d", e);
	return buf;
}

static int set_errno_error(td_error_t *err, int code, const char *what, const char *path, int e)
{
	char buf[TD_DIR_ERRTEXT_BYTES];
	return td_error_set(err, code, "unable to %s '%s': %s", what, path, errtext(e, buf, sizeof(buf)));
}

/* Errors of this run, not properties of the tree: out of file descriptors
 * or of kernel memory. They end the scan (exit 2) rather than being
 * recorded as dir_unreadable or unreadable, which would store a tree with
 * a hole that another run would not have. */
static int is_run_error(int e)
{
	return e == EMFILE || e == ENFILE || e == ENOMEM || e == ENOBUFS;
}

static void frame_close_fd(struct dir_frame *f)
{
	if (f->dir)
		closedir(f->dir);
	else if (f->fd >= 0)
		close(f->fd);
	f->dir = NULL;
	f->fd = -1;
}

static void frame_release(struct dir_frame *f)
{
	frame_close_fd(f);
	free(f->names);
	free(f->sorted);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* Put "<dir path>/<name>" (or just name at the root) in w->path; returns
 * its length in *out_len. */
static int path_build(struct dir_walk *w, size_t dir_len, const char *name, size_t name_len, size_t *out_len)
{
	size_t len = dir_len + (dir_len ? 1 : 0) + name_len;

	if (len > TD_DIR_PATH_MAX_BYTES)
		return TD_ENOMEM;
	if (td_grow((void **)&w->path, &w->path_cap, len + 1, 1))
		return TD_ENOMEM;
	if (dir_len)
		w->path[dir_len++] = '/';
	memcpy(w->path + dir_len, name, name_len);
	w->path[len] = '\0';
	*out_len = len;
	return TD_OK;
}

static int entry_set_path(td_file_t *out, const struct dir_walk *w, size_t len)
{
	out->path = td_strndup(w->path, len);
	if (!out->path)
		return TD_ENOMEM;
	out->path_len = len;
	return TD_OK;
}

static int64_t mtime_ns_of(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + (int64_t)st->st_mtim.tv_nsec;
}

static void entry_set_stat(td_file_t *out, const struct stat *st)
{
	out->size_bytes = st->st_size > 0 ? (uint64_t)st->st_size : 0;
	out->mtime_ns = mtime_ns_of(st);
	out->ino = (uint64_t)st->st_ino;
	out->dev = (uint64_t)st->st_dev;
}

/* A skipped entry at w->path[0..len); detail is strerror text or NULL. */
static int entry_skipped(td_file_t *out, const struct dir_walk *w, size_t len, const char *reason,
			 const char *detail, td_error_t *err)
{
	out->type = TD_ENTRY_SKIPPED;
	out->skip_reason = reason;
	if (entry_set_path(out, w, len) ||
	    (detail && !(out->skip_detail = td_strndup(detail, strlen(detail))))) {
		td_file_release(out);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	return 1;
}

static int entry_skipped_errno(td_file_t *out, const struct dir_walk *w, size_t len, const char *reason,
			       int e, td_error_t *err)
{
	char buf[TD_DIR_ERRTEXT_BYTES];

	if (is_run_error(e))
		return td_error_set(err, TD_EIO, "unable to read '%.*s': %s", (int)len, w->path,
				    errtext(e, buf, sizeof(buf)));
	return entry_skipped(out, w, len, reason, errtext(e, buf, sizeof(buf)), err);
}

/* Read the target of symlink `name` in parent_fd into out. Returns 0, or an
 * errno value (ENAMETOOLONG for targets over TD_DIR_LINK_MAX_BYTES). */
static int read_link(td_file_t *out, int parent_fd, const char *name, const struct stat *st)
{
	size_t cap = st->st_size > 0 && st->st_size < TD_DIR_LINK_MAX_BYTES ? (size_t)st->st_size + 1 : 256;
	char *buf = NULL, *p;
	ssize_t n;

	for (;;) {
		if (!(p = realloc(buf, cap))) {
			free(buf);
			return ENOMEM;
		}
		buf = p;
		n = readlinkat(parent_fd, name, buf, cap);
		if (n < 0) {
			int e = errno;
			free(buf);
			return e;
		}
		if ((size_t)n < cap)
			break;
		/* Filled the buffer: the target may be longer (or grew). */
		if (cap >= TD_DIR_LINK_MAX_BYTES) {
			free(buf);
			return ENAMETOOLONG;
		}
		cap = cap * 2 > TD_DIR_LINK_MAX_BYTES ? TD_DIR_LINK_MAX_BYTES : cap * 2;
	}
	buf[n] = '\0';
	out->link_target = buf;
	out->link_len = (size_t)n;
	return 0;
}

/* The entry for a non-directory `name` of directory parent_fd, whose path
 * is w->path[0..len). Returns 1 with *out filled, 0 if it vanished, or a
 * negative code. */
static int entry_from_stat(struct dir_walk *w, const td_source_opts_t *opts, int parent_fd, const char *name,
			   size_t len, const struct stat *st, td_file_t *out, td_error_t *err)
{
	int e;

	if (S_ISREG(st->st_mode)) {
		entry_set_stat(out, st);
		out->mode = (st->st_mode & S_IXUSR) ? 0100755 : 0100644;
		if (opts->max_file_size && out->size_bytes > opts->max_file_size)
			return entry_skipped(out, w, len, TD_SKIP_TOO_LARGE, NULL, err);
		out->type = TD_ENTRY_FILE;
		if (entry_set_path(out, w, len))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		return 1;
	}
	if (S_ISLNK(st->st_mode)) {
		e = read_link(out, parent_fd, name, st);
		if (e == ENOENT)
			return 0;
		if (e == ENOMEM)
			return td_error_set(err, TD_ENOMEM, "out of memory");
		if (e)
			return entry_skipped_errno(out, w, len, TD_SKIP_UNREADABLE, e, err);
		entry_set_stat(out, st);
		out->size_bytes = out->link_len;
		out->mode = 0120000;
		out->type = TD_ENTRY_SYMLINK;
		if (entry_set_path(out, w, len) ||
		    (td_link_escapes(out->path, out->path_len, out->link_target) &&
		     !(out->skip_detail = td_strndup(TD_LINK_OUTSIDE, strlen(TD_LINK_OUTSIDE))))) {
			td_file_release(out);
			return td_error_set(err, TD_ENOMEM, "out of memory");
		}
		return 1;
	}
	/* Special files are recorded, never opened: opening a FIFO blocks and
	 * opening a device can have side effects. */
	entry_set_stat(out, st);
	out->size_bytes = 0;
	if (S_ISFIFO(st->st_mode))
		return entry_skipped(out, w, len, TD_SKIP_FIFO, NULL, err);
	if (S_ISSOCK(st->st_mode))
		return entry_skipped(out, w, len, TD_SKIP_SOCKET, NULL, err);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return entry_skipped(out, w, len, TD_SKIP_DEVICE, NULL, err);
	return entry_skipped(out, w, len, TD_SKIP_UNSUPPORTED, NULL, err);
}

static int stack_push(struct dir_walk *w, int fd, DIR *dir, const struct stat *st, size_t path_len,
		      td_error_t *err)
{
	struct dir_frame *f;

	if (td_grow((void **)&w->stack, &w->stack_cap, w->depth + 1, sizeof(*w->stack)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	f = &w->stack[w->depth++];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->dir = dir;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->path_len = path_len;
	/* Open fds are the top frames; the one just below them holds its
	 * listing in memory, so it can go and come back through "..". */
	if (w->depth > TD_DIR_OPEN_FDS)
		frame_close_fd(&w->stack[w->depth - 1 - TD_DIR_OPEN_FDS]);
	return TD_OK;
}

/* Names of the walk that are never entries. ".git" is not part of the
 * tree: skipping it (directory, gitfile or symlink, at any depth) makes a
 * scan of a checkout match a scan of its revision and of `git archive`. */
static int name_is_skipped(const char *name)
{
	return (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) || !strcmp(name, ".git");
}

/* Open directory `name` of parent_fd for the walk, without following a symlink.
 * Returns an fd or -1 with errno. */
static int open_dir_at(int parent_fd, const char *name)
{
	return openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

static int same_dir(int fd, const struct dir_frame *f)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == f->dev && st.st_ino == f->ino;
}

/* Reopen stack[idx] by its path from the nearest open ancestor (or the
 * root), one O_NOFOLLOW component at a time. Returns an fd or -1. */
static int reopen_by_path(struct dir_walk *w, size_t idx)
{
	char name[NAME_MAX + 1];
	size_t from = idx, i;
	int fd;

	while (from > 0 && w->stack[from].fd < 0)
		from--;
	if (w->stack[from].fd >= 0 && from < idx) {
		fd = dup(w->stack[from].fd);
	} else {
		fd = openat(w->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		from = 0;
	}
	for (i = from + 1; fd >= 0 && i <= idx; i++) {
		size_t start = w->stack[i - 1].path_len ? w->stack[i - 1].path_len + 1 : 0;
		size_t len = w->stack[i].path_len - start;
		int nfd = -1;

		if (len < sizeof(name)) {
			memcpy(name, w->path + start, len);
			name[len] = '\0';
			nfd = open_dir_at(fd, name);
		}
		close(fd);
		fd = nfd;
	}
	if (fd >= 0 && !same_dir(fd, &w->stack[idx])) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Make stack[idx] usable again, from its open child fd. */
static int frame_reopen(struct dir_walk *w, size_t idx, int child_fd)
{
	struct dir_frame *f = &w->stack[idx];
	int fd = openat(child_fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && !same_dir(fd, f)) {
		/* Moved during the scan: ".." is somewhere else now. */
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		fd = reopen_by_path(w, idx);
	if (fd < 0)
		return -1;
	f->fd = fd;
	f->dir = NULL;
	return 0;
}

static int walk_start(struct dir_walk *w, const char *root, td_error_t *err)
{
	struct stat st;
	DIR *dir;
	int fd, rc;

	fd = openat(w->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return set_errno_error(err, TD_EIO, "open directory", root, errno);
	if (fstat(fd, &st) || !(dir = fdopendir(fd))) {
		int e = errno;
		close(fd);
		return set_errno_error(err, TD_EIO, "read directory", root, e);
	}
	rc = stack_push(w, dirfd(dir), dir, &st, 0, err);
	if (rc)
		closedir(dir);
	return rc;
}

/* Names in walk order: a directory's name compares as name + "/". */
static int name_order(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a, *y = *(const unsigned char *const *)b;
	int x_dir = x[0], y_dir = y[0];

	for (x++, y++; *x && *x == *y; x++, y++)
		;
	return (*x ? *x : x_dir ? '/' : 0) - (*y ? *y : y_dir ? '/' : 0);
}

/* Whether the entry is a directory, as far as the listing tells. */
static int listed_as_dir(int dir_fd, const struct dirent *de)
{
	struct stat st;

#ifdef DT_DIR
	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
#endif
	return fstatat(dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/* List the top directory and sort it. Returns 0, 1 with a dir_unreadable
 * entry when readdir failed part way (the names read before stay), or a
 * negative code (any failure at the root). */
static int frame_list(td_source_t *src, td_file_t *out, td_error_t *err)
{
	struct dir_walk *w = src->impl;
	struct dir_frame *f = &w->stack[w->depth - 1];
	struct dirent *de;
	size_t count = 0, pos;
	int e;

	f->listed = 1;
	for (;;) {
		size_t name_len, need;

		errno = 0;
		if (!(de = readdir(f->dir))) {
			e = errno;
			break;
		}
		if (name_is_skipped(de->d_name))
			continue;
		name_len = strlen(de->d_name);
		need = f->names_len + name_len + 2;
		if (need > TD_DIR_NAMES_MAX_BYTES || td_grow((void **)&f->names, &f->names_cap, need, 1))
			return td_error_set(err, TD_ENOMEM, "out of memory");
		f->names[f->names_len] = (char)listed_as_dir(f->fd, de);
		memcpy(f->names + f->names_len + 1, de->d_name, name_len + 1);
		f->names_len = need;
		count++;
	}
	if (e && w->depth == 1)
		return set_errno_error(err, TD_EIO, "read directory", src->root, e);
	if (count && !(f->sorted = malloc(count * sizeof(*f->sorted))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	for (pos = 0; pos < f->names_len; pos += strlen(f->names + pos + 1) + 2)
		f->sorted[f->sorted_count++] = f->names + pos;
	if (count)
		qsort(f->sorted, count, sizeof(*f->sorted), name_order);
	if (e)
		return entry_skipped_errno(out, w, f->path_len, TD_SKIP_DIR_UNREADABLE, e, err);
	return 0;
}

/* Enter subdirectory `name` of the top directory: push it, or return 1
 * with a dir_unreadable entry, or 0 if it vanished. */
static int walk_descend(td_source_t *src, const char *name, td_file_t *out, td_error_t *err)
{
	struct dir_walk *w = src->impl;
	struct dir_frame *top = &w->stack[w->depth - 1];
	size_t name_len = strlen(name), len;
	struct stat st;
	DIR *dir;
	int fd, rc;

	if (path_build(w, top->path_len, name, name_len, &len))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	/* Every path below a directory must fit in TD_DIR_PATH_MAX_BYTES. */
	if (len > TD_DIR_PATH_MAX_BYTES - NAME_MAX - 1)
		return entry_skipped(out, w, len, TD_SKIP_DIR_UNREADABLE, "path too long", err);
	fd = open_dir_at(top->fd, name);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT)
			return 0;
		if ((e == ENOTDIR || e == ELOOP) &&
		    fstatat(top->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
			/* Replaced by something else since the listing. */
			return entry_from_stat(w, &src->opts, top->fd, name, len, &st, out, err);
		return entry_skipped_errno(out, w, len, TD_SKIP_DIR_UNREADABLE, e, err);
	}
	if (fstat(fd, &st) || !(dir = fdopendir(fd))) {
		int e = errno;
		close(fd);
		return entry_skipped_errno(out, w, len, TD_SKIP_DIR_UNREADABLE, e, err);
	}
	rc = stack_push(w, fd, dir, &st, len, err);
	if (rc)
		closedir(dir);
	return rc;
}

/* Take the top directory's next name. Returns 1 with *out filled, 0 when
 * there was nothing to return (a subdirectory entered, a vanished name),
 * or a negative code. */
static int walk_next_name(td_source_t *src, td_file_t *out, td_error_t *err)
{
	struct dir_walk *w = src->impl;
	struct dir_frame *top = &w->stack[w->depth - 1];
	const char *name = top->sorted[top->sorted_pos++];
	struct stat st;
	size_t len;
	int rc;

	if ((rc = td_source_count(src, err)))
		return rc;
	if (name[0])
		return walk_descend(src, name + 1, out, err);
	name++;
	if (path_build(w, top->path_len, name, strlen(name), &len))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (fstatat(top->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		int e = errno;
		if (e == ENOENT)
			return 0; /* gone since readdir: not part of the tree */
		return entry_skipped_errno(out, w, len, TD_SKIP_UNREADABLE, e, err);
	}
	if (S_ISDIR(st.st_mode))
		return walk_descend(src, name, out, err);
	return entry_from_stat(w, &src->opts, top->fd, name, len, &st, out, err);
}

/* Leave the top directory, done with. The parent's fd may have been closed
 * to bound the fds: reopen it, or report it dir_unreadable (1). */
static int walk_ascend(td_source_t *src, td_file_t *out, td_error_t *err)
{
	struct dir_walk *w = src->impl;
	struct dir_frame *top = &w->stack[w->depth - 1];
	int rc = 0;

	if (w->depth >= 2 && w->stack[w->depth - 2].fd < 0 &&
	    frame_reopen(w, w->depth - 2, top->fd) < 0) {
		struct dir_frame *parent = &w->stack[w->depth - 2];
		if (w->depth == 2)
			rc = td_error_set(err, TD_EIO, "unable to reopen directory '%s': it moved during the scan",
					  src->root);
		else
			rc = entry_skipped(out, w, parent->path_len, TD_SKIP_DIR_UNREADABLE,
					   "moved during the scan", err);
		parent->sorted_pos = parent->sorted_count;
	}
	frame_release(top);
	w->depth--;
	return rc;
}

static int dir_next(td_source_t *src, td_file_t *out, td_error_t *err)
{
	struct dir_walk *w = src->impl;
	int rc;

	if (!w->started) {
		w->started = 1;
		if ((rc = walk_start(w, src->root, err)) < 0)
			return rc;
	}
	while (w->depth > 0) {
		struct dir_frame *top = &w->stack[w->depth - 1];

		if (!top->listed)
			rc = frame_list(src, out, err);
		else if (top->sorted_pos < top->sorted_count)
			rc = walk_next_name(src, out, err);
		else
			rc = walk_ascend(src, out, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A relative path of plain names: no leading '/', no empty, "." or ".."
 * component. Entries from next() always are; this guards other callers. */
static int path_is_plain(const char *path, size_t len)
{
	size_t i = 0;

	if (!len || strlen(path) != len)
		return 0;
	while (i <= len) {
		size_t j = i;
		while (j < len && path[j] != '/')
			j++;
		if (j == i || (j - i == 1 && path[i] == '.') ||
		    (j - i == 2 && path[i] == '.' && path[i + 1] == '.'))
			return 0;
		i = j + 1;
	}
	return 1;
}

#define TD_DIR_READ_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* Open path (plain, relative to root_fd) one component at a time, every
 * one with O_NOFOLLOW. Returns an fd or -1 with errno. */
static int open_by_components(int root_fd, const char *path, size_t len)
{
	char name[NAME_MAX + 1];
	size_t i = 0;
	int fd = root_fd;

	for (;;) {
		size_t j = i;
		int nfd, last;

		while (j < len && path[j] != '/')
			j++;
		last = j == len;
		if (j - i >= sizeof(name)) {
			nfd = -1;
			errno = ENAMETOOLONG;
		} else {
			memcpy(name, path + i, j - i);
			name[j - i] = '\0';
			nfd = last ? openat(fd, name, TD_DIR_READ_FLAGS)
				   : openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (fd != root_fd) {
			int e = errno;
			close(fd);
			errno = e;
		}
		if (nfd < 0 || last)
			return nfd;
		fd = nfd;
		i = j + 1;
	}
}

#ifdef TD_HAVE_OPENAT2
static int openat2_beneath(int base_fd, const char *path, int flags)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)flags;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, base_fd, path, &how, sizeof(how));
}
#endif

/* Open a file of the tree for reading without following any symlink.
 * Returns an fd or -1 with errno. */
static int open_beneath(const struct dir_walk *w, const char *path, size_t len)
{
#ifdef TD_HAVE_OPENAT2
	if (w->use_openat2) {
		int fd, tries = 0;

		do
			fd = openat2_beneath(w->root_fd, path, TD_DIR_READ_FLAGS);
		/* EAGAIN: a concurrent rename raced the resolution; retry. */
		while (fd < 0 && (errno == EINTR || errno == EAGAIN) && ++tries < 4);
		/* Longer than PATH_MAX, or a kernel without openat2 after all. */
		if (fd >= 0 || (errno != ENAMETOOLONG && errno != ENOSYS))
			return fd;
	}
#endif
	return open_by_components(w->root_fd, path, len);
}

static int read_changed(const char **skip_reason, td_error_t *err, const char *path, const char *how)
{
	*skip_reason = TD_SKIP_CHANGED;
	return td_error_set(err, TD_EIO, "'%s' %s", path, how);
}

static int read_errno(const char **skip_reason, td_error_t *err, const char *what, const char *path, int e)
{
	if (is_run_error(e))
		*skip_reason = NULL; /* an error of this run: the scan ends */
	else if (e == ENOENT)
		*skip_reason = TD_SKIP_VANISHED;
	else if (e == ELOOP || e == ENOTDIR || e == EXDEV)
		/* A component became a symlink or a non-directory. */
		*skip_reason = TD_SKIP_CHANGED;
	else
		*skip_reason = TD_SKIP_UNREADABLE;
	return set_errno_error(err, TD_EIO, what, path, e);
}

/* Thread-safe: uses only the root fd and settings fixed at open; the
 * buffer is this call's own. A sparse file is read like any other, holes
 * and all: content is streamed, so a huge sparse file costs time, not
 * memory (--max-file-size bounds it). */
/* Open entry for reading and check that it is still the file that was
 * listed: *fd and *st on success; else a skip (with *skip_reason) or an
 * error, with nothing open. */
static int open_listed(const struct dir_walk *w, const td_file_t *entry, int *fd, struct stat *st,
		       const char **skip_reason, td_error_t *err)
{
	int rc = TD_OK;

	*fd = -1;
	if (entry->type != TD_ENTRY_FILE)
		return td_error_set(err, TD_EINVAL, "'%s' is not a regular file entry", entry->path);
	if (!path_is_plain(entry->path, entry->path_len))
		return td_error_set(err, TD_EINVAL, "unsafe path '%s'", entry->path);
	*fd = open_beneath(w, entry->path, entry->path_len);
	if (*fd < 0)
		return read_errno(skip_reason, err, "open", entry->path, errno);
	if (fstat(*fd, st))
		rc = read_errno(skip_reason, err, "stat", entry->path, errno);
	else if (!S_ISREG(st->st_mode))
		rc = read_changed(skip_reason, err, entry->path, "is no longer a regular file");
	else if ((uint64_t)st->st_dev != entry->dev || (uint64_t)st->st_ino != entry->ino)
		rc = read_changed(skip_reason, err, entry->path, "was replaced after it was listed");
	else if ((uint64_t)st->st_size != entry->size_bytes || mtime_ns_of(st) != entry->mtime_ns)
		rc = read_changed(skip_reason, err, entry->path, "changed after it was listed");
	if (rc) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

/* One read into buf[0..len); *n gets the bytes read, 0 at the end. */
static int read_some(int fd, const td_file_t *entry, void *buf, size_t len, size_t *n,
		     const char **skip_reason, td_error_t *err)
{
	for (;;) {
		ssize_t got = read(fd, buf, len);

		if (got >= 0) {
			*n = (size_t)got;
			return TD_OK;
		}
		if (errno != EINTR)
			return read_errno(skip_reason, err, "read", entry->path, errno);
	}
}

/* After the last read: total bytes were read; the file must still be as
 * it was opened. */
static int read_end(int fd, const td_file_t *entry, const struct stat *st, uint64_t total,
		    const char **skip_reason, td_error_t *err)
{
	struct stat st_end;

	if (total != entry->size_bytes)
		return read_changed(skip_reason, err, entry->path, "shrank while it was read");
	if (fstat(fd, &st_end))
		return read_errno(skip_reason, err, "stat", entry->path, errno);
	if (st_end.st_size != st->st_size || mtime_ns_of(&st_end) != mtime_ns_of(st))
		return read_changed(skip_reason, err, entry->path, "changed while it was read");
	return TD_OK;
}

static int dir_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
		    const char **skip_reason, td_error_t *err)
{
	const struct dir_walk *w = src->impl;
	uint64_t expected = entry->size_bytes, total = 0;
	struct stat st;
	size_t buf_len, n = 0;
	char *buf = NULL;
	int fd, rc;

	if ((rc = open_listed(w, entry, &fd, &st, skip_reason, err)))
		return rc;
	/* A file read in one call gains nothing from the hint but a syscall. */
	if (expected >= TD_READ_BLOCK_BYTES)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* One byte over the size, to see a file that grew without an extra read. */
	buf_len = expected < TD_READ_BLOCK_BYTES ? (size_t)expected + 1 : TD_READ_BLOCK_BYTES;
	if (!(buf = malloc(buf_len))) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	for (;;) {
		if ((rc = read_some(fd, entry, buf, buf_len, &n, skip_reason, err)))
			goto out;
		if (n == 0)
			break;
		if ((uint64_t)n > expected - total) {
			rc = read_changed(skip_reason, err, entry->path, "grew while it was read");
			goto out;
		}
		total += (uint64_t)n;
		if (sink(ctx, buf, n)) {
			rc = td_error_set(err, TD_ECANCELED, "reading '%s' was stopped", entry->path);
			goto out;
		}
		/* A short read that reaches the size is the end: a file that
		 * grows from here on is caught by read_end's fstat. */
		if (total == expected && n < buf_len)
			break;
	}
	rc = read_end(fd, entry, &st, total, skip_reason, err);
out:
	free(buf);
	close(fd);
	return rc;
}

/* dir_read straight into the caller's buffer: no copy, no allocation. */
static int dir_read_all(td_source_t *src, const td_file_t *entry, void *buf, size_t cap, size_t *len,
			const char **skip_reason, td_error_t *err)
{
	const struct dir_walk *w = src->impl;
	uint64_t expected = entry->size_bytes;
	uint8_t *p = buf;
	size_t total = 0, n = 0;
	struct stat st;
	int fd, rc;

	if ((rc = open_listed(w, entry, &fd, &st, skip_reason, err)))
		return rc;
	if (expected >= TD_READ_BLOCK_BYTES)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		size_t want = cap - total;

		if ((rc = read_some(fd, entry, p + total, want, &n, skip_reason, err)))
			goto out;
		if (n == 0)
			break;
		total += n;
		if (total > expected) {
			rc = read_changed(skip_reason, err, entry->path, "grew while it was read");
			goto out;
		}
		if (total == expected && n < want)
			break;
	}
	rc = read_end(fd, entry, &st, total, skip_reason, err);
	*len = total;
out:
	close(fd);
	return rc;
}

/* Whether openat2 with our resolve flags works here: absent before Linux
 * 5.6, and some seccomp filters answer EPERM or ENOSYS for it. */
static int openat2_works(int root_fd)
{
#ifdef TD_HAVE_OPENAT2
	int fd = openat2_beneath(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
#else
	(void)root_fd;
#endif
	return 0;
}

static int dir_open(td_source_t *src, const char *where, td_error_t *err)
{
	struct dir_walk *w;
	struct stat st;
	char *root;
	int fd;

	if (!(root = realpath(where, NULL))) {
		int e = errno;
		return set_errno_error(err, e == ENOENT ? TD_ENOTFOUND : TD_EIO, "open directory", where, e);
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		int rc = e == ENOTDIR ? td_error_set(err, TD_EINVAL, "'%s' is not a directory", where)
				      : set_errno_error(err, e == ENOENT ? TD_ENOTFOUND : TD_EIO,
							"open directory", where, e);
		free(root);
		return rc;
	}
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode)) {
		close(fd);
		free(root);
		return td_error_set(err, TD_EINVAL, "'%s' is not a directory", where);
	}
	if (!(w = calloc(1, sizeof(*w)))) {
		close(fd);
		free(root);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	w->root_fd = fd;
	w->use_openat2 = openat2_works(fd);
	src->impl = w;
	src->root = root;
	return TD_OK;
}

static void dir_close(td_source_t *src)
{
	struct dir_walk *w = src->impl;

	if (!w)
		return;
	while (w->depth > 0)
		frame_release(&w->stack[--w->depth]);
	free(w->stack);
	free(w->path);
	if (w->root_fd >= 0)
		close(w->root_fd);
	free(w);
	src->impl = NULL;
}

void td_source_dir_set_openat2(td_source_t *src, int use)
{
	struct dir_walk *w;

	if (!src || src->ops != &td_source_dir_ops || !src->impl)
		return;
	w = src->impl;
	w->use_openat2 = use ? openat2_works(w->root_fd) : 0;
}

const td_source_ops_t td_source_dir_ops = {
	.kind = "dir",
	.random_access = 1,
	.open = dir_open,
	.next = dir_next,
	.read = dir_read,
	.read_all = dir_read_all,
	.close = dir_close,
};
