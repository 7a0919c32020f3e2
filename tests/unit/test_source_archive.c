/* Archive source: archives of a small tree in several formats, a hostile
 * tar, truncated archives, and a `git archive` tarball checked against the
 * git source for the same tag. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "shell_fixture.h"
#include "source_impl.h"
#include "treedrift/source.h"

static char tmp[4096];

/* One listed entry and, for files with content, the bytes read. */
typedef struct item {
	td_file_t f;
	char *data;
	size_t len;
	int read_rc;
	const char *skip;
} item;

typedef struct listing {
	item *it;
	size_t n, cap;
	int end_rc;          /* what ended the listing: 0 or an error code */
	td_error_t err;      /* its message */
	size_t max_block;
} listing;

typedef struct sink_buf {
	char *data;
	size_t len, cap, max_block;
} sink_buf;

static int sink(void *ctx, const void *data, size_t len)
{
	sink_buf *b = ctx;

	if (b->len + len + 1 > b->cap) {
		b->cap = (b->len + len + 1) * 2;
		if (!(b->data = realloc(b->data, b->cap)))
			abort();
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	if (len > b->max_block)
		b->max_block = len;
	return 0;
}

/* List everything; read each file with content right after listing it. */
static void list_all(td_source_t *src, listing *l, int read_content)
{
	memset(l, 0, sizeof(*l));
	for (;;) {
		item *it;
		int rc;

		if (l->n == l->cap && !(l->it = realloc(l->it, (l->cap = l->cap ? l->cap * 2 : 64) * sizeof(*l->it))))
			abort();
		it = &l->it[l->n];
		memset(it, 0, sizeof(*it));
		rc = td_source_next(&it->f, src, &l->err);
		if (rc <= 0) {
			l->end_rc = rc;
			break;
		}
		l->n++;
		if (read_content && it->f.type == TD_ENTRY_FILE && !it->f.link_target) {
			sink_buf b = {0};
			td_error_t err = {0};

			it->read_rc = td_source_read(src, &it->f, sink, &b, &it->skip, &err);
			if (it->read_rc == TD_EARCHIVE) {
				/* the listing is over: keep what ended it */
				l->end_rc = it->read_rc;
				l->err = err;
				it->data = b.data;
				it->len = b.len;
				break;
			}
			it->data = b.data;
			it->len = b.len;
			if (b.max_block > l->max_block)
				l->max_block = b.max_block;
		}
	}
}

static void listing_free(listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		td_file_release(&l->it[i].f);
		free(l->it[i].data);
	}
	free(l->it);
}

static const item *find(const listing *l, const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < l->n; i++)
		if (l->it[i].f.path_len == len && !memcmp(l->it[i].f.path, path, len))
			return &l->it[i];
	return NULL;
}

static td_source_t *open_ok(const char *spec, const td_source_opts_t *opts)
{
	td_source_t *src = NULL;
	td_error_t err = {0};
	int rc = td_source_open(&src, spec, opts, &err);

	if (rc)
		fprintf(stderr, "open '%s': %s\n", spec, err.msg);
	CHECK_INT(rc, 0);
	return src;
}

static const char *const tree_files[] = {
	"a.txt", "sub/b.txt", "sub/deeper/c.txt", "exec.sh", "big.txt", "empty",
	"name with space", "a-hard", NULL
};

static int build_tree(void)
{
	return sh(fmt("set -e; cd '%s'; mkdir -p tree/top/sub/deeper; cd tree/top; "
		      "printf 'alpha\\n' > a.txt; printf 'bravo\\n' > sub/b.txt; "
		      "printf 'charlie\\n' > sub/deeper/c.txt; "
		      "printf '#!/bin/sh\\necho hi\\n' > exec.sh; chmod 755 exec.sh; "
		      "awk 'BEGIN { for (i = 0; i < 50000; i++) printf \"row %%d of a big file\\n\", i }' > big.txt; "
		      ": > empty; printf 'sp\\n' > 'name with space'; "
		      "ln a.txt a-hard; ln -s a.txt link; "
		      "cd '%s'; "
		      "tar cf t.tar -C tree top; tar czf t.tar.gz -C tree top; tar cJf t.tar.xz -C tree top; "
		      "tar --zstd -cf t.tar.zst -C tree top; tar cjf t.tar.bz2 -C tree top; "
		      "cp t.tar.xz t-noext; (cd tree && zip -qry ../t.zip top)",
		      tmp, tmp));
}

