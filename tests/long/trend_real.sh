#!/usr/bin/env bash
# Opt-in: treedrift trend on real linux-source-6.1 releases. A database of
# linux-6.1.176-1, then 6.1.187-1, 6.1.190-1 and 6.1.192-3 as the targets (from
# bench/fetch.sh's cache): the table has a row per release, distance grows
# with the release, and the SVG chart parses as XML with one point per row.
set -euo pipefail
td=$1
cache=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
base=$cache/trees/linux-6.1.176-1
targets=("$cache/trees/linux-6.1.187-1" "$cache/trees/linux-6.1.190-1" "$cache/trees/linux-6.1.192-3")
for d in "$base" "${targets[@]}"; do
	[ -d "$d" ] || { echo "tree $d missing: run bench/fetch.sh" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$td" scan -q "$base" --label linux-6.1.176-1 -o "$tmp/up.db"
"$td" trend -q --base linux-6.1.176-1 --svg "$tmp/trend.svg" "$tmp/up.db" "${targets[@]}" | tee "$tmp/table"
python3 - "$tmp/trend.svg" "$tmp/table" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
rows = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:]]
assert [r[0] for r in rows] == ["linux-6.1.187-1", "linux-6.1.190-1", "linux-6.1.192-3"], rows
dist = [int(r[1]) for r in rows]
assert dist[0] < dist[1] < dist[2], dist
assert all(int(r[2]) > 1000 for r in rows), rows
pts = ET.parse(sys.argv[1]).getroot().findall(".//s:g[@class='point']", ns)
assert [int(p.get("data-value")) for p in pts] == dist
print("trend ok:", dist)
PY
