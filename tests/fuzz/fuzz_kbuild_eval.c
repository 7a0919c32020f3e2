/* libFuzzer target: the whole Kbuild evaluator on a small tree held in
 * memory. The input is split at NUL bytes into the tree's files, in this
 * order: Kbuild, arch/x86/Makefile, sub/Makefile, sub/a/Makefile, .config
 * (the configuration the evaluation uses). Files that are not given do not
 * exist, except sub/x.c and sub/a/y.c, which always do. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treedrift/kbuild.h"
#include "treedrift/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "Kbuild", "arch/x86/Makefile", "sub/Makefile", "sub/a/Makefile" };
#define NFILES (sizeof(names) / sizeof(names[0]))

typedef struct {
	const char *text[NFILES + 1];
	size_t len[NFILES + 1];
	int have[NFILES + 1];
} tree_t;

static int tree_read(void *ctx, const char *path, char **data_out, size_t *len_out)
{
	tree_t *t = ctx;

	for (size_t i = 0; i < NFILES; i++) {
		if (strcmp(path, names[i]) || !t->have[i])
			continue;
		if (!(*data_out = malloc(t->len[i] + 1)))
			return TD_ENOMEM;
		memcpy(*data_out, t->text[i], t->len[i]);
		(*data_out)[t->len[i]] = '\0';
		*len_out = t->len[i];
		return 0;
	}
	return TD_ENOTFOUND;
}

static int tree_exists(void *ctx, const char *path)
{
	tree_t *t = ctx;

	if (!strcmp(path, "sub/x.c") || !strcmp(path, "sub/a/y.c"))
		return 1;
	for (size_t i = 0; i < NFILES; i++)
		if (!strcmp(path, names[i]))
			return t->have[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tree_t t;
	td_kbuild_io_t io = { &t, tree_read, tree_exists };
	td_kconfig_t *cfg = NULL;
	td_kbuild_result_t *r = NULL;
	td_error_t err;
	size_t off = 0;

	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i <= NFILES && off <= size; i++) {
		const uint8_t *nul = memchr(data + off, 0, size - off);
		size_t n = nul ? (size_t)(nul - (data + off)) : size - off;

		t.text[i] = (const char *)data + off;
		t.len[i] = n;
		t.have[i] = 1;
		off += n + 1;
		if (!nul)
			break;
	}
	if (t.have[NFILES]) {
		if (td_kconfig_parse(&cfg, t.text[NFILES], t.len[NFILES], &err))
			cfg = NULL;
	}
	if (!td_kbuild_eval(&r, cfg, "x86_64", &io, &err)) {
		for (size_t i = 0; i < td_kbuild_source_count(r); i++)
			td_kbuild_is_built(r, td_kbuild_source(r, i), strlen(td_kbuild_source(r, i)));
		for (size_t i = 0; i < td_kbuild_warning_count(r); i++)
			if (!td_kbuild_warning(r, i)->msg)
				abort();
		td_kbuild_result_free(r);
	}
	td_kconfig_free(cfg);
	return 0;
}
