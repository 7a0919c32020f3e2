/* The options that set up an analysis (treedrift/analysis.h), shared by
 * compare, trend and base: kernel awareness, policy, rollups and origins. */
#ifndef TD_CLI_ANALYSIS_OPTS_H
#define TD_CLI_ANALYSIS_OPTS_H

#include "treedrift/analysis.h"

#define CLI_ORIGIN_OPTS \
	{ "find-copies", 0, NULL, "look for a nearer upstream file of modified files too, not only of added ones" }, \
	{ "copy-threshold", 0, "N", "without verification: an added file within distance N of an upstream file is a copy (default 70)" }, \
	{ "no-origins", 0, NULL, "no rename and copy detection (upstream read only where needed)" }, \
	{ "copy-similarity", 0, "X", "an added file is a copy when its line similarity to an upstream candidate is X or more (0 to 1, default 0.5)" }, \
	{ "copy-candidates", 0, "N", "upstream candidates diffed per added file, the nearest by TLSH (1 to 16, default 4)" }, \
	{ "copy-bound", 0, "N", "candidates are within TLSH distance N (default 200)" }, \
	{ "no-verify-copies", 0, NULL, "judge copies by TLSH distance alone (--copy-threshold), without reading content" }, \
	{ "tlsh-small-files", 0, NULL, "score modified files under 1 KiB by TLSH too, not from their line diff" }

#define CLI_KERNEL_OPTS \
	{ "arch", 0, "ARCH", "leave out arch/* of other architectures (x86_64, arm64, ...)" }, \
	{ "config", 0, "FILE", "mark the files a kernel .config builds, from TARGET's Kbuild files" }, \
	{ "built-only", 0, NULL, "with --config: leave out the sources it does not build" }, \
	{ "policy", 0, "FILE", "path policy; builtin:linux is the built-in one (default for a kernel)" }, \
	{ "no-policy", 0, NULL, "no path policy, not even the built-in one" }, \
	{ "by-dir", 0, "N", "sum distance and risk per directory, N levels deep" }, \
	{ "by-class", 0, NULL, "sum distance and risk per policy class" }, \
	{ "maintainers", 0, "FILE", "sum distance and risk per MAINTAINERS subsystem" }

#define CLI_HISTORY_OPTS \
	{ "history", 0, "SPEC", "upstream history git:REPO[@TIP...]: split each changed line into upstream and " \
				"local (TIP default: every ref that descends from the base)" }, \
	{ "base-commit", 0, "REV", "with --history: the base commit (default: UPSTREAM's, when it is a git " \
				   "revision or a database version scanned from git)" }, \
	{ "classify", 0, "BY", "with --history: the classes (and what fails) come from the total (default) or the local " \
			       "distance" }

/* Take one of CLI_ORIGIN_OPTS, CLI_KERNEL_OPTS or CLI_HISTORY_OPTS into o: 1 when it was one,
 * 0 when not, -1 on a bad value (after a message). */
int cli_analysis_opt(td_analysis_opts_t *o, const char *name, const char *arg);

/* Print the analysis's warnings on stderr, unless quiet. */
void cli_warn_analysis(const td_analysis_t *a, int quiet);

#endif
