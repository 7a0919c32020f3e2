/* A set of path globs (td_glob_match), each with a value, asked for the best
 * match of a path: the longest pattern that matches, ties going to the one
 * added first. Policies and the MAINTAINERS file both resolve paths this way.
 *
 * Each pattern is indexed by its literal prefix: for a pattern anchored at
 * the root, the bytes before its first wildcard, which every path it matches
 * starts with. A lookup then tries only the patterns whose prefix is a prefix
 * of the path (those with none, like "*.c", always), not the whole set. */
#ifndef TD_GLOBSET_H
#define TD_GLOBSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct td_globset td_globset_t;

/* Caller frees with td_globset_free(). */
int td_globset_new(td_globset_t **out);
void td_globset_free(td_globset_t *s);

/* Add a NUL-terminated pattern (copied) with its value. Returns 0 or
 * TD_ENOMEM. Not after td_globset_build(). */
int td_globset_add(td_globset_t *s, const char *pattern, uint32_t value);

/* Index the patterns; call once after the last add, before any lookup. */
int td_globset_build(td_globset_t *s);

/* Decides whether a matching pattern's value may be the answer. */
typedef int (*td_globset_accept_fn)(uint32_t value, const char *path, size_t path_len, void *ctx);

/* The best matching pattern that accept (NULL: any) takes: returns 1 and
 * sets *value and *pattern (borrowed from the set; pattern may be NULL), or
 * returns 0 when none matches. */
int td_globset_best(const td_globset_t *s, const char *path, size_t path_len,
		    td_globset_accept_fn accept, void *ctx, uint32_t *value, const char **pattern);

#endif
