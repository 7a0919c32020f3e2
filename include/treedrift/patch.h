/* Per-patch drift: read a series of patches (a git commit range, a quilt
 * series, a directory of patch files or an mbox), replay it on the base and
 * say, per patch, what it touches, how far it moves each file, where, how
 * much of it survives in the target, and where it declares it came from.
 * Each changed file of a comparison gets the patches that touched it.
 *
 * Patch sources (td_patch_analyze's source):
 *   git:REPO@BASE..TIP   the non-merge commits of BASE..TIP, oldest first
 *   DIR/series, FILE     a quilt series file (any name whose lines name patch
 *                        files beside it; '#' comments, -p0/-p1 options)
 *   DIR                  a directory of *.patch and *.diff files, in name order
 *   FILE.mbox, FILE      an mbox, as git format-patch --stdout writes it
 * A single file is an mbox when it starts with "From ", else a series. */
#ifndef TREEDRIFT_PATCH_H
#define TREEDRIFT_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/policy.h"
#include "treedrift/source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits against hostile input. */
#define TD_PATCH_MAX_BYTES (64u * 1024 * 1024)  /* one patch file, one mbox, one series */
#define TD_PATCH_MAX_COUNT 1000000              /* patches in one source */

/* Where a patch says it comes from. */
typedef enum td_patch_status {
	TD_PATCH_UNKNOWN = 0,    /* no evidence */
	TD_PATCH_UPSTREAM = 1,   /* taken from upstream (cherry-pick, backport, Origin: upstream) */
	TD_PATCH_SUBMITTED = 2,  /* sent upstream, not (yet) taken (FROMLIST:, Forwarded: URL) */
	TD_PATCH_LOCAL = 3       /* the vendor's own (Forwarded: not-needed, ANDROID:, [nrf noup]) */
} td_patch_status_t;

/* "unknown", "upstream", "submitted", "local". */
TD_EXTERN const char *td_patch_status_name(td_patch_status_t s);

typedef struct td_patch_origin {
	td_patch_status_t status;
	char *commit;    /* the upstream commit id the evidence names, or NULL */
	char *evidence;  /* the line it was read from, trimmed, or NULL */
} td_patch_origin_t;

/* Read a patch's declared origin from its subject (may be NULL) and its
 * message text[0..len) (headers and body; need not be NUL-terminated). Pure.
 * The strongest claim wins: upstream, then submitted, then local; the first
 * line of that strength is the evidence. Fills *out (caller releases with
 * td_patch_origin_release). 0 or TD_ENOMEM. */
TD_EXTERN int td_patch_origin_parse(td_patch_origin_t *out, const char *subject, const char *text, size_t len);
TD_EXTERN void td_patch_origin_release(td_patch_origin_t *o);

/* What a commit message says it fixes. */
typedef struct td_commit_tags {
	char **fixes;      /* the ids of its "Fixes: ID" lines, lower case, distinct */
	size_t nfixes;
	int cc_stable;     /* a "Cc:" line to stable@vger.kernel.org or stable@kernel.org */
	char **cves;       /* the CVE ids it names (CVE-YYYY-NNNN...), upper case, distinct,
			    * in order */
	size_t ncves;
	char *reverts;     /* the id of its first "This reverts commit ID" line (git revert's),
			    * lower case; NULL for none */
} td_commit_tags_t;

/* Read the tags of a commit message text[0..len) (subject and body; need
 * not be NUL-terminated; NULL is an empty message). Pure. Fills *out
 * (caller releases with td_commit_tags_release). 0 or TD_ENOMEM. */
TD_EXTERN int td_commit_tags_parse(td_commit_tags_t *out, const char *text, size_t len);
TD_EXTERN void td_commit_tags_release(td_commit_tags_t *t);

/* One file a patch touches. */
typedef struct td_patch_file {
	char *path;
	char status;               /* 'A' added, 'M' modified, 'D' deleted, 'T' type changed */
	int binary;                /* no line counts for it */
	uint64_t lines_added;
	uint64_t lines_removed;
	uint64_t lines_surviving;  /* lines it added that are in the target */
	int distance;              /* before vs after, scored as compare scores files */
	int fallback;              /* 1 when the score did not come from TLSH */
	char *copied_from;         /* added: the path it was scored against, as the tree before
				    * the patch had it: the upstream file compare found it moved or
				    * copied from, a file the patch removed that it renamed, or a
				    * file of its directory that it copied (doc/patches.md); NULL
				    * for none (the added distance) */
	const char *policy_class;  /* borrowed from the policy; NULL without one */
	double weight;             /* policy weight, 1.0 without a policy */
	uint64_t *added_hashes;    /* its added lines that are not trivial, in diff order, as
				    * hashes normalised as git patch-id normalises lines (the
				    * td_line_hash of treedrift/history.h); NULL for none */
	size_t nadded_hashes;
	uint64_t *removed_hashes;  /* the same of its removed lines */
	size_t nremoved_hashes;
} td_patch_file_t;

/* Whether a patch applies to a newer tree (td_patch_opts_t.rebase_spec),
 * after the patches before it that did, as git rebase applies a commit:
 * a three-way merge of each of its files. */
typedef enum td_rebase_status {
	TD_REBASE_NOT_CHECKED = 0,
	TD_REBASE_APPLIES = 1,     /* every file merges */
	TD_REBASE_PRESENT = 2,     /* every file is already as the patch leaves it: the tree has it */
	TD_REBASE_CONFLICT = 3     /* some file does not merge: the patch must be reworked */
} td_rebase_status_t;

#define TD_REBASE_STATUS_COUNT 4

