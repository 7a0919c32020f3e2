/* What the report writers share; common.c implements it. Not part of the
 * public API. */
#ifndef TD_REPORT_IMPL_H
#define TD_REPORT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "treedrift/patch.h"
#include "treedrift/report.h"
#include "utf8.h"

/* U+2212 MINUS SIGN in UTF-8: "+12 −3" line counts. */
#define TD_MINUS_SIGN "\xe2\x88\x92"

/* Enough for any double printed by td_report_fixed with up to 6 decimals. */
#define TD_REPORT_NUM_MAX 352

/* The files of an upstream fix that the text and HTML list name at most
 * (a treewide commit touches hundreds); "and N more" stands for the rest,
 * which the JSON lists. */
#define TD_REPORT_FIX_FILES 6

/* The file a change is listed by: the target's, or upstream's when removed
 * (never NULL: an empty path for a change with neither side). */
const td_file_t *td_report_change_file(const td_change_t *c);

/* The side whose entry was skipped (the target's first), or the listed file
 * when neither entry is TD_ENTRY_SKIPPED. */
const td_file_t *td_report_skipped_file(const td_change_t *c);

/* The status word a person reads: "cosmetic" for a modified file whose
 * only change is whitespace, else td_status_name's. */
const char *td_report_status_word(const td_change_t *c);

/* 1 when the change has a distance and a class: modified or added. */
int td_report_is_scored(const td_change_t *c);

/* What scored a scored change: "tlsh", "fallback" (the sketches) or "lines"
 * (a small file's line diff); NULL when unscored. */
const char *td_report_scored_by(const td_change_t *c);

/* The similarity of a copied or moved file with its origin, two decimals
 * ("0.87"), or "" when it was not measured. Returns out. */
const char *td_report_similarity(char out[TD_REPORT_NUM_MAX], const td_change_t *c);

/* 1 when a path policy was applied: some change has a policy_class. */
int td_report_has_policy(const td_result_t *r);

/* 1 when the result knows what a kernel config builds: some built != -1. */
int td_report_has_build_info(const td_result_t *r);

/* x with exactly `decimals` digits after a '.', as "%.*f" prints it in the C
 * locale whatever the current locale is; "-0.0" is printed "0.0". Non-finite
 * values give "nan", "inf" or "-inf". */
void td_report_fixed(char out[TD_REPORT_NUM_MAX], double x, int decimals);

/* x with up to max_decimals digits after the '.', trailing zeros dropped but
 * one kept ("2.0", "0.25"): td_report_fixed's rules otherwise. */
void td_report_trimmed(char out[TD_REPORT_NUM_MAX], double x, int max_decimals);

/* Sort indices into r->changes in the given order (ties: path, byte order).
 * Returns 0 or TD_ENOMEM (then idx is left as it was). */
int td_report_sort(size_t *idx, size_t n, const td_result_t *r, td_sort_t sort);

/* s escaped for HTML and XML text and attribute values: C escapes for
 * controls, bidirectional formatting characters, backslash and bytes that are
 * not well-formed UTF-8 (as the text report), then & < > " ' as entities. */
void td_report_html_text(FILE *f, const char *s, size_t len);

/* The line counts of the totals' modified files, as the reports word them:
 * "+A" minus "R" (minus is the writer's sign: an entity in HTML), then
 * between (" in modified files", or ""), then ", B binary" and ", M without
 * line counts" when there are any. */
void td_report_line_totals(FILE *f, const td_totals_t *t, const char *minus, const char *between);

/* The cosmetic files of the totals: "N modified files whose only change is
 * whitespace (distance 0, clean)" and "; U unknown" when there are any. */
void td_report_cosmetic_totals(FILE *f, const td_totals_t *t);

/* What an upstream commit's message says it fixes, for a column: "Fixes",
 * "stable" and its CVE ids (digits and dashes, as the parser takes them),
 * comma-separated, or "-". */
void td_report_fix_tags(char *out, size_t size, const td_commit_tags_t *t);

struct td_upstream_fix;
/* The files of a listed upstream fix (it has one at least), the first
 * TD_REPORT_FIX_FILES comma-separated, each written by put (the format's
 * escaping), then "and N more". */
void td_report_fix_files(FILE *f, const struct td_upstream_fix *x, void (*put)(FILE *, const char *));
/* The later commits that fix x (fixed_by), the first TD_REPORT_FIX_FILES
 * comma-separated, each written by put, then "and N more". */
void td_report_fixed_by(FILE *f, const struct td_upstream_fix *x, void (*put)(FILE *, const char *));

struct td_patch_upstream;
/* A patch's origin as the history verified it: "cherry-pick of ID",
 * "backport (modified) of ID, 97% of its lines" or "local", then whether
 * the declared origin holds; the commit id written by put. */
void td_report_patch_verified(FILE *f, const struct td_patch_upstream *u, void (*put)(FILE *, const char *));
/* With a rebase check: "150 apply, 12 already there, 6 conflict (3 files
 * followed to where they were moved)". */
void td_report_rebase_counts(FILE *f, const struct td_patch_set *s);
/* A rebase status for people: "applies", "already there", "conflict"; ""
 * when not checked. */
const char *td_report_rebase_word(td_rebase_status_t s);
/* Where a patch in conflict conflicts and why: "PATH: 2 conflicting
 * regions; 1 more file", the path written by put. */
void td_report_rebase_conflict(FILE *f, const td_patch_t *p, void (*put)(FILE *, const char *));
struct td_upstream;
/* The patches counted by their upstream match: "cherry-picks 83, modified
 * backports 34, local 785; declared origins checked 59: 55 hold, 4 do not". */
void td_report_patch_matches(FILE *f, const struct td_upstream *u);

/* End a report: flush f and map any write error to TD_EIO (errno is kept). */
int td_report_finish(FILE *f);

/* The patches of s, riskiest first (then by distance, then in series
 * order): *out gets their indices, caller frees. 0 or TD_ENOMEM. */
struct td_patch_set;
int td_report_patch_order(size_t **out, const struct td_patch_set *s);

/* For each change of r, the index + 1 of its entry in s->files, 0 when it
 * has none: *out gets r->count of them, caller frees. 0 or TD_ENOMEM. */
int td_report_patch_refs(size_t **out, const struct td_patch_set *s, const td_result_t *r);

#endif
