/* Kbuild evaluation: statements, directories, and the result (see
 * treedrift/kbuild.h and doc/kbuild.md). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/arch.h"
#include "treedrift/kbuild.h"
#include "kbuild_cpp.h"
#include "kbuild_impl.h"
#include "internal.h"

struct td_kbuild_result {
	td_kbmap_t objects;   /* sets: values unused */
	td_kbmap_t sources;
	td_kbmap_t included;  /* sources only #included by built ones */
	td_kbmap_t dirs;
	td_kbmap_t strings;   /* interned file names that warnings point to */
	td_kbmap_t seen_warnings;
	char **object_list, **source_list, **dir_list, **included_list;
	size_t object_count, source_count, dir_count, included_count;
	td_kbuild_warning_t *warnings;
	size_t warning_count, warning_cap, warning_total;
};

/* Recipe lines that descend with $(build)=dir (e.g. arch/x86/realmode's
 * "$(Q)$(MAKE) $(build)=$(obj)/rm $@") add dir to the walk. */
typedef struct kb_dirlist {
	char **dirs;
	size_t count, cap;
} kb_dirlist_t;

struct kb_ctx {
	const td_kbuild_io_t *io;
	const td_kconfig_t *cfg; /* NULL: none given */
	td_kbuild_result_t *r;
	kb_scope_t globals;
	td_kbmap_t visited;   /* dir -> (void *)(uintptr_t)flags */
	size_t dirs_visited;
	int modules;          /* CONFIG_MODULES: obj-m is built */
	int fatal;            /* a callback's error code */
	kb_dirlist_t prepare_dirs; /* descended into by the arch Makefile's prepare */
};

#define DIR_BUILTIN 1
#define DIR_MODORDER 2

/* ---- scopes and variables ---- */

void kb_scope_init(kb_scope_t *s, const kb_scope_t *parent)
{
	td_kbmap_init(&s->vars);
	s->parent = parent;
}

void kb_scope_release(kb_scope_t *s)
{
	for (size_t i = 0; i < s->vars.cap; i++) {
		kb_var_t *v = s->vars.slots[i].key ? s->vars.slots[i].value : NULL;
		if (v) {
			free(v->value);
			free(v);
		}
	}
	td_kbmap_release(&s->vars);
}

kb_var_t *kb_scope_get(const kb_scope_t *s, const char *name, size_t len)
{
	for (; s; s = s->parent) {
		td_kbmap_slot_t *slot = td_kbmap_find(&s->vars, name, len);
		kb_var_t *v = slot ? slot->value : NULL;
		if (v && v->flavor != KB_UNDEFINED)
			return v;
	}
	return NULL;
}

kb_var_t *kb_scope_own(kb_scope_t *s, const char *name, size_t len)
{
	td_kbmap_slot_t *slot = td_kbmap_insert(&s->vars, name, len, NULL);

	if (!slot)
		return NULL;
	if (!slot->value)
		slot->value = calloc(1, sizeof(kb_var_t));
	return slot->value;
}

int kb_var_set(kb_var_t *v, const char *value, size_t len, int flavor)
{
	char *copy = td_strndup(value ? value : "", value ? len : 0);

	if (!copy)
		return TD_ENOMEM;
	free(v->value);
	v->value = copy;
	v->len = value ? len : 0;
	v->flavor = flavor;
	return TD_OK;
}

static int var_append(kb_var_t *v, const char *value, size_t len)
{
	char *p;

	if (!v->len)
		return kb_var_set(v, value, len, v->flavor);
	if (len > TD_KBUILD_MAX_VALUE_BYTES || v->len > TD_KBUILD_MAX_VALUE_BYTES - len)
		return KB_ELIMIT;
	if (!(p = realloc(v->value, v->len + len + 2)))
		return TD_ENOMEM;
	p[v->len] = ' ';
	memcpy(p + v->len + 1, value, len);
	v->len += len + 1;
	p[v->len] = '\0';
	v->value = p;
	return TD_OK;
}

/* The variable in the current scope, starting as a copy of a parent's. */
static kb_var_t *own_var(kb_eval_t *ev, const char *name, size_t len)
{
	kb_var_t *v = kb_scope_own(ev->scope, name, len), *p;

	if (!v || v->flavor != KB_UNDEFINED || !ev->scope->parent)
		return v;
	p = kb_scope_get(ev->scope->parent, name, len);
	if (p) {
		if (kb_var_set(v, p->value, p->len, p->flavor))
			return NULL;
		v->taint = p->taint;
		v->from_config = p->from_config;
	}
	return v;
}

static int set_global(kb_scope_t *g, const char *name, const char *value)
{
	kb_var_t *v = kb_scope_own(g, name, strlen(name));

	return v ? kb_var_set(v, value, strlen(value), KB_SIMPLE) : TD_ENOMEM;
}

/* ---- results and warnings ---- */

static const char *intern(td_kbuild_result_t *r, const char *s)
{
	td_kbmap_slot_t *slot = td_kbmap_insert(&r->strings, s, strlen(s), NULL);

	return slot ? slot->key : "?";
}

static void add_warning(td_kbuild_result_t *r, const char *file, unsigned line, const char *msg)
{
	char key[1400];
	int n = snprintf(key, sizeof(key), "%s:%u:%s", file ? file : "", line, msg);
	td_kbmap_slot_t *slot;
	int added;
	char *m;

	if (n < 0)
		return;
	slot = td_kbmap_insert(&r->seen_warnings, key, (size_t)n < sizeof(key) ? (size_t)n : sizeof(key) - 1,
			       &added);
	if (!slot || !added)
		return;
	r->warning_total++;
	if (r->warning_count >= TD_KBUILD_MAX_WARNINGS)
		return;
	if (td_grow((void **)&r->warnings, &r->warning_cap, r->warning_count + 1,
		    sizeof(*r->warnings)))
		return;
	if (!(m = td_strndup(msg, strlen(msg))))
		return;
	r->warnings[r->warning_count].file = file ? intern(r, file) : "";
	r->warnings[r->warning_count].line = line;
	r->warnings[r->warning_count].msg = m;
	r->warning_count++;
}

void kb_warn(kb_eval_t *ev, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_warning(ev->ctx->r, ev->file, ev->line, msg);
}

static void warn_taint(kb_ctx_t *ctx, const kb_taint_t *t, const char *context)
{
	char msg[800];

	for (int i = 0; i < t->set; i++) {
		snprintf(msg, sizeof(msg), "%s%s%s", t->item[i].msg, context ? "; " : "",
			 context ? context : "");
		add_warning(ctx->r, t->item[i].file, t->item[i].line, msg);
	}
}

int kb_exists(kb_eval_t *ev, const char *path)
{
	kb_ctx_t *ctx = ev->ctx;

	if (!ctx->io->exists)
		return 0;
	return ctx->io->exists(ctx->io->ctx, path) > 0;
}

static int set_add(td_kbmap_t *set, const char *s, size_t len)
{
	return td_kbmap_insert(set, s, len, NULL) ? TD_OK : TD_ENOMEM;
}

/* ---- statements ---- */

typedef struct kb_cond {
	int parent_active;
	int active;
	int taken;
	int reported;
	unsigned line;
	kb_taint_t taint;
} kb_cond_t;

