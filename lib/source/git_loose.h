/* Loose git objects (objects/xx/yyyy...), read with zlib and checked
 * before anything else parses them. libgit2 1.5 (Debian 12) writes past a
 * heap buffer when a loose object's header gives a size smaller than its
 * body, and loops forever on a truncated one; so libgit2 never reads a
 * loose object here: git_source.c gives each repository an object database
 * whose loose backend is this module (doc/hostile-input.md). */
#ifndef TD_GIT_LOOSE_H
#define TD_GIT_LOOSE_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "treedrift/source.h"

/* The header of a loose object: "TYPE SIZE\0". */
typedef struct td_loose_header {
	git_object_t type; /* blob, tree, commit or tag */
	uint64_t size;     /* bytes of the body */
} td_loose_header_t;

/* Called once the header is read: 0 to go on with the body, 1 to stop
 * there (td_loose_inflate then returns 0), or a negative TD_E* code. */
typedef int (*td_loose_header_fn)(void *ctx, const td_loose_header_t *h);

/* Inflate the loose object in the regular file fd (read from its start):
 * the header to on_header, then the body in blocks to on_body (which may
 * be NULL when on_header stops). Checked: a zlib stream, a header with a
 * known type and a canonical decimal size that the file's compressed bytes
 * can hold, a body of exactly that size, the stream's end right after it
 * and nothing after that in the file; when id is not NULL (20 bytes), the
 * SHA-1 of header and body must equal it. Returns 0, TD_EFORMAT with err
 * saying what is wrong, TD_EIO, TD_ENOMEM, or TD_ECANCELED when on_body
 * stopped. Memory is bounded (blocks of TD_READ_BLOCK_BYTES), whatever the
 * object's size;
 * what on_body was given is only sound once 0 is returned. */
int td_loose_inflate(int fd, const unsigned char *id, td_loose_header_fn on_header, td_sink_fn on_body,
		     void *ctx, td_error_t *err);

/* Open the loose object id under objects_dir ("REPO/.git/objects", no
 * trailing '/' needed) for td_loose_inflate: an fd, or -1 with errno
 * (ENOENT when there is no such loose object; a file that is not a regular
 * one gives EINVAL). Never blocks on a FIFO. */
int td_loose_open(const char *objects_dir, const git_oid *id);

/* A loose-object backend for libgit2's object database over objects_dir,
 * reading through td_loose_inflate: read, read_header, read_prefix,
 * exists, exists_prefix; it never writes. Caller hands it to
 * git_odb_add_backend / git_odb_add_alternate, which then own it. */
int td_loose_backend_new(git_odb_backend **out, const char *objects_dir);

/* The object directories of a repository: its own first, then its
 * alternates. */
typedef struct td_loose_dirs {
	char **dir;
	size_t count, cap;
} td_loose_dirs_t;
void td_loose_dirs_release(td_loose_dirs_t *d);

/* An object database over objects_dir and its alternates (read as git
 * reads objects/info/alternates: relative paths from the directory that
 * names them, 5 levels at most, missing ones left out): libgit2's pack
 * backend for packs, td_loose_backend_new's for loose objects. Caller
 * frees *out with git_odb_free(); dirs (may be NULL) gets the object
 * directories, for td_loose_open, caller releases. */
int td_loose_odb_new(git_odb **out, td_loose_dirs_t *dirs, const char *objects_dir, td_error_t *err);

#endif
