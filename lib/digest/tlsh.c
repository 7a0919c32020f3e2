/* TLSH digest and distance, compatible with the reference 4.x default.
 *
 * The counting loop is what a tree scan spends its time on, so it is shaped
 * for speed while computing exactly what the reference computes. There are
 * four, chosen once per process (td_tlsh_loop, TD_TLSH_LOOP):
 * - scalar, portable C, the simple one the others are tested against. The
 *   first two Pearson steps of all seven salted mappings depend only on the
 *   newest byte and come from one table row (tlsh_first_bytes). The last step of
 *   each triplet is left out: T is a permutation, so the loop counts the
 *   pre-image y of bucket T[y] and the fold at the end of a run moves the
 *   256 counts to their buckets. Positions count into four sub-histograms
 *   in turn, so that the increments of a run of equal bytes do not wait on
 *   each other. The window lives in registers; the first four bytes of a
 *   stream, which only fill it, are taken apart once, so the loop has no
 *   fill branch. Tables and counts (6.3 KiB) stay in L1.
 * - pair, portable C, the default without AVX-512 VBMI: the scalar loop
 *   with the Pearson lookups of a position taken from three tables
 *   indexed by two bytes (the newest and one of the three before it), 3
 *   loads instead of 13, and the six pre-images from one XOR of each entry
 *   with the window. The tables (448 KiB) are built once per process at
 *   first use. On source code 90% of the lookups fall in 28 KiB of them
 *   and 99% in 73 KiB; random bytes use all of them, from L2, and the
 *   loop is still no slower than the scalar one there.
 * - avx512, where the CPU has AVX-512 VBMI and VBMI2: the Pearson lookups
 *   of 64 positions are done at once in vector registers (a 256-byte
 *   table fits in four), and only the increments and the checksum chain
 *   stay scalar. Indexes of the upper 128 buckets, which the digest never
 *   reads, are compressed away before counting: half the increments. The
 *   checksum is a chain of dependent lookups, one a byte, and past that it
 *   is what limits one stream: td_tlsh_update2 runs two independent
 *   streams in lockstep so that their chains overlap.
 * - avx2: the pre-images of 32 positions in vector registers, with a
 *   256-byte lookup made of 16 shuffles and 15 blends. It was measured
 *   slower than the scalar loop, so it is never the default.
 * Only avx512 runs two streams in lockstep (td_tlsh_update2): the others
 * are bound by their instructions, not by the checksum chain, and a
 * lockstep pair loop measured no faster on text and slower on random bytes.
 * Tests check that every loop gives the same counts as the scalar one.
 * Constants from the specification are in tlsh_spec.h; tlsh_tables.h is
 * generated from them at build time (gen/tlsh_tables.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/tlsh.h"
#include "tlsh_spec.h"
#include "tlsh_tables.h"
#include "tlsh_impl.h"
#include "internal.h"

/* Define TD_TLSH_NO_SIMD to build the portable loop alone. */
#if !defined(TD_TLSH_NO_SIMD) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
	defined(__has_include)
#if __has_include(<immintrin.h>)
#include <immintrin.h>
#define TD_TLSH_HAVE_X86 1
#endif
#endif

/* Counts are kept in local arrays for at most this many bytes before they
 * are added to the context: 6 increments a byte cannot wrap a uint32_t. */
#define TLSH_RUN_BYTES ((size_t)1 << 20)

/* Below this, zeroing and folding the local arrays costs more than it saves. */
#define TLSH_SMALL_UPDATE_BYTES 512

/* The scalar and AVX2 loops count into this many sub-histograms, one per
 * position modulo TLSH_SUBHISTS: a run of equal bytes increments the same
 * six counters at every position, and each increment would otherwise wait
 * for the store of the one before (store-to-load forwarding, about five
 * cycles). With four, the chains overlap. 4 KiB in all, with the tables
 * well inside L1. */
#define TLSH_SUBHISTS 4

#define T(x) tlsh_pearson[(x)]

/* The checksum and six bucket indexes of one position: c0 is the newest
 * byte, c1..c4 the four before it, newest first. Returns the new checksum. */
static inline unsigned tlsh_position(unsigned idx[6], unsigned sum, unsigned c0,
				     unsigned c1, unsigned c2, unsigned c3, unsigned c4)
{
	uint64_t f = tlsh_first_step[c0];

	idx[0] = T(T(((unsigned)(f >> 8) & 0xff) ^ c1) ^ c2);
	idx[1] = T(T(((unsigned)(f >> 16) & 0xff) ^ c1) ^ c3);
	idx[2] = T(T(((unsigned)(f >> 24) & 0xff) ^ c2) ^ c3);
	idx[3] = T(T(((unsigned)(f >> 32) & 0xff) ^ c2) ^ c4);
	idx[4] = T(T(((unsigned)(f >> 40) & 0xff) ^ c1) ^ c4);
	idx[5] = T(T(((unsigned)(f >> 48) & 0xff) ^ c3) ^ c4);
	return T(T(((unsigned)f & 0xff) ^ c1) ^ sum);
}

/* The pre-images in the scalar and AVX2 loops: the bucket of a triplet is
 * T[y] for y = T[T[T[s] ^ c0] ^ a] ^ b, and T is a permutation, so those
 * loops count y and leave the last lookup, six a byte, to the fold at the
 * end of a run (fold_preimages): 256 lookups instead of six a byte. */

/* One position of the scalar loop: the six y of byte c0 counted in h,
 * and the new checksum. */
static inline unsigned scalar_position(uint32_t *restrict h, unsigned sum, unsigned c0, unsigned c1,
				       unsigned c2, unsigned c3, unsigned c4)
{
	const uint8_t *f = tlsh_first_bytes[c0];

	h[T(f[1] ^ c1) ^ c2]++;
	h[T(f[2] ^ c1) ^ c3]++;
	h[T(f[3] ^ c2) ^ c3]++;
	h[T(f[4] ^ c2) ^ c4]++;
	h[T(f[5] ^ c1) ^ c4]++;
	h[T(f[6] ^ c3) ^ c4]++;
	return T(T(f[0] ^ c1) ^ sum);
}

/* Count n bytes (n <= TLSH_RUN_BYTES) once the window is full, the y of
 * position i into h[i % TLSH_SUBHISTS]. */
static void count_run_scalar(uint32_t (*restrict h)[TLSH_BUCKETS], td_tlsh_ctx_t *ctx,
			     const uint8_t *p, size_t n)
{
	unsigned c1 = ctx->window[0], c2 = ctx->window[1];
	unsigned c3 = ctx->window[2], c4 = ctx->window[3];
	unsigned sum = ctx->checksum;
	size_t i = 0;

	_Static_assert(TLSH_SUBHISTS == 4, "the loop below is unrolled for four sub-histograms");
	for (; i + 4 <= n; i += 4) {
		unsigned x0 = p[i], x1 = p[i + 1], x2 = p[i + 2], x3 = p[i + 3];

		sum = scalar_position(h[0], sum, x0, c1, c2, c3, c4);
		sum = scalar_position(h[1], sum, x1, x0, c1, c2, c3);
		sum = scalar_position(h[2], sum, x2, x1, x0, c1, c2);
		sum = scalar_position(h[3], sum, x3, x2, x1, x0, c1);
		c4 = x0;
		c3 = x1;
		c2 = x2;
		c1 = x3;
	}
	for (; i < n; i++) {
		unsigned x0 = p[i];

		sum = scalar_position(h[i & 3], sum, x0, c1, c2, c3, c4);
		c4 = c3;
		c3 = c2;
		c2 = c1;
		c1 = x0;
	}
	ctx->window[0] = (uint8_t)c1;
	ctx->window[1] = (uint8_t)c2;
	ctx->window[2] = (uint8_t)c3;
	ctx->window[3] = (uint8_t)c4;
	ctx->checksum = (uint8_t)sum;
}

/* ---- pair: each lookup of a position from a table of two bytes ---- */

