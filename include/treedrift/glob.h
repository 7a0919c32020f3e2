/* Path globs, as --include, --exclude, policies and MAINTAINERS use them. */
#ifndef TREEDRIFT_GLOB_H
#define TREEDRIFT_GLOB_H

#include <stddef.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Path glob as used by --include/--exclude and policies: '*' matches within
 * one path part, '**' across parts, '?' one byte, [...] a class; a pattern
 * without '/' matches the last part ("*.c"), one ending in '/' a directory and
 * all below it. Returns 1 on a match. */
TD_EXTERN int td_glob_match(const char *pattern, const char *path, size_t path_len);

#ifdef __cplusplus
}
#endif
#endif
