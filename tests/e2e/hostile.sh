#!/usr/bin/env bash
# A hostile tree: special files, symlink loops and links out of the tree,
# unreadable entries, odd names, a sparse 4 GiB file, a 4,000-byte path.
# scan and compare finish, exit 0, and name every oddity (see doc/formats.md,
# "Skipped entries"). The fixture is made here, never committed.
. "$(dirname "$0")/lib.sh"
chmod 755 "$TMP" # the unprivileged part below reads the tree and writes $TMP/nobody
T=$TMP/t
mkdir "$T"
python3 - "$T" <<'EOF'
import os, socket, sys
os.chdir(sys.argv[1])
os.mkfifo('fifo')
socket.socket(socket.AF_UNIX).bind('sock')
os.symlink('loop-b', 'loop-a'); os.symlink('loop-a', 'loop-b')
os.symlink('/etc/passwd', 'passwd-link'); os.symlink('../../', 'up-link')
os.mkdir('noread-dir'); open('noread-dir/inside.txt', 'w').write('x' * 100); os.chmod('noread-dir', 0)
open('noread.txt', 'w').write('secret ' * 20); os.chmod('noread.txt', 0)
open('empty', 'w').close()
open('49-bytes', 'wb').write(b'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM')
with open('sparse-4g', 'wb') as f:
    f.truncate(4 << 30)
body = b'content of a file with an odd name, long enough for TLSH to digest it\n'
for n in [b'new\nline', b'tab\there', b'quote"s\'', b'back\\slash', b'<script>alert(1)<\\script>',
          b'bad-utf8-\xff\xfe', b'-dash', b' lead space']:
    open(n, 'wb').write(body)
p = b'deep'
while len(p) < 4000:
    p += b'/' + b'd' * 200
os.makedirs(p)
open(p + b'/leaf.txt', 'wb').write(b''.join(b'leaf line %d\n' % i for i in range(20)))
EOF

# scan: finishes at once (the 4 GiB file is over the default --max-file-size),
# exit 0, a warning per skipped entry
s=0; timeout 60 "$TD" scan "$T" -o "$TMP/h.db" --label hostile 2>"$TMP/err" || s=$?
check_eq "scan of the hostile tree" "$s" 0
for w in "skipped 'fifo': fifo" "skipped 'sock': socket" "skipped 'sparse-4g': too_large" \
	 "symlink 'passwd-link' points outside the tree: /etc/passwd" \
	 "symlink 'up-link' points outside the tree: ../../"; do
	grep -qF "$w" "$TMP/err" && ok || fail "scan warning '$w' missing: $(cat "$TMP/err")"
done
"$TD" show "$TMP/h.db" >"$TMP/show" || fail "show of the hostile database"
want_lines=(
	'000000 skipped          0 - - fifo (fifo)'
	'000000 skipped          0 - - sock (socket)'
	'120000 symlink          6 - - loop-a -> loop-b'
	'120000 symlink         11 - - passwd-link -> /etc/passwd'
	'120000 symlink          6 - - up-link -> ../../'
)
for l in "${want_lines[@]}"; do
	grep -qxF -- "$l" "$TMP/show" && ok || fail "show lacks '$l'"
done
for p in 'new\nline' 'tab\there' 'back\\slash' 'bad-utf8-\377\376' "quote\"s'" '<script>alert(1)<\\script>' \
	 ' lead space' '-dash'; do
	grep -qF -- " T1" <(grep -F -- " $p" "$TMP/show") && ok || fail "odd name '$p' not digested: $(cat "$TMP/show")"
done
grep -q ' e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 too_short empty$' "$TMP/show" \
	&& ok || fail "empty file"