static void trim_buf(kb_buf_t *b, const char **s, size_t *len)
{
	*s = kb_buf_str(b);
	*len = b->len;
	while (*len && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

static int eval_condition(kb_eval_t *ev, const td_kbuild_stmt_t *st, td_kbuild_stmt_kind_t kind,
			  int *result, kb_taint_t *t)
{
	kb_buf_t a = { 0 }, b = { 0 };
	int rc;

	*result = 0;
	if (st->op == 'x') {
		kb_warn(ev, "malformed conditional, taken as false");
		return TD_OK;
	}
	if (kind == TD_KB_STMT_IFDEF) {
		const char *n;
		size_t nl;
		kb_var_t *v;
		if ((rc = kb_expand(ev, st->name, strlen(st->name), &a, t)))
			goto out;
		trim_buf(&a, &n, &nl);
		v = nl ? kb_scope_get(ev->scope, n, nl) : NULL;
		*result = v && v->len > 0;
	} else {
		if ((rc = kb_expand(ev, st->name, strlen(st->name), &a, t)) ||
		    (rc = kb_expand(ev, st->text, strlen(st->text), &b, t)))
			goto out;
		*result = a.len == b.len && !memcmp(kb_buf_str(&a), kb_buf_str(&b), a.len);
	}
	if (st->op == 'n')
		*result = !*result;
	rc = TD_OK;
out:
	kb_buf_release(&a);
	kb_buf_release(&b);
	return rc;
}

static int exec_assign(kb_eval_t *ev, const td_kbuild_stmt_t *st)
{
	kb_buf_t name = { 0 }, val = { 0 };
	kb_taint_t nt = { 0 }, vt = { 0 };
	const char *n;
	size_t nl;
	kb_var_t *v;
	int rc, op = st->kind == TD_KB_STMT_DEFINE && st->op == 0 ? '=' : st->op;

	if ((rc = kb_expand(ev, st->name, strlen(st->name), &name, &nt)))
		goto out;
	trim_buf(&name, &n, &nl);
	if (nt.set)
		warn_taint(ev->ctx, &nt, "in the name of an assigned variable");
	if (!nl)
		goto out;
	if (!(v = own_var(ev, n, nl))) {
		rc = TD_ENOMEM;
		goto out;
	}
	switch (op) {
	case '=':
		rc = kb_var_set(v, st->text, strlen(st->text), KB_RECURSIVE);
		memset(&v->taint, 0, sizeof(v->taint));
		break;
	case ':':
		if ((rc = kb_expand(ev, st->text, strlen(st->text), &val, &vt)))
			break;
		rc = kb_var_set(v, kb_buf_str(&val), val.len, KB_SIMPLE);
		v->taint = vt;
		break;
	case '+':
		if (v->flavor == KB_UNDEFINED) {
			rc = kb_var_set(v, st->text, strlen(st->text), KB_RECURSIVE);
		} else if (v->flavor == KB_RECURSIVE) {
			rc = var_append(v, st->text, strlen(st->text));
		} else {
			if ((rc = kb_expand(ev, st->text, strlen(st->text), &val, &vt)))
				break;
			rc = var_append(v, kb_buf_str(&val), val.len);
			kb_taint_merge(&v->taint, &vt);
		}
		break;
	case '?':
		if (v->flavor == KB_UNDEFINED)
			rc = kb_var_set(v, st->text, strlen(st->text), KB_RECURSIVE);
		break;
	default: /* '!': a shell assignment */
		rc = kb_var_set(v, "", 0, KB_SIMPLE);
		memset(&v->taint, 0, sizeof(v->taint));
		kb_taint_mark(ev, &v->taint, "'%.*s != ...': shell assignments are not run",
			      (int)(nl > 60 ? 60 : nl), n);
		break;
	}
	v->from_config = 0;
	if (st->exported)
		v->exported = 1;
out:
	kb_buf_release(&name);
	kb_buf_release(&val);
	return rc;
}

static int exec_export(kb_eval_t *ev, const td_kbuild_stmt_t *st)
{
	kb_buf_t names = { 0 };
	kb_taint_t t = { 0 };
	size_t pos = 0, wl;
	const char *w;
	int rc;

	if ((rc = kb_expand(ev, st->text, strlen(st->text), &names, &t)))
		goto out;
	while (kb_next_word(kb_buf_str(&names), names.len, &pos, &w, &wl)) {
		kb_var_t *v = own_var(ev, w, wl);
		if (!v) {
			rc = TD_ENOMEM;
			break;
		}
		v->exported = st->op != 'u';
	}
out:
	kb_buf_release(&names);
	return rc;
}

static int read_tree_file(kb_ctx_t *ctx, const char *path, char **data, size_t *len)
{
	int rc;

	*data = NULL;
	*len = 0;
	if (!ctx->io->read_file)
		return TD_ENOTFOUND;
	rc = ctx->io->read_file(ctx->io->ctx, path, data, len);
	if (rc == TD_ENOTFOUND) {
		free(*data);
		*data = NULL;
		return rc;
	}
	if (rc) {
		ctx->fatal = rc;
		return rc;
	}
	return TD_OK;
}

/* Run a makefile's text in ev's scope as file `path`. Missing: TD_ENOTFOUND. */
static int exec_file(kb_eval_t *ev, const char *path, const char *text_override)
{
	kb_ctx_t *ctx = ev->ctx;
	td_kbuild_makefile_t *mf = NULL;
	const char *saved_file = ev->file;
	unsigned saved_line = ev->line;
	char *data = NULL;
	size_t len = 0;
	td_error_t err;
	int rc;

	if (text_override) {
		len = strlen(text_override);
	} else if ((rc = read_tree_file(ctx, path, &data, &len))) {
		return rc;
	}
	ev->file = intern(ctx->r, path);
	ev->line = 0;
	if (len > TD_KBUILD_MAX_FILE_BYTES) {
		kb_warn(ev, "file larger than %u bytes, not read", TD_KBUILD_MAX_FILE_BYTES);
		rc = TD_OK;
		goto out;
	}
	if ((rc = td_kbuild_parse_makefile(&mf, text_override ? text_override : data, len, &err))) {
		if (rc != TD_ENOMEM || strstr(err.msg, "longer"))
			kb_warn(ev, "%s", err.msg);
		rc = rc == TD_ENOMEM && !strstr(err.msg, "longer") ? rc : TD_OK;
		goto out;
	}
	rc = kb_exec(ev, mf);
	if (rc == KB_ELIMIT) {
		kb_warn(ev, "a limit was hit (expansion size, depth or work); the rest of the file "
			"was not evaluated");
		rc = TD_OK;
	}
out:
	td_kbuild_makefile_free(mf);
	free(data);
	ev->file = saved_file;
	ev->line = saved_line;
	return rc;
}

static int exec_include(kb_eval_t *ev, const td_kbuild_stmt_t *st)
{
	kb_buf_t names = { 0 };
	kb_taint_t t = { 0 };
	size_t pos = 0, wl;
	const char *w;
	int rc;

	if ((rc = kb_expand(ev, st->text, strlen(st->text), &names, &t)))
		goto out;
	if (t.set)
		warn_taint(ev->ctx, &t, "in the name of an included file");
	while (kb_next_word(kb_buf_str(&names), names.len, &pos, &w, &wl)) {
		char *path = td_strndup(w, wl);
		if (!path) {
			rc = TD_ENOMEM;
			break;
		}
		path[kb_path_normalize(path, wl)] = '\0';
		if (ev->include_depth >= TD_KBUILD_MAX_INCLUDE_DEPTH ||
		    ev->includes >= TD_KBUILD_MAX_INCLUDES) {
			kb_warn(ev, "include of '%s' nested too deep or too many includes, skipped",
				path);
			free(path);
			continue;
		}
		ev->include_depth++;
		ev->includes++;
		rc = exec_file(ev, path, NULL);
		ev->include_depth--;
		if (rc == TD_ENOTFOUND) {
			if (st->op != '-')
				kb_warn(ev, "included file '%s' not found", path);
			rc = TD_OK;
		}
		free(path);
		if (rc)
			break;
	}
out:
	kb_buf_release(&names);
	return rc;
}

static int dirlist_add(kb_dirlist_t *l, const char *d, size_t len)
{
	char *copy;

	if (td_grow((void **)&l->dirs, &l->cap, l->count + 1, sizeof(*l->dirs)))
		return TD_ENOMEM;
	if (!(copy = td_strndup(d, len)))
		return TD_ENOMEM;
	l->dirs[l->count++] = copy;
	return TD_OK;
}

static void dirlist_release(kb_dirlist_t *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->dirs[i]);
	free(l->dirs);
	memset(l, 0, sizeof(*l));
}

/* A rule of a Kbuild file that makes an object from a source: explicit
 * ($(obj)/aes-glue-%.o: $(src)/aes-glue.c) or a pattern ($(obj)/%.nvhe.o:
 * $(src)/%.c), as make would use it before Makefile.build's own %.o rules. */
typedef struct kb_rule {
	char *target;       /* expanded, e.g. "arch/arm64/kvm/hyp/nvhe/%.nvhe.o" */
	char *source;       /* the first .c/.S/.rs prerequisite */
	int has_recipe;
} kb_rule_t;

/* A rule of the arch Makefile by target name, to find what `prepare` runs. */
typedef struct kb_named_rule {
	char *target;
	char *prereqs;
	kb_dirlist_t descents; /* $(build)=dir in its recipe */
} kb_named_rule_t;

typedef struct kb_dirstate {
	kb_dirlist_t recipe_dirs;
	kb_rule_t *rules;
	size_t rule_count, rule_cap;
	size_t last_rule_start; /* rules of the latest rule statement: [start, count) */
	int graph;              /* the arch Makefile: keep every rule by name */
	kb_named_rule_t *named;
	size_t named_count, named_cap, last_named_start;
} kb_dirstate_t;

static void dirstate_release(kb_dirstate_t *d)
{
	for (size_t i = 0; i < d->named_count; i++) {
		free(d->named[i].target);
		free(d->named[i].prereqs);
		dirlist_release(&d->named[i].descents);
	}
	free(d->named);
	dirlist_release(&d->recipe_dirs);
	for (size_t i = 0; i < d->rule_count; i++) {
		free(d->rules[i].target);
		free(d->rules[i].source);
	}
	free(d->rules);
	memset(d, 0, sizeof(*d));
}

static int is_source_name(const char *w, size_t wl)
{
	return (wl > 2 && !memcmp(w + wl - 2, ".c", 2)) || (wl > 2 && !memcmp(w + wl - 2, ".S", 2)) ||
	       (wl > 3 && !memcmp(w + wl - 3, ".rs", 3));
}

static const char *skip_dot_slash(const char *w, size_t *wl)
{
	while (*wl >= 2 && w[0] == '.' && w[1] == '/') {
		w += 2;
		*wl -= 2;
	}
	return w;
}

static int record_named_rule(kb_eval_t *ev, kb_dirstate_t *ds, const td_kbuild_stmt_t *st)
{
	kb_buf_t targets = { 0 }, prereqs = { 0 };
	kb_taint_t t = { 0 };
	const char *w;
	size_t pos = 0, wl;
	int rc;

	ds->last_named_start = ds->named_count;
	if (strchr(st->text, '='))
		return TD_OK;
	if ((rc = kb_expand(ev, st->name, strlen(st->name), &targets, &t)) ||
	    (rc = kb_expand(ev, st->text, strlen(st->text), &prereqs, &t)))
		goto out;
	while (kb_next_word(kb_buf_str(&targets), targets.len, &pos, &w, &wl)) {
		kb_named_rule_t *r;
		if (td_grow((void **)&ds->named, &ds->named_cap, ds->named_count + 1,
			    sizeof(*ds->named))) {
			rc = TD_ENOMEM;
			goto out;
		}
		r = &ds->named[ds->named_count];
		memset(r, 0, sizeof(*r));
		r->target = td_strndup(w, wl);
		r->prereqs = td_strndup(kb_buf_str(&prereqs), prereqs.len);
		if (!r->target || !r->prereqs) {
			free(r->target);
			free(r->prereqs);
			rc = TD_ENOMEM;
			goto out;
		}
		ds->named_count++;
	}
out:
	kb_buf_release(&targets);
	kb_buf_release(&prereqs);
	return rc;
}

static int exec_rule(kb_eval_t *ev, const td_kbuild_stmt_t *st)
{
	kb_dirstate_t *ds = ev->dir;
	kb_buf_t targets = { 0 }, prereqs = { 0 };
	kb_taint_t t = { 0 };
	const char *w, *src = NULL;
	size_t pos = 0, wl, srcl = 0;
	int rc;

	if (!ds)
		return TD_OK;
	ds->last_rule_start = ds->rule_count;
	if (ds->graph)
		return record_named_rule(ev, ds, st);
	if (strchr(st->text, '=') || !strstr(st->name, ".o"))
		return TD_OK; /* target-specific variables, or no object made */
	if ((rc = kb_expand(ev, st->name, strlen(st->name), &targets, &t)) ||
	    (rc = kb_expand(ev, st->text, strlen(st->text), &prereqs, &t)))
		goto out;
	while (kb_next_word(kb_buf_str(&prereqs), prereqs.len, &pos, &w, &wl)) {
		if (is_source_name(w, wl)) {
			src = skip_dot_slash(w, &wl);
			srcl = wl;
			break;
		}
	}
	if (!src)
		goto out;
	pos = 0;
	while (kb_next_word(kb_buf_str(&targets), targets.len, &pos, &w, &wl)) {
		kb_rule_t *r;
		if (wl < 3 || memcmp(w + wl - 2, ".o", 2))
			continue;
		w = skip_dot_slash(w, &wl);
		if (td_grow((void **)&ds->rules, &ds->rule_cap, ds->rule_count + 1, sizeof(*ds->rules))) {
			rc = TD_ENOMEM;
			goto out;
		}
		r = &ds->rules[ds->rule_count];
		r->target = td_strndup(w, wl);
		r->source = td_strndup(src, srcl);
		r->has_recipe = 0;
		if (!r->target || !r->source) {
			free(r->target);
			free(r->source);
			rc = TD_ENOMEM;
			goto out;
		}
		ds->rule_count++;
	}
out:
	kb_buf_release(&targets);
	kb_buf_release(&prereqs);
	return rc;
}

static int exec_recipe(kb_eval_t *ev, const td_kbuild_stmt_t *st)
{
	static const char marker[] = "scripts/Makefile.build obj=";
	kb_dirstate_t *ds = ev->dir;
	kb_dirlist_t *recipe_dirs = ds ? &ds->recipe_dirs : NULL;
	kb_buf_t cmd = { 0 };
	kb_taint_t t = { 0 };
	const char *p;
	int rc;

	if (ds)
		for (size_t i = ds->last_rule_start; i < ds->rule_count; i++)
			ds->rules[i].has_recipe = 1;
	if (!recipe_dirs || (!strstr(st->text, "build)=") && !strstr(st->text, "build}=") &&
			     !strstr(st->text, "Makefile.build")))
		return TD_OK;
	if ((rc = kb_expand(ev, st->text, strlen(st->text), &cmd, &t)))
		goto out;
	for (p = strstr(kb_buf_str(&cmd), marker); p; p = strstr(p, marker)) {
		size_t n = 0;
		p += sizeof(marker) - 1;
		while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != ';')
			n++;
		if (n && (rc = dirlist_add(recipe_dirs, p, n)))
			break;
		for (size_t i = ds->last_named_start; ds->graph && i < ds->named_count && !rc; i++)
			rc = dirlist_add(&ds->named[i].descents, p, n);
		if (rc)
			break;
	}
out:
	kb_buf_release(&cmd);
	return rc;
}

