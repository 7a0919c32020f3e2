/* The kernel stages around compare (lib/annotate.c) on a small generated
 * kernel-like tree (tests/data/kernel/make_trees.sh): the arch and built-only
 * filters, the Kbuild evaluation of a loaded directory and git tree, the
 * annotation of a result with build status and policy, and the totals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "shell_fixture.h"
#include "tree_fixture.h"
#include "treedrift/annotate.h"
#include "treedrift/compare.h"
#include "treedrift/load.h"
#include "treedrift/policy.h"

static char tmp[4096];

static const char *path_in(const char *rel)
{
	static char buf[4][4200];
	static int n;
	char *b = buf[n++ % 4];

	snprintf(b, sizeof(buf[0]), "%s/%s", tmp, rel);
	return b;
}

static td_tree_t *load(const char *spec)
{
	td_tree_t *t = NULL;
	td_error_t err = { 0 };

	if (td_load_tree(&t, spec, NULL, NULL, NULL, &err))
		fprintf(stderr, "load '%s': %s\n", spec, err.msg);
	return t;
}

static td_kconfig_t *config(void)
{
	td_kconfig_t *cfg = NULL;
	td_error_t err = { 0 };
	size_t len;
	char *text = slurp(path_in("x86.config"), &len);

	CHECK(text != NULL);
	if (!text)
		return NULL;
	CHECK_STR(td_kconfig_guess_arch(text, len), "x86");
	if (td_kconfig_parse(&cfg, text, len, &err))
		fprintf(stderr, "config: %s\n", err.msg);
	free(text);
	return cfg;
}

static int built(const td_kbuild_result_t *kb, const char *path)
{
	return td_annotate_built(kb, path, strlen(path));
}

static void expect_built(const td_kbuild_result_t *kb, const char *path, int want)
{
	int got = built(kb, path);

	CHECK_INT(got, want);
	if (got != want)
		fprintf(stderr, "  for '%s'\n", path);
}

static void check_built_set(const td_kbuild_result_t *kb)
{
	static const char *const yes[] = {
		"init/main.c", "kernel/fork.c", "kernel/sched/core.c", "kernel/foo.c",
		"kernel/bar_core.c", "kernel/bar_util.c", "kernel/baz_a.c", "kernel/tests/t.c",
		"arch/x86/kernel/setup.c", "arch/x86/kernel/smp.c", "drivers/net/eth.c",
	};
	static const char *const no[] = {
		"kernel/bar_extra.c", "drivers/gpu/gpu.c", "arch/mips/kernel/setup.c",
		"arch/arm64/kernel/setup.c", "kernel/old.c", "kernel/nothing.S",
	};
	static const char *const support[] = {
		"include/linux/sched.h", "kernel/Makefile", "Kbuild", "Documentation/sched.rst",
	};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		expect_built(kb, yes[i], TD_KBUILD_BUILT);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		expect_built(kb, no[i], TD_KBUILD_NOT_BUILT);
	for (size_t i = 0; i < sizeof(support) / sizeof(support[0]); i++)
		expect_built(kb, support[i], TD_KBUILD_SUPPORT);
	CHECK_INT(td_kbuild_source_count(kb), sizeof(yes) / sizeof(yes[0]));
	/* drivers/Makefile's $(shell ...) is reported, not guessed. */
	CHECK(td_kbuild_warning_total(kb) >= 1);
	if (td_kbuild_warning_count(kb))
		CHECK_STR(td_kbuild_warning(kb, 0)->file, "drivers/Makefile");
}

static void test_arch_filter(void)
{
	td_tree_t *t = load(path_in("tgt"));
	uint64_t dropped = 99;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_INT(td_tree_drop_arch(t, "x86_64", &dropped), 0);
	/* arch/arm64 (3 build files and the added setup.c), arch/mips (5) */
	CHECK_INT(dropped, 9);
	for (size_t i = 0; i < t->count; i++)
		CHECK(strncmp(t->files[i].path, "arch/", 5) || !strncmp(t->files[i].path, "arch/x86/", 9));
	CHECK(td_tree_find(t, "arch/x86/kernel/smp.c", 21) != NULL);
	CHECK(td_tree_find(t, "kernel/fork.c", 13) != NULL);
	for (size_t i = 1; i < t->count; i++)
		CHECK(strcmp(t->files[i - 1].path, t->files[i].path) < 0);
	CHECK_INT(td_tree_drop_arch(t, NULL, NULL), TD_EINVAL);
	td_tree_free(t);
}

