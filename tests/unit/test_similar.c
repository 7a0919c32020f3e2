/* Line similarity for copy verification (similar.c): the prefix rename
 * detection and its undoing, the similarity of known pairs, and the
 * calibration that maps a changed-line fraction onto the distance scale
 * (lines.c, td_lines_distance). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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

/* Line bags: the raw and masked bounds of a renamed copy, and the masked
 * ceiling, never below the masked bound, over buffers drawn from lines
 * with and without '_'. */
static void test_linebag_bounds(void)
{
	static const char a_buf[] = "e1000_probe(x);\n}\nreturn 0;\n";
	static const char b_buf[] = "acme_probe(x);\n}\nreturn 1;\n";
	static const char *const vocab[] = { "}\n", "\n", "return 0;\n", "foo_bar(1);\n", "baz_bar(1);\n",
					     "__init x;\n", "x = a_b + c;\n", "x = d_b + c;\n", "int i;\n" };
	td_linebag_t a, b;
	size_t plain = 99;
	uint64_t x = 7;

	CHECK_INT(td_linebag_init(&a, a_buf, sizeof(a_buf) - 1, 0), 0);
	CHECK_INT(td_linebag_init(&b, b_buf, sizeof(b_buf) - 1, 1), 0);
	CHECK_INT(a.n, 3);
	CHECK_INT(a.underscored, 1);
	CHECK(td_linebag_bound(&a, &b, 0, &plain) == 2.0 / 6);
	CHECK_INT(plain, 1);
	CHECK_INT(td_linebag_mask(&a, a_buf, sizeof(a_buf) - 1), 0);
	CHECK_INT(td_linebag_mask(&b, b_buf, sizeof(b_buf) - 1), 0);
	CHECK(td_linebag_bound(&a, &b, 1, NULL) == 4.0 / 6);
	CHECK(td_linebag_masked_ceiling(&a, &b, plain) == 4.0 / 6);
	td_linebag_release(&a);
	td_linebag_release(&b);

	for (int round = 0; round < 300; round++) {
		char buf[2][512];
		size_t len[2] = { 0, 0 };
		double raw, masked, ceiling;
		for (int side = 0; side < 2; side++) {
			int lines = (int)(x % 12);
			for (int l = 0; l < lines; l++) {
				const char *v;
				x = x * 6364136223846793005u + 1442695040888963407u;
				v = vocab[(x >> 33) % (sizeof(vocab) / sizeof(vocab[0]))];
				memcpy(buf[side] + len[side], v, strlen(v));
				len[side] += strlen(v);
			}
			x = x * 6364136223846793005u + 1442695040888963407u;
		}
		CHECK_INT(td_linebag_init(&a, buf[0], len[0], 0), 0);
		CHECK_INT(td_linebag_init(&b, buf[1], len[1], 1), 0);
		raw = td_linebag_bound(&a, &b, 0, &plain);
		ceiling = td_linebag_masked_ceiling(&a, &b, plain);
		CHECK_INT(td_linebag_mask(&a, buf[0], len[0]), 0);
		CHECK_INT(td_linebag_mask(&b, buf[1], len[1]), 0);
		masked = td_linebag_bound(&a, &b, 1, NULL);
		CHECK(masked >= raw);
		CHECK(ceiling >= masked);
		td_linebag_release(&a);
		td_linebag_release(&b);
	}
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
	test_edge_cases();
	test_rename_ties();
	test_linebag_bounds();
	test_lines_distance();
	return check_finish();
}
