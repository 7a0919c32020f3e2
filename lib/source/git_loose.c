/* Loose git objects read with zlib, checked before any parser sees them
 * (see git_loose.h and doc/hostile-input.md). */
#define _DEFAULT_SOURCE /* DT_UNKNOWN */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2/sys/odb_backend.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "git_loose.h"
#include "internal.h"
#include "source_impl.h"

/* Compressed bytes read from the file at a time, and inflated body bytes
 * handed on at a time (but the last). */
#define TD_LOOSE_IN_BYTES (64 * 1024)
#define TD_LOOSE_OUT_BYTES TD_READ_BLOCK_BYTES
/* "commit 18446744073709551615\0" is 28 bytes; git's own limit is 32. */
#define TD_LOOSE_HEADER_MAX 32
/* Compressed bytes read for the header: most lookups want nothing more. */
#define TD_LOOSE_HEADER_READ_BYTES 1024
/* Deflate turns one input byte into at most 1032 output bytes (258-byte
 * matches coded in 2 bits, RFC 1951): a header claiming more than that
 * of the file's size is a lie, refused before anything is allocated. */
#define TD_DEFLATE_MAX_RATIO 1032u
#define TD_SHA1_BYTES 20

typedef struct loose_in {
	int fd;
	z_stream zs;
	unsigned char *in;   /* TD_LOOSE_IN_BYTES */
	size_t in_want;      /* bytes read at a time: few for the header */
	unsigned char head[TD_LOOSE_HEADER_MAX];
	unsigned char *out;  /* TD_LOOSE_OUT_BYTES, for the body only */
	int eof;
	uint64_t file_bytes;
	EVP_MD_CTX *sha;
} loose_in;

static int corrupt(td_error_t *err, const char *what)
{
	return td_error_set(err, TD_EFORMAT, "corrupt loose object: %s", what);
}

/* Refill the input when it is used up. */
static int fill_input(loose_in *l, td_error_t *err)
{
	ssize_t n;

	if (l->zs.avail_in || l->eof)
		return TD_OK;
	do
		n = read(l->fd, l->in, l->in_want);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return td_error_set(err, TD_EIO, "unable to read loose object: %s", strerror(errno));
	if (n == 0)
		l->eof = 1;
	l->zs.next_in = l->in;
	l->zs.avail_in = (uInt)n;
	return TD_OK;
}

/* One inflate step into out[0..cap): *produced bytes; *end at the stream's end. */
static int inflate_some(loose_in *l, unsigned char *out, size_t cap, size_t *produced, int *end,
			td_error_t *err)
{
	int rc, z;

	*produced = 0;
	*end = 0;
	if ((rc = fill_input(l, err)))
		return rc;
	l->zs.next_out = out;
	l->zs.avail_out = (uInt)cap;
	z = inflate(&l->zs, Z_NO_FLUSH);
	*produced = cap - l->zs.avail_out;
	switch (z) {
	case Z_STREAM_END:
		*end = 1;
		return TD_OK;
	case Z_OK:
		return TD_OK;
	case Z_BUF_ERROR:
		/* No progress: the input ran out before the stream ended. */
		if (l->eof && !l->zs.avail_in)
			return corrupt(err, "truncated zlib stream");
		return *produced ? TD_OK : corrupt(err, "zlib stream makes no progress");
	case Z_MEM_ERROR:
		return td_error_set(err, TD_ENOMEM, "out of memory");
	default:
		return corrupt(err, l->zs.msg ? l->zs.msg : "bad zlib stream");
	}
}

static git_object_t type_of(const char *name, size_t len)
{
	static const struct { const char *name; git_object_t type; } types[] = {
		{ "blob", GIT_OBJECT_BLOB }, { "tree", GIT_OBJECT_TREE },
		{ "commit", GIT_OBJECT_COMMIT }, { "tag", GIT_OBJECT_TAG },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == len && !memcmp(types[i].name, name, len))
			return types[i].type;
	return GIT_OBJECT_INVALID;
}

/* "TYPE SIZE" (its NUL at s[len]): a known type and a canonical decimal
 * size, without a sign or a leading zero, as git writes and reads it. */
