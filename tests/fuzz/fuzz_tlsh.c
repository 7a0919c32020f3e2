/* libFuzzer target: TLSH digest parsing, formatting and distance. The input
 * is two digest texts split at the first NUL (or halves when there is none);
 * each parsed digest must format back to text that parses to the same digest,
 * and the distance must be symmetric, zero to itself, and agree with the
 * bounded distance and with the body distances of every build this CPU
 * runs. The input is also hashed as content. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/tlsh.h"
#include "tlsh_impl.h"

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

/* Body distances from x to y, alone and in a run of 9 (a vector and a
 * tail), equal the distance less its header terms, under each build. */
static void check_body_distances(const td_tlsh_t *x, const td_tlsh_t *y)
{
	static const td_tlsh_impl_t impls[] = { TD_TLSH_IMPL_SCALAR, TD_TLSH_IMPL_PAIR, TD_TLSH_IMPL_AVX2,
						TD_TLSH_IMPL_AVX512 };
	td_tlsh_t same = *y;
	td_tlsh_bodies_t b;
	uint16_t out[9];
	int want;

	same.checksum = x->checksum;
	same.lvalue = x->lvalue;
	same.q1_ratio = x->q1_ratio;
	same.q2_ratio = x->q2_ratio;
	want = td_tlsh_distance(x, &same, 1);
	if (td_tlsh_bodies_init(&b, 9))
		return;
	for (size_t i = 0; i < 9; i++)
		td_tlsh_bodies_set(&b, i, i == 4 ? &same : x);
	for (size_t k = 0; k < sizeof(impls) / sizeof(impls[0]); k++) {
		if (!td_tlsh_impl_supported(impls[k]))
			continue;
		td_tlsh_body_distances_impl(x, &b, 4, 1, out, impls[k]);
		if (out[0] != want)
			abort();
		td_tlsh_body_distances_impl(x, &b, 0, 9, out, impls[k]);
		for (size_t i = 0; i < 9; i++)
			if (out[i] != (i == 4 ? want : 0))
				abort();
	}
	td_tlsh_bodies_release(&b);
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
			check_body_distances(&x, &y);
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
