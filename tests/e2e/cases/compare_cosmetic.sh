# A file whose only change is whitespace (reindent, trailing spaces, CRLF,
# blank lines) is cosmetic: distance 0, clean, its line counts kept, shown
# apart in the totals and every format; a real change, a joined line and a
# binary file are not. Against a database the scan's normalised SHA-256
# decides, and the length of the normalised text spares the target's digest
# where it differs; a database of schema 2 (made here from a new one, as an
# older treedrift wrote it) has no length: the target's digest decides; one
# of schema 1 has neither: the content decides while it can be read, else
# the file is unknown, and a write migrates the database.
python3 - <<'PY'
import os
body = "".join("static int value_%d(int a, int b)\n{\n\tif (a > b)\n\t\treturn a - b;\n\treturn b - a + %d;\n}\n\n" % (i, i) for i in range(60))
def put(path, data, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, mode).write(data)
for side in ("up", "tg"):
    put(f"{side}/same.c", body)
put("up/reindent.c", body); put("tg/reindent.c", body.replace("\t", "    "))
put("up/trailing.c", body); put("tg/trailing.c", body.replace(";\n", ";   \n"))
put("up/crlf.c", body); put("tg/crlf.c", body.replace("\n", "\r\n"), "w")
put("up/blank.c", body); put("tg/blank.c", body.replace("}\n\n", "}\n\n\n\n"))
put("up/real.c", body); put("tg/real.c", body.replace("b - a + 7;", "b - a + 8;"))
put("up/joined.c", body); put("tg/joined.c", body.replace("(int a, int b)\n{", "(int a, int b) {"))
blob = bytes(range(256)) * 40
put("up/blob.bin", blob, "wb"); put("tg/blob.bin", blob.replace(b" ", b"\t"), "wb")
PY
echo "== text"
$TD compare -q up tg || echo "exit $?"
echo "== json"
$TD compare -q up tg -f json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("schema", d["schema"], "cosmetic", d["totals"]["cosmetic"], "unknown", d["totals"]["cosmetic_unknown"])
for f in d["files"]:
    print(f["path"], f["status"], f["class"], f["distance"], f["cosmetic"], f["lines"], f["lines_added"])'
echo "== csv"
$TD compare -q up tg -f csv | cut -d, -f1-4,15,18 || true
echo "== markdown"
$TD compare -q up tg -f markdown | grep -E 'Cosmetic|cosmetic \|' || true
echo "== html"
$TD compare -q up tg -f html | grep -o -E '<dt>cosmetic</dt><dd>[^<]*|<td>cosmetic<td>clean' | sort | uniq -c || true
echo "== cyclonedx"
$TD compare -q up tg -f cyclonedx | grep -c '"name": "treedrift:cosmetic", "value": "yes"' || true
echo "== fail-on safe: cosmetic files are clean"
$TD compare -q up tg --fail-on safe >/dev/null && echo "exit 0"

echo "== a new database"
$TD scan -q up -o new.db --label v1
$TD compare -q new.db tg -f csv | cut -d, -f1-4,15,18 || true
echo "== without line counts, the database alone decides"
$TD compare -q new.db tg --no-lines -f csv | cut -d, -f1-4,15,18 || true

echo "== a database of schema 2"
$TD scan -q up -o two.db --label v1
sqlite3 two.db 'ALTER TABLE content DROP COLUMN ws_bytes; PRAGMA user_version = 2;'
$TD check two.db
$TD compare -q two.db tg --no-lines -f csv | cut -d, -f1-4,15,18 || true

echo "== a database of schema 1"
$TD scan -q up -o old.db --label v1
sqlite3 old.db 'ALTER TABLE content DROP COLUMN ws_bytes; ALTER TABLE content DROP COLUMN sha256_ws; PRAGMA user_version = 1;'
$TD check old.db
echo "content read from the scanned directory:"
$TD compare -q old.db tg -f csv | cut -d, -f1-4,15,18 || true
echo "without line counts:"
$TD compare -q old.db tg --no-lines || echo "exit $?"
echo "== migrated on write"
$TD scan -q tg -o old.db --label v2
sqlite3 old.db 'PRAGMA user_version; SELECT count(*) FROM content WHERE sha256_ws IS NULL OR ws_bytes IS NULL;'
$TD check old.db
$TD compare -q old.db tg -b v1 --no-lines -f csv | cut -d, -f1-4,18 || true