/* In scalar_position every T(f[k] ^ cX), f = tlsh_first_bytes[c0], is a
 * function of the two bytes c0 and cX alone, and the seven group by the
 * second byte: (c0, c1) for k = 0, 1, 2, 5; (c0, c2) for k = 3, 4; (c0, c3)
 * for k = 6. Three tables indexed by c0 << 8 | cX hold them, one entry
 * each a position, so 13 loads become 3. The bytes of an entry sit in the
 * lanes of the history word c4 | c3 << 8 | c2 << 16 | c1 << 24 (the four
 * bytes before c0 as they lie in memory) whose byte each is XORed with: one
 * XOR of the words gives all their pre-images y. The checksum's lane
 * holds T(f[0] ^ c1) ^ c1, so that the XOR gives T(f[0] ^ c1) back.
 * 448 KiB in all, built once per process at first use rather than
 * generated into the binary. */
static pthread_once_t tlsh_pairs_once = PTHREAD_ONCE_INIT;
static struct {
	uint32_t c1[1 << 16];   /* lanes 0..3: y5 ^ c4, y2 ^ c3, y1 ^ c2, T(f[0] ^ c1) ^ c1 */
	uint16_t c2[1 << 16];   /* lanes 0..1: y4 ^ c4, y3 ^ c3 */
	uint8_t c3[1 << 16];    /* y6 ^ c4 */
} tlsh_pairs;

static void build_pair_tables(void)
{
	for (unsigned c0 = 0; c0 < 256; c0++) {
		const uint8_t *f = tlsh_first_bytes[c0];

		for (unsigned x = 0; x < 256; x++) {
			unsigned at = c0 << 8 | x;

			tlsh_pairs.c1[at] = (uint32_t)T(f[5] ^ x) | (uint32_t)T(f[2] ^ x) << 8 |
					    (uint32_t)T(f[1] ^ x) << 16 | (uint32_t)(T(f[0] ^ x) ^ x) << 24;
			tlsh_pairs.c2[at] = (uint16_t)(T(f[4] ^ x) | T(f[3] ^ x) << 8);
			tlsh_pairs.c3[at] = T(f[6] ^ x);
		}
	}
}

/* Little-endian words at p, whatever the CPU's byte order: one load each
 * where it is little-endian. */
static inline uint32_t load_le32(const uint8_t *p)
{
	uint32_t x;

	memcpy(&x, p, sizeof(x));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap32(x);
#endif
	return x;
}

static inline unsigned load_le16(const uint8_t *p)
{
	uint16_t x;

	memcpy(&x, p, sizeof(x));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap16(x);
#endif
	return x;
}

/* One position of the pair loop, its byte at q[0] and the four before it
 * at q[-4..-1]: the six y counted in h, as scalar_position counts them.
 * Returns the new checksum. The bytes are read from memory, not kept in
 * registers: a load costs less here than the shifts and masks that would
 * take them out of a word. */
static inline unsigned pair_position(uint32_t *restrict h, unsigned sum, const uint8_t *q)
{
	uint32_t hist = load_le32(q - 4);
	unsigned c0c1 = load_le16(q - 1), c0 = c0c1 & 0xff00;
	uint32_t u = tlsh_pairs.c1[c0c1] ^ hist;
	unsigned v = tlsh_pairs.c2[c0 | q[-2]] ^ hist;
	unsigned w = tlsh_pairs.c3[c0 | q[-3]] ^ hist;

	h[u & 0xff]++;
	h[u >> 8 & 0xff]++;
	h[u >> 16 & 0xff]++;
	h[v & 0xff]++;
	h[v >> 8 & 0xff]++;
	h[w & 0xff]++;
	return T((u >> 24) ^ sum);
}

/* The first positions of a pair run (at most four, fewer if n is smaller)
 * take their history from the window, through a copy next to their bytes.
 * Returns how many it counted. */
static size_t pair_head(uint32_t (*restrict h)[TLSH_BUCKETS], unsigned *sum, const td_tlsh_ctx_t *ctx,
			const uint8_t *p, size_t n)
{
	uint8_t head[2 * (TLSH_WINDOW_BYTES - 1)];
	size_t first = n < TLSH_WINDOW_BYTES - 1 ? n : TLSH_WINDOW_BYTES - 1, i;

	for (i = 0; i < TLSH_WINDOW_BYTES - 1; i++) {
		head[i] = ctx->window[TLSH_WINDOW_BYTES - 2 - i];
		head[TLSH_WINDOW_BYTES - 1 + i] = i < first ? p[i] : 0;
	}
	for (i = 0; i < first; i++)
		*sum = pair_position(h[i & 3], *sum, head + TLSH_WINDOW_BYTES - 1 + i);
	return first;
}

/* Count positions i..n-1 one at a time, then store the window (the last
 * four bytes, some still from the old window when n < 4) and checksum. */
static void pair_tail(uint32_t (*restrict h)[TLSH_BUCKETS], unsigned sum, td_tlsh_ctx_t *ctx,
		      const uint8_t *p, size_t i, size_t n)
{
	uint8_t window[TLSH_WINDOW_BYTES - 1];

	for (; i < n; i++)
		sum = pair_position(h[i & 3], sum, p + i);
	for (i = 0; i < TLSH_WINDOW_BYTES - 1; i++)
		window[i] = n > i ? p[n - 1 - i] : ctx->window[i - n];
	memcpy(ctx->window, window, sizeof(window));
	ctx->checksum = (uint8_t)sum;
}

/* count_run_scalar with the pair tables. */
static void count_run_pair(uint32_t (*restrict h)[TLSH_BUCKETS], td_tlsh_ctx_t *ctx,
			   const uint8_t *p, size_t n)
{
	unsigned sum = ctx->checksum;
	size_t i;

	pthread_once(&tlsh_pairs_once, build_pair_tables);
	i = pair_head(h, &sum, ctx, p, n);
	_Static_assert(TLSH_SUBHISTS == 4, "the loop below is unrolled for four sub-histograms");
	for (; i + 4 <= n; i += 4) {
		sum = pair_position(h[0], sum, p + i);
		sum = pair_position(h[1], sum, p + i + 1);
		sum = pair_position(h[2], sum, p + i + 2);
		sum = pair_position(h[3], sum, p + i + 3);
	}
	pair_tail(h, sum, ctx, p, i, n);
}

