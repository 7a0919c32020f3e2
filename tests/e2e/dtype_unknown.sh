#!/usr/bin/env bash
# A directory walk on a file system that leaves d_type unknown (a preloaded
# shim, dtype_unknown.c, the second argument, rewrites every entry) finds
# the same entries, types and digests as one where readdir tells the type:
# files, directories whose names sort around files, symlinks to files, to
# directories and out of the tree, a fifo and an empty directory, in the
# same order.
. "$(dirname "$0")/lib.sh"
shim=$2
[ -f "$shim" ] || { echo "no shim at '$shim'" >&2; exit 1; }
# a shim in front of an ASan runtime is fine here
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
t=$TMP/t
mkdir -p "$t/a" "$t/a-b/deep/er" "$t/empty" "$t/z"
for f in a.c a/x.c a-b/y.h a-b/deep/er/w.c z/last.S top.txt; do
	seq 1 200 | sed "s|^|$f |" >"$t/$f"
done
printf 'short\n' >"$t/a/tiny"
ln -s top.txt "$t/link-file"
ln -s a-b "$t/link-dir"
ln -s /etc/passwd "$t/link-out"
ln -s missing "$t/link-dangling"
mkfifo "$t/a/pipe"

scan() { # DB [env...]: scan the tree into DB; print the exit status
	local db=$1
	shift
	rm -f "$db"
	env "$@" "$TD_REAL" scan -q "$t" --label v -o "$db" 2>"$db.err" && echo 0 || echo $?
}
check_eq "scan, d_type known" "$(scan "$TMP/known.db")" 0
check_eq "scan, d_type unknown" \
	"$(scan "$TMP/unknown.db" LD_PRELOAD="$shim" TD_DTYPE_LOG="$TMP/log")" 0
if [ ! -s "$TMP/log" ]; then
	echo "the shim sees no readdir calls here; skipped"
	exit 77
fi
# the entries, not the versions line (scan time) nor the database's size
entries() { "$TD" show -f json "$1" | sed -n '/"entries"/,$p'; }
entries "$TMP/known.db" >"$TMP/known.json"
entries "$TMP/unknown.db" >"$TMP/unknown.json"
check_eq "same entries" "$(diff "$TMP/known.json" "$TMP/unknown.json")" ""
# the walk's order, in byte order of the paths, gives the same path ids
ids() { sqlite3 "$1" 'SELECT id, CAST(path AS TEXT) FROM path ORDER BY id'; }
check_eq "same path ids" "$(ids "$TMP/unknown.db")" "$(ids "$TMP/known.db")"
check_eq "same messages" "$(cat "$TMP/unknown.db.err")" "$(cat "$TMP/known.db.err")"
grep -q '"path": "a-b/deep/er/w.c"' "$TMP/unknown.json" && ok || fail "nested file missing"
grep -q '"path": "link-dir"' "$TMP/unknown.json" && ok || fail "symlink to a directory missing"
grep -q '"path": "link-dir/' "$TMP/unknown.json" && fail "followed a symlink to a directory" || ok
finish
