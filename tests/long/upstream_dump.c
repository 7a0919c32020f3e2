/* upstream_dump UPSTREAM TARGET PATCHES HISTORY BASE: compare two trees, run
 * the patch stage on PATCHES, load HISTORY (git:REPO@TIP) from BASE and
 * match them (treedrift/upstream.h); print, for tests/long/upstream.sh to
 * check against git:
 *
 *   P <patch id> <kind> <upstream commit or -> <share> <claim> <claimed commit or ->
 *   X <commit> <status> <why> <patch or -> <fix 0/1>
 *
 * The times of the history load and of the matching go to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treedrift/compare.h"
#include "treedrift/history.h"
#include "treedrift/load.h"
#include "treedrift/patch.h"
#include "treedrift/upstream.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	td_load_opts_t lo;
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_patch_opts_t po;
	td_patch_set_t *s = NULL;
	td_history_t *h = NULL;
	td_history_opts_t ho;
	td_upstream_opts_t uo;
	td_upstream_t *up = NULL;
	td_error_t err;
	char **paths = NULL;
	size_t n = 0;
	double t0, t1, t2;
	clock_t c0, c1, c2;

	if (argc != 6) {
		fprintf(stderr, "usage: upstream_dump UPSTREAM TARGET PATCHES HISTORY BASE\n");
		return 2;
	}
	td_load_opts_init(&lo);
	td_patch_opts_init(&po);
	po.base_spec = argv[1];
	po.target_spec = argv[2];
	if (td_load_pair(&u, &t, argv[1], argv[2], &lo, NULL, &err) || td_compare(&r, u, t, NULL, &err) ||
	    td_patch_analyze(&s, argv[3], r, &po, &err)) {
		fprintf(stderr, "upstream_dump: %s\n", err.msg);
		return 2;
	}
	/* the lines of the changed files and of the patches' files */
	paths = calloc(r->count + 1, sizeof(*paths));
	for (size_t i = 0; paths && i < r->count; i++)
		if (r->changes[i].status != TD_STATUS_IDENTICAL)
			paths[n++] = (r->changes[i].target ? r->changes[i].target : r->changes[i].upstream)->path;
	qsort(paths, n, sizeof(*paths), path_cmp);
	t0 = now();
	c0 = clock();
	td_history_opts_init(&ho);
	ho.paths = (const char *const *)paths;
	ho.npaths = n;
	if (td_history_load(&h, argv[4], argv[5], &ho, &err)) {
		fprintf(stderr, "upstream_dump: %s\n", err.msg);
		return 2;
	}
	t1 = now();
	c1 = clock();
	td_upstream_opts_init(&uo);
	uo.target_spec = argv[2];
	if (td_upstream_analyze(&up, h, r, s, &uo, &err)) {
		fprintf(stderr, "upstream_dump: %s\n", err.msg);
		return 2;
	}
	t2 = now();
	c2 = clock();
	fprintf(stderr, "upstream_dump: history %.2f s (CPU %.2f s, %zu commits), matching %.2f s (CPU %.2f s)\n",
		t1 - t0, (double)(c1 - c0) / CLOCKS_PER_SEC, h->count, t2 - t1, (double)(c2 - c1) / CLOCKS_PER_SEC);
	for (size_t i = 0; i < up->npatches; i++) {
		const td_patch_upstream_t *p = &up->patches[i];
		printf("P %s %s %s %.3f %s %s\n", s->patches[i].id,
		       p->kind == TD_UPSTREAM_CHERRY_PICK ? "cherry-pick" : p->kind == TD_UPSTREAM_BACKPORT ? "backport" : "local",
		       p->commit[0] ? p->commit : "-", p->share,
		       p->claim == TD_CLAIM_NOT_FOUND ? "not-found" : td_claim_name(p->claim),
		       p->claim_commit[0] ? p->claim_commit : "-");
	}
	for (size_t i = 0; i < up->nfixes; i++) {
		const td_upstream_fix_t *f = &up->fixes[i];
		printf("X %s %s %s %s %d\n", f->id, f->status == TD_FIX_NOT_APPLICABLE ? "n/a" : td_fix_status_name(f->status),
		       f->why[0] == 'f' ? "removed" : f->why[0] == 'n' ? "unbuilt" : f->why, f->patch ? f->patch : "-", f->fix);
	}
	td_upstream_free(up);
	td_history_free(h);
	td_patch_set_free(s);
	td_result_free(r);
	free(paths);
	return 0;
}
