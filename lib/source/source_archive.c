/* Archive tree source: the members of a tar (plain or compressed), zip, cpio,
 * 7z, ... read with libarchive in one streaming pass. Nothing is unpacked to
 * disk and no link is followed: hostile members come back skipped or
 * flagged, never acted upon.
 *
 * The source is sequential: a member's content is read right after next()
 * returned it, on the same thread. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>

#include "internal.h"
#include "source_impl.h"

/* libarchive's read-ahead block size for the archive file. */
#define TD_ARCHIVE_BLOCK_BYTES (64 * 1024)

/* One path listed so far, for duplicates and hard link targets. */
typedef struct arc_seen {
	char *path;          /* NULL: free slot */
	size_t len;
	uint64_t hash;
	const char *content; /* regular file: the path holding its bytes (itself,
			      * or a hard link's target); NULL otherwise */
	size_t content_len;
} arc_seen;

typedef struct arc_source {
	struct archive *a;
	char *name;          /* the archive as named, for messages */
	struct archive_entry *pending; /* first header, read at open */
	int failed;          /* 1: an error ended the listing; -1: it reached the end */
	int fail_code;
	char *fail_msg;

	arc_seen *seen;      /* open addressing, power-of-two capacity */
	size_t seen_cap, seen_count;

	/* The entry that read() may be called for. */
	char *cur_path;
	size_t cur_len;
	int cur_readable;
	uint64_t cur_size;
	int cur_size_known;
	int cur_sparse;
} arc_source;

/* Normalized path: components joined by '/', without empty and "."
 * components; ".." kept (and flagged), a leading '/' dropped (and flagged). */
typedef struct arc_path {
	char *text;
	size_t len;
	size_t n_parts;
	int absolute;
	int dotdot;
} arc_path;

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a 64 offset basis */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;       /* FNV-1a 64 prime */
	}
	return h;
}

static arc_seen *seen_find(const arc_source *as, const char *path, size_t len, uint64_t h)
{
	size_t mask, i;

	if (!as->seen_cap)
		return NULL;
	mask = as->seen_cap - 1;
	for (i = (size_t)h & mask; as->seen[i].path; i = (i + 1) & mask) {
		const arc_seen *s = &as->seen[i];
		if (s->hash == h && s->len == len && !memcmp(s->path, path, len))
			return &as->seen[i];
	}
	return NULL;
}

static int seen_grow(arc_source *as)
{
	size_t ncap = as->seen_cap ? as->seen_cap * 2 : 1024;
	arc_seen *ns;

	if (ncap < as->seen_cap || !(ns = calloc(ncap, sizeof(*ns))))
		return TD_ENOMEM;
	for (size_t i = 0; i < as->seen_cap; i++) {
		size_t j;

		if (!as->seen[i].path)
			continue;
		for (j = (size_t)as->seen[i].hash & (ncap - 1); ns[j].path; j = (j + 1) & (ncap - 1))
			;
		ns[j] = as->seen[i];
	}
	free(as->seen);
	as->seen = ns;
	as->seen_cap = ncap;
	return TD_OK;
}

/* Record a path (not yet seen); its own copy is kept. */
static int seen_add(arc_source *as, const char *path, size_t len, uint64_t h, arc_seen **out)
{
	size_t j;

	if ((as->seen_count + 1) * 2 > as->seen_cap && seen_grow(as))
		return TD_ENOMEM;
	for (j = (size_t)h & (as->seen_cap - 1); as->seen[j].path; j = (j + 1) & (as->seen_cap - 1))
		;
	if (!(as->seen[j].path = td_strndup(path, len)))
		return TD_ENOMEM;
	as->seen[j].len = len;
	as->seen[j].hash = h;
	as->seen[j].content = NULL;
	as->seen[j].content_len = 0;
	as->seen_count++;
	*out = &as->seen[j];
	return TD_OK;
}

/* Normalize raw and drop its first `strip` components. Returns 1 with *out
 * filled, 0 when nothing is left (the member is not listed), or TD_ENOMEM. */
