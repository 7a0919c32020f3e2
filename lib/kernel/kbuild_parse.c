/* Makefile parsing: text to logical statements (see td_kbuild_parse_makefile).
 *
 * Follows GNU make 4.3's reading rules where Kbuild files depend on them:
 * backslash-newline joins lines (with the whitespace around it turned into
 * one space), '#' starts a comment unless escaped or inside $(...), a line
 * starting with a tab after a rule is a recipe line, and the first ':' or '='
 * outside $(...) tells a rule from an assignment. */
#include <stdlib.h>
#include <string.h>

#include "kbuild_impl.h"
#include "internal.h"

void kb_buf_release(kb_buf_t *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int kb_buf_add(kb_buf_t *b, const char *s, size_t n)
{
	if (n > TD_KBUILD_MAX_VALUE_BYTES || b->len > TD_KBUILD_MAX_VALUE_BYTES - n)
		return KB_ELIMIT;
	if (td_grow((void **)&b->p, &b->cap, b->len + n + 1, 1))
		return TD_ENOMEM;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return TD_OK;
}

int kb_buf_addc(kb_buf_t *b, char c)
{
	return kb_buf_add(b, &c, 1);
}

const char *kb_buf_str(kb_buf_t *b)
{
	return b->p ? b->p : "";
}

char *kb_buf_detach(kb_buf_t *b)
{
	char *p = b->p;

	if (!p)
		p = td_strndup("", 0);
	memset(b, 0, sizeof(*b));
	return p;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

void td_kbuild_makefile_free(td_kbuild_makefile_t *mf)
{
	if (!mf)
		return;
	for (size_t i = 0; i < mf->count; i++) {
		free((char *)mf->stmts[i].name);
		free((char *)mf->stmts[i].text);
	}
	free(mf->stmts);
	free(mf);
}

size_t td_kbuild_makefile_count(const td_kbuild_makefile_t *mf)
{
	return mf ? mf->count : 0;
}

const td_kbuild_stmt_t *td_kbuild_makefile_stmt(const td_kbuild_makefile_t *mf, size_t i)
{
	return mf && i < mf->count ? &mf->stmts[i] : NULL;
}

static void trim(const char **s, size_t *len)
{
	while (*len && is_space(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && is_space((*s)[*len - 1]))
		(*len)--;
}

/* Append a statement; name/text are copied (trimmed by the caller). */
static int add_stmt(td_kbuild_makefile_t *mf, td_kbuild_stmt_kind_t kind, unsigned line,
		    int op, const char *name, size_t name_len, const char *text, size_t text_len)
{
	td_kbuild_stmt_t *st;

	if (td_grow((void **)&mf->stmts, &mf->cap, mf->count + 1, sizeof(*mf->stmts)))
		return TD_ENOMEM;
	st = &mf->stmts[mf->count];
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->line = line;
	st->op = op;
	st->name = td_strndup(name ? name : "", name ? name_len : 0);
	st->text = td_strndup(text ? text : "", text ? text_len : 0);
	if (!st->name || !st->text) {
		free((char *)st->name);
		free((char *)st->text);
		return TD_ENOMEM;
	}
	mf->count++;
	return TD_OK;
}

/* Offset of the first c (one of set) outside $(...)/${...}, or len. */
static size_t find_unnested(const char *s, size_t len, const char *set)
{
	int depth = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '$' && i + 1 < len) {
			if (s[i + 1] == '$') {
				i++;
				continue;
			}
			if (s[i + 1] == '(' || s[i + 1] == '{') {
				depth++;
				i++;
				continue;
			}
		}
		if (depth) {
			if (c == '(' || c == '{')
				depth++;
			else if (c == ')' || c == '}')
				depth--;
			continue;
		}
		if (strchr(set, c))
			return i;
	}
	return len;
}

/* Remove a comment (and turn "\#" into "#") in place; returns the new length. */
static size_t strip_comment(char *s, size_t len)
{
	int depth = 0;
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < len && s[i + 1] == '#') {
			s[o++] = '#';
			i++;
			continue;
		}
		if (c == '$' && i + 1 < len && (s[i + 1] == '(' || s[i + 1] == '{')) {
			depth++;
			s[o++] = c;
			s[o++] = s[++i];
			continue;
		}
		if (depth && (c == '(' || c == '{'))
			depth++;
		else if (depth && (c == ')' || c == '}'))
			depth--;
		else if (!depth && c == '#')
			break;
		s[o++] = c;
	}
	return o;
}

