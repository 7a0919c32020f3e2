/* The treedrift database: many versions of upstream, in an SQLite file or in
 * a PostgreSQL database (named by a postgresql:// or postgres:// URI; libpq's
 * environment variables and ~/.pgpass apply). Content is stored once per
 * SHA-256 and each version maps paths to content, so adding a point release
 * costs little more than its changed files.
 * SQLite: writes never touch the existing file: they build a temporary file
 * beside it and rename it into place, so an interrupted write leaves the old
 * database intact and no half-written one.
 * PostgreSQL: each version is added in one transaction, so it is visible
 * whole at commit or not at all, and many writers may add versions at once.
 * The schemas are in doc/db-schema.md. */
#ifndef TREEDRIFT_STORE_H
#define TREEDRIFT_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"
#include "treedrift/scan.h"
#include "treedrift/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2: content.sha256_ws, the whitespace-normalised SHA-256 (doc/db-schema.md);
 * 3: content.ws_bytes, the length of that text. */
#define TD_DB_SCHEMA_VERSION 3

typedef struct td_db td_db_t;

/* 1 when path is a file that starts as an SQLite database (cheap sniff, no
 * schema check) or a PostgreSQL URI (not connected to), 0 otherwise
 * (including directories and missing files). */
TD_EXTERN int td_db_sniff(const char *path);

/* The name of a database as messages and reports show it: a path as it
 * is, a URI with its password (user:PASSWORD@, password=) removed.
 * Caller frees with free(); NULL when out of memory. */
TD_EXTERN char *td_db_display_name(const char *spec);

/* Open read-only. TD_EFORMAT: not a treedrift database; TD_ENEWER: written
 * by a newer schema than this build reads. Caller frees with td_db_free().
 * Never creates a file. A handle serves one thread at a time (open one per
 * thread); it keeps reading the file it opened even if a writer replaces it. */
TD_EXTERN int td_db_open(td_db_t **out, const char *path, td_error_t *err);
TD_EXTERN void td_db_free(td_db_t *db);

/* One version (label) of a database. */
typedef struct td_version {
	td_tree_meta_t meta;
	uint64_t file_count;
	uint64_t total_bytes;
} td_version_t;

/* The space the database takes: the size of the file this handle opened
 * (SQLite, even if a writer has renamed a new one over its path since), or
 * the size of its tables with their indexes (PostgreSQL); 0 when it cannot
 * be told. */
TD_EXTERN uint64_t td_db_size_bytes(td_db_t *db);

/* All versions, oldest first. Caller frees with td_versions_free(). */
TD_EXTERN int td_db_versions(td_version_t **out, size_t *count, td_db_t *db, td_error_t *err);
TD_EXTERN void td_versions_free(td_version_t *v, size_t count);

/* Load one version as a tree (sorted). label NULL: the database's only
 * version, or the newest one. TD_ENOTFOUND if the label is absent.
 * meta comes from the version row (root and source_kind as scanned).
 * Caller frees with td_tree_free(). */
TD_EXTERN int td_db_load(td_tree_t **out, td_db_t *db, const char *label, td_error_t *err);
/* What scan --reuse takes from a database (td_scan_opts_t.reuse): the
 * digested files of every version, sorted by path, each path once per
 * distinct content and stat, so that a path may repeat (it is not a tree
 * to compare). Caller frees with td_tree_free(). */
TD_EXTERN int td_db_load_reuse(td_tree_t **out, td_db_t *db, td_error_t *err);

/* td_db_load of label, or with TD_DB_LOAD_REUSE td_db_load_reuse, of the
 * database at path. With keep and *keep set, from that handle; else path
 * is opened, and with keep the handle is left in *keep (the caller's to
 * free). */
#define TD_DB_LOAD_REUSE 1u
TD_EXTERN int td_db_load_path(td_tree_t **out, const char *path, td_db_t **keep, const char *label,
			      unsigned flags, td_error_t *err);

/* The same on a thread of its own, while the caller walks the tree that is
 * to use it (td_scan_opts_t's reuse_wait). Neither the handle nor *keep
 * may be used, nor path freed, before td_db_loader_wait has returned other
 * than 1. Without a thread to spare it loads before returning. Errors of
 * the load come from td_db_loader_wait; free with td_db_loader_free(). */
typedef struct td_db_loader td_db_loader_t;
TD_EXTERN int td_db_loader_start(td_db_loader_t **out, const char *path, td_db_t **keep, const char *label,
				 unsigned flags, td_error_t *err);
/* 0 with *tree (the loader's) once loaded, 1 while not yet (without wait;
 * with wait, until it is), or the load's error. loader is a
 * td_db_loader_t, so that this is a td_scan_opts_t reuse_wait. */
TD_EXTERN int td_db_loader_wait(void *loader, int wait, const td_tree_t **tree, td_error_t *err);
/* The loaded tree, the caller's now (free with td_tree_free()); NULL if the
 * load failed. Waits for it. */
