/* One pass over a file's bytes: SHA-256 (OpenSSL EVP, which uses the CPU's
 * SHA extensions where present) and TLSH side by side, block by block: each
 * block is hashed by both while it is still in the L1 cache. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "digest_impl.h"
#include "internal.h"
#include "treedrift/digest.h"
#include "tlsh_impl.h"
#include "tlsh_spec.h"

/* Small enough that two blocks (a pair of files in lockstep) stay in L1
 * between the SHA-256 and the TLSH pass over them. */
#define DIGEST_BLOCK_BYTES ((size_t)16 << 10)

/* What a digester computes of the whitespace-normalised text. */
enum { WS_NONE, WS_LENGTH, WS_DIGEST };

struct td_digester {
	EVP_MD *md;
	EVP_MD_CTX *sha;
	EVP_MD_CTX *ws;                        /* SHA-256 of the normalised text */
	int ws_binary;                         /* a NUL byte was seen: no normalised digest */
	int ws_line;                           /* the current line has kept a byte */
	uint8_t ws_buf[DIGEST_BLOCK_BYTES + TD_WS_SLACK_BYTES]; /* one block, normalised */
	td_tlsh_ctx_t tlsh;
	int want_tlsh;
	int want_ws;                           /* WS_NONE, WS_LENGTH or WS_DIGEST */
	uint64_t ws_bytes;                     /* the normalised text's length so far */
	uint64_t size_bytes;
	size_t head_len;                       /* bytes kept in head */
	uint8_t head[TD_SKETCH_RAW_MAX_BYTES]; /* the first bytes: the raw sketch */
};

void td_digest_release(td_digest_t *d)
{
	if (!d)
		return;
	free(d->sketch);
	d->sketch = NULL;
	d->sketch_len = 0;
	d->sketch_kind = TD_SKETCH_NONE;
}

int td_digest_copy(td_digest_t *out, const td_digest_t *src)
{
	*out = *src;
	out->sketch = NULL;
	if (src->sketch_len) {
		out->sketch = malloc(src->sketch_len);
		if (!out->sketch)
			return TD_ENOMEM;
		memcpy(out->sketch, src->sketch, src->sketch_len);
	}
	return TD_OK;
}

int td_digester_new(td_digester_t **out)
{
	td_digester_t *dg = calloc(1, sizeof(*dg));

	*out = NULL;
	if (!dg)
		return TD_ENOMEM;
	dg->md = EVP_MD_fetch(NULL, "SHA256", NULL);
	dg->sha = EVP_MD_CTX_new();
	dg->ws = EVP_MD_CTX_new();
	if (!dg->md || !dg->sha || !dg->ws) {
		td_digester_free(dg);
		return TD_ENOMEM;
	}
	*out = dg;
	return TD_OK;
}

void td_digester_free(td_digester_t *dg)
{
	if (!dg)
		return;
	EVP_MD_CTX_free(dg->sha);
	EVP_MD_CTX_free(dg->ws);
	EVP_MD_free(dg->md);
	free(dg);
}

void td_digester_start(td_digester_t *dg, int want_tlsh)
{
	EVP_DigestInit_ex(dg->sha, dg->md, NULL);
	dg->want_tlsh = want_tlsh;
	dg->want_ws = want_tlsh ? WS_DIGEST : WS_NONE;
	dg->ws_bytes = 0;
	if (want_tlsh) {
		td_tlsh_init(&dg->tlsh);
		EVP_DigestInit_ex(dg->ws, dg->md, NULL);
	}
	dg->ws_binary = 0;
	dg->ws_line = 0;
	dg->size_bytes = 0;
	dg->head_len = 0;
}

void td_digester_start_unpaired(td_digester_t *dg)
{
	td_digester_start(dg, 1);
	dg->want_ws = WS_NONE;
}

void td_digester_start_ws_length(td_digester_t *dg)
{
	td_digester_start(dg, 1);
	dg->want_ws = WS_LENGTH;
}

/* The first bytes are kept for a raw sketch. */
static void keep_head(td_digester_t *dg, const void *data, size_t len)
{
	if (len && dg->head_len < sizeof(dg->head)) {
		size_t n = sizeof(dg->head) - dg->head_len;
		if (n > len)
			n = len;
		memcpy(dg->head + dg->head_len, data, n);
		dg->head_len += n;
	}
}

/* The whitespace-normalised text (doc/formats.md, "Cosmetic changes"):
 * spaces, tabs, CR, VT and FF are dropped; each line that keeps a byte
 * ends with one LF; lines that keep none are dropped. Reindenting,
 * trailing spaces, CRLF and blank lines then give the same bytes. n bytes
 * of p into out (room for n), *line carried from block to block; returns
 * the bytes written. No branch per byte: each byte is written, and the
 * output advances only when the byte is kept. */
