/* libFuzzer target: a patch's text (mail or DEP-3 headers, then a diff in
 * git or traditional form) must parse or fail cleanly, whatever the bytes,
 * with -p0 and -p1; the origin parser must take any text, and so must the
 * parser of Fixes:, Cc: stable and CVE tags. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patch_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	td_error_t err;

	for (unsigned strip = 0; strip <= 1; strip++) {
		td_patch_t p;
		char *diff = NULL;
		size_t len = 0;

		memset(&p, 0, sizeof(p));
		if (!td_patch_parse_text(&p, &diff, &len, (const char *)data, size, strip, "fuzz", &err) &&
		    (!diff || diff[len] != '\0'))
			abort(); /* a diff comes back NUL-terminated */
		free(diff);
		td_patch_release(&p);
	}
	{
		td_commit_tags_t t;
		if (!td_commit_tags_parse(&t, (const char *)data, size)) {
			for (size_t i = 0; i < t.ncves; i++)
				if (strncmp(t.cves[i], "CVE-", 4))
					abort(); /* a CVE id is one */
			/* a reverted id is 7 to 64 lower-case hex digits */
			if (t.reverts && (strlen(t.reverts) < 7 || strlen(t.reverts) > 64 ||
					  strspn(t.reverts, "0123456789abcdef") != strlen(t.reverts)))
				abort();
			td_commit_tags_release(&t);
		}
	}
	return 0;
}
