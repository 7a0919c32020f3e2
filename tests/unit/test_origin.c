/* Origins: moved and copied files, ties, thresholds, threads, other
 * versions of a path, and the nearest-neighbour index against brute force. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "tree_fixture.h"
#include "treedrift/compare.h"
#include "treedrift/origin.h"
#include "treedrift/base.h"

static td_result_t *compare(td_tree_t *up, td_tree_t *tgt)
{
	td_result_t *r = NULL;
	td_error_t err = { 0 };

	CHECK(td_tree_sort(up) == 0);
	CHECK(td_tree_sort(tgt) == 0);
	CHECK(td_compare(&r, up, tgt, NULL, &err) == 0);
	return r;
}

static void test_moved_and_copied(void)
{
	td_tree_t *up = fx_tree("v1"), *tgt = fx_tree(NULL);
	td_origin_opts_t o;
	td_origin_stats_t st;
	td_error_t err = { 0 };
	td_result_t *r;
	const td_change_t *c;
	char *edited = fx_text(3, 6000);

	fx_add_text(up, "a.c", 1, 5000);
	fx_add_text(up, "old/b.c", 2, 4000);
	fx_add_text(up, "drivers/net/foo.c", 3, 6000);
	fx_add(up, "tiny.h", "#define X 1\n", 12);
	fx_add_text(tgt, "a.c", 1, 5000);
	fx_add_text(tgt, "new/b.c", 2, 4000);          /* moved: old/b.c is gone */
	fx_edit(edited, 6000, 100, 300);
	fx_add(tgt, "drivers/net/foo_vendor.c", edited, 6000); /* copied and edited */
	fx_add_text(tgt, "unrelated.c", 99, 6000);     /* wholly new */
	fx_add(tgt, "inc/tiny.h", "#define X 1\n", 12);   /* small, moved */
	fx_add(tgt, "inc/tiny2.h", "#define X 2\n", 12);  /* small, no TLSH: stays added */
	r = compare(up, tgt);
	td_origin_opts_init(&o);
	o.threads = 1;
	CHECK(td_origin_find(r, &o, &st, &err) == 0);

	c = fx_change(r, "new/b.c");
	CHECK(c && c->status == TD_STATUS_ADDED && c->origin_kind == TD_ORIGIN_MOVED);
	CHECK_STR(c && c->origin ? c->origin->path : NULL, "old/b.c");
	CHECK_INT(c ? c->distance : -1, 0);
	CHECK(c && c->cls == TD_CLASS_CLEAN);

	c = fx_change(r, "drivers/net/foo_vendor.c");
	CHECK(c && c->origin_kind == TD_ORIGIN_COPIED);
	CHECK_STR(c && c->origin ? c->origin->path : NULL, "drivers/net/foo.c");
	CHECK(c && c->distance > 0 && c->distance <= TD_DEFAULT_COPY_THRESHOLD);
	CHECK(c && c->distance == td_tlsh_distance(&c->target->digest.tlsh, &c->origin->digest.tlsh, 1));

	c = fx_change(r, "unrelated.c");
	CHECK(c && c->origin_kind == TD_ORIGIN_NONE && !c->origin && c->distance == TD_DEFAULT_ADDED_DISTANCE);
	c = fx_change(r, "inc/tiny.h");
	CHECK(c && c->origin_kind == TD_ORIGIN_MOVED);
	CHECK_STR(c && c->origin ? c->origin->path : NULL, "tiny.h");
	c = fx_change(r, "inc/tiny2.h");
	CHECK(c && !c->origin && c->distance == TD_DEFAULT_ADDED_DISTANCE);

	CHECK_INT(st.searched, 5);
	CHECK_INT(st.moved, 2);
	CHECK_INT(st.copied, 1);
	CHECK_INT(st.candidates, 3);
	/* Totals follow: two wholly new files at 300, the copy, two at 0. */
	c = fx_change(r, "drivers/net/foo_vendor.c");
	CHECK_INT(r->totals.added, 5);
	CHECK_INT(r->totals.added_distance, 600 + (uint64_t)(c ? c->distance : 0));
	CHECK_INT(r->totals.by_class[TD_CLASS_NEW].files, 2); /* the two without an origin */
	CHECK_INT(r->totals.by_class[TD_CLASS_DIRTY].files, 0);
	{
		td_origin_counts_t n;
		td_origin_count(&n, r);
		CHECK_INT(n.moved, 2);
		CHECK_INT(n.copied, 1);
		CHECK_INT(n.matches_version, 0);
	}
	td_result_free(r);
	free(edited);
}

