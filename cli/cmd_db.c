/* treedrift db copy: versions from one database into another, SQLite or
 * PostgreSQL either way, each content stored once in the destination. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treedrift/store.h"

static const cli_opt_t db_opts[] = {
	{ "label", 'l', "LABEL", "copy only this version (default: all, oldest first)" },
	{ "replace", 0, NULL, "replace a version of the same label in DST" },
	{ "quiet", 'q', NULL, "no note on stderr" },
	CLI_OPT_END
};

int cmd_db(int argc, char **argv)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	const char *label = NULL;
	int quiet = 0, replace = 0, rc = CLI_EXIT_ERROR, opt;
	td_db_t *src = NULL;
	td_db_writer_t *w = NULL;
	char *shown_src = NULL, *shown_dst = NULL;
	size_t copied = 0;

	if (cli_parser_init(&p, db_opts, "treedrift db copy [options] SRC DST",
			    "Copy the versions of database SRC into database DST (created if absent). Either may "
			    "be an SQLite file or a PostgreSQL URI (postgresql://...). Content and paths are "
			    "stored once in DST; the versions appear there together, or none of them.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = db_opts[opt].name;
		if (!strcmp(name, "label"))
			label = p.arg;
		else if (!strcmp(name, "replace"))
			replace = 1;
		else if (!strcmp(name, "quiet"))
			quiet = 1;
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc < 1 || strcmp(p.argv[0], "copy")) {
		cli_error(p.argc ? "unknown db command '%s' (copy)" : "db needs a command (copy)",
			  p.argc ? p.argv[0] : "");
		goto out;
	}
	if (p.argc != 3) {
		cli_error("db copy takes SRC and DST");
		goto out;
	}
	if (!(shown_src = td_db_display_name(p.argv[1])) || !(shown_dst = td_db_display_name(p.argv[2]))) {
		cli_error("out of memory");
		goto out;
	}
	if (!td_db_sniff(p.argv[1])) {
		cli_error("'%s' is not a treedrift database", shown_src);
		goto out;
	}
	if (td_db_open(&src, p.argv[1], &err) || td_db_writer_open(&w, p.argv[2], TD_DB_APPEND, &err) ||
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
