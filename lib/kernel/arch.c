/* Architecture names and the arch/ path filter (see treedrift/arch.h). */
#include <string.h>

#include "treedrift/arch.h"
#include "internal.h"

/* The arch/ directories of linux-6.x (ia64 left in 6.7; kept for older trees). */
static const char *const arch_dirs[] = {
	"alpha", "arc", "arm", "arm64", "csky", "hexagon", "ia64", "loongarch",
	"m68k", "microblaze", "mips", "nios2", "openrisc", "parisc", "powerpc",
	"riscv", "s390", "sh", "sparc", "um", "x86", "xtensa",
};

struct arch_alias {
	const char *name;
	const char *dir;
};

/* Exact aliases: the top Makefile's SRCARCH rules, uname -m values and
 * Debian/GNU names. */
static const struct arch_alias exact_aliases[] = {
	{ "i386", "x86" }, { "x86_64", "x86" }, { "amd64", "x86" }, { "x32", "x86" },
	{ "aarch64", "arm64" }, { "sa110", "arm" },
	{ "s390x", "s390" }, { "sparc64", "sparc" }, { "sun4u", "sparc" },
	{ "parisc64", "parisc" }, { "hppa", "parisc" }, { "hppa64", "parisc" },
	{ "sh64", "sh" }, { "loong64", "loongarch" }, { "or1k", "openrisc" },
	{ "microblazeel", "microblaze" }, { "powerpc64", "powerpc" },
	{ "powerpc64le", "powerpc" }, { "ppc64el", "powerpc" },
};

/* Prefix aliases, in the order of the SUBARCH sed script (after the
 * directory names, so that "arm64" stays arm64 and "armv7l" is arm). */
static const struct arch_alias prefix_aliases[] = {
	{ "arm", "arm" },       /* armv7l, armel, armhf, ... */
	{ "ppc", "powerpc" },   /* ppc, ppc64, ppc64le */
	{ "mips", "mips" },     /* mipsel, mips64el, ... */
	{ "sh2", "sh" }, { "sh3", "sh" }, { "sh4", "sh" },
	{ "aarch64", "arm64" }, /* aarch64_be */
	{ "riscv", "riscv" },   /* riscv32, riscv64 */
	{ "loongarch", "loongarch" },
};

static int is_ix86(const char *name)
{
	/* s/i.86/x86/ */
	return name[0] == 'i' && name[1] && name[2] == '8' && name[3] == '6' && !name[4] &&
	       name[1] >= '3' && name[1] <= '9';
}

const char *td_arch_canonical(const char *name)
{
	size_t i;

	if (!name || !*name)
		return NULL;
	for (i = 0; i < sizeof(arch_dirs) / sizeof(arch_dirs[0]); i++)
		if (!strcmp(name, arch_dirs[i]))
			return arch_dirs[i];
	for (i = 0; i < sizeof(exact_aliases) / sizeof(exact_aliases[0]); i++)
		if (!strcmp(name, exact_aliases[i].name))
			return exact_aliases[i].dir;
	if (is_ix86(name))
		return "x86";
	for (i = 0; i < sizeof(prefix_aliases) / sizeof(prefix_aliases[0]); i++) {
		size_t n = strlen(prefix_aliases[i].name);
		if (!strncmp(name, prefix_aliases[i].name, n))
			return prefix_aliases[i].dir;
	}
	return NULL;
}

static int component_is(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name);
	return len == n && !memcmp(s, name, n);
}

int td_arch_path_relevant(const char *path, size_t len, const char *arch)
{
	const char *dir, *comp, *slash;
	size_t comp_len;

	if (!path || len < 5 || memcmp(path, "arch/", 5))
		return 1;
	comp = path + 5;
	slash = memchr(comp, '/', len - 5);
	if (!slash)
		return 1; /* a file directly in arch/ (arch/Kconfig), or arch/ itself */
	comp_len = (size_t)(slash - comp);
	if (!arch || !*arch)
		return 1;
	dir = td_arch_canonical(arch);
	if (!dir)
		dir = arch;
	if (component_is(comp, comp_len, dir))
		return 1;
	if (!strcmp(dir, "um") && component_is(comp, comp_len, "x86"))
		return 1;
	return 0;
}
