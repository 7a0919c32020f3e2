/* Rollups on a hand-built result: per directory at several depths, with and
 * without cumulative counting, and per policy class. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "treedrift/rollup.h"

enum { NFILES = 11 };

static td_file_t files[NFILES];
static td_change_t changes[NFILES];
static td_result_t result;

static const td_file_t *file(size_t i, const char *path)
{
	memset(&files[i], 0, sizeof(files[i]));
	files[i].path = (char *)path;
	files[i].path_len = strlen(path);
	files[i].type = TD_ENTRY_FILE;
	return &files[i];
}

static void change(size_t i, const td_file_t *up, const td_file_t *tg, td_status_t st, int dist,
		   td_class_t cls, const char *policy_class, double weight)
{
	td_change_t *c = &changes[i];

	memset(c, 0, sizeof(*c));
	c->upstream = up;
	c->target = tg;
	c->status = st;
	c->distance = dist;
	c->cls = cls;
	c->policy_class = policy_class;
	c->weight = weight;
	c->risk = dist * weight;
}

static void build_result(void)
{
	const td_file_t *f;

	f = file(0, "Makefile");
	change(0, f, f, TD_STATUS_MODIFIED, 50, TD_CLASS_CLEAN, "build", 1.0);
	f = file(1, "kernel/fork.c");
	change(1, f, f, TD_STATUS_MODIFIED, 100, TD_CLASS_SAFE, "core", 3.0);
	f = file(2, "kernel/sched/core.c");
	change(2, f, f, TD_STATUS_MODIFIED, 200, TD_CLASS_DIRTY, "core", 3.0);
	change(3, NULL, file(3, "drivers/net/phy/a.c"), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, "driver", 0.5);
	change(4, file(4, "drivers/net/b.c"), NULL, TD_STATUS_REMOVED, 0, TD_CLASS_NONE, "driver", 0.5);
	f = file(5, "drivers/net/c.c");
	change(5, f, f, TD_STATUS_IDENTICAL, 0, TD_CLASS_NONE, "driver", 0.5);
	f = file(6, "drivers/gpu/x.c");
	change(6, f, f, TD_STATUS_MODIFIED, 70, TD_CLASS_SAFE, "driver", 0.5);
	f = file(7, "drivers/gpu/y.c");
	change(7, f, f, TD_STATUS_SKIPPED, 0, TD_CLASS_NONE, "driver", 0.5);
	f = file(8, "fs/ext4/z.c");
	change(8, f, f, TD_STATUS_IDENTICAL, 0, TD_CLASS_NONE, NULL, 1.0);
	/* moved from lib/: filed under its target path */
	change(9, file(9, "lib/old.c"), file(10, "drivers/gpu/moved.c"), TD_STATUS_MODIFIED, 20,
	       TD_CLASS_CLEAN, "driver", 0.5);
	memset(&result, 0, sizeof(result));
	result.changes = changes;
	result.count = 10;
}

/* Check the rows' keys, in order, and their distances. */
static void expect_rows(const td_rollup_t *ru, const char *const *keys, const uint64_t *dists, size_t n)
{
	CHECK_INT(ru->count, n);
	for (size_t i = 0; i < n && i < ru->count; i++) {
		CHECK_STR(ru->rows[i].key, keys[i]);
		CHECK_INT(ru->rows[i].key_len, strlen(keys[i]));
		CHECK_INT(ru->rows[i].distance, dists[i]);
	}
}

static const td_rollup_row_t *row(const td_rollup_t *ru, const char *key)
{
	for (size_t i = 0; i < ru->count; i++)
		if (!strcmp(ru->rows[i].key, key))
			return &ru->rows[i];
	return NULL;
}

