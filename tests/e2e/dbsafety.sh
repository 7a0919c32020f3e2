#!/usr/bin/env bash
# The database under stress: `treedrift check` on sound, corrupt, foreign and
# newer databases; a scan killed with SIGKILL, a full disk, two writers at
# once and readers during a write all leave a database that checks sound and
# holds what it held (compared through `treedrift show`); db delete takes out
# all the versions it is given or none, and db prune gives back free pages.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/small" "$TMP/big"
for i in $(seq 1 20); do seq "$i" $((i * 300)) >"$TMP/small/f$i.txt"; done
# 1,500 files: their database does not fit the 200 KiB disk below (smaller
# files under valgrind, where reading is 50 times slower)
python3 -c 'import os, sys
for i in range(1500):
    open("%s/f%d" % (sys.argv[1], i), "wb").write(os.urandom(int(sys.argv[2])))' "$TMP/big" \
	"$([ -n "${TD_VALGRIND:-}" ] && echo 2000 || echo 40000)"
"$TD" scan -q "$TMP/small" -o "$TMP/db" --label v1
"$TD" show "$TMP/db" >"$TMP/show.before"
"$TD" show --versions "$TMP/db" >"$TMP/versions.before"
cp "$TMP/db" "$TMP/db.v1"
same_db() { # what: the database still checks sound and shows the same
	local s=0
	"$TD" check -q "$TMP/db" 2>"$TMP/check.err" || s=$?
	check_eq "$1: check" "$s" 0
	"$TD" show "$TMP/db" | cmp -s - "$TMP/show.before" && ok || fail "$1: content changed"
	"$TD" show --versions "$TMP/db" | cmp -s - "$TMP/versions.before" && ok || fail "$1: versions changed"
}

# check: sound, then broken in several ways, each exit 2 with a reason
s=0; out=$("$TD" check "$TMP/db") || s=$?
check_eq "check sound" "$s" 0
check_eq "check output" "$out" "$TMP/db: ok, 1 version, 20 entries"
s=0; out=$("$TD" check -q "$TMP/db") || s=$?
check_eq "check -q output" "$s:$out" "0:"
expect_bad() { # file pattern what
	local s=0
	"$TD" check "$1" >/dev/null 2>"$TMP/err" || s=$?
	check_eq "check $3" "$s" 2
	grep -q "$2" "$TMP/err" && ok || fail "check $3: message '$(cat "$TMP/err")' lacks '$2'"
}
cp "$TMP/db" "$TMP/corrupt.db"
# page 3 onwards holds the tables: scribble over the middle of the file
printf 'garbage%.0s' $(seq 1 300) | dd of="$TMP/corrupt.db" bs=1 seek=12288 conv=notrunc status=none
expect_bad "$TMP/corrupt.db" "is corrupt\|malformed\|is not a treedrift database" "corrupt"
cp "$TMP/db" "$TMP/newer.db"
sqlite3 "$TMP/newer.db" 'PRAGMA user_version = 99'
expect_bad "$TMP/newer.db" "written by a newer treedrift (schema 99); this one reads up to 3" "newer schema"
s=0; "$TD" show "$TMP/newer.db" >/dev/null 2>"$TMP/err" || s=$?
check_eq "show of a newer database" "$s" 2
grep -q "newer treedrift" "$TMP/err" && ok || fail "show: no clear error for a newer database"
cp "$TMP/db" "$TMP/inconsistent.db"
sqlite3 "$TMP/inconsistent.db" 'UPDATE version SET file_count = file_count + 1'
expect_bad "$TMP/inconsistent.db" "is inconsistent: version 'v1' lists 21 files but holds 20" "inconsistent"
sqlite3 "$TMP/other.db" 'CREATE TABLE t(x)'
expect_bad "$TMP/other.db" "is not a treedrift database" "foreign database"
expect_bad /etc/hostname "is not a treedrift database" "text file"
expect_bad "$TMP/missing.db" "unable to open" "missing file"
head -c 5000 "$TMP/db" >"$TMP/cut.db"
expect_bad "$TMP/cut.db" "corrupt\|malformed\|not a treedrift\|unable to" "truncated"

