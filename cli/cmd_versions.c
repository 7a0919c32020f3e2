/* treedrift versions: the versions a database holds. */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "treedrift/json.h"
#include "treedrift/store.h"

static const cli_opt_t versions_opts[] = {
	{ "format", 'f', "FMT", "text (default) or json" },
	CLI_OPT_END
};

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

uint64_t cli_db_bytes(td_db_t *db)
{
	return td_db_size_bytes(db);
}

void cli_versions_text(FILE *f, const td_version_t *v, size_t nv, uint64_t db_bytes)
{
	int w = (int)strlen("LABEL");

	for (size_t i = 0; i < nv; i++) {
		int n = (int)cli_escaped_len(or_dash(v[i].meta.label));
		if (n > w)
			w = n;
	}
	fprintf(f, "%-*s %8s %14s %-7s %-20s %s\n", w, "LABEL", "FILES", "BYTES", "SOURCE", "SCANNED", "ROOT");
	for (size_t i = 0; i < nv; i++) {
		/* all of it comes from the database: escaped for the terminal */
		cli_fput_cell(f, or_dash(v[i].meta.label), w);
		fprintf(f, " %8" PRIu64 " %14" PRIu64 " ", v[i].file_count, v[i].total_bytes);
		cli_fput_cell(f, or_dash(v[i].meta.source_kind), 7);
		fputc(' ', f);
		cli_fput_cell(f, or_dash(v[i].meta.scanned_at), 20);
		fputc(' ', f);
		cli_fput_path(f, or_dash(v[i].meta.root), strlen(or_dash(v[i].meta.root)));
		fputc('\n', f);
	}
	fprintf(f, "%zu version%s, database %" PRIu64 " bytes\n", nv, nv == 1 ? "" : "s", db_bytes);
}

static void json_str(FILE *f, const char *key, const char *val)
{
	fprintf(f, ", \"%s\": ", key);
	if (val)
		td_json_string(f, val, strlen(val));
	else
		fputs("null", f);
}

void cli_versions_json(FILE *f, const td_version_t *v, size_t nv, uint64_t db_bytes)
{
	fprintf(f, "\"database_bytes\": %" PRIu64 ", \"versions\": [", db_bytes);
	for (size_t i = 0; i < nv; i++) {
		fprintf(f, "%s\n  {\"index\": %zu", i ? "," : "", i);
		json_str(f, "label", v[i].meta.label);
		fprintf(f, ", \"files\": %" PRIu64 ", \"bytes\": %" PRIu64, v[i].file_count, v[i].total_bytes);
		json_str(f, "source_kind", v[i].meta.source_kind);
		json_str(f, "root", v[i].meta.root);
		json_str(f, "scanned_at", v[i].meta.scanned_at);
		json_str(f, "tool_version", v[i].meta.tool_version);
		fputc('}', f);
	}
	fprintf(f, "%s]", nv ? "\n" : "");
}

int cmd_versions(int argc, char **argv)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	td_db_t *db = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	int json = 0, rc = CLI_EXIT_ERROR, opt;

	if (cli_parser_init(&p, versions_opts, "treedrift versions [options] DB",
			    "List the versions of database DB, oldest first: label, entries, bytes of "
			    "their files, source kind, scan time and root.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		if (!strcmp(versions_opts[opt].name, "format")) {
			if (strcmp(p.arg, "text") && strcmp(p.arg, "json")) {
				cli_error("versions prints text or json, not '%s'", p.arg);
				goto out;
			}
			json = !strcmp(p.arg, "json");
		}
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 1) {
		cli_error("versions takes one database");
		goto out;
	}
	if (td_db_open(&db, p.argv[0], &err) || td_db_versions(&v, &nv, db, &err)) {
		cli_lib_error(&err);
		goto out;
	}
	if (json) {
		fputs("{\"schema\": 1, ", stdout);
		cli_versions_json(stdout, v, nv, cli_db_bytes(db));
		fputs("}\n", stdout);
	} else {
		cli_versions_text(stdout, v, nv, cli_db_bytes(db));
	}
	rc = fflush(stdout) ? cli_error("unable to write the output") : CLI_EXIT_SAME;
out:
	td_versions_free(v, nv);
	td_db_free(db);
	cli_parser_release(&p);
	return rc;
}
