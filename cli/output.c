/* Output files of the CLI: one set of rules for all of them (output.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

/* The file an input spec reads, if it names one: "archive:PATH" is PATH,
 * "git:REPO@REV" the repository (a directory, never a file we could write). */
static const char *input_path(const char *spec)
{
	if (!strncmp(spec, "archive:", 8))
		return spec + 8;
	if (!strncmp(spec, "git:", 4))
		return NULL;
	return spec;
}

/* 1 when path (which exists: st) or its name is one of the inputs. */
static int is_input(const char *path, const struct stat *st, const char *const *inputs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *in = inputs[i] ? input_path(inputs[i]) : NULL;
		struct stat ist;

		if (!in || !*in)
			continue;
		if (!strcmp(in, path))
			return 1;
		if (st && !stat(in, &ist) && ist.st_dev == st->st_dev && ist.st_ino == st->st_ino)
			return 1;
	}
	return 0;
}

static int open_in_place(cli_output_t *o, int truncate)
{
	int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncate ? O_TRUNC : 0));

	if (fd < 0)
		return cli_error("unable to open '%s': %s", o->path, strerror(errno));
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		return cli_error("unable to open '%s': %s", o->path, strerror(e));
	}
	return 0;
}

/* The directory part of path ("." when it has none), in buf. */
static const char *dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	if ((size_t)(slash - path) >= size)
		return NULL;
	memcpy(buf, path, (size_t)(slash - path));
	buf[slash - path] = '\0';
	return buf;
}

/* An unnamed file in o->path's directory (O_TMPFILE): a run killed before
 * its commit leaves nothing behind. -1 where the file system or the kernel
 * has no such files, or /proc, through which the commit names it, is not
 * mounted. */
static int open_unnamed(const cli_output_t *o, mode_t mode)
{
#ifdef O_TMPFILE
	char buf[4096];
	const char *dir = dir_of(o->path, buf, sizeof(buf));

	if (dir && !access("/proc/self/fd", X_OK))
		return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
#else
	(void)o, (void)mode;
#endif
	return -1;
}

/* A new file beside o->path with the mode the output will have: that of
 * the file it replaces, else 0666 less the umask. Unnamed until the commit
 * where it can be; else path + ".tmp-XXXXXX", created exclusively
 * (mkstemp: O_EXCL, so a symlink in its place is an error, never
 * followed). */
static int open_temp(cli_output_t *o, const struct stat *old)
{
	size_t len = strlen(o->path);
	mode_t mode;
	int fd;

	if (old) {
		mode = old->st_mode & 0777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (!(o->tmp = malloc(len + sizeof(".tmp-XXXXXX"))))
		return cli_error("out of memory");
	memcpy(o->tmp, o->path, len);
	memcpy(o->tmp + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	o->unnamed = 1;
	if ((fd = open_unnamed(o, mode)) < 0) {
		o->unnamed = 0;
		fd = mkstemp(o->tmp);
	}
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return cli_error("unable to create '%s': %s", o->path, strerror(e));
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		if (!o->unnamed)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return cli_error("unable to create '%s': %s", o->path, strerror(e));
	}
	return 0;
}

/* Give the unnamed file o->f a name, o->tmp (made unique as mkstemp would,
 * by trying names until one is free), to rename into place: between the two
 * it has a name for a moment only. 0 or an errno. */
static int name_unnamed(cli_output_t *o)
{
	char proc[64];
	size_t len = strlen(o->tmp);

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(o->f));
	for (int tries = 0; tries < 100; tries++) {
		int fd;
		/* mkstemp picks a free name and creates it: take the name, then
		 * link over its place, which only this run knows of. */
		memcpy(o->tmp + len - 6, "XXXXXX", 6);
		if ((fd = mkstemp(o->tmp)) < 0)
			return errno;
		close(fd);
		unlink(o->tmp);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW)) {
			o->unnamed = 0;
			return 0;
		}
		if (errno != EEXIST)
			return errno;
	}
	return EEXIST;
}

int cli_output_open(cli_output_t *o, const char *path, const char *const *inputs, size_t n_inputs)
{
	struct stat st, lst;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->f = stdout;
		return 0;
	}
	o->path = path;
	if (!*path)
		return cli_error("no output file name");
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return cli_error("unable to open '%s': %s", path, strerror(errno));
		if (!lstat(path, &lst) && S_ISLNK(lst.st_mode))
			return cli_error("refusing to write '%s': a symlink to a missing file", path);
		if (is_input(path, NULL, inputs, n_inputs))
			return cli_error("refusing to write '%s': it is one of the inputs", path);
		return open_temp(o, NULL);
	}
	if (S_ISDIR(st.st_mode))
		return cli_error("unable to write '%s': it is a directory", path);
	if (is_input(path, &st, inputs, n_inputs))
		return cli_error("refusing to write '%s': it is one of the inputs", path);
	if (!S_ISREG(st.st_mode))
		return open_in_place(o, 0); /* /dev/null, a FIFO, a terminal: never replaced */
	if (lstat(path, &lst))
		return cli_error("unable to open '%s': %s", path, strerror(errno));
	if (S_ISLNK(lst.st_mode))
		return open_in_place(o, 1); /* the file the link leads to, as `>` would */
	return open_temp(o, &st);
}

int cli_output_commit(cli_output_t *o)
{
	int e = 0;

	if (!o->f)
		return cli_error("unable to write '%s': not open", o->path ? o->path : "standard output");
	errno = 0;
	if (!o->path) {
		o->f = NULL;
		if (fflush(stdout) || ferror(stdout))
			return cli_error("unable to write the standard output: %s", strerror(errno ? errno : EIO));
		return 0;
	}
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	else if (o->tmp && fsync(fileno(o->f)))
		e = errno;
	if (!e && o->tmp && o->unnamed)
		e = name_unnamed(o);
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		cli_output_abort(o);
		return cli_error("unable to write '%s': %s", o->path, strerror(e));
	}
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void cli_output_abort(cli_output_t *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		if (!o->unnamed)
			unlink(o->tmp); /* ours: created by open_temp or named by the commit */
		free(o->tmp);
		o->tmp = NULL;
	}
}
