/* The database: round trips, dedupe, appends, locking, interrupted and
 * failed writes, foreign and corrupt files, and the speed and size of an
 * 80k-file version. */
#define _GNU_SOURCE /* unshare, CLONE_NEWNS, mount: the tmpfs disk-full test */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "store_impl.h"
#include "treedrift/store.h"
#include "treedrift/digest.h"
#include "treedrift/scan.h"
#include "treedrift/source.h"

static char tmpdir[4096];

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rng();
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *tpath(const char *name)
{
	static char buf[8][4200];
	static int next;
	char *p = buf[next++ % 8];
	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return p;
}

static char *dupmem(const void *p, size_t n)
{
	char *d = malloc(n + 1);
	memcpy(d, p, n);
	d[n] = '\0';
	return d;
}

static td_tree_t *tree_new(const char *label)
{
	td_tree_t *t = NULL;
	td_tree_new(&t);
	td_meta_set(&t->meta.label, label);
	td_meta_set(&t->meta.root, "git:/src/linux@0123456789abcdef0123456789abcdef01234567");
	td_meta_set(&t->meta.source_kind, "git");
	td_meta_set(&t->meta.scanned_at, "2024-05-01T12:00:00Z");
	td_meta_set(&t->meta.tool_version, "0.1.0");
	return t;
}

/* A digested regular file with a TLSH digest. */
static void add_tlsh_file(td_tree_t *t, const char *path, size_t path_len, uint64_t size)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = dupmem(path, path_len);
	f.path_len = path_len;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.size_bytes = size;
	f.has_digest = 1;
	fill_random(f.digest.sha256, TD_SHA256_BYTES);
	f.digest.size_bytes = size;
	f.digest.tlsh_status = TD_TLSH_OK;
	f.digest.tlsh.checksum = (uint8_t)rng();
	f.digest.tlsh.lvalue = (uint8_t)rng();
	f.digest.tlsh.q1_ratio = (uint8_t)(rng() & 15);
	f.digest.tlsh.q2_ratio = (uint8_t)(rng() & 15);
	fill_random(f.digest.tlsh.body, TD_TLSH_BODY_BYTES);
	f.digest.has_sha256_ws = (int)(rng() & 1);
	if (f.digest.has_sha256_ws)
		fill_random(f.digest.sha256_ws, TD_SHA256_BYTES);
	f.digest.has_ws_bytes = (int)(rng() & 1);
	if (f.digest.has_ws_bytes)
		f.digest.ws_bytes = rng() >> 2;
	f.has_gitoid = 1;
	fill_random(f.gitoid, TD_GITOID_BYTES);
	td_tree_append(t, &f);
}

static void add_named(td_tree_t *t, const char *path, uint64_t size)
{
	add_tlsh_file(t, path, strlen(path), size);
}

/* Every kind of entry a tree holds. */
static td_tree_t *tree_every_kind(void)
{
	static const char weird[] = "dir/new\nline\xff\xfe.c";
	td_tree_t *t = tree_new("v1");
	td_file_t f;

	add_named(t, "z/last.c", 4000);
	t->files[0].mtime_ns = -1234567890123;          /* before 1970 */
	t->files[0].ino = UINT64_MAX - 1;               /* above INT64_MAX */
	t->files[0].dev = 0x8000000000000001u;
	add_tlsh_file(t, weird, sizeof(weird) - 1, 777);

	memset(&f, 0, sizeof(f));                       /* small: raw sketch */
	f.path = dupmem("a/raw.txt", 9);
	f.path_len = 9;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100755;
	f.size_bytes = 12;
	f.has_digest = 1;
	fill_random(f.digest.sha256, 32);
	f.digest.size_bytes = 12;
	f.digest.tlsh_status = TD_TLSH_TOO_SHORT;
	f.digest.sketch_kind = TD_SKETCH_RAW;
	f.digest.sketch_len = 12;
	f.digest.sketch = (uint8_t *)dupmem("hello\0world!", 12);
	td_tree_append(t, &f);

	td_file_copy(&f, &t->files[t->count - 1]);      /* the same bytes elsewhere */
	free(f.path);
	f.path = dupmem("a/raw copy.txt", 14);
	f.path_len = 14;
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* empty file: empty raw sketch */
	f.path = dupmem("a/empty", 7);
	f.path_len = 7;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.has_digest = 1;
	fill_random(f.digest.sha256, 32);
	f.digest.tlsh_status = TD_TLSH_TOO_SHORT;
	f.digest.sketch_kind = TD_SKETCH_RAW;
	f.digest.sketch = malloc(1);
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* uniform: histogram sketch */
	f.path = dupmem("b/zeros.bin", 11);
	f.path_len = 11;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.size_bytes = 100000;
	f.has_digest = 1;
	fill_random(f.digest.sha256, 32);
	f.digest.size_bytes = 100000;
	f.digest.tlsh_status = TD_TLSH_TOO_UNIFORM;
	f.digest.sketch_kind = TD_SKETCH_HIST;
	f.digest.sketch_len = TD_SKETCH_HIST_BYTES;
	f.digest.sketch = malloc(TD_SKETCH_HIST_BYTES);
	fill_random(f.digest.sketch, TD_SKETCH_HIST_BYTES);
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* symlink with its blob id */
	f.path = dupmem("link", 4);
	f.path_len = 4;
	f.type = TD_ENTRY_SYMLINK;
	f.mode = 0120000;
	f.size_bytes = 8;
	f.link_target = dupmem("z/last.c", 8);
	f.link_len = 8;
	f.has_gitoid = 1;
	fill_random(f.gitoid, 20);
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* gitlink */
	f.path = dupmem("sub/module", 10);
	f.path_len = 10;
	f.type = TD_ENTRY_GITLINK;
	f.mode = 0160000;
	f.link_target = dupmem("0123456789abcdef0123456789abcdef01234567", 40);
	f.link_len = 40;
	f.has_gitoid = 1;
	fill_random(f.gitoid, 20);
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* skipped without detail */
	f.path = dupmem("dev/fifo", 8);
	f.path_len = 8;
	f.type = TD_ENTRY_SKIPPED;
	f.skip_reason = TD_SKIP_FIFO;
	td_tree_append(t, &f);

	memset(&f, 0, sizeof(f));                       /* skipped with detail */
	f.path = dupmem("secret/key", 10);
	f.path_len = 10;
	f.type = TD_ENTRY_SKIPPED;
	f.mode = 0100600;
	f.size_bytes = 99;
	f.skip_reason = TD_SKIP_UNREADABLE;
	f.skip_detail = dupmem("Permission denied", 17);
	td_tree_append(t, &f);
	return t;
}

static td_tree_t *tree_copy_sorted(const td_tree_t *src, const char *label)
{
	td_tree_t *t = tree_new(label);
	for (size_t i = 0; i < src->count; i++) {
		td_file_t f;
		td_file_copy(&f, &src->files[i]);
		td_tree_append(t, &f);
	}
	td_tree_sort(t);
	return t;
}

static char *td_test_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_bytes(const void *a, size_t alen, const void *b, size_t blen)
{
	if (!a || !b)
		return !a && !b;
	return alen == blen && !memcmp(a, b, alen);
}

