/* libFuzzer target: any pattern against any path, split at the first NUL. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - data) : size;
	char *pattern = malloc(plen + 1);

	if (!pattern)
		return 0;
	memcpy(pattern, data, plen);
	pattern[plen] = '\0';
	if (nul)
		td_glob_match(pattern, (const char *)nul + 1, size - plen - 1);
	else
		td_glob_match(pattern, "a/b/c.d", 7);
	free(pattern);
	return 0;
}
