#!/bin/sh
# Upstream provenance on real data (issue 20's acceptance), the U-Boot vendor
# branch against upstream v2023.10..v2024.10:
# - every commit `git cherry v2024.10 v2023.10-stm32mp v2023.10` marks '-'
#   is a cherry-pick, of an upstream commit with its patch id (git
#   patch-id --stable, with the diff git cherry makes: no indent
#   heuristic), and no other patch is;
# - every declared cherry-pick (a "cherry picked from" line) is checked;
# - none of the upstream commits taken is listed as missing or partial;
# - no upstream commit and its revert are both listed as missing.
# Usage: upstream.sh UPSTREAM_DUMP. Skips (77) when the data is not there.
set -eu
DUMP=$1
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
U=$CACHE/u-boot-stm32mp.git
[ -d "$U" ] || { echo "no $U: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

"$DUMP" "git:$U@v2023.10" "git:$U@v2023.10-stm32mp" "git:$U@v2023.10..v2023.10-stm32mp" "git:$U@v2024.10" \
	v2023.10 >"$tmp/dump" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
cat "$tmp/err"

git -C "$U" cherry v2024.10 v2023.10-stm32mp v2023.10 | awk '$1 == "-" {print $2}' | sort >"$tmp/want_cp"
awk '$1 == "P" && $3 == "cherry-pick" {print $2}' "$tmp/dump" | sort >"$tmp/cp"
n=$(wc -l <"$tmp/want_cp")
[ "$n" -eq 83 ] || fail "git cherry marks $n, the data's README says 83"
cmp -s "$tmp/cp" "$tmp/want_cp" || fail "cherry-picks differ from git cherry's: $(comm -3 "$tmp/cp" "$tmp/want_cp" | wc -l)"

# the right upstream commit: one with the vendor commit's patch id
pid() { git -C "$U" -c diff.indentHeuristic=false log -p --no-renames --no-merges --format='commit %H' "$@" |
	git patch-id --stable; }
pid v2023.10..v2024.10 | sort >"$tmp/up_pid"
pid v2023.10..v2023.10-stm32mp | awk '{print $2, $1}' | sort >"$tmp/v_pid"
awk '$1 == "P" && $3 == "cherry-pick" {print $2, $4}' "$tmp/dump" | sort | join - "$tmp/v_pid" >"$tmp/cp_pid"
while read -r v up p; do
	grep -q "^$p $up\$" "$tmp/up_pid" || fail "$v: matched $up, whose patch id is not $p"
done <"$tmp/cp_pid"
echo "u-boot: $(wc -l <"$tmp/cp_pid") cherry-picks checked against git patch-id"

# every declared cherry-pick checked
claims=$(git -C "$U" log --format='%H %B' v2023.10..v2023.10-stm32mp | grep -c 'cherry picked from commit' || true)
want=$(git -C "$U" log --format='%B%x00' v2023.10..v2023.10-stm32mp | tr '\n' ' ' | tr '\0' '\n' |
	grep -c 'cherry picked from commit' || true)
got=$(awk '$1 == "P" && $6 != "none"' "$tmp/dump" | wc -l)
[ "$got" -eq "$want" ] || fail "$got claims checked, $want commits carry a cherry-pick line"
echo "u-boot: $got declared cherry-picks checked ($claims lines):" \
	"$(awk '$1 == "P" && $6 != "none" {print $6}' "$tmp/dump" | sort | uniq -c | tr '\n' ' ')"

# none of the commits taken is a missing fix
awk '$1 == "P" && $3 == "cherry-pick" {print $4}' "$tmp/dump" | sort -u >"$tmp/taken"
awk '$1 == "X" && ($3 == "missing" || $3 == "partial") {print $2}' "$tmp/dump" | sort >"$tmp/missing"
bad=$(comm -12 "$tmp/taken" "$tmp/missing" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad upstream commits taken by cherry-pick are listed as missing fixes"
# a revert and the commit it reverts, both upstream: never both missing
pairs=0
for r in $(git -C "$U" log --no-merges --format=%H --grep='^This reverts commit [0-9a-f]' v2023.10..v2024.10); do
	t=$(git -C "$U" show -s --format=%B "$r" | sed -n 's/^This reverts commit \([0-9a-f]\{7,\}\).*/\1/p' | head -n 1)
	t=$(git -C "$U" rev-parse --verify -q "$t^{commit}") || continue
	sr=$(awk -v id="$r" '$1 == "X" && $2 == id {print $3}' "$tmp/dump")
	st=$(awk -v id="$t" '$1 == "X" && $2 == id {print $3}' "$tmp/dump")
	if [ "$sr" = missing ] && [ "$st" = missing ]; then
		fail "$r reverts $t, and both are listed as missing"
	fi
	if [ "$(awk -v id="$r" '$1 == "X" && $2 == id {print $4}' "$tmp/dump")" = revert ]; then
		pairs=$((pairs + 1))
	fi
done
[ "$pairs" -gt 0 ] || fail "no revert is taken out with the commit it reverts"
echo "u-boot: $pairs reverts taken out with the commit they revert"
echo "u-boot: fixes: $(awk '$1 == "X" {print $3}' "$tmp/dump" | sort | uniq -c | tr '\n' ' ')"
echo "u-boot: patches: $(awk '$1 == "P" {print $3}' "$tmp/dump" | sort | uniq -c | tr '\n' ' ')"

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "upstream: all checks passed"
