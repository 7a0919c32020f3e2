#!/usr/bin/env bash
# compare, compare --base auto and trend open an upstream database once: the
# load hands its handle on to the matching of other versions. Every SQLite
# open is logged by a preloaded shim (open_log.c, the second argument).
. "$(dirname "$0")/lib.sh"
shim=$2
# a shim in front of an ASan runtime is fine here
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
text() { seq 1 "$2" | sed "s/^/$1 /"; }
mkdir -p "$TMP/v1" "$TMP/v2"
text same 400 >"$TMP/v1/same.c"; cp "$TMP/v1/same.c" "$TMP/v2/"
text old 500 >"$TMP/v1/back.c"; text new 500 >"$TMP/v2/back.c"
text own 600 >"$TMP/v1/own.c"; cp "$TMP/v1/own.c" "$TMP/v2/"
for f in x y; do text "$f-1" 300 >"$TMP/v1/$f.c"; text "$f-2" 300 >"$TMP/v2/$f.c"; done
"$TD" scan -q "$TMP/v1" --label v1 -o "$TMP/up.db"
"$TD" scan -q "$TMP/v2" --label v2 -o "$TMP/up.db"
# a vendor tree on v1 (x.c and y.c as there): back.c as in v2, own.c edited
cp -r "$TMP/v1" "$TMP/vendor"
cp "$TMP/v2/back.c" "$TMP/vendor/"
sed -i '1,100s/own/vendor/' "$TMP/vendor/own.c"

opens() { # command...: run it with the shim; print how often up.db was opened
	rm -f "$TMP/log"
	TD_OPEN_LOG=$TMP/log LD_PRELOAD=$shim "$TD_REAL" "$@" >"$TMP/out" 2>"$TMP/err" || true
	grep -cFx "$TMP/up.db" "$TMP/log" 2>/dev/null || true
}
if [ "$(opens versions "$TMP/up.db")" != 1 ]; then
	echo "the shim sees no database opens here; skipped"
	exit 77
fi
check_eq "compare --base v1" "$(opens compare -q --base v1 -f json "$TMP/up.db" "$TMP/vendor")" 1
check_eq "back.c matches v2" "$(grep -c '"matches_version": "v2"' "$TMP/out")" 1
check_eq "compare (newest)" "$(opens compare -q "$TMP/up.db" "$TMP/vendor")" 1
check_eq "compare --no-origins" "$(opens compare -q --no-origins --base v1 "$TMP/up.db" "$TMP/vendor")" 1
check_eq "compare --base auto" "$(opens compare -q --base auto -f json "$TMP/up.db" "$TMP/vendor")" 1
check_eq "auto: back.c matches v2" "$(grep -c '"matches_version": "v2"' "$TMP/out")" 1
check_eq "trend, two targets" "$(opens trend -q --base v1 "$TMP/up.db" "$TMP/vendor" "$TMP/v2")" 1
check_eq "trend rows" "$(wc -l <"$TMP/out")" 3
check_eq "base" "$(opens base "$TMP/up.db" "$TMP/vendor")" 1
finish
