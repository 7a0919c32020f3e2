/* The scan pipeline on a tree that changes between the listing and the
 * reads: every file that vanished, grew, shrank or was replaced comes back
 * as a skipped entry with its reason, the others are digested, and the
 * reasons survive a round trip through the database. Deterministic: the
 * tree is changed between td_scan_list() and td_scan_digest(), which is
 * when a real scan reads. */
#define _DEFAULT_SOURCE

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "treedrift/scan.h"
#include "treedrift/source.h"
#include "treedrift/store.h"
#include "treedrift/tlsh.h"
#include "treedrift/tree.h"

static char root[PATH_MAX / 2];

static void path_of(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", root, name);
}

static void write_file(const char *name, size_t len_bytes, int seed)
{
	char p[PATH_MAX];
	FILE *f;

	path_of(p, sizeof(p), name);
	if (!(f = fopen(p, "wb")))
		exit(2);
	for (size_t i = 0; i < len_bytes; i++)
		fputc((int)((i * 131 + (size_t)seed * 7 + i / 97) % 251), f);
	if (fclose(f))
		exit(2);
}

static const td_file_t *find(const td_tree_t *t, const char *path)
{
	return td_tree_find(t, path, strlen(path));
}

static void check_reason(const td_tree_t *t, const char *path, const char *reason)
{
	const td_file_t *f = find(t, path);

	CHECK(f != NULL);
	if (!f)
		return;
	if (reason) {
		CHECK_INT(f->type, TD_ENTRY_SKIPPED);
		CHECK_STR(f->skip_reason ? f->skip_reason : "(none)", reason);
		CHECK(f->skip_detail != NULL);
	} else {
		CHECK_INT(f->type, TD_ENTRY_FILE);
		CHECK(f->has_digest);
	}
}

static void check_all(const td_tree_t *t)
{
	check_reason(t, "kept", NULL);
	check_reason(t, "vanishes", TD_SKIP_VANISHED);
	check_reason(t, "grows", TD_SKIP_CHANGED);
	check_reason(t, "shrinks", TD_SKIP_CHANGED);
	check_reason(t, "replaced", TD_SKIP_CHANGED);
	check_reason(t, "becomes-fifo", TD_SKIP_CHANGED);
	check_reason(t, "becomes-dir", TD_SKIP_CHANGED);
	check_reason(t, "touched", TD_SKIP_CHANGED);
}

static void test_changed_between_list_and_read(unsigned jobs)
{
	td_scan_opts_t opts = { 0 };
	td_scan_stats_t stats = { 0 };
	td_source_t *src = NULL;
	td_tree_t *tree = NULL, *back = NULL;
	td_db_writer_t *w = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	char p[PATH_MAX], q[PATH_MAX], dbpath[PATH_MAX];
	struct timespec ts[2] = { { 0, UTIME_OMIT }, { 12345, 0 } };

	write_file("kept", 4000, 1);
	write_file("vanishes", 4000, 2);
	write_file("grows", 4000, 3);
	write_file("shrinks", 4000, 4);
	write_file("replaced", 4000, 5);
	write_file("becomes-fifo", 4000, 6);
	write_file("becomes-dir", 4000, 7);
	write_file("touched", 4000, 8);
	opts.jobs = jobs;
	CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
	CHECK_INT(td_scan_list(&tree, src, &opts, &stats, &err), 0);
	CHECK_INT((int)tree->count, 8);

	path_of(p, sizeof(p), "vanishes");
	CHECK_INT(unlink(p), 0);
	path_of(p, sizeof(p), "grows");
	CHECK_INT(truncate(p, 8000), 0);
	path_of(p, sizeof(p), "shrinks");
	CHECK_INT(truncate(p, 10), 0);
	/* Same size, new inode: a rename over the listed file. */
	write_file("replaced.new", 4000, 5);
	path_of(p, sizeof(p), "replaced.new");
	path_of(q, sizeof(q), "replaced");
	CHECK_INT(rename(p, q), 0);
	path_of(p, sizeof(p), "becomes-fifo");
	CHECK_INT(unlink(p), 0);
	CHECK_INT(mkfifo(p, 0644), 0);
	path_of(p, sizeof(p), "becomes-dir");
	CHECK_INT(unlink(p), 0);
	CHECK_INT(mkdir(p, 0755), 0);
	/* Same size and inode, another mtime: rewritten in place. */
	path_of(p, sizeof(p), "touched");
	CHECK_INT(utimensat(AT_FDCWD, p, ts, 0), 0);

	CHECK_INT(td_scan_digest(tree, src, NULL, &opts, &stats, &err), 0);
	check_all(tree);

	/* The reasons are stored and come back. */
	snprintf(dbpath, sizeof(dbpath), "%s.db", root);
	CHECK_INT(td_meta_set(&tree->meta.label, "v1"), 0);
	CHECK_INT(td_db_writer_open(&w, dbpath, TD_DB_CREATE, &err), 0);
	CHECK_INT(td_db_writer_add(w, tree, 0, &err), 0);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);
	CHECK_INT(td_db_open(&db, dbpath, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0);
	CHECK_INT(td_db_load(&back, db, "v1", &err), 0);
	if (back)
		check_all(back);

	td_tree_free(back);
	td_db_free(db);
	td_tree_free(tree);
	td_source_free(src);
	unlink(dbpath);
	snprintf(p, sizeof(p), "%s.db.lock", root);
	unlink(p);
	/* Leave an empty directory for the next round. */
	{
		static const char *const names[] = { "kept", "grows", "shrinks", "replaced", "becomes-fifo",
						     "touched" };
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			path_of(p, sizeof(p), names[i]);
			unlink(p);
		}
		path_of(p, sizeof(p), "becomes-dir");
		rmdir(p);
	}
}