/* A threshold below the copy's distance leaves it added; -1 finds moves only. */
static void test_threshold(void)
{
	for (int pass = 0; pass < 2; pass++) {
		td_tree_t *up = fx_tree("v1"), *tgt = fx_tree(NULL);
		td_origin_opts_t o;
		td_error_t err = { 0 };
		td_result_t *r;
		const td_change_t *c;
		char *edited = fx_text(3, 6000);
		int d;

		fx_add_text(up, "foo.c", 3, 6000);
		fx_add_text(up, "gone.c", 4, 3000);
		fx_edit(edited, 6000, 7, 200);
		fx_add(tgt, "bar.c", edited, 6000);
		fx_add_text(tgt, "here.c", 4, 3000);
		r = compare(up, tgt);
		td_origin_opts_init(&o);
		c = fx_change(r, "bar.c");
		d = td_tlsh_distance(&c->target->digest.tlsh, &up->files[0].digest.tlsh, 1);
		CHECK(d > 0 && d < 100);
		o.copy_threshold = pass ? -1 : d - 1;
		CHECK(td_origin_find(r, &o, NULL, &err) == 0);
		CHECK(c->origin_kind == TD_ORIGIN_NONE && c->distance == TD_DEFAULT_ADDED_DISTANCE);
		CHECK(fx_change(r, "here.c")->origin_kind == TD_ORIGIN_MOVED);
		/* At exactly the threshold it is a copy. */
		if (!pass) {
			o.copy_threshold = d;
			CHECK(td_origin_find(r, &o, NULL, &err) == 0);
			CHECK(c->origin_kind == TD_ORIGIN_COPIED && c->distance == d);
		}
		td_result_free(r);
		free(edited);
	}
}

/* Equal content at two upstream paths: the one the target dropped, then
 * the first path; equal distances: the first path. */
static void test_ties(void)
{
	td_tree_t *up = fx_tree("v1"), *tgt = fx_tree(NULL);
	td_error_t err = { 0 };
	td_result_t *r;
	const td_change_t *c;
	char *edited = fx_text(5, 5000);

	fx_add_text(up, "a/same.c", 1, 4000);   /* kept by the target */
	fx_add_text(up, "z/same.c", 1, 4000);   /* dropped: preferred */
	fx_add_text(up, "m/twin1.c", 5, 5000);
	fx_add_text(up, "b/twin2.c", 5, 5000);  /* same digest as m/twin1.c, first path */
	fx_add_text(tgt, "a/same.c", 1, 4000);
	fx_add_text(tgt, "q/same.c", 1, 4000);
	fx_add_text(tgt, "m/twin1.c", 5, 5000);
	fx_add_text(tgt, "b/twin2.c", 5, 5000);
	fx_edit(edited, 5000, 3, 250);
	fx_add(tgt, "new/twin.c", edited, 5000);
	r = compare(up, tgt);
	CHECK(td_origin_find(r, NULL, NULL, &err) == 0);
	c = fx_change(r, "q/same.c");
	CHECK_STR(c && c->origin ? c->origin->path : NULL, "z/same.c");
	c = fx_change(r, "new/twin.c");
	CHECK(c && c->origin_kind == TD_ORIGIN_COPIED);
	CHECK_STR(c && c->origin ? c->origin->path : NULL, "b/twin2.c");
	td_result_free(r);
	free(edited);
}

/* --find-copies: a modified file nearer another upstream file than its own. */
static void test_find_copies(void)
{
	td_tree_t *up = fx_tree("v1"), *tgt = fx_tree(NULL);
	td_origin_opts_t o;
	td_error_t err = { 0 };
	td_result_t *r;
	char *edited = fx_text(7, 5000);

	fx_add_text(up, "drv.c", 6, 5000);
	fx_add_text(up, "other.c", 7, 5000);
	fx_add_text(up, "dup.c", 8, 3000);
	fx_add_text(up, "plain.c", 9, 3000);
	fx_edit(edited, 5000, 11, 400);
	fx_add(tgt, "drv.c", edited, 5000);          /* really a copy of other.c */
	fx_add_text(tgt, "other.c", 7, 5000);
	fx_add_text(tgt, "dup.c", 9, 3000);          /* now plain.c's content */
	fx_add_text(tgt, "plain.c", 9, 3000);
	r = compare(up, tgt);
	td_origin_opts_init(&o);
	CHECK(td_origin_find(r, &o, NULL, &err) == 0);
	CHECK(fx_change(r, "drv.c")->origin_kind == TD_ORIGIN_SAME_PATH);
	o.find_copies = 1;
	CHECK(td_origin_find(r, &o, NULL, &err) == 0);
	CHECK(fx_change(r, "drv.c")->status == TD_STATUS_MODIFIED);
	CHECK(fx_change(r, "drv.c")->origin_kind == TD_ORIGIN_COPIED);
	CHECK_STR(fx_change(r, "drv.c")->origin->path, "other.c");
	CHECK(fx_change(r, "drv.c")->distance < 100);
	CHECK(fx_change(r, "dup.c")->origin_kind == TD_ORIGIN_COPIED);
	CHECK_STR(fx_change(r, "dup.c")->origin->path, "plain.c");
	CHECK_INT(fx_change(r, "dup.c")->distance, 0);
	td_result_free(r);
	free(edited);
}

