/* Tree sources: a directory, a git revision (libgit2, from the object
 * database, no checkout) or an archive (libarchive, streamed, no unpacking),
 * all behind one interface. A database is not a source: see store.h.
 *
 * Source specs (td_source_open):
 *   DIR                       a directory
 *   git:REPO@REV              a revision of a repository (bare or not); REV is
 *                             anything git rev-parse takes (tag, branch, sha)
 *   git:REPO                  the same at HEAD
 *   FILE.tar[.gz|.xz|.zst|.bz2], FILE.tgz, FILE.zip, ...   an archive
 *   archive:FILE              an archive whatever its name
 */
#ifndef TREEDRIFT_SOURCE_H
#define TREEDRIFT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct td_source td_source_t;

typedef struct td_source_opts {
	unsigned strip_components; /* archives: drop this many leading path parts */
	int no_auto_strip;         /* archives: keep a single top-level folder */
	int keep_going;            /* archives: a corrupt archive yields what was read, marked */
	uint64_t max_file_size;    /* 0 = no limit; larger files are TD_SKIP_TOO_LARGE */
	const char *repo;          /* --repo: a spec without a git:/archive: prefix is a
				    * revision of this git repository */
	uint64_t max_entries;      /* entries, directories and archive members walked at most
				    * (a git tree whose subtrees point to one subtree can name
				    * 10^9 paths in 10 objects): past it, next() fails with
				    * TD_ENOMEM. 0 = TD_SOURCE_MAX_ENTRIES_DEFAULT; UINT64_MAX = none */
} td_source_opts_t;

/* The default of td_source_opts_t.max_entries: ten times the largest
 * source trees known (a Chromium checkout holds about 500,000 files). */
#define TD_SOURCE_MAX_ENTRIES_DEFAULT 10000000u

/* Consumer of content bytes; return 0 to go on, non-zero to stop. */
typedef int (*td_sink_fn)(void *ctx, const void *data, size_t len);

/* Open a source; on failure *out is NULL and err says why. Caller frees with
 * td_source_free(). opts may be NULL. */
TD_EXTERN int td_source_open(td_source_t **out, const char *spec, const td_source_opts_t *opts, td_error_t *err);
TD_EXTERN void td_source_free(td_source_t *src);

/* "dir", "git" or "archive". */
TD_EXTERN const char *td_source_kind(const td_source_t *src);
/* The canonical root text recorded in a database: an absolute directory
 * path, "git:/abs/repo@<commit id>", or the archive's absolute path. */
TD_EXTERN const char *td_source_root(const td_source_t *src);
/* A git source's revision as it was given (a branch, a tag: "v2023.10"),
 * which the root's commit id does not tell; NULL when none was given and
 * for other sources. A scan makes it the tree's label when it has none. */
TD_EXTERN const char *td_source_revision(const td_source_t *src);

/* 1 when td_source_read may be called for any entry, from any thread, after
 * td_source_next returned it (directories, git). 0 for sequential sources
 * (archives): content must then be read right after td_source_next returned
 * the entry, before the next call, on the same thread. */
TD_EXTERN int td_source_random_access(const td_source_t *src);

/* 1 for an archive whose single top-level folder is to be dropped (the
 * default; opts.no_auto_strip turns it off), 0 otherwise. */
TD_EXTERN int td_source_auto_strip(const td_source_t *src);

/* The next entry. The order is fixed for a given tree: a directory source
 * gives its entries in byte order of their paths (td_tree_sort's order,
 * the same on every file system), a git source the tree's order, an
 * archive its members' order. Returns 1 and fills *out (caller
 * releases with td_file_release), 0 at the end, or a negative code. Special
 * files, unsafe archive members and the like come back as TD_ENTRY_SKIPPED
 * with a reason; directories do not come back (their errors come back as
 * TD_ENTRY_SKIPPED entries with TD_SKIP_DIR_UNREADABLE).
 *
 * Git entries carry the blob id (has_gitoid) and, when the object database
 * gives it without inflating the object, size_bytes.
 *
 * Archive entries: each path comes back once; a later member with the same
 * path is TD_SKIP_DUPLICATE (the first one wins). A member that is absolute
 * or has a ".." component is TD_SKIP_UNSAFE_PATH, with path in normalized
 * form (no leading '/') and the raw name in skip_detail. A symlink whose
 * target is absolute or climbs out of the tree is still a TD_ENTRY_SYMLINK,
 * with skip_detail "points outside the tree". A hard link to a regular file
 * listed earlier comes back as TD_ENTRY_FILE with size_bytes 0 and
 * link_target set to that file's path: it has no content of its own (do not
 * td_source_read it); the scan gives it the target's digest. Other hard
 * links are TD_SKIP_LINK_ESCAPE. */
TD_EXTERN int td_source_next(td_file_t *out, td_source_t *src, td_error_t *err);

/* Feed the content of a TD_ENTRY_FILE entry to sink in blocks. Returns 0,
 * or a negative code with err set, or TD_ECANCELED if the sink stopped.
 * A file that vanished or changed while read gives TD_EIO with *skip_reason
 * set to TD_SKIP_VANISHED / TD_SKIP_CHANGED / TD_SKIP_UNREADABLE, so the scan
 * records it and goes on. */
TD_EXTERN int td_source_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
		   const char **skip_reason, td_error_t *err);

/* Archives read with keep_going: 1 when the archive ended in an error and the
 * entries are incomplete. Always 0 for other sources. */
TD_EXTERN int td_source_incomplete(const td_source_t *src);

/* Why an incomplete source ended early (the archive error text), or NULL
 * when td_source_incomplete() is 0. Borrowed until td_source_free(). */
TD_EXTERN const char *td_source_incomplete_reason(const td_source_t *src);

/* Number of content reads performed so far (td_source_read calls, whatever
 * their outcome): git blobs, archive members or files. Safe to call while
 * other threads read; a benchmark uses it to show unchanged blobs were not
 * read. */
TD_EXTERN uint64_t td_source_blobs_read(const td_source_t *src);

/* Whether libgit2 hashes each object it reads, to check it against its id
 * (on by default: libgit2's GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION). git
 * itself does that only in fsck; the SHA-1 with collision detection takes
 * a third of the time of a compare of git revisions with --history. The
 * setting is libgit2's, for the whole process and any other user of
 * libgit2 in it, so the library leaves it alone; the treedrift command
 * turns it off. Loose objects are checked against their ids by
 * treedrift's own reader either way (doc/hostile-input.md). 0, or TD_EGIT
 * with err set. */
TD_EXTERN int td_git_strict_hash(int on, td_error_t *err);

/* Length of the archive suffix name[0..len) ends with (".tar.gz", ".zip",
 * ...: the names a spec is read as an archive by, matched case-sensitively;
 * the longest when several match), or 0 when it ends with none. */
TD_EXTERN size_t td_archive_suffix_len(const char *name, size_t len);

#ifdef __cplusplus
}
#endif
#endif
