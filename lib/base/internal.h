/* Helpers shared by the library's modules; not part of the public API. */
#ifndef TD_INTERNAL_H
#define TD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "treedrift/common.h"

#if defined(__GNUC__) || defined(__clang__)
#define TD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TD_PRINTF(f, a)
#endif

/* Set err (if not NULL) to code and a formatted message; returns code, so
 * that callers can write `return td_error_set(err, TD_EIO, "...")`. */
int td_error_set(td_error_t *err, int code, const char *fmt, ...) TD_PRINTF(3, 4);
void td_error_clear(td_error_t *err);

/* Overflow-checked allocation helpers: NULL on overflow or exhaustion. An
 * array of TD_HUGE_MIN_BYTES or more asks for huge pages (td_advise_huge). */
void *td_malloc_array(size_t n, size_t size);
void *td_calloc_array(size_t n, size_t size);
void *td_realloc_array(void *p, size_t n, size_t size);
char *td_strndup(const char *s, size_t n);

/* Grow *buf (of *cap elements) so that it holds at least need elements. */
int td_grow(void **buf, size_t *cap, size_t need, size_t elem_size);

/* Ask for transparent huge pages for p[0..bytes) when it is
 * TD_HUGE_MIN_BYTES or more (lib/base/huge.c): a hint, never an error. */
#define TD_HUGE_MIN_BYTES ((size_t)4 << 20)
void td_advise_huge(void *p, size_t bytes);

/* Nanoseconds on a monotonic clock: for intervals (progress, stage times). */
uint64_t td_monotonic_ns(void);

/* qsort's order of size_t values, ascending. */
int td_size_cmp(const void *a, const void *b);

/* 1 in each byte of a 64-bit word: the lanes of the bytewise word tests
 * (td_line_count, the line hashes of similar.c). */
#define TD_BYTE_ONES 0x0101010101010101ull

/* Byte order of paths, a prefix first: memcmp order, as SQLite sorts BLOBs. */
int td_path_cmp(const char *a, size_t alen, const char *b, size_t blen);
/* Whether f[0..n) is in td_path_cmp order already (equal paths next to
 * each other allowed): what a directory walk, a git tree and a database
 * give, so that sorting them again can be skipped. */
struct td_file;
int td_files_in_order(const struct td_file *f, size_t n);

/* Keep a copy of s with r until td_result_free (for the const char *
 * fields of its changes); *out points to the copy. Only for results from
 * td_compare. Returns 0 or TD_ENOMEM. */
struct td_result;
int td_result_keep_string(struct td_result *r, const char *s, const char **out);

/* Set a modified file's td_cosmetic_t (compare.c); a cosmetic one scores
 * 0, class clean. */
struct td_change;
void td_change_set_cosmetic(struct td_change *c, int cosmetic);

#include "banned.h"
#endif