/* The same answers with one thread and with several. */
static void test_threads(void)
{
	td_result_t *r[2];
	td_error_t err = { 0 };

	for (int pass = 0; pass < 2; pass++) {
		td_tree_t *up = fx_tree("v1"), *tgt = fx_tree(NULL);
		td_origin_opts_t o;
		char path[64];
		for (int i = 0; i < 60; i++) {
			snprintf(path, sizeof(path), "up/%03d.c", i);
			fx_add_text(up, path, 100 + (uint64_t)i, 2000);
		}
		for (int i = 0; i < 200; i++) {
			char *s = fx_text(100 + (uint64_t)(i % 60), 2000);
			fx_edit(s, 2000, (size_t)i, 97 + (size_t)i);
			snprintf(path, sizeof(path), "tgt/%03d.c", i);
			fx_add(tgt, path, s, 2000);
			free(s);
		}
		r[pass] = compare(up, tgt);
		td_origin_opts_init(&o);
		o.threads = pass ? 4 : 1;
		CHECK(td_origin_find(r[pass], &o, NULL, &err) == 0);
	}
	CHECK_INT(r[0]->count, r[1]->count);
	for (size_t i = 0; i < r[0]->count && i < r[1]->count; i++) {
		const td_change_t *a = &r[0]->changes[i], *b = &r[1]->changes[i];
		CHECK_INT(a->distance, b->distance);
		CHECK_INT(a->origin_kind, b->origin_kind);
		CHECK((!a->origin && !b->origin) || (a->origin && b->origin && !strcmp(a->origin->path, b->origin->path)));
	}
	CHECK(r[0]->totals.added_distance == r[1]->totals.added_distance);
	td_result_free(r[0]);
	td_result_free(r[1]);
}

static void random_digest(td_tlsh_t *h)
{
	uint64_t x = fx_rng();
	h->checksum = (uint8_t)x;
	h->lvalue = (uint8_t)(100 + (x >> 8) % 20);
	h->q1_ratio = (uint8_t)((x >> 16) & 15);
	h->q2_ratio = (uint8_t)((x >> 20) & 15);
	for (int i = 0; i < TD_TLSH_BODY_BYTES; i++)
		h->body[i] = (uint8_t)fx_rng();
}

/* The k nearest of d[0..n) to q within limit, skipping skip, by a scan of
 * them all (nearest first, ties to the lowest index); returns how many. */
static size_t brute_nearest_k(const td_tlsh_t *d, size_t n, const td_tlsh_t *q, int limit, size_t skip,
			      int len_diff, size_t k, size_t *found, int *dist)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++) {
		int di = td_tlsh_distance(q, &d[i], len_diff);
		size_t at = got;
		if (i == skip || di > limit)
			continue;
		while (at > 0 && di < dist[at - 1])
			at--;
		if (at >= k)
			continue;
		for (size_t j = got < k ? got : k - 1; j > at; j--) {
			found[j] = found[j - 1];
			dist[j] = dist[j - 1];
		}
		found[at] = i;
		dist[at] = di;
		got += got < k;
	}
	return got;
}

/* The index finds what a brute-force scan finds, ties to the lowest index:
 * over digests spread across many small cells, and over digests crowded
 * into a few cells larger than the index computes at a time. */
