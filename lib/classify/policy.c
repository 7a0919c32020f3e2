/* Path policies: the line format of doc/policy.md, lookups through a globset
 * (longest pattern wins, ties to the earlier rule), and applying a policy to
 * a comparison's result. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "globset.h"
#include "policy_builtin.h"
#include "policy_impl.h"
#include "textfile.h"
#include "treedrift/policy.h"

#define CLASS_NAME_MAX 64
#define POLICY_NAME_MAX 256

struct policy_class {
	char *name;
	double weight;
	unsigned set;        /* keys given in the section (KEY_* bits) */
	td_thresholds_t thresholds;
	unsigned line;
};

struct policy_rule {
	char *pattern;
	size_t cls;          /* index into classes */
	unsigned line;
};

struct td_policy {
	atomic_uint refs;    /* holders: 1 at creation, one more per td_policy_retain */
	char *name;
	struct policy_class *classes;
	size_t classes_count;
	size_t classes_cap;
	struct policy_rule *rules;
	size_t rules_count;
	size_t rules_cap;
	size_t other;        /* index of the "other" class; SIZE_MAX when not given */
	td_globset_t *set;
};

/* The threshold keys' bits are the TD_POLICY_HAS_* a match reports. */
enum {
	KEY_CLEAN_BELOW = TD_POLICY_HAS_CLEAN_BELOW,
	KEY_DIRTY_ABOVE = TD_POLICY_HAS_DIRTY_ABOVE,
	KEY_WEIGHT = 4u,
	KEY_THRESHOLDS = KEY_CLEAN_BELOW | KEY_DIRTY_ABOVE
};

/* Parsing state: where we are, for messages. */
struct parser {
	td_policy_t *p;
	const char *name;
	unsigned line;
	int in_policy;       /* inside [policy] */
	size_t cls;          /* inside [class NAME]: its index; SIZE_MAX otherwise */
	unsigned policy_line;/* line of [policy]; 0 when not seen */
	td_error_t *err;
};

td_policy_t *td_policy_retain(const td_policy_t *p)
{
	td_policy_t *q = (td_policy_t *)p;

	if (q)
		atomic_fetch_add(&q->refs, 1);
	return q;
}

void td_policy_free(td_policy_t *p)
{
	if (!p)
		return;
	if (atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	for (size_t i = 0; i < p->classes_count; i++)
		free(p->classes[i].name);
	for (size_t i = 0; i < p->rules_count; i++)
		free(p->rules[i].pattern);
	free(p->classes);
	free(p->rules);
	free(p->name);
	td_globset_free(p->set);
	free(p);
}

static void trim(const char **s, size_t *len)
{
	while (*len && td_is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && td_is_blank((*s)[*len - 1]))
		(*len)--;
}

/* Cut a comment off: a '#' at the start or after a blank, not escaped. */
static size_t strip_comment(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		if (s[i] == '#' && (i == 0 || td_is_blank(s[i - 1])))
			return i;
	}
	return len;
}

/* The next blank-separated word of s[*pos..len); a backslash keeps the
 * byte after it in the word (and stays in it: globs read it as an escape).
 * Returns 0 at the end. */
static int next_word(const char *s, size_t len, size_t *pos, const char **word, size_t *word_len)
{
	size_t i = *pos, start;

	while (i < len && td_is_blank(s[i]))
		i++;
	if (i >= len)
		return 0;
	start = i;
	while (i < len && !td_is_blank(s[i]))
		i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
	*word = s + start;
	*word_len = i - start;
	*pos = i;
	return 1;
}

/* Report an error at the line being read. */
#define fail(ps, code, ...) td_error_at((ps)->err, (code), (ps)->name, (ps)->line, __VA_ARGS__)

/* Quote at most a short, printable excerpt of untrusted text in a message. */
static const char *excerpt(char *buf, size_t size, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (n + 4 >= size && len > n) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

static int valid_class_name(const char *s, size_t len)
{
	if (!len || len > CLASS_NAME_MAX)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return 1;
}

static size_t find_class(const td_policy_t *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->classes_count; i++)
		if (strlen(p->classes[i].name) == len && !memcmp(p->classes[i].name, name, len))
			return i;
	return SIZE_MAX;
}

