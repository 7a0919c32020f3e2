/* Match and classify: pair the files of an upstream tree and a target tree
 * and score each changed one. The result is what every report formats. */
#ifndef TREEDRIFT_COMPARE_H
#define TREEDRIFT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/glob.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum td_status {
	TD_STATUS_IDENTICAL = 0, /* same SHA-256 (or git blob id, or symlink target) */
	TD_STATUS_MODIFIED = 1,  /* same path, other content */
	TD_STATUS_ADDED = 2,     /* only in the target */
	TD_STATUS_REMOVED = 3,   /* only upstream */
	TD_STATUS_SKIPPED = 4    /* not comparable: a special file, unreadable, ... */
} td_status_t;

/* Classes of a scored file. clean, safe and dirty grade a change to an
 * upstream file by its distance; new is an added file with no upstream
 * origin (moved or copied files are graded as changes): new code, such as a
 * driver for new hardware, which the drift total counts but which is not a
 * change to upstream's code. */
typedef enum td_class {
	TD_CLASS_NONE = 0,  /* identical, removed or skipped */
	TD_CLASS_CLEAN = 1,
	TD_CLASS_SAFE = 2,
	TD_CLASS_DIRTY = 3,
	TD_CLASS_NEW = 4
} td_class_t;

#define TD_CLASS_COUNT 5

/* Class boundaries: clean when distance < clean_below, dirty when distance >
 * dirty_above, safe otherwise (clean_below <= distance <= dirty_above). */
typedef struct td_thresholds {
	int clean_below;  /* default 60 */
	int dirty_above;  /* default 150 */
} td_thresholds_t;

#define TD_DEFAULT_CLEAN_BELOW 60
#define TD_DEFAULT_DIRTY_ABOVE 150
/* Score of a wholly new file: the distance of a file from nothing. */
#define TD_DEFAULT_ADDED_DISTANCE 300

TD_EXTERN td_class_t td_classify(int distance, const td_thresholds_t *t);
TD_EXTERN const char *td_status_name(td_status_t s); /* "identical", "modified", ... */
TD_EXTERN const char *td_class_name(td_class_t c);   /* "clean", "safe", "dirty", "new"; NULL for NONE */
/* Parse "clean"/"safe"/"dirty"/"new"; returns TD_CLASS_NONE for anything else. */
TD_EXTERN td_class_t td_class_parse(const char *name);

/* Whether a kernel configuration builds a file (td_annotate). The values
 * are those of td_kbuild_is_built(). */
typedef enum td_built {
	TD_BUILT_UNKNOWN = -1, /* no configuration was evaluated */
	TD_BUILT_NO = 0,       /* a .c, .S or .rs file the configuration does not compile */
	TD_BUILT_YES = 1,      /* a .c, .S or .rs file it compiles */
	TD_BUILT_SUPPORT = 2   /* any other file: headers, Makefiles, Kconfig, ... */
} td_built_t;

/* How a changed file relates to another version of a multi-version
 * upstream database (td_origin_versions). */
typedef enum td_version_match {
	TD_VERSION_MATCH_NONE = 0,
	TD_VERSION_MATCH_BACKPORT = 1, /* equal to a newer version's file: an upstream change taken early */
	TD_VERSION_MATCH_ROLLBACK = 2  /* equal to an older version's file: upstream changes undone */
} td_version_match_t;

/* "backport", "rollback"; NULL for NONE. */
TD_EXTERN const char *td_version_match_name(td_version_match_t m);

/* How the upstream side of an added or modified file was found. */
typedef enum td_origin_kind {
	TD_ORIGIN_NONE = 0,
	TD_ORIGIN_SAME_PATH = 1, /* the usual case: upstream has the path */
	TD_ORIGIN_MOVED = 2,     /* identical content at another upstream path */
	TD_ORIGIN_COPIED = 3     /* nearest upstream file within the copy threshold */
} td_origin_kind_t;

/* Line counts of a modified file: what td_lines_count (treedrift/lines.h)
 * found. */
typedef enum td_lines_state {
	TD_LINES_NONE = 0,     /* not counted: not a modified file or symlink, or not asked for */
	TD_LINES_COUNTED = 1,  /* lines_added and lines_removed are git diff --numstat's */
	TD_LINES_BINARY = 2,   /* git takes the file for binary: no line counts */
	TD_LINES_MISSING = 3   /* a side's content could not be read: lines_missing says why */
} td_lines_state_t;

/* Whether a modified file's only change is whitespace (doc/formats.md,
 * "Cosmetic changes"): its whitespace-normalised SHA-256s are equal. */
typedef enum td_cosmetic {
	TD_COSMETIC_NONE = 0,    /* not a modified regular file */
	TD_COSMETIC_NO = 1,      /* a change beyond whitespace */
	TD_COSMETIC_YES = 2,     /* whitespace only: distance 0, class clean */
	TD_COSMETIC_UNKNOWN = 3  /* a side has no normalised digest (a schema 1 database) and its
				  * content could not be read */
} td_cosmetic_t;

/* "no", "yes", "unknown"; NULL for NONE. */
TD_EXTERN const char *td_cosmetic_name(td_cosmetic_t c);