/* The tree's archives, in each format, with and without strip_components. */
static void check_tree_listing(const char *spec_arg, unsigned strip)
{
	td_source_opts_t opts = {0};
	char spec[4400];
	const char *prefix = strip ? "" : "top/";
	td_source_t *src;
	listing l;
	size_t n_files = 0, n_read = 0;

	snprintf(spec, sizeof(spec), "%s", spec_arg); /* fmt() buffers get reused */
	opts.strip_components = strip;
	if (!(src = open_ok(spec, &opts)))
		return;
	CHECK_STR(td_source_kind(src), "archive");
	CHECK_INT(td_source_random_access(src), 0);
	list_all(src, &l, 1);
	CHECK_INT(l.end_rc, 0);
	CHECK_INT(td_source_incomplete(src), 0);
	CHECK(td_source_incomplete_reason(src) == NULL);
	CHECK(l.max_block <= TD_READ_BLOCK_BYTES);
	for (int i = 0; tree_files[i]; i++) {
		const item *it = find(&l, fmt("%s%s", prefix, tree_files[i]));
		size_t want_len;
		char *want;

		CHECK(it != NULL);
		if (!it) {
			fprintf(stderr, "%s: missing %s%s\n", spec, prefix, tree_files[i]);
			continue;
		}
		n_files++;
		CHECK_INT(it->f.type, TD_ENTRY_FILE);
		CHECK_INT(it->f.mode, strcmp(tree_files[i], "exec.sh") ? 0100644 : 0100755);
		CHECK_INT(it->f.mtime_ns, 0);
		CHECK_INT(it->f.ino, 0);
		want = slurp(fmt("%s/tree/top/%s", tmp, tree_files[i]), &want_len);
		if (it->f.link_target) {
			/* a hard link: its target is a file listed with content */
			const item *t = find(&l, it->f.link_target);
			CHECK(t && t->f.type == TD_ENTRY_FILE && !t->f.link_target);
			CHECK_INT(it->f.size_bytes, 0);
			CHECK(t && t->len == want_len && !memcmp(t->data, want, want_len));
		} else {
			n_read++;
			CHECK_INT(it->read_rc, 0);
			CHECK_INT(it->f.size_bytes, want_len);
			CHECK_INT(it->len, want_len);
			CHECK(it->len == want_len && (!want_len || !memcmp(it->data, want, want_len)));
		}
		free(want);
	}
	{
		const item *it = find(&l, fmt("%slink", prefix));
		CHECK(it && it->f.type == TD_ENTRY_SYMLINK && it->f.mode == 0120000);
		CHECK(it && it->f.link_target && !strcmp(it->f.link_target, "a.txt"));
		CHECK(it && it->f.skip_detail == NULL);
		n_files++;
	}
	/* no directories, nothing else */
	CHECK_INT(l.n, n_files);
	CHECK(find(&l, "top") == NULL && find(&l, "top/sub") == NULL && find(&l, "sub") == NULL);
	/* the files with content of their own: a tar has one hard link */
	CHECK_INT(td_source_blobs_read(src), n_read);
	CHECK(n_read == 7 || n_read == 8);
	listing_free(&l);
	td_source_free(src);
}

