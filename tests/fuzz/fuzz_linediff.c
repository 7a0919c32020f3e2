/* libFuzzer target: two buffers (the input split where its first two bytes
 * say) diffed by td_linediff_walk, which hands libgit2 each distinct line
 * as a token, must give every line (origin, numbers, hunk, content) as
 * libgit2 gives them diffing the buffers themselves; td_linediff's counts
 * must agree with that walk (linediff_oracle.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "linediff_oracle.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One reference on libgit2 for the whole run, so that each input does not
 * set it up and tear it down again. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	git_libgit2_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t at;

	if (size < 2)
		return 0;
	at = ((size_t)data[0] | (size_t)data[1] << 8) % (size - 1);
	if (oracle_check((const char *)data + 2, at, (const char *)data + 2 + at, size - 2 - at) != 1)
		abort();
	return 0;
}
