/* Base-version detection: the right version among several, ties reported
 * as ambiguous, the scores of the leading versions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_fixture.h"
#include "treedrift/base.h"
#include "treedrift/compare.h"

/* Five versions; file k changes at version k, so version v holds files
 * 0..9 in the content of their last change at or before v. */
static td_tree_t *version_tree(int v, const char *label)
{
	td_tree_t *t = fx_tree(label);
	char path[32];

	for (int k = 0; k < 10; k++) {
		int at = k < 5 ? (k <= v ? k : -1) : -1; /* files 0..4 change at versions 0..4 */
		snprintf(path, sizeof(path), "f%d.c", k);
		fx_add_text(t, path, (uint64_t)(1000 + 10 * k + (at < 0 ? 0 : at + 1)), 2000);
	}
	if (v >= 3)
		fx_add_text(t, "since3.c", 77, 2000);
	return t;
}

static td_base_result_t *rank(td_db_t *db, td_tree_t *target, size_t top)
{
	td_base_opts_t o;
	td_base_result_t *r = NULL;
	td_error_t err = { 0 };

	td_base_opts_init(&o);
	o.score_top = top;
	CHECK(td_tree_sort(target) == 0);
	CHECK(td_base_rank(&r, db, target, &o, &err) == 0);
	if (err.msg[0])
		fprintf(stderr, "rank: %s\n", err.msg);
	return r;
}

int main(void)
{
	static const char *const labels[] = { "v1.0", "v1.1", "v1.2", "v1.3", "v1.4", "v1.4-again" };
	char db[4200];
	td_db_t *h = NULL;
	td_error_t err = { 0 };
	td_base_result_t *r;

	fx_tmpdir();
	snprintf(db, sizeof(db), "%s/versions.db", fx_dir);
	for (int v = 0; v < 6; v++) {
		td_tree_t *t = version_tree(v < 5 ? v : 4, labels[v]);  /* the last repeats v1.4 */
		fx_db_add(db, t);
		td_tree_free(t);
	}
	CHECK(td_db_open(&h, db, &err) == 0);

	/* Each version's own tree picks it (v1.4 ties with its copy). */
	for (int v = 0; v < 4; v++) {
		td_tree_t *t = version_tree(v, NULL);
		r = rank(h, t, 3);
		CHECK_STR(r->candidates[0].label, labels[v]);
		CHECK_INT(r->candidates[0].identical, r->target_files);
		CHECK_INT(r->candidates[0].distance, 0);
		CHECK_INT(r->candidates[0].modified + r->candidates[0].added + r->candidates[0].removed, 0);
		CHECK(!r->ambiguous);
		CHECK(r->only_best >= 1);
		CHECK(r->candidates[1].scored && r->candidates[1].distance > 0);
		td_base_result_free(r);
		td_tree_free(t);
	}

	/* v1.4 and v1.4-again hold the same files: a tie, ambiguous; the
	 * higher label comes first. */
	{
		td_tree_t *t = version_tree(4, NULL);
		r = rank(h, t, 3);
		CHECK_STR(r->candidates[0].label, "v1.4-again");
		CHECK_STR(r->candidates[1].label, "v1.4");
		CHECK(r->ambiguous);
		CHECK_INT(r->only_best, 0);
		CHECK_INT(r->only_next, 0);
		CHECK_STR(r->candidates[2].label, "v1.3");
		td_base_result_free(r);
		td_tree_free(t);
	}

	/* v1.1 with f2.c and f3.c as v1.3 has them: v1.3 holds all ten files
	 * (and one more, since3.c), v1.2 nine; one file tells them apart. */
	{
		td_tree_t *t = version_tree(1, NULL);
		td_tree_t *v3 = version_tree(3, NULL);
		for (size_t i = 0; i < t->count; i++)
			if (!strcmp(t->files[i].path, "f2.c") || !strcmp(t->files[i].path, "f3.c")) {
				const td_file_t *src = td_tree_find(v3, t->files[i].path, t->files[i].path_len);
				td_digest_release(&t->files[i].digest);
				CHECK(td_digest_copy(&t->files[i].digest, &src->digest) == 0);
			}
		r = rank(h, t, 0);
		CHECK_STR(r->candidates[0].label, "v1.3");
		CHECK_INT(r->candidates[0].identical, 10);
		CHECK_INT(r->candidates[0].removed, 1);
		CHECK_STR(r->candidates[1].label, "v1.2");
		CHECK_INT(r->candidates[1].identical, 9);
		CHECK_INT(r->only_best, 1);
		CHECK_INT(r->only_next, 0);
		CHECK(!r->ambiguous);
		for (size_t i = 0; i < r->count; i++)
			CHECK(r->candidates[i].scored);  /* score_top 0: all */
		td_base_result_free(r);
		td_tree_free(t);
		td_tree_free(v3);
	}

	/* v1.0 with f2.c as v1.2 has it: v1.0 holds f1.c where v1.2 does not,
	 * v1.2 holds f2.c where v1.0 does not: a = b, ambiguous. */
	{
		td_tree_t *t = version_tree(0, NULL), *v2 = version_tree(2, NULL);
		for (size_t i = 0; i < t->count; i++)
			if (!strcmp(t->files[i].path, "f2.c")) {
				const td_file_t *src = td_tree_find(v2, "f2.c", 4);
				td_digest_release(&t->files[i].digest);
				CHECK(td_digest_copy(&t->files[i].digest, &src->digest) == 0);
			}
		r = rank(h, t, 2);
		CHECK(r->ambiguous);
		CHECK_INT(r->candidates[0].identical, r->candidates[1].identical);
		CHECK_INT(r->only_best, 1);
		CHECK_INT(r->only_next, 1);
		CHECK(!r->candidates[2].scored || r->candidates[2].identical == r->candidates[1].identical);
		td_base_result_free(r);
		td_tree_free(t);
		td_tree_free(v2);
	}
	td_db_free(h);
	fx_cleanup(db);
	return check_finish();
}
