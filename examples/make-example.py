import random, os, sys
random.seed(61)
words = "alloc buffer cache device driver entry flags group handle index kernel lock mutex node offset page queue region sched state table timer value vector work zone irq dma clk reg bus port mode count limit".split()
types = ["int", "unsigned long", "u32", "u64", "size_t", "bool", "struct page *", "void *"]
def ident(): return "_".join(random.sample(words, random.choice([2,3])))
def func():
    name = ident()
    args = ", ".join(f"{random.choice(types)} {ident()}" for _ in range(random.randint(1,3)))
    body = []
    for _ in range(random.randint(4,12)):
        v = ident()
        k = random.random()
        if k < 0.3: body.append(f"\tif ({v} > {random.randint(1,4096)})\n\t\treturn -EINVAL;")
        elif k < 0.6: body.append(f"\t{v} = {ident()}({ident()}, {random.randint(0,255)});")
        elif k < 0.8: body.append(f"\tspin_lock(&{ident()}->lock);\n\t{ident()}++;\n\tspin_unlock(&{ident()}->lock);")
        else: body.append(f"\tfor (i = 0; i < {random.randint(2,64)}; i++)\n\t\t{ident()}[i] = {random.randint(0,9)};")
    return f"static int {name}({args})\n{{\n\tint i;\n\n" + "\n".join(body) + "\n\treturn 0;\n}\n"
def cfile(nfuncs, header="// SPDX-License-Identifier: GPL-2.0\n"):
    return header + "#include <linux/kernel.h>\n#include <linux/module.h>\n\n" + "\n".join(func() for _ in range(nfuncs))
def mutate(text, frac):
    lines = text.split("\n")
    n = max(1, int(len(lines)*frac))
    for _ in range(n):
        i = random.randrange(len(lines))
        lines[i] = lines[i].replace("return 0;", "return ret;") if random.random()<0.3 else f"\t{ident()} = {random.randint(0,99)};"
    return "\n".join(lines)
up = {}
up["Makefile"] = "# SPDX-License-Identifier: GPL-2.0\nobj-y += kernel/ mm/ drivers/\nVERSION = 1\nPATCHLEVEL = 2\nSUBLEVEL = 0\nNAME = Example\n"
up["kernel/Makefile"] = "obj-y += sched.o fork.o\nobj-$(CONFIG_PRINTK) += printk.o\n"
up["mm/Makefile"] = "obj-y += page_alloc.o slab.o\n"
up["drivers/Makefile"] = "obj-$(CONFIG_NET) += net/\nobj-$(CONFIG_GPIO) += gpio/\n"
up["drivers/net/Makefile"] = "obj-$(CONFIG_FOO_ETH) += foo_eth.o\nobj-$(CONFIG_BAR_ETH) += bar_eth.o\n"
up["drivers/gpio/Makefile"] = "obj-$(CONFIG_GPIO_BAZ) += gpio-baz.o\n"
for p, n in [("kernel/sched.c",30),("kernel/fork.c",20),("kernel/printk.c",15),("mm/page_alloc.c",30),("mm/slab.c",20),
             ("drivers/net/foo_eth.c",25),("drivers/net/bar_eth.c",25),("drivers/gpio/gpio-baz.c",12),
             ("arch/x86/kernel/setup.c",15),("arch/arm64/kernel/setup.c",15),("arch/arm64/mm/init.c",10)]:
    up[p] = cfile(n)
up["include/linux/types.h"] = "/* SPDX-License-Identifier: GPL-2.0 */\n#ifndef _LINUX_TYPES_H\n#define _LINUX_TYPES_H\ntypedef unsigned int u32;\ntypedef unsigned long long u64;\n#endif\n"
up["include/linux/version.h"] = "#define LINUX_VERSION_CODE 66048\n"
up["Documentation/networking/foo.rst"] = "Foo Ethernet driver\n===================\n\n" + "\n".join("The foo driver supports %s and %s for %s." % (ident(), ident(), ident()) for _ in range(30)) + "\n"
up["scripts/checkstack.pl"] = "#!/usr/bin/perl\n# SPDX-License-Identifier: GPL-2.0\n" + "\n".join("my $%s = %d;" % (ident(), i) for i in range(40)) + "\n"
vend = dict(up)
vend["kernel/sched.c"] = mutate(up["kernel/sched.c"], 0.01)        # clean
vend["mm/page_alloc.c"] = mutate(up["mm/page_alloc.c"], 0.35) + cfile(12, "")      # safe
vend["drivers/net/bar_eth.c"] = "/* vendor rewrite */\n" + "\n".join("\t.quad 0x%016x, 0x%08x /* %s */" % (random.getrandbits(64), random.getrandbits(32), ident()) for _ in range(300)) + "\n"  # dirty: rewritten
vend["include/linux/version.h"] = "#define LINUX_VERSION_CODE 66049\n"  # tiny: fallback
del vend["drivers/gpio/gpio-baz.c"]                                # removed
vend["drivers/net/foo_eth_vendor.c"] = mutate(up["drivers/net/foo_eth.c"], 0.03)  # copied + patched
vend["drivers/misc/vendor_secure.c"] = cfile(18)                   # wholly new
vend["drivers/misc/Makefile"] = "obj-y += vendor_secure.o\n"
vend["arch/arm64/kernel/setup.c"] = mutate(up["arch/arm64/kernel/setup.c"], 0.05)
vend["Documentation/networking/foo.rst"] = up["Documentation/networking/foo.rst"] + "Vendor note: tuned for board X.\n"
out = sys.argv[1]
for name, files in (("upstream", up), ("vendor", vend)):
    for p, t in files.items():
        fp = os.path.join(out, name, p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        open(fp, "w").write(t)
os.chmod(os.path.join(out, "upstream/scripts/checkstack.pl"), 0o755)
os.chmod(os.path.join(out, "vendor/scripts/checkstack.pl"), 0o755)