/* Symlinks are recorded, never followed; those that resolve outside the
 * tree carry a note. */
static void test_links_outside(void)
{
	static const struct { const char *name, *target; int outside; } links[] = {
		{ "abs", "/etc/passwd", 1 },
		{ "up", "../../", 1 },
		{ "up-one", "../x", 1 },
		{ "loop-a", "loop-b", 0 },
		{ "loop-b", "loop-a", 0 },
		{ "sub/back", "../loop-a", 0 },
		{ "sub/out", "../../x", 1 },
		{ "sub/dot", "./././../sub/../..", 1 },
	};
	td_source_t *src = NULL;
	td_tree_t *tree = NULL;
	td_error_t err = { 0 };
	char p[PATH_MAX];

	path_of(p, sizeof(p), "sub");
	CHECK_INT(mkdir(p, 0755), 0);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		path_of(p, sizeof(p), links[i].name);
		CHECK_INT(symlink(links[i].target, p), 0);
	}
	CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
	CHECK_INT(td_scan_list(&tree, src, NULL, NULL, &err), 0);
	for (size_t i = 0; tree && i < sizeof(links) / sizeof(links[0]); i++) {
		const td_file_t *f = find(tree, links[i].name);

		CHECK(f != NULL);
		if (!f)
			continue;
		CHECK_INT(f->type, TD_ENTRY_SYMLINK);
		CHECK_STR(f->link_target, links[i].target);
		if (links[i].outside)
			CHECK_STR(f->skip_detail ? f->skip_detail : "(none)", "points outside the tree");
		else
			CHECK(f->skip_detail == NULL);
		path_of(p, sizeof(p), links[i].name);
		unlink(p);
	}
	td_tree_free(tree);
	td_source_free(src);
	path_of(p, sizeof(p), "sub");
	rmdir(p);
}

/* ---- listing and reading at once ---- */

#define STREAM_DIRS 45
#define STREAM_FILES 100 /* per directory: 4500 in all, past the first segment of slots */

static void stream_tree_make(void)
{
	char p[PATH_MAX], name[64];

	for (int d = 0; d < STREAM_DIRS; d++) {
		snprintf(name, sizeof(name), "d%02d", d);
		path_of(p, sizeof(p), name);
		CHECK_INT(mkdir(p, 0755), 0);
		for (int i = 0; i < STREAM_FILES; i++) {
			snprintf(name, sizeof(name), "d%02d/f%03d.c", d, i);
			write_file(name, (size_t)(i * 37 + d) % 3000, d * STREAM_FILES + i);
		}
	}
	write_file("big.bin", (size_t)5 << 20, 99); /* past a lane: streamed */
	path_of(p, sizeof(p), "link");
	CHECK_INT(symlink("d00/f000.c", p), 0);
	path_of(p, sizeof(p), "pipe");
	CHECK_INT(mkfifo(p, 0644), 0);
}

