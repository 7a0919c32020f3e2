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

# kill -9 at any moment of a scan: the database is the old one, byte for
# byte, or the new one with both versions; never anything in between
big=$TMP/big; mkdir -p "$big"
for i in $(seq 1 300); do head -c 100000 /dev/urandom >"$big/f$i"; done
cp "$TMP/t.db" "$TMP/before.db"
for delay in 0.02 0.05 0.1 0.2 0.4; do
	cp "$TMP/before.db" "$TMP/t.db"
	"$TD" scan "$big" -o "$TMP/t.db" --label big -q --jobs 1 & pid=$!
	sleep "$delay"; kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
	if cmp -s "$TMP/t.db" "$TMP/before.db"; then ok
	elif "$TD" show --versions "$TMP/t.db" | grep -q '^big '; then ok
	else fail "database damaged by a scan killed after ${delay}s"; fi
	s=0; "$TD" show "$TMP/t.db" >/dev/null || s=$?
	check_eq "show after kill at ${delay}s" "$s" 0
done

# a truncated archive is an error, not a partial result
small=$TMP/small; mkdir -p "$small"
for i in $(seq 1 200); do seq 1 $((i * 50)) >"$small/f$i.txt"; done
tar -C "$TMP" -cJf "$TMP/small.tar.xz" small
head -c $(( $(stat -c %s "$TMP/small.tar.xz") / 2 )) "$TMP/small.tar.xz" >"$TMP/cut.tar.xz"
s=0; "$TD" scan -q "$TMP/cut.tar.xz" -o "$TMP/cut.db" 2>"$TMP/err" || s=$?
check_eq "truncated archive" "$s" 2
[ ! -e "$TMP/cut.db" ] && ok || fail "a database was left behind for a truncated archive"
s=0; "$TD" scan --keep-going "$TMP/cut.tar.xz" -o "$TMP/cut.db" 2>"$TMP/err" || s=$?
check_eq "truncated archive, --keep-going" "$s" 0
grep -q "is incomplete" "$TMP/err" && ok || fail "no warning for an incomplete archive: $(cat "$TMP/err")"
finish
