/* The files a writer keeps beside the database: the lock (path + ".lock"),
 * the temporary database it builds (path + ".tmp-XXXXXX") and the rename
 * that publishes it. Nothing here knows SQLite. */
#define _DEFAULT_SOURCE /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "treedrift/store.h"
#include "store_impl.h"
#include "internal.h"

static int path_split_dir(td_db_files_t *w)
{
	const char *slash = strrchr(w->path, '/');

	if (!slash)
		w->dir = td_strndup(".", 1);
	else if (slash == w->path)
		w->dir = td_strndup("/", 1);
	else
		w->dir = td_strndup(w->path, (size_t)(slash - w->path));
	return w->dir ? TD_OK : TD_ENOMEM;
}

static long lock_holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return end != buf && pid > 0 ? pid : 0;
}

/* Record our pid in the lock file for the message a second writer shows.
 * Failing only makes that message vaguer. */
static void lock_note_pid(int fd)
{
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (n > 0 && ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n)
		return;
}

/* Open the lock file into *out, never through a symlink: create it
 * (O_EXCL: a name that exists, even as a dangling link, is not created
 * through), or open the one a killed writer left, which must be a plain
 * file with no other name, as treedrift makes it. 1 when the name vanished
 * meanwhile (try again). */
static int lock_open(int *out, const td_db_files_t *w, td_error_t *err)
{
	struct stat st;
	int fd = open(w->lock_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);

	*out = -1;
	if (fd < 0 && errno == EEXIST)
		fd = open(w->lock_path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		if (errno == ELOOP)
			return td_error_set(err, TD_EINVAL,
					    "unable to lock '%s': '%s' is a symbolic link, not a lock file"
					    " (treedrift does not follow it; remove it if no treedrift is writing)",
					    w->path, w->lock_path);
		return td_error_set(err, TD_EIO, "unable to create lock '%s': %s", w->lock_path,
				    strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return td_error_set(err, TD_EINVAL,
				    "unable to lock '%s': '%s' is not a lock file treedrift made (not a plain"
				    " file with one name; remove it if no treedrift is writing)",
				    w->path, w->lock_path);
	}
	*out = fd;
	return TD_OK;
}

/* flock the lock file. The holder before us unlinks it while still holding
 * the lock, so a lock taken on a file no longer at lock_path is stale:
 * open it again. */
static int lock_acquire(td_db_files_t *w, td_error_t *err)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat held, named;
		int fd, rc = lock_open(&fd, w, err);

		if (rc > 0)
			continue;
		if (rc)
			return rc;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;
			long holder = e == EWOULDBLOCK ? lock_holder_pid(fd) : 0;
			close(fd);
			if (e != EWOULDBLOCK)
				return td_error_set(err, TD_EIO, "unable to lock '%s': %s", w->lock_path,
						    strerror(e));
			if (holder)
				return td_error_set(err, TD_ELOCKED,
						    "'%s' is being written by another treedrift (pid %ld)",
						    w->path, holder);
			return td_error_set(err, TD_ELOCKED, "'%s' is being written by another treedrift",
					    w->path);
		}
		if (fstat(fd, &held) || lstat(w->lock_path, &named) || held.st_ino != named.st_ino ||
		    held.st_dev != named.st_dev) {
			close(fd);
			continue;
		}
		lock_note_pid(fd);
		w->lock_fd = fd;
		return TD_OK;
	}
	return td_error_set(err, TD_ELOCKED, "unable to lock '%s': it keeps changing", w->lock_path);
}

static void lock_release(td_db_files_t *w)
{
	if (w->lock_fd < 0)
		return;
	unlink(w->lock_path);
	close(w->lock_fd);
	w->lock_fd = -1;
}

/* Is name base + ".tmp-" + 6 letters or digits, maybe followed by one of
 * SQLite's side-file suffixes? */
