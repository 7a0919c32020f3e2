/* What the report writers share: the view's selection and order, the
 * changes' accessors, number formatting and HTML text. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/patch.h"
#include "treedrift/upstream.h"
#include "utf8.h"
#include "internal.h"

void td_view_init(td_view_t *v)
{
	memset(v, 0, sizeof(*v));
	v->sort = TD_SORT_PATH;
}

const td_file_t *td_report_change_file(const td_change_t *c)
{
	/* A change always has a side; this keeps a malformed one printable. */
	static const td_file_t no_file = { .path = (char *)"" };

	if (c->target)
		return c->target;
	return c->upstream ? c->upstream : &no_file;
}

const td_file_t *td_report_skipped_file(const td_change_t *c)
{
	if (c->target && c->target->type == TD_ENTRY_SKIPPED)
		return c->target;
	if (c->upstream && c->upstream->type == TD_ENTRY_SKIPPED)
		return c->upstream;
	return td_report_change_file(c);
}

const char *td_report_status_word(const td_change_t *c)
{
	return c->cosmetic == TD_COSMETIC_YES ? "cosmetic" : td_status_name(c->status);
}

int td_report_is_scored(const td_change_t *c)
{
	return c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED;
}

int td_report_has_policy(const td_result_t *r)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->changes[i].policy_class)
			return 1;
	return 0;
}

int td_report_has_build_info(const td_result_t *r)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->changes[i].built != -1)
			return 1;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* printf's "%.*f" in the current locale, then rebuilt from its digits: a
 * locale changes only the decimal point (there is no grouping without the
 * "'" flag), and whatever bytes it uses are replaced by '.'. */
void td_report_fixed(char out[TD_REPORT_NUM_MAX], double x, int decimals)
{
	char tmp[TD_REPORT_NUM_MAX + 16];
	const size_t room = TD_REPORT_NUM_MAX - 2; /* leaves the '.' and the NUL */
	size_t i = 0, o = 0;
	int nonzero = 0;

	if (isnan(x)) {
		memcpy(out, "nan", 4);
		return;
	}
	if (isinf(x)) {
		memcpy(out, x < 0 ? "-inf" : "inf", x < 0 ? 5 : 4);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, x);
	if (tmp[i] == '-')
		out[o++] = tmp[i++];
	while (is_digit(tmp[i]) && o < room) {
		nonzero |= tmp[i] != '0';
		out[o++] = tmp[i++];
	}
	if (decimals) {
		out[o++] = '.';
		while (tmp[i] && !is_digit(tmp[i]))
			i++;
		while (is_digit(tmp[i]) && o < room + 1) {
			nonzero |= tmp[i] != '0';
			out[o++] = tmp[i++];
		}
	}
	out[o] = '\0';
	if (!nonzero && out[0] == '-')
		memmove(out, out + 1, o);
}

void td_report_trimmed(char out[TD_REPORT_NUM_MAX], double x, int max_decimals)
{
	char *dot, *end;

	td_report_fixed(out, x, max_decimals < 1 ? 1 : max_decimals);
	dot = strchr(out, '.');
	if (!dot)
		return;
	end = dot + strlen(dot) - 1;
	while (end > dot + 1 && *end == '0')
		*end-- = '\0';
}

typedef struct sort_key {
	size_t idx;
	const char *path;
	size_t path_len;
	int distance;
	double risk;
	td_sort_t sort;
} sort_key_t;

static int path_cmp(const sort_key_t *a, const sort_key_t *b)
{
	int c = memcmp(a->path, b->path, a->path_len < b->path_len ? a->path_len : b->path_len);
	if (c)
		return c;
	return a->path_len < b->path_len ? -1 : a->path_len > b->path_len;
}

/* Highest first; NaN after every number, so that the order stays total. */
static int risk_cmp_desc(double a, double b)
{
	if (a > b)
		return -1;
	if (a < b)
		return 1;
	if (isnan(a) != isnan(b))
		return isnan(a) ? 1 : -1;
	return 0;
}

static int key_cmp(const void *pa, const void *pb)
{
	const sort_key_t *a = pa, *b = pb;
	int c = 0;

	if (a->sort == TD_SORT_DISTANCE)
		c = (a->distance < b->distance) - (a->distance > b->distance);
	else if (a->sort == TD_SORT_RISK)
		c = risk_cmp_desc(a->risk, b->risk);
	if (!c)
		c = path_cmp(a, b);
	if (!c)
		c = (a->idx > b->idx) - (a->idx < b->idx);
	return c;
}

