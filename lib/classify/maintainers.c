/* MAINTAINERS: sections are a title line followed by "X:\tvalue" lines and
 * end at a blank line. The prose before the list has no such lines at the
 * start of a line, so a title is simply a line a tag line follows. */
#include <stdlib.h>
#include <string.h>

#include "globset.h"
#include "textfile.h"
#include "treedrift/compare.h"
#include "treedrift/maintainers.h"

#define PATTERN_MAX 4096

struct section {
	char *title;
	size_t x_first;      /* its X: patterns: xs[x_first .. x_first + x_count) */
	size_t x_count;
	size_t f_count;
};

struct td_maintainers {
	struct section *sections;
	size_t count;
	size_t cap;
	char **xs;
	size_t xs_count;
	size_t xs_cap;
	size_t lines;        /* F: and X: lines seen */
	td_globset_t *set;   /* F: patterns, valued by section index */
};

struct mparser {
	td_maintainers_t *m;
	const char *name;
	unsigned line;
	td_error_t *err;
};

void td_maintainers_free(td_maintainers_t *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++)
		free(m->sections[i].title);
	for (size_t i = 0; i < m->xs_count; i++)
		free(m->xs[i]);
	free(m->sections);
	free(m->xs);
	td_globset_free(m->set);
	free(m);
}

/* Report an error at the line being read. */
#define mfail(ps, code, ...) td_error_at((ps)->err, (code), (ps)->name, (ps)->line, __VA_ARGS__)

static int is_tag(const char *s, size_t len)
{
	return len >= 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] == ':';
}