static void test_formats(void)
{
	static const char *const names[] = {
		"t.tar", "t.tar.gz", "t.tar.xz", "t.tar.zst", "t.tar.bz2", "t.zip", NULL
	};

	for (int i = 0; names[i]; i++) {
		char path[4400];
		td_source_t *src;

		snprintf(path, sizeof(path), "%s/%s", tmp, names[i]);
		check_tree_listing(path, 0);
		check_tree_listing(path, 1);
		if ((src = open_ok(path, NULL))) {
			CHECK_STR(td_source_root(src), path);
			td_source_free(src);
		}
	}
	/* Any name with the "archive:" prefix. */
	check_tree_listing(fmt("archive:%s/t-noext", tmp), 1);
}

static void test_strip_two(void)
{
	td_source_opts_t opts = {0};
	td_source_t *src;
	listing l;

	opts.strip_components = 2;
	if (!(src = open_ok(fmt("%s/t.tar.gz", tmp), &opts)))
		return;
	list_all(src, &l, 1);
	CHECK_INT(l.end_rc, 0);
	/* "top/a.txt" has two parts: dropped; deeper ones lose two. */
	CHECK_INT(l.n, 2);
	CHECK(find(&l, "b.txt") != NULL);
	CHECK(find(&l, "deeper/c.txt") != NULL);
	listing_free(&l);
	td_source_free(src);
}

static void test_max_file_size(void)
{
	td_source_opts_t opts = {0};
	td_source_t *src;
	const item *it;
	listing l;

	opts.strip_components = 1;
	opts.max_file_size = 100;
	if (!(src = open_ok(fmt("%s/t.tar.xz", tmp), &opts)))
		return;
	list_all(src, &l, 1);
	it = find(&l, "big.txt");
	CHECK(it && it->f.type == TD_ENTRY_SKIPPED && !strcmp(it->f.skip_reason, TD_SKIP_TOO_LARGE));
	CHECK(it && it->f.size_bytes > 100);
	it = find(&l, "a.txt");
	CHECK(it && (it->f.type == TD_ENTRY_FILE));
	listing_free(&l);
	td_source_free(src);
}

static int build_hostile(void)
{
	FILE *py = popen(fmt("cd '%s' && python3 -", tmp), "w");

	if (!py)
		return -1;
	fputs("import tarfile, io\n"
	      "t = tarfile.open('hostile.tar', 'w', format=tarfile.PAX_FORMAT)\n"
	      "def add(name, data=b'', **kw):\n"
	      "    ti = tarfile.TarInfo(name)\n"
	      "    for k, v in kw.items(): setattr(ti, k, v)\n"
	      "    if ti.type == tarfile.REGTYPE:\n"
	      "        ti.size = len(data)\n"
	      "        t.addfile(ti, io.BytesIO(data))\n"
	      "    else:\n"
	      "        t.addfile(ti)\n"
	      "add('ok.txt', b'fine\\n')\n"
	      "add('../evil', b'evil\\n')\n"
	      "add('/abs', b'abs\\n')\n"
	      "add('a/../../up', b'up\\n')\n"
	      "add('hl-passwd', type=tarfile.LNKTYPE, linkname='../../etc/passwd')\n"
	      "add('hl-abs', type=tarfile.LNKTYPE, linkname='/etc/passwd')\n"
	      "add('sl-passwd', type=tarfile.SYMTYPE, linkname='/etc/passwd')\n"
	      "add('sl-up', type=tarfile.SYMTYPE, linkname='../../x')\n"
	      "add('inner/sl-ok', type=tarfile.SYMTYPE, linkname='../ok.txt')\n"
	      "add('inner/sl-out', type=tarfile.SYMTYPE, linkname='../../ok.txt')\n"
	      "add('ok.txt', b'second\\n')\n"
	      "add('hl-ok', type=tarfile.LNKTYPE, linkname='ok.txt')\n"
	      "add('hl-chain', type=tarfile.LNKTYPE, linkname='hl-ok')\n"
	      "add('hl-missing', type=tarfile.LNKTYPE, linkname='nothere')\n"
	      "add('hl-to-link', type=tarfile.LNKTYPE, linkname='sl-passwd')\n"
	      "add('fifo', type=tarfile.FIFOTYPE)\n"
	      "add('chr', type=tarfile.CHRTYPE, devmajor=1, devminor=3)\n"
	      "add('blk', type=tarfile.BLKTYPE, devmajor=8, devminor=0)\n"
	      "add('./dot/./slash//x.txt', b'x\\n')\n"
	      "add('caf\\u00e9.txt', b'utf8\\n')\n"
	      "add('dir', type=tarfile.DIRTYPE)\n"
	      "t.close()\n", py);
	return pclose(py);
}

