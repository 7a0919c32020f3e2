/* treedrift hash: TLSH digests of files, in the reference tlsh's format.
 *
 * Output is what `tlsh -f FILE` / `tlsh -r DIR` (4.x) prints: one
 * "T1<70 hex digits><TAB>PATH" line per file that has a digest, files under
 * a directory sorted by their whole path (strcmp order, as the reference
 * sorts them) and named "DIR/NAME" with DIR as given. Tabs, newlines and
 * carriage returns in a path are written as the reference writes them.
 * Files that get no digest are reported on stderr only, as there.
 *
 * Unlike the reference, it never follows a symbolic link found inside a
 * directory, nor opens anything but a regular file: a link could lead out
 * of the tree, and opening a FIFO or a device could block or have effects.
 * Operands are followed, as find -H does. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "treedrift/tlsh.h"

#define HASH_READ_BYTES (256 * 1024)

typedef struct path_list {
	char **v;
	size_t n, cap;
} path_list_t;

typedef struct hash_run {
	uint8_t *buf;
	int failed;  /* an error (not a mere skip) happened */
} hash_run_t;

static int path_list_push(path_list_t *l, char *path)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		char **v;

		if (cap > SIZE_MAX / sizeof(*v))
			return -1;
		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = path;
	return 0;
}

static void path_list_release(path_list_t *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "dir/name", with dir as given: the reference writes "d//x" for "d/". */
static char *join_path(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

/* Add every non-directory under dir to files. Subdirectories are walked
 * after dir is closed, so that depth does not cost open descriptors.
 * Returns -1 only when out of memory; other failures set run->failed. */
static int collect_files(path_list_t *files, const char *dir, hash_run_t *run)
{
	path_list_t subdirs = { 0 };
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir);
	if (!d) {
		cli_error("unable to open directory '%s': %s", dir, strerror(errno));
		run->failed = 1;
		return 0;
	}
	for (;;) {
		struct stat st;
		char *path;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno) {
				cli_error("unable to read directory '%s': %s", dir, strerror(errno));
				run->failed = 1;
			}
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = join_path(dir, de->d_name);
		if (!path) {
			ret = -1;
			break;
		}
		if (lstat(path, &st)) {
			cli_error("unable to stat '%s': %s", path, strerror(errno));
			run->failed = 1;
			free(path);
			continue;
		}
		if (path_list_push(S_ISDIR(st.st_mode) ? &subdirs : files, path)) {
			free(path);
			ret = -1;
			break;
		}
	}
	closedir(d);
	for (size_t i = 0; !ret && i < subdirs.n; i++)
		ret = collect_files(files, subdirs.v[i], run);
	path_list_release(&subdirs);
	return ret;
}

/* The path as the reference prints it. */
static void print_path(const char *path)
{
	for (const char *c = path; *c; c++) {
		switch (*c) {
		case '\t': fputs("_<tlsh_convert_tab>_", stdout); break;
		case '\n': fputs("_<tlsh_convert_newline>_", stdout); break;
		case '\r': fputs("_<tlsh_convert_linefeed>_", stdout); break;
		default: putchar(*c); break;
		}
	}
}

/* Hash one file, in blocks, and print its line. follow: whether a symbolic
 * link may be followed (only for operands). */
