/* Patch text: the headers before a diff (mail, git format-patch, DEP-3),
 * and the diff itself turned into git-style text that libgit2 parses.
 * Pure: no I/O. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "patch_impl.h"

/* Output buffer with a hard limit. */
typedef struct obuf {
	char *p;
	size_t len, cap;
} obuf_t;

static int ob_put(obuf_t *b, const char *s, size_t n)
{
	void *p = b->p;

	if (n > TD_PATCH_MAX_BYTES * 2u || b->len + n + 1 > TD_PATCH_MAX_BYTES * 2u)
		return TD_ENOMEM;
	if (td_grow(&p, &b->cap, b->len + n + 1, 1))
		return TD_ENOMEM;
	b->p = p;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return TD_OK;
}

static int ob_str(obuf_t *b, const char *s)
{
	return ob_put(b, s, strlen(s));
}

/* A cursor over lines; line excludes the '\n'. */
typedef struct lines {
	const char *text;
	size_t len, pos;
	unsigned lineno;      /* of the line last returned, 1-based */
} lines_t;

static int peek_line(const lines_t *l, const char **line, size_t *n)
{
	const char *nl;

	*line = l->text + l->pos;
	*n = 0;
	if (l->pos >= l->len)
		return 0;
	nl = memchr(*line, '\n', l->len - l->pos);
	*n = nl ? (size_t)(nl - *line) : l->len - l->pos;
	return 1;
}

static int next_line(lines_t *l, const char **line, size_t *n)
{
	if (!peek_line(l, line, n))
		return 0;
	l->pos += *n + (l->pos + *n < l->len);
	l->lineno++;
	return 1;
}

static int starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