/* Whether s starts with the directive word w followed by a separator. */
static int directive(const char *s, size_t len, const char *w, size_t *after)
{
	size_t n = strlen(w);

	if (len < n || memcmp(s, w, n))
		return 0;
	if (len > n && !is_space(s[n]) && s[n] != '(' && s[n] != '"' && s[n] != '\'')
		return 0;
	*after = n;
	return 1;
}

/* Split the arguments of ifeq/ifneq: "(a,b)", "'a' 'b'" or "\"a\" \"b\"". */
static int split_cond_args(const char *s, size_t len, const char **a, size_t *alen,
			   const char **b, size_t *blen)
{
	trim(&s, &len);
	if (!len)
		return -1;
	if (s[0] == '(') {
		int depth = 0;
		size_t comma = 0, i;
		for (i = 0; i < len; i++) {
			char c = s[i];
			if (c == '(' || c == '{')
				depth++;
			else if (c == ')' || c == '}') {
				if (--depth == 0)
					break;
			} else if (c == ',' && depth == 1 && !comma)
				comma = i;
		}
		if (i >= len || !comma)
			return -1;
		for (size_t j = i + 1; j < len; j++)
			if (!is_space(s[j]))
				return -1; /* text after the closing parenthesis */
		*a = s + 1;
		*alen = comma - 1;
		*b = s + comma + 1;
		*blen = i - comma - 1;
		trim(a, alen);
		trim(b, blen);
		return 0;
	}
	if (s[0] == '"' || s[0] == '\'') {
		const char *q2, *end;
		char q = s[0];
		const char *e1 = memchr(s + 1, q, len - 1);
		size_t rest;
		if (!e1)
			return -1;
		*a = s + 1;
		*alen = (size_t)(e1 - s - 1);
		q2 = e1 + 1;
		rest = len - (size_t)(q2 - s);
		while (rest && is_space(*q2)) {
			q2++;
			rest--;
		}
		if (rest < 2 || (*q2 != '"' && *q2 != '\''))
			return -1;
		end = memchr(q2 + 1, *q2, rest - 1);
		if (!end || (size_t)(end - q2) != rest - 1)
			return -1;
		*b = q2 + 1;
		*blen = (size_t)(end - q2 - 1);
		return 0;
	}
	return -1;
}

/* A conditional directive (ifdef/ifndef/ifeq/ifneq) at s, as kind/op. */
static int parse_cond(td_kbuild_makefile_t *mf, td_kbuild_stmt_kind_t stmt_kind, unsigned line,
		      const char *s, size_t len, int *matched)
{
	static const struct {
		const char *word;
		td_kbuild_stmt_kind_t kind;
		int op;
	} conds[] = {
		{ "ifdef", TD_KB_STMT_IFDEF, 0 }, { "ifndef", TD_KB_STMT_IFDEF, 'n' },
		{ "ifeq", TD_KB_STMT_IFEQ, 0 }, { "ifneq", TD_KB_STMT_IFEQ, 'n' },
	};
	size_t after;
	int rc;

	*matched = 0;
	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
		const char *rest, *a, *b;
		size_t rlen, alen, blen;
		td_kbuild_stmt_kind_t kind = stmt_kind ? stmt_kind : conds[i].kind;

		if (!directive(s, len, conds[i].word, &after))
			continue;
		*matched = 1;
		rest = s + after;
		rlen = len - after;
		trim(&rest, &rlen);
		if (conds[i].kind == TD_KB_STMT_IFDEF) {
			rc = add_stmt(mf, kind, line, rlen ? conds[i].op : 'x', rest, rlen, NULL, 0);
		} else if (split_cond_args(rest, rlen, &a, &alen, &b, &blen)) {
			rc = add_stmt(mf, kind, line, 'x', NULL, 0, rest, rlen);
		} else {
			rc = add_stmt(mf, kind, line, conds[i].op, a, alen, b, blen);
		}
		if (!rc)
			mf->stmts[mf->count - 1].cond = stmt_kind ? conds[i].kind : 0;
		return rc;
	}
	return TD_OK;
}

