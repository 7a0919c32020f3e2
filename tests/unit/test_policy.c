/* Policies: the format, its errors (with line numbers), the longest-match
 * rule, the built-in Linux policy on real kernel paths, and applying a
 * policy to a result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "treedrift/policy.h"

static td_policy_t *parse_ok(const char *text)
{
	td_policy_t *p = NULL;
	td_error_t err = { 0 };
	int rc = td_policy_parse(&p, text, strlen(text), "t.policy", &err);

	CHECK_INT(rc, 0);
	if (rc)
		fprintf(stderr, "  unexpected error: %s\n", err.msg);
	return p;
}

/* Parse text that must fail with code and a message containing want. */
static void parse_fails(const char *text, int code, const char *want)
{
	td_policy_t *p = (td_policy_t *)1;
	td_error_t err = { 0 };
	int rc = td_policy_parse(&p, text, strlen(text), "t.policy", &err);

	CHECK_INT(rc, code);
	CHECK(p == NULL);
	CHECK_INT(err.code, code);
	if (!strstr(err.msg, want)) {
		CHECK(!"error message");
		fprintf(stderr, "  message '%s' lacks '%s'\n", err.msg, want);
	}
	td_policy_free(p);
}

static const char *class_of(const td_policy_t *p, const char *path)
{
	td_policy_match_t m;

	if (td_policy_lookup(&m, p, path, strlen(path)))
		return "(error)";
	return m.class_name;
}

static void test_format(void)
{
	td_policy_t *p = parse_ok(
		"\xef\xbb\xbf# a comment\r\n"
		"\n"
		"   # an indented comment\n"
		"[policy]\n"
		"name = test policy   # trailing comment\n"
		"[class core]\n"
		"weight = 3.0\n"
		"clean_below = 40      # per-class thresholds\n"
		"dirty_above = 120\n"
		"paths = kernel/ mm/\tinit/\n"
		"paths = include/linux/\n"
		"[ class  driver ]\r\n"
		"weight=0.5\n"
		"paths=drivers/ sound/\n"
		"[class odd]\n"
		"paths = a\\ b.c x#y \\#hash   # comment\n"
		"[class empty]\n");
	td_policy_match_t m;

	if (!p)
		return;
	CHECK_STR(td_policy_name(p), "test policy");
	CHECK_INT(td_policy_class_count(p), 4);
	CHECK_INT(td_policy_class_at(&m, p, 1), 0);
	CHECK_STR(m.class_name, "driver");
	CHECK(m.weight == 0.5);
	CHECK_INT(m.line, 12);
	CHECK_INT(td_policy_class_at(&m, p, 4), TD_EINVAL);

	CHECK_INT(td_policy_lookup(&m, p, "kernel/fork.c", 13), 0);
	CHECK_STR(m.class_name, "core");
	CHECK(m.weight == 3.0);
	CHECK_INT(m.has_thresholds, TD_POLICY_HAS_CLEAN_BELOW | TD_POLICY_HAS_DIRTY_ABOVE);
	CHECK_INT(m.thresholds.clean_below, 40);
	CHECK_INT(m.thresholds.dirty_above, 120);
	CHECK_STR(m.pattern, "kernel/");
	CHECK_INT(m.line, 10);
	CHECK_STR(class_of(p, "init/main.c"), "core");
	CHECK_STR(class_of(p, "include/linux/sched.h"), "core");
	CHECK_INT(td_policy_lookup(&m, p, "sound/core/pcm.c", 16), 0);
	CHECK_STR(m.class_name, "driver");
	CHECK_INT(m.has_thresholds, 0);
	CHECK_INT(m.line, 14);
	/* escapes: a blank inside a pattern, a '#' that is not a comment */
	CHECK_STR(class_of(p, "dir/a b.c"), "odd");
	CHECK_STR(class_of(p, "x#y"), "odd");
	CHECK_STR(class_of(p, "z/#hash"), "odd");
	CHECK_STR(class_of(p, "comment"), "other");
	/* unmatched: "other", weight 1, no thresholds */
	CHECK_INT(td_policy_lookup(&m, p, "fs/ext4/inode.c", 15), 0);
	CHECK_STR(m.class_name, TD_POLICY_OTHER);
	CHECK(m.weight == 1.0);
	CHECK_INT(m.has_thresholds, 0);
	CHECK(m.pattern == NULL);
	CHECK_INT(m.line, 0);
	CHECK_INT(td_policy_lookup(&m, NULL, "a", 1), TD_EINVAL);
	CHECK_INT(td_policy_lookup(NULL, p, "a", 1), TD_EINVAL);
	td_policy_free(p);

	/* an empty policy is valid: everything is "other" */
	p = parse_ok("");
	if (p) {
		CHECK_STR(class_of(p, "kernel/fork.c"), "other");
		CHECK(td_policy_name(p) == NULL);
		CHECK_INT(td_policy_class_count(p), 0);
	}
	td_policy_free(p);

	/* no final newline; weights in several spellings */
	p = parse_ok("[class a]\nweight = 0.25\npaths = a/\n[class b]\nweight = .5\npaths = b/\n"
		     "[class c]\nweight = 7.\npaths = c/\n[class d]\nweight = 1000\npaths = d/");
	if (p) {
		td_policy_match_t m2;

		td_policy_lookup(&m2, p, "a/x", 3);
		CHECK(m2.weight == 0.25);
		td_policy_lookup(&m2, p, "b/x", 3);
		CHECK(m2.weight == 0.5);
		td_policy_lookup(&m2, p, "c/x", 3);
		CHECK(m2.weight == 7.0);
		td_policy_lookup(&m2, p, "d/x", 3);
		CHECK(m2.weight == 1000.0);
	}
	td_policy_free(p);

	/* the text need not be NUL-terminated: len is its end */
	{
		const char text[] = "[class a]\npaths = a/\n[class b]\npaths = b/\n";
		td_policy_t *q = NULL;
		td_error_t err;

		CHECK_INT(td_policy_parse(&q, text, 21, "x", &err), 0);
		if (q) {
			CHECK_INT(td_policy_class_count(q), 1);
			CHECK_STR(class_of(q, "b/x"), "other");
		}
		td_policy_free(q);
	}
}