static void check_skip(const listing *l, const char *path, const char *reason, const char *detail)
{
	const item *it = find(l, path);

	CHECK(it != NULL);
	if (!it) {
		fprintf(stderr, "missing '%s'\n", path);
		return;
	}
	CHECK_INT(it->f.type, TD_ENTRY_SKIPPED);
	CHECK_STR(it->f.skip_reason, reason);
	if (detail)
		CHECK_STR(it->f.skip_detail, detail);
}

static void check_symlink(const listing *l, const char *path, const char *target, int outside)
{
	const item *it = find(l, path);

	CHECK(it && it->f.type == TD_ENTRY_SYMLINK);
	if (!it)
		return;
	CHECK_STR(it->f.link_target, target);
	CHECK_INT(it->f.link_len, strlen(target));
	if (outside)
		CHECK_STR(it->f.skip_detail, "points outside the tree");
	else
		CHECK(it->f.skip_detail == NULL);
}

static void test_hostile(void)
{
	td_source_t *src;
	const item *it;
	listing l;
	size_t n_ok = 0;

	if (build_hostile()) {
		CHECK(!"hostile fixture");
		return;
	}
	if (!(src = open_ok(fmt("%s/hostile.tar", tmp), NULL)))
		return;
	list_all(src, &l, 1);
	CHECK_INT(l.end_rc, 0);

	it = find(&l, "ok.txt");
	CHECK(it && it->f.type == TD_ENTRY_FILE && it->len == 5 && !memcmp(it->data, "fine\n", 5));
	for (size_t i = 0; i < l.n; i++)
		n_ok += l.it[i].f.path_len == 6 && !memcmp(l.it[i].f.path, "ok.txt", 6);
	CHECK_INT(n_ok, 2);
	CHECK(l.n > 10 && l.it[10].f.type == TD_ENTRY_SKIPPED && !strcmp(l.it[10].f.path, "ok.txt") &&
	      !strcmp(l.it[10].f.skip_reason, TD_SKIP_DUPLICATE));

	check_skip(&l, "../evil", TD_SKIP_UNSAFE_PATH, "../evil");
	check_skip(&l, "abs", TD_SKIP_UNSAFE_PATH, "/abs");
	check_skip(&l, "a/../../up", TD_SKIP_UNSAFE_PATH, "a/../../up");
	check_skip(&l, "hl-passwd", TD_SKIP_LINK_ESCAPE, "../../etc/passwd");
	check_skip(&l, "hl-abs", TD_SKIP_LINK_ESCAPE, "/etc/passwd");
	check_skip(&l, "hl-missing", TD_SKIP_LINK_ESCAPE, "nothere");
	check_skip(&l, "hl-to-link", TD_SKIP_LINK_ESCAPE, "sl-passwd");
	check_skip(&l, "fifo", TD_SKIP_FIFO, NULL);
	check_skip(&l, "chr", TD_SKIP_DEVICE, NULL);
	check_skip(&l, "blk", TD_SKIP_DEVICE, NULL);
	check_symlink(&l, "sl-passwd", "/etc/passwd", 1);
	check_symlink(&l, "sl-up", "../../x", 1);
	check_symlink(&l, "inner/sl-ok", "../ok.txt", 0);
	check_symlink(&l, "inner/sl-out", "../../ok.txt", 1);

	/* Hard links to a file listed earlier share its content. */
	it = find(&l, "hl-ok");
	CHECK(it && it->f.type == TD_ENTRY_FILE && it->f.link_target && !strcmp(it->f.link_target, "ok.txt"));
	CHECK(it && it->f.size_bytes == 0 && it->data == NULL);
	it = find(&l, "hl-chain");
	CHECK(it && it->f.type == TD_ENTRY_FILE && it->f.link_target && !strcmp(it->f.link_target, "ok.txt"));

	it = find(&l, "dot/slash/x.txt");
	CHECK(it && it->f.type == TD_ENTRY_FILE && it->len == 2 && !memcmp(it->data, "x\n", 2));
	it = find(&l, "caf\xc3\xa9.txt");
	CHECK(it && it->f.type == TD_ENTRY_FILE && it->len == 5);
	CHECK(find(&l, "dir") == NULL);
	/* Skipped members and links were never read. */
	CHECK_INT(td_source_blobs_read(src), 3);
	listing_free(&l);
	td_source_free(src);
}

