/* treedrift compare: how far TARGET drifted from UPSTREAM. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "treedrift/base.h"
#include "compare_kernel.h"
#include "origins.h"
#include "treedrift/compare.h"
#include "treedrift/origin.h"
#include "treedrift/report.h"
#include "treedrift/store.h"

static const cli_opt_t compare_opts[] = {
	{ "format", 'f', "FMT", "text (default), json, csv, html, markdown, cyclonedx" },
	{ "output", 'o', "FILE", "write the report to FILE instead of stdout" },
	{ "base", 'b', "LABEL", "upstream database version to compare against (default: newest; auto: the "
				"version treedrift base ranks first)" },
	{ "target-label", 0, "LABEL", "version of a target database (default: newest)" },
	{ "clean-below", 0, "N", "distances under N are clean (default 60)" },
	{ "dirty-above", 0, "N", "distances over N are dirty (default 150)" },
	{ "no-length", 0, NULL, "leave the file-length term out of TLSH distances" },
	{ "added-distance", 0, "N", "score of a wholly new file (default 300)" },
	CLI_ORIGIN_OPTS,
	{ "include", 'I', "GLOB", "compare only paths matching GLOB (repeatable)" },
	{ "exclude", 'X', "GLOB", "leave out paths matching GLOB (repeatable)" },
	{ "only", 0, "CLASS", "list only files of CLASS: clean, safe, dirty (repeatable)" },
	{ "sort", 's', "KEY", "order of the list: path (default), distance, risk" },
	{ "identical", 0, NULL, "list identical files too" },
	{ "fail-on", 0, "CLASS", "exit 1 only if a file is CLASS or worse (safe, dirty)" },
	{ "color", 0, "WHEN", "colour the text report: auto (default), always, never" },
	{ "stats", 0, NULL, "print the files listed, read and reused, and the bytes read, on stderr" },
	CLI_KERNEL_OPTS,
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

/* Exit status: 1 when there is drift (or, with --fail-on, a file of that
 * class or worse), else 0. */
