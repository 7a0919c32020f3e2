/* libFuzzer target: TLSH digest parsing, formatting and distance. The input
 * is two digest texts split at the first NUL (or halves when there is none);
 * each parsed digest must format back to text that parses to the same digest,
 * and the distance must be symmetric, zero to itself, and agree with the
 * bounded distance. The input is also hashed as content. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/tlsh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse_roundtrip(td_tlsh_t *out, const char *text, size_t len)
{
	char hex[TD_TLSH_HEX_CHARS + 1];
	td_tlsh_t again;

	if (td_tlsh_parse(out, text, len))
		return -1;
	td_tlsh_format(hex, out);
	if (td_tlsh_parse(&again, hex, strlen(hex)) || memcmp(&again, out, sizeof(again)))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const uint8_t *nul = memchr(data, 0, size);
	size_t alen = nul ? (size_t)(nul - data) : size / 2;
	const char *b = text + alen + (nul ? 1 : 0);
	size_t blen = size - alen - (nul ? 1 : 0);
	td_tlsh_t x, y, h;

	if (!parse_roundtrip(&x, text, alen)) {
		for (int xlen = 0; xlen <= 1; xlen++)
			if (td_tlsh_distance(&x, &x, xlen) != 0)
				abort();
		if (!parse_roundtrip(&y, b, blen)) {
			for (int xlen = 0; xlen <= 1; xlen++) {
				int d = td_tlsh_distance(&x, &y, xlen);

				if (d < 0 || d != td_tlsh_distance(&y, &x, xlen))
					abort();
				if (td_tlsh_distance_bounded(&x, &y, xlen, d) != d)
					abort();
				if (d > 0 && td_tlsh_distance_bounded(&x, &y, xlen, d - 1) <= d - 1)
					abort();
			}
		}
	}
	if (td_tlsh_hash(&h, data, size) == TD_TLSH_OK) {
		char hex[TD_TLSH_HEX_CHARS + 1];
		td_tlsh_t again;

		td_tlsh_format(hex, &h);
		if (td_tlsh_parse(&again, hex, strlen(hex)) || memcmp(&again, &h, sizeof(h)))
			abort();
	}
	return 0;
}