/* read() is only valid for the entry just listed, and not for hard links. */
static void test_read_contract(void)
{
	td_source_t *src = open_ok(fmt("%s/hostile.tar", tmp), NULL);
	td_file_t first = {0}, f = {0};
	td_error_t err = {0};
	const char *skip;
	sink_buf b = {0};
	int rc;

	if (!src)
		return;
	CHECK_INT(td_source_next(&first, src, &err), 1);
	CHECK_STR(first.path, "ok.txt");
	CHECK_INT(td_source_next(&f, src, &err), 1);
	CHECK_INT(td_source_read(src, &first, sink, &b, &skip, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "right after") != NULL);
	td_file_release(&f);
	while ((rc = td_source_next(&f, src, &err)) > 0) {
		if (f.link_target && f.type == TD_ENTRY_FILE) {
			CHECK_INT(td_source_read(src, &f, sink, &b, &skip, &err), TD_EINVAL);
			CHECK(strstr(err.msg, "hard link") != NULL);
		}
		td_file_release(&f);
	}
	CHECK_INT(rc, 0);
	CHECK_INT(b.len, 0);
	free(b.data);
	td_file_release(&first);
	td_source_free(src);
}

static int build_truncated(void)
{
	return sh(fmt("set -e; cd '%s'; mkdir -p many/top; "
		      "for i in $(seq 1 120); do head -c 3000 /dev/urandom | od -An -tx1 > many/top/f$i.txt; done; "
		      "tar cJf many.tar.xz -C many top; "
		      "head -c $(( $(stat -c %%s many.tar.xz) / 2 )) many.tar.xz > cut.tar.xz; "
		      "tar czf many.tar.gz -C many top; "
		      "head -c $(( $(stat -c %%s many.tar.gz) / 2 )) many.tar.gz > cut.tar.gz",
		      tmp));
}

static void check_items_intact(const listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const item *it = &l->it[i];
		size_t want_len;
		char *want;

		if (it->f.type != TD_ENTRY_FILE || it->read_rc)
			continue;
		want = slurp(fmt("%s/many/%s", tmp, it->f.path), &want_len);
		CHECK(it->len == want_len && !memcmp(it->data, want, want_len));
		free(want);
	}
}

