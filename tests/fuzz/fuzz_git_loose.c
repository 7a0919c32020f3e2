/* libFuzzer target: the loose git object check (lib/source/git_loose.c),
 * which stands between a third party's repository and libgit2. The first
 * byte picks the form: odd, the rest is zlib-compressed here first (so
 * that the fuzzer works on headers and bodies, not on the zlib format);
 * even, the rest is the file as it is. Each file is read for its header,
 * then whole; what reaches the body callback never exceeds the header's
 * size, and a read that succeeds gave exactly that many bytes. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <zlib.h>

#include "git_loose.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	td_loose_header_t h;
	uint64_t body;
	int stop_at_header;
} seen_t;

static int on_header(void *ctx, const td_loose_header_t *h)
{
	seen_t *s = ctx;

	s->h = *h;
	return s->stop_at_header;
}

static int on_body(void *ctx, const void *data, size_t len)
{
	seen_t *s = ctx;

	(void)data;
	s->body += len;
	if (s->body > s->h.size)
		abort(); /* more body than the header said */
	return 0;
}

static void check_file(const char *path)
{
	seen_t s = { { 0, 0 }, 0, 1 };
	td_error_t err;
	int fd, rc;

	for (int pass = 0; pass < 2; pass++) {
		if ((fd = open(path, O_RDONLY)) < 0)
			abort();
		s.body = 0;
		s.stop_at_header = pass == 0;
		rc = td_loose_inflate(fd, NULL, on_header, on_body, &s, &err);
		close(fd);
		if (pass == 1 && rc == 0 && s.body != s.h.size)
			abort(); /* accepted a body of another size */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uLongf zlen;
	unsigned char *z;

	if (!size)
		return 0;
	if (!(data[0] & 1)) {
		check_file(fuzz_write_file(data + 1, size - 1, ".obj"));
		return 0;
	}
	zlen = compressBound((uLong)(size - 1));
	if (!(z = malloc(zlen)))
		abort();
	if (compress(z, &zlen, data + 1, (uLong)(size - 1)) != Z_OK)
		abort();
	/* the second byte, when there is one, cuts the stream short */
	if (size > 1 && data[1] < zlen && (data[0] & 2))
		zlen = data[1];
	check_file(fuzz_write_file(z, zlen, ".obj"));
	free(z);
	return 0;
}
