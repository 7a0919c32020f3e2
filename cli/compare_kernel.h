/* compare's kernel options: --arch, --config, --built-only, --policy,
 * --no-policy, --by-dir, --by-class, --maintainers. They parse here and call
 * the library's stages (treedrift/annotate.h, treedrift/rollup.h). */
#ifndef TD_CLI_COMPARE_KERNEL_H
#define TD_CLI_COMPARE_KERNEL_H

#include "treedrift/annotate.h"
#include "treedrift/load.h"
#include "treedrift/maintainers.h"
#include "treedrift/report.h"
#include "treedrift/rollup.h"

#define CLI_KERNEL_OPTS \
	{ "arch", 0, "ARCH", "leave out arch/* of other architectures (x86_64, arm64, ...)" }, \
	{ "config", 0, "FILE", "mark the files a kernel .config builds, from TARGET's Kbuild files" }, \
	{ "built-only", 0, NULL, "with --config: leave out the sources it does not build" }, \
	{ "policy", 0, "FILE", "path policy; builtin:linux is the built-in one (default for a kernel)" }, \
	{ "no-policy", 0, NULL, "no path policy, not even the built-in one" }, \
	{ "by-dir", 0, "N", "sum distance and risk per directory, N levels deep" }, \
	{ "by-class", 0, NULL, "sum distance and risk per policy class" }, \
	{ "maintainers", 0, "FILE", "sum distance and risk per MAINTAINERS subsystem" }

typedef struct cli_kernel {
	const char *arch;
	const char *config;
	const char *policy_file;
	const char *maintainers_file;
	int built_only;
	int no_policy;
	int by_class;
	unsigned by_dir;
	td_kconfig_t *cfg;
	const char *kbuild_arch;
	td_kbuild_result_t *kb;
	td_policy_t *policy;
	td_maintainers_t *maintainers;
	td_rollup_t *dir_rollup;
	td_rollup_t *class_rollup;
	td_rollup_t *subsystem_rollup;
	td_annotate_info_t info;
} cli_kernel_t;

/* Take one option: 1 when it was one of CLI_KERNEL_OPTS, 0 when not, -1 on
 * a bad value (after a message). */
int cli_kernel_opt(cli_kernel_t *k, const char *name, const char *arg);
/* After parsing: check the options go together and read the files they
 * name (.config, policy, MAINTAINERS). 0 or -1 after a message. */
int cli_kernel_load(cli_kernel_t *k);
/* On the loaded trees, before compare: choose the policy, evaluate Kbuild,
 * drop other architectures and, with --built-only, what is not built. */
int cli_kernel_prepare(cli_kernel_t *k, td_tree_t *up, td_tree_t *tgt, const char *tgt_spec,
		       const td_load_opts_t *lo, int quiet);
/* After compare: annotate r, compute the rollups asked for, and point the
 * view at them. */
int cli_kernel_annotate(cli_kernel_t *k, td_result_t *r, td_view_t *v);
void cli_kernel_release(cli_kernel_t *k);

#endif
