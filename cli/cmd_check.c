/* treedrift check: is a database sound? */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treedrift/store.h"

static const cli_opt_t check_opts[] = {
	{ "quiet", 'q', NULL, "print nothing when the database is sound" },
	CLI_OPT_END
};

/* Loading decodes every row of every version: it finds what a sound
 * b-tree can still hold wrongly (a bad digest length, an unknown type). */
static int load_all(td_db_t *db, const td_version_t *v, size_t nv, uint64_t *entries, td_error_t *err)
{
	for (size_t i = 0; i < nv; i++) {
		td_tree_t *t = NULL;
		int rc = td_db_load(&t, db, v[i].meta.label, err);

		if (rc)
			return rc;
		*entries += t->count;
		td_tree_free(t);
	}
	return TD_OK;
}

int cmd_check(int argc, char **argv)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	int quiet = 0, rc = CLI_EXIT_ERROR, opt;
	td_db_t *db = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	uint64_t entries = 0;

	if (cli_parser_init(&p, check_opts, "treedrift check [options] DB",
			    "Check that database DB is sound: SQLite's integrity check (PostgreSQL: its schema and "
			    "referential integrity), treedrift's own "
			    "consistency checks, and every version loads. Exit status 0 when it is sound, "
			    "2 otherwise.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0)
		if (!strcmp(check_opts[opt].name, "quiet"))
			quiet = 1;
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 1) {
		cli_error("check takes one database");
		goto out;
	}
	if (td_db_open(&db, p.argv[0], &err) || td_db_check(db, &err) ||
	    td_db_versions(&v, &nv, db, &err) || load_all(db, v, nv, &entries, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	if (!quiet) {
		char *name = td_db_display_name(p.argv[0]); /* a URI without its password */
		if (!name) {
			rc = cli_error("out of memory");
			goto out;
		}
		cli_fput_path(stdout, name, strlen(name));
		free(name);
		printf(": ok, %zu version%s, %llu entries\n", nv, nv == 1 ? "" : "s", (unsigned long long)entries);
	}
	rc = fflush(stdout) ? cli_error("unable to write the output") : CLI_EXIT_SAME;
out:
	td_versions_free(v, nv);
	td_db_free(db);
	cli_parser_release(&p);
	return rc;
}
