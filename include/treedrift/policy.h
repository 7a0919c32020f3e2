/* Path policy: maps path globs to a class ("core", "driver", "docs", ...),
 * a weight, and optional per-class thresholds. A result's risk is its
 * distance times the weight of its path's class. The format and the built-in
 * Linux policy are documented in doc/policy.md.
 *
 * Lookup: the rule with the longest pattern that matches the path wins; ties
 * go to the rule that comes first in the file. A path no rule matches is of
 * class "other", weight 1.0, unless the policy gives "other" its own section. */
#ifndef TREEDRIFT_POLICY_H
#define TREEDRIFT_POLICY_H

#include <stddef.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TD_POLICY_MAX_BYTES (1024 * 1024) /* a policy's text */
#define TD_POLICY_MAX_RULES 10000         /* patterns, over all classes */
#define TD_POLICY_MAX_CLASSES 1000
#define TD_POLICY_MAX_PATTERN 4096        /* bytes in one pattern */
#define TD_POLICY_MAX_WEIGHT 1000
#define TD_POLICY_MAX_THRESHOLD 1000000
#define TD_POLICY_OTHER "other"           /* the class of unmatched paths */

typedef struct td_policy td_policy_t;

/* Which thresholds a class sets (td_policy_match_t.has_thresholds). */
#define TD_POLICY_HAS_CLEAN_BELOW 1u
#define TD_POLICY_HAS_DIRTY_ABOVE 2u

/* What a policy says about one path, or about one class. */
typedef struct td_policy_match {
	const char *class_name;   /* borrowed from the policy */
	double weight;
	unsigned has_thresholds;  /* TD_POLICY_HAS_* bits; 0 = the result's own */
	td_thresholds_t thresholds; /* the fields set; the others hold the defaults */
	const char *pattern;      /* the rule that matched, borrowed; NULL if none */
	unsigned line;            /* its line in the policy text; 0 if none */
} td_policy_match_t;

/* Parse a policy from text[0..len) (need not be NUL-terminated). Pure: no I/O.
 * name_for_errors prefixes error messages ("NAME:LINE: ..."). On failure
 * *out is NULL: TD_EINVAL for malformed text, TD_ENOMEM for a size limit or
 * exhaustion. Caller frees with td_policy_free(). */
TD_EXTERN int td_policy_parse(td_policy_t **out, const char *text, size_t len, const char *name_for_errors,
		    td_error_t *err);

/* Read and parse a policy file (at most TD_POLICY_MAX_BYTES). */
TD_EXTERN int td_policy_load_file(td_policy_t **out, const char *path, td_error_t *err);

/* The built-in policy for a Linux kernel source tree (doc/policy-linux.policy). */
TD_EXTERN int td_policy_default_linux(td_policy_t **out, td_error_t *err);
/* Its text, NUL-terminated, static; *len (if not NULL) gets its length. */
TD_EXTERN const char *td_policy_default_linux_text(size_t *len);

TD_EXTERN void td_policy_free(td_policy_t *p);

/* The [policy] name; NULL when the text gives none. Borrowed. */
TD_EXTERN const char *td_policy_name(const td_policy_t *p);

/* Classify one path: fills *out (strings borrowed from p). 0 or TD_EINVAL. */
TD_EXTERN int td_policy_lookup(td_policy_match_t *out, const td_policy_t *p, const char *path, size_t len);

/* The classes in file order, for listings: td_policy_class_at fills *out
 * (pattern NULL, line the section's line) for i < td_policy_class_count(p). */
TD_EXTERN size_t td_policy_class_count(const td_policy_t *p);
TD_EXTERN int td_policy_class_at(td_policy_match_t *out, const td_policy_t *p, size_t i);

/* The thresholds for a match: the class's own where it sets them, base's
 * fields where it does not. */
TD_EXTERN void td_policy_thresholds(td_thresholds_t *out, const td_policy_match_t *m, const td_thresholds_t *base);

/* Apply p to every change of r: policy_class, weight, risk = distance *
 * weight; a modified or added file of a class with its own thresholds is
 * classified again with them (td_policy_thresholds over r->thresholds). Then
 * recomputes r's totals. 0 or TD_EINVAL. */
TD_EXTERN int td_policy_apply(const td_policy_t *p, td_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
