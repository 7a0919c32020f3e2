/* Line similarity for copy verification (similar.c): the prefix rename
 * detection and its undoing, the similarity of known pairs, and the
 * calibration that maps a changed-line fraction onto the distance scale
 * (lines.c, td_lines_distance). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "linediff.h"
#include "similar.h"
#include "treedrift/lines.h"

static const char e1000[] =
	"#include \"e1000.h\"\n"
	"static int e1000_probe(struct e1000_adapter *adapter)\n"
	"{\n"
	"\tE1000_WRITE_REG(hw, E1000_CTRL, 1);\n"
	"\tE1000_WRITE_REG(hw, E1000_STATUS, 0);\n"
	"\treturn e1000_reset_hw(&adapter->hw);\n"
	"}\n"
	"static void e1000_remove(struct e1000_adapter *adapter) { }\n";

static void test_rename_one_casing(void)
{
	/* sed 's/e1000/acme/g' leaves E1000_ alone */
	static const char acme[] =
		"#include \"acme.h\"\n"
		"static int acme_probe(struct acme_adapter *adapter)\n"
		"{\n"
		"\tE1000_WRITE_REG(hw, E1000_CTRL, 1);\n"
		"\tE1000_WRITE_REG(hw, E1000_STATUS, 0);\n"
		"\treturn acme_reset_hw(&adapter->hw);\n"
		"}\n"
		"static void acme_remove(struct acme_adapter *adapter) { }\n";
	td_similarity_t s;
	td_error_t err = { 0 };
	char *out = NULL;
	size_t len = 0;

	CHECK_INT(td_rename_detect(&s, e1000, sizeof(e1000) - 1, acme, sizeof(acme) - 1), 0);
	CHECK_INT(s.renamed, 1);
	CHECK_STR(s.from[0], "e1000");
	CHECK_STR(s.to[0], "acme");
	CHECK_INT(td_rename_apply(&out, &len, &s, acme, sizeof(acme) - 1), 0);
	CHECK(out && len == sizeof(e1000) - 1 && !memcmp(out, e1000, len));
	free(out);
	CHECK_INT(td_similarity(&s, e1000, sizeof(e1000) - 1, acme, sizeof(acme) - 1, &err), 0);
	CHECK(s.value == 1.0);
}

static void test_rename_both_casings(void)
{
	static const char acme[] =
		"#include \"acme.h\"\n"
		"static int acme_probe(struct acme_adapter *adapter)\n"
		"{\n"
		"\tACME_WRITE_REG(hw, ACME_CTRL, 1);\n"
		"\tACME_WRITE_REG(hw, ACME_STATUS, 0);\n"
		"\treturn acme_reset_hw(&adapter->hw);\n"
		"}\n"
		"static void acme_remove(struct acme_adapter *adapter) { }\n";
	td_similarity_t s;
	td_error_t err = { 0 };

	CHECK_INT(td_rename_detect(&s, e1000, sizeof(e1000) - 1, acme, sizeof(acme) - 1), 0);
	CHECK_INT(s.renamed, 2);
	CHECK_STR(s.from[1], "E1000");
	CHECK_STR(s.to[1], "ACME");
	CHECK_INT(td_similarity(&s, e1000, sizeof(e1000) - 1, acme, sizeof(acme) - 1, &err), 0);
	CHECK(s.value == 1.0);
}

/* The segments used often enough to be renamed are counted, across the
 * table's growth: the count that spares a pair the other file's segments. */
static void test_segments_frequent(void)
{
	char buf[64 * 600];
	size_t len = 0;
	td_segments_t t;

	CHECK_INT(td_segments_init(&t, "a_x ab_y ab_z ab_w cd_q cd_r", 28), 0);
	CHECK_INT((int)t.n, 2);
	CHECK_INT((int)t.frequent, 1);
	td_segments_release(&t);
	CHECK_INT(td_segments_init(&t, "ab_x ab_y cd_q cd_r", 19), 0);
	CHECK_INT((int)t.frequent, 0);
	td_segments_release(&t);
	/* 500 names, every fifth used three times: the table grows twice */
	for (int i = 0; i < 500; i++)
		for (int k = 0; k < (i % 5 ? 1 : 3); k++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "n%d_%d ", i, k);
	CHECK_INT(td_segments_init(&t, buf, len), 0);
	CHECK_INT((int)t.n, 500);
	CHECK_INT((int)t.frequent, 100);
	td_segments_release(&t);
}

