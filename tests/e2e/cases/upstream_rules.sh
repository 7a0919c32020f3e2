# The status of upstream commits whose lines other commits of the history
# change again, against three targets: upstream's tip, the base (with a
# vendor change elsewhere), and the base with the first fix alone.
# - "m: fix one" changes a line that "m: rework" changes again: applied
#   where the rework is there too; missing where the target has neither (a
#   fix lacking is not excused by a later rework also lacking).
# - "m: add temp" and its revert: the revert only undoes what an earlier
#   commit did, and the target shows both or neither (undoes earlier); the
#   reverted commit is superseded by it.
# - "m: move a line" changes no line's count: the target's diff decides
#   (the lines of it provenance finds the commit made).
. "$SRC/tests/e2e/git_env.sh"
g init -q r
cd r
awk 'BEGIN { for (i = 1; i <= 40; i++) printf "int line_%d(void) { return %d; }\n", i, i * 7 }' > m.c
printf 'other\n' > other.txt
g add -A && g commit -qm base && g tag base
sed -i 's/^int line_10(void).*/int fixed_10(void) { return 1; }/' m.c && g commit -qam 'm: fix one'
sed -i 's/^int fixed_10(void).*/int fixed_10(void) { return 2; }/; s/^int line_20(void).*/int new_20(void) { return 20; }/' m.c
g commit -qam 'm: rework'
sed -i '30a int temp_line(void) { return 0; }' m.c && g commit -qam 'm: add temp'
g revert --no-edit HEAD >/dev/null
sed -i '5{h;d}; 35G' m.c && g commit -qam 'm: move a line'
g tag tip
mkdir ../tip ../none ../fix_only
g archive tip | tar -x -C ../tip
g archive base | tar -x -C ../none && printf 'vendor\n' >> ../none/other.txt
g archive base | tar -x -C ../fix_only && sed -i 's/^int line_10(void).*/int fixed_10(void) { return 1; }/' ../fix_only/m.c
cd ..
for t in tip none fix_only; do
	echo "== $t"
	"$TD" compare -q --format json git:r@base "$t" --history git:r@tip > "$t.json" || true
	python3 - "$t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in sorted(d["missing_fixes"], key=lambda f: f["subject"]):
    print(f'{f["subject"]}: {f["status"]} ({f["reason"]}), lines {f["lines_in_target"]} of {f["lines"]}')
PY
done
python3 "$SRC/tests/e2e/validate_json.py" "$SRC/doc/treedrift-compare.schema.json" tip.json none.json &&
	echo "schema ok"
