/* Digest of one file's bytes in one pass: SHA-256 and TLSH together, plus
 * a small fallback sketch for inputs TLSH cannot hash. */
#ifndef TREEDRIFT_DIGEST_H
#define TREEDRIFT_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "treedrift/tlsh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TD_SHA256_BYTES 32
#define TD_GITOID_BYTES 20
/* Files without a TLSH digest keep their bytes up to this size as the
 * fallback sketch; larger ones keep a 256-bin byte histogram instead. */
#define TD_SKETCH_RAW_MAX_BYTES 4096
#define TD_SKETCH_HIST_BYTES (256 * 4)

typedef enum td_sketch_kind {
	TD_SKETCH_NONE = 0,  /* the file has a TLSH digest */
	TD_SKETCH_RAW = 1,   /* the whole content */
	TD_SKETCH_HIST = 2   /* 256 little-endian uint32: the 128 TLSH bucket counts, then zeros */
} td_sketch_kind_t;

/* What a scan knows of a file's content. */
typedef struct td_digest {
	uint8_t sha256[TD_SHA256_BYTES];
	uint64_t size_bytes;
	td_tlsh_status_t tlsh_status;  /* TD_TLSH_OK when tlsh holds a digest */
	td_tlsh_t tlsh;
	td_sketch_kind_t sketch_kind;
	size_t sketch_len;
	uint8_t *sketch;               /* owned; freed by td_digest_release */
	int sha_only;                  /* 1: TLSH not computed (identity pass); never stored */
	/* SHA-256 of the whitespace-normalised text (doc/db-schema.md,
	 * content.sha256_ws); a binary file (a NUL byte) is not normalised and
	 * has its SHA-256 here. 1 when set: every file digested with TLSH, but
	 * in a compare's target an added file and one whose normalised text is
	 * not as long as its upstream file's; 0 when not computed (the identity
	 * pass, td_digester_start_unpaired and _ws_length, a database of
	 * schema 1). */
	int has_sha256_ws;
	uint8_t sha256_ws[TD_SHA256_BYTES];
	/* The length of that text (a binary file: its size; content.ws_bytes):
	 * texts of other lengths differ. 1 when set: wherever sha256_ws is, and
	 * td_digester_start_ws_length; 0 from a database before schema 3. */
	int has_ws_bytes;
	uint64_t ws_bytes;
} td_digest_t;

TD_EXTERN void td_digest_release(td_digest_t *d);
/* Deep copy; returns 0 or TD_ENOMEM. */
TD_EXTERN int td_digest_copy(td_digest_t *out, const td_digest_t *src);

/* Streaming digester; one per worker thread, reused across files. */
typedef struct td_digester td_digester_t;

TD_EXTERN int td_digester_new(td_digester_t **out);
TD_EXTERN void td_digester_free(td_digester_t *dg);
/* Begin a file. With want_tlsh=0 only SHA-256 is computed (the cheap pass
 * that proves identity against a known digest). */
TD_EXTERN void td_digester_start(td_digester_t *dg, int want_tlsh);
/* td_digester_start(dg, 1) without the whitespace-normalised digest
 * (has_sha256_ws stays 0), which only tells whether a change to another
 * file is cosmetic: for a file compared with no other at its path. */
TD_EXTERN void td_digester_start_unpaired(td_digester_t *dg);
/* td_digester_start(dg, 1) with only the length of the whitespace-normalised
 * text (ws_bytes; has_sha256_ws stays 0 but for a binary file): for a file
 * whose change can only be cosmetic when that length is its upstream
 * file's, and then td_sha256_ws gives the digest from the content. */
TD_EXTERN void td_digester_start_ws_length(td_digester_t *dg);
TD_EXTERN int td_digester_update(td_digester_t *dg, const void *data, size_t len);
/* td_digester_update on two digesters (of two different files) at once:
 * the same result, faster where TLSH can run both in lockstep. */
TD_EXTERN int td_digester_update2(td_digester_t *a, const void *data_a, size_t len_a, td_digester_t *b,
			const void *data_b, size_t len_b);
/* Finish into out (caller releases with td_digest_release). */
TD_EXTERN int td_digester_finish(td_digest_t *out, td_digester_t *dg);

/* Distance between two digests of changed content, on the TLSH scale.
 * Uses TLSH where both sides have it; otherwise the fallback (see
 * doc/treedrift.1, FALLBACK SCORES) and sets *fallback to 1. */
TD_EXTERN int td_digest_distance(const td_digest_t *a, const td_digest_t *b, int len_diff, int *fallback);

/* Fallback distance of two byte strings (edit distance scaled to
 * TD_FALLBACK_SCALE), exposed for symlink targets and tests. */
#define TD_FALLBACK_SCALE 300
TD_EXTERN int td_fallback_distance_bytes(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);

/* The whitespace-normalised SHA-256 of a whole buffer, as the digester
 * computes it; 0, TD_ENOMEM or TD_EIO. */
TD_EXTERN int td_sha256_ws(uint8_t out[TD_SHA256_BYTES], const void *data, size_t len);

/* Lowercase hex of a SHA-256 (65 bytes with NUL). */
TD_EXTERN void td_sha256_hex(char out[2 * TD_SHA256_BYTES + 1], const uint8_t sha[TD_SHA256_BYTES]);

#ifdef __cplusplus
}
#endif
#endif
