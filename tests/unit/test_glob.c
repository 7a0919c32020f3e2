/* td_glob_match: every rule of the pattern language, paths with any byte,
 * and hostile patterns that must finish quickly. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "treedrift/compare.h"

static int m(const char *pattern, const char *path)
{
	return td_glob_match(pattern, path, strlen(path));
}

#define YES(pat, path) CHECK_INT(m(pat, path), 1)
#define NO(pat, path) CHECK_INT(m(pat, path), 0)

static void test_literal(void)
{
	YES("kernel/fork.c", "kernel/fork.c");
	NO("kernel/fork.c", "kernel/fork.cc");
	NO("kernel/fork.c", "kernel/fork.");
	NO("kernel/fork.c", "kernel/fork.c/x");
	NO("kernel/fork.c", "a/kernel/fork.c");  /* anchored at the root */
	NO("Kernel/fork.c", "kernel/fork.c");    /* case matters */
	NO("", "");
	NO("", "a");
}

static void test_last_part(void)
{
	/* no '/' at all: the last part of the path, at any depth */
	YES("*.c", "fork.c");
	YES("*.c", "kernel/fork.c");
	YES("*.c", "drivers/net/ethernet/intel/e1000/e1000_main.c");
	NO("*.c", "kernel/fork.h");
	NO("*.c", "kernel.c/fork.h");            /* only the last part counts */
	YES("Makefile", "Makefile");
	YES("Makefile", "drivers/net/Makefile");
	NO("Makefile", "drivers/Makefile/x");
	NO("Makefile", "drivers/net/Makefile.rules");
	YES("Makefile*", "scripts/Makefile.build");
	YES("README*", "README");
	YES("README*", "drivers/staging/README.txt");
	YES("**", "a/b/c");                      /* "**" within a part is a '*' */
	YES("*", "x");
	YES("*", "a/b/x");
	YES("x", "x");
}

static void test_star(void)
{
	YES("kernel/*.c", "kernel/fork.c");
	YES("kernel/*", "kernel/fork.c");
	NO("kernel/*", "kernel/sched/core.c");   /* '*' stays within one part */
	NO("kernel/*.c", "kernel/sched/core.c");
	YES("*/Makefile", "kernel/Makefile");
	NO("*/Makefile", "Makefile");
	NO("*/Makefile", "drivers/net/Makefile");
	YES("arch/*/kernel/", "arch/arm64/kernel/setup.c");
	YES("arch/*/kernel/", "arch/x86/kernel/cpu/common.c");
	NO("arch/*/kernel/", "arch/kernel/x.c");
	YES("a*b*c", "abc");
	YES("a*b*c", "aXXbYYc");
	YES("a*b*c", "abbbbc");
	NO("a*b*c", "aXXbYY");
	YES("*a", "aaa");
	YES("a*", "a");
	YES("***", "x");
	YES("x/***/y", "x/abc/y");               /* not a whole "**": a star */
	NO("x/***/y", "x/a/b/y");
	YES("*x*", "x");
	NO("*x*", "abc");
	YES("k*/f*k.c", "kernel/fork.c");
	/* a star matches the empty string */
	YES("kernel/*fork.c", "kernel/fork.c");
	YES("*", "");
}

static void test_question(void)
{
	YES("?", "a");
	NO("?", "");
	NO("?", "ab");
	YES("a?c", "abc");
	NO("a?c", "ac");
	NO("a?c", "a/c");                        /* never '/' */
	NO("a/?", "a/");
	YES("??.c", "xy.c");
	YES("a/?/c", "a/b/c");
}

static void test_sets(void)
{
	YES("[abc].c", "a.c");
	YES("[abc].c", "c.c");
	NO("[abc].c", "d.c");
	YES("x[0-9]", "x5");
	NO("x[0-9]", "xa");
	YES("x[a-cx-z]", "xy");
	NO("x[a-cx-z]", "xd");
	YES("x[!0-9]", "xa");
	NO("x[!0-9]", "x5");
	YES("x[^0-9]", "xa");
	NO("x[^0-9]", "x5");
	YES("[]]", "]");                         /* ']' first is a member */
	YES("[!]]", "a");
	NO("[!]]", "]");
	YES("[a-]", "-");                        /* '-' last is a member */
	YES("[-a]", "-");
	NO("[a-]", "b");
	NO("[z-a]", "m");                        /* an empty range */
	YES("[*?]", "*");
	NO("[*?]", "x");
	YES("[\\]", "\\");                      /* backslash is literal inside */
	NO("a[/]b", "a/b");                      /* a set never matches '/' */
	NO("a[!x]b", "a/b");
	/* no closing ']': the '[' is an ordinary byte */
	YES("[abc", "[abc");
	NO("[abc", "a");
	YES("x[", "x[");
	YES("[]", "[]");
	YES("*[", "ab[");
	YES("[[]", "[");
	/* bytes above 0x7f compare as unsigned */
	YES("[\x80-\xff]", "\xe9");
	NO("[\x01-\x7f]", "\xe9");
}

