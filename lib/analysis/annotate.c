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

const char *td_kconfig_guess_arch(const char *text, size_t len)
{
	static const char tag[] = "# Linux/";
	const size_t tag_len = sizeof(tag) - 1;
	size_t pos = 0;

	/* The header is in the first lines; look at a few. */
	for (int line = 0; line < 8 && pos < len; line++) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (n > tag_len && !memcmp(s, tag, tag_len)) {
			char name[64];
			size_t k = 0;
			for (size_t i = tag_len; i < n && s[i] != ' ' && s[i] != '\t'; i++) {
				if (k + 1 >= sizeof(name))
					return NULL;
				name[k++] = s[i];
			}
			name[k] = '\0';
			return k ? td_arch_canonical(name) : NULL;
		}
		pos += n + 1;
	}
	return NULL;
}

int td_kconfig_load_file(td_kconfig_t **out, const char **arch_out, const char *path,
			 td_error_t *err)
{
	td_error_t perr = { 0 };
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (arch_out)
		*arch_out = NULL;
	if ((rc = td_read_file(&text, &len, path, 16u << 20, err)))
		return rc;
	rc = td_kconfig_parse(out, text, len, &perr);
	if (rc)
		td_error_set(err, rc, "'%s': %s", path, perr.msg);
	else if (arch_out)
		*arch_out = td_kconfig_guess_arch(text, len);
	free(text);
	return rc;
}

/* td_kbuild_io_t over a loaded tree and its source: a random-access source
 * reads each file when asked; an archive is read once beforehand, keeping
 * the files Kbuild may read (cache). */
typedef struct cached_file {
	char *path;
	char *data;
	size_t len;
} cached_file_t;

typedef struct tree_io {
	td_source_t *src;
	const td_tree_t *tree;
	cached_file_t *cache;  /* archives: sorted by path */
	size_t cache_count, cache_cap;
	td_error_t err;        /* the first read error, for the caller */
} tree_io_t;

typedef struct read_buf {
	char *data;
	size_t len, cap;
} read_buf_t;

static int buf_sink(void *ctx, const void *data, size_t len)
{
	read_buf_t *b = ctx;

	/* One byte over the evaluator's limit is enough for it to say so. */
	if (len > TD_KBUILD_MAX_FILE_BYTES + 1 - b->len)
		len = TD_KBUILD_MAX_FILE_BYTES + 1 - b->len;
	if (td_grow((void **)&b->data, &b->cap, b->len + len + 1, 1))
		return -1;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return b->len > TD_KBUILD_MAX_FILE_BYTES;
}

/* Read entry f of src whole (up to one byte over the Kbuild limit). */
static int read_entry(read_buf_t *b, td_source_t *src, const td_file_t *f, td_error_t *err)
{
	const char *skip = NULL;
	int rc;

	memset(b, 0, sizeof(*b));
	rc = td_source_read(src, f, buf_sink, b, &skip, err);
	if (rc == TD_ECANCELED && b->len > TD_KBUILD_MAX_FILE_BYTES)
		rc = TD_OK;
	if (!rc && !b->data && !(b->data = malloc(1)))
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
	if (rc) {
		free(b->data);
		b->data = NULL;
	}
	return rc;
}

static int cache_cmp(const void *pa, const void *pb)
{
	return strcmp(((const cached_file_t *)pa)->path, ((const cached_file_t *)pb)->path);
}

static const cached_file_t *cache_find(const tree_io_t *io, const char *path)
{
	cached_file_t key = { .path = (char *)path };

	if (!io->cache_count)
		return NULL;
	return bsearch(&key, io->cache, io->cache_count, sizeof(key), cache_cmp);
}

static int tree_read(void *ctx, const char *path, char **data_out, size_t *len_out)
{
	tree_io_t *io = ctx;
	const td_file_t *f = td_tree_find(io->tree, path, strlen(path));
	read_buf_t b;
	td_error_t err = { 0 };
	int rc;

	if (!f || f->type != TD_ENTRY_FILE)
		return TD_ENOTFOUND;
	if (!io->src) {
		const cached_file_t *c = cache_find(io, path);
		if (!c)
			return TD_ENOTFOUND;
		if (!(*data_out = malloc(c->len + 1)))
			return TD_ENOMEM;
		memcpy(*data_out, c->data, c->len);
		*len_out = c->len;
		return TD_OK;
	}
	if ((rc = read_entry(&b, io->src, f, &err))) {
		if (!io->err.code)
			io->err = err.code ? err : (td_error_t){ .code = rc };
		return rc;
	}
	*data_out = b.data;
	*len_out = b.len;
	return TD_OK;
}

static int tree_exists(void *ctx, const char *path)
{
	tree_io_t *io = ctx;
	const td_file_t *f = td_tree_find(io->tree, path, strlen(path));

	return f && (f->type == TD_ENTRY_FILE || f->type == TD_ENTRY_SYMLINK);
}

/* Files Kbuild never reads: sources, headers, documentation, data. What is
 * left of a kernel tree (Makefiles, Kbuild, Kconfig, *.include, scripts,
 * ...) is a few thousand small files. */