static void test_no_rename(void)
{
	/* templated files share their prefix: nothing is rewritten */
	static const char a[] = "CONFIG_ARM=y\nCONFIG_SYS_PROMPT=\"evb1\"\nCONFIG_ENV_SIZE=0x1000\nCONFIG_TEE=y\n";
	static const char b[] = "CONFIG_ARM=y\nCONFIG_SYS_PROMPT=\"evb2\"\nCONFIG_ENV_SIZE=0x2000\nCONFIG_TEE=y\n";
	/* under TD_RENAME_MIN_USES uses: no rename either */
	static const char c[] = "foo_a(); foo_b();\n";
	static const char d[] = "bar_a(); bar_b();\n";
	td_similarity_t s;
	td_error_t err = { 0 };

	CHECK_INT(td_similarity(&s, a, sizeof(a) - 1, b, sizeof(b) - 1, &err), 0);
	CHECK_INT(s.renamed, 0);
	CHECK(s.value == 0.5); /* 2 of 4 lines kept: 2 * 2 / 8 */
	CHECK_INT(td_similarity(&s, c, sizeof(c) - 1, d, sizeof(d) - 1, &err), 0);
	CHECK_INT(s.renamed, 0);
	CHECK(s.value == 0.0);
}

static void test_edge_cases(void)
{
	td_similarity_t s;
	td_error_t err = { 0 };

	CHECK_INT(td_similarity(&s, "", 0, "", 0, &err), 0);
	CHECK(s.value == 1.0);
	CHECK_INT(td_similarity(&s, "a\n", 2, "", 0, &err), 0);
	CHECK(s.value == 0.0);
	CHECK_INT(td_similarity(&s, "a\0b", 3, "a\0c", 3, &err), 0);
	CHECK_INT(s.binary, 1);
	/* a long prefix is no prefix: over TD_RENAME_PREFIX_MAX */
	{
		static const char a[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_x aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_y "
					"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_z";
		CHECK_INT(td_rename_detect(&s, a, strlen(a), "bb_x bb_y bb_z", 14), 0);
	}
	CHECK_INT(s.renamed, 0);
}

/* Among segments used equally often, the first in byte order (a shorter
 * one first when it starts the other), wherever they appear; a segment
 * used fewer than TD_RENAME_MIN_USES times, or on both sides, is none. */
static void test_rename_ties(void)
{
	static const char old_buf[] = "bbb_x bbb_y bbb_z aa_x aa_y aa_z aaa_x aaa_y aaa_z cc_1 cc_2 both_1 both_2 both_3";
	static const char new_buf[] = "zz_x zz_y zz_z yy_x yy_y yy_z yy_w dd_1 dd_2 both_4";
	td_similarity_t s;

	memset(&s, 0, sizeof(s));
	CHECK_INT(td_rename_detect(&s, old_buf, sizeof(old_buf) - 1, new_buf, sizeof(new_buf) - 1), 0);
	CHECK_INT(s.renamed, 1);
	CHECK_STR(s.from[0], "aa");   /* aa, aaa and bbb: 3 uses each */
	CHECK_STR(s.to[0], "yy");     /* 4 uses, zz 3 */
	/* the other way round: the same choice from the other side */
	CHECK_INT(td_rename_detect(&s, new_buf, sizeof(new_buf) - 1, old_buf, sizeof(old_buf) - 1), 0);
	CHECK_INT(s.renamed, 1);
	CHECK_STR(s.from[0], "yy");
	CHECK_STR(s.to[0], "aa");
}

/* The leading segments of buf, a byte at a time, as the header describes
 * them: for each word (letters, digits, '_'), after its leading
 * underscores, the letters and digits from a letter up to a '_' that
 * follows, 2 to TD_RENAME_PREFIX_MAX of them. Counted in key[]/uses[]. */
static size_t segments_slowly(char key[][TD_RENAME_PREFIX_MAX + 1], size_t *uses, const char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len;) {
		size_t j = i, a, k;
		while (j < len && (isalnum((unsigned char)buf[j]) || buf[j] == '_'))
			j++;
		if (j == i) {
			i++;
			continue;
		}
		for (a = i; a < j && buf[a] == '_'; a++)
			;
		for (k = a; k < j && buf[k] != '_'; k++)
			;
		if (a < j && isalpha((unsigned char)buf[a]) && k < j && k - a >= 2 && k - a <= TD_RENAME_PREFIX_MAX) {
			size_t s = 0;
			while (s < n && (strlen(key[s]) != k - a || memcmp(key[s], buf + a, k - a)))
				s++;
			if (s == n) {
				memcpy(key[n], buf + a, k - a);
				key[n][k - a] = '\0';
				uses[n++] = 0;
			}
			uses[s]++;
		}
		i = j;
	}
	return n;
}

/* The most used segment of a (at least TD_RENAME_MIN_USES; ties: strcmp's
 * first) that b never uses; with like, only another casing of it. */
