/* td_lines_count on small trees: every kind of side, archives read in
 * batches, the size limit, a hard link in an archive, and a file that
 * changed after it was read. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shell_fixture.h"
#include "tree_fixture.h"
#include "treedrift/compare.h"
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

int main(void)
{
	char cmd[4200];

	make_fixture();
	test_dirs_and_jobs();
	test_archives();
	test_limits();
	test_changed_after_read();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	sh(cmd);
	return check_finish();
}