int td_patch_path_ok(const char *path, size_t len)
{
	size_t i = 0;

	if (!len || path[0] == '/')
		return 0;
	while (i < len) {
		size_t j = i;
		while (j < len && path[j] != '/')
			j++;
		if (j == i || (j - i == 1 && path[i] == '.') || (j - i == 2 && path[i] == '.' && path[i + 1] == '.'))
			return 0;
		if (memchr(path + i, '\0', j - i))
			return 0;
		i = j + 1;
		if (j + 1 == len)
			return 0; /* trailing '/' */
	}
	return 1;
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts. */
static int hunk_counts(const char *s, size_t n, unsigned long *old_n, unsigned long *new_n)
{
	char buf[128];
	unsigned long a, b = 1, c, d = 1;
	const char *p;
	char *e;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (strncmp(buf, "@@ -", 4))
		return -1;
	a = strtoul(buf + 4, &e, 10);
	if (e == buf + 4)
		return -1;
	if (*e == ',') {
		p = e + 1;
		b = strtoul(p, &e, 10);
		if (e == p)
			return -1;
	}
	if (strncmp(e, " +", 2))
		return -1;
	p = e + 2;
	c = strtoul(p, &e, 10);
	if (e == p)
		return -1;
	if (*e == ',') {
		p = e + 1;
		d = strtoul(p, &e, 10);
		if (e == p)
			return -1;
	}
	if (strncmp(e, " @@", 3))
		return -1;
	(void)a, (void)c;
	*old_n = b;
	*new_n = d;
	return 0;
}

/* Copy one hunk (its header is the next line) by its line counts. */
static int copy_hunk(obuf_t *o, lines_t *l, const char *id, td_error_t *err)
{
	const char *line;
	size_t n;
	unsigned long old_n, new_n;
	unsigned start;

	next_line(l, &line, &n);
	start = l->lineno;
	if (hunk_counts(line, n, &old_n, &new_n))
		return td_error_set(err, TD_EINVAL, "patch '%s': malformed hunk header at line %u", id, start);
	if (ob_put(o, line, n) || ob_str(o, "\n"))
		return TD_ENOMEM;
	while (old_n || new_n) {
		if (!next_line(l, &line, &n))
			return td_error_set(err, TD_EINVAL, "patch '%s': hunk at line %u ends early", id, start);
		if (n && line[n - 1] == '\r' && n == 1)
			n = 0;
		if (!n) {
			/* A context line whose blank a mailer took away. */
			if (!old_n || !new_n)
				return td_error_set(err, TD_EINVAL, "patch '%s': hunk at line %u ends early", id, start);
			old_n--, new_n--;
			if (ob_str(o, " \n"))
				return TD_ENOMEM;
			continue;
		}
		switch (line[0]) {
		case ' ':
			if (!old_n || !new_n)
				goto bad;
			old_n--, new_n--;
			break;
		case '-':
			if (!old_n)
				goto bad;
			old_n--;
			break;
		case '+':
			if (!new_n)
				goto bad;
			new_n--;
			break;
		case '\\':
			break;
		default:
			goto bad;
		}
		if (ob_put(o, line, n) || ob_str(o, "\n"))
			return TD_ENOMEM;
	}
	/* "\ No newline at end of file" after the last line. */
	if (peek_line(l, &line, &n) && n && line[0] == '\\') {
		next_line(l, &line, &n);
		if (ob_put(o, line, n) || ob_str(o, "\n"))
			return TD_ENOMEM;
	}
	return TD_OK;
bad:
	return td_error_set(err, TD_EINVAL, "patch '%s': hunk at line %u does not match its header (line %u)", id,
			    start, l->lineno);
}

/* "GIT binary patch" and its one or two blocks, each ending in a blank line. */
static int copy_binary(obuf_t *o, lines_t *l)
{
	const char *line;
	size_t n;
	int blocks = 0;

	next_line(l, &line, &n);
	if (ob_put(o, line, n) || ob_str(o, "\n"))
		return TD_ENOMEM;
	while (blocks < 2 && next_line(l, &line, &n)) {
		if (ob_put(o, line, n) || ob_str(o, "\n"))
			return TD_ENOMEM;
		if (!n) {
			blocks++;
			if (!peek_line(l, &line, &n) || !(starts(line, n, "literal ") || starts(line, n, "delta ")))
				break;
		}
	}
	return TD_OK;
}

static int is_git_header_line(const char *s, size_t n)
{
	static const char *const ext[] = { "old mode ", "new mode ", "deleted file mode ", "new file mode ",
					   "copy from ", "copy to ", "rename from ", "rename to ",
					   "similarity index ", "dissimilarity index ", "index ", "Binary files ",
					   "--- ", "+++ " };

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (starts(s, n, ext[i]))
			return 1;
	return 0;
}

static int copy_hunks(obuf_t *o, lines_t *l, const char *id, td_error_t *err)
{
	const char *line;
	size_t n;
	int rc;

	while (peek_line(l, &line, &n)) {
		if (starts(line, n, "@@ -")) {
			if ((rc = copy_hunk(o, l, id, err)))
				return rc;
		} else if (starts(line, n, "GIT binary patch")) {
			if ((rc = copy_binary(o, l)))
				return rc;
		} else {
			break;
		}
	}
	return TD_OK;
}

static int git_section(obuf_t *o, lines_t *l, unsigned strip, const char *id, td_error_t *err)
{
	const char *line;
	size_t n;

	next_line(l, &line, &n);
	if (strip != 1)
		return td_error_set(err, TD_EUNSUPPORTED,
				    "patch '%s': a git diff (line %u) takes -p1 only", id, l->lineno);
	if (ob_put(o, line, n) || ob_str(o, "\n"))
		return TD_ENOMEM;
	while (peek_line(l, &line, &n) && is_git_header_line(line, n)) {
		next_line(l, &line, &n);
		if (ob_put(o, line, n) || ob_str(o, "\n"))
			return TD_ENOMEM;
	}
	return copy_hunks(o, l, id, err);
}

/* The path of a "--- " or "+++ " line: up to a tab (a timestamp follows),
 * stripped of strip leading parts; NULL length for /dev/null. */
static int trad_path(const char **path, size_t *plen, const char *s, size_t n, unsigned strip, int *is_null,
		     const char *id, unsigned lineno, td_error_t *err)
{
	const char *tab = memchr(s, '\t', n);
	size_t len = tab ? (size_t)(tab - s) : n;

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	*is_null = len == 9 && !memcmp(s, "/dev/null", 9);
	if (*is_null) {
		*path = NULL;
		*plen = 0;
		return TD_OK;
	}
	for (unsigned k = 0; k < strip; k++) {
		const char *slash = memchr(s, '/', len);
		if (!slash)
			return td_error_set(err, TD_EINVAL, "patch '%s': path at line %u has fewer than %u parts to strip",
					    id, lineno, strip + 1);
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
		while (len && *s == '/')
			s++, len--;
	}
	if (!td_patch_path_ok(s, len))
		return td_error_set(err, TD_EINVAL, "patch '%s': unsafe path '%.*s' at line %u", id, (int)len, s,
				    lineno);
	*path = s;
	*plen = len;
	return TD_OK;
}

static size_t parts(const char *s, size_t n)
{
	size_t k = 1;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '/';
	return k;
}

static int trad_section(obuf_t *o, lines_t *l, unsigned strip, const char *id, td_error_t *err)
{
	const char *ol, *nl, *op, *np, *path;
	size_t on, nn, opl, npl, plen;
	int onull, nnull, rc;

	next_line(l, &ol, &on);
	if ((rc = trad_path(&op, &opl, ol + 4, on - 4, strip, &onull, id, l->lineno, err)))
		return rc;
	next_line(l, &nl, &nn);
	if ((rc = trad_path(&np, &npl, nl + 4, nn - 4, strip, &nnull, id, l->lineno, err)))
		return rc;
	if (onull && nnull)
		return td_error_set(err, TD_EINVAL, "patch '%s': both sides are /dev/null at line %u", id, l->lineno);
	/* One name for both sides, as patch(1) picks it: fewer parts, then shorter. */
	if (onull || (!nnull && (parts(np, npl) < parts(op, opl) ||
				 (parts(np, npl) == parts(op, opl) && npl <= opl))))
		path = np, plen = npl;
	else
		path = op, plen = opl;
	if (ob_str(o, "diff --git a/") || ob_put(o, path, plen) || ob_str(o, " b/") || ob_put(o, path, plen) ||
	    ob_str(o, "\n"))
		return TD_ENOMEM;
	if (onull && ob_str(o, "new file mode 100644\n"))
		return TD_ENOMEM;
	if (nnull && ob_str(o, "deleted file mode 100644\n"))
		return TD_ENOMEM;
	if (onull ? ob_str(o, "--- /dev/null\n")
		  : (ob_str(o, "--- a/") || ob_put(o, path, plen) || ob_str(o, "\n")))
		return TD_ENOMEM;
	if (nnull ? ob_str(o, "+++ /dev/null\n")
		  : (ob_str(o, "+++ b/") || ob_put(o, path, plen) || ob_str(o, "\n")))
		return TD_ENOMEM;
	return copy_hunks(o, l, id, err);
}

/* A traditional section starts here: "--- ", "+++ ", then a hunk. */
static int trad_start(const lines_t *l)
{
	lines_t t = *l;
	const char *s;
	size_t n;

	if (!next_line(&t, &s, &n) || !starts(s, n, "--- "))
		return 0;
	if (!next_line(&t, &s, &n) || !starts(s, n, "+++ "))
		return 0;
	return next_line(&t, &s, &n) && starts(s, n, "@@ -");
}

int td_patch_normalize(char **out, size_t *out_len, const char *text, size_t len, unsigned strip, const char *id,
		       td_error_t *err)
{
	lines_t l = { text, len, 0, 0 };
	obuf_t o = { NULL, 0, 0 };
	const char *line;
	size_t n;
	int rc = TD_OK;

	*out = NULL;
	*out_len = 0;
	if ((rc = ob_put(&o, "", 0)))
		goto out;
	while (peek_line(&l, &line, &n)) {
		if (starts(line, n, "diff --git "))
			rc = git_section(&o, &l, strip, id, err);
		else if (trad_start(&l))
			rc = trad_section(&o, &l, strip, id, err);
		else
			next_line(&l, &line, &n);
		if (rc)
			goto out;
	}
	*out = o.p;
	*out_len = o.len;
	o.p = NULL;
out:
	if (rc == TD_ENOMEM)
		td_error_set(err, rc, "patch '%s': out of memory or over %u bytes", id, TD_PATCH_MAX_BYTES * 2u);
	free(o.p);
	return rc;
}

/* Where the diff starts: the first "diff --git" line or traditional
 * section; len when there is none. */
static size_t diff_start(const char *text, size_t len)
{
	lines_t l = { text, len, 0, 0 };
	const char *line;
	size_t n, at;

	for (;;) {
		at = l.pos;
		if (!peek_line(&l, &line, &n))
			return len;
		if (starts(line, n, "diff --git ") || trad_start(&l))
			return at;
		next_line(&l, &line, &n);
	}
}

static int is_header(const char *s, size_t n)
{
	size_t i = 0;

	if (!n || !isalpha((unsigned char)s[0]))
		return 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-'))
		i++;
	return i < n && s[i] == ':';
}

static int hdr_is(const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	if (n <= k || s[k] != ':')
		return 0;
	for (size_t i = 0; i < k; i++)
		if (tolower((unsigned char)s[i]) != tolower((unsigned char)name[i]))
			return 0;
	return 1;
}

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* Append s[0..n) to *field, joined by sep. */
static int append(char **field, const char *s, size_t n, const char *sep)
{
	size_t old = *field ? strlen(*field) : 0, sl = *field ? strlen(sep) : 0;
	char *p;

	if (n > TD_PATCH_MAX_BYTES)
		return TD_ENOMEM;
	if (!(p = realloc(*field, old + sl + n + 1)))
		return TD_ENOMEM;
	memcpy(p + old, sep, sl);
	memcpy(p + old + sl, s, n);
	p[old + sl + n] = '\0';
	*field = p;
	return TD_OK;
}

/* Drop "[PATCH ...]" tags (and "Re:") from the front of a subject. */
static void clean_subject(char *s)
{
	char *p = s;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[' && (!strncmp(p + 1, "PATCH", 5) || !strncmp(p + 1, "RFC", 3))) {
			char *close = strchr(p, ']');
			if (!close)
				break;
			p = close + 1;
			continue;
		}
		break;
	}
	memmove(s, p, strlen(p) + 1);
}