# kill -9 during a scan that adds a version: the old database, intact
for delay in 0.05 0.15 0.3; do
	"$TD" scan "$TMP/big" -o "$TMP/db" --label big -q --jobs 1 & pid=$!
	sleep "$delay"; kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
	if "$TD" show --versions "$TMP/db" | grep -q '^big '; then
		# the scan was done before the kill: start again from the old one
		cp "$TMP/db.v1" "$TMP/db"
		echo "note: scan finished before a kill after ${delay}s"
		continue
	fi
	same_db "kill -9 after ${delay}s"
done
# the next write cleans up after the killed one and succeeds
cp "$TMP/db" "$TMP/db.keep"
s=0; "$TD" scan -q "$TMP/small" -o "$TMP/db" --label v2 || s=$?
check_eq "scan after kill -9" "$s" 0
s=0; "$TD" check -q "$TMP/db" || s=$?
check_eq "check after the next scan" "$s" 0
ls -A "$TMP" | grep -q '^db\.tmp-' && fail "a killed scan's temporary file was not removed: $(ls -A "$TMP")" || ok
cp "$TMP/db.keep" "$TMP/db"

# disk full: a 200 KiB tmpfs in a private mount namespace (where root may
# mount); elsewhere skipped (the unit test test_store covers the injected error)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	s=0
	TD="$TD" TMP="$TMP" unshare -m bash -c '
		set -e
		mkdir -p "$TMP/full"
		mount -t tmpfs -o size=200k tmpfs "$TMP/full"
		cp "$TMP/db" "$TMP/full/db"
		s=0; "$TD" scan -q "$TMP/big" -o "$TMP/full/db" --label big 2>"$TMP/full.err" || s=$?
		echo "$s" >"$TMP/full.status"
		ls -A "$TMP/full" >"$TMP/full.ls"
		cp "$TMP/full/db" "$TMP/full.db"
	' || s=$?
	check_eq "disk-full run" "$s" 0
	check_eq "scan on a full disk" "$(cat "$TMP/full.status")" 2
	grep -qi "full\|space" "$TMP/full.err" && ok || fail "disk full: message '$(cat "$TMP/full.err")'"
	check_eq "files left on the full disk" "$(cat "$TMP/full.ls")" db
	cmp -s "$TMP/full.db" "$TMP/db" && ok || fail "disk full: the database changed"
	s=0; "$TD" check -q "$TMP/full.db" || s=$?
	check_eq "check after disk full" "$s" 0
else
	echo "disk-full part skipped (no mount namespace here)"
fi