static void test_errors(void)
{
	parse_fails("weight = 1\n", TD_EINVAL, "t.policy:1: 'weight' outside a section");
	parse_fails("[class a]\n\nwieght = 1\n", TD_EINVAL, "t.policy:3: unknown key 'wieght' in class 'a'");
	parse_fails("[class a]\nweight = 1\nweight = 2\n", TD_EINVAL, "t.policy:3: 'weight' given twice");
	parse_fails("[class a]\nweight = heavy\n", TD_EINVAL, "t.policy:2: bad weight 'heavy'");
	parse_fails("[class a]\nweight = -1\n", TD_EINVAL, "t.policy:2: bad weight '-1'");
	parse_fails("[class a]\nweight = 1000.5\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight = 1e3\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight = 1,5\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight = .\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight = 0.1234567891\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight = 99999999999999999999\n", TD_EINVAL, "bad weight");
	parse_fails("[class a]\nweight =\n", TD_EINVAL, "t.policy:2: 'weight' needs a value");
	parse_fails("[class a]\nweight = 1 2\n", TD_EINVAL, "t.policy:2: 'weight' takes one value");
	parse_fails("[class a]\nclean_below = 4x\n", TD_EINVAL, "t.policy:2: bad clean_below '4x'");
	parse_fails("[class a]\ndirty_above = 1000001\n", TD_EINVAL, "bad dirty_above");
	parse_fails("[class a]\ndirty_above = -5\n", TD_EINVAL, "bad dirty_above");
	parse_fails("[class a]\nclean_below = 100\ndirty_above = 99\n", TD_EINVAL,
		    "t.policy:3: clean_below is above dirty_above in class 'a'");
	parse_fails("[class a]\ndirty_above = 10\nclean_below = 11\n", TD_EINVAL, "t.policy:3: clean_below is above");
	parse_fails("[class a]\npaths =\n", TD_EINVAL, "t.policy:2: 'paths' needs at least one pattern");
	parse_fails("[class a]\npaths = # only a comment\n", TD_EINVAL, "needs at least one pattern");
	parse_fails("[class a]\njust words\n", TD_EINVAL, "t.policy:2: expected 'key = value'");
	parse_fails("[class a]\n = 1\n", TD_EINVAL, "t.policy:2: missing key");
	parse_fails("[class a]\nmy key = 1\n", TD_EINVAL, "unknown key 'my key'");
	parse_fails("[class a\n", TD_EINVAL, "t.policy:1: unterminated section header");
	parse_fails("[klass a]\n", TD_EINVAL, "t.policy:1: unknown section '[klass a]'");
	parse_fails("[class]\n", TD_EINVAL, "t.policy:1: section [class] needs a name");
	parse_fails("[class a b]\n", TD_EINVAL, "t.policy:1: unexpected 'b'");
	parse_fails("[class a/b]\n", TD_EINVAL, "t.policy:1: bad class name 'a/b'");
	parse_fails("[class "
		    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]\n",
		    TD_EINVAL, "bad class name");
	parse_fails("[class a]\n[class b]\n\n[class a]\n", TD_EINVAL,
		    "t.policy:4: class 'a' already defined at line 1");
	parse_fails("[policy]\nname = x\n[policy]\n", TD_EINVAL, "t.policy:3: section [policy] already given at line 1");
	parse_fails("[policy]\nname = x\nname = y\n", TD_EINVAL, "t.policy:3: 'name' given twice");
	parse_fails("[policy]\nweight = 1\n", TD_EINVAL, "t.policy:2: unknown key 'weight' in [policy]");
	parse_fails("[policy]\nname =\n", TD_EINVAL, "t.policy:2: 'name' needs a value");
	parse_fails("[class a]\npaths = x/ y/\n[class b]\npaths = z/\npaths = x/\n", TD_EINVAL,
		    "t.policy:5: pattern 'x/' already given at line 2");
	parse_fails("[class a]\npaths = x/ x/\n", TD_EINVAL, "t.policy:2: pattern 'x/' already given at line 2");
	/* a NUL byte: the length says where the text ends, not the NUL */
	{
		static const char text[] = "[class a]\npaths = a\0b\n";
		td_policy_t *p = NULL;
		td_error_t err;

		CHECK_INT(td_policy_parse(&p, text, sizeof(text) - 1, "n", &err), TD_EINVAL);
		CHECK(strstr(err.msg, "n:2: NUL byte") != NULL);
		CHECK(p == NULL);
	}
	/* control bytes in a quoted excerpt do not reach the message */
	parse_fails("[class a]\nweight = \x1b[31m\n", TD_EINVAL, "bad weight '?[31m'");
}

