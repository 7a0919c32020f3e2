/* Make expansion: variable references and the built-in functions Kbuild
 * files use. Anything else (shell, calls of undefined functions such as the
 * compiler tests of scripts/Kbuild.include, ...) expands to nothing and marks
 * the expansion's taint, so that a caller can report it where it matters. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild_impl.h"
#include "internal.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static void taint_add(kb_taint_t *t, const char *file, unsigned line, const char *msg)
{
	kb_taint_item_t *it;

	for (int i = 0; i < t->set; i++)
		if (t->item[i].line == line && t->item[i].file == file && !strcmp(t->item[i].msg, msg))
			return;
	if (t->set >= KB_TAINT_MAX)
		return;
	it = &t->item[t->set++];
	it->file = file;
	it->line = line;
	snprintf(it->msg, sizeof(it->msg), "%s", msg);
}

void kb_taint_mark(kb_eval_t *ev, kb_taint_t *taint, const char *fmt, ...)
{
	char msg[sizeof(taint->item[0].msg)];
	va_list ap;

	if (!taint)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	taint_add(taint, ev->file, ev->line, msg);
}

void kb_taint_merge(kb_taint_t *into, const kb_taint_t *from)
{
	if (!into || !from || into == from)
		return;
	for (int i = 0; i < from->set; i++)
		taint_add(into, from->item[i].file, from->item[i].line, from->item[i].msg);
}

int kb_next_word(const char *s, size_t len, size_t *pos, const char **w, size_t *wlen)
{
	size_t i = *pos, start;

	while (i < len && is_space(s[i]))
		i++;
	if (i >= len) {
		*pos = i;
		return 0;
	}
	start = i;
	while (i < len && !is_space(s[i]))
		i++;
	*w = s + start;
	*wlen = i - start;
	*pos = i;
	return 1;
}

size_t kb_path_normalize(char *p, size_t len)
{
	size_t o = 0, i = 0, keep_dotdot = 0;

	while (i < len) {
		size_t j = i, cl;
		while (j < len && p[j] != '/')
			j++;
		cl = j - i;
		if (cl == 0 || (cl == 1 && p[i] == '.')) {
			/* empty or "." component */
		} else if (cl == 2 && p[i] == '.' && p[i + 1] == '.' && o > keep_dotdot) {
			/* drop the last kept component */
			while (o > keep_dotdot && p[o - 1] != '/')
				o--;
			if (o > keep_dotdot)
				o--;
			if (o < keep_dotdot)
				o = keep_dotdot;
		} else {
			if (o)
				p[o++] = '/';
			memmove(p + o, p + i, cl);
			o += cl;
			if (cl == 2 && p[i] == '.' && p[i + 1] == '.')
				keep_dotdot = o;
		}
		i = j + 1;
	}
	if (o == 0 && len) {
		p[0] = '.';
		o = 1;
	}
	return o;
}

/* Matching close of a reference opened at s[0] ('(' or '{'); len if none. */
static size_t ref_end(const char *s, size_t len)
{
	char open = s[0], close = open == '(' ? ')' : '}';
	int depth = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == open)
			depth++;
		else if (s[i] == close && --depth == 0)
			return i;
	}
	return len;
}

/* Split function arguments at top-level commas; at most max pieces (the
 * last takes the rest, commas included). */
#define MAX_ARGS 64
static size_t split_args(const char *s, size_t len, size_t max, const char **argv, size_t *argl)
{
	size_t n = 0, start = 0;
	int depth = 0;

	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? s[i] : ',';
		if (i < len && (c == '(' || c == '{'))
			depth++;
		else if (i < len && (c == ')' || c == '}'))
			depth--;
		else if (c == ',' && depth <= 0 && (n + 1 < max || i == len)) {
			argv[n] = s + start;
			argl[n] = i - start;
			n++;
			start = i + 1;
			if (n == max)
				break;
		}
	}
	return n;
}

static int charge(kb_eval_t *ev, size_t n)
{
	if (n > ev->work_left) {
		ev->work_left = 0;
		return KB_ELIMIT;
	}
	ev->work_left -= n;
	return TD_OK;
}

/* Expand a piece into a fresh buffer. */
static int expand_new(kb_eval_t *ev, const char *s, size_t len, kb_buf_t *out, kb_taint_t *t)
{
	memset(out, 0, sizeof(*out));
	return kb_expand(ev, s, len, out, t);
}