int td_report_sort(size_t *idx, size_t n, const td_result_t *r, td_sort_t sort)
{
	sort_key_t *keys;

	if (n < 2)
		return TD_OK;
	keys = td_malloc_array(n, sizeof(*keys));
	if (!keys)
		return TD_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const td_change_t *c = &r->changes[idx[i]];
		const td_file_t *f = td_report_change_file(c);
		keys[i].idx = idx[i];
		keys[i].path = f->path;
		keys[i].path_len = f->path_len;
		keys[i].distance = c->distance;
		keys[i].risk = c->risk;
		keys[i].sort = sort;
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 0; i < n; i++)
		idx[i] = keys[i].idx;
	free(keys);
	return TD_OK;
}

int td_view_select(size_t **out, size_t *count, const td_result_t *r, const td_view_t *v)
{
	td_view_t defaults;
	unsigned statuses;
	size_t *idx, n = 0;

	*out = NULL;
	*count = 0;
	if (!r)
		return TD_EINVAL;
	if (!v) {
		td_view_init(&defaults);
		v = &defaults;
	}
	statuses = v->only_statuses ? v->only_statuses : ~(1u << TD_STATUS_IDENTICAL);
	if (v->show_identical)
		statuses |= 1u << TD_STATUS_IDENTICAL;
	idx = td_malloc_array(r->count, sizeof(*idx));
	if (!idx)
		return TD_ENOMEM;
	for (size_t i = 0; i < r->count; i++) {
		const td_change_t *c = &r->changes[i];
		if ((unsigned)c->status >= 32 || !(statuses & (1u << c->status)))
			continue;
		if (v->only_classes &&
		    ((unsigned)c->cls >= 32 || !(v->only_classes & (1u << c->cls))))
			continue;
		idx[n++] = i;
	}
	if (td_report_sort(idx, n, r, v->sort)) {
		free(idx);
		return TD_ENOMEM;
	}
	*out = idx;
	*count = n;
	return TD_OK;
}

int td_report_finish(FILE *f)
{
	if (fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		return TD_EIO;
	}
	return TD_OK;
}

/* What the patch order sorts by, copied out: qsort takes no context. */
typedef struct patch_key {
	double risk;
	int distance;
	size_t index;
} patch_key_t;

static int by_patch_risk(const void *pa, const void *pb)
{
	const patch_key_t *a = pa, *b = pb;

	if (a->risk != b->risk)
		return a->risk < b->risk ? 1 : -1;
	if (a->distance != b->distance)
		return a->distance < b->distance ? 1 : -1;
	return a->index < b->index ? -1 : 1;
}

int td_report_patch_order(size_t **out, const td_patch_set_t *s)
{
	size_t n = s->count ? s->count : 1;
	patch_key_t *keys = td_malloc_array(n, sizeof(*keys));
	size_t *idx = td_malloc_array(n, sizeof(*idx));

	*out = NULL;
	if (!keys || !idx) {
		free(keys);
		free(idx);
		return TD_ENOMEM;
	}
	for (size_t i = 0; i < s->count; i++) {
		keys[i].risk = s->patches[i].risk;
		keys[i].distance = s->patches[i].distance;
		keys[i].index = i;
	}
	qsort(keys, s->count, sizeof(*keys), by_patch_risk);
	for (size_t i = 0; i < s->count; i++)
		idx[i] = keys[i].index;
	free(keys);
	*out = idx;
	return TD_OK;
}

int td_report_patch_refs(size_t **out, const td_patch_set_t *s, const td_result_t *r)
{
	size_t *map = calloc(r->count ? r->count : 1, sizeof(*map));

	*out = NULL;
	if (!map)
		return TD_ENOMEM;
	for (size_t i = 0; i < s->nfiles; i++)
		if (s->files[i].change < r->count)
			map[s->files[i].change] = i + 1;
	*out = map;
	return TD_OK;
}

const char *td_report_scored_by(const td_change_t *c)
{
	if (!td_report_is_scored(c))
		return NULL;
	if (c->scored_by_lines)
		return "lines";
	return c->fallback ? "fallback" : "tlsh";
}

const char *td_report_similarity(char out[TD_REPORT_NUM_MAX], const td_change_t *c)
{
	out[0] = '\0';
	if (c->has_similarity && c->origin &&
	    (c->origin_kind == TD_ORIGIN_MOVED || c->origin_kind == TD_ORIGIN_COPIED))
		td_report_fixed(out, c->similarity, 2);
	return out;
}

void td_report_line_totals(FILE *f, const td_totals_t *t, const char *minus, const char *between)
{
	fprintf(f, "+%" PRIu64 " %s%" PRIu64 "%s", t->lines_added, minus, t->lines_removed, between);
	if (t->lines_binary)
		fprintf(f, ", %" PRIu64 " binary", t->lines_binary);
	if (t->lines_missing)
		fprintf(f, ", %" PRIu64 " without line counts", t->lines_missing);
}

void td_report_cosmetic_totals(FILE *f, const td_totals_t *t)
{
	fprintf(f, "%" PRIu64 " modified files whose only change is whitespace (distance 0, clean)", t->cosmetic);
	if (t->cosmetic_unknown)
		fprintf(f, "; %" PRIu64 " unknown", t->cosmetic_unknown);
}