/* Statements inside a conditional whose test used an unknown construct: an
 * include or expression is reported at once; an assigned variable (whether
 * the branch ran or not) carries the taint, reported if it reaches a list
 * that decides what is built. */
static int check_tainted_conds(kb_eval_t *ev, kb_cond_t *stack, size_t depth,
			       const td_kbuild_stmt_t *st)
{
	const kb_taint_t *ct = NULL;
	kb_buf_t name = { 0 };
	kb_taint_t nt = { 0 };
	const char *n;
	size_t nl;
	kb_var_t *v;
	int rc;

	for (size_t i = 0; i < depth && !ct; i++)
		if (stack[i].taint.set)
			ct = &stack[i].taint;
	if (!ct)
		return TD_OK;
	if (st->kind == TD_KB_STMT_INCLUDE || st->kind == TD_KB_STMT_EXPR) {
		for (size_t i = 0; i < depth; i++) {
			if (stack[i].taint.set && !stack[i].reported) {
				stack[i].reported = 1;
				warn_taint(ev->ctx, &stack[i].taint, NULL);
			}
		}
		return TD_OK;
	}
	if (st->kind != TD_KB_STMT_ASSIGN && st->kind != TD_KB_STMT_DEFINE)
		return TD_OK;
	if ((rc = kb_expand(ev, st->name, strlen(st->name), &name, &nt)))
		goto out;
	trim_buf(&name, &n, &nl);
	if (nl) {
		if (!(v = kb_scope_own(ev->scope, n, nl)))
			rc = TD_ENOMEM;
		else
			kb_taint_merge(&v->taint, ct);
	}
out:
	kb_buf_release(&name);
	return rc;
}

const kb_taint_t *kb_scope_undefined_taint(const kb_scope_t *s, const char *name, size_t len)
{
	for (; s; s = s->parent) {
		td_kbmap_slot_t *slot = td_kbmap_find(&s->vars, name, len);
		kb_var_t *v = slot ? slot->value : NULL;
		if (v && v->taint.set)
			return &v->taint;
	}
	return NULL;
}

static void mark_cond_taint(kb_taint_t *t)
{
	static const char suffix[] = " (in a conditional's test)";

	for (int i = 0; i < t->set; i++) {
		char *m = t->item[i].msg;
		size_t n = strlen(m);
		if (strstr(m, suffix))
			continue;
		if (n + sizeof(suffix) > sizeof(t->item[i].msg))
			n = sizeof(t->item[i].msg) - sizeof(suffix);
		memcpy(m + n, suffix, sizeof(suffix));
	}
}