static void test_limits(void)
{
	td_policy_t *p = NULL;
	td_error_t err;
	char *big;
	size_t n = 0, cap = 200000;

	/* larger than 1 MiB */
	big = malloc(TD_POLICY_MAX_BYTES + 2);
	if (!big)
		return;
	memset(big, '\n', TD_POLICY_MAX_BYTES + 1);
	CHECK_INT(td_policy_parse(&p, big, TD_POLICY_MAX_BYTES + 1, "big", &err), TD_ENOMEM);
	CHECK(strstr(err.msg, "larger than 1 MiB") != NULL);
	CHECK_INT(td_policy_parse(&p, big, TD_POLICY_MAX_BYTES, "big", &err), 0);
	td_policy_free(p);
	free(big);

	/* 10000 patterns are fine, 10001 are not */
	big = malloc(cap);
	if (!big)
		return;
	n += (size_t)snprintf(big + n, cap - n, "[class a]\n");
	for (int i = 0; i < TD_POLICY_MAX_RULES; i++)
		n += (size_t)snprintf(big + n, cap - n, "paths = d%d/\n", i);
	CHECK_INT(td_policy_parse(&p, big, n, "many", &err), 0);
	if (p) {
		CHECK_STR(class_of(p, "d9999/x.c"), "a");
		CHECK_STR(class_of(p, "d10000/x.c"), "other");
	}
	td_policy_free(p);
	n += (size_t)snprintf(big + n, cap - n, "paths = one-more/\n");
	CHECK_INT(td_policy_parse(&p, big, n, "many", &err), TD_ENOMEM);
	CHECK(strstr(err.msg, "many:10002: more than 10000 patterns") != NULL);
	free(big);

	/* a pattern of 4096 bytes is fine, 4097 is not */
	big = malloc(8192);
	if (!big)
		return;
	n = (size_t)snprintf(big, 8192, "[class a]\npaths = ");
	memset(big + n, 'x', 4096);
	n += 4096;
	CHECK_INT(td_policy_parse(&p, big, n, "long", &err), 0);
	td_policy_free(p);
	big[n++] = 'x';
	CHECK_INT(td_policy_parse(&p, big, n, "long", &err), TD_EINVAL);
	CHECK(strstr(err.msg, "long:2: pattern 'xxx") != NULL);
	CHECK(strstr(err.msg, "...' longer than 4096 bytes") != NULL);
	free(big);
}

