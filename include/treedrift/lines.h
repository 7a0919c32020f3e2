/* Line counts of the modified files of a comparison, as `git diff --numstat`
 * gives them: both sides' content is read again where it can be (a
 * directory, a git revision, an archive, or a database version scanned from
 * git whose repository is still there, by the blob ids it keeps, or from a
 * directory whose files are as the scan found them) and diffed with libgit2
 * and git's default algorithm. */
#ifndef TREEDRIFT_LINES_H
#define TREEDRIFT_LINES_H

#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/digest.h"
#include "treedrift/source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A side of a file larger than this is not read: its counts are missing. */
#define TD_LINES_DEFAULT_MAX_FILE_BYTES (64u << 20)
/* Archive content held at once while its files are diffed. */
#define TD_LINES_DEFAULT_HELD_BYTES (256u << 20)

typedef struct td_lines_opts {
	unsigned jobs;             /* threads; 0 = online CPUs */
	td_source_opts_t source;   /* as the trees were loaded: an archive side is read
				    * again with its strip_components and no_auto_strip */
	uint64_t max_file_bytes;   /* 0 = TD_LINES_DEFAULT_MAX_FILE_BYTES */
	uint64_t held_bytes;       /* 0 = TD_LINES_DEFAULT_HELD_BYTES */
} td_lines_opts_t;

TD_EXTERN void td_lines_opts_init(td_lines_opts_t *o);

/* Fill the line counts (td_change_t.lines, lines_added, lines_removed) of
 * every modified file or symlink of r, set r->lines_counted and update the
 * totals. Each side is read from where its tree came from (its meta): a
 * directory or git revision file by file on opts->jobs threads, an archive
 * in one pass that keeps only the wanted members (at most held_bytes at a
 * time). Content that cannot be read is no error: those files get
 * TD_LINES_MISSING and a reason, and a side that cannot be read at all
 * (a database scanned from an archive, or whose repository or directory is
 * gone) sets r->lines_missing. Returns 0, or TD_ENOMEM / TD_EGIT with
 * err set. opts may be NULL. */
TD_EXTERN int td_lines_count(td_result_t *r, const td_lines_opts_t *opts, td_error_t *err);

/* A modified file whose two sides are both smaller than this many bytes is
 * scored from its line diff, not by TLSH, which is unreliable on small
 * inputs (doc/calibration.md). */
#define TD_LINES_SMALL_FILE_BYTES 1024

/* The distance that a changed-line fraction (lines added + removed over the
 * lines of both sides, 0..1) maps to: the calibration table of
 * doc/calibration.md (median TLSH distance of larger modified files with
 * that fraction), interpolated linearly. */
TD_EXTERN int td_lines_distance(double changed_fraction);

/* Score the small modified files of r (both sides regular files under
 * TD_LINES_SMALL_FILE_BYTES, neither a version match, TLSH-scored: files
 * too short for TLSH keep the fallback's score) from their line diff:
 * distance td_lines_distance(fraction), class from r->thresholds,
 * scored_by_lines set, fallback cleared; then update the totals. Files git
 * takes for binary keep their score. When content cannot be read (a
 * database scanned from an archive, an archive side, a repository that is
 * gone), the files keep their TLSH score and r->small_unscored says why.
 * Returns 0, or TD_ENOMEM / TD_EGIT with err set. opts may be NULL. */
TD_EXTERN int td_lines_score_small(td_result_t *r, const td_lines_opts_t *opts, td_error_t *err);

/* What gave a changed file's distance in td_lines_score_pair. */
typedef enum td_scored_by {
	TD_SCORED_EQUAL,      /* the same bytes: 0 */
	TD_SCORED_COSMETIC,   /* only whitespace differs (doc/formats.md, "Cosmetic changes"): 0 */
	TD_SCORED_TLSH,
	TD_SCORED_FALLBACK,   /* TLSH cannot hash a side: the fallback sketches */
	TD_SCORED_LINES       /* two small files: their line diff (td_lines_distance) */
} td_scored_by_t;

/* Both sides' content for td_lines_score_pair, asked only when the line
 * diff decides: *data and *len of side 0 (old) and 1 (new), valid until
 * the scoring returns. 0, or a TD_E* code with err set. */
typedef int (*td_lines_content_fn)(void *ctx, int side, const void **data, size_t *len, td_error_t *err);

/* The distance of one file's old and new content, scored as compare scores
 * a modified file, from their digests (td_digester_start(dg, 1)): 0 when
 * equal or cosmetic; the fallback when TLSH cannot hash a side; from the
 * line diff when small_by_lines is set, both are under
 * TD_LINES_SMALL_FILE_BYTES and git takes neither for binary (get is then
 * asked for both contents); else TLSH (len_diff: with its length term).
 * For the distances of provenance and of per-patch drift, which score
 * contents that are no tree's files. 0, or what get returned, or TD_EGIT /
 * TD_ENOMEM with err set. */
TD_EXTERN int td_lines_score_pair(int *distance, td_scored_by_t *by, const td_digest_t *old_d,
				  const td_digest_t *new_d, int len_diff, int small_by_lines,
				  td_lines_content_fn get, void *ctx, td_error_t *err);

/* "counted", "binary" or "missing"; NULL for TD_LINES_NONE. */
TD_EXTERN const char *td_lines_state_name(td_lines_state_t s);

/* The counts of c as the human reports show them: "+12 −3" (the minus is
 * U+2212), "binary", "missing", or "" when not counted. Returns out. */
#define TD_LINES_TEXT_MAX 48
TD_EXTERN const char *td_lines_text(char out[TD_LINES_TEXT_MAX], const td_change_t *c);

#ifdef __cplusplus
}
#endif
#endif