static inline uint32_t add_saturated(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

#ifdef TD_TLSH_HAVE_X86
#define TD_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))

/* T[x] for 64 bytes at once: two 128-entry permutes, chosen by bit 7. */
TD_TARGET_AVX512 static inline __m512i pearson64(__m512i x, __m512i t0, __m512i t1,
						  __m512i t2, __m512i t3)
{
	__m512i lo = _mm512_permutex2var_epi8(t0, x, t1);
	__m512i hi = _mm512_permutex2var_epi8(t2, x, t3);
	return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

enum { LANES = 64, HIST = TLSH_WINDOW_BYTES - 1, KEPT_BYTES = (TLSH_NSALTS - 1) * LANES + LANES };

/* The Pearson table in four vector registers. */
typedef struct pearson_regs {
	__m512i t0, t1, t2, t3;
} pearson_regs_t;

TD_TARGET_AVX512 static inline pearson_regs_t pearson_regs(void)
{
	pearson_regs_t r;

	r.t0 = _mm512_loadu_si512(tlsh_pearson);
	r.t1 = _mm512_loadu_si512(tlsh_pearson + 64);
	r.t2 = _mm512_loadu_si512(tlsh_pearson + 128);
	r.t3 = _mm512_loadu_si512(tlsh_pearson + 192);
	return r;
}

/* The 64 positions starting at q (q[-4..-1] is their history): the checksum
 * inputs T[T[T[0] ^ c0] ^ c1] into sums, and those of the 6 * 64 bucket
 * indexes that fall in the 128 buckets the digest uses packed into kept
 * (the upper half is never read from the run's counts). Returns how many
 * were kept. */
TD_TARGET_AVX512 static inline size_t block_indexes(uint8_t *restrict kept, uint32_t *restrict sums,
						    const uint8_t *q, const pearson_regs_t *r)
{
	__m512i c0 = _mm512_loadu_si512(q), c1 = _mm512_loadu_si512(q - 1);
	__m512i c2 = _mm512_loadu_si512(q - 2), c3 = _mm512_loadu_si512(q - 3);
	__m512i c4 = _mm512_loadu_si512(q - 4);
	size_t m = 0;

#define PV(x) pearson64((x), r->t0, r->t1, r->t2, r->t3)
#define FIRST(k) PV(_mm512_xor_si512(c0, _mm512_set1_epi8((char)tlsh_pearson[tlsh_salt[k]])))
#define MAP(k, a, b) PV(_mm512_xor_si512(PV(_mm512_xor_si512(FIRST(k), (a))), (b)))
#define KEEP(v)                                                                        \
	do {                                                                           \
		__m512i v_ = (v);                                                      \
		__mmask64 low_ = ~_mm512_movepi8_mask(v_);                             \
		_mm512_storeu_si512(kept + m, _mm512_maskz_compress_epi8(low_, v_));   \
		m += (size_t)__builtin_popcountll(low_);                               \
	} while (0)
	{
		/* Widened: the chain then needs no zero extension of its own. */
		__m512i x = PV(_mm512_xor_si512(FIRST(0), c1));
		_mm512_storeu_si512(sums, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
		_mm512_storeu_si512(sums + 16, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 1)));
		_mm512_storeu_si512(sums + 32, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 2)));
		_mm512_storeu_si512(sums + 48, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 3)));
	}
	KEEP(MAP(1, c1, c2));
	KEEP(MAP(2, c1, c3));
	KEEP(MAP(3, c2, c3));
	KEEP(MAP(4, c2, c4));
	KEEP(MAP(5, c1, c4));
	KEEP(MAP(6, c3, c4));
#undef KEEP
#undef MAP
#undef FIRST
#undef PV
	return m;
}

/* One stream of a vector run: its counts, history and checksum. */
typedef struct vec_stream {
	uint32_t *even, *odd;
	td_tlsh_ctx_t *ctx;
	const uint8_t *p;
	uint8_t head[HIST + LANES];
	unsigned sum;
} vec_stream_t;

/* The first block's history is in the window, not in p. */
static void stream_start(vec_stream_t *s, uint32_t *even, uint32_t *odd, td_tlsh_ctx_t *ctx,
			 const uint8_t *p)
{
	s->even = even;
	s->odd = odd;
	s->ctx = ctx;
	s->p = p;
	for (int k = 0; k < HIST; k++)
		s->head[k] = ctx->window[HIST - 1 - k];
	memcpy(s->head + HIST, p, LANES);
	s->sum = ctx->checksum;
}

static inline const uint8_t *stream_block(const vec_stream_t *s, size_t i)
{
	return i ? s->p + i : s->head + HIST;
}

/* Count kept[j..m-1], alternating the two arrays. */
static inline void count_kept(uint32_t *restrict even, uint32_t *restrict odd, const uint8_t *kept,
			      size_t j, size_t m)
{
	for (; j + 2 <= m; j += 2) {
		even[kept[j]]++;
		odd[kept[j + 1]]++;
	}
	if (j < m)
		even[kept[j]]++;
}

/* Store the window and checksum after i bytes, then count the tail of
 * fewer than 64 bytes one position at a time. */
static void stream_finish(vec_stream_t *s, size_t i, size_t n)
{
	unsigned idx[6], sum = s->sum;

	for (; i < n; i++) {
		sum = tlsh_position(idx, sum, s->p[i], s->p[i - 1], s->p[i - 2], s->p[i - 3], s->p[i - 4]);
		for (int k = 0; k < 6; k++)
			s->even[idx[k]]++;
	}
	for (int k = 0; k < HIST; k++)
		s->ctx->window[k] = s->p[n - 1 - k];
	s->ctx->checksum = (uint8_t)sum;
}

/* count_run, 64 positions at a time (n >= 64). The checksum chains through
 * itself, one dependent lookup a byte, and sets the pace: the increments
 * are interleaved with it so that they run in its shadow. */
TD_TARGET_AVX512 static void count_run_avx512(uint32_t *restrict even, uint32_t *restrict odd,
					      td_tlsh_ctx_t *ctx, const uint8_t *p, size_t n)
{
	const pearson_regs_t r = pearson_regs();
	uint8_t kept[2][KEPT_BYTES];
	uint32_t sums[2][LANES];
	size_t m[2];
	vec_stream_t s;
	size_t i;

	/* Indexes are made one block ahead of their counting: the byte loads
	 * then read stores that have long retired. */
	stream_start(&s, even, odd, ctx, p);
	m[0] = block_indexes(kept[0], sums[0], stream_block(&s, 0), &r);
	for (i = 0; i + LANES <= n; i += LANES) {
		const uint8_t *kp = kept[(i / LANES) & 1];
		const uint32_t *sp = sums[(i / LANES) & 1];
		size_t mi = m[(i / LANES) & 1], j = 0;
		unsigned sum = s.sum;
		int k = 0;

		if (i + 2 * LANES <= n)
			m[(i / LANES + 1) & 1] = block_indexes(kept[(i / LANES + 1) & 1],
							       sums[(i / LANES + 1) & 1], p + i + LANES, &r);
		for (; k < LANES && j + 6 <= mi; k += 2, j += 6) {
			even[kp[j]]++;
			odd[kp[j + 1]]++;
			even[kp[j + 2]]++;
			sum = T(sp[k] ^ sum);
			odd[kp[j + 3]]++;
			even[kp[j + 4]]++;
			odd[kp[j + 5]]++;
			sum = T(sp[k + 1] ^ sum);
		}
		for (; k < LANES; k++)
			sum = T(sp[k] ^ sum);
		count_kept(even, odd, kp, j, mi);
		s.sum = sum;
	}
	stream_finish(&s, i, n);
}

/* Two independent streams of n >= 64 bytes in lockstep: their checksum
 * chains overlap, so a thread does about twice the work a chain allows. */
TD_TARGET_AVX512 static void count_run2_avx512(vec_stream_t *a, vec_stream_t *b, size_t n)
{
	const pearson_regs_t r = pearson_regs();
	uint8_t kept_a[KEPT_BYTES], kept_b[KEPT_BYTES];
	uint32_t sums_a[LANES], sums_b[LANES];
	uint32_t *restrict ea = a->even, *restrict oa = a->odd;
	uint32_t *restrict eb = b->even, *restrict ob = b->odd;
	size_t i;

	for (i = 0; i + LANES <= n; i += LANES) {
		size_t ma = block_indexes(kept_a, sums_a, stream_block(a, i), &r);
		size_t mb = block_indexes(kept_b, sums_b, stream_block(b, i), &r);
		size_t lim = ma < mb ? ma : mb, j = 0;
		unsigned sa = a->sum, sb = b->sum;
		int k = 0;

		for (; k < LANES && j + 6 <= lim; k += 2, j += 6) {
			ea[kept_a[j]]++;
			eb[kept_b[j]]++;
			oa[kept_a[j + 1]]++;
			ob[kept_b[j + 1]]++;
			sa = T(sums_a[k] ^ sa);
			sb = T(sums_b[k] ^ sb);
			ea[kept_a[j + 2]]++;
			eb[kept_b[j + 2]]++;
			oa[kept_a[j + 3]]++;
			ob[kept_b[j + 3]]++;
			sa = T(sums_a[k + 1] ^ sa);
			sb = T(sums_b[k + 1] ^ sb);
			ea[kept_a[j + 4]]++;
			eb[kept_b[j + 4]]++;
			oa[kept_a[j + 5]]++;
			ob[kept_b[j + 5]]++;
		}
		for (; k < LANES; k++) {
			sa = T(sums_a[k] ^ sa);
			sb = T(sums_b[k] ^ sb);
		}
		count_kept(ea, oa, kept_a, j, ma);
		count_kept(eb, ob, kept_b, j, mb);
		a->sum = sa;
		b->sum = sb;
	}
	stream_finish(a, i, n);
	stream_finish(b, i, n);
}

