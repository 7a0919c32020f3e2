/* Trend: one comparison's figures per release. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/analysis.h"
#include "treedrift/provenance.h"
#include "treedrift/trend.h"
#include "treedrift/upstream.h"
#include "internal.h"

int td_trend_point_init(td_trend_point_t *p, const char *label, const td_result_t *r)
{
	size_t len = strlen(label);

	memset(p, 0, sizeof(*p));
	if (!(p->label = malloc(len + 1)))
		return TD_ENOMEM;
	memcpy(p->label, label, len + 1);
	p->total_distance = r->totals.total_distance;
	p->modified = r->totals.modified;
	p->added = r->totals.added;
	p->removed = r->totals.removed;
	for (int c = 0; c < TD_CLASS_COUNT; c++)
		p->by_class[c] = r->totals.by_class[c].files;
	return TD_OK;
}

int td_trend_point_of_analysis(td_trend_point_t *p, const char *label, const td_analysis_t *a)
{
	int rc = td_trend_point_init(p, label, a->result);

	if (rc)
		return rc;
	if (a->provenance) {
		p->has_local = 1;
		p->local_distance = a->provenance->distance_local;
	}
	if (a->upstream) {
		p->fixes_lacking = td_fix_lacking(a->upstream->fix_count);
		p->cves_lacking = td_fix_lacking(a->upstream->cve_count);
	}
	return TD_OK;
}

void td_trend_point_release(td_trend_point_t *p)
{
	if (!p)
		return;
	free(p->label);
	p->label = NULL;
}
