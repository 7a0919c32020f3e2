/* Text files the library reads whole (policies, MAINTAINERS): reading them
 * with a size limit, and errors that point at a line of them. */
#ifndef TD_TEXTFILE_H
#define TD_TEXTFILE_H

#include <stddef.h>

#include "internal.h"

/* Read the file at path into *out (NUL-terminated; caller frees with free()),
 * its length in *len. A file larger than max_bytes is TD_ENOMEM, a missing
 * one TD_ENOTFOUND, any other failure TD_EIO. */
int td_read_file(char **out, size_t *len, const char *path, size_t max_bytes, td_error_t *err);

/* td_error_set with the message prefixed by "NAME:LINE: ". */
int td_error_at(td_error_t *err, int code, const char *name, unsigned line, const char *fmt, ...)
	TD_PRINTF(5, 6);

/* A blank inside a line: space or tab. */
static inline int td_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

#endif
