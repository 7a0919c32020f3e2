/* td_linediff against `git diff --numstat`: known answers (computed with git
 * 2.39), then generated pairs checked against git itself when it is there,
 * and td_linediff and td_linediff_walk, which diff the lines as tokens,
 * against libgit2 diffing the same buffers as they are. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/linediff_oracle.h"
#include "check.h"
#include "linediff.h"

typedef struct vector {
	const char *old, *new;
	size_t old_len, new_len;
	long added, removed; /* -1: binary */
} vector_t;

#define V(a, b, add, rem) { a, b, sizeof(a) - 1, sizeof(b) - 1, add, rem }

static const vector_t vectors[] = {
	V("a\nb\nc\n", "a\nB\nc\nd\n", 2, 1),
	V("a\nb", "a\nb\n", 1, 1),                 /* no newline at the end */
	V("one\ntwo", "one\nTWO", 1, 1),
	V("a\r\nb\r\n", "a\nb\r\n", 1, 1),         /* CRLF is not normalised */
	V("a\0b", "a\0c", -1, -1),                 /* a NUL: binary */
	V("text\n", "te\0xt\n", -1, -1),           /* binary on one side is enough */
	V("", "x\ny\n", 2, 0),
	V("x\ny\n", "", 0, 2),
	V("same\n", "same\n", 0, 0),
	V("a\nb\nc\nd\ne\nf\n", "a\nc\nb\nd\nf\ne\n", 2, 2),
	/* git's default (Myers) says 3 4; patience 13 14, histogram 4 5 */
	V("b\nb\n}\n}\ne\n}\nd\na\nc\n{\nb\nb\n{\nc\n}\nc\nc\n}\nb\na\n}\n",
	  "b\nb\n}\nd\n}\nd\n}\nc\n{\nb\n{\nc\n}\nc\nc\n}\nb\ne\na\n}\n", 3, 4),
};

static void test_vectors(void)
{
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const vector_t *v = &vectors[i];
		td_linediff_t d;
		td_error_t err = { 0 };

		CHECK_INT(td_linediff(&d, v->old, v->old_len, v->new, v->new_len, &err), 0);
		if (v->added < 0) {
			CHECK_INT(d.binary, 1);
			CHECK_INT(d.added, 0);
			CHECK_INT(d.removed, 0);
			continue;
		}
		CHECK_INT(d.binary, 0);
		if (d.added != (uint64_t)v->added || d.removed != (uint64_t)v->removed)
			fprintf(stderr, "vector %zu: +%llu -%llu, want +%ld -%ld\n", i,
				(unsigned long long)d.added, (unsigned long long)d.removed, v->added, v->removed);
		CHECK_INT(d.added, v->added);
		CHECK_INT(d.removed, v->removed);
		CHECK_INT(d.unchanged + d.removed, d.old_lines);
		CHECK_INT(d.unchanged + d.added, d.new_lines);
	}
}

static void test_line_count(void)
{
	CHECK_INT(td_line_count("", 0), 0);
	CHECK_INT(td_line_count("\n", 1), 1);
	CHECK_INT(td_line_count("a", 1), 1);
	CHECK_INT(td_line_count("a\nb", 3), 2);
	CHECK_INT(td_line_count("a\nb\n", 4), 2);
	CHECK_INT(td_line_count("\n\n\n", 3), 3);
}

/* A small deterministic generator, so that a failure can be replayed. */
static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* td_line_count, eight bytes at a time, against one byte at a time: every
 * byte value next to '\n' (0x0a, 0x0b, 0x8a and 0xff trip the usual zero-byte
 * test), lengths around the word size and past 255 words, any alignment. */
static void test_line_count_random(void)
{
	static const unsigned char bytes[] = { '\n', '\n', 'a', 0, 0x0b, 0x09, 0x8a, 0xff, 0x80, 0x7f };
	static unsigned char buf[4200];
	uint32_t s = 11;

	for (int round = 0; round < 3000; round++) {
		size_t len = round % 3 ? (size_t)(rng_next(&s) % 40) : (size_t)(rng_next(&s) % (sizeof(buf) - 8));
		size_t off = rng_next(&s) % 8;
		uint64_t want = 0;
		for (size_t i = 0; i < len; i++) {
			buf[off + i] = bytes[rng_next(&s) % sizeof(bytes)];
			want += buf[off + i] == '\n';
		}
		want += len && buf[off + len - 1] != '\n';
		CHECK_INT(td_line_count(buf + off, len), want);
	}
}