static void test_truncated(void)
{
	td_source_opts_t opts = {0};
	char cut[4400];
	td_source_t *src;
	listing l;
	size_t unreadable = 0;

	snprintf(cut, sizeof(cut), "%s/cut.tar.xz", tmp);
	if (build_truncated()) {
		CHECK(!"truncated fixture");
		return;
	}
	/* Without keep_going: a clear error, never a short listing. */
	if ((src = open_ok(cut, NULL))) {
		list_all(src, &l, 1);
		CHECK_INT(l.end_rc, TD_EARCHIVE);
		CHECK(strstr(l.err.msg, "cut.tar.xz") != NULL);
		/* libarchive's own words follow: "Truncated input file",
		 * "Lzma library error", ... depending on where the cut falls */
		CHECK(strstr(l.err.msg, "cut.tar.xz': ") && strlen(strstr(l.err.msg, "cut.tar.xz': ")) > 16);
		CHECK(l.n > 10 && l.n < 120);
		CHECK_INT(td_source_incomplete(src), 0);
		check_items_intact(&l);
		listing_free(&l);
		td_source_free(src);
	}
	/* Listing alone (the data is skipped, still decompressed) fails too. */
	if ((src = open_ok(fmt("%s/cut.tar.gz", tmp), NULL))) {
		td_error_t err = {0};
		td_file_t f;
		int rc;

		while ((rc = td_source_next(&f, src, &err)) > 0)
			td_file_release(&f);
		CHECK_INT(rc, TD_EARCHIVE);
		CHECK(strstr(err.msg, "cut.tar.gz") != NULL);
		/* and keeps failing */
		CHECK_INT(td_source_next(&f, src, &err), TD_EARCHIVE);
		td_source_free(src);
	}
	/* With keep_going: what was read, marked incomplete. */
	opts.keep_going = 1;
	if ((src = open_ok(cut, &opts))) {
		list_all(src, &l, 1);
		CHECK_INT(l.end_rc, 0);
		CHECK_INT(td_source_incomplete(src), 1);
		CHECK(td_source_incomplete_reason(src) && strstr(td_source_incomplete_reason(src), "cut.tar.xz"));
		CHECK(l.n > 10 && l.n < 120);
		for (size_t i = 0; i < l.n; i++) {
			if (l.it[i].read_rc) {
				CHECK_INT(l.it[i].read_rc, TD_EIO);
				CHECK_STR(l.it[i].skip, TD_SKIP_UNREADABLE);
				unreadable++;
			}
		}
		CHECK(unreadable <= 1);
		check_items_intact(&l);
		listing_free(&l);
		td_source_free(src);
	}
}

static void expect_open_error(const char *spec, int code, const char *needle)
{
	td_source_t *src = (td_source_t *)1;
	td_error_t err = {0};

	CHECK_INT(td_source_open(&src, spec, NULL, &err), code);
	CHECK(src == NULL);
	if (needle && !strstr(err.msg, needle)) {
		CHECK(!"message lacks the expected text");
		fprintf(stderr, "  '%s' not in \"%s\"\n", needle, err.msg);
	}
}

static void test_errors(void)
{
	sh(fmt("cd '%s' && printf 'just some text\\n' > notes.txt && "
	       "head -c 4096 /dev/urandom > junk.tar.gz && printf 'hello' | gzip > text.gz", tmp));
	expect_open_error(fmt("archive:%s/notes.txt", tmp), TD_EFORMAT, "notes.txt");
	expect_open_error(fmt("archive:%s/notes.txt", tmp), TD_EFORMAT, "Unrecognized archive format");
	expect_open_error(fmt("%s/junk.tar.gz", tmp), TD_EFORMAT, "junk.tar.gz");
	expect_open_error(fmt("archive:%s/text.gz", tmp), TD_EFORMAT, "not an archive");
	expect_open_error(fmt("%s/nothere.tar", tmp), TD_ENOTFOUND, "nothere.tar");
	expect_open_error(fmt("archive:%s/tree", tmp), TD_EINVAL, "directory");
}

