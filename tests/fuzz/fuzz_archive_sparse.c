/* libFuzzer target: the sparse-map path of the archive source. The input
 * becomes one PAX tar member in GNU sparse format 1.0: the first four
 * bytes give GNU.sparse.realsize (up to 16 MiB), the rest is the member's
 * data as stored, the map text ("COUNT\nOFFSET\nSIZE\n...", padded to 512
 * bytes) then the data blocks. Whatever the map says, a member never gives
 * more bytes than its size, and a hostile map ends in a skip, not in
 * gigabytes of zeros. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "treedrift/source.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TAR_BLOCK 512
#define MAX_DATA (64 * 1024)
#define MAX_REALSIZE (16u << 20)

static size_t pad(size_t n)
{
	return (n + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

/* A ustar header for name, typeflag, size, with its checksum. */
static void header(unsigned char *h, const char *name, char type, size_t size)
{
	unsigned sum = 0;

	memset(h, 0, TAR_BLOCK);
	snprintf((char *)h, 100, "%s", name);
	memcpy(h + 100, "0000644", 8);
	memcpy(h + 108, "0000000", 8);
	memcpy(h + 116, "0000000", 8);
	snprintf((char *)h + 124, 12, "%011zo", size);
	memcpy(h + 136, "00000000000", 12);
	memset(h + 148, ' ', 8);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	for (int i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

/* One PAX record: "LEN key=value\n", LEN counting itself. */
static size_t record(char *out, const char *kv)
{
	size_t n = strlen(kv) + 3, len;

	for (;;) {
		len = (size_t)snprintf(NULL, 0, "%zu %s\n", n, kv);
		if (len == n)
			break;
		n = len;
	}
	return (size_t)sprintf(out, "%zu %s\n", n, kv);
}

typedef struct {
	uint64_t total;
} count_t;

static int sink(void *ctx, const void *buf, size_t len)
{
	(void)buf;
	((count_t *)ctx)->total += len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char tar[3 * TAR_BLOCK + MAX_DATA + 2 * TAR_BLOCK + TAR_BLOCK];
	char pax[512], kv[64], spec[4200];
	uint32_t realsize;
	size_t n = 0, plen = 0, dlen;
	td_source_opts_t opts = { 0 };
	td_source_t *src = NULL;
	td_error_t err;
	td_file_t f;

	if (size < 4 || size - 4 > MAX_DATA)
		return 0;
	realsize = ((uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
		    (uint32_t)data[3] << 24) % (MAX_REALSIZE + 1);
	dlen = size - 4;
	plen += record(pax + plen, "GNU.sparse.major=1");
	plen += record(pax + plen, "GNU.sparse.minor=0");
	plen += record(pax + plen, "GNU.sparse.name=holes.bin");
	snprintf(kv, sizeof(kv), "GNU.sparse.realsize=%u", (unsigned)realsize);
	plen += record(pax + plen, kv);
	memset(tar, 0, sizeof(tar));
	header(tar, "PaxHeaders/holes.bin", 'x', plen);
	n += TAR_BLOCK;
	memcpy(tar + n, pax, plen);
	n += pad(plen);
	header(tar + n, "GNUSparseFile.0/holes.bin", '0', dlen);
	n += TAR_BLOCK;
	memcpy(tar + n, data + 4, dlen);
	n += pad(dlen) + 2 * TAR_BLOCK;

	snprintf(spec, sizeof(spec), "archive:%s", fuzz_write_file(tar, n, ".tar"));
	opts.max_file_size = MAX_REALSIZE;
	if (td_source_open(&src, spec, &opts, &err))
		return 0;
	while (td_source_next(&f, src, &err) > 0) {
		if (f.type == TD_ENTRY_FILE && !f.link_target) {
			count_t c = { 0 };
			const char *why = NULL;

			if (!td_source_read(src, &f, sink, &c, &why, &err) && c.total != f.size_bytes)
				abort(); /* a member read whole gives its size */
			if (c.total > f.size_bytes)
				abort(); /* never more than its size */
		}
		td_file_release(&f);
	}
	td_source_free(src);
	return 0;
}