static void test_index_brute_force(void)
{
	enum { N = 2000, Q = 200 };
	td_tlsh_t *d = malloc(N * sizeof(*d));
	td_error_t err = { 0 };

	for (int crowded = 0; crowded < 2; crowded++) {
		for (int i = 0; i < N; i++) {
			random_digest(&d[i]);
			if (crowded) { /* 2 lvalues x 2 x 2 ratios: cells of about 250 */
				d[i].lvalue = (uint8_t)(100 + i % 2);
				d[i].q1_ratio = (uint8_t)(i / 2 % 2);
				d[i].q2_ratio = (uint8_t)(i / 4 % 2 ? 9 : 0);
			}
			if (i % 10 == 9)
				d[i] = d[i - 5];  /* duplicates: ties */
			if (i % 7 == 3) {      /* near neighbours */
				static const int shift[] = { 0, 1, 15, 2, 14, 3, 13 };
				d[i] = d[i / 2];
				d[i].body[i % 32] ^= 0x11;
				d[i].lvalue = (uint8_t)(d[i].lvalue + i % 3);
				/* in the cells beside, round the circle of ratios too */
				d[i].q1_ratio = (uint8_t)((d[i].q1_ratio + shift[i / 7 % 7]) & 15);
				d[i].q2_ratio = (uint8_t)((d[i].q2_ratio + shift[i / 49 % 7]) & 15);
			}
		}
		for (int len_diff = 0; len_diff < 2; len_diff++) {
			td_tlsh_index_t *ix = NULL;
			CHECK(td_tlsh_index_new(&ix, d, N, len_diff, &err) == 0);
			for (int k = 0; k < Q && ix; k++) {
				td_tlsh_t q = d[(k * 37) % N];
				int limit = k % 4 == 0 ? 400 : k % 4 == 1 ? 100 : k % 4 == 2 ? 30 : 40000;
				size_t skip = k % 2 ? (size_t)((k * 37) % N) : SIZE_MAX, found = 0;
				size_t want[4], got[4], kk = 1 + (size_t)k % 4, nw, ng;
				int wd[4], gd[4], best;
				uint64_t nd = 0;
				if (k % 5 == 0)
					q.body[k % 32] ^= 0x40;
				nw = brute_nearest_k(d, N, &q, limit, skip, len_diff, kk, want, wd);
				best = td_tlsh_index_nearest(ix, &q, limit, skip, &found, &nd);
				CHECK_INT(best, nw ? wd[0] : limit + 1);
				CHECK_INT(found, nw ? want[0] : SIZE_MAX);
				ng = td_tlsh_index_nearest_k(ix, &q, limit, skip, kk, got, gd, &nd);
				CHECK_INT(ng, nw);
				for (size_t j = 0; j < ng && j < nw; j++) {
					CHECK_INT(got[j], want[j]);
					CHECK_INT(gd[j], wd[j]);
				}
			}
			td_tlsh_index_free(ix);
		}
	}
	free(d);
}

/* The q2 cells within a bound are a range round the circle of quartile
 * ratios (16 of them, 12 a step past the first): digests equal to the query
 * but for their q2 ratio, one in each cell, are found exactly when their
 * ratio term is within the limit, across the wrap from 15 to 0 too. */
static void test_index_ratio_edges(void)
{
	enum { RATIOS = 16, K = TD_COPY_CANDIDATES_MAX };
	static const int query_q2[] = { 15, 0, 1, 7 };
	td_tlsh_t d[RATIOS];
	td_error_t err = { 0 };
	td_tlsh_index_t *ix = NULL;

	for (int i = 0; i < RATIOS; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].lvalue = 40;
		d[i].q1_ratio = 3;
		d[i].q2_ratio = (uint8_t)i;
		memset(d[i].body, 0x1b, sizeof(d[i].body));
	}
	CHECK(td_tlsh_index_new(&ix, d, RATIOS, 1, &err) == 0);
	for (size_t k = 0; k < sizeof(query_q2) / sizeof(query_q2[0]) && ix; k++) {
		td_tlsh_t q = d[0];
		q.q2_ratio = (uint8_t)query_q2[k];
		for (int limit = 0; limit <= 100; limit++) {
			size_t want[K], got[K], nw, ng;
			int wd[K], gd[K];
			nw = brute_nearest_k(d, RATIOS, &q, limit, SIZE_MAX, 1, K, want, wd);
			ng = td_tlsh_index_nearest_k(ix, &q, limit, SIZE_MAX, K, got, gd, NULL);
			CHECK_INT(ng, nw);
			for (size_t j = 0; j < ng && j < nw; j++) {
				CHECK_INT(got[j], want[j]);
				CHECK_INT(gd[j], wd[j]);
			}
		}
	}
	td_tlsh_index_free(ix);
}

