/* treedrift base: which version of a database a tree is based on. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_opts.h"
#include "cli.h"
#include "treedrift/analysis.h"
#include "treedrift/json.h"

static const cli_opt_t base_opts[] = {
	{ "top", 'n', "N", "print the best N versions (default 3; 0: all)" },
	{ "format", 'f', "FMT", "text (default) or json" },
	{ "target-label", 0, "LABEL", "version of a target database (default: newest)" },
	{ "no-length", 0, NULL, "leave the file-length term out of TLSH distances" },
	CLI_ORIGIN_OPTS,
	CLI_TREE_OPTS,
	CLI_OPT_END
};

static size_t shown(const td_base_result_t *r, size_t top)
{
	return top && top < r->count ? top : r->count;
}

static void print_text(const td_base_result_t *r, size_t top)
{
	const td_base_candidate_t *c = r->candidates;
	int w = (int)strlen("VERSION");
	char *best, *next;

	for (size_t i = 0; i < shown(r, top); i++)
		if ((int)cli_escaped_len(c[i].label) > w)
			w = (int)cli_escaped_len(c[i].label);
	printf("target files: %" PRIu64 ", versions: %zu\n", r->target_files, r->count);
	printf("%4s  %-*s %9s %9s %7s %7s %10s\n", "RANK", w, "VERSION", "IDENTICAL", "MODIFIED", "ADDED",
	       "REMOVED", "DISTANCE");
	for (size_t i = 0; i < shown(r, top); i++) {
		printf("%4zu  ", i + 1);
		cli_fput_cell(stdout, c[i].label, w); /* labels come from the database */
		printf(" %9" PRIu64, c[i].identical);
		if (c[i].scored)
			printf(" %9" PRIu64 " %7" PRIu64 " %7" PRIu64 " %10" PRIu64 "\n", c[i].modified,
			       c[i].added, c[i].removed, c[i].distance);
		else
			printf(" %9s %7s %7s %10s\n", "-", "-", "-", "-");
	}
	best = cli_escaped(c[0].label);
	next = r->count < 2 ? NULL : cli_escaped(c[1].label);
	if (!best || (r->count >= 2 && !next)) {
		cli_error("out of memory");
	} else if (r->count < 2) {
		printf("base: %s (the only version)\n", best);
	} else {
		printf("%s: %s", r->ambiguous ? "ambiguous" : "base", best);
		if (r->ambiguous)
			printf(" or %s", next);
		printf("; margin over %s: %" PRId64 " identical file%s (%" PRIu64 " identical only in %s, %" PRIu64
		       " only in %s), distance %" PRId64 "\n", next,
		       (int64_t)(c[0].identical - c[1].identical), c[0].identical - c[1].identical == 1 ? "" : "s",
		       r->only_best, best, r->only_next, next, (int64_t)(c[1].distance - c[0].distance));
	}
	free(best);
	free(next);
}

static void print_json(const td_base_result_t *r, size_t top)
{
	const td_base_candidate_t *c = r->candidates;

	printf("{\"schema\": 1, \"target_files\": %" PRIu64 ", \"base\": ", r->target_files);
	td_json_string(stdout, c[0].label, strlen(c[0].label));
	printf(", \"ambiguous\": %s, \"only_best\": %" PRIu64 ", \"only_next\": %" PRIu64 ", \"versions\": [",
	       r->ambiguous ? "true" : "false", r->only_best, r->only_next);
	for (size_t i = 0; i < shown(r, top); i++) {
		printf("%s\n  {\"rank\": %zu, \"label\": ", i ? "," : "", i + 1);
		td_json_string(stdout, c[i].label, strlen(c[i].label));
		printf(", \"identical\": %" PRIu64, c[i].identical);
		if (c[i].scored)
			printf(", \"modified\": %" PRIu64 ", \"added\": %" PRIu64 ", \"removed\": %" PRIu64
			       ", \"distance\": %" PRIu64 "}", c[i].modified, c[i].added, c[i].removed,
			       c[i].distance);
		else
			printf(", \"modified\": null, \"added\": null, \"removed\": null, \"distance\": null}");
	}
	printf("\n]}\n");
}

int cmd_base(int argc, char **argv)
{
	cli_parser_t p;
	td_analysis_opts_t ao;
	td_base_opts_t bo;
	td_error_t err = { 0 };
	td_analyzer_t *an = NULL;
	td_tree_t *target = NULL;
	td_base_result_t *r = NULL;
	cli_progress_t prog;
	unsigned long long top = 3;
	int json = 0, quiet = 0, rc = CLI_EXIT_ERROR, opt;

	td_analysis_opts_init(&ao);
	cli_load_opts_init(&ao.load);
	td_base_opts_init(&bo);
	if (cli_parser_init(&p, base_opts, "treedrift base [options] DB TARGET",
			    "Rank the versions of database DB by how well they explain TARGET: identical "
			    "files first, then the total distance of the rest, as compare scores it. Exit "
			    "status: 0 a clear answer, 1 ambiguous, 2 error.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = base_opts[opt].name;
		int t = cli_tree_opt(name, p.arg, &ao.load, &quiet);
		if (!t)
			t = cli_analysis_opt(&ao, name, p.arg);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "top")) {
			if (cli_parse_uint(p.arg, 1000000, &top)) {
				cli_error("--top takes a number, not '%s'", p.arg);
				goto out;
			}
		} else if (!strcmp(name, "format")) {
			if (strcmp(p.arg, "text") && strcmp(p.arg, "json")) {
				cli_error("base prints text or json, not '%s'", p.arg);
				goto out;
			}
			json = !strcmp(p.arg, "json");
		} else if (!strcmp(name, "target-label")) {
			ao.load.target_label = p.arg;
		} else if (!strcmp(name, "no-length")) {
			ao.compare.len_diff = 0;
		}
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 2) {
		cli_error("base takes a database and a target tree");
		goto out;
	}
	bo.score_top = (size_t)top;
	ao.upstream = p.argv[0];
	ao.target = p.argv[1];
	cli_progress_init(&prog, "reading", quiet);
	ao.load.scan.progress = cli_progress_cb;
	ao.load.scan.progress_ctx = &prog;
	rc = td_analyzer_new(&an, &ao, &err);
	if (!rc)
		rc = td_analyzer_rank_base(&r, &target, an, NULL, &bo, &err);
	cli_progress_done(&prog);
	if (rc) {
		rc = cli_lib_error(&err);
		goto out;
	}
	cli_warn_skipped(target, "target", quiet);
	if (json)
		print_json(r, (size_t)top);
	else
		print_text(r, (size_t)top);
	if (fflush(stdout)) {
		rc = cli_error("unable to write the output");
		goto out;
	}
	rc = r->ambiguous ? CLI_EXIT_DRIFT : CLI_EXIT_SAME;
out:
	td_base_result_free(r);
	td_tree_free(target);
	td_analyzer_free(an);
	cli_parser_release(&p);
	return rc;
}
