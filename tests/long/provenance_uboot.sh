#!/usr/bin/env bash
# Opt-in: line provenance on a real vendor fork without its history. The
# vendor branch of STMicroelectronics' U-Boot is exported with git archive
# (a tarball BSP, as vendors ship them) and compared against upstream
# v2023.10 with the upstream history v2023.10..v2024.10. The truth comes
# from git itself:
# - files touched only by the vendor commits that `git cherry` finds equal
#   to an upstream commit: >= 90% of their changed lines must be upstream;
# - files touched only by vendor commits with no upstream equivalent and no
#   "cherry picked from" line: >= 90% of their changed lines must be local.
set -euo pipefail
td=$1
. "$(dirname "$0")/uboot_repo.sh"
up=v2023.10 vendor=v2023.10-stm32mp tip=v2024.10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/vendor"
git -C "$repo" archive "$vendor" | tar -x -C "$tmp/vendor"
git -C "$repo" cherry "$tip" "$vendor" "$up" | sed -n 's/^- //p' | sort >"$tmp/matched"
git -C "$repo" log --no-merges --format='%H' --grep='cherry picked from commit' "$up..$vendor" | sort >"$tmp/declared"
# each vendor commit and the paths it touches: "id<TAB>path"
git -C "$repo" log --no-merges --no-renames --format='@%H' --name-only "$up..$vendor" |
	awk '/^@/ { id = substr($0, 2); next } NF { print id "\t" $0 }' >"$tmp/touches"
"$td" compare -q --format json --history "git:$repo@$tip" "git:$repo@$up" "$tmp/vendor" >"$tmp/report.json" ||
	[ $? = 1 ]
python3 - "$tmp/matched" "$tmp/declared" "$tmp/touches" "$tmp/report.json" <<'PY'
import json, sys
matched = set(open(sys.argv[1]).read().split())
declared = set(open(sys.argv[2]).read().split())
assert len(matched) == 83, len(matched)
kinds = {}
for line in open(sys.argv[3], encoding="utf-8", errors="surrogateescape"):
    cid, path = line.rstrip("\n").split("\t", 1)
    kind = "upstream" if cid in matched else "other" if cid in declared else "local"
    kinds.setdefault(path, set()).add(kind)
doc = json.load(open(sys.argv[4], encoding="utf-8"))
assert doc["provenance"]["history"]["commits"] > 5000, doc["provenance"]["history"]
tot = {"upstream": [0, 0, 0], "local": [0, 0, 0]}  # files, lines of the expected kind, lines
for f in doc["files"]:
    p = f.get("provenance")
    if not p or p["state"] != "done" or kinds.get(f["path"]) not in ({"upstream"}, {"local"}):
        continue
    kind = next(iter(kinds[f["path"]]))
    up = p["added_upstream"] + p["removed_upstream"]
    lo = p["added_local"] + p["removed_local"]
    t = tot[kind]
    t[0] += 1
    t[1] += up if kind == "upstream" else lo
    t[2] += up + lo
for kind, (files, good, lines) in tot.items():
    share = good / lines if lines else 0
    print(f"files touched only by {kind} commits: {files}, {good} of {lines} changed lines {kind} ({share:.1%})")
    assert files > 5 and share >= 0.9, (kind, files, good, lines)
pv = doc["provenance"]
print(f"total distance {doc['totals']['total_distance']}: upstream {pv['distance_upstream']}, "
      f"local {pv['distance_local']}; lines upstream {pv['lines_upstream']}, local {pv['lines_local']}")
PY