/* want is sorted; got is what td_db_load returned. */
static void check_tree_equal(const td_tree_t *got, const td_tree_t *want)
{
	CHECK_INT(got->count, want->count);
	CHECK(same_str(got->meta.label, want->meta.label));
	CHECK(same_str(got->meta.root, want->meta.root));
	CHECK(same_str(got->meta.source_kind, want->meta.source_kind));
	CHECK(same_str(got->meta.scanned_at, want->meta.scanned_at));
	CHECK(same_str(got->meta.tool_version, want->meta.tool_version));
	for (size_t i = 0; i < got->count && i < want->count; i++) {
		const td_file_t *g = &got->files[i], *w = &want->files[i];
		int ok = same_bytes(g->path, g->path_len, w->path, w->path_len) && g->type == w->type &&
			 g->mode == w->mode && g->size_bytes == w->size_bytes && g->mtime_ns == w->mtime_ns &&
			 g->ino == w->ino && g->dev == w->dev &&
			 same_bytes(g->link_target, g->link_len, w->link_target, w->link_len) &&
			 g->has_gitoid == w->has_gitoid &&
			 (!g->has_gitoid || !memcmp(g->gitoid, w->gitoid, TD_GITOID_BYTES)) &&
			 same_str(g->skip_reason, w->skip_reason) && same_str(g->skip_detail, w->skip_detail) &&
			 g->has_digest == w->has_digest;
		if (ok && g->has_digest) {
			const td_digest_t *a = &g->digest, *b = &w->digest;
			ok = !memcmp(a->sha256, b->sha256, 32) && a->size_bytes == b->size_bytes &&
			     a->tlsh_status == b->tlsh_status && a->sketch_kind == b->sketch_kind &&
			     a->sketch_len == b->sketch_len &&
			     (!a->sketch_len || !memcmp(a->sketch, b->sketch, a->sketch_len)) &&
			     (a->sketch_kind == TD_SKETCH_NONE) == (a->sketch == NULL) &&
			     a->has_sha256_ws == b->has_sha256_ws &&
			     (!a->has_sha256_ws || !memcmp(a->sha256_ws, b->sha256_ws, 32)) &&
			     a->has_ws_bytes == b->has_ws_bytes && (!a->has_ws_bytes || a->ws_bytes == b->ws_bytes);
			if (ok && a->tlsh_status == TD_TLSH_OK)
				ok = a->tlsh.checksum == b->tlsh.checksum && a->tlsh.lvalue == b->tlsh.lvalue &&
				     a->tlsh.q1_ratio == b->tlsh.q1_ratio && a->tlsh.q2_ratio == b->tlsh.q2_ratio &&
				     !memcmp(a->tlsh.body, b->tlsh.body, TD_TLSH_BODY_BYTES);
		}
		if (!ok)
			fprintf(stderr, "entry %zu ('%.*s') differs\n", i, (int)w->path_len, w->path);
		CHECK(ok);
	}
}

static int write_db(const char *path, unsigned flags, td_tree_t *const *trees, size_t n, int replace)
{
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };
	int rc = td_db_writer_open(&w, path, flags, &err);

	for (size_t i = 0; !rc && i < n; i++)
		rc = td_db_writer_add(w, trees[i], replace, &err);
	if (!rc)
		rc = td_db_writer_commit(w, &err);
	if (rc)
		fprintf(stderr, "write_db: %s\n", err.msg);
	td_db_writer_free(w);
	return rc;
}

static td_tree_t *load(const char *path, const char *label)
{
	td_db_t *db = NULL;
	td_tree_t *t = NULL;
	td_error_t err = { 0 };

	if (td_db_open(&db, path, &err) || td_db_load(&t, db, label, &err))
		fprintf(stderr, "load: %s\n", err.msg);
	td_db_free(db);
	return t;
}

static long long count_rows(const char *path, const char *table)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char sql[128];
	long long n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static int exec_on(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	} else {
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static void write_all(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

static int same_file(const char *path, const char *bytes, size_t len)
{
	size_t n;
	char *now = read_all(path, &n);
	int same = now && n == len && !memcmp(now, bytes, len);
	free(now);
	return same;
}

/* Files in dir whose names contain needle. */
static int count_named(const char *dir, const char *needle)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strstr(e->d_name, needle) != NULL;
	closedir(d);
	return n;
}

static void test_round_trip(void)
{
	const char *path = tpath("kinds.db");
	td_tree_t *t = tree_every_kind(), *want = tree_copy_sorted(t, "v1"), *got, *got2;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_db_t *db = NULL;
	td_error_t err = { 0 };

	CHECK_INT(td_db_sniff(path), 0);
	CHECK_INT(write_db(path, TD_DB_CREATE, &t, 1, 0), 0);
	CHECK_INT(td_db_sniff(path), 1);
	CHECK_INT(td_db_sniff(tmpdir), 0);
	got = load(path, NULL);
	CHECK(got != NULL);
	if (got) {
		check_tree_equal(got, want);
		for (size_t i = 1; i < got->count; i++) /* byte order, shorter first */
			CHECK(memcmp(got->files[i - 1].path, got->files[i].path,
				     got->files[i - 1].path_len < got->files[i].path_len
					     ? got->files[i - 1].path_len : got->files[i].path_len) <= 0);
	}
	got2 = load(path, "v1");
	CHECK(got2 && got2->count == want->count);

	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0);
	CHECK_INT(td_db_versions(&v, &nv, db, &err), 0);
	CHECK_INT(nv, 1);
	if (nv == 1) {
		CHECK_STR(v[0].meta.label, "v1");
		CHECK_STR(v[0].meta.source_kind, "git");
		CHECK_INT(v[0].file_count, want->count);
		CHECK_INT(v[0].total_bytes, 4000 + 777 + 12 + 12 + 0 + 100000);
	}
	td_versions_free(v, nv);
	td_tree_free(got2);
	got2 = NULL;
	CHECK_INT(td_db_load(&got2, db, "nope", &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "no version 'nope'") != NULL);
	CHECK(got2 == NULL);
	td_db_free(db);
	CHECK_INT(count_rows(path, "content"), 5);
	CHECK_INT(count_rows(path, "path"), want->count);

	td_tree_free(got);
	td_tree_free(want);
	td_tree_free(t);
}

/* A tree of n files named f0000.. with fresh content. */
static td_tree_t *tree_numbered(const char *label, size_t n)
{
	td_tree_t *t = tree_new(label);
	char name[64];

	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "src/f%04zu.c", i);
		add_named(t, name, 100 + i);
	}
	td_tree_sort(t);
	return t;
}

/* A copy of src in which the files at the given indexes have new content. */
static td_tree_t *tree_changed(const td_tree_t *src, const char *label, const size_t *idx, size_t n)
{
	td_tree_t *t = tree_copy_sorted(src, label);
	for (size_t i = 0; i < n; i++) {
		fill_random(t->files[idx[i]].digest.sha256, 32);
		t->files[idx[i]].digest.tlsh.checksum ^= 1;
	}
	return t;
}

