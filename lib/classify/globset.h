/* A set of path globs (td_glob_match), each with a value, asked for the best
 * match of a path: the longest pattern that matches, ties going to the one
 * added first. Policies and the MAINTAINERS file both resolve paths this way.
 *
 * Each pattern is indexed by one literal key, the longest of:
 * - its literal prefix: for a pattern anchored at the root, the bytes before
 *   its first wildcard, which every path it matches starts with;
 * - its literal suffix: unless it names a directory, the bytes after the
 *   last wildcard of its last part, which every path it matches ends with;
 * - its longest literal part ("net" in "a?/net/b?"), which every path it
 *   matches has as one of its parts.
 * A lookup tries only the patterns whose key the path holds (a binary search
 * per prefix length, suffix length and path part), not the whole set. The
 * patterns with no key at all ("*", "*x*", "?x?/"), which every lookup
 * tries, are limited to TD_GLOBSET_MAX_UNINDEXED, so that a generated
 * MAINTAINERS file or policy cannot make each lookup scan the whole set. */
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

/* Patterns without a literal key that a set may hold. */
#define TD_GLOBSET_MAX_UNINDEXED 1000

/* Index the patterns; call once after the last add, before any lookup.
 * TD_EUNSUPPORTED when more than TD_GLOBSET_MAX_UNINDEXED patterns have no
 * literal key (td_globset_unindexed() says how many). */
int td_globset_build(td_globset_t *s);
size_t td_globset_unindexed(const td_globset_t *s);

/* How many patterns a lookup of path tries at most (those whose key the
 * path holds): the work it does, for tests and measurements. */
size_t td_globset_candidates(const td_globset_t *s, const char *path, size_t path_len);

/* Decides whether a matching pattern's value may be the answer. */
typedef int (*td_globset_accept_fn)(uint32_t value, const char *path, size_t path_len, void *ctx);

/* The best matching pattern that accept (NULL: any) takes: returns 1 and
 * sets *value and *pattern (borrowed from the set; pattern may be NULL), or
 * returns 0 when none matches. */
int td_globset_best(const td_globset_t *s, const char *path, size_t path_len,
		    td_globset_accept_fn accept, void *ctx, uint32_t *value, const char **pattern);

#endif