static void test_escape(void)
{
	YES("\\*", "*");
	NO("\\*", "x");
	YES("a\\?b", "a?b");
	NO("a\\?b", "axb");
	YES("\\[x]", "[x]");
	NO("\\[x]", "x");
	YES("sp\\ ace", "sp ace");
	YES("a\\", "a\\");                      /* a trailing backslash is itself */
	YES("*\\*", "x*");
}

static void test_double_star(void)
{
	YES("**/Makefile", "Makefile");          /* zero parts */
	YES("**/Makefile", "drivers/Makefile");
	YES("**/Makefile", "drivers/net/Makefile");
	NO("**/Makefile", "drivers/net/Makefile.x");
	YES("drivers/**/Kconfig", "drivers/Kconfig");
	YES("drivers/**/Kconfig", "drivers/a/b/c/Kconfig");
	NO("drivers/**/Kconfig", "fs/Kconfig");
	NO("drivers/**/Kconfig", "drivers/a/b/c/Kconfig.debug");
	YES("a/**/b/**/c", "a/b/c");
	YES("a/**/b/**/c", "a/x/b/y/z/c");
	YES("a/**/b/**/c", "a/b/b/b/c");
	NO("a/**/b/**/c", "a/x/c");
	YES("a/**/**/b", "a/b");
	YES("**/*.dts", "arch/arm64/boot/dts/foo/bar.dts");
	YES("arch/**/dts/", "arch/arm64/boot/dts/foo/bar.dts");
	NO("arch/**/dts/", "arch/arm64/boot/dts");
	/* a final "**" part: everything below, not the directory itself */
	YES("drivers/**", "drivers/net/x.c");
	YES("drivers/**", "drivers/x");
	NO("drivers/**", "drivers");
	NO("drivers/**", "driversx/y");
	YES("/**", "anything/at/all");
	YES("**/", "a/b");
	YES("**/", "a");                         /* "**" takes no part: the root */
	/* backtracking over parts picks the right split */
	YES("**/a/b", "a/a/a/b");
	NO("**/a/b", "a/a/a/c");
	YES("**/x/*/y", "x/x/z/y");
}

static void test_directory(void)
{
	YES("drivers/", "drivers/net/x.c");
	YES("drivers/", "drivers/Makefile");
	YES("drivers/", "drivers/");
	NO("drivers/", "drivers");               /* the directory, not a file named so */
	NO("drivers/", "driversx/y.c");
	NO("drivers/", "arch/drivers/x.c");     /* anchored at the root */
	YES("drivers/net/", "drivers/net/ethernet/x.c");
	NO("drivers/net/", "drivers/netfilter/x.c");
	YES("include/linux/", "include/linux/sched.h");
	NO("kernel/", "arch/arm64/kernel/setup.c");
	YES("driv*/", "drivers/x");
	YES("*/net/", "drivers/net/x");
	YES("*/net/", "include/net/x/y");
	NO("*/net/", "net/x");
}

static void test_anchor(void)
{
	YES("/Makefile", "Makefile");
	NO("/Makefile", "kernel/Makefile");
	YES("/kernel/fork.c", "kernel/fork.c");
	YES("/drivers/", "drivers/a");
	NO("/drivers/", "x/drivers/a");
	YES("/*.c", "x.c");
	NO("/*.c", "a/x.c");
	YES("/", "a");                           /* the root directory: everything */
	YES("/", "a/b");
	NO("/", "");
	NO("/a", "a/b");
}

