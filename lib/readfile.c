#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "internal.h"

int td_read_file(char **out, size_t *len, const char *path, size_t max_bytes, td_error_t *err)
{
	FILE *f;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = TD_OK;

	*out = NULL;
	*len = 0;
	if (max_bytes == SIZE_MAX)
		max_bytes--;
	if (!(f = fopen(path, "rb")))
		return td_error_set(err, errno == ENOENT ? TD_ENOTFOUND : TD_EIO,
				    "unable to open '%s': %s", path, strerror(errno));
	for (;;) {
		size_t got;

		/* room for one byte over the limit, which tells an oversized file apart */
		if (n == cap && td_grow((void **)&buf, &cap, n < max_bytes ? n + 1 : max_bytes + 1, 1)) {
			rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", path);
			goto out;
		}
		if (cap > max_bytes + 1)
			cap = max_bytes + 1;
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
	if (td_grow((void **)&buf, &cap, n + 1, 1)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory reading '%s'", path);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return rc;
}
