/* treedrift: measure how far a source tree has drifted from upstream. */
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"
#include "treedrift/source.h"
#include "treedrift/tlsh.h"

static const cli_cmd_t commands[] = {
	{ "scan", cmd_scan, "hash a tree into a database" },
	{ "compare", cmd_compare, "compare a target tree against upstream" },
	{ "show", cmd_show, "print a database's metadata and entries" },
	{ "versions", cmd_versions, "list the versions a database holds" },
	{ "base", cmd_base, "find which database version a tree is based on" },
	{ "hash", cmd_hash, "print TLSH digests of files, as the reference tlsh does" },
	{ "distance", cmd_distance, "print the TLSH distance of two digests" },
	{ "trend", cmd_trend, "total distance of a series of releases against upstream" },
	{ "check", cmd_check, "check that a database is sound" },
	{ "db", cmd_db, "copy, delete and prune the versions of databases (SQLite, PostgreSQL)" },
	{ NULL, NULL, NULL }
};

/* A comparison reads tens of thousands of files again, a few kilobytes to
 * tens of megabytes each, into buffers and line tables made and freed per
 * file. With glibc's defaults the big ones are mapped and unmapped each
 * time, and the heap's top is handed back to the kernel as soon as it is
 * freed, so the next file faults its pages in again: a third or more of a
 * comparison's page faults. Keeping them costs 13 to 31 MB of peak RSS
 * (bench/README.md, "Compare: fewer page faults"). */
static void tune_allocator(void)
{
#ifdef __GLIBC__
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

static void usage(FILE *f)
{
	fputs("usage: treedrift [--version] [--help] COMMAND [options] [ARGS]\n\ncommands:\n", f);
	for (const cli_cmd_t *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nRun 'treedrift COMMAND --help' for a command's options; see treedrift(1).\n", f);
}

int main(int argc, char **argv)
{
	td_error_t err = { 0 };

	tune_allocator();
	/* Git objects are read as git reads them: libgit2's hash of every
	 * object it reads takes a third of a compare of revisions with
	 * --history (bench/README.md); loose ones are still checked. */
	if (td_git_strict_hash(0, &err)) {
		cli_error("%s", err.msg);
		return CLI_EXIT_ERROR;
	}
	/* A TD_TLSH_LOOP this CPU cannot run is an error, not a silent
	 * fallback: a benchmark would time another loop than it says. */
	if (td_tlsh_loop_check(&err)) {
		cli_error("%s", err.msg);
		return CLI_EXIT_ERROR;
	}
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_SAME;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("treedrift %s (TLSH loop: %s)\n", td_version(), td_tlsh_loop());
		return CLI_EXIT_SAME;
	}
	if (!strcmp(argv[1], "--list-commands")) { /* hidden: for the shell completion */
		for (const cli_cmd_t *c = commands; c->name; c++)
			puts(c->name);
		return CLI_EXIT_SAME;
	}
	for (const cli_cmd_t *c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	cli_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return CLI_EXIT_ERROR;
}
