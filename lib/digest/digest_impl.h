/* The whitespace normalisations behind the digester (digest.c), exposed so
 * that tests can check each against the others. Not part of the public
 * API. */
#ifndef TD_DIGEST_IMPL_H
#define TD_DIGEST_IMPL_H

#include <stddef.h>
#include <stdint.h>

typedef enum td_ws_impl {
	TD_WS_IMPL_AUTO = 0, /* the fastest this CPU supports */
	TD_WS_IMPL_SCALAR,   /* portable C, a byte at a time */
	TD_WS_IMPL_SSSE3,    /* x86 with SSSE3 and POPCNT */
	TD_WS_IMPL_AVX512    /* x86-64 with AVX-512 BW and VBMI2 */
} td_ws_impl_t;

/* Non-zero when impl can run on this build and CPU. */
int td_ws_impl_supported(td_ws_impl_t impl);

/* The whitespace-normalised text of n bytes of p (doc/formats.md,
 * "Cosmetic changes") into out, which has room for n + TD_WS_SLACK_BYTES;
 * *line_kept (0 or 1: the current line has kept a byte) is carried from
 * call to call. Returns the bytes of the result; with pack 0 only that
 * length counts (out is written all the same). impl must be supported. */
size_t td_ws_normalise_impl(uint8_t *out, const uint8_t *p, size_t n, int *line_kept, int pack, td_ws_impl_t impl);

#define TD_WS_SLACK_BYTES 16

#endif