static void test_depth1(void)
{
	static const char *const keys[] = { "drivers", "kernel", "." };
	static const uint64_t dists[] = { 390, 300, 50 };
	td_rollup_t *ru = NULL;
	td_error_t err;
	const td_rollup_row_t *d;

	CHECK_INT(td_rollup_by_dir(&ru, &result, 1, 0, &err), 0);
	if (!ru)
		return;
	expect_rows(ru, keys, dists, 3);
	CHECK(row(ru, "fs") == NULL); /* identical files only: no row */
	CHECK(row(ru, "lib") == NULL); /* the moved file's old home */
	if ((d = row(ru, "drivers"))) {
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
		CHECK_INT(d->by_status[TD_STATUS_ADDED], 1);
		CHECK_INT(d->by_status[TD_STATUS_REMOVED], 1);
		CHECK_INT(d->by_status[TD_STATUS_IDENTICAL], 1);
		CHECK_INT(d->by_status[TD_STATUS_SKIPPED], 1);
		CHECK_INT(d->by_class[TD_CLASS_NONE], 0);
		CHECK_INT(d->by_class[TD_CLASS_CLEAN], 1);
		CHECK_INT(d->by_class[TD_CLASS_SAFE], 1);
		CHECK_INT(d->by_class[TD_CLASS_DIRTY], 1);
		CHECK(d->risk == 195.0);
	}
	if ((d = row(ru, "kernel"))) {
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
		CHECK_INT(d->by_class[TD_CLASS_SAFE], 1);
		CHECK_INT(d->by_class[TD_CLASS_DIRTY], 1);
		CHECK(d->risk == 900.0);
	}
	if ((d = row(ru, "."))) {
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 1);
		CHECK_INT(d->by_class[TD_CLASS_CLEAN], 1);
	}
	td_rollup_free(ru);
}

static void test_depth2(void)
{
	static const char *const keys[] = { "drivers/net", "kernel/sched", "kernel", "drivers/gpu", "." };
	static const uint64_t dists[] = { 300, 200, 100, 90, 50 };
	td_rollup_t *ru = NULL;
	td_error_t err;
	const td_rollup_row_t *d;
	uint64_t sum = 0, nfiles = 0;

	CHECK_INT(td_rollup_by_dir(&ru, &result, 2, 0, &err), 0);
	if (!ru)
		return;
	expect_rows(ru, keys, dists, 5);
	/* without cumulative counting the rows add up to the whole */
	for (size_t i = 0; i < ru->count; i++) {
		sum += ru->rows[i].distance;
		for (int s = 0; s < 5; s++)
			nfiles += ru->rows[i].by_status[s];
	}
	CHECK_INT(sum, 740);
	CHECK_INT(nfiles, 9); /* all but fs/ext4/z.c, which has no row */
	if ((d = row(ru, "drivers/net"))) {
		/* drivers/net/phy/a.c counts in drivers/net at depth 2 */
		CHECK_INT(d->by_status[TD_STATUS_ADDED], 1);
		CHECK_INT(d->by_status[TD_STATUS_REMOVED], 1);
		CHECK_INT(d->by_status[TD_STATUS_IDENTICAL], 1);
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 0);
	}
	if ((d = row(ru, "drivers/gpu"))) {
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
		CHECK_INT(d->by_status[TD_STATUS_SKIPPED], 1);
	}
	td_rollup_free(ru);

	/* deeper than any file: every file in its own directory */
	{
		static const char *const keys9[] = { "drivers/net/phy", "kernel/sched", "kernel", "drivers/gpu",
						     ".", "drivers/net" };
		static const uint64_t dists9[] = { 300, 200, 100, 90, 50, 0 };

		CHECK_INT(td_rollup_by_dir(&ru, &result, 9, 0, &err), 0);
		if (ru)
			expect_rows(ru, keys9, dists9, 6);
		td_rollup_free(ru);
	}
}

