# compare --patches: a git range, the same patches as files on a directory,
# JSON checked against the schema, and a patch that does not apply.
. "$SRC/tests/e2e/git_env.sh"
g init -q r
cd r
awk 'BEGIN { for (i = 1; i <= 80; i++) printf "static int v%d = %d; /* line %d of the driver */\n", i, i * 3, i }' > drv.c
mkdir doc && printf 'readme\n' > doc/README && printf 'x\n' > gone.txt
g add -A && g commit -qm base && g tag base && g checkout -qb vendor
sed -i '20a static int vendor_knob = 1;\nstatic int vendor_knob2 = 2;' drv.c
g commit -qam 'UPSTREAM: drv: a knob' -m '(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)'
printf 'vendor notes\n' >> doc/README && g commit -qam 'doc: vendor notes' -m 'Forwarded: not-needed'
g rm -q gone.txt && g commit -qm 'ANDROID: drop gone.txt'
mkdir ../base ../target && g archive base | tar -x -C ../base && g archive vendor | tar -x -C ../target
g format-patch -q -o ../fp base..vendor
cd ..
printf 'not from a patch\n' > target/extra.txt
s=0; "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor || s=$?
echo "git range exit $s"
s=0; "$TD" compare base target --patches fp || s=$?
echo "series exit $s"
"$TD" compare base target --patches fp --format json > out.json || true
python3 "$SRC/tests/e2e/validate_json.py" "$SRC/doc/treedrift-compare.schema.json" out.json
python3 - <<'PY'
import json, sys
doc = json.load(open("out.json"))
print("schema ok")
print(doc["patch_source"])
for p in doc["patches"]:
    print(p["id"], p["origin"]["status"], p["lines_added"], p["lines_removed"], p["lines_surviving"],
          [f["path"] for f in p["files"]])
for f in doc["files"]:
    print(f["path"], f["status"], f.get("patches"), f.get("patches_reproduce"))
PY
"$TD" compare base target --patches fp --format markdown | sed -n '/^## Patches/,$p' || true
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --format cyclonedx > out.cdx.json || true
python3 "$SRC/tests/e2e/cyclonedx_validate.py" "$SRC/doc/schema/cyclonedx" out.cdx.json && echo "cyclonedx valid"
python3 -c 'import json; print(json.load(open("out.cdx.json"))["metadata"]["component"]["pedigree"]["patches"])'
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --format html > out.html || true
grep -c '<h2 id="patches">' out.html
# each patch's files under its subject
grep -o '<summary>[^<]*</summary><ul class="pf">.*</ul></details>' out.html
printf 'Subject: broken\n\n--- a/drv.c\n+++ b/drv.c\n@@ -5,2 +5,2 @@\n-not there\n+x\n context\n' > fp/0004-broken.patch
s=0; "$TD" compare base target --patches fp > /dev/null 2> err || s=$?
echo "broken exit $s"
cat err
# a patch's subject and file names are escaped in its file list
g init -q h && cd h && printf 'one\n' > a.txt && g add -A && g commit -qm base && g tag base
printf 'two\n' > 'x<b>y.c' && g add -A && g commit -qm '<script>alert(1)</script>' && cd ..
"$TD" compare git:h@base git:h@HEAD --patches git:h@base..HEAD --format html > hostile.html || true
grep -c '<script>alert' hostile.html || true
grep -o '<summary>[^<]*</summary><ul class="pf">.*</ul></details>' hostile.html
# the certification counts the files a patch adds, and those copied from another; a patch that
# only adds new files is new, and one with a copy is classed by the copy's distance
cd h && awk 'BEGIN { for (i = 1; i <= 60; i++) printf "static int h_%d = %d; /* row %d */\n", i, i * 11, i }' > c.c
g add -A && g commit -qm 'c.c' && sed '9d' c.c > c2.c && printf 'new file of its own\n' > n.txt
g add -A && g commit -qm 'a copy and a new file' && cd ..
"$TD" compare git:h@base git:h@HEAD --patches git:h@base..HEAD --format markdown | grep '^| [0-9]* |' |
	cut -d'|' -f2,4,5,7,8