static void test_label_cmp(void)
{
	CHECK(td_version_label_cmp("v6.1.9", "v6.1.10") < 0);
	CHECK(td_version_label_cmp("v6.1.192-3", "v6.1.190-1") > 0);
	CHECK(td_version_label_cmp("v6.1", "v6.1.1") < 0);
	CHECK(td_version_label_cmp("v6.01", "v6.1") == 0);
	CHECK(td_version_label_cmp("abc", "abd") < 0);
	CHECK(td_version_label_cmp("", "") == 0);
	CHECK(td_version_label_cmp("v6.12.118", "v6.2") > 0);
}

/* A file equal to another version's file at its path: matches that
 * version, the nearest to the base, and scores nothing. */
static void test_versions(void)
{
	char db[4200];
	const char *labels[] = { "v1.10", "v1.2", "v1.9", "v1.11" }; /* scanned out of order */
	td_db_t *h = NULL;
	td_error_t err = { 0 };
	td_result_t *r;
	td_tree_t *up = NULL, *tgt = fx_tree(NULL);
	size_t marked = 0;

	fx_tmpdir();
	snprintf(db, sizeof(db), "%s/multi.db", fx_dir);
	for (int v = 0; v < 4; v++) {
		td_tree_t *t = fx_tree(labels[v]);
		fx_add_text(t, "common.c", 1, 3000);
		/* back.c: one content in v1.2 and v1.9, another in v1.10 and v1.11 */
		fx_add_text(t, "back.c", v == 1 || v == 2 ? 20 : 21, 3000);
		/* late.c only in v1.11 */
		if (v == 3)
			fx_add_text(t, "late.c", 30, 3000);
		/* mid.c and rolled.c differ in every version */
		fx_add_text(t, "mid.c", 40 + (uint64_t)v, 3000);
		fx_add_text(t, "rolled.c", 60 + (uint64_t)v, 3000);
		fx_db_add(db, t);
		td_tree_free(t);
	}
	CHECK(td_db_open(&h, db, &err) == 0);
	CHECK(td_db_load(&up, h, "v1.9", &err) == 0);
	fx_add_text(tgt, "common.c", 1, 3000);
	fx_add_text(tgt, "back.c", 21, 3000);  /* as v1.10 and v1.11: nearest v1.10 */
	fx_add_text(tgt, "late.c", 30, 3000);  /* added; as v1.11 */
	fx_add_text(tgt, "mid.c", 40, 3000);   /* as v1.10 */
	fx_add_text(tgt, "own.c", 50, 3000);   /* nowhere */
	fx_add_text(tgt, "rolled.c", 61, 3000); /* as v1.2, older than the base */
	r = compare(up, tgt);
	int back_distance = fx_change(r, "back.c")->distance;
	td_class_t back_class = fx_change(r, "back.c")->cls;
	uint64_t total = r->totals.total_distance;
	CHECK(td_origin_versions(r, h, &marked, &err) == 0);
	CHECK_INT(marked, 4);
	CHECK_STR(fx_change(r, "back.c")->matches_version, "v1.10");
	CHECK_STR(fx_change(r, "late.c")->matches_version, "v1.11");
	CHECK_STR(fx_change(r, "mid.c")->matches_version, "v1.10");
	CHECK_STR(fx_change(r, "rolled.c")->matches_version, "v1.2");
	CHECK(!fx_change(r, "own.c")->matches_version);
	CHECK_INT(fx_change(r, "back.c")->version_match, TD_VERSION_MATCH_BACKPORT);
	CHECK_INT(fx_change(r, "late.c")->version_match, TD_VERSION_MATCH_BACKPORT);
	CHECK_INT(fx_change(r, "rolled.c")->version_match, TD_VERSION_MATCH_ROLLBACK);
	CHECK_INT(fx_change(r, "own.c")->version_match, TD_VERSION_MATCH_NONE);
	CHECK_INT(fx_change(r, "late.c")->status, TD_STATUS_ADDED);
	/* A version match is still drift from the base: score and class stay. */
	CHECK(back_distance > 0);
	CHECK_INT(fx_change(r, "back.c")->distance, back_distance);
	CHECK_INT(fx_change(r, "back.c")->cls, back_class);
	CHECK(fx_change(r, "rolled.c")->distance > 0);
	CHECK_INT(r->totals.modified, 3);
	CHECK_INT(r->totals.added, 2);
	CHECK_INT(r->totals.total_distance, total);
	{
		td_origin_counts_t n;
		td_origin_count(&n, r);
		CHECK_INT(n.matches_version, 4);
		CHECK_INT(n.backport, 3);
		CHECK_INT(n.rollback, 1);
		CHECK_INT(n.rollback_distance, (uint64_t)fx_change(r, "rolled.c")->distance);
	}
	/* td_origin_find leaves them alone. */
	CHECK(td_origin_find(r, NULL, NULL, &err) == 0);
	CHECK(!fx_change(r, "late.c")->origin);
	td_result_free(r);
	td_db_free(h);
	fx_cleanup(db);
}

