/* td_text_escape: the reports' escaping (td_escape_walk) for the CLI. */
#include "treedrift/text.h"
#include "utf8.h"

static void put_byte(FILE *f, unsigned char c)
{
	fputc(c, f);
}

void td_text_escape(FILE *f, const char *s, size_t len)
{
	if (f && s)
		td_escape_walk(f, s, len, put_byte);
}
