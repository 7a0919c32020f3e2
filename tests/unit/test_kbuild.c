/* Kbuild parser and evaluator: crafted fragments for each construct, real
 * kernel snippets (tests/data/kbuild), classification, and hostile input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/kbuild.h"
#include "treedrift/kconfig.h"
#include "check.h"

/* ---- an in-memory tree ---- */

#define MAX_FILES 160

typedef struct mem_tree {
	const char *path[MAX_FILES];
	char *data[MAX_FILES];
	size_t count;
	int fail_read; /* return TD_EIO for every read */
} mem_tree_t;

static void tree_add(mem_tree_t *t, const char *path, const char *data)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->path[i], path)) {
			free(t->data[i]);
			t->data[i] = strdup(data);
			return;
		}
	if (t->count == MAX_FILES)
		abort();
	t->path[t->count] = path;
	t->data[t->count++] = strdup(data);
}

/* Source files that only need to exist, separated by spaces. */
static void tree_touch(mem_tree_t *t, const char *paths)
{
	static char names[64][128];
	static size_t used;
	const char *p = paths;

	while (*p) {
		size_t n = strcspn(p, " ");
		if (n) {
			if (used == 64 || n >= 128)
				abort();
			memcpy(names[used], p, n);
			names[used][n] = '\0';
			tree_add(t, names[used++], "");
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void tree_release(mem_tree_t *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->data[i]);
	memset(t, 0, sizeof(*t));
}

static int mem_read(void *ctx, const char *path, char **data, size_t *len)
{
	mem_tree_t *t = ctx;

	if (t->fail_read)
		return TD_EIO;
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->path[i], path)) {
			*len = strlen(t->data[i]);
			*data = malloc(*len + 1);
			if (!*data)
				return TD_ENOMEM;
			memcpy(*data, t->data[i], *len + 1);
			return 0;
		}
	return TD_ENOTFOUND;
}

static int mem_exists(void *ctx, const char *path)
{
	mem_tree_t *t = ctx;

	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->path[i], path))
			return 1;
	return 0;
}

static char *read_data(const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/kbuild/%s", TD_TEST_DATA, name);
	if (!(f = fopen(path, "rb"))) {
		fprintf(stderr, "unable to open '%s'\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void tree_add_data(mem_tree_t *t, const char *path, const char *name)
{
	char *d = read_data(name);
	tree_add(t, path, d);
	free(d);
}

static td_kconfig_t *config(const char *text)
{
	td_kconfig_t *cfg = NULL;
	td_error_t err = { 0 };

	if (td_kconfig_parse(&cfg, text, strlen(text), &err)) {
		fprintf(stderr, "bad test config: %s\n", err.msg);
		abort();
	}
	return cfg;
}

/* Evaluate t (adding an empty arch/x86/Makefile when there is none). */
static td_kbuild_result_t *eval_arch(mem_tree_t *t, const char *cfg_text, const char *arch)
{
	td_kbuild_io_t io = { t, mem_read, mem_exists };
	td_kbuild_result_t *r = NULL;
	td_error_t err = { 0 };
	td_kconfig_t *cfg = config(cfg_text);
	int rc;

	if (!strcmp(arch, "x86_64") && !mem_exists(t, "arch/x86/Makefile"))
		tree_add(t, "arch/x86/Makefile", "# empty\n");
	rc = td_kbuild_eval(&r, cfg, arch, &io, &err);
	if (rc)
		fprintf(stderr, "td_kbuild_eval: %d %s\n", rc, err.msg);
	CHECK_INT(rc, 0);
	td_kconfig_free(cfg);
	return r;
}

static td_kbuild_result_t *eval(mem_tree_t *t, const char *cfg_text)
{
	return eval_arch(t, cfg_text, "x86_64");
}

static int has_obj(const td_kbuild_result_t *r, const char *path)
{
	for (size_t i = 0; i < td_kbuild_object_count(r); i++)
		if (!strcmp(td_kbuild_object(r, i), path))
			return 1;
	return 0;
}

static int has_src(const td_kbuild_result_t *r, const char *path)
{
	return td_kbuild_is_built(r, path, strlen(path)) == TD_KBUILD_BUILT;
}

static int has_warning(const td_kbuild_result_t *r, const char *file, unsigned line,
		       const char *part)
{
	for (size_t i = 0; i < td_kbuild_warning_count(r); i++) {
		const td_kbuild_warning_t *w = td_kbuild_warning(r, i);
		if ((!file || !strcmp(w->file, file)) && (!line || w->line == line) &&
		    strstr(w->msg, part))
			return 1;
	}
	return 0;
}

static void dump(const td_kbuild_result_t *r);

/* CHECK(has_warning(...)), listing the warnings there are when it fails. */
#define CHECK_WARN(r, file, line, part) do { \
	int ok_ = has_warning(r, file, line, part); \
	CHECK(ok_ && #part); \
	if (!ok_) \
		dump(r); \
} while (0)

static void dump(const td_kbuild_result_t *r)
{
	if (td_kbuild_object_count(r) < 40)
		for (size_t i = 0; i < td_kbuild_object_count(r); i++)
			fprintf(stderr, "  object %s\n", td_kbuild_object(r, i));
	for (size_t i = 0; i < td_kbuild_warning_count(r); i++) {
		const td_kbuild_warning_t *w = td_kbuild_warning(r, i);
		fprintf(stderr, "  warning %s:%u: %s\n", w->file, w->line, w->msg);
	}
}

/* The objects of a single-directory tree: Kbuild at the root holding text. */
static td_kbuild_result_t *eval_text(mem_tree_t *t, const char *kbuild, const char *cfg_text)
{
	tree_add(t, "Kbuild", kbuild);
	return eval(t, cfg_text);
}

/* ---- parser ---- */

static td_kbuild_makefile_t *parse(const char *text)
{
	td_kbuild_makefile_t *mf = NULL;
	td_error_t err = { 0 };

	CHECK_INT(td_kbuild_parse_makefile(&mf, text, strlen(text), &err), 0);
	return mf;
}

static void test_parse_statements(void)
{
	static const char text[] =
		"# comment\n"                              /* 1 */
		"obj-y += a.o \\\n"                        /* 2 */
		"\tb.o   \\\n"                             /* 3 */
		"   c.o # trailing comment\n"              /* 4 */
		"x := $(subst #,y,z) \\# not a comment\n"  /* 5 */
		"ifeq ($(CONFIG_A), y)\n"                  /* 6 */
		"else ifneq \"$(B)\" 'q'\n"                /* 7 */
		"else\n"                                   /* 8 */
		"endif\n"                                  /* 9 */
		"ifdef CONFIG_X\n"                         /* 10 */
		"endif\n"                                  /* 11 */
		"$(obj)/foo.o: $(src)/foo.c FORCE ; cmd1\n"/* 12 */
		"\t$(Q)$(MAKE) $(build)=$(obj)/sub\n"      /* 13 */
		"\n"                                       /* 14 */
		"\t# still the recipe\n"                   /* 15 */
		"export BITS := 64\n"                      /* 16 */
		"\tobj-y += tab.o\n"                       /* 17: no rule before it now */
		"define two\n"                             /* 18 */
		"line1\n"                                  /* 19 */
		"line2\n"                                  /* 20 */
		"endef\n"                                  /* 21 */
		"-include $(src)/gen.mk\n"                 /* 22 */
		"override V ?= 1\n"                        /* 23 */
		"y ::= 2\n"                                /* 24 */
		"z != echo hi\n"                           /* 25 */
		"$(eval q := 1)\n"                         /* 26 */
		"this is not make\n"                       /* 27 */
		"export A B\n"                             /* 28 */
		"undefine V\n"                             /* 29 */
		"$(obj)/t.o: CFLAGS += -x\n";              /* 30 */
	td_kbuild_makefile_t *mf = parse(text);
	const td_kbuild_stmt_t *st;
	size_t i = 0;

	CHECK(mf != NULL);
	if (!mf)
		return;
#define NEXT() (st = td_kbuild_makefile_stmt(mf, i++))
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ASSIGN);
	CHECK_INT(st->line, 2);
	CHECK_INT(st->op, '+');
	CHECK_STR(st->name, "obj-y");
	CHECK_STR(st->text, "a.o b.o c.o");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ASSIGN);
	CHECK_INT(st->line, 5);
	CHECK_INT(st->op, ':');
	CHECK_STR(st->text, "$(subst #,y,z) # not a comment");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_IFEQ);
	CHECK_INT(st->op, 0);
	CHECK_STR(st->name, "$(CONFIG_A)");
	CHECK_STR(st->text, "y");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ELSE);
	CHECK_INT(st->cond, TD_KB_STMT_IFEQ);
	CHECK_INT(st->op, 'n');
	CHECK_STR(st->name, "$(B)");
	CHECK_STR(st->text, "q");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ELSE);
	CHECK_INT(st->cond, 0);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ENDIF);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_IFDEF);
	CHECK_STR(st->name, "CONFIG_X");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ENDIF);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_RULE);
	CHECK_STR(st->name, "$(obj)/foo.o");
	CHECK_STR(st->text, " $(src)/foo.c FORCE ");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_RECIPE);
	CHECK_STR(st->text, "cmd1");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_RECIPE);
	CHECK_INT(st->line, 13);
	CHECK_STR(st->text, "$(Q)$(MAKE) $(build)=$(obj)/sub");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_RECIPE);
	CHECK_INT(st->line, 15);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ASSIGN);
	CHECK_INT(st->exported, 1);
	CHECK_STR(st->name, "BITS");
	CHECK_STR(st->text, "64");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ASSIGN); /* a tab-indented assignment */
	CHECK_INT(st->line, 17);
	CHECK_STR(st->name, "obj-y");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_DEFINE);
	CHECK_INT(st->line, 18);
	CHECK_STR(st->name, "two");
	CHECK_STR(st->text, "line1\nline2");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_INCLUDE);
	CHECK_INT(st->line, 22);
	CHECK_INT(st->op, '-');
	CHECK_STR(st->text, "$(src)/gen.mk");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ASSIGN);
	CHECK_INT(st->override, 1);
	CHECK_INT(st->op, '?');
	NEXT();
	CHECK_INT(st->op, ':');
	CHECK_STR(st->name, "y");
	NEXT();
	CHECK_INT(st->op, '!');
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_EXPR);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_ERROR);
	CHECK_INT(st->line, 27);
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_EXPORT);
	CHECK_STR(st->text, "A B");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_UNDEFINE);
	CHECK_STR(st->name, "V");
	NEXT();
	CHECK_INT(st->kind, TD_KB_STMT_RULE); /* a target-specific variable */
	CHECK(td_kbuild_makefile_stmt(mf, i) == NULL);
	CHECK_INT(td_kbuild_makefile_count(mf), i);
