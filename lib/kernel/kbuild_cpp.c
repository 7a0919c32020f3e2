/* C preprocessor conditionals under a kernel .config; see kbuild_cpp.h.
 *
 * A condition is evaluated when it is made of what the configuration
 * alone decides: CONFIG_ names (bare, defined(), IS_ENABLED(),
 * IS_BUILTIN(), IS_MODULE()), integer literals, !, &&, || and
 * parentheses. Another macro is an unknown value (FOO && CONFIG_N is
 * still false); anything else (a comparison, a call, a line continued
 * with a backslash) makes the condition unknown. An unknown branch counts
 * as compiled: the answer errs towards "built". Block comments hide the
 * directives they hold. */
#include <stdlib.h>
#include <string.h>

#include "kbuild_cpp.h"
#include "internal.h"

/* Longest name looked up. */
#define KB_CPP_NAME_BYTES 256

typedef struct parser {
	const kb_cpp_t *c;
	const char *s, *end;
	int failed;          /* not a condition we can decide */
} parser_t;

static void skip_space(parser_t *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\r'))
		p->s++;
}

static int is_ident(char ch, int first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
	       (!first && ch >= '0' && ch <= '9');
}

/* The identifier at p->s, or 0 length. */
static size_t ident(parser_t *p, const char **name)
{
	const char *start;

	skip_space(p);
	start = p->s;
	if (p->s >= p->end || !is_ident(*p->s, 1))
		return 0;
	while (p->s < p->end && is_ident(*p->s, 0))
		p->s++;
	*name = start;
	return (size_t)(p->s - start);
}

static int accept(parser_t *p, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(p);
	if ((size_t)(p->end - p->s) < n || memcmp(p->s, tok, n))
		return 0;
	p->s += n;
	return 1;
}

static int is_config(const char *name, size_t len)
{
	return len > 7 && !memcmp(name, "CONFIG_", 7);
}

/* The value of CONFIG name: 'y', 'm', 0 (unset or n), or -1 (another value,
 * with *text set). */
static int config_of(const parser_t *p, const char *name, size_t len, const char **text)
{
	char buf[KB_CPP_NAME_BYTES];
	const char *v;

	if (len >= sizeof(buf))
		return -2;
	memcpy(buf, name, len);
	buf[len] = '\0';
	v = td_kconfig_value(p->c->cfg, buf);
	if (!v)
		return 0;
	if (!strcmp(v, "y") || !strcmp(v, "m"))
		return v[0];
	*text = v;
	return -1;
}

/* Whether the macro CONFIG name is defined: set to y or to a value, or
 * CONFIG_X_MODULE for an X set to m. */
static int config_defined(parser_t *p, const char *name, size_t len)
{
	const char *text = NULL;
	int v = config_of(p, name, len, &text);

	if (v == -2) {
		p->failed = 1;
		return KB_UNKNOWN;
	}
	if (v == 'y' || v == -1)
		return KB_TRUE;
	if (v == 'm')
		return KB_FALSE;
	if (len > 14 && !memcmp(name + len - 7, "_MODULE", 7))
		return config_of(p, name, len - 7, &text) == 'm' ? KB_TRUE : KB_FALSE;
	return KB_FALSE;
}

static int number(parser_t *p)
{
	char *endp;
	unsigned long long v;
	char buf[32];
	size_t n = 0;

	while (p->s + n < p->end && n < sizeof(buf) - 1 && is_ident(p->s[n], 0))
		n++;
	memcpy(buf, p->s, n);
	buf[n] = '\0';
	v = strtoull(buf, &endp, 0);
	p->s += n;
	/* Suffixes (1UL) and anything odd: not decided. */
	if (endp == buf || *endp)
		return KB_UNKNOWN;
	return v ? KB_TRUE : KB_FALSE;
}

static int parse_or(parser_t *p);

