/* A kernel .config, parsed: the symbol values Kbuild files see.
 *
 * Accepted lines (after an optional trailing '\r'):
 *   CONFIG_FOO=y | m | n | "string" | 123 | -5 | 0x1f
 *   # CONFIG_FOO is not set
 *   any other line starting with '#', and blank lines (ignored)
 * Anything else is an error naming the line. The last assignment of a symbol
 * wins, as in Kconfig. As in include/config/auto.conf, a symbol set to n or
 * "is not set" is undefined for Kbuild: td_kconfig_value() gives NULL.
 */
#ifndef TREEDRIFT_KCONFIG_H
#define TREEDRIFT_KCONFIG_H

#include <stddef.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct td_kconfig td_kconfig_t;

/* An empty configuration (no symbol set). Caller frees with td_kconfig_free(). */
TD_EXTERN int td_kconfig_new(td_kconfig_t **out);

/* Parse a .config's bytes (len bytes, no NUL needed). On failure *out is NULL
 * and err says which line is malformed ("line 12: ..."). Caller frees with
 * td_kconfig_free(). Limits: 16 MiB of text, names of 256 bytes. */
TD_EXTERN int td_kconfig_parse(td_kconfig_t **out, const char *data, size_t len, td_error_t *err);

TD_EXTERN void td_kconfig_free(td_kconfig_t *cfg);

/* Set one symbol, e.g. ("CONFIG_SMP", "y"); value NULL or "n" unsets it.
 * value is stored as given (a string keeps its quotes, as auto.conf). */
TD_EXTERN int td_kconfig_set(td_kconfig_t *cfg, const char *name, const char *value);

/* 'y' or 'm' for a tristate or bool symbol that is set, 0 otherwise (unset,
 * n, or a string/number). name includes the prefix: "CONFIG_SMP". */
TD_EXTERN int td_kconfig_tristate(const td_kconfig_t *cfg, const char *name);

/* The value text of a set symbol ("y", "m", "250", "\"lz4\"" with its
 * quotes), borrowed until the config is freed; NULL when unset or n. */
TD_EXTERN const char *td_kconfig_value(const td_kconfig_t *cfg, const char *name);

/* Number of symbols that are set (y, m or a value). */
TD_EXTERN size_t td_kconfig_count(const td_kconfig_t *cfg);

/* Call fn for every set symbol, in no particular order; stops at and returns
 * the first non-zero value fn returns. name and value are borrowed for the
 * call only. */
TD_EXTERN int td_kconfig_foreach(const td_kconfig_t *cfg,
		       int (*fn)(void *ctx, const char *name, const char *value), void *ctx);

/* The architecture a .config was made for, from its header line
 * ("# Linux/x86_64 6.1.192 Kernel Configuration"): the arch/ directory
 * (static string, e.g. "x86"), or NULL when the text has no such line or
 * names an architecture td_arch_canonical() does not know. */
TD_EXTERN const char *td_kconfig_guess_arch(const char *text, size_t len);

/* Read and parse the .config at path (at most 16 MiB; td_kconfig_parse's
 * rules, errors prefixed with the path); *arch_out (may be NULL) gets
 * td_kconfig_guess_arch() of its text. Caller frees *out with
 * td_kconfig_free(). */
TD_EXTERN int td_kconfig_load_file(td_kconfig_t **out, const char **arch_out, const char *path,
			 td_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
