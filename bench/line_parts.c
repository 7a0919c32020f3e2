/* Time the per-file parts of copy verification alone, on real files.
 *
 *   line_parts LIST [ROUNDS]
 *
 * LIST names one file a line (`find TREE -type f -size -2M > LIST`); each
 * is read into memory once. Then, ROUNDS times (default 3), every file goes
 * through what a candidate pair makes of each side (lib/match/similar.h):
 * its line count, its line bag without and with the hash table, and its
 * identifier segments for the rename detection. Prints, per part, the
 * fastest round's thread CPU time, the throughput and a hash of what it
 * made, which must not change with the build. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linediff.h"
#include "similar.h"

typedef struct files {
	char **buf;
	size_t *len;
	size_t n, cap, bytes;
} files_t;

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

/* Reads the file at path into fs; a file that cannot be read is left out. */
static int add(files_t *fs, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)size + 1)))
		goto out;
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? 2 * fs->cap : 4096;
		char **b = realloc(fs->buf, cap * sizeof(*b));
		size_t *l = b ? realloc(fs->len, cap * sizeof(*l)) : NULL;
		if (b)
			fs->buf = b;
		if (!l) {
			fclose(f);
			free(buf);
			return -1;
		}
		fs->len = l;
		fs->cap = cap;
	}
	fs->len[fs->n] = fread(buf, 1, (size_t)size, f);
	fs->bytes += fs->len[fs->n];
	fs->buf[fs->n++] = buf;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return 0;
}

/* One part of a pair's side, made of file i: returns a hash of what it made. */
typedef uint64_t part_fn(const char *buf, size_t len);

static uint64_t part_lines(const char *buf, size_t len)
{
	return (uint64_t)td_line_count(buf, len);
}

static uint64_t bag(const char *buf, size_t len, int table)
{
	td_linebag_t b;
	uint64_t h = 0;

	if (td_linebag_init(&b, buf, len, table))
		return 0;
	for (size_t i = 0; i < b.n; i++)
		h += b.hash[i];
	td_linebag_release(&b);
	return mix(h, b.n);
}

static uint64_t part_bag(const char *buf, size_t len)
{
	return bag(buf, len, 0);
}

static uint64_t part_bag_table(const char *buf, size_t len)
{
	return bag(buf, len, 1);
}

static uint64_t part_segments(const char *buf, size_t len)
{
	td_segments_t s;
	uint64_t h;

	if (td_segments_init(&s, buf, len))
		return 0;
	h = mix(s.n, s.frequent);
	td_segments_release(&s);
	return h;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		part_fn *fn;
	} parts[] = { { "line count", part_lines },
		      { "line bag", part_bag },
		      { "line bag and table", part_bag_table },
		      { "identifier segments", part_segments } };
	files_t fs = { 0 };
	char path[4096];
	int rounds = argc > 2 ? atoi(argv[2]) : 3, rc = 1;
	FILE *list;

	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: line_parts LIST [ROUNDS]\n");
		return 2;
	}
	if (!(list = fopen(argv[1], "r"))) {
		fprintf(stderr, "line_parts: unable to open '%s'\n", argv[1]);
		return 2;
	}
	while (fgets(path, sizeof(path), list)) {
		path[strcspn(path, "\n")] = '\0';
		if (add(&fs, path)) {
			fprintf(stderr, "line_parts: out of memory\n");
			goto out;
		}
	}
	printf("%zu files, %zu bytes\n", fs.n, fs.bytes);
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
		double best = 0;
		uint64_t answer = 0;
		for (int r = 0; r < rounds; r++) {
			double t0 = cpu_seconds(), t;
			uint64_t h = 0;
			for (size_t i = 0; i < fs.n; i++)
				h = mix(h, parts[p].fn(fs.buf[i], fs.len[i]));
			t = cpu_seconds() - t0;
			if (!r || t < best)
				best = t;
			answer = h;
		}
		printf("%-20s fastest of %d rounds %.3f s, %.0f MB/s; made %016llx\n", parts[p].name, rounds, best,
		       best > 0 ? (double)fs.bytes / best / 1e6 : 0.0, (unsigned long long)answer);
	}
	rc = 0;
out:
	fclose(list);
	for (size_t i = 0; i < fs.n; i++)
		free(fs.buf[i]);
	free(fs.buf);
	free(fs.len);
	return rc;
}