/* Append word w to out with a separating space. */
static int add_word(kb_buf_t *out, int *first, const char *w, size_t wl)
{
	int rc;

	if (!*first && (rc = kb_buf_addc(out, ' ')))
		return rc;
	*first = 0;
	return kb_buf_add(out, w, wl);
}

/* Pattern matching with one '%': stem offset/length when w matches. */
static int pattern_match(const char *pat, size_t pl, const char *w, size_t wl, size_t *stem,
			 size_t *stem_len)
{
	const char *pc = memchr(pat, '%', pl);
	size_t pre, suf;

	if (!pc) {
		*stem = 0;
		*stem_len = 0;
		return pl == wl && !memcmp(pat, w, wl);
	}
	pre = (size_t)(pc - pat);
	suf = pl - pre - 1;
	if (wl < pre + suf || memcmp(w, pat, pre) || memcmp(w + wl - suf, pc + 1, suf))
		return 0;
	*stem = pre;
	*stem_len = wl - pre - suf;
	return 1;
}

/* patsubst of one word into out. */
static int subst_word(kb_buf_t *out, const char *pat, size_t pl, const char *rep, size_t rl,
		      const char *w, size_t wl)
{
	size_t stem, stem_len;
	const char *rc_pct;
	int rc;

	if (!pattern_match(pat, pl, w, wl, &stem, &stem_len))
		return kb_buf_add(out, w, wl);
	rc_pct = memchr(pat, '%', pl) ? memchr(rep, '%', rl) : NULL;
	if (!rc_pct)
		return kb_buf_add(out, rep, rl);
	if ((rc = kb_buf_add(out, rep, (size_t)(rc_pct - rep))) ||
	    (rc = kb_buf_add(out, w + stem, stem_len)))
		return rc;
	return kb_buf_add(out, rc_pct + 1, rl - (size_t)(rc_pct - rep) - 1);
}

static int patsubst_list(kb_buf_t *out, const char *pat, size_t pl, const char *rep, size_t rl,
			 const char *text, size_t tl)
{
	size_t pos = 0, wl;
	const char *w;
	int first = 1, rc;

	while (kb_next_word(text, tl, &pos, &w, &wl)) {
		if (!first && (rc = kb_buf_addc(out, ' ')))
			return rc;
		first = 0;
		if ((rc = subst_word(out, pat, pl, rep, rl, w, wl)))
			return rc;
	}
	return TD_OK;
}

static const char *const automatic_vars = "@<^+*?|%";

/* The value of a variable reference by name into out. */
static int expand_var(kb_eval_t *ev, const char *name, size_t nl, kb_buf_t *out, kb_taint_t *t)
{
	kb_var_t *v;
	int rc;

	if (!nl)
		return TD_OK;
	/* $(1), $(2), ...: the innermost $(call)'s arguments */
	if (name[0] >= '0' && name[0] <= '9') {
		size_t idx = 0, i;
		for (i = 0; i < nl && name[i] >= '0' && name[i] <= '9' && idx < 1000; i++)
			idx = idx * 10 + (size_t)(name[i] - '0');
		if (i == nl) {
			if (ev->args && idx < ev->args->argc)
				return kb_buf_add(out, ev->args->argv[idx], ev->args->argl[idx]);
			return TD_OK;
		}
	}
	if ((nl == 1 || (nl == 2 && (name[1] == 'D' || name[1] == 'F'))) &&
	    strchr(automatic_vars, name[0]))
		return TD_OK; /* automatic variables: empty outside recipes */
	v = kb_scope_get(ev->scope, name, nl);
	if (!v) {
		kb_taint_merge(t, kb_scope_undefined_taint(ev->scope, name, nl));
		return TD_OK;
	}
	kb_taint_merge(t, &v->taint);
	if (v->flavor == KB_SIMPLE) {
		if ((rc = charge(ev, v->len)))
			return rc;
		return kb_buf_add(out, v->value, v->len);
	}
	if (v->expanding) {
		kb_taint_mark(ev, t, "recursive variable '%.*s' references itself", (int)nl, name);
		return TD_OK;
	}
	v->expanding = 1;
	rc = kb_expand(ev, v->value, v->len, out, t);
	v->expanding = 0;
	return rc;
}

typedef struct kb_fn kb_fn_t;
typedef int (*kb_fn_impl)(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
			  const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t);
struct kb_fn {
	const char *name;
	size_t min_args, max_args;
	int lazy;            /* arguments are expanded by the function itself */
	kb_fn_impl impl;
};

/* Arguments expanded up front, for the non-lazy functions. */
typedef struct kb_args {
	kb_buf_t buf[MAX_ARGS];
	const char *argv[MAX_ARGS];
	size_t argl[MAX_ARGS];
	size_t argc;
} kb_args_t;

