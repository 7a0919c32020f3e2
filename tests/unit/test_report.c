/* Reports: view selection and order, and the text, JSON and CSV writers
 * against golden files in tests/data/report/. After an intended change of a
 * format, rewrite the golden files with TD_UPDATE_GOLDEN=1 and review the diff:
 *   TD_UPDATE_GOLDEN=1 ./build/tests/test_report && git diff tests/data/report
 * JSON and CSV outputs are also parsed back with python3 (json, csv). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "treedrift/annotate.h"
#include "treedrift/report.h"
#include "treedrift/rollup.h"
#include "analysis_impl.h"
#include "report_impl.h"
#include "check.h"

#define P(s) s, sizeof(s) - 1

/* Paths that try to break each format: a newline that would start a forged
 * line, a quote and a comma for CSV and JSON, markup, an invalid UTF-8 byte;
 * and one with a terminal escape sequence, a BEL, a right-to-left override
 * and a C1 CSI. The fixture also has "doc/a,b.txt": a comma alone. */
static const char nasty[] = "a\n\"<script>,\xff.c";
static const char evil[] = "zz\033]0;pwn\a\xe2\x80\xae\xc2\x9b.c";

static char tmpbase[1024]; /* $TMPDIR or /tmp */
static char tmpdir[1100];   /* this run's own directory under it */

/* ---- fixture -------------------------------------------------------- */

/* A digest whose hex form is the same under any nibble or byte order, so the
 * golden files hold whatever td_tlsh_format's layout is. */
static void fake_digest(td_digest_t *d, uint64_t size, int seed, int with_tlsh)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < TD_SHA256_BYTES; i++)
		d->sha256[i] = (uint8_t)(seed * 16 + i);
	d->size_bytes = size;
	if (with_tlsh) {
		uint8_t k = (uint8_t)(seed % 16);
		d->tlsh_status = TD_TLSH_OK;
		d->tlsh.checksum = (uint8_t)(0x11 * k);
		d->tlsh.lvalue = (uint8_t)(0x11 * ((k + 1) % 16));
		d->tlsh.q1_ratio = d->tlsh.q2_ratio = (uint8_t)((k + 2) % 16);
		memset(d->tlsh.body, 0x11 * ((k + 3) % 16), sizeof(d->tlsh.body));
	} else {
		d->tlsh_status = TD_TLSH_TOO_SHORT;
	}
}

static char *dup_bytes(const char *s, size_t len)
{
	char *d = malloc(len + 1);
	if (!d)
		abort();
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

static void add_file(td_tree_t *t, const char *path, size_t len, uint64_t size, int seed, int with_tlsh)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = dup_bytes(path, len);
	f.path_len = len;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.size_bytes = size;
	f.has_digest = 1;
	fake_digest(&f.digest, size, seed, with_tlsh);
	if (td_tree_append(t, &f))
		abort();
}

static void add_skipped(td_tree_t *t, const char *path, size_t len, const char *reason, const char *detail)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = dup_bytes(path, len);
	f.path_len = len;
	f.type = TD_ENTRY_SKIPPED;
	f.skip_reason = reason;
	f.skip_detail = detail ? dup_bytes(detail, strlen(detail)) : NULL;
	if (td_tree_append(t, &f))
		abort();
}

static td_change_t *add_change(td_result_t *r, td_status_t status, const char *path, size_t len)
{
	td_change_t *c = &r->changes[r->count++];

	memset(c, 0, sizeof(*c));
	c->status = status;
	c->upstream = td_tree_find(r->upstream, path, len);
	c->target = td_tree_find(r->target, path, len);
	c->built = -1;
	c->weight = 1.0;
	return c;
}

static void score(td_change_t *c, int distance, td_class_t cls, int fallback)
{
	c->distance = distance;
	c->cls = cls;
	c->fallback = fallback;
	c->risk = distance * c->weight;
}

static void set_policy(td_change_t *c, const char *policy_class, double weight, int built)
{
	c->policy_class = policy_class;
	c->weight = weight;
	c->risk = c->distance * weight;
	c->built = built;
}

/* Indices into the fixture's changes, which are in path order. */
enum {
	C_MAKEFILE, C_NASTY, C_COMMA, C_GPU_NEW, C_GPU_OLD, C_NET_MOVED, C_NET_ORIG, C_FIFO,
	C_HEADER, C_SCHED, C_SECRET, C_EVIL, C_COUNT
};

/* Every status and class: a fallback score, a copy and a move, a version
 * match, both sides of skipping; with_policy adds path-policy weights and
 * kernel-config build states. */
