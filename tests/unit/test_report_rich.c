/* The HTML, Markdown, CycloneDX and trend writers on a result whose changes
 * carry what later stages fill in (moved and copied origins, a policy class
 * and risk, matches_version): each shows up, escaped, in each format, and
 * the CycloneDX BOM is valid against doc/schema/cyclonedx (python3). */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "treedrift/report.h"
#include "treedrift/trend.h"
#include "analysis_impl.h"
#include "report_impl.h"
#include "check.h"

#define P(s) s, sizeof(s) - 1

static const char hostile[] = "d/<script>x\"&'|\xff.c";

static void add_file(td_tree_t *t, const char *path, size_t len, uint64_t size, int seed)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = malloc(len + 1);
	if (!f.path)
		abort();
	memcpy(f.path, path, len);
	f.path[len] = '\0';
	f.path_len = len;
	f.type = TD_ENTRY_FILE;
	f.mode = 0100644;
	f.size_bytes = size;
	f.has_digest = 1;
	for (int i = 0; i < TD_SHA256_BYTES; i++)
		f.digest.sha256[i] = (uint8_t)(seed * 7 + i);
	f.digest.size_bytes = size;
	f.digest.tlsh_status = TD_TLSH_TOO_SHORT;
	if (td_tree_append(t, &f))
		abort();
}

static td_result_t *fixture(void)
{
	td_tree_t *up, *tg;
	td_result_t *r = NULL;
	td_compare_opts_t o;

	if (td_tree_new(&up) || td_tree_new(&tg))
		abort();
	add_file(up, P("a/same.c"), 100, 1);
	add_file(up, P("a/mod.c"), 200, 2);
	add_file(up, P("a/old.c"), 300, 3);
	add_file(tg, P("a/same.c"), 100, 1);
	add_file(tg, P("a/mod.c"), 250, 4);
	add_file(tg, P("b/moved.c"), 300, 3);
	add_file(tg, P(hostile), 50, 5);
	if (td_tree_sort(up) || td_tree_sort(tg) || td_meta_set(&up->meta.label, "v1.0") ||
	    td_meta_set(&tg->meta.label, "bsp <1>"))
		abort();
	td_compare_opts_init(&o);
	if (td_compare(&r, up, tg, &o, NULL))
		abort();
	free(r->base_version);
	r->base_version = strdup("v1.0");
	for (size_t i = 0; i < r->count; i++) {
		td_change_t *c = &r->changes[i];
		const td_file_t *f = td_report_change_file(c);
		if (!strcmp(f->path, "b/moved.c")) {
			c->origin_kind = TD_ORIGIN_MOVED;
			c->origin = td_tree_find(r->upstream, P("a/old.c"));
			c->distance = 0;
			c->cls = TD_CLASS_CLEAN;
			c->risk = 0;
		} else if (!strcmp(f->path, "a/mod.c")) {
			c->matches_version = "v1.1";
			c->version_match = TD_VERSION_MATCH_BACKPORT;
			c->policy_class = "driver";
			c->weight = 2.0;
			c->risk = 2.0 * c->distance;
		} else if (f->path_len == sizeof(hostile) - 1) {
			c->origin_kind = TD_ORIGIN_COPIED;
			c->origin = td_tree_find(r->upstream, P("a/mod.c"));
			c->policy_class = "x<y>";
		}
	}
	td_result_update_totals(r);
	return r;
}

static char *render(const td_result_t *r, td_format_t fmt, const char *save_as)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	td_error_t err = { 0 };
	td_analysis_t a = { .result = (td_result_t *)r };

	CHECK(f != NULL);
	CHECK_INT(td_analysis_summarise(&a, 0, 0, NULL, td_report_has_policy(r), NULL), 0);
	CHECK_INT(td_report_write(f, &a, fmt, NULL, &err), 0);
	td_analysis_summary_release(&a);
	fclose(f);
	if (save_as) {
		FILE *out = fopen(save_as, "w");
		CHECK(out != NULL);
		if (out) {
			fwrite(buf, 1, len, out);
			fclose(out);
		}
	}
	return buf;
}