/* An assignment (name op value) if s is one; *is_assign says. */
static int parse_assign(td_kbuild_makefile_t *mf, unsigned line, const char *s, size_t len,
			int exported, int override, int *is_assign)
{
	size_t sep = find_unnested(s, len, ":="), name_end, val;
	const char *name;
	size_t name_len;
	int op;

	*is_assign = 0;
	if (sep == len)
		return TD_OK;
	if (s[sep] == '=') {
		name_end = sep;
		op = '=';
		if (sep && (s[sep - 1] == '+' || s[sep - 1] == '?' || s[sep - 1] == '!')) {
			op = s[sep - 1];
			name_end = sep - 1;
		}
		val = sep + 1;
	} else if (sep + 1 < len && s[sep + 1] == '=') {
		op = ':';
		name_end = sep;
		val = sep + 2;
	} else if (sep + 2 < len && s[sep + 1] == ':' && s[sep + 2] == '=') {
		op = ':';
		name_end = sep;
		val = sep + 3;
	} else if (sep + 3 < len && s[sep + 1] == ':' && s[sep + 2] == ':' && s[sep + 3] == '=') {
		op = ':';
		name_end = sep;
		val = sep + 4;
	} else {
		return TD_OK; /* a rule */
	}
	name = s;
	name_len = name_end;
	trim(&name, &name_len);
	*is_assign = 1;
	{
		const char *v = s + val;
		size_t vlen = len - val;
		int rc;
		/* make strips leading whitespace of the value; trailing is kept
		 * but harmless here, so it goes too */
		trim(&v, &vlen);
		rc = add_stmt(mf, TD_KB_STMT_ASSIGN, line, op, name, name_len, v, vlen);
		if (!rc) {
			mf->stmts[mf->count - 1].exported = exported;
			mf->stmts[mf->count - 1].override = override;
		}
		return rc;
	}
}

/* Collect a define body up to its endef; returns the position after it. */
static int parse_define(td_kbuild_makefile_t *mf, unsigned *lineno, const char *data, size_t len,
			size_t *pos, const char *head, size_t head_len, int exported, int override)
{
	kb_buf_t body = { 0 };
	unsigned line = *lineno;
	int nest = 1, op = '=', rc = TD_OK, closed = 0;
	const char *name = head;
	size_t name_len = head_len;

	/* "define name", "define name =", "define name :=" ... */
	trim(&name, &name_len);
	if (name_len && name[name_len - 1] == '=') {
		name_len--;
		if (name_len && (name[name_len - 1] == '+' || name[name_len - 1] == '?' ||
				 name[name_len - 1] == '!' || name[name_len - 1] == ':')) {
			op = name[name_len - 1];
			name_len--;
			while (name_len && name[name_len - 1] == ':')
				name_len--;
		}
		trim(&name, &name_len);
	}
	while (*pos < len) {
		const char *ls = data + *pos, *nl = memchr(ls, '\n', len - *pos), *t;
		size_t ll = nl ? (size_t)(nl - ls) : len - *pos, tl, after;

		*pos += ll + (nl ? 1 : 0);
		(*lineno)++;
		t = ls;
		tl = ll;
		trim(&t, &tl);
		if (directive(t, tl, "endef", &after)) {
			if (--nest == 0) {
				closed = 1;
				break;
			}
		} else if (directive(t, tl, "define", &after)) {
			nest++;
		}
		if (body.len && (rc = kb_buf_addc(&body, '\n')))
			goto out;
		if ((rc = kb_buf_add(&body, ls, ll)))
			goto out;
	}
	if (!closed)
		rc = add_stmt(mf, TD_KB_STMT_ERROR, line, 0, NULL, 0, "missing 'endef'", 15);
	else
		rc = add_stmt(mf, TD_KB_STMT_DEFINE, line, op, name, name_len, kb_buf_str(&body),
			      body.len);
	if (!rc) {
		mf->stmts[mf->count - 1].exported = exported;
		mf->stmts[mf->count - 1].override = override;
	}
out:
	kb_buf_release(&body);
	return rc;
}

