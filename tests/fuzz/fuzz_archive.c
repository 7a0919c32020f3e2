/* libFuzzer target: the archive source (libarchive behind td_source_open)
 * on any file. List every member and digest each file's content, as a scan
 * does; a corrupt archive must end in an error code, never a crash, a hang
 * or a leak. Content reads stop after a bounded number of bytes so that a
 * small input that inflates to gigabytes does not time out. */
#include <stddef.h>
#include <stdint.h>

#include "treedrift/digest.h"
#include "treedrift/source.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define READ_LIMIT_BYTES (1u << 20)
#define MAX_ENTRIES 1000

typedef struct {
	td_digester_t *dg;
	size_t total;
} reader_t;

static int sink(void *ctx, const void *data, size_t len)
{
	reader_t *r = ctx;

	if (td_digester_update(r->dg, data, len))
		abort();
	r->total += len;
	return r->total > READ_LIMIT_BYTES;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[4200];
	td_source_opts_t opts = { 0 };
	td_source_t *src = NULL;
	reader_t rd = { NULL, 0 };
	td_error_t err;
	int rc;

	snprintf(spec, sizeof(spec), "archive:%s", fuzz_write_file(data, size, ".arc"));
	opts.keep_going = size & 1;
	opts.max_file_size = 1u << 24;
	if (td_source_open(&src, spec, &opts, &err))
		return 0;
	if (td_digester_new(&rd.dg))
		abort();
	for (int n = 0; n < MAX_ENTRIES; n++) {
		td_file_t f;
		const char *why = NULL;
		td_digest_t d;

		if ((rc = td_source_next(&f, src, &err)) <= 0)
			break;
		if (f.type == TD_ENTRY_FILE && !f.link_target) {
			rd.total = 0;
			td_digester_start(rd.dg, 1);
			if (!td_source_read(src, &f, sink, &rd, &why, &err) && !td_digester_finish(&d, rd.dg))
				td_digest_release(&d);
		}
		td_file_release(&f);
	}
	td_source_incomplete(src);
	td_digester_free(rd.dg);
	td_source_free(src);
	return 0;
}