static int section_header(struct parser *ps, const char *s, size_t len)
{
	td_policy_t *p = ps->p;
	const char *w1 = NULL, *w2 = NULL, *w3;
	size_t l1 = 0, l2 = 0, l3, pos = 0, at;
	char buf[96];
	struct policy_class *c;

	/* s[0] == '['; comments are already cut off */
	if (len < 2 || s[len - 1] != ']')
		return fail(ps, TD_EINVAL, "unterminated section header, expected ']'");
	s++;
	len -= 2;
	next_word(s, len, &pos, &w1, &l1);
	next_word(s, len, &pos, &w2, &l2);
	if (next_word(s, len, &pos, &w3, &l3))
		return fail(ps, TD_EINVAL, "unexpected '%s' in section header",
			    excerpt(buf, sizeof(buf), w3, l3));
	ps->in_policy = 0;
	ps->cls = SIZE_MAX;
	if (l1 == 6 && !memcmp(w1, "policy", 6) && !w2) {
		if (ps->policy_line)
			return fail(ps, TD_EINVAL, "section [policy] already given at line %u", ps->policy_line);
		ps->policy_line = ps->line;
		ps->in_policy = 1;
		return TD_OK;
	}
	if (!(l1 == 5 && !memcmp(w1, "class", 5))) {
		return fail(ps, TD_EINVAL, "unknown section '[%s]', expected [class NAME] or [policy]",
			    excerpt(buf, sizeof(buf), s, len));
	}
	if (!w2)
		return fail(ps, TD_EINVAL, "section [class] needs a name");
	if (!valid_class_name(w2, l2))
		return fail(ps, TD_EINVAL,
			    "bad class name '%s': 1 to 64 letters, digits, '_', '-' or '.'",
			    excerpt(buf, sizeof(buf), w2, l2));
	if ((at = find_class(p, w2, l2)) != SIZE_MAX)
		return fail(ps, TD_EINVAL, "class '%s' already defined at line %u", p->classes[at].name,
			    p->classes[at].line);
	if (p->classes_count >= TD_POLICY_MAX_CLASSES)
		return fail(ps, TD_ENOMEM, "more than 1000 classes");
	if (td_grow((void **)&p->classes, &p->classes_cap, p->classes_count + 1, sizeof(*p->classes)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	c = &p->classes[p->classes_count];
	memset(c, 0, sizeof(*c));
	if (!(c->name = td_strndup(w2, l2)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	c->weight = 1.0;
	c->thresholds.clean_below = TD_DEFAULT_CLEAN_BELOW;
	c->thresholds.dirty_above = TD_DEFAULT_DIRTY_ABOVE;
	c->line = ps->line;
	if (!strcmp(c->name, TD_POLICY_OTHER))
		p->other = p->classes_count;
	ps->cls = p->classes_count++;
	return TD_OK;
}

/* A decimal number: digits, optionally '.' and up to 9 more digits, with a
 * value in [0, max]. Parsed by hand: strtod would follow the locale. */
static int parse_number(const char *s, size_t len, double max, double *out)
{
	uint64_t whole = 0, frac = 0, scale = 1;
	size_t i = 0, digits = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		if (whole > (uint64_t)max)
			return TD_EINVAL;
		whole = whole * 10 + (uint64_t)(s[i++] - '0');
		digits++;
	}
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (scale >= 1000000000)
				return TD_EINVAL;
			frac = frac * 10 + (uint64_t)(s[i++] - '0');
			scale *= 10;
			digits++;
		}
	}
	if (i != len || !digits || whole > (uint64_t)max)
		return TD_EINVAL;
	/* one rounding: (whole * scale + frac) is exact below 2^53 */
	*out = (double)(whole * scale + frac) / (double)scale;
	return *out <= max ? TD_OK : TD_EINVAL;
}

static int parse_int(const char *s, size_t len, int max, int *out)
{
	long v = 0;

	if (!len)
		return TD_EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return TD_EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return TD_EINVAL;
	}
	*out = (int)v;
	return TD_OK;
}

/* The value of a key that takes one word. */
static int single_word(struct parser *ps, const char *key, const char *v, size_t vlen,
		       const char **word, size_t *word_len)
{
	size_t pos = 0;
	const char *extra;
	size_t extra_len;

	if (!next_word(v, vlen, &pos, word, word_len))
		return fail(ps, TD_EINVAL, "'%s' needs a value", key);
	if (next_word(v, vlen, &pos, &extra, &extra_len))
		return fail(ps, TD_EINVAL, "'%s' takes one value", key);
	return TD_OK;
}

