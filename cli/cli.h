/* The command-line layer: a dispatch table of subcommands and option tables
 * that drive both getopt_long parsing and --help. Only the CLI prints. */
#ifndef TD_CLI_H
#define TD_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "treedrift/common.h"
#include "treedrift/load.h"
#include "treedrift/store.h"

/* Exit statuses, as diff(1). */
enum { CLI_EXIT_SAME = 0, CLI_EXIT_DRIFT = 1, CLI_EXIT_ERROR = 2 };

typedef struct cli_opt {
	const char *name;    /* long name without "--" */
	int short_name;      /* 0 when there is none */
	const char *metavar; /* NULL: the option takes no argument */
	const char *help;    /* one line for --help */
} cli_opt_t;

/* Table terminator. */
#define CLI_OPT_END { NULL, 0, NULL, NULL }

typedef struct cli_parser {
	const cli_opt_t *opts;
	const char *usage;     /* "treedrift scan [options] TREE" */
	const char *summary;   /* one sentence of what the command does */
	int argc;
	char **argv;
	const char *arg;       /* argument of the option just returned */
	void *impl;
} cli_parser_t;

/* Start parsing argv (argv[0] is the subcommand name). --help is implied. */
int cli_parser_init(cli_parser_t *p, const cli_opt_t *opts, const char *usage,
		    const char *summary, int argc, char **argv);
void cli_parser_release(cli_parser_t *p);

/* Index of the next option found in p->opts, or: CLI_PARSE_DONE when the
 * options end (then p->argc/p->argv hold the operands), CLI_PARSE_HELP after
 * printing --help to stdout, CLI_PARSE_ERROR after a message on stderr. */
enum { CLI_PARSE_DONE = -1, CLI_PARSE_HELP = -2, CLI_PARSE_ERROR = -3 };
int cli_parser_next(cli_parser_t *p);
/* After the option loop, given its last cli_parser_next() result: 1 when
 * the command must stop now, with *rc set (CLI_EXIT_SAME after --help,
 * CLI_EXIT_ERROR after a bad option); 0 when the operands are next. */
int cli_parser_stop(int opt, int *rc);

/* Look up an option's index by long name (for switch statements). */
int cli_opt_index(const cli_opt_t *opts, const char *name);

void cli_print_usage(FILE *f, const cli_parser_t *p);
/* One option a line, "--name METAVAR" and "-n METAVAR", for the shell
 * completion; what the hidden --list-options of every command prints. */
void cli_print_options(FILE *f, const cli_opt_t *opts);

/* Messages to stderr, prefixed "treedrift: ". The formatted message goes out
 * through td_text_escape: whatever a path or a library message holds, it
 * cannot drive the terminal. Return CLI_EXIT_ERROR. */
