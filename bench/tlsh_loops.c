/* Time each TLSH counting loop on the same bytes, in one run.
 *
 *   find TREE -type f | tlsh_loops [MIB [ROUNDS]]
 *
 * Reads the files named on stdin (one path a line) into memory, up to MIB
 * MiB (default 64), then, ROUNDS times (default 15), feeds them to every
 * loop this CPU runs, file by file in 16 KiB updates as the digester does:
 * once one stream at a time (td_tlsh_update) and once two files in
 * lockstep (td_tlsh_update2). The loops take turns within a round, so that
 * a busy machine slows them alike; each keeps its fastest round.
 *
 * Then the whitespace normalisations of the digester (digest_impl.h) on
 * the same files, the same way: the normalised text, and its length alone.
 *
 * Times are the thread's CPU time, not wall time, so that other processes
 * on the machine do not count. Cycles are estimated from a chain of
 * dependent additions (one cycle each) timed right before and after each
 * loop: the VM exposes no cycle counter. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "digest_impl.h"
#include "treedrift/tlsh.h"
#include "tlsh_impl.h"

#define BLOCK_BYTES 16384
#define MAX_FILES 1000000

static const td_tlsh_impl_t impls[] = { TD_TLSH_IMPL_SCALAR, TD_TLSH_IMPL_PAIR, TD_TLSH_IMPL_AVX2,
						TD_TLSH_IMPL_AVX512 };
#define N_IMPLS (sizeof(impls) / sizeof(impls[0]))

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Clock rate in Hz: 2^24 dependent additions. */
static double clock_hz(void)
{
	volatile uint64_t sink;
	uint64_t x = 1;
	double t0 = cpu_seconds(), t;

	for (long i = 0; i < (1L << 22); i++)
#if defined(__x86_64__)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
#elif defined(__aarch64__)
		__asm__ volatile("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1" : "+r"(x));
#else
		x = x * 3 + 1;
#endif
	t = cpu_seconds() - t0;
	sink = x;
	(void)sink;
	return (double)(1L << 24) / t;
}

/* A round of t seconds at hz: the fastest so far in *s and *cyc. */
static void keep_best(double t, double hz, double *s, double *cyc)
{
	if (t < *s)
		*s = t;
	if (t * hz < *cyc)
		*cyc = t * hz;
}

typedef struct corpus {
	uint8_t *buf;
	size_t *off;   /* file i is buf[off[i] .. off[i + 1]) */
	size_t files, bytes;
} corpus_t;

static int load(corpus_t *c, size_t cap)
{
	char line[4096];

	c->buf = malloc(cap);
	c->off = malloc(sizeof(size_t) * (MAX_FILES + 1));
	if (!c->buf || !c->off)
		return -1;
	c->files = c->bytes = 0;
	while (c->bytes < cap && c->files < MAX_FILES && fgets(line, sizeof(line), stdin)) {
		FILE *f;

		line[strcspn(line, "\n")] = '\0';
		if (!(f = fopen(line, "rb")))
			continue;
		c->off[c->files++] = c->bytes;
		c->bytes += fread(c->buf + c->bytes, 1, cap - c->bytes, f);
		fclose(f);
	}
	c->off[c->files] = c->bytes;
	return 0;
}

static size_t piece(size_t len, size_t o)
{
	return o >= len ? 0 : len - o < BLOCK_BYTES ? len - o : BLOCK_BYTES;
}

/* One pass over the corpus; returns the checksums, so nothing is elided. */
static unsigned pass(const corpus_t *c, td_tlsh_impl_t impl, int pairs)
{
	td_tlsh_ctx_t a, b;
	unsigned x = 0;

	for (size_t i = 0; i < c->files; i += pairs ? 2 : 1) {
		const uint8_t *pa = c->buf + c->off[i];
		size_t la = c->off[i + 1] - c->off[i];

		td_tlsh_init(&a);
		if (pairs && i + 1 < c->files) {
			const uint8_t *pb = c->buf + c->off[i + 1];
			size_t lb = c->off[i + 2] - c->off[i + 1];

			td_tlsh_init(&b);
			for (size_t o = 0; o < la || o < lb; o += BLOCK_BYTES)
				td_tlsh_update2_impl(&a, pa + o, piece(la, o), &b, pb + o, piece(lb, o), impl);
			x += b.checksum;
		} else {
			for (size_t o = 0; o < la; o += BLOCK_BYTES)
				td_tlsh_update_impl(&a, pa + o, piece(la, o), impl);
		}
		x += a.checksum;
	}
	return x;
}