static const char *only_in_slowly(char ak[][TD_RENAME_PREFIX_MAX + 1], const size_t *au, size_t an,
				  char bk[][TD_RENAME_PREFIX_MAX + 1], size_t bn, const char *like)
{
	const char *best = NULL;
	size_t best_uses = 0;

	for (size_t i = 0; i < an; i++) {
		int in_b = 0;
		for (size_t j = 0; j < bn; j++)
			in_b |= !strcmp(ak[i], bk[j]);
		if (in_b || au[i] < TD_RENAME_MIN_USES ||
		    (like && (!strcmp(ak[i], like) || strcasecmp(ak[i], like))))
			continue;
		if (!best || au[i] > best_uses || (au[i] == best_uses && strcmp(ak[i], best) < 0)) {
			best = ak[i];
			best_uses = au[i];
		}
	}
	return best;
}

/* Rename detection against the oracle above, over random text of a few
 * identifiers, underscores, digits and punctuation: the segments counted
 * from each '_' back and forth as a byte-at-a-time walk counts them. */
static void test_rename_detect_random(void)
{
	static const char *const words[] = { "ab_", "AB_", "Ab_", "cd_", "CD_", "ab", "x", "e1", "9z", "_",
					     "__", " ", "\n", "(", "ef", " ", " ", "\n", "+" };
	uint64_t x = 7;
	int renamed = 0, two = 0;

	for (int round = 0; round < 4000; round++) {
		char buf[2][1024], key[2][200][TD_RENAME_PREFIX_MAX + 1];
		size_t len[2], uses[2][200], nk[2];
		const char *from, *to, *from1, *to1;
		td_similarity_t s;

		for (int side = 0; side < 2; side++) {
			len[side] = 0;
			x = x * 6364136223846793005u + 1442695040888963407u;
			for (size_t w = (size_t)(x >> 56); w > 0; w--) {
				const char *t;
				x = x * 6364136223846793005u + 1442695040888963407u;
				t = words[(x >> 40) % (sizeof(words) / sizeof(words[0]))];
				if (side && round % 2) /* renamed on the new side */
					t = !strcmp(t, "ab_") ? "zq_" : !strcmp(t, "AB_") ? "ZQ_" : t;
				memcpy(buf[side] + len[side], t, strlen(t));
				len[side] += strlen(t);
			}
			nk[side] = segments_slowly(key[side], uses[side], buf[side], len[side]);
		}
		from = only_in_slowly(key[0], uses[0], nk[0], key[1], nk[1], NULL);
		to = only_in_slowly(key[1], uses[1], nk[1], key[0], nk[0], NULL);
		from1 = from && to ? only_in_slowly(key[0], uses[0], nk[0], key[1], nk[1], from) : NULL;
		to1 = from && to ? only_in_slowly(key[1], uses[1], nk[1], key[0], nk[0], to) : NULL;
		CHECK_INT(td_rename_detect(&s, buf[0], len[0], buf[1], len[1]), 0);
		CHECK_INT(s.renamed, !from || !to ? 0 : from1 && to1 ? 2 : 1);
		if (s.renamed) {
			CHECK_STR(s.from[0], from);
			CHECK_STR(s.to[0], to);
			renamed++;
		}
		if (s.renamed == 2) {
			CHECK_STR(s.from[1], from1);
			CHECK_STR(s.to[1], to1);
			two++;
		}
	}
	CHECK(renamed > 500);
	CHECK(two > 80);
}

/* The segments counted against the oracle over random bytes: words long
 * and short (past the 16 bytes that the word scan takes at a time, and past
 * TD_RENAME_PREFIX_MAX), words of digits and of bytes over 0x7f, split
 * anywhere in the buffer. The count of distinct segments and of those used
 * TD_RENAME_MIN_USES times must agree. */
static void test_segments_random(void)
{
	static const char *const words[] = { "ab_", "Ab_", "x", "_", "__", "9", "\xc3\xa9", "\xff", "\x7f",
					     "abcdefghijklmnopqr_", "abcdefghijklmnopqrstuvwxyzabcdef_",
					     "abcdefghijklmnopqrstuvwxyzabcdefg_",
					     "a1b2c3d4e5f6g7h8i9j0_", "zz", "q_", " ", "\n", "{", "@", "`", "[" };
	uint64_t x = 11;
	size_t frequent_seen = 0;

	for (int round = 0; round < 3000; round++) {
		char buf[2048], key[200][TD_RENAME_PREFIX_MAX + 1];
		size_t len = 0, uses[200], nk, frequent = 0;
		td_segments_t t;

		x = x * 6364136223846793005u + 1442695040888963407u;
		for (size_t w = (size_t)(x >> 57); w > 0; w--) {
			const char *word;
			x = x * 6364136223846793005u + 1442695040888963407u;
			word = words[(x >> 40) % (sizeof(words) / sizeof(words[0]))];
			memcpy(buf + len, word, strlen(word));
			len += strlen(word);
		}
		nk = segments_slowly(key, uses, buf, len);
		for (size_t k = 0; k < nk; k++)
			frequent += uses[k] >= TD_RENAME_MIN_USES;
		CHECK_INT(td_segments_init(&t, buf, len), 0);
		CHECK_INT((int)t.n, (int)nk);
		CHECK_INT((int)t.frequent, (int)frequent);
		td_segments_release(&t);
		frequent_seen += frequent;
	}
	CHECK(frequent_seen > 1000);
}

