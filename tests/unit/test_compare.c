/* Match and classify: statuses, classes at their boundaries, scores of each
 * kind of change, scope globs and totals, on trees built in memory from
 * digests of generated content (tree_fixture.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/compare.h"
#include "tree_fixture.h"

/* A symlink (data: its target) or a skipped entry; files come from fx_add. */
static void add_entry(td_tree_t *t, const char *path, td_entry_type_t type, const char *data,
		      size_t len)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = strdup(path);
	f.path_len = strlen(path);
	f.type = type;
	if (type == TD_ENTRY_SYMLINK) {
		f.link_target = strndup(data, len);
		f.link_len = len;
	} else {
		f.skip_reason = TD_SKIP_FIFO;
	}
	if (!f.path || td_tree_append(t, &f))
		abort();
}

static void add_file(td_tree_t *t, const char *path, const char *data)
{
	fx_add(t, path, data, strlen(data));
}

static void test_classify(void)
{
	td_thresholds_t t = { TD_DEFAULT_CLEAN_BELOW, TD_DEFAULT_DIRTY_ABOVE };

	CHECK_INT(td_classify(0, &t), TD_CLASS_CLEAN);
	CHECK_INT(td_classify(59, &t), TD_CLASS_CLEAN);
	CHECK_INT(td_classify(60, &t), TD_CLASS_SAFE);
	CHECK_INT(td_classify(150, &t), TD_CLASS_SAFE);
	CHECK_INT(td_classify(151, &t), TD_CLASS_DIRTY);
	t.clean_below = 10, t.dirty_above = 9; /* no safe band at all */
	CHECK_INT(td_classify(9, &t), TD_CLASS_CLEAN);
	CHECK_INT(td_classify(10, &t), TD_CLASS_DIRTY);
	CHECK_STR(td_class_name(TD_CLASS_SAFE), "safe");
	CHECK(td_class_name(TD_CLASS_NONE) == NULL);
	CHECK_INT(td_class_parse("dirty"), TD_CLASS_DIRTY);
	CHECK_INT(td_class_parse("Dirty"), TD_CLASS_NONE);
	CHECK_STR(td_status_name(TD_STATUS_REMOVED), "removed");
}

