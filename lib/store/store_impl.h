/* store.c's hooks for tests; not part of the public API. */
#ifndef TD_STORE_IMPL_H
#define TD_STORE_IMPL_H

#include "treedrift/store.h"

/* Cap the writer's temporary database at max_pages pages (PRAGMA
 * max_page_count), so that a test can make a write fail as it would on a
 * full disk. */
int td_db_writer_set_max_pages(td_db_writer_t *w, unsigned max_pages, td_error_t *err);

/* The application_id every treedrift database carries: "TDr1". */
#define TD_DB_APPLICATION_ID 0x54447231

#endif
