/* Helpers shared by the fuzz targets that need their input as a file. */
#ifndef TD_FUZZ_COMMON_H
#define TD_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file of this process under $TMPDIR (or /tmp), created on first use and
 * rewritten with each input; its name ends in suffix. Removed at exit. */
static char fuzz_path[4096];

static void fuzz_remove_file(void)
{
	if (fuzz_path[0])
		unlink(fuzz_path);
}

static const char *fuzz_write_file(const uint8_t *data, size_t size, const char *suffix)
{
	FILE *f;

	if (!fuzz_path[0]) {
		const char *dir = getenv("TMPDIR");

		snprintf(fuzz_path, sizeof(fuzz_path), "%s/td-fuzz-%ld%s", dir && *dir ? dir : "/tmp",
			 (long)getpid(), suffix);
		atexit(fuzz_remove_file);
	}
	if (!(f = fopen(fuzz_path, "wb")))
		abort();
	if ((size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	return fuzz_path;
}

#endif