/* ---- AVX2: the lookups of 32 positions at once in vector registers ---- */

#define TD_TARGET_AVX2 __attribute__((target("avx2")))

enum { LANES2 = 32 };

/* The Pearson table as sixteen 16-byte rows, each in both 128-bit lanes:
 * vpshufb looks up 16 entries at a time within a lane. */
typedef struct pearson_rows {
	__m256i row[16];
} pearson_rows_t;

TD_TARGET_AVX2 static inline void pearson_rows(pearson_rows_t *r)
{
	for (int k = 0; k < 16; k++)
		r->row[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(tlsh_pearson + 16 * k)));
}

/* T[x] for 32 bytes: each row looked up by the low nibble, then a tree of
 * blends picks the row by bits 4, 5, 6 and 7 (vpblendvb reads bit 7 of
 * each byte; the 16-bit shifts bring bit 4, 5 or 6 there). 16 shuffles
 * and 15 blends: what AVX2 has instead of VBMI's 64-byte permutes. */
TD_TARGET_AVX2 static inline __m256i pearson32(__m256i x, const pearson_rows_t *t)
{
	__m256i lo = _mm256_and_si256(x, _mm256_set1_epi8(0x0f));
	__m256i b4 = _mm256_slli_epi16(x, 3), b5 = _mm256_slli_epi16(x, 2), b6 = _mm256_slli_epi16(x, 1);
	__m256i r0, r1, r2, r3;

#define ROW(k) _mm256_shuffle_epi8(t->row[(k)], lo)
#define PAIR(k) _mm256_blendv_epi8(ROW(k), ROW((k) + 1), b4)
#define QUAD(k) _mm256_blendv_epi8(PAIR(k), PAIR((k) + 2), b5)
	r0 = QUAD(0);
	r1 = QUAD(4);
	r2 = QUAD(8);
	r3 = QUAD(12);
#undef QUAD
#undef PAIR
#undef ROW
	r0 = _mm256_blendv_epi8(r0, r1, b6);
	r2 = _mm256_blendv_epi8(r2, r3, b6);
	return _mm256_blendv_epi8(r0, r2, x);
}

/* The 32 positions starting at q (q[-4..-1] is their history): the
 * checksum inputs T[T[T[0] ^ c0] ^ c1] into sums, and the pre-images y of
 * the six triplets into ys, salt by salt: 14 lookups of 32 bytes. */
TD_TARGET_AVX2 static inline void block_preimages(uint8_t ys[6][LANES2], uint32_t sums[LANES2],
						  const uint8_t *q, const pearson_rows_t *t)
{
	__m256i c0 = _mm256_loadu_si256((const __m256i *)q);
	__m256i c1 = _mm256_loadu_si256((const __m256i *)(q - 1));
	__m256i c2 = _mm256_loadu_si256((const __m256i *)(q - 2));
	__m256i c3 = _mm256_loadu_si256((const __m256i *)(q - 3));
	__m256i c4 = _mm256_loadu_si256((const __m256i *)(q - 4));

#define PV(x) pearson32((x), t)
#define FIRST(k) PV(_mm256_xor_si256(c0, _mm256_set1_epi8((char)tlsh_pearson[tlsh_salt[k]])))
#define PRE(k, a, b) _mm256_xor_si256(PV(_mm256_xor_si256(FIRST(k), (a))), (b))
	{
		__m256i x = PV(_mm256_xor_si256(FIRST(0), c1));
		_mm256_storeu_si256((__m256i *)sums, _mm256_cvtepu8_epi32(_mm256_castsi256_si128(x)));
		_mm256_storeu_si256((__m256i *)(sums + 8),
				    _mm256_cvtepu8_epi32(_mm_srli_si128(_mm256_castsi256_si128(x), 8)));
		_mm256_storeu_si256((__m256i *)(sums + 16), _mm256_cvtepu8_epi32(_mm256_extracti128_si256(x, 1)));
		_mm256_storeu_si256((__m256i *)(sums + 24),
				    _mm256_cvtepu8_epi32(_mm_srli_si128(_mm256_extracti128_si256(x, 1), 8)));
	}
	_mm256_storeu_si256((__m256i *)ys[0], PRE(1, c1, c2));
	_mm256_storeu_si256((__m256i *)ys[1], PRE(2, c1, c3));
	_mm256_storeu_si256((__m256i *)ys[2], PRE(3, c2, c3));
	_mm256_storeu_si256((__m256i *)ys[3], PRE(4, c2, c4));
	_mm256_storeu_si256((__m256i *)ys[4], PRE(5, c1, c4));
	_mm256_storeu_si256((__m256i *)ys[5], PRE(6, c3, c4));
#undef PRE
#undef FIRST
#undef PV
}

/* count_run_scalar with the lookups of 32 positions at a time in vectors
 * (n >= 64); the increments and the checksum chain stay scalar, and the
 * pre-images of a block are made one block ahead of their counting. */
TD_TARGET_AVX2 static void count_run_avx2(uint32_t (*restrict h)[TLSH_BUCKETS], td_tlsh_ctx_t *ctx,
					  const uint8_t *p, size_t n)
{
	pearson_rows_t t;
	uint8_t ys[2][6][LANES2];
	uint32_t sums[2][LANES2];
	uint8_t head[HIST + LANES2];
	unsigned sum = ctx->checksum;
	size_t i;

	pearson_rows(&t);
	for (int k = 0; k < HIST; k++)
		head[k] = ctx->window[HIST - 1 - k];
	memcpy(head + HIST, p, LANES2);
	block_preimages(ys[0], sums[0], head + HIST, &t);
	for (i = 0; i + LANES2 <= n; i += LANES2) {
		unsigned cur = (unsigned)(i / LANES2) & 1;
		const uint8_t(*y)[LANES2] = ys[cur];
		const uint32_t *sp = sums[cur];

		if (i + 2 * LANES2 <= n)
			block_preimages(ys[cur ^ 1], sums[cur ^ 1], p + i + LANES2, &t);
		for (int k = 0; k < LANES2; k += 4) {
			for (int j = 0; j < 4; j++) {
				uint32_t *hj = h[j];
				sum = T(sp[k + j] ^ sum);
				hj[y[0][k + j]]++;
				hj[y[1][k + j]]++;
				hj[y[2][k + j]]++;
				hj[y[3][k + j]]++;
				hj[y[4][k + j]]++;
				hj[y[5][k + j]]++;
			}
		}
	}
	for (int k = 0; k < HIST; k++)
		ctx->window[k] = p[i - 1 - k];
	ctx->checksum = (uint8_t)sum;
	if (i < n)
		count_run_scalar(h, ctx, p + i, n - i);
}

static int have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

static int have_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
	       __builtin_cpu_supports("popcnt");
}
#endif

int td_tlsh_impl_supported(td_tlsh_impl_t impl)
{
	switch (impl) {
	case TD_TLSH_IMPL_AUTO:
	case TD_TLSH_IMPL_SCALAR:
	case TD_TLSH_IMPL_PAIR:
		return 1;
	case TD_TLSH_IMPL_AVX512:
#ifdef TD_TLSH_HAVE_X86
		return have_avx512();
#else
		return 0;
#endif
	case TD_TLSH_IMPL_AVX2:
#ifdef TD_TLSH_HAVE_X86
		return have_avx2();
#else
		return 0;
#endif
	}
	return 0;
}

/* The loops by name. The default is the first supported one that is a
 * candidate for it: pair where AVX-512 VBMI is missing. The scalar loop is
 * the simple reference the others are tested against; the AVX2 loop was
 * measured slower than it (bench/README.md, "TLSH counting loops"). Both
 * stay selectable, to be measured on other CPUs. */