static int normalize_path(arc_path *out, const char *raw, unsigned strip)
{
	size_t raw_len = strlen(raw), len = 0, parts = 0;
	const char *p = raw, *end = raw + raw_len;
	char *text;

	memset(out, 0, sizeof(*out));
	out->absolute = raw[0] == '/';
	if (!(text = malloc(raw_len + 1)))
		return TD_ENOMEM;
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);

		if (n && !(n == 1 && p[0] == '.')) {
			if (n == 2 && p[0] == '.' && p[1] == '.')
				out->dotdot = 1;
			if (parts++ >= strip) {
				if (len)
					text[len++] = '/';
				memcpy(text + len, p, n);
				len += n;
			}
		}
		p += n + 1;
	}
	text[len] = '\0';
	if (parts <= strip) {
		free(text);
		return 0;
	}
	out->text = text;
	out->len = len;
	out->n_parts = parts - strip;
	return 1;
}

static const char *arc_errstr(struct archive *a)
{
	const char *s = archive_error_string(a);
	return s ? s : "unknown libarchive error";
}

/* A fatal error ends the iteration: an error, or with keep_going the end
 * of a source marked incomplete. member: the member being read, or NULL.
 * Returns the code next()/read() report without keep_going. */
static int arc_fail(td_source_t *src, const char *member, td_error_t *err)
{
	arc_source *as = src->impl;
	char msg[sizeof(err->msg)];

	if (member)
		snprintf(msg, sizeof(msg), "unable to read '%s' in archive '%s': %s",
			 member, as->name, arc_errstr(as->a));
	else
		snprintf(msg, sizeof(msg), "unable to read archive '%s': %s", as->name, arc_errstr(as->a));
	as->failed = 1;
	as->fail_code = TD_EARCHIVE;
	free(as->fail_msg);
	as->fail_msg = td_strndup(msg, strlen(msg));
	if (src->opts.keep_going) {
		src->incomplete = 1;
		free(src->incomplete_reason);
		src->incomplete_reason = td_strndup(msg, strlen(msg));
	}
	return td_error_set(err, TD_EARCHIVE, "%s", msg);
}

static void arc_source_close(td_source_t *src)
{
	arc_source *as = src->impl;

	if (as->a)
		archive_read_free(as->a);
	for (size_t i = 0; i < as->seen_cap; i++)
		free(as->seen[i].path);
	free(as->seen);
	free(as->cur_path);
	free(as->fail_msg);
	free(as->name);
	free(as);
	src->impl = NULL;
}

/* Every reader format but mtree: an mtree "archive" is a text listing whose
 * member content libarchive reads from files on the local disk, and its
 * loose detection also takes plain text files for archives. */
static int enable_formats(struct archive *a)
{
	int (*const fmts[])(struct archive *) = {
		archive_read_support_format_7zip, archive_read_support_format_ar,
		archive_read_support_format_cab, archive_read_support_format_cpio,
		archive_read_support_format_empty, archive_read_support_format_iso9660,
		archive_read_support_format_lha, archive_read_support_format_rar,
		archive_read_support_format_rar5, archive_read_support_format_tar,
		archive_read_support_format_warc, archive_read_support_format_xar,
		archive_read_support_format_zip,
	};

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (fmts[i](a) < ARCHIVE_WARN)
			return -1;
	return 0;
}

/* The compression filters libarchive runs in-process. Not
 * archive_read_support_filter_all(): for lrzip, grzip, and lzop or any
 * other filter built without its library, libarchive would run an external
 * program on a third party's file. A filter is probed on a scratch handle
 * first, as registering it cannot be undone: ARCHIVE_WARN means "using an
 * external program", and such a filter is left out (its archives are then
 * "not an archive"). */
