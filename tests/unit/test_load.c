/* Load: td_load_pair_db keeps the upstream database it opened, and loads
 * from a handle it is given instead of opening the path again; a target
 * is read no further than its upstream side asks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tree_fixture.h"
#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"

static char db_path[4200], tgt_dir[4200];

static void write_file(const char *dir, const char *name, const char *data, size_t len)
{
	char path[4400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK((f = fopen(path, "wb")) != NULL);
	if (!f)
		return;
	CHECK(fwrite(data, 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

static void write_text(const char *dir, const char *name, uint64_t seed, size_t n)
{
	char *s = fx_text(seed, n);
	write_file(dir, name, s, n);
	free(s);
}

/* v1 and v2: same.c alike in both, back.c changed in v2; the target
 * directory holds same.c and v2's back.c. */
static void make_fixture(void)
{
	const char *labels[] = { "v1", "v2" };

	fx_tmpdir();
	snprintf(db_path, sizeof(db_path), "%s/up.db", fx_dir);
	snprintf(tgt_dir, sizeof(tgt_dir), "%s/tgt", fx_dir);
	for (int v = 0; v < 2; v++) {
		td_tree_t *t = fx_tree(labels[v]);
		fx_add_text(t, "same.c", 1, 3000);
		fx_add_text(t, "back.c", 20 + (uint64_t)v, 3000);
		fx_db_add(db_path, t);
		td_tree_free(t);
	}
	CHECK(mkdir(tgt_dir, 0755) == 0);
	write_text(tgt_dir, "same.c", 1, 3000);
	write_text(tgt_dir, "back.c", 21, 3000);
}

