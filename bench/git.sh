#!/usr/bin/env bash
# Two tags of one git repository that differ in a few hundred files out of
# many thousands: compare must read only the blobs that differ.
#
# Usage: bench/git.sh
#
# Builds, once, a repository in the cache from the first $BENCH_GIT_FILES files
# (default 18000) of a real kernel tree, tags it "base", changes
# $BENCH_GIT_CHANGED of them (default 300, spread over the tree) and tags
# that "bsp". Then, in one run with hyperfine, it times:
#   git diff --name-status base bsp         (git's own answer; reads no blob)
#   treedrift compare --repo R base bsp     (libgit2, straight from the objects)
#   treedrift compare DIR_BASE DIR_BSP      (the same trees checked out)
# and prints the blobs treedrift read (compare --stats), which must be
# 2 x changed.
#
# Environment: TREEDRIFT_BENCH_CACHE (default /var/cache/treedrift-bench),
# TREEDRIFT (default build/cli/treedrift), BENCH_TREE (default
# trees/linux-6.1.192-3), BENCH_GIT_FILES, BENCH_GIT_CHANGED, BENCH_RUNS
# (default 5).
set -euo pipefail

REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
TREEDRIFT=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
TREE=${BENCH_TREE:-$CACHE/trees/linux-6.1.192-3}
FILES=${BENCH_GIT_FILES:-18000}
CHANGED=${BENCH_GIT_CHANGED:-300}
RUNS=${BENCH_RUNS:-5}
WORK=$CACHE/work/git-$FILES-$CHANGED
REPO=$WORK/repo

log() { printf 'bench-git: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -x $TREEDRIFT ]] || die "no treedrift binary at $TREEDRIFT (build first, or set TREEDRIFT)"
[[ -d $TREE ]] || die "no tree at $TREE (run bench/fetch.sh)"
command -v hyperfine >/dev/null || die "hyperfine is not installed (apt-get install hyperfine)"

gitc() { git -C "$REPO" -c user.name=bench -c user.email=bench@localhost "$@"; }

build_repo() {
	log "building $REPO: $FILES files, $CHANGED changed"
	rm -rf "$WORK"
	mkdir -p "$REPO" "$WORK/base" "$WORK/bsp"
	git init -q "$REPO"
	(cd "$TREE" && find . -type f -printf '%P\n' | LC_ALL=C sort | sed -n "1,${FILES}p") >"$WORK/files"
	(cd "$TREE" && tar -cf - -T "$WORK/files") | tar -C "$REPO" -xf -
	gitc add -Af  # the tree's own .gitignore files must not drop any
	gitc commit -qm base
	gitc tag base
	# every (FILES / CHANGED)-th file gets a vendor line at its end
	awk -v step=$((FILES / CHANGED)) -v n="$CHANGED" 'NR % step == 0 && c < n { print; c++ }' \
		"$WORK/files" >"$WORK/changed"
	while IFS= read -r f; do
		printf '/* vendor fix */\n' >>"$REPO/$f"
	done <"$WORK/changed"
	gitc commit -qam bsp
	gitc tag bsp
	gitc archive base | tar -C "$WORK/base" -xf -
	gitc archive bsp | tar -C "$WORK/bsp" -xf -
	touch "$WORK/.done"
}

[[ -e $WORK/.done ]] || build_repo
changed=$(wc -l <"$WORK/changed")

"$TREEDRIFT" compare -q --stats --repo "$REPO" base bsp --format csv >"$WORK/git.csv" 2>"$WORK/stats" || true
read_blobs=$(sed -n 's/.* \([0-9]*\) read .*/\1/p' "$WORK/stats")
modified=$(python3 -c 'import csv, sys; print(sum(r["status"] == "modified" for r in csv.DictReader(sys.stdin)))' <"$WORK/git.csv")
want=$(git -C "$REPO" diff --name-status --no-renames base bsp | wc -l)
[[ $modified == "$want" ]] || die "treedrift found $modified modified files, git diff $want"

hyperfine -N --warmup 1 --runs "$RUNS" --export-markdown "$WORK/times.md" \
	-n "git diff --name-status" "git -C $REPO diff --name-status --no-renames base bsp" \
	-n "treedrift compare --repo R base bsp" "$TREEDRIFT compare -q --repo $REPO base bsp --format csv" \
	-n "treedrift compare of checkouts" "$TREEDRIFT compare -q $WORK/base $WORK/bsp --format csv" \
	-i >&2

echo "## git: $FILES files, $changed changed ($(date -u +%F), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo
echo "treedrift read $read_blobs blobs (2 x $changed changed = $((2 * changed))); $(cat "$WORK/stats" | sed 's/^treedrift: //')."
echo
cat "$WORK/times.md"
