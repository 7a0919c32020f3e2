/* Options of the analysis: see analysis_opts.h. */
#include <string.h>

#include "analysis_opts.h"
#include "cli.h"
#include "treedrift/arch.h"
#include "treedrift/origin.h"

int cli_analysis_opt(td_analysis_opts_t *o, const char *name, const char *arg)
{
	unsigned long long n;

	if (!strcmp(name, "find-copies")) {
		o->origin.find_copies = 1;
	} else if (!strcmp(name, "copy-threshold")) {
		if (cli_parse_score(name, arg, &o->origin.copy_threshold))
			return -1;
	} else if (!strcmp(name, "no-origins")) {
		o->origins = 0;
	} else if (!strcmp(name, "copy-similarity")) {
		if (cli_parse_double(arg, &o->origin.copy_similarity) || !(o->origin.copy_similarity >= 0) ||
		    o->origin.copy_similarity > 1)
			return cli_error("--copy-similarity takes a number from 0 to 1, not '%s'", arg), -1;
	} else if (!strcmp(name, "copy-candidates")) {
		if (cli_parse_uint(arg, TD_COPY_CANDIDATES_MAX, &n) || n < 1)
			return cli_error("--copy-candidates takes a count from 1 to %d, not '%s'", TD_COPY_CANDIDATES_MAX,
					 arg), -1;
		o->origin.copy_candidates = (unsigned)n;
	} else if (!strcmp(name, "copy-bound")) {
		if (cli_parse_score(name, arg, &o->origin.copy_bound))
			return -1;
	} else if (!strcmp(name, "no-verify-copies")) {
		o->origin.verify = 0;
	} else if (!strcmp(name, "tlsh-small-files")) {
		o->tlsh_small_files = 1;
	} else if (!strcmp(name, "arch")) {
		if (!td_arch_canonical(arg))
			return cli_error("unknown architecture '%s' (x86_64, arm64, arm, riscv, ...)", arg), -1;
		o->arch = arg;
	} else if (!strcmp(name, "config")) {
		o->config = arg;
	} else if (!strcmp(name, "built-only")) {
		o->built_only = 1;
	} else if (!strcmp(name, "policy")) {
		o->policy = arg;
	} else if (!strcmp(name, "no-policy")) {
		o->no_policy = 1;
	} else if (!strcmp(name, "by-dir")) {
		if (cli_parse_uint(arg, 64, &n) || n < 1)
			return cli_error("--by-dir takes a depth from 1 to 64, not '%s'", arg), -1;
		o->by_dir = (unsigned)n;
	} else if (!strcmp(name, "by-class")) {
		o->by_class = 1;
	} else if (!strcmp(name, "maintainers")) {
		o->maintainers = arg;
	} else if (!strcmp(name, "history")) {
		o->history = arg;
	} else if (!strcmp(name, "base-commit")) {
		o->base_commit = arg;
	} else if (!strcmp(name, "classify")) {
		if (strcmp(arg, "total") && strcmp(arg, "local"))
			return cli_error("--classify takes total or local, not '%s'", arg), -1;
		o->classify_local = !strcmp(arg, "local");
	} else {
		return 0;
	}
	return 1;
}

void cli_warn_analysis(const td_analysis_t *a, int quiet)
{
	if (quiet || !a)
		return;
	for (size_t i = 0; i < a->warning_count; i++)
		cli_warn("%s", a->warnings[i]);
}
