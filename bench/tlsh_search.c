/* Time the copy candidate search alone, on real digests.
 *
 *   tlsh_search UPSTREAM.db TARGET.db [K [LIMIT [ROUNDS]]]
 *
 * Indexes every TLSH digest of UPSTREAM.db's files (td_tlsh_index_new,
 * with the length term), then asks it, ROUNDS times (default 5), for the K
 * nearest (default 4) within LIMIT (default 200) of each digest of
 * TARGET.db whose content UPSTREAM.db does not hold: what `compare` asks
 * for each added file (its name candidates aside). Prints the digests,
 * the distances computed, the fastest round's thread CPU time and a hash
 * of the answers, which must not change with the loop or the build.
 *
 * The body distances use the loop TD_TLSH_LOOP names, as in treedrift. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sqlite3.h>

#include "treedrift/origin.h"
#include "treedrift/tlsh.h"
#include "store_impl.h"
#include "tlsh_impl.h"

typedef struct digests {
	td_tlsh_t *h;
	size_t n, cap;
} digests_t;

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int add(digests_t *d, const unsigned char *b)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4096;
		td_tlsh_t *h = realloc(d->h, cap * sizeof(*h));
		if (!h)
			return -1;
		d->h = h;
		d->cap = cap;
	}
	td_db_tlsh_unpack(&d->h[d->n++], b);
	return 0;
}

/* The digests sql selects (one packed TLSH a row, store_impl.h) from db. */
static int load(digests_t *d, sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "tlsh_search: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (sqlite3_column_bytes(st, 0) == TD_DB_TLSH_BYTES && add(d, sqlite3_column_blob(st, 0))) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "tlsh_search: %s\n", rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	digests_t up = { 0 }, q = { 0 };
	sqlite3 *db = NULL;
	td_tlsh_index_t *ix = NULL;
	td_error_t err = { 0 };
	size_t k = argc > 3 ? strtoul(argv[3], NULL, 10) : 4;
	int limit = argc > 4 ? atoi(argv[4]) : 200, rounds = argc > 5 ? atoi(argv[5]) : 5, rc = 1;
	double best = 0;
	uint64_t distances = 0, answer = 0;
	char *attach = NULL;

	if (argc < 3 || k < 1 || k > TD_COPY_CANDIDATES_MAX || rounds < 1) {
		fprintf(stderr, "usage: tlsh_search UPSTREAM.db TARGET.db [K (1..%d) [LIMIT [ROUNDS]]]\n",
			TD_COPY_CANDIDATES_MAX);
		return 2;
	}
	if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    !(attach = sqlite3_mprintf("ATTACH %Q AS up", argv[1])) ||
	    sqlite3_exec(db, attach, NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "tlsh_search: %s\n", db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	if (load(&up, db,
		 "SELECT c.tlsh FROM up.entry e JOIN up.content c ON c.id = e.content_id"
		 " WHERE c.tlsh IS NOT NULL ORDER BY e.version_id, e.path_id") ||
	    load(&q, db,
		 "SELECT tlsh FROM main.content WHERE tlsh IS NOT NULL"
		 " AND sha256 NOT IN (SELECT sha256 FROM up.content) ORDER BY id"))
		goto out;
	if (td_tlsh_index_new(&ix, up.h, up.n, 1, &err)) {
		fprintf(stderr, "tlsh_search: %s\n", err.msg);
		goto out;
	}
	for (int r = 0; r < rounds; r++) {
		double t0 = cpu_seconds(), t;
		uint64_t n = 0, h = 0;
		for (size_t i = 0; i < q.n; i++) {
			size_t found[TD_COPY_CANDIDATES_MAX];
			int dist[TD_COPY_CANDIDATES_MAX];
			size_t got = td_tlsh_index_nearest_k(ix, &q.h[i], limit, SIZE_MAX, k, found, dist, &n);
			for (size_t j = 0; j < got; j++)
				h = (h ^ (found[j] << 10 ^ (uint64_t)dist[j])) * 0x100000001b3ull;
		}
		t = cpu_seconds() - t0;
		if (!r || t < best)
			best = t;
		distances = n;
		answer = h;
	}
	printf("loop %s: %zu upstream digests, %zu queries, k %zu within %d\n",
	       td_tlsh_impl_name(td_tlsh_impl_default()), up.n, q.n, k, limit);
	printf("%llu distances a round; fastest of %d rounds %.3f s, %.2f ns a distance; answers %016llx\n",
	       (unsigned long long)distances, rounds, best, distances ? best * 1e9 / (double)distances : 0.0,
	       (unsigned long long)answer);
	rc = 0;
out:
	td_tlsh_index_free(ix);
	sqlite3_free(attach);
	sqlite3_close(db);
	free(up.h);
	free(q.h);
	return rc;
}
