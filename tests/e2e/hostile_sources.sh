#!/usr/bin/env bash
# Hostile trees that go for the readers rather than the walk (see
# doc/hostile-input.md): crafted git loose objects, a git bomb, a git tree
# naming an entry twice, a sparse tar whose map claims 20 GiB, an archive
# with no data, and a run out of file descriptors. scan ends in a clear
# warning or error, never a crash or a hang. Fixtures are made here.
. "$(dirname "$0")/lib.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent
G="git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main"

# git loose objects that libgit2 1.5 overflows a heap buffer on (header
# size smaller than the body) or inflates forever (a truncated stream)
$G init -q "$TMP/lo"
seq 1 300 >"$TMP/lo/a.txt"
seq 1 200 >"$TMP/lo/b.txt"
$G -C "$TMP/lo" add -A && $G -C "$TMP/lo" commit -q -m v1
loose() { # blob-path python-expression-for-the-file-bytes
	local id; id=$($G -C "$TMP/lo" rev-parse "HEAD:$1")
	local f=$TMP/lo/.git/objects/${id:0:2}/${id:2}
	chmod u+w "$f"
	python3 -c "import sys, zlib; sys.stdout.buffer.write($2)" >"$f"
}
loose a.txt 'zlib.compress(b"blob 5\0" + b"A" * 5000)'
loose b.txt 'zlib.compress(b"blob 5000\0" + b"B" * 5000)[:20]'
s=0; timeout 60 "$TD" scan "git:$TMP/lo" -o "$TMP/lo.db" 2>"$TMP/err" || s=$?
check_eq "scan of crafted loose objects" "$s" 0
grep -qF "skipped 'a.txt': unreadable: " "$TMP/err" && grep -qF "corrupt loose object: body longer than its header says" "$TMP/err" \
	&& ok || fail "header smaller than body: $(cat "$TMP/err")"
grep -qF "corrupt loose object: truncated zlib stream" "$TMP/err" && ok || fail "truncated: $(cat "$TMP/err")"
"$TD" show "$TMP/lo.db" | grep -q 'a.txt (unreadable)$' && ok || fail "a.txt not stored as unreadable"

# a git bomb: 10 objects, 10^9 paths; --max-entries stops it
$G init -q --bare "$TMP/bomb.git"
b=$(printf x | $G -C "$TMP/bomb.git" hash-object -w --stdin)
t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\tf%s\n' "$b" "$i"; done | $G -C "$TMP/bomb.git" mktree)
for d in 1 2 3 4 5 6 7 8; do
	t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\td%s\n' "$t" "$i"; done | $G -C "$TMP/bomb.git" mktree)
done
$G -C "$TMP/bomb.git" update-ref refs/heads/main "$($G -C "$TMP/bomb.git" commit-tree -m bomb "$t")"
s=0; timeout 120 "$TD" scan "git:$TMP/bomb.git" --max-entries 2000 -o "$TMP/bomb.db" 2>"$TMP/err" || s=$?
check_eq "scan of a git bomb" "$s" 2
grep -qF "has more than 2000 entries" "$TMP/err" && ok || fail "git bomb: $(cat "$TMP/err")"
[ ! -e "$TMP/bomb.db" ] && ok || fail "a database was left by the failed scan"
s=0; "$TD" scan "git:$TMP/bomb.git" --max-entries lots -o "$TMP/bomb.db" 2>"$TMP/err" || s=$?
check_eq "--max-entries lots" "$s" 2
grep -qF -- "--max-entries takes a number, or none, not 'lots'" "$TMP/err" && ok || fail "bad --max-entries: $(cat "$TMP/err")"
# the limit counts what a directory walk meets too
mkdir -p "$TMP/few/a" && touch "$TMP/few/a/1" "$TMP/few/a/2" "$TMP/few/3"
s=0; "$TD" scan -q "$TMP/few" --max-entries 3 -o "$TMP/few.db" 2>"$TMP/err" || s=$?
check_eq "directory over --max-entries" "$s" 2
s=0; "$TD" scan -q "$TMP/few" --max-entries 4 -o "$TMP/few.db" 2>"$TMP/err" || s=$?
check_eq "directory at --max-entries" "$s" 0

# a git tree naming a file twice: skipped as a duplicate, the scan goes on
$G init -q --bare "$TMP/dup.git"
b=$(printf 'hello\n' | $G -C "$TMP/dup.git" hash-object -w --stdin)
python3 -c 'import sys; b = bytes.fromhex(sys.argv[1]); sys.stdout.buffer.write(b"100644 a.txt\0" + b + b"100644 a.txt\0" + b + b"100644 ok.txt\0" + b)' \
	"$b" >"$TMP/dup.tree"
