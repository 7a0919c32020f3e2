/* Preloaded into the CLI by dtype_unknown.sh: every directory entry comes
 * back with d_type DT_UNKNOWN, as on file systems that do not fill it in,
 * so that the walk must stat each name to learn its type. Each rewritten
 * entry appends a byte to the file $TD_DTYPE_LOG names, so that the test
 * can tell the shim took effect. */
#define _GNU_SOURCE
/* readdir and readdir64 are both defined here, so neither may be renamed
 * to the other (the build may set _FILE_OFFSET_BITS=64). */
#undef _FILE_OFFSET_BITS
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct dirent *readdir_fn(DIR *);
typedef struct dirent64 *readdir64_fn(DIR *);

static void note(void)
{
	const char *log = getenv("TD_DTYPE_LOG");
	FILE *f;

	if (log && *log && (f = fopen(log, "a"))) {
		fputc('.', f);
		fclose(f);
	}
}

struct dirent *readdir(DIR *dir)
{
	readdir_fn *real = (readdir_fn *)dlsym(RTLD_NEXT, "readdir");
	struct dirent *de = real ? real(dir) : NULL;

	if (de) {
		de->d_type = DT_UNKNOWN;
		note();
	}
	return de;
}

struct dirent64 *readdir64(DIR *dir)
{
	readdir64_fn *real = (readdir64_fn *)dlsym(RTLD_NEXT, "readdir64");
	struct dirent64 *de = real ? real(dir) : NULL;

	if (de) {
		de->d_type = DT_UNKNOWN;
		note();
	}
	return de;
}