static int parse_primary(parser_t *p)
{
	const char *name;
	size_t len;

	skip_space(p);
	if (p->s >= p->end) {
		p->failed = 1;
		return KB_UNKNOWN;
	}
	if (accept(p, "(")) {
		int v = parse_or(p);
		if (!accept(p, ")"))
			p->failed = 1;
		return v;
	}
	if (*p->s >= '0' && *p->s <= '9')
		return number(p);
	if (!(len = ident(p, &name))) {
		p->failed = 1;
		return KB_UNKNOWN;
	}
	if (len == 7 && !memcmp(name, "defined", 7)) {
		int paren = accept(p, "("), v = KB_UNKNOWN;
		if ((len = ident(p, &name)) && is_config(name, len))
			v = config_defined(p, name, len);
		else
			p->failed = 1;
		if (paren && !accept(p, ")"))
			p->failed = 1;
		return v;
	}
	if ((len == 10 && !memcmp(name, "IS_ENABLED", 10)) || (len == 10 && !memcmp(name, "IS_BUILTIN", 10)) ||
	    (len == 9 && !memcmp(name, "IS_MODULE", 9))) {
		char kind = name[3];
		const char *text = NULL;
		int v;
		if (!accept(p, "(") || !(len = ident(p, &name)) || !is_config(name, len) || !accept(p, ")")) {
			p->failed = 1;
			return KB_UNKNOWN;
		}
		v = config_of(p, name, len, &text);
		if (v == -2 || v == -1) {
			p->failed = 1;
			return KB_UNKNOWN;
		}
		if (kind == 'E')
			return v ? KB_TRUE : KB_FALSE;
		return v == (kind == 'B' ? 'y' : 'm') ? KB_TRUE : KB_FALSE;
	}
	if (is_config(name, len)) {
		const char *text = NULL;
		int v = config_of(p, name, len, &text);
		if (v == -1) {
			parser_t q = { p->c, text, text + strlen(text), 0 };
			int n = number(&q);
			if (q.failed || q.s != q.end)
				p->failed = 1;
			return n;
		}
		if (v == -2)
			p->failed = 1;
		return v == 'y' ? KB_TRUE : KB_FALSE;
	}
	/* Another macro: its value is unknown, but "FOO && CONFIG_N" is not. */
	return KB_UNKNOWN;
}

static int parse_unary(parser_t *p)
{
	if (accept(p, "!")) {
		int v = parse_unary(p);
		return v == KB_UNKNOWN ? v : !v;
	}
	return parse_primary(p);
}

static int parse_and(parser_t *p)
{
	int v = parse_unary(p);

	while (!p->failed && accept(p, "&&")) {
		int w = parse_unary(p);
		v = (v == KB_FALSE || w == KB_FALSE) ? KB_FALSE
		    : (v == KB_TRUE && w == KB_TRUE) ? KB_TRUE : KB_UNKNOWN;
	}
	return v;
}

static int parse_or(parser_t *p)
{
	int v = parse_and(p);

	while (!p->failed && accept(p, "||")) {
		int w = parse_and(p);
		v = (v == KB_TRUE || w == KB_TRUE) ? KB_TRUE
		    : (v == KB_FALSE && w == KB_FALSE) ? KB_FALSE : KB_UNKNOWN;
	}
	return v;
}

/* The end of a directive's text: before a comment; a continued line
 * cannot be decided from this line alone. */
static const char *text_end(const char *s, const char *end, int *continued)
{
	const char *e = end;

	for (const char *q = s; q + 1 < end; q++)
		if (q[0] == '/' && (q[1] == '*' || q[1] == '/')) {
			e = q;
			break;
		}
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*continued = end > s && end[-1] == '\\';
	return e;
}

static int eval_if(const kb_cpp_t *c, const char *s, const char *end)
{
	parser_t p = { c, s, end, 0 };
	int continued, v;

	p.end = text_end(s, end, &continued);
	if (!c->cfg || continued)
		return KB_UNKNOWN;
	v = parse_or(&p);
	skip_space(&p);
	return p.failed || p.s != p.end ? KB_UNKNOWN : v;
}

/* #ifdef NAME (negate: #ifndef). */
static int eval_ifdef(const kb_cpp_t *c, const char *s, const char *end, int negate)
{
	parser_t p = { c, s, end, 0 };
	const char *name;
	size_t len;
	int continued, v;

	p.end = text_end(s, end, &continued);
	if (!c->cfg || continued || !(len = ident(&p, &name)) || !is_config(name, len))
		return KB_UNKNOWN;
	skip_space(&p);
	if (p.s != p.end)
		return KB_UNKNOWN;
	v = config_defined(&p, name, len);
	if (p.failed)
		return KB_UNKNOWN;
	return negate ? !v : v;
}