static void remove_fixture(void)
{
	char path[4400];

	snprintf(path, sizeof(path), "%s/same.c", tgt_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/back.c", tgt_dir);
	unlink(path);
	rmdir(tgt_dir);
	fx_cleanup(db_path);
}

/* The handle the load opened serves td_origin_versions and a second
 * load after the database file is gone: nothing opens the path again. */
static void test_keeps_handle(void)
{
	td_load_opts_t lo;
	td_error_t err = { 0 };
	td_db_t *db = NULL;
	td_tree_t *up = NULL, *tgt = NULL;
	td_result_t *r = NULL;
	size_t marked = 0;

	make_fixture();
	td_load_opts_init(&lo);
	lo.upstream_label = "v1";
	CHECK(td_load_pair_db(&up, &tgt, &db, db_path, tgt_dir, &lo, NULL, &err) == 0);
	CHECK(db != NULL);
	CHECK_STR(up->meta.label, "v1");
	/* Put something that is not a database where it was. */
	CHECK(unlink(db_path) == 0);
	write_file(fx_dir, "up.db", "not a database\n", 15);
	CHECK(td_compare(&r, up, tgt, NULL, &err) == 0);
	CHECK_STR(r->base_version, "v1");
	CHECK(td_origin_versions(r, db, &marked, &err) == 0);
	CHECK_INT(marked, 1);
	CHECK_STR(fx_change(r, "back.c")->matches_version, "v2");
	td_result_free(r);
	r = NULL;

	/* Opening the path now fails; loading from the handle does not. */
	up = tgt = NULL;
	lo.upstream_label = "v2";
	CHECK(td_load_pair(&up, &tgt, db_path, tgt_dir, &lo, NULL, &err) != 0);
	CHECK(!up && !tgt);
	CHECK(td_load_pair_db(&up, &tgt, &db, db_path, tgt_dir, &lo, NULL, &err) == 0);
	CHECK(up && tgt);
	if (up && tgt) {
		CHECK_STR(up->meta.label, "v2");
		CHECK(td_compare(&r, up, tgt, NULL, &err) == 0);
		CHECK_INT(r->totals.mismatched, 0);
		td_result_free(r);
	}
	td_db_free(db);
	remove_fixture();
}

/* Errors: a label the database lacks still hands over the handle (the
 * caller frees it), and is the error reported when the target is missing
 * too (the database loads while the target is opened); a source upstream
 * leaves the handle NULL; no place for it is an error. */
static void test_edges(void)
{
	td_load_opts_t lo;
	td_error_t err = { 0 };
	td_db_t *db = NULL;
	td_tree_t *up = NULL, *tgt = NULL;

	make_fixture();
	td_load_opts_init(&lo);
	lo.upstream_label = "v9";
	CHECK_INT(td_load_pair_db(&up, &tgt, &db, db_path, tgt_dir, &lo, NULL, &err), TD_ENOTFOUND);
	CHECK(db != NULL);
	CHECK(!up && !tgt);
	td_db_free(db);
	db = NULL;
	{
		char missing[4300];
		snprintf(missing, sizeof(missing), "%s/none", fx_dir);
		CHECK_INT(td_load_pair(&up, &tgt, db_path, missing, &lo, NULL, &err), TD_ENOTFOUND);
		CHECK(strstr(err.msg, "no version 'v9'") != NULL);
		CHECK(!up && !tgt);
		lo.upstream_label = NULL;
		CHECK_INT(td_load_pair(&up, &tgt, db_path, missing, &lo, NULL, &err), TD_ENOTFOUND);
		CHECK(strstr(err.msg, "none") != NULL);
		CHECK(!up && !tgt);
	}

	td_load_opts_init(&lo);
	CHECK(td_load_pair_db(&up, &tgt, &db, tgt_dir, tgt_dir, &lo, NULL, &err) == 0);
	CHECK(db == NULL);
	td_tree_free(up);
	td_tree_free(tgt);

	up = tgt = NULL;
	CHECK_INT(td_load_pair_db(&up, &tgt, NULL, db_path, tgt_dir, &lo, NULL, &err), TD_EINVAL);
	CHECK(!up && !tgt);
	remove_fixture();
}

static const td_file_t *find(const td_tree_t *t, const char *path)
{
	const td_file_t *f = td_tree_find(t, path, strlen(path));

	CHECK(f != NULL);
	return f;
}

/* A directory target against a database is read as it is walked, each
 * file as far as its upstream file asks: an identical one for SHA-256
 * alone, one of the same size again in full once it differs, a grown one
 * in full. Of the whitespace-normalised text, which only tells whether a
 * change is cosmetic: an added file gets nothing; a grown one its length,
 * and its digest only when the length is upstream's (spaced.c, spaces
 * added). */
static void test_reads_what_is_needed(void)
{
	static const struct {
		const char *path;
		uint64_t seed;
		size_t len;
		int sha_only, ws, ws_bytes;
	} want[] = {
		{ "same.c", 1, 3000, 1, 0, 0 },
		{ "back.c", 21, 3000, 0, 1, 1 },
		{ "grown.c", 30, 3500, 0, 0, 1 },
		{ "new.c", 40, 3000, 0, 0, 0 },
		{ "spaced.c", 50, 3000, 0, 1, 1 },
	};
	td_load_opts_t lo;
	td_scan_stats_t st = { 0 };
	td_error_t err = { 0 };
	td_tree_t *up = fx_tree("v1"), *tgt = NULL;
	char path[4400];

	fx_tmpdir();
	snprintf(db_path, sizeof(db_path), "%s/up.db", fx_dir);
	snprintf(tgt_dir, sizeof(tgt_dir), "%s/tgt", fx_dir);
	fx_add_text(up, "same.c", 1, 3000);
	fx_add_text(up, "back.c", 20, 3000);
	fx_add_text(up, "grown.c", 30, 3000);
	fx_add_text(up, "spaced.c", 50, 3000);
	fx_db_add(db_path, up);
	td_tree_free(up);
	up = NULL;
	CHECK(mkdir(tgt_dir, 0755) == 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		write_text(tgt_dir, want[i].path, want[i].seed, want[i].len);
	{ /* spaced.c again, with spaces added */
		char *s = fx_text(50, 3000), *spaced = malloc(3004);
		CHECK(s && spaced);
		if (s && spaced) {
			memcpy(spaced, s, 3000);
			memcpy(spaced + 3000, " \t  ", 4);
			write_file(tgt_dir, "spaced.c", spaced, 3004);
		}
		free(s);
		free(spaced);
	}

	td_load_opts_init(&lo);
	CHECK(td_load_pair(&up, &tgt, db_path, tgt_dir, &lo, &st, &err) == 0);
	if (up && tgt) {
		CHECK_INT(tgt->count, 5);
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			const td_file_t *f = find(tgt, want[i].path);
			CHECK(f && f->has_digest);
			CHECK_INT(f && f->digest.sha_only, want[i].sha_only);
			CHECK_INT(f && f->digest.has_sha256_ws, want[i].ws);
			CHECK_INT(f && f->digest.has_ws_bytes, want[i].ws_bytes);
			CHECK(!f || want[i].sha_only || f->digest.tlsh_status == TD_TLSH_OK);
		}
		{ /* the digests that decide cosmetic changes */
			const td_file_t *us = find(up, "spaced.c"), *ts = find(tgt, "spaced.c");
			const td_file_t *ug = find(up, "grown.c"), *tg = find(tgt, "grown.c");
			CHECK(us && ts && us->digest.has_ws_bytes && us->digest.ws_bytes == ts->digest.ws_bytes &&
			      !memcmp(us->digest.sha256_ws, ts->digest.sha256_ws, TD_SHA256_BYTES));
			CHECK(ug && tg && ug->digest.has_ws_bytes && ug->digest.ws_bytes != tg->digest.ws_bytes);
		}
		/* back.c twice: SHA-256 first, then in full */
		CHECK_INT(st.files_read, 6);
		CHECK_INT(st.files_listed, 5);
	}
	td_tree_free(up);
	td_tree_free(tgt);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tgt_dir, want[i].path);
		unlink(path);
	}
	rmdir(tgt_dir);
	fx_cleanup(db_path);
}

int main(void)
{
	test_keeps_handle();
	test_reads_what_is_needed();
	test_edges();
	return check_finish();
}
