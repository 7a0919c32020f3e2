#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "treedrift/tree.h"

int td_tree_new(td_tree_t **out)
{
	*out = calloc(1, sizeof(td_tree_t));
	return *out ? TD_OK : TD_ENOMEM;
}

void td_file_release(td_file_t *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->link_target);
	free(f->skip_detail);
	td_digest_release(&f->digest);
	memset(f, 0, sizeof(*f));
}

static int dup_bytes(char **out, const char *s, size_t len)
{
	*out = NULL;
	if (!s)
		return TD_OK;
	*out = td_strndup(s, len);
	return *out ? TD_OK : TD_ENOMEM;
}

int td_file_copy(td_file_t *out, const td_file_t *src)
{
	*out = *src;
	out->path = NULL;
	out->link_target = NULL;
	out->skip_detail = NULL;
	memset(&out->digest, 0, sizeof(out->digest));
	if (dup_bytes(&out->path, src->path, src->path_len) ||
	    dup_bytes(&out->link_target, src->link_target, src->link_len) ||
	    dup_bytes(&out->skip_detail, src->skip_detail,
		      src->skip_detail ? strlen(src->skip_detail) : 0) ||
	    (src->has_digest && td_digest_copy(&out->digest, &src->digest))) {
		td_file_release(out);
		return TD_ENOMEM;
	}
	return TD_OK;
}

int td_meta_set(char **field, const char *text)
{
	char *copy = NULL;

	if (text && !(copy = td_strndup(text, strlen(text))))
		return TD_ENOMEM;
	free(*field);
	*field = copy;
	return TD_OK;
}

void td_tree_meta_release(td_tree_meta_t *m)
{
	free(m->label);
	free(m->root);
	free(m->source_kind);
	free(m->scanned_at);
	free(m->tool_version);
	free(m->database);
	memset(m, 0, sizeof(*m));
}

void td_tree_free(td_tree_t *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++)
		td_file_release(&t->files[i]);
	free(t->files);
	td_tree_meta_release(&t->meta);
	free(t);
}

int td_tree_append(td_tree_t *t, td_file_t *f)
{
	void *files = t->files;

	if (td_grow(&files, &t->cap, t->count + 1, sizeof(td_file_t)))
		return TD_ENOMEM;
	t->files = files;
	t->files[t->count++] = *f;
	memset(f, 0, sizeof(*f));
	return TD_OK;
}

/* Byte order of paths, shorter first on a common prefix: memcmp semantics,
 * the same order SQLite gives BLOB columns. */
int td_path_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int file_cmp(const void *pa, const void *pb)
{
	const td_file_t *a = pa, *b = pb;
	return td_path_cmp(a->path, a->path_len, b->path, b->path_len);
}

int td_files_in_order(const td_file_t *f, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (file_cmp(&f[i - 1], &f[i]) > 0)
			return 0;
	return 1;
}

int td_tree_sort(td_tree_t *t)
{
	if (!td_files_in_order(t->files, t->count))
		qsort(t->files, t->count, sizeof(td_file_t), file_cmp);
	for (size_t i = 1; i < t->count; i++)
		if (!file_cmp(&t->files[i - 1], &t->files[i]))
			return TD_EINVAL;
	return TD_OK;
}

const td_file_t *td_tree_find(const td_tree_t *t, const char *path, size_t path_len)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const td_file_t *f = &t->files[mid];
		int c = td_path_cmp(f->path, f->path_len, path, path_len);
		if (!c)
			return f;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int has_file(const td_tree_t *t, const char *path)
{
	const td_file_t *f = td_tree_find(t, path, strlen(path));
	return f && f->type == TD_ENTRY_FILE;
}

/* 1 when some file of t lies below dir ("kernel/"). */
static int has_dir(const td_tree_t *t, const char *dir)
{
	size_t n = strlen(dir), lo = 0, hi = t->count;

	/* The first path not before dir; paths below dir follow it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (td_path_cmp(t->files[mid].path, t->files[mid].path_len, dir, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->count && t->files[lo].path_len > n && !memcmp(t->files[lo].path, dir, n);
}

int td_tree_looks_like_linux(const td_tree_t *t)
{
	return t && has_file(t, "Makefile") && has_file(t, "Kconfig") && has_dir(t, "init/") &&
	       has_dir(t, "kernel/");
}
