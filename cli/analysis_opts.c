/* Options of the analysis: see analysis_opts.h. */
#include <string.h>

#include "analysis_opts.h"
#include "cli.h"
#include "treedrift/arch.h"

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