static void fixture_init(td_result_t *r, int with_policy)
{
	td_tree_t *up, *tg;
	td_change_t *c[C_COUNT];

	memset(r, 0, sizeof(*r));
	if (td_tree_new(&up) || td_tree_new(&tg))
		abort();
	add_file(up, P("Makefile"), 2000, 1, 1);
	add_file(up, nasty, sizeof(nasty) - 1, 40, 2, 0);
	add_file(up, P("doc/a,b.txt"), 300, 14, 1);
	add_file(up, P("drivers/gpu/old.c"), 5000, 3, 1);
	add_file(up, P("drivers/net/orig.c"), 7000, 4, 1);
	add_file(up, P("include/linux/x.h"), 900, 5, 1);
	add_file(up, P("kernel/sched/core.c"), 300000, 6, 1);
	add_skipped(up, P("secret.key"), TD_SKIP_UNREADABLE, "Permission denied");

	add_file(tg, P("Makefile"), 2000, 1, 1);
	add_file(tg, nasty, sizeof(nasty) - 1, 44, 7, 0);
	add_file(tg, P("drivers/gpu/new.c"), 5100, 8, 1);
	add_file(tg, P("drivers/gpu/old.c"), 5010, 9, 1);
	add_file(tg, P("drivers/net/moved.c"), 7000, 4, 1);
	add_skipped(tg, P("fifo"), TD_SKIP_FIFO, NULL);
	add_file(tg, P("include/linux/x.h"), 950, 10, 1);
	add_file(tg, P("kernel/sched/core.c"), 310000, 11, 1);
	add_file(tg, P("secret.key"), 64, 12, 1);
	add_file(tg, evil, sizeof(evil) - 1, 123, 13, 1);
	if (td_tree_sort(up) || td_tree_sort(tg))
		abort();

	if (td_meta_set(&up->meta.label, "v6.1") || td_meta_set(&up->meta.root, "/src/linux-6.1") ||
	    td_meta_set(&up->meta.source_kind, "dir") ||
	    td_meta_set(&up->meta.scanned_at, "2024-05-01T10:00:00Z") ||
	    td_meta_set(&up->meta.tool_version, "0.0.9") ||
	    td_meta_set(&tg->meta.root, "/src/vendor\xff-bsp") ||
	    td_meta_set(&tg->meta.source_kind, "dir") ||
	    td_meta_set(&tg->meta.scanned_at, "2024-05-02T08:30:00Z") ||
	    td_meta_set(&tg->meta.tool_version, "0.0.9"))
		abort();

	r->upstream = up;
	r->target = tg;
	r->changes = calloc(C_COUNT, sizeof(td_change_t));
	if (!r->changes)
		abort();
	r->thresholds.clean_below = 60;
	r->thresholds.dirty_above = 150;
	r->len_diff = 1;
	r->base_version = dup_bytes(P("v6.1"));

	c[C_MAKEFILE] = add_change(r, TD_STATUS_IDENTICAL, P("Makefile"));
	c[C_NASTY] = add_change(r, TD_STATUS_MODIFIED, nasty, sizeof(nasty) - 1);
	c[C_COMMA] = add_change(r, TD_STATUS_REMOVED, P("doc/a,b.txt"));
	c[C_GPU_NEW] = add_change(r, TD_STATUS_ADDED, P("drivers/gpu/new.c"));
	c[C_GPU_OLD] = add_change(r, TD_STATUS_MODIFIED, P("drivers/gpu/old.c"));
	c[C_NET_MOVED] = add_change(r, TD_STATUS_ADDED, P("drivers/net/moved.c"));
	c[C_NET_ORIG] = add_change(r, TD_STATUS_REMOVED, P("drivers/net/orig.c"));
	c[C_FIFO] = add_change(r, TD_STATUS_SKIPPED, P("fifo"));
	c[C_HEADER] = add_change(r, TD_STATUS_MODIFIED, P("include/linux/x.h"));
	c[C_SCHED] = add_change(r, TD_STATUS_MODIFIED, P("kernel/sched/core.c"));
	c[C_SECRET] = add_change(r, TD_STATUS_SKIPPED, P("secret.key"));
	c[C_EVIL] = add_change(r, TD_STATUS_ADDED, evil, sizeof(evil) - 1);

	score(c[C_NASTY], 210, TD_CLASS_DIRTY, 1);
	score(c[C_GPU_NEW], 90, TD_CLASS_SAFE, 0);
	c[C_GPU_NEW]->origin_kind = TD_ORIGIN_COPIED;
	c[C_GPU_NEW]->origin = td_tree_find(up, P("drivers/gpu/old.c"));
	score(c[C_GPU_OLD], 12, TD_CLASS_CLEAN, 0);
	c[C_GPU_OLD]->origin_kind = TD_ORIGIN_SAME_PATH;
	c[C_GPU_OLD]->origin = c[C_GPU_OLD]->upstream;
	score(c[C_NET_MOVED], 0, TD_CLASS_CLEAN, 0);
	c[C_NET_MOVED]->origin_kind = TD_ORIGIN_MOVED;
	c[C_NET_MOVED]->origin = td_tree_find(up, P("drivers/net/orig.c"));
	score(c[C_HEADER], 75, TD_CLASS_SAFE, 0);
	c[C_HEADER]->matches_version = "v6.1.5";
	c[C_HEADER]->version_match = TD_VERSION_MATCH_BACKPORT;
	score(c[C_SCHED], 312, TD_CLASS_DIRTY, 0);
	score(c[C_EVIL], 300, TD_CLASS_NEW, 0);
	/* line counts: counted, binary, and missing for a reason told once */
	r->lines_counted = 1;
	r->lines_missing = "upstream is a database scanned from a directory, which keeps no content";
	c[C_NASTY]->lines = TD_LINES_MISSING;
	c[C_NASTY]->lines_missing = r->lines_missing;
	c[C_GPU_OLD]->lines = TD_LINES_COUNTED;
	c[C_GPU_OLD]->lines_added = 12;
	c[C_GPU_OLD]->lines_removed = 3;
	c[C_HEADER]->lines = TD_LINES_BINARY;
	c[C_SCHED]->lines = TD_LINES_COUNTED;
	c[C_SCHED]->lines_added = 410;
	c[C_SCHED]->lines_removed = 95;

	if (with_policy) {
		set_policy(c[C_MAKEFILE], "build", 0.5, 2);
		set_policy(c[C_NASTY], "other", 1.0, 0);
		set_policy(c[C_GPU_NEW], "driver", 0.25, 1);
		set_policy(c[C_GPU_OLD], "driver", 0.333, 1);
		set_policy(c[C_NET_MOVED], "driver", 0.25, 0);
		set_policy(c[C_NET_ORIG], "driver", 0.25, -1);
		set_policy(c[C_COMMA], "doc", 0.0, -1);
		set_policy(c[C_HEADER], "core", 1.5, 2);
		set_policy(c[C_SCHED], "core", 2.0, 1);
		set_policy(c[C_EVIL], "other", 1.0, -1);
	}
	td_result_update_totals(r);
}

