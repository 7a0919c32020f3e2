#!/usr/bin/env bash
# Opt-in: on a real vendor fork (STMicroelectronics' U-Boot for STM32MP
# against upstream v2023.10), the line counts compare gives each modified
# text file equal `git diff --numstat --no-renames` for every one of them,
# and git's binary files are the ones compare calls binary.
set -euo pipefail
td=$1
. "$(dirname "$0")/uboot_repo.sh"
up=v2023.10 vendor=v2023.10-stm32mp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$repo" diff --numstat --no-renames "$up" "$vendor" >"$tmp/numstat"
"$td" compare -q --format json "git:$repo@$up" "git:$repo@$vendor" >"$tmp/report.json" || [ $? = 1 ]
python3 - "$tmp/numstat" "$tmp/report.json" <<'PY'
import json, sys
want, binary = {}, set()
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    a, r, path = line.rstrip("\n").split("\t", 2)
    if a == "-":
        binary.add(path)
    else:
        want[path] = (int(a), int(r))
doc = json.load(open(sys.argv[2], encoding="utf-8"))
assert doc["lines_counted"] and doc["lines_missing"] is None, doc["lines_missing"]
got, got_binary, bad = {}, set(), []
for f in doc["files"]:
    if f["status"] != "modified":
        continue
    if f["lines"] == "counted":
        got[f["path"]] = (f["lines_added"], f["lines_removed"])
    elif f["lines"] == "binary":
        got_binary.add(f["path"])
    else:
        bad.append((f["path"], f["lines"], f["lines_missing"]))
assert not bad, bad[:10]
# numstat also lists added and removed files: keep the paths compare calls modified
modified = set(got) | got_binary
text = {p: v for p, v in want.items() if p in modified}
diff = [(p, text.get(p), got.get(p)) for p in sorted(set(text) | set(got)) if text.get(p) != got.get(p)]
assert not diff, diff[:10]
assert got_binary == binary & modified, (sorted(got_binary ^ (binary & modified)))[:10]
assert len(got) > 250, len(got)
print(f"{len(got)} text files equal git diff --numstat (+{sum(a for a, _ in got.values())} "
      f"-{sum(r for _, r in got.values())}), {len(got_binary)} binary")
PY
