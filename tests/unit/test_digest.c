/* The digester gives the same SHA-256, TLSH and fallback sketch however
 * the content was fed: one call (cut into blocks inside), small pieces, or
 * in lockstep with another file of another length. The fallback distance
 * reads only the 128 buckets of the digest. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "digest_impl.h"
#include "treedrift/digest.h"

#define UNIFORM_BYTES 100000

/* td_digester_start(dg, 1), or with only the normalised text's length. */
static void start_full(td_digester_t *dg)
{
	td_digester_start(dg, 1);
}

static void digest_pieces_as(td_digest_t *out, const uint8_t *data, size_t len, size_t piece,
			     void (*start)(td_digester_t *))
{
	td_digester_t *dg = NULL;

	CHECK_INT(td_digester_new(&dg), 0);
	start(dg);
	for (size_t off = 0; off < len; off += piece)
		CHECK_INT(td_digester_update(dg, data + off, len - off < piece ? len - off : piece), 0);
	CHECK_INT(td_digester_finish(out, dg), 0);
	td_digester_free(dg);
}

static void digest_pieces(td_digest_t *out, const uint8_t *data, size_t len, size_t piece)
{
	digest_pieces_as(out, data, len, piece, start_full);
}

static void digest_paired2(td_digest_t *out, const uint8_t *data, size_t len, td_digest_t *out_other,
			   const uint8_t *other, size_t other_len)
{
	td_digester_t *a = NULL, *b = NULL;

	CHECK_INT(td_digester_new(&a), 0);
	CHECK_INT(td_digester_new(&b), 0);
	td_digester_start(a, 1);
	td_digester_start(b, 1);
	CHECK_INT(td_digester_update2(a, data, len, b, other, other_len), 0);
	CHECK_INT(td_digester_finish(out, a), 0);
	CHECK_INT(td_digester_finish(out_other, b), 0);
	td_digester_free(a);
	td_digester_free(b);
}

static void digest_paired(td_digest_t *out, const uint8_t *data, size_t len, const uint8_t *other)
{
	td_digest_t ignored;

	digest_paired2(out, data, len, &ignored, other, len);
	td_digest_release(&ignored);
}

/* Varied text, so that TLSH has a digest to give. */
static uint8_t *make_text(size_t len, unsigned seed)
{
	uint8_t *p = malloc(len);
	uint32_t x = seed;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)("static int foo(void) { return bar[i] + 1; }\n"[(x >> 16) % 45]);
	}
	return p;
}

/* What one call of each library gives, to hold the digester to. */
static void check_digest_of(const td_digest_t *d, const uint8_t *data, size_t len)
{
	uint8_t sha[TD_SHA256_BYTES];
	unsigned int sha_len = 0;
	td_tlsh_t want;

	CHECK_INT(EVP_Digest(data, len, sha, &sha_len, EVP_sha256(), NULL), 1);
	CHECK(!memcmp(d->sha256, sha, sizeof(sha)));
	CHECK_INT(td_tlsh_hash(&want, data, len), TD_TLSH_OK);
	CHECK_INT(d->tlsh_status, TD_TLSH_OK);
	CHECK(!memcmp(&d->tlsh, &want, sizeof(want)));
	CHECK_INT((int)d->size_bytes, (int)len);
}

/* Lengths across several of the digester's blocks, and not a multiple of
 * one, in every way of feeding them. */
