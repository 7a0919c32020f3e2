/* Kernel architectures: the names a user or uname(1) gives and the kernel's
 * arch/ directory they build from, and the path filter behind --arch.
 *
 * Mapping (td_arch_canonical), after the top Makefile's SRCARCH rules and
 * the SUBARCH sed script of linux-6.1, plus Debian/GNU spellings:
 *   i386 i486 i586 i686 x86_64 amd64 x32 x86         -> x86
 *   aarch64 aarch64_be arm64                         -> arm64
 *   arm armv* armel armhf sa110                      -> arm
 *   riscv riscv32 riscv64                            -> riscv
 *   ppc ppc* powerpc powerpc64 powerpc64le ppc64el   -> powerpc
 *   mips mips*                                       -> mips
 *   s390 s390x                                       -> s390
 *   sparc sparc64 sun4u                              -> sparc
 *   sh sh64 sh2* sh3* sh4*                           -> sh
 *   loongarch loongarch64 loong64                    -> loongarch
 *   parisc parisc64 hppa                             -> parisc
 *   or1k openrisc -> openrisc; microblaze microblazeel -> microblaze
 *   and the other arch/ directory names as they are: alpha arc csky hexagon
 *   ia64 m68k nios2 um xtensa.
 * Names are matched case-sensitively, as the kernel does.
 */
#ifndef TREEDRIFT_ARCH_H
#define TREEDRIFT_ARCH_H

#include <stddef.h>

#include "treedrift/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The arch/ directory name (SRCARCH) for an architecture name, as a static
 * string; NULL for a name the kernel does not know. */
TD_EXTERN const char *td_arch_canonical(const char *name);

/* The filter behind --arch: 0 when path lies under arch/<other>/ where
 * <other> is not the directory of arch, 1 otherwise.
 *
 * path is relative to the tree root, '/'-separated, without "./" (len bytes,
 * no NUL needed). arch is canonicalised with td_arch_canonical(); a name it
 * does not know is taken as a directory name as it is. Only the top-level
 * arch/ directory is filtered: arch/Kconfig and other files directly in
 * arch/ are kept, and so are include/asm-generic/, tools/arch/,
 * scripts/, Documentation/ and every other path outside arch/. For "um"
 * (user-mode Linux, built on top of x86 in 6.1: arch/x86/um/ and the x86
 * headers) both arch/um/ and arch/x86/ are kept. */
TD_EXTERN int td_arch_path_relevant(const char *path, size_t len, const char *arch);

#ifdef __cplusplus
}
#endif
#endif