#define BODIES 65536
#define QUERIES 64

/* The body distances of the copy candidate search (td_tlsh_body_distances,
 * origin.c) with each loop's build: QUERIES bodies against BODIES, random
 * (the time does not depend on the bytes). Fills ns[k] and cyc[k] per body,
 * the best of rounds. */
static unsigned time_bodies(int rounds, double ns[N_IMPLS], double cyc[N_IMPLS])
{
	static uint16_t out[BODIES];
	td_tlsh_bodies_t b;
	td_tlsh_t h[QUERIES];
	uint64_t x = 88172645463325252ull;
	unsigned sink = 0;

	memset(h, 0, sizeof(h));
	if (td_tlsh_bodies_init(&b, BODIES))
		return 0;
	for (size_t i = 0; i < BODIES + QUERIES; i++) {
		td_tlsh_t t;
		for (size_t j = 0; j < TD_TLSH_BODY_BYTES; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			t.body[j] = (uint8_t)x;
		}
		if (i < BODIES)
			td_tlsh_bodies_set(&b, i, &t);
		else
			memcpy(h[i - BODIES].body, t.body, TD_TLSH_BODY_BYTES);
	}
	for (size_t k = 0; k < N_IMPLS; k++)
		ns[k] = cyc[k] = 1e30;
	for (int r = 0; r < rounds; r++)
		for (size_t k = 0; k < N_IMPLS; k++) {
			double hz, t0, t;
			if (!td_tlsh_impl_supported(impls[k]))
				continue;
			hz = clock_hz();
			t0 = cpu_seconds();
			for (size_t q = 0; q < QUERIES; q++) {
				td_tlsh_body_distances_impl(&h[q], &b, 0, BODIES, out, impls[k]);
				sink += out[q];
			}
			t = (cpu_seconds() - t0) / ((double)BODIES * QUERIES);
			hz = (hz + clock_hz()) / 2;
			if (t * 1e9 < ns[k])
				ns[k] = t * 1e9;
			if (t * hz < cyc[k])
				cyc[k] = t * hz;
		}
	td_tlsh_bodies_release(&b);
	return sink;
}

static const td_ws_impl_t ws_impls[] = { TD_WS_IMPL_SCALAR, TD_WS_IMPL_SSSE3, TD_WS_IMPL_AVX512 };
static const char *const ws_names[] = { "scalar", "ssse3", "avx512" };
#define N_WS (sizeof(ws_impls) / sizeof(ws_impls[0]))

/* Each normalisation this CPU runs over the corpus, 16 KiB a call: the
 * text (pack 1) and its length alone (pack 0); the fastest round of each
 * into s and cyc. Returns the bytes kept, so that the work is used. */
