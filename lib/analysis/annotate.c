/* Kernel awareness around compare: tree filters (--arch, --built-only), the
 * Kbuild evaluation of a loaded tree, and the annotation of a result with
 * build status and path policy. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/annotate.h"
#include "treedrift/arch.h"
#include "treedrift/load.h"
#include "textfile.h"
#include "internal.h"

typedef int (*keep_fn)(const void *ctx, const char *path, size_t len);

/* Keep the files keep() accepts, in order; release the others. */
static void tree_keep(td_tree_t *t, keep_fn keep, const void *ctx, uint64_t *dropped)
{
	size_t j = 0;
	uint64_t n = 0;

	for (size_t i = 0; i < t->count; i++) {
		td_file_t *f = &t->files[i];
		if (keep(ctx, f->path, f->path_len)) {
			if (i != j)
				t->files[j] = *f;
			j++;
		} else {
			td_file_release(f);
			n++;
		}
	}
	t->count = j;
	if (dropped)
		*dropped = n;
}

static int keep_arch(const void *ctx, const char *path, size_t len)
{
	return td_arch_path_relevant(path, len, ctx);
}

int td_tree_drop_arch(td_tree_t *t, const char *arch, uint64_t *dropped)
{
	if (dropped)
		*dropped = 0;
	if (!t || !arch || !*arch)
		return TD_EINVAL;
	tree_keep(t, keep_arch, arch, dropped);
	return TD_OK;
}

static int keep_built(const void *ctx, const char *path, size_t len)
{
	return td_annotate_built(ctx, path, len) != TD_KBUILD_NOT_BUILT;
}

int td_tree_drop_not_built(td_tree_t *t, const td_kbuild_result_t *kb, uint64_t *dropped)
{
	if (dropped)
		*dropped = 0;
	if (!t || !kb)
		return TD_EINVAL;
	tree_keep(t, keep_built, kb, dropped);
	return TD_OK;
}

/* Binary search in a sorted (strcmp order) list given by count/at. */
static int sorted_has(const td_kbuild_result_t *kb, size_t count,
		      const char *(*at)(const td_kbuild_result_t *, size_t), const char *s)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(at(kb, mid), s);
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static size_t source_suffix_len(const char *path, size_t len)
{
	if (len > 2 && path[len - 2] == '.' && (path[len - 1] == 'c' || path[len - 1] == 'S'))
		return 2;
	if (len > 3 && !memcmp(path + len - 3, ".rs", 3))
		return 3;
	return 0;
}

int td_annotate_built(const td_kbuild_result_t *kb, const char *path, size_t len)
{
	static const char *const suffixes[] = { ".c", ".S", ".rs" };
	size_t suffix, stem;
	char *name;
	int rc = td_kbuild_is_built(kb, path, len);

	if (rc != TD_KBUILD_NOT_BUILT || !(suffix = source_suffix_len(path, len)) ||
	    memchr(path, '\0', len))
		return rc;
	stem = len - suffix;
	if (!(name = td_malloc_array(stem + 4, 1)))
		return rc;
	memcpy(name, path, stem);
	/* The object is attributed to a source the tree has: not this one. */
	for (size_t i = 0; i < 3; i++) {
		memcpy(name + stem, suffixes[i], strlen(suffixes[i]) + 1);
		if (sorted_has(kb, td_kbuild_source_count(kb), td_kbuild_source, name))
			goto out;
	}
	memcpy(name + stem, ".o", 3);
	if (sorted_has(kb, td_kbuild_object_count(kb), td_kbuild_object, name))
		rc = TD_KBUILD_BUILT;
out:
	free(name);
	return rc;
}

void td_annotate_opts_init(td_annotate_opts_t *o)
{
	memset(o, 0, sizeof(*o));
}

int td_annotate(td_result_t *r, const td_annotate_opts_t *o, td_error_t *err)
{
	if (!r || !o || (r->count && !r->changes))
		return td_error_set(err, TD_EINVAL, "no result to annotate");
	if (o->kbuild) {
		for (size_t i = 0; i < r->count; i++) {
			td_change_t *c = &r->changes[i];
			const td_file_t *f = c->target ? c->target : c->upstream;
			c->built = f ? td_annotate_built(o->kbuild, f->path, f->path_len) : -1;
		}
	}
	if (o->policy) {
		if (td_policy_apply(o->policy, r))
			return td_error_set(err, TD_EINVAL, "unable to apply the path policy");
		return TD_OK;
	}
	td_result_update_totals(r);
	return TD_OK;
}