static void test_dedupe_append_match(void)
{
	const char *path = tpath("multi.db");
	static const size_t changed[] = { 3, 7, 11, 19, 40 };
	td_tree_t *v1 = tree_numbered("v1", 50), *v2 = tree_changed(v1, "v2", changed, 5), *target, *got;
	td_db_matches_t *m = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	td_file_t f;

	CHECK_INT(write_db(path, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK_INT(write_db(path, TD_DB_APPEND, &v2, 1, 0), 0);
	CHECK_INT(count_rows(path, "content"), 55);
	CHECK_INT(count_rows(path, "path"), 50);
	CHECK_INT(count_rows(path, "entry"), 100);

	got = load(path, "v1");
	if (got)
		check_tree_equal(got, v1);
	td_tree_free(got);
	got = load(path, NULL); /* the newest */
	CHECK(got != NULL);
	if (got)
		check_tree_equal(got, v2);
	td_tree_free(got);

	/* A target: v2, with file 3 reverted to v1's content, file 5 changed
	 * everywhere, a symlink both versions lack, and a new file. */
	target = tree_copy_sorted(v2, "vendor");
	memcpy(target->files[3].digest.sha256, v1->files[3].digest.sha256, 32);
	fill_random(target->files[5].digest.sha256, 32);
	memset(&f, 0, sizeof(f));
	f.path = dupmem("zlink", 5);
	f.path_len = 5;
	f.type = TD_ENTRY_SYMLINK;
	f.link_target = dupmem("src", 3);
	f.link_len = 3;
	td_tree_append(target, &f);
	add_named(target, "new.c", 10);
	td_tree_sort(target);

	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_versions(&v, &nv, db, &err), 0);
	CHECK_INT(nv, 2);
	if (nv == 2) {
		CHECK_STR(v[0].meta.label, "v1");
		CHECK_STR(v[1].meta.label, "v2");
	}
	CHECK_INT(td_db_match(&m, db, target, &err), 0);
	if (m) {
		const td_file_t *f3 = td_tree_find(target, "src/f0003.c", 11);
		const td_file_t *f7 = td_tree_find(target, "src/f0007.c", 11);
		const td_file_t *f0 = td_tree_find(target, "src/f0000.c", 11);
		size_t i3 = (size_t)(f3 - target->files), i7 = (size_t)(f7 - target->files);
		size_t i0 = (size_t)(f0 - target->files);

		CHECK_INT(m->version_count, 2);
		CHECK_INT(m->file_count, target->count);
		/* v1: 50 - 5 changed in v2 - file 5 = 44, plus file 3 reverted. */
		CHECK_INT(m->identical[0], 45);
		/* v2: 50 - file 5 - file 3. */
		CHECK_INT(m->identical[1], 48);
		CHECK_INT(m->start[i3 + 1] - m->start[i3], 1);
		CHECK_INT(m->version[m->start[i3]], 0);
		CHECK_INT(m->start[i7 + 1] - m->start[i7], 1);
		CHECK_INT(m->version[m->start[i7]], 1);
		CHECK_INT(m->start[i0 + 1] - m->start[i0], 2);
		CHECK_INT(m->version[m->start[i0]], 0);
		CHECK_INT(m->version[m->start[i0] + 1], 1);
		CHECK_INT(m->start[target->count], 45 + 48);
	}
	td_db_matches_free(m);
	td_versions_free(v, nv);
	td_db_free(db);
	td_tree_free(target);
	td_tree_free(v1);
	td_tree_free(v2);
}

/* A reader's handle keeps the database it opened when a writer renames a
 * new one over the path, and the size it reports is that database's. */
static void test_reader_during_append(void)
{
	const char *path = tpath("reader.db");
	td_tree_t *v1 = tree_numbered("v1", 50), *v2 = tree_numbered("v2", 400);
	td_version_t *v = NULL;
	td_db_t *old = NULL, *now = NULL;
	td_error_t err = { 0 };
	struct stat before, after;
	size_t nv = 0;

	CHECK_INT(write_db(path, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK_INT(stat(path, &before), 0);
	CHECK_INT(td_db_open(&old, path, &err), 0);
	CHECK_INT(write_db(path, TD_DB_APPEND, &v2, 1, 0), 0);
	CHECK_INT(stat(path, &after), 0);
	CHECK(after.st_size > before.st_size);
	if (old) {
		CHECK_INT(td_db_size_bytes(old), before.st_size);
		CHECK_INT(td_db_versions(&v, &nv, old, &err), 0);
		CHECK_INT(nv, 1);
		td_versions_free(v, nv);
	}
	CHECK_INT(td_db_open(&now, path, &err), 0);
	if (now)
		CHECK_INT(td_db_size_bytes(now), after.st_size);
	td_db_free(old);
	td_db_free(now);
	td_tree_free(v1);
	td_tree_free(v2);
}

static void test_links_match(void)
{
	const char *path = tpath("links.db");
	td_tree_t *t = tree_every_kind(), *sorted = tree_copy_sorted(t, "vendor");
	td_db_matches_t *m = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };

	CHECK_INT(write_db(path, TD_DB_CREATE, &t, 1, 0), 0);
	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_match(&m, db, sorted, &err), 0);
	/* 6 files + the symlink + the gitlink; skipped entries never match. */
	if (m)
		CHECK_INT(m->identical[0], 8);
	td_db_matches_free(m);
	td_db_free(db);
	td_tree_free(sorted);
	td_tree_free(t);
}

static void test_label_rules(void)
{
	const char *path = tpath("labels.db");
	td_tree_t *v1 = tree_numbered("v1", 20), *v2 = tree_numbered("v2", 5), *again = tree_numbered("v1", 8);
	td_tree_t *nolabel = tree_numbered(NULL, 2), *trees[2] = { v1, v2 }, *got;
	td_db_writer_t *w = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_db_t *db = NULL;
	td_error_t err = { 0 };

	free(nolabel->meta.label);
	nolabel->meta.label = NULL;
	CHECK_INT(write_db(path, TD_DB_CREATE, trees, 2, 0), 0);
	CHECK_INT(count_rows(path, "content"), 25);

	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_add(w, again, 0, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "version 'v1' already in") != NULL);
	CHECK_INT(td_db_writer_add(w, nolabel, 0, &err), TD_EINVAL);
	/* The writer is still usable after a refused add. */
	CHECK_INT(td_db_writer_add(w, again, 1, &err), 0);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);

	got = load(path, "v1");
	if (got)
		check_tree_equal(got, again);
	td_tree_free(got);
	/* The old v1 content is gone; the paths v1 no longer has but v2 does remain. */
	CHECK_INT(count_rows(path, "content"), 5 + 8);
	CHECK_INT(count_rows(path, "path"), 8);
	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0);
	CHECK_INT(td_db_versions(&v, &nv, db, &err), 0);
	CHECK_INT(nv, 2);
	if (nv == 2) {
		CHECK_STR(v[0].meta.label, "v1"); /* kept its place */
		CHECK_INT(v[0].file_count, 8);
	}
	td_versions_free(v, nv);
	td_db_free(db);

	/* A duplicate path within one tree is refused and rolled back. */
	td_file_t dup;
	td_file_copy(&dup, &v2->files[0]);
	td_tree_append(v2, &dup);
	free(v2->meta.label);
	v2->meta.label = strdup("v3");
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_add(w, v2, 0, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "duplicate path 'src/f0000.c'") != NULL);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);
	CHECK_INT(count_rows(path, "version"), 2);

	td_tree_free(v1);
	td_tree_free(v2);
	td_tree_free(again);
	td_tree_free(nolabel);
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/* Deleting versions: the others stay as they were, what only the deleted
 * ones held goes, the file shrinks, and a label that is not there deletes
 * nothing, not even the labels before it. Pruning gives back free pages. */