grep -q ' too_short 49-bytes$' "$TMP/show" && ok || fail "49-byte file: too short for TLSH"
grep -q 'skipped .* sparse-4g (too_large)$' "$TMP/show" && ok || fail "sparse file not too_large"
grep -q ' T1.* deep/d\{200\}/.*/leaf.txt$' "$TMP/show" && ok || fail "deep leaf not digested"
check_eq "entries" "$(grep -cE '^[01][0-7]{5} ' "$TMP/show")" 20
grep -q "loop-a" "$TMP/err" && fail "an in-tree symlink loop was warned about" || ok
# nothing outside the tree was read: no entry beyond the tree's own
grep -q 'passwd-link ->' "$TMP/show" && ! grep -q 'root:' "$TMP/show" && ok || fail "a link was followed"
"$TD" show -f json "$TMP/h.db" | python3 -c '
import json, sys
e = {f["path"]: f for f in json.load(sys.stdin)["entries"]}
assert e["passwd-link"]["link_outside"] is True and e["up-link"]["link_outside"] is True, e
assert e["loop-a"]["link_outside"] is False and "link_outside" not in e["empty"], e' \
	&& ok || fail "show -f json: link_outside"
s=0; "$TD" check -q "$TMP/h.db" || s=$?
check_eq "check of the hostile database" "$s" 0

# compare: the tree against itself and against its database, every format
for up in "$T" "$TMP/h.db"; do
	s=0; timeout 60 "$TD" compare -q "$up" "$T" >"$TMP/rep" || s=$?
	check_eq "compare $up" "$s" 0
	for w in '  fifo: fifo' '  sock: socket' '  sparse-4g: too_large'; do
		grep -qxF -- "$w" "$TMP/rep" && ok || fail "compare lacks '$w'"
	done
done
s=0; "$TD" compare -q -f json --identical "$TMP/h.db" "$T" >"$TMP/rep.json" || s=$?
check_eq "compare json" "$s" 0
python3 - "$TMP/rep.json" <<'EOF' && ok || fail "json report of the hostile tree"
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8', errors='surrogateescape'))
files = {f['path']: f for f in d['files']}
assert 'new\nline' in files and 'tab\there' in files and 'back\\slash' in files, list(files)
assert files['fifo']['status'] == 'skipped', files['fifo']
assert d['totals']['skipped'] == 3, d['totals']
EOF
s=0; "$TD" compare -q -f csv --identical "$TMP/h.db" "$T" >"$TMP/rep.csv" || s=$?
check_eq "compare csv" "$s" 0
python3 - "$TMP/rep.csv" <<'EOF' && ok || fail "csv report of the hostile tree"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8', errors='surrogateescape')))
paths = {r['path'] for r in rows}
assert 'new\nline' in paths and 'quote"s\'' in paths, sorted(paths)
assert len(rows) == 20, len(rows)
EOF

# the same tree as a tar archive (GNU tar leaves the socket out): the same
# entries, and no drift against the directory's database
tar -C "$T" --sparse -cf "$TMP/hostile.tar" . 2>/dev/null || true
s=0; timeout 60 "$TD" compare "$TMP/h.db" "$TMP/hostile.tar" >"$TMP/rep" 2>"$TMP/err" || s=$?; [ "$s" = 0 ] || cat "$TMP/err" >&2
check_eq "compare with the tar of the tree" "$s" 0
grep -q '^  identical  *17$' "$TMP/rep" && ok || fail "tar of the tree: $(cat "$TMP/rep")"
grep -qxF '  sock: socket [upstream]' "$TMP/rep" && ok || fail "socket missing from the archive side"

# as an unprivileged user (root reads regardless of permissions): the
# unreadable file and directory are named, the scan goes on
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir "$TMP/nobody" && chown nobody "$TMP/nobody"
	s=0; timeout 60 setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$TD" scan "$T" -o "$TMP/nobody/h.db" 2>"$TMP/err" || s=$?
	check_eq "unprivileged scan" "$s" 0
	grep -qF "skipped 'noread.txt': unreadable: unable to open 'noread.txt': Permission denied" "$TMP/err" \
		&& ok || fail "unreadable file not named: $(cat "$TMP/err")"
	grep -qF "skipped 'noread-dir': dir_unreadable: Permission denied" "$TMP/err" \
		&& ok || fail "unreadable directory not named: $(cat "$TMP/err")"
	"$TD" show "$TMP/nobody/h.db" | grep -q 'noread.txt (unreadable)$' && ok || fail "unreadable not stored"