static void test_cumulative(void)
{
	static const char *const keys2[] = { "drivers", "drivers/net", "kernel", "kernel/sched", "drivers/gpu", "." };
	static const uint64_t dists2[] = { 390, 300, 300, 200, 90, 50 };
	static const char *const keys3[] = { "drivers", "drivers/net", "drivers/net/phy", "kernel",
					     "kernel/sched", "drivers/gpu", "." };
	static const uint64_t dists3[] = { 390, 300, 300, 300, 200, 90, 50 };
	static const char *const keys1[] = { "drivers", "kernel", "." };
	static const uint64_t dists1[] = { 390, 300, 50 };
	td_rollup_t *ru = NULL;
	td_error_t err;
	const td_rollup_row_t *d;

	CHECK_INT(td_rollup_by_dir(&ru, &result, 2, TD_ROLLUP_CUMULATIVE, &err), 0);
	if (ru) {
		expect_rows(ru, keys2, dists2, 6);
		if ((d = row(ru, "drivers"))) {
			CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
			CHECK_INT(d->by_status[TD_STATUS_ADDED], 1);
			CHECK_INT(d->by_status[TD_STATUS_REMOVED], 1);
		}
		if ((d = row(ru, "kernel")))
			CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
	}
	td_rollup_free(ru);

	CHECK_INT(td_rollup_by_dir(&ru, &result, 3, TD_ROLLUP_CUMULATIVE, &err), 0);
	if (ru)
		expect_rows(ru, keys3, dists3, 7);
	td_rollup_free(ru);

	/* at depth 1 cumulative is the same as not */
	CHECK_INT(td_rollup_by_dir(&ru, &result, 1, TD_ROLLUP_CUMULATIVE, &err), 0);
	if (ru)
		expect_rows(ru, keys1, dists1, 3);
	td_rollup_free(ru);
}

static void test_by_class(void)
{
	static const char *const keys[] = { "driver", "core", "build" };
	static const uint64_t dists[] = { 390, 300, 50 };
	td_rollup_t *ru = NULL;
	td_error_t err;
	const td_rollup_row_t *d;

	CHECK_INT(td_rollup_by_class(&ru, &result, &err), 0);
	if (!ru)
		return;
	expect_rows(ru, keys, dists, 3);
	CHECK(row(ru, "other") == NULL); /* fs/ext4/z.c: identical only */
	if ((d = row(ru, "driver"))) {
		CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 2);
		CHECK_INT(d->by_status[TD_STATUS_ADDED], 1);
		CHECK_INT(d->by_status[TD_STATUS_REMOVED], 1);
		CHECK_INT(d->by_status[TD_STATUS_IDENTICAL], 1);
		CHECK_INT(d->by_status[TD_STATUS_SKIPPED], 1);
		CHECK(d->risk == 195.0);
	}
	if ((d = row(ru, "core")))
		CHECK(d->risk == 900.0);
	td_rollup_free(ru);

	/* without a policy every change is "other" */
	for (size_t i = 0; i < result.count; i++)
		changes[i].policy_class = NULL;
	CHECK_INT(td_rollup_by_class(&ru, &result, &err), 0);
	if (ru) {
		CHECK_INT(ru->count, 1);
		CHECK_STR(ru->rows[0].key, "other");
		CHECK_INT(ru->rows[0].distance, 740);
		CHECK_INT(ru->rows[0].by_status[TD_STATUS_IDENTICAL], 2);
	}
	td_rollup_free(ru);
	build_result();
}

