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
rm -f "$TMP/victim"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" 2>"$TMP/err" || s=$?
check_eq "scan with a dangling symlink as its lock" "$s" 2
[ -e "$TMP/victim" ] && fail "the lock symlink's target was created" || ok
rm -f "$TMP/db.lock"
# a hard link to another file: not a lock file treedrift made
echo precious >"$TMP/victim"
ln "$TMP/victim" "$TMP/db.lock"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" 2>"$TMP/err" || s=$?
check_eq "scan with a hard link as its lock" "$s" 2
check_eq "the hard link's other name" "$(cat "$TMP/victim")" precious
grep -q "is not a lock file treedrift made" "$TMP/err" && ok || fail "lock hard link: $(cat "$TMP/err")"
rm -f "$TMP/db.lock"
# a stale lock file a killed writer left is taken over
echo 999999 >"$TMP/db.lock"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/db" --label v1 2>"$TMP/err" || s=$?
check_eq "scan over a stale lock file" "$s" 0
[ -e "$TMP/db.lock" ] && fail "the lock file was left behind" || ok

# SQL of the database's own: a trigger that fires when scan appends a
# version, a view, a generated column, an index of someone else's. scan,
# check, show and compare refuse the database and change nothing.
"$TD" show "$TMP/db" >"$TMP/show.v1"
sql_case() { # name sql
	cp "$TMP/db" "$TMP/$1.db"
	sqlite3 "$TMP/$1.db" "$2"
	cp "$TMP/$1.db" "$TMP/$1.before"
	local s=0
	"$TD" scan -q "$TMP/t" -o "$TMP/$1.db" --label v2 2>"$TMP/err" || s=$?
	check_eq "$1: scan" "$s" 2
	grep -q "that treedrift did not make" "$TMP/err" && ok || fail "$1: scan says '$(cat "$TMP/err")'"
	cmp -s "$TMP/$1.db" "$TMP/$1.before" && ok || fail "$1: the database changed"
	s=0; "$TD" check "$TMP/$1.db" >/dev/null 2>"$TMP/err" || s=$?
	check_eq "$1: check" "$s" 2
	grep -q "that treedrift did not make" "$TMP/err" && ok || fail "$1: check says '$(cat "$TMP/err")'"
	for cmd in "show" "show --versions" "compare $TMP/t"; do
		s=0; $TD $cmd "$TMP/$1.db" >/dev/null 2>"$TMP/err" || s=$?
		check_eq "$1: $cmd" "$s" 2
	done
}
sql_case trigger "CREATE TRIGGER wipe AFTER INSERT ON entry BEGIN DELETE FROM entry WHERE version_id = 1; END;"
sql_case view "CREATE VIEW v AS SELECT * FROM entry"
sql_case generated "ALTER TABLE content ADD COLUMN g BLOB AS (zeroblob(100000000))"
sql_case index "CREATE INDEX slow ON content (length(printf('%.*c', 10000000, 'x')))"
sql_case stat "ANALYZE"
s=0; "$TD" check -q "$TMP/db" || s=$?
check_eq "the sound database still checks" "$s" 0

# raw fallback sketches longer than any scan makes (the fallback distance
# is quadratic in their length): refused on load and by check
mkdir -p "$TMP/tiny"
echo small >"$TMP/tiny/a"
echo other >"$TMP/tiny/b"
"$TD" scan -q "$TMP/tiny" -o "$TMP/sketch.db" --label v1
sqlite3 "$TMP/sketch.db" "UPDATE content SET sketch = zeroblob(300000) WHERE sketch_kind = 1"
s=0; "$TD" check "$TMP/sketch.db" >/dev/null 2>"$TMP/err" || s=$?
check_eq "check of a 300 KB sketch" "$s" 2
grep -q "has a sketch of 300000 bytes" "$TMP/err" && ok || fail "sketch: check says '$(cat "$TMP/err")'"
s=0; "$TD" compare "$TMP/sketch.db" "$TMP/sketch.db" >/dev/null 2>"$TMP/err" || s=$?
check_eq "compare with 300 KB sketches" "$s" 2
grep -q "malformed entry" "$TMP/err" && ok || fail "sketch: compare says '$(cat "$TMP/err")'"
sqlite3 "$TMP/sketch.db" "UPDATE content SET sketch = zeroblob(1023), sketch_kind = 2 WHERE sketch_kind = 1"
s=0; "$TD" check "$TMP/sketch.db" >/dev/null 2>"$TMP/err" || s=$?
check_eq "check of a short histogram" "$s" 2

# labels and source kinds with control bytes (an escape sequence, a
# newline): check refuses them as scan --label does; versions, show and
# base print them escaped, never raw to the terminal
cp "$TMP/db" "$TMP/label.db"
sqlite3 "$TMP/label.db" "UPDATE version SET label = 'v' || char(27) || '[31mred' || char(10) || 'x',
	source_kind = 'dir' || char(27) || ']0;title' || char(7) WHERE id = (SELECT max(id) FROM version)"
s=0; "$TD" check "$TMP/label.db" >/dev/null 2>"$TMP/err" || s=$?
check_eq "check of a label with control bytes" "$s" 2
grep -q "has a label that is not printable text" "$TMP/err" && ok || fail "label: check says '$(cat "$TMP/err")'"
s=0; "$TD" scan -q "$TMP/t" -o "$TMP/label.db" --label "$(printf 'v\033[2J')" 2>"$TMP/err" || s=$?
check_eq "scan --label with control bytes" "$s" 2
for cmd in "versions" "show" "base"; do
	s=0; out=$($TD $cmd "$TMP/label.db" $([ "$cmd" = base ] && echo "$TMP/t") 2>&1) || s=$?
	case $out in *$'\033'*|*$'\007'*) fail "$cmd prints a control byte from the database" ;; *) ok ;; esac
	case $out in *'v\033[31mred\nx'*) ok ;; *) fail "$cmd: the label is not shown escaped: $out" ;; esac