static void test_longest_match(void)
{
	td_policy_t *p = parse_ok(
		"[class driver]\npaths = drivers/\n"
		"[class gpu]\npaths = drivers/gpu/drm/\n"
		"[class build]\npaths = Makefile\n"
		"[class deep-build]\npaths = **/Makefile\n"
		"[class c]\npaths = *.c\n"
		"[class tie1]\npaths = a/??\n"
		"[class tie2]\npaths = a/*x\n"
		"[class h]\npaths = include/*/\n"
		"[class any]\npaths = **\n");

	if (!p)
		return;
	CHECK_STR(class_of(p, "drivers/net/x.h"), "driver");
	CHECK_STR(class_of(p, "drivers/gpu/drm/i915/x.h"), "gpu");    /* 16 over 8 */
	CHECK_STR(class_of(p, "drivers/gpu/drm/Makefile"), "gpu");    /* 16 over 11 */
	CHECK_STR(class_of(p, "drivers/Makefile"), "deep-build");     /* 11 over 8 */
	CHECK_STR(class_of(p, "Makefile"), "deep-build");             /* 11 over 8 */
	CHECK_STR(class_of(p, "drivers/net/x.c"), "driver");          /* 8 over 3 */
	CHECK_STR(class_of(p, "fs/x.c"), "c");                        /* 3 over 2 */
	CHECK_STR(class_of(p, "a/xx"), "tie1");                       /* 4 and 4: the first */
	CHECK_STR(class_of(p, "a/yx"), "tie1");
	CHECK_STR(class_of(p, "a/yyx"), "tie2");
	CHECK_STR(class_of(p, "include/linux/x.h"), "h");
	CHECK_STR(class_of(p, "include/x.h"), "any");
	CHECK_STR(class_of(p, "README"), "any");
	td_policy_free(p);

	/* the same with the tie's classes the other way round */
	p = parse_ok("[class tie2]\npaths = a/*x\n[class tie1]\npaths = a/??\n");
	if (p)
		CHECK_STR(class_of(p, "a/xx"), "tie2");
	td_policy_free(p);

	/* "other" given a section: its weight for unmatched paths, and its own patterns */
	p = parse_ok("[class other]\nweight = 0.7\ndirty_above = 90\npaths = misc/\n[class x]\npaths = x/\n");
	if (p) {
		td_policy_match_t m;

		CHECK_INT(td_policy_lookup(&m, p, "zzz", 3), 0);
		CHECK_STR(m.class_name, "other");
		CHECK(m.weight == 0.7);
		CHECK_INT(m.has_thresholds, TD_POLICY_HAS_DIRTY_ABOVE);
		CHECK_INT(m.thresholds.dirty_above, 90);
		CHECK(m.pattern == NULL);
		CHECK_INT(td_policy_lookup(&m, p, "misc/a", 6), 0);
		CHECK_STR(m.class_name, "other");
		CHECK_STR(m.pattern, "misc/");
		CHECK_STR(class_of(p, "x/y"), "x");
	}
	td_policy_free(p);
}