static void args_release(kb_args_t *a)
{
	/* all of them: an expansion that failed half-way may have allocated */
	for (size_t i = 0; i < MAX_ARGS; i++)
		kb_buf_release(&a->buf[i]);
}

static int fn_subst(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		    size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	const char *s = argv[2];
	size_t n = argl[2];
	int rc;

	(void)ev; (void)fn; (void)argc; (void)t;
	if (!argl[0])
		return kb_buf_add(out, s, n);
	for (size_t i = 0; i < n;) {
		if (n - i >= argl[0] && !memcmp(s + i, argv[0], argl[0])) {
			if ((rc = kb_buf_add(out, argv[1], argl[1])))
				return rc;
			i += argl[0];
		} else {
			if ((rc = kb_buf_addc(out, s[i])))
				return rc;
			i++;
		}
	}
	return TD_OK;
}

static int fn_patsubst(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
		       const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	const char *p = argv[0], *r = argv[1];
	size_t pl = argl[0], rl = argl[1];

	(void)ev; (void)fn; (void)argc; (void)t;
	while (pl && is_space(*p)) { p++; pl--; }
	while (pl && is_space(p[pl - 1])) pl--;
	while (rl && is_space(*r)) { r++; rl--; }
	while (rl && is_space(r[rl - 1])) rl--;
	return patsubst_list(out, p, pl, r, rl, argv[2], argl[2]);
}

static int fn_strip(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		    size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t pos = 0, wl;
	const char *w;
	int first = 1, rc;

	(void)ev; (void)fn; (void)argc; (void)t;
	while (kb_next_word(argv[0], argl[0], &pos, &w, &wl))
		if ((rc = add_word(out, &first, w, wl)))
			return rc;
	return TD_OK;
}

static int fn_findstring(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
			 const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	(void)ev; (void)fn; (void)argc; (void)t;
	if (!argl[0])
		return kb_buf_add(out, "", 0);
	for (size_t i = 0; i + argl[0] <= argl[1]; i++)
		if (!memcmp(argv[1] + i, argv[0], argl[0]))
			return kb_buf_add(out, argv[0], argl[0]);
	return TD_OK;
}

static int matches_any(const char *pats, size_t pl, const char *w, size_t wl)
{
	size_t pos = 0, ppl, stem, stem_len;
	const char *p;

	while (kb_next_word(pats, pl, &pos, &p, &ppl))
		if (pattern_match(p, ppl, w, wl, &stem, &stem_len))
			return 1;
	return 0;
}

static int fn_filter(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		     size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	int keep = !strcmp(fn->name, "filter"), first = 1, rc;
	size_t pos = 0, wl;
	const char *w;

	(void)ev; (void)argc; (void)t;
	while (kb_next_word(argv[1], argl[1], &pos, &w, &wl))
		if (matches_any(argv[0], argl[0], w, wl) == keep &&
		    (rc = add_word(out, &first, w, wl)))
			return rc;
	return TD_OK;
}

typedef struct kb_word {
	const char *w;
	size_t len;
} kb_word_t;