/* Byte classes of the normalisation: 0 kept, 1 dropped (space, tab, CR,
 * VT, FF), 2 a line break. */
static const uint8_t ws_class[256] = {
	['\t'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1, ['\n'] = 2,
};

static size_t ws_normalise_scalar(uint8_t *out, const uint8_t *p, size_t n, int *line_kept)
{
	size_t len = 0;
	unsigned line = (unsigned)*line_kept; /* 0 or 1 */

	for (size_t i = 0; i < n; i++) {
		unsigned c = p[i], k = ws_class[c], keep = !k;

		out[len] = (uint8_t)c;
		len += keep | ((k >> 1) & line); /* a kept byte, or the break of a line that kept one */
		line = keep | (line & k);        /* a space keeps the state, a break clears it */
	}
	*line_kept = (int)line;
	return len;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* pack[m]: the pshufb control that moves the bytes of m's set bits (of 8)
 * to the front. */
static uint8_t ws_pack[256][8];

static void ws_pack_init(void)
{
	for (int m = 0; m < 256; m++) {
		int j = 0;
		for (int b = 0; b < 8; b++)
			if (m >> b & 1)
				ws_pack[m][j++] = (uint8_t)b;
		for (; j < 8; j++)
			ws_pack[m][j] = 0x80;
	}
}

/* Which of 64 bytes the normalisation keeps, from the masks of their
 * whitespace ws (breaks or not) and of their line breaks nl: the bytes
 * that are not whitespace, and each break that a kept byte comes before,
 * after the break before it. That is the carry of ~nl + keep: it runs
 * through the bytes that are not breaks, from each kept byte up to the
 * next break. *line is the line state in and out (the carry out of the
 * top). */
static inline uint64_t ws_keep(uint64_t ws, uint64_t nl, uint64_t *line)
{
	uint64_t keep = ~ws, z = ~nl, s1 = z + keep, s2 = s1 + *line;

	*line = (uint64_t)(s1 < z) | (uint64_t)(s2 < s1);
	return keep | (s2 & nl);
}

/* The same, 64 bytes at a time (ws_keep), then packed 8 bytes at a time
 * with pshufb; with pack 0 they are only counted. Writes up to 8 bytes
 * past the result. */
__attribute__((target("ssse3,popcnt"), always_inline))
static inline size_t ws_scan_ssse3(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack)
{
	const __m128i space = _mm_set1_epi8(' '), newline = _mm_set1_epi8('\n');
	const __m128i tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8('\r' - '\t');
	uint64_t carry = (uint64_t)*line_kept;
	size_t len = 0, i = 0;

	for (; i + 64 <= n; i += 64) {
		uint64_t ws = 0, nl = 0, keep;

		for (int q = 0; q < 4; q++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(p + i + 16 * q));
			__m128i t = _mm_sub_epi8(v, tab); /* \t..\r: 0..4 unsigned */
			__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(t, four), t);
			__m128i w = _mm_or_si128(_mm_cmpeq_epi8(v, space), ctl);
			nl |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)) << (16 * q);
			ws |= (uint64_t)(uint16_t)_mm_movemask_epi8(w) << (16 * q);
		}
		keep = ws_keep(ws, nl, &carry);
		if (!pack) {
			len += (size_t)__builtin_popcountll(keep);
			continue;
		}
		for (int g = 0; g < 8; g++) {
			unsigned m = (unsigned)(keep >> (8 * g)) & 0xff;
			__m128i v = _mm_loadl_epi64((const __m128i *)(p + i + 8 * g));
			__m128i ctl = _mm_loadl_epi64((const __m128i *)ws_pack[m]);
			_mm_storel_epi64((__m128i *)(out + len), _mm_shuffle_epi8(v, ctl));
			len += (size_t)__builtin_popcount(m);
		}
	}
	*line_kept = (int)carry;
	return len + ws_normalise_scalar(out + len, p + i, n - i, line_kept);
}

__attribute__((target("ssse3,popcnt")))
static size_t ws_normalise_ssse3(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack)
{
	return pack ? ws_scan_ssse3(out, p, n, line_kept, 1) : ws_scan_ssse3(out, p, n, line_kept, 0);
}
#endif

#if defined(__x86_64__)
/* The same with AVX-512: the masks straight from the byte compares, and
 * the kept bytes of 64 moved together by vpcompressb. Each 64-byte store
 * ends within the first n bytes of out (the result never outruns the input). */
__attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt")))
static size_t ws_normalise_avx512(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack)
{
	const __m512i space = _mm512_set1_epi8(' '), newline = _mm512_set1_epi8('\n');
	const __m512i tab = _mm512_set1_epi8('\t'), four = _mm512_set1_epi8('\r' - '\t');
	uint64_t carry = (uint64_t)*line_kept;
	size_t len = 0, i = 0;

	for (; i + 64 <= n; i += 64) {
		__m512i v = _mm512_loadu_si512((const void *)(p + i));
		/* \t..\r (the break among them, which keep puts back) and space */
		uint64_t ws = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, tab), four) |
			      _mm512_cmpeq_epi8_mask(v, space);
		uint64_t keep = ws_keep(ws, _mm512_cmpeq_epi8_mask(v, newline), &carry);

		if (pack)
			_mm512_storeu_si512((void *)(out + len), _mm512_maskz_compress_epi8(keep, v));
		len += (size_t)__builtin_popcountll(keep);
	}
	*line_kept = (int)carry;
	return len + ws_normalise_scalar(out + len, p + i, n - i, line_kept);
}
#endif

static td_ws_impl_t ws_default = TD_WS_IMPL_SCALAR;
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;

int td_ws_impl_supported(td_ws_impl_t impl)
{
	switch (impl) {
	case TD_WS_IMPL_AUTO:
	case TD_WS_IMPL_SCALAR:
		return 1;
#if defined(__x86_64__) || defined(__i386__)
	case TD_WS_IMPL_SSSE3:
		return __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
#endif
#if defined(__x86_64__)
	case TD_WS_IMPL_AVX512:
		return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi2") &&
		       __builtin_cpu_supports("popcnt");
#endif
	default:
		return 0;
	}
}

static void ws_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
	ws_pack_init();
#endif
	if (td_ws_impl_supported(TD_WS_IMPL_AVX512))
		ws_default = TD_WS_IMPL_AVX512;
	else if (td_ws_impl_supported(TD_WS_IMPL_SSSE3))
		ws_default = TD_WS_IMPL_SSSE3;
}

size_t td_ws_normalise_impl(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack, td_ws_impl_t impl)
{
	(void)pthread_once(&ws_once, ws_init);
	switch (impl == TD_WS_IMPL_AUTO ? ws_default : impl) {
#if defined(__x86_64__)
	case TD_WS_IMPL_AVX512:
		return ws_normalise_avx512(out, p, n, line_kept, pack);
#endif
#if defined(__x86_64__) || defined(__i386__)
	case TD_WS_IMPL_SSSE3:
		return ws_normalise_ssse3(out, p, n, line_kept, pack);
#endif
	default:
		return ws_normalise_scalar(out, p, n, line_kept);
	}
}

static size_t ws_normalise(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack)
{
	return td_ws_normalise_impl(out, p, n, line_kept, pack, TD_WS_IMPL_AUTO);
}

/* A file with a NUL byte is binary: it is not normalised, and its
 * normalised digest is its SHA-256 (td_digester_finish). */
static int ws_update(td_digester_t *dg, const uint8_t *p, size_t n)
{
	size_t len;

	if (dg->ws_binary || dg->want_ws == WS_NONE)
		return TD_OK;
	if (memchr(p, 0, n)) {
		dg->ws_binary = 1;
		return TD_OK;
	}
	len = ws_normalise(dg->ws_buf, p, n, &dg->ws_line, dg->want_ws == WS_DIGEST);
	dg->ws_bytes += len;
	return dg->want_ws == WS_LENGTH || EVP_DigestUpdate(dg->ws, dg->ws_buf, len) ? TD_OK : TD_EIO;
}

