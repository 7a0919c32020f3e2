/* Move and copy detection and other-version matching as compare and trend
 * run them, so that both score a pair of trees the same way. */
#ifndef TD_CLI_ORIGINS_H
#define TD_CLI_ORIGINS_H

#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/origin.h"

#define CLI_ORIGIN_OPTS \
	{ "find-copies", 0, NULL, "look for a nearer upstream file of modified files too, not only of added ones" }, \
	{ "copy-threshold", 0, "N", "an added file within distance N of an upstream file is a copy (default 70)" }, \
	{ "no-origins", 0, NULL, "no rename and copy detection (upstream read only where needed)" }

typedef struct cli_origins {
	td_origin_opts_t opts;
	int enabled;  /* 1 unless --no-origins */
} cli_origins_t;

void cli_origins_init(cli_origins_t *o);
/* Take one option: 1 when it was one of CLI_ORIGIN_OPTS, 0 when not, -1 on
 * a bad value (after a message). */
int cli_origins_opt(cli_origins_t *o, const char *name, const char *arg);
/* What the load must digest of upstream for the search, and its threads. */
void cli_origins_setup(cli_origins_t *o, td_load_opts_t *lo);
/* After td_compare: other versions of a multi-version upstream database
 * (upstream_db, the handle the load kept open; NULL when upstream is a
 * source), then moves and copies. 0, or CLI_EXIT_ERROR after a message. */
int cli_origins_find(cli_origins_t *o, td_result_t *r, td_db_t *upstream_db);

#endif