int kb_exec(kb_eval_t *ev, const td_kbuild_makefile_t *mf)
{
	kb_cond_t *stack = calloc(TD_KBUILD_MAX_COND_DEPTH, sizeof(*stack));
	size_t depth = 0, skipped_deep = 0;
	int rc = TD_OK;

	if (!stack)
		return TD_ENOMEM;

	for (size_t i = 0; i < mf->count && !rc; i++) {
		const td_kbuild_stmt_t *st = &mf->stmts[i];
		int active = !depth || stack[depth - 1].active;

		if (!ev->fixed_line)
			ev->line = st->line;
		if (!ev->stmts_left) {
			rc = KB_ELIMIT;
			break;
		}
		ev->stmts_left--;
		switch (st->kind) {
		case TD_KB_STMT_IFDEF:
		case TD_KB_STMT_IFEQ: {
			kb_cond_t *c;
			if (depth >= TD_KBUILD_MAX_COND_DEPTH) {
				if (!skipped_deep)
					kb_warn(ev, "conditionals nested deeper than %d",
						TD_KBUILD_MAX_COND_DEPTH);
				skipped_deep++;
				continue;
			}
			c = &stack[depth++];
			memset(c, 0, sizeof(*c));
			c->line = st->line;
			c->parent_active = active;
			if (active) {
				rc = eval_condition(ev, st, st->kind, &c->active, &c->taint);
				mark_cond_taint(&c->taint);
				c->taken = c->active;
			} else {
				c->taken = 1;
			}
			continue;
		}
		case TD_KB_STMT_ELSE: {
			kb_cond_t *c;
			if (skipped_deep)
				continue;
			if (!depth) {
				kb_warn(ev, "'else' without a conditional");
				continue;
			}
			c = &stack[depth - 1];
			if (!c->parent_active || c->taken) {
				c->active = 0;
				continue;
			}
			if (st->cond) {
				rc = eval_condition(ev, st, st->cond, &c->active, &c->taint);
				mark_cond_taint(&c->taint);
			} else {
				c->active = 1;
			}
			c->taken = c->active;
			continue;
		}
		case TD_KB_STMT_ENDIF:
			if (skipped_deep)
				skipped_deep--;
			else if (depth)
				depth--;
			else
				kb_warn(ev, "'endif' without a conditional");
			continue;
		default:
			break;
		}
		if (!active) {
			rc = check_tainted_conds(ev, stack, depth, st);
			continue;
		}
		switch (st->kind) {
		case TD_KB_STMT_ASSIGN:
		case TD_KB_STMT_DEFINE:
			if (!(rc = exec_assign(ev, st)))
				rc = check_tainted_conds(ev, stack, depth, st);
			break;
		case TD_KB_STMT_UNDEFINE: {
			kb_buf_t n = { 0 };
			kb_taint_t t = { 0 };
			const char *s;
			size_t sl;
			kb_var_t *v;
			if (!(rc = kb_expand(ev, st->name, strlen(st->name), &n, &t))) {
				trim_buf(&n, &s, &sl);
				if (sl && (v = kb_scope_own(ev->scope, s, sl))) {
					free(v->value);
					v->value = NULL;
					v->len = 0;
					v->flavor = KB_UNDEFINED;
				}
			}
			kb_buf_release(&n);
			break;
		}
		case TD_KB_STMT_EXPORT:
			rc = exec_export(ev, st);
			break;
		case TD_KB_STMT_INCLUDE:
			if (!(rc = check_tainted_conds(ev, stack, depth, st)))
				rc = exec_include(ev, st);
			break;
		case TD_KB_STMT_RECIPE:
			rc = exec_recipe(ev, st);
			break;
		case TD_KB_STMT_EXPR: {
			kb_buf_t out = { 0 };
			kb_taint_t t = { 0 };
			if (!(rc = check_tainted_conds(ev, stack, depth, st)) && !(rc = kb_expand(ev, st->text, strlen(st->text), &out, &t))) {
				const char *s;
				size_t sl;
				trim_buf(&out, &s, &sl);
				warn_taint(ev->ctx, &t, NULL);
				if (sl)
					kb_warn(ev, "a line expands to text that is not evaluated: '%.*s'",
						(int)(sl > 80 ? 80 : sl), s);
			}
			kb_buf_release(&out);
			break;
		}
		case TD_KB_STMT_ERROR:
			kb_warn(ev, "unrecognised line: '%.*s'", (int)(strlen(st->text) > 80 ? 80 : strlen(st->text)),
				st->text);
			break;
		case TD_KB_STMT_RULE:
			rc = exec_rule(ev, st);
			break;
		default: /* vpath and the like: nothing to evaluate */
			break;
		}
	}
	if (!rc && (depth || skipped_deep))
		kb_warn(ev, "missing 'endif' for the conditional at line %u",
			depth ? stack[depth - 1].line : 0);
	free(stack);
	return rc;
}

/* ---- directories ---- */

/* The words of a variable's final value (as Makefile.lib reads it). */
static int var_words(kb_eval_t *ev, const char *name, kb_buf_t *out)
{
	kb_taint_t t = { 0 };
	char ref[300];
	int n = snprintf(ref, sizeof(ref), "$(%s)", name);
	int rc;

	memset(out, 0, sizeof(*out));
	if (n < 0 || (size_t)n >= sizeof(ref))
		return kb_buf_add(out, "", 0);
	rc = kb_expand(ev, ref, (size_t)n, out, &t);
	if (t.set) {
		char ctxmsg[340];
		snprintf(ctxmsg, sizeof(ctxmsg), "it reaches '%s' in %s", name, ev->file);
		warn_taint(ev->ctx, &t, ctxmsg);
	}
	return rc;
}

static int word_in(const char *list, size_t len, const char *w, size_t wl)
{
	size_t pos = 0, l;
	const char *x;

	while (kb_next_word(list, len, &pos, &x, &l))
		if (l == wl && !memcmp(x, w, wl))
			return 1;
	return 0;
}

static int ends_with(const char *w, size_t wl, const char *suffix)
{
	size_t n = strlen(suffix);

	return wl >= n && !memcmp(w + wl - n, suffix, n);
}

/* dir/name, normalised, into out. */
static int join_path(kb_buf_t *out, const char *dir, const char *w, size_t wl)
{
	int rc;

	out->len = 0;
	if (strcmp(dir, ".") && ((rc = kb_buf_add(out, dir, strlen(dir))) || (rc = kb_buf_addc(out, '/'))))
		return rc;
	if ((rc = kb_buf_add(out, w, wl)))
		return rc;
	out->len = kb_path_normalize(out->p, out->len);
	out->p[out->len] = '\0';
	return TD_OK;
}

/* make's pattern match of target against a rule target with one '%'. */
static int rule_match(const char *pat, const char *name, size_t *stem_off, size_t *stem_len)
{
	const char *pc = strchr(pat, '%');
	size_t pl = strlen(pat), nl = strlen(name), pre, suf;

	if (!pc) {
		*stem_off = *stem_len = 0;
		return !strcmp(pat, name);
	}
	pre = (size_t)(pc - pat);
	suf = pl - pre - 1;
	if (nl < pre + suf || memcmp(name, pat, pre) || memcmp(name + nl - suf, pc + 1, suf))
		return 0;
	*stem_off = pre;
	*stem_len = nl - pre - suf;
	return 1;
}

/* The normalised path in b if it names a file of the tree. */
static int try_source(kb_eval_t *ev, kb_buf_t *b)
{
	b->len = kb_path_normalize(b->p, b->len);
	b->p[b->len] = '\0';
	return kb_exists(ev, b->p);
}

/* The source of object `raw` (dir-joined, not normalised, as make names
 * it): the Kbuild file's own rules first (explicit, then the pattern with the
 * shortest stem, as GNU make picks), then Makefile.build's %.c, %.rs, %.S. */
static int find_source(kb_eval_t *ev, const char *raw, kb_buf_t *out)
{
	static const char *const exts[] = { ".c", ".rs", ".S" };
	kb_dirstate_t *ds = ev->dir;
	kb_buf_t cand = { 0 };
	size_t rl = strlen(raw) - 2, best_len = SIZE_MAX;
	int rc = TD_OK, found = 0;

	/* pass 0: explicit rules, pass 1: pattern rules */
	for (int pass = 0; ds && pass < 2 && !found; pass++) {
		for (size_t i = 0; i < ds->rule_count; i++) {
			const kb_rule_t *r = &ds->rules[i];
			size_t so, sl;
			const char *pct;
			if (!r->has_recipe || (pass == 0) != !strchr(r->target, '%'))
				continue;
			if (!rule_match(r->target, raw, &so, &sl) || (pass && sl >= best_len))
				continue;
			cand.len = 0;
			pct = strchr(r->source, '%');
			if (pct) {
				if ((rc = kb_buf_add(&cand, r->source, (size_t)(pct - r->source))) ||
				    (rc = kb_buf_add(&cand, raw + so, sl)) ||
				    (rc = kb_buf_add(&cand, pct + 1, strlen(pct + 1))))
					goto out;
			} else if ((rc = kb_buf_add(&cand, r->source, strlen(r->source)))) {
				goto out;
			}
			if (try_source(ev, &cand)) {
				found = 1;
				best_len = sl;
				out->len = 0;
				if ((rc = kb_buf_add(out, cand.p, cand.len)))
					goto out;
				if (!pass)
					break;
			}
		}
	}
	for (size_t e = 0; e < 3 && !found; e++) {
		out->len = 0;
		if ((rc = kb_buf_add(out, raw, rl)) || (rc = kb_buf_add(out, exts[e], strlen(exts[e]))))
			goto out;
		found = try_source(ev, out);
	}
out:
	kb_buf_release(&cand);
	return rc ? rc : found;
}

