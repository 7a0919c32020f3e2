/* The digester's fallback sketch of a file TLSH cannot hash: the same
 * bytes however the content was fed (one call, small pieces, in lockstep
 * with another file), and a distance that reads only the 128 buckets of
 * the digest. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "treedrift/digest.h"

#define UNIFORM_BYTES 100000

static void digest_pieces(td_digest_t *out, const uint8_t *data, size_t len, size_t piece)
{
	td_digester_t *dg = NULL;

	CHECK_INT(td_digester_new(&dg), 0);
	td_digester_start(dg, 1);
	for (size_t off = 0; off < len; off += piece)
		CHECK_INT(td_digester_update(dg, data + off, len - off < piece ? len - off : piece), 0);
	CHECK_INT(td_digester_finish(dg, out), 0);
	td_digester_free(dg);
}

static void digest_paired(td_digest_t *out, const uint8_t *data, size_t len, const uint8_t *other)
{
	td_digester_t *a = NULL, *b = NULL;
	td_digest_t ignored;

	CHECK_INT(td_digester_new(&a), 0);
	CHECK_INT(td_digester_new(&b), 0);
	td_digester_start(a, 1);
	td_digester_start(b, 1);
	CHECK_INT(td_digester_update2(a, data, len, b, other, len), 0);
	CHECK_INT(td_digester_finish(a, out), 0);
	CHECK_INT(td_digester_finish(b, &ignored), 0);
	td_digest_release(&ignored);
	td_digester_free(a);
	td_digester_free(b);
}

static int same_sketch(const td_digest_t *a, const td_digest_t *b)
{
	return a->sketch_kind == b->sketch_kind && a->sketch_len == b->sketch_len &&
	       !memcmp(a->sketch, b->sketch, a->sketch_len);
}

static void test_uniform_sketch(void)
{
	uint8_t *zeros = calloc(1, UNIFORM_BYTES), *text = malloc(UNIFORM_BYTES);
	td_digest_t whole, pieces, paired;
	int upper_zero = 1;

	for (size_t i = 0; i < UNIFORM_BYTES; i++)
		text[i] = (uint8_t)("the quick brown fox jumps over the lazy dog\n"[i % 44] ^ (i / 44 % 7));
	digest_pieces(&whole, zeros, UNIFORM_BYTES, UNIFORM_BYTES);
	digest_pieces(&pieces, zeros, UNIFORM_BYTES, 7);
	digest_paired(&paired, zeros, UNIFORM_BYTES, text);
	CHECK_INT(whole.tlsh_status, TD_TLSH_TOO_UNIFORM);
	CHECK_INT(whole.sketch_kind, TD_SKETCH_HIST);
	CHECK_INT((int)whole.sketch_len, TD_SKETCH_HIST_BYTES);
	CHECK(same_sketch(&whole, &pieces));
	CHECK(same_sketch(&whole, &paired));
	for (size_t i = TD_SKETCH_HIST_BYTES / 2; i < whole.sketch_len; i++)
		upper_zero &= whole.sketch[i] == 0;
	CHECK(upper_zero);

	/* A sketch with counts past bucket 127 (as older scans stored them)
	 * scores as if they were zero. */
	{
		td_digest_t old, other;
		int fb = 0, d_new, d_old;

		CHECK_INT(td_digest_copy(&old, &whole), 0);
		CHECK_INT(td_digest_copy(&other, &whole), 0);
		other.sketch[0] ^= 0x10; /* bucket 0 differs */
		d_new = td_digest_distance(&whole, &other, 1, &fb);
		CHECK(fb);
		memset(old.sketch + TD_SKETCH_HIST_BYTES / 2, 0x33, TD_SKETCH_HIST_BYTES / 2);
		d_old = td_digest_distance(&old, &other, 1, &fb);
		CHECK_INT(d_old, d_new);
		td_digest_release(&old);
		td_digest_release(&other);
	}
	td_digest_release(&whole);
	td_digest_release(&pieces);
	td_digest_release(&paired);
	free(zeros);
	free(text);
}

int main(void)
{
	test_uniform_sketch();
	return check_finish();
}
