/* Kernel awareness around td_compare: the stages that take a kernel tree's
 * architecture, configuration and path policy into account.
 *
 * Before td_compare, on the loaded trees (like --exclude, what they drop is
 * neither counted nor listed):
 *   td_tree_drop_arch()       --arch: files under arch/<other>/
 *   td_tree_drop_not_built()  --built-only: .c/.S/.rs files the config does not build
 * After td_compare, on the result:
 *   td_annotate()             built, policy_class, weight, risk (and the
 *                             policy's per-class thresholds), then totals
 * td_kbuild_eval_tree() evaluates the Kbuild files of a loaded tree, reading
 * them from its source (a directory or a git revision). doc/kbuild.md and
 * doc/policy.md describe the rules. */
#ifndef TREEDRIFT_ANNOTATE_H
#define TREEDRIFT_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/kbuild.h"
#include "treedrift/kconfig.h"
#include "treedrift/policy.h"
#include "treedrift/source.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernel stages did, for the reports' header (all optional:
 * NULL/0 when a stage did not run). Strings are borrowed from the caller. */
typedef struct td_annotate_info {
	const char *arch;           /* --arch as given */
	const char *srcarch;        /* its arch/ directory (td_arch_canonical) */
	uint64_t arch_dropped;      /* files of other architectures left out, both trees */
	const char *config;         /* the .config's path */
	int built_only;             /* 1: not-built sources were left out */
	uint64_t built_dropped;     /* files left out by it, both trees */
	uint64_t kbuild_sources;    /* sources the config builds in the target */
	uint64_t kbuild_warnings;   /* Kbuild constructs not understood (td_kbuild_warning_total) */
	const char *policy;         /* the policy's name, or its file */
	int policy_builtin;         /* 1: the built-in Linux policy */
} td_annotate_info_t;

/* Drop from t every file of an architecture other than arch: the files
 * td_arch_path_relevant() rejects. The tree stays sorted; *dropped (may be
 * NULL) gets the number of files dropped. */
TD_EXTERN int td_tree_drop_arch(td_tree_t *t, const char *arch, uint64_t *dropped);

/* Drop from t every .c/.S/.rs file that kb says is not built
 * (td_annotate_built() == 0). *dropped (may be NULL) as above. */
TD_EXTERN int td_tree_drop_not_built(td_tree_t *t, const td_kbuild_result_t *kb, uint64_t *dropped);

/* The built value of td_change_t for a path: TD_KBUILD_BUILT,
 * TD_KBUILD_NOT_BUILT or TD_KBUILD_SUPPORT. As td_kbuild_is_built(), and
 * also built when the path is a source not in the evaluated tree (a file the
 * target removed) whose object the tree's Kbuild files still build:
 * "d/x.c" when "d/x.o" is among td_kbuild_object(). */
TD_EXTERN int td_annotate_built(const td_kbuild_result_t *kb, const char *path, size_t len);

/* 1 when t looks like a Linux kernel source tree: it has the files Makefile
 * and Kconfig at its top and at least one file under init/ and one under
 * kernel/. compare uses the built-in Linux policy for such a target. */
TD_EXTERN int td_tree_looks_like_linux(const td_tree_t *t);

/* Evaluate the Kbuild files of tree (as loaded from spec, with the same
 * source options) for cfg and arch: td_kbuild_eval() with the files read
 * from the tree's source. A directory or git:REPO@REV is read file by file
 * as the evaluator asks; an archive is read through once more first,
 * keeping in memory every member Kbuild may read (all but sources, headers,
 * documentation and data, by name; members over TD_KBUILD_MAX_FILE_BYTES
 * are left out). Fails with TD_EUNSUPPORTED for a database (it holds
 * digests, not content). Caller frees *out with td_kbuild_result_free(). */
TD_EXTERN int td_kbuild_eval_tree(td_kbuild_result_t **out, const td_tree_t *tree, const char *spec,
			const td_source_opts_t *source_opts, const td_kconfig_t *cfg,
			const char *arch, td_error_t *err);

/* The architecture a .config was made for, from its header line
 * ("# Linux/x86_64 6.1.192 Kernel Configuration"): the arch/ directory
 * (static string, e.g. "x86"), or NULL when the text has no such line or
 * names an architecture td_arch_canonical() does not know. */
TD_EXTERN const char *td_kconfig_guess_arch(const char *text, size_t len);

/* Read and parse the .config at path (at most 16 MiB; td_kconfig_parse's
 * rules, errors prefixed with the path); *arch_out (may be NULL) gets
 * td_kconfig_guess_arch() of its text. Caller frees *out with
 * td_kconfig_free(). */
TD_EXTERN int td_kconfig_load_file(td_kconfig_t **out, const char **arch_out, const char *path,
			 td_error_t *err);

typedef struct td_annotate_opts {
	const td_kbuild_result_t *kbuild; /* sets built on every change; NULL: built = -1 */
	const td_policy_t *policy;        /* sets policy_class, weight, risk; NULL: none */
} td_annotate_opts_t;

TD_EXTERN void td_annotate_opts_init(td_annotate_opts_t *o);

/* Annotate every change of r: built from kbuild (the target path, or the
 * upstream one for a removed file), then the policy (td_policy_apply:
 * class, weight, risk = distance * weight, per-class thresholds), then
 * recompute the totals. 0, or TD_EINVAL with err set. */
TD_EXTERN int td_annotate(td_result_t *r, const td_annotate_opts_t *o, td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
