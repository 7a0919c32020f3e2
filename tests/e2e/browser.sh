#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium renders it, and the
# DOM it dumps shows that the script ran (sorted by the URL's #sort=, filtered
# by #q=), that every row is there and that the hostile file names are text,
# not elements. Also takes a screenshot. Exit 77 (skipped) without chromium.
. "$(dirname "$0")/lib.sh"
chromium=${TD_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	echo "SKIP: chromium is not installed (scripts/deps.sh installs it)"
	exit 77
fi
u=$TMP/up v=$TMP/vendor
mkdir -p "$u/drivers" "$u/kernel"
for i in 1 2 3 4 5; do seq 1 $((i * 300)) | sed "s/^/line $i /" >"$u/drivers/f$i.c"; done
cp -r "$u" "$v"
for i in 2 4 5; do sed -i "1,$((i * 20))s/line/LINE/" "$v/drivers/f$i.c"; done
seq 1 900 | sed 's/^/x /' >"$v/drivers/<script>alert(1)<!--.c"
seq 1 800 | sed 's/^/y /' >"$v/kernel/<img src=x onerror=alert(2)>&quot;.c"
seq 1 700 | sed 's/^/z /' >"$v/kernel/bad$(printf '\377\376')name.c"
rm "$v/drivers/f1.c"
s=0; "$TD" compare -q -f html -o "$TMP/r.html" "$u" "$v" || s=$?
check_eq "compare exit" "$s" 1

render() { # fragment, output; extra chromium options follow
	local frag=$1 out=$2; shift 2
	timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --disable-background-networking --disable-sync \
		--user-data-dir="$TMP/profile" --virtual-time-budget=10000 "$@" \
		"file://$TMP/r.html$frag" >"$out" 2>>"$TMP/chromium.log"
}
render "#sort=distance&dir=desc" "$TMP/sorted.html" --dump-dom && ok || fail "chromium --dump-dom failed: $(tail -5 "$TMP/chromium.log")"
render "#q=script" "$TMP/filtered.html" --dump-dom && ok || fail "chromium --dump-dom (filter) failed"
python3 - "$TMP/sorted.html" "$TMP/filtered.html" <<'PY' && ok || fail "rendered DOM"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.rows, self.cur, self.body, self.count, self.incount = [], [], None, {}, "", False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "body":
            self.body = a
        if tag == "span" and a.get("id") == "count":
            self.incount = True
        if tag == "tr" and "data-s" in a:
            self.cur = {"hidden": "hidden" in a, "cells": []}
            self.rows.append(self.cur)
        elif tag == "td" and self.cur is not None:
            self.cur["cells"].append("")
    def handle_endtag(self, tag):
        if tag == "span":
            self.incount = False
        if tag == "tbody":
            self.cur = None
    def handle_data(self, d):
        if self.incount:
            self.count += d
        if self.cur is not None and self.cur["cells"]:
            self.cur["cells"][-1] += d
def load(path):
    p = P()
    p.feed(open(path, encoding="utf-8").read())
    return p
s = load(sys.argv[1])
assert s.body.get("data-js") == "ready", s.body
names = [r["cells"][0] for r in s.rows]
assert len(names) == 7, names
assert "drivers/<script>alert(1)<!--.c" in names, names
assert "kernel/<img src=x onerror=alert(2)>&quot;.c" in names, names
assert "kernel/bad\\377\\376name.c" in names, names
assert not any(t == "img" for t, a in s.tags), "an injected <img>"
assert sum(1 for t, a in s.tags if t == "script") == 1, "an injected <script>"
dist = [int(r["cells"][3]) if r["cells"][3].strip() else -1 for r in s.rows]
assert dist == sorted(dist, reverse=True), dist
assert any(t == "th" and a.get("aria-sort") == "descending" and a.get("data-col") == "distance" for t, a in s.tags)
assert s.count.strip() == "7 of 7 files shown", s.count
f = load(sys.argv[2])
shown = [r["cells"][0] for r in f.rows if not r["hidden"]]
assert shown == ["drivers/<script>alert(1)<!--.c"], shown
assert f.count.strip() == "1 of 7 files shown", f.count
PY
# Where no script may run (a viewer with JavaScript off or a strict
# policy of its own; here a second policy that forbids scripts, which the
# browser enforces beside the report's), the report is the same table,
# every row shown. (--dump-dom itself needs JavaScript on.)
sed "s|<head>|<head><meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'\">|" \
	"$TMP/r.html" >"$TMP/nojs-r.html"
timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
	--disable-background-networking --disable-sync --user-data-dir="$TMP/profile" \
	--virtual-time-budget=10000 --dump-dom "file://$TMP/nojs-r.html" >"$TMP/nojs.html" 2>>"$TMP/chromium.log" &&
	ok || fail "chromium --dump-dom (no script) failed"
python3 - "$TMP/nojs.html" <<'PY' && ok || fail "DOM without JavaScript"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.body, self.rows = {}, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "tr" and "data-s" in a:
            self.rows.append(a)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
assert p.body.get("data-js") != "ready", "the script ran: " + repr(p.body)
assert len(p.rows) == 7, len(p.rows)
assert not any("hidden" in r for r in p.rows), "a row is hidden"
PY
render "" /dev/null --screenshot="$TMP/shot.png" --window-size=1280,1600 --hide-scrollbars && ok ||
	fail "chromium --screenshot failed"
[ "$(head -c 8 "$TMP/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok || fail "no PNG screenshot"
[ "$(stat -c %s "$TMP/shot.png")" -gt 10000 ] && ok || fail "screenshot too small to show the report"
[ -n "${TD_SCREENSHOT_OUT:-}" ] && cp "$TMP/shot.png" "$TD_SCREENSHOT_OUT"
finish
