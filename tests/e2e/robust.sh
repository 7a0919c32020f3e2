#!/usr/bin/env bash
# Bad input: a FIFO does not hang a scan; a killed scan leaves the old
# database intact; a second writer is refused; a truncated archive is an error.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/t/sub"
printf 'hello world, this is a file long enough to have a TLSH digest of its own\n%.0s' 1 2 3 >"$TMP/t/a.txt"
mkfifo "$TMP/t/sub/pipe"
ln -s /etc/passwd "$TMP/t/passwd-link"
s=0; timeout 20 "$TD" scan "$TMP/t" -o "$TMP/t.db" 2>"$TMP/err" || s=$?
check_eq "scan with a fifo" "$s" 0
grep -q "skipped 'sub/pipe': fifo" "$TMP/err" && ok || fail "fifo not reported: $(cat "$TMP/err")"
"$TD" show "$TMP/t.db" | grep -q 'symlink .* passwd-link -> /etc/passwd' && ok || fail "symlink not recorded by target"

# kill -9 in the middle of a scan: the old database is unchanged
cp "$TMP/t.db" "$TMP/before.db"
big=$TMP/big; mkdir -p "$big"
for i in $(seq 1 400); do head -c 200000 /dev/urandom >"$big/f$i"; done
"$TD" scan "$big" -o "$TMP/t.db" --label big -q --jobs 1 & pid=$!
sleep 0.5; kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
cmp -s "$TMP/t.db" "$TMP/before.db" && ok || fail "database changed by a killed scan"
s=0; "$TD" show "$TMP/t.db" >/dev/null || s=$?
check_eq "show after kill" "$s" 0

# a truncated archive is an error, not a partial result
tar -C "$TMP" -cJf "$TMP/big.tar.xz" big
head -c $(( $(stat -c %s "$TMP/big.tar.xz") / 2 )) "$TMP/big.tar.xz" >"$TMP/cut.tar.xz"
s=0; "$TD" scan -q "$TMP/cut.tar.xz" -o "$TMP/cut.db" 2>"$TMP/err" || s=$?
check_eq "truncated archive" "$s" 2
[ ! -e "$TMP/cut.db" ] && ok || fail "a database was left behind for a truncated archive"
s=0; "$TD" scan -q --keep-going "$TMP/cut.tar.xz" -o "$TMP/cut.db" 2>"$TMP/err" || s=$?
check_eq "truncated archive, --keep-going" "$s" 0
finish
