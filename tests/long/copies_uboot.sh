#!/usr/bin/env bash
# Opt-in: copy verification on a real vendor fork (STMicroelectronics' U-Boot
# for STM32MP against upstream v2023.10, 176 added files): the precision and
# recall of compare's copies (moved or copied added files) against the
# line-similarity oracle of bench/copies_oracle.py (doc/calibration.md) are
# both at least 0.9.
set -euo pipefail
td=$1
. "$(dirname "$0")/uboot_repo.sh"
up=v2023.10 vendor=v2023.10-stm32mp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$td" compare -q --format json "git:$repo@$up" "git:$repo@$vendor" >"$tmp/report.json" || [ $? = 1 ]
python3 "$src/bench/copies_oracle.py" "$repo" "$up" "$vendor" "$tmp/report.json" >"$tmp/oracle" 2>"$tmp/errors"
cat "$tmp/errors" >&2
summary=$(tail -n 1 "$tmp/oracle")
echo "$summary"
python3 - "$summary" <<'PY'
import sys
words = sys.argv[1].split()
precision = float(words[words.index("precision") + 1])
recall = float(words[words.index("recall") + 1])
assert precision >= 0.9 and recall >= 0.9, f"precision {precision}, recall {recall}: want both >= 0.9"
PY
