/* The interface each kind of tree source implements (source_dir.c,
 * source_git.c, source_archive.c); source.c parses the spec and dispatches. */
#ifndef TD_SOURCE_IMPL_H
#define TD_SOURCE_IMPL_H

#include <stdatomic.h>
#include <stdint.h>

#include "treedrift/source.h"

typedef struct td_source_ops {
	const char *kind;  /* "dir", "git", "archive" */
	int random_access;
	/* Open what `where` names (the spec with any "git:"/"archive:" prefix
	 * removed); store private state in src->impl and the canonical root text
	 * in src->root (malloc'd). */
	int (*open)(td_source_t *src, const char *where, td_error_t *err);
	int (*next)(td_source_t *src, td_file_t *out, td_error_t *err);
	int (*read)(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
		    const char **skip_reason, td_error_t *err);
	/* Optional: read into buf as td_source_read_all says, without a copy. */
	int (*read_all)(td_source_t *src, const td_file_t *entry, void *buf, size_t cap, size_t *len,
			const char **skip_reason, td_error_t *err);
	void (*close)(td_source_t *src);
} td_source_ops_t;

struct td_source {
	const td_source_ops_t *ops;
	td_source_opts_t opts;
	char *root;
	char *revision;  /* git: the revision as given ("v2023.10"), when one was; else NULL */
	int incomplete;  /* archives with keep_going: ended early */
	char *incomplete_reason; /* malloc'd error text when incomplete */
	void *impl;
	_Atomic uint64_t reads; /* td_source_read calls, from any thread */
	uint64_t walked;        /* td_source_count calls: the walk's thread only */
};

extern const td_source_ops_t td_source_dir_ops;
extern const td_source_ops_t td_source_git_ops;
extern const td_source_ops_t td_source_archive_ops;

/* 1 when a symlink at `path` with target `target` resolves outside the
 * tree: an absolute target, or ".." climbing above the root. Such links are
 * still recorded (never followed), with skip_detail TD_LINK_OUTSIDE. */
int td_link_escapes(const char *path, size_t path_len, const char *target);
#define TD_LINK_OUTSIDE "points outside the tree"

/* Read entry whole into buf, which holds cap bytes, at least the entry's
 * size + 1 (the byte over shows a file that grew without another read);
 * *len gets the size read. Otherwise as td_source_read. */
int td_source_read_all(td_source_t *src, const td_file_t *entry, void *buf, size_t cap, size_t *len,
		       const char **skip_reason, td_error_t *err);

/* Count one more item of the walk (an entry, a directory, an archive
 * member) against opts.max_entries: 0, or TD_ENOMEM with err set once the
 * limit is passed. */
int td_source_count(td_source_t *src, td_error_t *err);

/* Read block size for file content. */
#define TD_READ_BLOCK_BYTES (256 * 1024)

#endif