static int same_digest(const td_file_t *a, const td_file_t *b)
{
	if (a->has_digest != b->has_digest)
		return 0;
	if (!a->has_digest)
		return 1;
	return !memcmp(a->digest.sha256, b->digest.sha256, sizeof(a->digest.sha256)) &&
	       a->digest.tlsh_status == b->digest.tlsh_status && a->size_bytes == b->size_bytes &&
	       (a->digest.tlsh_status != TD_TLSH_OK || !td_tlsh_distance(&a->digest.tlsh, &b->digest.tlsh, 1));
}

/* Entry by entry the same paths, kinds and digests. */
static void check_same_tree(const td_tree_t *a, const td_tree_t *b, const char *what)
{
	size_t bad = 0;

	CHECK_INT((int)a->count, (int)b->count);
	for (size_t i = 0; i < a->count && i < b->count; i++) {
		const td_file_t *x = &a->files[i], *y = &b->files[i];
		if (strcmp(x->path, y->path) || x->type != y->type ||
		    !same_digest(x, y))
			bad++;
	}
	if (bad)
		fprintf(stderr, "%s: %zu entries differ\n", what, bad);
	CHECK_INT((int)bad, 0);
}

static td_tree_t *db_version(const char *dbpath, const char *label)
{
	td_tree_t *t = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };

	CHECK_INT(td_db_open(&db, dbpath, &err), 0);
	CHECK_INT(td_db_load(&t, db, label, &err), 0);
	td_db_free(db);
	return t;
}

static int add_scan(const char *dbpath, const char *label, const td_scan_opts_t *opts,
		    td_scan_stats_t *stats, td_tree_t **out, td_error_t *err)
{
	td_db_writer_t *w = NULL;
	td_source_t *src = NULL;
	int rc;

	*out = NULL;
	if ((rc = td_source_open(&src, root, NULL, err)) ||
	    (rc = td_db_writer_open(&w, dbpath, TD_DB_APPEND, err)))
		goto out;
	rc = td_db_writer_add_scan(w, out, src, label, 0, opts, stats, err);
	if (!rc)
		rc = td_db_writer_commit(w, err);
out:
	td_db_writer_free(w);
	td_source_free(src);
	return rc;
}

/* A tree to reuse that is loaded while the walk goes on: not_yet times
 * "not yet" to a question without wait, then tree, or an error with fail. */
typedef struct slow_ref {
	const td_tree_t *tree;
	int not_yet, fail, waited;
} slow_ref_t;

static int slow_ref_wait(void *ctx, int wait, const td_tree_t **tree, td_error_t *err)
{
	slow_ref_t *s = ctx;

	if (!wait && s->not_yet > 0) {
		s->not_yet--;
		return 1;
	}
	s->waited += wait;
	if (s->fail) {
		err->code = TD_EFORMAT;
		snprintf(err->msg, sizeof(err->msg), "the tree to reuse did not load");
		return TD_EFORMAT;
	}
	*tree = s->tree;
	return TD_OK;
}

/* --reuse with the tree to reuse loaded meanwhile (td_scan_opts_t's
 * reuse_wait): what the walk found before it was loaded is held, then
 * reused like the rest, whether it comes during the walk or after; a load
 * that fails fails the scan and adds no version; td_db_loader_t loads it
 * from the database. */
