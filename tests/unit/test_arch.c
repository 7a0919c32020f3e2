/* Architecture names and the --arch path filter. */
#include <string.h>

#include "treedrift/arch.h"
#include "check.h"

static int rel(const char *path, const char *arch)
{
	return td_arch_path_relevant(path, strlen(path), arch);
}

static void test_canonical(void)
{
	static const struct { const char *name, *dir; } cases[] = {
		{ "x86", "x86" }, { "x86_64", "x86" }, { "i386", "x86" }, { "i686", "x86" },
		{ "i486", "x86" }, { "amd64", "x86" }, { "x32", "x86" },
		{ "aarch64", "arm64" }, { "arm64", "arm64" }, { "aarch64_be", "arm64" },
		{ "arm", "arm" }, { "armv7l", "arm" }, { "armv6l", "arm" }, { "armhf", "arm" },
		{ "armel", "arm" }, { "sa110", "arm" },
		{ "riscv64", "riscv" }, { "riscv32", "riscv" }, { "riscv", "riscv" },
		{ "ppc", "powerpc" }, { "ppc64", "powerpc" }, { "ppc64le", "powerpc" },
		{ "powerpc", "powerpc" }, { "ppc64el", "powerpc" }, { "powerpc64le", "powerpc" },
		{ "mips", "mips" }, { "mips64el", "mips" }, { "mipsel", "mips" },
		{ "s390x", "s390" }, { "s390", "s390" },
		{ "sparc64", "sparc" }, { "sun4u", "sparc" }, { "sparc", "sparc" },
		{ "sh", "sh" }, { "sh4", "sh" }, { "sh3eb", "sh" }, { "sh64", "sh" },
		{ "loongarch64", "loongarch" }, { "loong64", "loongarch" },
		{ "parisc64", "parisc" }, { "hppa", "parisc" }, { "parisc", "parisc" },
		{ "um", "um" }, { "or1k", "openrisc" }, { "microblazeel", "microblaze" },
		{ "alpha", "alpha" }, { "arc", "arc" }, { "csky", "csky" }, { "hexagon", "hexagon" },
		{ "ia64", "ia64" }, { "m68k", "m68k" }, { "nios2", "nios2" }, { "xtensa", "xtensa" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(td_arch_canonical(cases[i].name), cases[i].dir);
	CHECK(td_arch_canonical("vax") == NULL);
	CHECK(td_arch_canonical("") == NULL);
	CHECK(td_arch_canonical(NULL) == NULL);
	CHECK(td_arch_canonical("X86_64") == NULL); /* case matters, as in the kernel */
	CHECK(td_arch_canonical("i86") == NULL);
}

static void test_relevant(void)
{
	CHECK_INT(rel("arch/x86/kernel/setup.c", "x86_64"), 1);
	CHECK_INT(rel("arch/x86/kernel/setup.c", "i386"), 1);
	CHECK_INT(rel("arch/arm/kernel/setup.c", "x86_64"), 0);
	CHECK_INT(rel("arch/arm64/kernel/setup.c", "aarch64"), 1);
	CHECK_INT(rel("arch/arm/kernel/setup.c", "aarch64"), 0);  /* arm is not arm64 */
	CHECK_INT(rel("arch/arm64/Makefile", "arm"), 0);
	CHECK_INT(rel("arch/Kconfig", "arm64"), 1);               /* files directly in arch/ */
	CHECK_INT(rel("arch/.gitignore", "arm64"), 1);
	CHECK_INT(rel("include/asm-generic/io.h", "arm64"), 1);
	CHECK_INT(rel("tools/arch/arm/include/uapi/asm/kvm.h", "x86"), 1);
	CHECK_INT(rel("scripts/Makefile.build", "x86"), 1);
	CHECK_INT(rel("Documentation/arch/arm/booting.rst", "x86"), 1);
	CHECK_INT(rel("drivers/net/arch/x.c", "x86"), 1);
	CHECK_INT(rel("archive/x.c", "x86"), 1);
	CHECK_INT(rel("arch/um/kernel/mem.c", "um"), 1);
	CHECK_INT(rel("arch/x86/um/setjmp_64.S", "um"), 1);     /* UML builds on x86 */
	CHECK_INT(rel("arch/arm/kernel/setup.c", "um"), 0);
	CHECK_INT(rel("arch/um/kernel/mem.c", "x86"), 0);
	/* an unknown name is taken as a directory name */
	CHECK_INT(rel("arch/frv/kernel/x.c", "frv"), 1);
	CHECK_INT(rel("arch/x86/kernel/x.c", "frv"), 0);
	/* len bounds the path: no NUL needed */
	CHECK_INT(td_arch_path_relevant("arch/arm/x.cGARBAGE", 12, "x86"), 0);
	CHECK_INT(td_arch_path_relevant("arch/x86", 8, "arm"), 1);
}

int main(void)
{
	test_canonical();
	test_relevant();
	return check_finish();
}
