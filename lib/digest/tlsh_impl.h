/* The interchangeable counting loops behind td_tlsh_update, exposed so that
 * tests can check them against each other and benchmarks can time each.
 * Not part of the public API. */
#ifndef TD_TLSH_IMPL_H
#define TD_TLSH_IMPL_H

#include <stddef.h>
#include "treedrift/tlsh.h"

typedef enum td_tlsh_impl {
	TD_TLSH_IMPL_AUTO = 0, /* the fastest this CPU supports */
	TD_TLSH_IMPL_SCALAR,   /* portable C */
	TD_TLSH_IMPL_AVX512    /* x86-64 with AVX-512 VBMI */
} td_tlsh_impl_t;

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

#endif