static size_t time_ws(const corpus_t *c, int rounds, double s[N_WS][2], double cyc[N_WS][2])
{
	static uint8_t out[BLOCK_BYTES + TD_WS_SLACK_BYTES];
	size_t kept = 0;

	for (size_t k = 0; k < N_WS; k++)
		s[k][0] = s[k][1] = cyc[k][0] = cyc[k][1] = 1e30;
	for (int r = 0; r < rounds; r++)
		for (size_t k = 0; k < N_WS; k++) {
			if (!td_ws_impl_supported(ws_impls[k]))
				continue;
			for (int pack = 0; pack < 2; pack++) {
				double hz = clock_hz(), t0 = cpu_seconds(), t;

				for (size_t f = 0; f < c->files; f++) {
					int line = 0;
					for (size_t o = c->off[f]; o < c->off[f + 1]; o += BLOCK_BYTES) {
						size_t n = c->off[f + 1] - o < BLOCK_BYTES ? c->off[f + 1] - o : BLOCK_BYTES;
						kept += td_ws_normalise_impl(out, c->buf + o, n, &line, pack, ws_impls[k]);
					}
				}
				t = cpu_seconds() - t0;
				keep_best(t, (hz + clock_hz()) / 2, &s[k][pack], &cyc[k][pack]);
			}
		}
	return kept;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
	int rounds = argc > 2 ? atoi(argv[2]) : 15;
	double best_s[N_IMPLS][2], best_cyc[N_IMPLS][2], body_ns[N_IMPLS], body_cyc[N_IMPLS];
	double ws_s[N_WS][2], ws_cyc[N_WS][2];
	corpus_t c;
	unsigned sink = 0;

	if (!mib || rounds < 1 || load(&c, mib << 20) || !c.bytes) {
		fputs("usage: find TREE -type f | tlsh_loops [MIB [ROUNDS]]\n", stderr);
		return 2;
	}
	for (size_t k = 0; k < N_IMPLS; k++)
		best_s[k][0] = best_s[k][1] = best_cyc[k][0] = best_cyc[k][1] = 1e30;
	for (int r = 0; r < rounds; r++) {
		for (size_t k = 0; k < N_IMPLS; k++) {
			if (!td_tlsh_impl_supported(impls[k]))
				continue;
			for (int pairs = 0; pairs < 2; pairs++) {
				double hz = clock_hz(), t0 = cpu_seconds(), t;

				sink += pass(&c, impls[k], pairs);
				t = cpu_seconds() - t0;
				keep_best(t, (hz + clock_hz()) / 2, &best_s[k][pairs], &best_cyc[k][pairs]);
			}
		}
	}
	printf("%zu files, %zu bytes, %d rounds, best round of each (thread CPU time)\n", c.files, c.bytes,
	       rounds);
	printf("| loop | one stream [MB/s] | cycles/B | two streams [MB/s] | cycles/B |\n");
	printf("| --- | ---: | ---: | ---: | ---: |\n");
	for (size_t k = 0; k < N_IMPLS; k++) {
		if (!td_tlsh_impl_supported(impls[k]))
			continue;
		printf("| %s | %.0f | %.2f | %.0f | %.2f |\n", td_tlsh_impl_name(impls[k]),
		       (double)c.bytes / best_s[k][0] / 1e6, best_cyc[k][0] / (double)c.bytes,
		       (double)c.bytes / best_s[k][1] / 1e6, best_cyc[k][1] / (double)c.bytes);
	}
	sink += time_bodies(rounds, body_ns, body_cyc);
	printf("\nbody distances of the copy candidate search, %d queries against %d bodies, best round\n",
	       QUERIES, BODIES);
	printf("| loop (its build) | ns/body | cycles/body |\n");
	printf("| --- | ---: | ---: |\n");
	for (size_t k = 0; k < N_IMPLS; k++)
		if (td_tlsh_impl_supported(impls[k]))
			printf("| %s | %.2f | %.1f |\n", td_tlsh_impl_name(impls[k]), body_ns[k], body_cyc[k]);
	sink += (unsigned)time_ws(&c, rounds, ws_s, ws_cyc);
	printf("\nwhitespace normalisations of the digester, 16 KiB a call, best round\n");
	printf("| normalisation | text [MB/s] | cycles/B | length alone [MB/s] | cycles/B |\n");
	printf("| --- | ---: | ---: | ---: | ---: |\n");
	for (size_t k = 0; k < N_WS; k++)
		if (td_ws_impl_supported(ws_impls[k]))
			printf("| %s | %.0f | %.2f | %.0f | %.2f |\n", ws_names[k], (double)c.bytes / ws_s[k][1] / 1e6,
			       ws_cyc[k][1] / (double)c.bytes, (double)c.bytes / ws_s[k][0] / 1e6,
			       ws_cyc[k][0] / (double)c.bytes);
	free(c.buf);
	free(c.off);
	return sink == 0xdeadbeef;
}