static const struct {
	td_tlsh_impl_t impl;
	const char *name;
	int by_default;
} tlsh_loops[] = {
	{ TD_TLSH_IMPL_AVX512, "avx512", 1 },
	{ TD_TLSH_IMPL_PAIR, "pair", 1 },
	{ TD_TLSH_IMPL_SCALAR, "scalar", 0 },
	{ TD_TLSH_IMPL_AVX2, "avx2", 0 },
};
#define TLSH_NLOOPS (sizeof(tlsh_loops) / sizeof(tlsh_loops[0]))

const char *td_tlsh_impl_name(td_tlsh_impl_t impl)
{
	for (size_t i = 0; i < TLSH_NLOOPS; i++)
		if (tlsh_loops[i].impl == impl)
			return tlsh_loops[i].name;
	return "auto";
}

/* What TD_TLSH_IMPL_AUTO stands for in this process, set once by
 * choose_loop and never changed after. */
static struct {
	pthread_once_t once;
	td_tlsh_impl_t impl;
	char refused[32];   /* a TD_TLSH_LOOP value that was not honoured */
} tlsh_choice = { PTHREAD_ONCE_INIT, TD_TLSH_IMPL_PAIR, "" };

static void choose_loop(void)
{
	const char *want = getenv("TD_TLSH_LOOP");
	size_t i;

	for (i = 0; i < TLSH_NLOOPS; i++) {
		if (tlsh_loops[i].by_default && td_tlsh_impl_supported(tlsh_loops[i].impl)) {
			tlsh_choice.impl = tlsh_loops[i].impl;
			break;
		}
	}
	if (!want || !*want || !strcmp(want, "auto"))
		return;
	for (i = 0; i < TLSH_NLOOPS; i++) {
		if (!strcmp(want, tlsh_loops[i].name) && td_tlsh_impl_supported(tlsh_loops[i].impl)) {
			tlsh_choice.impl = tlsh_loops[i].impl;
			return;
		}
	}
	snprintf(tlsh_choice.refused, sizeof(tlsh_choice.refused), "%s", want);
}

td_tlsh_impl_t td_tlsh_impl_default(void)
{
	pthread_once(&tlsh_choice.once, choose_loop);
	return tlsh_choice.impl;
}

const char *td_tlsh_loop(void)
{
	return td_tlsh_impl_name(td_tlsh_impl_default());
}

int td_tlsh_loop_check(td_error_t *err)
{
	char names[64] = "";

	(void)td_tlsh_impl_default();
	if (!tlsh_choice.refused[0])
		return TD_OK;
	for (size_t i = 0; i < TLSH_NLOOPS; i++) {
		if (td_tlsh_impl_supported(tlsh_loops[i].impl)) {
			strncat(names, " ", sizeof(names) - strlen(names) - 1);
			strncat(names, tlsh_loops[i].name, sizeof(names) - strlen(names) - 1);
		}
	}
	return td_error_set(err, TD_EINVAL, "TD_TLSH_LOOP '%s' is not a loop this CPU can run (it can run:%s)",
			    tlsh_choice.refused, names);
}

#ifndef TD_TLSH_HAVE_X86
/* Never called: the vector loops do not exist in this build. */
static void count_run_avx512(uint32_t *even, uint32_t *odd, td_tlsh_ctx_t *ctx, const uint8_t *p,
			     size_t n)
{
	(void)even, (void)odd, (void)ctx, (void)p, (void)n;
}
static void count_run_avx2(uint32_t (*h)[TLSH_BUCKETS], td_tlsh_ctx_t *ctx, const uint8_t *p, size_t n)
{
	count_run_scalar(h, ctx, p, n);
}
#endif

/* AUTO resolved; anything else as asked. */
static td_tlsh_impl_t resolve(td_tlsh_impl_t impl)
{
	return impl == TD_TLSH_IMPL_AUTO ? td_tlsh_impl_default() : impl;
}

static void fold_counts(td_tlsh_ctx_t *ctx, const uint32_t *even, const uint32_t *odd)
{
	for (size_t i = 0; i < TLSH_EFF_BUCKETS; i++)
		ctx->bucket[i] = add_saturated(ctx->bucket[i], even[i] + odd[i]);
}

/* Counts of pre-images y into the buckets T[y] the digest keeps. */
static void fold_preimages(td_tlsh_ctx_t *ctx, const uint32_t (*h)[TLSH_BUCKETS])
{
	for (size_t y = 0; y < TLSH_BUCKETS; y++) {
		unsigned b = T(y);
		if (b < TLSH_EFF_BUCKETS)
			ctx->bucket[b] = add_saturated(ctx->bucket[b], h[0][y] + h[1][y] + h[2][y] + h[3][y]);
	}
}

static void update_large(td_tlsh_ctx_t *ctx, const uint8_t *p, size_t n, td_tlsh_impl_t impl)
{
	_Static_assert(TLSH_SUBHISTS == 4, "fold_preimages adds four sub-histograms");
	impl = resolve(impl);
	if (impl == TD_TLSH_IMPL_AVX512) {
		uint32_t even[TLSH_BUCKETS], odd[TLSH_BUCKETS];

		memset(even, 0, sizeof(even));
		memset(odd, 0, sizeof(odd));
		count_run_avx512(even, odd, ctx, p, n);
		fold_counts(ctx, even, odd);
	} else {
		uint32_t h[TLSH_SUBHISTS][TLSH_BUCKETS];

		memset(h, 0, sizeof(h));
		if (impl == TD_TLSH_IMPL_PAIR)
			count_run_pair(h, ctx, p, n);
		else if (impl == TD_TLSH_IMPL_AVX2)
			count_run_avx2(h, ctx, p, n);
		else
			count_run_scalar(h, ctx, p, n);
		fold_preimages(ctx, (const uint32_t(*)[TLSH_BUCKETS])h);
	}
}

/* Short updates count straight into the context, one byte at a time. */
static void update_small(td_tlsh_ctx_t *ctx, const uint8_t *p, size_t n)
{
	uint32_t *b = ctx->bucket;
	unsigned idx[6];

	for (size_t i = 0; i < n; i++) {
		ctx->checksum = (uint8_t)tlsh_position(idx, ctx->checksum, p[i], ctx->window[0],
						       ctx->window[1], ctx->window[2], ctx->window[3]);
		for (int k = 0; k < 6; k++)
			b[idx[k]] += b[idx[k]] != UINT32_MAX;
		memmove(ctx->window + 1, ctx->window, 3);
		ctx->window[0] = p[i];
	}
}

void td_tlsh_init(td_tlsh_ctx_t *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
}

void td_tlsh_update_impl(td_tlsh_ctx_t *ctx, const void *data, size_t len, td_tlsh_impl_t impl)
{
	const uint8_t *p = data;

	/* The first four bytes of a stream only fill the window. */
	while (len && ctx->len_bytes < TLSH_WINDOW_BYTES - 1) {
		memmove(ctx->window + 1, ctx->window, 3);
		ctx->window[0] = *p++;
		ctx->len_bytes++;
		len--;
	}
	ctx->len_bytes += len;
	while (len) {
		size_t n = len < TLSH_RUN_BYTES ? len : TLSH_RUN_BYTES;

		if (n < TLSH_SMALL_UPDATE_BYTES)
			update_small(ctx, p, n);
		else
			update_large(ctx, p, n, impl);
		p += n;
		len -= n;
	}
}

void td_tlsh_update(td_tlsh_ctx_t *ctx, const void *data, size_t len)
{
	td_tlsh_update_impl(ctx, data, len, TD_TLSH_IMPL_AUTO);
}

/* The first four bytes of a stream only fill the window: give each stream
 * what it lacks of them, so that both can then run in lockstep. */
static size_t window_gap(const td_tlsh_ctx_t *ctx, size_t len)
{
	size_t gap = ctx->len_bytes < TLSH_WINDOW_BYTES - 1
			     ? (size_t)(TLSH_WINDOW_BYTES - 1 - ctx->len_bytes) : 0;
	return gap < len ? gap : len;
}

