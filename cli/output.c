/* Output files of the CLI: one set of rules for all of them (output.h). */
#include <errno.h>
#include <fcntl.h>
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

/* A new file beside o->path, created exclusively (mkstemp: O_EXCL, so a
 * symlink in its place is an error, never followed), with the mode the
 * output will have: that of the file it replaces, else 0666 less the umask. */
static int open_temp(cli_output_t *o, const struct stat *old)
{
	size_t len = strlen(o->path);
	mode_t mode;
	int fd;

	if (!(o->tmp = malloc(len + sizeof(".tmp-XXXXXX"))))
		return cli_error("out of memory");
	memcpy(o->tmp, o->path, len);
	memcpy(o->tmp + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	if ((fd = mkstemp(o->tmp)) < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return cli_error("unable to create '%s': %s", o->path, strerror(e));
	}
	if (old) {
		mode = old->st_mode & 0777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return cli_error("unable to create '%s': %s", o->path, strerror(e));
	}
	return 0;
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
		unlink(o->tmp); /* ours: created by open_temp, never anything else */
		free(o->tmp);
		o->tmp = NULL;
	}
}