static void test_empty_and_sparse(void)
{
	td_source_t *src;
	listing l;

	if (sh(fmt("set -e; cd '%s'; tar cf empty.tar --files-from /dev/null; : > zero.tar; "
		   ": | gzip > nothing.tar.gz; gzip < empty.tar > empty.tar.gz; "
		   "mkdir sp; truncate -s 3M sp/holes.bin; "
		   "printf 'middle' | dd of=sp/holes.bin bs=1 seek=1000000 conv=notrunc 2>/dev/null; "
		   "tar --sparse -cf sparse.tar -C sp holes.bin", tmp)))
		return;
	if ((src = open_ok(fmt("%s/empty.tar", tmp), NULL))) {
		list_all(src, &l, 1);
		CHECK_INT(l.end_rc, 0);
		CHECK_INT(l.n, 0);
		listing_free(&l);
		td_source_free(src);
	}
	if ((src = open_ok(fmt("%s/empty.tar.gz", tmp), NULL))) {
		list_all(src, &l, 1);
		CHECK_INT(l.end_rc, 0);
		CHECK_INT(l.n, 0);
		listing_free(&l);
		td_source_free(src);
	}
	/* no archive data at all: an error, not an empty tree */
	expect_open_error(fmt("%s/zero.tar", tmp), TD_EFORMAT, "is empty");
	expect_open_error(fmt("%s/nothing.tar.gz", tmp), TD_EFORMAT, "is empty");
	/* Holes come back as zeros, a trailing one too. */
	if ((src = open_ok(fmt("%s/sparse.tar", tmp), NULL))) {
		size_t want_len;
		char *want = slurp(fmt("%s/sp/holes.bin", tmp), &want_len);

		list_all(src, &l, 1);
		CHECK_INT(l.end_rc, 0);
		CHECK_INT(l.n, 1);
		CHECK_INT(want_len, 3 * 1024 * 1024);
		CHECK(l.n == 1 && l.it[0].len == want_len && !memcmp(l.it[0].data, want, want_len));
		free(want);
		listing_free(&l);
		td_source_free(src);
	}
}

/* A sparse member whose map reaches far past the size its header gives:
 * 10 KiB of tar that would feed 20 GiB of zeros. It is turned down before
 * any hole is fed. */
static void test_sparse_map_past_size(void)
{
	td_source_opts_t opts = {0};
	td_source_t *src;
	listing l;

	if (sh(fmt("set -e; cd '%s'; python3 - <<'EOF'\n"
		   "import io, tarfile\n"
		   "def member(t, name, realsize, off, n):\n"
		   "    m = b'1\\n%%d\\n%%d\\n' %% (off, n)\n"
		   "    data = m + b'\\0' * (512 - len(m)) + b'X' * n\n"
		   "    i = tarfile.TarInfo('GNUSparseFile.0/' + name); i.size = len(data)\n"
		   "    i.pax_headers = {'GNU.sparse.major': '1', 'GNU.sparse.minor': '0',\n"
		   "                     'GNU.sparse.name': name, 'GNU.sparse.realsize': str(realsize)}\n"
		   "    t.addfile(i, io.BytesIO(data))\n"
		   "t = tarfile.open('bomb.tar', 'w', format=tarfile.PAX_FORMAT)\n"
		   "member(t, 'holes.bin', 1000, 20 << 30, 10)\n"
		   "member(t, 'fine.bin', 2400, 1000, 1000)\n"
		   "t.close()\n"
		   "EOF", tmp)))
		return;
	opts.max_file_size = 2500;
	if (!(src = open_ok(fmt("%s/bomb.tar", tmp), &opts)))
		return;
	list_all(src, &l, 1);
	CHECK_INT(l.end_rc, 0);
	CHECK_INT(l.n, 2);
	if (l.n == 2) {
		CHECK_STR(l.it[0].f.path, "holes.bin");
		CHECK_INT(l.it[0].read_rc, TD_EIO);
		CHECK(l.it[0].skip && !strcmp(l.it[0].skip, TD_SKIP_UNREADABLE));
		CHECK(l.it[0].len <= 1000);
		/* a sound sparse member: holes as zeros, a trailing one too */
		CHECK_STR(l.it[1].f.path, "fine.bin");
		CHECK_INT(l.it[1].read_rc, 0);
		CHECK_INT(l.it[1].len, 2400);
		CHECK(l.it[1].len == 2400 && l.it[1].data[999] == 0 && l.it[1].data[1000] == 'X' &&
		      l.it[1].data[1999] == 'X' && l.it[1].data[2000] == 0 && l.it[1].data[2399] == 0);
	}
	listing_free(&l);
	td_source_free(src);
}