static int add_object(kb_eval_t *ev, const char *dir, const char *w, size_t wl)
{
	kb_ctx_t *ctx = ev->ctx;
	kb_buf_t raw = { 0 }, norm = { 0 }, src = { 0 };
	td_kbmap_slot_t *slot;
	int rc, found;

	if (strcmp(dir, ".") && ((rc = kb_buf_add(&raw, dir, strlen(dir))) ||
				 (rc = kb_buf_addc(&raw, '/'))))
		goto out;
	w = skip_dot_slash(w, &wl);
	if ((rc = kb_buf_add(&raw, w, wl)) || (rc = kb_buf_add(&norm, raw.p, raw.len)))
		goto out;
	norm.len = kb_path_normalize(norm.p, norm.len);
	norm.p[norm.len] = '\0';
	if (!(slot = td_kbmap_insert(&ctx->r->objects, norm.p, norm.len, NULL))) {
		rc = TD_ENOMEM;
		goto out;
	}
	if (slot->value)
		goto out; /* its source is known already */
	if ((found = find_source(ev, raw.p, &src)) < 0) {
		rc = found;
		goto out;
	}
	if (found && !(slot->value = kb_buf_detach(&src)))
		rc = TD_ENOMEM;
out:
	kb_buf_release(&raw);
	kb_buf_release(&norm);
	kb_buf_release(&src);
	return rc;
}

/* obj-y/obj-m entry w: its parts when composite, else itself. */
static int add_obj_entry(kb_eval_t *ev, const char *dir, const char *w, size_t wl, int module)
{
	static const char *const suffixes[] = { "-objs", "-y", "-m", "-" };
	kb_buf_t parts = { 0 }, one = { 0 };
	char name[512];
	size_t stem = wl - 2, pos = 0, pl;
	const char *pw;
	int composite = 0, rc = TD_OK;

	if (stem + 8 > sizeof(name))
		return add_object(ev, dir, w, wl);
	for (size_t i = 0; i < 4; i++) {
		kb_var_t *v;
		if (i == 2 && !module)
			continue;
		memcpy(name, w, stem);
		memcpy(name + stem, suffixes[i], strlen(suffixes[i]) + 1);
		v = kb_scope_get(ev->scope, name, strlen(name));
		if (!v || !v->len)
			continue;
		if ((rc = var_words(ev, name, &one)))
			goto out;
		pos = 0;
		if (kb_next_word(kb_buf_str(&one), one.len, &pos, &pw, &pl))
			composite = 1;
		if (i < 3 && one.len && ((rc = kb_buf_addc(&parts, ' ')) ||
					 (rc = kb_buf_add(&parts, one.p, one.len))))
			goto out;
		kb_buf_release(&one);
	}
	if (!composite) {
		rc = add_object(ev, dir, w, wl);
		goto out;
	}
	pos = 0;
	while (kb_next_word(kb_buf_str(&parts), parts.len, &pos, &pw, &pl)) {
		if (!ends_with(pw, pl, ".o")) {
			kb_warn(ev, "part '%.*s' of composite object '%.*s' is not an object",
				(int)(pl > 80 ? 80 : pl), pw, (int)wl, w);
			continue;
		}
		if ((rc = add_object(ev, dir, pw, pl)))
			break;
	}
out:
	kb_buf_release(&parts);
	kb_buf_release(&one);
	return rc;
}

typedef struct kb_child {
	char *path;
	int flags;
} kb_child_t;

typedef struct kb_children {
	kb_child_t *v;
	size_t count, cap;
} kb_children_t;

static int add_child(kb_children_t *c, const char *dir, const char *w, size_t wl, int flags)
{
	kb_buf_t p = { 0 };
	int rc;

	while (wl && w[wl - 1] == '/')
		wl--;
	if (!wl)
		return TD_OK;
	if ((rc = join_path(&p, dir, w, wl)))
		goto out;
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->v[i].path, p.p)) {
			c->v[i].flags |= flags;
			goto out;
		}
	if (td_grow((void **)&c->v, &c->cap, c->count + 1, sizeof(*c->v))) {
		rc = TD_ENOMEM;
		goto out;
	}
	c->v[c->count].path = kb_buf_detach(&p);
	if (!c->v[c->count].path) {
		rc = TD_ENOMEM;
		goto out;
	}
	c->v[c->count++].flags = flags;
out:
	kb_buf_release(&p);
	return rc;
}

static void children_release(kb_children_t *c)
{
	for (size_t i = 0; i < c->count; i++)
		free(c->v[i].path);
	free(c->v);
}

/* Read what Makefile.lib and Makefile.build would take from a finished scope. */
static int collect(kb_eval_t *ev, const char *dir, int flags, kb_children_t *children,
		   const kb_dirstate_t *ds)
{
	kb_ctx_t *ctx = ev->ctx;
	kb_buf_t oy = { 0 }, om = { 0 }, lib = { 0 }, sub = { 0 }, other = { 0 };
	size_t pos, wl;
	const char *w;
	int rc;

	if ((rc = var_words(ev, "obj-y", &oy)) || (rc = var_words(ev, "obj-m", &om)))
		goto out;
	/* obj-y */
	pos = 0;
	while (kb_next_word(kb_buf_str(&oy), oy.len, &pos, &w, &wl)) {
		if (w[wl - 1] == '/') {
			if ((rc = add_child(children, dir, w, wl,
					    flags & (DIR_BUILTIN | DIR_MODORDER))))
				goto out;
		} else if (ends_with(w, wl, ".o")) {
			if ((flags & DIR_BUILTIN) && (rc = add_obj_entry(ev, dir, w, wl, 0)))
				goto out;
		} else if (!ends_with(w, wl, ".a")) {
			kb_warn(ev, "entry '%.*s' of obj-y is neither an object nor a directory",
				(int)(wl > 80 ? 80 : wl), w);
		}
	}
	/* obj-m, less what obj-y builds in */
	pos = 0;
	while (kb_next_word(kb_buf_str(&om), om.len, &pos, &w, &wl)) {
		if (word_in(kb_buf_str(&oy), oy.len, w, wl))
			continue;
		if (w[wl - 1] == '/') {
			if ((rc = add_child(children, dir, w, wl, flags & DIR_MODORDER)))
				goto out;
		} else if (ends_with(w, wl, ".o")) {
			if (ctx->modules && (rc = add_obj_entry(ev, dir, w, wl, 1)))
				goto out;
		}
	}
	/* lib-y lib-m, less obj-y */
	if ((rc = var_words(ev, "lib-y", &lib)) || (rc = var_words(ev, "lib-m", &other)) ||
	    (other.len && ((rc = kb_buf_addc(&lib, ' ')) || (rc = kb_buf_add(&lib, other.p, other.len)))))
		goto out;
	kb_buf_release(&other);
	pos = 0;
	while (kb_next_word(kb_buf_str(&lib), lib.len, &pos, &w, &wl))
		if (ends_with(w, wl, ".o") && !word_in(kb_buf_str(&oy), oy.len, w, wl) &&
		    (rc = add_object(ev, dir, w, wl)))
			goto out;
	/* extra-y, always-y, always-m and targets: the .o names in them */
	{
		static const char *const names[] = { "extra-y", "always-y", "always-m", "targets" };
		for (size_t i = 0; i < 4; i++) {
			if ((rc = var_words(ev, names[i], &other)))
				goto out;
			pos = 0;
			while (kb_next_word(kb_buf_str(&other), other.len, &pos, &w, &wl))
				if (ends_with(w, wl, ".o") && (rc = add_object(ev, dir, w, wl)))
					goto out;
			kb_buf_release(&other);
		}
	}
	/* subdir-y subdir-m: visited, but not linked */
	if ((rc = var_words(ev, "subdir-y", &sub)) || (rc = var_words(ev, "subdir-m", &other)) ||
	    (other.len && ((rc = kb_buf_addc(&sub, ' ')) || (rc = kb_buf_add(&sub, other.p, other.len)))))
		goto out;
	pos = 0;
	while (kb_next_word(kb_buf_str(&sub), sub.len, &pos, &w, &wl))
		if ((rc = add_child(children, dir, w, wl, 0)))
			goto out;
	for (size_t i = 0; i < ds->recipe_dirs.count; i++) {
		const char *d = ds->recipe_dirs.dirs[i];
		/* the path is relative to the tree root already */
		if ((rc = add_child(children, ".", d, strlen(d), 0)))
			goto out;
	}
out:
	kb_buf_release(&oy);
	kb_buf_release(&om);
	kb_buf_release(&lib);
	kb_buf_release(&sub);
	kb_buf_release(&other);
	return rc;
}

static void init_dir_scope(kb_ctx_t *ctx, kb_scope_t *scope, const char *dir)
{
	static const char *const empty_vars[] = {
		"obj-y", "obj-m", "lib-y", "lib-m", "always-y", "always-m", "targets",
		"subdir-y", "subdir-m", "asflags-y", "ccflags-y", "cppflags-y", "ldflags-y",
		"subdir-asflags-y", "subdir-ccflags-y",
	};
	kb_scope_init(scope, &ctx->globals);
	for (size_t i = 0; i < sizeof(empty_vars) / sizeof(empty_vars[0]); i++)
		set_global(scope, empty_vars[i], "");
	set_global(scope, "obj", dir);
	set_global(scope, "src", dir);
}

