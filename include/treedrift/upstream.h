/* Vendor patches matched to the upstream commits of a history, and the
 * upstream fixes a target lacks (doc/upstream.md).
 *
 * Patches: a patch is a `cherry-pick` of an upstream commit when their patch
 * ids (git's, as git cherry computes them) are equal; a `backport
 * (modified)` when more than half of its changed lines (normalised as git
 * patch-id does, trivial lines left out) are lines one upstream commit
 * changed the same way in the same files. A declared origin ("cherry picked
 * from commit X") is checked: X must be in the history, and the patch must
 * be X's patch, or a backport of it.
 *
 * Fixes: every upstream commit of the history that touches a file the base
 * or the target has gets a status, decided from the target's content, so
 * that a tree without history is judged the same way: the lines it adds
 * must be in the target's file more often than in the base's, the lines it
 * removes less often. All of them: `applied`; some: `partial`; none:
 * `missing`; no such file in the target (removed) or not built by the
 * configuration: `not applicable`. A commit a patch took (cherry-pick or
 * backport) is `applied`, whatever the content says. A commit that a later
 * one reverts ("This reverts commit ID"), where the target has neither, is
 * `not applicable`, and so is that revert: upstream undid it. A fix whose
 * Fixes: lines all name commits of the history that the target lacks is
 * `not applicable` too: the bug came with them. */
#ifndef TREEDRIFT_UPSTREAM_H
#define TREEDRIFT_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/history.h"
#include "treedrift/patch.h"
#include "treedrift/source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Share of a patch's lines above which it is a backport of a commit. */
#define TD_UPSTREAM_BACKPORT_SHARE 0.5

typedef enum td_upstream_kind {
	TD_UPSTREAM_NONE = 0,        /* no upstream commit matches: the vendor's own */
	TD_UPSTREAM_CHERRY_PICK = 1, /* same patch id */
	TD_UPSTREAM_BACKPORT = 2     /* most of its lines are one commit's */
} td_upstream_kind_t;

/* "local", "cherry-pick", "backport (modified)". */
TD_EXTERN const char *td_upstream_kind_name(td_upstream_kind_t k);

/* A declared origin checked against the history. */
typedef enum td_claim {
	TD_CLAIM_NONE = 0,      /* the patch names no upstream commit */
	TD_CLAIM_HOLDS = 1,     /* the commit is in the history and the patch is it or a backport of it */
	TD_CLAIM_DIFFERS = 2,   /* the commit is in the history, the patch is not it */
	TD_CLAIM_NOT_FOUND = 3  /* no commit of the history has that id */
} td_claim_t;

/* "none", "holds", "differs", "not in history". */
TD_EXTERN const char *td_claim_name(td_claim_t c);

/* One patch's upstream match. */
typedef struct td_patch_upstream {
	td_upstream_kind_t kind;
	char commit[TD_HISTORY_ID_HEX]; /* the matched upstream commit; "" for none */
	char *subject;                  /* its subject; NULL for none */
	double share;                   /* share of the patch's lines found in it (1 for a
					 * cherry-pick) */
	td_claim_t claim;
	char claim_commit[TD_HISTORY_ID_HEX]; /* the declared commit's full id when found, else "" */
	double claim_share;             /* share of the patch's lines found in the declared commit */
	int fix;                        /* the matched commit carries Fixes:, Cc: stable or a CVE id */
	td_commit_tags_t tags;          /* the matched commit's tags */
} td_patch_upstream_t;

typedef enum td_fix_status {
	TD_FIX_MISSING = 0,
	TD_FIX_PARTIAL = 1,
	TD_FIX_NOT_APPLICABLE = 2,
	TD_FIX_APPLIED = 3
} td_fix_status_t;

/* "missing", "partial", "not applicable", "applied". */
TD_EXTERN const char *td_fix_status_name(td_fix_status_t s);

/* Of the commits counted by status in count (a td_upstream_t's
 * status_count, fix_count or cve_count), those the target lacks: missing
 * or partial. */
TD_EXTERN size_t td_fix_lacking(const size_t count[4]);

/* One upstream commit and whether the target has its changes. */
typedef struct td_upstream_fix {
	char id[TD_HISTORY_ID_HEX];
	char *subject;
	char **files;            /* the paths it touches that the base or the target has */
	size_t nfiles;
	td_fix_status_t status;
	const char *why;         /* static: "cherry-pick", "backport", "content", "file removed",
				  * "not built", "reverted", "revert", "fixed commit missing",
				  * "superseded" */
	char *patch;             /* the patch that took it (cherry-pick, backport); else NULL */
	char reverted_by[TD_HISTORY_ID_HEX]; /* "reverted": the later commit of the history that
				  * reverts it; else "" */
	char **fixed_by;         /* the later commits of the history whose Fixes: lines name it,
				  * in history order: to take with it */
	size_t nfixed_by;
	int built;               /* 1: touches a file the configuration compiles; 0: none;
				  * -1: no configuration */
	int fix;                 /* carries Fixes:, Cc: stable or a CVE id */
	td_commit_tags_t tags;
	uint64_t lines;          /* its deciding lines in the files the target changes */
	uint64_t lines_in_target;/* of them, those the target's content has */
	size_t files_as_in_base; /* of files, those the target has as in the base: they have
				  * none of its changes, and their lines are not counted */
} td_upstream_fix_t;

typedef struct td_upstream {
	td_patch_upstream_t *patches;  /* one per patch of the set, in its order; NULL without one */
	size_t npatches;
	size_t cherry_picks, backports;/* patches matched */
	size_t claims, claims_hold;    /* patches naming an upstream commit, and those that hold */
	td_upstream_fix_t *fixes;      /* missing and partial first, then not applicable and
				        * applied; in each, built first, then those naming a CVE,
				        * then for stable, then with a Fixes: line, then the
				        * others; then by status, then in history order */
	size_t nfixes;
	size_t status_count[4];        /* by td_fix_status_t */
	size_t fix_count[4];           /* of them, the fixes (fix set) */
	size_t cve_count[4];           /* of them, those naming a CVE id */
} td_upstream_t;

typedef struct td_upstream_opts {
	const char *target_spec;          /* the target tree spec, read for its changed files */
	const td_source_opts_t *source;   /* how to open it; may be NULL */
	int config;                       /* 1: the result's built marks come from a configuration */
	const struct td_provenance *provenance; /* the lines of each file's diff the history made
					   * (treedrift/provenance.h), for commits that only move
					   * lines; may be NULL */
} td_upstream_opts_t;

TD_EXTERN void td_upstream_opts_init(td_upstream_opts_t *o);

/* Match the patches of set (may be NULL) to the commits of h and give each
 * commit of h its status in result's target. The base files are read from
 * h's repository at h->base. h is only read (its lines must have been
 * loaded for the result's changed files and the patches' files). Caller
 * frees *out with td_upstream_free(). */
TD_EXTERN int td_upstream_analyze(td_upstream_t **out, const td_history_t *h, const td_result_t *result,
				  const td_patch_set_t *set, const td_upstream_opts_t *opts, td_error_t *err);
TD_EXTERN void td_upstream_free(td_upstream_t *u);

#ifdef __cplusplus
}
#endif
#endif
