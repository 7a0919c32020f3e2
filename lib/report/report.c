/* The report formats: their names and the dispatch to each writer. */
#include <errno.h>
#include <string.h>

#include "report_impl.h"
#include "internal.h"

static const char *const format_names[] = {
	[TD_FORMAT_TEXT] = "text",
	[TD_FORMAT_JSON] = "json",
	[TD_FORMAT_CSV] = "csv",
	[TD_FORMAT_HTML] = "html",
	[TD_FORMAT_MARKDOWN] = "markdown",
	[TD_FORMAT_CYCLONEDX] = "cyclonedx",
};

#define FORMAT_COUNT (sizeof(format_names) / sizeof(format_names[0]))

int td_format_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < FORMAT_COUNT; i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

int td_report_write(FILE *f, const td_analysis_t *a, td_format_t fmt, const td_view_t *v, td_error_t *err)
{
	const char *name = (unsigned)fmt < FORMAT_COUNT ? format_names[fmt] : "unknown";
	int rc;

	if (!f || !a || !a->result)
		return td_error_set(err, TD_EINVAL, "no result or output for the %s report", name);
	errno = 0;
	switch (fmt) {
	case TD_FORMAT_TEXT:
		rc = td_report_text(f, a, v);
		break;
	case TD_FORMAT_JSON:
		rc = td_report_json(f, a, v);
		break;
	case TD_FORMAT_CSV:
		rc = td_report_csv(f, a, v);
		break;
	case TD_FORMAT_HTML:
		rc = td_report_html(f, a, v);
		break;
	case TD_FORMAT_MARKDOWN:
		rc = td_report_markdown(f, a, v);
		break;
	case TD_FORMAT_CYCLONEDX:
		rc = td_report_cyclonedx(f, a, v);
		break;
	default:
		return td_error_set(err, TD_EUNSUPPORTED, "report format '%s' is not supported", name);
	}
	if (rc == TD_EIO)
		return td_error_set(err, rc, "unable to write the %s report: %s", name,
				    strerror(errno ? errno : EIO));
	if (rc)
		return td_error_set(err, rc, "unable to write the %s report: %s", name, td_strerror(rc));
	return TD_OK;
}