TD_EXTERN td_tree_t *td_db_loader_take(td_db_loader_t *l);
/* Waits for the load, then frees the loader and a tree not taken. */
TD_EXTERN void td_db_loader_free(td_db_loader_t *l);

/* PRAGMA integrity_check plus treedrift's own consistency checks. 0 when the
 * database is sound; TD_EFORMAT with the first problem in err otherwise. */
TD_EXTERN int td_db_check(td_db_t *db, td_error_t *err);

/* Which versions hold each file of a tree exactly, at the same path: what
 * base-version detection (the version with the most identical files) and
 * backport detection (the other versions that hold a changed file's exact
 * content) need, for a whole tree in one call. Files are identical by
 * SHA-256, symlinks and gitlinks by their target text; other entries never
 * match. Versions are numbered as td_db_versions lists them: 0 is the oldest. */
typedef struct td_db_matches {
	size_t version_count;
	uint64_t *identical;  /* [version_count]: files of the tree identical in that version */
	size_t file_count;    /* the tree's count */
	size_t *start;        /* [file_count + 1]: file i is identical in the versions */
	uint32_t *version;    /* version[start[i]] .. version[start[i + 1] - 1], ascending */
} td_db_matches_t;

/* Match every file of tree (index i of tree->files is file i) against every
 * version: one indexed lookup per file, whatever the number of versions.
 * Caller frees with td_db_matches_free(). */
TD_EXTERN int td_db_match(td_db_matches_t **out, td_db_t *db, const td_tree_t *tree, td_error_t *err);
TD_EXTERN void td_db_matches_free(td_db_matches_t *m);

typedef struct td_db_writer td_db_writer_t;

enum {
	TD_DB_CREATE = 0,      /* write a new database, replacing any at path */
	TD_DB_APPEND = 1 << 0  /* add versions to the database at path (created if absent) */
};

/* Start writing the database at path. SQLite: takes an exclusive lock
 * (path + ".lock") so that two writers never interleave: a second writer
 * gets TD_ELOCKED. PostgreSQL: creates the schema when there is none;
 * writers run at once, each version in its own transaction, and a second
 * writer of the same label gets TD_ELOCKED; TD_DB_CREATE is TD_EINVAL
 * there (a shared database is never replaced whole).
 * Caller frees with td_db_writer_free(); freeing before commit discards
 * everything and leaves the old database as it was. */
TD_EXTERN int td_db_writer_open(td_db_writer_t **out, const char *path, unsigned flags, td_error_t *err);
/* Add a version from tree (its meta.label names it; a label already in the
 * database is TD_EINVAL unless replace is non-zero). */
TD_EXTERN int td_db_writer_add(td_db_writer_t *w, const td_tree_t *tree, int replace, td_error_t *err);
/* Scan src and add it as version label (NULL: keep the source's) in one go:
 * td_scan() then td_db_writer_add(), except that the walk, the reads and
 * one writer thread run at once: each entry is stored, in the order the
 * walk found it, as soon as it is final, all in one transaction. A label
 * that is taken fails before the walk. *out gets the scanned tree; caller frees it with
 * td_tree_free(). On error nothing of the version is left in the database. */
TD_EXTERN int td_db_writer_add_scan(td_db_writer_t *w, td_tree_t **out, td_source_t *src, const char *label,
			  int replace, const td_scan_opts_t *opts, td_scan_stats_t *stats,
			  td_error_t *err);
/* Copy the versions of src (label NULL: all of them, oldest first; else
 * that one) into w, which stores each content and path once, as for any
 * version added. A label already in w's database is TD_EINVAL unless
 * replace is non-zero. *copied counts the versions copied; nothing is
 * visible before td_db_writer_commit(). */
TD_EXTERN int td_db_copy(size_t *copied, td_db_writer_t *w, td_db_t *src, const char *label, int replace,
			 td_error_t *err);
/* Delete version label and its entries; the commit drops the content and
 * paths no version refers to any more (PostgreSQL: when no other writer is
 * at work, doc/db-schema.md). TD_ENOTFOUND when the database has no such
 * version (nothing is deleted then), TD_ELOCKED (PostgreSQL) when another
 * writer is writing it. Nothing is visible before td_db_writer_commit(). */
TD_EXTERN int td_db_writer_delete(td_db_writer_t *w, const char *label, td_error_t *err);
/* Drop the content and paths no version refers to, at the commit (SQLite:
 * and give back the file's free pages). PostgreSQL: TD_ELOCKED when
 * another writer is at work, as such rows may be about to be referred to
 * (a replace or a delete then leaves them, doc/db-schema.md). */
TD_EXTERN int td_db_writer_prune(td_db_writer_t *w, td_error_t *err);
/* Make the write durable and atomically visible (SQLite: fsync, rename,
 * fsync dir; PostgreSQL: commit the versions' transaction). */
TD_EXTERN int td_db_writer_commit(td_db_writer_t *w, td_error_t *err);
TD_EXTERN void td_db_writer_free(td_db_writer_t *w);

#ifdef __cplusplus
}
#endif
#endif
