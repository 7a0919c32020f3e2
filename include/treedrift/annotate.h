/* Kernel awareness around td_compare: the stages that take a kernel tree's
 * architecture, configuration and path policy into account.
 *
 * Before td_compare, on the loaded trees (like --exclude, what they drop is
 * neither counted nor listed):
 *   td_tree_drop_arch()       --arch: files under arch/<other>/ (treedrift/tree.h)
 *   td_tree_drop_not_built()  --built-only: .c/.S/.rs files the config does not build
 * After td_compare, on the result:
 *   td_annotate()             built, policy_class, weight, risk (and the
 *                             policy's per-class thresholds), then totals
 * td_kbuild_eval_tree() (treedrift/kbuild.h) evaluates the Kbuild files of a
 * loaded tree. td_analyze (treedrift/analysis.h) runs them all in order.
 * doc/kbuild.md and doc/policy.md describe the rules. */
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

/* The built value of td_change_t for a path: TD_KBUILD_BUILT,
 * TD_KBUILD_NOT_BUILT or TD_KBUILD_SUPPORT. As td_kbuild_is_built(), and
 * also built when the path is a source not in the evaluated tree (a file the
 * target removed) whose object the tree's Kbuild files still build:
 * "d/x.c" when "d/x.o" is among td_kbuild_object(). */
TD_EXTERN int td_annotate_built(const td_kbuild_result_t *kb, const char *path, size_t len);

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
