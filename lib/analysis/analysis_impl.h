/* The analysis's last stage, for the unit tests that format a result made
 * by hand (internal). */
#ifndef TD_ANALYSIS_IMPL_H
#define TD_ANALYSIS_IMPL_H

#include "treedrift/analysis.h"
#include "treedrift/maintainers.h"

/* Fill a's rollups (by_dir > 0: per directory; by_class; m: per subsystem;
 * policy: per policy class for the HTML report; always the treemap's two
 * levels), dirty core files and origin counts from a->result. */
int td_analysis_summarise(td_analysis_t *a, unsigned by_dir, int by_class, const td_maintainers_t *m,
			  int policy, td_error_t *err);

/* Free what td_analysis_summarise added, not the result. */
void td_analysis_summary_release(td_analysis_t *a);

#endif
