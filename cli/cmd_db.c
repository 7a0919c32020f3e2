/* treedrift db: the versions of a database. copy: from one database into
 * another, SQLite or PostgreSQL either way, each content stored once in the
 * destination; delete: versions out of a database; prune: what no version
 * refers to out of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treedrift/store.h"

static const cli_opt_t copy_opts[] = {
	{ "label", 'l', "LABEL", "copy only this version (default: all, oldest first)" },
	{ "replace", 0, NULL, "replace a version of the same label in DST" },
	{ "quiet", 'q', NULL, "no note on stderr" },
	CLI_OPT_END
};

static const cli_opt_t quiet_opts[] = {
	{ "quiet", 'q', NULL, "no note on stderr" },
	CLI_OPT_END
};

static const cli_opt_t no_opts[] = { CLI_OPT_END };

static int db_copy(int argc, char **argv)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	const char *label = NULL;
	int quiet = 0, replace = 0, rc = CLI_EXIT_ERROR, opt;
	td_db_t *src = NULL;
	td_db_writer_t *w = NULL;
	char *shown_src = NULL, *shown_dst = NULL;
	size_t copied = 0;

	if (cli_parser_init(&p, copy_opts, "treedrift db copy [options] SRC DST",
			    "Copy the versions of database SRC into database DST (created if absent). Either may "
			    "be an SQLite file or a PostgreSQL URI (postgresql://...). Content and paths are "
			    "stored once in DST; the versions appear there together, or none of them.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = copy_opts[opt].name;
		if (!strcmp(name, "label"))
			label = p.arg;
		else if (!strcmp(name, "replace"))
			replace = 1;
		else if (!strcmp(name, "quiet"))
			quiet = 1;
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 2) {
		cli_error("db copy takes SRC and DST");
		goto out;
	}
	if (!(shown_src = td_db_display_name(p.argv[0])) || !(shown_dst = td_db_display_name(p.argv[1]))) {
		cli_error("out of memory");
		goto out;
	}
	if (!td_db_sniff(p.argv[0])) {
		cli_error("'%s' is not a treedrift database", shown_src);
		goto out;
	}
	if (td_db_open(&src, p.argv[0], &err) || td_db_writer_open(&w, p.argv[1], TD_DB_APPEND, &err) ||
	    td_db_copy(&copied, w, src, label, replace, &err) || td_db_writer_commit(w, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	if (!quiet)
		cli_note("copied %zu version%s from '%s' into '%s'", copied, copied == 1 ? "" : "s", shown_src,
			 shown_dst);
	rc = CLI_EXIT_SAME;
out:
	td_db_writer_free(w);
	td_db_free(src);
	free(shown_src);
	free(shown_dst);
	cli_parser_release(&p);
	return rc;
}

/* db delete (labels) and db prune (no labels): one writer of an existing
 * database, committed when every label is deleted. */
static int db_change(int argc, char **argv, int prune)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	int quiet = 0, rc = CLI_EXIT_ERROR, opt;
	td_db_writer_t *w = NULL;
	char *shown = NULL;

	if (cli_parser_init(&p, quiet_opts, prune ? "treedrift db prune [options] DB"
						  : "treedrift db delete [options] DB LABEL...",
			    prune ? "Drop the content and paths no version of database DB refers to (an SQLite "
				    "file gives back its free pages). PostgreSQL refuses while other writers are "
				    "at work."
				  : "Delete the versions LABEL... from database DB, all of them or, when one is "
				    "not there, none. The content and paths no version refers to any more go too "
				    "(PostgreSQL: unless another writer is at work; then db prune later).",
			    argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0)
		if (!strcmp(quiet_opts[opt].name, "quiet"))
			quiet = 1;
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (prune ? p.argc != 1 : p.argc < 2) {
		cli_error(prune ? "db prune takes DB" : "db delete takes DB and one or more LABELs");
		goto out;
	}
	if (!(shown = td_db_display_name(p.argv[0]))) {
		cli_error("out of memory");
		goto out;
	}
	/* the writer would make a new database at a path that has none */
	if (!td_db_sniff(p.argv[0])) {
		cli_error("'%s' is not a treedrift database", shown);
		goto out;
	}
	if (td_db_writer_open(&w, p.argv[0], TD_DB_APPEND, &err) || (prune && td_db_writer_prune(w, &err))) {
		cli_lib_error(&err);
		goto out;
	}
	for (int i = 1; i < p.argc; i++)
		if (td_db_writer_delete(w, p.argv[i], &err)) {
			cli_lib_error(&err);
			goto out;
		}
	if (td_db_writer_commit(w, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	if (!quiet && prune)
		cli_note("pruned '%s'", shown);
	else if (!quiet)
		cli_note("deleted %d version%s from '%s'", p.argc - 1, p.argc == 2 ? "" : "s", shown);
	rc = CLI_EXIT_SAME;
out:
	td_db_writer_free(w);
	free(shown);
	cli_parser_release(&p);
	return rc;
}

int cmd_db(int argc, char **argv)
{
	cli_parser_t p;
	int rc = CLI_EXIT_ERROR, opt;

	if (argc >= 2 && !strcmp(argv[1], "copy"))
		return db_copy(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "delete") || !strcmp(argv[1], "prune")))
		return db_change(argc - 1, argv + 1, !strcmp(argv[1], "prune"));
	if (cli_parser_init(&p, no_opts, "treedrift db copy|delete|prune [options] ...",
			    "copy SRC DST: copy the versions of one database into another. delete DB LABEL...: "
			    "delete versions from a database. prune DB: drop what no version refers to. Run "
			    "'treedrift db COMMAND --help' for a command's options.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0)
		;
	if (!cli_parser_stop(opt, &rc))
		cli_error(p.argc ? "unknown db command '%s' (copy, delete, prune)"
				 : "db needs a command (copy, delete, prune)",
			  p.argc ? p.argv[0] : "");
	cli_parser_release(&p);
	return rc;
}
