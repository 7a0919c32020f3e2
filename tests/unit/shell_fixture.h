/* Fixtures built with the machine's own tools (git, tar, sh): run a shell
 * command, read a file whole. For the tests of sources and of Kbuild over
 * trees. */
#ifndef TD_TEST_SHELL_FIXTURE_H
#define TD_TEST_SHELL_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* printf into one of eight rotating buffers: a few at a time may be live,
 * as arguments of one call. */
static inline const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static inline const char *fmt(const char *f, ...)
{
	static char buf[8][8192];
	static int n;
	char *b = buf[n++ % 8];
	va_list ap;

	va_start(ap, f);
	vsnprintf(b, sizeof(buf[0]), f, ap);
	va_end(ap);
	return b;
}

/* Run cmd with sh; non-zero (and a message) when it failed. */
static inline int sh(const char *cmd)
{
	int rc = system(cmd);
	if (rc)
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
	return rc;
}

/* The whole of a file, NUL-terminated; NULL when it cannot be read. */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf = f ? malloc(cap) : NULL, *grown;

	*len = 0;
	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			if (!(grown = realloc(buf, cap *= 2))) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

#endif