void kb_cpp_init(kb_cpp_t *c, const td_kconfig_t *cfg)
{
	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
}

int kb_cpp_live(const kb_cpp_t *c)
{
	const kb_cpp_frame_t *f;

	if (!c->depth)
		return 1;
	f = &c->stack[c->depth - 1];
	return f->live && f->branch != KB_FALSE;
}

static void push(kb_cpp_t *c, int v)
{
	kb_cpp_frame_t *f;

	if (c->depth == KB_CPP_MAX_DEPTH) {
		c->overflow++;
		return;
	}
	f = &c->stack[c->depth];
	f->live = (unsigned char)kb_cpp_live(c);
	f->branch = (unsigned char)v;
	f->done = v == KB_TRUE;
	f->maybe = v != KB_FALSE;
	c->depth++;
}

/* A next branch (#elif, #else with v KB_TRUE) of the innermost frame. */
static void next_branch(kb_cpp_t *c, int v)
{
	kb_cpp_frame_t *f;

	if (c->overflow || !c->depth)
		return;
	f = &c->stack[c->depth - 1];
	if (f->done)
		v = KB_FALSE;
	else if (v != KB_FALSE && f->maybe)
		v = KB_UNKNOWN; /* an earlier branch may have been taken */
	f->branch = (unsigned char)v;
	f->done |= v == KB_TRUE;
	f->maybe |= v != KB_FALSE;
}

/* Past the star and slash that close a comment open at s, or NULL. */
static const char *comment_close(const char *s, const char *end)
{
	for (; s + 1 < end; s++)
		if (s[0] == '*' && s[1] == '/')
			return s + 2;
	return NULL;
}

/* Whether the line s..end leaves a block comment open. Strings and
 * character constants end with their line (an apostrophe in #error
 * text must not hide the lines after it). */
static int leaves_comment_open(const char *s, const char *end)
{
	char quote = 0;

	while (s < end) {
		char ch = *s++;

		if (quote) {
			if (ch == '\\' && s < end)
				s++;
			else if (ch == quote)
				quote = 0;
		} else if (ch == '"' || ch == '\'') {
			quote = ch;
		} else if (ch == '/' && s < end && *s == '/') {
			return 0;
		} else if (ch == '/' && s < end && *s == '*') {
			if (!(s = comment_close(s + 1, end)))
				return 1;
		}
	}
	return 0;
}

static void directive(kb_cpp_t *c, const char *s, const char *end)
{
	const char *word;
	size_t wl;
	parser_t p = { c, s, end, 0 };

	skip_space(&p);
	if (p.s >= end || *p.s != '#')
		return;
	p.s++;
	if (!(wl = ident(&p, &word)))
		return;
	if (wl == 2 && !memcmp(word, "if", 2))
		push(c, eval_if(c, p.s, end));
	else if (wl == 5 && !memcmp(word, "ifdef", 5))
		push(c, eval_ifdef(c, p.s, end, 0));
	else if (wl == 6 && !memcmp(word, "ifndef", 6))
		push(c, eval_ifdef(c, p.s, end, 1));
	else if (wl == 4 && !memcmp(word, "elif", 4))
		next_branch(c, eval_if(c, p.s, end));
	else if (wl == 7 && !memcmp(word, "elifdef", 7))
		next_branch(c, eval_ifdef(c, p.s, end, 0));
	else if (wl == 8 && !memcmp(word, "elifndef", 8))
		next_branch(c, eval_ifdef(c, p.s, end, 1));
	else if (wl == 4 && !memcmp(word, "else", 4))
		next_branch(c, KB_TRUE);
	else if (wl == 5 && !memcmp(word, "endif", 5)) {
		if (c->overflow)
			c->overflow--;
		else if (c->depth)
			c->depth--;
	}
}

size_t kb_cpp_line(kb_cpp_t *c, const char *s, size_t len)
{
	const char *end = s + len, *code = s;

	if (c->in_comment && !(code = comment_close(s, end)))
		return len;
	directive(c, code, end);
	c->in_comment = leaves_comment_open(code, end);
	return (size_t)(code - s);
}
