/* treedrift compare: how far TARGET drifted from UPSTREAM. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_opts.h"
#include "cli.h"
#include "output.h"
#include "treedrift/analysis.h"
#include "treedrift/report.h"

/* The --format names after text, as td_format_parse knows them. */
#define OTHER_FORMATS "json, csv, html, markdown, cyclonedx"

static const cli_opt_t compare_opts[] = {
	{ "format", 'f', "FMT", "text (default), " OTHER_FORMATS },
	{ "output", 'o', "FILE", "write the report to FILE instead of stdout" },
	{ "base", 'b', "LABEL", "upstream database version to compare against (default: newest; auto: the "
				"version treedrift base ranks first)" },
	{ "target-label", 0, "LABEL", "version of a target database (default: newest)" },
	{ "clean-below", 0, "N", "distances under N are clean (default 60)" },
	{ "dirty-above", 0, "N", "distances over N are dirty (default 150)" },
	{ "no-length", 0, NULL, "leave the file-length term out of TLSH distances" },
	{ "added-distance", 0, "N", "score of a wholly new file (default 300)" },
	{ "no-lines", 0, NULL, "leave out the line counts of modified files (saves reading both sides again)" },
	CLI_ORIGIN_OPTS,
	{ "include", 'I', "GLOB", "compare only paths matching GLOB (repeatable)" },
	{ "exclude", 'X', "GLOB", "leave out paths matching GLOB (repeatable)" },
	{ "only", 0, "CLASS", "list only files of CLASS: clean, safe, dirty, new (repeatable)" },
	{ "sort", 's', "KEY", "order of the list: path (default), distance, risk" },
	{ "identical", 0, NULL, "list identical files too" },
	{ "fail-on", 0, "GATE", "exit 1 only if a modified file is of the class GATE or worse (clean, safe, dirty); "
				 "with new, if a file is new; with --history, fix: if an upstream fix is missing or "
				 "partial, cve: one naming a CVE; with --rebase-onto, conflict: if a patch conflicts "
				 "there (repeatable)" },
	{ "color", 0, "WHEN", "colour the text report: auto (default), always, never" },
	{ "stats", 0, NULL, "print the files listed, read and reused, the bytes read, what the search for "
			    "origins did and how long each stage took, on stderr" },
	{ "csv-raw", 0, NULL, "csv: write cells as they are, without a quote before a leading =, +, -, @, tab or CR" },
	{ "patches", 0, "SOURCE", "per-patch drift: git:REPO@BASE..TIP, a quilt series, a folder of patches "
				  "or an mbox (applied to UPSTREAM)" },
	{ "rebase-onto", 0, "TREE", "with --patches: apply each patch in turn to TREE, a newer upstream (a "
				    "directory, git:REPO@REV or an archive), and say which apply, which TREE has "
				    "already and which conflict" },
	CLI_KERNEL_OPTS,
	CLI_HISTORY_OPTS,
	CLI_TREE_OPTS,
	CLI_OPT_END
};

typedef struct globs {
	const char **v;
	size_t n, cap;
} globs_t;

static int globs_add(globs_t *g, const char *s)
{
	if (g->n + 2 > g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 8;
		const char **v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return -1;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n++] = s;
	g->v[g->n] = NULL;
	return 0;
}

/* --fail-on's gates beyond the classes (a bit per class below them). */
#define FAIL_ON_FIX (1u << TD_CLASS_COUNT)
#define FAIL_ON_CVE (1u << (TD_CLASS_COUNT + 1))
#define FAIL_ON_CONFLICT (1u << (TD_CLASS_COUNT + 2))

/* Exit status: 1 when there is drift, else 0. With --fail-on (fail_on: a
 * bit per gate given), 1 only when one of them trips: a file of a class
 * given, or of a worse grade for clean and safe (dirty gates changes to
 * upstream files, new gates added files); with --history, a missing or
 * partial upstream fix, or one naming a CVE; with --rebase-onto, a patch
 * in conflict there. */
static int drift_status(const td_analysis_t *a, unsigned fail_on)
{
	const td_result_t *r = a->result;
	const td_upstream_t *u = a->upstream;
	int graded = 0;

	if (!fail_on)
		return r->totals.mismatched ? CLI_EXIT_DRIFT : CLI_EXIT_SAME;
	if (u && (((fail_on & FAIL_ON_FIX) && td_fix_lacking(u->fix_count)) ||
		  ((fail_on & FAIL_ON_CVE) && td_fix_lacking(u->cve_count))))
		return CLI_EXIT_DRIFT;
	if ((fail_on & FAIL_ON_CONFLICT) && a->patches && a->patches->rebase_count[TD_REBASE_CONFLICT])
		return CLI_EXIT_DRIFT;
	for (int c = TD_CLASS_CLEAN; c <= TD_CLASS_DIRTY; c++) {
		graded |= (fail_on >> c) & 1;
		if (graded && r->totals.by_class[c].files)
			return CLI_EXIT_DRIFT;
	}
	if ((fail_on >> TD_CLASS_NEW) & 1 && r->totals.by_class[TD_CLASS_NEW].files)
		return CLI_EXIT_DRIFT;
	return CLI_EXIT_SAME;
}

