/* embed: a program that links libtreedrift and runs the analysis that
 * `treedrift compare` runs, through the public API only.
 *
 *   cc embed.c $(pkg-config --cflags --libs treedrift) -o embed
 *   ./embed UPSTREAM TARGET
 *
 * UPSTREAM and TARGET are tree specs: a treedrift database, a directory,
 * git:REPO@REV or an archive. It prints the total distance, then the
 * riskiest dirty core files. Exit status: 0 no drift, 1 drift, 2 error. */
#include <inttypes.h>
#include <stdio.h>

#include <treedrift/treedrift.h>

int main(int argc, char **argv)
{
	td_analysis_opts_t opts;
	td_analysis_t *a = NULL;
	td_error_t err = { 0 };

	if (argc != 3) {
		fprintf(stderr, "usage: embed UPSTREAM TARGET\n");
		return 2;
	}
	td_analysis_opts_init(&opts);
	opts.upstream = argv[1];
	opts.target = argv[2];
	if (td_analyze(&a, &opts, &err)) {
		fprintf(stderr, "embed: %s\n", err.msg);
		return 2;
	}
	printf("total distance %" PRIu64 "\n", a->result->totals.total_distance);
	printf("files: %" PRIu64 " modified, %" PRIu64 " added, %" PRIu64 " removed\n",
	       a->result->totals.modified, a->result->totals.added, a->result->totals.removed);
	for (size_t i = 0; i < a->dirty_core_count; i++) {
		const td_change_t *c = &a->result->changes[a->dirty_core[i]];
		const td_file_t *f = c->target ? c->target : c->upstream;
		/* a path is input: print it quoted and escaped, never raw */
		printf("dirty core: risk %.1f ", c->risk);
		td_json_string(stdout, f->path, f->path_len);
		putchar('\n');
	}
	int status = a->result->totals.mismatched ? 1 : 0;
	td_analysis_free(a);
	return status;
}