/* `git archive --prefix=top/ TAG` holds, after strip_components=1, what the
 * git source lists for TAG (gitlinks aside: git archive leaves them out). */
static void test_git_archive_matches_git_source(void)
{
	td_source_opts_t opts = {0};
	td_source_t *gsrc, *asrc;
	listing gl, al;
	size_t n_git = 0;

	if (sh(fmt("set -e; cd '%s'; G='git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main'; "
		   "export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent; "
		   "$G init -q g; cd g; mkdir -p src/deep; printf 'one\\n' > README; "
		   "printf 'int x;\\n' > src/x.c; printf 'deep\\n' > src/deep/d.txt; "
		   "printf '#!/bin/sh\\n' > run.sh; chmod +x run.sh; ln -s src/x.c lnk; cp ../tree/top/big.txt .; "
		   "$G add -A; $G update-index --add --cacheinfo 160000,1234567890abcdef1234567890abcdef12345678,sub; "
		   "$G commit -q -m v1; $G tag v1; printf 'two\\n' >> README; $G commit -q -a -m v2; $G tag v2; "
		   "$G archive --format=tar --prefix=top/ v2 | xz > ../g-v2.tar.xz", tmp)))
		return;
	opts.strip_components = 1;
	gsrc = open_ok(fmt("git:%s/g@v2", tmp), NULL);
	asrc = open_ok(fmt("%s/g-v2.tar.xz", tmp), &opts);
	if (!gsrc || !asrc)
		goto out;
	/* the git source is random-access: read after listing, any order */
	list_all(gsrc, &gl, 1);
	list_all(asrc, &al, 1);
	CHECK_INT(gl.end_rc, 0);
	CHECK_INT(al.end_rc, 0);
	for (size_t i = 0; i < gl.n; i++) {
		const item *g = &gl.it[i], *a;

		if (g->f.type == TD_ENTRY_GITLINK)
			continue;
		n_git++;
		a = find(&al, g->f.path);
		CHECK(a != NULL);
		if (!a) {
			fprintf(stderr, "not in the archive: %s\n", g->f.path);
			continue;
		}
		CHECK_INT(a->f.type, g->f.type);
		CHECK_INT(a->f.mode, g->f.mode);
		CHECK_INT(a->f.size_bytes, g->f.size_bytes);
		CHECK_INT(a->f.link_len, g->f.link_len);
		CHECK(a->f.link_len == g->f.link_len &&
		      (!a->f.link_len || !memcmp(a->f.link_target, g->f.link_target, a->f.link_len)));
		CHECK_INT(a->len, g->len);
		CHECK(a->len == g->len && (!a->len || !memcmp(a->data, g->data, a->len)));
	}
	CHECK_INT(al.n, n_git);
	CHECK(n_git >= 6);
	listing_free(&gl);
	listing_free(&al);
out:
	td_source_free(gsrc);
	td_source_free(asrc);
}

int main(void)
{
	check_tmpdir(tmp, sizeof(tmp), "arc");
	if (build_tree()) {
		CHECK(!"fixture");
	} else {
		test_formats();
		test_strip_two();
		test_max_file_size();
		test_hostile();
		test_read_contract();
		test_truncated();
		test_errors();
		test_empty_and_sparse();
		test_sparse_map_past_size();
		test_git_archive_matches_git_source();
	}
	sh(fmt("rm -rf '%s'", tmp));
	return check_finish();
}
