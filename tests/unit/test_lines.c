/* td_lines_count on small trees: every kind of side, archives read in
 * batches, the size limit, a hard link in an archive, and a file that
 * changed after it was read. td_pairs_diff with upstream files shared by
 * many pairs. td_lines_score_pair on contents in memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pairs.h"
#include "shell_fixture.h"
#include "tree_fixture.h"
#include "treedrift/compare.h"
#include "treedrift/digest.h"
#include "treedrift/lines.h"
#include "treedrift/load.h"

static char dir[4096];

static void make_fixture(void)
{
	char cmd[16384];

	check_tmpdir(dir, sizeof(dir), "lines");
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; mkdir u t\n"
		 "printf '1\\n2\\n3\\n' >u/a.txt; printf '1\\nX\\n3\\n4\\n' >t/a.txt\n"
		 "printf 'x\\ny' >u/b.txt; printf 'x\\ny\\n' >t/b.txt\n"
		 "seq 1 1000 >u/big.txt; seq 1 999 >t/big.txt\n"
		 "printf 'one\\n' >u/orig.txt; printf 'one\\ntwo\\n' >t/orig.txt\n"
		 "printf 'one\\n' >u/link.txt; ln t/orig.txt t/link.txt\n"
		 "printf 'same\\n' >u/same.txt; cp u/same.txt t/same.txt\n"
		 "tar cf u.tar u; tar cf t.tar t\n",
		 dir);
	if (sh(cmd))
		exit(1);
}

typedef struct want {
	const char *path;
	td_lines_state_t state;
	int added, removed;
	const char *missing; /* substring of the reason */
} want_t;

static td_result_t *count(const char *up, const char *tg, const td_lines_opts_t *lo)
{
	char us[4200], ts[4200];
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_error_t err = { 0 };

	snprintf(us, sizeof(us), "%s/%s", dir, up);
	snprintf(ts, sizeof(ts), "%s/%s", dir, tg);
	CHECK_INT(td_load_pair(&u, &t, us, ts, NULL, NULL, &err), 0);
	CHECK_INT(td_compare(&r, u, t, NULL, &err), 0);
	if (!r)
		return NULL;
	CHECK_INT(td_lines_count(r, lo, &err), 0);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	return r;
}

static void check_want(const td_result_t *r, const want_t *w, size_t n, const char *name)
{
	CHECK_INT(r->lines_counted, 1);
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = fx_change(r, w[i].path);
		CHECK(c != NULL);
		if (!c)
			continue;
		if ((int)c->lines != (int)w[i].state)
			fprintf(stderr, "%s: %s: state %d, want %d (%s)\n", name, w[i].path, c->lines,
				w[i].state, c->lines_missing ? c->lines_missing : "");
		CHECK_INT(c->lines, w[i].state);
		if (w[i].state == TD_LINES_COUNTED) {
			CHECK_INT(c->lines_added, w[i].added);
			CHECK_INT(c->lines_removed, w[i].removed);
		}
		if (w[i].missing) {
			CHECK(c->lines_missing && strstr(c->lines_missing, w[i].missing));
			if (c->lines_missing && !strstr(c->lines_missing, w[i].missing))
				fprintf(stderr, "%s: %s: '%s'\n", name, w[i].path, c->lines_missing);
		}
	}
	CHECK_INT(fx_change(r, "same.txt")->lines, TD_LINES_NONE);
}

static const want_t plain[] = {
	{ "a.txt", TD_LINES_COUNTED, 2, 1, NULL },
	{ "b.txt", TD_LINES_COUNTED, 1, 1, NULL },
	{ "big.txt", TD_LINES_COUNTED, 0, 1, NULL },
	{ "orig.txt", TD_LINES_COUNTED, 1, 0, NULL },
	{ "link.txt", TD_LINES_COUNTED, 1, 0, NULL },
};

static void test_dirs_and_jobs(void)
{
	td_lines_opts_t lo;
	td_result_t *r;

	td_lines_opts_init(&lo);
	for (unsigned jobs = 1; jobs <= 4; jobs += 3) {
		lo.jobs = jobs;
		if ((r = count("u", "t", &lo))) {
			check_want(r, plain, sizeof(plain) / sizeof(plain[0]), "dirs");
			CHECK_INT(r->totals.lines_added, 5);
			CHECK_INT(r->totals.lines_removed, 3);
			CHECK(r->lines_missing == NULL);
		}
		td_result_free(r);
	}
}

