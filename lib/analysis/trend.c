/* Trend: one comparison's figures per release. */
#include <stdlib.h>
#include <string.h>

#include "treedrift/trend.h"
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

void td_trend_point_release(td_trend_point_t *p)
{
	if (!p)
		return;
	free(p->label);
	p->label = NULL;
}
