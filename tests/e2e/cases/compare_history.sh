# compare --history: an upstream repository (a base, commits after it, a
# merge) and a vendor tree exported as a directory that takes one commit
# exactly, one modified, leaves one out, takes a new file and a removal,
# and adds its own lines. Each changed line is upstream or local; the JSON
# is checked against the schema; --classify local moves the classes and
# --fail-on; trend prints the local distance; the errors are clear.
. "$SRC/tests/e2e/git_env.sh"
export GIT_AUTHOR_NAME=Up GIT_AUTHOR_EMAIL=up@example.org GIT_COMMITTER_NAME=Up GIT_COMMITTER_EMAIL=up@example.org
gen() { awk -v p="$1" 'BEGIN { for (i = 1; i <= 60; i++) printf "static int %s_%d(int x) { return x * %d + %d; }\n", p, i, i, i * 7 }'; }
g init -q up
cd up
gen a > a.c; gen b > b.c; gen c > c.c; gen d > d.c
g add -A && g commit -qm base && g tag base
# u1: 30 lines into a.c (the vendor takes it exactly)
up1() { awk 'NR == 10 { for (i = 1; i <= 30; i++) printf "static long up1_%d(long y) { return y << %d; }\n", i, i % 7 } 1' a.c > a.new && mv a.new a.c; }
up1 && g commit -qam 'a: up1'
# u2: three lines into b.c, one of them changed by the vendor (a modified backport)
sed -i '30a static int up2_p = 1;\nstatic int up2_q = 2;\nstatic int up2_r = 3;' b.c && g commit -qam 'b: up2'
# u3: c.c, not taken
sed -i '20a static int up3 = 3;' c.c && g commit -qam 'c: up3'
# u4 on a side branch, merged: a new file n.c (taken, blank line and brace included)
g checkout -qb side && printf 'static int n1;\n\nstatic int n2(void)\n{\n\treturn 2;\n}\n' > n.c && g add n.c &&
	g commit -qm 'n: new' && g checkout -q main && g merge -q --no-ff -m 'merge side' side
# u5: a line removed from d.c (taken)
sed -i '/^static int d_40(/d' d.c && g commit -qam 'd: drop d_40'
g tag tip
mkdir ../vendor && g archive base | tar -x -C ../vendor
cd ../vendor
up1
sed -i '30a static int up2_p = 1;\nstatic int up2_q = 2;\nstatic int up2_r = 33;' b.c
sed -i '50a /* vendor */\nstatic int vendor_b = 9;\n\nstatic int vendor_b2 = 10;' b.c
sed -i '/^static int c_3(/d' c.c
sed -i '/^static int d_40(/d' d.c
printf 'static int n1;\n\nstatic int n2(void)\n{\n\treturn 2;\n}\n' > n.c
printf 'static int vendor_only(void)\n{\n\treturn 1;\n}\n' > v.c
cd ..
s=0; "$TD" compare git:up@base vendor --history git:up@tip || s=$?
echo "exit $s"
"$TD" compare git:up@base vendor --history git:up@tip --format json > out.json || true
python3 "$SRC/tests/e2e/validate_json.py" "$SRC/doc/treedrift-compare.schema.json" out.json
python3 - <<'PY'
import json, sys
doc = json.load(open("out.json"))
print("schema", doc["schema"], "ok")
p = doc["provenance"]
print({k: v for k, v in p.items() if k != "history"}, p["history"]["commits"], p["history"]["merges_skipped"])
for f in doc["files"]:
    q = f["provenance"]
    print(f["path"], f["status"], f["distance"], q and (q["state"], q["added_upstream"], q["removed_upstream"],
          q["added_local"], q["removed_local"], q["split_upstream"], q["split_local"], len(q["commits"])))
PY
echo "-- --fail-on safe: the total distance, then the local distance"
s=0; "$TD" compare git:up@base vendor --history git:up@tip --fail-on safe >/dev/null || s=$?
echo "exit $s"
s=0; "$TD" compare git:up@base vendor --history git:up@tip --classify local --fail-on safe > out.txt || s=$?
sed -n '/^provenance/p;/mismatched/,/^$/p' out.txt
echo "exit $s"
echo "-- a directory upstream needs --base-commit"
g -C up archive base | (mkdir base && tar -x -C base)
s=0; "$TD" compare base vendor --history git:up@tip 2>&1 >/dev/null || s=$?
echo "exit $s"
s=0; "$TD" compare base vendor --history git:up@tip --base-commit base | grep '^provenance' || s=$?
echo "exit $s"
echo "-- no tip: every ref descending from the base"
"$TD" compare base vendor --history git:up --base-commit base | grep '^history'
echo "-- errors"
s=0; "$TD" compare base vendor --classify local 2>&1 || s=$?
echo "exit $s"
s=0; "$TD" compare git:up@base vendor --history git:up@nosuch 2>&1 || s=$?
echo "exit $s"
s=0; "$TD" compare git:up@tip vendor --history git:up@base 2>&1 || s=$?
echo "exit $s"
echo "-- trend"
"$TD" trend -q git:up@base vendor --history git:up@tip
"$TD" compare git:up@base vendor --history git:up@tip --format html | grep -c 'data-p="mixed"'