static int add_rule(struct parser *ps, const char *w, size_t wlen)
{
	td_policy_t *p = ps->p;
	struct policy_rule *r;
	char buf[96];

	if (wlen > TD_POLICY_MAX_PATTERN)
		return fail(ps, TD_EINVAL, "pattern '%s' longer than 4096 bytes",
			    excerpt(buf, sizeof(buf), w, wlen));
	if (p->rules_count >= TD_POLICY_MAX_RULES)
		return fail(ps, TD_ENOMEM, "more than 10000 patterns");
	if (td_grow((void **)&p->rules, &p->rules_cap, p->rules_count + 1, sizeof(*p->rules)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	r = &p->rules[p->rules_count];
	if (!(r->pattern = td_strndup(w, wlen)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	r->cls = ps->cls;
	r->line = ps->line;
	p->rules_count++;
	return TD_OK;
}

static int class_key(struct parser *ps, const char *key, const char *v, size_t vlen)
{
	struct policy_class *c = &ps->p->classes[ps->cls];
	const char *w = NULL;
	size_t wlen = 0, pos = 0;
	unsigned bit;
	char buf[96];
	int rc, n;

	if (!strcmp(key, "paths")) {
		int any = 0;

		while (next_word(v, vlen, &pos, &w, &wlen)) {
			if ((rc = add_rule(ps, w, wlen)))
				return rc;
			any = 1;
		}
		return any ? TD_OK : fail(ps, TD_EINVAL, "'paths' needs at least one pattern");
	}
	if (!strcmp(key, "weight"))
		bit = KEY_WEIGHT;
	else if (!strcmp(key, "clean_below"))
		bit = KEY_CLEAN_BELOW;
	else if (!strcmp(key, "dirty_above"))
		bit = KEY_DIRTY_ABOVE;
	else
		return fail(ps, TD_EINVAL,
			    "unknown key '%s' in class '%s' (weight, clean_below, dirty_above, paths)",
			    key, c->name);
	if (c->set & bit)
		return fail(ps, TD_EINVAL, "'%s' given twice in class '%s'", key, c->name);
	c->set |= bit;
	if ((rc = single_word(ps, key, v, vlen, &w, &wlen)))
		return rc;
	if (bit == KEY_WEIGHT) {
		if (parse_number(w, wlen, TD_POLICY_MAX_WEIGHT, &c->weight))
			return fail(ps, TD_EINVAL, "bad weight '%s': a decimal number from 0 to 1000",
				    excerpt(buf, sizeof(buf), w, wlen));
		return TD_OK;
	}
	if (parse_int(w, wlen, TD_POLICY_MAX_THRESHOLD, &n))
		return fail(ps, TD_EINVAL, "bad %s '%s': a whole number from 0 to %d", key,
			    excerpt(buf, sizeof(buf), w, wlen), TD_POLICY_MAX_THRESHOLD);
	if (bit == KEY_CLEAN_BELOW)
		c->thresholds.clean_below = n;
	else
		c->thresholds.dirty_above = n;
	if ((c->set & KEY_THRESHOLDS) == KEY_THRESHOLDS && c->thresholds.clean_below > c->thresholds.dirty_above)
		return fail(ps, TD_EINVAL, "clean_below is above dirty_above in class '%s'", c->name);
	return TD_OK;
}

static int policy_key(struct parser *ps, const char *key, const char *v, size_t vlen)
{
	char buf[96];

	if (strcmp(key, "name"))
		return fail(ps, TD_EINVAL, "unknown key '%s' in [policy] (name)", key);
	if (ps->p->name)
		return fail(ps, TD_EINVAL, "'name' given twice in [policy]");
	if (!vlen)
		return fail(ps, TD_EINVAL, "'name' needs a value");
	if (vlen > POLICY_NAME_MAX)
		return fail(ps, TD_EINVAL, "policy name '%s' longer than 256 bytes",
			    excerpt(buf, sizeof(buf), v, vlen));
	if (!(ps->p->name = td_strndup(v, vlen)))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	return TD_OK;
}

static int key_value(struct parser *ps, const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len), *k = s, *v;
	size_t klen, vlen;
	char key[32], buf[96];

	if (!eq)
		return fail(ps, TD_EINVAL, "expected 'key = value' or a [section], not '%s'",
			    excerpt(buf, sizeof(buf), s, len));
	klen = (size_t)(eq - s);
	v = eq + 1;
	vlen = len - klen - 1;
	trim(&k, &klen);
	trim(&v, &vlen);
	if (!klen)
		return fail(ps, TD_EINVAL, "missing key before '='");
	if (klen >= sizeof(key) || memchr(k, ' ', klen) || memchr(k, '\t', klen))
		return fail(ps, TD_EINVAL, "unknown key '%s'", excerpt(buf, sizeof(buf), k, klen));
	memcpy(key, k, klen);
	key[klen] = '\0';
	if (ps->in_policy)
		return policy_key(ps, key, v, vlen);
	if (ps->cls == SIZE_MAX)
		return fail(ps, TD_EINVAL, "'%s' outside a section, expected [class NAME] first", key);
	return class_key(ps, key, v, vlen);
}

static int parse_line(struct parser *ps, const char *s, size_t len)
{
	if (len && s[len - 1] == '\r')
		len--;
	if (memchr(s, '\0', len))
		return fail(ps, TD_EINVAL, "NUL byte in line");
	len = strip_comment(s, len);
	trim(&s, &len);
	if (!len)
		return TD_OK;
	if (s[0] == '[')
		return section_header(ps, s, len);
	return key_value(ps, s, len);
}

static int cmp_rule_ptrs(const void *a, const void *b)
{
	const struct policy_rule *ra = *(const struct policy_rule *const *)a;
	const struct policy_rule *rb = *(const struct policy_rule *const *)b;
	int c = strcmp(ra->pattern, rb->pattern);

	if (c)
		return c;
	return ra->line < rb->line ? -1 : ra->line > rb->line;
}

/* A pattern given twice could never win the second time: say so. */
static int check_duplicates(struct parser *ps)
{
	td_policy_t *p = ps->p;
	const struct policy_rule **sorted;
	int rc = TD_OK;

	if (p->rules_count < 2)
		return TD_OK;
	if (!(sorted = td_malloc_array(p->rules_count, sizeof(*sorted))))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->rules_count; i++)
		sorted[i] = &p->rules[i];
	qsort(sorted, p->rules_count, sizeof(*sorted), cmp_rule_ptrs);
	for (size_t i = 1; i < p->rules_count; i++) {
		const struct policy_rule *a = sorted[i - 1], *b = sorted[i];
		char buf[96];

		if (strcmp(a->pattern, b->pattern))
			continue;
		/* report the later one, at its own line */
		ps->line = b->line;
		rc = fail(ps, TD_EINVAL, "pattern '%s' already given at line %u",
			  excerpt(buf, sizeof(buf), a->pattern, strlen(a->pattern)), a->line);
		break;
	}
	free(sorted);
	return rc;
}

static int build_index(struct parser *ps)
{
	td_policy_t *p = ps->p;

	if (td_globset_new(&p->set))
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->rules_count; i++)
		if (td_globset_add(p->set, p->rules[i].pattern, (uint32_t)i))
			return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	switch (td_globset_build(p->set)) {
	case TD_OK:
		return TD_OK;
	case TD_EUNSUPPORTED:
		return td_error_set(ps->err, TD_EUNSUPPORTED,
				    "%s: %zu patterns without a literal part (such as '*x*'); at most %d",
				    ps->name, td_globset_unindexed(p->set), TD_GLOBSET_MAX_UNINDEXED);
	default:
		return td_error_set(ps->err, TD_ENOMEM, "out of memory");
	}
}

int td_policy_parse(td_policy_t **out, const char *text, size_t len, const char *name_for_errors,
		    td_error_t *err)
{
	struct parser ps;
	const char *s = text, *end = text + len;
	int rc;

	*out = NULL;
	memset(&ps, 0, sizeof(ps));
	ps.name = name_for_errors ? name_for_errors : "policy";
	ps.cls = SIZE_MAX;
	ps.err = err;
	if (!text && len)
		return td_error_set(err, TD_EINVAL, "%s: no policy text", ps.name);
	if (len > TD_POLICY_MAX_BYTES)
		return td_error_set(err, TD_ENOMEM, "%s: policy larger than 1 MiB", ps.name);
	if ((ps.p = calloc(1, sizeof(*ps.p))))
		atomic_init(&ps.p->refs, 1);
	if (!ps.p)
		return td_error_set(err, TD_ENOMEM, "out of memory");
	ps.p->other = SIZE_MAX;
	if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3; /* a UTF-8 byte order mark */
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t line_len = nl ? (size_t)(nl - s) : (size_t)(end - s);

		ps.line++;
		if ((rc = parse_line(&ps, s, line_len)))
			goto out;
		s += line_len + (nl ? 1 : 0);
	}
	if ((rc = check_duplicates(&ps)) || (rc = build_index(&ps)))
		goto out;
	*out = ps.p;
	ps.p = NULL;
out:
	td_policy_free(ps.p);
	return rc;
}

