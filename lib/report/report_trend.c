/* The SVG line chart of total distance across releases (treedrift trend). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "treedrift/trend.h"
#include "internal.h"

#define CHART_WIDTH 800.0
#define CHART_HEIGHT 400.0
#define CHART_LEFT 80.0
#define CHART_RIGHT 30.0
#define CHART_TOP 40.0
#define CHART_BOTTOM 90.0 /* room for slanted labels */

/* A round step for about four ticks up to max. */
static uint64_t tick_step(uint64_t max)
{
	uint64_t step = 1;

	while (max / step > 5) {
		if (max / (step * 2) <= 5)
			return step * 2;
		if (max / (step * 5) <= 5)
			return step * 5;
		step *= 10;
	}
	return step;
}

int td_report_trend_svg(FILE *f, const td_trend_point_t *pts, size_t n, const char *title)
{
	const double pw = CHART_WIDTH - CHART_LEFT - CHART_RIGHT;
	const double ph = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM;
	const double bottom = CHART_HEIGHT - CHART_BOTTOM;
	uint64_t max = 0, step;
	int local = 0;

	if (!f || (n && !pts))
		return TD_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (pts[i].total_distance > max)
			max = pts[i].total_distance;
	step = tick_step(max ? max : 1);
	max = (max / step + 1) * step; /* headroom above the highest point */
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<text x=\"%.0f\" y=\"24\" "
		"font-size=\"16\">", CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH, CHART_HEIGHT, CHART_LEFT);
	td_report_html_text(f, title ? title : "total distance", title ? strlen(title) : 14);
	fputs("</text>\n", f);
	for (uint64_t y = 0; y <= max; y += step) {
		double py = bottom - (double)y / (double)max * ph;
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%" PRIu64 "</text>\n",
			CHART_LEFT, py, CHART_WIDTH - CHART_RIGHT, py, CHART_LEFT - 6, py + 4, y);
	}
	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>\n", CHART_LEFT,
		bottom, CHART_WIDTH - CHART_RIGHT, bottom);
	for (size_t i = 0; i < n; i++)
		local |= pts[i].has_local;
	if (n && local) {
		/* local drift beside the total: a dashed line under it, and a legend */
		fputs("<polyline class=\"local\" fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" "
		      "stroke-dasharray=\"6 3\" points=\"", f);
		for (size_t i = 0; i < n; i++) {
			double x = CHART_LEFT + (n > 1 ? pw * (double)i / (double)(n - 1) : pw / 2);
			double y = bottom - (double)pts[i].local_distance / (double)max * ph;
			fprintf(f, "%s%.0f,%.0f", i ? " " : "", x, y);
		}
		fputs("\"/>\n", f);
		for (size_t i = 0; i < n; i++) {
			double x = CHART_LEFT + (n > 1 ? pw * (double)i / (double)(n - 1) : pw / 2);
			double y = bottom - (double)pts[i].local_distance / (double)max * ph;
			fprintf(f, "<g class=\"local-point\" data-value=\"%" PRIu64 "\"><circle cx=\"%.0f\" cy=\"%.0f\" "
				   "r=\"3\" fill=\"#0969da\"/><title>local: %" PRIu64 "</title></g>\n",
				pts[i].local_distance, x, y, pts[i].local_distance);
		}
		fprintf(f, "<g class=\"legend\"><line x1=\"%.0f\" y1=\"40\" x2=\"%.0f\" y2=\"40\" stroke=\"#cf222e\" "
			   "stroke-width=\"2\"/><text x=\"%.0f\" y=\"44\">total distance</text><line x1=\"%.0f\" "
			   "y1=\"56\" x2=\"%.0f\" y2=\"56\" stroke=\"#0969da\" stroke-width=\"2\" "
			   "stroke-dasharray=\"6 3\"/><text x=\"%.0f\" y=\"60\">local distance</text></g>\n",
			CHART_WIDTH - CHART_RIGHT - 150, CHART_WIDTH - CHART_RIGHT - 126, CHART_WIDTH - CHART_RIGHT - 120,
			CHART_WIDTH - CHART_RIGHT - 150, CHART_WIDTH - CHART_RIGHT - 126, CHART_WIDTH - CHART_RIGHT - 120);
	}
	if (n) {
		fputs("<polyline class=\"trend\" fill=\"none\" stroke=\"#cf222e\" stroke-width=\"2\" points=\"", f);
		for (size_t i = 0; i < n; i++) {
			double x = CHART_LEFT + (n > 1 ? pw * (double)i / (double)(n - 1) : pw / 2);
			double y = bottom - (double)pts[i].total_distance / (double)max * ph;
			fprintf(f, "%s%.0f,%.0f", i ? " " : "", x, y);
		}
		fputs("\"/>\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		double x = CHART_LEFT + (n > 1 ? pw * (double)i / (double)(n - 1) : pw / 2);
		double y = bottom - (double)pts[i].total_distance / (double)max * ph;
		fprintf(f, "<g class=\"point\" data-value=\"%" PRIu64 "\" data-label=\"", pts[i].total_distance);
		td_report_html_text(f, pts[i].label, strlen(pts[i].label));
		fprintf(f, "\"><circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"#cf222e\"/><title>", x, y);
		td_report_html_text(f, pts[i].label, strlen(pts[i].label));
		fprintf(f, ": %" PRIu64 "</title><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%" PRIu64
			"</text><text transform=\"translate(%.0f,%.0f) rotate(30)\">", pts[i].total_distance, x,
			y - 9, pts[i].total_distance, x - 4, bottom + 16);
		td_report_html_text(f, pts[i].label, strlen(pts[i].label));
		fputs("</text></g>\n", f);
	}
	fputs("</svg>\n", f);
	return td_report_finish(f);
}