/* td_rename_apply as sed would do it, a byte at a time: the oracle. */
static size_t apply_slowly(char *out, const td_similarity_t *s, const char *in, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		int r = -1;
		for (int k = 0; k < s->renamed && r < 0; k++)
			if (strlen(s->to[k]) <= n - i && !memcmp(in + i, s->to[k], strlen(s->to[k])))
				r = k;
		if (r < 0) {
			out[o++] = in[i++];
			continue;
		}
		memcpy(out + o, s->from[r], strlen(s->from[r]));
		o += strlen(s->from[r]);
		i += strlen(s->to[r]);
	}
	return o;
}

/* Undoing a rename equals sed's byte-at-a-time replacement, with
 * overlapping and adjacent matches, two renames, and growing and shrinking
 * ones, over random text of few letters. */
static void test_rename_apply(void)
{
	static const char *const pairs[][4] = { { "ab", "xyz", NULL, NULL },  { "aa", "b", NULL, NULL },
						{ "aba", "c", NULL, NULL },   { "ab", "q", "AB", "Q" },
						{ "abc", "z", "ABC", "Z" }, { "a", "bb", "A", "BB" } };
	uint64_t x = 42;

	for (int round = 0; round < 3000; round++) {
		const char *const *pr = pairs[round % (sizeof(pairs) / sizeof(pairs[0]))];
		td_similarity_t s;
		char in[64], want[256], *got;
		size_t n, wn, gn;

		memset(&s, 0, sizeof(s));
		s.renamed = pr[2] ? 2 : 1;
		for (int k = 0; k < s.renamed; k++) {
			snprintf(s.to[k], sizeof(s.to[k]), "%s", pr[2 * k]);
			snprintf(s.from[k], sizeof(s.from[k]), "%s", pr[2 * k + 1]);
		}
		x = x * 6364136223846793005u + 1442695040888963407u;
		n = (size_t)(x >> 58);
		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			in[i] = "aabAB_c\n"[(x >> 40) % 8];
		}
		wn = apply_slowly(want, &s, in, n);
		CHECK_INT(td_rename_apply(&got, &gn, &s, in, n), 0);
		CHECK_INT(gn, wn);
		CHECK(!memcmp(got, want, wn));
		CHECK(got[gn] == '\0');
		free(got);
	}
	/* longer names in longer text, made of pieces of them: the search
	 * looks at eight places at a time, by the names' first and last
	 * bytes */
	for (int round = 0; round < 2000; round++) {
		static const char *const pieces[] = { "acme_drv", "acme", "ACME_DRV", "acm", "cme_drv", "_", "\n",
						      "e_drv", "a", "v" };
		td_similarity_t s;
		char in[640], want[1600], *got;
		size_t n = 0, wn, gn;

		memset(&s, 0, sizeof(s));
		s.renamed = round % 2 + 1;
		snprintf(s.to[0], sizeof(s.to[0]), "%s", round % 3 ? "acme_drv" : "acme");
		snprintf(s.from[0], sizeof(s.from[0]), "e1000_intel");
		snprintf(s.to[1], sizeof(s.to[1]), "ACME_DRV");
		snprintf(s.from[1], sizeof(s.from[1]), "E");
		x = x * 6364136223846793005u + 1442695040888963407u;
		for (size_t want_len = (size_t)(x >> 55); n < want_len;) {
			const char *piece;
			x = x * 6364136223846793005u + 1442695040888963407u;
			piece = pieces[(x >> 40) % (sizeof(pieces) / sizeof(pieces[0]))];
			memcpy(in + n, piece, strlen(piece));
			n += strlen(piece);
		}
		wn = apply_slowly(want, &s, in, n);
		CHECK_INT(td_rename_apply(&got, &gn, &s, in, n), 0);
		CHECK_INT(gn, wn);
		CHECK(!memcmp(got, want, wn));
		free(got);
	}
}

/* Line bags: the lines a renamed copy shares as it is. */
static void test_linebag_bounds(void)
{
	static const char a_buf[] = "e1000_probe(x);\n}\nreturn 0;\n";
	static const char b_buf[] = "acme_probe(x);\n}\nreturn 1;\n";
	td_linebag_t a, b;

	CHECK_INT(td_linebag_init(&a, a_buf, sizeof(a_buf) - 1, 0), 0);
	CHECK_INT(td_linebag_init(&b, b_buf, sizeof(b_buf) - 1, 1), 0);
	CHECK_INT(a.n, 3);
	CHECK(td_linebag_bound(&a, &b) == 2.0 / 6);
	/* the probe's marks start again at each bound */
	CHECK(td_linebag_bound(&a, &b) == 2.0 / 6);
	td_linebag_release(&a);
	td_linebag_release(&b);
}