/* One path of the comparison. The file pointers borrow from the result's trees. */
typedef struct td_change {
	const td_file_t *upstream;  /* NULL when added */
	const td_file_t *target;    /* NULL when removed */
	td_status_t status;
	int distance;               /* modified/added: the score; else 0 */
	int fallback;               /* 1 when the score did not come from TLSH */
	td_class_t cls;
	td_origin_kind_t origin_kind;
	const td_file_t *origin;    /* moved/copied: the upstream file it came from */
	const char *matches_version;/* equal to this upstream version's file (multi-version DB) */
	td_version_match_t version_match; /* newer (backport) or older (rollback) than the base */
	td_built_t built;           /* with a kernel config; else TD_BUILT_UNKNOWN */
	const char *policy_class;   /* from the path policy; NULL without one */
	double weight;              /* policy weight, 1.0 without a policy */
	double risk;                /* distance * weight */
	td_lines_state_t lines;     /* line counts: TD_LINES_NONE until td_lines_count */
	uint64_t lines_added;       /* TD_LINES_COUNTED: lines only in the target */
	uint64_t lines_removed;     /* TD_LINES_COUNTED: lines only upstream */
	const char *lines_missing;  /* TD_LINES_MISSING: why (static, or kept by the result) */
	td_cosmetic_t cosmetic;     /* modified regular files: whitespace only or not */
	int has_similarity;         /* 1: similarity was measured (a verified copy, or moved) */
	double similarity;          /* copied/moved: line similarity with the origin, 0..1
				     * (treedrift/origin.h); 1 for moved */
	int scored_by_lines;        /* 1: a small file scored from its line diff
				     * (td_lines_score_small), not by TLSH */
} td_change_t;

typedef struct td_class_totals {
	uint64_t files;
	uint64_t distance;
} td_class_totals_t;

/* Changed files of one build status (td_change_t.built). */
typedef struct td_build_totals {
	uint64_t files;               /* modified, added or removed */
	uint64_t distance;            /* sum over the modified and added ones */
	double risk;
} td_build_totals_t;

typedef struct td_totals {
	uint64_t identical;
	uint64_t modified;
	uint64_t added;
	uint64_t removed;
	uint64_t skipped;
	uint64_t mismatched;          /* modified + added + removed */
	uint64_t added_bytes;
	uint64_t removed_bytes;
	uint64_t modified_distance;   /* sum over modified files */
	uint64_t added_distance;      /* sum over added files */
	uint64_t total_distance;      /* modified + added (removed files score nothing) */
	uint64_t fallback_scored;     /* files scored by the fallback */
	double total_risk;
	td_class_totals_t by_class[TD_CLASS_COUNT]; /* indexed by td_class_t */
	td_build_totals_t by_built[3];/* indexed by td_built_t (NO, YES, SUPPORT); all 0
				       * without a kernel config */
	uint64_t lines_added;         /* sums over the files with TD_LINES_COUNTED */
	uint64_t lines_removed;
	uint64_t lines_binary;        /* files with TD_LINES_BINARY */
	uint64_t lines_missing;       /* files with TD_LINES_MISSING */
	uint64_t cosmetic;            /* modified files whose only change is whitespace (counted
				       * in modified and clean, with distance 0) */
	uint64_t cosmetic_unknown;    /* modified files not known to be cosmetic or not */
	uint64_t lines_scored;        /* small files scored from their line diff */
} td_totals_t;

typedef struct td_compare_opts {
	td_thresholds_t thresholds;
	int len_diff;                 /* 1: TLSH distance with the length term (default) */
	int added_distance;           /* score of a wholly new file */
	const char *const *include;   /* NULL-terminated globs; NULL = everything */
	const char *const *exclude;   /* NULL-terminated globs */
} td_compare_opts_t;

TD_EXTERN void td_compare_opts_init(td_compare_opts_t *o);

typedef struct td_result {
	td_tree_t *upstream;          /* owned */
	td_tree_t *target;            /* owned */
	td_change_t *changes;         /* every path of either tree, sorted by path */
	size_t count;
	td_totals_t totals;
	td_thresholds_t thresholds;
	int len_diff;
	char *base_version;           /* label of the upstream version compared against */
	int lines_counted;            /* 1 once td_lines_count filled the line counts */
	const char *lines_missing;    /* why a whole side's content cannot be read, once for
				       * the report; NULL when both can (kept by the result) */
	const char *copies_unverified;/* why copies were judged by TLSH alone (content that
				       * cannot be read); NULL when verified (kept by the result) */
	const char *small_unscored;   /* why small files kept their TLSH score; NULL when
				       * scored from lines (kept by the result) */
} td_result_t;

/* Compare target against upstream. Takes ownership of both trees (also on
 * failure). Caller frees the result with td_result_free(). */
TD_EXTERN int td_compare(td_result_t **out, td_tree_t *upstream, td_tree_t *target,
	       const td_compare_opts_t *opts, td_error_t *err);
TD_EXTERN void td_result_free(td_result_t *r);
/* Recompute totals after a later stage changed scores or classes. */
TD_EXTERN void td_result_update_totals(td_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
