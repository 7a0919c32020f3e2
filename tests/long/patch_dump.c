/* patch_dump UPSTREAM TARGET SOURCE [BASE]: compare two trees, run the
 * patch stage on SOURCE (BASE: where a series applies; UPSTREAM by
 * default) and print, for tests/long/patches_*.sh to check against git:
 *
 *   P <id> <status> <origin commit or -> <added> <removed> <surviving> <distance>
 *   F <path>                     each file of the patch above
 *   R <path> <reproduced> <id>...  each changed file and its patches
 *   U <count>                    changed files no patch explains
 *
 * The time of the patch stage alone goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/patch.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	td_load_opts_t lo;
	td_tree_t *u = NULL, *t = NULL;
	td_result_t *r = NULL;
	td_patch_opts_t po;
	td_patch_set_t *s = NULL;
	td_error_t err;
	double t0, t1, t2;
	clock_t c1, c2;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: patch_dump UPSTREAM TARGET SOURCE [BASE]\n");
		return 2;
	}
	t0 = now();
	td_load_opts_init(&lo);
	if (td_load_pair(&u, &t, argv[1], argv[2], &lo, NULL, &err) || td_compare(&r, u, t, NULL, &err)) {
		fprintf(stderr, "patch_dump: %s\n", err.msg);
		return 2;
	}
	t1 = now();
	c1 = clock();
	td_patch_opts_init(&po);
	po.base_spec = argc == 5 ? argv[4] : argv[1];
	po.target_spec = argv[2];
	if (td_patch_analyze(&s, argv[3], r, &po, &err)) {
		fprintf(stderr, "patch_dump: %s\n", err.msg);
		td_result_free(r);
		return 2;
	}
	t2 = now();
	c2 = clock();
	fprintf(stderr, "patch_dump: compare %.2f s, patches %.2f s (CPU %.2f s; %zu patches, %zu changed files)\n",
		t1 - t0, t2 - t1, (double)(c2 - c1) / CLOCKS_PER_SEC, s->count, s->nfiles);
	for (size_t i = 0; i < s->count; i++) {
		const td_patch_t *p = &s->patches[i];
		printf("P %s %s %s %llu %llu %llu %d\n", p->id, td_patch_status_name(p->origin.status),
		       p->origin.commit ? p->origin.commit : "-", (unsigned long long)p->lines_added,
		       (unsigned long long)p->lines_removed, (unsigned long long)p->lines_surviving, p->distance);
		for (size_t k = 0; k < p->nfiles; k++)
			printf("F %s\n", p->files[k].path);
		for (size_t k = 0; k < p->nfiles; k++)
			if (p->files[k].copied_from)
				printf("C %s %d %s\t%s\n", p->id, p->files[k].distance, p->files[k].copied_from,
				       p->files[k].path);
		printf("I %s %s\n", p->id, p->patch_id ? p->patch_id : "-");
	}
	for (size_t i = 0; i < s->nfiles; i++) {
		const td_change_t *c = &r->changes[s->files[i].change];
		const td_file_t *f = c->target ? c->target : c->upstream;
		printf("R %.*s %d", (int)f->path_len, f->path, s->files[i].reproduced);
		for (size_t k = 0; k < s->files[i].npatches; k++)
			printf(" %s", s->patches[s->files[i].patches[k]].id);
		printf("\n");
	}
	printf("U %zu\n", s->unexplained);
	td_patch_set_free(s);
	td_result_free(r);
	return 0;
}
