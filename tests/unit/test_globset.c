/* The globset's prefix index must give what trying every pattern gives:
 * the longest matching pattern, ties to the earliest. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "globset.h"
#include "internal.h"
#include "treedrift/compare.h"

static unsigned long long rng = 0x243f6a8885a308d3ULL;

static unsigned next_rand(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((rng >> 33) % n);
}

/* Reference: every pattern, in order. */
static int brute_best(char **patterns, size_t n, const char *path, size_t len, td_globset_accept_fn accept,
		      uint32_t *value)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		if (!td_glob_match(patterns[i], path, len))
			continue;
		if (accept && !accept((uint32_t)i, path, len, NULL))
			continue;
		if (best == SIZE_MAX || strlen(patterns[i]) > strlen(patterns[best]))
			best = i;
	}
	if (best == SIZE_MAX)
		return 0;
	*value = (uint32_t)best;
	return 1;
}

static int odd_only(uint32_t value, const char *path, size_t len, void *ctx)
{
	(void)path;
	(void)len;
	(void)ctx;
	return value % 2 == 1;
}

static void random_word(char *out, size_t max, const char *alphabet)
{
	size_t n = 1 + next_rand((unsigned)max), k = strlen(alphabet);

	for (size_t i = 0; i < n; i++)
		out[i] = alphabet[next_rand((unsigned)k)];
	out[n] = '\0';
}

static void test_random_alphabet(const char *pattern_alphabet, const char *path_alphabet)
{
	enum { PATTERNS = 300, PATHS = 3000 };
	char *patterns[PATTERNS];
	td_globset_t *s = NULL;
	unsigned mismatches = 0;

	CHECK_INT(td_globset_new(&s), 0);
	if (!s)
		return;
	for (size_t i = 0; i < PATTERNS; i++) {
		char buf[32];

		random_word(buf, 10, pattern_alphabet);
		if (i && next_rand(4) == 0) /* the same as an earlier one: ties by order */
			snprintf(buf, sizeof(buf), "%s", patterns[next_rand((unsigned)i)]);
		patterns[i] = td_strndup(buf, strlen(buf));
		CHECK_INT(td_globset_add(s, patterns[i], (uint32_t)i), 0);
	}
	CHECK_INT(td_globset_build(s), 0);
	CHECK_INT(td_globset_add(s, "late", 0), TD_EINVAL);
	for (size_t i = 0; i < PATHS; i++) {
		char path[32];
		uint32_t got = UINT32_MAX, want = UINT32_MAX;
		const char *pattern = NULL;
		int g, w;

		random_word(path, 12, path_alphabet);
		g = td_globset_best(s, path, strlen(path), NULL, NULL, &got, &pattern);
		w = brute_best(patterns, PATTERNS, path, strlen(path), NULL, &want);
		if (g != w || got != want || (g && strcmp(pattern, patterns[want]))) {
			if (mismatches++ < 5)
				fprintf(stderr, "path '%s': set %d/%u, every pattern %d/%u\n", path, g, got, w, want);
		}
		g = td_globset_best(s, path, strlen(path), odd_only, NULL, &got, NULL);
		w = brute_best(patterns, PATTERNS, path, strlen(path), odd_only, &want);
		if (g != w || (g && got != want)) {
			if (mismatches++ < 5)
				fprintf(stderr, "path '%s' (odd): set %d/%u, every pattern %d/%u\n", path, g, got,
					w, want);
		}
	}
	CHECK_INT(mismatches, 0);
	td_globset_free(s);
	for (size_t i = 0; i < PATTERNS; i++)
		free(patterns[i]);
}

