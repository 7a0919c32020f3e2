/* The interchangeable counting loops behind td_tlsh_update, exposed so that
 * tests can check them against each other and benchmarks can time each.
 * Not part of the public API. */
#ifndef TD_TLSH_IMPL_H
#define TD_TLSH_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "treedrift/tlsh.h"

typedef enum td_tlsh_impl {
	TD_TLSH_IMPL_AUTO = 0, /* td_tlsh_impl_default() */
	TD_TLSH_IMPL_SCALAR,   /* portable C */
	TD_TLSH_IMPL_AVX512,   /* x86-64 with AVX-512 VBMI and VBMI2 */
	TD_TLSH_IMPL_AVX2,     /* x86-64 with AVX2 */
	TD_TLSH_IMPL_PAIR      /* portable C with tables of byte pairs */
} td_tlsh_impl_t;

/* What AUTO stands for in this process: the fastest loop this CPU
 * supports, or the one TD_TLSH_LOOP names (td_tlsh_loop in tlsh.h). */
td_tlsh_impl_t td_tlsh_impl_default(void);

/* "scalar", "pair", "avx2", "avx512", or "auto". */
const char *td_tlsh_impl_name(td_tlsh_impl_t impl);

/* Non-zero when impl can run on this build and CPU. */
int td_tlsh_impl_supported(td_tlsh_impl_t impl);

/* td_tlsh_update with a chosen loop; impl must be supported. */
void td_tlsh_update_impl(td_tlsh_ctx_t *ctx, const void *data, size_t len, td_tlsh_impl_t impl);

/* Two independent streams at once: the same as td_tlsh_update_impl on
 * each, faster where the loop can interleave them (AVX-512). a and b
 * must be different contexts. */
void td_tlsh_update2_impl(td_tlsh_ctx_t *a, const void *data_a, size_t len_a, td_tlsh_ctx_t *b,
			  const void *data_b, size_t len_b, td_tlsh_impl_t impl);
void td_tlsh_update2(td_tlsh_ctx_t *a, const void *data_a, size_t len_a, td_tlsh_ctx_t *b,
		     const void *data_b, size_t len_b);

/* TLSH bodies held for td_tlsh_body_distances, each whole: body i at
 * row + TD_TLSH_BODY_BYTES * i. */
typedef struct td_tlsh_bodies {
	uint8_t *row;
	size_t n;
} td_tlsh_bodies_t;

/* Room for n bodies; 0 or TD_ENOMEM. */
int td_tlsh_bodies_init(td_tlsh_bodies_t *b, size_t n);
void td_tlsh_bodies_set(td_tlsh_bodies_t *b, size_t i, const td_tlsh_t *h);
void td_tlsh_bodies_release(td_tlsh_bodies_t *b);

/* out[i] = the body part of the distance from q to body from + i, for i
 * below n: td_tlsh_distance less its header terms (length, quartile
 * ratios, checksum). Vectorized over the bodies: with AVX-512 where the
 * counting loop is avx512, else with AVX2 where the CPU has it (for the
 * scalar loop: portable C, as on any other CPU). */
void td_tlsh_body_distances(const td_tlsh_t *q, const td_tlsh_bodies_t *b, size_t from, size_t n, uint16_t *out);

/* The same with the build of a loop: avx512 and avx2 use those
 * instructions (they must be supported), scalar the portable build, pair
 * AVX2 where the CPU has it. */
void td_tlsh_body_distances_impl(const td_tlsh_t *q, const td_tlsh_bodies_t *b, size_t from, size_t n,
				 uint16_t *out, td_tlsh_impl_t impl);

#endif