int td_policy_load_file(td_policy_t **out, const char *path, td_error_t *err)
{
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	if ((rc = td_read_file(&text, &len, path, TD_POLICY_MAX_BYTES, err)))
		return rc;
	rc = td_policy_parse(out, text, len, path, err);
	free(text);
	return rc;
}

const char *td_policy_default_linux_text(size_t *len)
{
	if (len)
		*len = td_policy_linux_len;
	return td_policy_linux_text;
}

int td_policy_default_linux(td_policy_t **out, td_error_t *err)
{
	return td_policy_parse(out, td_policy_linux_text, td_policy_linux_len, "built-in linux policy", err);
}

const char *td_policy_name(const td_policy_t *p)
{
	return p ? p->name : NULL;
}

static void fill_class(td_policy_match_t *out, const struct policy_class *c)
{
	out->class_name = c->name;
	out->weight = c->weight;
	out->has_thresholds = c->set & KEY_THRESHOLDS;
	out->thresholds = c->thresholds;
	out->pattern = NULL;
	out->line = c->line;
}

int td_policy_lookup(td_policy_match_t *out, const td_policy_t *p, const char *path, size_t len)
{
	uint32_t at;
	const char *pattern;

	if (!p || !out || (!path && len))
		return TD_EINVAL;
	if (td_globset_best(p->set, path ? path : "", len, NULL, NULL, &at, &pattern)) {
		fill_class(out, &p->classes[p->rules[at].cls]);
		out->pattern = pattern;
		out->line = p->rules[at].line;
		return TD_OK;
	}
	if (p->other != SIZE_MAX) {
		fill_class(out, &p->classes[p->other]);
		out->line = 0;
		return TD_OK;
	}
	memset(out, 0, sizeof(*out));
	out->class_name = TD_POLICY_OTHER;
	out->weight = 1.0;
	out->thresholds.clean_below = TD_DEFAULT_CLEAN_BELOW;
	out->thresholds.dirty_above = TD_DEFAULT_DIRTY_ABOVE;
	return TD_OK;
}