static void test_thresholds(void)
{
	td_policy_match_t m;
	td_thresholds_t base = { 50, 200 }, t;

	memset(&m, 0, sizeof(m));
	td_policy_thresholds(&t, &m, &base);
	CHECK_INT(t.clean_below, 50);
	CHECK_INT(t.dirty_above, 200);
	m.has_thresholds = TD_POLICY_HAS_DIRTY_ABOVE;
	m.thresholds.clean_below = 1;
	m.thresholds.dirty_above = 90;
	td_policy_thresholds(&t, &m, &base);
	CHECK_INT(t.clean_below, 50);
	CHECK_INT(t.dirty_above, 90);
	m.has_thresholds = TD_POLICY_HAS_CLEAN_BELOW;
	td_policy_thresholds(&t, &m, &base);
	CHECK_INT(t.clean_below, 1);
	CHECK_INT(t.dirty_above, 200);
	m.has_thresholds = TD_POLICY_HAS_CLEAN_BELOW | TD_POLICY_HAS_DIRTY_ABOVE;
	td_policy_thresholds(&t, &m, &base);
	CHECK_INT(t.clean_below, 1);
	CHECK_INT(t.dirty_above, 90);
}

static void test_default_linux(void)
{
	static const struct {
		const char *path, *cls;
	} cases[] = {
		{ "kernel/sched/core.c", "core" },
		{ "kernel/fork.c", "core" },
		{ "mm/page_alloc.c", "core" },
		{ "init/main.c", "core" },
		{ "ipc/msg.c", "core" },
		{ "block/blk-core.c", "core" },
		{ "io_uring/io_uring.c", "core" },
		{ "lib/string.c", "core" },
		{ "security/selinux/hooks.c", "core" },
		{ "crypto/sha256_generic.c", "core" },
		{ "certs/system_keyring.c", "core" },
		{ "virt/kvm/kvm_main.c", "core" },
		{ "rust/kernel/lib.rs", "core" },
		{ "include/linux/sched.h", "core" },
		{ "include/uapi/linux/bpf.h", "core" },
		{ "include/asm-generic/io.h", "core" },
		{ "include/trace/events/sched.h", "core" },
		{ "arch/arm64/kernel/setup.c", "arch" },
		{ "arch/x86/kernel/cpu/common.c", "arch" },
		{ "arch/x86/lib/x86-opcode-map.txt", "arch" },
		{ "arch/arm64/include/asm/io.h", "arch" },
		{ "arch/arm64/boot/dts/qcom/sm8250.dtsi", "devicetree" },
		{ "arch/arm/boot/dts/imx6q.dtsi", "devicetree" },
		{ "include/dt-bindings/clock/qcom,gcc-sm8250.h", "devicetree" },
		{ "fs/ext4/inode.c", "fs" },
		{ "fs/namei.c", "fs" },
		{ "net/ipv4/tcp.c", "net" },
		{ "net/core/dev.c", "net" },
		{ "include/net/sock.h", "net" },
		{ "drivers/net/ethernet/intel/e1000/e1000_main.c", "driver" },
		{ "drivers/gpu/drm/drm_drv.c", "driver" },
		{ "drivers/base/core.c", "driver" },
		{ "sound/core/pcm.c", "driver" },
		{ "include/drm/drm_drv.h", "driver" },
		{ "include/sound/soc.h", "driver" },
		{ "include/media/v4l2-dev.h", "driver" },
		{ "Documentation/admin-guide/README.rst", "docs" },
		{ "Documentation/x.rst", "docs" },
		{ "Documentation/devicetree/bindings/x.yaml", "docs" },
		{ "Documentation/Makefile", "docs" },
		{ "tools/perf/Documentation/perf-record.txt", "docs" },
		{ "drivers/staging/most/Documentation/driver_usage.txt", "docs" },
		{ "LICENSES/preferred/GPL-2.0", "docs" },
		{ "COPYING", "docs" },
		{ "MAINTAINERS", "docs" },
		{ "README", "docs" },
		{ "drivers/staging/README", "docs" },
		{ "Makefile", "build" },
		{ "Kconfig", "build" },
		{ "Kbuild", "build" },
		{ "drivers/net/Makefile", "build" },
		{ "drivers/net/Kconfig", "build" },
		{ "kernel/Kconfig.preempt", "build" },
		{ "arch/arm64/Kconfig", "build" },
		{ "arch/x86/Makefile_32.cpu", "build" },
		{ "scripts/x", "build" },
		{ "scripts/Makefile.build", "build" },
		{ "scripts/kconfig/conf.c", "build" },
		{ "usr/gen_initramfs.sh", "build" },
		{ ".gitignore", "build" },
		{ "drivers/net/.gitignore", "build" },
		{ "tools/perf/builtin-record.c", "tools" },
		{ "tools/testing/selftests/bpf/test_progs.c", "tools" },
		{ "samples/bpf/xdp1_kern.c", "tools" },
		{ ".clang-format", "tools" },
		{ "somewhere/else.c", "other" },
		{ "kernelx/fork.c", "other" },
	};
	td_policy_t *p = NULL;
	td_error_t err;
	td_policy_match_t m;

	CHECK_INT(td_policy_default_linux(&p, &err), 0);
	if (!p) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK_STR(td_policy_name(p), "linux");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = class_of(p, cases[i].path);

		CHECK(!strcmp(got, cases[i].cls));
		if (strcmp(got, cases[i].cls))
			fprintf(stderr, "  '%s': class %s, want %s\n", cases[i].path, got, cases[i].cls);
	}
	/* the weights doc/policy.md documents */
	td_policy_lookup(&m, p, "kernel/fork.c", 13);
	CHECK(m.weight == 3.0);
	td_policy_lookup(&m, p, "arch/x/y", 8);
	CHECK(m.weight == 2.0);
	td_policy_lookup(&m, p, "fs/x", 4);
	CHECK(m.weight == 2.0);
	td_policy_lookup(&m, p, "net/x", 5);
	CHECK(m.weight == 2.0);
	td_policy_lookup(&m, p, "drivers/x", 9);
	CHECK(m.weight == 1.0);
	td_policy_lookup(&m, p, "Makefile", 8);
	CHECK(m.weight == 1.0);
	td_policy_lookup(&m, p, "Documentation/x", 15);
	CHECK(m.weight == 0.1);
	td_policy_lookup(&m, p, "tools/x", 7);
	CHECK(m.weight == 0.3);
	td_policy_lookup(&m, p, "arch/arm/boot/dts/x.dts", 23);
	CHECK(m.weight == 1.0);
	td_policy_free(p);
}

