/* Reading a small text file whole, with a size limit. */
#ifndef TD_READFILE_H
#define TD_READFILE_H

#include <stddef.h>

#include "treedrift/common.h"

/* Read the file at path into *out (NUL-terminated; caller frees with free()),
 * its length in *len. A file larger than max_bytes is TD_ENOMEM, a missing
 * one TD_ENOTFOUND, any other failure TD_EIO. */
int td_read_file(char **out, size_t *len, const char *path, size_t max_bytes, td_error_t *err);

#endif
