/* compare's kernel options: parse them, and run the library's kernel stages
 * in order (see treedrift/annotate.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_kernel.h"
#include "treedrift/arch.h"

#define BUILTIN_LINUX "builtin:linux"
#define MAX_WARNINGS_SHOWN 20

int cli_kernel_opt(cli_kernel_t *k, const char *name, const char *arg)
{
	unsigned long long n;

	if (!strcmp(name, "arch")) {
		if (!td_arch_canonical(arg))
			return cli_error("unknown architecture '%s' (x86_64, arm64, arm, riscv, ...)", arg), -1;
		k->arch = arg;
	} else if (!strcmp(name, "config")) {
		k->config = arg;
	} else if (!strcmp(name, "built-only")) {
		k->built_only = 1;
	} else if (!strcmp(name, "policy")) {
		k->policy_file = arg;
	} else if (!strcmp(name, "no-policy")) {
		k->no_policy = 1;
	} else if (!strcmp(name, "by-dir")) {
		if (cli_parse_uint(arg, 64, &n) || n < 1)
			return cli_error("--by-dir takes a depth from 1 to 64, not '%s'", arg), -1;
		k->by_dir = (unsigned)n;
	} else if (!strcmp(name, "by-class")) {
		k->by_class = 1;
	} else if (!strcmp(name, "maintainers")) {
		k->maintainers_file = arg;
	} else {
		return 0;
	}
	return 1;
}

int cli_kernel_load(cli_kernel_t *k)
{
	td_error_t err = { 0 };
	const char *guessed = NULL;

	if (k->built_only && !k->config)
		return cli_error("--built-only needs --config"), -1;
	if (k->policy_file && k->no_policy)
		return cli_error("--policy and --no-policy exclude each other"), -1;
	if (k->config) {
		if (td_kconfig_load_file(&k->cfg, &guessed, k->config, &err))
			return cli_lib_error(&err), -1;
		k->kbuild_arch = k->arch ? td_arch_canonical(k->arch) : guessed;
		if (!k->kbuild_arch)
			return cli_error("'%s' does not say which architecture it is for: give --arch",
					 k->config), -1;
		if (k->arch && guessed && strcmp(guessed, k->kbuild_arch))
			cli_warn("'%s' is a configuration for %s, not %s", k->config, guessed,
				 k->kbuild_arch);
		k->info.config = k->config;
		k->info.built_only = k->built_only;
	}
	if (k->policy_file && strcmp(k->policy_file, BUILTIN_LINUX)) {
		if (td_policy_load_file(&k->policy, k->policy_file, &err))
			return cli_lib_error(&err), -1;
		k->info.policy = k->policy_file;
	} else if (k->policy_file) {
		if (td_policy_default_linux(&k->policy, &err))
			return cli_lib_error(&err), -1;
	}
	if (k->maintainers_file && td_maintainers_load_file(&k->maintainers, k->maintainers_file, &err))
		return cli_lib_error(&err), -1;
	if (k->arch) {
		k->info.arch = k->arch;
		k->info.srcarch = td_arch_canonical(k->arch);
	}
	return 0;
}

static void warn_kbuild(const td_kbuild_result_t *kb, int quiet)
{
	size_t shown = td_kbuild_warning_count(kb), total = td_kbuild_warning_total(kb);

	if (quiet || !total)
		return;
	if (shown > MAX_WARNINGS_SHOWN)
		shown = MAX_WARNINGS_SHOWN;
	for (size_t i = 0; i < shown; i++) {
		const td_kbuild_warning_t *w = td_kbuild_warning(kb, i);
		cli_warn("Kbuild: %s:%u: %s", w->file, w->line, w->msg);
	}
	if (total > shown)
		cli_warn("Kbuild: %zu more constructs not understood", total - shown);
}

int cli_kernel_prepare(cli_kernel_t *k, td_tree_t *up, td_tree_t *tgt, const char *tgt_spec,
		       const td_load_opts_t *lo, int quiet)
{
	td_error_t err = { 0 };
	uint64_t n;

	if (!k->policy && !k->no_policy && td_tree_looks_like_linux(tgt)) {
		if (td_policy_default_linux(&k->policy, &err))
			return cli_lib_error(&err), -1;
	}
	if (k->policy && !k->info.policy) {
		k->info.policy = td_policy_name(k->policy) ? td_policy_name(k->policy) : "linux";
		k->info.policy_builtin = 1;
	}
	if (k->cfg) {
		if (td_kbuild_eval_tree(&k->kb, tgt, tgt_spec, &lo->source, k->cfg, k->kbuild_arch, &err)) {
			cli_error("--config: %s", err.msg);
			return -1;
		}
		warn_kbuild(k->kb, quiet);
		k->info.kbuild_sources = td_kbuild_source_count(k->kb);
		k->info.kbuild_warnings = td_kbuild_warning_total(k->kb);
	}
	if (k->arch) {
		td_tree_drop_arch(up, k->arch, &n);
		k->info.arch_dropped = n;
		td_tree_drop_arch(tgt, k->arch, &n);
		k->info.arch_dropped += n;
	}
	if (k->built_only) {
		td_tree_drop_not_built(up, k->kb, &n);
		k->info.built_dropped = n;
		td_tree_drop_not_built(tgt, k->kb, &n);
		k->info.built_dropped += n;
	}
	return 0;
}

int cli_kernel_annotate(cli_kernel_t *k, td_result_t *r, td_view_t *v)
{
	td_annotate_opts_t ao;
	td_error_t err = { 0 };

	td_annotate_opts_init(&ao);
	ao.kbuild = k->kb;
	ao.policy = k->policy;
	if (td_annotate(r, &ao, &err))
		return cli_lib_error(&err), -1;
	if (k->by_dir && td_rollup_by_dir(&k->dir_rollup, r, k->by_dir, 0, &err))
		return cli_lib_error(&err), -1;
	if (k->by_class && td_rollup_by_class(&k->class_rollup, r, &err))
		return cli_lib_error(&err), -1;
	if (k->maintainers && td_rollup_by_subsystem(&k->subsystem_rollup, r, k->maintainers, &err))
		return cli_lib_error(&err), -1;
	if (k->info.arch || k->info.config || k->info.policy)
		v->kernel = &k->info;
	v->by_dir = k->by_dir;
	v->dir_rollup = k->dir_rollup;
	v->class_rollup = k->class_rollup;
	v->subsystem_rollup = k->subsystem_rollup;
	return 0;
}

void cli_kernel_release(cli_kernel_t *k)
{
	td_rollup_free(k->dir_rollup);
	td_rollup_free(k->class_rollup);
	td_rollup_free(k->subsystem_rollup);
	td_maintainers_free(k->maintainers);
	td_policy_free(k->policy);
	td_kbuild_result_free(k->kb);
	td_kconfig_free(k->cfg);
	memset(k, 0, sizeof(*k));
}