static void test_archives(void)
{
	/* the hard link: tar stores link.txt as a link to orig.txt */
	const want_t tar_target[] = {
		{ "a.txt", TD_LINES_COUNTED, 2, 1, NULL },
		{ "big.txt", TD_LINES_COUNTED, 0, 1, NULL },
		{ "orig.txt", TD_LINES_COUNTED, 1, 0, NULL },
		{ "link.txt", TD_LINES_MISSING, 0, 0, "the target file is a hard link in the archive" },
	};
	td_lines_opts_t lo;
	td_result_t *r;

	td_lines_opts_init(&lo);
	if ((r = count("u.tar", "t", &lo)))
		check_want(r, plain, sizeof(plain) / sizeof(plain[0]), "archive vs dir");
	td_result_free(r);
	/* one byte held at most: a batch per member, both archives read in turns */
	lo.held_bytes = 1;
	if ((r = count("u.tar", "t.tar", &lo))) {
		check_want(r, tar_target, sizeof(tar_target) / sizeof(tar_target[0]), "two archives");
		CHECK(r->lines_missing == NULL);
	}
	td_result_free(r);
	lo.held_bytes = 0;
	lo.jobs = 1;
	if ((r = count("u", "t.tar", &lo)))
		check_want(r, tar_target, sizeof(tar_target) / sizeof(tar_target[0]), "dir vs archive");
	td_result_free(r);
}

static void test_limits(void)
{
	const want_t limited[] = {
		{ "a.txt", TD_LINES_COUNTED, 2, 1, NULL },
		{ "big.txt", TD_LINES_MISSING, 0, 0, "over the size limit" },
	};
	td_lines_opts_t lo;
	td_result_t *r;

	td_lines_opts_init(&lo);
	lo.max_file_bytes = 1000; /* big.txt has 3893 and 3888 bytes */
	if ((r = count("u", "t", &lo))) {
		check_want(r, limited, 2, "size limit");
		CHECK_INT(r->totals.lines_missing, 1);
	}
	td_result_free(r);
	if ((r = count("u.tar", "t", &lo)))
		check_want(r, limited, 2, "size limit, archive");
	td_result_free(r);
}

/* A file edited between the comparison and the counts: not counted from
 * content the comparison never saw. */
static void test_changed_after_read(void)
{
	const want_t changed[] = {
		{ "a.txt", TD_LINES_MISSING, 0, 0, "the target file changed after it was read" },
		{ "b.txt", TD_LINES_COUNTED, 1, 1, NULL },
	};
	char us[4200], ts[4200], cmd[8500];
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_error_t err = { 0 };

	snprintf(us, sizeof(us), "%s/u", dir);
	snprintf(ts, sizeof(ts), "%s/t", dir);
	CHECK_INT(td_load_pair(&u, &t, us, ts, NULL, NULL, &err), 0);
	CHECK_INT(td_compare(&r, u, t, NULL, &err), 0);
	snprintf(cmd, sizeof(cmd), "printf 'edited later\\n' >>'%s/a.txt'", ts);
	if (r && !sh(cmd)) {
		CHECK_INT(td_lines_count(r, NULL, &err), 0);
		check_want(r, changed, 2, "changed");
	}
	td_result_free(r);
}

/* A file of C-like lines drawn from a few templates, its names starting
 * with prefix, the same for the same seed. */
