/* treedrift show: a database's versions (in the layout of treedrift versions,
 * cmd_versions.c) and the entries of one of them. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "treedrift/json.h"
#include "treedrift/store.h"

static const cli_opt_t show_opts[] = {
	{ "label", 'l', "LABEL", "version to list (default: newest)" },
	{ "format", 'f', "FMT", "text (default) or json" },
	{ "versions", 0, NULL, "list the versions only" },
	CLI_OPT_END
};

static const char *type_name(td_entry_type_t t)
{
	switch (t) {
	case TD_ENTRY_FILE: return "file";
	case TD_ENTRY_SYMLINK: return "symlink";
	case TD_ENTRY_GITLINK: return "gitlink";
	case TD_ENTRY_SKIPPED: return "skipped";
	}
	return "unknown";
}

static void print_text(const td_version_t *v, size_t nv, uint64_t db_bytes, const td_tree_t *t)
{
	cli_versions_text(stdout, v, nv, db_bytes);
	if (!t)
		return;
	fputs("\nversion ", stdout);
	cli_fput_cell(stdout, t->meta.label ? t->meta.label : "", 0);
	printf(": %zu entries\n", t->count);
	for (size_t i = 0; i < t->count; i++) {
		const td_file_t *f = &t->files[i];
		char sha[2 * TD_SHA256_BYTES + 1] = "-", tlsh[TD_TLSH_HEX_CHARS + 1] = "-";
		const char *extra = "";
		if (f->has_digest) {
			td_sha256_hex(sha, f->digest.sha256);
			if (f->digest.tlsh_status == TD_TLSH_OK)
				td_tlsh_format(tlsh, &f->digest.tlsh);
			else
				extra = td_tlsh_status_name(f->digest.tlsh_status);
		}
		printf("%06o %-7s %10" PRIu64 " %s %s ", (unsigned)f->mode, type_name(f->type),
		       f->size_bytes, sha, f->digest.tlsh_status == TD_TLSH_OK ? tlsh : extra[0] ? extra : "-");
		cli_fput_path(stdout, f->path, f->path_len);
		if (f->type == TD_ENTRY_SYMLINK || f->type == TD_ENTRY_GITLINK) {
			fputs(" -> ", stdout);
			cli_fput_path(stdout, f->link_target, f->link_len);
		} else if (f->type == TD_ENTRY_SKIPPED) {
			printf(" (%s)", f->skip_reason ? f->skip_reason : "skipped");
		}
		putchar('\n');
	}
}

static void json_kv_str(FILE *f, const char *key, const char *val, int comma)
{
	fprintf(f, "%s\"%s\": ", comma ? ", " : "", key);
	if (val)
		td_json_string(f, val, strlen(val));
	else
		fputs("null", f);
}

static void print_json(const td_version_t *v, size_t nv, uint64_t db_bytes, const td_tree_t *t)
{
	printf("{\"schema\": 1, ");
	cli_versions_json(stdout, v, nv, db_bytes);
	if (t) {
		printf(",\n \"label\": ");
		td_json_string(stdout, t->meta.label ? t->meta.label : "", t->meta.label ? strlen(t->meta.label) : 0);
		printf(",\n \"entries\": [");
		for (size_t i = 0; i < t->count; i++) {
			const td_file_t *f = &t->files[i];
			printf("%s\n  {\"path\": ", i ? "," : "");
			td_json_string(stdout, f->path, f->path_len);
			printf(", \"type\": \"%s\", \"mode\": %u, \"size\": %" PRIu64, type_name(f->type),
			       (unsigned)f->mode, f->size_bytes);
			if (f->has_digest) {
				char sha[2 * TD_SHA256_BYTES + 1], tlsh[TD_TLSH_HEX_CHARS + 1];
				td_sha256_hex(sha, f->digest.sha256);
				printf(", \"sha256\": \"%s\"", sha);
				if (f->digest.tlsh_status == TD_TLSH_OK) {
					td_tlsh_format(tlsh, &f->digest.tlsh);
					printf(", \"tlsh\": \"%s\"", tlsh);
				} else {
					printf(", \"tlsh\": null, \"tlsh_status\": \"%s\"",
					       td_tlsh_status_name(f->digest.tlsh_status));
				}
			}
			if (f->link_target) {
				printf(", \"link_target\": ");
				td_json_string(stdout, f->link_target, f->link_len);
			}
			/* what scan and compare warn about (cli_warn_skipped) */
			if (f->type == TD_ENTRY_SYMLINK)
				printf(", \"link_outside\": %s", f->skip_detail ? "true" : "false");
			if (f->type == TD_ENTRY_SKIPPED) {
				json_kv_str(stdout, "skip_reason", f->skip_reason, 1);
				json_kv_str(stdout, "skip_detail", f->skip_detail, 1);
			}
			putchar('}');
		}
		printf("\n ]");
	}
	printf("}\n");
}

int cmd_show(int argc, char **argv)
{
	cli_parser_t p;
	td_error_t err = { 0 };
	const char *label = NULL;
	int json = 0, versions_only = 0, rc = CLI_EXIT_ERROR, opt;
	td_db_t *db = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_tree_t *t = NULL;

	if (cli_parser_init(&p, show_opts, "treedrift show [options] DB",
			    "Print the versions of database DB, as treedrift versions does, and the entries of one version.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = show_opts[opt].name;
		if (!strcmp(name, "label")) {
			label = p.arg;
		} else if (!strcmp(name, "versions")) {
			versions_only = 1;
		} else if (!strcmp(name, "format")) {
			if (strcmp(p.arg, "text") && strcmp(p.arg, "json")) {
				cli_error("show prints text or json, not '%s'", p.arg);
				goto out;
			}
			json = !strcmp(p.arg, "json");
		}
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 1) {
		cli_error("show takes one database");
		goto out;
	}
	if (td_db_open(&db, p.argv[0], &err) || td_db_versions(&v, &nv, db, &err) ||
	    (!versions_only && td_db_load(&t, db, label, &err))) {
		cli_lib_error(&err);
		goto out;
	}
	if (json)
		print_json(v, nv, cli_db_bytes(db), t);
	else
		print_text(v, nv, cli_db_bytes(db), t);
	rc = fflush(stdout) ? cli_error("unable to write the output") : CLI_EXIT_SAME;
out:
	td_tree_free(t);
	td_versions_free(v, nv);
	td_db_free(db);
	cli_parser_release(&p);
	return rc;
}
