/* Spec parsing and dispatch to the source kinds. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "source_impl.h"

size_t td_archive_suffix_len(const char *name, size_t len)
{
	static const char *const suffixes[] = {
		".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst",
		".tar.bz2", ".tbz2", ".tar.lz4", ".tar.lzma", ".zip", ".cpio", ".7z", NULL
	};
	size_t best = 0;

	for (int i = 0; suffixes[i]; i++) {
		size_t m = strlen(suffixes[i]);
		if (len > m && m > best && !memcmp(name + len - m, suffixes[i], m))
			best = m;
	}
	return best;
}

static int looks_like_archive(const char *path)
{
	return td_archive_suffix_len(path, strlen(path)) != 0;
}

int td_source_open(td_source_t **out, const char *spec, const td_source_opts_t *opts, td_error_t *err)
{
	const td_source_ops_t *ops;
	const char *where = spec;
	int in_repo = 0;
	td_source_t *src;
	struct stat st;
	int rc;

	*out = NULL;
	if (!spec || !*spec)
		return td_error_set(err, TD_EINVAL, "empty tree name");
	if (!strncmp(spec, "git:", 4)) {
		ops = &td_source_git_ops;
		where = spec + 4;
	} else if (opts && opts->repo && strncmp(spec, "archive:", 8)) {
		ops = &td_source_git_ops; /* where is the revision alone */
		in_repo = 1;
	} else if (!strncmp(spec, "archive:", 8)) {
		ops = &td_source_archive_ops;
		where = spec + 8;
	} else if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
		ops = &td_source_dir_ops;
	} else if (looks_like_archive(spec)) {
		ops = &td_source_archive_ops;
	} else if (stat(spec, &st) != 0) {
		return td_error_set(err, TD_ENOTFOUND, "unable to open '%s': no such file or directory", spec);
	} else {
		return td_error_set(err, TD_EUNSUPPORTED,
				    "'%s' is not a directory, archive, git revision or database", spec);
	}
	src = calloc(1, sizeof(*src));
	if (!src)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	src->ops = ops;
	if (opts)
		src->opts = *opts;
	if (!in_repo)
		src->opts.repo = NULL;
	rc = ops->open(src, where, err);
	if (rc) {
		td_source_free(src);
		return rc;
	}
	*out = src;
	return TD_OK;
}

void td_source_free(td_source_t *src)
{
	if (!src)
		return;
	if (src->ops && src->impl)
		src->ops->close(src);
	free(src->root);
	free(src->incomplete_reason);
	free(src->revision);
	free(src);
}

const char *td_source_kind(const td_source_t *src)
{
	return src->ops->kind;
}

const char *td_source_root(const td_source_t *src)
{
	return src->root ? src->root : "";
}

const char *td_source_revision(const td_source_t *src)
{
	return src->revision;
}

int td_source_random_access(const td_source_t *src)
{
	return src->ops->random_access;
}

int td_source_next(td_file_t *out, td_source_t *src, td_error_t *err)
{
	memset(out, 0, sizeof(*out));
	return src->ops->next(src, out, err);
}

int td_source_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
		   const char **skip_reason, td_error_t *err)
{
	*skip_reason = NULL;
	atomic_fetch_add_explicit(&src->reads, 1, memory_order_relaxed);
	return src->ops->read(src, entry, sink, ctx, skip_reason, err);
}

typedef struct fill {
	uint8_t *buf;
	size_t cap, len;
} fill_t;

static int sink_fill(void *ctx, const void *data, size_t len)
{
	fill_t *f = ctx;

	if (len > f->cap - f->len)
		return TD_EINVAL;
	memcpy(f->buf + f->len, data, len);
	f->len += len;
	return TD_OK;
}

int td_source_read_all(td_source_t *src, const td_file_t *entry, void *buf, size_t cap, size_t *len,
		       const char **skip_reason, td_error_t *err)
{
	fill_t f = { buf, cap, 0 };
	int rc;

	*len = 0;
	if (entry->size_bytes >= cap)
		return td_error_set(err, TD_EINVAL, "no room to read '%s' whole", entry->path);
	if (!src->ops->read_all) {
		rc = td_source_read(src, entry, sink_fill, &f, skip_reason, err);
		*len = f.len;
		return rc;
	}
	*skip_reason = NULL;
	atomic_fetch_add_explicit(&src->reads, 1, memory_order_relaxed);
	return src->ops->read_all(src, entry, buf, cap, len, skip_reason, err);
}

int td_source_count(td_source_t *src, td_error_t *err)
{
	uint64_t max = src->opts.max_entries ? src->opts.max_entries : TD_SOURCE_MAX_ENTRIES_DEFAULT;

	if (++src->walked <= max)
		return TD_OK;
	return td_error_set(err, TD_ENOMEM, "'%s' has more than %llu entries (the limit on entries)",
			    src->root ? src->root : "tree", (unsigned long long)max);
}

int td_source_incomplete(const td_source_t *src)
{
	return src->incomplete;
}

int td_source_auto_strip(const td_source_t *src)
{
	return !src->ops->random_access && !src->opts.no_auto_strip;
}

const char *td_source_incomplete_reason(const td_source_t *src)
{
	return src->incomplete ? src->incomplete_reason : NULL;
}

uint64_t td_source_blobs_read(const td_source_t *src)
{
	return atomic_load_explicit(&src->reads, memory_order_relaxed);
}

/* 1 when a symlink at `path` with target `target` resolves outside the
 * tree: an absolute target, or ".." climbing above the root. */
int td_link_escapes(const char *path, size_t path_len, const char *target)
{
	long depth = 0;
	const char *p = target;

	if (target[0] == '/')
		return 1;
	for (size_t i = 0; i < path_len; i++)
		if (path[i] == '/')
			depth++;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}