void td_tlsh_update2_impl(td_tlsh_ctx_t *a, const void *data_a, size_t len_a, td_tlsh_ctx_t *b,
			  const void *data_b, size_t len_b, td_tlsh_impl_t impl)
{
	const uint8_t *pa = data_a, *pb = data_b;
	size_t ga = window_gap(a, len_a), gb = window_gap(b, len_b);

	td_tlsh_update_impl(a, pa, ga, impl);
	td_tlsh_update_impl(b, pb, gb, impl);
	pa += ga;
	pb += gb;
	len_a -= ga;
	len_b -= gb;
#ifdef TD_TLSH_HAVE_X86
	if (resolve(impl) == TD_TLSH_IMPL_AVX512) {
		size_t common = len_a < len_b ? len_a : len_b;

		while (common >= TLSH_SMALL_UPDATE_BYTES) {
			uint32_t counts[4][TLSH_BUCKETS];
			size_t n = common < TLSH_RUN_BYTES ? common : TLSH_RUN_BYTES;
			vec_stream_t sa, sb;

			memset(counts, 0, sizeof(counts));
			a->len_bytes += n;
			b->len_bytes += n;
			stream_start(&sa, counts[0], counts[1], a, pa);
			stream_start(&sb, counts[2], counts[3], b, pb);
			count_run2_avx512(&sa, &sb, n);
			fold_counts(a, counts[0], counts[1]);
			fold_counts(b, counts[2], counts[3]);
			pa += n;
			pb += n;
			len_a -= n;
			len_b -= n;
			common -= n;
		}
	}
#endif
	td_tlsh_update_impl(a, pa, len_a, impl);
	td_tlsh_update_impl(b, pb, len_b, impl);
}

void td_tlsh_update2(td_tlsh_ctx_t *a, const void *data_a, size_t len_a, td_tlsh_ctx_t *b,
		     const void *data_b, size_t len_b)
{
	td_tlsh_update2_impl(a, data_a, len_a, b, data_b, len_b, TD_TLSH_IMPL_AUTO);
}

/* The k-th smallest (from 0) of in[0..n), n <= TLSH_EFF_BUCKETS. Each
 * round counts the values below and equal to a pivot and keeps the side
 * that holds k, without a branch on the data: the counts of a file's
 * buckets are in no order a branch predictor could learn, and with the
 * branches a mispredict a value cost more than the rest of the digest's
 * finishing. */
static uint32_t select_kth(const uint32_t *in, int n, int k)
{
	uint32_t buf[2][2][TLSH_EFF_BUCKETS];
	const uint32_t *a = in;

	for (int round = 0;; round ^= 1) {
		uint32_t pivot = a[n / 2], *lo = buf[round][0], *hi = buf[round][1];
		int nlo = 0, nhi = 0;

		for (int i = 0; i < n; i++) {
			uint32_t v = a[i];
			lo[nlo] = v;
			nlo += v < pivot;
			hi[nhi] = v;
			nhi += v > pivot;
		}
		if (k < nlo) {
			a = lo;
			n = nlo;
		} else if (k < n - nhi) {
			return pivot;
		} else {
			k -= n - nhi;
			a = hi;
			n = nhi;
		}
	}
}

/* The reference's length value: the index of the first table entry that is
 * at least len, capped at the last index. */