static int want_color(const char *when, int to_file)
{
	const char *no = getenv("NO_COLOR");
	if (!strcmp(when, "always"))
		return 1;
	if (!strcmp(when, "never") || to_file)
		return 0;
	return isatty(STDOUT_FILENO) && !(no && *no);
}

/* --stats: the wall time of each stage that ran, then of the report. */
static void print_times(const td_stage_times_t *t, double report)
{
	const struct {
		const char *name;
		double s;
	} stage[] = { { "load", t->load }, { "compare", t->compare }, { "origins", t->origins },
		      { "annotate", t->annotate }, { "lines", t->lines }, { "provenance", t->provenance },
		      { "summary", t->summary }, { "patches", t->patches }, { "upstream", t->upstream },
		      { "report", report } };
	size_t shown = 0;

	fputs("treedrift: time:", stderr);
	for (size_t i = 0; i < sizeof(stage) / sizeof(*stage); i++)
		if (stage[i].s > 0)
			fprintf(stderr, "%s %s %.2f s", shown++ ? "," : "", stage[i].name, stage[i].s);
	fputc('\n', stderr);
}

/* Write the report to out (cli/output.h: next to FILE and renamed into
 * place, so a reader never sees half a report). */
static int write_report(cli_output_t *out, const td_analysis_t *a, int fmt, const td_view_t *v)
{
	td_error_t err = { 0 };

	if (td_report_write(out->f, a, (td_format_t)fmt, v, &err)) {
		cli_output_abort(out);
		return cli_error("unable to write '%s'%s%s", out->path ? out->path : "the report",
				 err.msg[0] ? ": " : "", err.msg);
	}
	return cli_output_commit(out);
}

