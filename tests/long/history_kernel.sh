#!/usr/bin/env bash
# Opt-in: --history at the kernel's scale, with a known answer. The base is
# kernel.org's linux 6.1.187, the history is Debian's 168 patches of
# 6.1.187-1 applied to it as commits (built once into the benchmark cache),
# and the target is Debian's linux-source-6.1 6.1.187-1, which has them
# all. So:
# - every commit is applied, or not applicable because the target lacks
#   nothing of it (its lines superseded by later commits, or it only undoes
#   earlier ones): none missing, none partial;
# - the changed lines are upstream's, all but at most 0.1% of them.
# Data: what scripts/demo.sh unpacks into $TREEDRIFT_DEMO_CACHE
# (/var/cache/treedrift-demo); skipped (77) without it.
set -euo pipefail
td=$1
demo=${TREEDRIFT_DEMO_CACHE:-/var/cache/treedrift-demo}
cache=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
base=$demo/upstream-6.1.187 target=$demo/linux-source-6.1.187-1
series=$demo/debian-6.1.187-1/debian/patches/series
if [ ! -d "$base" ] || [ ! -d "$target" ] || [ ! -f "$series" ]; then
	echo "no Debian 6.1.187 trees under $demo (scripts/demo.sh unpacks them): skipped" >&2
	exit 77
fi
repo=$cache/work/debian-6.1.187-series.git
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -d "$repo" ]; then
	echo "building $repo (a few minutes, once)"
	mkdir -p "$cache/work"
	rm -rf "$repo.new"
	git init -q "$repo.new"
	g() {
		GIT_CONFIG_NOSYSTEM=1 HOME=$tmp GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian@example.org \
			GIT_COMMITTER_NAME=Debian GIT_COMMITTER_EMAIL=debian@example.org \
			git -c commit.gpgsign=false -c core.excludesFile=/dev/null --git-dir="$repo.new/.git" "$@"
	}
	mkdir "$tmp/empty"
	g --work-tree="$base" add -A -f .
	g --work-tree="$tmp/empty" commit -q -m "Linux 6.1.187"
	g tag base
	patches=$(dirname "$series")
	sed 's/#.*//' "$series" | awk 'NF { print $1 }' | while read -r p; do
		g --work-tree="$tmp/empty" apply --cached -p1 "$patches/$p" 2>/dev/null
		subject=$(awk '/^(Subject|Description): /{ sub(/^[^:]*: */, ""); print; exit }' "$patches/$p")
		g --work-tree="$tmp/empty" commit -q --allow-empty -m "${subject:-$p}" -m "Debian patch $p"
	done
	g tag tip
	mv "$repo.new" "$repo"
fi

start=$(date +%s.%N)
"$td" compare -q --format json "$base" "$target" --history "git:$repo@tip" --base-commit base >"$tmp/report.json" ||
	[ $? = 1 ]
end=$(date +%s.%N)
python3 - "$tmp/report.json" "$start" "$end" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
fixes = d["missing_fixes"]
count = collections.Counter((f["status"], f["reason"]) for f in fixes)
print(f"{len(fixes)} commits, {float(sys.argv[3]) - float(sys.argv[2]):.1f} s:",
      ", ".join(f"{s} ({r}) {n}" for (s, r), n in sorted(count.items())))
bad = [f for f in fixes if f["status"] in ("missing", "partial")]
for f in bad:
    print(f"  FAIL: {f['status']}: {f['subject']} ({f['lines_in_target']} of {f['lines']} lines)")
p = d["provenance"]
lines = p["lines_upstream"] + p["lines_local"]
print(f"lines: {p['lines_upstream']} upstream, {p['lines_local']} local")
ok = len(fixes) == 168 and not bad and p["history"]["commits"] == 168 and lines and not p["lines_local"]
print("history_kernel: " + ("all checks passed" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
