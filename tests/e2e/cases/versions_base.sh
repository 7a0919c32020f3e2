# one database of several versions (scan --label appends): versions, base
# detection (a clear answer, a tie), compare --base auto, and a file that
# equals another version's copy of its path
python3 - <<'PY'
import os, random
def text(seed, n=3000):
    r = random.Random(seed)
    return "".join(r.choice("abcdefghij klmnop\n") for _ in range(n))
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(data)
# file k changes at version min(k, 3): f3, f4 and f5 all change at v3
for v in (1, 2, 3):
    for k in range(6):
        at = min(k, 3)
        put(f"v{v}/src/f{k}.c", text(100 * k + (at if at <= v else 0)))
    if v >= 2:
        put(f"v{v}/src/new2.c", text(77))
# a vendor tree on v2: one file edited, one backported from v3
os.system("cp -r v2 vendor")
put("vendor/src/f0.c", text(0) + "vendor change\n")
put("vendor/src/f3.c", text(300 + 3))
PY
$TD scan -q v1 -o multi.db --label v1.1
$TD scan -q v2 -o multi.db --label v1.2
$TD scan -q v3 -o multi.db --label v1.3
echo "== versions"
$TD versions multi.db | sed 's/database [0-9]* bytes/database N bytes/'
$TD versions -f json multi.db | sed 's/"database_bytes": [0-9]*/"database_bytes": N/'
echo "== base of each version's tree"
for v in 1 2 3; do s=0; $TD base -q multi.db v$v || s=$?; echo "exit $s"; done
echo "== base of the vendor tree"
s=0; $TD base -q multi.db vendor || s=$?; echo "exit $s"
$TD base -q -f json --top 2 multi.db vendor || echo "exit $?"
echo "== a tie: v1.2 scanned again as v1.2-again"
$TD scan -q v2 -o multi.db --label v1.2-again
s=0; $TD base -q multi.db v2 || s=$?; echo "exit $s"
echo "== compare --base auto"
s=0; $TD compare --base auto multi.db vendor 2>err.txt || s=$?; echo "exit $s"; cat err.txt
$TD scan -q v2 -o one.db --label v1.2
s=0; $TD compare -q --base auto one.db v1 || s=$?; echo "exit $s"
s=0; $TD compare -q --base auto v2 v1 2>err.txt || s=$?; echo "exit $s $(cat err.txt)"
echo "== matches another version"
s=0; $TD compare -q --base v1.2 multi.db vendor || s=$?; echo "exit $s"
$TD compare -q --base v1.2 -f csv multi.db vendor || echo "exit $?"
$TD compare -q --base v1.2 -f json multi.db vendor | grep -E '"origins"|"matches_version": "' | sed 's/"sha256.*"matches_version"/... "matches_version"/' || echo "exit $?"
echo "== base of a database version, without the length term"
$TD scan -q vendor -o vendor.db --label bsp-1
$TD scan -q v1 -o vendor.db --label bsp-0
s=0; $TD base -q --no-length --top 1 --target-label bsp-1 multi.db vendor.db || s=$?; echo "exit $s"
echo "== errors"
for args in "base multi.db" "base --top x multi.db vendor" "base -f xml multi.db vendor" "versions" "versions vendor"; do
	s=0; $TD $args >/dev/null 2>err.txt || s=$?
	echo "$s $(head -n 1 err.txt)"
done
