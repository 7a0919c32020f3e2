/* compare's and trend's origin stage: see origins.h. */
#include <string.h>

#include "cli.h"
#include "origins.h"
#include "treedrift/store.h"

void cli_origins_init(cli_origins_t *o)
{
	td_origin_opts_init(&o->opts);
	o->enabled = 1;
}

int cli_origins_opt(cli_origins_t *o, const char *name, const char *arg)
{
	if (!strcmp(name, "find-copies")) {
		o->opts.find_copies = 1;
	} else if (!strcmp(name, "copy-threshold")) {
		if (cli_parse_score(name, arg, &o->opts.copy_threshold))
			return -1;
	} else if (!strcmp(name, "no-origins")) {
		o->enabled = 0;
	} else {
		return 0;
	}
	return 1;
}

void cli_origins_setup(cli_origins_t *o, td_load_opts_t *lo)
{
	lo->upstream_full = !o->enabled ? 0 : o->opts.find_copies ? TD_UPSTREAM_FULL_ALWAYS
								  : TD_UPSTREAM_FULL_IF_ADDED;
	o->opts.threads = lo->scan.jobs;
}

int cli_origins_find(cli_origins_t *o, td_result_t *r, td_db_t *upstream_db)
{
	td_error_t err = { 0 };
	int rc = 0;

	if (upstream_db && r->base_version)
		rc = td_origin_versions(r, upstream_db, NULL, &err);
	if (!rc && o->enabled)
		rc = td_origin_find(r, &o->opts, NULL, &err);
	return rc ? cli_lib_error(&err) : 0;
}