static void test_statuses(void)
{
	td_tree_t *up = fx_tree(NULL), *tg = fx_tree(NULL);
	char *base = fx_text(1, 8000), *edited = strdup(base), *other = fx_text(99, 8000);
	td_compare_opts_t o;
	td_result_t *r = NULL;
	td_error_t err = { 0 };
	const td_change_t *c;

	memcpy(edited + 4000, "vendor hack here", 16);
	add_file(up, "kernel/same.c", base);
	add_file(tg, "kernel/same.c", base);
	add_file(up, "kernel/edit.c", base);
	add_file(tg, "kernel/edit.c", edited);
	add_file(up, "drivers/rewritten.c", base);
	add_file(tg, "drivers/rewritten.c", other);
	add_file(up, "drivers/gone.c", base);
	add_file(tg, "drivers/new.c", other);
	add_entry(up, "link", TD_ENTRY_SYMLINK, "target-a", 8);
	add_entry(tg, "link", TD_ENTRY_SYMLINK, "target-b", 8);
	fx_add(up, "fifo", base, 100);
	add_entry(tg, "fifo", TD_ENTRY_SKIPPED, NULL, 0);
	fx_add(up, "tiny", "abc", 3);
	fx_add(tg, "tiny", "abd", 3);
	add_file(up, "type", base);
	add_entry(tg, "type", TD_ENTRY_SYMLINK, "type.real", 9);
	CHECK_INT(td_tree_sort(up), 0);
	CHECK_INT(td_tree_sort(tg), 0);

	td_compare_opts_init(&o);
	CHECK_INT(td_compare(&r, up, tg, &o, &err), 0);
	if (!r)
		goto out;
	CHECK_INT(r->count, 9);
	CHECK((c = fx_change(r, "kernel/same.c")) && c->status == TD_STATUS_IDENTICAL && c->distance == 0);
	c = fx_change(r, "kernel/edit.c");
	CHECK(c && c->status == TD_STATUS_MODIFIED && !c->fallback && c->cls == TD_CLASS_CLEAN);
	CHECK(c && c->distance > 0 && c->distance < 60);
	c = fx_change(r, "drivers/rewritten.c");
	CHECK(c && c->status == TD_STATUS_MODIFIED && !c->fallback);
	CHECK(c && c->distance > fx_change(r, "kernel/edit.c")->distance);
	c = fx_change(r, "drivers/gone.c");
	CHECK(c && c->status == TD_STATUS_REMOVED && c->distance == 0 && c->cls == TD_CLASS_NONE);
	c = fx_change(r, "drivers/new.c");
	CHECK(c && c->status == TD_STATUS_ADDED && c->distance == TD_DEFAULT_ADDED_DISTANCE &&
	      c->cls == TD_CLASS_NEW && c->upstream == NULL);
	/* symlinks: edit distance of the target texts, 1 byte of 8: 300 / 8, rounded */
	c = fx_change(r, "link");
	CHECK(c && c->status == TD_STATUS_MODIFIED && c->fallback && c->distance == 38);
	c = fx_change(r, "fifo");
	CHECK(c && c->status == TD_STATUS_SKIPPED && c->distance == 0);
	/* too short for TLSH: the byte fallback, one byte of three */
	c = fx_change(r, "tiny");
	CHECK(c && c->status == TD_STATUS_MODIFIED && c->fallback && c->distance == 100);
	/* a file that became a symlink is as good as new */
	c = fx_change(r, "type");
	CHECK(c && c->status == TD_STATUS_MODIFIED && c->distance == TD_DEFAULT_ADDED_DISTANCE);

	CHECK_INT(r->totals.identical, 1);
	CHECK_INT(r->totals.modified, 5);
	CHECK_INT(r->totals.added, 1);
	CHECK_INT(r->totals.removed, 1);
	CHECK_INT(r->totals.skipped, 1);
	CHECK_INT(r->totals.mismatched, 7);
	CHECK_INT(r->totals.added_bytes, 8000);
	CHECK_INT(r->totals.removed_bytes, 8000);
	CHECK_INT(r->totals.fallback_scored, 3);
	CHECK_INT(r->totals.total_distance, r->totals.modified_distance + r->totals.added_distance);
	CHECK_INT(r->totals.by_class[TD_CLASS_CLEAN].files + r->totals.by_class[TD_CLASS_SAFE].files +
		  r->totals.by_class[TD_CLASS_DIRTY].files, 5);
	CHECK_INT(r->totals.by_class[TD_CLASS_NEW].files, 1); /* drivers/new.c */
	CHECK_INT(r->totals.by_class[TD_CLASS_CLEAN].distance + r->totals.by_class[TD_CLASS_SAFE].distance +
		  r->totals.by_class[TD_CLASS_DIRTY].distance + r->totals.by_class[TD_CLASS_NEW].distance,
		  r->totals.total_distance);
	CHECK(r->totals.total_risk == (double)r->totals.total_distance);
	/* changes come in path order */
	for (size_t i = 1; i < r->count; i++) {
		const td_change_t *a = &r->changes[i - 1], *b = &r->changes[i];
		const char *pa = a->target ? a->target->path : a->upstream->path;
		const char *pb = b->target ? b->target->path : b->upstream->path;
		CHECK(strcmp(pa, pb) < 0);
	}
out:
	td_result_free(r);
	free(base);
	free(edited);
	free(other);
}

static void test_scope_and_options(void)
{
	td_tree_t *up = fx_tree(NULL), *tg = fx_tree(NULL);
	char *a = fx_text(3, 6000), *b = fx_text(3, 6000);
	const char *inc[] = { "drivers/", NULL }, *exc[] = { "*.h", NULL };
	td_compare_opts_t o;
	td_result_t *r = NULL;
	td_error_t err = { 0 };
	int with_len;

	b[100] = '#';
	b[5990] = '\0'; /* shorter: the length term matters */
	add_file(up, "drivers/x.c", a);
	add_file(tg, "drivers/x.c", b);
	add_file(up, "drivers/x.h", a);
	add_file(tg, "drivers/x.h", b);
	add_file(tg, "drivers/y.c", a);
	add_file(up, "kernel/z.c", a);
	add_file(tg, "kernel/z.c", b);
	CHECK_INT(td_tree_sort(up), 0);
	CHECK_INT(td_tree_sort(tg), 0);
	td_compare_opts_init(&o);
	o.include = inc;
	o.exclude = exc;
	o.added_distance = 42;
	CHECK_INT(td_compare(&r, up, tg, &o, &err), 0);
	if (!r)
		goto out;
	CHECK_INT(r->count, 2); /* drivers/x.c and drivers/y.c */
	CHECK(fx_change(r, "drivers/x.h") == NULL && fx_change(r, "kernel/z.c") == NULL);
	CHECK(fx_change(r, "drivers/y.c") && fx_change(r, "drivers/y.c")->distance == 42 &&
	      fx_change(r, "drivers/y.c")->cls == TD_CLASS_NEW);
	with_len = fx_change(r, "drivers/x.c") ? fx_change(r, "drivers/x.c")->distance : -1;
	td_result_free(r);
	r = NULL;

	/* the same pair without the length term scores lower, never higher */
	up = fx_tree(NULL), tg = fx_tree(NULL);
	add_file(up, "drivers/x.c", a);
	add_file(tg, "drivers/x.c", b);
	td_compare_opts_init(&o);
	o.len_diff = 0;
	CHECK_INT(td_compare(&r, up, tg, &o, &err), 0);
	if (r) {
		CHECK_INT(r->count, 1);
		CHECK(r->changes[0].distance <= with_len);
		CHECK_INT(r->len_diff, 0);
	}
out:
	td_result_free(r);
	free(a);
	free(b);
}

