#!/usr/bin/env bash
# treedrift trend: three releases (a directory, an archive, a database)
# against an upstream database, the table and the SVG chart (parsed back as
# XML), --base, --title, and the errors.
. "$(dirname "$0")/lib.sh"
up=$TMP/up
mkdir -p "$up/drivers" "$up/kernel"
for i in 1 2 3 4 5; do seq 1 $((i * 400)) | sed "s/^/upstream $i /" >"$up/drivers/d$i.c"; done
seq 1 3000 | sed 's/^/core /' >"$up/kernel/core.c"
"$TD" scan -q "$up" --label v1.0 -o "$TMP/up.db"
mkdir -p "$TMP/old"; seq 1 100 >"$TMP/old/x.c"
"$TD" scan -q "$TMP/old" --label v0.9 -o "$TMP/up.db"
release() { # name, files changed, files added
	local d=$TMP/$1; cp -r "$up" "$d"
	for i in $(seq 1 "$2"); do sed -i "1,$((i * 60))s/upstream/vendor/" "$d/drivers/d$i.c"; done
	for i in $(seq 1 "$3"); do seq 1 500 | sed "s/^/new $i /" >"$d/drivers/new$i.c"; done
}
release r1 1 0; release r2 2 1; release r3 4 2
tar -C "$TMP" -cf "$TMP/r2.tar" r2
"$TD" scan -q "$TMP/r3" --label bsp-3 -o "$TMP/r3.db"

s=0; "$TD" trend -q --base v1.0 --svg "$TMP/t.svg" "$TMP/up.db" "$TMP/r1" "$TMP/r2.tar" "$TMP/r3.db" \
	>"$TMP/out" 2>"$TMP/err" || s=$?
check_eq "trend exit" "$s" 0
check_eq "table rows" "$(wc -l <"$TMP/out")" 4
check_eq "header" "$(head -1 "$TMP/out" | tr -s ' ')" "release distance modified added removed clean safe dirty new"
check_eq "labels" "$(awk 'NR > 1 { print $1 }' "$TMP/out" | tr '\n' ' ')" "r1 r2.tar bsp-3 "
check_eq "modified" "$(awk 'NR > 1 { print $3 }' "$TMP/out" | tr '\n' ' ')" "1 2 4 "
check_eq "added" "$(awk 'NR > 1 { print $4 }' "$TMP/out" | tr '\n' ' ')" "0 1 2 "
python3 - "$TMP/t.svg" "$TMP/out" <<'PY' && ok || fail "svg chart"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg"
rows = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:]]
pts = root.findall(".//s:g[@class='point']", ns)
assert [p.get("data-label") for p in pts] == [r[0] for r in rows]
assert [int(p.get("data-value")) for p in pts] == [int(r[1]) for r in rows]
line = root.find(".//s:polyline", ns).get("points").split()
assert len(line) == 3
ys = [float(p.split(",")[1]) for p in line]
assert ys[0] > ys[1] > ys[2], ys  # distance grows: the line climbs
assert "v1.0" in "".join(root.find("s:text", ns).itertext())
PY
[ -s "$TMP/err" ] && fail "stderr not empty: $(cat "$TMP/err")" || ok

# --base picks the other upstream version: every file then differs
s=0; "$TD" trend -q --base v0.9 --title 'a <b> & "c"' --svg "$TMP/t2.svg" "$TMP/up.db" "$TMP/r1" >"$TMP/out" || s=$?
check_eq "trend --base exit" "$s" 0
check_eq "against v0.9" "$(awk 'NR == 2 { print $4, $5 }' "$TMP/out")" "6 1"
python3 -c "import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); \
t=''.join(r.find('{http://www.w3.org/2000/svg}text').itertext()); assert t=='a <b> & \"c\"', t" "$TMP/t2.svg" \
	&& ok || fail "title not escaped"

s=0; "$TD" trend "$TMP/up.db" 2>"$TMP/err" || s=$?
check_eq "one operand" "$s" 2
s=0; "$TD" trend -q "$TMP/up.db" "$TMP/r1" "$TMP/nope" >/dev/null 2>"$TMP/err" || s=$?
check_eq "missing target" "$s" 2
s=0; "$TD" trend -q --base v7 "$TMP/up.db" "$TMP/r1" >/dev/null 2>"$TMP/err" || s=$?
check_eq "unknown base" "$s" 2
s=0; "$TD" trend -q --svg /nonexistent/dir/t.svg "$TMP/up.db" "$TMP/r1" >/dev/null 2>"$TMP/err" || s=$?
check_eq "unwritable svg" "$s" 2
# trend scores a pair as compare does (moves and copies included): same total
ex=$SRC/examples
want=$("$TD" compare -q --format json "$ex/upstream" "$ex/vendor" | python3 -c 'import json, sys; print(json.load(sys.stdin)["totals"]["total_distance"])' || true)
got=$("$TD" trend -q "$ex/upstream" "$ex/vendor" | awk 'NR == 2 { print $2 }')
check_eq "trend total = compare total" "$got" "$want"
want=$("$TD" compare -q --no-origins --format json "$ex/upstream" "$ex/vendor" | python3 -c 'import json, sys; print(json.load(sys.stdin)["totals"]["total_distance"])' || true)
got=$("$TD" trend -q --no-origins "$ex/upstream" "$ex/vendor" | awk 'NR == 2 { print $2 }')
check_eq "trend --no-origins total = compare --no-origins total" "$got" "$want"
finish
