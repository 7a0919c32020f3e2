# one database, several versions: --label appends, --replace overwrites, --new starts over,
# --base and --target-label pick versions, --reuse takes digests from an earlier scan
"$TD" scan -q "$EX/upstream" -o up.db --label v1
"$TD" scan -q "$EX/vendor" -o up.db --label v2
s=0; "$TD" scan -q "$EX/vendor" -o up.db --label v2 2>err.txt || s=$?
echo "same label again: $s $(cat err.txt)"
"$TD" scan -q "$EX/upstream" -o up.db --label v2 --replace
"$TD" show up.db | grep -E '^LABEL|^v[12] |^version|database' | sed 's/database [0-9]* bytes/database N bytes/'
echo "== --base v1 vs vendor"
s=0; "$TD" compare up.db "$EX/vendor" --base v1 --format csv | tr -d '\r' | cut -d, -f1-2 | head -n 4 || s=$?
echo "== --base nope"
s=0; "$TD" compare up.db "$EX/vendor" --base nope 2>err.txt >/dev/null || s=$?
echo "$s $(cat err.txt)"
echo "== target database version v1 against v2 (both the upstream tree): no drift"
s=0; "$TD" compare up.db up.db --base v2 --target-label v1 >/dev/null || s=$?
echo "exit $s"
echo "== --new"
"$TD" scan -q "$EX/vendor" -o up.db --label only --new
"$TD" show --versions up.db | awk 'NR > 1 {print $1, $2}'
echo "== --reuse"
cp -a "$EX/vendor" tree
"$TD" scan tree -o first.db --label b 2>&1
"$TD" scan tree -o second.db --label b --reuse first.db 2>&1
echo changed >>tree/Makefile
"$TD" scan tree -o third.db --label c --reuse second.db 2>&1
echo "== labels must be printable"
for l in '' $'v1\n' $'v\033[31m'; do
	s=0; "$TD" scan -q "$EX/upstream" -o labels.db --label "$l" 2>err.txt || s=$?
	echo "$s $(cat err.txt)"
done
test ! -e labels.db && echo "no database written"
