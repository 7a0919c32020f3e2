# small files (issue 18, item 4): a one-line change in a 237-byte Makefile
# is scored from its line diff (changed-line fraction, doc/calibration.md),
# not by TLSH, which scores it 144; larger files keep TLSH
python3 - <<'PY'
import os, random
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(data)
head = "# SPDX-License-Identifier: GPL-2.0+\n#\n# Copyright (C) 2023, Example Ltd\n#\n\n"
body = "obj-$(CONFIG_CMD_STBOARD) += cmd_stboard.o\nobj-$(CONFIG_PMIC_STPMIC1) += stpmic1.o\n"
put("up/board/evb/Makefile", head + "ifeq ($(CONFIG_ARCH_STM32MP),y)\n" + body + "endif\n" +
    "obj-$(CONFIG_FWU_MDATA_MTD) += fwu_mtd.o\n")
put("tgt/board/evb/Makefile", head + "ifeq ($(CONFIG_ARCH_STM32MP),y)\n" + body +
    "obj-$(CONFIG_FWU_MDATA_V2) += fwu_v2.o\n" + "endif\n")
r = random.Random(4)
big = "".join(f"static int f{i}(void) {{ return {r.randrange(1 << 20)}; }}\n" for i in range(200))
put("up/board/evb/evb.c", big)
put("tgt/board/evb/evb.c", big.replace("f7(void)", "f7(int x)"))
PY
wc -c up/board/evb/Makefile | sed 's/ .*/ bytes/'
echo "== default"
$TD compare -q up tgt || echo "exit $?"
echo "== json"
$TD compare -q -f json up tgt | grep -E '"path": "board' | sed 's/, "size".*//'
$TD compare -q -f json up tgt | grep -E '"lines_scored"'
echo "== csv"
$TD compare -q -f csv up tgt | cut -d, -f1-5,20 || echo "exit $?"
echo "== --tlsh-small-files (as before)"
$TD compare -q --tlsh-small-files up tgt | grep -E '^  modified' || echo "exit $?"
echo "== from a database scanned from an archive (no content: TLSH, said)"
tar -C up -cf up.tar . && $TD scan -q --no-auto-strip up.tar -o up.db --label v1
$TD compare up.db tgt 2>&1 | grep -E 'small files|^  modified' || echo "exit $?"