int cmd_compare(int argc, char **argv)
{
	cli_parser_t p;
	td_analysis_opts_t ao;
	td_view_t view;
	td_error_t err = { 0 };
	globs_t inc = { 0 }, exc = { 0 };
	const char *output = NULL, *color = "auto";
	int fmt = TD_FORMAT_TEXT, quiet = 0, show_stats = 0, rc = CLI_EXIT_ERROR, opt;
	unsigned fail_on = 0;
	td_analysis_t *a = NULL;
	cli_progress_t prog, prog_target;
	cli_output_t out = { 0 };

	td_analysis_opts_init(&ao);
	cli_load_opts_init(&ao.load);
	ao.lines = 1;
	td_view_init(&view);
	if (cli_parser_init(&p, compare_opts, "treedrift compare [options] UPSTREAM TARGET",
			    "Compare TARGET against UPSTREAM, file by file. Each is a treedrift database, a "
			    "directory, git:REPO@REV or an archive. Exit status: 0 no drift, 1 drift, 2 error.",
			    argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = compare_opts[opt].name, *arg = p.arg;
		int t = cli_tree_opt(name, arg, &ao.load, &quiet);
		if (!t)
			t = cli_analysis_opt(&ao, name, arg);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "format")) {
			if ((fmt = td_format_parse(arg)) < 0) {
				cli_error("unknown format '%s' (text, " OTHER_FORMATS ")", arg);
				goto out;
			}
		} else if (!strcmp(name, "output")) {
			output = arg;
		} else if (!strcmp(name, "base")) {
			ao.load.upstream_label = arg;
		} else if (!strcmp(name, "target-label")) {
			ao.load.target_label = arg;
		} else if (!strcmp(name, "clean-below")) {
			if (cli_parse_score(name, arg, &ao.compare.thresholds.clean_below))
				goto out;
		} else if (!strcmp(name, "dirty-above")) {
			if (cli_parse_score(name, arg, &ao.compare.thresholds.dirty_above))
				goto out;
		} else if (!strcmp(name, "added-distance")) {
			if (cli_parse_score(name, arg, &ao.compare.added_distance))
				goto out;
		} else if (!strcmp(name, "no-length")) {
			ao.compare.len_diff = 0;
		} else if (!strcmp(name, "include") || !strcmp(name, "exclude")) {
			if (globs_add(name[0] == 'i' ? &inc : &exc, arg)) {
				cli_error("out of memory");
				goto out;
			}
		} else if (!strcmp(name, "only")) {
			td_class_t c = td_class_parse(arg);
			if (c == TD_CLASS_NONE) {
				cli_error("--only takes clean, safe, dirty or new, not '%s'", arg);
				goto out;
			}
			view.only_classes |= 1u << c;
		} else if (!strcmp(name, "sort")) {
			if (!strcmp(arg, "path"))
				view.sort = TD_SORT_PATH;
			else if (!strcmp(arg, "distance"))
				view.sort = TD_SORT_DISTANCE;
			else if (!strcmp(arg, "risk"))
				view.sort = TD_SORT_RISK;
			else {
				cli_error("--sort takes path, distance or risk, not '%s'", arg);
				goto out;
			}
		} else if (!strcmp(name, "csv-raw")) {
			view.csv_raw = 1;
		} else if (!strcmp(name, "stats")) {
			show_stats = 1;
		} else if (!strcmp(name, "patches")) {
			ao.patches = arg;
		} else if (!strcmp(name, "rebase-onto")) {
			ao.rebase_onto = arg;
		} else if (!strcmp(name, "no-lines")) {
			ao.lines = 0;
		} else if (!strcmp(name, "identical")) {
			view.show_identical = 1;
		} else if (!strcmp(name, "fail-on")) {
			td_class_t c = td_class_parse(arg);
			if (!strcmp(arg, "fix") || !strcmp(arg, "cve")) {
				fail_on |= arg[0] == 'f' ? FAIL_ON_FIX : FAIL_ON_CVE;
			} else if (!strcmp(arg, "conflict")) {
				fail_on |= FAIL_ON_CONFLICT;
			} else if (c == TD_CLASS_NONE) {
				cli_error("--fail-on takes clean, safe, dirty, new, fix, cve or conflict, not '%s'", arg);
				goto out;
			} else {
				fail_on |= 1u << c;
			}
		} else if (!strcmp(name, "color")) {
			if (strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
				cli_error("--color takes auto, always or never, not '%s'", arg);
				goto out;
			}
			color = arg;
		}
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 2) {
		cli_error("compare takes two trees, UPSTREAM and TARGET");
		goto out;
	}
	if ((fail_on & (FAIL_ON_FIX | FAIL_ON_CVE)) && !ao.history) {
		cli_error("--fail-on fix and --fail-on cve need --history (the upstream commits to look for)");
		goto out;
	}
	if ((fail_on & FAIL_ON_CONFLICT) && !ao.rebase_onto) {
		cli_error("--fail-on conflict needs --rebase-onto (the tree the patches are to apply to)");
		goto out;
	}
	ao.upstream = p.argv[0];
	ao.target = p.argv[1];
	{
		const char *inputs[] = { ao.upstream, ao.target, ao.config, ao.policy, ao.maintainers,
					 ao.load.source.repo };
		if (cli_output_open(&out, output, inputs, sizeof(inputs) / sizeof(*inputs)))
			goto out;
	}
	ao.compare.include = inc.v;
	ao.compare.exclude = exc.v;
	view.color = fmt == TD_FORMAT_TEXT && want_color(color, output != NULL);
	cli_progress_sides(&prog, &prog_target, &ao.load, quiet);
	rc = td_analyze(&a, &ao, &err);
	cli_progress_done(&prog);
	if (rc) {
		rc = cli_lib_error(&err);
		goto out;
	}
	cli_warn_analysis(a, quiet);
	if (show_stats) {
		const td_origin_stats_t *os = &a->origin_stats;
		fprintf(stderr, "treedrift: %llu files listed, %llu read (%llu bytes), %llu reused\n",
			(unsigned long long)a->stats.files_listed, (unsigned long long)a->stats.files_read,
			(unsigned long long)a->stats.bytes_read, (unsigned long long)a->stats.files_reused);
		fprintf(stderr, "treedrift: origins: %llu files looked up, %llu TLSH distances, %llu candidate pairs"
				" measured, %llu diffed\n",
			(unsigned long long)os->searched, (unsigned long long)os->distances,
			(unsigned long long)os->verified, (unsigned long long)os->diffed);
	}
	{
		double start = cli_now_s();
		if (write_report(&out, a, fmt, &view)) {
			rc = CLI_EXIT_ERROR;
			goto out;
		}
		if (show_stats)
			print_times(&a->times, cli_now_s() - start);
	}
	rc = drift_status(a, fail_on);
out:
	cli_output_abort(&out);
	td_analysis_free(a);
	free(inc.v);
	free(exc.v);
	cli_parser_release(&p);
	return rc;
}
