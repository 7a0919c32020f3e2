/* The Linux MAINTAINERS file as a map from paths to subsystem names, for
 * rollups: each section's title is a subsystem, its F: lines the files it
 * covers and its X: lines the files it leaves out.
 *
 * Patterns are read as scripts/get_maintainer.pl reads them: anchored at the
 * top of the tree, "dir/" a directory and all below it, '*' and '?' within one
 * path part, and a plain name without wildcards either that file or, when it
 * is a directory, everything below it. N: (regular expressions) and K: lines
 * are not used. A path's subsystem is the section with the longest F:
 * pattern that matches it and no X: pattern that does; ties go to the
 * section that comes first. */
#ifndef TREEDRIFT_MAINTAINERS_H
#define TREEDRIFT_MAINTAINERS_H

#include <stddef.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TD_MAINTAINERS_MAX_BYTES (16 * 1024 * 1024)
#define TD_MAINTAINERS_MAX_PATTERNS 200000   /* F: and X: lines */
#define TD_MAINTAINERS_MAX_TITLE 1024        /* bytes in a section title */

typedef struct td_maintainers td_maintainers_t;

/* Parse MAINTAINERS text[0..len). Pure: no I/O. Errors name name_for_errors
 * and the line. Caller frees with td_maintainers_free(). */
TD_EXTERN int td_maintainers_parse(td_maintainers_t **out, const char *text, size_t len,
			 const char *name_for_errors, td_error_t *err);
/* Read and parse a MAINTAINERS file (at most TD_MAINTAINERS_MAX_BYTES). */
TD_EXTERN int td_maintainers_load_file(td_maintainers_t **out, const char *path, td_error_t *err);
TD_EXTERN void td_maintainers_free(td_maintainers_t *m);

/* Number of sections with at least one F: line. */
TD_EXTERN size_t td_maintainers_count(const td_maintainers_t *m);

/* The subsystem a path belongs to (borrowed from m), or NULL. */
TD_EXTERN const char *td_maintainers_lookup(const td_maintainers_t *m, const char *path, size_t len);

#ifdef __cplusplus
}
#endif
#endif
