/* td_advise_huge through the array helpers: the pages of a big array are
 * marked for transparent huge pages (the "hg" of its mapping's VmFlags in
 * /proc/self/smaps), also once realloc has grown it; a small array's are
 * not. Skipped (77) where the kernel has no transparent huge pages. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"

/* Whether the mapping that holds p has VmFlags "hg": 1, 0, or -1 when
 * smaps does not list it. */
static int marked_huge(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = -1;
	uintptr_t a = (uintptr_t)p;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		/* a mapping's first line: its range, then no "Key:" */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strcspn(line, ":") > strcspn(line, " ")) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			found = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

int main(void)
{
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char mode[128] = "";
	size_t cap = 0;
	void *grown = NULL;
	char *small, *big;

	if (thp) {
		if (!fgets(mode, sizeof(mode), thp))
			mode[0] = 0;
		fclose(thp);
	}
	if (!mode[0] || strstr(mode, "[never]")) {
		printf("no transparent huge pages here: skipped\n");
		return 77;
	}
	/* the small one first, before any big one marks a heap's pages */
	small = td_malloc_array(64, 1024);
	CHECK(small != NULL);
	CHECK_INT(marked_huge(small), 0);

	big = td_malloc_array(TD_HUGE_MIN_BYTES / 8, 8);
	CHECK(big != NULL);
	CHECK_INT(marked_huge(big), 1);
	free(big);
	big = td_calloc_array(TD_HUGE_MIN_BYTES * 2, 1);
	CHECK(big != NULL);
	CHECK_INT(marked_huge(big), 1);
	CHECK(big && big[TD_HUGE_MIN_BYTES] == 0);
	free(big);

	/* grown past the threshold by doubling, and on to four times it */
	CHECK_INT(td_grow(&grown, &cap, TD_HUGE_MIN_BYTES / 16, 16), 0);
	CHECK_INT(marked_huge(grown), 1);
	CHECK_INT(td_grow(&grown, &cap, TD_HUGE_MIN_BYTES / 4, 16), 0);
	CHECK_INT(marked_huge(grown), 1);
	CHECK_INT(marked_huge((char *)grown + cap * 16 - 1), 1);
	free(grown);
	free(small);
	return check_finish();
}