static int drift_status(const td_result_t *r, td_class_t fail_on)
{
	if (fail_on == TD_CLASS_NONE)
		return r->totals.mismatched ? CLI_EXIT_DRIFT : CLI_EXIT_SAME;
	for (int c = fail_on; c <= TD_CLASS_DIRTY; c++)
		if (r->totals.by_class[c].files)
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

/* Write the report next to FILE and rename it into place, so a reader never
 * sees half a report. */
static int write_report(const char *output, const td_result_t *r, int fmt, const td_view_t *v)
{
	td_error_t err = { 0 };
	char *tmp;
	FILE *f;
	int rc;

	if (!output) {
		if (td_report_write(stdout, r, (td_format_t)fmt, v, &err) || fflush(stdout))
			return err.msg[0] ? cli_lib_error(&err) : cli_error("unable to write the report");
		return 0;
	}
	if (!(tmp = malloc(strlen(output) + 16)))
		return cli_error("out of memory");
	snprintf(tmp, strlen(output) + 16, "%s.tmp-%ld", output, (long)getpid());
	if (!(f = fopen(tmp, "w"))) {
		cli_error("unable to create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return CLI_EXIT_ERROR;
	}
	rc = td_report_write(f, r, (td_format_t)fmt, v, &err);
	if (fclose(f) && !rc)
		rc = TD_EIO;
	if (!rc && rename(tmp, output)) {
		cli_error("unable to write '%s': %s", output, strerror(errno));
		rc = -1;
	} else if (rc) {
		cli_error("unable to write '%s'%s%s", output, err.msg[0] ? ": " : "", err.msg);
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc ? CLI_EXIT_ERROR : 0;
}

/* --base auto: rank the versions of the upstream database for the target
 * (read in full) and load the best one. *label gets a copy of its label,
 * *db the open database (freed by the caller, also on error). */
static int load_auto_base(td_tree_t **up, td_tree_t **tgt, char **label, td_db_t **db,
			  const char *db_spec, const char *target_spec, td_load_opts_t *lo, int quiet)
{
	td_error_t err = { 0 };
	td_base_opts_t bo;
	td_base_result_t *b = NULL;
	int rc;

	td_base_opts_init(&bo);
	if (!td_spec_is_db(db_spec))
		return cli_error("--base auto needs an upstream database, not '%s'", db_spec);
	if ((rc = td_db_open(db, db_spec, &err)) ||
	    (rc = td_load_tree(tgt, target_spec, lo->target_label, lo, NULL, &err)) ||
	    (rc = td_base_rank(&b, *db, *tgt, &bo, &err)))
		goto out;
	if (b->ambiguous && !quiet)
		cli_warn("the base is ambiguous: %s or %s (see treedrift base); comparing against %s",
			 b->candidates[0].label, b->candidates[1].label, b->candidates[0].label);
	if (!(*label = strdup(b->candidates[0].label))) {
		rc = cli_error("out of memory");
		goto out;
	}
	rc = td_db_load(*db, *label, up, &err);
out:
	if (rc && err.msg[0])
		cli_lib_error(&err);
	td_base_result_free(b);
	return rc ? CLI_EXIT_ERROR : 0;
}

int cmd_compare(int argc, char **argv)
{
	cli_parser_t p;
	td_load_opts_t lo;
	td_compare_opts_t co;
	td_view_t view;
	td_error_t err = { 0 };
	globs_t inc = { 0 }, exc = { 0 };
	const char *output = NULL, *color = "auto";
	int fmt = TD_FORMAT_TEXT, quiet = 0, show_stats = 0, rc = CLI_EXIT_ERROR, opt;
	td_class_t fail_on = TD_CLASS_NONE;
	td_tree_t *up = NULL, *tgt = NULL;
	td_db_t *up_db = NULL;
	td_result_t *r = NULL;
	td_scan_stats_t stats = { 0 };
	cli_progress_t prog;
	cli_origins_t origins;
	int up_tgt_taken = 0;
	char *auto_label = NULL;
	cli_kernel_t kernel = { 0 };

	cli_origins_init(&origins);
	cli_load_opts_init(&lo);
	td_compare_opts_init(&co);
	td_view_init(&view);
	if (cli_parser_init(&p, compare_opts, "treedrift compare [options] UPSTREAM TARGET",
			    "Compare TARGET against UPSTREAM, file by file. Each is a treedrift database, a "
			    "directory, git:REPO@REV or an archive. Exit status: 0 no drift, 1 drift, 2 error.",
			    argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = compare_opts[opt].name, *a = p.arg;
		int t = cli_tree_opt(name, a, &lo, &quiet);
		if (!t)
			t = cli_kernel_opt(&kernel, name, a);
		if (!t)
			t = cli_origins_opt(&origins, name, a);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "format")) {
			if ((fmt = td_format_parse(a)) < 0) {
				cli_error("unknown format '%s'", a);
				goto out;
			}
		} else if (!strcmp(name, "output")) {
			output = a;
		} else if (!strcmp(name, "base")) {
			lo.upstream_label = a;
		} else if (!strcmp(name, "target-label")) {
			lo.target_label = a;
		} else if (!strcmp(name, "clean-below")) {
			if (cli_parse_score(name, a, &co.thresholds.clean_below))
				goto out;
		} else if (!strcmp(name, "dirty-above")) {
			if (cli_parse_score(name, a, &co.thresholds.dirty_above))
				goto out;
		} else if (!strcmp(name, "added-distance")) {
			if (cli_parse_score(name, a, &co.added_distance))
				goto out;
		} else if (!strcmp(name, "no-length")) {
			co.len_diff = 0;
		} else if (!strcmp(name, "include") || !strcmp(name, "exclude")) {
			if (globs_add(name[0] == 'i' ? &inc : &exc, a)) {
				cli_error("out of memory");
				goto out;
			}
		} else if (!strcmp(name, "only")) {
			td_class_t c = td_class_parse(a);
			if (c == TD_CLASS_NONE) {
				cli_error("--only takes clean, safe or dirty, not '%s'", a);
				goto out;
			}
			view.only_classes |= 1u << c;
		} else if (!strcmp(name, "sort")) {
			if (!strcmp(a, "path"))
				view.sort = TD_SORT_PATH;
			else if (!strcmp(a, "distance"))
				view.sort = TD_SORT_DISTANCE;
			else if (!strcmp(a, "risk"))
				view.sort = TD_SORT_RISK;
			else {
				cli_error("--sort takes path, distance or risk, not '%s'", a);
				goto out;
			}
		} else if (!strcmp(name, "stats")) {
			show_stats = 1;
		} else if (!strcmp(name, "identical")) {
			view.show_identical = 1;
		} else if (!strcmp(name, "fail-on")) {
			fail_on = td_class_parse(a);
			if (fail_on == TD_CLASS_NONE) {
				cli_error("--fail-on takes clean, safe or dirty, not '%s'", a);
				goto out;
			}
		} else if (!strcmp(name, "color")) {
			if (strcmp(a, "auto") && strcmp(a, "always") && strcmp(a, "never")) {
				cli_error("--color takes auto, always or never, not '%s'", a);
				goto out;
			}
			color = a;
		}
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 2) {
		cli_error("compare takes two trees, UPSTREAM and TARGET");
		goto out;
	}
	if (co.thresholds.clean_below > co.thresholds.dirty_above + 1) {
		cli_error("--clean-below %d is above --dirty-above %d", co.thresholds.clean_below,
			  co.thresholds.dirty_above);
		goto out;
	}
	if (cli_kernel_load(&kernel))
		goto out;
	co.include = inc.v;
	co.exclude = exc.v;
	view.color = fmt == TD_FORMAT_TEXT && want_color(color, output != NULL);
	cli_progress_init(&prog, "reading", quiet);
	lo.scan.progress = cli_progress_cb;
	lo.scan.progress_ctx = &prog;
	cli_origins_setup(&origins, &lo);
	if (lo.upstream_label && !strcmp(lo.upstream_label, "auto")) {
		int bad = load_auto_base(&up, &tgt, &auto_label, &up_db, p.argv[0], p.argv[1], &lo, quiet);
		cli_progress_done(&prog);
		if (bad)
			goto out;
	} else if (td_load_pair_db(&up, &tgt, &up_db, p.argv[0], p.argv[1], &lo, &stats, &err)) {
		cli_progress_done(&prog);
		cli_lib_error(&err);
		goto out;
	}
	cli_progress_done(&prog);
	if (show_stats)
		fprintf(stderr, "treedrift: %llu files listed, %llu read (%llu bytes), %llu reused\n",
			(unsigned long long)stats.files_listed, (unsigned long long)stats.files_read,
			(unsigned long long)stats.bytes_read, (unsigned long long)stats.files_reused);
	if (cli_kernel_prepare(&kernel, up, tgt, p.argv[1], &lo, quiet))
		goto out;
	up_tgt_taken = 1;
	if (td_compare(&r, up, tgt, &co, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	/* origins change scores, so they come before the policy's risk */
	if (cli_origins_find(&origins, r, up_db) || cli_kernel_annotate(&kernel, r, &view))
		goto out;
	if (write_report(output, r, fmt, &view))
		goto out;
	rc = drift_status(r, fail_on);
out:
	if (!up_tgt_taken) {
		td_tree_free(up);
		td_tree_free(tgt);
	}
	free(auto_label);
	td_result_free(r);
	td_db_free(up_db);
	cli_kernel_release(&kernel);
	free(inc.v);
	free(exc.v);
	cli_parser_release(&p);
	return rc;
}