static void test_looks_like_linux(void)
{
	td_tree_t *t = load(path_in("tgt"));

	CHECK(t && td_tree_looks_like_linux(t));
	td_tree_free(t);
	t = load(path_in("tgt/kernel"));
	CHECK(t && !td_tree_looks_like_linux(t));
	td_tree_free(t);
	CHECK(!td_tree_looks_like_linux(NULL));
}

static void test_guess_arch(void)
{
	static const char arm[] = "#\n# Linux/arm64 6.1.192 Kernel Configuration\n#\nCONFIG_A=y\n";
	static const char none[] = "CONFIG_A=y\n";
	static const char odd[] = "# Linux/vax 1.0 Kernel Configuration\n";

	CHECK_STR(td_kconfig_guess_arch(arm, sizeof(arm) - 1), "arm64");
	CHECK(td_kconfig_guess_arch(none, sizeof(none) - 1) == NULL);
	CHECK(td_kconfig_guess_arch(odd, sizeof(odd) - 1) == NULL);
	CHECK(td_kconfig_guess_arch("", 0) == NULL);
}

static void test_compare_annotated(const td_kconfig_t *cfg)
{
	td_tree_t *up = load(path_in("up")), *tgt = load(path_in("tgt"));
	td_kbuild_result_t *kb = NULL;
	td_result_t *r = NULL;
	td_policy_t *pol = NULL;
	td_annotate_opts_t ao;
	td_error_t err = { 0 };
	const td_change_t *c;
	uint64_t dropped;

	CHECK(up && tgt && cfg);
	if (!up || !tgt || !cfg)
		goto out;
	CHECK_INT(td_kbuild_eval_tree(&kb, tgt, path_in("tgt"), NULL, cfg, "x86", &err), 0);
	if (!kb) {
		fprintf(stderr, "eval: %s\n", err.msg);
		goto out;
	}
	check_built_set(kb);
	CHECK_INT(td_tree_drop_arch(up, "x86", &dropped), 0);
	CHECK_INT(dropped, 8);
	CHECK_INT(td_tree_drop_arch(tgt, "x86", &dropped), 0);
	CHECK_INT(dropped, 9);
	CHECK_INT(td_compare(&r, up, tgt, NULL, &err), 0);
	up = tgt = NULL;
	if (!r)
		goto out;
	CHECK_INT(td_policy_default_linux(&pol, &err), 0);
	td_annotate_opts_init(&ao);
	ao.kbuild = kb;
	ao.policy = pol;
	CHECK_INT(td_annotate(r, &ao, &err), 0);

	/* removed: kernel/old.c, not built (the target's Makefile dropped it);
	 * modified: sched/core.c fork.c bar_extra.c gpu.c eth.c smp.c sched.h
	 * kernel/Makefile sched.rst */
	CHECK_INT(r->totals.removed, 1);
	CHECK_INT(r->totals.modified, 9);
	CHECK_INT(r->totals.added, 0);
	CHECK((c = fx_change(r, "kernel/sched/core.c")) && c->built == 1 && c->cls == TD_CLASS_DIRTY);
	CHECK(c && c->policy_class && !strcmp(c->policy_class, "core") && c->weight == 3.0);
	CHECK(c && c->risk == 3.0 * c->distance);
	CHECK((c = fx_change(r, "kernel/bar_extra.c")) && c->built == 0);
	CHECK((c = fx_change(r, "drivers/gpu/gpu.c")) && c->built == 0 && !strcmp(c->policy_class, "driver"));
	CHECK((c = fx_change(r, "include/linux/sched.h")) && c->built == 2);
	CHECK((c = fx_change(r, "kernel/Makefile")) && c->built == 2 && !strcmp(c->policy_class, "build"));
	CHECK((c = fx_change(r, "kernel/old.c")) && c->built == 0 && c->status == TD_STATUS_REMOVED);
	CHECK((c = fx_change(r, "Documentation/sched.rst")) && c->weight == 0.1);
	CHECK(fx_change(r, "arch/mips/kernel/setup.c") == NULL);

	/* built: core.c fork.c eth.c smp.c; not built: bar_extra.c gpu.c old.c;
	 * support: sched.h Makefile sched.rst */
	CHECK_INT(r->totals.by_built[1].files, 4);
	CHECK_INT(r->totals.by_built[0].files, 3);
	CHECK_INT(r->totals.by_built[2].files, 3);
	CHECK_INT(r->totals.by_built[0].files + r->totals.by_built[1].files +
		  r->totals.by_built[2].files, r->totals.mismatched);
	CHECK_INT(r->totals.by_built[0].distance + r->totals.by_built[1].distance +
		  r->totals.by_built[2].distance, r->totals.total_distance);
	{
		double sum = r->totals.by_built[0].risk + r->totals.by_built[1].risk +
			     r->totals.by_built[2].risk;
		CHECK(sum > r->totals.total_risk - 1e-6 && sum < r->totals.total_risk + 1e-6);
	}

	/* Without a policy or config, nothing is set. */
	td_annotate_opts_init(&ao);
	CHECK_INT(td_annotate(NULL, &ao, &err), TD_EINVAL);
out:
	td_result_free(r);
	td_tree_free(up);
	td_tree_free(tgt);
	td_kbuild_result_free(kb);
	td_policy_free(pol);
}