static void test_feeding_agrees(void)
{
	static const size_t lens[2] = {70001, 41003};
	uint8_t *a = make_text(lens[0], 1), *b = make_text(lens[1], 2);
	td_digest_t whole, pieces, pa, pb, qa, qb;

	digest_pieces(&whole, a, lens[0], lens[0]);
	digest_pieces(&pieces, a, lens[0], 4093);
	digest_paired2(&pa, a, lens[0], &pb, b, lens[1]);
	digest_paired2(&qb, b, lens[1], &qa, a, lens[0]);
	check_digest_of(&whole, a, lens[0]);
	check_digest_of(&pieces, a, lens[0]);
	check_digest_of(&pa, a, lens[0]);
	check_digest_of(&qa, a, lens[0]);
	check_digest_of(&pb, b, lens[1]);
	check_digest_of(&qb, b, lens[1]);
	td_digest_release(&whole);
	td_digest_release(&pieces);
	td_digest_release(&pa);
	td_digest_release(&pb);
	td_digest_release(&qa);
	td_digest_release(&qb);
	free(a);
	free(b);
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

static void ws_digest(td_digest_t *out, const char *text, size_t piece)
{
	digest_pieces(out, (const uint8_t *)text, strlen(text), piece ? piece : strlen(text) + 1);
}

/* The whitespace-normalised SHA-256: reindenting, trailing spaces, CRLF,
 * blank lines and a missing last newline give the same digest, whatever
 * the pieces; any other change does not; a NUL byte means binary, no
 * normalised digest. */
static void test_whitespace_digest(void)
{
	static const char *const same[] = {
		"int f(void)\n{\n\treturn 1;\n}\n",
		"int f(void)\n{\n    return 1;\n}\n",       /* reindent */
		"int f(void)   \n{\t\n\treturn 1;  \n}\n", /* trailing spaces */
		"int f(void)\r\n{\r\n\treturn 1;\r\n}\r\n",   /* CRLF */
		"\nint f(void)\n\n{\n\treturn 1;\n}\n\n\n",   /* blank lines */
		"int f(void)\n{\n\treturn 1;\n}",           /* no last newline */
		"int  f( void )\n{\n\treturn 1 ;\n}\n",     /* spaces inside a line */
	};
	static const char *const other[] = {
		"int f(void)\n{\n\treturn 2;\n}\n",
		"int f(void) {\n\treturn 1;\n}\n",          /* lines joined */
	};
	td_digest_t ref, d;

	ws_digest(&ref, same[0], 0);
	CHECK(ref.has_sha256_ws);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		for (size_t piece = 0; piece < 4; piece++) {
			ws_digest(&d, same[i], piece);
			CHECK(d.has_sha256_ws && !memcmp(d.sha256_ws, ref.sha256_ws, TD_SHA256_BYTES));
			CHECK(i == 0 || memcmp(d.sha256, ref.sha256, TD_SHA256_BYTES));
			td_digest_release(&d);
		}
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		ws_digest(&d, other[i], 0);
		CHECK(d.has_sha256_ws && memcmp(d.sha256_ws, ref.sha256_ws, TD_SHA256_BYTES));
		td_digest_release(&d);
	}
	digest_pieces(&d, (const uint8_t *)"a\0b \n", 5, 5); /* binary: not normalised */
	CHECK(d.has_sha256_ws && !memcmp(d.sha256_ws, d.sha256, TD_SHA256_BYTES));
	CHECK(d.has_ws_bytes && d.ws_bytes == 5);
	td_digest_release(&d);
	digest_pieces_as(&d, (const uint8_t *)"a b \n\n\0 x", 10, 3, td_digester_start_ws_length);
	CHECK(d.has_sha256_ws && !memcmp(d.sha256_ws, d.sha256, TD_SHA256_BYTES));
	CHECK(d.has_ws_bytes && d.ws_bytes == 10);
	td_digest_release(&d);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) { /* the one-shot agrees */
		uint8_t one[TD_SHA256_BYTES];
		CHECK_INT(td_sha256_ws(one, same[i], strlen(same[i])), 0);
		CHECK(!memcmp(one, ref.sha256_ws, TD_SHA256_BYTES));
	}
	/* SHA-256 only (the identity pass): not computed */
	{
		td_digester_t *dg = NULL;
		CHECK_INT(td_digester_new(&dg), 0);
		td_digester_start(dg, 0);
		CHECK_INT(td_digester_update(dg, "a\n", 2), 0);
		CHECK_INT(td_digester_finish(&d, dg), 0);
		CHECK(!d.has_sha256_ws);
		td_digest_release(&d);
		/* unpaired: the same digests but the normalised one, also after
		 * a file that had it */
		td_digester_start_unpaired(dg);
		CHECK_INT(td_digester_update(dg, same[0], strlen(same[0])), 0);
		CHECK_INT(td_digester_finish(&d, dg), 0);
		CHECK(!d.sha_only && !d.has_sha256_ws && !d.has_ws_bytes && !memcmp(d.sha256, ref.sha256, TD_SHA256_BYTES));
		CHECK(d.tlsh_status == ref.tlsh_status && d.sketch_len == ref.sketch_len &&
		      !memcmp(d.sketch, ref.sketch, ref.sketch_len));
		td_digest_release(&d);
		td_digester_start(dg, 1);
		CHECK_INT(td_digester_update(dg, same[0], strlen(same[0])), 0);
		CHECK_INT(td_digester_finish(&d, dg), 0);
		CHECK(d.has_sha256_ws && !memcmp(d.sha256_ws, ref.sha256_ws, TD_SHA256_BYTES));
		td_digest_release(&d);
		td_digester_free(dg);
	}
	td_digest_release(&ref);
}