/* The lines of buf as td_linebag_init splits them: up to and with each
 * '\n', and what follows the last one. */
static size_t split_slowly(const char *lines[], size_t lens[], const char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && buf[e] != '\n')
			e++;
		e += e < len;
		lines[n] = buf + i;
		lens[n++] = e - i;
		i = e;
	}
	return n;
}

/* Line bags against string comparison, over random lines of 0 to 40 bytes
 * (so that line ends and '_' fall at every place of an eight-byte word),
 * with and without a last newline: the lines and the shared lines of two
 * buffers. */
static void test_linebag_random(void)
{
	uint64_t x = 5;

	for (int round = 0; round < 3000; round++) {
		char buf[2][2048];
		const char *line[2][200];
		size_t len[2] = { 0, 0 }, lens[2][200], n[2], shared = 0;
		int taken[200] = { 0 };
		td_linebag_t a, b;

		for (int side = 0; side < 2; side++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			for (int l = (int)((x >> 33) % 40); l > 0; l--) {
				size_t ll;
				x = x * 6364136223846793005u + 1442695040888963407u;
				ll = (size_t)((x >> 33) % 41);
				for (size_t i = 0; i < ll; i++) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					buf[side][len[side]++] = (x >> 40) % 16 ? "abc"[(x >> 50) % 3] : '_';
				}
				if (l > 1 || (x >> 20) % 2)
					buf[side][len[side]++] = '\n';
			}
			/* every other round, b is a's lines shuffled a little */
			if (side == 1 && round % 2 && len[0] < sizeof(buf[1])) {
				memcpy(buf[1], buf[0], len[0]);
				len[1] = len[0];
				if (len[1] > 3)
					buf[1][(x >> 24) % len[1]] = 'q';
			}
			n[side] = split_slowly(line[side], lens[side], buf[side], len[side]);
		}
		for (size_t i = 0; i < n[0]; i++) {
			for (size_t j = 0; j < n[1]; j++)
				if (!taken[j] && lens[0][i] == lens[1][j] &&
				    !memcmp(line[0][i], line[1][j], lens[0][i])) {
					taken[j] = 1;
					shared++;
					break;
				}
		}
		CHECK_INT(td_linebag_init(&a, buf[0], len[0], 0), 0);
		CHECK_INT(td_linebag_init(&b, buf[1], len[1], 1), 0);
		CHECK_INT(a.n, n[0]);
		CHECK_INT(b.n, n[1]);
		if (n[0] + n[1])
			CHECK(td_linebag_bound(&a, &b) == 2.0 * (double)shared / (double)(n[0] + n[1]));
		else
			CHECK(td_linebag_bound(&a, &b) == 1);
		td_linebag_release(&a);
		td_linebag_release(&b);
	}
}

/* The bound of a renamed file from its table and its changed lines alone
 * equals the bound of the file renamed whole, for one and two names, with
 * matches inside words, several on a line, and on the last line without
 * a newline; a file keeps the lines of one rename for the next pair and
 * makes them again for another. */
static void test_renamed_bound(void)
{
	static const char *const vocab[] = { "foo_a(x);\n", "bar_a(x);\n", "xfoo = FOO;\n", "FOO_B foo_b\n",
					     "BAR_B bar_b\n", "}\n", "foofoo\n", "\n", "int i;\n", "ffoo_" };
	static const char *const names[][4] = { { "foo", "bar", NULL, NULL }, { "foo", "bar", "FOO", "BAR" },
						 { "oo", "ar", NULL, NULL }, { "FOO", "B", "foo", "b" } };
	uint64_t x = 11;

	for (int round = 0; round < 3000; round++) {
		char buf[2][512], *whole;
		size_t len[2] = { 0, 0 }, whole_len;
		td_simfile_t f;
		td_linebag_t old_bag, renamed, from_table;

		for (int side = 0; side < 2; side++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			for (int l = (int)((x >> 33) % 40); l > 0; l--) {
				const char *v;
				x = x * 6364136223846793005u + 1442695040888963407u;
				v = vocab[(x >> 33) % (sizeof(vocab) / sizeof(vocab[0]))];
				memcpy(buf[side] + len[side], v, strlen(v));
				len[side] += strlen(v);
			}
		}
		CHECK_INT(td_linebag_init(&old_bag, buf[0], len[0], 0), 0);
		td_simfile_init(&f, buf[1], len[1]);
		CHECK_INT(td_linebag_init(&f.bag, buf[1], len[1], 1), 0);
		f.has_bag = 1;
		for (int k = 0; k < 3; k++) {
			const char *const *nm = names[(round + (k == 1)) % (sizeof(names) / sizeof(names[0]))];
			td_similarity_t s;
			memset(&s, 0, sizeof(s));
			s.renamed = nm[2] ? 2 : 1;
			for (int r = 0; r < s.renamed; r++) {
				snprintf(s.to[r], sizeof(s.to[r]), "%s", nm[2 * r]);
				snprintf(s.from[r], sizeof(s.from[r]), "%s", nm[2 * r + 1]);
			}
			CHECK_INT(td_rename_apply(&whole, &whole_len, &s, buf[1], len[1]), 0);
			CHECK_INT(td_linebag_init(&renamed, whole, whole_len, 1), 0);
			CHECK(td_linebag_renamed_bound(&old_bag, &f, &s) == td_linebag_bound(&old_bag, &renamed));
			/* and the renamed bag is the one of the file renamed whole */
			CHECK_INT(td_simfile_renamed_bag(&from_table, &f), 0);
			CHECK(from_table.n == renamed.n && from_table.has_set);
			CHECK(!memcmp(from_table.hash, renamed.hash, renamed.n * sizeof(*renamed.hash)));
			CHECK(td_linebag_order_bound(&old_bag, &from_table) == td_linebag_order_bound(&old_bag, &renamed));
			td_linebag_release(&from_table);
			td_linebag_release(&renamed);
			free(whole);
		}
		/* the file's own table is as it was: as a table made afresh */
		CHECK_INT(td_linebag_init(&renamed, buf[1], len[1], 1), 0);
		CHECK(td_linebag_bound(&old_bag, &f.bag) == td_linebag_bound(&old_bag, &renamed));
		td_linebag_release(&renamed);
		td_linebag_release(&old_bag);
		td_simfile_release(&f);
	}
}