else
	echo "unprivileged part skipped (not root, or no setpriv or nobody)"
fi

# a file that grows and shrinks while the scan reads it: digested whole or
# skipped as changed, never a digest of a mix
mkdir "$TMP/g"
for i in $(seq 1 20); do seq 1 2000 >"$TMP/g/f$i"; done
head -c 8000000 /dev/urandom >"$TMP/g/moving"
(while :; do head -c 4000000 /dev/urandom >>"$TMP/g/moving"; truncate -s 8000000 "$TMP/g/moving"; done) &
writer=$!
s=0; timeout 60 "$TD" scan "$TMP/g" -o "$TMP/g.db" -j 1 2>"$TMP/err" || s=$?
kill $writer; wait $writer 2>/dev/null || true
check_eq "scan of a moving file" "$s" 0
m=$("$TD" show "$TMP/g.db" | grep ' moving')
case $m in
*'moving (changed)'|*'moving (vanished)') ok ;;
*file*) grep -q "$(sha256sum <"$TMP/g/moving" | cut -c1-64)" <<<"$m" || echo "note: moving file digested between writes" ;;
*) fail "moving file: $m" ;;
esac

# an archive never makes libarchive run a program: lrzip and lzop data
# would otherwise go through external decompressors found in PATH
mkdir "$TMP/bin"
for p in lrzip grzip lzop lz4 zstd xz gzip bzip2 lzip lzma; do
	printf '#!/bin/sh\ntouch %s/ran-%s\ncat >/dev/null\n' "$TMP" "$p" >"$TMP/bin/$p"
	chmod +x "$TMP/bin/$p"
done
{ printf 'LRZI\000\006'; head -c 200 /dev/zero; } >"$TMP/x.tar.lrz"
{ printf '\211LZO\000\r\n\032\n'; head -c 200 /dev/zero; } >"$TMP/x.tar.lzo"
printf 'hello' | gzip >"$TMP/x.gz"
for a in x.tar.lrz x.tar.lzo x.gz; do
	s=0; PATH=$TMP/bin:$PATH "$TD" scan -q "archive:$TMP/$a" -o "$TMP/a.db" 2>/dev/null || s=$?
done
ls "$TMP"/ran-* >/dev/null 2>&1 && fail "an external program ran: $(ls "$TMP"/ran-*)" || ok

# hostile archive members: climbing and absolute paths, duplicates, links out
python3 - "$TMP/evil.tar" <<'EOF'
import io, sys, tarfile
t = tarfile.open(sys.argv[1], 'w')
def add(name, data=b'evil data that is long enough for a TLSH digest of its own, surely\n', **kw):
    i = tarfile.TarInfo(name); i.size = len(data)
    for k, v in kw.items(): setattr(i, k, v)
    t.addfile(i, io.BytesIO(data) if i.isreg() else None)
add('ok.txt'); add('../escape.txt'); add('/abs.txt'); add('ok.txt')
add('abs-link', b'', type=tarfile.SYMTYPE, linkname='/etc/passwd')
add('hard', b'', type=tarfile.LNKTYPE, linkname='nowhere')
t.close()
EOF
s=0; "$TD" scan "$TMP/evil.tar" -o "$TMP/evil.db" 2>"$TMP/err" || s=$?
check_eq "scan of a hostile archive" "$s" 0
for w in "skipped '../escape.txt': unsafe_path" "skipped 'abs.txt': unsafe_path" "skipped 'ok.txt': duplicate" \
	 "skipped 'hard': link_escape" "symlink 'abs-link' points outside the tree: /etc/passwd"; do
	grep -qF "$w" "$TMP/err" && ok || fail "archive warning '$w' missing: $(cat "$TMP/err")"
done
"$TD" show -f json "$TMP/evil.db" | grep -qF '"link_target": "/etc/passwd", "link_outside": true}' \
	&& ok || fail "show -f json: archive link_outside"