/* The built-in policy is doc/policy-linux.policy, byte for byte. The file is
 * found from this source file's own path, which CMake gives in full. */
static void test_default_is_doc(void)
{
	const char *self = __FILE__, *slash = strrchr(self, '/');
	char path[4096];
	size_t len = 0, doc_len;
	const char *text = td_policy_default_linux_text(&len);
	FILE *f;
	char *doc;
	td_policy_t *p = NULL;
	td_error_t err;

	snprintf(path, sizeof(path), "%.*s/../../doc/policy-linux.policy",
		 slash ? (int)(slash - self) : 1, slash ? self : ".");
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	doc = malloc(TD_POLICY_MAX_BYTES);
	doc_len = doc ? fread(doc, 1, TD_POLICY_MAX_BYTES, f) : 0;
	fclose(f);
	CHECK_INT(doc_len, len);
	CHECK(doc && !memcmp(doc, text, len));
	CHECK_INT(strlen(text), len);
	free(doc);
	/* and the file loads as it is */
	CHECK_INT(td_policy_load_file(&p, path, &err), 0);
	CHECK_STR(td_policy_name(p), "linux");
	td_policy_free(p);
}

static void test_load_file(void)
{
	char dir[] = "/tmp/td_policy_XXXXXX", path[64];
	td_policy_t *p = NULL;
	td_error_t err;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/x.policy", dir);

	CHECK_INT(td_policy_load_file(&p, path, &err), TD_ENOTFOUND);
	CHECK(strstr(err.msg, "unable to open '") && strstr(err.msg, "x.policy': No such file"));
	CHECK(p == NULL);

	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("[class a]\npaths = a/\nbogus\n", f);
		fclose(f);
	}
	CHECK_INT(td_policy_load_file(&p, path, &err), TD_EINVAL);
	CHECK(strstr(err.msg, "x.policy:3: expected 'key = value'") != NULL);

	f = fopen(path, "w");
	if (f) {
		fputs("[class a]\npaths = a/\n", f);
		fclose(f);
	}
	CHECK_INT(td_policy_load_file(&p, path, &err), 0);
	if (p)
		CHECK_STR(class_of(p, "a/b"), "a");
	td_policy_free(p);
	p = NULL;

	/* an empty file is an empty policy */
	f = fopen(path, "w");
	if (f)
		fclose(f);
	CHECK_INT(td_policy_load_file(&p, path, &err), 0);
	if (p)
		CHECK_INT(td_policy_class_count(p), 0);
	td_policy_free(p);
	p = NULL;

	/* exactly at the limit, then one byte over it */
	f = fopen(path, "w");
	if (f) {
		for (size_t i = 0; i < TD_POLICY_MAX_BYTES; i++)
			fputc('\n', f);
		fclose(f);
	}
	CHECK_INT(td_policy_load_file(&p, path, &err), 0);
	td_policy_free(p);
	p = NULL;
	f = fopen(path, "w");
	if (f) {
		for (size_t i = 0; i <= TD_POLICY_MAX_BYTES; i++)
			fputc('\n', f);
		fclose(f);
	}
	CHECK_INT(td_policy_load_file(&p, path, &err), TD_ENOMEM);
	CHECK(strstr(err.msg, "x.policy' is larger than 1048576 bytes") != NULL);
	CHECK(p == NULL);

	/* a directory: unreadable as a file */
	CHECK(td_policy_load_file(&p, dir, &err) < 0);
	CHECK(p == NULL);

	unlink(path);
	rmdir(dir);
}

