/* A tree: the entries of one version of a source tree and what is known of
 * their content, sorted by path. It is what a scan produces, what a database
 * stores and loads, and what compare takes on each side. */
#ifndef TREEDRIFT_TREE_H
#define TREEDRIFT_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/digest.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum td_entry_type {
	TD_ENTRY_FILE = 1,     /* regular file: content digested */
	TD_ENTRY_SYMLINK = 2,  /* recorded by its target text, never followed */
	TD_ENTRY_GITLINK = 3,  /* git submodule: recorded by commit id, not descended */
	TD_ENTRY_SKIPPED = 4   /* not digested: see skip_reason */
} td_entry_type_t;

/* One path of a tree. Paths are relative, '/'-separated, without "./", and
 * may hold any byte but NUL ('\n', invalid UTF-8, ...). */
typedef struct td_file {
	char *path;
	size_t path_len;
	td_entry_type_t type;
	uint32_t mode;           /* git-style: 0100644, 0100755, 0120000, 0160000; 0 unknown */
	uint64_t size_bytes;
	int64_t mtime_ns;        /* directory sources only (for --reuse); else 0 */
	uint64_t ino;
	uint64_t dev;
	char *link_target;       /* symlink target text (gitlink: commit id hex) */
	size_t link_len;
	int has_gitoid;          /* gitoid holds the git blob id */
	uint8_t gitoid[TD_GITOID_BYTES];
	int has_digest;          /* digest holds the content's digest */
	td_digest_t digest;
	const char *skip_reason; /* static text (see td_skip_reason_*), for TD_ENTRY_SKIPPED */
	char *skip_detail;       /* optional detail, e.g. strerror text */
} td_file_t;

/* Why an entry was not digested. The names are stable (reports, JSON). */
#define TD_SKIP_FIFO "fifo"
#define TD_SKIP_SOCKET "socket"
#define TD_SKIP_DEVICE "device"
#define TD_SKIP_UNREADABLE "unreadable"
#define TD_SKIP_VANISHED "vanished"         /* gone between listing and reading */
#define TD_SKIP_CHANGED "changed"           /* grew, shrank or was replaced while read */
#define TD_SKIP_TOO_LARGE "too_large"       /* over --max-file-size */
#define TD_SKIP_UNSAFE_PATH "unsafe_path"   /* archive: absolute or ".." */
#define TD_SKIP_DUPLICATE "duplicate"       /* archive: the same path twice */
#define TD_SKIP_LINK_ESCAPE "link_escape"   /* archive hard link pointing outside */
#define TD_SKIP_UNSUPPORTED "unsupported"   /* any other kind of entry */
#define TD_SKIP_DIR_UNREADABLE "dir_unreadable"

/* Metadata of a tree's source (a scan, or a database version). */
typedef struct td_tree_meta {
	char *label;         /* e.g. "v6.1"; may be NULL */
	char *root;          /* where it came from: a path, git:REPO@REV, an archive */
	char *source_kind;   /* "dir", "git", "archive", "db" */
	char *scanned_at;    /* ISO 8601 UTC */
	char *tool_version;
	char *database;      /* the database the tree was loaded from; NULL when scanned */
} td_tree_meta_t;

typedef struct td_tree {
	td_file_t *files;
	size_t count;
	size_t cap;
	td_tree_meta_t meta;
} td_tree_t;

TD_EXTERN int td_tree_new(td_tree_t **out);
TD_EXTERN void td_tree_free(td_tree_t *t);
/* Append a file; takes ownership of the file's pointers on success. */
TD_EXTERN int td_tree_append(td_tree_t *t, td_file_t *f);
/* Sort by path (byte order) and reject duplicates (TD_EINVAL). */
TD_EXTERN int td_tree_sort(td_tree_t *t);
/* Binary search by path; NULL when absent. Needs a sorted tree. */
TD_EXTERN const td_file_t *td_tree_find(const td_tree_t *t, const char *path, size_t path_len);

TD_EXTERN void td_file_release(td_file_t *f);
TD_EXTERN int td_file_copy(td_file_t *out, const td_file_t *src);
/* Set a string field from text (copied); 0 or TD_ENOMEM. */
TD_EXTERN int td_meta_set(char **field, const char *text);
TD_EXTERN void td_tree_meta_release(td_tree_meta_t *m);

struct td_kbuild_result; /* treedrift/kbuild.h */

/* 1 when t looks like a Linux kernel source tree: it has the files Makefile
 * and Kconfig at its top and at least one file under init/ and one under
 * kernel/. compare uses the built-in Linux policy for such a target. */
TD_EXTERN int td_tree_looks_like_linux(const td_tree_t *t);

/* Drop from t every file of an architecture other than arch: the files
 * td_arch_path_relevant() rejects. The tree stays sorted; *dropped (may be
 * NULL) gets the number of files dropped. */
TD_EXTERN int td_tree_drop_arch(td_tree_t *t, const char *arch, uint64_t *dropped);

/* Drop from t every .c/.S/.rs file that kb says is not built
 * (td_annotate_built() == 0). *dropped (may be NULL) as above. */
TD_EXTERN int td_tree_drop_not_built(td_tree_t *t, const struct td_kbuild_result *kb, uint64_t *dropped);

#ifdef __cplusplus
}
#endif
#endif