# two writers at once: the second is refused at once with a lock error, the
# first completes, and nothing interleaves
# (the second starts once the first holds the lock, however slow a loaded
# machine is to get there, or once the first is done)
"$TD" scan -q "$TMP/big" -o "$TMP/db" --label big --jobs 1 & pid=$!
for _ in $(seq 1 3000); do [ -e "$TMP/db.lock" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.02; done
s=0; "$TD" scan -q "$TMP/small" -o "$TMP/db" --label other 2>"$TMP/err" || s=$?
# readers while the write is going on see a whole database: the old one,
# or the new one once it is renamed into place
r=0
for i in 1 2 3; do
	"$TD" check -q "$TMP/db" 2>>"$TMP/reader.err" || { r=1; echo "reader $i: check failed" >&2; }
	"$TD" show "$TMP/db" >"$TMP/show.reader$i" 2>>"$TMP/reader.err" || { r=1; echo "reader $i: show failed" >&2; }
done
w=0; wait $pid || w=$?
check_eq "first writer" "$w" 0
"$TD" show "$TMP/db" >"$TMP/show.after"
for i in 1 2 3; do
	cmp -s "$TMP/show.reader$i" "$TMP/show.before" || cmp -s "$TMP/show.reader$i" "$TMP/show.after" ||
		{ r=1; echo "reader $i saw neither the old nor the new database" >&2; }
done
[ "$r" = 0 ] || cat "$TMP/reader.err" >&2
if [ "$s" = 0 ]; then
	echo "note: the second writer ran after the first one"
	"$TD" show --versions "$TMP/db" | grep -q '^other ' && ok || fail "the second writer's version is missing"
else
	check_eq "second writer" "$s" 2
	grep -q "is being written by another treedrift" "$TMP/err" && ok || fail "lock error: $(cat "$TMP/err")"
fi
check_eq "readers during a write" "$r" 0
s=0; "$TD" check -q "$TMP/db" || s=$?
check_eq "check after two writers" "$s" 0
"$TD" show --versions "$TMP/db" | grep -q '^big ' && ok || fail "the first writer's version is missing"

# db delete: versions out of a database; a missing label deletes nothing, a
# missing database is not made, and the file shrinks by what only the
# deleted versions held
cp "$TMP/db.v1" "$TMP/del.db"
"$TD" scan -q "$TMP/big" -o "$TMP/del.db" --label big
"$TD" scan -q "$TMP/small" -o "$TMP/del.db" --label v2
before=$(stat -c %s "$TMP/del.db")
s=0; "$TD" db delete "$TMP/del.db" big nope 2>"$TMP/err" || s=$?
check_eq "delete a missing label" "$s" 2
grep -q "no version 'nope' in " "$TMP/err" && ok || fail "delete nope: $(cat "$TMP/err")"
check_eq "nothing deleted" "$(stat -c %s "$TMP/del.db")" "$before"
s=0; "$TD" db delete "$TMP/del.db" big v2 2>"$TMP/err" || s=$?
check_eq "delete" "$s" 0
check_eq "delete note" "$(cat "$TMP/err")" "treedrift: deleted 2 versions from '$TMP/del.db'"
"$TD" show "$TMP/del.db" | cmp -s - "$TMP/show.before" && ok || fail "delete: v1 changed"
s=0; "$TD" check -q "$TMP/del.db" || s=$?
check_eq "check after delete" "$s" 0
[ "$(stat -c %s "$TMP/del.db")" -le "$(stat -c %s "$TMP/db.v1")" ] && ok ||
	fail "delete: $(stat -c %s "$TMP/del.db") bytes left, v1 alone took $(stat -c %s "$TMP/db.v1")"
s=0; "$TD" db delete "$TMP/none.db" v1 2>"$TMP/err" || s=$?
check_eq "delete from no database" "$s" 2
[ ! -e "$TMP/none.db" ] && ok || fail "delete made a database"
s=0; "$TD" db delete "$TMP/del.db" 2>"$TMP/err" || s=$?
check_eq "delete without a label" "$s" 2
# someone else's files are left as they are
echo hello >"$TMP/foreign.txt"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE version (x)"); c.commit()' \
	"$TMP/other.db"
sum=$(cksum <"$TMP/other.db")
for f in foreign.txt other.db; do
	for cmd in "delete $TMP/$f v1" "prune $TMP/$f"; do
		s=0; "$TD" db $cmd 2>"$TMP/err" || s=$?
		check_eq "db $cmd" "$s" 2
		grep -q "is not a treedrift database" "$TMP/err" && ok || fail "db $cmd: $(cat "$TMP/err")"
	done
done
check_eq "foreign file untouched" "$(cat "$TMP/foreign.txt")" hello
check_eq "other SQLite file untouched" "$(cksum <"$TMP/other.db")" "$sum"
# db prune: a replace leaves free pages, a prune gives them back
"$TD" scan -q "$TMP/big" -o "$TMP/del.db" --label v1 --replace
"$TD" scan -q "$TMP/small" -o "$TMP/del.db" --label v1 --replace
before=$(stat -c %s "$TMP/del.db")
s=0; "$TD" db prune "$TMP/del.db" 2>"$TMP/err" || s=$?
check_eq "prune" "$s" 0
check_eq "prune note" "$(cat "$TMP/err")" "treedrift: pruned '$TMP/del.db'"
[ "$(stat -c %s "$TMP/del.db")" -lt "$((before / 4))" ] && ok ||
	fail "prune: $(stat -c %s "$TMP/del.db") bytes left of $before"
entries() { "$TD" show "$1" | sed -n '/^version /,$p'; }
check_eq "prune: v1's entries" "$(entries "$TMP/del.db")" "$(entries "$TMP/db.v1")"
finish