/* The longest common subsequence of two bags' lines, by the textbook
 * dynamic programme: the oracle of the bound in order. */
static size_t lcs_slowly(const td_linebag_t *a, const td_linebag_t *b)
{
	size_t row[2][65] = { { 0 } };

	for (size_t i = 1; i <= a->n; i++)
		for (size_t j = 1; j <= b->n; j++) {
			size_t *r = row[i % 2], *p = row[(i - 1) % 2];
			r[j] = a->hash[i - 1] == b->hash[j - 1] ? p[j - 1] + 1 : (p[j] > r[j - 1] ? p[j] : r[j - 1]);
		}
	return row[a->n % 2][b->n];
}

/* How many times the most frequent one-letter line of buf is there. */
static size_t most_of_a_line(const char *buf, size_t len)
{
	size_t count[256] = { 0 }, most = 0;

	for (size_t i = 0; i < len; i += 2)
		if (++count[(unsigned char)buf[i]] > most)
			most = count[(unsigned char)buf[i]];
	return most;
}

/* The bound in order: a block moved halves it where the bags see no
 * change; over random line sequences it is the longest common subsequence
 * exactly while no line is frequent, and never below it or above the bag
 * bound. */
static void test_order_bound(void)
{
	char a_buf[4096], b_buf[4096];
	size_t an = 0, bn = 0;
	td_linebag_t a, b;
	uint64_t x = 3;
	int exact = 0;

	for (int i = 0; i < 100; i++)
		an += (size_t)snprintf(a_buf + an, sizeof(a_buf) - an, "line %d\n", i);
	for (int i = 0; i < 100; i++)
		bn += (size_t)snprintf(b_buf + bn, sizeof(b_buf) - bn, "line %d\n", (i + 50) % 100);
	CHECK_INT(td_linebag_init(&a, a_buf, an, 0), 0);
	CHECK_INT(td_linebag_init(&b, b_buf, bn, 1), 0);
	CHECK(td_linebag_bound(&a, &b) == 1.0);
	CHECK(td_linebag_order_bound(&a, &b) == 0.5);
	td_linebag_release(&a);
	td_linebag_release(&b);

	for (int round = 0; round < 2000; round++) {
		char buf[2][256];
		size_t len[2] = { 0, 0 }, lcs;
		int letters = 2 + round % 12;
		double order;
		for (int side = 0; side < 2; side++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			for (int l = (int)((x >> 33) % 64); l > 0; l--) {
				x = x * 6364136223846793005u + 1442695040888963407u;
				buf[side][len[side]++] = (char)('a' + (x >> 33) % (uint64_t)letters);
				buf[side][len[side]++] = '\n';
			}
		}
		CHECK_INT(td_linebag_init(&a, buf[0], len[0], 0), 0);
		CHECK_INT(td_linebag_init(&b, buf[1], len[1], 1), 0);
		lcs = lcs_slowly(&a, &b);
		order = td_linebag_order_bound(&a, &b);
		CHECK(order >= (a.n + b.n ? 2.0 * (double)lcs / (double)(a.n + b.n) : 1.0));
		CHECK(order <= td_linebag_bound(&a, &b));
		if (most_of_a_line(buf[1], len[1]) <= TD_ORDER_FREQUENT) {
			CHECK(order == (a.n + b.n ? 2.0 * (double)lcs / (double)(a.n + b.n) : 1.0));
			exact++;
		}
		td_linebag_release(&a);
		td_linebag_release(&b);
	}
	CHECK(exact > 100);
}