static void fixture_release(td_result_t *r)
{
	td_tree_free(r->upstream);
	td_tree_free(r->target);
	free(r->changes);
	free(r->base_version);
	memset(r, 0, sizeof(*r));
}

/* ---- helpers -------------------------------------------------------- */

typedef int (*report_fn)(FILE *, const td_analysis_t *, const td_view_t *);

/* The analysis a report formats: r with what the pipeline's last stage adds
 * (rollups, dirty core files, origin counts). */
static void analysis_of(td_analysis_t *a, td_result_t *r, unsigned by_dir, int by_class)
{
	memset(a, 0, sizeof(*a));
	a->result = r;
	CHECK_INT(td_analysis_summarise(a, by_dir, by_class, NULL, td_report_has_policy(r), NULL), 0);
}

static void analysis_release(td_analysis_t *a)
{
	td_analysis_summary_release(a);
	a->result = NULL;
}

static char *render_analysis(report_fn fn, const td_analysis_t *a, const td_view_t *v, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		abort();
	CHECK_INT(fn(f, a, v), 0);
	fclose(f);
	*len = n;
	return buf;
}

static char *render(report_fn fn, const td_result_t *r, const td_view_t *v, size_t *len)
{
	td_analysis_t a;
	char *out;

	analysis_of(&a, (td_result_t *)r, 0, 0);
	out = render_analysis(fn, &a, v, len);
	analysis_release(&a);
	return out;
}

/* td_report_write on the analysis of r. */
static int write_report(FILE *f, td_result_t *r, td_format_t fmt, td_error_t *err)
{
	td_analysis_t a;
	int rc;

	analysis_of(&a, r, 0, 0);
	rc = td_report_write(f, &a, fmt, NULL, err);
	analysis_release(&a);
	return rc;
}

static int update_golden(void)
{
	const char *e = getenv("TD_UPDATE_GOLDEN");
	return e && !strcmp(e, "1");
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Compare got with tests/data/report/NAME.golden (or rewrite it). On a
 * mismatch the output is left in $TMPDIR for a diff. */
static void check_golden(const char *name, const char *got, size_t len)
{
	char path[4096], actual[4096];
	char *want;
	size_t want_len = 0, i = 0;

	snprintf(path, sizeof(path), "%s/report/%s.golden", TD_TEST_DATA, name);
	if (update_golden()) {
		CHECK_INT(write_file(path, got, len), 0);
		return;
	}
	want = read_file(path, &want_len);
	check_count++;
	if (want && want_len == len && !memcmp(want, got, len)) {
		free(want);
		return;
	}
	check_failures++;
	while (want && i < len && i < want_len && want[i] == got[i])
		i++;
	snprintf(actual, sizeof(actual), "%s/test_report-%s.actual", tmpbase, name);
	write_file(actual, got, len);
	fprintf(stderr, "%s: output differs from %s at byte %zu (got %zu bytes, want %zu); output in %s\n",
		name, path, i, len, want_len, actual);
	free(want);
}

/* Replace the library's version in JSON output by @VERSION@, so that the
 * golden files outlive a release. */
static void mask_version(char **buf, size_t *len)
{
	char key[128];
	const char *mask = "\"version\": \"@VERSION@\"";
	char *at, *out;
	size_t klen, mlen = strlen(mask);

	snprintf(key, sizeof(key), "\"version\": \"%s\"", td_version());
	klen = strlen(key);
	at = strstr(*buf, key);
	CHECK(at != NULL);
	if (!at)
		return;
	out = malloc(*len - klen + mlen + 1);
	if (!out)
		abort();
	memcpy(out, *buf, (size_t)(at - *buf));
	memcpy(out + (at - *buf), mask, mlen);
	memcpy(out + (at - *buf) + mlen, at + klen, *len - (size_t)(at - *buf) - klen + 1);
	*len = *len - klen + mlen;
	free(*buf);
	*buf = out;
}

/* Run python3 SCRIPT DATA and return its stdout (NULL when it failed). */
static char *run_python(const char *script, const char *data, size_t data_len)
{
	char script_path[2048], data_path[2048], cmd[8192];
	char *out = NULL;
	size_t out_len = 0, got;
	char chunk[4096];
	FILE *p, *mem;
	int status;

	snprintf(script_path, sizeof(script_path), "%s/check.py", tmpdir);
	snprintf(data_path, sizeof(data_path), "%s/data", tmpdir);
	if (write_file(script_path, script, strlen(script)) || write_file(data_path, data, data_len))
		return NULL;
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' '%s/../../doc/treedrift-compare.schema.json'",
		 script_path, data_path, TD_TEST_DATA);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	mem = open_memstream(&out, &out_len);
	while ((got = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, got, mem);
	fclose(mem);
	status = pclose(p);
	unlink(script_path);
	unlink(data_path);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "python3 check failed (status %d); its output:\n%s\n", status, out);
		free(out);
		return NULL;
	}
	return out;
}

static void hex_append(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(f, "%02x", (unsigned char)s[i]);
}

