#!/usr/bin/env bash
# compare --format html, markdown and cyclonedx on a fixture whose file names
# try to break each format: markup, quotes, '&', '|' and a byte that is not
# UTF-8. The HTML is parsed back (python3 html.parser), the CycloneDX BOM is
# validated against the CycloneDX 1.5 schema in doc/schema/cyclonedx.
. "$(dirname "$0")/lib.sh"
fixture() { # dir: an upstream and a vendor tree with hostile names
	local u=$1/up v=$1/vendor
	mkdir -p "$u/drivers/net" "$u/kernel" "$v"
	for i in 1 2 3 4 5 6; do seq 1 $((i * 300)) | sed "s/^/line $i /" >"$u/drivers/net/f$i.c"; done
	seq 1 2000 | sed 's/^/sched /' >"$u/kernel/sched.c"
	seq 1 500 | sed 's/^/gone /' >"$u/kernel/gone.c"
	cp -r "$u/." "$v/"
	rm "$v/kernel/gone.c"
	sed -i '1,40s/line/LINE/' "$v/drivers/net/f6.c"
	seq 1 1500 | sed 's/^/vendor /' >"$v/drivers/net/<script>alert(1).c"
	seq 1 900 | sed 's/^/img /' >"$v/drivers/net/<img src=x onerror=alert(2)>.c"
	seq 1 800 | sed 's/^/quote /' >"$v/kernel/q\"uo'te&amp;|pipe.c"
	seq 1 700 | sed 's/^/bad /' >"$v/kernel/bad$(printf '\377')name.c"
	sed -i 's/sched 1/SCHED 1/' "$v/kernel/sched.c"
}
fixture "$TMP"
U=$TMP/up V=$TMP/vendor

# HTML: to stdout and with -o
s=0; "$TD" compare -q -f html "$U" "$V" >"$TMP/r.html" || s=$?
check_eq "html exit" "$s" 1
s=0; "$TD" compare -q -f html -o "$TMP/o.html" "$U" "$V" || s=$?
check_eq "html -o exit" "$s" 1
cmp -s "$TMP/r.html" "$TMP/o.html" && ok || fail "html -o differs from stdout"
python3 - "$TMP/r.html" <<'PY' && ok || fail "html report checks"
import sys
from html.parser import HTMLParser
data = open(sys.argv[1], "rb").read()
data.decode("utf-8")  # valid UTF-8 throughout
text = data.decode()
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.rows, self.cells, self.cur, self.intd = [], [], [], None, False
        self.intable = False
    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "table" and dict(attrs).get("id") == "files":
            self.intable = True
        if self.intable and tag == "tr" and "data-s" in dict(attrs):
            self.cur = []
            self.rows.append(self.cur)
        if self.cur is not None and tag == "td":
            self.cur.append("")
    def handle_endtag(self, tag):
        if tag == "table":
            self.intable = False
            self.cur = None
    def handle_data(self, d):
        if self.cur is not None and self.cur:
            self.cur[-1] += d
p = P()
p.feed(text)
tags = [t for t, a in p.tags]
assert tags.count("script") == 1, tags.count("script")
assert "img" not in tags, "an injected <img>"
for t, a in p.tags:
    for k, v in a.items():
        assert not k.startswith("on"), (t, k)
        assert "http://" not in (v or "") or k == "xmlns", (t, k, v)
assert "<script>alert" not in text and "<img src" not in text
# the controls need the script: hidden in the static page, which lists every row itself
assert any(t == "div" and a.get("id") == "ctl" and "hidden" in a for t, a in p.tags)
paths = [r[0].strip() for r in p.rows]
want = {"drivers/net/<script>alert(1).c", "drivers/net/<img src=x onerror=alert(2)>.c",
        "kernel/q\"uo'te&amp;|pipe.c", "kernel/bad\\377name.c", "drivers/net/f6.c",
        "kernel/sched.c", "kernel/gone.c"}
assert set(paths) == want, paths
assert sum(1 for t, a in p.tags if t == "svg") == 2
assert any(t == "line" and "threshold" in (a.get("class") or "") for t, a in p.tags)
assert any(t == "rect" and a.get("fill", "").startswith("hsl(") for t, a in p.tags), "no treemap"
PY

# Markdown: one row per modified or added file, '|' escaped in cells
s=0; "$TD" compare -q -f markdown "$U" "$V" >"$TMP/r.md" || s=$?
check_eq "markdown exit" "$s" 1
check_eq "markdown rows" "$(grep -c '^| .* | \(modified\|added\) |' "$TMP/r.md")" 6
grep -qF '| kernel/q"uo'"'"'te\&amp;\|pipe.c | added |' "$TMP/r.md" && ok || fail "markdown escaping: $(grep pipe "$TMP/r.md")"
grep -qF 'drivers/net/\<script\>alert(1).c' "$TMP/r.md" && ok || fail "markdown: markup not escaped"
grep -qF 'kernel/bad\\377name.c' "$TMP/r.md" && ok || fail "markdown: invalid UTF-8 byte"
grep -qF '| kernel/gone.c |' "$TMP/r.md" && ok || fail "markdown: removed file"
python3 - "$TMP/r.md" <<'PY' && ok || fail "markdown table cells"
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if re.match(r"^\| .* \| (modified|added) \|", line):
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        assert len(cells) == 8, line
PY

# CycloneDX: schema-valid, the pedigree names upstream, one file component per patch
s=0; "$TD" compare -q -f cyclonedx "$U" "$V" >"$TMP/r.cdx.json" || s=$?
check_eq "cyclonedx exit" "$s" 1
python3 "$SRC/tests/e2e/cyclonedx_validate.py" "$SRC/doc/schema/cyclonedx" "$TMP/r.cdx.json" && ok ||
	fail "cyclonedx: not valid against the CycloneDX 1.5 schema"
python3 - "$TMP/r.cdx.json" <<'PY' && ok || fail "cyclonedx content"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["bomFormat"] == "CycloneDX" and d["specVersion"] == "1.5"
ped = d["metadata"]["component"]["pedigree"]
assert ped["ancestors"][0]["name"].endswith("/up"), ped
comps = d["components"]
assert len(comps) == 6, len(comps)
props = lambda c: {p["name"]: p["value"] for p in c["properties"]}
byname = {c["name"]: c for c in comps}
f6 = byname["drivers/net/f6.c"]
assert f6["pedigree"]["ancestors"][0]["name"] == "drivers/net/f6.c"
assert f6["pedigree"]["patches"] == [{"type": "unofficial"}]
assert props(f6)["treedrift:status"] == "modified"
assert len(f6["hashes"][0]["content"]) == 64
bad = byname["kernel/bad\ufffdname.c"]
assert bytes.fromhex(props(bad)["treedrift:path_bytes"]) == b"kernel/bad\xffname.c"
assert "ancestors" not in bad["pedigree"]
assert len({c["bom-ref"] for c in comps}) == 6
PY
finish