int cli_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
int cli_lib_error(const td_error_t *err);
/* A note on stderr ("treedrift: ..."), escaped like cli_error. */
void cli_note(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
void cli_warn(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Strict number parsing; 0 on success. */
int cli_parse_uint(const char *s, unsigned long long max, unsigned long long *out);
int cli_parse_double(const char *s, double *out);
/* A distance or score option (--NAME N, 0 to 100000) into *out; -1 after a
 * message. */
int cli_parse_score(const char *name, const char *arg, int *out);

/* Subcommands: each gets argv with argv[0] = its name. */
typedef struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} cli_cmd_t;

int cmd_scan(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_distance(int argc, char **argv);
int cmd_versions(int argc, char **argv);
int cmd_base(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_db(int argc, char **argv);

/* Options every command that reads trees takes (scan, compare, ...): put
 * CLI_TREE_OPTS in the option table and hand unknown names to
 * cli_tree_opt(), which returns 1 when it took the option, -1 on a bad value. */
#define CLI_TREE_OPTS \
	{ "repo", 0, "REPO", "read each TREE that is not a database as a revision of git repository REPO" }, \
	{ "jobs", 'j', "N", "worker threads (default: online CPUs)" }, \
	{ "strip-components", 0, "N", "archives: drop N leading path parts" }, \
	{ "no-auto-strip", 0, NULL, "archives: keep a single top-level folder" }, \
	{ "keep-going", 0, NULL, "archives: go on past a corrupt or truncated archive" }, \
	{ "max-file-size", 0, "SIZE", "skip files larger than SIZE (K, M, G suffixes; default 1G; none: no limit)" }, \
	{ "max-entries", 0, "N", "fail on a tree of more than N entries (default 10000000; none: no limit)" }, \
	{ "quiet", 'q', NULL, "no progress or warnings on stderr" }
int cli_tree_opt(const char *name, const char *arg, td_load_opts_t *o, int *quiet);
/* Files over this are skipped as too_large unless --max-file-size says
 * otherwise: content is streamed, so the limit bounds time, not memory (a
 * sparse file of a terabyte costs nothing to ship in an archive). */
#define CLI_DEFAULT_MAX_FILE_SIZE (1ull << 30)
/* td_load_opts_init() and the CLI's defaults for the tree options. */
void cli_load_opts_init(td_load_opts_t *o);
int cli_parse_size(const char *s, unsigned long long *out);

/* Progress on stderr, only when it is a terminal and not --quiet. A rate
 * and an ETA show once a pass has run CLI_PROGRESS_RATE_AFTER seconds: over
 * less, a few bytes in a few microseconds make absurd rates. */
#define CLI_PROGRESS_RATE_AFTER 1.0
typedef struct cli_progress {
	int enabled;
	const char *what;
	double start;
	int drawn;
	uint64_t phase_total;  /* files_total of the pass being drawn: a new one restarts the clock */
	struct cli_progress *line; /* the one that owns the terminal line (itself, or upstream's) */
	const struct cli_progress *last; /* of the line: the one that drew last */
} cli_progress_t;
void cli_progress_init(cli_progress_t *p, const char *what, int quiet);
/* Seconds on a monotonic clock: progress rates, --stats times. */
double cli_now_s(void);
/* The two sides of a comparison, "reading upstream" and "reading target",
 * on one line: up gets td_load_opts_t.scan.progress_ctx, tgt its
 * progress_ctx_target. cli_progress_done(up) ends both. */
void cli_progress_sides(cli_progress_t *up, cli_progress_t *tgt, td_load_opts_t *lo, int quiet);
void cli_progress_cb(void *ctx, uint64_t files_done, uint64_t files_total,
		     uint64_t bytes_done, uint64_t bytes_total);
void cli_progress_done(cli_progress_t *p);

/* Print each skipped entry of tree to stderr as a warning (unless quiet). */
void cli_warn_skipped(const td_tree_t *tree, const char *side, int quiet);
/* Any text from input (a path, a link target, a label) for a terminal:
 * td_text_escape (controls, bidirectional characters, backslash and bytes
 * that are not UTF-8 as C escapes). */
void cli_fput_path(FILE *f, const char *path, size_t len);
/* Text from a database (labels, source kinds) escaped as cli_fput_path does:
 * a malloc'd copy (NULL when out of memory), its length, and a table cell
 * padded with spaces to width bytes. */
char *cli_escaped(const char *s);
size_t cli_escaped_len(const char *s);
void cli_fput_cell(FILE *f, const char *s, int width);

/* The versions of a database in the one layout that `treedrift versions` and
 * `treedrift show` share (cmd_versions.c). db_bytes: the database file's size,
 * from cli_db_bytes() (0 when it cannot be read). */
uint64_t cli_db_bytes(td_db_t *db);
/* A table with a header line, then "N versions, database B bytes". */
void cli_versions_text(FILE *f, const td_version_t *v, size_t nv, uint64_t db_bytes);
/* The members "database_bytes" and "versions" of a JSON object, without its
 * braces, so that a command can add members of its own. */
void cli_versions_json(FILE *f, const td_version_t *v, size_t nv, uint64_t db_bytes);

#endif