static void test_delete(void)
{
	const char *path = tpath("delete.db");
	static const size_t changed[] = { 1, 2, 3 };
	td_tree_t *v1 = tree_numbered("v1", 40), *v2 = tree_changed(v1, "v2", changed, 3);
	td_tree_t *big = tree_numbered("big", 2000), *trees[3] = { v1, big, v2 }, *got;
	td_db_writer_t *w = NULL;
	td_version_t *v = NULL;
	size_t nv = 0;
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	long long before;

	/* big's paths are src/f0000.c ... too: rename them apart */
	for (size_t i = 0; i < big->count; i++)
		big->files[i].path[0] = 'b';
	td_tree_sort(big);
	CHECK_INT(write_db(path, TD_DB_CREATE, trees, 3, 0), 0);
	CHECK_INT(count_rows(path, "content"), 40 + 3 + 2000);
	before = file_size(path);

	/* a missing label fails the whole delete, and its writer commits nothing */
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_delete(w, "big", &err), 0);
	CHECK_INT(td_db_writer_delete(w, "nope", &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "no version 'nope' in ") != NULL);
	td_db_writer_free(w);
	w = NULL;
	CHECK_INT(count_rows(path, "version"), 3);
	CHECK_INT(file_size(path), before);

	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_delete(w, "big", &err), 0);
	/* deleted in this writer: a second delete finds nothing, an add may take the label */
	CHECK_INT(td_db_writer_delete(w, "big", &err), TD_ENOTFOUND);
	CHECK_INT(td_db_writer_delete(w, NULL, &err), TD_EINVAL);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);
	w = NULL;

	CHECK_INT(count_rows(path, "version"), 2);
	CHECK_INT(count_rows(path, "entry"), 80);
	CHECK_INT(count_rows(path, "content"), 43);
	CHECK_INT(count_rows(path, "path"), 40);
	CHECK(file_size(path) < before / 4);
	got = load(path, "v1");
	if (got)
		check_tree_equal(got, v1);
	td_tree_free(got);
	got = load(path, "v2");
	if (got)
		check_tree_equal(got, v2);
	td_tree_free(got);
	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0);
	CHECK_INT(td_db_versions(&v, &nv, db, &err), 0);
	CHECK_INT(nv, 2);
	if (nv == 2) {
		CHECK_STR(v[0].meta.label, "v1");
		CHECK_STR(v[1].meta.label, "v2");
	}
	td_versions_free(v, nv);
	td_db_free(db);

	/* v1's content that v2 shares stays when v1 goes */
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_delete(w, "v1", &err), 0);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);
	CHECK_INT(count_rows(path, "content"), 40);
	got = load(path, NULL);
	if (got)
		check_tree_equal(got, v2);
	td_tree_free(got);

	/* a replace drops what no version refers to but keeps the pages; a
	 * prune gives them back and changes nothing else */
	free(big->meta.label);
	big->meta.label = strdup("v2");
	CHECK_INT(write_db(path, TD_DB_APPEND, &big, 1, 1), 0);
	CHECK_INT(write_db(path, TD_DB_APPEND, &v2, 1, 1), 0);
	CHECK_INT(count_rows(path, "content"), 40);
	before = file_size(path);
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_prune(w, &err), 0);
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	td_db_writer_free(w);
	CHECK(file_size(path) < before / 4);
	CHECK_INT(count_rows(path, "content"), 40);
	got = load(path, NULL);
	if (got)
		check_tree_equal(got, v2);
	td_tree_free(got);

	td_tree_free(v1);
	td_tree_free(v2);
	td_tree_free(big);
}

static void test_locking(void)
{
	const char *path = tpath("locked.db");
	td_db_writer_t *w1 = NULL, *w2 = NULL;
	td_error_t err = { 0 };
	char want[64];

	CHECK_INT(td_db_writer_open(&w1, path, TD_DB_CREATE, &err), 0);
	CHECK_INT(td_db_writer_open(&w2, path, TD_DB_APPEND, &err), TD_ELOCKED);
	CHECK(w2 == NULL);
	snprintf(want, sizeof(want), "(pid %ld)", (long)getpid());
	CHECK(strstr(err.msg, "is being written by another treedrift") != NULL);
	CHECK(strstr(err.msg, want) != NULL);
	td_db_writer_free(w1);
	CHECK_INT(access(tpath("locked.db.lock"), F_OK), -1);
	CHECK_INT(access(path, F_OK), -1); /* nothing committed, nothing created */
	CHECK_INT(td_db_writer_open(&w2, path, TD_DB_CREATE, &err), 0);
	td_db_writer_free(w2);
}

static void test_free_before_commit(void)
{
	const char *path = tpath("discard.db");
	td_tree_t *v1 = tree_numbered("v1", 30), *v2 = tree_numbered("v2", 300);
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };
	size_t len;
	char *before;

	CHECK_INT(write_db(path, TD_DB_CREATE, &v1, 1, 0), 0);
	before = read_all(path, &len);
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_add(w, v2, 0, &err), 0);
	CHECK_INT(count_named(tmpdir, "discard.db.tmp-"), 1);
	td_db_writer_free(w);
	CHECK(same_file(path, before, len));
	CHECK_INT(count_named(tmpdir, "discard.db.tmp-"), 0);
	CHECK_INT(count_named(tmpdir, "discard.db.lock"), 0);
	/* CREATE then free also leaves the old one. */
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_CREATE, &err), 0);
	CHECK_INT(td_db_writer_add(w, v2, 0, &err), 0);
	td_db_writer_free(w);
	CHECK(same_file(path, before, len));
	free(before);
	td_tree_free(v1);
	td_tree_free(v2);
}

static int db_sound(const char *path)
{
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	int rc = td_db_open(&db, path, &err);

	if (!rc)
		rc = td_db_check(db, &err);
	if (rc)
		fprintf(stderr, "db_sound: %s\n", err.msg);
	td_db_free(db);
	return rc == 0;
}

/* A child that writes and is killed: before commit, and at random moments
 * of open/add/commit cycles. */
static void test_sigkill(void)
{
	const char *path = tpath("killed.db");
	td_tree_t *v1 = tree_numbered("v1", 40), *big = tree_numbered("big", 3000);
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };
	int fds[2], status = 0;
	size_t len;
	char *before, c;
	pid_t pid;

	CHECK_INT(write_db(path, TD_DB_CREATE, &v1, 1, 0), 0);
	before = read_all(path, &len);

	CHECK_INT(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (td_db_writer_open(&w, path, TD_DB_APPEND, &err) || td_db_writer_add(w, big, 0, &err))
			_exit(3);
		if (write(fds[1], "x", 1) != 1)
			_exit(4);
		pause();
		_exit(5);
	}
	close(fds[1]);
	CHECK_INT(read(fds[0], &c, 1), 1);
	close(fds[0]);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(same_file(path, before, len));
	CHECK(db_sound(path));
	CHECK_INT(count_named(tmpdir, "killed.db.tmp-"), 1); /* the documented leftover */
	/* The next writer is not blocked and removes the stale file. */
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(count_named(tmpdir, "killed.db.tmp-"), 1);    /* its own */
	td_db_writer_free(w);
	CHECK_INT(count_named(tmpdir, "killed.db.tmp-"), 0);

	/* Killed at arbitrary points of a write-commit loop: the file at path
	 * is always a sound database. */
	for (int round = 0; round < 6; round++) {
		pid = fork();
		if (pid == 0) {
			for (int i = 0;; i++) {
				if (td_db_writer_open(&w, path, TD_DB_APPEND, &err) ||
				    td_db_writer_add(w, big, 1, &err) || td_db_writer_commit(w, &err))
					_exit(3);
				td_db_writer_free(w);
			}
		}
		usleep(20000 + 37000 * (useconds_t)round);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		CHECK(WIFSIGNALED(status));
		CHECK(db_sound(path));
	}
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	td_db_writer_free(w);
	CHECK_INT(count_named(tmpdir, "killed.db.tmp-"), 0);
	free(before);
	td_tree_free(v1);
	td_tree_free(big);
}