static uint8_t length_value(uint64_t len)
{
	size_t lo = 0, hi = TLSH_NTOPVAL - 1;

	if (len >= tlsh_topval[TLSH_NTOPVAL - 1])
		return TLSH_NTOPVAL - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (len <= tlsh_topval[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return (uint8_t)lo;
}

td_tlsh_status_t td_tlsh_final(td_tlsh_t *out, const td_tlsh_ctx_t *ctx)
{
	uint32_t q1, q2, q3;
	int nonzero = 0;

	if (ctx->len_bytes < TD_TLSH_MIN_INPUT_BYTES)
		return TD_TLSH_TOO_SHORT;

	q1 = select_kth(ctx->bucket, TLSH_EFF_BUCKETS, TLSH_Q1_INDEX);
	q2 = select_kth(ctx->bucket, TLSH_EFF_BUCKETS, TLSH_Q2_INDEX);
	q3 = select_kth(ctx->bucket, TLSH_EFF_BUCKETS, TLSH_Q3_INDEX);
	if (q3 == 0)
		return TD_TLSH_TOO_UNIFORM;
	for (size_t i = 0; i < TLSH_EFF_BUCKETS; i++)
		nonzero += ctx->bucket[i] != 0;
	if (nonzero < TLSH_MIN_NONZERO_BUCKETS)
		return TD_TLSH_TOO_UNIFORM;

	/* Each bucket becomes a 2-bit code by quartile, four to a body byte,
	 * the lowest bucket in the lowest bits. */
	for (size_t i = 0; i < TD_TLSH_BODY_BYTES; i++) {
		unsigned h = 0;
		for (unsigned j = 0; j < 4; j++) {
			uint32_t k = ctx->bucket[4 * i + j];
			unsigned code = (k > q3) ? 3 : (k > q2) ? 2 : (k > q1) ? 1 : 0;
			h |= code << (2 * j);
		}
		out->body[i] = (uint8_t)h;
	}
	out->checksum = ctx->checksum;
	out->lvalue = length_value(ctx->len_bytes);
	out->q1_ratio = (uint8_t)((uint64_t)q1 * 100 / q3 % TLSH_RANGE_QRATIO);
	out->q2_ratio = (uint8_t)((uint64_t)q2 * 100 / q3 % TLSH_RANGE_QRATIO);
	return TD_TLSH_OK;
}

td_tlsh_status_t td_tlsh_hash(td_tlsh_t *out, const void *data, size_t len)
{
	td_tlsh_ctx_t ctx;

	td_tlsh_init(&ctx);
	td_tlsh_update(&ctx, data, len);
	return td_tlsh_final(out, &ctx);
}

const char *td_tlsh_status_name(td_tlsh_status_t status)
{
	switch (status) {
	case TD_TLSH_OK: return "ok";
	case TD_TLSH_TOO_SHORT: return "too_short";
	case TD_TLSH_TOO_UNIFORM: return "too_uniform";
	}
	return "unknown";
}

/* The hex form: checksum, length value and the Q byte with their nibbles
 * swapped, then the body from its last byte to its first. */
static void to_wire(uint8_t wire[3 + TD_TLSH_BODY_BYTES], const td_tlsh_t *h)
{
	wire[0] = (uint8_t)(h->checksum << 4 | h->checksum >> 4);
	wire[1] = (uint8_t)(h->lvalue << 4 | h->lvalue >> 4);
	wire[2] = (uint8_t)((h->q1_ratio & 0xf) << 4 | (h->q2_ratio & 0xf));
	for (size_t i = 0; i < TD_TLSH_BODY_BYTES; i++)
		wire[3 + i] = h->body[TD_TLSH_BODY_BYTES - 1 - i];
}

void td_tlsh_format(char out[TD_TLSH_HEX_CHARS + 1], const td_tlsh_t *h)
{
	static const char hex[] = "0123456789ABCDEF";
	uint8_t wire[3 + TD_TLSH_BODY_BYTES];
	char *o = out;

	to_wire(wire, h);
	*o++ = 'T';
	*o++ = '1';
	for (size_t i = 0; i < sizeof(wire); i++) {
		*o++ = hex[wire[i] >> 4];
		*o++ = hex[wire[i] & 0xf];
	}
	*o = '\0';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int td_tlsh_parse(td_tlsh_t *out, const char *text, size_t len)
{
	uint8_t wire[3 + TD_TLSH_BODY_BYTES];

	if (len == TD_TLSH_HEX_CHARS && text[0] == 'T' && text[1] == '1') {
		text += 2;
		len -= 2;
	}
	if (len != 2 * sizeof(wire))
		return -1;
	for (size_t i = 0; i < sizeof(wire); i++) {
		int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		wire[i] = (uint8_t)(hi << 4 | lo);
	}
	out->checksum = (uint8_t)(wire[0] << 4 | wire[0] >> 4);
	out->lvalue = (uint8_t)(wire[1] << 4 | wire[1] >> 4);
	out->q1_ratio = wire[2] >> 4;
	out->q2_ratio = wire[2] & 0xf;
	for (size_t i = 0; i < TD_TLSH_BODY_BYTES; i++)
		out->body[TD_TLSH_BODY_BYTES - 1 - i] = wire[3 + i];
	return 0;
}

/* Circular difference of x and y in 0..range-1. */
static inline int mod_diff(unsigned x, unsigned y, unsigned range)
{
	unsigned d = x > y ? x - y : y - x;
	return (int)(d < range - d ? d : range - d);
}

/* d if d <= 1, else (d - 1) * mult + extra, written without a branch: in a
 * search these differences are random, and mispredictions would cost more
 * than the rest of the distance. */
static inline int scaled_diff(int d, int mult, int extra)
{
	int big = -(d > 1);
	return d + (big & ((d - 1) * mult + extra - d));
}

/* Everything but the body: length, quartile ratios and checksum. The
 * length term is d * TLSH_LENGTH_MULT above 1, the ratio terms
 * (d - 1) * TLSH_QRATIO_MULT. */
static inline int header_distance(const td_tlsh_t *a, const td_tlsh_t *b, int len_diff)
{
	int d = 0;

	if (len_diff)
		d += scaled_diff(mod_diff(a->lvalue, b->lvalue, TLSH_RANGE_LVALUE),
				 TLSH_LENGTH_MULT, TLSH_LENGTH_MULT);
	d += scaled_diff(mod_diff(a->q1_ratio & 0xf, b->q1_ratio & 0xf, TLSH_RANGE_QRATIO),
			 TLSH_QRATIO_MULT, 0);
	d += scaled_diff(mod_diff(a->q2_ratio & 0xf, b->q2_ratio & 0xf, TLSH_RANGE_QRATIO),
			 TLSH_QRATIO_MULT, 0);
	d += a->checksum != b->checksum;
	return d;
}

#define TD_ALWAYS_INLINE static inline __attribute__((always_inline))

/* Body scores of 8 bytes (32 codes) at once, one sum per byte (<= 24).
 * Per 2-bit lane, with x and y the two codes, the lane's low bit marks
 * which of the differences 1, 2 and 3 it has; the marks are then summed
 * within each byte. This was measured faster than a 64 KiB table of byte
 * pairs, and it leaves the cache to the digests being searched. */
TD_ALWAYS_INLINE uint64_t body_scores_word(uint64_t a, uint64_t b)
{
	const uint64_t m1 = 0x5555555555555555u, m2 = 0x3333333333333333u, m4 = 0x0f0f0f0f0f0f0f0fu;
	uint64_t a0 = a & m1, a1 = (a >> 1) & m1, x0 = a0 ^ (b & m1), x1 = a1 ^ ((b >> 1) & m1);
	/* Both bits differ: x and y are 0 and 3 (difference 3) when x's two
	 * bits are equal, else 1 and 2 (difference 1). */
	uint64_t both = x0 & x1, d3 = both & ~(a0 ^ a1), d2 = x1 & ~x0, d1 = (x0 & ~x1) | (both & (a0 ^ a1));
	uint64_t t, u;

	t = d1 * TLSH_BODY_DIFF1 + d2 * TLSH_BODY_DIFF2; /* <= 2 per lane */
	t = (t & m2) + ((t >> 2) & m2);
	t = (t + (t >> 4)) & m4; /* <= 8 per byte */
	u = (d3 & m2) + ((d3 >> 2) & m2);
	u = (u + (u >> 4)) & m4; /* <= 4 per byte */
	return t + u * TLSH_BODY_DIFF3;
}

_Static_assert(TLSH_BODY_DIFF1 == 1 && TLSH_BODY_DIFF2 == 2 && TLSH_BODY_DIFF3 <= 6,
	       "the lane sums of body_scores_word are sized for scores 1, 2 and at most 6");

static inline uint64_t body_scores8(const uint8_t *a8, const uint8_t *b8)
{
	uint64_t a, b;

	memcpy(&a, a8, 8);
	memcpy(&b, b8, 8);
	return body_scores_word(a, b);
}

/* Sum of the bytes of t, each <= 255 (so a multiply would overflow a
 * byte's sums): with shifts. */
static inline int sum_bytes(uint64_t t)
{
	t = (t & 0x00ff00ff00ff00ffu) + ((t >> 8) & 0x00ff00ff00ff00ffu);
	t += t >> 16;
	t += t >> 32;
	return (int)(t & 0xffff);
}

/* The body part of the distance of two bodies. Four words of byte sums
 * <= 24 stay <= 96 a byte. */
static inline int body_distance(const uint8_t *a, const uint8_t *b)
{
	uint64_t t = 0;

	for (size_t i = 0; i < TD_TLSH_BODY_BYTES; i += 8)
		t += body_scores8(a + i, b + i);
	return sum_bytes(t);
}

/* ---- Body distances of many digests at once ----
 *
 * td_tlsh_bodies_t keeps each body whole, 32 bytes a body. Portable: a
 * body at a time (body_distance), measured faster than two bodies per
 * SSE2 register of generic vectors (6.9 against 8.5 ns a body on a Zen 5,
 * bench/tlsh_loops); it is what other CPUs (arm64) run. x86-64 picks AVX2 or AVX-512 at run time
 * (below): a whole body per register, the sums of four or eight bodies
 * reduced together (1.6 and 0.8 ns a body there). */
static void body_distances_portable(const uint8_t *qbody, const td_tlsh_bodies_t *b, size_t from, size_t n,
				    uint16_t *out)
{
	const uint8_t *row = b->row + from * TD_TLSH_BODY_BYTES;

	for (size_t i = 0; i < n; i++, row += TD_TLSH_BODY_BYTES)
		out[i] = (uint16_t)body_distance(qbody, row);
}

_Static_assert(TD_TLSH_BODY_BYTES == 4 * sizeof(uint64_t), "a body is four words");
#ifdef TD_TLSH_HAVE_X86
/* AVX2 and AVX-512: a whole body per 32 bytes of a register
 * (td_tlsh_bodies_t.row) and table lookups instead of the lane sums.
 * x = q ^ b codes each field: 0 same, 1 a difference of 1, 2 of 2, and 3
 * either 3 (q's field is 0 or 3, its two bits equal) or 1 (q's is 1 or 2).
 * Where it is 1, the field's code becomes 1; then a nibble (two fields)
 * looks up the sum of their scores, and the bytes are summed. */
#define SCORE(c) ((c) == 1 ? TLSH_BODY_DIFF1 : (c) == 2 ? TLSH_BODY_DIFF2 : (c) == 3 ? TLSH_BODY_DIFF3 : 0)
#define PAIR(a, b) (char)(SCORE(a) + SCORE(b))
#define ROW(b) PAIR(0, b), PAIR(1, b), PAIR(2, b), PAIR(3, b)
#define NIBBLE_SCORES ROW(0), ROW(1), ROW(2), ROW(3)

/* The byte scores of the body at row against q (q_equal: the low bit of
 * q's fields whose two bits are equal), summed by 8 bytes: four 64-bit
 * lanes, each at most 8 * 2 * TLSH_BODY_DIFF3 = 96. */
#define DEFINE_BODY_SAD(name, attr, V, P, SI, TABLE)                                            \
	attr static inline V name(V q, V q_equal, V row)                                        \
	{                                                                                       \
		const V low = P##_set1_epi8(0x55), nibble = P##_set1_epi8(0x0f);                \
		const V score = TABLE;                                                          \
		V x = P##_xor_##SI(q, row);                                                     \
		V both = P##_and_##SI(P##_and_##SI(x, P##_srli_epi16(x, 1)), low);              \
		V one = P##_andnot_##SI(q_equal, both);                                         \
                                                                                                \
		x = P##_xor_##SI(x, P##_add_epi8(one, one));                                    \
		x = P##_add_epi8(P##_shuffle_epi8(score, P##_and_##SI(x, nibble)),              \
				 P##_shuffle_epi8(score, P##_and_##SI(P##_srli_epi16(x, 4), nibble))); \
		return P##_sad_epu8(x, P##_setzero_##SI());                                     \
	}
DEFINE_BODY_SAD(body_sad_avx2, __attribute__((target("avx2"))), __m256i, _mm256, si256,
		_mm256_setr_epi8(NIBBLE_SCORES, NIBBLE_SCORES))
DEFINE_BODY_SAD(body_sad_avx512, TD_TARGET_AVX512, __m512i, _mm512, si512,
		_mm512_broadcast_i32x4(_mm_setr_epi8(NIBBLE_SCORES)))

/* Four bodies' lanes of sums, s[j] the j-th's: each lane < 2^16, so they
 * pack a body per 16 bits of each lane, and the four lanes add up to the
 * four distances in the low 64 bits. */
__attribute__((target("avx2"))) static inline __m128i sum_lanes4(__m256i s0, __m256i s1, __m256i s2, __m256i s3)
{
	__m256i c = _mm256_or_si256(_mm256_or_si256(s0, _mm256_slli_epi64(s1, 16)),
				    _mm256_or_si256(_mm256_slli_epi64(s2, 32), _mm256_slli_epi64(s3, 48)));
	__m128i t = _mm_add_epi16(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));

	return _mm_add_epi16(t, _mm_unpackhi_epi64(t, t));
}

__attribute__((target("avx2"))) static void body_distances_avx2(const uint8_t *qbody, const td_tlsh_bodies_t *b,
								size_t from, size_t n, uint16_t *out)
{
	const __m256i q = _mm256_loadu_si256((const __m256i *)(const void *)qbody);
	const __m256i q_equal = _mm256_andnot_si256(_mm256_xor_si256(q, _mm256_srli_epi16(q, 1)),
						    _mm256_set1_epi8(0x55));
	const uint8_t *row = b->row + from * TD_TLSH_BODY_BYTES;
	size_t i = 0;

#define ROW_AVX2(j) body_sad_avx2(q, q_equal, _mm256_loadu_si256((const __m256i *)(const void *)(row + (j) * 32)))
	for (; i + 4 <= n; i += 4, row += 4 * TD_TLSH_BODY_BYTES)
		_mm_storel_epi64((__m128i *)(void *)(out + i),
				 sum_lanes4(ROW_AVX2(0), ROW_AVX2(1), ROW_AVX2(2), ROW_AVX2(3)));
	for (; i < n; i++, row += TD_TLSH_BODY_BYTES) {
		__m256i z = _mm256_setzero_si256();
		out[i] = (uint16_t)_mm_cvtsi128_si32(sum_lanes4(ROW_AVX2(0), z, z, z));
	}
#undef ROW_AVX2
}

/* The same, two bodies per register, eight a step. */
TD_TARGET_AVX512 static void body_distances_avx512(const uint8_t *qbody, const td_tlsh_bodies_t *b, size_t from,
						   size_t n, uint16_t *out)
{
	const __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)qbody));
	const __m512i q_equal = _mm512_andnot_si512(_mm512_xor_si512(q, _mm512_srli_epi16(q, 1)),
						    _mm512_set1_epi8(0x55));
	const uint8_t *row = b->row + from * TD_TLSH_BODY_BYTES;
	size_t i = 0;