static int eval_dir(kb_ctx_t *ctx, const char *dir, int flags, unsigned depth,
		    const char *text_override)
{
	kb_scope_t scope;
	kb_eval_t ev;
	kb_children_t children = { 0 };
	kb_dirstate_t ds = { 0 };
	td_kbmap_slot_t *slot;
	char path[4200];
	int rc, old;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = ctx;
	ev.file = intern(ctx->r, dir);
	if (!(slot = td_kbmap_insert(&ctx->visited, dir, strlen(dir), NULL)))
		return TD_ENOMEM;
	old = (int)(uintptr_t)slot->value;
	if (old && (old | flags) == old)
		return TD_OK;
	slot->value = (void *)(uintptr_t)(old | flags | 4); /* 4: visited */
	flags |= old & 3;
	if (depth > TD_KBUILD_MAX_DIR_DEPTH || ++ctx->dirs_visited > TD_KBUILD_MAX_DIRS) {
		kb_warn(&ev, "directory nesting or count limit reached; not visited");
		return TD_OK;
	}
	if (set_add(&ctx->r->dirs, dir, strlen(dir)))
		return TD_ENOMEM;
	init_dir_scope(ctx, &scope, dir);
	ev.scope = &scope;
	ev.work_left = TD_KBUILD_WORK_BUDGET;
	ev.stmts_left = TD_KBUILD_MAX_STATEMENTS;
	ev.dir = &ds;
	/* The filename Kbuild has precedence over Makefile */
	snprintf(path, sizeof(path), "%s%sKbuild", strcmp(dir, ".") ? dir : "",
		 strcmp(dir, ".") ? "/" : "");
	rc = exec_file(&ev, path, text_override);
	if (rc == TD_ENOTFOUND) {
		snprintf(path, sizeof(path), "%s%sMakefile", strcmp(dir, ".") ? dir : "",
			 strcmp(dir, ".") ? "/" : "");
		rc = exec_file(&ev, path, NULL);
	}
	if (rc == TD_ENOTFOUND) {
		kb_warn(&ev, "no Kbuild or Makefile in '%s'", dir);
		rc = TD_OK;
		goto out;
	}
	if (rc)
		goto out;
	ev.file = intern(ctx->r, path);
	ev.line = 0;
	ev.work_left = TD_KBUILD_WORK_BUDGET;
	rc = collect(&ev, dir, flags, &children, &ds);
	if (rc == KB_ELIMIT) {
		kb_warn(&ev, "a limit was hit while reading the final lists");
		rc = TD_OK;
	}
	kb_scope_release(&scope);
	dirstate_release(&ds);
	for (size_t i = 0; i < children.count && !rc; i++)
		rc = eval_dir(ctx, children.v[i].path, children.v[i].flags, depth + 1, NULL);
	children_release(&children);
	return rc;
out:
	kb_scope_release(&scope);
	dirstate_release(&ds);
	children_release(&children);
	return rc;
}

/* The directory part of the top-level Kbuild of linux-6.1, for trees that
 * have no top-level Kbuild listing directories (before 5.x). */
static const char fallback_top[] =
	"obj-y += init/ usr/ arch/$(SRCARCH)/ $(ARCH_CORE) kernel/ certs/ mm/ fs/ ipc/\n"
	"obj-y += security/ crypto/\n"
	"obj-$(CONFIG_BLOCK) += block/\n"
	"obj-$(CONFIG_IO_URING) += io_uring/\n"
	"obj-$(CONFIG_RUST) += rust/\n"
	"obj-y += $(ARCH_LIB) drivers/ sound/\n"
	"obj-$(CONFIG_SAMPLES) += samples/\n"
	"obj-$(CONFIG_NET) += net/\n"
	"obj-y += virt/ $(ARCH_DRIVERS)\n";

/* The directories the arch Makefile's preparation descends into: the
 * $(build)=dir recipes of the rules that prepare, archprepare, archheaders
 * and archscripts (the top Makefile's hooks) reach through their
 * prerequisites, e.g. arm64's vdso_prepare building arch/arm64/kernel/vdso.
 * Image and boot targets are not reached from there. */
static int collect_prepare_dirs(kb_ctx_t *ctx, const kb_dirstate_t *ds)
{
	static const char *const roots[] = { "prepare", "archprepare", "archheaders", "archscripts" };
	char *seen = calloc(ds->named_count ? ds->named_count : 1, 1);
	const char **queue = td_malloc_array(ds->named_count + 4, sizeof(char *));
	size_t head = 0, tail = 0;
	int rc = TD_OK;

	if (!seen || !queue) {
		rc = TD_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < 4; i++)
		queue[tail++] = roots[i];
	while (head < tail && !rc) {
		const char *name = queue[head++];
		for (size_t i = 0; i < ds->named_count && !rc; i++) {
			const kb_named_rule_t *r = &ds->named[i];
			size_t pos = 0, wl;
			const char *w;
			if (seen[i] || strcmp(r->target, name))
				continue;
			seen[i] = 1;
			for (size_t d = 0; d < r->descents.count && !rc; d++)
				rc = dirlist_add(&ctx->prepare_dirs, r->descents.dirs[d],
						 strlen(r->descents.dirs[d]));
			/* each rule is queued at most once: the queue cannot overflow */
			while (!rc && kb_next_word(r->prereqs, strlen(r->prereqs), &pos, &w, &wl)) {
				for (size_t j = 0; j < ds->named_count; j++) {
					if (seen[j] || strlen(ds->named[j].target) != wl ||
					    memcmp(ds->named[j].target, w, wl))
						continue;
					if (tail < ds->named_count + 4)
						queue[tail++] = ds->named[j].target;
					break;
				}
			}
		}
	}
out:
	free(seen);
	free(queue);
	return rc;
}

/* arch/$(SRCARCH)/Makefile as the top Makefile includes it: core-y,
 * drivers-y and libs-y (preset to lib/) and the exported variables. */
static int eval_arch_makefile(kb_ctx_t *ctx, const char *srcarch)
{
	kb_scope_t scope;
	kb_eval_t ev;
	kb_buf_t core = { 0 }, drv = { 0 }, drvm = { 0 }, libs = { 0 }, lib_dirs = { 0 };
	kb_dirstate_t ds = { 0 };
	char path[256];
	size_t pos = 0, wl;
	const char *w;
	int rc;

	memset(&ev, 0, sizeof(ev));
	kb_scope_init(&scope, &ctx->globals);
	ev.ctx = ctx;
	ev.scope = &scope;
	ev.work_left = TD_KBUILD_WORK_BUDGET;
	ev.stmts_left = TD_KBUILD_MAX_STATEMENTS;
	ds.graph = 1;
	ev.dir = &ds;
	if ((rc = set_global(&scope, "core-y", "")) || (rc = set_global(&scope, "drivers-y", "")) ||
	    (rc = set_global(&scope, "libs-y", "lib/")))
		goto out;
	snprintf(path, sizeof(path), "arch/%s/Makefile", srcarch);
	ev.file = intern(ctx->r, path);
	rc = exec_file(&ev, path, NULL);
	if (rc == TD_ENOTFOUND) {
		kb_warn(&ev, "no '%s' in the tree", path);
		rc = TD_OK;
	}
	if (rc)
		goto out;
	ev.work_left = TD_KBUILD_WORK_BUDGET;
	if ((rc = var_words(&ev, "core-y", &core)) || (rc = var_words(&ev, "drivers-y", &drv)) ||
	    (rc = var_words(&ev, "drivers-m", &drvm)) || (rc = var_words(&ev, "libs-y", &libs)))
		goto out;
	/* ARCH_LIB := $(filter %/, $(libs-y)) */
	if ((rc = kb_buf_add(&lib_dirs, "", 0)))
		goto out;
	while (kb_next_word(kb_buf_str(&libs), libs.len, &pos, &w, &wl))
		if (w[wl - 1] == '/' && ((lib_dirs.len && (rc = kb_buf_addc(&lib_dirs, ' '))) ||
					 (rc = kb_buf_add(&lib_dirs, w, wl))))
			goto out;
	if (drvm.len && ((rc = kb_buf_addc(&drv, ' ')) || (rc = kb_buf_add(&drv, drvm.p, drvm.len))))
		goto out;
	/* exported variables reach every Kbuild file through the environment */
	for (size_t i = 0; i < scope.vars.cap; i++) {
		td_kbmap_slot_t *s = &scope.vars.slots[i];
		kb_var_t *v = s->key ? s->value : NULL, *g;
		kb_buf_t val = { 0 };
		if (!v || !v->exported || v->flavor == KB_UNDEFINED)
			continue;
		kb_taint_t t = { 0 };
		char ref[300];
		int n = snprintf(ref, sizeof(ref), "$(%s)", s->key);
		if (n < 0 || (size_t)n >= sizeof(ref))
			continue;
		if ((rc = kb_expand(&ev, ref, (size_t)n, &val, &t)) == TD_OK) {
			if (!(g = kb_scope_own(&ctx->globals, s->key, s->key_len)))
				rc = TD_ENOMEM;
			else if (!(rc = kb_var_set(g, kb_buf_str(&val), val.len, KB_SIMPLE)))
				g->taint = t;
		}
		kb_buf_release(&val);
		if (rc == KB_ELIMIT)
			rc = TD_OK;
		if (rc)
			goto out;
	}
	if ((rc = collect_prepare_dirs(ctx, &ds)))
		goto out;
	if ((rc = set_global(&ctx->globals, "ARCH_CORE", kb_buf_str(&core))) ||
	    (rc = set_global(&ctx->globals, "ARCH_LIB", kb_buf_str(&lib_dirs))) ||
	    (rc = set_global(&ctx->globals, "ARCH_DRIVERS", kb_buf_str(&drv))))
		goto out;
out:
	if (rc == KB_ELIMIT) {
		kb_warn(&ev, "a limit was hit while reading the arch Makefile's lists");
		rc = TD_OK;
	}
	kb_buf_release(&core);
	kb_buf_release(&drv);
	kb_buf_release(&drvm);
	kb_buf_release(&libs);
	kb_buf_release(&lib_dirs);
	kb_scope_release(&scope);
	dirstate_release(&ds);
	return rc;
}

