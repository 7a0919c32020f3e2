/* treedrift scan: hash a tree into a database version. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treedrift/scan.h"
#include "treedrift/store.h"

static const cli_opt_t scan_opts[] = {
	{ "output", 'o', "DB", "database to write (required); a version is added if it exists" },
	{ "label", 'l', "LABEL", "version label, e.g. v6.1 (default: the tree's name)" },
	{ "replace", 0, NULL, "replace a version of the same label" },
	{ "new", 0, NULL, "write a new database instead of adding to an existing one" },
	{ "reuse", 0, "DB", "reuse digests from any version of DB: same git blob id, or same path, size, mtime and inode" },
	CLI_TREE_OPTS,
	CLI_OPT_END
};

/* SIGINT, SIGTERM and SIGHUP stop a scan through its cancel flag, so
 * that the writer's normal cleanup removes the lock and the temporary
 * file; the signal is raised again once that is done, so that the caller
 * sees how the scan ended. A second signal kills at once (SA_RESETHAND).
 * A signal ignored when the scan started (nohup) stays ignored. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static volatile int stop_requested;
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
	stop_requested = 1;
}

static void stop_signals_catch(void)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction sa, old;
		if (sigaction(stop_signals[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(stop_signals[i], &sa, NULL);
	}
}

/* Put the default actions back; die of the signal that stopped the scan. */
static void stop_signals_release(void)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction old;
		if (!sigaction(stop_signals[i], NULL, &old) && old.sa_handler == on_stop_signal)
			signal(stop_signals[i], SIG_DFL);
	}
	if (stop_signal)
		raise(stop_signal);
}

/* A label from the source: a directory's or archive's name, a git revision
 * (all of it: "vendor/bsp-2.0"). */
static char *default_label(const char *spec, const char *repo)
{
	const char *s = spec, *at, *slash;
	size_t n;

	if (repo && strncmp(s, "archive:", 8) && strncmp(s, "git:", 4))
		return strdup(s);
	if (!strncmp(s, "git:", 4) && (at = strrchr(s, '@')) && at[1])
		return strdup(at + 1);
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		n--;
	for (slash = s + n; slash > s && slash[-1] != '/'; slash--)
		;
	slash = slash > s ? slash - 1 : NULL;
	if (slash) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	n -= td_archive_suffix_len(s, n);
	return strndup(s, n);
}

int cmd_scan(int argc, char **argv)
{
	cli_parser_t p;
	td_load_opts_t lo;
	td_error_t err = { 0 };
	const char *output = NULL, *label = NULL, *reuse_path = NULL;
	int replace = 0, fresh = 0, quiet = 0, rc = CLI_EXIT_ERROR, opt;
	td_tree_t *tree = NULL;
	td_db_loader_t *reuse = NULL;
	td_source_t *src = NULL;
	td_db_writer_t *w = NULL;
	td_scan_stats_t stats = { 0 };
	cli_progress_t prog;
	char *auto_label = NULL, *shown = NULL;

	cli_load_opts_init(&lo);
	if (cli_parser_init(&p, scan_opts, "treedrift scan [options] -o DB TREE",
			    "Hash every file of TREE (a directory, git:REPO@REV or an archive) with SHA-256 "
			    "and TLSH into the database DB, as one version.", argc, argv))
		return cli_error("out of memory");
	while ((opt = cli_parser_next(&p)) >= 0) {
		const char *name = scan_opts[opt].name;
		int t = cli_tree_opt(name, p.arg, &lo, &quiet);
		if (t < 0)
			goto out;
		if (t)
			continue;
		if (!strcmp(name, "output"))
			output = p.arg;
		else if (!strcmp(name, "label"))
			label = p.arg;
		else if (!strcmp(name, "replace"))
			replace = 1;
		else if (!strcmp(name, "new"))
			fresh = 1;
		else if (!strcmp(name, "reuse"))
			reuse_path = p.arg;
	}
	if (cli_parser_stop(opt, &rc))
		goto out;
	if (p.argc != 1) {
		cli_error(p.argc ? "scan takes one tree" : "scan needs a tree to read");
		goto out;
	}
	if (!output) {
		cli_error("scan needs an output database (-o DB)");
		goto out;
	}
	if (!label && !(label = auto_label = default_label(p.argv[0], lo.source.repo))) {
		cli_error("out of memory");
		goto out;
	}
	if (!*label || strpbrk(label, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
				      "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f")) {
		cli_error("a version label must be non-empty and printable (--label)");
		goto out;
	}
	if (reuse_path && !td_spec_is_db(reuse_path)) {
		cli_error("--reuse takes a treedrift database, not '%s'", reuse_path);
		goto out;
	}
	/* loaded while the tree is walked */
	if (reuse_path && td_db_loader_start(&reuse, reuse_path, NULL, NULL, TD_DB_LOAD_REUSE, &err))
		goto lib_error;
	stop_signals_catch();
	lo.scan.cancel = &stop_requested;
	/* Take the lock before the long part, so a second writer fails at once. */
	if (td_db_writer_open(&w, output, fresh ? TD_DB_CREATE : TD_DB_APPEND, &err))
		goto lib_error;
	if (td_source_open(&src, p.argv[0], &lo.source, &err))
		goto lib_error;
	cli_progress_init(&prog, "scanning", quiet);
	lo.scan.progress = cli_progress_cb;
	lo.scan.progress_ctx = &prog;
	if (reuse) {
		lo.scan.reuse_wait = td_db_loader_wait;
		lo.scan.reuse_ctx = reuse;
	}
	/* Entries are written while later files are still being digested. */
	if (td_db_writer_add_scan(w, &tree, src, label, replace, &lo.scan, &stats, &err)) {
		cli_progress_done(&prog);
		if (stop_signal)
			goto out; /* the signal says why */
		goto lib_error;
	}
	cli_progress_done(&prog);
	if (td_source_incomplete(src))
		cli_warn("'%s' is incomplete: %s", p.argv[0], td_source_incomplete_reason(src));
	cli_warn_skipped(tree, NULL, quiet);
	if (stop_signal)
		goto out; /* stopped after the scan: no version either */
	if (td_db_writer_commit(w, &err))
		goto lib_error;
	if (!quiet && !(shown = td_db_display_name(output))) {
		cli_error("out of memory");
		goto out;
	}
	if (!quiet)
		cli_note("scanned %zu entries into '%s' as '%s' (%llu files read, %llu reused)",
			tree->count, shown, label, (unsigned long long)stats.files_read,
			(unsigned long long)stats.files_reused);
	rc = CLI_EXIT_SAME;
	goto out;
lib_error:
	cli_lib_error(&err);
out:
	td_db_writer_free(w);
	td_source_free(src);
	td_tree_free(tree);
	td_db_loader_free(reuse);
	free(auto_label);
	free(shown);
	cli_parser_release(&p);
	stop_signals_release();
	return rc;
}
