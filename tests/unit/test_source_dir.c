/* Directory source: what the walk lists, what reads return, and how both
 * hold up when the tree changes under them. */
#define _DEFAULT_SOURCE /* setgroups() */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "source_dir.h"
#include "source_impl.h"
#include "treedrift/source.h"
#include "treedrift/tree.h"

#define LONG_NAME_BYTES 199 /* a long directory name, under NAME_MAX */
#define DEEP_LEVELS 1000

static char tmp_root[PATH_MAX / 4];

/* ---- fixture helpers ---- */

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void put_file(int at, const char *name, const void *data, size_t len, mode_t mode)
{
	int fd = openat(at, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || fchmod(fd, mode) || close(fd))
		die(name);
}

static void put_text(int at, const char *name, const char *text)
{
	put_file(at, name, text, strlen(text), 0644);
}

static int make_dir(int at, const char *name)
{
	int fd;
	if (mkdirat(at, name, 0755) && errno != EEXIST)
		die(name);
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die(name);
	return fd;
}

static void make_link(int at, const char *name, const char *target)
{
	if (symlinkat(target, at, name))
		die(name);
}

static int fixture_new(const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", tmp_root, name);
	if (mkdir(path, 0755))
		die(path);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void fixture_path(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", tmp_root, name);
}

/* Remove a tree of any depth, relative to its parent fd. */
static void rm_rf_at(int at, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (unlinkat(at, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;
	fchmodat(at, name, 0700, 0);
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			rm_rf_at(dirfd(d), de->d_name);
	closedir(d);
	unlinkat(at, name, AT_REMOVEDIR);
}

/* ---- source helpers ---- */

static td_source_t *open_dir(const char *path, const td_source_opts_t *opts)
{
	td_source_t *src = NULL;
	td_error_t err = {0};
	int rc = td_source_open(&src, path, opts, &err);
	if (rc) {
		fprintf(stderr, "open '%s': %s\n", path, err.msg);
		exit(2);
	}
	return src;
}

static td_tree_t *walk_all(td_source_t *src)
{
	td_tree_t *t = NULL;
	td_error_t err = {0};
	td_file_t f;
	int rc;

	if (td_tree_new(&t))
		exit(2);
	while ((rc = td_source_next(&f, src, &err)) == 1)
		if (td_tree_append(t, &f))
			exit(2);
	CHECK_INT(rc, 0);
	if (rc)
		fprintf(stderr, "walk: %s\n", err.msg);
	CHECK_INT(td_tree_sort(t), 0); /* also: no path twice */
	return t;
}

static const td_file_t *find(const td_tree_t *t, const char *path)
{
	const td_file_t *f = td_tree_find(t, path, strlen(path));
	if (!f)
		fprintf(stderr, "missing entry '%s'\n", path);
	return f;
}

struct bytes {
	char *data;
	size_t len, cap;
	size_t calls, max_block;
	int stop;                /* return non-zero on the first call */
	const char *grow_path;   /* append to this file on the first call */
	const char *shrink_path; /* truncate this file on the first call */
};

static int bytes_sink(void *ctx, const void *data, size_t len)
{
	struct bytes *b = ctx;

	if (b->calls++ == 0) {
		if (b->stop)
			return 1;
		if (b->grow_path) {
			int fd = open(b->grow_path, O_WRONLY | O_APPEND);
			if (fd < 0 || write(fd, "more", 4) != 4)
				die(b->grow_path);
			close(fd);
		}
		if (b->shrink_path && truncate(b->shrink_path, 0))
			die(b->shrink_path);
	}
	if (len > b->max_block)
		b->max_block = len;
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2;
		if (!(b->data = realloc(b->data, b->cap)))
			exit(2);
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

/* Read an entry; returns the code and fills *b and *reason. */
static int read_entry(td_source_t *src, const td_file_t *f, struct bytes *b, const char **reason)
{
	td_error_t err = {0};
	int rc;

	*reason = NULL;
	rc = td_source_read(src, f, bytes_sink, b, reason, &err);
	if (rc && !err.msg[0])
		fprintf(stderr, "read '%s': no error text\n", f->path);
	return rc;
}

static void bytes_release(struct bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* The entry at path is a file with exactly these bytes, in both read modes. */
static void check_file(td_source_t *src, const td_tree_t *t, const char *path, const void *data, size_t len,
		       uint32_t mode)
{
	const td_file_t *f = find(t, path);
	const char *reason = NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(f->type, TD_ENTRY_FILE);
	CHECK_INT(f->mode, mode);
	CHECK_INT(f->size_bytes, len);
	CHECK(f->ino != 0);
	for (int use = 1; use >= 0; use--) {
		struct bytes b = {0};
		td_source_dir_set_openat2(src, use);
		CHECK_INT(read_entry(src, f, &b, &reason), 0);
		CHECK(reason == NULL);
		CHECK_INT(b.len, len);
		CHECK(b.len == len && (!len || !memcmp(b.data, data, len)));
		CHECK(b.max_block <= TD_READ_BLOCK_BYTES);
		bytes_release(&b);
	}
	td_source_dir_set_openat2(src, 1);
}

static void check_link(const td_tree_t *t, const char *path, const char *target)
{
	const td_file_t *f = find(t, path);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(f->type, TD_ENTRY_SYMLINK);
	CHECK_INT(f->mode, 0120000);
	CHECK_INT(f->link_len, strlen(target));
	CHECK_STR(f->link_target, target);
	CHECK_INT(f->size_bytes, strlen(target));
}

static void check_skipped(const td_tree_t *t, const char *path, const char *reason)
{
	const td_file_t *f = find(t, path);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(f->type, TD_ENTRY_SKIPPED);
	CHECK_STR(f->skip_reason, reason);
}

static size_t count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the one opendir holds */
}

/* ---- tests ---- */

static void test_open(void)
{
	char path[PATH_MAX], odd[PATH_MAX + 32], link[PATH_MAX + 32], *real;
	td_source_t *src;
	td_source_t raw;
	td_error_t err = {0};
	int fd = fixture_new("open");

	put_text(fd, "plain", "x");
	close(fd);
	fixture_path(path, sizeof(path), "open");
	real = realpath(path, NULL);

	snprintf(odd, sizeof(odd), "%s/./../open/", path);
	src = open_dir(odd, NULL);
	CHECK_STR(td_source_kind(src), "dir");
	CHECK_INT(td_source_random_access(src), 1);
	CHECK_STR(td_source_root(src), real);
	CHECK(td_source_root(src)[0] == '/');
	CHECK_INT(td_source_incomplete(src), 0);
	td_source_free(src);

	snprintf(link, sizeof(link), "%s/open-link", tmp_root);
	CHECK_INT(symlink(path, link), 0);
	src = open_dir(link, NULL);
	CHECK_STR(td_source_root(src), real);
	td_source_free(src);

	/* The dir kind on its own: the root must be a directory. */
	memset(&raw, 0, sizeof(raw));
	raw.ops = &td_source_dir_ops;
	snprintf(odd, sizeof(odd), "%s/plain", path);
	CHECK_INT(td_source_dir_ops.open(&raw, odd, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "not a directory") != NULL);
	CHECK(raw.impl == NULL && raw.root == NULL);
	snprintf(odd, sizeof(odd), "%s/none", path);
	CHECK_INT(td_source_dir_ops.open(&raw, odd, &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "none") != NULL);
	CHECK(raw.impl == NULL && raw.root == NULL);
	free(real);
}

/* The walk's order is the same on every file system, whatever order the
 * names were created in (tmpfs lists newest first, ext4 in hash order):
 * byte order of the paths, so "a-b" and "a.c" before "a/x" before "a0". */
static void test_walk_order(void)
{
	static const char *const expected[] = { "B", "a-b", "a.c", "a/x", "a0/x", "b", "c",
						"d1/y", "d1/z", "d2/e/f", "d2/y", "\xff" };
	static const char *const files[] = { "\xff", "b", "a.c", "a-b", "B" };
	char path[PATH_MAX];
	int root = fixture_new("sorted");
	td_source_t *src;
	td_error_t err = { 0 };
	td_file_t f;
	size_t n = 0;
	int rc;

	/* Created out of order, a directory before its files. */
	static const char *const dirs[] = { "d2", "d2/e", "d1", "a0", "a" };
	static const char *const texts[] = { "d2/y", "d2/e/f", "d1/z", "d1/y", "a0/x", "a/x" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		close(make_dir(root, dirs[i]));
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		put_text(root, texts[i], texts[i]);
	make_link(root, "c", "a");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put_text(root, files[i], files[i]);
	close(root);

	fixture_path(path, sizeof(path), "sorted");
	src = open_dir(path, NULL);
	while ((rc = td_source_next(&f, src, &err)) == 1) {
		if (n < sizeof(expected) / sizeof(expected[0]))
			CHECK_STR(f.path, expected[n]);
		n++;
		td_file_release(&f);
	}
	CHECK_INT(rc, 0);
	CHECK_INT(n, sizeof(expected) / sizeof(expected[0]));
	td_source_free(src);
}

/* Build the nested long path: levels directories of LONG_NAME_BYTES 'a'..
 * under the directory at, a file "leaf" at the bottom; returns the relative path. */
static char *make_long_path(int at, const char *top, int levels)
{
	char name[LONG_NAME_BYTES + 1];
	size_t cap = strlen(top) + (size_t)levels * (LONG_NAME_BYTES + 1) + 16, len;
	char *path = malloc(cap);
	int fd = make_dir(at, top);

	len = (size_t)snprintf(path, cap, "%s", top);
	for (int i = 0; i < levels; i++) {
		int nfd;
		memset(name, 'a' + i % 26, LONG_NAME_BYTES);
		name[LONG_NAME_BYTES] = '\0';
		nfd = make_dir(fd, name);
		close(fd);
		fd = nfd;
		len += (size_t)snprintf(path + len, cap - len, "/%s", name);
	}
	put_text(fd, "leaf", "deep leaf\n");
	close(fd);
	snprintf(path + len, cap - len, "/leaf");
	return path;
}

static void test_walk(void)
{
	static const char *const odd_names[] = {
		"new\nline", "tab\there", "quote\"'", "back\\slash", "<script>alert(1)",
		"\xff\xfe", "sp ace", "-dash", NULL
	};
	char path[PATH_MAX], name[64];
	td_source_t *src;
	td_tree_t *t;
	size_t want = 0;
	char *long_path, *longer_path;
	int fd = fixture_new("walk"), sub, dir, odd, git, cwd, sock;
	struct sockaddr_un sa;

	put_text(fd, "file.txt", "hello\n");
	want++;
	put_file(fd, "exec.sh", "#!/bin/sh\necho hi\n", 18, 0755);
	want++;
	put_file(fd, "empty", "", 0, 0644);
	want++;
	put_text(fd, ".gitignore", "*.o\n");
	want++;
	sub = make_dir(fd, "sub");
	dir = make_dir(sub, "dir");
	put_text(dir, "nested.txt", "nested\n");
	want++;
	make_link(dir, "link_up", "../../");
	want++;
	close(make_dir(dir, ".github"));
	{
		int gh = openat(dir, ".github", O_RDONLY | O_DIRECTORY);
		put_text(gh, "ci.yml", "on: push\n");
		want++;
		close(gh);
	}
	/* A submodule's gitfile: not part of the tree either. */
	put_text(sub, ".git", "gitdir: ../.git/modules/sub\n");
	close(dir);
	close(sub);
	close(make_dir(fd, "emptydir"));
	make_link(fd, "link_passwd", "/etc/passwd");
	want++;
	make_link(fd, "link_sub", "sub");
	want++;
	make_link(fd, "loop_a", "loop_b");
	make_link(fd, "loop_b", "loop_a");
	want += 2;
	make_link(fd, "dangling", "no/such/target");
	want++;
	if (mkfifoat(fd, "fifo", 0644))
		die("mkfifo");
	want++;

	/* bind() takes a short path: bind relative to the fixture. */
	cwd = open(".", O_RDONLY | O_DIRECTORY);
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, "sock", 5);
	if (sock < 0 || fchdir(fd) || bind(sock, (struct sockaddr *)&sa, sizeof(sa)) || fchdir(cwd))
		die("socket");
	close(sock);
	close(cwd);
	want++;

	odd = make_dir(fd, "odd");
	for (int i = 0; odd_names[i]; i++) {
		put_text(odd, odd_names[i], odd_names[i]);
		want++;
	}
	close(odd);

	git = make_dir(fd, ".git");
	put_text(git, "config", "[core]\n");
	close(make_dir(git, "objects"));
	close(git);

	long_path = make_long_path(fd, "long", 20);    /* 4,009 bytes */
	longer_path = make_long_path(fd, "longer", 25); /* over PATH_MAX */
	want += 2;
	CHECK(strlen(long_path) >= 4000 && strlen(long_path) < PATH_MAX);
	CHECK(strlen(longer_path) > PATH_MAX);
	close(fd);

	fixture_path(path, sizeof(path), "walk");
	src = open_dir(path, NULL);
	t = walk_all(src);
	CHECK_INT(t->count, want);

	check_file(src, t, "file.txt", "hello\n", 6, 0100644);
	check_file(src, t, "exec.sh", "#!/bin/sh\necho hi\n", 18, 0100755);
	check_file(src, t, "empty", "", 0, 0100644);
	check_file(src, t, ".gitignore", "*.o\n", 4, 0100644);
	check_file(src, t, "sub/dir/nested.txt", "nested\n", 7, 0100644);
	check_file(src, t, "sub/dir/.github/ci.yml", "on: push\n", 9, 0100644);
	check_link(t, "sub/dir/link_up", "../../");
	check_link(t, "link_passwd", "/etc/passwd");
	check_link(t, "link_sub", "sub");
	check_link(t, "loop_a", "loop_b");
	check_link(t, "loop_b", "loop_a");
	check_link(t, "dangling", "no/such/target");
	check_skipped(t, "fifo", TD_SKIP_FIFO);
	check_skipped(t, "sock", TD_SKIP_SOCKET);
	for (int i = 0; odd_names[i]; i++) {
		snprintf(name, sizeof(name), "odd/%s", odd_names[i]);
		check_file(src, t, name, odd_names[i], strlen(odd_names[i]), 0100644);
	}
	check_file(src, t, long_path, "deep leaf\n", 10, 0100644);
	check_file(src, t, longer_path, "deep leaf\n", 10, 0100644);

	/* Nothing from .git, through a symlink, or for a directory. */
	for (size_t i = 0; i < t->count; i++) {
		const td_file_t *f = &t->files[i];
		CHECK(strncmp(f->path, ".git/", 5) && strcmp(f->path, ".git"));
		CHECK(strcmp(f->path, "sub/.git"));
		CHECK(strncmp(f->path, "link_sub/", 9));
		CHECK(strcmp(f->path, "sub") && strcmp(f->path, "emptydir") && strcmp(f->path, "odd"));
		CHECK(f->path[0] != '/' && strncmp(f->path, "./", 2));
		CHECK_INT(strlen(f->path), f->path_len);
	}

	/* Metadata comes from lstat. */
	{
		const td_file_t *f = find(t, "exec.sh");
		struct stat st;
		snprintf(path, sizeof(path), "%s/walk/exec.sh", tmp_root);
		CHECK_INT(lstat(path, &st), 0);
		CHECK(f && f->ino == (uint64_t)st.st_ino && f->dev == (uint64_t)st.st_dev);
		CHECK(f && f->mtime_ns == (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
	}

	/* The end stays the end. */
	{
		td_file_t f;
		td_error_t err = {0};
		CHECK_INT(td_source_next(&f, src, &err), 0);
	}
	td_tree_free(t);
	td_source_free(src);
	free(long_path);
	free(longer_path);
}

/* 1,000 nested directories, every tenth with a file and a side directory:
 * the walk must come back up through all of them with a bounded number of
 * fds. */
#define DEEP_EVERY 10

static void deep_path(char *out, size_t cap, int level, const char *leaf)
{
	size_t len = 0;
	for (int j = 0; j < level; j++)
		len += (size_t)snprintf(out + len, cap - len, "d/");
	snprintf(out + len, cap - len, "%s", leaf);
}

static void test_deep(void)
{
	char path[PATH_MAX], want_path[DEEP_LEVELS * 2 + 16];
	td_source_t *src;
	td_error_t err = {0};
	td_tree_t *t;
	td_file_t f;
	size_t base_fds, fds_max = 0;
	int fd = fixture_new("deep"), rc;

	for (int i = 0; i < DEEP_LEVELS; i++) {
		int nfd;
		if (i % DEEP_EVERY == 0) {
			int side = make_dir(fd, "e");
			put_text(side, "g", "side\n");
			close(side);
			put_text(fd, "f", "level\n");
		}
		nfd = make_dir(fd, "d");
		close(fd);
		fd = nfd;
	}
	put_text(fd, "bottom", "bottom\n");
	close(fd);

	fixture_path(path, sizeof(path), "deep");
	base_fds = count_open_fds();
	src = open_dir(path, NULL);
	if (td_tree_new(&t))
		exit(2);
	while ((rc = td_source_next(&f, src, &err)) == 1) {
		size_t n = count_open_fds();
		if (n > fds_max)
			fds_max = n;
		td_tree_append(t, &f);
	}
	CHECK_INT(rc, 0);
	CHECK_INT(td_tree_sort(t), 0);
	CHECK_INT(t->count, 2 * DEEP_LEVELS / DEEP_EVERY + 1);
	/* The root fd and at most TD_DIR_OPEN_FDS (16) directory fds. */
	CHECK(fds_max <= base_fds + 1 + 16);
	for (int i = 0; i < DEEP_LEVELS; i += DEEP_EVERY) {
		deep_path(want_path, sizeof(want_path), i, "f");
		CHECK(td_tree_find(t, want_path, strlen(want_path)) != NULL);
		deep_path(want_path, sizeof(want_path), i, "e/g");
		CHECK(td_tree_find(t, want_path, strlen(want_path)) != NULL);
	}
	deep_path(want_path, sizeof(want_path), DEEP_LEVELS, "bottom");
	check_file(src, t, want_path, "bottom\n", 7, 0100644);
	/* Reads leave nothing open. */
	CHECK_INT(count_open_fds(), base_fds + 1);
	td_tree_free(t);
	td_source_free(src);
	CHECK_INT(count_open_fds(), base_fds);
}

/* A directory moved while the walk is below it: coming back up through
 * ".." would land elsewhere; the walk must notice and find its way back by
 * path. With parent_too, that path is gone as well: the parent comes back
 * as dir_unreadable and the walk goes on. Each level has a side directory
 * "e", which the walk visits after "d" and all below it (name order), so
 * that it has work left in a directory when it comes back up to it. */
#define MOVE_LEVELS 40
#define MOVE_AT 10 /* more than TD_DIR_OPEN_FDS above the bottom */

static void test_moved_during_walk(int parent_too)
{
	static const char side_name[] = "e";
	char path[PATH_MAX], from[PATH_MAX + 256], to[PATH_MAX + 32], text[32], rel[MOVE_LEVELS * 2 + 8];
	char want[MOVE_LEVELS * 2 + 8];
	td_source_t *src;
	td_error_t err = {0};
	td_tree_t *t;
	td_file_t f;
	size_t len = 0, want_count = 2 * MOVE_LEVELS;
	int fd, rc, moved = 0;
	const td_file_t *e;

	fd = fixture_new(parent_too ? "moved2" : "moved");
	for (int i = 0; i < MOVE_LEVELS; i++) {
		int side = make_dir(fd, side_name), nfd;
		snprintf(text, sizeof(text), "side %d\n", i);
		put_text(side, "g", text);
		close(side);
		snprintf(text, sizeof(text), "level %d\n", i);
		put_text(fd, "f", text);
		nfd = make_dir(fd, "d");
		close(fd);
		fd = nfd;
	}
	close(fd);
	for (int j = 0; j < MOVE_AT; j++)
		len += (size_t)snprintf(rel + len, sizeof(rel) - len, "d/");
	snprintf(rel + len, sizeof(rel) - len, "f");

	fixture_path(path, sizeof(path), parent_too ? "moved2" : "moved");
	src = open_dir(path, NULL);
	if (td_tree_new(&t))
		exit(2);
	while ((rc = td_source_next(&f, src, &err)) == 1) {
		if (!moved && !strcmp(f.path, rel)) {
			/* Move the directory being read to the top. */
			snprintf(from, sizeof(from), "%s/%.*s", path, (int)len - 1, rel);
			snprintf(to, sizeof(to), "%s/away", path);
			CHECK_INT(rename(from, to), 0);
			if (parent_too) {
				snprintf(from, sizeof(from), "%s/%.*s", path, (int)len - 3, rel);
				snprintf(to, sizeof(to), "%s/away2", path);
				CHECK_INT(rename(from, to), 0);
			}
			moved = 1;
		}
		td_tree_append(t, &f);
	}
	CHECK_INT(rc, 0);
	CHECK(moved);
	CHECK_INT(td_tree_sort(t), 0);
	if (parent_too) {
		/* One entry for the lost parent, in place of the two it had
		 * left to give (its side directory's file and its own, both
		 * after "d" in name order), lost with it. */
		want_count -= 1;
		snprintf(want, sizeof(want), "%.*s", (int)len - 3, rel);
		check_skipped(t, want, TD_SKIP_DIR_UNREADABLE);
		e = find(t, want);
		CHECK(e && e->skip_detail && strstr(e->skip_detail, "moved"));
	}
	CHECK_INT(t->count, want_count);
	/* Above the move, every entry is where it was listed, and is the file
	 * listed there. */
	len = 0;
	for (int i = 0; i < MOVE_AT - parent_too; i++) {
		snprintf(want, sizeof(want), "%.*s%s/g", (int)len, rel, side_name);
		snprintf(text, sizeof(text), "side %d\n", i);
		check_file(src, t, want, text, strlen(text), 0100644);
		snprintf(want, sizeof(want), "%.*sf", (int)len, rel);
		snprintf(text, sizeof(text), "level %d\n", i);
		check_file(src, t, want, text, strlen(text), 0100644);
		len += 2;
	}
	td_tree_free(t);
	td_source_free(src);
}

static void test_max_file_size(void)
{
	td_source_opts_t opts = {0};
	char path[PATH_MAX];
	td_source_t *src;
	td_tree_t *t;
	const td_file_t *f;
	int fd = fixture_new("max");

	put_text(fd, "six", "hello\n");
	put_text(fd, "five", "12345");
	close(fd);
	fixture_path(path, sizeof(path), "max");
	opts.max_file_size = 5;
	src = open_dir(path, &opts);
	t = walk_all(src);
	CHECK_INT(t->count, 2);
	check_skipped(t, "six", TD_SKIP_TOO_LARGE);
	f = find(t, "six");
	CHECK(f && f->size_bytes == 6 && f->mode == 0100644);
	check_file(src, t, "five", "12345", 5, 0100644);
	td_tree_free(t);
	td_source_free(src);
}

/* Read an entry of t with reads of either kind; expect failure with reason. */
static void check_read_fails(td_source_t *src, const td_tree_t *t, const char *path, int use_openat2,
			     const char *want_reason)
{
	const td_file_t *f = find(t, path);
	struct bytes b = {0};
	const char *reason = NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	td_source_dir_set_openat2(src, use_openat2);
	CHECK_INT(read_entry(src, f, &b, &reason), TD_EIO);
	CHECK_STR(reason, want_reason);
	if (!reason || strcmp(reason, want_reason))
		fprintf(stderr, "  for '%s' (openat2 %d)\n", path, use_openat2);
	CHECK_INT(b.len, 0);
	bytes_release(&b);
	td_source_dir_set_openat2(src, 1);
}

static void test_changes(void)
{
	char path[PATH_MAX], p2[PATH_MAX + 64];
	static char big[600 * 1024];
	td_source_t *src;
	td_tree_t *t;
	struct timespec ts[2];
	int fd = fixture_new("changes");

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 2654435761u >> 13);
	for (int use = 0; use <= 1; use++) {
		int sw;
		snprintf(p2, sizeof(p2), "swap%d", use);
		sw = make_dir(fd, p2);
		put_text(sw, "passwd", "mine\n");
		close(sw);
		snprintf(p2, sizeof(p2), "fifo%d", use);
		put_text(fd, p2, "soon a fifo\n");
		snprintf(p2, sizeof(p2), "gone%d", use);
		put_text(fd, p2, "here now\n");
		snprintf(p2, sizeof(p2), "trunc%d", use);
		put_text(fd, p2, "0123456789");
		snprintf(p2, sizeof(p2), "append%d", use);
		put_text(fd, p2, "0123456789");
		snprintf(p2, sizeof(p2), "rewrite%d", use);
		put_text(fd, p2, "aaaa");
		snprintf(p2, sizeof(p2), "replaced%d", use);
		put_text(fd, p2, "aaaa");
		snprintf(p2, sizeof(p2), "leaflink%d", use);
		put_text(fd, p2, "plain\n");
		snprintf(p2, sizeof(p2), "moved%d", use);
		sw = make_dir(fd, p2);
		put_text(sw, "f", "same file\n");
		close(sw);
	}
	put_text(fd, "grows", "0123456789");
	put_file(fd, "shrinks", big, sizeof(big), 0644);
	put_file(fd, "big", big, sizeof(big), 0644);
	put_text(fd, "stop", "stop here");
	close(fd);

	fixture_path(path, sizeof(path), "changes");
	src = open_dir(path, NULL);
	t = walk_all(src);

	/* Change the tree after the listing. */
	for (int use = 0; use <= 1; use++) {
		char a[PATH_MAX + 64], b[PATH_MAX + 64];

		snprintf(a, sizeof(a), "%s/swap%d", path, use);
		snprintf(b, sizeof(b), "%s/swap%d.old", path, use);
		CHECK_INT(rename(a, b), 0);
		CHECK_INT(symlink("/etc", a), 0);

		snprintf(a, sizeof(a), "%s/fifo%d", path, use);
		CHECK_INT(unlink(a), 0);
		CHECK_INT(mkfifo(a, 0644), 0);

		snprintf(a, sizeof(a), "%s/gone%d", path, use);
		CHECK_INT(unlink(a), 0);

		snprintf(a, sizeof(a), "%s/trunc%d", path, use);
		CHECK_INT(truncate(a, 5), 0);

		snprintf(a, sizeof(a), "%s/append%d", path, use);
		fd = open(a, O_WRONLY | O_APPEND);
		CHECK(fd >= 0 && write(fd, "x", 1) == 1);
		close(fd);

		/* Same size, same inode, other bytes and mtime. */
		snprintf(a, sizeof(a), "%s/rewrite%d", path, use);
		fd = open(a, O_WRONLY);
		CHECK(fd >= 0 && write(fd, "bbbb", 4) == 4);
		ts[0].tv_sec = ts[1].tv_sec = 1000000000;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		CHECK_INT(futimens(fd, ts), 0);
		close(fd);

		/* Same size and mtime, another inode. */
		snprintf(a, sizeof(a), "%s/replaced%d", path, use);
		snprintf(b, sizeof(b), "%s/replaced%d.new", path, use);
		fd = open(b, O_WRONLY | O_CREAT, 0644);
		CHECK(fd >= 0 && write(fd, "cccc", 4) == 4);
		close(fd);
		{
			struct stat st;
			CHECK_INT(stat(a, &st), 0);
			ts[0] = st.st_atim;
			ts[1] = st.st_mtim;
			CHECK_INT(utimensat(AT_FDCWD, b, ts, 0), 0);
		}
		CHECK_INT(rename(b, a), 0);

		snprintf(a, sizeof(a), "%s/leaflink%d", path, use);
		CHECK_INT(unlink(a), 0);
		CHECK_INT(symlink("/etc/passwd", a), 0);

		/* The very same file, reached through a relative symlink inside
		 * the tree: still not followed. */
		snprintf(a, sizeof(a), "%s/moved%d", path, use);
		snprintf(b, sizeof(b), "%s/moved%d.new", path, use);
		CHECK_INT(rename(a, b), 0);
		snprintf(b, sizeof(b), "moved%d.new", use);
		CHECK_INT(symlink(b, a), 0);
	}

	/* A FIFO must not block a read: fail the test rather than hang. */
	alarm(10);
	for (int use = 0; use <= 1; use++) {
		snprintf(p2, sizeof(p2), "swap%d/passwd", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "fifo%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "gone%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_VANISHED);
		snprintf(p2, sizeof(p2), "trunc%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "append%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "rewrite%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "replaced%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "leaflink%d", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
		snprintf(p2, sizeof(p2), "moved%d/f", use);
		check_read_fails(src, t, p2, use, TD_SKIP_CHANGED);
	}
	alarm(0);

	/* Changes while the content is being read. */
	{
		const td_file_t *f = find(t, "grows");
		struct bytes b = {0};
		const char *reason = NULL;
		snprintf(p2, sizeof(p2), "%s/grows", path);
		b.grow_path = p2;
		CHECK(f && read_entry(src, f, &b, &reason) == TD_EIO);
		CHECK_STR(reason, TD_SKIP_CHANGED);
		bytes_release(&b);
	}
	{
		const td_file_t *f = find(t, "shrinks");
		struct bytes b = {0};
		const char *reason = NULL;
		snprintf(p2, sizeof(p2), "%s/shrinks", path);
		b.shrink_path = p2;
		CHECK(f && read_entry(src, f, &b, &reason) == TD_EIO);
		CHECK_STR(reason, TD_SKIP_CHANGED);
		CHECK_INT(b.len, TD_READ_BLOCK_BYTES);
		bytes_release(&b);
	}

	/* Several blocks, each at most TD_READ_BLOCK_BYTES. */
	check_file(src, t, "big", big, sizeof(big), 0100644);
	{
		const td_file_t *f = find(t, "big");
		struct bytes b = {0};
		const char *reason = NULL;
		CHECK(f && read_entry(src, f, &b, &reason) == 0);
		CHECK_INT(b.calls, (sizeof(big) + TD_READ_BLOCK_BYTES - 1) / TD_READ_BLOCK_BYTES);
		bytes_release(&b);
	}

	/* A sink that stops. */
	{
		const td_file_t *f = find(t, "stop");
		struct bytes b = {0};
		const char *reason = NULL;
		td_error_t err = {0};
		b.stop = 1;
		CHECK(f && td_source_read(src, f, bytes_sink, &b, &reason, &err) == TD_ECANCELED);
		CHECK(reason == NULL);
		CHECK(err.msg[0] != '\0');
		bytes_release(&b);
	}

	/* Only file entries, only plain relative paths. */
	{
		static const char *const bad[] = {
			"../etc/passwd", "/etc/passwd", "a//b", "./stop", "big/..", "", NULL
		};
		const td_file_t *f = find(t, "stop");
		td_file_t fake;
		struct bytes b = {0};
		const char *reason = NULL;
		td_error_t err = {0};

		fake = *f;
		for (int i = 0; bad[i]; i++) {
			fake.path = (char *)bad[i];
			fake.path_len = strlen(bad[i]);
			CHECK_INT(td_source_read(src, &fake, bytes_sink, &b, &reason, &err), TD_EINVAL);
		}
		fake = *f;
		fake.type = TD_ENTRY_SKIPPED;
		CHECK_INT(td_source_read(src, &fake, bytes_sink, &b, &reason, &err), TD_EINVAL);
		fake.type = TD_ENTRY_SYMLINK;
		CHECK_INT(td_source_read(src, &fake, bytes_sink, &b, &reason, &err), TD_EINVAL);
		CHECK_INT(b.calls, 0);
	}
	td_tree_free(t);
	td_source_free(src);
}

/* Reads from several threads at once, as the scan's workers do. */
#define MT_FILES 64
#define MT_THREADS 4

struct mt_job {
	td_source_t *src;
	const td_tree_t *t;
	int failures;
};

static size_t mt_size(int i)
{
	return (size_t)i * 9973 % (3 * TD_READ_BLOCK_BYTES);
}

static char mt_byte(int i, size_t k)
{
	return (char)((k * 31 + (size_t)i * 7) >> 3);
}

static void *mt_worker(void *arg)
{
	struct mt_job *job = arg;

	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < MT_FILES; i++) {
			char name[32];
			const td_file_t *f;
			struct bytes b = {0};
			const char *reason = NULL;
			td_error_t err = {0};

			snprintf(name, sizeof(name), "f%02d", i);
			f = td_tree_find(job->t, name, strlen(name));
			if (!f || td_source_read(job->src, f, bytes_sink, &b, &reason, &err) || b.len != mt_size(i)) {
				job->failures++;
			} else {
				for (size_t k = 0; k < b.len; k++)
					if (b.data[k] != mt_byte(i, k)) {
						job->failures++;
						break;
					}
			}
			bytes_release(&b);
		}
	}
	return NULL;
}

static void test_threads(void)
{
	char path[PATH_MAX];
	struct mt_job jobs[MT_THREADS];
	pthread_t th[MT_THREADS];
	td_source_t *src;
	td_tree_t *t;
	int fd = fixture_new("threads");

	for (int i = 0; i < MT_FILES; i++) {
		char name[32];
		size_t n = mt_size(i);
		char *data = malloc(n + 1);
		for (size_t k = 0; k < n; k++)
			data[k] = mt_byte(i, k);
		snprintf(name, sizeof(name), "f%02d", i);
		put_file(fd, name, data, n, 0644);
		free(data);
	}
	close(fd);
	fixture_path(path, sizeof(path), "threads");
	src = open_dir(path, NULL);
	t = walk_all(src);
	CHECK_INT(t->count, MT_FILES);
	for (int i = 0; i < MT_THREADS; i++) {
		jobs[i].src = src;
		jobs[i].t = t;
		jobs[i].failures = 0;
		CHECK_INT(pthread_create(&th[i], NULL, mt_worker, &jobs[i]), 0);
	}
	for (int i = 0; i < MT_THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_INT(jobs[i].failures, 0);
	}
	td_tree_free(t);
	td_source_free(src);
}

/* Permission checks: run as the current user when not root; as root, also
 * in a child that drops to nobody, so that they are really exercised. */
static int check_unreadable_walk(const char *path, int privileged)
{
	int before = check_failures;
	td_source_t *src = open_dir(path, NULL);
	td_tree_t *t = walk_all(src);
	char detail[128];
	const td_file_t *f;

	snprintf(detail, sizeof(detail), "%s", strerror(EACCES));
	check_file(src, t, "ok.txt", "fine\n", 5, 0100644);
	if (privileged) {
		/* DAC does not apply: everything is listed and readable. */
		CHECK_INT(t->count, 4);
		check_file(src, t, "locked/inside", "secret\n", 7, 0100644);
		check_file(src, t, "nosearch/inside", "secret\n", 7, 0100644);
		check_file(src, t, "noread", "secret\n", 7, 0100644);
	} else {
		CHECK_INT(t->count, 4);
		check_skipped(t, "locked", TD_SKIP_DIR_UNREADABLE);
		f = find(t, "locked");
		CHECK(f && f->skip_detail && !strcmp(f->skip_detail, detail));
		/* Listed but not searchable: names known, metadata not. */
		check_skipped(t, "nosearch/inside", TD_SKIP_UNREADABLE);
		f = find(t, "nosearch/inside");
		CHECK(f && f->skip_detail && !strcmp(f->skip_detail, detail));
		check_read_fails(src, t, "noread", 1, TD_SKIP_UNREADABLE);
		check_read_fails(src, t, "noread", 0, TD_SKIP_UNREADABLE);
	}
	td_tree_free(t);
	td_source_free(src);
	return check_failures - before;
}

static void test_unreadable(void)
{
	char path[PATH_MAX];
	int fd = fixture_new("perm"), d;

	put_text(fd, "ok.txt", "fine\n");
	d = make_dir(fd, "locked");
	put_text(d, "inside", "secret\n");
	close(d);
	d = make_dir(fd, "nosearch");
	put_text(d, "inside", "secret\n");
	close(d);
	put_text(fd, "noread", "secret\n");
	CHECK_INT(fchmodat(fd, "noread", 0, 0), 0);
	CHECK_INT(fchmodat(fd, "locked", 0, 0), 0);
	CHECK_INT(fchmodat(fd, "nosearch", 0444, 0), 0);
	close(fd);
	fixture_path(path, sizeof(path), "perm");

	if (geteuid() != 0) {
		check_unreadable_walk(path, 0);
	} else {
		pid_t pid;
		int status = 0;

		check_unreadable_walk(path, 1);
		/* nobody must reach the fixture. */
		CHECK_INT(chmod(tmp_root, 0755), 0);
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			gid_t gid = 65534;
			if (setgroups(1, &gid) || setgid(65534) || setuid(65534))
				_exit(77);
			_exit(check_unreadable_walk(path, 0) ? 1 : 0);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77)
			fprintf(stderr, "note: unable to drop to nobody, unprivileged checks not run\n");
		else
			CHECK_INT(WEXITSTATUS(status), 0);
		CHECK_INT(chmod(tmp_root, 0700), 0);
	}
}

int main(void)
{
	check_tmpdir(tmp_root, sizeof(tmp_root), "source-dir");

	test_open();
	test_walk();
	test_walk_order();
	test_deep();
	test_moved_during_walk(0);
	test_moved_during_walk(1);
	test_max_file_size();
	test_changes();
	test_threads();
	test_unreadable();

	rm_rf_at(AT_FDCWD, tmp_root);
	return check_finish();
}
