/* libFuzzer target: .config text must parse or fail cleanly, and a parsed
 * configuration must answer lookups and list what it holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "treedrift/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_one(void *ctx, const char *name, const char *value)
{
	size_t *n = ctx;

	if (!name || !value)
		abort();
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	td_kconfig_t *cfg = NULL;
	td_error_t err;
	size_t n = 0;

	if (td_kconfig_parse(&cfg, (const char *)data, size, &err))
		return 0;
	td_kconfig_tristate(cfg, "CONFIG_SMP");
	td_kconfig_value(cfg, "CONFIG_HZ");
	td_kconfig_foreach(cfg, count_one, &n);
	if (n != td_kconfig_count(cfg))
		abort();
	td_kconfig_free(cfg);
	return 0;
}
