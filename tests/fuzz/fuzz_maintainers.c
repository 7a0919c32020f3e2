/* libFuzzer target: MAINTAINERS text must parse or fail cleanly. */
#include <stddef.h>
#include <stdint.h>

#include "treedrift/maintainers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	td_maintainers_t *m = NULL;
	td_error_t err;

	if (td_maintainers_parse(&m, (const char *)data, size, "fuzz", &err))
		return 0;
	td_maintainers_lookup(m, "drivers/net/x.c", 15);
	td_maintainers_lookup(m, "Makefile", 8);
	td_maintainers_free(m);
	return 0;
}
