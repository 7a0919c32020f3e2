#!/bin/sh
# End-to-end test of `treedrift distance`: the reference's distances, with
# and without the length term, and the handling of bad digests.
#
# Usage: distance.sh TREEDRIFT DATA_DIR   (DATA_DIR is tests/data)
# Exits 77 (skipped) when TREEDRIFT has not been built.
set -u

bin=$1
data=$2/tlsh
[ -x "$bin" ] || { echo "skip: $bin not built"; exit 77; }
vgdir=$(mktemp -d) || exit 2
trap 'rm -rf "$vgdir"' EXIT
. "$(dirname "$0")/wrap.sh"
bin=$(td_wrap "$bin" "$vgdir")
fail=0
check() {
	echo "FAIL: $1" >&2
	fail=1
}

digest() { # digest PATH: the expected digest of an example file
	grep -F "	$1" "$data/expected/len.out" | cut -f1
}

# The first 40 pairs of each cross-distance file (5 under valgrind).
pairs=40
[ -z "${TD_VALGRIND:-}" ] || pairs=5
for kind in len xlen; do
	opt=
	[ $kind = xlen ] && opt=--no-length
	head -n "$pairs" "$data/expected/$kind.xref.scores" | while IFS='	' read -r a b want; do
		got=$("$bin" distance $opt "$(digest "$a")" "$(digest "$b")")
		[ "$got" = "$want" ] || { echo "FAIL: distance $opt $a $b = $got, want $want" >&2; exit 1; }
	done || fail=1
done

# Without the "T1" prefix, and in lower case.
a=$(digest example_data/0Alice.txt)
b=$(digest example_data/bio.txt)
want=$("$bin" distance "$a" "$b")
got=$("$bin" distance "${a#T1}" "$(echo "${b#T1}" | tr 'A-F' 'a-f')")
[ "$got" = "$want" ] || check "distance without prefix"
[ "$("$bin" distance "$a" "$a")" = 0 ] || check "distance to itself"

"$bin" distance "$a" nothex >/dev/null 2>"${TMPDIR:-/tmp}/td_distance_err.$$"
[ $? -eq 2 ] || check "bad digest: exit status"
grep -qF "treedrift: 'nothex' is not a TLSH digest" "${TMPDIR:-/tmp}/td_distance_err.$$" || check "bad digest: message"
rm -f "${TMPDIR:-/tmp}/td_distance_err.$$"
"$bin" distance "$a" >/dev/null 2>&1
[ $? -eq 2 ] || check "one operand: exit status"
"$bin" distance --help | grep -q '^usage: treedrift distance' || check "distance --help"

[ $fail -eq 0 ] && echo "ok"
exit $fail