#define ROWS_AVX512(j) body_sad_avx512(q, q_equal, _mm512_loadu_si512((const void *)(row + (j) * 64)))
	for (; i + 8 <= n; i += 8, row += 8 * TD_TLSH_BODY_BYTES) {
		/* bodies 2j in the low half of each sum, 2j + 1 in the high */
		__m512i s0 = ROWS_AVX512(0), s1 = ROWS_AVX512(1), s2 = ROWS_AVX512(2), s3 = ROWS_AVX512(3);
		__m512i c = _mm512_or_si512(_mm512_or_si512(s0, _mm512_slli_epi64(s1, 16)),
					    _mm512_or_si512(_mm512_slli_epi64(s2, 32), _mm512_slli_epi64(s3, 48)));
		/* the sums of the four lanes of each half, in its first lane:
		 * bodies 0, 2, 4, 6 in lane 0, and 1, 3, 5, 7 in lane 4 */
		c = _mm512_add_epi16(c, _mm512_shuffle_epi32(c, _MM_PERM_BADC));
		c = _mm512_add_epi16(c, _mm512_shuffle_i64x2(c, c, _MM_SHUFFLE(2, 3, 0, 1)));
		_mm_storeu_si128((__m128i *)(void *)(out + i),
				 _mm_unpacklo_epi16(_mm512_castsi512_si128(c), _mm512_extracti32x4_epi32(c, 2)));
	}
#undef ROWS_AVX512
	if (i < n)
		body_distances_avx2(qbody, b, from + i, n - i, out + i);
}
#undef NIBBLE_SCORES
#undef ROW
#undef PAIR
#undef SCORE
#endif

int td_tlsh_bodies_init(td_tlsh_bodies_t *b, size_t n)
{
	memset(b, 0, sizeof(*b));
	if (!(b->row = td_malloc_array(n ? n : 1, TD_TLSH_BODY_BYTES)))
		return TD_ENOMEM;
	b->n = n;
	return TD_OK;
}

void td_tlsh_bodies_set(td_tlsh_bodies_t *b, size_t i, const td_tlsh_t *h)
{
	memcpy(b->row + i * TD_TLSH_BODY_BYTES, h->body, TD_TLSH_BODY_BYTES);
}

void td_tlsh_bodies_release(td_tlsh_bodies_t *b)
{
	free(b->row);
	memset(b, 0, sizeof(*b));
}

typedef void body_distances_fn(const uint8_t *qbody, const td_tlsh_bodies_t *b, size_t from, size_t n,
			       uint16_t *out);

/* The build of the body distances for impl (which must be supported). */
static body_distances_fn *body_distances_for(td_tlsh_impl_t impl)
{
	if (impl == TD_TLSH_IMPL_AUTO)
		impl = td_tlsh_impl_default();
#ifdef TD_TLSH_HAVE_X86
	if (impl == TD_TLSH_IMPL_AVX512)
		return body_distances_avx512;
	if (impl == TD_TLSH_IMPL_AVX2 || (impl == TD_TLSH_IMPL_PAIR && have_avx2()))
		return body_distances_avx2;
#endif
	return body_distances_portable;
}

void td_tlsh_body_distances_impl(const td_tlsh_t *q, const td_tlsh_bodies_t *b, size_t from, size_t n,
				 uint16_t *out, td_tlsh_impl_t impl)
{
	body_distances_for(impl)(q->body, b, from, n, out);
}

/* The default build, chosen once: a search makes millions of calls. */
static struct {
	pthread_once_t once;
	body_distances_fn *fn;
} body_choice = { PTHREAD_ONCE_INIT, NULL };

static void choose_body_distances(void)
{
	body_choice.fn = body_distances_for(TD_TLSH_IMPL_AUTO);
}

void td_tlsh_body_distances(const td_tlsh_t *q, const td_tlsh_bodies_t *b, size_t from, size_t n, uint16_t *out)
{
	pthread_once(&body_choice.once, choose_body_distances);
	body_choice.fn(q->body, b, from, n, out);
}

int td_tlsh_distance(const td_tlsh_t *a, const td_tlsh_t *b, int len_diff)
{
	return header_distance(a, b, len_diff) + body_distance(a->body, b->body);
}

int td_tlsh_distance_bounded(const td_tlsh_t *a, const td_tlsh_t *b, int len_diff, int limit)
{
	int d = header_distance(a, b, len_diff);

	/* Checked every quarter of the body: often enough to cut a search
	 * short, rarely enough not to slow down the sums that go the distance. */
	for (size_t i = 0; i < TD_TLSH_BODY_BYTES && d <= limit; i += 8)
		d += sum_bytes(body_scores8(a->body + i, b->body + i));
	return d;
}