static void test_bytes(void)
{
	static const char nl[] = "dir/new\nline.c";
	static const char bad[] = "dir/\xff\xfe.c";
	static const char withnul[] = "dir/a.c\0trailing";

	CHECK_INT(td_glob_match("dir/*.c", nl, sizeof(nl) - 1), 1);
	CHECK_INT(td_glob_match("*line.c", nl, sizeof(nl) - 1), 1);
	CHECK_INT(td_glob_match("dir/new?line.c", nl, sizeof(nl) - 1), 1);
	CHECK_INT(td_glob_match("dir/*.c", bad, sizeof(bad) - 1), 1);
	CHECK_INT(td_glob_match("dir/\xff?.c", bad, sizeof(bad) - 1), 1);
	/* the length is the path's end, whatever follows it */
	CHECK_INT(td_glob_match("dir/a.c", withnul, 7), 1);
	CHECK_INT(td_glob_match("dir/a.c", withnul, 6), 0);
	CHECK_INT(td_glob_match("*.c", withnul, 7), 1);
	/* a path that is not NUL-terminated at its length */
	{
		char buf[8];

		memcpy(buf, "ab/cd.cX", 8);
		CHECK_INT(td_glob_match("ab/cd.c", buf, 7), 1);
		CHECK_INT(td_glob_match("*.c", buf, 7), 1);
		CHECK_INT(td_glob_match("ab/", buf, 7), 1);
	}
	CHECK_INT(td_glob_match(NULL, "a", 1), 0);
	CHECK_INT(td_glob_match("a", NULL, 0), 0);
	/* odd paths: empty parts */
	YES("a//b", "a//b");
	YES("a/**/b", "a//b");
	NO("a/b", "a//b");
}

/* A plain recursive matcher with the same rules, exponential but obviously
 * right, to compare with on every small pattern and path. */
static int ref_set(const char *p, size_t pl, unsigned char c, size_t *len)
{
	size_t start = 1, j;
	int neg = 0, in = 0;

	if (pl > 1 && (p[1] == '!' || p[1] == '^')) {
		neg = 1;
		start = 2;
	}
	for (j = start + 1; j < pl && p[j] != ']'; j++)
		;
	if (start >= pl || j >= pl)
		return -1; /* no closing ']' */
	for (size_t k = start; k < j; k++) {
		unsigned char lo = (unsigned char)p[k], hi = lo;

		if (k + 2 < j && p[k + 1] == '-') {
			hi = (unsigned char)p[k + 2];
			k += 2;
		}
		in |= lo <= c && c <= hi;
	}
	*len = j + 1;
	return c != '/' && in != neg;
}

static int ref_seg(const char *p, size_t pl, const char *s, size_t sl)
{
	size_t n;
	int r;

	if (!pl)
		return !sl;
	if (p[0] == '*')
		return ref_seg(p + 1, pl - 1, s, sl) || (sl && ref_seg(p, pl, s + 1, sl - 1));
	if (!sl)
		return 0;
	if (p[0] == '?')
		return ref_seg(p + 1, pl - 1, s + 1, sl - 1);
	if (p[0] == '[' && (r = ref_set(p, pl, (unsigned char)s[0], &n)) >= 0)
		return r && ref_seg(p + n, pl - n, s + 1, sl - 1);
	if (p[0] == '\\' && pl > 1)
		return p[1] == s[0] && ref_seg(p + 2, pl - 2, s + 1, sl - 1);
	return p[0] == s[0] && ref_seg(p + 1, pl - 1, s + 1, sl - 1);
}

static size_t ref_split(const char *s, size_t len, const char **parts, size_t *lens)
{
	size_t n = 0, start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == '/') {
			parts[n] = s + start;
			lens[n++] = i - start;
			start = i + 1;
		}
	}
	return n;
}

static int ref_parts(const char **pp, const size_t *pn, size_t np,
		     const char **sp, const size_t *sn, size_t ns, int below)
{
	if (!np)
		return below ? ns > 0 : ns == 0;
	if (pn[0] == 2 && pp[0][0] == '*' && pp[0][1] == '*')
		return ref_parts(pp + 1, pn + 1, np - 1, sp, sn, ns, below) ||
		       (ns && ref_parts(pp, pn, np, sp + 1, sn + 1, ns - 1, below));
	return ns && ref_seg(pp[0], pn[0], sp[0], sn[0]) &&
	       ref_parts(pp + 1, pn + 1, np - 1, sp + 1, sn + 1, ns - 1, below);
}