int td_patch_parse_text(td_patch_t *p, char **diff, size_t *diff_len, const char *text, size_t len,
			unsigned strip, const char *id, td_error_t *err)
{
	size_t dstart = diff_start(text, len), body_end;
	lines_t l = { text, dstart, 0, 0 };
	const char *line, *body = NULL;
	size_t n;
	char **last = NULL;   /* the header a continuation line extends */
	char *desc = NULL;    /* DEP-3 Description continuation lines */
	int rc = TD_OK, in_headers = 1;

	*diff = NULL;
	*diff_len = 0;
	/* mbox separator line */
	if (peek_line(&l, &line, &n) && starts(line, n, "From "))
		next_line(&l, &line, &n);
	while (in_headers && peek_line(&l, &line, &n)) {
		const char *v;
		size_t vn;
		if (!n || (n == 1 && line[0] == '\r')) {
			next_line(&l, &line, &n);
			break;
		}
		if ((line[0] == ' ' || line[0] == '\t') && last) {
			next_line(&l, &line, &n);
			v = line, vn = n;
			trim(&v, &vn);
			if (last == &desc) {
				if (vn == 1 && v[0] == '.')
					vn = 0;
				rc = append(last, v, vn, "\n");
			} else {
				rc = append(last, v, vn, " ");
			}
			if (rc)
				goto out;
			continue;
		}
		if (!is_header(line, n)) {
			in_headers = 0;
			break;
		}
		next_line(&l, &line, &n);
		v = memchr(line, ':', n) + 1;
		vn = n - (size_t)(v - line);
		trim(&v, &vn);
		last = NULL;
		if (hdr_is(line, n, "Subject") && !p->subject)
			last = &p->subject;
		else if ((hdr_is(line, n, "From") || hdr_is(line, n, "Author")) && !p->author)
			last = &p->author;
		else if (hdr_is(line, n, "Date") && !p->date)
			last = &p->date;
		else if (hdr_is(line, n, "Description") && !desc)
			last = &desc;
		if (last && (rc = append(last, v, vn, "")))
			goto out;
	}
	body = l.text + l.pos;
	/* The message ends at git format-patch's "---" line before the diffstat. */
	body_end = dstart;
	for (lines_t b = l; peek_line(&b, &line, &n);) {
		size_t at = b.pos;
		next_line(&b, &line, &n);
		if ((n == 3 || (n == 4 && line[3] == '\r')) && !memcmp(line, "---", 3)) {
			body_end = at;
			break;
		}
	}
	if (desc) {
		/* DEP-3: the first line is the subject, the rest the long description. */
		char *nl = strchr(desc, '\n');
		if (!p->subject && (rc = append(&p->subject, desc, nl ? (size_t)(nl - desc) : strlen(desc), "")))
			goto out;
		if (nl && (rc = append(&p->message, nl + 1, strlen(nl + 1), "")))
			goto out;
	}
	{
		const char *b = body;
		size_t bn = (size_t)(text + body_end - body);
		trim(&b, &bn);
		if (!p->subject && bn) {
			/* No headers: the first line of the text is the subject. */
			const char *nl = memchr(b, '\n', bn);
			size_t sn = nl ? (size_t)(nl - b) : bn;
			if ((rc = append(&p->subject, b, sn, "")))
				goto out;
			b += sn, bn -= sn;
			trim(&b, &bn);
		}
		if (bn && (rc = append(&p->message, b, bn, p->message ? "\n\n" : "")))
			goto out;
	}
	if (p->subject)
		clean_subject(p->subject);
	if ((rc = td_patch_origin_parse(&p->origin, p->subject, text, dstart)))
		goto out;
	rc = td_patch_normalize(diff, diff_len, text + dstart, len - dstart, strip, id, err);
	free(desc);
	return rc;
out:
	free(desc);
	return td_error_set(err, rc, "patch '%s': out of memory", id);
}