static void test_reuse_wait(const char *dbpath, const td_tree_t *ref, size_t files)
{
	static const int not_yet[] = { 0, 5, 1 << 30 };
	td_scan_opts_t opts = { 0 };
	td_error_t err = { 0 };
	td_tree_t *t = NULL;
	char label[32];

	opts.jobs = 2;
	for (size_t i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++) {
		slow_ref_t slow = { ref, not_yet[i], 0, 0 };
		td_scan_stats_t stats = { 0 };
		opts.reuse_wait = slow_ref_wait;
		opts.reuse_ctx = &slow;
		snprintf(label, sizeof(label), "slow%zu", i);
		CHECK_INT(add_scan(dbpath, label, &opts, &stats, &t, &err), 0);
		CHECK_INT((int)stats.files_reused, (int)files);
		CHECK_INT((int)stats.files_read, 0);
		/* asked with wait only when the walk ended first */
		CHECK_INT(slow.waited, not_yet[i] > 100);
		if (t)
			check_same_tree(ref, t, label);
		td_tree_free(t);
	}
	{
		slow_ref_t slow = { ref, 3, 1, 0 };
		td_tree_t *none = NULL;
		td_db_t *db = NULL;
		opts.reuse_ctx = &slow;
		CHECK_INT(add_scan(dbpath, "failed", &opts, NULL, &t, &err), TD_EFORMAT);
		CHECK(strstr(err.msg, "did not load") != NULL);
		CHECK(t == NULL);
		CHECK_INT(td_db_open(&db, dbpath, &err), 0);
		CHECK(td_db_load(&none, db, "failed", &err) != 0);
		td_tree_free(none);
		td_db_free(db);
	}
	{
		td_db_loader_t *l = NULL;
		td_scan_stats_t stats = { 0 };
		const td_tree_t *loaded = NULL;
		CHECK_INT(td_db_loader_start(&l, dbpath, NULL, NULL, TD_DB_LOAD_REUSE, &err), 0);
		opts.reuse_wait = td_db_loader_wait;
		opts.reuse_ctx = l;
		CHECK_INT(add_scan(dbpath, "loaded", &opts, &stats, &t, &err), 0);
		CHECK_INT((int)stats.files_reused, (int)files);
		CHECK_INT((int)stats.files_read, 0);
		if (t)
			check_same_tree(ref, t, "td_db_loader_t");
		td_tree_free(t);
		CHECK_INT(td_db_loader_wait(l, 0, &loaded, &err), 0);
		CHECK(loaded != NULL);
		td_db_loader_free(l);

		/* a label the database lacks: the error comes with the wait */
		CHECK_INT(td_db_loader_start(&l, dbpath, NULL, "v9", 0, &err), 0);
		CHECK_INT(td_db_loader_wait(l, 1, &loaded, &err), TD_ENOTFOUND);
		CHECK(td_db_loader_take(l) == NULL);
		td_db_loader_free(l);
	}
}

/* A scan that reads while it lists (td_scan, td_db_writer_add_scan) finds
 * what listing first and reading after finds, whatever the thread count;
 * the database holds it; --reuse takes every file and reads none; a
 * canceled scan leaves no version behind. */
