/* Times the origin stage and base detection on real trees (the opt-in
 * long test and bench/origins.sh use it):
 *
 *   origin_bench nn UPSTREAM_DB LABEL TARGET_DB [TARGET_LABEL]
 *       compare TARGET against LABEL, then time td_origin_find with one
 *       thread and with all, and check that both give the same answers
 *   origin_bench base DB TARGET_SPEC [WANT_LABEL]
 *       time td_base_rank of TARGET (a database version or a directory) and
 *       exit 1 unless the best version is WANT_LABEL and not ambiguous
 *
 * Prints one "key value" pair a line. ORIGIN_BENCH_THRESHOLD sets the copy
 * threshold (default TD_DEFAULT_COPY_THRESHOLD). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treedrift/base.h"
#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"
#include "treedrift/store.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(const td_error_t *err)
{
	fprintf(stderr, "origin_bench: %s\n", err->msg);
	return 2;
}

static int load(td_tree_t **out, const char *db_path, const char *label, td_error_t *err)
{
	td_db_t *db = NULL;
	int rc = td_db_open(&db, db_path, err);
	if (!rc)
		rc = td_db_load(out, db, label, err);
	td_db_free(db);
	return rc;
}

static td_result_t *compare_pair(const char *up_db, const char *label, const char *tgt_db,
				 const char *tgt_label, td_error_t *err)
{
	td_tree_t *up = NULL, *tgt = NULL;
	td_result_t *r = NULL;

	if (load(&up, up_db, label, err) || load(&tgt, tgt_db, tgt_label, err)) {
		td_tree_free(up);
		td_tree_free(tgt);
		return NULL;
	}
	if (td_compare(&r, up, tgt, NULL, err))
		return NULL;
	return r;
}

static int cmd_nn(int argc, char **argv)
{
	td_error_t err = { 0 };
	td_result_t *r[2];
	td_origin_stats_t st[2];
	double t[2], cpu[2];

	for (int pass = 0; pass < 2; pass++) {
		td_origin_opts_t o;
		double t0;
		if (!(r[pass] = compare_pair(argv[2], argv[3], argv[4], argc > 5 ? argv[5] : NULL, &err)))
			return fail(&err);
		td_origin_opts_init(&o);
		o.threads = pass ? 0 : 1;
		if (getenv("ORIGIN_BENCH_THRESHOLD"))
			o.copy_threshold = atoi(getenv("ORIGIN_BENCH_THRESHOLD"));
		t0 = now_s();
		cpu[pass] = cpu_s();
		if (td_origin_find(r[pass], &o, &st[pass], &err))
			return fail(&err);
		t[pass] = now_s() - t0;
		cpu[pass] = cpu_s() - cpu[pass];
	}
	printf("added %llu\nmodified %llu\ncandidates %llu\nsearched %llu\nmoved %llu\ncopied %llu\n"
	       "distances %llu\nseconds_1_thread %.3f\ncpu_seconds_1_thread %.3f\nseconds_all_threads %.3f\n"
	       "cpu_seconds_all_threads %.3f\n",
	       (unsigned long long)r[0]->totals.added, (unsigned long long)r[0]->totals.modified,
	       (unsigned long long)st[0].candidates, (unsigned long long)st[0].searched,
	       (unsigned long long)st[0].moved, (unsigned long long)st[0].copied,
	       (unsigned long long)st[0].distances, t[0], cpu[0], t[1], cpu[1]);
	for (size_t i = 0; i < r[0]->count; i++)
		if (r[0]->changes[i].distance != r[1]->changes[i].distance ||
		    r[0]->changes[i].origin != r[1]->changes[i].origin - r[1]->upstream->files + r[0]->upstream->files) {
			if (!r[0]->changes[i].origin && !r[1]->changes[i].origin)
				continue;
			fprintf(stderr, "origin_bench: threads changed the answer for '%s'\n",
				r[0]->changes[i].target->path);
			return 1;
		}
	td_result_free(r[0]);
	td_result_free(r[1]);
	return 0;
}

static int cmd_base(int argc, char **argv)
{
	td_error_t err = { 0 };
	td_db_t *db = NULL;
	td_tree_t *target = NULL;
	td_base_result_t *b = NULL;
	double t0, t1, t2;
	int rc = 0;

	t0 = now_s();
	if (td_load_tree(&target, argv[3], NULL, NULL, NULL, &err))
		return fail(&err);
	t1 = now_s();
	if (td_db_open(&db, argv[2], &err) || td_base_rank(&b, db, target, NULL, &err))
		return fail(&err);
	t2 = now_s();
	printf("load_seconds %.3f\nrank_seconds %.3f\nbest %s\nnext %s\nambiguous %d\n"
	       "best_identical %llu\nnext_identical %llu\nonly_best %llu\nonly_next %llu\n",
	       t1 - t0, t2 - t1, b->candidates[0].label, b->count > 1 ? b->candidates[1].label : "-",
	       b->ambiguous, (unsigned long long)b->candidates[0].identical,
	       (unsigned long long)(b->count > 1 ? b->candidates[1].identical : 0),
	       (unsigned long long)b->only_best, (unsigned long long)b->only_next);
	if (argc > 4 && (strcmp(b->candidates[0].label, argv[4]) || b->ambiguous)) {
		fprintf(stderr, "origin_bench: base of '%s' is %s%s, want %s\n", argv[3],
			b->candidates[0].label, b->ambiguous ? " (ambiguous)" : "", argv[4]);
		rc = 1;
	}
	td_base_result_free(b);
	td_tree_free(target);
	td_db_free(db);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "nn"))
		return cmd_nn(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "base"))
		return cmd_base(argc, argv);
	fputs("usage: origin_bench nn UPSTREAM_DB LABEL TARGET_DB [TARGET_LABEL]\n"
	      "       origin_bench base DB TARGET [WANT_LABEL]\n", stderr);
	return 2;
}