void td_report_fix_tags(char *out, size_t size, const td_commit_tags_t *t)
{
	size_t n = 0;

	out[0] = '\0';
	if (t->nfixes)
		n += (size_t)snprintf(out + n, size - n, "Fixes");
	if (t->cc_stable && n < size)
		n += (size_t)snprintf(out + n, size - n, "%sstable", n ? "," : "");
	for (size_t i = 0; i < t->ncves && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", n ? "," : "", t->cves[i]);
	if (!out[0])
		snprintf(out, size, "-");
}

/* v[0..n), the first TD_REPORT_FIX_FILES comma-separated, each written by
 * put, then "and N more". */
static void put_some(FILE *f, char *const *v, size_t n, void (*put)(FILE *, const char *))
{
	for (size_t k = 0; k < n && k < TD_REPORT_FIX_FILES; k++) {
		if (k)
			fputs(", ", f);
		put(f, v[k]);
	}
	if (n > TD_REPORT_FIX_FILES)
		fprintf(f, " and %zu more", n - TD_REPORT_FIX_FILES);
}

void td_report_fix_files(FILE *f, const td_upstream_fix_t *x, void (*put)(FILE *, const char *))
{
	put_some(f, x->files, x->nfiles, put);
}

void td_report_fixed_by(FILE *f, const td_upstream_fix_t *x, void (*put)(FILE *, const char *))
{
	put_some(f, x->fixed_by, x->nfixed_by, put);
}

void td_report_patch_verified(FILE *f, const td_patch_upstream_t *u, void (*put)(FILE *, const char *))
{
	char share[TD_REPORT_NUM_MAX];

	if (u->kind == TD_UPSTREAM_NONE) {
		fputs("local", f);
	} else {
		fputs(u->kind == TD_UPSTREAM_CHERRY_PICK ? "cherry-pick of " : "backport (modified) of ", f);
		put(f, u->commit);
		if (u->kind == TD_UPSTREAM_BACKPORT) {
			td_report_fixed(share, 100.0 * u->share, 0);
			fprintf(f, ", %s%% of its lines", share);
		}
	}
	if (u->claim == TD_CLAIM_HOLDS)
		fputs("; the declared origin holds", f);
	else if (u->claim == TD_CLAIM_DIFFERS)
		fputs("; the declared origin does not hold (another patch)", f);
	else if (u->claim == TD_CLAIM_NOT_FOUND)
		fputs("; the declared origin does not hold (not in the history)", f);
}

void td_report_rebase_counts(FILE *f, const td_patch_set_t *s)
{
	fprintf(f, "%zu apply, %zu already there, %zu conflict", s->rebase_count[TD_REBASE_APPLIES],
		s->rebase_count[TD_REBASE_PRESENT], s->rebase_count[TD_REBASE_CONFLICT]);
	if (s->rebase_moved)
		fprintf(f, " (%zu %s followed to where %s moved)", s->rebase_moved,
			s->rebase_moved == 1 ? "file" : "files", s->rebase_moved == 1 ? "it was" : "they were");
}

const char *td_report_rebase_word(td_rebase_status_t s)
{
	return s == TD_REBASE_PRESENT ? "already there" : s == TD_REBASE_NOT_CHECKED ? "" : td_rebase_status_name(s);
}

void td_report_rebase_conflict(FILE *f, const td_patch_t *p, void (*put)(FILE *, const char *))
{
	put(f, p->rebase_file);
	switch (p->rebase_why) {
	case TD_REBASE_ADDED_BOTH:
		fputs(": added, and there with other content", f);
		break;
	case TD_REBASE_CHANGED_THERE:
		fputs(": removed, and changed there", f);
		break;
	case TD_REBASE_REMOVED_THERE:
		fputs(": changed, and removed or moved there", f);
		break;
	case TD_REBASE_NOT_ADDED:
		fputs(": changed, and an earlier patch that adds it did not apply", f);
		break;
	default:
		if (p->rebase_regions)
			fprintf(f, ": %zu conflicting %s", p->rebase_regions, p->rebase_regions == 1 ? "region" : "regions");
		else
			fputs(": changed on both sides, and binary", f);
	}
	if (p->rebase_conflicts > 1)
		fprintf(f, "; %zu more %s", p->rebase_conflicts - 1, p->rebase_conflicts == 2 ? "file" : "files");
}

void td_report_patch_matches(FILE *f, const td_upstream_t *u)
{
	fprintf(f, "cherry-picks %zu, modified backports %zu, local %zu; declared origins checked %zu: %zu hold, %zu do not",
		u->cherry_picks, u->backports, u->npatches - u->cherry_picks - u->backports, u->claims,
		u->claims_hold, u->claims - u->claims_hold);
}
