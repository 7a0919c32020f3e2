# scan --reuse DB takes digests from every version of DB, not only the
# newest: by path and stat (a directory scanned before) and by git blob id.
mkdir -p v1/src v2/src
for i in 1 2 3 4 5; do seq 1 $((100 * i)) | sed "s/^/v1 line $i /" >v1/src/f$i.c; done
for i in 1 2 3; do seq 1 $((90 * i)) | sed "s/^/v2 line $i /" >v2/src/g$i.c; done
$TD scan -q v1 -o db --label v1
$TD scan -q v2 -o db --label v2
echo "== a directory of the older version, by path and stat"
$TD scan v1 --reuse db -o again.db --label v1-again 2>&1
echo "== git revisions, by blob id"
export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent
g() { git -c user.name=t -c user.email=t@example.com -C repo "$@"; }
git init -q repo
cp -r v1/src repo/ && g add . && g commit -qm one && g tag r1
rm -r repo/src && cp -r v2/src repo/ && g add -A . && g commit -qm two && g tag r2
$TD scan -q git:repo@r1 -o git.db
$TD scan -q git:repo@r2 -o git.db
$TD scan git:repo@r1 --reuse git.db -o again-git.db 2>&1
echo "== the digests reused are the same"
$TD compare -q again.db v1 >/dev/null && echo "identical"
