/* .config parsing. */
#include <string.h>

#include "treedrift/kconfig.h"
#include "check.h"

static td_kconfig_t *parse(const char *text, int *rc, td_error_t *err)
{
	td_kconfig_t *cfg = NULL;

	*rc = td_kconfig_parse(&cfg, text, strlen(text), err);
	return cfg;
}

static int count_fn(void *ctx, const char *name, const char *value)
{
	(void)name;
	(void)value;
	(*(int *)ctx)++;
	return 0;
}

static void test_values(void)
{
	static const char text[] =
		"#\n"
		"# Automatically generated file; DO NOT EDIT.\n"
		"#\n"
		"CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n"
		"CONFIG_SMP=y\n"
		"CONFIG_EXT4_FS=m\n"
		"CONFIG_NO=n\n"
		"# CONFIG_DEBUG_FS is not set\n"
		"CONFIG_HZ=250\n"
		"CONFIG_NEG=-5\n"
		"CONFIG_PHYS=0x1000000\n"
		"CONFIG_EMPTY=\"\"\n"
		"CONFIG_ESC=\"a \\\"b\\\" c\"\n"
		"\n"
		"   \t\n"
		"CONFIG_CRLF=y\r\n"
		"CONFIG_SMP=m\n"; /* the last one wins */
	td_error_t err = { 0 };
	int rc, n = 0;
	td_kconfig_t *cfg = parse(text, &rc, &err);

	CHECK_INT(rc, 0);
	CHECK(cfg != NULL);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_SMP"), 'm');
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_EXT4_FS"), 'm');
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_NO"), 0);
	CHECK(td_kconfig_value(cfg, "CONFIG_NO") == NULL);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_DEBUG_FS"), 0);
	CHECK(td_kconfig_value(cfg, "CONFIG_DEBUG_FS") == NULL);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_MISSING"), 0);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_HZ"), 0);
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_HZ"), "250");
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_NEG"), "-5");
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_PHYS"), "0x1000000");
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_EMPTY"), "\"\"");
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_ESC"), "\"a \\\"b\\\" c\"");
	CHECK_STR(td_kconfig_value(cfg, "CONFIG_CC_VERSION_TEXT"), "\"gcc (Debian 12.2.0-14) 12.2.0\"");
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_CRLF"), 'y');
	CHECK_INT(td_kconfig_tristate(cfg, "SMP"), 0); /* the prefix is part of the name */
	CHECK_INT(td_kconfig_count(cfg), 9);
	CHECK_INT(td_kconfig_foreach(cfg, count_fn, &n), 0);
	CHECK_INT(n, 9);
	td_kconfig_free(cfg);
}

static void test_set(void)
{
	td_kconfig_t *cfg = NULL;

	CHECK_INT(td_kconfig_new(&cfg), 0);
	CHECK_INT(td_kconfig_set(cfg, "CONFIG_A", "y"), 0);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_A"), 'y');
	CHECK_INT(td_kconfig_set(cfg, "CONFIG_A", "n"), 0);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_A"), 0);
	CHECK_INT(td_kconfig_count(cfg), 0);
	CHECK_INT(td_kconfig_set(cfg, "CONFIG_B", "m"), 0);
	CHECK_INT(td_kconfig_set(cfg, "CONFIG_B", NULL), 0);
	CHECK(td_kconfig_value(cfg, "CONFIG_B") == NULL);
	CHECK_INT(td_kconfig_set(cfg, "", "y"), TD_EINVAL);
	td_kconfig_free(cfg);
	td_kconfig_free(NULL);
}

static void expect_error(const char *text, const char *msg_part)
{
	td_error_t err = { 0 };
	int rc;
	td_kconfig_t *cfg = parse(text, &rc, &err);

	CHECK_INT(rc, TD_EFORMAT);
	CHECK(cfg == NULL);
	if (!strstr(err.msg, msg_part))
		fprintf(stderr, "error text '%s' lacks '%s'\n", err.msg, msg_part);
	CHECK(strstr(err.msg, msg_part) != NULL);
}

static void test_errors(void)
{
	expect_error("CONFIG_A=y\nCONFIG_B\n", "line 2");
	expect_error("CONFIG_A=y\n\n# c\nFOO=y\n", "line 4");
	expect_error("CONFIG_A=yes\n", "line 1: malformed value for 'CONFIG_A'");
	expect_error("CONFIG_A=\n", "line 1");
	expect_error("CONFIG_A=\"open\n", "line 1");
	expect_error("CONFIG_A=\"a\"b\"\n", "line 1");
	expect_error("CONFIG_A=0xZZ\n", "line 1");
	expect_error("CONFIG_A=12a\n", "line 1");
	expect_error("CONFIG_=y\n", "line 1");
	expect_error("CONFIG_A = y\n", "line 1");
	{
		static const char nul[] = "CONFIG_A=y\nCONFIG_B=y\0\n";
		td_kconfig_t *cfg = NULL;
		td_error_t err = { 0 };
		CHECK_INT(td_kconfig_parse(&cfg, nul, sizeof(nul) - 1, &err), TD_EFORMAT);
		CHECK(cfg == NULL);
		CHECK(strstr(err.msg, "line 2") != NULL);
	}
}

static void test_comments(void)
{
	td_error_t err = { 0 };
	int rc;
	/* comments that merely look like "is not set" lines are just comments */
	td_kconfig_t *cfg = parse("# CONFIG_A is not set at all\n#CONFIG_B=y\n  # x\n", &rc, &err);

	CHECK_INT(rc, 0);
	CHECK_INT(td_kconfig_count(cfg), 0);
	td_kconfig_free(cfg);
	cfg = parse("", &rc, &err);
	CHECK_INT(rc, 0);
	CHECK_INT(td_kconfig_count(cfg), 0);
	td_kconfig_free(cfg);
	cfg = parse("CONFIG_LAST=y", &rc, &err); /* no final newline */
	CHECK_INT(rc, 0);
	CHECK_INT(td_kconfig_tristate(cfg, "CONFIG_LAST"), 'y');
	td_kconfig_free(cfg);
}

int main(void)
{
	test_values();
	test_set();
	test_errors();
	test_comments();
	return check_finish();
}
