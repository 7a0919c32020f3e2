#!/usr/bin/env bash
# Opt-in: --rebase-onto on a real vendor fork against git itself. The first
# 300 commits of STMicroelectronics' U-Boot (v2023.10..v2023.10-stm32mp)
# are cherry-picked in turn onto upstream v2024.10 by git, in a sparse
# checkout of the paths they touch (a clone sharing the objects: the
# repository itself is left as it is), skipping those that conflict and those
# left empty (already there); treedrift's status of each patch must be
# git's for at least 99% of them, and the counts must add up, apart from
# one case: a patch that changes a file an earlier patch added, when that
# one did not apply. git then finds a similar file (another board's device
# tree) and applies the change to it; treedrift calls it a conflict
# (not_added). (All 902 take git about 12 minutes, doc/patches.md.)
set -euo pipefail
td=$1
. "$(dirname "$0")/uboot_repo.sh"
base=v2023.10 onto=v2024.10 n=300
tmp=$(mktemp -d)
wt=$tmp/clone
trap 'rm -rf "$tmp"' EXIT
tip=$(git -C "$repo" rev-list --reverse --topo-order --no-merges "$base..v2023.10-stm32mp" | sed -n "${n}p")

"$td" compare -q --format json "git:$repo@$base" "git:$repo@$tip" --patches "git:$repo@$base..$tip" \
	--rebase-onto "git:$repo@$onto" >"$tmp/report.json" || [ $? = 1 ]

config=$(cat "$repo/config")
git clone -q --shared --no-checkout "$repo" "$wt"
(
	cd "$wt"
	git log --format= --name-only --no-merges "$base..$tip" | sort -u | sed 's|^|/|' >"$tmp/sparse"
	git sparse-checkout set --no-cone --stdin <"$tmp/sparse" >/dev/null 2>&1
	git checkout -q --detach "$onto"
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
	for c in $(git rev-list --reverse --topo-order --no-merges "$base..$tip"); do
		if git cherry-pick --no-commit "$c" >/dev/null 2>&1; then
			if git diff --cached --quiet; then
				echo "present $c"
			else
				git commit -q -C "$c" --no-verify
				echo "applies $c"
			fi
		else
			echo "conflict $c"
			git reset -q --hard HEAD
		fi
	done
) >"$tmp/git"

python3 - "$tmp/report.json" "$tmp/git" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
git = dict(line.split()[::-1] for line in open(sys.argv[2]))
patches = doc["patches"]
counts = doc["patch_source"]["rebase"]
assert len(patches) == len(git) == 300, (len(patches), len(git))
assert counts["applies"] + counts["present"] + counts["conflict"] == len(patches), counts
same = sum(p["rebase"]["status"] == git[p["id"]] for p in patches)
not_added = other = 0
for p in patches:
    if p["rebase"]["status"] != git[p["id"]]:
        print(" ", p["id"][:12], "treedrift", p["rebase"]["status"], p["rebase"]["file"], p["rebase"]["why"],
              "git", git[p["id"]])
        if p["rebase"]["why"] == "not_added" and git[p["id"]] == "applies":
            not_added += 1
        else:
            other += 1
print(f"{same} of {len(patches)} patches as git cherry-pick has them, {not_added} not_added, {other} other;"
      f" treedrift {counts}")
assert same + not_added >= 0.99 * len(patches), f"{same} + {not_added} of {len(patches)}: want 99%"
PY
[ "$(cat "$repo/config")" = "$config" ] && [ ! -e "$repo/worktrees" ] || {
	echo "FAIL: the repository's configuration changed" >&2
	exit 1
}