/* One logical, comment-free, trimmed non-recipe line. */
static int parse_line(td_kbuild_makefile_t *mf, unsigned line, const char *s, size_t len,
		      int *in_rule, const char *data, size_t dlen, size_t *pos, unsigned *lineno)
{
	size_t after;
	int exported = 0, override = 0, matched, is_assign, rc;

	if ((rc = parse_cond(mf, 0, line, s, len, &matched)) || matched)
		return rc;
	if (directive(s, len, "else", &after)) {
		const char *rest = s + after;
		size_t rlen = len - after;
		trim(&rest, &rlen);
		if (!rlen)
			return add_stmt(mf, TD_KB_STMT_ELSE, line, 0, NULL, 0, NULL, 0);
		if ((rc = parse_cond(mf, TD_KB_STMT_ELSE, line, rest, rlen, &matched)) || matched)
			return rc;
		return add_stmt(mf, TD_KB_STMT_ERROR, line, 0, NULL, 0, s, len);
	}
	if (directive(s, len, "endif", &after))
		return add_stmt(mf, TD_KB_STMT_ENDIF, line, 0, NULL, 0, NULL, 0);
	*in_rule = 0;
	if (directive(s, len, "include", &after) || directive(s, len, "-include", &after) ||
	    directive(s, len, "sinclude", &after)) {
		const char *rest = s + after;
		size_t rlen = len - after;
		trim(&rest, &rlen);
		return add_stmt(mf, TD_KB_STMT_INCLUDE, line, s[0] == 'i' ? 0 : '-', NULL, 0, rest,
				rlen);
	}
	/* prefixes of assignments and defines */
	for (;;) {
		if (directive(s, len, "export", &after) && after < len) {
			exported = 1;
		} else if (directive(s, len, "override", &after) && after < len) {
			override = 1;
		} else if (directive(s, len, "private", &after) && after < len) {
		} else {
			break;
		}
		s += after;
		len -= after;
		trim(&s, &len);
	}
	if (directive(s, len, "define", &after))
		return parse_define(mf, lineno, data, dlen, pos, s + after, len - after, exported,
				    override);
	if (directive(s, len, "undefine", &after)) {
		const char *rest = s + after;
		size_t rlen = len - after;
		trim(&rest, &rlen);
		return add_stmt(mf, TD_KB_STMT_UNDEFINE, line, 0, rest, rlen, NULL, 0);
	}
	if ((rc = parse_assign(mf, line, s, len, exported, override, &is_assign)) || is_assign)
		return rc;
	if (directive(s, len, "export", &after) || directive(s, len, "unexport", &after)) {
		const char *rest = s + after;
		size_t rlen = len - after;
		trim(&rest, &rlen);
		return add_stmt(mf, TD_KB_STMT_EXPORT, line, s[0] == 'u' ? 'u' : 0, NULL, 0, rest,
				rlen);
	}
	if (exported) /* "export NAME" was eaten as a prefix */
		return add_stmt(mf, TD_KB_STMT_EXPORT, line, 0, NULL, 0, s, len);
	if (directive(s, len, "vpath", &after) || directive(s, len, "load", &after) ||
	    directive(s, len, "-load", &after))
		return add_stmt(mf, TD_KB_STMT_OTHER, line, 0, NULL, 0, s, len);
	{
		size_t colon = find_unnested(s, len, ":");
		if (colon < len) {
			const char *t = s, *rest = s + colon + 1;
			size_t tl = colon, rl = len - colon - 1, semi;
			if (rl && *rest == ':') { /* double-colon rule */
				rest++;
				rl--;
			}
			semi = find_unnested(rest, rl, ";");
			trim(&t, &tl);
			*in_rule = 1;
			if ((rc = add_stmt(mf, TD_KB_STMT_RULE, line, 0, t, tl, rest, semi)))
				return rc;
			if (semi < rl) {
				const char *r = rest + semi + 1;
				size_t rrl = rl - semi - 1;
				trim(&r, &rrl);
				return add_stmt(mf, TD_KB_STMT_RECIPE, line, 0, NULL, 0, r, rrl);
			}
			return TD_OK;
		}
	}
	if (s[0] == '$')
		return add_stmt(mf, TD_KB_STMT_EXPR, line, 0, NULL, 0, s, len);
	return add_stmt(mf, TD_KB_STMT_ERROR, line, 0, NULL, 0, s, len);
}