/* td_similarity_bounded(got, old, new) again, from old kept
 * (td_simold_keep): the same bound or similarity, old's buffer gone (a
 * copy of it, freed) until the pair is diffed. */
static void check_kept(const td_similarity_t *got, const char *old, size_t old_len, const char *new_buf,
		       size_t new_len, double need, int above)
{
	char *copy = malloc(old_len ? old_len : 1);
	td_simold_t o;
	td_simfile_t nf;
	td_similarity_t kept;
	td_error_t err = { 0 };

	CHECK(copy != NULL);
	if (!copy)
		return;
	memcpy(copy, old, old_len);
	td_simold_init(&o, copy, old_len);
	CHECK_INT(td_simold_keep(&o), 0);
	memset(copy, 'x', old_len);
	free(copy);
	CHECK(o.buf == NULL && o.bytes > o.bag.n * sizeof(uint64_t));
	CHECK(o.lines == td_line_count(old, old_len)); /* from the bag's lines */
	td_simfile_init(&nf, new_buf, new_len);
	CHECK_INT(td_similarity_bound(&kept, &o, &nf, need, above, &err), 0);
	if (!kept.bounded)
		CHECK_INT(td_similarity_measure(&kept, old, old_len, &nf, &err), 0);
	CHECK_INT(kept.bounded, got->bounded);
	CHECK(kept.value == got->value);
	CHECK_INT(kept.renamed, got->renamed);
	for (int k = 0; k < got->renamed && k < kept.renamed; k++) {
		CHECK_STR(kept.from[k], got->from[k]);
		CHECK_STR(kept.to[k], got->to[k]);
	}
	td_simfile_release(&nf);
	td_simold_release(&o);
}

/* td_similarity_bounded against td_similarity over random buffers drawn
 * from lines with and without renamed identifiers: a pair it diffs gets
 * td_similarity's value and rename; one it bounds out cannot reach what
 * was asked, and its value is at least the similarity. Both happen, and
 * renames do, so the property is not met vacuously. */
static void test_similarity_bounded(void)
{
	/* foo and baz lines at 3 and 4, 5 and 6, 10 and 11 */
	static const char *const vocab[] = { "}\n", "\n", "return 0;\n", "foo_bar(1);\n", "baz_bar(1);\n",
					     "foo_x = foo_y;\n", "baz_x = baz_y;\n", "__init x;\n",
					     "x = a_b + c;\n", "int i;\n", "FOO_Z;\n", "BAZ_Z;\n" };
	static const double needs[] = { 0.2, 0.5, 0.8 };
	size_t diffed = 0, bounded = 0, renamed = 0;
	uint64_t x = 7;

	for (int round = 0; round < 2000; round++) {
		char buf[2][1024];
		size_t len[2] = { 0, 0 };
		td_similarity_t want, got;
		td_simfile_t nf;
		td_error_t err = { 0 };
		double need = needs[round % 3];
		int above = (round / 3) % 2, renaming = (round / 6) % 2;

		for (int side = 0; side < 2; side++) {
			int lines = (int)(x % 24);
			for (int l = 0; l < lines; l++) {
				const char *v;
				size_t k;
				x = x * 6364136223846793005u + 1442695040888963407u;
				k = (x >> 33) % (sizeof(vocab) / sizeof(vocab[0]));
				/* every other round, foo only in old and baz only
				 * in new: a rename */
				if (renaming && side == 0 && (k == 4 || k == 6 || k == 11))
					k--; /* baz -> foo */
				else if (renaming && side == 1 && (k == 3 || k == 5 || k == 10))
					k++; /* foo -> baz */
				v = vocab[k];
				memcpy(buf[side] + len[side], v, strlen(v));
				len[side] += strlen(v);
			}
			x = x * 6364136223846793005u + 1442695040888963407u;
		}
		CHECK_INT(td_similarity(&want, buf[0], len[0], buf[1], len[1], &err), 0);
		td_simfile_init(&nf, buf[1], len[1]);
		CHECK_INT(td_similarity_bounded(&got, buf[0], len[0], &nf, need, above, &err), 0);
		if (got.bounded || round % 8 < 2) /* and some diffed: renamed or not */
			check_kept(&got, buf[0], len[0], buf[1], len[1], need, above);
		/* the new file's bag and segments are kept: a second pair agrees */
		if (round % 2) {
			td_similarity_t again;
			CHECK_INT(td_similarity_bounded(&again, buf[0], len[0], &nf, need, above, &err), 0);
			CHECK(again.bounded == got.bounded && again.value == got.value);
		}
		td_simfile_release(&nf);
		if (got.bounded) {
			bounded++;
			CHECK(above ? got.value <= need : got.value < need);
			CHECK(got.value >= want.value);
		} else {
			diffed++;
			CHECK(got.value == want.value);
			CHECK_INT(got.renamed, want.renamed);
			for (int k = 0; k < want.renamed; k++) {
				CHECK_STR(got.from[k], want.from[k]);
				CHECK_STR(got.to[k], want.to[k]);
			}
		}
		renamed += want.renamed > 0;
	}
	CHECK(diffed > 100);
	CHECK(bounded > 100);
	CHECK(renamed > 100);
}