t=$($G -C "$TMP/dup.git" hash-object -t tree --literally -w "$TMP/dup.tree")
$G -C "$TMP/dup.git" update-ref refs/heads/main "$($G -C "$TMP/dup.git" commit-tree -m dup "$t")"
s=0; "$TD" scan "git:$TMP/dup.git" -o "$TMP/dup.db" 2>"$TMP/err" || s=$?
check_eq "scan of a tree with a duplicate name" "$s" 0
grep -qF "skipped 'a.txt': duplicate" "$TMP/err" && ok || fail "duplicate not warned about: $(cat "$TMP/err")"
"$TD" show "$TMP/dup.db" | grep -q 'a.txt (duplicate)$' && ok || fail "duplicate not stored"

# a sparse member whose map claims 20 GiB past its 1,000-byte size
python3 - "$TMP/sparse.tar" <<'EOF'
import io, sys, tarfile
m = b'1\n%d\n10\n' % (20 << 30)
data = m + b'\0' * (512 - len(m)) + b'X' * 10
t = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)
i = tarfile.TarInfo('GNUSparseFile.0/holes.bin'); i.size = len(data)
i.pax_headers = {'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.name': 'holes.bin',
                 'GNU.sparse.realsize': '1000'}
t.addfile(i, io.BytesIO(data)); t.close()
EOF
s=0; timeout 60 "$TD" scan "$TMP/sparse.tar" -o "$TMP/sparse.db" 2>"$TMP/err" || s=$?
check_eq "scan of a sparse tar bomb" "$s" 0
grep -qF "skipped 'holes.bin': unreadable: 'holes.bin' in archive" "$TMP/err" && grep -qF "has data past its size of 1000 bytes" "$TMP/err" \
	&& ok || fail "sparse bomb: $(cat "$TMP/err")"

# an archive with no data at all: an error, never an empty tree
: >"$TMP/zero.tar.gz"
: | gzip >"$TMP/nothing.tar.gz"
for a in zero.tar.gz nothing.tar.gz; do
	s=0; "$TD" compare -q "$TMP/few" "$TMP/$a" >/dev/null 2>"$TMP/err" || s=$?
	check_eq "compare with $a" "$s" 2
	grep -qF "'$TMP/$a' is empty" "$TMP/err" && ok || fail "$a: $(cat "$TMP/err")"
done

# a loose git blob is streamed: a 64 MiB one costs no more memory than a
# small one (not under valgrind: too slow there)
if [ -z "${TD_VALGRIND:-}" ] && [ -x /usr/bin/time ]; then
	$G init -q "$TMP/big"
	head -c 67108864 /dev/urandom >"$TMP/big/big.bin"
	$G -C "$TMP/big" add -A && $G -C "$TMP/big" commit -q -m big
	/usr/bin/time -f %M -o "$TMP/rss1" "$TD" scan -q -j 1 "git:$TMP/lo" -o "$TMP/rss1.db" 2>/dev/null
	/usr/bin/time -f %M -o "$TMP/rss2" "$TD" scan -q -j 1 "git:$TMP/big" -o "$TMP/rss2.db"
	"$TD" show "$TMP/rss2.db" | grep -q '67108864 .* big.bin$' && ok || fail "64 MiB blob not digested"
	d=$(( $(tail -1 "$TMP/rss2") - $(tail -1 "$TMP/rss1") ))
	[ "$d" -lt 16384 ] && ok || fail "a 64 MiB loose blob took $d KiB more memory than small ones"
fi

# out of file descriptors (a tree deeper than the walk's open directories
# under a small ulimit -n): an error of the run, not dir_unreadable.
# Not under valgrind, which needs descriptors of its own.
if [ -z "${TD_VALGRIND:-}" ]; then
	p=$TMP/deep
	for i in $(seq 1 40); do p=$p/d$i; done
	mkdir -p "$p" && echo leaf >"$p/leaf"
	s=0; (ulimit -n 16; exec "$TD" scan -j 1 "$TMP/deep" -o "$TMP/deep.db") 2>"$TMP/err" || s=$?
	check_eq "scan out of file descriptors" "$s" 2
	grep -qF "Too many open files" "$TMP/err" && ok || fail "EMFILE: $(cat "$TMP/err")"
	grep -qF "dir_unreadable" "$TMP/err" && fail "EMFILE recorded as dir_unreadable" || ok
	[ ! -e "$TMP/deep.db" ] && ok || fail "a database was written"
fi
finish
