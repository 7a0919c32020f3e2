/* Path globs (--include, --exclude, policies, MAINTAINERS patterns).
 *
 * A pattern is split into parts at '/'. A part that is exactly "**" matches
 * zero or more whole path parts; any other part matches exactly one path
 * part, byte by byte: '*' any run of bytes, '?' one byte, [...] a set, '\'
 * makes the next byte literal. None of them ever matches '/'.
 *
 * Both levels use the greedy algorithm with one backtrack point (the last
 * star seen): on a mismatch, the star takes one more unit and matching goes
 * on from there. That is correct because every unit a non-star matches is
 * matched independently of the others, and it bounds the work to
 * O(pattern * text) at each level: no pattern makes it exponential. */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "treedrift/glob.h"

/* Match the set starting at p[0] == '['. Returns the length of the set's text
 * (up to and including the closing ']') and sets *hit to whether c is in it;
 * 0 when the set has no closing ']', in which case the '[' is an ordinary
 * byte. Inside a set every byte stands for itself (as in POSIX): a ']' first
 * is a member, a '-' first or last is a member. */
static size_t match_set(const unsigned char *p, size_t plen, unsigned char c, int *hit)
{
	size_t i = 1, start;
	int negate = 0, in = 0;

	if (i < plen && (p[i] == '!' || p[i] == '^')) {
		negate = 1;
		i++;
	}
	start = i;
	while (i < plen && (p[i] != ']' || i == start)) {
		unsigned char lo = p[i], hi = p[i];

		if (i + 2 < plen && p[i + 1] == '-' && p[i + 2] != ']') {
			hi = p[i + 2];
			i += 2;
		}
		if (lo <= c && c <= hi)
			in = 1;
		i++;
	}
	if (i >= plen)
		return 0;
	*hit = (in != negate) && c != '/';
	return i + 1;
}

/* Match one non-star pattern unit at p[0..plen) against byte c. Returns the
 * length of the unit when it matches c, 0 when it does not. *literal_from is
 * the first offset (from the part's start, p - base) of a '[' found to have
 * no closing ']': every later '[' has none either, so is not scanned again. */
static size_t match_unit(const unsigned char *base, const unsigned char *p, size_t plen,
			 unsigned char c, size_t *literal_from)
{
	size_t n, at = (size_t)(p - base);
	int hit = 0;

	switch (p[0]) {
	case '?':
		return c != '/' ? 1 : 0;
	case '[':
		if (at >= *literal_from)
			break;
		n = match_set(p, plen, c, &hit);
		if (n)
			return hit ? n : 0;
		*literal_from = at;
		break; /* no closing ']': a literal '[' */
	case '\\':
		if (plen > 1)
			return p[1] == c ? 2 : 0;
		break; /* a trailing backslash stands for itself */
	}
	return p[0] == c ? 1 : 0;
}

/* Match one pattern part against one path part; neither holds a '/'. */
static int match_segment(const unsigned char *p, size_t plen, const unsigned char *s, size_t slen)
{
	size_t pi = 0, si = 0, back_p = SIZE_MAX, back_s = 0, literal_from = SIZE_MAX;

	while (si < slen) {
		size_t n;

		if (pi < plen && p[pi] == '*') {
			while (pi < plen && p[pi] == '*')
				pi++;
			if (pi == plen)
				return 1; /* a final star takes the rest of the part */
			back_p = pi;
			back_s = si;
			continue;
		}
		if (pi < plen && (n = match_unit(p, p + pi, plen - pi, s[si], &literal_from))) {
			pi += n;
			si++;
			continue;
		}
		if (back_p == SIZE_MAX)
			return 0;
		pi = back_p;
		si = ++back_s;
	}
	while (pi < plen && p[pi] == '*')
		pi++;
	return pi == plen;
}

/* End of the part that starts at i in s[0..len): the next '/' or len. */
static size_t part_end(const unsigned char *s, size_t len, size_t i)
{
	const unsigned char *slash = memchr(s + i, '/', len - i);

	return slash ? (size_t)(slash - s) : len;
}

/* Match the pattern parts p[0..plen) against the path parts s[0..slen).
 * Positions run to len + 1, which means "every part consumed". With
 * below_only, the pattern must match leading parts of the path and at least
 * one more path part must follow: a directory pattern, one that ended in '/'
 * or in a "**" part. */
static int match_parts(const unsigned char *p, size_t plen, const unsigned char *s, size_t slen,
		       int below_only)
{
	size_t pi = 0, si = 0, back_p = SIZE_MAX, back_s = 0;

	for (;;) {
		size_t pe, se;

		if (pi > plen) {
			/* every pattern part matched */
			if (below_only ? si <= slen : si > slen)
				return 1;
			goto backtrack;
		}
		pe = part_end(p, plen, pi);
		if (pe - pi == 2 && p[pi] == '*' && p[pi + 1] == '*') {
			back_p = pe + 1;
			back_s = si;
			pi = pe + 1;
			continue;
		}
		if (si > slen)
			goto backtrack;
		se = part_end(s, slen, si);
		if (match_segment(p + pi, pe - pi, s + si, se - si)) {
			pi = pe + 1;
			si = se + 1;
			continue;
		}
backtrack:
		if (back_p == SIZE_MAX || back_s > slen)
			return 0;
		back_s = part_end(s, slen, back_s) + 1;
		pi = back_p;
		si = back_s;
	}
}

int td_glob_match(const char *pattern, const char *path, size_t path_len)
{
	const unsigned char *p = (const unsigned char *)pattern;
	const unsigned char *s = (const unsigned char *)path;
	size_t plen;
	int below_only = 0;

	if (!pattern || !path || !*pattern)
		return 0;
	plen = strlen(pattern);

	/* no '/' at all: the pattern is matched against the last path part */
	if (!memchr(p, '/', plen)) {
		const unsigned char *last = s, *slash;

		while ((slash = memchr(last, '/', path_len - (size_t)(last - s))))
			last = slash + 1;
		return match_segment(p, plen, last, path_len - (size_t)(last - s));
	}

	/* otherwise anchored at the root; a leading '/' only says so */
	if (p[0] == '/') {
		p++;
		plen--;
	}
	if (plen && p[plen - 1] == '/') {
		below_only = 1;
		plen--;
	}
	if (!plen) {
		/* "/" alone: the whole tree */
		return path_len > 0;
	}
	if (!below_only && plen >= 3 && p[plen - 3] == '/' && p[plen - 2] == '*' && p[plen - 1] == '*') {
		/* a final "**" part is everything below, like a final '/' */
		below_only = 1;
		plen -= 3;
	}
	return match_parts(p, plen, s, path_len, below_only);
}