size_t td_policy_class_count(const td_policy_t *p)
{
	return p ? p->classes_count : 0;
}

int td_policy_class_at(td_policy_match_t *out, const td_policy_t *p, size_t i)
{
	if (!p || !out || i >= p->classes_count)
		return TD_EINVAL;
	fill_class(out, &p->classes[i]);
	return TD_OK;
}

void td_policy_thresholds(td_thresholds_t *out, const td_policy_match_t *m, const td_thresholds_t *base)
{
	*out = *base;
	if (m->has_thresholds & TD_POLICY_HAS_CLEAN_BELOW)
		out->clean_below = m->thresholds.clean_below;
	if (m->has_thresholds & TD_POLICY_HAS_DIRTY_ABOVE)
		out->dirty_above = m->thresholds.dirty_above;
}

int td_policy_apply(const td_policy_t *p, td_result_t *r)
{
	if (!p || !r || (r->count && !r->changes))
		return TD_EINVAL;
	for (size_t i = 0; i < r->count; i++) {
		td_change_t *c = &r->changes[i];
		const td_file_t *f = c->target ? c->target : c->upstream;
		td_policy_match_t m;

		if (!f || td_policy_lookup(&m, p, f->path, f->path_len))
			return TD_EINVAL;
		c->policy_class = m.class_name;
		c->weight = m.weight;
		c->risk = (double)c->distance * m.weight;
		if (m.has_thresholds && c->cls != TD_CLASS_NEW &&
		    (c->status == TD_STATUS_MODIFIED || c->status == TD_STATUS_ADDED)) {
			td_thresholds_t t;

			td_policy_thresholds(&t, &m, &r->thresholds);
			c->cls = td_classify(c->distance, &t);
		}
	}
	td_result_update_totals(r);
	return TD_OK;
}