/* Why a file of a patch does not merge there. */
typedef enum td_rebase_why {
	TD_REBASE_LINES = 0,         /* both changed the same lines (rebase_regions of them; 0 for
				      * a binary file, changed on both sides) */
	TD_REBASE_ADDED_BOTH = 1,    /* the patch adds it, and the tree has it, otherwise */
	TD_REBASE_CHANGED_THERE = 2, /* the patch removes it, and the tree changed it */
	TD_REBASE_REMOVED_THERE = 3, /* the patch changes it, and the tree lacks it: removed or moved */
	TD_REBASE_NOT_ADDED = 4      /* the patch changes it, and an earlier patch that adds it
				      * did not apply */
} td_rebase_why_t;

/* "lines", "added_both", "changed_there", "removed_there", "not_added". */
TD_EXTERN const char *td_rebase_why_name(td_rebase_why_t w);

/* "applies", "present", "conflict"; NULL for TD_REBASE_NOT_CHECKED. */
TD_EXTERN const char *td_rebase_status_name(td_rebase_status_t s);

typedef struct td_patch {
	char *id;                  /* commit id, patch file name, or mbox commit id */
	char *subject;
	char *author;              /* "Name <mail>"; may be NULL */
	char *date;                /* as the patch gives it; may be NULL */
	char *message;             /* the description (body), may be NULL */
	td_patch_file_t *files;    /* sorted by path */
	size_t nfiles;
	uint64_t lines_added;
	uint64_t lines_removed;
	uint64_t lines_surviving;
	int distance;              /* sum over its files */
	int fallback;              /* files scored by the fallback */
	td_class_t cls;            /* with the result's thresholds, of the distance of its
				    * files other than new ones (added with no copied_from);
				    * TD_CLASS_NEW when it only adds new files */
	double risk;               /* sum over its files of distance * weight */
	char **classes;            /* policy classes of its files, sorted, distinct */
	size_t nclasses;
	char **top_dirs;           /* first path parts of its files, sorted, distinct;
				    * "." for a file at the top */
	size_t ntop_dirs;
	td_patch_origin_t origin;
	char *patch_id;            /* git's stable patch id (git patch-id --stable, as git
				    * cherry computes it), 40 hex digits; NULL when the
				    * patch changes no file */
	td_rebase_status_t rebase; /* on the set's rebase_onto tree */
	size_t rebase_conflicts;   /* TD_REBASE_CONFLICT: its files that do not merge */
	char *rebase_file;         /* the first of them (path order) */
	td_rebase_why_t rebase_why;/* why it does not merge */
	size_t rebase_regions;     /* TD_REBASE_LINES: its conflicting regions */
} td_patch_t;

/* A changed file (modified, added or removed) of the comparison result. */
typedef struct td_patch_file_ref {
	size_t change;             /* index into the result's changes */
	size_t *patches;           /* indices into td_patch_set_t.patches, in series order */
	size_t npatches;           /* 0: no patch explains this file */
	int reproduced;            /* 1: the series gives the target's content; 0: it does not
				    * (the patches do not account for the file); -1 unknown */
} td_patch_file_ref_t;

typedef struct td_patch_set {
	char *source;              /* the SOURCE as given */
	const char *kind;          /* "git", "series", "dir", "mbox" (static) */
	td_patch_t *patches;       /* in series order */
	size_t count;
	td_patch_file_ref_t *files;/* the changed files of the result, in its order */
	size_t nfiles;
	size_t unexplained;        /* files with npatches 0 */
	size_t not_reproduced;     /* files with reproduced 0 */
	char *rebase_onto;         /* the tree each patch was applied to in turn
				    * (td_patch_opts_t.rebase_spec); NULL: not checked */
	size_t rebase_count[TD_REBASE_STATUS_COUNT]; /* patches of each td_rebase_status_t */
	size_t rebase_moved;       /* files the patches change that rebase_onto moved, and
				    * that they followed there (doc/patches.md) */
} td_patch_set_t;

typedef struct td_patch_opts {
	const char *base_spec;     /* where a series is applied: the upstream tree spec
				    * (a directory, git:REPO@REV or an archive) */
	const char *target_spec;   /* the target's spec, read for surviving lines when the
				    * series does not reproduce a file; may be NULL */
	const td_source_opts_t *source; /* how to open those; may be NULL */
	const td_policy_t *policy; /* may be NULL; borrowed for the set's lifetime */
	int added_distance;        /* score of a wholly new file (td_compare_opts_t's) */
	int tlsh_small_files;      /* 1: small files keep TLSH (td_analysis_opts_t's), as compare scored them */
	double copy_similarity;    /* least line similarity of a file a patch renames with changes
				    * (td_origin_opts_t's; default TD_DEFAULT_COPY_SIMILARITY) */
	const char *rebase_spec;   /* a newer upstream tree (a directory, git:REPO@REV or an
				    * archive): apply each patch to it in turn, after the ones
				    * before it that applied, and set its rebase status; NULL:
				    * not checked */
} td_patch_opts_t;

TD_EXTERN void td_patch_opts_init(td_patch_opts_t *o);

/* Read the patches of source, replay them on opts->base_spec (a git range
 * uses its own commits) and attribute result's changed files to them.
 * Thresholds and len_diff come from result. result is only read, and must
 * outlive nothing: the set copies what it keeps, except policy_class
 * strings, which borrow from opts->policy. A patch that does not apply is
 * TD_EINVAL with the patch, the file and the hunk in err. Caller frees the
 * set with td_patch_set_free(). */
TD_EXTERN int td_patch_analyze(td_patch_set_t **out, const char *source, const td_result_t *result,
			       const td_patch_opts_t *opts, td_error_t *err);
TD_EXTERN void td_patch_set_free(td_patch_set_t *s);

#ifdef __cplusplus
}
#endif
#endif
