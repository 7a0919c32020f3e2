/* Kbuild evaluation of a loaded tree, its files read from the tree's source:
 * a directory or git revision file by file, an archive in one pass. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/kbuild.h"
#include "treedrift/load.h"
#include "treedrift/source.h"
#include "textfile.h"
#include "internal.h"

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
		if ((rc = td_source_next(&f, src, err)) <= 0)
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
