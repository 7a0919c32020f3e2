/* libFuzzer target: policy text must parse or fail cleanly, and a parsed
 * policy must answer lookups. */
#include <stddef.h>
#include <stdint.h>

#include "treedrift/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "kernel/fork.c", "drivers/net/Makefile", "a", "x/y/z.c", "" };
	td_policy_t *p = NULL;
	td_error_t err;
	td_policy_match_t m;

	if (td_policy_parse(&p, (const char *)data, size, "fuzz", &err))
		return 0;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *s = paths[i];
		size_t n = 0;

		while (s[n])
			n++;
		td_policy_lookup(&m, p, s, n);
	}
	td_policy_free(p);
	return 0;
}