#undef NEXT
	td_kbuild_makefile_free(mf);
}

static void test_parse_edge_cases(void)
{
	td_kbuild_makefile_t *mf;
	const td_kbuild_stmt_t *st;

	/* a backslash on the last line, as in lib/zstd/Makefile */
	mf = parse("a-y := \\\n\tx.o \\\n");
	CHECK_INT(td_kbuild_makefile_count(mf), 1);
	CHECK_STR(td_kbuild_makefile_stmt(mf, 0)->text, "x.o");
	td_kbuild_makefile_free(mf);
	/* CRLF line ends, no final newline */
	mf = parse("obj-y += a.o\r\nobj-y += b.o");
	CHECK_INT(td_kbuild_makefile_count(mf), 2);
	CHECK_STR(td_kbuild_makefile_stmt(mf, 1)->text, "b.o");
	td_kbuild_makefile_free(mf);
	/* malformed conditionals are kept, marked 'x' */
	mf = parse("ifeq (a\nendif\nifdef\nendif\n");
	st = td_kbuild_makefile_stmt(mf, 0);
	CHECK_INT(st->kind, TD_KB_STMT_IFEQ);
	CHECK_INT(st->op, 'x');
	CHECK_INT(td_kbuild_makefile_stmt(mf, 2)->op, 'x');
	td_kbuild_makefile_free(mf);
	/* an unterminated define */
	mf = parse("define x\nabc\n");
	CHECK_INT(td_kbuild_makefile_stmt(mf, 0)->kind, TD_KB_STMT_ERROR);
	td_kbuild_makefile_free(mf);
	/* nested define and "define name :=" */
	mf = parse("define a :=\ndefine b\nendef\nendef\nx = 1\n");
	st = td_kbuild_makefile_stmt(mf, 0);
	CHECK_INT(st->kind, TD_KB_STMT_DEFINE);
	CHECK_INT(st->op, ':');
	CHECK_STR(st->name, "a");
	CHECK_STR(st->text, "define b\nendef");
	CHECK_INT(td_kbuild_makefile_stmt(mf, 1)->kind, TD_KB_STMT_ASSIGN);
	td_kbuild_makefile_free(mf);
	/* words that only start like directives */
	mf = parse("include-y := 1\nifdef-x = 2\nexport-objs = a.o\n");
	CHECK_INT(td_kbuild_makefile_count(mf), 3);
	for (size_t i = 0; i < 3; i++)
		CHECK_INT(td_kbuild_makefile_stmt(mf, i)->kind, TD_KB_STMT_ASSIGN);
	td_kbuild_makefile_free(mf);
	/* an empty file, and NUL bytes */
	mf = parse("");
	CHECK_INT(td_kbuild_makefile_count(mf), 0);
	td_kbuild_makefile_free(mf);
	{
		static const char nul[] = "a := 1\nb\0c := 2\n";
		td_error_t err = { 0 };
		mf = NULL;
		CHECK_INT(td_kbuild_parse_makefile(&mf, nul, sizeof(nul) - 1, &err), 0);
		CHECK_INT(td_kbuild_makefile_stmt(mf, 1)->kind, TD_KB_STMT_ERROR);
		td_kbuild_makefile_free(mf);
	}
	td_kbuild_makefile_free(NULL);
}

/* ---- evaluation: crafted fragments ---- */

