/* UTF-8 decoding and the escaping of text that came from input, shared by
 * the JSON strings and every report. */
#include "utf8.h"

size_t td_utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char b = s[0];
	uint32_t c, min;
	size_t n;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		n = 2, c = b & 0x1f, min = 0x80;
	} else if ((b & 0xf0) == 0xe0) {
		n = 3, c = b & 0x0f, min = 0x800;
	} else if (b >= 0xf0 && b <= 0xf4) {
		n = 4, c = b & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

size_t td_utf8_put_plain(FILE *f, const unsigned char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] >= 0x20 && s[n] < 0x7f && s[n] != '\\' && s[n] != '"')
		n++;
	if (n)
		fwrite(s, 1, n, f);
	return n;
}

int td_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	while (len) {
		size_t n = td_utf8_next(p, len, &cp);
		if (!n)
			return 0;
		p += n;
		len -= n;
	}
	return 1;
}

static void put_octal_walk(FILE *f, unsigned char b, td_escape_put_fn put)
{
	put(f, '\\');
	put(f, (unsigned char)('0' + (b >> 6)));
	put(f, (unsigned char)('0' + ((b >> 3) & 7)));
	put(f, (unsigned char)('0' + (b & 7)));
}

void td_escape_walk(FILE *f, const char *s, size_t len, td_escape_put_fn put)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len) {
		uint32_t cp;
		size_t n = td_utf8_next(p, len, &cp);

		if (!n) {
			put_octal_walk(f, *p, put);
			p++;
			len--;
			continue;
		}
		if (cp == '\\' || cp == '\t' || cp == '\n' || cp == '\r') {
			put(f, '\\');
			put(f, cp == '\\' ? '\\' : cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r');
		} else if (td_utf8_unsafe(cp)) {
			for (size_t i = 0; i < n; i++)
				put_octal_walk(f, p[i], put);
		} else {
			for (size_t i = 0; i < n; i++)
				put(f, p[i]);
		}
		p += n;
		len -= n;
	}
}

int td_utf8_unsafe(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	       cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}
