/* The whole analysis of a target tree against upstream, in one call: the
 * entry point a program that embeds libtreedrift uses, and the one that
 * `treedrift compare`, `trend` and `base` go through, so that they agree.
 *
 * The stages run in this order, each on what the one before produced:
 *   load      both trees (td_load_pair_db); with upstream_label "auto", the
 *             version td_base_rank ranks first
 *   kernel    the policy (built-in Linux one for a Linux target), the .config's
 *             Kbuild evaluation, --arch and --built-only filters
 *   compare   pair and score the files (td_compare)
 *   origins   other versions of a multi-version database, the line scores
 *             of small files, then moves and copies, verified by line
 *             similarity (td_origin_versions, td_lines_score_small,
 *             td_origin_find): they change scores, so they come before the
 *             policy's risk
 *   lines     with lines set: the line counts of the modified files (td_lines_count)
 *   provenance with opts.history: the upstream history from the base commit,
 *             each changed line upstream or local (td_provenance_compute);
 *             with classify_local, classes from the local distance
 *   annotate  build status, policy class, weight and risk (td_annotate)
 *   summarise rollups, the dirty core files, origin counts
 *   patches   with opts.patches: per-patch drift and the patches of each
 *             changed file (td_patch_analyze)
 *   upstream  with opts.history: patches matched to upstream commits, the
 *             missing upstream fixes (td_upstream_analyze)
 * The result owns everything a report needs; the reports (treedrift/report.h)
 * only format it. */
#ifndef TREEDRIFT_ANALYSIS_H
#define TREEDRIFT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/annotate.h"
#include "treedrift/base.h"
#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"
#include "treedrift/patch.h"
#include "treedrift/provenance.h"
#include "treedrift/rollup.h"
#include "treedrift/upstream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* td_analysis_opts_t.policy: the built-in Linux policy. */
#define TD_POLICY_BUILTIN_LINUX "builtin:linux"

/* upstream_label (in load) that asks for base detection. */
#define TD_BASE_AUTO "auto"

/* Policy weight above which a dirty file is core (with the built-in Linux
 * policy: core, arch, fs and net). */
#define TD_CORE_WEIGHT 1.0

/* What to analyse and how. Strings are borrowed for the call (for an
 * analyzer: for its life). */
typedef struct td_analysis_opts {
	const char *upstream;         /* tree spec: database, directory, git:REPO@REV or archive */
	const char *target;           /* tree spec (td_analyzer_run may name another) */
	td_load_opts_t load;          /* labels (upstream_label TD_BASE_AUTO: detect the base),
				       * source and scan options, progress callback; the analysis
				       * sets load.upstream_full from the origin options */
	td_compare_opts_t compare;    /* thresholds, length term, added distance, include/exclude */
	int origins;                  /* 1 (default): moves and copies; 0: none (upstream read
				       * only where needed) */
	td_origin_opts_t origin;      /* copy threshold, find_copies */
	const char *arch;             /* leave out arch/ of other architectures; NULL: none */
	const char *config;           /* a kernel .config: mark what it builds; NULL: none */
	int built_only;               /* with config: leave out the sources it does not build */
	const char *policy;           /* policy file, or TD_POLICY_BUILTIN_LINUX; NULL: the built-in
				       * Linux policy for a Linux target, none otherwise */
	int no_policy;                /* 1: no policy at all */
	const char *maintainers;      /* MAINTAINERS file: roll up per subsystem; NULL: none */
	unsigned by_dir;              /* roll up per directory this deep; 0: no */
	int by_class;                 /* 1: roll up per policy class */
	const char *patches;          /* per-patch drift (treedrift/patch.h): git:REPO@BASE..TIP,
				       * a quilt series, a folder of patches or an mbox; a series
				       * applies to upstream; NULL: none */
	const char *rebase_onto;      /* with patches: a newer upstream tree (a directory,
				       * git:REPO@REV or an archive) each patch is applied to in
				       * turn (td_patch_opts_t.rebase_spec); NULL: none */
	int lines;                    /* 1: count the lines of modified files (reads both sides
				       * again; treedrift/lines.h); 0 (default): not counted */
	/* upstream provenance (treedrift/history.h, treedrift/provenance.h) */
	const char *history;          /* git:REPO[@TIP...]: split each changed line into upstream
				       * and local; NULL: none */
	const char *base_commit;      /* the base commit in history; NULL: the upstream operand's
				       * commit (a git revision, or a database version scanned
				       * from git) */
	int classify_local;           /* 1: classes (and --fail-on) from the local distance */
	int tlsh_small_files;         /* 1: small modified files keep their TLSH score; 0 (default):
				       * scored from their line diff (td_lines_score_small) */
} td_analysis_opts_t;