static void test_obj_config(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "a.c b.c c.c d.c e.S f.c");
	r = eval_text(&t,
		      "obj-y += a.o\n"
		      "obj-$(CONFIG_B) += b.o\n"
		      "obj-$(CONFIG_C) += c.o\n"
		      "obj-$(CONFIG_D) += d.o\n" /* unset: obj- */
		      "obj-$(CONFIG_E) += e.o\n"
		      "obj- += f.o\n",
		      "CONFIG_MODULES=y\nCONFIG_B=y\nCONFIG_C=m\n# CONFIG_D is not set\nCONFIG_E=y\n");
	CHECK(has_obj(r, "a.o"));
	CHECK(has_obj(r, "b.o"));
	CHECK(has_obj(r, "c.o"));  /* m counts as built */
	CHECK(!has_obj(r, "d.o"));
	CHECK(!has_obj(r, "f.o"));
	CHECK(has_src(r, "e.S"));
	CHECK(has_src(r, "c.c"));
	CHECK(!has_src(r, "d.c"));
	CHECK_INT(td_kbuild_object_count(r), 4);
	CHECK_INT(td_kbuild_source_count(r), 4);
	CHECK_STR(td_kbuild_source(r, 0), "a.c");
	CHECK_STR(td_kbuild_source(r, 3), "e.S");
	CHECK_INT(td_kbuild_warning_count(r), 0);
	td_kbuild_result_free(r);
	/* without CONFIG_MODULES nothing modular is built */
	r = eval(&t, "CONFIG_C=m\n");
	CHECK(!has_obj(r, "c.o"));
	CHECK(has_obj(r, "a.o"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_composite(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "p1.c p2.c p3.c p4.S m1.c m2.c m3.c o1.c o2.c foo.c e.c");
	r = eval_text(&t,
		      "obj-y += foo.o\n"
		      "foo-y := p1.o p2.o\n"
		      "foo-$(CONFIG_X) += p3.o\n"
		      "foo-$(CONFIG_Y) += p4.o\n"
		      "foo-m += m3.o\n" /* -m parts only count for modules */
		      "obj-$(CONFIG_MOD) += mod.o\n"
		      "mod-objs := m1.o\n"
		      "mod-m := m2.o\n"
		      "obj-y += old.o\n"
		      "old-objs = o1.o $(more)\n"
		      "more = o2.o\n"
		      "obj-y += empty.o\n"
		      "empty- := e.o\n",
		      "CONFIG_MODULES=y\nCONFIG_X=y\nCONFIG_MOD=m\n");
	CHECK(!has_obj(r, "foo.o"));
	CHECK(has_obj(r, "p1.o"));
	CHECK(has_obj(r, "p2.o"));
	CHECK(has_obj(r, "p3.o"));
	CHECK(!has_obj(r, "p4.o"));
	CHECK(!has_obj(r, "m3.o"));
	CHECK(!has_src(r, "foo.c"));
	CHECK(has_obj(r, "m1.o"));
	CHECK(has_obj(r, "m2.o"));
	CHECK(!has_obj(r, "mod.o"));
	CHECK(has_obj(r, "o1.o"));
	CHECK(has_obj(r, "o2.o")); /* recursive variables expand late */
	/* foo- non-empty makes empty.o composite, with no parts */
	CHECK(!has_obj(r, "empty.o"));
	CHECK(!has_obj(r, "e.o"));
	CHECK_INT(td_kbuild_warning_count(r), 0);
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_subdirs(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "Kbuild",
		 "obj-y += y/\n"
		 "obj-$(CONFIG_M) += m/\n"
		 "obj-$(CONFIG_N) += n/\n"
		 "subdir-y += s\n"
		 "subdir-$(CONFIG_M) += sm/\n");
	tree_add(&t, "y/Makefile", "obj-y += a.o\nobj-y += deep/\n");
	tree_add(&t, "y/deep/Kbuild", "obj-y += d.o\n");
	tree_add(&t, "y/deep/Makefile", "obj-y += never.o\n"); /* Kbuild wins */
	tree_add(&t, "m/Makefile", "obj-y += builtin.o\nobj-m += mod.o\nobj-y += sub/\n");
	tree_add(&t, "m/sub/Makefile", "obj-y += sb.o\nobj-m += sm.o\n");
	tree_add(&t, "n/Makefile", "obj-y += n.o\n");
	tree_add(&t, "s/Makefile", "obj-y += s_builtin.o\nobj-m += s_mod.o\nlib-y += s_lib.o\n"
				   "always-y += s_always.o x.dtb\nextra-y += s_extra.o\n");
	tree_add(&t, "sm/Makefile", "obj-m += smm.o\n");
	r = eval(&t, "CONFIG_MODULES=y\nCONFIG_M=m\n");
	CHECK(has_obj(r, "y/a.o"));
	CHECK(has_obj(r, "y/deep/d.o"));
	CHECK(!has_obj(r, "y/deep/never.o"));
	/* a directory reached through obj-m builds no built-in objects */
	CHECK(!has_obj(r, "m/builtin.o"));
	CHECK(has_obj(r, "m/mod.o"));
	CHECK(!has_obj(r, "m/sub/sb.o"));
	CHECK(has_obj(r, "m/sub/sm.o"));
	CHECK(!has_obj(r, "n/n.o"));
	/* subdir-y: visited, not linked in */
	CHECK(!has_obj(r, "s/s_builtin.o"));
	CHECK(has_obj(r, "s/s_mod.o"));
	CHECK(has_obj(r, "s/s_lib.o"));
	CHECK(has_obj(r, "s/s_always.o"));
	CHECK(has_obj(r, "s/s_extra.o"));
	CHECK(has_obj(r, "sm/smm.o"));
	CHECK_INT(td_kbuild_dir_count(r), 7);
	CHECK_STR(td_kbuild_dir(r, 0), ".");
	CHECK_STR(td_kbuild_dir(r, 1), "m");
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_lib_and_targets(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "l1.c l2.c both.c t1.S");
	r = eval_text(&t,
		      "lib-y := l1.o both.o\n"
		      "lib-$(CONFIG_L) += l2.o\n"
		      "obj-y += both.o\n"
		      "targets += t1.o vmlinux.lds\n",
		      "CONFIG_L=m\n");
	CHECK(has_obj(r, "l1.o"));
	CHECK(has_obj(r, "l2.o")); /* lib-m goes into lib.a too */
	CHECK(has_obj(r, "both.o"));
	CHECK(has_obj(r, "t1.o"));
	CHECK(has_src(r, "t1.S"));
	CHECK_INT(td_kbuild_object_count(r), 4);
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_conditionals(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	r = eval_text(&t,
		      "ifdef CONFIG_A\nobj-y += ifdef_a.o\nendif\n"
		      "ifndef CONFIG_B\nobj-y += ifndef_b.o\nelse\nobj-y += never1.o\nendif\n"
		      "ifeq ($(CONFIG_A),y)\nobj-y += ifeq_a.o\nendif\n"
		      "ifeq ($(CONFIG_C), m)\nobj-y += ifeq_c_m.o\nendif\n"
		      "ifneq ($(CONFIG_B),)\nobj-y += never2.o\nelse ifeq '$(CONFIG_C)' 'm'\n"
		      "obj-y += elseif.o\nelse\nobj-y += never3.o\nendif\n"
		      "ifeq \"$(CONFIG_A)$(CONFIG_C)\" \"ym\"\n"
		      "  ifdef CONFIG_B\n    obj-y += never4.o\n  else\n    obj-y += nested.o\n  endif\n"
		      "else\n  ifdef CONFIG_A\n    obj-y += never5.o\n  endif\nendif\n"
		      "ifdef CONFIG_B\n ifeq (,)\n obj-y += never6.o\n else\n obj-y += never7.o\n endif\n"
		      "else ifdef CONFIG_NONE\nobj-y += never8.o\nelse ifndef CONFIG_NONE\n"
		      "obj-y += chain.o\nelse\nobj-y += never9.o\nendif\n"
		      "empty :=\nifdef empty\nobj-y += never10.o\nendif\n"
		      "name := CONFIG_A\nifdef $(name)\nobj-y += computed.o\nendif\n"
		      "rec = $(undefined_var)\nifdef rec\nobj-y += ifdef_rec.o\nendif\n",
		      "CONFIG_A=y\nCONFIG_C=m\n");
	CHECK(has_obj(r, "ifdef_a.o"));
	CHECK(has_obj(r, "ifndef_b.o"));
	CHECK(has_obj(r, "ifeq_a.o"));
	CHECK(has_obj(r, "ifeq_c_m.o"));
	CHECK(has_obj(r, "elseif.o"));
	CHECK(has_obj(r, "nested.o"));
	CHECK(has_obj(r, "chain.o"));
	CHECK(has_obj(r, "computed.o"));
	CHECK(has_obj(r, "ifdef_rec.o")); /* ifdef does not expand the value */
	for (size_t i = 0; i < td_kbuild_object_count(r); i++)
		CHECK(strncmp(td_kbuild_object(r, i), "never", 5) != 0);
	CHECK_INT(td_kbuild_object_count(r), 9);
	CHECK_INT(td_kbuild_warning_count(r), 0);
	td_kbuild_result_free(r);
	/* unbalanced */
	r = eval_text(&t, "else\nendif\nifdef X\nobj-y += a.o\n", "");
	CHECK_WARN(r, "Kbuild", 1, "'else' without a conditional");
	CHECK_WARN(r, "Kbuild", 2, "'endif' without a conditional");
	CHECK_WARN(r, "Kbuild", 0, "missing 'endif' for the conditional at line 3");
	td_kbuild_result_free(r);
	r = eval_text(&t, "ifeq (a\nobj-y += a.o\nendif\nobj-y += b.o\n", "");
	CHECK_WARN(r, "Kbuild", 1, "malformed conditional");
	CHECK(!has_obj(r, "a.o"));
	CHECK(has_obj(r, "b.o"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_assignments(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	r = eval_text(&t,
		      "late = $(val).o\n"
		      "early := $(val).o\n"
		      "val = v1\n"
		      "obj-y += $(late) $(early)\n"      /* v1.o and ".o" */
		      "val = v2\n"
		      "cond ?= c1\n"
		      "cond ?= c2\n"
		      "obj-y += $(cond).o\n"
		      "app = a1\n"
		      "app += $(val)\n"                  /* recursive: stays late */
		      "val = v3\n"
		      "obj-y += $(addsuffix .o,$(app))\n"
		      "simple := s1\n"
		      "simple += $(val)\n"               /* simple: expanded now (v3) */
		      "val = v4\n"
		      "obj-y += $(addsuffix .o,$(simple))\n"
		      "fresh += f1.o\n"                  /* += on undefined: recursive */
		      "obj-y += $(fresh)\n"
		      "dbl ::= d1.o\n"
		      "obj-y += $(dbl)\n"
		      "export ex := e1.o\n"
		      "obj-y += $(ex)\n"
		      "define multi\nm1.o\nm2.o\nendef\n"
		      "obj-y += $(multi)\n"
		      "gone := g.o\nundefine gone\nobj-y += $(gone)\n"
		      "$(empty)\n",
		      "");
	/* obj-y is simple (Makefile.build sets it with :=), so += expands now */
	CHECK(has_obj(r, "v1.o"));
	CHECK(!has_obj(r, "v2.o"));
	CHECK(!has_obj(r, "v4.o"));
	CHECK(has_obj(r, "c1.o"));
	CHECK(!has_obj(r, "c2.o"));
	CHECK(has_obj(r, "a1.o"));
	CHECK(has_obj(r, "v3.o"));
	CHECK(has_obj(r, "s1.o"));
	CHECK(has_obj(r, "f1.o"));
	CHECK(has_obj(r, "d1.o"));
	CHECK(has_obj(r, "e1.o"));
	CHECK(has_obj(r, "m1.o"));
	CHECK(has_obj(r, "m2.o"));
	CHECK(!has_obj(r, "g.o"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_functions(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "sub/w1.c");
	tree_add(&t, "sub/Makefile",
		 "obj-y += $(subst ZZ,s1,ZZ.o)\n"
		 "obj-y += $(patsubst %.c,%.o,s2.c s3.h)\n"
		 "list := a.o b.c c.o d.S\n"
		 "obj-y += $(addprefix f_,$(filter %.o,$(list)))\n"
		 "obj-y += $(addprefix fo_,$(filter-out %.o %.c,$(list))).o\n"
		 "obj-y += $(addsuffix .o,x1 x2)\n"
		 "obj-y += $(foreach d,p q,$(d)_each.o)\n"
		 "obj-y += $(if $(CONFIG_A),if_yes.o,if_no.o) $(if $(CONFIG_NONE),ifn_yes.o,ifn_no.o)\n"
		 "obj-y += $(or $(CONFIG_NONE),or.o) $(and y,and.o) $(and ,never_and.o)\n"
		 "obj-y += $(strip   st.o   ) $(sort z.o so.o so.o)\n"
		 "obj-y += $(notdir x/y/nd.o) $(dir d/dr.c)dr.o $(basename bn.c).o\n"
		 "obj-y += $(word 2,w1.o w2.o w3.o) $(firstword fw.o x) $(lastword x lw.o)\n"
		 "obj-y += $(words a b c).o $(wordlist 2,3,a wl2.o wl3.o wl4.o)\n"
		 "obj-y += $(suffix ab.cd).o $(join j1 j2,.o .o) $(findstring fs,xfsx).o\n"
		 "mkobj = $(1)_$(2).o\n"
		 "obj-y += $(call mkobj,call,ed)\n"
		 "obj-y += $(patsubst %.c,%.o,$(notdir $(wildcard $(srctree)/$(src)/w1.c $(src)/w2.c)))\n"
		 "names := r1.c r2.c\n"
		 "obj-y += $(names:.c=.o) $(names:%.c=pre_%.o)\n"
		 "$(eval obj-y += ev.o)\n"
		 "$(foreach n,e1 e2,$(eval obj-y += $(n)_fe.o))\n"
		 "obj-y += $(if $(filter y,$(CONFIG_A)),nested.o)\n"
		 "obj-y += $(abspath ./ab/../abs.o)\n"
		 "obj-y += $(origin CONFIG_A)_$(origin nope)_$(flavor mkobj)_$(flavor names).o\n"
		 "val := $(value mkobj)\n"
		 "ifeq ($(val),$$(1)_$$(2).o)\nobj-y += value.o\nendif\n"
		 "$(info hello) $(warning careful)\n"
		 "obj-y += $(subst m,y,$(CONFIG_M)).o\n"
		 "obj-y += $(CONFIG_STR).o\n"
		 "obj-y += $${literal}.o\n");
	r = eval_text(&t, "obj-y += sub/\n", "CONFIG_A=y\nCONFIG_M=m\nCONFIG_STR=\"str\"\n");
	{
		static const char *const want[] = {
			"s1.o", "s2.o", "s3.h", "f_a.o", "f_c.o", "fo_d.S.o", "x1.o", "x2.o",
			"p_each.o", "q_each.o", "if_yes.o", "ifn_no.o", "or.o", "and.o", "st.o",
			"so.o", "z.o", "nd.o", "d/dr.o", "bn.o", "w2.o", "fw.o", "lw.o", "3.o",
			"wl2.o", "wl3.o", ".cd.o", "j1.o", "j2.o", "fs.o", "call_ed.o", "w1.o",
			"r1.o", "r2.o", "pre_r1.o", "pre_r2.o", "ev.o", "e1_fe.o", "e2_fe.o",
			"nested.o", "abs.o", "file_undefined_recursive_simple.o", "value.o", "y.o",
			"str.o", "${literal}.o",
		};
		char path[128];
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			snprintf(path, sizeof(path), "sub/%s", want[i]);
			if (!strstr(want[i], ".h") && !has_obj(r, path)) {
				fprintf(stderr, "missing %s\n", path);
				CHECK(0);
			}
		}
		CHECK(!has_obj(r, "sub/never_and.o"));
		CHECK(!has_obj(r, "sub/b.o"));
		CHECK(!has_obj(r, "sub/s3.o"));
		CHECK(has_src(r, "sub/w1.c"));
	}
	CHECK_WARN(r, "sub/Makefile", 0, "entry 's3.h' of obj-y");
	if (td_kbuild_warning_count(r) != 1)
		dump(r);
	CHECK_INT(td_kbuild_warning_count(r), 1);
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_include(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "inc.mk", "obj-y += from_include.o\ninner := 1\n");
	tree_add(&t, "nest1.mk", "include $(srctree)/nest2.mk\n");
	tree_add(&t, "nest2.mk", "obj-y += nested_include.o\n");
	tree_add(&t, "loop.mk", "include loop.mk\n");
	r = eval_text(&t,
		      "include $(srctree)/inc.mk\n"
		      "ifeq ($(inner),1)\nobj-y += after_include.o\nendif\n"
		      "include nest1.mk\n"
		      "include missing.mk\n"
		      "-include include/config/auto.conf\n"
		      "sinclude also_missing.mk\n"
		      "include loop.mk\n",
		      "");
	CHECK(has_obj(r, "from_include.o"));
	CHECK(has_obj(r, "after_include.o"));
	CHECK(has_obj(r, "nested_include.o"));
	CHECK_WARN(r, "Kbuild", 6, "included file 'missing.mk' not found");
	CHECK(!has_warning(r, NULL, 0, "auto.conf"));
	CHECK(!has_warning(r, NULL, 0, "also_missing"));
	CHECK_WARN(r, "loop.mk", 1, "nested too deep");
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_unknown_constructs(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	r = eval_text(&t,
		      "ccflags-y += $(call cc-option,-mfoo) $(shell echo -O2)\n"  /* 1: ignored */
		      "CFLAGS_x.o := $(call cc-disable-warning,bar)\n"              /* 2: ignored */
		      "unused := $(shell uname)\n"                                  /* 3: ignored */
		      "obj-y += $(shell ls *.o)\n"                                  /* 4: reported */
		      "ifeq ($(call cc-option-yn,-mbar),y)\n"                       /* 5 */
		      "ccflags-y += -mbar\n"                                        /* flags only */
		      "endif\n"
		      "ifneq ($(call ld-option,--x),)\n"                            /* 8 */
		      "obj-y += linker.o\n"                                         /* decides */
		      "endif\n"
		      "objs := $(wildcard $(src)/*.c)\n"                            /* 11 */
		      "obj-y += $(objs:.c=.o)\n"
		      "this line is not make\n"                                     /* 13 */
		      "z != date\nobj-y += $(z)\n"                                  /* 14 */
		      "obj-y += $(file <x)\n"                                       /* 16 */
		      "$(error stop here)\n"                                        /* 17 */
		      "lib-y += $(unterminated\n",                                  /* 18 */
		      "");
	CHECK(!has_warning(r, NULL, 1, ""));
	CHECK(!has_warning(r, NULL, 2, ""));
	CHECK(!has_warning(r, NULL, 3, ""));
	CHECK(has_warning(r, "Kbuild", 4, "$(shell ls *.o): commands are not run; it reaches 'obj-y'"));
	CHECK(!has_warning(r, NULL, 5, ""));
	CHECK_WARN(r, "Kbuild", 8, "$(call ld-option): undefined function");
	CHECK_WARN(r, "Kbuild", 11, "glob patterns are not evaluated");
	CHECK_WARN(r, "Kbuild", 13, "unrecognised line: 'this line is not make'");
	CHECK_WARN(r, "Kbuild", 14, "shell assignments are not run");
	/* a variable keeps the first four unknown constructs that reach it */
	CHECK(!has_warning(r, "Kbuild", 16, "$(file ...): function not supported"));
	CHECK_WARN(r, "Kbuild", 17, "$(error stop here) reached");
	CHECK_WARN(r, "Kbuild", 18, "unterminated variable reference");
	CHECK(!has_obj(r, "linker.o")); /* the unknown test is empty: false */
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_hostile(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;
	char *big;
	size_t n;

	/* self reference, mutual reference, a self-calling function */
	r = eval_text(&t,
		      "A = $(A) a.o\nobj-y += $(A)\n"
		      "B = $(C)\nC = $(B)\nobj-y += $(B)\n"
		      "f = $(call f,x)\nobj-y += $(call f)\n"
		      "obj-y += ok.o\n",
		      "");
	CHECK_WARN(r, "Kbuild", 2, "recursive variable 'A' references itself");
	CHECK_WARN(r, "Kbuild", 5, "recursive variable 'B' references itself");
	CHECK_WARN(r, "Kbuild", 7, "function 'f' calls itself");
	CHECK(has_obj(r, "ok.o"));
	CHECK(has_obj(r, "a.o"));
	td_kbuild_result_free(r);
	/* exponential growth: 2^40 bytes if unbounded */
	{
		char text[4096];
		size_t o = (size_t)snprintf(text, sizeof(text), "v0 := xxxxxxxxxxxxxxxx\n");
		for (int i = 1; i <= 40; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o, "v%d = $(v%d)$(v%d)\n", i, i - 1,
					      i - 1);
		snprintf(text + o, sizeof(text) - o, "obj-y += $(v40)\n");
		r = eval_text(&t, text, "");
		CHECK_WARN(r, "Kbuild", 0, "a limit was hit");
		td_kbuild_result_free(r);
	}
	/* deep nesting of conditionals and references */
	n = 70 * 16 + 70 * 8 + 64;
	big = malloc(n);
	{
		size_t o = 0;
		for (int i = 0; i < 70; i++)
			o += (size_t)snprintf(big + o, n - o, "ifeq (a,a)\n");
		o += (size_t)snprintf(big + o, n - o, "obj-y += deep.o\n");
		for (int i = 0; i < 70; i++)
			o += (size_t)snprintf(big + o, n - o, "endif\n");
	}
	r = eval_text(&t, big, "");
	CHECK_WARN(r, "Kbuild", 0, "conditionals nested deeper than 64");
	CHECK(!has_warning(r, NULL, 0, "without a conditional"));
	td_kbuild_result_free(r);
	free(big);
	{
		char text[2048];
		size_t o = 0;
		o += (size_t)snprintf(text + o, sizeof(text) - o, "obj-y += ");
		for (int i = 0; i < 100; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o, "$(strip ");
		o += (size_t)snprintf(text + o, sizeof(text) - o, "x.o");
		for (int i = 0; i < 100; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o, ")");
		snprintf(text + o, sizeof(text) - o, "\nobj-y += fine.o\n");
		r = eval_text(&t, text, "");
		CHECK_WARN(r, "Kbuild", 0, "a limit was hit");
		td_kbuild_result_free(r);
	}
	/* directory cycles and self recursion end */
	tree_add(&t, "a/Makefile", "obj-y += ../b/ ./ a2.o\n");
	tree_add(&t, "b/Makefile", "obj-y += ../a/ b2.o\n");
	r = eval_text(&t, "obj-y += a/\n", "");
	CHECK(has_obj(r, "a/a2.o"));
	CHECK(has_obj(r, "b/b2.o"));
	CHECK_INT(td_kbuild_dir_count(r), 3);
	td_kbuild_result_free(r);
	/* a chain of directories deeper than the limit stops there */
	{
		static char paths[40][200];
		char dir[200] = "c";
		for (int i = 0; i < 40; i++) {
			snprintf(paths[i], sizeof(paths[i]), "%s/Makefile", dir);
			tree_add(&t, paths[i], "obj-y += c/ x.o\n");
			if (strlen(dir) + 3 < sizeof(dir))
				memcpy(dir + strlen(dir), "/c", 3);
		}
		r = eval_text(&t, "obj-y += c/\n", "");
		CHECK_WARN(r, NULL, 0, "directory nesting or count limit reached");
		CHECK(has_obj(r, "c/c/c/x.o"));
		CHECK_INT(td_kbuild_dir_count(r), TD_KBUILD_MAX_DIR_DEPTH + 1);
		td_kbuild_result_free(r);
	}
	/* an over-long file is refused with a warning */
	n = TD_KBUILD_MAX_FILE_BYTES + 2;
	big = malloc(n);
	memset(big, '#', n - 1);
	big[n - 1] = '\0';
	tree_add(&t, "Kbuild", big);
	free(big);
	r = eval(&t, "");
	CHECK_WARN(r, "Kbuild", 0, "file larger than");
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_arch_makefile(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "arch/x86/kernel/head_64.c arch/x86/lib/l.c arch/x86/pci/p.c init/main.c "
		       "lib/sort.c arch/x86/core/c.c");
	tree_add(&t, "arch/x86/Makefile",
		 "ifeq ($(CONFIG_X86_32),y)\n BITS := 32\nelse\n BITS := 64\nendif\n"
		 "export BITS\n"
		 "KBUILD_CFLAGS += $(call cc-option,-mno-red-zone)\n"
		 "libs-y += arch/x86/lib/\n"
		 "core-y += arch/x86/core/\n"
		 "drivers-$(CONFIG_PCI) += arch/x86/pci/\n"
		 "drivers-$(CONFIG_PM) += arch/x86/power/\n"
		 "prepare: vdso_prepare\n"
		 "vdso_prepare: prepare0\n"
		 "\t$(Q)$(MAKE) $(build)=arch/x86/vdso include/generated/vdso-offsets.h\n"
		 "bzImage: vmlinux\n"
		 "\t$(Q)$(MAKE) $(build)=arch/x86/boot $@\n");
	tree_add(&t, "arch/x86/vdso/Makefile", "targets += v.o\n");
	tree_add(&t, "arch/x86/boot/Makefile", "targets += b.o\n");
	tree_touch(&t, "arch/x86/vdso/v.c arch/x86/boot/b.c");
	tree_add_data(&t, "Kbuild", "top_Kbuild");
	tree_add(&t, "arch/x86/Kbuild", "obj-y += kernel/\n");
	tree_add(&t, "arch/x86/kernel/Makefile", "obj-y += head_$(BITS).o\n");
	tree_add(&t, "arch/x86/lib/Makefile", "lib-y += l.o\n");
	tree_add(&t, "arch/x86/core/Makefile", "obj-y += c.o\n");
	tree_add(&t, "arch/x86/pci/Makefile", "obj-y += p.o\n");
	tree_add(&t, "init/Makefile", "obj-y += main.o\n");
	tree_add(&t, "lib/Makefile", "lib-y += sort.o\n");
	r = eval(&t, "CONFIG_PCI=y\nCONFIG_X86_64=y\n");
	CHECK(has_src(r, "arch/x86/kernel/head_64.c"));
	CHECK(has_src(r, "arch/x86/lib/l.c"));
	CHECK(has_src(r, "arch/x86/core/c.c"));
	CHECK(has_src(r, "arch/x86/pci/p.c"));
	CHECK(has_src(r, "init/main.c"));
	CHECK(has_src(r, "lib/sort.c"));
	/* what the arch Makefile's prepare builds, not its boot image */
	CHECK(has_src(r, "arch/x86/vdso/v.c"));
	CHECK(!has_src(r, "arch/x86/boot/b.c"));
	/* the top Kbuild's missing directories are reported, not guessed */
	CHECK_WARN(r, NULL, 0, "no Kbuild or Makefile in 'kernel'");
	CHECK(!has_warning(r, NULL, 0, "cc-option")); /* flags only */
	CHECK(!has_warning(r, NULL, 0, "arch/x86/power")); /* CONFIG_PM unset */
	td_kbuild_result_free(r);
	/* the arch given as uname spells it */
	r = eval_arch(&t, "CONFIG_PCI=y\n", "amd64");
	CHECK(has_src(r, "arch/x86/pci/p.c"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_fallback_roots(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "Makefile", "# an old top Makefile\n");
	tree_add(&t, "arch/x86/Makefile", "core-y += arch/x86/\n");
	tree_add(&t, "arch/x86/Makefile.sub", "");
	tree_add(&t, "arch/x86/Kbuild", "obj-y += a.o\n");
	tree_add(&t, "kernel/Makefile", "obj-y += fork.o\n");
	tree_add(&t, "net/Makefile", "obj-y += socket.o\n");
	r = eval(&t, "CONFIG_NET=y\n");
	CHECK_WARN(r, "Kbuild", 0, "built-in list of top-level directories");
	CHECK(has_obj(r, "arch/x86/a.o"));
	CHECK(has_obj(r, "kernel/fork.o"));
	CHECK(has_obj(r, "net/socket.o"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_outside_kbuild(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "init/version-timestamp.c scripts/mod/empty.c scripts/mod/modpost.c");
	tree_add(&t, "scripts/mod/Makefile",
		 "hostprogs-always-y += modpost\nalways-y += empty.o\nmodpost-objs := modpost.o\n");
	r = eval_text(&t, "", "CONFIG_MODULES=y\n");
	CHECK(has_src(r, "init/version-timestamp.c"));
	CHECK(has_src(r, "scripts/mod/empty.c"));
	CHECK(!has_src(r, "scripts/mod/modpost.c")); /* a host program */
	td_kbuild_result_free(r);
	r = eval(&t, "");
	CHECK(has_src(r, "init/version-timestamp.c"));
	CHECK(!has_src(r, "scripts/mod/empty.c")); /* only for modules */
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_rules_and_recipes(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "d/aes-glue.c d/hyp.c d/entry.c d/aes-ce.S lib/cmdline.c d/rm/h.S d/main.c");
	tree_add(&t, "d/Makefile",
		 "obj-y += aes.o main.o\n"
		 "aes-y := aes-glue-ce.o aes-ce.o\n"
		 "$(obj)/aes-glue-%.o: $(src)/aes-glue.c FORCE\n"
		 "\t$(call if_changed_rule,cc_o_c)\n"
		 "targets += hyp.nvhe.o ../d/entry.nvhe.o lib-cmdline.o\n"
		 "$(obj)/%.nvhe.o: $(src)/%.c FORCE\n"
		 "\t$(call if_changed_rule,cc_o_c)\n"
		 "$(obj)/lib-%.o: $(srctree)/lib/%.c FORCE\n"
		 "\t$(call if_changed_rule,cc_o_c)\n"
		 "$(obj)/main.o: $(obj)/generated.c\n" /* no recipe: only a dependency */
		 "$(obj)/rmpiggy.o: $(obj)/rm/realmode.bin\n"
		 "$(obj)/rm/realmode.bin: FORCE\n"
		 "\t$(Q)$(MAKE) $(build)=$(obj)/rm $@\n");
	tree_add(&t, "d/rm/Makefile", "targets += h.o\nobj-y += not_built.o\n");
	r = eval_text(&t, "obj-y += d/\n", "");
	CHECK(has_src(r, "d/aes-glue.c"));
	CHECK(has_src(r, "d/aes-ce.S"));
	CHECK(has_src(r, "d/hyp.c"));
	CHECK(has_src(r, "d/entry.c"));
	CHECK(has_src(r, "lib/cmdline.c"));
	CHECK(has_src(r, "d/main.c"));
	CHECK(has_obj(r, "d/entry.nvhe.o"));
	CHECK(has_src(r, "d/rm/h.S"));
	CHECK(!has_obj(r, "d/rm/not_built.o")); /* visited without need-builtin */
	td_kbuild_result_free(r);
	tree_release(&t);
}

static void test_is_built(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_touch(&t, "a.c b.c r.rs gen.asn1");
	r = eval_text(&t, "obj-y += a.o gen.asn1.o r.o\n", "");
	CHECK_INT(td_kbuild_is_built(r, "a.c", 3), TD_KBUILD_BUILT);
	CHECK_INT(td_kbuild_is_built(r, "r.rs", 4), TD_KBUILD_BUILT);
	CHECK_INT(td_kbuild_is_built(r, "b.c", 3), TD_KBUILD_NOT_BUILT);
	CHECK_INT(td_kbuild_is_built(r, "x/y.S", 5), TD_KBUILD_NOT_BUILT);
	CHECK_INT(td_kbuild_is_built(r, "include/linux/a.h", 17), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "Kbuild", 6), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "Makefile", 8), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "Kconfig", 7), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "gen.asn1", 8), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "vmlinux.lds.S", 13), TD_KBUILD_NOT_BUILT);
	CHECK_INT(td_kbuild_is_built(r, "a.cc", 4), TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_is_built(r, "a.cXX", 3), TD_KBUILD_BUILT); /* len bounds it */
	CHECK_INT(td_kbuild_is_built(NULL, "a.c", 3), TD_KBUILD_NOT_BUILT);
	/* a generated source: an object, but no source file */
	CHECK(has_obj(r, "gen.asn1.o"));
	CHECK_INT(td_kbuild_source_count(r), 2);
	td_kbuild_result_free(r);
	tree_release(&t);
}

/* Sources only #included by a built one count as built, transitively;
 * cycles end, includes leaving the tree, <...> includes, headers and
 * missing files are not followed. */
static void test_included_sources(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "Makefile", "# top\n");
	tree_add(&t, "top/Makefile", "obj-y += a.o\n");
	tree_add(&t, "top/a.c", "#include <linux/x.c>\n"
		 "#include \"sub/b.c\"\n"
		 "  #  include \"../c.c\" /* up one */\n"
		 "#include \"../../outside.c\"\n"
		 "#include \"h.h\"\n"
		 "#include \"missing.c\"\n"
		 "#include \"sub/b.c\"\n");
	tree_add(&t, "top/sub/b.c", "#include \"d.c\"\n#include \"../a.c\"\n");
	tree_add(&t, "top/sub/d.c", "#include \"e.c\"\n");
	tree_add(&t, "top/sub/e.c", "#include \"d.c\"\n"); /* cycle */
	tree_add(&t, "c.c", "int c;\n");
	tree_add(&t, "top/h.h", "#include \"hidden.c\"\n");
	tree_touch(&t, "top/hidden.c linux/x.c top/linux/x.c top/lone.c outside.c");
	r = eval_text(&t, "obj-y += top/\n", "");
	CHECK_INT(td_kbuild_source_count(r), 1);
	CHECK_STR(td_kbuild_source(r, 0), "top/a.c");
	CHECK_INT(td_kbuild_included_count(r), 4);
	CHECK_STR(td_kbuild_included(r, 0), "c.c");
	CHECK_STR(td_kbuild_included(r, 1), "top/sub/b.c");
	CHECK_STR(td_kbuild_included(r, 2), "top/sub/d.c");
	CHECK_STR(td_kbuild_included(r, 3), "top/sub/e.c");
	CHECK(td_kbuild_included(r, 4) == NULL);
	CHECK(has_src(r, "top/sub/e.c"));
	CHECK(has_src(r, "c.c"));
	CHECK(!has_src(r, "top/hidden.c"));
	CHECK(!has_src(r, "top/linux/x.c"));
	CHECK(!has_src(r, "linux/x.c"));
	CHECK(!has_src(r, "top/lone.c"));
	CHECK(!has_src(r, "outside.c"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

/* An include in a branch the .config rules out is not followed; one it
 * cannot decide is. */
static void test_included_under_if(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "Makefile", "# top\n");
	tree_add(&t, "a.c", "#if IS_ENABLED(CONFIG_SELFTEST)\n#include \"selftest.c\"\n#endif\n"
		 "#ifdef CONFIG_ON\n#include \"on.c\"\n#else\n#include \"off.c\"\n#endif\n"
		 "#ifdef __KERNEL__\n#include \"maybe.c\"\n#endif\n"
		 "/* Not compiled:\n#include \"commented.c\"\n#if 0 */\n#include \"after.c\"\n");
	tree_touch(&t, "selftest.c on.c off.c maybe.c commented.c after.c");
	r = eval_text(&t, "obj-y += a.o\n", "CONFIG_ON=y\n");
	CHECK_INT(td_kbuild_included_count(r), 3);
	CHECK(has_src(r, "after.c"));
	CHECK(!has_src(r, "commented.c"));
	CHECK(has_src(r, "on.c"));
	CHECK(has_src(r, "maybe.c"));
	CHECK(!has_src(r, "selftest.c"));
	CHECK(!has_src(r, "off.c"));
	td_kbuild_result_free(r);
	tree_release(&t);
}

static int fail_read_file(void *ctx, const char *path, char **data, size_t *len)
{
	(void)ctx; (void)path; (void)data; (void)len;
	return TD_EIO;
}

static void test_errors(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_io_t io = { &t, mem_read, mem_exists };
	td_kbuild_result_t *r = NULL;
	td_error_t err = { 0 };

	CHECK_INT(td_kbuild_eval(&r, NULL, "vax", &io, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "unknown architecture 'vax'") != NULL);
	CHECK(r == NULL);
	CHECK_INT(td_kbuild_eval(&r, NULL, "x86", &io, &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "no Kbuild or Makefile") != NULL);
	io.read_file = fail_read_file;
	CHECK_INT(td_kbuild_eval(&r, NULL, "x86", &io, &err), TD_EIO);
	CHECK(r == NULL);
	CHECK_INT(td_kbuild_eval(&r, NULL, "x86", NULL, &err), TD_EINVAL);
	td_kbuild_result_free(NULL);
	CHECK_INT(td_kbuild_object_count(NULL), 0);
	CHECK(td_kbuild_source(NULL, 0) == NULL);
	tree_release(&t);
}

/* ---- real kernel snippets ---- */

static void test_real_snippets(void)
{
	mem_tree_t t = { 0 };
	td_kbuild_result_t *r;

	tree_add(&t, "Kbuild", "obj-y += fs/ lib/ kernel/ arch/x86/ drivers/\n");
	tree_add(&t, "fs/Makefile", "obj-$(CONFIG_EXT4_FS) += ext4/\n");
	tree_add_data(&t, "fs/ext4/Makefile", "fs_ext4_Makefile");
	tree_touch(&t, "fs/ext4/super.c fs/ext4/acl.c fs/ext4/verity.c fs/ext4/inode-test.c");
	tree_add(&t, "lib/Makefile", "obj-$(CONFIG_ZSTD_COMMON) += zstd/\n");
	tree_add_data(&t, "lib/zstd/Makefile", "lib_zstd_Makefile");
	tree_add(&t, "kernel/Makefile", "obj-y += time/\n");
	tree_add_data(&t, "kernel/time/Makefile", "kernel_time_Makefile");
	tree_add_data(&t, "arch/x86/Kbuild", "arch_x86_Kbuild");
	tree_add(&t, "arch/x86/hyperv/Makefile", "obj-y += hv_init.o\n");
	tree_add(&t, "arch/x86/entry/Makefile", "");
	tree_add(&t, "arch/x86/kernel/Makefile", "");
	tree_add(&t, "arch/x86/mm/Makefile", "");
	tree_add(&t, "arch/x86/crypto/Makefile", "");
	tree_add(&t, "arch/x86/platform/Makefile", "");
	tree_add(&t, "arch/x86/net/Makefile", "");
	tree_add(&t, "arch/x86/realmode/Makefile", "");
	tree_add_data(&t, "arch/x86/realmode/Makefile", "arch_x86_realmode_Makefile");
	tree_add_data(&t, "arch/x86/realmode/rm/Makefile", "arch_x86_realmode_rm_Makefile");
	tree_touch(&t, "arch/x86/realmode/rm/trampoline_64.S arch/x86/realmode/rm/wakemain.c");
	tree_add(&t, "drivers/Makefile", "obj-y += firmware/ base/\n");
	tree_add(&t, "drivers/firmware/Makefile", "obj-$(CONFIG_EFI_STUB) += efi/libstub/\n");
	tree_add_data(&t, "drivers/firmware/efi/libstub/Makefile",
		      "drivers_firmware_efi_libstub_Makefile");
	tree_touch(&t, "drivers/firmware/efi/libstub/x86-stub.c lib/cmdline.c");
	tree_add(&t, "drivers/base/Makefile", "obj-y += firmware_loader/builtin/\n");
	tree_add_data(&t, "drivers/base/firmware_loader/builtin/Makefile",
		      "drivers_base_firmware_loader_builtin_Makefile");
	tree_add(&t, "arch/x86/Makefile", "BITS := 64\nexport BITS\n");
	r = eval(&t,
		 "CONFIG_MODULES=y\nCONFIG_EXT4_FS=m\nCONFIG_EXT4_FS_POSIX_ACL=y\n"
		 "CONFIG_EXT4_KUNIT_TESTS=m\nCONFIG_ZSTD_COMMON=y\nCONFIG_ZSTD_DECOMPRESS=m\n"
		 "CONFIG_POSIX_TIMERS=y\nCONFIG_GENERIC_CLOCKEVENTS=y\nCONFIG_TICK_ONESHOT=y\n"
		 "CONFIG_HYPERV=m\nCONFIG_ACPI_SLEEP=y\nCONFIG_X86=y\nCONFIG_X86_64=y\n"
		 "CONFIG_EFI_STUB=y\nCONFIG_EXTRA_FIRMWARE=\"\"\n");
	/* fs/ext4: composite ext4.o and ext4-inode-test.o */
	CHECK(has_obj(r, "fs/ext4/super.o"));
	CHECK(has_obj(r, "fs/ext4/xattr_user.o"));
	CHECK(has_obj(r, "fs/ext4/acl.o"));
	CHECK(!has_obj(r, "fs/ext4/verity.o"));
	CHECK(!has_obj(r, "fs/ext4/ext4.o"));
	CHECK(has_obj(r, "fs/ext4/inode-test.o"));
	CHECK(has_src(r, "fs/ext4/super.c"));
	CHECK(!has_src(r, "fs/ext4/verity.c"));
	/* lib/zstd: continuation lines to the end of the file */
	CHECK(has_obj(r, "lib/zstd/common/zstd_common.o"));
	CHECK(has_obj(r, "lib/zstd/decompress/zstd_decompress_block.o"));
	CHECK(!has_obj(r, "lib/zstd/zstd_compress.o"));
	/* kernel/time: ifeq/else */
	CHECK(has_obj(r, "kernel/time/posix-timers.o"));
	CHECK(!has_obj(r, "kernel/time/posix-stubs.o"));
	CHECK(has_obj(r, "kernel/time/tick-sched.o"));
	CHECK(!has_obj(r, "kernel/time/tick-broadcast.o"));
	/* arch/x86/Kbuild: $(subst m,y,$(CONFIG_HYPERV)) */
	CHECK(has_obj(r, "arch/x86/hyperv/hv_init.o"));
	/* realmode: recipe recursion into rm/, targets, $(BITS) from the arch Makefile */
	CHECK(has_obj(r, "arch/x86/realmode/init.o"));
	CHECK(has_obj(r, "arch/x86/realmode/rm/trampoline_64.o"));
	CHECK(has_src(r, "arch/x86/realmode/rm/trampoline_64.S"));
	CHECK(has_obj(r, "arch/x86/realmode/rm/wakemain.o"));
	CHECK(has_src(r, "arch/x86/realmode/rm/wakemain.c"));
	/* libstub: lib-y, extra-y := $(lib-y), the .stub.o copies and lib-%.o */
	CHECK(has_obj(r, "drivers/firmware/efi/libstub/x86-stub.o"));
	CHECK(has_src(r, "drivers/firmware/efi/libstub/x86-stub.c"));
	CHECK(has_obj(r, "drivers/firmware/efi/libstub/x86-stub.stub.o"));
	CHECK(has_src(r, "lib/cmdline.c"));
	/* firmware_loader/builtin: an empty CONFIG_EXTRA_FIRMWARE, and a $(shell) */
	CHECK(has_obj(r, "drivers/base/firmware_loader/builtin/main.o"));
	CHECK(!has_obj(r, "drivers/base/firmware_loader/builtin/.gen.o"));
	CHECK_WARN(r, "drivers/base/firmware_loader/builtin/Makefile", 41,
			  "$(shell find $(obj)");
	if (td_kbuild_warning_count(r) != 1)
		dump(r);
	CHECK_INT(td_kbuild_warning_count(r), 1);
	td_kbuild_result_free(r);
	tree_release(&t);
}

int main(void)
{
	test_parse_statements();
	test_parse_edge_cases();
	test_obj_config();
	test_composite();
	test_subdirs();
	test_lib_and_targets();
	test_conditionals();
	test_assignments();
	test_functions();
	test_include();
	test_unknown_constructs();
	test_hostile();
	test_arch_makefile();
	test_fallback_roots();
	test_outside_kbuild();
	test_rules_and_recipes();
	test_is_built();
	test_included_sources();
	test_included_under_if();
	test_errors();
	test_real_snippets();
	return check_finish();
}
