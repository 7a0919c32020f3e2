/* treedrift trend: total distance of a series of releases against one upstream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "origins.h"
#include "treedrift/compare.h"
#include "treedrift/trend.h"

static const cli_opt_t trend_opts[] = {
	{ "base", 'b', "LABEL", "upstream database version to compare against (default: newest)" },
	{ "svg", 0, "FILE", "write an SVG line chart of total distance to FILE" },
	{ "title", 0, "TEXT", "title of the chart (default: total distance against the base)" },
	CLI_ORIGIN_OPTS,
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
	int w = 7;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(pts[i].label) > w)
			w = (int)strlen(pts[i].label);
	printf("%-*s %10s %8s %8s %8s %8s %8s %8s\n", w, "release", "distance", "modified", "added",
	       "removed", "clean", "safe", "dirty");
	for (size_t i = 0; i < n; i++) {
		const td_trend_point_t *p = &pts[i];
		int len = (int)strlen(p->label);
		cli_fput_path(stdout, p->label, (size_t)len);
		printf("%*s %10llu %8llu %8llu %8llu %8llu %8llu %8llu\n", w - len, "",
		       (unsigned long long)p->total_distance, (unsigned long long)p->modified,
		       (unsigned long long)p->added, (unsigned long long)p->removed,
		       (unsigned long long)p->by_class[TD_CLASS_CLEAN],
		       (unsigned long long)p->by_class[TD_CLASS_SAFE],
		       (unsigned long long)p->by_class[TD_CLASS_DIRTY]);
	}
}

static int write_svg(const char *path, const td_trend_point_t *pts, size_t n, const char *title)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return cli_error("unable to create '%s': %s", path, strerror(errno));
	rc = td_trend_svg(f, pts, n, title);
	if (fclose(f) && !rc)
		rc = TD_EIO;
	if (rc) {
		unlink(path);
		return cli_error("unable to write '%s': %s", path, strerror(errno ? errno : EIO));
	}
	return 0;
}

int cmd_trend(int argc, char **argv)
{
	cli_parser_t p;
	td_load_opts_t lo;
	td_compare_opts_t co;
	cli_origins_t origins;
	const char *svg = NULL, *title = NULL;
	char deftitle[512];
	int quiet = 0, rc = CLI_EXIT_ERROR, opt;
	td_trend_point_t *pts = NULL;
	td_db_t *up_db = NULL;  /* an upstream database, opened once for all targets */
	size_t n = 0;

	cli_load_opts_init(&lo);
	td_compare_opts_init(&co);
	cli_origins_init(&origins);
	if (cli_parser_init(&p, trend_opts, "treedrift trend [options] UPSTREAM TARGET...",
			    "Compare each TARGET (a release: a database, directory, git:REPO@REV or archive) "
			    "against UPSTREAM and print a table of total distance, per-class counts and added "
			    "files per release, in the order given.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = trend_opts[opt].name;
		int t = cli_tree_opt(name, p.arg, &lo, &quiet);
		if (!t)
			t = cli_origins_opt(&origins, name, p.arg);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "base"))
			lo.upstream_label = p.arg;
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
	if (!(pts = calloc((size_t)p.argc - 1, sizeof(*pts)))) {
		cli_error("out of memory");
		goto out;
	}
	cli_origins_setup(&origins, &lo);
	for (int i = 1; i < p.argc; i++) {
		td_error_t err = { 0 };
		td_tree_t *up = NULL, *tgt = NULL;
		td_result_t *r = NULL;
		td_scan_stats_t stats = { 0 };
		cli_progress_t prog;
		char buf[256];
		int e;

		cli_progress_init(&prog, "reading", quiet);
		lo.scan.progress = cli_progress_cb;
		lo.scan.progress_ctx = &prog;
		e = td_load_pair_db(&up, &tgt, &up_db, p.argv[0], p.argv[i], &lo, &stats, &err);
		cli_progress_done(&prog);
		if (e || td_compare(&r, up, tgt, &co, &err)) {
			cli_lib_error(&err);
			goto out;
		}
		if (cli_origins_find(&origins, r, up_db)) {
			td_result_free(r);
			goto out;
		}
		if (i == 1 && !title) {
			snprintf(deftitle, sizeof(deftitle), "total distance against %s",
				 r->base_version ? r->base_version :
				 r->upstream->meta.label ? r->upstream->meta.label : p.argv[0]);
			title = deftitle;
		}
		e = td_trend_point_init(&pts[n], target_name(r->target, p.argv[i], buf, sizeof(buf)), r);
		td_result_free(r);
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
	if (svg && write_svg(svg, pts, n, title))
		goto out;
	rc = CLI_EXIT_SAME;
out:
	for (size_t i = 0; i < n; i++)
		td_trend_point_release(&pts[i]);
	free(pts);
	td_db_free(up_db);
	cli_parser_release(&p);
	return rc;
}
