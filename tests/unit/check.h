/* A tiny test harness: CHECK keeps going and counts failures; main returns
 * check_finish(), non-zero when any check failed. */
#ifndef TD_TEST_CHECK_H
#define TD_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond) do { \
	check_count++; \
	if (!(cond)) { \
		check_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_INT(got, want) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	check_count++; \
	if (g_ != w_) { \
		check_failures++; \
		fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, w_); \
	} \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	check_count++; \
	if (!g_ || !w_ || strcmp(g_, w_)) { \
		check_failures++; \
		fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, \
			g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} \
} while (0)

static inline int check_finish(void)
{
	printf("%d checks, %d failed\n", check_count, check_failures);
	return check_failures ? 1 : 0;
}

/* A fresh directory $TMPDIR/td-NAME-XXXXXX (/tmp without TMPDIR), its
 * canonical path in out, as the sources report canonical roots. Exits the
 * test with status 1 when it cannot be made. */
static inline void check_tmpdir(char *out, size_t size, const char *name)
{
	const char *base = getenv("TMPDIR");
	char *real;

	if ((size_t)snprintf(out, size, "%s/td-%s-XXXXXX", base && *base ? base : "/tmp", name) >= size ||
	    !mkdtemp(out) || !(real = realpath(out, NULL))) {
		perror("test directory");
		exit(1);
	}
	if ((size_t)snprintf(out, size, "%s", real) >= size) {
		fprintf(stderr, "test directory: '%s' is too long\n", real);
		exit(1);
	}
	free(real);
}

#endif
