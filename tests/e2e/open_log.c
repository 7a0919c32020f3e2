/* Preloaded into the CLI by compare_opens.sh: appends the name of every
 * SQLite database opened to the file $TD_OPEN_LOG names, so that the test
 * can count how often a run opens one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct sqlite3 sqlite3;
typedef int open_fn(const char *, sqlite3 **, int, const char *);

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
	open_fn *real = (open_fn *)dlsym(RTLD_NEXT, "sqlite3_open_v2");
	const char *log = getenv("TD_OPEN_LOG");
	FILE *f;

	if (log && *log && (f = fopen(log, "a"))) {
		fprintf(f, "%s\n", filename ? filename : "");
		fclose(f);
	}
	return real ? real(filename, db, flags, vfs) : 1 /* SQLITE_ERROR */;
}
