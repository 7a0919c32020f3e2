#!/usr/bin/env bash
# Opt-in: on two real trees, compare's modified/added/removed sets equal
# diff -rq's (a symlink's target is its content). Trees: $TD_TREE_A and
# $TD_TREE_B, by default two linux-source-6.1 versions from bench/fetch.sh's
# cache.
set -euo pipefail
td=$1
cache=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
a=${TD_TREE_A:-$cache/trees/linux-6.1.176-1}
b=${TD_TREE_B:-$cache/trees/linux-6.1.192-3}
if [ ! -d "$a" ] || [ ! -d "$b" ]; then
	echo "trees missing: run bench/fetch.sh, or set TD_TREE_A and TD_TREE_B" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$td" scan -q "$a" -o "$tmp/a.db" --label a
"$td" compare -q "$tmp/a.db" "$b" --format csv >"$tmp/got.csv" || [ $? = 1 ]
diff -rq --no-dereference "$a" "$b" >"$tmp/diff.txt" || true
python3 - "$a" "$b" "$tmp/got.csv" "$tmp/diff.txt" <<'PY'
import csv, os, re, sys
a, b, got_csv, diff_txt = sys.argv[1:]
got = {}
with open(got_csv, newline='', encoding='utf-8', errors='surrogateescape') as f:
    for row in csv.DictReader(f):
        got.setdefault(row['status'], set()).add(row['path'])
want = {'modified': set(), 'added': set(), 'removed': set()}
def expand(root, p):
    full = os.path.join(root, p)
    if os.path.isdir(full) and not os.path.islink(full):
        return {os.path.relpath(os.path.join(d, n), root) for d, _, fs in os.walk(full) for n in fs}
    return {p}
# contents or link targets that differ, or one kind of entry become another
changed = [re.compile(r'^(?:Files|Symbolic links) %s/(.*) and %s/.* differ$' % (re.escape(a), re.escape(b))),
           re.compile(r'^File %s/(.*) is an? .* while file %s/.* is an? .*$' % (re.escape(a), re.escape(b)))]
for line in open(diff_txt, encoding='utf-8', errors='surrogateescape'):
    line = line.rstrip('\n')
    m = next((m for m in (c.match(line) for c in changed) if m), None)
    if m:
        want['modified'].add(m.group(1))
        continue
    d, n = re.match(r'^Only in (.*): (.*)$', line).groups()
    root = b if d == b or d.startswith(b + '/') else a
    want['added' if root == b else 'removed'] |= expand(root, os.path.relpath(os.path.join(d, n), root))
bad = 0
for k, w in want.items():
    g = got.get(k, set())
    print(f'{k}: diff -rq {len(w)}, treedrift {len(g)}')
    if w != g:
        bad = 1
        print('  only in diff -rq:', sorted(w - g)[:10])
        print('  only in treedrift:', sorted(g - w)[:10])
sys.exit(bad)
PY