static void test_stale_temp_names(void)
{
	const char *path = tpath("stale.db");
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };

	write_all(tpath("stale.db.tmp-abc123"), "x", 1);
	write_all(tpath("stale.db.tmp-abc123-journal"), "x", 1);
	write_all(tpath("stale.db.tmp-abc1234"), "x", 1);   /* not our pattern */
	write_all(tpath("other.db.tmp-abc123"), "x", 1);    /* another database's */
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_CREATE, &err), 0);
	td_db_writer_free(w);
	CHECK_INT(access(tpath("stale.db.tmp-abc123"), F_OK), -1);
	CHECK_INT(access(tpath("stale.db.tmp-abc123-journal"), F_OK), -1);
	CHECK_INT(access(tpath("stale.db.tmp-abc1234"), F_OK), 0);
	CHECK_INT(access(tpath("other.db.tmp-abc123"), F_OK), 0);
	unlink(tpath("stale.db.tmp-abc1234"));
	unlink(tpath("other.db.tmp-abc123"));
}

static void test_symlinked_target(void)
{
	const char *real = tpath("real.db"), *link = tpath("alias.db");
	td_tree_t *v1 = tree_numbered("v1", 3);
	struct stat st;

	CHECK_INT(symlink("real.db", link), 0);
	CHECK_INT(write_db(link, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK_INT(lstat(link, &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	CHECK_INT(count_rows(real, "entry"), 3);
	td_tree_free(v1);
}

static void test_open_errors(void)
{
	const char *text = tpath("notes.txt"), *foreign = tpath("foreign.db"), *newer = tpath("newer.db");
	const char *zero = tpath("zero.db"), *missing = tpath("missing.db");
	td_tree_t *v1 = tree_numbered("v1", 3);
	td_db_writer_t *w = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	char *before;
	size_t len;

	write_all(text, "just some text, long enough to be mistaken for nothing\n", 55);
	CHECK_INT(td_db_open(&db, text, &err), TD_EFORMAT);
	CHECK(strstr(err.msg, "is not a treedrift database") != NULL);
	CHECK(db == NULL);

	CHECK_INT(exec_on(foreign, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"), SQLITE_OK);
	CHECK_INT(td_db_open(&db, foreign, &err), TD_EFORMAT);
	CHECK(strstr(err.msg, "is not a treedrift database") != NULL);

	CHECK_INT(write_db(newer, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK_INT(exec_on(newer, "PRAGMA user_version = 99"), SQLITE_OK);
	CHECK_INT(td_db_open(&db, newer, &err), TD_ENEWER);
	{
		char want[128];
		snprintf(want, sizeof(want), "was written by a newer treedrift (schema 99); this one reads up to %d",
			 TD_DB_SCHEMA_VERSION);
		CHECK(strstr(err.msg, want) != NULL);
	}

	CHECK_INT(write_db(zero, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK_INT(exec_on(zero, "PRAGMA user_version = 0"), SQLITE_OK);
	CHECK_INT(td_db_open(&db, zero, &err), TD_EFORMAT);

	CHECK_INT(td_db_open(&db, missing, &err), TD_ENOTFOUND);
	CHECK_INT(access(missing, F_OK), -1);
	CHECK_INT(td_db_open(&db, tmpdir, &err), TD_EFORMAT);

	/* Writers refuse to append to foreign or newer files, and to replace a
	 * file that is not a treedrift database, without touching them. */
	before = read_all(foreign, &len);
	CHECK_INT(td_db_writer_open(&w, foreign, TD_DB_APPEND, &err), TD_EFORMAT);
	CHECK_INT(td_db_writer_open(&w, foreign, TD_DB_CREATE, &err), TD_EFORMAT);
	CHECK(strstr(err.msg, "refusing to replace it: ") != NULL && strstr(err.msg, "is not a treedrift database"));
	CHECK(same_file(foreign, before, len));
	free(before);
	before = read_all(text, &len);
	CHECK_INT(td_db_writer_open(&w, text, TD_DB_APPEND, &err), TD_EFORMAT);
	CHECK_INT(td_db_writer_open(&w, text, TD_DB_CREATE, &err), TD_EFORMAT);
	CHECK(same_file(text, before, len));
	free(before);
	before = read_all(newer, &len);
	CHECK_INT(td_db_writer_open(&w, newer, TD_DB_APPEND, &err), TD_ENEWER);
	CHECK(same_file(newer, before, len));
	free(before);
	CHECK(w == NULL);
	CHECK_INT(count_named(tmpdir, ".tmp-"), 0);
	/* CREATE may replace a newer treedrift database: the caller asked. */
	CHECK_INT(write_db(newer, TD_DB_CREATE, &v1, 1, 0), 0);
	CHECK(db_sound(newer));
	td_tree_free(v1);
}

/* The disk fills while a version is added: TD_EIO, the old database as it
 * was, no temporary file. Simulated by capping the page count. */
static void test_disk_full_hook(void)
{
	const char *path = tpath("full.db");
	td_tree_t *v1 = tree_numbered("v1", 10), *big = tree_numbered("big", 5000);
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };
	size_t len;
	char *before;

	CHECK_INT(write_db(path, TD_DB_CREATE, &v1, 1, 0), 0);
	before = read_all(path, &len);
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_APPEND, &err), 0);
	CHECK_INT(td_db_writer_set_max_pages(w, (unsigned)(len / 4096) + 4, &err), 0);
	CHECK_INT(td_db_writer_add(w, big, 0, &err), TD_EIO);
	CHECK(strstr(err.msg, "database or disk is full") != NULL);
	td_db_writer_free(w);
	CHECK(same_file(path, before, len));
	CHECK_INT(count_named(tmpdir, "full.db.tmp-"), 0);
	CHECK(db_sound(path));
	free(before);
	td_tree_free(v1);
	td_tree_free(big);
}

/* The same on a real full file system: a 256 KiB tmpfs in a private mount
 * namespace (root, or an unprivileged user namespace). Exit 77: skipped. */
static int disk_full_child(const char *dir)
{
	char path[4300], before_path[4300];
	td_tree_t *v1 = tree_numbered("v1", 10), *big = tree_numbered("big", 5000);
	td_db_writer_t *w = NULL;
	td_error_t err = { 0 };
	size_t len;
	char *before;
	int rc;

	if (unshare(CLONE_NEWNS) && unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return 77;
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", dir, "tmpfs", 0, "size=256k"))
		return 77;
	snprintf(path, sizeof(path), "%s/full.db", dir);
	snprintf(before_path, sizeof(before_path), "%s/full.db.lock", dir);
	if (write_db(path, TD_DB_CREATE, &v1, 1, 0))
		return 10;
	before = read_all(path, &len);
	rc = td_db_writer_open(&w, path, TD_DB_APPEND, &err);
	if (!rc)
		rc = td_db_writer_add(w, big, 0, &err);
	if (!rc)
		rc = td_db_writer_commit(w, &err);
	td_db_writer_free(w);
	fprintf(stderr, "tmpfs full: %s\n", err.msg);
	if (rc != TD_EIO)
		return 11;
	if (!same_file(path, before, len))
		return 12;
	if (count_named(dir, ".tmp-") != 0 || access(before_path, F_OK) == 0)
		return 13;
	if (!db_sound(path))
		return 14;
	free(before);
	td_tree_free(v1);
	td_tree_free(big);
	return 0;
}

static void test_disk_full_tmpfs(void)
{
	const char *dir = tpath("tiny");
	int status = 0;
	pid_t pid;

	CHECK_INT(mkdir(dir, 0700), 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(disk_full_child(dir));
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		printf("disk full on tmpfs: skipped (no mount namespace)\n");
	else
		CHECK_INT(WEXITSTATUS(status), 0);
	rmdir(dir);
}

static void test_corrupt(void)
{
	const char *path = tpath("good.db");
	td_tree_t *v1 = tree_numbered("v1", 3000), *v2 = tree_numbered("v2", 3000), *trees[2] = { v1, v2 };
	static const struct { long page_num, page_den; size_t off, len; } spots[] = {
		{ 1, 2, 1500, 300 },  /* the middle of a page in the middle of the file */
		{ 1, 3, 0, 64 },      /* a page header */
		{ 3, 4, 3000, 200 },
	};
	td_error_t err = { 0 };
	size_t len;
	char *good;

	CHECK_INT(write_db(path, TD_DB_CREATE, trees, 2, 0), 0);
	good = read_all(path, &len);
	for (size_t s = 0; s < sizeof(spots) / sizeof(spots[0]); s++) {
		const char *bad = tpath("bad.db");
		size_t pages = len / 4096, page = pages * (size_t)spots[s].page_num / (size_t)spots[s].page_den;
		char *copy = malloc(len);
		td_db_t *db = NULL;
		int rc;

		memcpy(copy, good, len);
		memset(copy + page * 4096 + spots[s].off, 0x5a, spots[s].len);
		write_all(bad, copy, len);
		rc = td_db_open(&db, bad, &err);
		CHECK_INT(rc, 0);
		if (!rc) {
			rc = td_db_check(db, &err);
			CHECK_INT(rc, TD_EFORMAT);
			CHECK(strstr(err.msg, "is corrupt") != NULL || strstr(err.msg, "inconsistent") != NULL);
			printf("corruption at page %zu: %s\n", page + 1, err.msg);
		}
		td_db_free(db);
		/* Appending to it fails somewhere before the rename, and the file
		 * stays as it was. */
		{
			td_tree_t *extra = tree_numbered("v3", 3000);
			td_db_writer_t *w = NULL;
			rc = td_db_writer_open(&w, bad, TD_DB_APPEND, &err);
			if (!rc)
				rc = td_db_writer_add(w, extra, 0, &err);
			if (!rc)
				rc = td_db_writer_commit(w, &err);
			td_db_writer_free(w);
			CHECK_INT(rc, TD_EFORMAT);
			printf("append to corrupt copy: %s\n", err.msg);
			CHECK(same_file(bad, copy, len));
			CHECK_INT(count_named(tmpdir, "bad.db.tmp-"), 0);
			td_tree_free(extra);
		}
		free(copy);
		unlink(bad);
	}
	free(good);

	/* Sound pages, broken references: caught by treedrift's own checks. */
	{
		static const char *const breakages[] = {
			"UPDATE entry SET content_id = 999999 WHERE version_id = 1 AND path_id = 1",
			"UPDATE version SET file_count = file_count + 1 WHERE label = 'v2'",
			"DELETE FROM path WHERE id = 1",
			"UPDATE content SET tlsh = NULL WHERE id = 1",
		};
		for (size_t i = 0; i < sizeof(breakages) / sizeof(breakages[0]); i++) {
			const char *bad = tpath("broken.db");
			td_db_t *db = NULL;

			unlink(bad);
			CHECK_INT(write_db(bad, TD_DB_CREATE, trees, 2, 0), 0);
			CHECK_INT(exec_on(bad, breakages[i]), SQLITE_OK);
			CHECK_INT(td_db_open(&db, bad, &err), 0);
			CHECK_INT(td_db_check(db, &err), TD_EFORMAT);
			CHECK(strstr(err.msg, "inconsistent") != NULL);
			printf("broken (%s): %s\n", breakages[i], err.msg);
			td_db_free(db);
			unlink(bad);
		}
	}
	td_tree_free(v1);
	td_tree_free(v2);
}


/* An 80k-file version with kernel-like paths: time to write, load and
 * match, and the database size for it and for versions that differ from
 * it in 1% of files. */
/* A database of schema 1 (no content.sha256_ws) or 2 (no
 * content.ws_bytes), as an older build wrote it: made here with that
 * schema's SQL rather than kept as a blob. */
static void make_old_db(const char *path, int schema)
{
	static const char rows[] =
		"PRAGMA user_version = 1;"
		"INSERT INTO meta VALUES ('created_by', 'treedrift 0.1.0');"
		"INSERT INTO version VALUES (1, 'old', '/src', 'dir', '2024-05-01T12:00:00Z', '0.1.0', 2, 130);"
		"INSERT INTO path VALUES (1, CAST('a.c' AS BLOB)), (2, CAST('b.c' AS BLOB));"
		"INSERT INTO content VALUES (1, zeroblob(32), 100, NULL, 1, 1, zeroblob(100), NULL),"
		" (2, x'0101010101010101010101010101010101010101010101010101010101010101', 30, NULL, 1, 1, zeroblob(30), NULL);"
		"INSERT INTO entry VALUES (1, 1, 1, 33188, 100, 0, 0, 0, 1, NULL, NULL, NULL, NULL),"
		" (1, 2, 1, 33188, 30, 0, 0, 0, 2, NULL, NULL, NULL, NULL);";
	char app_id[64];

	unlink(path);
	CHECK_INT(exec_on(path, td_db_schema_sql), SQLITE_OK);
	CHECK_INT(exec_on(path, rows), SQLITE_OK);
	snprintf(app_id, sizeof(app_id), "PRAGMA application_id = %d", TD_DB_APPLICATION_ID);
	CHECK_INT(exec_on(path, app_id), SQLITE_OK);
	for (int v = 1; v < schema; v++) {
		char pragma[64];
		CHECK_INT(exec_on(path, td_db_migrate_sql[v - 1]), SQLITE_OK);
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		CHECK_INT(exec_on(path, pragma), SQLITE_OK);
	}
}

static long long user_version_of(const char *path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long long v = -1;

	if (sqlite3_open(path, &db) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* Schemas 1 and 2 are read as they are (no normalised digest, no length
 * of the normalised text), and migrated on write: the columns added,
 * user_version the current one, old rows filled in when a later scan
 * knows the same bytes. */
static void test_old_schema_migration(int schema)
{
	const char *path = tpath("old-schema.db");
	td_tree_t *old = NULL, *t = tree_new("new"), *got = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };

	make_old_db(path, schema);
	CHECK_INT(user_version_of(path), schema);
	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0);
	CHECK_INT(td_db_load(&old, db, "old", &err), 0);
	td_db_free(db);
	db = NULL;
	CHECK(old && old->count == 2 && old->files[0].has_digest && !old->files[0].digest.has_sha256_ws);

	/* The new version holds a.c's bytes again, now with their normalised
	 * digest, and a file of its own. */
	add_named(t, "c.c", 500);
	if (old && old->count == 2) {
		td_file_t f = old->files[0];
		f.path = dupmem("a.c", 3);
		f.link_target = NULL;
		f.skip_detail = NULL;
		f.digest.sketch = malloc(100);
		memcpy(f.digest.sketch, old->files[0].digest.sketch, 100);
		f.digest.has_sha256_ws = 1;
		memset(f.digest.sha256_ws, 0x5a, TD_SHA256_BYTES);
		f.digest.has_ws_bytes = 1;
		f.digest.ws_bytes = 77;
		td_tree_append(t, &f);
	}
	t->files[0].digest.has_sha256_ws = 1;
	t->files[0].digest.has_ws_bytes = 1;
	td_tree_sort(t);
	CHECK_INT(write_db(path, TD_DB_APPEND, &t, 1, 0), 0);
	CHECK_INT(user_version_of(path), TD_DB_SCHEMA_VERSION);

	CHECK_INT(td_db_open(&db, path, &err), 0);
	CHECK_INT(td_db_check(db, &err), 0); /* the same SQL as a new database's */
	td_tree_free(old);
	old = NULL;
	CHECK_INT(td_db_load(&old, db, "old", &err), 0);
	CHECK(old && old->files[0].digest.has_sha256_ws && old->files[0].digest.sha256_ws[0] == 0x5a);
	CHECK(old && old->files[0].digest.has_ws_bytes && old->files[0].digest.ws_bytes == 77);
	CHECK(old && !old->files[1].digest.has_sha256_ws && !old->files[1].digest.has_ws_bytes);
	CHECK_INT(td_db_load(&got, db, "new", &err), 0);
	if (got)
		check_tree_equal(got, t);
	td_db_free(db);

	/* A new database is made at the current schema directly. */
	CHECK_INT(write_db(tpath("current.db"), TD_DB_CREATE, &t, 1, 0), 0);
	CHECK_INT(user_version_of(tpath("current.db")), TD_DB_SCHEMA_VERSION);
	td_tree_free(got);
	td_tree_free(old);
	td_tree_free(t);
}

static void test_scale(void)
{
	static const char *const dirs[] = {
		"drivers/net/ethernet/intel/e1000e", "arch/arm64/boot/dts/qcom", "fs/btrfs", "include/linux",
		"sound/soc/codecs", "drivers/gpu/drm/amd/display/dc/dcn20", "tools/testing/selftests/bpf/progs",
		"Documentation/devicetree/bindings/iio",
	};
	static const char *const stems[] = { "netdev", "core", "phy", "regmap", "ops" };
	/* a kernel's file count with TD_TEST_FULL_SCALE=1; a tenth by default */
	const size_t n = getenv("TD_TEST_FULL_SCALE") ? 80000 : 8000;
	const char *path = tpath("big.db");
	td_tree_t *v1 = tree_new("v6.1"), *got = NULL, *vk;
	td_db_matches_t *m = NULL;
	td_db_t *db = NULL;
	td_error_t err = { 0 };
	size_t path_bytes = 0, idx[800];
	struct stat st;
	double t0, t_add, t_write, t_load, t_match;
	td_db_writer_t *w = NULL;
	off_t size1;
	char name[256];

	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/sub%02u/%s_%zu.c", dirs[rng() % 8], (unsigned)(rng() % 51),
			 stems[rng() % 5], i);
		path_bytes += strlen(name);
		add_named(v1, name, 100 + rng() % 50000);
	}
	td_tree_sort(v1);

	t0 = now_s();
	CHECK_INT(td_db_writer_open(&w, path, TD_DB_CREATE, &err), 0);
	CHECK_INT(td_db_writer_add(w, v1, 0, &err), 0);
	t_add = now_s() - t0;
	CHECK_INT(td_db_writer_commit(w, &err), 0);
	t_write = now_s() - t0;
	td_db_writer_free(w);
	CHECK_INT(stat(path, &st), 0);
	size1 = st.st_size;

	CHECK_INT(td_db_open(&db, path, &err), 0);
	t0 = now_s();
	CHECK_INT(td_db_load(&got, db, NULL, &err), 0);
	t_load = now_s() - t0;
	if (got) {
		check_tree_equal(got, v1);
	}
	t0 = now_s();
	CHECK_INT(td_db_match(&m, db, v1, &err), 0);
	t_match = now_s() - t0;
	if (m)
		CHECK_INT(m->identical[0], n);
	td_db_matches_free(m);
	m = NULL;
	td_db_free(db);
	db = NULL;
	td_tree_free(got);

	printf("%zu files: add %.3f s, ", n, t_add);
	printf("(mean path %.1f bytes): write+commit %.3f s, load %.3f s, match %.3f s, size %.1f MB\n",
	       (double)path_bytes / (double)n, t_write, t_load, t_match, size1 / 1e6);
	/* times are printed for the record only: they belong to bench/, not here */

	/* Four point releases, each changing 1% of files of the one before. */
	vk = v1;
	for (int k = 2; k <= 5; k++) {
		td_tree_t *next;
		char label[16];
		for (size_t i = 0; i < n / 100; i++)
			idx[i] = (size_t)(rng() % n);
		snprintf(label, sizeof(label), "v6.1.%d", k);
		next = tree_changed(vk, label, idx, n / 100);
		t0 = now_s();
		CHECK_INT(write_db(path, TD_DB_APPEND, &next, 1, 0), 0);
		t_write = now_s() - t0;
		if (vk != v1)
			td_tree_free(vk);
		vk = next;
		printf("append %s: %.3f s\n", label, t_write);
	}
	CHECK_INT(stat(path, &st), 0);
	printf("5 versions: %.1f MB, %.2f MB per version that changes 1%% of files\n", st.st_size / 1e6,
	       (double)(st.st_size - size1) / 4 / 1e6);

	CHECK_INT(td_db_open(&db, path, &err), 0);
	t0 = now_s();
	CHECK_INT(td_db_match(&m, db, vk, &err), 0);
	t_match = now_s() - t0;
	if (m) {
		CHECK_INT(m->version_count, 5);
		CHECK_INT(m->identical[4], n);
		CHECK(m->identical[0] < n && m->identical[0] > n * 9 / 10);
	}
	t0 = now_s();
	CHECK_INT(td_db_check(db, &err), 0);
	printf("match against 5 versions %.3f s, check %.3f s\n", t_match, now_s() - t0);
	td_db_matches_free(m);
	td_db_free(db);
	td_tree_free(vk);
	td_tree_free(v1);
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4300];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (unlink(p))
			remove_tree(p);
	}
	closedir(d);
	rmdir(dir);
}

/* ---- scanning straight into the database ---- */

static void write_sized(const char *path, size_t n, int random)
{
	uint8_t *p = malloc(n ? n : 1);

	CHECK(p != NULL);
	if (!p)
		return;
	if (random)
		fill_random(p, n);
	else
		for (size_t i = 0; i < n; i++)
			p[i] = (uint8_t)("int x = 42;\n"[i % 12] ^ (rng() % 64 == 0));
	write_all(path, p, n);
	free(p);
}

/* A tree of many sizes: empty, too short for TLSH, uniform, text, random,
 * and one past the in-memory lane limit. */
static char *make_scan_tree(void)
{
	char *root = strdup(tpath("scan-src")), *sub;
	char name[64];

	mkdir(root, 0755);
	sub = td_test_join(root, "sub");
	mkdir(sub, 0755);
	for (int i = 0; i < 240; i++) {
		size_t sizes[] = { 0, 10, 49, 50, 300, 4096, 4097, 20000, 70001, 300000 };
		char *p;
		snprintf(name, sizeof(name), "f%03d.%s", i, i % 3 ? "c" : "bin");
		p = td_test_join(i % 2 ? sub : root, name);
		write_sized(p, sizes[i % 10] + (size_t)(i / 10), i % 3 == 0);
		free(p);
	}
	{
		char *p = td_test_join(root, "zeros");
		uint8_t *z = calloc(1, 100000);
		write_all(p, z, 100000);
		free(z);
		free(p);
		p = td_test_join(root, "large.bin");
		write_sized(p, (5u << 20) + 123, 1);
		free(p);
	}
	free(sub);
	return root;
}

/* Digest one file alone, without the lanes, as the reference. */
static int digest_alone(const char *root, const td_file_t *f, td_digest_t *out)
{
	td_digester_t *dg = NULL;
	char *p = td_test_join(root, f->path);
	size_t len = 0;
	char *data = read_all(p, &len);
	int rc = -1;

	if (data && !td_digester_new(&dg)) {
		td_digester_start(dg, 1);
		rc = td_digester_update(dg, data, len) || td_digester_finish(out, dg);
	}
	td_digester_free(dg);
	free(data);
	free(p);
	return rc;
}

static void test_add_scan(void)
{
	char *root = make_scan_tree();
	char *db_ref = strdup(tpath("scan-ref.db")), *db1 = strdup(tpath("scan-j1.db"));
	char *db3 = strdup(tpath("scan-j3.db"));
	td_tree_t *ref = NULL, *got1 = NULL, *got3 = NULL;
	unsigned jobs[] = { 1, 3 };
	char *dbs[] = { db1, db3 };

	/* The reference: td_scan, then td_db_writer_add. */
	{
		td_source_t *src = NULL;
		td_error_t err = { 0 };
		td_scan_opts_t o = { .jobs = 2 };
		td_tree_t *t = NULL;

		CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
		CHECK_INT(td_scan(&t, src, &o, NULL, &err), 0);
		if (t) {
			CHECK_INT(td_meta_set(&t->meta.label, "v1"), 0);
			CHECK_INT(write_db(db_ref, TD_DB_CREATE, &t, 1, 0), 0);
		}
		td_tree_free(t);
		td_source_free(src);
	}
	for (int k = 0; k < 2; k++) {
		td_db_writer_t *w = NULL;
		td_source_t *src = NULL;
		td_error_t err = { 0 };
		td_scan_opts_t o = { .jobs = jobs[k] };
		td_scan_stats_t stats = { 0 };
		td_tree_t *t = NULL;

		CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
		CHECK_INT(td_db_writer_open(&w, dbs[k], TD_DB_CREATE, &err), 0);
		CHECK_INT(td_db_writer_add_scan(w, &t, src, "v1", 0, &o, &stats, &err), 0);
		CHECK_INT(td_db_writer_commit(w, &err), 0);
		CHECK(t != NULL);
		if (t)
			CHECK_INT(t->count, 242);
		CHECK_INT(stats.files_read, 242);
		td_tree_free(t);
		td_db_writer_free(w);
		td_source_free(src);
	}
	/* The index a new database builds at commit is there. */
	CHECK_INT(count_rows(db1, "sqlite_master WHERE type = 'index' AND name = 'entry_path'"), 1);
	CHECK_INT(count_rows(db_ref, "sqlite_master WHERE type = 'index' AND name = 'entry_path'"), 1);
	ref = load(db_ref, "v1");
	got1 = load(db1, "v1");
	got3 = load(db3, "v1");
	CHECK(ref && got1 && got3);
	if (ref && got1 && got3) {
		CHECK_INT(td_meta_set(&got1->meta.scanned_at, ref->meta.scanned_at), 0);
		CHECK_INT(td_meta_set(&got3->meta.scanned_at, ref->meta.scanned_at), 0);
		check_tree_equal(got1, ref);
		check_tree_equal(got3, ref);
		for (size_t i = 0; i < ref->count; i++) {
			const td_file_t *f = &ref->files[i];
			td_digest_t d;
			if (f->type != TD_ENTRY_FILE)
				continue;
			CHECK_INT(digest_alone(root, f, &d), 0);
			CHECK(!memcmp(d.sha256, f->digest.sha256, TD_SHA256_BYTES));
			CHECK_INT(d.tlsh_status, f->digest.tlsh_status);
			if (d.tlsh_status == TD_TLSH_OK)
				CHECK(!memcmp(d.tlsh.body, f->digest.tlsh.body, TD_TLSH_BODY_BYTES) &&
				      d.tlsh.checksum == f->digest.tlsh.checksum);
			CHECK_INT(d.sketch_len, f->digest.sketch_len);
			td_digest_release(&d);
		}
	}
	/* A label already there fails before any file is read, and leaves
	 * the database as it was. */
	{
		td_db_writer_t *w = NULL;
		td_source_t *src = NULL;
		td_error_t err = { 0 };
		td_scan_stats_t stats = { 0 };
		td_tree_t *t = NULL;

		CHECK_INT(td_source_open(&src, root, NULL, &err), 0);
		CHECK_INT(td_db_writer_open(&w, db1, TD_DB_APPEND, &err), 0);
		CHECK_INT(td_db_writer_add_scan(w, &t, src, "v1", 0, NULL, &stats, &err), TD_EINVAL);
		CHECK(t == NULL);
		CHECK_INT(stats.files_read, 0);
		CHECK_INT(td_db_writer_add_scan(w, &t, src, "v2", 0, NULL, &stats, &err), 0);
		CHECK_INT(td_db_writer_commit(w, &err), 0);
		td_tree_free(t);
		td_db_writer_free(w);
		td_source_free(src);
		CHECK_INT(count_rows(db1, "version"), 2);
	}
	td_tree_free(ref);
	td_tree_free(got1);
	td_tree_free(got3);
	free(db_ref);
	free(db1);
	free(db3);
	free(root);
}

/* A URI as messages and reports show it: no password, in any form. */
static void test_display_name(void)
{
	static const char *const cases[][2] = {
		{ "kernels.db", "kernels.db" },
		{ "postgresql://db.example/td", "postgresql://db.example/td" },
		{ "postgresql://alice:s3cret@db.example:5433/td", "postgresql://alice@db.example:5433/td" },
		{ "postgres://alice:p%40ss@db/td?sslmode=require", "postgres://alice@db/td?sslmode=require" },
		{ "postgresql://alice@db/td?password=s3cret&sslmode=require", "postgresql://alice@db/td?sslmode=require" },
		{ "postgresql://db/td?sslmode=require&password=s3cret", "postgresql://db/td?sslmode=require" },
		{ "postgresql://:s3cret@db/td", "postgresql://@db/td" },
		{ "postgresql://alice:s3cret@%2Ftmp%2Fsock/td", "postgresql://alice@%2Ftmp%2Fsock/td" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *shown = td_db_display_name(cases[i][0]);
		CHECK_STR(shown, cases[i][1]);
		free(shown);
	}
	CHECK_INT(td_db_sniff("postgresql://db/td"), 1);
	CHECK_INT(td_db_sniff("postgres://db/td"), 1);
	CHECK_INT(td_db_sniff("postgresqlx://db/td"), 0);
}

int main(void)
{
	check_tmpdir(tmpdir, sizeof(tmpdir), "store");
	test_display_name();
	test_round_trip();
	test_dedupe_append_match();
	test_links_match();
	test_reader_during_append();
	test_label_rules();
	test_locking();
	test_delete();
	test_free_before_commit();
	test_sigkill();
	test_stale_temp_names();
	test_symlinked_target();
	test_open_errors();
	test_disk_full_hook();
	test_disk_full_tmpfs();
	test_corrupt();
	test_add_scan();
	test_old_schema_migration(1);
	test_old_schema_migration(2);
	if (!getenv("TD_TEST_QUICK"))
		test_scale();
	if (!getenv("TD_TEST_KEEP"))
		remove_tree(tmpdir);
	else
		printf("kept %s\n", tmpdir);
	return check_finish();
}