static void test_html(const td_result_t *r)
{
	char *s = render(r, TD_FORMAT_HTML, NULL);

	CHECK(strstr(s, "<!DOCTYPE html>") == s);
	CHECK(strstr(s, "d/&lt;script&gt;x&quot;&amp;&#39;|\\377.c") != NULL);
	CHECK(strstr(s, "<script>x") == NULL);
	CHECK(strstr(s, "a/old.c (moved)") != NULL);
	CHECK(strstr(s, "a/mod.c (copied)") != NULL);
	CHECK(strstr(s, " backport of v1.1") != NULL);
	CHECK(strstr(s, "<td>x&lt;y&gt;") != NULL);       /* the policy class */
	CHECK(strstr(s, "data-col=\"risk\"") != NULL);
	CHECK(strstr(s, "bsp &lt;1&gt; against v1.0") != NULL);
	CHECK(strstr(s, "http://") == strstr(s, "http://www.w3.org/2000/svg"));
	CHECK(strstr(s, "src=") == NULL);
	free(s);
}

static void test_markdown(const td_result_t *r)
{
	char *s = render(r, TD_FORMAT_MARKDOWN, NULL);

	CHECK(strstr(s, "| d/\\<script\\>x\"\\&'\\|\\\\377.c | added | 50 | x\\<y\\> |") != NULL);
	CHECK(strstr(s, "| b/moved.c | added | 300 | other | 0 | clean | 0.0 | a/old.c (moved) |") != NULL);
	CHECK(strstr(s, "| a/mod.c | modified | 250 | driver |") != NULL);
	CHECK(strstr(s, "; backport of v1.1 |") != NULL);
	CHECK(strstr(s, "## Removed files\n\n| path | upstream size |\n|---|---:|\n| a/old.c | 300 |\n") != NULL);
	free(s);
}

static void test_cyclonedx(const td_result_t *r, const char *dir)
{
	char path[1200], cmd[4000];
	char *s;

	snprintf(path, sizeof(path), "%s/bom.json", dir);
	s = render(r, TD_FORMAT_CYCLONEDX, path);
	CHECK(strstr(s, "\"specVersion\": \"1.5\"") != NULL);
	CHECK(strstr(s, "\"patches\": [{\"type\": \"backport\"}]") != NULL);
	CHECK(strstr(s, "\"name\": \"a/old.c\", \"version\": \"v1.0\"") != NULL);
	CHECK(strstr(s, "\"name\": \"treedrift:policy_class\", \"value\": \"driver\"") != NULL);
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/../e2e/cyclonedx_validate.py %s/../../doc/schema/cyclonedx %s && "
		 "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
		 "assert len(d[\"components\"]) == 3; "
		 "assert [c[\"pedigree\"][\"patches\"][0][\"type\"] for c in d[\"components\"]].count(\"backport\") == 1' %s",
		 TD_TEST_DATA, TD_TEST_DATA, path, path);
	CHECK_INT(system(cmd), 0);
	free(s);
}

static void test_trend_svg(const td_result_t *r, const char *dir)
{
	td_trend_point_t p[2];
	char path[1200], cmd[2000];
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.svg", dir);
	CHECK_INT(td_trend_point_init(&p[0], "r<1>", r), 0);
	CHECK_INT(td_trend_point_init(&p[1], "r\xff&2", r), 0);
	p[1].total_distance *= 2;
	f = fopen(path, "w");
	CHECK(f != NULL);
	CHECK_INT(td_report_trend_svg(f, p, 2, "t & \"q\""), 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); "
		 "g=r.findall(\".//{http://www.w3.org/2000/svg}g\"); "
		 "assert [x.get(\"data-label\") for x in g] == [\"r<1>\", \"r\\\\377&2\"], g; "
		 "assert int(g[1].get(\"data-value\")) == 2 * int(g[0].get(\"data-value\"))' %s", path);
	CHECK_INT(system(cmd), 0);
	td_trend_point_release(&p[0]);
	td_trend_point_release(&p[1]);
}

/* A locale with a decimal comma changes no byte of the SVG coordinates. */
static void test_locale(const td_result_t *r)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8" };
	char *before, *after;
	int found = 0;

	before = render(r, TD_FORMAT_HTML, NULL);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		found = setlocale(LC_NUMERIC, names[i]) != NULL;
	if (!found) {
		fprintf(stderr, "no locale with a decimal comma: locale check skipped\n");
		free(before);
		return;
	}
	after = render(r, TD_FORMAT_HTML, NULL);
	setlocale(LC_NUMERIC, "C");
	CHECK_STR(after, before);
	free(before);
	free(after);
}

int main(void)
{
	char dir[1024], cmd[1100];
	td_result_t *r;

	check_tmpdir(dir, sizeof(dir), "report-rich");
	r = fixture();
	CHECK_INT(r->totals.added, 2);
	test_html(r);
	test_markdown(r);
	test_cyclonedx(r, dir);
	test_trend_svg(r, dir);
	test_locale(r);
	td_result_free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "unable to remove '%s'\n", dir);
	return check_finish();
}