/* A modified file whose only change is whitespace scores 0, clean; one
 * whose side has no normalised digest (a schema 1 database) is unknown.
 * With only the normalised texts' lengths on a side (compare's target), other
 * lengths are not cosmetic, the same length unknown. */
static void test_cosmetic(void)
{
	td_tree_t *up = fx_tree(NULL), *tg = fx_tree(NULL);
	char *base = fx_text(3, 8000), *spaced = malloc(16002), *edited = strdup(base), *grown = malloc(8003);
	td_result_t *r = NULL;
	td_error_t err = { 0 };
	size_t n = 0;

	for (size_t i = 0; base[i]; i++) { /* a space after each byte, CRLF for LF */
		if (base[i] == '\n')
			spaced[n++] = '\r';
		spaced[n++] = base[i];
		if (base[i] != '\n')
			spaced[n++] = ' ';
	}
	spaced[n] = '\0';
	edited[100] = edited[100] == 'x' ? 'y' : 'x';
	add_file(up, "a.c", base);
	add_file(tg, "a.c", spaced);
	add_file(up, "b.c", base);
	add_file(tg, "b.c", edited);
	add_file(up, "c.c", base);
	add_file(tg, "c.c", spaced);
	tg->files[2].digest.has_sha256_ws = 0; /* as loaded from a schema 1 database */
	snprintf(grown, 8003, "%sxy", base);
	add_file(up, "d.c", base);
	add_file(tg, "d.c", grown);
	add_file(up, "e.c", base);
	add_file(tg, "e.c", spaced);
	for (size_t i = 3; i < 5; i++) {
		CHECK(tg->files[i].digest.has_ws_bytes);
		tg->files[i].digest.has_sha256_ws = 0; /* the length alone */
	}
	CHECK_INT(td_compare(&r, up, tg, NULL, &err), 0);
	if (r && r->count == 5) {
		CHECK_INT(r->changes[0].status, TD_STATUS_MODIFIED);
		CHECK_INT(r->changes[0].cosmetic, TD_COSMETIC_YES);
		CHECK_INT(r->changes[0].distance, 0);
		CHECK_INT(r->changes[0].cls, TD_CLASS_CLEAN);
		CHECK_INT(r->changes[1].cosmetic, TD_COSMETIC_NO);
		CHECK(r->changes[1].distance > 0);
		CHECK_INT(r->changes[2].cosmetic, TD_COSMETIC_UNKNOWN);
		CHECK(r->changes[2].distance > 0);
		CHECK_INT(r->changes[3].cosmetic, TD_COSMETIC_NO);
		CHECK_INT(r->changes[4].cosmetic, TD_COSMETIC_UNKNOWN);
		CHECK_INT(r->totals.modified, 5);
		CHECK_INT(r->totals.cosmetic, 1);
		CHECK_INT(r->totals.cosmetic_unknown, 2);
		CHECK_STR(td_cosmetic_name(TD_COSMETIC_YES), "yes");
		CHECK(td_cosmetic_name(TD_COSMETIC_NONE) == NULL);
	} else {
		CHECK(0);
	}
	td_result_free(r);
	free(base);
	free(spaced);
	free(edited);
	free(grown);
}

/* td_tree_sort: byte order with a prefix first ('.' before '/'), whether
 * the entries come in order already (left as they are) or not; a path
 * twice is refused either way. */
static void test_tree_sort(void)
{
	static const char *const in[] = { "b/x", "a/b", "a.c", "a", "b" };
	static const char *const want[] = { "a", "a.c", "a/b", "b", "b/x" };
	const size_t n = sizeof(in) / sizeof(in[0]);

	for (int pass = 0; pass < 2; pass++) {
		td_tree_t *t = fx_tree(NULL);
		for (size_t i = 0; i < n; i++)
			fx_add_text(t, pass ? want[i] : in[i], i, 10);
		CHECK_INT(td_tree_sort(t), 0);
		for (size_t i = 0; i < n && i < t->count; i++)
			CHECK_STR(t->files[i].path, want[i]);
		/* the same path again, at the end (out of order) or next to it */
		fx_add_text(t, pass ? "b/x" : "a.c", 99, 10);
		CHECK_INT(td_tree_sort(t), TD_EINVAL);
		td_tree_free(t);
	}
}

int main(void)
{
	test_tree_sort();
	test_cosmetic();
	test_classify();
	test_statuses();
	test_scope_and_options();
	return check_finish();
}