/* The normalisation as doc/db-schema.md words it, one byte at a time:
 * its bytes into out (room for n + 1), their count returned. */
static size_t ws_reference_text(uint8_t *out, const uint8_t *p, size_t n)
{
	size_t len = 0;
	int line = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\v' || p[i] == '\f')
			continue;
		if (p[i] == '\n') {
			if (line)
				out[len++] = '\n';
			line = 0;
			continue;
		}
		out[len++] = p[i];
		line = 1;
	}
	if (line)
		out[len++] = '\n';
	return len;
}

/* Its SHA-256 into out; the text's length returned. */
static size_t ws_reference(uint8_t out[TD_SHA256_BYTES], const uint8_t *p, size_t n)
{
	uint8_t *buf = malloc(n + 1);
	size_t len = ws_reference_text(buf, p, n);
	unsigned int hl = 0;

	EVP_Digest(buf, len, out, &hl, EVP_sha256(), NULL);
	free(buf);
	return len;
}

/* n bytes of alphabet, drawn from *x. */
static void random_text(uint8_t *text, size_t n, const char *alphabet, size_t k, uint32_t *x)
{
	for (size_t i = 0; i < n; i++) {
		*x = *x * 1103515245u + 12345u;
		text[i] = (uint8_t)alphabet[(*x >> 16) % k];
	}
}

/* Long text with every class of byte, runs of blank lines and lines of
 * spaces across 64-byte and block boundaries: the vector loop and the
 * byte loop agree with the reference, however the bytes are fed. */
static void test_whitespace_long(void)
{
	static const char alphabet[] = "ab;{} \t\r\n\n\n\v\f        x";
	static const size_t lens[] = { 0, 1, 63, 64, 65, 127, 128, 1000, 16383, 16384, 16385, 70001 };
	uint32_t x = 7;

	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		size_t n = lens[li];
		uint8_t *text = malloc(n + 1), want[TD_SHA256_BYTES], one[TD_SHA256_BYTES];
		td_digest_t d;

		random_text(text, n, alphabet, sizeof(alphabet) - 1, &x);
		size_t want_len = ws_reference(want, text, n);
		CHECK_INT(td_sha256_ws(one, text, n), 0);
		CHECK(!memcmp(one, want, TD_SHA256_BYTES));
		for (size_t piece = 1; piece <= 4099; piece = piece * 3 + 7) {
			digest_pieces(&d, text, n, piece);
			CHECK(d.has_sha256_ws && !memcmp(d.sha256_ws, want, TD_SHA256_BYTES));
			CHECK(d.has_ws_bytes && d.ws_bytes == want_len);
			td_digest_release(&d);
			/* the length alone, the same */
			digest_pieces_as(&d, text, n, piece, td_digester_start_ws_length);
			CHECK(!d.has_sha256_ws && d.has_ws_bytes && d.ws_bytes == want_len);
			td_digest_release(&d);
		}
		free(text);
	}
}

