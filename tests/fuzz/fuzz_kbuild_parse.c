/* libFuzzer target: the Makefile parser alone must split any text into
 * statements or fail cleanly, and every statement must be well formed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/kbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	td_kbuild_makefile_t *mf = NULL;
	td_error_t err;

	if (td_kbuild_parse_makefile(&mf, (const char *)data, size, &err))
		return 0;
	for (size_t i = 0; i < td_kbuild_makefile_count(mf); i++) {
		const td_kbuild_stmt_t *s = td_kbuild_makefile_stmt(mf, i);

		if (!s || !s->name || !s->text)
			abort();
		(void)strlen(s->name);
		(void)strlen(s->text);
	}
	td_kbuild_makefile_free(mf);
	return 0;
}
