#!/bin/sh
# Opt-in check of base detection and copy detection on real trees (ctest -L
# long, with -DTD_LONG_TESTS=ON):
# - scan the linux-6.1 trees of the benchmark cache into one database with
#   `scan --label`, and print its size after each version;
# - base detection on each version's own tree must pick that version, and
#   not call it ambiguous; print the time of each;
# - time the nearest-neighbour search of the origin stage: the files added
#   in linux-6.12 against all of linux-6.1.192 (one thread, then all).
#
#   origins.sh TREEDRIFT ORIGIN_BENCH
#
# Trees come from $TREEDRIFT_BENCH_CACHE/trees (bench/fetch.sh); exit 77
# (skipped) when fewer than two 6.1 trees are there. Scratch goes to a
# temporary directory under $TMPDIR, removed at the end.
set -eu
TD=${1:?usage: origins.sh TREEDRIFT ORIGIN_BENCH}
NN=${2:?usage: origins.sh TREEDRIFT ORIGIN_BENCH}
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
TREES=$CACHE/trees
set -- $(ls -d "$TREES"/linux-6.1.* 2>/dev/null | sort -V)
if [ $# -lt 2 ]; then
	echo "origins: fewer than two linux-6.1 trees in $TREES; run bench/fetch.sh" >&2
	exit 77
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/td-origins-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/multi.db
now() { date +%s.%N; }
prev=0
for tree; do
	label=v${tree##*/linux-}
	t0=$(now)
	"$TD" scan -q -o "$DB" --label "$label" "$tree"
	t1=$(now)
	size=$(stat -c %s "$DB")
	printf 'scan %s: %.1f s, database %d bytes (+%d)\n' "$label" "$(awk "BEGIN { print $t1 - $t0 }")" "$size" $((size - prev))
	prev=$size
done
"$TD" versions "$DB"
fail=0
for tree; do
	label=v${tree##*/linux-}
	if ! "$NN" base "$DB" "$tree" "$label" | sed "s/^/base $label: /"; then
		fail=1
	fi
done
NEW=$(ls -d "$TREES"/linux-6.12.* 2>/dev/null | head -n 1)
if [ -n "$NEW" ]; then
	last=$(echo "$@" | tr ' ' '\n' | tail -n 1)
	"$TD" scan -q -o "$WORK/new.db" --label new "$NEW"
	"$NN" nn "$DB" "v${last##*/linux-}" "$WORK/new.db" | sed "s/^/nn ${NEW##*/} vs v${last##*/linux-}: /" || fail=1
fi
exit $fail
