/* Lines eight bytes at a time: the word tests and the line hash shared by
 * the line bags of similar.c and the line tokens of linediff.c. */
#ifndef TD_LINEHASH_H
#define TD_LINEHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Eight bytes at p, the first in the low byte whatever the byte order (so
 * that the borrow of td_bytes_equal runs from earlier bytes to later ones);
 * past n, zeros. */
static inline uint64_t td_load_bytes(const char *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n < 8 ? n : 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The bytes of w equal to c, marked by their high bit. The first mark is
 * exact; a byte after a marked one can be marked falsely. */
static inline uint64_t td_bytes_equal(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (TD_BYTE_ONES * c);

	return (x - TD_BYTE_ONES) & ~x & (TD_BYTE_ONES << 7);
}

static inline uint64_t td_line_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* The line at p, up to and with its '\n' or to end (p < end): its hash,
 * eight bytes at a time, with its length in *len. One pass finds the
 * line's end and its hash. */
static inline uint64_t td_line_next(const char *p, const char *end, size_t *len)
{
	uint64_t h = 0;
	size_t i = 0;

	for (;;) {
		size_t avail = (size_t)(end - p) - i;
		uint64_t w = td_load_bytes(p + i, avail), nl = td_bytes_equal(w, '\n');
		if (nl) {
			unsigned k = (unsigned)__builtin_ctzll(nl) / 8; /* the '\n' */
			h = td_line_mix(h, k == 7 ? w : w & ((1ull << (8 * k + 8)) - 1));
			i += k + 1;
			break;
		}
		h = td_line_mix(h, w);
		if (avail <= 8) {
			i += avail;
			break;
		}
		i += 8;
	}
	*len = i;
	return td_line_mix(h, i);
}

#endif