/* One line per selected change: the hex of its path. */
static char *expected_paths(const td_result_t *r, const td_view_t *v, int with_origin)
{
	size_t *idx, n;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_INT(td_view_select(&idx, &n, r, v), 0);
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		const td_file_t *file = c->target ? c->target : c->upstream;
		if (with_origin)
			fputs("20 ", f);
		hex_append(f, file->path, file->path_len);
		if (with_origin) {
			fputc(' ', f);
			if (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED)
				hex_append(f, c->origin->path, c->origin->path_len);
		}
		fputc('\n', f);
	}
	fclose(f);
	free(idx);
	return buf;
}

/* ---- view selection ------------------------------------------------- */

static void check_selection(const td_result_t *r, const td_view_t *v, const size_t *want, size_t want_n,
			    const char *what)
{
	size_t *idx = NULL, n = 0;
	int same;

	CHECK_INT(td_view_select(&idx, &n, r, v), 0);
	same = n == want_n && (!n || !memcmp(idx, want, n * sizeof(*idx)));
	check_count++;
	if (!same) {
		check_failures++;
		fprintf(stderr, "selection '%s': got", what);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %zu", idx[i]);
		fprintf(stderr, ", want");
		for (size_t i = 0; i < want_n; i++)
			fprintf(stderr, " %zu", want[i]);
		fputc('\n', stderr);
	}
	free(idx);
}

#define SELECTS(r, v, what, ...) do { \
	static const size_t want_[] = { __VA_ARGS__ }; \
	check_selection(r, v, want_, sizeof(want_) / sizeof(want_[0]), what); \
} while (0)

static void test_view(void)
{
	td_result_t r;
	td_view_t v;

	fixture_init(&r, 0);
	td_view_init(&v);
	CHECK_INT(v.only_classes, 0);
	CHECK_INT(v.only_statuses, 0);
	CHECK_INT(v.show_identical, 0);
	CHECK_INT(v.sort, TD_SORT_PATH);
	CHECK_INT(v.color, 0);

	SELECTS(&r, &v, "default", C_NASTY, C_COMMA, C_GPU_NEW, C_GPU_OLD, C_NET_MOVED, C_NET_ORIG, C_FIFO,
		C_HEADER, C_SCHED, C_SECRET, C_EVIL);
	SELECTS(&r, NULL, "NULL view", C_NASTY, C_COMMA, C_GPU_NEW, C_GPU_OLD, C_NET_MOVED, C_NET_ORIG, C_FIFO,
		C_HEADER, C_SCHED, C_SECRET, C_EVIL);

	v.show_identical = 1;
	SELECTS(&r, &v, "show identical", C_MAKEFILE, C_NASTY, C_COMMA, C_GPU_NEW, C_GPU_OLD, C_NET_MOVED,
		C_NET_ORIG, C_FIFO, C_HEADER, C_SCHED, C_SECRET, C_EVIL);
	v.show_identical = 0;

	v.only_statuses = 1u << TD_STATUS_ADDED;
	SELECTS(&r, &v, "added", C_GPU_NEW, C_NET_MOVED, C_EVIL);
	v.only_statuses = 1u << TD_STATUS_IDENTICAL;
	SELECTS(&r, &v, "only identical", C_MAKEFILE);
	v.only_statuses = (1u << TD_STATUS_REMOVED) | (1u << TD_STATUS_SKIPPED);
	SELECTS(&r, &v, "removed and skipped", C_COMMA, C_NET_ORIG, C_FIFO, C_SECRET);
	v.only_statuses = 0;

	/* A class filter leaves out what has no class. */
	v.only_classes = 1u << TD_CLASS_DIRTY;
	SELECTS(&r, &v, "dirty", C_NASTY, C_SCHED);
	v.only_classes = (1u << TD_CLASS_CLEAN) | (1u << TD_CLASS_SAFE);
	SELECTS(&r, &v, "clean and safe", C_GPU_NEW, C_GPU_OLD, C_NET_MOVED, C_HEADER);
	v.only_statuses = 1u << TD_STATUS_MODIFIED;
	SELECTS(&r, &v, "clean and safe modified", C_GPU_OLD, C_HEADER);
	v.only_statuses = 0;
	v.only_classes = 1u << TD_CLASS_NONE;
	SELECTS(&r, &v, "no class", C_COMMA, C_NET_ORIG, C_FIFO, C_SECRET);

	/* Distance, highest first; equal distances in path order. */
	v.only_classes = 0;
	v.sort = TD_SORT_DISTANCE;
	SELECTS(&r, &v, "by distance", C_SCHED, C_EVIL, C_NASTY, C_GPU_NEW, C_HEADER, C_GPU_OLD,
		C_COMMA, C_NET_MOVED, C_NET_ORIG, C_FIFO, C_SECRET);
	v.only_classes = 1u << TD_CLASS_DIRTY;
	SELECTS(&r, &v, "dirty by distance", C_SCHED, C_NASTY);
	fixture_release(&r);

	/* Risk, highest first: 624, 300, 210, 112.5, 22.5, 3.996, then 0 by path. */
	fixture_init(&r, 1);
	td_view_init(&v);
	v.sort = TD_SORT_RISK;
	SELECTS(&r, &v, "by risk", C_SCHED, C_EVIL, C_NASTY, C_HEADER, C_GPU_NEW, C_GPU_OLD,
		C_COMMA, C_NET_MOVED, C_NET_ORIG, C_FIFO, C_SECRET);
	/* A tie on risk falls back to path order, not distance. */
	r.changes[C_HEADER].risk = 210.0;
	SELECTS(&r, &v, "risk tie", C_SCHED, C_EVIL, C_NASTY, C_HEADER, C_GPU_NEW, C_GPU_OLD,
		C_COMMA, C_NET_MOVED, C_NET_ORIG, C_FIFO, C_SECRET);
	r.changes[C_NASTY].risk = NAN;
	SELECTS(&r, &v, "NaN risk last", C_SCHED, C_EVIL, C_HEADER, C_GPU_NEW, C_GPU_OLD,
		C_COMMA, C_NET_MOVED, C_NET_ORIG, C_FIFO, C_SECRET, C_NASTY);
	fixture_release(&r);

	/* An empty result selects nothing (and *out is still freeable). */
	{
		td_result_t empty;
		size_t *idx = NULL, n = 99;
		memset(&empty, 0, sizeof(empty));
		CHECK_INT(td_view_select(&idx, &n, &empty, NULL), 0);
		CHECK_INT(n, 0);
		free(idx);
		CHECK_INT(td_view_select(&idx, &n, NULL, NULL), TD_EINVAL);
		CHECK(idx == NULL);
	}
}

