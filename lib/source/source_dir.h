/* Directory source internals that tests reach; not part of the public API. */
#ifndef TD_SOURCE_DIR_H
#define TD_SOURCE_DIR_H

#include "treedrift/source.h"

/* With use=0, reads of a directory source open each path component with
 * O_NOFOLLOW instead of using openat2(2), as on kernels without it, so that
 * tests cover both ways. Call before any read. No-op for other kinds. */
void td_source_dir_set_openat2(td_source_t *src, int use);

#endif