/* Values the top Makefile and scripts/Kbuild.include give every Kbuild file. */
static int init_globals(kb_ctx_t *ctx, const char *arch,
			const char *srcarch)
{
	static const char *const kernel_arch_values[] = { "i386", "x86_64", "sparc64",
							  "parisc64", "sh64" };
	const char *arch_value = srcarch;
	int rc;

	for (size_t i = 0; i < sizeof(kernel_arch_values) / sizeof(kernel_arch_values[0]); i++)
		if (!strcmp(arch, kernel_arch_values[i]))
			arch_value = arch;
	kb_scope_init(&ctx->globals, NULL);
	if ((rc = set_global(&ctx->globals, "srctree", ".")) ||
	    (rc = set_global(&ctx->globals, "objtree", ".")) ||
	    (rc = set_global(&ctx->globals, "ARCH", arch_value)) ||
	    (rc = set_global(&ctx->globals, "SRCARCH", srcarch)) ||
	    (rc = set_global(&ctx->globals, "SUBARCH", strcmp(srcarch, "um") ? srcarch : "x86")) ||
	    (rc = set_global(&ctx->globals, "comma", ",")) ||
	    (rc = set_global(&ctx->globals, "empty", "")) ||
	    (rc = set_global(&ctx->globals, "space", " ")) ||
	    (rc = set_global(&ctx->globals, "pound", "#")) ||
	    (rc = set_global(&ctx->globals, "squote", "'")) ||
	    (rc = set_global(&ctx->globals, "quote", "\"")) ||
	    (rc = set_global(&ctx->globals, "Q", "")) ||
	    (rc = set_global(&ctx->globals, "MAKE", "make")) ||
	    (rc = set_global(&ctx->globals, "CONFIG_SHELL", "sh")) ||
	    (rc = set_global(&ctx->globals, "build", "-f ./scripts/Makefile.build obj")) ||
	    (rc = set_global(&ctx->globals, "KBUILD_BUILTIN", "1")) ||
	    (rc = set_global(&ctx->globals, "KBUILD_MODULES", ctx->modules ? "1" : "")))
		return rc;
	return TD_OK;
}

/* include/config/auto.conf: every set symbol is a make variable. */
static int add_config_var(void *p, const char *name, const char *value)
{
	kb_ctx_t *ctx = p;
	kb_var_t *v = kb_scope_own(&ctx->globals, name, strlen(name));
	int rc;

	size_t len = strlen(value);

	if (!v)
		return TD_ENOMEM;
	/* auto.conf of 5.17 and later writes strings without their quotes
	 * (CONFIG_EXTRA_FIRMWARE=); the $(CONFIG_X:"%"=%) of older Kbuild files
	 * is a no-op on such a value */
	if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
		char *u = td_strndup(value + 1, len - 2);
		size_t o = 0;
		if (!u)
			return TD_ENOMEM;
		for (size_t i = 0; i < len - 2; i++) {
			if (u[i] == '\\' && i + 1 < len - 2)
				i++;
			u[o++] = u[i];
		}
		rc = kb_var_set(v, u, o, KB_SIMPLE);
		free(u);
	} else {
		rc = kb_var_set(v, value, len, KB_SIMPLE);
	}
	if (rc)
		return rc;
	v->from_config = 1;
	return TD_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int sorted_keys(const td_kbmap_t *m, char ***out, size_t *count)
{
	size_t n = 0;

	*out = td_malloc_array(m->count ? m->count : 1, sizeof(char *));
	if (!*out)
		return TD_ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			(*out)[n++] = m->slots[i].key;
	if (n)
		qsort(*out, n, sizeof(char *), cmp_str);
	*count = n;
	return TD_OK;
}

static int resolve_sources(kb_ctx_t *ctx)
{
	td_kbuild_result_t *r = ctx->r;

	for (size_t i = 0; i < r->objects.cap; i++) {
		const char *src = r->objects.slots[i].key ? r->objects.slots[i].value : NULL;
		if (src && set_add(&r->sources, src, strlen(src)))
			return TD_ENOMEM;
	}
	return sorted_keys(&r->sources, &r->source_list, &r->source_count);
}

/* The file name of a quoted `#include "name"` on the line s[0..len), or 0. */
static int quoted_include(const char *s, size_t len, const char **name, size_t *name_len)
{
	size_t i = 0, start;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= len || s[i++] != '#')
		return 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (len - i < 7 || memcmp(s + i, "include", 7))
		return 0;
	i += 7;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= len || s[i++] != '"')
		return 0;
	start = i;
	while (i < len && s[i] != '"')
		i++;
	if (i >= len || i == start)
		return 0;
	*name = s + start;
	*name_len = i - start;
	return 1;
}

/* Follow one quoted include of a .c/.S file from `from`: resolved against
 * its directory and kept when it stays inside the tree, exists, and is not
 * known yet; then queued. */
static int add_included(kb_ctx_t *ctx, const char *from, const char *name, size_t nl,
			char ***queue, size_t *queue_len, size_t *queue_cap)
{
	td_kbuild_result_t *r = ctx->r;
	const char *slash = strrchr(from, '/');
	size_t dl = slash ? (size_t)(slash - from) + 1 : 0, pl;
	td_kbmap_slot_t *slot;
	char *path;
	int added, rc = TD_OK;

	if (name[0] == '/' || !(ends_with(name, nl, ".c") || ends_with(name, nl, ".S")))
		return TD_OK;
	if (!(path = malloc(dl + nl + 1)))
		return TD_ENOMEM;
	memcpy(path, from, dl);
	memcpy(path + dl, name, nl);
	pl = kb_path_normalize(path, dl + nl);
	path[pl] = '\0';
	if ((pl == 2 && !memcmp(path, "..", 2)) || (pl > 2 && !memcmp(path, "../", 3)) ||
	    td_kbmap_find(&r->sources, path, pl) || td_kbmap_find(&r->included, path, pl) ||
	    !ctx->io->exists || ctx->io->exists(ctx->io->ctx, path) <= 0)
		goto out;
	if (!(slot = td_kbmap_insert(&r->included, path, pl, &added)) ||
	    td_grow((void **)queue, queue_cap, *queue_len + 1, sizeof(char *))) {
		rc = TD_ENOMEM;
		goto out;
	}
	(*queue)[(*queue_len)++] = slot->key;
out:
	free(path);
	return rc;
}

/* Sources never compiled on their own but #included (quoted, as a .c or .S
 * name) by a built source, transitively: e.g. arch/x86/mm/ident_map.c, in
 * arch/x86/mm/init_64.c. Each file is read once (the queue holds what is
 * new), at most TD_KBUILD_MAX_FILE_BYTES of it; a file the tree cannot give
 * (an archive keeps no sources) is skipped. An include in a branch of #if
 * or #ifdef that the configuration rules out is not followed; conditions
 * the configuration alone cannot decide count as taken (kbuild_cpp.h). */