/* A database of nv versions, all holding the files of v0, made fast with
 * SQL from a one-version database. */
static void many_versions_db(const char *db, size_t nv)
{
	td_tree_t *t = fx_tree("v0");
	sqlite3 *h = NULL;
	char sql[1024];

	fx_add_text(t, "a.c", 1, 3000);
	fx_add_text(t, "b.c", 2, 3000);
	fx_add_text(t, "c.c", 3, 3000);
	fx_db_add(db, t);
	td_tree_free(t);
	snprintf(sql, sizeof(sql),
		 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %zu)"
		 " INSERT INTO version (label, root, source_kind, scanned_at, tool_version, file_count,"
		 " total_bytes) SELECT 'v' || i, root, source_kind, scanned_at, tool_version, file_count,"
		 " total_bytes FROM n, version WHERE version.label = 'v0';"
		 "INSERT INTO entry SELECT v.id, e.path_id, e.type, e.mode, e.size, e.mtime_ns, e.ino, e.dev,"
		 " e.content_id, e.link_target, e.gitoid, e.skip_reason, e.skip_detail"
		 " FROM entry e, version v WHERE e.version_id = 1 AND v.id > 1;", nv - 1);
	CHECK_INT(sqlite3_open(db, &h), SQLITE_OK);
	CHECK_INT(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

static double cpu_seconds(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* Many versions. Ranking them by label was quadratic in their number (and
 * ran even without origins): 30,000 versions took minutes of CPU, now a
 * sort. Base detection, where every version ties and so each is scored,
 * looks up whether a version holds a file by binary search. */
static void test_many_versions(void)
{
	char db[4200];
	td_db_t *h = NULL;
	td_error_t err = { 0 };
	td_tree_t *up = NULL, *tgt = fx_tree(NULL);
	td_result_t *r = NULL;
	td_base_result_t *b = NULL;
	size_t marked = 1;
	double t0;

	fx_tmpdir();
	snprintf(db, sizeof(db), "%s/many.db", fx_dir);
	many_versions_db(db, 30000);
	CHECK(td_db_open(&h, db, &err) == 0);
	CHECK(td_db_load(&up, h, "v0", &err) == 0);
	fx_add_text(tgt, "a.c", 1, 3000);
	fx_add_text(tgt, "b.c", 2, 3000);
	fx_add_text(tgt, "c.c", 4, 3000);
	if (up) {
		r = compare(up, tgt); /* takes both trees */
		t0 = cpu_seconds();
		CHECK(td_origin_versions(r, h, &marked, &err) == 0);
		CHECK(cpu_seconds() - t0 < 5.0);
		CHECK_INT(marked, 0);
	} else {
		td_tree_free(tgt);
	}
	td_result_free(r);
	td_db_free(h);
	fx_cleanup(db);

	fx_tmpdir();
	snprintf(db, sizeof(db), "%s/tied.db", fx_dir);
	many_versions_db(db, 1500);
	tgt = fx_tree(NULL); /* the first went to the comparison */
	fx_add_text(tgt, "a.c", 1, 3000);
	fx_add_text(tgt, "b.c", 2, 3000);
	fx_add_text(tgt, "c.c", 4, 3000);
	CHECK(td_tree_sort(tgt) == 0);
	CHECK(td_db_open(&h, db, &err) == 0);
	CHECK(td_base_rank(&b, h, tgt, NULL, &err) == 0);
	if (b) {
		CHECK_INT(b->count, 1500);
		CHECK_STR(b->candidates[0].label, "v1499");
		CHECK_INT(b->candidates[0].identical, 2);
		CHECK_INT(b->candidates[1499].scored, 1);
		CHECK_INT(b->ambiguous, 1);
	}
	td_base_result_free(b);
	td_db_free(h);
	td_tree_free(tgt);
	fx_cleanup(db);
}

int main(void)
{
	test_moved_and_copied();
	test_threshold();
	test_ties();
	test_find_copies();
	test_threads();
	test_index_brute_force();
	test_index_ratio_edges();
	test_label_cmp();
	test_versions();
	test_many_versions();
	return check_finish();
}