static int kbuild_never_reads(const char *path, size_t len)
{
	static const char *const suffixes[] = {
		".c", ".h", ".S", ".s", ".rs", ".dts", ".dtsi", ".rst", ".txt", ".json", ".yaml",
		".py", ".pl", ".sh", ".svg", ".png", ".jpg", ".gif", ".pdf", ".html", ".cocci",
		".bin", ".ppm", ".dot", ".awk", ".tbl", ".csv", ".xml", ".uc", ".asn1", ".lds",
	};
	const char *base = path;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t n = strlen(suffixes[i]);
		if (len >= n && !memcmp(path + len - n, suffixes[i], n))
			return 1;
	}
	return !strncmp(base, "README", 6) || !strcmp(base, "COPYING") || !strcmp(base, "MAINTAINERS");
}

/* Keep an archive member's content (taken from b) under its path. */
static int cache_add(tree_io_t *io, const td_file_t *f, read_buf_t *b)
{
	cached_file_t *c;

	if (td_grow((void **)&io->cache, &io->cache_cap, io->cache_count + 1, sizeof(*io->cache)))
		return TD_ENOMEM;
	c = &io->cache[io->cache_count];
	if (!(c->path = td_strndup(f->path, f->path_len)))
		return TD_ENOMEM;
	c->data = b->data;
	c->len = b->len;
	b->data = NULL;
	io->cache_count++;
	return TD_OK;
}

/* The archive's single top folder, as td_scan_list strips it: the length
 * of "top/" when every cached path (and so, the scan found, every path)
 * starts with it; 0 otherwise. */
static size_t top_folder_len(const tree_io_t *io, const td_source_t *src, int all_share)
{
	const char *first;
	size_t n;

	if (!td_source_auto_strip(src) || !all_share || !io->cache_count)
		return 0;
	first = io->cache[0].path;
	n = strcspn(first, "/");
	return first[n] == '/' ? n + 1 : 0;
}

static int prefetch_archive(tree_io_t *io, td_source_t *src, td_error_t *err)
{
	td_file_t f;
	char *top = NULL;
	size_t top_len = 0, strip;
	int all_share = 1, rc;

	for (;;) {
		read_buf_t b;

		memset(&f, 0, sizeof(f));
		if ((rc = td_source_next(src, &f, err)) <= 0)
			break;
		if (all_share) {
			/* Does every path start with the first one's top folder? */
			size_t n = strcspn(f.path, "/");
			if (!top) {
				if (f.path[n] != '/' || !(top = td_strndup(f.path, n + 1)))
					all_share = 0;
				top_len = n + 1;
			} else if (f.path_len <= top_len || memcmp(f.path, top, top_len)) {
				all_share = 0;
			}
		}
		if (f.type == TD_ENTRY_FILE && !f.link_target && f.size_bytes <= TD_KBUILD_MAX_FILE_BYTES &&
		    !kbuild_never_reads(f.path, f.path_len)) {
			if ((rc = read_entry(&b, src, &f, err)))
				break;
			if ((rc = cache_add(io, &f, &b))) {
				free(b.data);
				td_error_set(err, rc, "out of memory");
				break;
			}
		}
		td_file_release(&f);
	}
	td_file_release(&f);
	free(top);
	if (rc < 0)
		return rc;
	strip = top_folder_len(io, src, all_share);
	for (size_t i = 0; strip && i < io->cache_count; i++)
		memmove(io->cache[i].path, io->cache[i].path + strip, strlen(io->cache[i].path + strip) + 1);
	if (io->cache_count > 1)
		qsort(io->cache, io->cache_count, sizeof(*io->cache), cache_cmp);
	return TD_OK;
}

int td_kbuild_eval_tree(td_kbuild_result_t **out, const td_tree_t *tree, const char *spec,
			const td_source_opts_t *source_opts, const td_kconfig_t *cfg,
			const char *arch, td_error_t *err)
{
	td_source_t *src = NULL;
	tree_io_t io = { 0 };
	td_kbuild_io_t kio = { 0 };
	int rc;

	*out = NULL;
	if (!tree || !spec || !cfg || !arch)
		return td_error_set(err, TD_EINVAL, "no tree, configuration or architecture to evaluate");
	if (td_spec_is_db(spec))
		return td_error_set(err, TD_EUNSUPPORTED,
				    "'%s' is a treedrift database, which holds no file content: the "
				    "Kbuild files must come from a directory, git:REPO@REV or an archive",
				    spec);
	if ((rc = td_source_open(&src, spec, source_opts, err)))
		return rc;
	if (td_source_random_access(src)) {
		io.src = src;
	} else if ((rc = prefetch_archive(&io, src, err))) {
		goto out;
	}
	io.tree = tree;
	kio.ctx = &io;
	kio.read_file = tree_read;
	kio.exists = tree_exists;
	rc = td_kbuild_eval(out, cfg, arch, &kio, err);
	if (rc && io.err.code && io.err.msg[0])
		td_error_set(err, rc, "%s", io.err.msg);
out:
	for (size_t i = 0; i < io.cache_count; i++) {
		free(io.cache[i].path);
		free(io.cache[i].data);
	}
	free(io.cache);
	td_source_free(src);
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