static int parse_header(td_loose_header_t *h, const char *s, size_t len, td_error_t *err)
{
	const char *sp = memchr(s, ' ', len), *p, *end = s + len;
	uint64_t size = 0;

	if (!sp || (h->type = type_of(s, (size_t)(sp - s))) == GIT_OBJECT_INVALID)
		return corrupt(err, "unknown object type");
	p = sp + 1;
	if (p == end || (*p == '0' && p + 1 != end))
		return corrupt(err, "bad size in header");
	for (; p < end; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';

		if (d > 9)
			return corrupt(err, "bad size in header");
		if (size > (UINT64_MAX - d) / 10)
			return corrupt(err, "size in header too large");
		size = size * 10 + d;
	}
	h->size = size;
	return TD_OK;
}

static int sha_update(loose_in *l, const void *data, size_t len, td_error_t *err)
{
	if (l->sha && len && EVP_DigestUpdate(l->sha, data, len) != 1)
		return td_error_set(err, TD_ENOMEM, "unable to hash a loose object");
	return TD_OK;
}

/* Inflate until the header's NUL; the body bytes that came with it are
 * left in l->head[0..*extra). */
static int read_header(loose_in *l, td_loose_header_t *h, size_t *extra, int *end, td_error_t *err)
{
	unsigned char *buf = l->head;
	size_t have = 0, n, hdr_len;
	unsigned char *nul;
	int rc;

	*end = 0;
	/* No more than the longest header: the body is left to the caller. */
	for (;;) {
		if ((rc = inflate_some(l, buf + have, TD_LOOSE_HEADER_MAX - have, &n, end, err)))
			return rc;
		have += n;
		if ((nul = memchr(buf, '\0', have)))
			break;
		if (have >= TD_LOOSE_HEADER_MAX)
			return corrupt(err, "header too long");
		if (*end)
			return corrupt(err, "no header");
	}
	hdr_len = (size_t)(nul - buf) + 1;
	if ((rc = parse_header(h, (const char *)buf, hdr_len - 1, err)))
		return rc;
	if (h->size > (l->file_bytes * TD_DEFLATE_MAX_RATIO))
		return corrupt(err, "header size larger than the compressed data can hold");
	if ((rc = sha_update(l, buf, hdr_len, err)))
		return rc;
	*extra = have - hdr_len;
	memmove(buf, buf + hdr_len, *extra);
	return TD_OK;
}

static int body_bytes(loose_in *l, uint64_t *done, uint64_t size, size_t n, td_sink_fn on_body, void *ctx,
		      td_error_t *err)
{
	int rc;

	if (!n)
		return TD_OK;
	if (n > size - *done)
		return corrupt(err, "body longer than its header says");
	if ((rc = sha_update(l, l->out, n, err)))
		return rc;
	*done += n;
	if (on_body && on_body(ctx, l->out, n))
		return td_error_set(err, TD_ECANCELED, "reading a loose object stopped");
	return TD_OK;
}

/* After the stream's end: no more compressed bytes in the file. */
static int check_trailer(loose_in *l, td_error_t *err)
{
	int rc;

	if (l->zs.avail_in)
		return corrupt(err, "garbage after the zlib stream");
	if ((rc = fill_input(l, err)))
		return rc;
	return l->zs.avail_in ? corrupt(err, "garbage after the zlib stream") : TD_OK;
}

static int check_id(loose_in *l, const unsigned char *id, td_error_t *err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	if (!l->sha)
		return TD_OK;
	if (EVP_DigestFinal_ex(l->sha, md, &md_len) != 1 || md_len != TD_SHA1_BYTES)
		return td_error_set(err, TD_ENOMEM, "unable to hash a loose object");
	if (memcmp(md, id, TD_SHA1_BYTES))
		return corrupt(err, "content does not match its object id");
	return TD_OK;
}

