#!/usr/bin/env bash
# A database, and the directory it lives in, from someone else: links
# planted where the writer puts its lock, SQL of the database's own
# (triggers, views, generated columns), oversized sketches, labels with
# control bytes, and signals during a scan. treedrift runs none of that SQL,
# writes through no link it did not ask for, leaves nothing behind, and
# says what is wrong.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/t"
for i in 1 2 3; do seq "$i" 500 >"$TMP/t/f$i"; done

# a symlink planted as DB.lock: what it points to is never written or made
echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/db.lock"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" 2>"$TMP/err" || s=$?
check_eq "scan with a symlink as its lock" "$s" 2
check_eq "the symlink's target" "$(cat "$TMP/victim")" precious
grep -q "db.lock' is a symbolic link, not a lock file" "$TMP/err" && ok || fail "lock symlink: $(cat "$TMP/err")"
[ -e "$TMP/db" ] && fail "a database was written past a symlinked lock" || ok
rm "$TMP/victim"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" 2>"$TMP/err" || s=$?
check_eq "scan with a dangling symlink as its lock" "$s" 2
[ -e "$TMP/victim" ] && fail "the lock symlink's target was created" || ok
rm "$TMP/db.lock"
# a hard link to another file: not a lock file treedrift made
echo precious >"$TMP/victim"
ln "$TMP/victim" "$TMP/db.lock"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" 2>"$TMP/err" || s=$?
check_eq "scan with a hard link as its lock" "$s" 2
check_eq "the hard link's other name" "$(cat "$TMP/victim")" precious
grep -q "is not a lock file treedrift made" "$TMP/err" && ok || fail "lock hard link: $(cat "$TMP/err")"
rm "$TMP/db.lock"
# a stale lock file a killed writer left is taken over
echo 999999 >"$TMP/db.lock"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" --label v1 2>"$TMP/err" || s=$?
check_eq "scan over a stale lock file" "$s" 0
[ -e "$TMP/db.lock" ] && fail "the lock file was left behind" || ok

finish