static int word_cmp(const void *a, const void *b)
{
	const kb_word_t *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->w, y->w, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int fn_sort(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		   size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	kb_word_t *words = NULL;
	size_t n = 0, cap = 0, pos = 0, wl;
	const char *w;
	int first = 1, rc = TD_OK;

	(void)ev; (void)fn; (void)argc; (void)t;
	while (kb_next_word(argv[0], argl[0], &pos, &w, &wl)) {
		if (td_grow((void **)&words, &cap, n + 1, sizeof(*words))) {
			free(words);
			return TD_ENOMEM;
		}
		words[n].w = w;
		words[n++].len = wl;
	}
	if (n)
		qsort(words, n, sizeof(*words), word_cmp);
	for (size_t i = 0; i < n && !rc; i++)
		if (!i || word_cmp(&words[i - 1], &words[i]))
			rc = add_word(out, &first, words[i].w, words[i].len);
	free(words);
	return rc;
}

static int parse_count(const char *s, size_t len, size_t *out)
{
	size_t v = 0, i = 0;

	while (i < len && is_space(s[i]))
		i++;
	if (i == len)
		return -1;
	for (; i < len && !is_space(s[i]); i++) {
		if (s[i] < '0' || s[i] > '9' || v > 100000000)
			return -1;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static int fn_word(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		   size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t from, to, i = 0, pos = 0, wl;
	const char *w;
	int first = 1, rc, list = !strcmp(fn->name, "wordlist");
	const char *text = argv[list ? 2 : 1];
	size_t tl = argl[list ? 2 : 1];

	(void)argc;
	if (parse_count(argv[0], argl[0], &from) || !from ||
	    (list && parse_count(argv[1], argl[1], &to))) {
		kb_taint_mark(ev, t, "bad index in $(%s)", fn->name);
		return TD_OK;
	}
	if (!list)
		to = from;
	while (kb_next_word(text, tl, &pos, &w, &wl)) {
		i++;
		if (i >= from && i <= to && (rc = add_word(out, &first, w, wl)))
			return rc;
		if (i > to)
			break;
	}
	return TD_OK;
}

static int fn_words(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		    size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t n = 0, pos = 0, wl;
	const char *w, *last = NULL;
	size_t last_len = 0;
	char num[32];
	int len;

	(void)ev; (void)argc; (void)t;
	while (kb_next_word(argv[0], argl[0], &pos, &w, &wl)) {
		if (!n && !strcmp(fn->name, "firstword"))
			return kb_buf_add(out, w, wl);
		n++;
		last = w;
		last_len = wl;
	}
	if (!strcmp(fn->name, "lastword"))
		return last ? kb_buf_add(out, last, last_len) : TD_OK;
	if (!strcmp(fn->name, "firstword"))
		return TD_OK;
	len = snprintf(num, sizeof(num), "%zu", n);
	return kb_buf_add(out, num, (size_t)len);
}

/* dir, notdir, suffix, basename, abspath, realpath: word by word. */
static int fn_names(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		    size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t pos = 0, wl;
	const char *w;
	int first = 1, rc;
	char kind = fn->name[0] == 'r' ? 'a' : fn->name[0]; /* d n s b a */

	(void)ev; (void)argc; (void)t;
	while (kb_next_word(argv[0], argl[0], &pos, &w, &wl)) {
		const char *slash = NULL, *dot = NULL;
		for (size_t i = 0; i < wl; i++) {
			if (w[i] == '/') {
				slash = w + i;
				dot = NULL;
			} else if (w[i] == '.') {
				dot = w + i;
			}
		}
		switch (kind) {
		case 'd':
			rc = slash ? add_word(out, &first, w, (size_t)(slash - w) + 1)
				   : add_word(out, &first, "./", 2);
			break;
		case 'n':
			rc = slash ? add_word(out, &first, slash + 1, wl - (size_t)(slash - w) - 1)
				   : add_word(out, &first, w, wl);
			break;
		case 's':
			rc = dot ? add_word(out, &first, dot, wl - (size_t)(dot - w)) : TD_OK;
			break;
		case 'b':
			rc = add_word(out, &first, w, dot ? (size_t)(dot - w) : wl);
			break;
		default: { /* abspath/realpath: tree-relative, normalised */
			size_t start = out->len + (first ? 0 : 1);
			if (!(rc = add_word(out, &first, w, wl)))
				out->len = start + kb_path_normalize(out->p + start, wl);
			out->p[out->len] = '\0';
			break;
		}
		}
		if (rc)
			return rc;
	}
	return TD_OK;
}

static int fn_addfix(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		     size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	int prefix = !strcmp(fn->name, "addprefix"), first = 1, rc;
	size_t pos = 0, wl;
	const char *w;

	(void)ev; (void)argc; (void)t;
	while (kb_next_word(argv[1], argl[1], &pos, &w, &wl)) {
		if (!first && (rc = kb_buf_addc(out, ' ')))
			return rc;
		first = 0;
		if (prefix && (rc = kb_buf_add(out, argv[0], argl[0])))
			return rc;
		if ((rc = kb_buf_add(out, w, wl)))
			return rc;
		if (!prefix && (rc = kb_buf_add(out, argv[0], argl[0])))
			return rc;
	}
	return TD_OK;
}

static int fn_join(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		   size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t p1 = 0, p2 = 0, l1, l2;
	const char *w1, *w2;
	int first = 1, rc, h1, h2;

	(void)ev; (void)fn; (void)argc; (void)t;
	for (;;) {
		h1 = kb_next_word(argv[0], argl[0], &p1, &w1, &l1);
		h2 = kb_next_word(argv[1], argl[1], &p2, &w2, &l2);
		if (!h1 && !h2)
			return TD_OK;
		if (!first && (rc = kb_buf_addc(out, ' ')))
			return rc;
		first = 0;
		if ((h1 && (rc = kb_buf_add(out, w1, l1))) || (h2 && (rc = kb_buf_add(out, w2, l2))))
			return rc;
	}
}

static int fn_wildcard(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
		       const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	size_t pos = 0, wl;
	const char *w;
	int first = 1, rc;

	(void)fn; (void)argc;
	while (kb_next_word(argv[0], argl[0], &pos, &w, &wl)) {
		char *path;
		size_t pl;
		int found;
		if (memchr(w, '*', wl) || memchr(w, '?', wl) || memchr(w, '[', wl)) {
			kb_taint_mark(ev, t, "$(wildcard %.*s): glob patterns are not evaluated",
				      (int)(wl > 80 ? 80 : wl), w);
			continue;
		}
		if (!(path = td_strndup(w, wl)))
			return TD_ENOMEM;
		pl = kb_path_normalize(path, wl);
		path[pl] = '\0';
		found = kb_exists(ev, path);
		free(path);
		if (found < 0)
			return found;
		if (found && (rc = add_word(out, &first, w, wl)))
			return rc;
	}
	return TD_OK;
}

/* $(if cond,then[,else]) $(or ...) $(and ...): lazily expanded. */
static int fn_if(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		 size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	kb_buf_t b;
	int rc, nonempty;
	size_t pos = 0, wl;
	const char *w;

	if (!strcmp(fn->name, "if")) {
		if ((rc = expand_new(ev, argv[0], argl[0], &b, t)))
			goto fail;
		nonempty = kb_next_word(kb_buf_str(&b), b.len, &pos, &w, &wl);
		kb_buf_release(&b);
		if (nonempty)
			return kb_expand(ev, argv[1], argl[1], out, t);
		return argc > 2 ? kb_expand(ev, argv[2], argl[2], out, t) : TD_OK;
	}
	for (size_t i = 0; i < argc; i++) {
		size_t start;
		if ((rc = expand_new(ev, argv[i], argl[i], &b, t)))
			goto fail;
		/* strip, as make does for each argument */
		pos = 0;
		nonempty = kb_next_word(kb_buf_str(&b), b.len, &pos, &w, &wl);
		if (fn->name[0] == 'o' && nonempty) {
			start = (size_t)(w - b.p);
			while (b.len > start && is_space(b.p[b.len - 1]))
				b.len--;
			rc = kb_buf_add(out, b.p + start, b.len - start);
			kb_buf_release(&b);
			return rc;
		}
		if (fn->name[0] == 'a') {
			if (!nonempty) {
				kb_buf_release(&b);
				return TD_OK;
			}
			if (i + 1 == argc) {
				start = (size_t)(w - b.p);
				while (b.len > start && is_space(b.p[b.len - 1]))
					b.len--;
				rc = kb_buf_add(out, b.p + start, b.len - start);
				kb_buf_release(&b);
				return rc;
			}
		}
		kb_buf_release(&b);
	}
	return TD_OK;
fail:
	kb_buf_release(&b);
	return rc;
}

/* Set var (in the current scope) for a loop or call, saving what it was. */
typedef struct kb_saved_var {
	kb_var_t *v;
	char *value;
	size_t len;
	int flavor;
	kb_taint_t taint;
} kb_saved_var_t;

static int save_var(kb_eval_t *ev, const char *name, size_t nl, kb_saved_var_t *s)
{
	memset(s, 0, sizeof(*s));
	if (!(s->v = kb_scope_own(ev->scope, name, nl)))
		return TD_ENOMEM;
	s->value = s->v->value;
	s->len = s->v->len;
	s->flavor = s->v->flavor;
	s->taint = s->v->taint;
	s->v->value = NULL;
	s->v->len = 0;
	return TD_OK;
}

static void restore_var(kb_saved_var_t *s)
{
	if (!s->v)
		return;
	free(s->v->value);
	s->v->value = s->value;
	s->v->len = s->len;
	s->v->flavor = s->flavor;
	s->v->taint = s->taint;
}

static int fn_foreach(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
		      const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	kb_buf_t name = { 0 }, list = { 0 };
	kb_saved_var_t saved = { 0 };
	size_t pos = 0, wl, nl;
	const char *w, *np;
	int rc, first = 1;

	(void)fn; (void)argc;
	if ((rc = expand_new(ev, argv[0], argl[0], &name, t)) ||
	    (rc = expand_new(ev, argv[1], argl[1], &list, t)))
		goto out;
	np = kb_buf_str(&name);
	nl = name.len;
	while (nl && is_space(*np)) { np++; nl--; }
	while (nl && is_space(np[nl - 1])) nl--;
	if (!nl)
		goto out;
	if ((rc = save_var(ev, np, nl, &saved)))
		goto out;
	while (kb_next_word(kb_buf_str(&list), list.len, &pos, &w, &wl)) {
		/* make joins the results with a space, empty ones too */
		if ((rc = kb_var_set(saved.v, w, wl, KB_SIMPLE)))
			break;
		memset(&saved.v->taint, 0, sizeof(saved.v->taint));
		if (!first && (rc = kb_buf_addc(out, ' ')))
			break;
		first = 0;
		if ((rc = kb_expand(ev, argv[2], argl[2], out, t)))
			break;
	}
	restore_var(&saved);
out:
	kb_buf_release(&name);
	kb_buf_release(&list);
	return rc;
}

static int fn_call(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		   size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	const char *name = argv[0];
	size_t nl = argl[0];
	kb_frame_args_t frame, *prev = (kb_frame_args_t *)ev->args;
	kb_var_t *v;
	int rc;

	(void)fn;
	while (nl && is_space(*name)) { name++; nl--; }
	while (nl && is_space(name[nl - 1])) nl--;
	v = kb_scope_get(ev->scope, name, nl);
	if (!v || !v->value) {
		kb_taint_mark(ev, t, "$(call %.*s): undefined function (Kbuild.include helpers and "
			      "compiler tests are not evaluated)", (int)(nl > 60 ? 60 : nl), name);
		return TD_OK;
	}
	if (v->expanding) {
		kb_taint_mark(ev, t, "function '%.*s' calls itself", (int)(nl > 60 ? 60 : nl), name);
		return TD_OK;
	}
	frame.argv = argv;
	frame.argl = argl;
	frame.argc = argc;
	ev->args = &frame;
	v->expanding = 1;
	rc = kb_expand(ev, v->value, v->len, out, t);
	v->expanding = 0;
	ev->args = prev;
	return rc;
}

static int fn_value(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		    size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	const char *name = argv[0];
	size_t nl = argl[0];
	kb_var_t *v;
	const char *res;

	(void)argc;
	while (nl && is_space(*name)) { name++; nl--; }
	while (nl && is_space(name[nl - 1])) nl--;
	v = kb_scope_get(ev->scope, name, nl);
	if (!strcmp(fn->name, "value")) {
		if (!v)
			return TD_OK;
		kb_taint_merge(t, &v->taint);
		return kb_buf_add(out, v->value ? v->value : "", v->len);
	}
	if (!strcmp(fn->name, "origin"))
		res = !v ? "undefined" : v->from_config ? "file" : "file";
	else /* flavor */
		res = !v ? "undefined" : v->flavor == KB_SIMPLE ? "simple" : "recursive";
	return kb_buf_add(out, res, strlen(res));
}

static int fn_eval(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv, const size_t *argl,
		   size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	td_kbuild_makefile_t *mf = NULL;
	int rc, saved_fixed = ev->fixed_line;
	unsigned saved_line = ev->line;

	(void)fn; (void)argc; (void)out;
	if (ev->include_depth >= TD_KBUILD_MAX_INCLUDE_DEPTH ||
	    ev->includes >= TD_KBUILD_MAX_INCLUDES) {
		kb_taint_mark(ev, t, "$(eval) nested too deep or run too often");
		return TD_OK;
	}
	ev->includes++;
	if ((rc = td_kbuild_parse_makefile(&mf, argv[0], argl[0], NULL)))
		return rc == TD_ENOMEM ? KB_ELIMIT : rc;
	ev->include_depth++;
	ev->fixed_line = 1;
	rc = kb_exec(ev, mf);
	ev->fixed_line = saved_fixed;
	ev->line = saved_line;
	ev->include_depth--;
	td_kbuild_makefile_free(mf);
	return rc;
}

static int fn_message(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
		      const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	(void)argc; (void)out; (void)t;
	if (!strcmp(fn->name, "error"))
		kb_warn(ev, "$(error %.*s) reached", (int)(argl[0] > 120 ? 120 : argl[0]), argv[0]);
	return TD_OK; /* $(warning) and $(info) print only */
}

static int fn_unknown(kb_eval_t *ev, const kb_fn_t *fn, const char *const *argv,
		      const size_t *argl, size_t argc, kb_buf_t *out, kb_taint_t *t)
{
	(void)argc; (void)out;
	if (!strcmp(fn->name, "shell"))
		kb_taint_mark(ev, t, "$(shell %.*s): commands are not run",
			      (int)(argl[0] > 80 ? 80 : argl[0]), argv[0]);
	else
		kb_taint_mark(ev, t, "$(%s ...): function not supported", fn->name);
	return TD_OK;
}

static const kb_fn_t functions[] = {
	{ "abspath", 1, 1, 0, fn_names },
	{ "addprefix", 2, 2, 0, fn_addfix },
	{ "addsuffix", 2, 2, 0, fn_addfix },
	{ "and", 1, MAX_ARGS, 1, fn_if },
	{ "basename", 1, 1, 0, fn_names },
	{ "call", 1, MAX_ARGS, 0, fn_call },
	{ "dir", 1, 1, 0, fn_names },
	{ "error", 1, 1, 0, fn_message },
	{ "eval", 1, 1, 0, fn_eval },
	{ "file", 1, 2, 1, fn_unknown },
	{ "filter", 2, 2, 0, fn_filter },
	{ "filter-out", 2, 2, 0, fn_filter },
	{ "findstring", 2, 2, 0, fn_findstring },
	{ "firstword", 1, 1, 0, fn_words },
	{ "flavor", 1, 1, 0, fn_value },
	{ "foreach", 3, 3, 1, fn_foreach },
	{ "guile", 1, 1, 1, fn_unknown },
	{ "if", 2, 3, 1, fn_if },
	{ "info", 1, 1, 0, fn_message },
	{ "intcmp", 2, 5, 1, fn_unknown },
	{ "join", 2, 2, 0, fn_join },
	{ "lastword", 1, 1, 0, fn_words },
	{ "let", 3, 3, 1, fn_unknown },
	{ "notdir", 1, 1, 0, fn_names },
	{ "or", 1, MAX_ARGS, 1, fn_if },
	{ "origin", 1, 1, 0, fn_value },
	{ "patsubst", 3, 3, 0, fn_patsubst },
	{ "realpath", 1, 1, 0, fn_names },
	{ "shell", 1, 1, 1, fn_unknown },
	{ "sort", 1, 1, 0, fn_sort },
	{ "strip", 1, 1, 0, fn_strip },
	{ "subst", 3, 3, 0, fn_subst },
	{ "suffix", 1, 1, 0, fn_names },
	{ "value", 1, 1, 0, fn_value },
	{ "warning", 1, 1, 0, fn_message },
	{ "wildcard", 1, 1, 0, fn_wildcard },
	{ "word", 2, 2, 0, fn_word },
	{ "wordlist", 3, 3, 0, fn_word },
	{ "words", 1, 1, 0, fn_words },
};

static const kb_fn_t *find_function(const char *s, size_t len, size_t *name_len)
{
	size_t n = 0;

	while (n < len && ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '-'))
		n++;
	if (!n || n == len || !is_space(s[n]))
		return NULL;
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (strlen(functions[i].name) == n && !memcmp(functions[i].name, s, n)) {
			*name_len = n;
			return &functions[i];
		}
	return NULL;
}

static int call_function(kb_eval_t *ev, const kb_fn_t *fn, const char *s, size_t len,
			 kb_buf_t *out, kb_taint_t *t)
{
	const char *raw[MAX_ARGS];
	size_t rawl[MAX_ARGS], argc;
	kb_args_t *a;
	int rc = TD_OK;

	/* make skips the whitespace after the function name */
	while (len && is_space(*s)) {
		s++;
		len--;
	}
	argc = split_args(s, len, fn->max_args, raw, rawl);
	if (argc < fn->min_args) {
		/* make: "insufficient number of arguments"; pad with empties */
		kb_taint_mark(ev, t, "$(%s) with %zu argument(s), wants %zu", fn->name, argc,
			      fn->min_args);
		for (; argc < fn->min_args; argc++) {
			raw[argc] = "";
			rawl[argc] = 0;
		}
	}
	if (fn->lazy)
		return fn->impl(ev, fn, raw, rawl, argc, out, t);
	if (!(a = calloc(1, sizeof(*a))))
		return TD_ENOMEM;
	for (a->argc = 0; a->argc < argc; a->argc++) {
		if ((rc = kb_expand(ev, raw[a->argc], rawl[a->argc], &a->buf[a->argc], t)))
			break;
	}
	if (!rc) {
		for (size_t i = 0; i < argc; i++) {
			a->argv[i] = kb_buf_str(&a->buf[i]);
			a->argl[i] = a->buf[i].len;
		}
		/* $(call name,...): $(0) is the name */
		rc = fn->impl(ev, fn, a->argv, a->argl, argc, out, t);
	}
	args_release(a);
	free(a);
	return rc;
}

/* A top-level ':' and the '=' after it in a reference, for $(var:a=b). */
static int find_subst_ref(const char *s, size_t len, size_t *colon, size_t *eq)
{
	int depth = 0;

	*colon = len;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '(' || c == '{')
			depth++;
		else if (c == ')' || c == '}')
			depth--;
		else if (!depth && c == ':' && *colon == len)
			*colon = i;
		else if (!depth && c == '=' && *colon < len) {
			*eq = i;
			return 1;
		}
	}
	return 0;
}