static void hash_file(hash_run_t *run, const char *path, int follow)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
	char hex[TD_TLSH_HEX_CHARS + 1];
	td_tlsh_status_t status;
	td_tlsh_ctx_t ctx;
	td_tlsh_t digest;
	struct stat st;
	int fd;

	fd = open(path, flags);
	if (fd < 0) {
		if (!follow && errno == ELOOP) {
			cli_warn("skipping '%s': symbolic link", path);
			return;
		}
		cli_error("unable to open '%s': %s", path, strerror(errno));
		run->failed = 1;
		return;
	}
	/* The type checked is that of what was opened, not of a name that
	 * might have been replaced since the directory was read. */
	if (fstat(fd, &st)) {
		cli_error("unable to stat '%s': %s", path, strerror(errno));
		run->failed = 1;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			cli_warn("skipping '%s': is a directory (use -r)", path);
		else
			cli_warn("skipping '%s': not a regular file", path);
		goto out;
	}

	td_tlsh_init(&ctx);
	for (;;) {
		ssize_t n = read(fd, run->buf, HASH_READ_BYTES);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			cli_error("unable to read '%s': %s", path, strerror(errno));
			run->failed = 1;
			goto out;
		}
		if (n == 0)
			break;
		td_tlsh_update(&ctx, run->buf, (size_t)n);
	}

	status = td_tlsh_final(&digest, &ctx);
	if (status == TD_TLSH_TOO_SHORT) {
		cli_warn("'%s': file too small (under %d bytes)", path, TD_TLSH_MIN_INPUT_BYTES);
	} else if (status == TD_TLSH_TOO_UNIFORM) {
		cli_warn("'%s': cannot hash (too little variety)", path);
	} else {
		td_tlsh_format(hex, &digest);
		fputs(hex, stdout);
		putchar('\t');
		print_path(path);
		putchar('\n');
	}
out:
	close(fd);
}

static int hash_tree(hash_run_t *run, const char *dir)
{
	path_list_t files = { 0 };

	if (collect_files(&files, dir, run)) {
		path_list_release(&files);
		return cli_error("out of memory while listing '%s'", dir);
	}
	if (files.n)
		qsort(files.v, files.n, sizeof(files.v[0]), compare_paths);
	for (size_t i = 0; i < files.n; i++)
		hash_file(run, files.v[i], 0);
	path_list_release(&files);
	return 0;
}

static const cli_opt_t hash_opts[] = {
	{ "recursive", 'r', NULL, "hash every file under each DIR, sorted by path" },
	CLI_OPT_END
};

int cmd_hash(int argc, char **argv)
{
	hash_run_t run = { 0 };
	cli_parser_t p;
	int recursive = 0, c, ret = CLI_EXIT_SAME;

	if (cli_parser_init(&p, hash_opts, "treedrift hash [-r] FILE|DIR...",
			    "Print the TLSH digest of each FILE, or with -r of every file under each DIR,\n"
			    "as 'DIGEST<TAB>PATH' lines like the reference tlsh's -f and -r. Files too\n"
			    "small or too uniform for a digest are reported on stderr. Symbolic links\n"
			    "and special files inside a DIR are skipped.",
			    argc, argv))
		return cli_error("out of memory");
	while ((c = cli_parser_next(&p)) != CLI_PARSE_DONE) {
		if (cli_parser_stop(c, &ret))
			goto out;
		if (c == cli_opt_index(hash_opts, "recursive"))
			recursive = 1;
	}
	if (p.argc < 1) {
		cli_print_usage(stderr, &p);
		ret = CLI_EXIT_ERROR;
		goto out;
	}
	run.buf = malloc(HASH_READ_BYTES);
	if (!run.buf) {
		ret = cli_error("out of memory");
		goto out;
	}

	for (int i = 0; i < p.argc; i++) {
		const char *arg = p.argv[i];
		struct stat st;

		if (stat(arg, &st)) {
			cli_error("unable to open '%s': %s", arg, strerror(errno));
			run.failed = 1;
		} else if (S_ISDIR(st.st_mode) && !recursive) {
			cli_error("'%s' is a directory (use -r)", arg);
			run.failed = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (hash_tree(&run, arg)) {
				ret = CLI_EXIT_ERROR;
				goto out;
			}
		} else {
			hash_file(&run, arg, 1);
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		ret = cli_error("unable to write output: %s", strerror(errno));
		goto out;
	}
	if (run.failed)
		ret = CLI_EXIT_ERROR;
out:
	free(run.buf);
	cli_parser_release(&p);
	return ret;
}
