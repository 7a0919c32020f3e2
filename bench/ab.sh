#!/usr/bin/env bash
# Before and after in the same run: `treedrift compare` of BENCH_COMPARE_TREE
# against a database of BENCH_TREE, with treedrift built at git revision REV
# (before) and with this build (after). The runs are interleaved, a round
# running every command once, so that a machine whose speed drifts (a
# shared VM) slows before and after alike; `cat` of the compared tree is
# timed in each round as the I/O floor, after the database's tree is read
# (untimed) for the copy verification's reads.
#
#   bench/ab.sh REV [treedrift compare options]
#
# REV is built once, from a worktree under the cache (never in this
# checkout); each build scans its own database, so that a schema change
# between them does not matter.
#
# Environment:
#   TREEDRIFT_BENCH_CACHE  trees, builds, databases (default /var/cache/treedrift-bench)
#   TREEDRIFT              this build's binary (default build/cli/treedrift)
#   BENCH_TREE             tree in the database (default trees/linux-6.1.192-3)
#   BENCH_COMPARE_TREE     tree compared (default trees/linux-6.12.118-1~deb12u1)
#   BENCH_ROUNDS           rounds (default 5)
#   BENCH_TLSH_LOOPS       TLSH loops to time each build with (TD_TLSH_LOOP),
#                          e.g. "avx512 pair scalar"; empty: the one picked
# Prints a Markdown table: per command the median and fastest wall time, the
# median user+sys time, and the median wall time's ratio to cat and to before.
set -euo pipefail
REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -ge 1 ]] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
REV=$1
shift
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
AFTER=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
TREE=${BENCH_TREE:-$CACHE/trees/linux-6.1.192-3}
OTHER=${BENCH_COMPARE_TREE:-$CACHE/trees/linux-6.12.118-1~deb12u1}
ROUNDS=${BENCH_ROUNDS:-5}
read -r -a LOOPS <<<"${BENCH_TLSH_LOOPS:-}"
[[ ${#LOOPS[@]} -gt 0 ]] || LOOPS=(auto)
for d in "$TREE" "$OTHER"; do
    [[ -d $d ]] || { echo "ab: no tree $d (bench/fetch.sh gets them)" >&2; exit 2; }
done
[[ -x $AFTER ]] || { echo "ab: no build at $AFTER (cmake --build build)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "ab: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

commit=$(git -C "$REPO_ROOT" rev-parse --verify "$REV^{commit}")
AB=$CACHE/ab
SRC=$AB/src-${commit:0:12}
BUILD=$AB/build-${commit:0:12}
mkdir -p "$AB"
if [[ ! -x $BUILD/cli/treedrift ]]; then
    [[ -d $SRC ]] || git -C "$REPO_ROOT" worktree add --detach "$SRC" "$commit" >&2
    cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$BUILD" -j"$(nproc)" --target treedrift-cli >/dev/null
fi
BEFORE=$BUILD/cli/treedrift
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for side in before after; do
    bin=$BEFORE
    [[ $side == after ]] && bin=$AFTER
    rm -f "$TMP/$side.db"
    "$bin" scan -q "$TREE" -o "$TMP/$side.db"
done

# one timed run: label, then the command; appends "label wall user+sys"
timed() {
    local label=$1 s=0
    shift
    /usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || s=$?
    if [[ $s -gt 1 ]]; then
        echo "ab: '$label' failed (exit $s):" >&2
        cat "$TMP/err" >&2
        exit 2
    fi
    # the last line: GNU time puts "Command exited with non-zero status" before it
    tail -n 1 "$TMP/time" | awk -v l="$label" '{ printf "%s\t%s\t%.2f\n", l, $1, $2 + $3 }' >>"$TMP/times"
}

labels=(cat)
for loop in "${LOOPS[@]}"; do
    labels+=("before $loop" "after $loop")
done
for ((r = 1; r <= ROUNDS; r++)); do
    # Copy verification reads the database's tree again: keep it in the page
    # cache too (a VM may hold its cache to a few GB and drop what is not read).
    find "$TREE" -type f -print0 | xargs -0 cat >/dev/null
    timed cat sh -c 'find "$1" -type f -print0 | xargs -0 cat' sh "$OTHER"
    for loop in "${LOOPS[@]}"; do
        for side in before after; do
            bin=$BEFORE
            [[ $side == after ]] && bin=$AFTER
            timed "$side $loop" env TD_TLSH_LOOP="$loop" "$bin" compare -f json -o /dev/null "$@" \
                "$TMP/$side.db" "$OTHER"
        done
    done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column_of() { awk -F'\t' -v l="$1" -v c="$2" '$1 == l { print $c }' "$TMP/times"; }

echo "# treedrift before and after"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), $ROUNDS rounds, interleaved"
echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
    "(family $(awk -F': ' '/^cpu family/ { print $2; exit }' /proc/cpuinfo)," \
    "model $(awk -F'\t*: ' '/^model\t/ { print $2; exit }' /proc/cpuinfo)), $(nproc) cores"
echo "- before: $REV (${commit:0:12}); after: $(git -C "$REPO_ROOT" describe --always --dirty)," \
    "$("$AFTER" --version | head -n 1)"
echo "- compare $(basename "$OTHER") against a database of $(basename "$TREE")${*:+, options: $*}"
echo
echo "| command | median [s] | fastest [s] | user+sys [s] | × cat | after ÷ before |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
cat_median=$(column_of cat 2 | median)
for label in "${labels[@]}"; do
    wall=$(column_of "$label" 2 | median)
    fast=$(column_of "$label" 2 | sort -g | head -n 1)
    cpu=$(column_of "$label" 3 | median)
    ratio=-
    if [[ $label == after* ]]; then
        prev=$(column_of "before ${label#after }" 2 | median)
        ratio=$(awk -v a="$wall" -v b="$prev" 'BEGIN { printf "%.2f", a / b }')
    fi
    printf '| %s | %.2f | %.2f | %.2f | %s | %s |\n' "$label" "$wall" "$fast" "$cpu" \
        "$(awk -v a="$wall" -v b="$cat_median" 'BEGIN { printf "%.2f", a / b }')" "$ratio"
done