static int enable_filters(struct archive *a)
{
	int (*const filters[])(struct archive *) = {
		archive_read_support_filter_bzip2, archive_read_support_filter_compress,
		archive_read_support_filter_gzip, archive_read_support_filter_lz4,
		archive_read_support_filter_lzip, archive_read_support_filter_lzma,
		archive_read_support_filter_rpm, archive_read_support_filter_uu,
		archive_read_support_filter_xz, archive_read_support_filter_zstd,
	};

	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		struct archive *probe = archive_read_new();
		int r;

		if (!probe)
			return -1;
		r = filters[i](probe);
		archive_read_free(probe);
		if (r == ARCHIVE_OK && filters[i](a) != ARCHIVE_OK)
			return -1;
	}
	return 0;
}

static int arc_source_open(td_source_t *src, const char *where, td_error_t *err)
{
	arc_source *as;
	struct stat st;
	char *abs;
	int r;

	if (!(as = calloc(1, sizeof(*as))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	src->impl = as;
	if (!(as->name = td_strndup(where, strlen(where))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (stat(where, &st) != 0) {
		int e = errno;
		return td_error_set(err, e == ENOENT ? TD_ENOTFOUND : TD_EIO,
				    "unable to open '%s': %s", where, strerror(e));
	}
	if (S_ISDIR(st.st_mode))
		return td_error_set(err, TD_EINVAL, "'%s' is a directory, not an archive", where);
	if (!(abs = realpath(where, NULL))) {
		int e = errno;
		return td_error_set(err, TD_EIO, "unable to resolve '%s': %s", where, strerror(e));
	}
	src->root = abs;

	if (!(as->a = archive_read_new()))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (enable_filters(as->a) || enable_formats(as->a))
		return td_error_set(err, TD_EARCHIVE, "unable to set up libarchive: %s", arc_errstr(as->a));
	/* Opening picks the format, and the first header shows the archive
	 * can be read at all: both fail here rather than in the first next(). */
	r = archive_read_open_filename(as->a, where, TD_ARCHIVE_BLOCK_BYTES);
	if (r == ARCHIVE_OK) {
		r = archive_read_next_header(as->a, &as->pending);
		/* No archive data at all (a zero-byte file, or a gzip of
		 * nothing): most likely a failed download, and read as an
		 * empty tree it would make every file of the other side look
		 * added. An empty tar still holds its end-of-archive blocks. */
		if (r == ARCHIVE_EOF && archive_format(as->a) == ARCHIVE_FORMAT_EMPTY)
			return td_error_set(err, TD_EFORMAT, "'%s' is empty: it holds no archive, not even an empty one",
					    where);
		if (r == ARCHIVE_EOF) {
			as->pending = NULL;
			as->failed = -1; /* empty: the listing is over */
			return TD_OK;
		}
		if (r >= ARCHIVE_WARN)
			return TD_OK;
	}
	if (archive_format(as->a) == 0)
		return td_error_set(err, TD_EFORMAT, "'%s' is not an archive: %s", where, arc_errstr(as->a));
	return td_error_set(err, TD_EARCHIVE, "unable to read archive '%s': %s", where, arc_errstr(as->a));
}

static int set_detail(td_file_t *out, const char *text)
{
	if (!(out->skip_detail = td_strndup(text, strlen(text))))
		return TD_ENOMEM;
	return TD_OK;
}

static void skip(td_file_t *out, const char *reason)
{
	out->type = TD_ENTRY_SKIPPED;
	out->skip_reason = reason;
}

/* A hard link: a file sharing the bytes of a regular file listed earlier. */
static int fill_hardlink(td_source_t *src, struct archive_entry *ae, td_file_t *out,
			 const arc_seen **target)
{
	arc_source *as = src->impl;
	const char *raw = archive_entry_hardlink(ae);
	const arc_seen *t = NULL;
	arc_path tp;
	int rc;

	*target = NULL;
	rc = normalize_path(&tp, raw, src->opts.strip_components);
	if (rc < 0)
		return rc;
	if (rc == 1 && !tp.absolute && !tp.dotdot)
		t = seen_find(as, tp.text, tp.len, hash_bytes(tp.text, tp.len));
	free(tp.text);
	if (!t || !t->content) {
		skip(out, TD_SKIP_LINK_ESCAPE);
		return set_detail(out, raw);
	}
	out->type = TD_ENTRY_FILE;
	out->mode = (archive_entry_perm(ae) & 0100) ? 0100755 : 0100644;
	if (!(out->link_target = td_strndup(t->content, t->content_len)))
		return TD_ENOMEM;
	out->link_len = t->content_len;
	*target = t;
	return TD_OK;
}

static int fill_symlink(struct archive_entry *ae, td_file_t *out)
{
	const char *target = archive_entry_symlink(ae);

	if (!target)
		target = "";
	out->type = TD_ENTRY_SYMLINK;
	out->mode = 0120000;
	if (!(out->link_target = td_strndup(target, strlen(target))))
		return TD_ENOMEM;
	out->link_len = strlen(target);
	out->size_bytes = out->link_len;
	if (td_link_escapes(out->path, out->path_len, target))
		return set_detail(out, TD_LINK_OUTSIDE);
	return TD_OK;
}

static void fill_special(mode_t type, td_file_t *out)
{
	switch (type) {
	case AE_IFIFO: skip(out, TD_SKIP_FIFO); break;
	case AE_IFSOCK: skip(out, TD_SKIP_SOCKET); break;
	case AE_IFCHR:
	case AE_IFBLK: skip(out, TD_SKIP_DEVICE); break;
	default: skip(out, TD_SKIP_UNSUPPORTED); break;
	}
}

/* Turn one member into an entry. Returns 1 (entry), 0 (not listed: a
 * directory, or nothing left after strip_components) or TD_ENOMEM. */
static int fill_entry(td_source_t *src, struct archive_entry *ae, td_file_t *out)
{
	arc_source *as = src->impl;
	const char *raw = archive_entry_pathname(ae);
	mode_t type = archive_entry_filetype(ae);
	arc_seen *seen;
	arc_path np;
	uint64_t h;
	int rc;

	if (!raw)
		raw = archive_entry_pathname_utf8(ae);
	if (!raw)
		raw = "";
	if (type == AE_IFDIR)
		return 0;
	if ((rc = normalize_path(&np, raw, src->opts.strip_components)) <= 0)
		return rc;
	out->path = np.text;
	out->path_len = np.len;

	h = hash_bytes(np.text, np.len);
	if (seen_find(as, np.text, np.len, h)) {
		skip(out, TD_SKIP_DUPLICATE);
		return set_detail(out, raw) ? TD_ENOMEM : 1;
	}
	if (seen_add(as, np.text, np.len, h, &seen))
		return TD_ENOMEM;
	if (np.absolute || np.dotdot) {
		skip(out, TD_SKIP_UNSAFE_PATH);
		return set_detail(out, raw) ? TD_ENOMEM : 1;
	}
	if (archive_entry_hardlink(ae) && !(archive_entry_size_is_set(ae) && archive_entry_size(ae) > 0)) {
		const arc_seen *target;

		if ((rc = fill_hardlink(src, ae, out, &target)))
			return rc;
		if (target) {
			/* The string is the target's own, which never moves. */
			seen->content = target->content;
			seen->content_len = target->content_len;
		}
		return 1;
	}
	switch (type) {
	case AE_IFREG:
		out->type = TD_ENTRY_FILE;
		out->mode = (archive_entry_perm(ae) & 0100) ? 0100755 : 0100644;
		out->size_bytes = archive_entry_size_is_set(ae) && archive_entry_size(ae) > 0
				  ? (uint64_t)archive_entry_size(ae) : 0;
		if (archive_entry_is_encrypted(ae)) {
			skip(out, TD_SKIP_UNSUPPORTED);
			return set_detail(out, "encrypted") ? TD_ENOMEM : 1;
		}
		if (src->opts.max_file_size && out->size_bytes > src->opts.max_file_size) {
			skip(out, TD_SKIP_TOO_LARGE);
			return 1;
		}
		seen->content = seen->path;
		seen->content_len = seen->len;
		return 1;
	case AE_IFLNK:
		return fill_symlink(ae, out) ? TD_ENOMEM : 1;
	default:
		fill_special(type, out);
		return 1;
	}
}

static int remember_current(arc_source *as, const td_file_t *f, struct archive_entry *ae)
{
	as->cur_readable = 0;
	if (f->type != TD_ENTRY_FILE || f->link_target)
		return TD_OK;
	free(as->cur_path);
	if (!(as->cur_path = td_strndup(f->path, f->path_len)))
		return TD_ENOMEM;
	as->cur_len = f->path_len;
	as->cur_size = f->size_bytes;
	as->cur_size_known = archive_entry_size_is_set(ae);
	as->cur_sparse = archive_entry_sparse_count(ae) > 0;
	as->cur_readable = 1;
	return TD_OK;
}

static int arc_source_next(td_source_t *src, td_file_t *out, td_error_t *err)
{
	arc_source *as = src->impl;

	as->cur_readable = 0;
	for (;;) {
		struct archive_entry *ae;
		int r, rc;

		if (as->failed < 0)
			return 0;
		if (as->failed) {
			if (src->opts.keep_going && as->fail_code == TD_EARCHIVE)
				return 0;
			return td_error_set(err, as->fail_code, "%s", as->fail_msg ? as->fail_msg : "archive error");
		}
		if (as->pending) {
			ae = as->pending;
			as->pending = NULL;
		} else {
			r = archive_read_next_header(as->a, &ae);
			if (r == ARCHIVE_EOF) {
				as->failed = -1;
				return 0;
			}
			/* RETRY and FAILED report a damaged header that
			 * libarchive would skip past: members may be lost, so
			 * they are no better than FATAL. */
			if (r < ARCHIVE_WARN) {
				rc = arc_fail(src, NULL, err);
				return src->opts.keep_going ? 0 : rc;
			}
		}
		/* The set of seen paths is kept in memory, and a small
		 * compressed archive can hold millions of empty members. */
		if ((rc = td_source_count(src, err))) {
			/* a limit, not damage: an error even with keep_going */
			as->failed = 1;
			as->fail_code = rc;
			free(as->fail_msg);
			as->fail_msg = err ? td_strndup(err->msg, strlen(err->msg)) : NULL;
			return as->fail_code;
		}
		rc = fill_entry(src, ae, out);
		if (rc == 0)
			continue;
		if (rc > 0 && remember_current(as, out, ae) == TD_OK)
			return 1;
		td_file_release(out);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
}

static int feed(td_sink_fn sink, void *ctx, const char *data, size_t len)
{
	while (len) {
		size_t n = len > TD_READ_BLOCK_BYTES ? TD_READ_BLOCK_BYTES : len;

		if (sink(ctx, data, n))
			return TD_ECANCELED;
		data += n;
		len -= n;
	}
	return TD_OK;
}

/* A hole of a sparse member: zeros. */
static int feed_zeros(td_sink_fn sink, void *ctx, uint64_t len)
{
	static const char zeros[64 * 1024];

	while (len) {
		size_t n = len > sizeof(zeros) ? sizeof(zeros) : (size_t)len;

		if (sink(ctx, zeros, n))
			return TD_ECANCELED;
		len -= n;
	}
	return TD_OK;
}

/* Data at [off, off + len) of the member being read: within its size, and
 * within max_file_size when the archive did not give a size. A sparse
 * member's map can name offsets far beyond the size its header gives (10
 * KiB of tar claiming 20 GiB of holes): checked before the holes are fed. */
static int check_extent(td_source_t *src, const td_file_t *entry, uint64_t off, size_t len,
			const char **skip_reason, td_error_t *err)
{
	arc_source *as = src->impl;
	uint64_t end = off + (uint64_t)len;

	if (end < off || (as->cur_size_known && end > as->cur_size)) {
		*skip_reason = TD_SKIP_UNREADABLE;
		return td_error_set(err, TD_EIO, "'%s' in archive '%s' has data past its size of %llu bytes",
				    entry->path, as->name, (unsigned long long)as->cur_size);
	}
	if (src->opts.max_file_size && end > src->opts.max_file_size) {
		*skip_reason = TD_SKIP_TOO_LARGE;
		return td_error_set(err, TD_EIO, "'%s' in archive '%s' is larger than %llu bytes", entry->path,
				    as->name, (unsigned long long)src->opts.max_file_size);
	}
	return TD_OK;
}

static int arc_source_read(td_source_t *src, const td_file_t *entry, td_sink_fn sink, void *ctx,
			   const char **skip_reason, td_error_t *err)
{
	arc_source *as = src->impl;
	uint64_t pos = 0;
	int rc;

	if (entry->type == TD_ENTRY_FILE && entry->link_target)
		return td_error_set(err, TD_EINVAL, "'%s' is a hard link to '%s' and has no content of its own",
				    entry->path, entry->link_target);
	if (!as->cur_readable || entry->path_len != as->cur_len ||
	    memcmp(entry->path, as->cur_path, as->cur_len))
		return td_error_set(err, TD_EINVAL,
				    "member '%s' of archive '%s' can only be read right after it is listed",
				    entry->path, as->name);
	as->cur_readable = 0;
	for (;;) {
		const void *buf;
		size_t len;
		la_int64_t off;
		int r = archive_read_data_block(as->a, &buf, &len, &off);

		if (r == ARCHIVE_EOF)
			break;
		if (r == ARCHIVE_FATAL) {
			rc = arc_fail(src, entry->path, err);
			if (!src->opts.keep_going)
				return rc;
			/* The scan records this member as unreadable and
			 * the next next() ends the listing. */
			*skip_reason = TD_SKIP_UNREADABLE;
			err->code = TD_EIO;
			return TD_EIO;
		}
		if (r < ARCHIVE_WARN) {
			/* This member only (e.g. an unsupported compression
			 * method): the archive goes on. */
			*skip_reason = TD_SKIP_UNREADABLE;
			return td_error_set(err, TD_EIO, "unable to read '%s' in archive '%s': %s",
					    entry->path, as->name, arc_errstr(as->a));
		}
		if (off < 0 || (uint64_t)off < pos)
			return td_error_set(err, TD_EARCHIVE, "bad data offset in '%s' of archive '%s'",
					    entry->path, as->name);
		if ((rc = check_extent(src, entry, (uint64_t)off, len, skip_reason, err)))
			return rc;
		if ((uint64_t)off > pos && (rc = feed_zeros(sink, ctx, (uint64_t)off - pos)))
			goto canceled;
		if ((rc = feed(sink, ctx, buf, len)))
			goto canceled;
		pos = (uint64_t)off + len;
	}
	/* A sparse member may end in a hole. Any other member whose data ends
	 * before its size (a sparse one with an empty map, a format that only
	 * warns) is not padded with made-up zeros. */
	if (as->cur_sparse && pos < as->cur_size && (rc = feed_zeros(sink, ctx, as->cur_size - pos)))
		goto canceled;
	if (!as->cur_sparse && as->cur_size_known && pos < as->cur_size) {
		*skip_reason = TD_SKIP_UNREADABLE;
		return td_error_set(err, TD_EIO, "'%s' in archive '%s' has %llu bytes of data, not its size of %llu",
				    entry->path, as->name, (unsigned long long)pos, (unsigned long long)as->cur_size);
	}
	return TD_OK;
canceled:
	return td_error_set(err, TD_ECANCELED, "reading '%s' stopped", entry->path);
}

const td_source_ops_t td_source_archive_ops = {
	.kind = "archive",
	.random_access = 0,
	.open = arc_source_open,
	.next = arc_source_next,
	.read = arc_source_read,
	.close = arc_source_close,
};