static void write_lines(const char *path, uint64_t seed, int lines, const char *prefix)
{
	FILE *f = fopen(path, "w");
	uint64_t x = seed;

	CHECK(f != NULL);
	for (int i = 0; f && i < lines; i++) {
		unsigned a, b;
		x = x * 6364136223846793005u + 1442695040888963407u;
		a = (unsigned)(x >> 40) % 90;
		b = (unsigned)(x >> 50) % 9;
		switch ((x >> 33) % 5) {
		case 0:
			fprintf(f, "}\n");
			break;
		case 1:
			fprintf(f, "\t%s_v%u(%s_%u);\n", prefix, a, prefix, b);
			break;
		case 2:
			fprintf(f, "int %s_x%u = %u;\n", prefix, a % 50, b % 7);
			break;
		case 3:
			fprintf(f, "\treturn %u;\n", a % 4);
			break;
		default:
			fprintf(f, "\tline_%u;\n", (unsigned)(x >> 40) % 400);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* Pairs of similarity whose upstream files are each in many pairs (kept
 * once for all of them): every pair as td_similarity_bounded makes it on
 * its own, the floor raised by the best pair of its target as
 * td_pairs_diff does, on one thread and several, with nothing kept (all
 * over the limit); an upstream file gone after the scan is missing in
 * each of its pairs, and a binary one is diffed whole; pairs of line
 * counts of a gone target leave the shared files' counts alone. */
static void test_pairs_shared(void)
{
	enum { UPS = 7, TGS = 12 };
	char pd[4200], path[4400], cmd[8800];
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_error_t err = { 0 };
	td_pair_t *p, *want;
	size_t n = 0, bounded = 0, diffed = 0, renamed = 0, copies = 0, missing = 0;
	FILE *f;

	snprintf(pd, sizeof(pd), "%s/pairs", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/u' '%s/t'", pd, pd);
	CHECK_INT(sh(cmd), 0);
	for (int i = 0; i < UPS - 1; i++) {
		snprintf(path, sizeof(path), "%s/u/%d.c", pd, i);
		write_lines(path, 100 + (uint64_t)i, 150 + 40 * i, "foo");
	}
	snprintf(path, sizeof(path), "%s/u/bin.o", pd); /* binary: a NUL */
	if ((f = fopen(path, "wb"))) {
		fwrite("int x;\n\0\1\2\nint y;\n", 1, 19, f);
		fclose(f);
	}
	/* targets: upstream files again, renamed or not, cut and added to by
	 * the seed, and files of their own */
	for (int i = 0; i < TGS; i++) {
		snprintf(path, sizeof(path), "%s/t/%02d.c", pd, i);
		uint64_t seed = i < 8 ? 100 + (uint64_t)(i % 6) : 900 + (uint64_t)i;
		write_lines(path, seed, 150 + 40 * (i % 6) - (i % 3) * 30, i % 2 ? "bar" : "foo");
	}
	snprintf(path, sizeof(path), "%s/u", pd);
	snprintf(cmd, sizeof(cmd), "%s/t", pd);
	CHECK_INT(td_load_pair(&u, &t, path, cmd, NULL, NULL, &err), 0);
	CHECK_INT(td_compare(&r, u, t, NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/u/5.c", pd);
	CHECK_INT(remove(path), 0); /* gone after the scan */
	if (!r)
		return;
	p = calloc((size_t)UPS * TGS, sizeof(*p));
	want = calloc((size_t)UPS * TGS, sizeof(*want));
	CHECK(p && want && r->upstream->count == UPS && r->target->count == TGS);
	for (size_t i = 0; p && want && i < r->target->count; i++) {
		size_t tl;
		char *tb;
		td_simfile_t nf;
		double best = -1;
		snprintf(path, sizeof(path), "%s/t/%s", pd, r->target->files[i].path);
		tb = slurp(path, &tl);
		td_simfile_init(&nf, tb, tl);
		for (size_t j = 0; j < r->upstream->count && n < (size_t)UPS * TGS; j++, n++) {
			size_t ul;
			char *ub;
			int reached = best >= 0.5;
			p[n].up = &r->upstream->files[j];
			p[n].tg = &r->target->files[i];
			p[n].mode = TD_PAIR_SIMILARITY;
			p[n].floor = 0.5;
			want[n] = p[n];
			snprintf(path, sizeof(path), "%s/u/%s", pd, p[n].up->path);
			if (!(ub = slurp(path, &ul))) {
				want[n].missing = "gone";
				continue;
			}
			CHECK_INT(td_similarity_bounded(&want[n].sim, ub, ul, &nf, reached ? best : 0.5, reached, &err),
				  0);
			if (!want[n].sim.bounded && !want[n].sim.binary && want[n].sim.value >= 0.5 &&
			    want[n].sim.value > best)
				best = want[n].sim.value;
			free(ub);
		}
		td_simfile_release(&nf);
		free(tb);
	}
	for (int pass = 0; pass < 3 && p && want; pass++) {
		td_lines_opts_t lo;
		td_lines_opts_init(&lo);
		lo.jobs = pass ? 4 : 1;
		td_pairs_keep_bytes = pass == 2 ? 1 : TD_PAIRS_KEEP_BYTES;
		CHECK_INT(td_pairs_diff(r, p, n, &lo, NULL, &err), 0);
		for (size_t k = 0; k < n; k++) {
			const td_similarity_t *a = &p[k].sim, *b = &want[k].sim;
			CHECK_INT(!p[k].missing, !want[k].missing);
			if (p[k].missing)
				continue;
			CHECK_INT(a->bounded, b->bounded);
			CHECK(a->value == b->value);
			CHECK_INT(a->binary, b->binary);
			CHECK_INT(a->renamed, b->renamed);
			if (!pass) {
				bounded += a->bounded;
				diffed += !a->bounded;
				renamed += !a->bounded && a->renamed;
				copies += !a->bounded && a->value >= 0.5;
			}
		}
	}
	td_pairs_keep_bytes = TD_PAIRS_KEEP_BYTES;
	for (size_t k = 0; k < n; k++)
		missing += p[k].missing != NULL;
	/* not met vacuously */
	CHECK_INT(missing, TGS);
	CHECK(bounded > 20);
	CHECK(diffed > 10);
	CHECK(renamed > 2);
	CHECK(copies >= 6);
	/* a target gone, the first, its pairs line counts of the same upstream
	 * files: none of them counts as one of a shared file's pairs */
	snprintf(path, sizeof(path), "%s/t/%s", pd, r->target->files[0].path);
	CHECK_INT(remove(path), 0);
	for (size_t k = 0; p && want && k < n; k++) {
		memset(&p[k].sim, 0, sizeof(p[k].sim));
		p[k].missing = NULL;
		if (p[k].tg == &r->target->files[0])
			p[k].mode = TD_PAIR_LINES;
	}
	if (p && want) {
		td_lines_opts_t lo;
		td_lines_opts_init(&lo);
		lo.jobs = 1;
		CHECK_INT(td_pairs_diff(r, p, n, &lo, NULL, &err), 0);
	}
	for (size_t k = 0; p && want && k < n; k++) {
		if (p[k].tg == &r->target->files[0]) {
			CHECK(p[k].missing != NULL);
			continue;
		}
		CHECK_INT(!p[k].missing, !want[k].missing);
		if (!p[k].missing) {
			CHECK_INT(p[k].sim.bounded, want[k].sim.bounded);
			CHECK(p[k].sim.value == want[k].sim.value);
		}
	}
	free(p);
	free(want);
	td_result_free(r);
}

/* ---- td_lines_score_pair ---- */

typedef struct contents {
	const char *data[2];
	size_t len[2];
	int asked;          /* times get was called */
	int fail;           /* get fails with TD_EIO */
} contents_t;

static int get_content(void *ctx, int side, const void **data, size_t *len, td_error_t *err)
{
	contents_t *c = ctx;

	c->asked++;
	if (c->fail) {
		snprintf(err->msg, sizeof(err->msg), "unreadable");
		return err->code = TD_EIO;
	}
	*data = c->data[side];
	*len = c->len[side];
	return TD_OK;
}

static void digest_bytes(td_digest_t *d, const char *data, size_t len)
{
	td_digester_t *dg = NULL;

	memset(d, 0, sizeof(*d));
	CHECK_INT(td_digester_new(&dg), 0);
	td_digester_start(dg, 1);
	CHECK_INT(td_digester_update(dg, data, len), 0);
	CHECK_INT(td_digester_finish(d, dg), 0);
	td_digester_free(dg);
}

/* Score c's old against its new: the distance, or -1000 - the error. */
static int score_contents(contents_t *c, td_scored_by_t *by, int small_by_lines)
{
	td_digest_t a, b;
	td_error_t err = { 0 };
	int distance = -1, rc;

	digest_bytes(&a, c->data[0], c->len[0]);
	digest_bytes(&b, c->data[1], c->len[1]);
	rc = td_lines_score_pair(&distance, by, &a, &b, 1, small_by_lines, get_content, c, &err);
	td_digest_release(&a);
	td_digest_release(&b);
	return rc ? -1000 - rc : distance;
}

static int score_texts(td_scored_by_t *by, int *asked, const char *old, const char *new, int small_by_lines,
		       int fail)
{
	contents_t c = { { old, new }, { strlen(old), strlen(new) }, 0, fail };
	int d = score_contents(&c, by, small_by_lines);

	*asked = c.asked;
	return d;
}

/* n lines of varied text, line k (1-based) replaced by alt when alt is not
 * NULL; into out (room for 64 bytes a line). */
static char *lines_text(char *out, int n, int k, const char *alt)
{
	size_t at = 0;

	out[0] = '\0';
	for (int i = 1; i <= n; i++)
		at += (size_t)sprintf(out + at, "%s\n",
				      i == k && alt ? alt : fmt("static int value_%d = %d * %d + %d;", i, i * 7, i % 5, i * i));
	return out;
}

static void test_score_pair(void)
{
	static char small_old[64 * 12], small_new[64 * 12], big_old[64 * 80], big_new[64 * 80], ws_new[64 * 80];
	td_scored_by_t by;
	int asked, d;

	lines_text(small_old, 12, 0, NULL);
	lines_text(small_new, 12, 5, "int changed_here(void);");
	lines_text(big_old, 80, 0, NULL);
	lines_text(big_new, 80, 40, "int changed_here(void);");
	CHECK(strlen(small_new) < TD_LINES_SMALL_FILE_BYTES && strlen(big_old) >= TD_LINES_SMALL_FILE_BYTES);

	/* the same bytes, and only whitespace changed: 0, no content asked */
	CHECK_INT(score_texts(&by, &asked, big_old, big_old, 1, 0), 0);
	CHECK_INT(by, TD_SCORED_EQUAL);
	strcpy(ws_new, big_old);
	for (char *p = ws_new; (p = strstr(p, " = ")); p += 3)
		p[0] = '\t';
	CHECK_INT(score_texts(&by, &asked, big_old, ws_new, 1, 0), 0);
	CHECK_INT(by, TD_SCORED_COSMETIC);
	CHECK_INT(asked, 0);

	/* small: the line diff, one line of 12 changed on each side */
	d = score_texts(&by, &asked, small_old, small_new, 1, 0);
	CHECK_INT(by, TD_SCORED_LINES);
	CHECK_INT(d, td_lines_distance(2.0 / 24.0));
	CHECK_INT(asked, 2);
	/* ... TLSH when small files keep it, or when a side is over the size */
	d = score_texts(&by, &asked, small_old, small_new, 0, 0);
	CHECK_INT(by, TD_SCORED_TLSH);
	CHECK(d > 0 && d != td_lines_distance(2.0 / 24.0));
	CHECK_INT(asked, 0);
	d = score_texts(&by, &asked, big_old, big_new, 1, 0);
	CHECK_INT(by, TD_SCORED_TLSH);
	CHECK(d > 0);
	CHECK_INT(asked, 0);

	/* too short for TLSH: the fallback, even when small */
	d = score_texts(&by, &asked, "int a;\n", "int b;\n", 1, 0);
	CHECK_INT(by, TD_SCORED_FALLBACK);
	CHECK(d > 0);
	CHECK_INT(asked, 0);

	/* binary to git (a NUL byte): its TLSH score, though small */
	{
		static char bin_old[64 * 12];
		contents_t c = { { bin_old, small_new }, { strlen(small_old), strlen(small_new) }, 0, 0 };
		td_scored_by_t tlsh_by;
		int tlsh;

		memcpy(bin_old, small_old, sizeof(bin_old));
		bin_old[10] = '\0';
		d = score_contents(&c, &by, 1);
		CHECK_INT(by, TD_SCORED_TLSH);
		CHECK_INT(c.asked, 2);
		tlsh = score_contents(&c, &tlsh_by, 0);
		CHECK_INT(d, tlsh);
	}

	/* content that cannot be read fails the scoring */
	CHECK_INT(score_texts(&by, &asked, small_old, small_new, 1, 1), -1000 - TD_EIO);
}

int main(void)
{
	char cmd[4200];

	make_fixture();
	test_dirs_and_jobs();
	test_archives();
	test_limits();
	test_changed_after_read();
	test_pairs_shared();
	test_score_pair();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	sh(cmd);
	return check_finish();
}