/* ---- helpers of the writers ----------------------------------------- */

static void test_helpers(void)
{
	char num[TD_REPORT_NUM_MAX];
	uint32_t cp = 0;

	td_report_fixed(num, 624.0, 1);
	CHECK_STR(num, "624.0");
	td_report_fixed(num, 0.05, 1);
	CHECK_STR(num, "0.1");
	td_report_fixed(num, 0.25, 1); /* exact binary value: rounds to even, as printf */
	CHECK_STR(num, "0.2");
	td_report_fixed(num, 3.996, 1);
	CHECK_STR(num, "4.0");
	td_report_fixed(num, -0.04, 1);
	CHECK_STR(num, "0.0");
	td_report_fixed(num, -12.25, 2);
	CHECK_STR(num, "-12.25");
	td_report_fixed(num, 1e20, 1);
	CHECK_STR(num, "100000000000000000000.0");
	td_report_fixed(num, 7.6, 0);
	CHECK_STR(num, "8");
	td_report_fixed(num, -1.7976931348623157e308, 6);
	CHECK(strlen(num) == 1 + 309 + 1 + 6);
	td_report_fixed(num, NAN, 1);
	CHECK_STR(num, "nan");
	td_report_fixed(num, -INFINITY, 1);
	CHECK_STR(num, "-inf");
	td_report_trimmed(num, 2.0, 3);
	CHECK_STR(num, "2.0");
	td_report_trimmed(num, 0.25, 3);
	CHECK_STR(num, "0.25");
	td_report_trimmed(num, 0.333, 3);
	CHECK_STR(num, "0.333");
	td_report_trimmed(num, 0.00001, 3);
	CHECK_STR(num, "0.0");

	CHECK_INT(td_utf8_next((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
	CHECK_INT(cp, 0xe9);
	CHECK_INT(td_utf8_next((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
	CHECK_INT(cp, 0x1f600);
	CHECK_INT(td_utf8_next((const unsigned char *)"\xc0\x80", 2, &cp), 0);     /* overlong NUL */
	CHECK_INT(td_utf8_next((const unsigned char *)"\xe0\x80\xaf", 3, &cp), 0); /* overlong '/' */
	CHECK_INT(td_utf8_next((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0); /* surrogate */
	CHECK_INT(td_utf8_next((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
	CHECK_INT(td_utf8_next((const unsigned char *)"\xe2\x80", 2, &cp), 0);     /* truncated */
	CHECK_INT(td_utf8_next((const unsigned char *)"\x80", 1, &cp), 0);
	CHECK(td_utf8_valid(P("drivers/caf\xc3\xa9.c")));
	CHECK(!td_utf8_valid(nasty, sizeof(nasty) - 1));

	CHECK_INT(td_format_parse("text"), TD_FORMAT_TEXT);
	CHECK_INT(td_format_parse("json"), TD_FORMAT_JSON);
	CHECK_INT(td_format_parse("csv"), TD_FORMAT_CSV);
	CHECK_INT(td_format_parse("html"), TD_FORMAT_HTML);
	CHECK_INT(td_format_parse("markdown"), TD_FORMAT_MARKDOWN);
	CHECK_INT(td_format_parse("cyclonedx"), TD_FORMAT_CYCLONEDX);
	CHECK_INT(td_format_parse("JSON"), -1);
	CHECK_INT(td_format_parse("xml"), -1);
	CHECK_INT(td_format_parse(""), -1);
	CHECK_INT(td_format_parse(NULL), -1);
}

/* Brackets each byte the walker hands on, so that the test sees the calls. */
static void put_bracketed(FILE *f, unsigned char c)
{
	fprintf(f, "[%c]", c);
}

static void test_escape_walk(void)
{
	static const char in[] = "a\\\t\n\r\a\xff\xc3\xa9\xe2\x80\xae\x7f\xe2\x82";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	td_escape_walk(f, in, sizeof(in) - 1, put_bracketed);
	fclose(f);
	/* backslash, tab, newline, CR as C escapes; BEL, an invalid byte, U+202E
	 * (each of its bytes), DEL and a truncated sequence (each byte) as \ooo;
	 * the well-formed e-acute as its two bytes */
	CHECK_STR(buf, "[a][\\][\\][\\][t][\\][n][\\][r][\\][0][0][7][\\][3][7][7][\xc3][\xa9]"
		       "[\\][3][4][2][\\][2][0][0][\\][2][5][6][\\][1][7][7][\\][3][4][2][\\][2][0][2]");
	free(buf);
}

/* ---- text ----------------------------------------------------------- */

static int has_line_starting(const char *text, const char *prefix)
{
	size_t plen = strlen(prefix);

	for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, prefix, plen))
			return 1;
	return 0;
}

static void test_text(void)
{
	td_result_t r;
	td_view_t v;
	char *out;
	size_t len;

	fixture_init(&r, 0);
	td_view_init(&v);
	out = render(td_report_text, &r, &v, &len);
	check_golden("text", out, len);
	/* The newline in the path is written as \n: no line starts with the rest. */
	CHECK(strstr(out, "a\\n\"<script>,\\377.c") != NULL);
	CHECK(!has_line_starting(out, "\"<script>"));
	CHECK(strstr(out, "zz\\033]0;pwn\\a\\342\\200\\256\\302\\233.c") != NULL);
	CHECK(memchr(out, '\033', len) == NULL);
	CHECK(memchr(out, '\a', len) == NULL);
	CHECK(strstr(out, "/src/vendor\\377-bsp") != NULL);
	CHECK(strstr(out, "risk") == NULL);
	CHECK(strstr(out, "Dirty core files") == NULL);
	free(out);

	v.color = 1;
	out = render(td_report_text, &r, &v, &len);
	check_golden("text-color", out, len);
	CHECK(strstr(out, "\033[31mdirty\033[0m") != NULL);
	CHECK(strstr(out, "\033[33msafe\033[0m") != NULL);
	CHECK(strstr(out, "\033[32mclean\033[0m") != NULL);
	free(out);

	td_view_init(&v);
	v.only_classes = 1u << TD_CLASS_DIRTY;
	v.sort = TD_SORT_DISTANCE;
	out = render(td_report_text, &r, &v, &len);
	check_golden("text-dirty-by-distance", out, len);
	CHECK(strstr(out, "9 mismatched files (2 listed):\n") != NULL);
	CHECK(strstr(out, "Skipped files") == NULL);
	free(out);
	fixture_release(&r);

	fixture_init(&r, 1);
	td_view_init(&v);
	out = render(td_report_text, &r, &v, &len);
	check_golden("text-policy", out, len);
	CHECK(strstr(out, "Dirty core files") != NULL);
	CHECK(strstr(out, "Dirty core files") < strstr(out, "mismatched files"));
	CHECK(strstr(out, "total risk") != NULL);
	CHECK(memchr(out, '\033', len) == NULL);
	free(out);
	fixture_release(&r);
}

/* ---- JSON ----------------------------------------------------------- */

/* Parse strictly, check that path_bytes appears exactly where a path is not
 * UTF-8 and decodes to it, validate against the JSON Schema where the
 * jsonschema module is there, and print each file's path bytes in hex. */
static const char json_check_py[] =
	"import json, sys\n"
	"def reject(x):\n"
	"    raise ValueError('non-standard number ' + x)\n"
	"with open(sys.argv[1], 'rb') as fh:\n"
	"    raw = fh.read()\n"
	"doc = json.loads(raw.decode('utf-8'), parse_constant=reject)\n"
	"assert doc['schema'] == 5 and doc['tool'] == 'treedrift', doc\n"
	"try:\n"
	"    import jsonschema\n"
	"except ImportError:\n"
	"    jsonschema = None\n"
	"if jsonschema:\n"
	"    with open(sys.argv[2], encoding='utf-8') as fh:\n"
	"        schema = json.load(fh)\n"
	"    jsonschema.Draft202012Validator.check_schema(schema)\n"
	"    jsonschema.Draft202012Validator(schema).validate(doc)\n"
	"def path_of(obj):\n"
	"    if 'path_bytes' in obj:\n"
	"        b = bytes.fromhex(obj['path_bytes'])\n"
	"        try:\n"
	"            b.decode('utf-8')\n"
	"            raise SystemExit('path_bytes beside a valid UTF-8 path')\n"
	"        except UnicodeDecodeError:\n"
	"            pass\n"
	"        assert b.decode('utf-8', 'replace') == obj['path'], obj\n"
	"        return b\n"
	"    return obj['path'].encode('utf-8')\n"
	"for f in doc['files']:\n"
	"    print(path_of(f).hex())\n";

/* Run a checker script on a report; its output must be the expected paths
 * (csv: in the CSV checker's row form). */
static void check_parses(const char *py, int csv, const td_result_t *r, const td_view_t *v,
			 const char *out, size_t len)
{
	char *got = run_python(py, out, len);
	char *want = expected_paths(r, v, csv);

	CHECK(got != NULL);
	if (got)
		CHECK_STR(got, want);
	free(got);
	free(want);
}

static void check_json_parses(const td_result_t *r, const td_view_t *v, const char *out, size_t len)
{
	check_parses(json_check_py, 0, r, v, out, len);
}

static void test_json(void)
{
	td_result_t r;
	td_view_t v;
	char *out;
	size_t len;

	fixture_init(&r, 0);
	td_view_init(&v);
	out = render(td_report_json, &r, &v, &len);
	check_json_parses(&r, &v, out, len);
	CHECK(strstr(out, "\"policy_class\"") == NULL);
	CHECK(strstr(out, "\"built\"") == NULL);
	CHECK(strstr(out, "\"path\": \"a\\n\\\"<script>,\\ufffd.c\", \"path_bytes\": "
			  "\"610a223c7363726970743e2cff2e63\"") != NULL);
	CHECK(strstr(out, "\"zz\\u001b]0;pwn\\u0007\\u202e\\u009b.c\"") != NULL);
	CHECK(memchr(out, '\033', len) == NULL);
	mask_version(&out, &len);
	check_golden("json", out, len);
	free(out);

	v.show_identical = 1;
	v.sort = TD_SORT_DISTANCE;
	out = render(td_report_json, &r, &v, &len);
	check_json_parses(&r, &v, out, len);
	free(out);
	fixture_release(&r);

	fixture_init(&r, 1);
	td_view_init(&v);
	out = render(td_report_json, &r, &v, &len);
	check_json_parses(&r, &v, out, len);
	CHECK(strstr(out, "\"policy_applied\": true") != NULL);
	CHECK(strstr(out, "\"built\": null, \"support\": true") != NULL);
	mask_version(&out, &len);
	check_golden("json-policy", out, len);
	free(out);

	/* JSON has no NaN: a risk that is not a number is null. */
	r.changes[C_SCHED].risk = NAN;
	r.totals.total_risk = INFINITY;
	out = render(td_report_json, &r, &v, &len);
	check_json_parses(&r, &v, out, len);
	CHECK(strstr(out, "\"weight\": 2.0, \"risk\": null}") != NULL);
	CHECK(strstr(out, "\"total_risk\": null,") != NULL);
	free(out);
	out = render(td_report_csv, &r, &v, &len);
	CHECK(strstr(out, "\r\nkernel/sched/core.c,modified,dirty,312,0,310000,300000,,,,core,,yes,,counted,410,95,,,tlsh\r\n") != NULL);
	free(out);
	fixture_release(&r);

	/* An empty comparison is still a whole document. */
	{
		td_result_t empty;
		memset(&empty, 0, sizeof(empty));
		empty.thresholds.clean_below = 60;
		empty.thresholds.dirty_above = 150;
		out = render(td_report_json, &empty, NULL, &len);
		check_json_parses(&empty, NULL, out, len);
		CHECK(strstr(out, "\"files\": []\n}\n") != NULL);
		free(out);
	}
}

/* ---- CSV ------------------------------------------------------------ */

/* Parse strictly; the raw bytes must be what csv.writer writes for the same
 * rows with CRLF (so: RFC 4180 quoting and line ends); print for each row its
 * field count and the hex of its path and origin fields. */
static const char csv_check_py[] =
	"import csv, io, sys\n"
	"with open(sys.argv[1], newline='', encoding='utf-8', errors='surrogateescape') as fh:\n"
	"    raw = fh.read()\n"
	"rows = list(csv.reader(io.StringIO(raw, newline=''), strict=True))\n"
	"header = 'path,status,class,distance,fallback,size,upstream_size,origin,origin_distance,' \\\n"
	"    'matches_version,policy_class,risk,built,version_match,lines,lines_added,lines_removed,cosmetic,' \\\n"
	"    'similarity,scored_by'.split(',')\n"
	"assert rows[0] == header, rows[0]\n"
	"again = io.StringIO(newline='')\n"
	"csv.writer(again, lineterminator='\\r\\n').writerows(rows)\n"
	"assert again.getvalue() == raw, (again.getvalue(), raw)\n"
	"enc = lambda s: s.encode('utf-8', 'surrogateescape').hex()\n"
	"for row in rows[1:]:\n"
	"    print(len(row), enc(row[0]), enc(row[7]))\n";

static void check_csv_parses(const td_result_t *r, const td_view_t *v, const char *out, size_t len)
{
	check_parses(csv_check_py, 1, r, v, out, len);
}

static void test_csv(void)
{
	td_result_t r;
	td_view_t v;
	char *out;
	size_t len;

	fixture_init(&r, 0);
	td_view_init(&v);
	out = render(td_report_csv, &r, &v, &len);
	check_golden("csv", out, len);
	check_csv_parses(&r, &v, out, len);
	CHECK(strstr(out, "\r\n\"a\n\"\"<script>,\xff.c\",modified,dirty,210,1,44,40,,,,,,,,missing,,,,,fallback\r\n") != NULL);
	free(out);

	v.show_identical = 1;
	v.sort = TD_SORT_DISTANCE;
	out = render(td_report_csv, &r, &v, &len);
	check_csv_parses(&r, &v, out, len);
	free(out);
	fixture_release(&r);

	fixture_init(&r, 1);
	td_view_init(&v);
	out = render(td_report_csv, &r, &v, &len);
	check_golden("csv-policy", out, len);
	check_csv_parses(&r, &v, out, len);
	free(out);
	fixture_release(&r);
}

/* ---- dispatch, errors, locale --------------------------------------- */

static void test_write(void)
{
	td_result_t r;
	td_error_t err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fixture_init(&r, 0);
	f = open_memstream(&buf, &len);
	CHECK_INT(write_report(f, &r, TD_FORMAT_CSV, &err), 0);
	fclose(f);
	CHECK(len > 0 && !strncmp(buf, "path,status,", 12));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	memset(&err, 0, sizeof(err));
	CHECK_INT(write_report(f, &r, (td_format_t)42, &err), TD_EUNSUPPORTED);
	CHECK_STR(err.msg, "report format 'unknown' is not supported");
	fclose(f);
	free(buf);

	/* html, markdown and cyclonedx (tests/unit/test_report_rich.c checks their content) */
	for (int fmt = TD_FORMAT_HTML; fmt <= TD_FORMAT_CYCLONEDX; fmt++) {
		buf = NULL;
		f = open_memstream(&buf, &len);
		CHECK_INT(write_report(f, &r, (td_format_t)fmt, &err), 0);
		fclose(f);
		CHECK(len > 0);
		free(buf);
	}

	/* A full disk is an error, not a short report. */
	f = fopen("/dev/full", "w");
	if (f) {
		memset(&err, 0, sizeof(err));
		CHECK_INT(write_report(f, &r, TD_FORMAT_TEXT, &err), TD_EIO);
		CHECK_INT(err.code, TD_EIO);
		CHECK(strstr(err.msg, "unable to write the text report: ") == err.msg);
		CHECK(strstr(err.msg, strerror(ENOSPC)) != NULL);
		fclose(f);
	}
	fixture_release(&r);
}

/* A locale with a decimal comma must not change a byte of any report. */
static void test_locale(void)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8" };
	td_result_t r;
	td_view_t v;
	char *out, num[32];
	size_t len;
	int found = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		found = setlocale(LC_ALL, names[i]) != NULL;
	snprintf(num, sizeof(num), "%.1f", 1.5);
	if (!found || !strcmp(num, "1.5")) {
		printf("no locale with a decimal comma: locale check skipped\n");
		setlocale(LC_ALL, "C");
		return;
	}
	fixture_init(&r, 1);
	td_view_init(&v);
	out = render(td_report_text, &r, &v, &len);
	check_golden("text-policy", out, len);
	free(out);
	out = render(td_report_json, &r, &v, &len);
	mask_version(&out, &len);
	check_golden("json-policy", out, len);
	free(out);
	out = render(td_report_csv, &r, &v, &len);
	check_golden("csv-policy", out, len);
	free(out);
	fixture_release(&r);
	setlocale(LC_ALL, "C");
}

/* ---- kernel header lines and rollups ------------------------------- */

static void test_kernel_view(void)
{
	td_annotate_info_t info = { 0 };
	td_analysis_t a;
	td_result_t r;
	td_view_t v;
	char *out;
	size_t len;

	fixture_init(&r, 1);
	td_view_init(&v);
	info.arch = "x86_64";
	info.srcarch = "x86";
	info.arch_dropped = 5;
	info.config = "bsp.config";
	info.kbuild_sources = 2723;
	info.kbuild_warnings = 1;
	info.policy = "linux";
	info.policy_builtin = 1;
	analysis_of(&a, &r, 1, 1);
	a.kernel = &info;

	out = render_analysis(td_report_text, &a, &v, &len);
	CHECK(has_line_starting(out, "arch: x86 (5 files of other architectures left out of the two trees)"));
	CHECK(has_line_starting(out, "config: bsp.config (2723 sources built, 1 Kbuild construct"));
	CHECK(has_line_starting(out, "policy: linux (built-in)"));
	CHECK(has_line_starting(out, "By directory (depth 1): "));
	CHECK(has_line_starting(out, "By policy class: "));
	CHECK(strstr(out, "By MAINTAINERS subsystem") == NULL);
	check_golden("text-kernel", out, len);
	free(out);

	out = render_analysis(td_report_json, &a, &v, &len);
	check_json_parses(&r, &v, out, len);
	CHECK(strstr(out, "\"kernel\": {\"arch\": \"x86\", \"arch_dropped\": 5, ") != NULL);
	CHECK(strstr(out, "\"by_dir_depth\": 1,") != NULL);
	CHECK(strstr(out, "\"by_subsystem\"") == NULL);
	mask_version(&out, &len);
	check_golden("json-kernel", out, len);
	free(out);

	analysis_release(&a);
	fixture_release(&r);
}

/* A missing upstream fix of many files: the text and the HTML name the
 * first TD_REPORT_FIX_FILES (6) and count the rest; the JSON has them all. */
static void test_fix_files(void)
{
	static char *files[] = { "f0.c", "f1.c", "f2.c", "f3.c", "f4.c", "f5.c", "f6.c", "f7.c", "f8.c" };
	td_upstream_fix_t fix;
	td_upstream_t u;
	td_result_t r;
	td_analysis_t a;
	td_view_t v;
	char *out;
	size_t len;

	memset(&fix, 0, sizeof(fix));
	memcpy(fix.id, "0123456789abcdef0123456789abcdef01234567", 41);
	fix.subject = "treewide: fix everything";
	fix.files = files;
	fix.nfiles = sizeof(files) / sizeof(*files);
	fix.status = TD_FIX_MISSING;
	fix.why = "content";
	fix.built = -1;
	fix.files_as_in_base = 9;
	memset(&u, 0, sizeof(u));
	u.fixes = &fix;
	u.nfixes = 1;
	u.status_count[TD_FIX_MISSING] = 1;
	fixture_init(&r, 0);
	analysis_of(&a, &r, 0, 0);
	a.upstream = &u;
	td_view_init(&v);
	out = render_analysis(td_report_text, &a, &v, &len);
	CHECK(strstr(out, "(f0.c, f1.c, f2.c, f3.c, f4.c, f5.c and 3 more)\n") != NULL);
	free(out);
	out = render_analysis(td_report_html, &a, &v, &len);
	CHECK(strstr(out, "<td>f0.c, f1.c, f2.c, f3.c, f4.c, f5.c and 3 more</td>") != NULL);
	CHECK(strstr(out, ">9 files as in the base</td>") != NULL);
	CHECK(strstr(out, "f6.c") == NULL);
	free(out);
	out = render_analysis(td_report_json, &a, &v, &len);
	CHECK(strstr(out, "\"f8.c\"") != NULL);
	CHECK(strstr(out, "\"files_as_in_base\": 9") != NULL);
	free(out);
	a.upstream = NULL;
	analysis_release(&a);
	fixture_release(&r);
}

int main(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpbase, sizeof(tmpbase), "%s", base && *base ? base : "/tmp");
	snprintf(tmpdir, sizeof(tmpdir), "%s/td-report-XXXXXX", tmpbase);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}

	test_view();
	test_helpers();
	test_escape_walk();
	test_text();
	test_json();
	test_csv();
	test_write();
	test_locale();
	test_kernel_view();
	test_fix_files();

	rmdir(tmpdir);
	return check_finish();
}