/* n bytes of runs of up to 150 spaces, tabs or line breaks between short
 * words: runs of spaces longer than 64 bytes, after a kept byte and not,
 * across the vector loops' 64-byte steps. */
static void random_runs(uint8_t *text, size_t n, uint32_t *x)
{
	static const char fill[] = " \t\n";

	for (size_t i = 0; i < n;) {
		*x = *x * 1103515245u + 12345u;
		size_t run = (*x >> 16) % 150 + 1;
		char c = (*x >> 8) % 4 ? fill[(*x >> 12) % 3] : 'w';
		for (; run-- && i < n; i++)
			text[i] = (uint8_t)(c == 'w' && run > 3 ? ' ' : c);
	}
}

/* Each normalisation this CPU runs, fed in pieces, against the reference:
 * the bytes kept and, with pack 0, their count. The alphabet has the
 * bytes next to the classes' bounds (\b, SO, US, '!', 0x89 = \t + 0x80). */
static void test_whitespace_impls(void)
{
	static const char alphabet[] = "ab;{} \t\r\n\n\n\v\f      x\b\x0e\x1f!\x89\xff";
	static const size_t lens[] = { 0, 1, 63, 64, 65, 191, 4096, 16385, 70001 };
	static const size_t pieces[] = { 1, 7, 64, 100, 16384 };
	static const td_ws_impl_t impls[] = { TD_WS_IMPL_AUTO, TD_WS_IMPL_SCALAR, TD_WS_IMPL_SSSE3,
					      TD_WS_IMPL_AVX512 };
	static const char *const names[] = { "auto", "scalar", "ssse3", "avx512" };
	uint32_t x = 11;

	for (size_t ii = 0; ii < sizeof(impls) / sizeof(impls[0]); ii++)
		if (!td_ws_impl_supported(impls[ii]))
			fprintf(stderr, "test_digest: this CPU has no %s normalisation: not tested\n", names[ii]);
	for (size_t li = 0; li < 2 * sizeof(lens) / sizeof(lens[0]); li++) {
		size_t n = lens[li / 2];
		uint8_t *text = malloc(n + 1), *want = malloc(n + 1);
		uint8_t *out = malloc(n + 1 + TD_WS_SLACK_BYTES), *scratch = malloc(n + TD_WS_SLACK_BYTES);

		if (li % 2)
			random_runs(text, n, &x);
		else
			random_text(text, n, alphabet, sizeof(alphabet) - 1, &x);
		size_t want_len = ws_reference_text(want, text, n);
		for (size_t ii = 0; ii < sizeof(impls) / sizeof(impls[0]); ii++) {
			if (!td_ws_impl_supported(impls[ii]))
				continue;
			for (size_t pi = 0; pi < sizeof(pieces) / sizeof(pieces[0]); pi++) {
				size_t len = 0, count = 0;
				int line = 0, count_line = 0;

				for (size_t off = 0; off < n; off += pieces[pi]) {
					size_t k = n - off < pieces[pi] ? n - off : pieces[pi];
					len += td_ws_normalise_impl(out + len, text + off, k, &line, 1, impls[ii]);
					count += td_ws_normalise_impl(scratch, text + off, k, &count_line, 0, impls[ii]);
				}
				if (line)
					out[len++] = '\n';
				count += (size_t)count_line;
				CHECK(len == want_len && !memcmp(out, want, len));
				CHECK(count == want_len);
			}
		}
		free(text);
		free(want);
		free(out);
		free(scratch);
	}
}

int main(void)
{
	test_whitespace_impls();
	test_whitespace_long();
	test_whitespace_digest();
	test_uniform_sketch();
	test_feeding_agrees();
	return check_finish();
}