static int new_section(struct mparser *ps, const char *title, size_t len, unsigned title_line)
{
	td_maintainers_t *m = ps->m;
	struct section *sec;

	if (len > TD_MAINTAINERS_MAX_TITLE) {
		ps->line = title_line;
		return mfail(ps, TD_EINVAL, "section title longer than %d bytes", TD_MAINTAINERS_MAX_TITLE);
	}
	if (td_grow((void **)&m->sections, &m->cap, m->count + 1, sizeof(*m->sections)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	sec = &m->sections[m->count];
	memset(sec, 0, sizeof(*sec));
	if (!(sec->title = td_strndup(title, len)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	sec->x_first = m->xs_count;
	m->count++;
	return TD_OK;
}

static int add_x(td_maintainers_t *m, const char *glob)
{
	char *copy;

	if (td_grow((void **)&m->xs, &m->xs_cap, m->xs_count + 1, sizeof(*m->xs)) ||
	    !(copy = td_strndup(glob, strlen(glob))))
		return TD_ENOMEM;
	m->xs[m->xs_count++] = copy;
	m->sections[m->count - 1].x_count++;
	return TD_OK;
}

/* An F: or X: value as globs: anchored ("/value"); a plain name also as a
 * directory ("/value/"), since the file does not say which it is. */
static int add_pattern(struct mparser *ps, char tag, const char *v, size_t len)
{
	td_maintainers_t *m = ps->m;
	struct section *sec = &m->sections[m->count - 1];
	char glob[PATTERN_MAX + 3];
	int variants, rc = TD_OK;

	if (!len)
		return TD_OK;
	if (len > PATTERN_MAX)
		return mfail(ps, TD_EINVAL, "pattern longer than %d bytes", PATTERN_MAX);
	if (++m->lines > TD_MAINTAINERS_MAX_PATTERNS)
		return mfail(ps, TD_ENOMEM, "more than %d F: and X: lines", TD_MAINTAINERS_MAX_PATTERNS);
	glob[0] = '/';
	memcpy(glob + 1, v, len);
	glob[len + 1] = '\0';
	variants = (v[len - 1] != '/' && !memchr(v, '*', len) && !memchr(v, '?', len) &&
		    !memchr(v, '[', len)) ? 2 : 1;
	for (int k = 0; k < variants && !rc; k++) {
		if (k) {
			glob[len + 1] = '/';
			glob[len + 2] = '\0';
		}
		if (tag == 'F')
			rc = td_globset_add(m->set, glob, (uint32_t)(m->count - 1));
		else
			rc = add_x(m, glob);
	}
	if (rc)
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	if (tag == 'F')
		sec->f_count++;
	return TD_OK;
}

int td_maintainers_parse(td_maintainers_t **out, const char *text, size_t len,
			 const char *name_for_errors, td_error_t *err)
{
	struct mparser ps;
	const char *s = text, *end = text + len, *title = NULL;
	size_t title_len = 0;
	unsigned title_line = 0;
	int in_section = 0, rc = TD_OK;

	*out = NULL;
	memset(&ps, 0, sizeof(ps));
	ps.name = name_for_errors ? name_for_errors : "MAINTAINERS";
	ps.err = err;
	if (!text && len)
		return td_error_set(err, TD_EINVAL, "%s: no text", ps.name);
	if (len > TD_MAINTAINERS_MAX_BYTES)
		return td_error_set(err, TD_ENOMEM, "%s: larger than %d bytes", ps.name,
				    TD_MAINTAINERS_MAX_BYTES);
	if (!(ps.m = calloc(1, sizeof(*ps.m))) || td_globset_new(&ps.m->set)) {
		rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *line = s;

		s += n + (nl ? 1 : 0);
		ps.line++;
		if (memchr(line, '\0', n)) {
			rc = mfail(&ps, TD_EINVAL, "NUL byte in line");
			goto out;
		}
		while (n && (line[n - 1] == '\r' || td_is_blank(line[n - 1])))
			n--;
		if (!n) {
			in_section = 0;
			title = NULL;
			continue;
		}
		if (!is_tag(line, n)) {
			/* prose, or the title of the section that may follow */
			in_section = 0;
			title = line;
			title_len = n;
			title_line = ps.line;
			continue;
		}
		if (!in_section) {
			if (!title)
				continue; /* a tag line with no title above: not a section */
			if ((rc = new_section(&ps, title, title_len, title_line)))
				goto out;
			in_section = 1;
			title = NULL;
		}
		if (line[0] == 'F' || line[0] == 'X') {
			const char *v = line + 2;
			size_t vlen = n - 2;

			while (vlen && td_is_blank(*v)) {
				v++;
				vlen--;
			}
			if ((rc = add_pattern(&ps, line[0], v, vlen)))
				goto out;
		}
	}
	if ((rc = td_globset_build(ps.m->set))) {
		if (rc == TD_EUNSUPPORTED)
			rc = td_error_set(err, rc,
					  "%s: %zu F: patterns without a literal part (such as '*x*'); at most %d",
					  ps.name, td_globset_unindexed(ps.m->set), TD_GLOBSET_MAX_UNINDEXED);
		else
			rc = td_error_set(err, TD_ENOMEM, "out of memory");
		goto out;
	}
	*out = ps.m;
	ps.m = NULL;
out:
	td_maintainers_free(ps.m);
	return rc;
}

int td_maintainers_load_file(td_maintainers_t **out, const char *path, td_error_t *err)
{
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	if ((rc = td_read_file(&text, &len, path, TD_MAINTAINERS_MAX_BYTES, err)))
		return rc;
	rc = td_maintainers_parse(out, text, len, path, err);
	free(text);
	return rc;
}

size_t td_maintainers_count(const td_maintainers_t *m)
{
	size_t n = 0;

	for (size_t i = 0; m && i < m->count; i++)
		n += m->sections[i].f_count > 0;
	return n;
}

/* A section that matched by F: still leaves the path out by X:. */
static int not_excluded(uint32_t value, const char *path, size_t len, void *ctx)
{
	const td_maintainers_t *m = ctx;
	const struct section *sec = &m->sections[value];

	for (size_t i = 0; i < sec->x_count; i++)
		if (td_glob_match(m->xs[sec->x_first + i], path, len))
			return 0;
	return 1;
}

const char *td_maintainers_lookup(const td_maintainers_t *m, const char *path, size_t len)
{
	uint32_t at;

	if (!m || (!path && len))
		return NULL;
	if (!td_globset_best(m->set, path ? path : "", len, not_excluded, (void *)m, &at, NULL))
		return NULL;
	return m->sections[at].title;
}
