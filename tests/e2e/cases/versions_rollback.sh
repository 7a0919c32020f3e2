# A file equal to another version's copy is drift all the same: equal to a
# newer version it is a backport, to an older one a rollback. Both keep
# their distance to the base in the total, are shown apart in every format,
# and trend counts them the same way.
python3 - <<'PY'
import os, random
def text(seed, n=3000):
    r = random.Random(seed)
    return "".join(r.choice("abcdefghij klmnop\n") for _ in range(n))
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(data)
# f1 changes at v2, f2 at v3, f3 never
for v in (1, 2, 3):
    put(f"v{v}/src/f1.c", text(10 + min(v, 2)))
    put(f"v{v}/src/f2.c", text(20 + (2 if v == 3 else 1)))
    put(f"v{v}/src/f3.c", text(30))
# a vendor tree on v2: f1 rolled back to v1's, f2 taken from v3
os.system("cp -r v2 vendor")
put("vendor/src/f1.c", text(11))
put("vendor/src/f2.c", text(22))
PY
$TD scan -q v1 -o multi.db --label v1
$TD scan -q v2 -o multi.db --label v2
$TD scan -q v3 -o multi.db --label v3
echo "== text"
$TD compare -q multi.db vendor -b v2 || echo "exit $?"
echo "== json"
$TD compare -q multi.db vendor -b v2 -f json | grep -E '"origins"|"total_distance"|"version_match": "' |
	sed 's/"tlsh": "[^"]*"/"tlsh": T/g; s/"upstream_tlsh": "[^"]*"/"upstream_tlsh": T/g; s/"sha256": "[^"]*"/"sha256": S/g; s/"upstream_sha256": "[^"]*"/"upstream_sha256": S/g' || true
echo "== csv"
$TD compare -q multi.db vendor -b v2 -f csv | cut -d, -f1-4,10,14 || true
echo "== markdown"
$TD compare -q multi.db vendor -b v2 -f markdown | grep -E 'backport|rollback' || true
echo "== html"
$TD compare -q multi.db vendor -b v2 -f html | grep -o -E '(backport of|rollback to) v[0-9]' || true
echo "== base agrees with compare"
$TD base -q multi.db vendor -n 0 | grep -E ' v2 ' || true
$TD compare -q multi.db vendor -b v2 -f json |
	python3 -c 'import json,sys; print("compare total", json.load(sys.stdin)["totals"]["total_distance"])'
echo "== trend"
$TD trend -q multi.db vendor -b v2 || echo "exit $?"
