/* TLSH, the Trend Micro Locality Sensitive Hash, compatible byte for byte
 * with the reference implementation 4.x in its default configuration:
 * 128 buckets, 1-byte checksum, "T1" version prefix, minimum input 50 bytes.
 * Pure computation: no I/O, no allocation, no mutable global state; any
 * number of threads may use it on their own contexts.
 *
 * Two deliberate differences from the reference, both outside what it can
 * do correctly:
 * - The digest does not depend on how the input is split across updates
 *   (the reference's differs when its first chunk is under 5 bytes).
 * - Inputs longer than 4,224,281,216 bytes (the last entry of the length
 *   table, about 3.93 GiB) all get the last length value, 169; the reference
 *   never returns for them. Bucket counts saturate at UINT32_MAX instead of
 *   wrapping, which only an input of several GiB can reach. Digests of files
 *   over 4 GiB are therefore valid and comparable among themselves, but no
 *   reference build produces them. */
#ifndef TREEDRIFT_TLSH_H
#define TREEDRIFT_TLSH_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TD_TLSH_BODY_BYTES 32     /* 128 buckets, 2 bits each */
#define TD_TLSH_HEX_CHARS 72      /* "T1" + 70 hex digits */
#define TD_TLSH_MIN_INPUT_BYTES 50

/* A finished digest, as the reference holds it (before hex encoding). */
typedef struct td_tlsh {
	uint8_t checksum;
	uint8_t lvalue;       /* length value, capped at the table's last entry */
	uint8_t q1_ratio;     /* 0..15 */
	uint8_t q2_ratio;     /* 0..15 */
	uint8_t body[TD_TLSH_BODY_BYTES];
} td_tlsh_t;

/* Streaming state; the caller embeds it. The digest does not depend on how
 * the input is split across td_tlsh_update calls. Only bucket[0..127]
 * make the digest; the upper half is not kept up to date. */
typedef struct td_tlsh_ctx {
	uint32_t bucket[256];
	uint64_t len_bytes;
	uint8_t window[4];    /* the last bytes seen, newest first */
	uint8_t checksum;
} td_tlsh_ctx_t;

/* Why no digest could be made. */
typedef enum td_tlsh_status {
	TD_TLSH_OK = 0,
	TD_TLSH_TOO_SHORT = 1,   /* under TD_TLSH_MIN_INPUT_BYTES */
	TD_TLSH_TOO_UNIFORM = 2  /* too little variety: quartile 3 is 0 or too many empty buckets */
} td_tlsh_status_t;

TD_EXTERN void td_tlsh_init(td_tlsh_ctx_t *ctx);
TD_EXTERN void td_tlsh_update(td_tlsh_ctx_t *ctx, const void *data, size_t len);
/* Finish; returns TD_TLSH_OK and fills out, or the reason there is no digest.
 * ctx is left unchanged, so more input may follow. */
TD_EXTERN td_tlsh_status_t td_tlsh_final(td_tlsh_t *out, const td_tlsh_ctx_t *ctx);
/* One-shot digest of a buffer. */
TD_EXTERN td_tlsh_status_t td_tlsh_hash(td_tlsh_t *out, const void *data, size_t len);

/* "too_short", "too_uniform" (the reference's "cannot hash"), or "ok". */
TD_EXTERN const char *td_tlsh_status_name(td_tlsh_status_t status);

/* Encode as "T1" + 70 uppercase hex digits and a NUL. */
TD_EXTERN void td_tlsh_format(char out[TD_TLSH_HEX_CHARS + 1], const td_tlsh_t *h);
/* Parse 70 hex digits, with or without the "T1" prefix (either case of hex).
 * Returns 0, or -1 when text is not a digest. */
TD_EXTERN int td_tlsh_parse(td_tlsh_t *out, const char *text, size_t len);

/* The counting loop td_tlsh_update uses in this process: "avx512",
 * "avx2", "pair" or "scalar". By default the fastest this CPU supports; the
 * environment variable TD_TLSH_LOOP, read once at the first call that
 * needs it, may name another one the CPU supports (or "auto"). Every loop
 * gives the same digests. The string is static. */
TD_EXTERN const char *td_tlsh_loop(void);

/* 0, or TD_EINVAL (err says why and which loops this CPU can run) when
 * TD_TLSH_LOOP names no loop this build and CPU can run; the default is
 * then used. */
TD_EXTERN int td_tlsh_loop_check(td_error_t *err);

/* Distance between two digests; 0 = near identical. With len_diff=0 the
 * file-length term is left out (the reference's -xlen). */
TD_EXTERN int td_tlsh_distance(const td_tlsh_t *a, const td_tlsh_t *b, int len_diff);

/* The same distance when it is at most limit; otherwise some value greater
 * than limit (it may stop early), for nearest-neighbour searches. */
TD_EXTERN int td_tlsh_distance_bounded(const td_tlsh_t *a, const td_tlsh_t *b, int len_diff, int limit);

#ifdef __cplusplus
}
#endif
#endif