static void test_basics(void)
{
	td_globset_t *s = NULL;
	uint32_t v = 99;
	const char *pat = NULL;

	CHECK_INT(td_globset_new(&s), 0);
	if (!s)
		return;
	/* before the build nothing is found */
	CHECK_INT(td_globset_add(s, "drivers/", 1), 0);
	CHECK_INT(td_globset_best(s, "drivers/x", 9, NULL, NULL, &v, &pat), 0);
	CHECK_INT(td_globset_add(s, "/drivers/net/", 2), 0);
	CHECK_INT(td_globset_add(s, "*.c", 3), 0);
	CHECK_INT(td_globset_add(s, "drivers/*/x*.c", 4), 0);
	CHECK_INT(td_globset_add(s, "**/Makefile", 5), 0);
	CHECK_INT(td_globset_build(s), 0);
	CHECK_INT(td_globset_build(s), TD_EINVAL);
	CHECK_INT(td_globset_best(s, "drivers/x", 9, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 1);
	CHECK_STR(pat, "drivers/");
	CHECK_INT(td_globset_best(s, "drivers/net/y.c", 15, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 2);
	CHECK_INT(td_globset_best(s, "drivers/net/xy.c", 16, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 4);
	CHECK_INT(td_globset_best(s, "fs/a.c", 6, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 3);
	CHECK_INT(td_globset_best(s, "drivers/net/Makefile", 20, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 2);
	CHECK_INT(td_globset_best(s, "fs/Makefile", 11, NULL, NULL, &v, &pat), 1);
	CHECK_INT(v, 5);
	CHECK_INT(td_globset_best(s, "fs/a.h", 6, NULL, NULL, &v, &pat), 0);
	CHECK_INT(td_globset_best(s, "", 0, NULL, NULL, &v, &pat), 0);
	CHECK_INT(td_globset_best(NULL, "a", 1, NULL, NULL, &v, &pat), 0);
	td_globset_free(s);
	td_globset_free(NULL);
}

static void test_random(void)
{
	test_random_alphabet("ab/ab/ab*?[]", "ab/ab/ab");
	/* escapes, "**" parts, literal brackets and stars in paths: the prefix,
	 * suffix and part keys must still give what every pattern gives */
	test_random_alphabet("ab/ab/ab/**?[]\\", "ab/ab/ab*[]\\");
	test_random_alphabet("abc//**", "abc/");
}

/* Generated sets that a prefix index alone leaves to a scan of every
 * pattern for every path: each lookup now tries a handful. */
static void test_bounded(void)
{
	enum { N = 199000, POLICY = 9000 };
	td_globset_t *s = NULL;
	char buf[64], path[64];
	uint32_t v = 0;
	size_t most = 0;

	/* MAINTAINERS F: lines without a literal prefix, anchored as the
	 * parser adds them: found by suffix (fN.c) and by part (xN) */
	CHECK_INT(td_globset_new(&s), 0);
	if (!s)
		return;
	for (unsigned i = 0; i < N; i++) {
		if (i % 2)
			snprintf(buf, sizeof(buf), "/*/d%u/f%u.c", i, i);
		else
			snprintf(buf, sizeof(buf), "/*/x%u/", i);
		CHECK_INT(td_globset_add(s, buf, i), 0);
	}
	CHECK_INT(td_globset_build(s), 0);
	CHECK_INT((int)td_globset_unindexed(s), 0);
	for (unsigned i = 0; i < 2000; i++) {
		unsigned k = i * 97 % N;
		size_t c;
		if (k % 2)
			snprintf(path, sizeof(path), "drivers/d%u/f%u.c", k, k);
		else
			snprintf(path, sizeof(path), "arch/x%u/y/z.c", k);
		c = td_globset_candidates(s, path, strlen(path));
		if (c > most)
			most = c;
		CHECK_INT(td_globset_best(s, path, strlen(path), NULL, NULL, &v, NULL), 1);
		CHECK_INT((int)v, (int)k);
	}
	CHECK(most <= 4);
	snprintf(path, sizeof(path), "drivers/nothing/here.c");
	CHECK(td_globset_candidates(s, path, strlen(path)) <= 2);
	CHECK_INT(td_globset_best(s, path, strlen(path), NULL, NULL, &v, NULL), 0);
	td_globset_free(s);

	/* a policy of "**" patterns: by suffix and by part */
	CHECK_INT(td_globset_new(&s), 0);
	if (!s)
		return;
	for (unsigned i = 0; i < POLICY; i++) {
		snprintf(buf, sizeof(buf), i % 2 ? "**/n%u.c" : "**/dir%u/", i);
		CHECK_INT(td_globset_add(s, buf, i), 0);
	}
	CHECK_INT(td_globset_build(s), 0);
	most = 0;
	for (unsigned i = 0; i < POLICY; i += 7) {
		size_t c;
		snprintf(path, sizeof(path), i % 2 ? "a/b/n%u.c" : "a/dir%u/b/c.h", i);
		c = td_globset_candidates(s, path, strlen(path));
		if (c > most)
			most = c;
		CHECK_INT(td_globset_best(s, path, strlen(path), NULL, NULL, &v, NULL), 1);
		CHECK_INT((int)v, (int)i);
	}
	CHECK(most <= 4);
	td_globset_free(s);

	/* patterns with no literal key at all are bounded in number */
	CHECK_INT(td_globset_new(&s), 0);
	if (!s)
		return;
	for (unsigned i = 0; i <= TD_GLOBSET_MAX_UNINDEXED; i++) {
		snprintf(buf, sizeof(buf), "*%u*", i);
		CHECK_INT(td_globset_add(s, buf, i), 0);
	}
	CHECK_INT(td_globset_build(s), TD_EUNSUPPORTED);
	CHECK_INT((int)td_globset_unindexed(s), TD_GLOBSET_MAX_UNINDEXED + 1);
	td_globset_free(s);
}

int main(void)
{
	test_basics();
	test_random();
	test_bounded();
	return check_finish();
}