static int resolve_included(kb_ctx_t *ctx)
{
	td_kbuild_result_t *r = ctx->r;
	char **queue = NULL;
	size_t queue_len = 0, queue_cap = 0;
	int rc = TD_OK;

	for (size_t i = 0; i < r->source_count; i++) {
		const char *s = r->source_list[i];
		if (!ends_with(s, strlen(s), ".c") && !ends_with(s, strlen(s), ".S"))
			continue;
		if (td_grow((void **)&queue, &queue_cap, queue_len + 1, sizeof(char *))) {
			rc = TD_ENOMEM;
			goto out;
		}
		queue[queue_len++] = r->source_list[i];
	}
	for (size_t q = 0; q < queue_len; q++) {
		const char *from = queue[q];
		char *data = NULL;
		size_t len = 0;
		kb_cpp_t cpp;

		if ((rc = read_tree_file(ctx, from, &data, &len)) == TD_ENOTFOUND) {
			rc = TD_OK;
			continue;
		}
		if (rc)
			goto out;
		if (len > TD_KBUILD_MAX_FILE_BYTES)
			len = TD_KBUILD_MAX_FILE_BYTES;
		kb_cpp_init(&cpp, ctx->cfg);
		for (size_t i = 0; i < len && !rc;) {
			const char *nl = memchr(data + i, '\n', len - i), *name;
			size_t ll = nl ? (size_t)(nl - (data + i)) : len - i, name_len;
			size_t code = kb_cpp_line(&cpp, data + i, ll);
			if (kb_cpp_live(&cpp) &&
			    quoted_include(data + i + code, ll - code, &name, &name_len))
				rc = add_included(ctx, from, name, name_len, &queue, &queue_len,
						  &queue_cap);
			i += ll + 1;
		}
		free(data);
		if (rc)
			goto out;
	}
	rc = sorted_keys(&r->included, &r->included_list, &r->included_count);
out:
	free(queue);
	return rc;
}

/* Objects the top Makefile and scripts/link-vmlinux.sh compile with the
 * target compiler outside the Kbuild walk: scripts/mod (modules_prepare's
 * "$(build)=scripts/mod": empty.o, for modpost) and the link stage's
 * init/version-timestamp.o (6.1.y, 6.2 and later). */
static int eval_outside_kbuild(kb_ctx_t *ctx)
{
	kb_eval_t ev;
	int rc;

	memset(&ev, 0, sizeof(ev));
	ev.ctx = ctx;
	ev.file = "";
	if (ctx->modules && ctx->io->exists && ctx->io->exists(ctx->io->ctx, "scripts/mod/Makefile") > 0 &&
	    (rc = eval_dir(ctx, "scripts/mod", 0, 1, NULL)))
		return rc;
	if (ctx->io->exists && ctx->io->exists(ctx->io->ctx, "init/version-timestamp.c") > 0)
		return add_object(&ev, "init", "version-timestamp.o", 19);
	return TD_OK;
}

int td_kbuild_eval(td_kbuild_result_t **out, const td_kconfig_t *cfg, const char *arch,
		   const td_kbuild_io_t *io, td_error_t *err)
{
	kb_ctx_t ctx;
	td_kbuild_result_t *r;
	const char *srcarch;
	int rc;

	*out = NULL;
	if (!io || !io->read_file)
		return td_error_set(err, TD_EINVAL, "no way to read the tree");
	if (!arch || !(srcarch = td_arch_canonical(arch)))
		return td_error_set(err, TD_EINVAL, "unknown architecture '%s'", arch ? arch : "");
	if (!(r = calloc(1, sizeof(*r))))
		return td_error_set(err, TD_ENOMEM, "out of memory");
	memset(&ctx, 0, sizeof(ctx));
	ctx.io = io;
	ctx.cfg = cfg;
	ctx.r = r;
	ctx.modules = cfg && td_kconfig_tristate(cfg, "CONFIG_MODULES") == 'y';
	td_kbmap_init(&ctx.visited);
	if ((rc = init_globals(&ctx, arch, srcarch)) ||
	    (cfg && (rc = td_kconfig_foreach(cfg, add_config_var, &ctx))))
		goto out;
	if ((rc = eval_arch_makefile(&ctx, srcarch)))
		goto out;
	{
		char *data = NULL;
		size_t len = 0;
		int have_kbuild = read_tree_file(&ctx, "Kbuild", &data, &len) == TD_OK;
		int have_makefile = 0;
		free(data);
		if (ctx.fatal) {
			rc = ctx.fatal;
			goto out;
		}
		if (!have_kbuild) {
			have_makefile = read_tree_file(&ctx, "Makefile", &data, &len) == TD_OK;
			free(data);
			if (ctx.fatal) {
				rc = ctx.fatal;
				goto out;
			}
			if (!have_makefile) {
				rc = td_error_set(err, TD_ENOTFOUND,
						  "no Kbuild or Makefile at the root of the tree");
				goto out_err_set;
			}
			add_warning(r, "Kbuild", 0, "no top-level Kbuild (a kernel before 5.x?): "
				    "using the built-in list of top-level directories");
		}
		rc = eval_dir(&ctx, ".", DIR_BUILTIN | DIR_MODORDER, 0, have_kbuild ? NULL : fallback_top);
	}
	for (size_t i = 0; !rc && i < ctx.prepare_dirs.count; i++) {
		char *d = ctx.prepare_dirs.dirs[i];
		d[kb_path_normalize(d, strlen(d))] = '\0';
		rc = eval_dir(&ctx, d, 0, 1, NULL);
	}
	if (!rc)
		rc = eval_outside_kbuild(&ctx);
	if (ctx.fatal)
		rc = ctx.fatal;
	if (rc)
		goto out;
	if ((rc = sorted_keys(&r->objects, &r->object_list, &r->object_count)) ||
	    (rc = sorted_keys(&r->dirs, &r->dir_list, &r->dir_count)) ||
	    (rc = resolve_sources(&ctx)) || (rc = resolve_included(&ctx)))
		goto out;
	*out = r;
	r = NULL;
out:
	if (rc == TD_ENOMEM)
		td_error_set(err, rc, "out of memory");
	else if (rc == KB_ELIMIT)
		rc = td_error_set(err, TD_ENOMEM, "a Kbuild limit was hit");
	else if (rc)
		td_error_set(err, rc, "reading the tree failed: %s", td_strerror(rc));
out_err_set:
	dirlist_release(&ctx.prepare_dirs);
	kb_scope_release(&ctx.globals);
	td_kbmap_release(&ctx.visited);
	td_kbuild_result_free(r);
	return rc;
}

void td_kbuild_result_free(td_kbuild_result_t *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->warning_count; i++)
		free((char *)r->warnings[i].msg);
	free(r->warnings);
	free(r->object_list);
	free(r->source_list);
	free(r->dir_list);
	free(r->included_list);
	for (size_t i = 0; i < r->objects.cap; i++)
		if (r->objects.slots[i].key)
			free(r->objects.slots[i].value);
	td_kbmap_release(&r->objects);
	td_kbmap_release(&r->sources);
	td_kbmap_release(&r->included);
	td_kbmap_release(&r->dirs);
	td_kbmap_release(&r->strings);
	td_kbmap_release(&r->seen_warnings);
	free(r);
}

size_t td_kbuild_source_count(const td_kbuild_result_t *r)
{
	return r ? r->source_count : 0;
}

const char *td_kbuild_source(const td_kbuild_result_t *r, size_t i)
{
	return r && i < r->source_count ? r->source_list[i] : NULL;
}

size_t td_kbuild_included_count(const td_kbuild_result_t *r)
{
	return r ? r->included_count : 0;
}

const char *td_kbuild_included(const td_kbuild_result_t *r, size_t i)
{
	return r && i < r->included_count ? r->included_list[i] : NULL;
}

size_t td_kbuild_object_count(const td_kbuild_result_t *r)
{
	return r ? r->object_count : 0;
}

const char *td_kbuild_object(const td_kbuild_result_t *r, size_t i)
{
	return r && i < r->object_count ? r->object_list[i] : NULL;
}

size_t td_kbuild_dir_count(const td_kbuild_result_t *r)
{
	return r ? r->dir_count : 0;
}

const char *td_kbuild_dir(const td_kbuild_result_t *r, size_t i)
{
	return r && i < r->dir_count ? r->dir_list[i] : NULL;
}

size_t td_kbuild_warning_count(const td_kbuild_result_t *r)
{
	return r ? r->warning_count : 0;
}

const td_kbuild_warning_t *td_kbuild_warning(const td_kbuild_result_t *r, size_t i)
{
	return r && i < r->warning_count ? &r->warnings[i] : NULL;
}

size_t td_kbuild_warning_total(const td_kbuild_result_t *r)
{
	return r ? r->warning_total : 0;
}

int td_kbuild_is_built(const td_kbuild_result_t *r, const char *path, size_t len)
{
	if (!path)
		return TD_KBUILD_SUPPORT;
	if (!(ends_with(path, len, ".c") || ends_with(path, len, ".S") || ends_with(path, len, ".rs")))
		return TD_KBUILD_SUPPORT;
	return r && (td_kbmap_find(&r->sources, path, len) || td_kbmap_find(&r->included, path, len))
		? TD_KBUILD_BUILT : TD_KBUILD_NOT_BUILT;
}
