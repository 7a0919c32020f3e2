/* Transparent huge pages for big arrays. Each first touch of a page of
 * new memory is a page fault, which costs about 5 µs on some VMs (twice a
 * system call): an array of 24 MB costs 6,000 of them in 4 KiB pages, 12
 * in huge pages. Where the kernel gives huge pages only on request
 * (/sys/kernel/mm/transparent_hugepage/enabled is "madvise"), the big
 * arrays ask for them; elsewhere the request is a no-op. */
#define _DEFAULT_SOURCE 1 /* MADV_HUGEPAGE */
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

void td_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	uintptr_t start, end;
	long page;

	/* every array allocation comes here: the small ones leave at once */
	if (!p || bytes < TD_HUGE_MIN_BYTES || (page = sysconf(_SC_PAGESIZE)) <= 0)
		return;
	/* whole pages: an array malloc maps for itself is then its mapping
	 * whole, which realloc can still move in one piece (mremap) */
	start = (uintptr_t)p & ~((uintptr_t)page - 1);
	end = ((uintptr_t)p + bytes + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}
