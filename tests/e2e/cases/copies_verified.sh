# copy verification (issue 18, item 1): a driver copied and renamed
# throughout (sed 's/e1000/acme/g; 200,260d') is found as a copy of its
# origin with a high line similarity; a templated look-alike defconfig, near
# by TLSH but with few lines in common, is refused and stays new
python3 - <<'PY'
import os, random
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(data)
r = random.Random(18)
verbs = ["probe", "remove", "reset", "read_reg", "write_reg", "setup_ring", "free_ring", "irq", "poll",
         "xmit", "open", "close", "get_stats", "set_mac", "config", "watchdog", "init_hw", "check_link"]
fields = ["hw", "adapter", "ring", "netdev", "pdev", "stats", "regs", "flags", "count", "mtu"]
lines = ["// SPDX-License-Identifier: GPL-2.0", "/* Intel PRO/1000 style driver */", "#include <linux/module.h>",
         "#include \"e1000.h\"", ""]
while len(lines) < 420:
    v = r.choice(verbs)
    f1, f2 = r.choice(fields), r.choice(fields)
    k = r.randrange(6)
    if k == 0:
        lines.append(f"static int e1000_{v}_{r.randrange(100)}(struct e1000_adapter *adapter)")
        lines.append("{")
    elif k == 1:
        lines.append(f"\tstruct e1000_hw *hw = &adapter->{f1};")
    elif k == 2:
        lines.append(f"\tE1000_WRITE_REG(hw, E1000_{v.upper()}, adapter->{f2} | {r.randrange(4096):#x});")
    elif k == 3:
        lines.append(f"\tif (e1000_{v}(adapter, {r.randrange(64)}) < 0)")
        lines.append(f"\t\treturn -E{r.choice(['IO', 'INVAL', 'BUSY', 'NOMEM'])};")
    elif k == 4:
        lines.append(f"\tadapter->{f1}.{f2} += {r.randrange(1000)};")
    else:
        lines.append("\treturn 0;")
        lines.append("}")
        lines.append("")
src = "\n".join(lines) + "\n"
put("up/drivers/net/e1000/e1000_main.c", src)
# copied, then renamed throughout and cut: sed 's/e1000/acme/g; 200,260d'
copy = [l.replace("e1000", "acme") for i, l in enumerate(src.splitlines(True), 1) if not 200 <= i <= 260]
put("tgt/drivers/net/acme/acme_main.c", "".join(copy))
# a templated look-alike: a board defconfig of the same shape, near by TLSH
# (distance 53) but with few lines in common (similarity 0.39)
opts = ["ARM", "ARCH_STM32MP", "SYS_MALLOC_F_LEN", "ENV_SIZE", "ENV_OFFSET", "DEFAULT_DEVICE_TREE",
        "SYS_PROMPT", "CMD_GPIO", "CMD_I2C", "CMD_MMC", "CMD_USB", "DM_I2C", "DM_MMC", "DM_SPI",
        "SPI_FLASH", "USB_DWC2", "PHY_STM32_USBPHYC", "PINCTRL_STMFX", "REGULATOR_STPMIC1", "RNG_STM32",
        "SERIAL_RX_BUFFER", "STM32_SERIAL", "SYSRESET_PSCI", "TEE", "OPTEE", "WDT_STM32MP", "LED_GPIO",
        "NET_RANDOM_ETHADDR", "DWC_ETH_QOS", "SYS_I2C_STM32F7", "CLK_SCMI", "RESET_SCMI", "FASTBOOT_BUF_SIZE"]
def defconfig(n):
    out = []
    for i, o in enumerate(opts):
        if i % 5 in (1, 3):
            out.append(f"CONFIG_{o}=y")
        else:
            out.append(f'CONFIG_{o}="evb{n}"')
    return "\n".join(out) + "\n"
put("up/configs/evb1_defconfig", defconfig(1))
put("tgt/configs/evb2_defconfig", defconfig(2))
PY
echo "== default"
$TD compare -q up tgt || echo "exit $?"
echo "== json"
$TD compare -q -f json up tgt | grep -E '"origin": \{' | sed 's/, "sha256.*"origin"/, ... "origin"/; s/, "matches_version.*//'
echo "== csv"
$TD compare -q -f csv up tgt | cut -d, -f1-4,8,9,18- || echo "exit $?"
echo "== markdown"
$TD compare -q -f markdown up tgt | grep -F 'acme\_main.c' || echo "exit $?"
echo "== --stats: the pairs of candidates measured, and how many were diffed"
$TD compare -q --stats up tgt 2>&1 >/dev/null | grep '^treedrift: origins:'
echo "== --no-verify-copies (TLSH alone, as before)"
$TD compare -q --no-verify-copies up tgt | grep -E '^  added' || echo "exit $?"
echo "== --copy-similarity 0.95"
$TD compare -q --copy-similarity 0.95 up tgt | grep -E '^  added' || echo "exit $?"
echo "== from a database scanned from an archive (no content: TLSH alone, said)"
tar -C up -cf up.tar . && $TD scan -q up.tar -o up.db --label v1
$TD compare up.db tgt 2>&1 | grep -E 'judged|^  added' || echo "exit $?"
echo "== bad options"
$TD compare -q --copy-similarity 2 up tgt || echo "exit $?"
$TD compare -q --copy-candidates 0 up tgt || echo "exit $?"
