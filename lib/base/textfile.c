#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

#define READ_CHUNK_BYTES 65536

int td_read_file(char **out, size_t *len, const char *path, size_t max_bytes, td_error_t *err)
{
	FILE *f;
	char *buf = NULL, *grown;
	size_t n = 0, cap = 0;
	int rc = TD_OK;

	*out = NULL;
	*len = 0;
	if (max_bytes >= SIZE_MAX - 1)
		return td_error_set(err, TD_EINVAL, "no size limit for '%s'", path);
	if (!(f = fopen(path, "rb")))
		return td_error_set(err, errno == ENOENT ? TD_ENOTFOUND : TD_EIO,
				    "unable to open '%s': %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (n == cap) {
			/* up to one byte over the limit, which tells an oversized file apart */
			cap = cap + READ_CHUNK_BYTES > max_bytes + 1 ? max_bytes + 1 : cap + READ_CHUNK_BYTES;
			if (!(grown = realloc(buf, cap + 1))) {
				rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", path);
				goto out;
			}
			buf = grown;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n > max_bytes) {
			rc = td_error_set(err, TD_ENOMEM, "'%s' is larger than %zu bytes", path, max_bytes);
			goto out;
		}
		if (got)
			continue;
		if (ferror(f)) {
			rc = td_error_set(err, TD_EIO, "unable to read '%s': %s", path, strerror(errno));
			goto out;
		}
		break;
	}
	buf[n] = '\0'; /* the loop allocated at least once, always with room for it */
	*out = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return rc;
}

int td_error_at(td_error_t *err, int code, const char *name, unsigned line, const char *fmt, ...)
{
	char text[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return td_error_set(err, code, "%s:%u: %s", name, line, text);
}