static td_file_t file_at(const char *path)
{
	td_file_t f;

	memset(&f, 0, sizeof(f));
	f.path = (char *)path;
	f.path_len = strlen(path);
	f.type = TD_ENTRY_FILE;
	return f;
}

static void test_apply(void)
{
	td_policy_t *p = parse_ok(
		"[class core]\nweight = 3\nclean_below = 10\ndirty_above = 100\npaths = kernel/\n"
		"[class docs]\nweight = 0.1\ndirty_above = 250\npaths = Documentation/\n"
		"[class driver]\nweight = 0.5\npaths = drivers/\n");
	td_file_t up[4], tg[4];
	td_change_t ch[5];
	td_result_t r;

	if (!p)
		return;
	up[0] = file_at("Documentation/a.rst");
	tg[0] = file_at("Documentation/a.rst");
	tg[1] = file_at("drivers/new.c");
	up[2] = file_at("kernel/fork.c");
	tg[2] = file_at("kernel/fork.c");
	up[3] = file_at("kernel/gone.c");
	tg[3] = file_at("other.c");
	memset(ch, 0, sizeof(ch));
	memset(&r, 0, sizeof(r));
	/* modified docs file: 200 is dirty by default, safe under docs' 250 */
	ch[0] = (td_change_t){ .upstream = &up[0], .target = &tg[0], .status = TD_STATUS_MODIFIED,
			       .distance = 200, .cls = TD_CLASS_DIRTY };
	/* added driver: no class thresholds, the class stays */
	ch[1] = (td_change_t){ .target = &tg[1], .status = TD_STATUS_ADDED, .distance = 300,
			       .cls = TD_CLASS_DIRTY };
	/* modified core file: 120 is safe by default, dirty under core's 100 */
	ch[2] = (td_change_t){ .upstream = &up[2], .target = &tg[2], .status = TD_STATUS_MODIFIED,
			       .distance = 120, .cls = TD_CLASS_SAFE };
	/* removed core file: class by its upstream path, no score, no class */
	ch[3] = (td_change_t){ .upstream = &up[3], .status = TD_STATUS_REMOVED };
	/* identical file outside every class */
	ch[4] = (td_change_t){ .upstream = &tg[3], .target = &tg[3], .status = TD_STATUS_IDENTICAL };
	r.changes = ch;
	r.count = 5;
	r.thresholds.clean_below = TD_DEFAULT_CLEAN_BELOW;
	r.thresholds.dirty_above = TD_DEFAULT_DIRTY_ABOVE;

	CHECK_INT(td_policy_apply(p, &r), 0);
	CHECK_STR(ch[0].policy_class, "docs");
	CHECK(ch[0].weight == 0.1);
	CHECK(ch[0].risk > 19.999 && ch[0].risk < 20.001);
	CHECK_INT(ch[0].cls, TD_CLASS_SAFE);
	CHECK_STR(ch[1].policy_class, "driver");
	CHECK(ch[1].risk == 150.0);
	CHECK_INT(ch[1].cls, TD_CLASS_DIRTY);
	CHECK_STR(ch[2].policy_class, "core");
	CHECK(ch[2].risk == 360.0);
	CHECK_INT(ch[2].cls, TD_CLASS_DIRTY);
	CHECK_STR(ch[3].policy_class, "core");
	CHECK(ch[3].risk == 0.0);
	CHECK_INT(ch[3].cls, TD_CLASS_NONE);
	CHECK_STR(ch[4].policy_class, "other");
	CHECK(ch[4].weight == 1.0);
	CHECK_INT(ch[4].cls, TD_CLASS_NONE);
	/* the totals were recomputed */
	CHECK(r.totals.total_risk > 529.999 && r.totals.total_risk < 530.001);

	/* a class's threshold counts against the result's own, not the defaults */
	ch[0].cls = TD_CLASS_NONE;
	ch[0].distance = 55;
	r.thresholds.clean_below = 50;
	CHECK_INT(td_policy_apply(p, &r), 0);
	CHECK_INT(ch[0].cls, TD_CLASS_SAFE);
	r.thresholds.clean_below = 60;
	CHECK_INT(td_policy_apply(p, &r), 0);
	CHECK_INT(ch[0].cls, TD_CLASS_CLEAN);

	CHECK_INT(td_policy_apply(NULL, &r), TD_EINVAL);
	CHECK_INT(td_policy_apply(p, NULL), TD_EINVAL);
	/* an empty result is fine */
	r.changes = NULL;
	r.count = 0;
	CHECK_INT(td_policy_apply(p, &r), 0);
	td_policy_free(p);
}

int main(void)
{
	test_format();
	test_errors();
	test_limits();
	test_longest_match();
	test_thresholds();
	test_default_linux();
	test_default_is_doc();
	test_load_file();
	test_apply();
	return check_finish();
}