static int is_our_temp(const char *name, const char *base, size_t base_len)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	const char *p;

	if (strncmp(name, base, base_len) || strncmp(name + base_len, ".tmp-", 5))
		return 0;
	p = name + base_len + 5;
	for (int i = 0; i < 6; i++, p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(p, suffixes[i]))
			return 1;
	return 0;
}

/* Remove temporary files a killed writer left. Called with the lock held:
 * every writer of this path holds it while its temporary file exists, so
 * any temporary file seen now is stale. */
static void remove_stale_temps(td_db_files_t *w)
{
	const char *slash = strrchr(w->path, '/');
	const char *base = slash ? slash + 1 : w->path;
	size_t base_len = strlen(base);
	struct dirent *d;
	DIR *dir;

	dir = opendir(w->dir);
	if (!dir)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (is_our_temp(d->d_name, base, base_len)) {
			char *p = td_str_concat(w->dir, "/");
			char *full = p ? td_str_concat(p, d->d_name) : NULL;
			if (full)
				unlink(full);
			free(p);
			free(full);
		}
	}
	closedir(dir);
}

/* Create path + ".tmp-XXXXXX" like mkstemp, but with mode 0666 so the
 * umask applies as it would to any new file. */
static int temp_create(td_db_files_t *w, td_error_t *err)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(w->path);
	struct timespec ts;
	uint64_t x;

	w->tmp_path = malloc(len + sizeof(".tmp-XXXXXX"));
	if (!w->tmp_path)
		return td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", w->path);
	memcpy(w->tmp_path, w->path, len);
	memcpy(w->tmp_path + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid() << 40;
	for (int tries = 0; tries < 1000; tries++) {
		uint64_t r = x;
		for (int i = 0; i < 6; i++, r /= 62)
			w->tmp_path[len + 5 + i] = letters[r % 62];
		w->tmp_fd = open(w->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
		if (w->tmp_fd >= 0)
			return TD_OK;
		if (errno != EEXIST)
			break;
		x = x * 6364136223846793005u + 1442695040888963407u;
	}
	{
		int e = errno;
		free(w->tmp_path);
		w->tmp_path = NULL;
		return td_error_set(err, TD_EIO, "unable to create a temporary file beside '%s': %s",
				    w->path, strerror(e));
	}
}

/* The path a chain of symlinks leads to, even when its end does not exist
 * yet, so that the rename replaces the database a link points to and not
 * the link. NULL with errno set on failure. */
static char *follow_links(const char *path)
{
	char *cur = td_strndup(path, strlen(path));

	for (int hops = 0; cur && hops < 40; hops++) {
		char target[PATH_MAX], *next, *dir;
		const char *slash;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		target[n] = '\0';
		slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			next = td_strndup(target, (size_t)n);
		} else {
			dir = td_strndup(cur, (size_t)(slash - cur + 1));
			next = dir ? td_str_concat(dir, target) : NULL;
			free(dir);
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	} else {
		errno = ENOMEM;
	}
	return NULL;
}

static int resolve_target(td_db_files_t *w, const char *path, struct stat *st, int *exists,
			  td_error_t *err)
{
	*exists = 0;
	w->path = follow_links(path);
	if (!w->path)
		return td_error_set(err, errno == ENOMEM ? TD_ENOMEM : TD_EIO, "unable to resolve '%s': %s",
				    path, strerror(errno));
	if (stat(w->path, st)) {
		if (errno == ENOENT)
			return TD_OK;
		return td_error_set(err, TD_EIO, "unable to stat '%s': %s", w->path, strerror(errno));
	}
	if (!S_ISREG(st->st_mode))
		return td_error_set(err, TD_EINVAL, "'%s' is not a regular file", w->path);
	*exists = 1;
	return TD_OK;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -1;
	if (fsync(fd) && errno != EINVAL)
		rc = -1;
	close(fd);
	return rc;
}

int td_db_files_open(td_db_files_t *f, const char *path, struct stat *st, int *exists,
		     td_error_t *err)
{
	int rc;

	memset(f, 0, sizeof(*f));
	f->lock_fd = -1;
	f->tmp_fd = -1;
	*exists = 0;
	if ((rc = resolve_target(f, path, st, exists, err)))
		return rc;
	/* The rename would replace a file its mode protects: say so, rather
	 * than fail later on a temporary file that took over that mode. */
	if (*exists && access(f->path, W_OK) && errno == EACCES)
		return td_error_set(err, TD_EIO, "'%s' is write-protected (mode %04o): make it writable"
				    " (chmod u+w) to change it", f->path, (unsigned)(st->st_mode & 07777));
	if (path_split_dir(f) || !(f->lock_path = td_str_concat(f->path, ".lock")))
		return td_error_set(err, TD_ENOMEM, "out of memory writing '%s'", path);
	if ((rc = lock_acquire(f, err)))
		return rc;
	remove_stale_temps(f);
	return TD_OK;
}

int td_db_files_temp(td_db_files_t *f, int mode_set, mode_t mode, td_error_t *err)
{
	int rc = temp_create(f, err);

	if (rc)
		return rc;
	if (mode_set && fchmod(f->tmp_fd, mode & 07777))
		return td_error_set(err, TD_EIO, "unable to set the mode of '%s': %s", f->tmp_path,
				    strerror(errno));
	return TD_OK;
}

int td_db_files_publish(td_db_files_t *f, td_error_t *err)
{
	int rc;

	/* SQLite wrote every page when its transactions committed; make them
	 * durable before the name points at them. */
	if (fsync(f->tmp_fd)) {
		rc = td_error_set(err, TD_EIO, "unable to write '%s': %s", f->path, strerror(errno));
		goto fail;
	}
	if (close(f->tmp_fd)) {
		f->tmp_fd = -1;
		rc = td_error_set(err, TD_EIO, "unable to write '%s': %s", f->path, strerror(errno));
		goto fail;
	}
	f->tmp_fd = -1;
	if (rename(f->tmp_path, f->path)) {
		rc = td_error_set(err, TD_EIO, "unable to replace '%s': %s", f->path, strerror(errno));
		goto fail;
	}
	free(f->tmp_path);
	f->tmp_path = NULL;
	if (sync_dir(f->dir)) {
		rc = td_error_set(err, TD_EIO, "'%s' is written but its directory could not be synced: %s",
				  f->path, strerror(errno));
		lock_release(f);
		return rc;
	}
	lock_release(f);
	return TD_OK;
fail:
	td_db_files_discard(f);
	return rc;
}

void td_db_files_discard(td_db_files_t *f)
{
	if (f->tmp_fd >= 0) {
		close(f->tmp_fd);
		f->tmp_fd = -1;
	}
	if (f->tmp_path) {
		unlink(f->tmp_path);
		free(f->tmp_path);
		f->tmp_path = NULL;
	}
	lock_release(f);
}

void td_db_files_release(td_db_files_t *f)
{
	td_db_files_discard(f);
	free(f->path);
	free(f->dir);
	free(f->lock_path);
	f->path = f->dir = f->lock_path = NULL;
}

int td_db_files_ours(const td_db_files_t *f, const char *name)
{
	const char *slash = strrchr(f->path, '/');
	const char *base = slash ? slash + 1 : f->path;
	size_t base_len = strlen(base);

	if (!strncmp(name, base, base_len) && !strcmp(name + base_len, ".lock"))
		return 1;
	return is_our_temp(name, base, base_len);
}

char *td_db_files_dir_under(const td_db_files_t *f, const char *root)
{
	char *dir = realpath(f->dir, NULL);
	size_t n = strlen(root);
	const char *rel;

	if (!dir)
		return NULL;
	if (n == 1 && root[0] == '/')
		rel = dir + 1;
	else if (!strncmp(dir, root, n) && (dir[n] == '\0' || dir[n] == '/'))
		rel = dir[n] ? dir + n + 1 : dir + n;
	else
		rel = NULL;
	if (!rel) {
		free(dir);
		return NULL;
	}
	memmove(dir, rel, strlen(rel) + 1);
	return dir;
}