static int inflate_body(loose_in *l, const unsigned char *id, const td_loose_header_t *h, size_t extra,
			int end, td_sink_fn on_body, void *ctx, td_error_t *err)
{
	uint64_t done = 0;
	size_t have = extra, n;
	int rc;

	l->in_want = TD_LOOSE_IN_BYTES;
	if (!(l->out = malloc(TD_LOOSE_OUT_BYTES)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	memcpy(l->out, l->head, extra);

	for (;;) {
		/* Whole blocks to on_body, but the last. */
		while (!end && have < TD_LOOSE_OUT_BYTES) {
			if ((rc = inflate_some(l, l->out + have, TD_LOOSE_OUT_BYTES - have, &n, &end, err)))
				return rc;
			have += n;
		}
		if ((rc = body_bytes(l, &done, h->size, have, on_body, ctx, err)))
			return rc;
		have = 0;
		if (end)
			break;
	}
	if (done != h->size)
		return corrupt(err, "body shorter than its header says");
	if ((rc = check_trailer(l, err)))
		return rc;
	return check_id(l, id, err);
}

int td_loose_inflate(int fd, const unsigned char *id, td_loose_header_fn on_header, td_sink_fn on_body,
		     void *ctx, td_error_t *err)
{
	td_loose_header_t h;
	struct stat st;
	loose_in *l;
	size_t extra = 0;
	int end = 0, rc;

	if (fstat(fd, &st))
		return td_error_set(err, TD_EIO, "unable to read loose object: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return corrupt(err, "not a regular file");
	if (!(l = calloc(1, sizeof(*l))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	l->fd = fd;
	l->in_want = TD_LOOSE_HEADER_READ_BYTES;
	if (!(l->in = malloc(TD_LOOSE_IN_BYTES))) {
		free(l);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	l->file_bytes = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	if (inflateInit(&l->zs) != Z_OK) {
		free(l->in);
		free(l);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	if (id && (!(l->sha = EVP_MD_CTX_new()) || EVP_DigestInit_ex(l->sha, EVP_sha1(), NULL) != 1)) {
		rc = td_error_set(err, TD_ENOMEM, "unable to hash a loose object");
		goto out;
	}
	if ((rc = read_header(l, &h, &extra, &end, err)))
		goto out;
	if ((rc = on_header(ctx, &h)) != 0) {
		rc = rc > 0 ? TD_OK : rc;
		goto out;
	}
	rc = inflate_body(l, id, &h, extra, end, on_body, ctx, err);
out:
	EVP_MD_CTX_free(l->sha);
	inflateEnd(&l->zs);
	free(l->out);
	free(l->in);
	free(l);
	return rc;
}

/* objects_dir + "/xx/" + 38 hex digits */
static char *object_path(const char *objects_dir, const git_oid *id)
{
	size_t len = strlen(objects_dir);
	char hex[GIT_OID_HEXSZ + 1];
	char *path;

	while (len > 1 && objects_dir[len - 1] == '/')
		len--;
	if (!(path = malloc(len + GIT_OID_HEXSZ + 3)))
		return NULL;
	git_oid_tostr(hex, sizeof(hex), id);
	snprintf(path, len + GIT_OID_HEXSZ + 3, "%.*s/%.2s/%s", (int)len, objects_dir, hex, hex + 2);
	return path;
}

int td_loose_open(const char *objects_dir, const git_oid *id)
{
	char *path = object_path(objects_dir, id);
	struct stat st;
	int fd, e;

	if (!path) {
		errno = ENOMEM;
		return -1;
	}
	/* O_NONBLOCK: a FIFO put there must not hang the open. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	e = errno;
	free(path);
	if (fd < 0) {
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* ---- the object database backend ---- */

typedef struct loose_backend {
	git_odb_backend parent;
	char *objects_dir;
} loose_backend;

typedef struct whole_read {
	git_odb_backend *be;
	td_loose_header_t h;
	unsigned char *data; /* git_odb_backend_data_alloc'd, size + 1 */
	size_t len;
} whole_read;

static int whole_header(void *ctx, const td_loose_header_t *h)
{
	whole_read *w = ctx;

	w->h = *h;
	if (h->size >= SIZE_MAX || !(w->data = git_odb_backend_data_alloc(w->be, (size_t)h->size + 1)))
		return TD_ENOMEM;
	return 0;
}

static int whole_body(void *ctx, const void *data, size_t len)
{
	whole_read *w = ctx;

	memcpy(w->data + w->len, data, len); /* td_loose_inflate checked len */
	w->len += len;
	return 0;
}

static int header_only(void *ctx, const td_loose_header_t *h)
{
	*(td_loose_header_t *)ctx = *h;
	return 1;
}

/* libgit2's error for a failed read, with our text. */
static int odb_error(int gerr, const char *objects_dir, const git_oid *id, const char *msg)
{
	char hex[GIT_OID_HEXSZ + 1], buf[1536];

	git_oid_tostr(hex, sizeof(hex), id);
	snprintf(buf, sizeof(buf), "%s: object %s in '%s'", msg, hex, objects_dir);
	git_error_set_str(gerr == GIT_ENOTFOUND ? GIT_ERROR_ODB : GIT_ERROR_ZLIB, buf);
	return gerr;
}

static int open_object(loose_backend *lb, const git_oid *id)
{
	int fd = td_loose_open(lb->objects_dir, id);

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR
			       ? odb_error(GIT_ENOTFOUND, lb->objects_dir, id, "no such loose object")
			       : odb_error(GIT_ERROR, lb->objects_dir, id, errno == EINVAL ? "not a regular file"
										     : strerror(errno));
	return fd;
}

static int be_read(void **out, size_t *len, git_object_t *type, git_odb_backend *be, const git_oid *id)
{
	loose_backend *lb = (loose_backend *)be;
	whole_read w = { be, { 0, 0 }, NULL, 0 };
	td_error_t err = { 0 };
	int fd, rc;

	if ((fd = open_object(lb, id)) < 0)
		return fd;
	rc = td_loose_inflate(fd, id->id, whole_header, whole_body, &w, &err);
	close(fd);
	if (rc) {
		git_odb_backend_data_free(be, w.data);
		return odb_error(GIT_ERROR, lb->objects_dir, id, err.msg[0] ? err.msg : "out of memory");
	}
	w.data[w.len] = '\0';
	*out = w.data;
	*len = w.len;
	*type = w.h.type;
	return 0;
}

static int be_read_header(size_t *len, git_object_t *type, git_odb_backend *be, const git_oid *id)
{
	loose_backend *lb = (loose_backend *)be;
	td_loose_header_t h = { 0, 0 };
	td_error_t err = { 0 };
	int fd, rc;

	if ((fd = open_object(lb, id)) < 0)
		return fd;
	rc = td_loose_inflate(fd, NULL, header_only, NULL, &h, &err);
	close(fd);
	if (rc)
		return odb_error(GIT_ERROR, lb->objects_dir, id, err.msg);
	if (h.size >= SIZE_MAX)
		return odb_error(GIT_ERROR, lb->objects_dir, id, "object too large");
	*len = (size_t)h.size;
	*type = h.type;
	return 0;
}

static int be_exists(git_odb_backend *be, const git_oid *id)
{
	int fd = td_loose_open(((loose_backend *)be)->objects_dir, id);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* The one loose object whose id starts with the first len hex digits of
 * short_id: 0 with *out, GIT_ENOTFOUND or GIT_EAMBIGUOUS. */
static int find_prefix(git_oid *out, loose_backend *lb, const git_oid *short_id, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1], *dir_path;
	size_t dir_len = strlen(lb->objects_dir);
	struct dirent *de;
	int found = 0;
	DIR *dir;

	if (len < 2 || len > GIT_OID_HEXSZ)
		return odb_error(GIT_ENOTFOUND, lb->objects_dir, short_id, "no such loose object");
	git_oid_tostr(hex, sizeof(hex), short_id);
	if (!(dir_path = malloc(dir_len + 4)))
		return odb_error(GIT_ERROR, lb->objects_dir, short_id, "out of memory");
	snprintf(dir_path, dir_len + 4, "%s/%.2s", lb->objects_dir, hex);
	dir = opendir(dir_path);
	free(dir_path);
	if (!dir)
		return odb_error(GIT_ENOTFOUND, lb->objects_dir, short_id, "no such loose object");
	while ((de = readdir(dir))) {
		char full[GIT_OID_HEXSZ + 1];
		git_oid id;

		if (strlen(de->d_name) != GIT_OID_HEXSZ - 2 || strncmp(de->d_name, hex + 2, len - 2))
			continue;
		memcpy(full, hex, 2);
		memcpy(full + 2, de->d_name, GIT_OID_HEXSZ - 2);
		full[GIT_OID_HEXSZ] = '\0';
		if (git_oid_fromstr(&id, full))
			continue;
		if (found && git_oid_cmp(&id, out)) {
			closedir(dir);
			git_error_set_str(GIT_ERROR_ODB, "ambiguous object id prefix");
			return GIT_EAMBIGUOUS;
		}
		*out = id;
		found = 1;
	}
	closedir(dir);
	return found ? 0 : odb_error(GIT_ENOTFOUND, lb->objects_dir, short_id, "no such loose object");
}

static int be_read_prefix(git_oid *out_id, void **out, size_t *len, git_object_t *type, git_odb_backend *be,
			  const git_oid *short_id, size_t short_len)
{
	git_oid id;
	int rc;

	if ((rc = find_prefix(&id, (loose_backend *)be, short_id, short_len)))
		return rc;
	if ((rc = be_read(out, len, type, be, &id)))
		return rc;
	*out_id = id;
	return 0;
}

static int be_exists_prefix(git_oid *out, git_odb_backend *be, const git_oid *short_id, size_t len)
{
	return find_prefix(out, (loose_backend *)be, short_id, len);
}

static void be_free(git_odb_backend *be)
{
	loose_backend *lb = (loose_backend *)be;

	free(lb->objects_dir);
	free(lb);
}

int td_loose_backend_new(git_odb_backend **out, const char *objects_dir)
{
	loose_backend *lb = calloc(1, sizeof(*lb));

	*out = NULL;
	if (!lb || git_odb_init_backend(&lb->parent, GIT_ODB_BACKEND_VERSION) ||
	    !(lb->objects_dir = td_strndup(objects_dir, strlen(objects_dir)))) {
		free(lb);
		return TD_ENOMEM;
	}
	lb->parent.read = be_read;
	lb->parent.read_header = be_read_header;
	lb->parent.read_prefix = be_read_prefix;
	lb->parent.exists = be_exists;
	lb->parent.exists_prefix = be_exists_prefix;
	lb->parent.free = be_free;
	*out = &lb->parent;
	return TD_OK;
}

/* ---- the object database: packs by libgit2, loose objects by this module ---- */

/* git reads alternates this deep (objects/info/alternates of an alternate
 * of an alternate ...); libgit2 and git both stop at 5. */
#define TD_GIT_ALTERNATES_MAX_DEPTH 5
/* Longest objects/info/alternates file read. */
#define TD_GIT_ALTERNATES_MAX_BYTES (64 * 1024)
/* Object directories at most (the repository's and its alternates). */
#define TD_GIT_OBJECT_DIRS_MAX 64
/* libgit2's own priorities: packs are searched before loose objects. */
#define TD_PACK_PRIORITY 2
#define TD_LOOSE_PRIORITY 1

typedef struct odb_build {
	git_odb *odb;
	td_loose_dirs_t *dirs;
	dev_t dev[TD_GIT_OBJECT_DIRS_MAX];
	ino_t ino[TD_GIT_OBJECT_DIRS_MAX];
	size_t n;
} odb_build;

void td_loose_dirs_release(td_loose_dirs_t *d)
{
	for (size_t i = 0; i < d->count; i++)
		free(d->dir[i]);
	free(d->dir);
	memset(d, 0, sizeof(*d));
}

static int dirs_add(td_loose_dirs_t *d, const char *dir, td_error_t *err)
{
	void *buf = d->dir;

	if (td_grow(&buf, &d->cap, d->count + 1, sizeof(char *)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	d->dir = buf;
	if (!(d->dir[d->count] = td_strndup(dir, strlen(dir))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	d->count++;
	return TD_OK;
}

static int add_objects_dir(odb_build *b, const char *dir, int depth, td_error_t *err);

/* The alternates file of dir, one object directory a line ('#' comments);
 * a relative one is relative to dir, as git has it. */
static int add_alternates(odb_build *b, const char *dir, int depth, td_error_t *err)
{
	size_t dir_len = strlen(dir), len = 0;
	char *path, *text = NULL, *line, *next;
	FILE *f;
	int rc = TD_OK;

	if (!(path = malloc(dir_len + 32)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	snprintf(path, dir_len + 32, "%s/info/alternates", dir);
	f = fopen(path, "rb");
	free(path);
	if (!f)
		return TD_OK;
	if (!(text = malloc(TD_GIT_ALTERNATES_MAX_BYTES + 1))) {
		fclose(f);
		return td_error_set(err, TD_ENOMEM, "out of memory");
	}
	len = fread(text, 1, TD_GIT_ALTERNATES_MAX_BYTES + 1, f);
	fclose(f);
	if (len > TD_GIT_ALTERNATES_MAX_BYTES) {
		free(text);
		return td_error_set(err, TD_EFORMAT, "'%s/info/alternates' is larger than %d bytes", dir,
				    TD_GIT_ALTERNATES_MAX_BYTES);
	}
	text[len] = '\0';
	for (line = text; line && !rc; line = next) {
		size_t n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n = strlen(line);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		if (line[0] == '/') {
			rc = add_objects_dir(b, line, depth + 1, err);
		} else {
			char *full = malloc(dir_len + n + 2);

			if (!full)
				return free(text), td_error_set(err, TD_ENOMEM, "out of memory");
			snprintf(full, dir_len + n + 2, "%s/%s", dir, line);
			rc = add_objects_dir(b, full, depth + 1, err);
			free(full);
		}
	}
	free(text);
	return rc;
}

static int add_objects_dir(odb_build *b, const char *dir, int depth, td_error_t *err)
{
	git_odb_backend *pack = NULL, *loose = NULL;
	struct stat st;
	int rc;

	if (depth > TD_GIT_ALTERNATES_MAX_DEPTH)
		return TD_OK;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		/* A missing alternate is no error for git either. */
		if (depth)
			return TD_OK;
		return td_error_set(err, TD_EGIT, "no object directory '%s'", dir);
	}
	for (size_t i = 0; i < b->n; i++)
		if (b->dev[i] == st.st_dev && b->ino[i] == st.st_ino)
			return TD_OK;
	if (b->n == TD_GIT_OBJECT_DIRS_MAX)
		return td_error_set(err, TD_EFORMAT, "more than %d object directories (alternates) in '%s'",
				    TD_GIT_OBJECT_DIRS_MAX, dir);
	b->dev[b->n] = st.st_dev;
	b->ino[b->n] = st.st_ino;
	b->n++;
	if ((rc = dirs_add(b->dirs, dir, err)))
		return rc;
	if (git_odb_backend_pack(&pack, dir))
		return td_error_set(err, TD_EGIT, "unable to read the packs of '%s': %s", dir,
				    git_error_last() ? git_error_last()->message : "unknown libgit2 error");
	if ((depth ? git_odb_add_alternate : git_odb_add_backend)(b->odb, pack, TD_PACK_PRIORITY)) {
		pack->free(pack);
		return td_error_set(err, TD_EGIT, "unable to add the packs of '%s'", dir);
	}
	if (td_loose_backend_new(&loose, dir))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if ((depth ? git_odb_add_alternate : git_odb_add_backend)(b->odb, loose, TD_LOOSE_PRIORITY)) {
		loose->free(loose);
		return td_error_set(err, TD_EGIT, "unable to add the loose objects of '%s'", dir);
	}
	return add_alternates(b, dir, depth, err);
}

int td_loose_odb_new(git_odb **out, td_loose_dirs_t *dirs, const char *objects_dir, td_error_t *err)
{
	td_loose_dirs_t own = { 0 };
	odb_build b;
	size_t len = strlen(objects_dir);
	char *dir;
	int rc;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	b.dirs = dirs ? dirs : &own;
	while (len > 1 && objects_dir[len - 1] == '/')
		len--;
	if (!(dir = td_strndup(objects_dir, len)))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	if (git_odb_new(&b.odb)) {
		free(dir);
		return td_error_set(err, TD_EGIT, "unable to create an object database: %s",
				    git_error_last() ? git_error_last()->message : "unknown libgit2 error");
	}
	rc = add_objects_dir(&b, dir, 0, err);
	free(dir);
	td_loose_dirs_release(&own);
	if (rc) {
		git_odb_free(b.odb);
		if (dirs)
			td_loose_dirs_release(dirs);
		return rc;
	}
	*out = b.odb;
	return TD_OK;
}