static void test_built_only(const td_kconfig_t *cfg)
{
	td_tree_t *tgt = load(path_in("tgt"));
	td_kbuild_result_t *kb = NULL;
	td_error_t err = { 0 };
	uint64_t dropped = 0;

	if (!tgt || !cfg)
		goto out;
	CHECK_INT(td_kbuild_eval_tree(&kb, tgt, path_in("tgt"), NULL, cfg, "x86", &err), 0);
	if (!kb)
		goto out;
	CHECK_INT(td_tree_drop_not_built(tgt, kb, &dropped), 0);
	/* bar_extra.c gpu.c, arm64's setup.c, mips' setup.c and smp.c */
	CHECK_INT(dropped, 5);
	CHECK(td_tree_find(tgt, "drivers/gpu/gpu.c", 17) == NULL);
	CHECK(td_tree_find(tgt, "drivers/gpu/Makefile", 20) != NULL);
	CHECK(td_tree_find(tgt, "kernel/fork.c", 13) != NULL);
out:
	td_kbuild_result_free(kb);
	td_tree_free(tgt);
}

static void test_sources(const td_kconfig_t *cfg)
{
	td_tree_t *t = NULL;
	td_kbuild_result_t *kb = NULL;
	td_error_t err = { 0 };
	char spec[4300];
	char cmd[9000];
	int rc;

	/* A git revision: the files come from the object database. */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/tgt' && git init -q && git add -A && git -c user.name=t -c user.email=t@t "
		 "commit -q -m t", tmp);
	if (sh(cmd) == 0) {
		snprintf(spec, sizeof(spec), "git:%s/tgt@HEAD", tmp);
		t = load(spec);
		CHECK(t != NULL);
		if (t && cfg) {
			CHECK_INT(td_kbuild_eval_tree(&kb, t, spec, NULL, cfg, "x86", &err), 0);
			if (kb)
				check_built_set(kb);
		}
		td_kbuild_result_free(kb);
		kb = NULL;
		td_tree_free(t);
		t = NULL;
	}
	/* An archive, with its single top folder stripped: read once for the
	 * files Kbuild reads. */
	snprintf(cmd, sizeof(cmd), "cd '%s' && tar czf tgt.tar.gz --exclude=.git tgt", tmp);
	if (sh(cmd) == 0) {
		t = load(path_in("tgt.tar.gz"));
		CHECK(t != NULL);
		if (t && cfg) {
			CHECK_INT(td_kbuild_eval_tree(&kb, t, path_in("tgt.tar.gz"), NULL, cfg, "x86", &err), 0);
			if (kb)
				check_built_set(kb);
		}
		td_kbuild_result_free(kb);
		kb = NULL;
		td_tree_free(t);
		t = NULL;
	}
	/* A database: refused with a clear message. */
	{
		td_tree_t *d = load(path_in("tgt"));
		CHECK(d != NULL);
		if (d && cfg) {
			/* Any file holding a database's header is a database spec. */
			FILE *f = fopen(path_in("fake.db"), "wb");
			if (f) {
				fputs("SQLite format 3", f);
				fputc(0, f);
				fclose(f);
			}
			rc = td_kbuild_eval_tree(&kb, d, path_in("fake.db"), NULL, cfg, "x86", &err);
			CHECK_INT(rc, TD_EUNSUPPORTED);
			CHECK(strstr(err.msg, "database") != NULL);
			CHECK(kb == NULL);
		}
		td_tree_free(d);
	}
}

int main(void)
{
	td_kconfig_t *cfg;
	char cmd[5000];

	check_tmpdir(tmp, sizeof(tmp), "annotate");
	snprintf(cmd, sizeof(cmd), "sh '%s/kernel/make_trees.sh' '%s'", TD_TEST_DATA, tmp);
	if (sh(cmd))
		return 1;
	cfg = config();
	test_arch_filter();
	test_looks_like_linux();
	test_guess_arch();
	test_compare_annotated(cfg);
	test_built_only(cfg);
	test_sources(cfg);
	td_kconfig_free(cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	sh(cmd);
	return check_finish();
}
