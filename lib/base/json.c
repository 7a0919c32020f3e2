/* JSON strings: always valid UTF-8, safe to show on a terminal. */
#include <stdint.h>

#include "utf8.h"
#include "internal.h"
#include "treedrift/json.h"

static const char hex_digits[] = "0123456789abcdef";

void td_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (len) {
		uint32_t cp;
		size_t n = td_utf8_put_plain(f, p, len);

		if (n) {
			p += n;
			len -= n;
			continue;
		}
		if (!(n = td_utf8_next(p, len, &cp))) {
			fputs("\\ufffd", f);
			p++;
			len--;
			continue;
		}
		switch (cp) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (td_utf8_unsafe(cp))
				fprintf(f, "\\u%c%c%c%c", hex_digits[(cp >> 12) & 15],
					hex_digits[(cp >> 8) & 15], hex_digits[(cp >> 4) & 15],
					hex_digits[cp & 15]);
			else
				fwrite(p, 1, n, f);
		}
		p += n;
		len -= n;
	}
	fputc('"', f);
}