static void test_stream(void)
{
	static const unsigned jobs[] = { 1, 2, 5 };
	td_scan_opts_t opts = { 0 };
	td_scan_stats_t stats = { 0 };
	td_source_t *src = NULL;
	td_tree_t *ref = NULL, *t = NULL, *back = NULL;
	td_error_t err = { 0 };
	char dbpath[PATH_MAX], label[16], cmd[4 * PATH_MAX];
	volatile int stop = 1;
	size_t files = 0;

	stream_tree_make();
	opts.jobs = 1;
	CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
	CHECK_INT(td_scan_list(&ref, src, &opts, NULL, &err), 0);
	CHECK_INT(td_scan_digest(ref, src, NULL, &opts, NULL, &err), 0);
	td_source_free(src);
	src = NULL;
	CHECK_INT((int)ref->count, STREAM_DIRS * STREAM_FILES + 3);
	for (size_t i = 0; i < ref->count; i++)
		files += ref->files[i].type == TD_ENTRY_FILE;
	CHECK_INT((int)files, STREAM_DIRS * STREAM_FILES + 1);

	snprintf(dbpath, sizeof(dbpath), "%s.db", root);
	for (size_t j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		opts.jobs = jobs[j];
		CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
		CHECK_INT(td_scan(&t, src, &opts, NULL, &err), 0);
		td_source_free(src);
		src = NULL;
		if (t)
			check_same_tree(ref, t, "td_scan");
		td_tree_free(t);

		snprintf(label, sizeof(label), "v%u", jobs[j]);
		CHECK_INT(add_scan(dbpath, label, &opts, NULL, &t, &err), 0);
		if (t)
			check_same_tree(ref, t, "td_db_writer_add_scan");
		td_tree_free(t);
		if ((back = db_version(dbpath, label)))
			check_same_tree(ref, back, "the database");
		td_tree_free(back);
	}

	opts.reuse = ref;
	CHECK_INT(add_scan(dbpath, "reused", &opts, &stats, &t, &err), 0);
	CHECK_INT((int)stats.files_reused, (int)files);
	CHECK_INT((int)stats.files_read, 0);
	CHECK_INT((int)stats.files_listed, (int)ref->count);
	if (t)
		check_same_tree(ref, t, "--reuse");
	td_tree_free(t);
	if ((back = db_version(dbpath, "reused")))
		check_same_tree(ref, back, "the database after --reuse");
	td_tree_free(back);

	test_reuse_wait(dbpath, ref, files);

	/* A taken label fails, a canceled scan fails, and neither adds a version. */
	opts.reuse = NULL;
	CHECK_INT(add_scan(dbpath, "v1", &opts, NULL, &t, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "already") != NULL);
	opts.cancel = &stop;
	CHECK_INT(add_scan(dbpath, "canceled", &opts, NULL, &t, &err), TD_ECANCELED);
	CHECK(t == NULL);
	{
		td_db_t *db = NULL;
		td_tree_t *none = NULL;
		CHECK_INT(td_db_open(&db, dbpath, &err), 0);
		CHECK(td_db_load(&none, db, "canceled", &err) != 0);
		td_tree_free(none);
		td_db_free(db);
	}

	td_tree_free(ref);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/* '%s'.db '%s'.db.lock", root, root, root);
	CHECK_INT(system(cmd), 0);
}

/* An archive is read whole before anything is reused: the tree to reuse
 * is waited for once, then; a load that failed fails the scan. */
static void test_reuse_wait_archive(void)
{
	char cmd[PATH_MAX * 2], spec[PATH_MAX];
	td_scan_opts_t opts = { 0 };
	td_error_t err = { 0 };
	td_source_t *src = NULL;
	td_tree_t *t = NULL;

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; mkdir -p ar; printf 'one\\n' >ar/a.txt; printf 'two\\n' >ar/b.txt; "
		 "tar cf ar.tar -C ar a.txt b.txt; rm -r ar", root);
	CHECK_INT(system(cmd), 0);
	path_of(spec, sizeof(spec), "ar.tar");
	for (int fail = 0; fail <= 1; fail++) {
		slow_ref_t slow = { NULL, 2, fail, 0 };
		opts.reuse_wait = slow_ref_wait;
		opts.reuse_ctx = &slow;
		CHECK_INT(td_source_open(&src, spec, NULL, &err), 0);
		if (src)
			CHECK_INT(td_scan(&t, src, &opts, NULL, &err), fail ? TD_EFORMAT : 0);
		CHECK_INT(slow.waited, 1);
		CHECK_INT(slow.not_yet, 2);
		CHECK(fail ? !t : t && t->count == 2);
		td_tree_free(t);
		t = NULL;
		td_source_free(src);
		src = NULL;
	}
	unlink(spec);
}

/* An archive with one top folder loses it, hard link targets too: a hard
 * link takes the digest of the member it names. */
static void test_hardlink_under_top(void)
{
	char cmd[PATH_MAX * 2], spec[PATH_MAX];
	td_source_t *src = NULL;
	td_tree_t *t = NULL;
	td_error_t err = { 0 };
	const td_file_t *a, *h;

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; mkdir -p hl/top; printf 'content\\n' >hl/top/a.txt; "
		 "ln hl/top/a.txt hl/top/b-hard; tar cf hl.tar -C hl top; rm -r hl", root);
	CHECK_INT(system(cmd), 0);
	path_of(spec, sizeof(spec), "hl.tar");
	CHECK_INT(td_source_open(&src, spec, NULL, &err), 0);
	if (src)
		CHECK_INT(td_scan(&t, src, NULL, NULL, &err), 0);
	if (t) {
		a = td_tree_find(t, "a.txt", 5);
		h = td_tree_find(t, "b-hard", 6);
		CHECK(a && h);
		if (a && h) {
			CHECK_INT(h->type, TD_ENTRY_FILE);
			CHECK(h->has_digest && !memcmp(h->digest.sha256, a->digest.sha256, TD_SHA256_BYTES));
		}
	}
	td_tree_free(t);
	td_source_free(src);
	unlink(spec);
}

int main(void)
{
	check_tmpdir(root, sizeof(root), "scan");
	test_changed_between_list_and_read(1);
	test_changed_between_list_and_read(4);
	test_links_outside();
	test_stream();
	test_reuse_wait_archive();
	test_hardlink_under_top();
	rmdir(root);
	return check_finish();
}