/* The same for pairs big enough to be bounded in order (4,096 lines and
 * more), renamed or not: new is old with its foo_ names renamed baz_ (every
 * other round), lines dropped and added, and a block moved, so that the
 * bound in order is below the bag bound. */
static void test_similarity_bounded_big(void)
{
	static const double needs[] = { 0.3, 0.6, 0.9 };
	size_t cap = 96 * 2400, diffed = 0, bounded = 0, renamed = 0, at[2400];
	char *buf[2] = { malloc(cap), malloc(cap) };
	uint64_t x = 5;

	CHECK(buf[0] && buf[1]);
	for (int round = 0; round < 24 && buf[0] && buf[1]; round++) {
		size_t len[2] = { 0, 0 }, lines = 2100 + (size_t)round * 10, moved_from = lines / 3;
		int renaming = round % 2;
		double need = needs[round % 3];
		td_similarity_t want, got;
		td_simfile_t nf;
		td_error_t err = { 0 };

		for (size_t i = 0; i < lines; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			at[i] = len[0];
			len[0] += (size_t)snprintf(buf[0] + len[0], cap - len[0], "\tfoo_v%u(foo_%u);\n",
						   (unsigned)(x >> 33) % 700, (unsigned)(x >> 45) % 50);
		}
		at[lines] = len[0];
		/* new: old's lines from a third on, then the first third
		 * (moved), each dropped or doubled now and then */
		for (size_t k = 0; k < lines; k++) {
			size_t i = (k + moved_from) % lines;
			const char *line = buf[0] + at[i], *end = buf[0] + at[i + 1];
			x = x * 6364136223846793005u + 1442695040888963407u;
			for (int copies = (x >> 33) % 8 == 0 ? 0 : (x >> 33) % 8 == 1 ? 2 : 1; copies > 0; copies--)
				for (const char *p = line; p < end; p++) {
					if (renaming && !strncmp(p, "foo", 3)) {
						memcpy(buf[1] + len[1], "baz", 3);
						len[1] += 3;
						p += 2;
					} else {
						buf[1][len[1]++] = *p;
					}
				}
		}
		CHECK_INT(td_similarity(&want, buf[0], len[0], buf[1], len[1], &err), 0);
		td_simfile_init(&nf, buf[1], len[1]);
		CHECK_INT(td_similarity_bounded(&got, buf[0], len[0], &nf, need, 0, &err), 0);
		if (got.bounded || round < 2) /* a diff is slow: two of them */
			check_kept(&got, buf[0], len[0], buf[1], len[1], need, 0);
		td_simfile_release(&nf);
		if (got.bounded) {
			bounded++;
			CHECK(got.value < need);
			CHECK(got.value >= want.value);
		} else {
			diffed++;
			CHECK(got.value == want.value);
			CHECK_INT(got.renamed, want.renamed);
		}
		renamed += want.renamed > 0;
	}
	CHECK(diffed > 3);
	CHECK(bounded > 3);
	CHECK(renamed > 3);
	free(buf[0]);
	free(buf[1]);
}

static void test_lines_distance(void)
{
	int last = -1;

	CHECK_INT(td_lines_distance(0), 0);
	CHECK_INT(td_lines_distance(-1), 0);
	/* table rows are hit exactly */
	CHECK_INT(td_lines_distance(0.0025), 2);
	CHECK_INT(td_lines_distance(0.1210), 41);
	/* between rows: linear */
	CHECK_INT(td_lines_distance((0.1210 + 0.1718) / 2), 49);
	/* past the last row: its distance */
	CHECK_INT(td_lines_distance(1.0), td_lines_distance(0.99));
	for (int i = 0; i <= 1000; i++) {
		int d = td_lines_distance(i / 1000.0);
		CHECK(d >= last);
		last = d;
	}
}

int main(void)
{
	test_rename_one_casing();
	test_rename_both_casings();
	test_no_rename();
	test_segments_frequent();
	test_edge_cases();
	test_rename_ties();
	test_rename_detect_random();
	test_segments_random();
	test_rename_apply();
	test_linebag_bounds();
	test_linebag_random();
	test_renamed_bound();
	test_order_bound();
	test_similarity_bounded();
	test_similarity_bounded_big();
	test_lines_distance();
	return check_finish();
}