done

# a hot journal beside the database (another program's write into it was
# interrupted): readers say so, rather than "attempt to write a readonly
# database", and the suggested cure works
cp "$TMP/db" "$TMP/hot.db"
python3 -c 'import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA cache_size = 1"); c.execute("BEGIN")
c.execute("UPDATE entry SET mode = mode + 1"); c.execute("UPDATE content SET size = size + 1")
os._exit(0)' "$TMP/hot.db"
if [ -s "$TMP/hot.db-journal" ]; then
	for cmd in "check" "show"; do
		s=0; $TD $cmd "$TMP/hot.db" >/dev/null 2>"$TMP/err" || s=$?
		check_eq "$cmd with a hot journal" "$s" 2
		grep -q "it has a hot journal" "$TMP/err" && ok || fail "hot journal: $cmd says '$(cat "$TMP/err")'"
	done
	sqlite3 "$TMP/hot.db" 'PRAGMA quick_check' >/dev/null
	s=0; "$TD" check -q "$TMP/hot.db" || s=$?
	check_eq "check after the journal was rolled back" "$s" 0
else
	echo "note: no hot journal could be made here"
fi

# a write-protected database (mode 0444), for a user the mode binds (root
# writes regardless): refused with a message that says so
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir -p "$TMP/ro"
	cp "$TMP/db" "$TMP/ro/db"
	chmod 0444 "$TMP/ro/db"
	chown -R nobody "$TMP/ro"
	chmod 755 "$TMP"
	s=0; setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$TD" scan -q "$TMP/t" -o "$TMP/ro/db" --label v2 2>"$TMP/err" || s=$?
	check_eq "scan into a write-protected database" "$s" 2
	grep -q "is write-protected (mode 0444)" "$TMP/err" && ok || fail "mode 0444: scan says '$(cat "$TMP/err")'"
else
	echo "write-protection part skipped (not root, or no setpriv or nobody)"
fi

# a tree that holds its own output database: the scan leaves its lock and
# temporary file out (the database itself, an ordinary file, stays in)
mkdir -p "$TMP/self"
seq 1 100 >"$TMP/self/a"
"$TD" scan -q "$TMP/self" -o "$TMP/self/own.db" --label v1
"$TD" scan -q "$TMP/self" -o "$TMP/self/own.db" --label v2
check_eq "a tree with its own database, v1" \
	"$("$TD" show --label v1 "$TMP/self/own.db" | awk '$2 == "file" { print $NF }' | tr '\n' ' ')" "a "
check_eq "a tree with its own database, v2" \
	"$("$TD" show --label v2 "$TMP/self/own.db" | awk '$2 == "file" { print $NF }' | tr '\n' ' ')" "a own.db "

# SIGINT, SIGTERM and SIGHUP during a scan: it stops, removes its lock and
# temporary file, dies of the signal, and the database is as it was
mkdir -p "$TMP/big"
# (fewer and smaller files under valgrind, where reading is 50 times slower)
python3 -c 'import os, sys
for i in range(int(sys.argv[2])):
    open("%s/f%d" % (sys.argv[1], i), "wb").write(os.urandom(int(sys.argv[3])))' "$TMP/big" \
	$([ -n "${TD_VALGRIND:-}" ] && echo 300 2000 || echo 1500 40000)
"$TD" scan -q "$TMP/t" -o "$TMP/sig.db" --label v1
cp "$TMP/sig.db" "$TMP/sig.before"
for sig in INT TERM HUP; do
	# (a background job of a script starts with SIGINT ignored: undo that)
	env --default-signal="$sig" "$TD" scan -q "$TMP/big" -o "$TMP/sig.db" --label big --jobs 1 & pid=$!
	for _ in $(seq 1 1000); do ls -A "$TMP" | grep -q '^sig\.db\.tmp-' && break; sleep 0.01; done
	kill -s "$sig" $pid 2>/dev/null || true
	s=0; wait $pid || s=$?
	if [ "$s" = 0 ]; then
		echo "note: the scan finished before SIG$sig"
		cp "$TMP/sig.before" "$TMP/sig.db"
		continue
	fi
	check_eq "scan stopped by SIG$sig" "$s" $((128 + $(kill -l "$sig")))
	left=$(ls -A "$TMP" | grep '^sig\.db\.' || true)
	check_eq "files SIG$sig left" "$left" ""
	cmp -s "$TMP/sig.db" "$TMP/sig.before" && ok || fail "SIG$sig: the database changed"
done
# a signal ignored from the start (nohup) stays ignored: the scan completes
(trap '' HUP; exec "$TD" scan -q "$TMP/big" -o "$TMP/sig.db" --label nohup --jobs 1) & pid=$!
for _ in $(seq 1 1000); do ls -A "$TMP" | grep -q '^sig\.db\.tmp-' && break; sleep 0.01; done
kill -s HUP $pid 2>/dev/null || true
s=0; wait $pid || s=$?
check_eq "scan with SIGHUP ignored, after SIGHUP" "$s" 0

finish
