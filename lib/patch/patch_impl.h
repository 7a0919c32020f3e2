/* The patch stage's internals: patches as read from their source, before
 * they are replayed, and the text parsers (pure) that read them. */
#ifndef TD_PATCH_IMPL_H
#define TD_PATCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "internal.h"
#include "treedrift/patch.h"

/* The patches of a source, in order. For a git range, commits[] holds each
 * patch's commit and repo the open repository; for files, diffs[] holds
 * each patch's diff as git-style text (td_patch_normalize). */
typedef struct td_patch_list {
	const char *kind;        /* "git", "series", "dir", "mbox" */
	td_patch_t *patches;     /* id, subject, author, date, message, origin filled */
	char **diffs;            /* files: owned texts, diff_lens[] bytes each */
	size_t *diff_lens;
	git_oid *commits;        /* git: one per patch */
	git_repository *repo;    /* git: owned */
	size_t count, cap;
} td_patch_list_t;

/* Read source into list (zeroed by the caller); release with
 * td_patch_list_release, after a failure too. libgit2 must be initialized
 * (git_libgit2_init) while the list lives. */
int td_patch_list_read(td_patch_list_t *list, const char *source, td_error_t *err);
void td_patch_list_release(td_patch_list_t *list);

/* Release the strings and arrays of one patch (not p itself). */
void td_patch_release(td_patch_t *p);

/* Parse one patch's text[0..len): the mail or DEP-3 headers before the
 * diff into p's subject, author, date, message and origin (p->id is the
 * caller's), and the diff into *diff, git-style, with paths stripped of
 * strip leading parts (patch -pN). id names the patch in errors. A text
 * with no diff at all is an empty *diff (len 0), not an error. */
int td_patch_parse_text(td_patch_t *p, char **diff, size_t *diff_len, const char *text, size_t len,
			unsigned strip, const char *id, td_error_t *err);

/* The diff part of text[0..len) as git-style text that libgit2 parses:
 * "diff --git" sections pass through (strip must then be 1); traditional
 * "--- / +++" sections get a git header, their paths stripped of strip
 * leading parts; hunks are copied by their line counts, so whatever
 * follows them (mail signatures, stray text) is left out. Paths that are
 * absolute or climb with ".." are TD_EINVAL. Caller frees *out. */
int td_patch_normalize(char **out, size_t *out_len, const char *text, size_t len, unsigned strip, const char *id,
		       td_error_t *err);

/* 1 when path[0..len) is relative, without empty, "." or ".." parts. */
int td_patch_path_ok(const char *path, size_t len);

/* Patch ids (git's stable patch-id, as `git cherry` computes it). */
#define TD_PATCHID_BYTES 20

/* A file larger than this is neither searched for nor a candidate when a
 * patch's added file is looked for among its directory's files
 * (doc/patches.md): it would be read and diffed for one guess. */
#define TD_PATCH_COPY_FILE_MAX ((uint64_t)16 << 20)
/* TD_PATCH_COPY_FILE_MAX; tests lower it. */
extern uint64_t td_patch_copy_file_max;

/* sum += part, as 160-bit little-endian numbers (git's per-file sum). */
void td_patchid_sum(unsigned char sum[TD_PATCHID_BYTES], const unsigned char part[TD_PATCHID_BYTES]);

/* The part of a binary file (a mode 0 side is absent), as git hashes it:
 * header and the two blob ids. 0 or TD_ENOMEM. */
int td_patchid_binary_part(unsigned char out[TD_PATCHID_BYTES], const char *path, uint32_t old_mode,
			   const git_oid *old_id, uint32_t new_mode, const git_oid *new_id);

/* The summed parts of the text files paths[0..npaths) changed from tree a
 * (NULL: empty) to b, by libgit2's git_diff_patchid; all zero for none.
 * 0 or TD_EGIT (libgit2's message in git_error_last). */
int td_patchid_text_part(unsigned char out[TD_PATCHID_BYTES], git_repository *repo, const git_tree *a,
			 const git_tree *b, char **paths, size_t npaths);

/* The patch id of commit (against its first parent) over paths[0..npaths),
 * the paths it touches (the diff walks no other entry): text files by
 * git_diff_patchid, binary ones as git hashes them. 0, TD_EGIT (libgit2's
 * message in git_error_last) or TD_ENOMEM. */
int td_patchid_commit(unsigned char out[TD_PATCHID_BYTES], git_repository *repo, const git_oid *commit,
		      char **paths, size_t npaths);

/* A line's hash as td_line_hash (treedrift/history.h) computes it: FNV-1a
 * over the bytes that are not whitespace (git patch-id's normalisation);
 * *trivial (may be NULL) 1 for an empty line or a lone brace or bracket. */
uint64_t td_patch_line_hash(const char *line, size_t len, int *trivial);

/* Fill f's added_hashes and removed_hashes from the lines of gp (its
 * non-trivial lines). 0, TD_ENOMEM or TD_EGIT. */
int td_patch_file_hash_lines(td_patch_file_t *f, git_patch *gp);

#endif
