/* kbuild_built TREE CONFIG ARCH [objects|sources|included|warnings|dirs]
 *
 * Prints what td_kbuild_eval() derives for a kernel tree on disk, one path a
 * line: the objects (default), the source files, the warnings, or the
 * directories visited. Used by tests/long/kbuild_real.sh. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "treedrift/kbuild.h"
#include "treedrift/kconfig.h"

static int full_path(char *buf, size_t size, const char *root, const char *path)
{
	int n = snprintf(buf, size, "%s/%s", root, path);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int read_whole(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return errno == ENOENT || errno == ENOTDIR ? TD_ENOTFOUND : TD_EIO;
	for (;;) {
		size_t got;
		if (n == cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return TD_ENOMEM;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return TD_EIO;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

static int dir_read(void *ctx, const char *path, char **data, size_t *len)
{
	char full[8192];
	struct stat st;

	if (full_path(full, sizeof(full), ctx, path) || stat(full, &st) || !S_ISREG(st.st_mode))
		return TD_ENOTFOUND;
	return read_whole(full, data, len);
}

static int dir_exists(void *ctx, const char *path)
{
	char full[8192];
	struct stat st;

	return !full_path(full, sizeof(full), ctx, path) && !stat(full, &st) && S_ISREG(st.st_mode);
}

int main(int argc, char **argv)
{
	td_kbuild_io_t io = { 0 };
	td_kbuild_result_t *r = NULL;
	td_kconfig_t *cfg = NULL;
	td_error_t err = { 0 };
	const char *what = argc > 4 ? argv[4] : "objects";
	char *data = NULL;
	size_t len = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: kbuild_built TREE CONFIG ARCH [objects|sources|included|warnings|dirs]\n");
		return 2;
	}
	if (read_whole(argv[2], &data, &len)) {
		fprintf(stderr, "kbuild_built: unable to read '%s'\n", argv[2]);
		return 2;
	}
	if (td_kconfig_parse(&cfg, data, len, &err)) {
		fprintf(stderr, "kbuild_built: '%s': %s\n", argv[2], err.msg);
		free(data);
		return 2;
	}
	free(data);
	io.ctx = argv[1];
	io.read_file = dir_read;
	io.exists = dir_exists;
	if (td_kbuild_eval(&r, cfg, argv[3], &io, &err)) {
		fprintf(stderr, "kbuild_built: %s\n", err.msg);
		td_kconfig_free(cfg);
		return 2;
	}
	if (!strcmp(what, "sources")) {
		for (size_t i = 0; i < td_kbuild_source_count(r); i++)
			puts(td_kbuild_source(r, i));
	} else if (!strcmp(what, "included")) {
		for (size_t i = 0; i < td_kbuild_included_count(r); i++)
			puts(td_kbuild_included(r, i));
	} else if (!strcmp(what, "warnings")) {
		for (size_t i = 0; i < td_kbuild_warning_count(r); i++) {
			const td_kbuild_warning_t *w = td_kbuild_warning(r, i);
			printf("%s:%u: %s\n", w->file, w->line, w->msg);
		}
	} else if (!strcmp(what, "dirs")) {
		for (size_t i = 0; i < td_kbuild_dir_count(r); i++)
			puts(td_kbuild_dir(r, i));
	} else {
		for (size_t i = 0; i < td_kbuild_object_count(r); i++)
			puts(td_kbuild_object(r, i));
	}
	fprintf(stderr, "kbuild_built: %zu objects, %zu sources, %zu included, %zu directories, "
		"%zu warnings\n", td_kbuild_object_count(r), td_kbuild_source_count(r),
		td_kbuild_included_count(r), td_kbuild_dir_count(r),
		td_kbuild_warning_total(r));
	td_kbuild_result_free(r);
	td_kconfig_free(cfg);
	return 0;
}