[ ! -e "$TMP/escape.txt" ] && [ ! -e /abs.txt ] && ok || fail "an archive member was written out"

# names that would drive a terminal (escape sequences, C1 CSI, bidi
# overrides) never reach stderr raw: in skipped-entry warnings (the member
# name and link target in skip_detail) and in library and libgit2 messages
python3 - "$TMP/esc.tar" <<'EOF'
import io, sys, tarfile
t = tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT)
evil = '\x1b]0;pwned\x07\x1b[2J\u202egnp.exe\u2066x\x9b31m'
def add(name, data=b'data long enough for a TLSH digest of its own, in an archive\n', **kw):
    i = tarfile.TarInfo(name); i.size = len(data)
    for k, v in kw.items(): setattr(i, k, v)
    t.addfile(i, io.BytesIO(data) if i.isreg() else None)
add('ok.txt'); add('../' + evil); add('ok.txt')
add('hard', b'', type=tarfile.LNKTYPE, linkname=evil)
add('link', b'', type=tarfile.SYMTYPE, linkname='/' + evil)
t.close()
EOF
no_raw_controls() { # what, file: no ESC, BEL, C1 CSI or bidi override in it
	python3 - "$2" <<'EOF' && ok || fail "$1: raw terminal controls: $(od -c "$2" | head -20)"
import sys
b = open(sys.argv[1], 'rb').read()
bad = [c for c in (b'\x1b', b'\x07', b'\xc2\x9b', '\u202e'.encode(), '\u2066'.encode()) if c in b]
sys.exit(1 if bad else 0)
EOF
}
s=0; "$TD" scan "$TMP/esc.tar" -o "$TMP/esc.db" 2>"$TMP/err" || s=$?
check_eq "scan of an archive with terminal escapes in names" "$s" 0
no_raw_controls "scan warnings" "$TMP/err"
grep -qF "skipped 'hard': link_escape: \\033]0;pwned\\007" "$TMP/err" && ok || fail "escaped link_escape detail: $(cat -v "$TMP/err")"
s=0; "$TD" compare "$TMP/esc.db" "$TMP/esc.tar" >"$TMP/out" 2>"$TMP/err" || s=$?; cat "$TMP/out" >>"$TMP/err"
no_raw_controls "compare warnings" "$TMP/err"
if command -v git >/dev/null; then
	git init -q "$TMP/repo"
	s=0; "$TD" scan -q --label x "git:$TMP/repo@$(printf 'v1\033[2J\342\200\256')" -o "$TMP/g.db" 2>"$TMP/err" || s=$?
	check_eq "git revision with escapes" "$s" 2
	no_raw_controls "libgit2 message" "$TMP/err"
	s=0; "$TD" scan -q --label x "$(printf '%s/missing\033[2J' "$TMP")" -o "$TMP/m.db" 2>"$TMP/err" || s=$?
	check_eq "missing tree with escapes" "$s" 2
	no_raw_controls "missing tree message" "$TMP/err"
fi

# memory stays bounded by the number of files, not their size: a 64 MiB
# sparse file is streamed (skipped under valgrind: too slow there)
if [ -z "${TD_VALGRIND:-}" ] && [ -x /usr/bin/time ]; then
	mkdir "$TMP/m1" "$TMP/m2"
	echo small >"$TMP/m1/f"
	truncate -s 64M "$TMP/m2/f"
	/usr/bin/time -f %M -o "$TMP/rss1" "$TD" scan -q -j 1 "$TMP/m1" -o "$TMP/m1.db"
	/usr/bin/time -f %M -o "$TMP/rss2" "$TD" scan -q -j 1 --max-file-size none "$TMP/m2" -o "$TMP/m2.db"
	grep -q '67108864 .* f$' <("$TD" show "$TMP/m2.db") && ok || fail "64 MiB file not digested"
	d=$(( $(tail -1 "$TMP/rss2") - $(tail -1 "$TMP/rss1") ))
	[ "$d" -lt 16384 ] && ok || fail "a 64 MiB file took $d KiB more memory than a small one"
fi
finish