static int ref_match(const char *p, const char *s, size_t sl)
{
	const char *pp[64], *sp[64];
	size_t pn[64], sn[64], pl = strlen(p), np, ns;
	int below = 0;

	if (!pl)
		return 0;
	if (!strchr(p, '/')) {
		const char *last = s;

		for (size_t i = 0; i < sl; i++)
			if (s[i] == '/')
				last = s + i + 1;
		return ref_seg(p, pl, last, sl - (size_t)(last - s));
	}
	if (p[0] == '/') {
		p++;
		pl--;
	}
	if (pl && p[pl - 1] == '/') {
		below = 1;
		pl--;
	}
	if (!pl)
		return sl > 0;
	np = ref_split(p, pl, pp, pn);
	if (!below && np > 1 && pn[np - 1] == 2 && pp[np - 1][0] == '*' && pp[np - 1][1] == '*') {
		below = 1;
		np--;
	}
	ns = ref_split(s, sl, sp, sn);
	return ref_parts(pp, pn, np, sp, sn, ns, below);
}

static void test_against_reference(void)
{
	static const char pat_bytes[] = "ab/*?[]!-\\";
	static const char path_bytes[] = "ab/[]-*";
	unsigned long long state = 0x9e3779b97f4a7c15ULL;
	unsigned mismatches = 0;

	for (int iter = 0; iter < 300000; iter++) {
		char pat[12], path[10];
		size_t pl, sl;

		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		pl = 1 + (size_t)(state >> 60) % 9;
		sl = (size_t)(state >> 56) % 9;
		for (size_t i = 0; i < pl; i++) {
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			pat[i] = pat_bytes[(state >> 33) % (sizeof(pat_bytes) - 1)];
		}
		pat[pl] = '\0';
		for (size_t i = 0; i < sl; i++) {
			state = state * 6364136223846793005ULL + 1442695040888963407ULL;
			path[i] = path_bytes[(state >> 33) % (sizeof(path_bytes) - 1)];
		}
		if (td_glob_match(pat, path, sl) != ref_match(pat, path, sl)) {
			if (mismatches++ < 10)
				fprintf(stderr, "pattern '%s' path '%.*s': glob %d, reference %d\n",
					pat, (int)sl, path, td_glob_match(pat, path, sl),
					ref_match(pat, path, sl));
		}
	}
	CHECK_INT(mismatches, 0);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *repeat(const char *unit, size_t times, const char *tail)
{
	size_t ul = strlen(unit), tl = strlen(tail);
	char *s = malloc(ul * times + tl + 1);

	if (!s)
		abort();
	for (size_t i = 0; i < times; i++)
		memcpy(s + i * ul, unit, ul);
	memcpy(s + ul * times, tail, tl + 1);
	return s;
}

static void test_hostile(void)
{
	double start = now_seconds(), took;
	char *pat, *path;

	/* a*a*a*...b against aaaa...: exponential for a naive backtracker */
	pat = repeat("a*", 200, "b");
	path = repeat("a", 4000, "");
	NO(pat, path);
	free(pat);
	pat = repeat("*a", 200, "*b");
	NO(pat, path);
	free(path);
	path = repeat("a", 4000, "b");
	YES(pat, path);
	free(pat);
	free(path);

	/* the same across parts: repeated "**" and "a" parts against a/a/a/... */
	pat = repeat("**/a/", 100, "b");
	path = repeat("a/", 2000, "c");
	NO(pat, path);
	free(path);
	path = repeat("a/", 2000, "b");
	YES(pat, path);
	free(pat);
	free(path);

	/* stars within parts within stars across parts */
	pat = repeat("**/*a*a*a*/", 50, "b");
	path = repeat("aaaaaaaaaa/", 500, "c");
	NO(pat, path);
	free(pat);
	free(path);

	/* many unclosed '[' after a star */
	pat = repeat("[", 4000, "");
	memcpy(pat, "*", 1);
	path = repeat("[", 4000, "x");
	NO(pat, path);
	free(pat);
	free(path);

	/* long sets after a star */
	pat = repeat("[abcdefghijklmnopqrstuvwxyz]", 150, "!");
	memcpy(pat, "*", 1);
	path = repeat("q", 4000, "");
	NO(pat, path);
	free(pat);
	free(path);

	took = now_seconds() - start;
	fprintf(stderr, "hostile patterns: %.3f s\n", took);
	CHECK(took < 5.0);
}

int main(void)
{
	test_literal();
	test_last_part();
	test_star();
	test_question();
	test_sets();
	test_escape();
	test_double_star();
	test_directory();
	test_anchor();
	test_bytes();
	test_hostile();
	test_against_reference();
	return check_finish();
}