/* Whether the physical line [s, s+len) ends in an escaping backslash. */
static int continues(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[len - 1 - n] == '\\')
		n++;
	return n % 2 == 1;
}

int td_kbuild_parse_makefile(td_kbuild_makefile_t **out, const char *data, size_t len,
			     td_error_t *err)
{
	td_kbuild_makefile_t *mf;
	kb_buf_t lb = { 0 };
	size_t pos = 0;
	unsigned lineno = 0;
	int in_rule = 0, rc = TD_OK;

	*out = NULL;
	if (!data && len)
		return td_error_set(err, TD_EINVAL, "no makefile data");
	if (len > TD_KBUILD_MAX_FILE_BYTES)
		return td_error_set(err, TD_ENOMEM, "makefile larger than %u bytes",
				    TD_KBUILD_MAX_FILE_BYTES);
	if (!(mf = calloc(1, sizeof(*mf))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	while (pos < len) {
		unsigned first = lineno + 1;
		int recipe;
		char *s;
		size_t sl;

		lb.len = 0;
		recipe = in_rule && data[pos] == '\t';
		/* gather one logical line */
		for (;;) {
			const char *ls = data + pos, *nl = memchr(ls, '\n', len - pos);
			size_t ll = nl ? (size_t)(nl - ls) : len - pos;
			int more;

			pos += ll + (nl ? 1 : 0);
			lineno++;
			if (ll && ls[ll - 1] == '\r')
				ll--;
			more = continues(ls, ll);
			if (more) {
				/* a backslash on the last line continues into nothing */
				ll--; /* the backslash */
				while (ll && is_space(ls[ll - 1]))
					ll--;
			}
			if (lb.len) {
				/* whitespace at the start of a continued line folds away */
				while (ll && is_space(*ls)) {
					ls++;
					ll--;
				}
			}
			if ((rc = kb_buf_add(&lb, ls, ll)))
				goto out;
			if (!more || pos >= len)
				break;
			if ((rc = kb_buf_addc(&lb, ' ')))
				goto out;
		}
		s = lb.p ? lb.p : (char *)"";
		sl = lb.len;
		if (sl && memchr(s, '\0', sl)) {
			rc = add_stmt(mf, TD_KB_STMT_ERROR, first, 0, NULL, 0, "NUL byte", 8);
			if (rc)
				goto out;
			continue;
		}
		if (recipe) {
			const char *r = s + 1;
			size_t rl = sl ? sl - 1 : 0;
			trim(&r, &rl);
			if ((rc = add_stmt(mf, TD_KB_STMT_RECIPE, first, 0, NULL, 0, r, rl)))
				goto out;
			continue;
		}
		sl = strip_comment(s, sl);
		{
			const char *t = s;
			size_t tl = sl;
			trim(&t, &tl);
			if (!tl)
				continue; /* blank and comment lines keep the rule context */
			if ((rc = parse_line(mf, first, t, tl, &in_rule, data, len, &pos, &lineno)))
				goto out;
		}
	}
out:
	kb_buf_release(&lb);
	if (rc) {
		td_kbuild_makefile_free(mf);
		if (rc == KB_ELIMIT)
			return td_error_set(err, TD_ENOMEM, "makefile line longer than %u bytes",
					    TD_KBUILD_MAX_VALUE_BYTES);
		return td_error_set(err, rc, "out of memory");
	}
	*out = mf;
	return TD_OK;
}
