/* treedrift trend: total distance of a series of releases against one upstream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_opts.h"
#include "cli.h"
#include "output.h"
#include "treedrift/analysis.h"
#include "treedrift/report.h"
#include "treedrift/trend.h"

static const cli_opt_t trend_opts[] = {
	{ "base", 'b', "LABEL", "upstream database version to compare against (default: newest)" },
	{ "svg", 0, "FILE", "write an SVG line chart of total distance to FILE" },
	{ "title", 0, "TEXT", "title of the chart (default: total distance against the base)" },
	CLI_ORIGIN_OPTS,
	CLI_HISTORY_OPTS,
	CLI_TREE_OPTS,
	CLI_OPT_END
};

/* The name a target goes by: its database label, or the spec's last part. */
static const char *target_name(const td_tree_t *t, const char *spec, char *buf, size_t n)
{
	size_t len;
	const char *slash;

	if (t->meta.label && *t->meta.label)
		return t->meta.label;
	len = strlen(spec);
	while (len > 1 && spec[len - 1] == '/')
		len--;
	for (slash = spec + len; slash > spec && slash[-1] != '/'; slash--)
		;
	len -= (size_t)(slash - spec);
	spec = slash;
	snprintf(buf, n, "%.*s", (int)len, spec);
	return buf;
}

static void print_table(const td_trend_point_t *pts, size_t n)
{
	int w = 7, local = 0;

	for (size_t i = 0; i < n; i++) {
		if ((int)strlen(pts[i].label) > w)
			w = (int)strlen(pts[i].label);
		local |= pts[i].has_local;
	}
	printf("%-*s %10s %8s %8s %8s %8s %8s %8s %8s%s\n", w, "release", "distance", "modified", "added",
	       "removed", "clean", "safe", "dirty", "new", local ? "      local    fixes     cves" : "");
	for (size_t i = 0; i < n; i++) {
		const td_trend_point_t *p = &pts[i];
		int len = (int)strlen(p->label);
		cli_fput_path(stdout, p->label, (size_t)len);
		printf("%*s %10llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu", w - len, "",
		       (unsigned long long)p->total_distance, (unsigned long long)p->modified,
		       (unsigned long long)p->added, (unsigned long long)p->removed,
		       (unsigned long long)p->by_class[TD_CLASS_CLEAN],
		       (unsigned long long)p->by_class[TD_CLASS_SAFE],
		       (unsigned long long)p->by_class[TD_CLASS_DIRTY],
		       (unsigned long long)p->by_class[TD_CLASS_NEW]);
		if (local)
			printf(" %10llu %8llu %8llu", (unsigned long long)p->local_distance,
			       (unsigned long long)p->fixes_lacking, (unsigned long long)p->cves_lacking);
		putchar('\n');
	}
}

static int write_svg(cli_output_t *out, const td_trend_point_t *pts, size_t n, const char *title)
{
	if (td_report_trend_svg(out->f, pts, n, title)) {
		cli_output_abort(out);
		return cli_error("unable to write '%s': %s", out->path, strerror(errno ? errno : EIO));
	}
	return cli_output_commit(out);
}

int cmd_trend(int argc, char **argv)
{
	cli_parser_t p;
	td_analysis_opts_t ao;
	td_analyzer_t *an = NULL;
	td_error_t err = { 0 };
	const char *svg = NULL, *title = NULL;
	char deftitle[512];
	int quiet = 0, rc = CLI_EXIT_ERROR, opt;
	td_trend_point_t *pts = NULL;
	size_t n = 0;
	cli_output_t out = { 0 };

	td_analysis_opts_init(&ao);
	cli_load_opts_init(&ao.load);
	if (cli_parser_init(&p, trend_opts, "treedrift trend [options] UPSTREAM TARGET...",
			    "Compare each TARGET (a release: a database, directory, git:REPO@REV or archive) "
			    "against UPSTREAM and print a table of total distance, per-class counts and added "
			    "files per release, in the order given.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = trend_opts[opt].name;
		int t = cli_tree_opt(name, p.arg, &ao.load, &quiet);
		if (!t)
			t = cli_analysis_opt(&ao, name, p.arg);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "base"))
			ao.load.upstream_label = p.arg;
		else if (!strcmp(name, "svg"))
			svg = p.arg;
		else if (!strcmp(name, "title"))
			title = p.arg;
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc < 2) {
		cli_error("trend takes UPSTREAM and at least one TARGET");
		goto out;
	}
	if (svg && cli_output_open(&out, svg, (const char *const *)p.argv, (size_t)p.argc))
		goto out;
	if (!(pts = calloc((size_t)p.argc - 1, sizeof(*pts)))) {
		cli_error("out of memory");
		goto out;
	}
	ao.upstream = p.argv[0];
	if (td_analyzer_new(&an, &ao, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	for (int i = 1; i < p.argc; i++) {
		td_analysis_t *a = NULL;
		const td_result_t *r;
		cli_progress_t prog, prog_target;
		char buf[256];
		int e;

		cli_progress_sides(&prog, &prog_target, &ao.load, quiet);
		e = td_analyzer_run(&a, an, p.argv[i], &err);
		cli_progress_done(&prog);
		if (e) {
			cli_lib_error(&err);
			goto out;
		}
		cli_warn_analysis(a, quiet);
		r = a->result;
		if (i == 1 && !title) {
			snprintf(deftitle, sizeof(deftitle), "total distance against %s",
				 r->base_version ? r->base_version :
				 r->upstream->meta.label ? r->upstream->meta.label : p.argv[0]);
			title = deftitle;
		}
		e = td_trend_point_of_analysis(&pts[n], target_name(r->target, p.argv[i], buf, sizeof(buf)), a);
		td_analysis_free(a);
		if (e) {
			cli_error("out of memory");
			goto out;
		}
		n++;
	}
	print_table(pts, n);
	if (fflush(stdout)) {
		cli_error("unable to write the table: %s", strerror(errno));
		goto out;
	}
	if (svg && write_svg(&out, pts, n, title))
		goto out;
	rc = CLI_EXIT_SAME;
out:
	cli_output_abort(&out);
	for (size_t i = 0; i < n; i++)
		td_trend_point_release(&pts[i]);
	free(pts);
	td_analyzer_free(an);
	cli_parser_release(&p);
	return rc;
}