static void test_ties_and_bytes(void)
{
	td_rollup_t *ru = NULL;
	td_error_t err;
	static const char nl[] = "new\nline/a.c";
	static const char hi[] = "\xff/b.c";

	memset(&result, 0, sizeof(result));
	change(0, NULL, file(0, "b/x.c"), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, NULL, 1.0);
	change(1, NULL, file(1, "a/x.c"), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, NULL, 1.0);
	change(2, NULL, file(2, nl), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, NULL, 1.0);
	change(3, NULL, file(3, hi), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, NULL, 1.0);
	change(4, NULL, file(4, "A/x.c"), TD_STATUS_ADDED, 300, TD_CLASS_DIRTY, NULL, 1.0);
	result.changes = changes;
	result.count = 5;
	/* equal distances: byte order of the keys */
	CHECK_INT(td_rollup_by_dir(&ru, &result, 1, 0, &err), 0);
	if (ru) {
		CHECK_INT(ru->count, 5);
		if (ru->count == 5) {
			CHECK_STR(ru->rows[0].key, "A");
			CHECK_STR(ru->rows[1].key, "a");
			CHECK_STR(ru->rows[2].key, "b");
			CHECK_STR(ru->rows[3].key, "new\nline");
			CHECK_INT(ru->rows[3].key_len, 8);
			CHECK_STR(ru->rows[4].key, "\xff");
		}
	}
	td_rollup_free(ru);

	/* bad arguments */
	ru = (td_rollup_t *)1;
	CHECK_INT(td_rollup_by_dir(&ru, &result, 0, 0, &err), TD_EINVAL);
	CHECK(ru == NULL);
	CHECK(strstr(err.msg, "depth must be at least 1") != NULL);
	CHECK_INT(td_rollup_by_dir(&ru, NULL, 1, 0, &err), TD_EINVAL);
	CHECK_INT(td_rollup_by_class(&ru, NULL, &err), TD_EINVAL);
	changes[2].target = NULL;
	CHECK_INT(td_rollup_by_dir(&ru, &result, 1, 0, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "change 2 has neither side") != NULL);

	/* an empty result: no rows */
	result.count = 0;
	result.changes = NULL;
	CHECK_INT(td_rollup_by_dir(&ru, &result, 2, 0, &err), 0);
	if (ru)
		CHECK_INT(ru->count, 0);
	td_rollup_free(ru);
	CHECK_INT(td_rollup_by_class(&ru, &result, &err), 0);
	if (ru)
		CHECK_INT(ru->count, 0);
	td_rollup_free(ru);
	td_rollup_free(NULL);
	build_result();
}

static void test_by_subsystem(void)
{
	static const char text[] =
		"SCHEDULER\nF:\tkernel/sched/\n\n"
		"NETWORKING DRIVERS\nF:\tdrivers/net/\n\n"
		"DRM\nF:\tdrivers/gpu/\nX:\tdrivers/gpu/moved.c\n";
	static const char *const keys[] = { "NETWORKING DRIVERS", "SCHEDULER", "(none)", "DRM" };
	static const uint64_t dists[] = { 300, 200, 170, 70 };
	td_maintainers_t *m = NULL;
	td_rollup_t *ru = NULL;
	td_error_t err;
	const td_rollup_row_t *d;

	CHECK_INT(td_maintainers_parse(&m, text, sizeof(text) - 1, "M", &err), 0);
	if (!m)
		return;
	CHECK_INT(td_rollup_by_subsystem(&ru, &result, m, &err), 0);
	if (ru) {
		/* (none): Makefile 50, kernel/fork.c 100, the moved file 20 */
		expect_rows(ru, keys, dists, 4);
		if ((d = row(ru, "(none)"))) {
			CHECK_INT(d->by_status[TD_STATUS_MODIFIED], 3);
			CHECK_INT(d->by_status[TD_STATUS_IDENTICAL], 1);
		}
		if ((d = row(ru, "DRM")))
			CHECK_INT(d->by_status[TD_STATUS_SKIPPED], 1);
	}
	td_rollup_free(ru);
	ru = (td_rollup_t *)1;
	CHECK_INT(td_rollup_by_subsystem(&ru, &result, NULL, &err), TD_EINVAL);
	CHECK(ru == NULL);
	td_maintainers_free(m);
}

int main(void)
{
	build_result();
	test_depth1();
	test_depth2();
	test_cumulative();
	test_by_class();
	test_by_subsystem();
	test_ties_and_bytes();
	return check_finish();
}