/* The body of $(...) or ${...}. */
static int expand_ref(kb_eval_t *ev, const char *s, size_t len, kb_buf_t *out, kb_taint_t *t)
{
	const kb_fn_t *fn;
	size_t fnl, colon, eq;
	kb_buf_t name = { 0 }, val = { 0 }, pat = { 0 }, rep = { 0 };
	int rc;

	if ((fn = find_function(s, len, &fnl)))
		return call_function(ev, fn, s + fnl, len - fnl, out, t);
	if (find_subst_ref(s, len, &colon, &eq)) {
		const char *p, *r;
		size_t pl, rl;
		if ((rc = expand_new(ev, s, colon, &name, t)) ||
		    (rc = expand_new(ev, s + colon + 1, eq - colon - 1, &pat, t)) ||
		    (rc = expand_new(ev, s + eq + 1, len - eq - 1, &rep, t)) ||
		    (rc = expand_var(ev, kb_buf_str(&name), name.len, &val, t)))
			goto out;
		p = kb_buf_str(&pat);
		pl = pat.len;
		r = kb_buf_str(&rep);
		rl = rep.len;
		if (memchr(p, '%', pl)) {
			rc = patsubst_list(out, p, pl, r, rl, kb_buf_str(&val), val.len);
		} else {
			/* $(var:a=b) is $(patsubst %a,%b,$(var)) */
			kb_buf_t p2 = { 0 }, r2 = { 0 };
			if (!(rc = kb_buf_addc(&p2, '%')) && !(rc = kb_buf_add(&p2, p, pl)) &&
			    !(rc = kb_buf_addc(&r2, '%')) && !(rc = kb_buf_add(&r2, r, rl)))
				rc = patsubst_list(out, p2.p, p2.len, r2.p, r2.len, kb_buf_str(&val),
						   val.len);
			kb_buf_release(&p2);
			kb_buf_release(&r2);
		}
		goto out;
	}
	if (memchr(s, '$', len)) {
		if ((rc = expand_new(ev, s, len, &name, t)))
			goto out;
		rc = expand_var(ev, kb_buf_str(&name), name.len, out, t);
	} else {
		rc = expand_var(ev, s, len, out, t);
	}
out:
	kb_buf_release(&name);
	kb_buf_release(&val);
	kb_buf_release(&pat);
	kb_buf_release(&rep);
	return rc;
}