/* Lines of a few short words, so that equal lines recur as in code. */
static size_t gen_text(char *buf, size_t cap, uint32_t *s, size_t lines)
{
	static const char *const words[] = { "{", "}", "return 0;", "i++;", "", "if (x)", "else", "\t}" };
	size_t n = 0;

	for (size_t i = 0; i < lines && n + 16 < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s\n", words[rng_next(s) % 8]);
	return n;
}

/* Edit a copy of src: drop, insert and replace lines at random. */
static size_t mutate(char *out, size_t cap, const char *src, size_t len, uint32_t *s)
{
	size_t n = 0, i = 0;

	while (i < len && n + 32 < cap) {
		const char *nl = memchr(src + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (src + i)) + 1 : len - i;
		uint32_t r = rng_next(s) % 20;

		if (r == 0) {
			/* dropped */
		} else if (r == 1) {
			n += (size_t)snprintf(out + n, cap - n, "new %u\n", rng_next(s) % 7);
			memcpy(out + n, src + i, ll);
			n += ll;
		} else if (r == 2) {
			n += (size_t)snprintf(out + n, cap - n, "changed %u\n", rng_next(s) % 5);
		} else {
			memcpy(out + n, src + i, ll);
			n += ll;
		}
		i += ll;
	}
	return n;
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(data, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* git diff --no-index --numstat of two files: 1 with the counts, 0 when
 * git is not there. */
static int git_numstat(const char *a, const char *b, long *added, long *removed)
{
	char cmd[16384];
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "git -c core.autocrlf=false diff --no-index --numstat '%s' '%s' 2>/dev/null",
		 a, b);
	if (!(p = popen(cmd, "r")))
		return 0;
	n = fscanf(p, "%ld\t%ld", added, removed);
	pclose(p);
	return n == 2;
}

static void test_against_git(void)
{
	static char old[64 * 1024], new[64 * 1024];
	char dir[4096], a[4200], b[4200];
	int compared = 0;

	check_tmpdir(dir, sizeof(dir), "linediff");
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	for (uint32_t seed = 1; seed <= 40; seed++) {
		uint32_t s = seed;
		size_t ol = gen_text(old, sizeof(old), &s, 50 + rng_next(&s) % 2000);
		size_t nl = mutate(new, sizeof(new), old, ol, &s);
		long want_add, want_rem;
		td_linediff_t d;
		td_error_t err = { 0 };

		if (seed % 5 == 0 && nl)
			nl--; /* the last line without its newline */
		CHECK_INT(td_linediff(&d, old, ol, new, nl, &err), 0);
		if (write_file(a, old, ol) || write_file(b, new, nl) || !git_numstat(a, b, &want_add, &want_rem))
			continue;
		compared++;
		if (d.added != (uint64_t)want_add || d.removed != (uint64_t)want_rem)
			fprintf(stderr, "seed %u: +%llu -%llu, git says +%ld -%ld\n", seed,
				(unsigned long long)d.added, (unsigned long long)d.removed, want_add, want_rem);
		CHECK_INT(d.added, want_add);
		CHECK_INT(d.removed, want_rem);
	}
	if (!compared)
		printf("git not found: generated pairs not compared\n");
	remove(a);
	remove(b);
	remove(dir);
}

/* ---- the lines as tokens against libgit2 on the buffers themselves ---- */

/* libgit2's walk of the buffers as they are against td_linediff_walk's and
 * td_linediff's counts: every line's origin, numbers, hunk and content. */
static void check_as_libgit2(const char *what, const char *old, size_t ol, const char *new, size_t nl)
{
	int same = oracle_check(old, ol, new, nl);

	if (same != 1)
		fprintf(stderr, "%s: %s\n", what, same < 0 ? "a diff failed" : "the walk differs from libgit2's");
	CHECK_INT(same, 1);
}

/* Lines to draw from: short and long, some alike but for one byte at
 * either end, a CRLF one, an empty one. */
static const char *const vocabulary[] = {
	"{\n", "}\n", "\n", "\treturn 0;\n", "\treturn 0;\r\n", "\treturn 1;\n", "1\treturn 0;\n",
	"static int a_rather_long_function_name_for_a_line_past_sixty_four_bytes(void) /* x */\n",
	"static int a_rather_long_function_name_for_a_line_past_sixty_four_bytes(void) /* y */\n",
	"#define REG_0x1234_MASK 0x0000ffffL\n", "#define REG_0x1235_MASK 0x0000ffffL\n", "x\n", "xx\n",
	"xxxxxxx\n", "xxxxxxxx\n", "xxxxxxxxx\n",
};
#define VOCABULARY (sizeof(vocabulary) / sizeof(vocabulary[0]))

/* lines lines from the vocabulary, or numbered (distinct of them at
 * most), or both. */
static size_t gen_lines(char *buf, size_t cap, uint32_t *s, size_t lines, uint32_t distinct)
{
	size_t n = 0;

	for (size_t i = 0; i < lines && n + 128 < cap; i++) {
		uint32_t r = rng_next(s);
		if (!distinct || r % 3 == 0)
			n += (size_t)snprintf(buf + n, cap - n, "%s", vocabulary[r / 3 % VOCABULARY]);
		else
			n += (size_t)snprintf(buf + n, cap - n, "line %u\n", r / 3 % distinct);
	}
	return n;
}

static void test_tokens_as_libgit2(void)
{
	static char old[512 * 1024], new[512 * 1024];
	char what[64];

	/* few distinct lines (one token digit), then past 64 and 4,096 (two
	 * and three digits) */
	for (uint32_t seed = 1; seed <= 60; seed++) {
		uint32_t s = seed, distinct = seed % 3 == 0 ? 0 : seed % 3 == 1 ? 500 : 9000;
		size_t ol = gen_lines(old, sizeof(old), &s, 20 + rng_next(&s) % (distinct ? 12000 : 1500), distinct);
		size_t nl = mutate(new, sizeof(new), old, ol, &s);

		if (seed % 4 == 0 && nl)
			nl--; /* the new side's last line without its newline */
		if (seed % 7 == 0 && ol)
			ol--; /* the old side's */
		snprintf(what, sizeof(what), "seed %u", seed);
		check_as_libgit2(what, old, ol, new, nl);
	}
	/* the same last line with and without its newline */
	check_as_libgit2("newline at the end", "a\nb\n", 4, "a\nb", 3);
	check_as_libgit2("empty lines", "\n\n\n", 3, "\n\n", 2);
	/* lines far shorter than tokenize guesses: its arrays grow many times */
	memset(old, '\n', 40000);
	memset(new, '\n', 40000);
	for (size_t i = 0; i < 40000; i += 397)
		new[i] = 'x';
	check_as_libgit2("one-byte lines", old, 40000, new, 39000);
	/* a NUL past git's first 8000 bytes: text, diffed as tokens */
	memset(old, 'a', 9000);
	for (size_t i = 99; i < 9000; i += 100)
		old[i] = '\n';
	memcpy(new, old, 9000);
	old[8500] = '\0';
	new[150] = 'b';
	check_as_libgit2("NUL after 8000 bytes", old, 9000, new, 9000);
}

/* Pairs that share a long head and tail (as the two sides of a small
 * change do): changes in the middle only, at the first or the last line,
 * none, one side the other's start or end, repeated lines where the head
 * or the tail ends, a line split, CRLF, and last lines with and without
 * their newline. */
static void test_shared_head_tail(void)
{
	static char old[256 * 1024], new[256 * 1024];
	static const char *const cases[][2] = {
		{ "a\nb\nc\n", "a\nb\nc\n" },           /* the same */
		{ "a\nb\nc\n", "a\nb\nc" },              /* the last newline gone */
		{ "a\nb\nc", "a\nb\nc\n" },
		{ "a\nb\nc", "a\nb\nd" },
		{ "a\nb\n", "a\nb\nc\n" },               /* one the other's start */
		{ "b\nc\n", "a\nb\nc\n" },               /* or end */
		{ "a\nc\n", "a\nb\nc\n" },               /* an insertion: head and tail meet */
		{ "x\nb\nc\n", "y\nb\nc\n" },           /* the first line */
		{ "a\nb\nx\n", "a\nb\ny\n" },           /* the last line */
		{ "}\n}\n}\n", "}\n}\n}\n}\n" },       /* repeated lines */
		{ "}\n\n}\n", "}\n\n\n}\n" },
		{ "ab\nc\n", "a\nb\nc\n" },             /* a line split */
		{ "a\r\nb\n", "a\nb\n" },               /* CRLF */
		{ "", "a\n" },
		{ "a", "" },
		{ "a", "ab" },                           /* a last line that grows */
		{ "\n", "\n\n" },
	};
	char what[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "case %zu", i);
		check_as_libgit2(what, cases[i][0], strlen(cases[i][0]), cases[i][1], strlen(cases[i][1]));
	}
	/* long heads and tails around a few changed lines, with 0 to 3
	 * distinct lines repeated at the edges */
	for (uint32_t seed = 1; seed <= 40; seed++) {
		uint32_t s = seed;
		size_t ol = gen_lines(old, sizeof(old) / 2, &s, 200 + rng_next(&s) % 3000, seed % 2 ? 5000 : 0);
		size_t at = ol ? rng_next(&s) % ol : 0, cut = rng_next(&s) % 200, nl;
		const char *mid = seed % 3 == 0 ? "" : seed % 3 == 1 ? "}\n}\n" : "changed\n\n";

		while (at && old[at - 1] != '\n' && seed % 5)
			at--; /* mostly at a line's start, sometimes within one */
		if (cut > ol - at)
			cut = ol - at;
		nl = (size_t)snprintf(new, sizeof(new), "%.*s%s%s", (int)at, old, mid, old + at + cut);
		if (seed % 4 == 0 && nl)
			nl--;
		if (seed % 6 == 0 && ol)
			ol--;
		snprintf(what, sizeof(what), "seed %u, head and tail", seed);
		check_as_libgit2(what, old, ol, new, nl);
		check_as_libgit2(what, new, nl, old, ol);
	}
}

int main(void)
{
	test_line_count();
	test_line_count_random();
	test_vectors();
	test_against_git();
	test_tokens_as_libgit2();
	test_shared_head_tail();
	return check_finish();
}