TD_EXTERN void td_analysis_opts_init(td_analysis_opts_t *o);

/* The wall time of each stage of one analysis, in seconds (a monotonic
 * clock), as `compare --stats` prints it; 0 for a stage that did not run. */
typedef struct td_stage_times {
	double load;       /* both trees: a database read, the sources listed and digested (with
			    * base "auto", each version ranked), and the Kbuild files --config
			    * reads */
	double compare;    /* file by file, with the line scores of small files */
	double origins;    /* moves and copies: the TLSH search and the verification */
	double annotate;   /* --arch, --config and the policy's classes */
	double lines;      /* the line counts of modified files */
	double provenance; /* --history: each changed line's origin */
	double summary;    /* totals and roll-ups */
	double patches;    /* --patches: per-patch drift */
	double upstream;   /* --history: patches matched to upstream, missing fixes */
} td_stage_times_t;

/* One finished analysis. Everything is owned by it and freed with
 * td_analysis_free(); indices point into result->changes. */
typedef struct td_analysis {
	td_result_t *result;              /* the changes and their totals */
	td_scan_stats_t stats;            /* files listed, read, reused */
	td_origin_counts_t origin_counts; /* changes marked moved, copied, matching a version */
	td_origin_stats_t origin_stats;   /* what the search for moves and copies did (zeros
					   * when it did not run) */
	const td_annotate_info_t *kernel; /* what --arch, --config and the policy did; NULL when
					   * none of them ran */
	unsigned by_dir;                  /* depth of dir_rollup */
	td_rollup_t *dir_rollup;          /* asked for with by_dir; else NULL */
	td_rollup_t *class_rollup;        /* asked for with by_class; else NULL */
	td_rollup_t *subsystem_rollup;    /* asked for with maintainers; else NULL */
	td_rollup_t *policy_rollup;       /* per policy class whenever a policy applied; else NULL */
	td_rollup_t *map_top;             /* per top-level directory (depth 1) */
	td_rollup_t *map_sub;             /* per directory at depth 2 */
	size_t *dirty_core;               /* dirty files weighted above TD_CORE_WEIGHT that the
					   * config does not leave out, by risk (highest first) */
	size_t dirty_core_count;
	td_base_result_t *base;           /* base detection's ranking (upstream_label "auto");
					   * else NULL */
	td_patch_set_t *patches;          /* with opts.patches: the patches and the changed files'
					   * patches; else NULL */
	char **warnings;                  /* what the caller should show the user, in order */
	size_t warning_count;
	td_provenance_t *provenance;      /* with opts.history: the line provenance and the
					   * history it holds; else NULL */
	int classify_local;               /* classes come from the local distance */
	td_upstream_t *upstream;          /* with opts.history: the patches matched to upstream
					   * commits and the missing upstream fixes; else NULL */
	td_stage_times_t times;           /* how long each stage took */
} td_analysis_t;

TD_EXTERN void td_analysis_free(td_analysis_t *a);

/* Analyse o->target against o->upstream. Caller frees *out with
 * td_analysis_free(). */
TD_EXTERN int td_analyze(td_analysis_t **out, const td_analysis_opts_t *o, td_error_t *err);

/* An analyzer runs the same analysis on many targets: it checks the options
 * and reads the files they name (.config, policy, MAINTAINERS) once, and
 * keeps an upstream database open between runs. Caller frees with
 * td_analyzer_free(); o is borrowed for its life. */
typedef struct td_analyzer td_analyzer_t;

TD_EXTERN int td_analyzer_new(td_analyzer_t **out, const td_analysis_opts_t *o, td_error_t *err);
TD_EXTERN void td_analyzer_free(td_analyzer_t *a);

/* Analyse target (NULL: the options' target) against the upstream. Caller
 * frees *out with td_analysis_free(). */
TD_EXTERN int td_analyzer_run(td_analysis_t **out, td_analyzer_t *a, const char *target, td_error_t *err);

/* Rank the versions of the upstream database for target (NULL: the
 * options' target), scoring the leading ones with this analysis (copies and
 * other versions included), so that a version's distance is the total
 * distance compare reports against it. *target_out (may be NULL) gets the
 * loaded target tree, which the caller frees with td_tree_free(). Caller
 * frees *out with td_base_result_free(). */
TD_EXTERN int td_analyzer_rank_base(td_base_result_t **out, td_tree_t **target_out, td_analyzer_t *a,
				    const char *target, const td_base_opts_t *bo, td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