int kb_expand(kb_eval_t *ev, const char *text, size_t len, kb_buf_t *out, kb_taint_t *t)
{
	size_t i = 0;
	int rc = TD_OK;

	if ((rc = kb_buf_add(out, "", 0)))
		return rc;
	if ((rc = charge(ev, len + 1)))
		return rc;
	if (++ev->depth > TD_KBUILD_MAX_EXPAND_DEPTH) {
		ev->depth--;
		return KB_ELIMIT;
	}
	while (i < len) {
		const char *d = memchr(text + i, '$', len - i);
		size_t run = d ? (size_t)(d - text) - i : len - i;

		if (run && (rc = kb_buf_add(out, text + i, run)))
			goto out;
		i += run;
		if (i >= len)
			break;
		/* text[i] == '$' */
		if (i + 1 >= len) {
			i++;
			break;
		}
		if (text[i + 1] == '$') {
			if ((rc = kb_buf_addc(out, '$')))
				goto out;
			i += 2;
		} else if (text[i + 1] == '(' || text[i + 1] == '{') {
			size_t end = ref_end(text + i + 1, len - i - 1);
			if (end >= len - i - 1) {
				kb_taint_mark(ev, t, "unterminated variable reference");
				break;
			}
			if ((rc = expand_ref(ev, text + i + 2, end - 1, out, t)))
				goto out;
			i += end + 2;
		} else {
			if ((rc = expand_var(ev, text + i + 1, 1, out, t)))
				goto out;
			i += 2;
		}
	}
out:
	ev->depth--;
	return rc;
}