# --rebase-onto: each patch on a newer upstream, as git rebase applies it. The
# newer one took the knob (already there), changed the README's last line
# (the vendor's note after it conflicts) and gone.txt (its removal conflicts).
cd r && g checkout -q -b newer base && g cherry-pick -x vendor~2 >/dev/null
sed -i '70s/.*/static int v70 = 1; \/* changed upstream *\//' drv.c && printf 'readme v2\n' > doc/README
printf 'y\n' > gone.txt && g commit -qam 'newer upstream' && cd ..
objects=$(find r/.git/objects -type f | wc -l)
s=0; "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --rebase-onto git:r@newer | sed -n '/^Rebase onto/,$p' || s=$?
# what the merges write stays in memory: the repository gains no object
[ "$(find r/.git/objects -type f | wc -l)" = "$objects" ] && echo "repository untouched"
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --rebase-onto git:r@newer -f json > rebase.json || true
python3 "$SRC/tests/e2e/validate_json.py" "$SRC/doc/treedrift-compare.schema.json" rebase.json
python3 - <<'PY'
import json, sys
doc = json.load(open("rebase.json"))
print("rebase schema ok", doc["patch_source"]["rebase"])
for p in doc["patches"]:
    print(p["subject"], p["rebase"])
PY
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --rebase-onto git:r@newer -f markdown | sed -n '/^### Rebase onto/,$p'
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --rebase-onto git:r@newer -f html | grep -o 'Rebase onto [^<]*\|<td>\(already there\|conflict\|applies\)[^<]*'
# a series onto a directory where drv.c has 3 new first lines, doc/README
# moved to docs/ and gone.txt is gone: the knob applies lower down, the
# note follows the README where it went, the removal is already there
mkdir newer2 fp3 && cp -r base/. newer2/ && cp fp/000[123]-* fp3/ && rm newer2/gone.txt
mkdir newer2/docs && mv newer2/doc/README newer2/docs/README
sed -i '1i /* a new first line */\n/* and two */\n/* more */' newer2/drv.c
"$TD" compare base target --patches fp3 --rebase-onto newer2 | sed -n '/^Rebase onto/,$p'
"$TD" compare base target --patches fp3 --rebase-onto newer2 -f json | python3 -c '
import json, sys
print([(p["subject"], p["rebase"]["status"]) for p in json.load(sys.stdin)["patches"]])'
# the other reasons: a file added on both sides, a change to a file that
# an earlier patch adds, when that patch did not apply, and a change to a
# file the newer tree removed
g init -q q && cd q && printf 'one\ntwo\n' > a.txt && printf 'b\n' > b.txt && printf '\000base' > c.bin
g add -A && g commit -qm base && g tag base
g checkout -qb vendor && printf 'ONE\ntwo\n' > a.txt && printf 'v1\n' > new.txt && g add -A && g commit -qm 'p1: a.txt and new.txt'
printf 'v2\n' > new.txt && g commit -qam 'p2: new.txt' && printf 'same\n' > other.txt && g add -A && g commit -qm 'p3: other.txt'
printf 'vendor\n' > third.txt && g add -A && g commit -qm 'p4: third.txt'
printf 'b2\n' > b.txt && g commit -qam 'p5: b.txt' && printf '\000vendor' > c.bin && g commit -qam 'p6: c.bin'
g checkout -qb newer base && printf 'One\ntwo\n' > a.txt && printf 'same\n' > other.txt && printf 'upstream\n' > third.txt
g rm -q b.txt && printf '\000upstream' > c.bin
g add -A && g commit -qm 'newer' && cd ..
"$TD" compare git:q@base git:q@vendor --patches git:q@base..vendor --rebase-onto git:q@newer | sed -n '/^Rebase onto/,$p'
s=0; "$TD" compare base target --rebase-onto newer2 2>&1 || s=$?
echo "without --patches: exit $s"
"$TD" scan -q newer2 -o newer2.db
s=0; "$TD" compare -q base target --patches fp3 --rebase-onto newer2.db > /dev/null 2> err || s=$?
cat err
echo "onto a database: exit $s"
# --fail-on conflict: exit 1 only when a patch conflicts on the newer tree
s=0; "$TD" compare -q base target --patches fp3 --rebase-onto newer2 --fail-on conflict > /dev/null || s=$?
echo "--fail-on conflict, none: exit $s"
s=0; "$TD" compare -q git:q@base git:q@vendor --patches git:q@base..vendor --rebase-onto git:q@newer \
	--fail-on conflict > /dev/null || s=$?
echo "--fail-on conflict, some: exit $s"
s=0; "$TD" compare -q base target --patches fp3 --fail-on conflict 2>&1 || s=$?
echo "--fail-on conflict without --rebase-onto: exit $s"