int td_sha256_ws(uint8_t out[TD_SHA256_BYTES], const void *data, size_t len)
{
	static const uint8_t lf = '\n';
	const uint8_t *p = data;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t *buf = malloc(DIGEST_BLOCK_BYTES + TD_WS_SLACK_BYTES);
	unsigned int n = 0;
	int line = 0, rc = TD_ENOMEM;

	if (!ctx || !buf)
		goto out;
	rc = TD_EIO;
	if (!EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out;
	if (len && memchr(p, 0, len)) {
		if (!EVP_DigestUpdate(ctx, p, len))
			goto out;
	} else {
		for (size_t off = 0; off < len; off += DIGEST_BLOCK_BYTES) {
			size_t k = len - off < DIGEST_BLOCK_BYTES ? len - off : DIGEST_BLOCK_BYTES;
			if (!EVP_DigestUpdate(ctx, buf, ws_normalise(buf, p + off, k, &line, 1)))
				goto out;
		}
		if (line && !EVP_DigestUpdate(ctx, &lf, 1))
			goto out;
	}
	if (EVP_DigestFinal_ex(ctx, out, &n) && n == TD_SHA256_BYTES)
		rc = TD_OK;
out:
	free(buf);
	EVP_MD_CTX_free(ctx);
	return rc;
}

int td_digester_update(td_digester_t *dg, const void *data, size_t len)
{
	/* An empty block may come with data NULL (libarchive does that for an
	 * empty member), which memcpy must not be given. */
	const uint8_t *p = data;

	if (!len)
		return TD_OK;
	dg->size_bytes += len;
	if (!dg->want_tlsh)
		return EVP_DigestUpdate(dg->sha, data, len) ? TD_OK : TD_EIO;
	keep_head(dg, data, len);
	while (len) {
		size_t n = len < DIGEST_BLOCK_BYTES ? len : DIGEST_BLOCK_BYTES;

		if (!EVP_DigestUpdate(dg->sha, p, n) || ws_update(dg, p, n))
			return TD_EIO;
		td_tlsh_update(&dg->tlsh, p, n);
		p += n;
		len -= n;
	}
	return TD_OK;
}

int td_digester_update2(td_digester_t *a, const void *data_a, size_t len_a, td_digester_t *b,
			const void *data_b, size_t len_b)
{
	static const uint8_t none[1];
	int rc;

	/* An empty file's bytes may be NULL. */
	if (!data_a)
		data_a = none;
	if (!data_b)
		data_b = none;
	if (!a->want_tlsh || !b->want_tlsh || a == b) {
		if ((rc = td_digester_update(a, data_a, len_a)))
			return rc;
		return td_digester_update(b, data_b, len_b);
	}
	keep_head(a, data_a, len_a);
	keep_head(b, data_b, len_b);
	a->size_bytes += len_a;
	b->size_bytes += len_b;
	for (const uint8_t *pa = data_a, *pb = data_b; len_a || len_b;) {
		size_t na = len_a < DIGEST_BLOCK_BYTES ? len_a : DIGEST_BLOCK_BYTES;
		size_t nb = len_b < DIGEST_BLOCK_BYTES ? len_b : DIGEST_BLOCK_BYTES;

		if (!EVP_DigestUpdate(a->sha, pa, na) || !EVP_DigestUpdate(b->sha, pb, nb) ||
		    ws_update(a, pa, na) || ws_update(b, pb, nb))
			return TD_EIO;
		td_tlsh_update2(&a->tlsh, pa, na, &b->tlsh, pb, nb);
		pa += na;
		pb += nb;
		len_a -= na;
		len_b -= nb;
	}
	return TD_OK;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A file TLSH cannot hash keeps a sketch for the fallback distance: its
 * bytes when small, else its TLSH bucket counts (a histogram of its byte
 * triplets, which TLSH computed anyway). Only the 128 buckets of the digest
 * count: the fast loops do not count the others, so they would depend on
 * which loop read which bytes. They are stored as zeros, so that the
 * sketch keeps its 256-count layout. */
static int make_sketch(td_digester_t *dg, td_digest_t *out)
{
	if (dg->size_bytes <= TD_SKETCH_RAW_MAX_BYTES) {
		out->sketch_kind = TD_SKETCH_RAW;
		out->sketch_len = dg->head_len;
		out->sketch = malloc(dg->head_len ? dg->head_len : 1);
		if (!out->sketch)
			return TD_ENOMEM;
		memcpy(out->sketch, dg->head, dg->head_len);
		return TD_OK;
	}
	out->sketch_kind = TD_SKETCH_HIST;
	out->sketch_len = TD_SKETCH_HIST_BYTES;
	out->sketch = calloc(1, TD_SKETCH_HIST_BYTES);
	if (!out->sketch)
		return TD_ENOMEM;
	for (int i = 0; i < TLSH_EFF_BUCKETS; i++)
		put_le32(out->sketch + 4 * i, dg->tlsh.bucket[i]);
	return TD_OK;
}

int td_digester_finish(td_digest_t *out, td_digester_t *dg)
{
	unsigned int n = 0;

	memset(out, 0, sizeof(*out));
	if (!EVP_DigestFinal_ex(dg->sha, out->sha256, &n) || n != TD_SHA256_BYTES)
		return TD_EIO;
	out->size_bytes = dg->size_bytes;
	if (!dg->want_tlsh) {
		out->sha_only = 1;
		return TD_OK;
	}
	if (dg->want_ws == WS_NONE) {
		/* left out: has_sha256_ws and has_ws_bytes stay 0 */
	} else if (dg->ws_binary) {
		/* not normalised */
		memcpy(out->sha256_ws, out->sha256, TD_SHA256_BYTES);
		out->has_sha256_ws = 1;
		out->ws_bytes = dg->size_bytes;
		out->has_ws_bytes = 1;
	} else {
		static const uint8_t lf = '\n';
		out->ws_bytes = dg->ws_bytes + (uint64_t)(dg->ws_line != 0);
		out->has_ws_bytes = 1;
		if (dg->want_ws == WS_DIGEST) {
			if ((dg->ws_line && !EVP_DigestUpdate(dg->ws, &lf, 1)) ||
			    !EVP_DigestFinal_ex(dg->ws, out->sha256_ws, &n) || n != TD_SHA256_BYTES)
				return TD_EIO;
			out->has_sha256_ws = 1;
		}
	}
	out->tlsh_status = td_tlsh_final(&out->tlsh, &dg->tlsh);
	if (out->tlsh_status != TD_TLSH_OK)
		return make_sketch(dg, out);
	return TD_OK;
}

/* Levenshtein distance in O(min) memory; inputs are at most a few KiB. */
static size_t edit_distance(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t *row, result;

	if (alen < blen) {
		const uint8_t *t = a;
		size_t tl = alen;
		a = b, alen = blen;
		b = t, blen = tl;
	}
	row = td_malloc_array(blen + 1, sizeof(size_t));
	if (!row)
		return alen; /* the worst case, never an underestimate of change */
	for (size_t j = 0; j <= blen; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	result = row[blen];
	free(row);
	return result;
}

/* Scale a fraction num/den of TD_FALLBACK_SCALE, rounded, at least 1: the
 * callers only score content whose SHA-256 differs. */
static int scale_fraction(double num, double den)
{
	int d;

	if (den <= 0)
		return 1;
	d = (int)(TD_FALLBACK_SCALE * num / den + 0.5);
	return d < 1 ? 1 : d > TD_FALLBACK_SCALE ? TD_FALLBACK_SCALE : d;
}

int td_fallback_distance_bytes(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	size_t longest = a_len > b_len ? a_len : b_len;

	if (a_len == b_len && (a_len == 0 || !memcmp(a, b, a_len)))
		return 0;
	return scale_fraction((double)edit_distance(a, a_len, b, b_len), (double)longest);
}

/* Half the L1 distance of two normalized histograms: 0 same shape, 1 disjoint. */
/* Over the digest's 128 buckets only: sketches stored before they were
 * left out hold counts of the other 128 that no two scans agree on. */
static int histogram_distance(const uint8_t *a, const uint8_t *b)
{
	double sa = 0, sb = 0, l1 = 0;

	for (int i = 0; i < TLSH_EFF_BUCKETS; i++) {
		sa += get_le32(a + 4 * i);
		sb += get_le32(b + 4 * i);
	}
	if (sa <= 0 || sb <= 0)
		return scale_fraction(sa != sb, 1);
	for (int i = 0; i < TLSH_EFF_BUCKETS; i++) {
		double d = get_le32(a + 4 * i) / sa - get_le32(b + 4 * i) / sb;
		l1 += d < 0 ? -d : d;
	}
	return scale_fraction(l1, 2.0);
}

static int size_distance(uint64_t a, uint64_t b)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	return scale_fraction((double)(hi - lo), (double)hi);
}

int td_digest_distance(const td_digest_t *a, const td_digest_t *b, int len_diff, int *fallback)
{
	*fallback = 0;
	if (a->tlsh_status == TD_TLSH_OK && b->tlsh_status == TD_TLSH_OK)
		return td_tlsh_distance(&a->tlsh, &b->tlsh, len_diff);
	*fallback = 1;
	if (a->sketch_kind == TD_SKETCH_RAW && b->sketch_kind == TD_SKETCH_RAW)
		return td_fallback_distance_bytes(a->sketch, a->sketch_len, b->sketch, b->sketch_len);
	if (a->sketch_kind == TD_SKETCH_HIST && b->sketch_kind == TD_SKETCH_HIST &&
	    a->sketch_len == TD_SKETCH_HIST_BYTES && b->sketch_len == TD_SKETCH_HIST_BYTES)
		return histogram_distance(a->sketch, b->sketch);
	return size_distance(a->size_bytes, b->size_bytes);
}

void td_sha256_hex(char out[2 * TD_SHA256_BYTES + 1], const uint8_t sha[TD_SHA256_BYTES])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < TD_SHA256_BYTES; i++) {
		out[2 * i] = hex[sha[i] >> 4];
		out[2 * i + 1] = hex[sha[i] & 15];
	}
	out[2 * TD_SHA256_BYTES] = '\0';
}
