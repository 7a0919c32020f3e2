/* Preprocessor conditionals under a .config: which lines a build with it
 * compiles, and "cannot tell" (counted as compiled) for anything the
 * configuration alone does not decide. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kbuild_cpp.h"
#include "treedrift/kconfig.h"

/* Feed text line by line; return a string with, for each line that is not
 * a directive, '1' when live and '0' when ruled out. */
static const char *live_map(const td_kconfig_t *cfg, const char *text)
{
	static char out[256];
	size_t n = 0;
	kb_cpp_t c;

	kb_cpp_init(&c, cfg);
	for (const char *s = text; *s && n + 1 < sizeof(out);) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		const char *p = s;

		kb_cpp_line(&c, s, len);
		while (p < s + len && (*p == ' ' || *p == '\t'))
			p++;
		if (p < s + len && *p != '#')
			out[n++] = kb_cpp_live(&c) ? '1' : '0';
		s += len + (nl != NULL);
	}
	out[n] = '\0';
	return out;
}

int main(void)
{
	td_kconfig_t *cfg = NULL;
	static const char cfg_text[] = "CONFIG_Y=y\nCONFIG_M=m\nCONFIG_HZ=250\nCONFIG_ZERO=0\n"
				       "CONFIG_S=\"lz4\"\n# CONFIG_N is not set\n";

	CHECK_INT(td_kconfig_parse(&cfg, cfg_text, strlen(cfg_text), NULL), 0);

	/* IS_ENABLED and friends; #else and #elif after a known branch. */
	CHECK_STR(live_map(cfg, "a\n#if IS_ENABLED(CONFIG_N)\nb\n#else\nc\n#endif\nd\n"), "1011");
	CHECK_STR(live_map(cfg, "#if IS_ENABLED(CONFIG_M)\na\n#endif\n#if IS_BUILTIN(CONFIG_M)\nb\n#endif\n"
			   "#if IS_MODULE(CONFIG_M)\nc\n#endif\n#if IS_BUILTIN(CONFIG_Y)\nd\n#endif\n"), "1011");
	CHECK_STR(live_map(cfg, "#if IS_ENABLED(CONFIG_N)\na\n#elif IS_ENABLED(CONFIG_Y)\nb\n#elif 1\nc\n"
			   "#else\nd\n#endif\n"), "0100");
	/* #ifdef: a module defines CONFIG_X_MODULE, not CONFIG_X. */
	CHECK_STR(live_map(cfg, "#ifdef CONFIG_Y\na\n#endif\n#ifdef CONFIG_M\nb\n#endif\n"
			   "#ifdef CONFIG_M_MODULE\nc\n#endif\n#ifndef CONFIG_N\nd\n#endif\n"), "1011");
	/* Bare names, values, defined, !, &&, ||, parentheses, comments. */
	CHECK_STR(live_map(cfg, "#if CONFIG_HZ\na\n#endif\n#if CONFIG_ZERO || CONFIG_M\nb\n#endif\n"
			   "#if defined(CONFIG_Y) && !defined CONFIG_N\nc\n#endif\n"
			   "#if !(CONFIG_Y && (CONFIG_N || 0)) /* note */\nd\n#endif\n"), "1011");
	/* Nesting: an inner true branch of an outer false one stays out. */
	CHECK_STR(live_map(cfg, "#if 0\n#if CONFIG_Y\na\n#else\nb\n#endif\nc\n#endif\nd\n"), "0001");
	/* Undecidable: another macro, a comparison, a string, a continued
	 * line; && with false and || with true are decided all the same. */
	CHECK_STR(live_map(cfg, "#ifdef __KERNEL__\na\n#else\nb\n#endif\n#if CONFIG_HZ > 100\nc\n#endif\n"
			   "#if CONFIG_S\nd\n#endif\n#if CONFIG_Y && \\\n CONFIG_N\ne\n#endif\n"), "111111");
	CHECK_STR(live_map(cfg, "#if FOO && CONFIG_N\na\n#endif\n#if FOO || CONFIG_Y\nb\n#endif\n"
			   "#if FOO\nc\n#elif CONFIG_Y\nd\n#else\ne\n#endif\n"), "01111");
	/* After an undecided branch, a later one may still be taken. */
	CHECK_STR(live_map(cfg, "#ifdef FOO\na\n#elif IS_ENABLED(CONFIG_N)\nb\n#endif\n"), "10");
	/* Block comments hide directives, wherever they open and close;
	 * quotes and line comments do not open one. */
	CHECK_STR(live_map(cfg, "/*\n#if 0\n*/\na\n"), "111");
	CHECK_STR(live_map(cfg, "#if 0 /* open\n#endif\n*/\na\n#endif\nb\n"), "001");
	CHECK_STR(live_map(cfg, "/* x\n*/ #if 0\na\n#endif\nb\n"), "1001");
	CHECK_STR(live_map(cfg, "s = \"/*\"; c = '/'; /* one */ /**/\n#if 0\na\n#endif\nb\n"), "101");
	CHECK_STR(live_map(cfg, "// /* not a block\n#error don't /*\n#if 0\na\n#endif\nb\n"), "101");
	/* No configuration: nothing is decided. */
	CHECK_STR(live_map(NULL, "#if IS_ENABLED(CONFIG_N)\na\n#else\nb\n#endif\n#if 0\nc\n#endif\n"), "111");
	/* Stray #endif and deep nesting do not break the state. */
	{
		char deep[4096];
		size_t n = 0;
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "#endif\n#if 0\n");
		for (int i = 0; i < KB_CPP_MAX_DEPTH + 10; i++)
			n += (size_t)snprintf(deep + n, sizeof(deep) - n, "#if 1\n");
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "a\n");
		for (int i = 0; i < KB_CPP_MAX_DEPTH + 10; i++)
			n += (size_t)snprintf(deep + n, sizeof(deep) - n, "#endif\n");
		snprintf(deep + n, sizeof(deep) - n, "b\n#endif\nc\n");
		CHECK_STR(live_map(cfg, deep), "001");
	}
	td_kconfig_free(cfg);
	return check_finish();
}
