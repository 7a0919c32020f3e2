#!/usr/bin/env bash
# The PostgreSQL backend against a real server (pgserver.sh): the same
# commands give the same reports as with SQLite; db copy both ways; db delete
# and prune; check;
# a newer schema refused; 8 writers at once; a writer killed mid-way; readers
# during writes; two writers of one label; a bad URI, a server that is down,
# a wrong password and a read-only role; and no password in any output.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pgserver.sh"
s=0; pg_start || s=$?
[ "$s" = 77 ] && exit 77
[ "$s" = 0 ] || { echo "FAIL: the test server did not start"; exit 1; }
EX=$SRC/examples
cd "$TMP"

# ---- the same commands, the same results ----
# Reports differ only in when a version was scanned and the database's name.
# The names go first: a time stamp's pattern can match inside the random
# name of the server's socket directory (td-pg.TZ...).
norm() { sed -e "s#$TD_PG#DB#g" -e "s#$TMP/sq.db#DB#g" \
	-e 's/"scanned_at": *"[^"]*"/"scanned_at": "T"/g' -e 's/[0-9-]*T[0-9:]*Z/T/g' -e 's/database [0-9]* bytes/database N bytes/' \
	-e 's/"database_bytes": *[0-9]*/"database_bytes": N/' -e 's/"generated_at": *"[^"]*"/"generated_at": "T"/'; }
for db in "$TMP/sq.db" "$TD_PG"; do
	"$TD" scan -q "$EX/upstream" -o "$db" --label v1
	"$TD" scan -q "$EX/vendor" -o "$db" --label v2
	"$TD" scan -q "$EX/upstream" -o "$db" --label v1.1
done
same() { # what, then a command with @DB@ for the database
	local what=$1 a b sa=0 sb=0
	shift
	a=$("${@//@DB@/$TMP/sq.db}" 2>&1 | norm) || sa=$?
	b=$("${@//@DB@/$TD_PG}" 2>&1 | norm) || sb=$?
	if [ "$a" = "$b" ] && [ "$sa" = "$sb" ]; then ok; else
		fail "$what differs between SQLite and PostgreSQL: exit $sa vs $sb"
		diff <(echo "$a") <(echo "$b") | head -20 >&2
	fi
}
same "compare json" "$TD" compare @DB@ "$EX/vendor" --base v1 --format json
same "compare text" "$TD" compare @DB@ "$EX/vendor" --format text
same "compare csv" "$TD" compare @DB@ "$EX/vendor" --base auto --format csv
same "compare db to db" "$TD" compare @DB@ @DB@ --base v1 --target-label v2 --format json
same "base json" "$TD" base @DB@ "$EX/vendor" --format json
same "base text" "$TD" base @DB@ "$EX/upstream"
same "versions json" "$TD" versions @DB@ --format json
same "show" "$TD" show @DB@ --label v2
same "show json" "$TD" show @DB@ --format json
same "trend" "$TD" trend @DB@ "$EX/vendor" "$EX/upstream"
same "check" "$TD" check -q @DB@
same "label taken" "$TD" scan -q "$EX/vendor" -o @DB@ --label v2
same "no such label" "$TD" compare @DB@ "$EX/vendor" --base nope
# scan --reuse takes digests from a PostgreSQL database as from an SQLite one
a=$("$TD" scan "$EX/vendor" -o "$TMP/r1.db" --label r --reuse "$TMP/sq.db" 2>&1 | sed "s#$TMP/r1.db#R#")
b=$("$TD" scan "$EX/vendor" -o "$TMP/r2.db" --label r --reuse "$TD_PG" 2>&1 | sed "s#$TMP/r2.db#R#")
check_eq "--reuse from PostgreSQL" "$b" "$a"
echo "$a" | grep -q ", 0 files read\|(0 files read" && ok || fail "--reuse read files: $a"
for db in "$TMP/sq.db" "$TD_PG"; do
	s=0; "$TD" scan -q "$EX/vendor" -o "$db" --label v1.1 --replace || s=$?
	check_eq "replace" "$s" 0
done
same "after replace" "$TD" show @DB@ --label v1.1
s=0; "$TD" scan -q "$EX/vendor" -o "$TD_PG" --label x --new 2>err || s=$?
check_eq "--new on PostgreSQL" "$s" 2
grep -q "refusing to replace" err && ok || fail "--new: $(cat err)"

# ---- db copy, both ways ----
pg_psql -q -c "CREATE DATABASE copy1" -c "CREATE DATABASE copy2"
s=0; "$TD" db copy -q "$TMP/sq.db" "$(pg_uri copy1)" || s=$?
check_eq "copy SQLite to PostgreSQL" "$s" 0
check_eq "copied versions" "$("$TD" versions "$(pg_uri copy1)" | awk 'NR > 1 && $1 ~ /^v/ {print $1}' | tr '\n' ' ')" "v1 v2 v1.1 "
a=$("$TD" compare "$TMP/sq.db" "$EX/vendor" --base v2 --format json | norm)
b=$("$TD" compare "$(pg_uri copy1)" "$EX/vendor" --base v2 --format json | sed "s#$(pg_uri copy1)#DB#g" | norm)
[ "$a" = "$b" ] && ok || fail "a copied version compares differently"
check_eq "content stored once" "$(PGDB=copy1 pg_psql -tA -c 'SELECT count(*) = count(DISTINCT sha256) FROM content')" t
s=0; "$TD" db copy -q "$TD_PG" "$TMP/back.db" --label v2 || s=$?
check_eq "copy PostgreSQL to SQLite" "$s" 0
check_eq "one version back" "$("$TD" versions "$TMP/back.db" | awk 'NR > 1 && $1 ~ /^v/ {print $1}')" v2
check_eq "the normalised digests and lengths there and back" \
	"$(sqlite3 "$TMP/back.db" 'SELECT group_concat(hex(sha256) || hex(sha256_ws) || ws_bytes, "") FROM
		(SELECT * FROM content WHERE id IN (SELECT content_id FROM entry) ORDER BY sha256)' | sha256sum)" \
	"$(sqlite3 "$TMP/sq.db" 'SELECT group_concat(hex(sha256) || hex(sha256_ws) || ws_bytes, "") FROM
		(SELECT * FROM content WHERE id IN (SELECT content_id FROM entry e JOIN version v ON v.id = e.version_id
		WHERE v.label = '"'v2'"') ORDER BY sha256)' | sha256sum)"
check_eq "every content with its normalised digest and length" \
	"$(sqlite3 "$TMP/back.db" 'SELECT count(*) FROM content WHERE sha256_ws IS NULL OR ws_bytes IS NULL')" 0
s=0; "$TD" check -q "$TMP/back.db" || s=$?
check_eq "check the copy" "$s" 0
s=0; "$TD" db copy -q "$TMP/sq.db" "$(pg_uri copy1)" 2>err || s=$?
check_eq "copy onto taken labels" "$s" 2
check_eq "nothing half-copied" "$("$TD" versions "$(pg_uri copy1)" | grep -c '^v')" 3

# ---- db delete, as with SQLite ----
"$TD" db copy -q "$TD_PG" "$TMP/del.db"
pg_psql -q -c "CREATE DATABASE del"
"$TD" db copy -q "$TD_PG" "$(pg_uri del)"
DEL=$(pg_uri del)
s=0; "$TD" db delete "$DEL" v1.1 nope 2>err || s=$?
check_eq "delete a missing label" "$s" 2
grep -q "no version 'nope' in " err && ok || fail "delete nope: $(cat err)"
check_eq "nothing deleted" "$("$TD" versions "$DEL" | grep -c '^v')" 3
# lock_held SQL: another session of database del takes an advisory lock with
# SQL and holds it; lock_gone ends it (later tests look for advisory locks)
lock_held() {
	(trap - EXIT; exec "$PG_BIN/psql" -X -h "$PGSOCK" -p "$PGPORT_TD" -U postgres -d del -q \
		-c "$1" -c "SELECT pg_sleep(30)" >/dev/null 2>&1) &
	holder=$!
	for _ in $(seq 1 100); do
		[ "$(PGDB=del pg_psql -tA -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")" = 1 ] && break
		sleep 0.1
	done
}
lock_gone() {
	PGDB=del pg_psql -q -tA -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = 'del' AND pid <> pg_backend_pid()" >/dev/null
	wait "$holder" 2>/dev/null || true
}
# a label another writer holds is refused at once
lock_held "SELECT pg_advisory_lock(1413772849, hashtext('v2'))"
s=0; "$TD" db delete "$DEL" v2 2>err || s=$?
lock_gone
check_eq "delete a label being written" "$s" 2
grep -q "version 'v2' is being written to" err && ok || fail "delete locked: $(cat err)"
for db in "$TMP/del.db" "$DEL"; do "$TD" db delete -q "$db" v1.1 v1; done
same_del() { # what, then a command with @DB@ for the database
	local what=$1 a b sa=0 sb=0
	shift
	a=$("${@//@DB@/$TMP/del.db}" 2>&1 | sed "s#$TMP/del.db#DB#g" | norm) || sa=$?
	b=$("${@//@DB@/$DEL}" 2>&1 | sed "s#$DEL#DB#g" | norm) || sb=$?
	[ "$a" = "$b" ] && [ "$sa" = "$sb" ] && ok || fail "$what differs after delete: exit $sa vs $sb"
}
check_eq "deleted" "$("$TD" versions "$DEL" | awk 'NR > 1 && $1 ~ /^v/ {print $1}')" v2
unreferenced() { # content and paths of database $1 that no version refers to
	PGDB=$1 pg_psql -tA -c "SELECT (SELECT count(*) FROM content c WHERE NOT EXISTS
		(SELECT 1 FROM entry e WHERE e.content_id = c.id)) || ' ' || (SELECT count(*) FROM path p
		WHERE NOT EXISTS (SELECT 1 FROM entry e WHERE e.path_id = p.id))"
}
check_eq "delete drops what no version refers to" "$(unreferenced del)" "0 0"
same_del "show after delete" "$TD" show @DB@
same_del "compare after delete" "$TD" compare @DB@ "$EX/upstream" --format json
s=0; "$TD" check -q "$DEL" || s=$?
check_eq "check after delete" "$s" 0
# a label deleted can be written again
s=0; "$TD" scan -q "$EX/upstream" -o "$DEL" --label v1 || s=$?
check_eq "a deleted label written again" "$s" 0
# while another writer is at work, what is unreferenced stays, and db prune
# is refused; a prune or a replace with no other writer drops it
lock_held "SELECT pg_advisory_lock_shared(1413772850, 0)"
s=0; "$TD" db delete -q "$DEL" v2 || s=$?
check_eq "delete while another writer is at work" "$s" 0
[ "$(unreferenced del)" != "0 0" ] && ok || fail "rows dropped under another writer"
s=0; "$TD" db prune "$DEL" 2>err || s=$?
check_eq "prune while another writer is at work" "$s" 2
grep -q "is being written by other writers" err && ok || fail "prune locked: $(cat err)"
lock_gone
s=0; "$TD" db prune -q "$DEL" || s=$?
check_eq "prune" "$s" 0
check_eq "prune drops what no version refers to" "$(unreferenced del)" "0 0"
"$TD" scan -q "$EX/upstream" -o "$DEL" --label v2
s=0; "$TD" scan -q "$EX/vendor" -o "$DEL" --label v1 --replace || s=$?
check_eq "replace" "$s" 0
check_eq "replace drops what no version refers to" "$(unreferenced del)" "0 0"
check_eq "the replaced version" "$("$TD" show "$DEL" --label v1 | sed -n '/^version /,$p')" \
	"$("$TD" show "$TMP/sq.db" --label v2 | sed -n '/^version /,$p' | sed '1s/v2/v1/')"

# ---- check finds what is wrong ----
pg_psql -q -c "CREATE DATABASE broken"
"$TD" db copy -q "$TMP/sq.db" "$(pg_uri broken)"
PGDB=broken pg_psql -q -c "UPDATE version SET file_count = 99 WHERE label = 'v2'"
s=0; "$TD" check "$(pg_uri broken)" 2>err || s=$?
check_eq "check: inconsistent" "$s" 2
grep -q "inconsistent: version 'v2' lists 99 files" err && ok || fail "check: $(cat err)"
PGDB=broken pg_psql -q -c "UPDATE version SET file_count = (SELECT count(*) FROM entry WHERE version_id = version.id)" \
	-c "ALTER TABLE entry DROP CONSTRAINT entry_content_id_fkey"
s=0; "$TD" check "$(pg_uri broken)" 2>err || s=$?
check_eq "check: a foreign key dropped" "$s" 2
grep -q "lacks its foreign key to content" err && ok || fail "check fk: $(cat err)"
# a newer schema is refused, with SQLite's message
PGDB=broken pg_psql -q -c "UPDATE meta SET value = '99' WHERE key = 'schema'"
s=0; "$TD" versions "$(pg_uri broken)" 2>err || s=$?
check_eq "newer schema" "$s" 2
grep -q "was written by a newer treedrift (schema 99); this one reads up to" err && ok || fail "newer: $(cat err)"
s=0; "$TD" scan -q "$EX/vendor" -o "$(pg_uri broken)" --label n 2>err || s=$?
check_eq "newer schema, writer" "$s" 2
pg_psql -q -c "CREATE DATABASE other"
PGDB=other pg_psql -q -c "CREATE TABLE version (x int)"
s=0; "$TD" versions "$(pg_uri other)" 2>err || s=$?
check_eq "someone else's tables" "$s" 2
grep -q "is not a treedrift database" err && ok || fail "foreign: $(cat err)"

# databases of schema 1 (no content.sha256_ws) and 2 (no content.ws_bytes) are
# read as they are and migrated by their next writer, to schema 3
for v in 1 2; do
	pg_psql -q -c "CREATE DATABASE old$v"
	OLD=$(pg_uri old$v)
	"$TD" scan -q "$EX/upstream" -o "$OLD" --label v1
	drop="ALTER TABLE content DROP COLUMN ws_bytes"
	[ "$v" = 1 ] && drop="$drop, DROP COLUMN sha256_ws"
	PGDB=old$v pg_psql -q -c "$drop" -c "UPDATE meta SET value = '$v' WHERE key = 'schema'"
	s=0; "$TD" compare "$OLD" "$EX/vendor" --format json >old.json || s=$?
	check_eq "schema $v read as it is" "$s" 1
	check_eq "schema $v not migrated by a reader" \
		"$(PGDB=old$v pg_psql -tA -c "SELECT value FROM meta WHERE key = 'schema'")" "$v"
	s=0; "$TD" scan -q "$EX/vendor" -o "$OLD" --label v2 || s=$?
	check_eq "schema $v appended to" "$s" 0
	check_eq "schema $v migrated to schema 3" \
		"$(PGDB=old$v pg_psql -tA -c "SELECT value FROM meta WHERE key = 'schema'")" 3
	check_eq "schema $v: the normalised digest and its length filled in, for the content v1 shares too" \
		"$(PGDB=old$v pg_psql -tA -c "SELECT count(*) FILTER (WHERE c.sha256_ws IS NULL OR c.ws_bytes IS NULL)
			|| ' of ' || (count(*) > 1)
			FROM content c JOIN entry e ON e.content_id = c.id JOIN version v ON v.id = e.version_id
			WHERE v.label = 'v2' AND c.id IN (SELECT content_id FROM entry WHERE version_id <> v.id)")" "0 of true"
	s=0; "$TD" check -q "$OLD" || s=$?
	check_eq "schema $v: check after the migration" "$s" 0
done

# ---- many writers at once ----
pg_psql -q -c "CREATE DATABASE many"
MANY=$(pg_uri many)
for i in 1 2 3 4 5 6 7 8; do
	mkdir -p "tree$i/common" "tree$i/own"
	for j in $(seq 1 150); do
		echo "shared file $j, the same in every tree" >"tree$i/common/f$j.c"
		echo "file $j of tree $i" >"tree$i/own/g$j.c"
	done
done
"$TD" scan -q tree1 -o "$MANY" --label seed
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$TD" scan -q "tree$i" -o "$MANY" --label "t$i" --jobs 1 2>"err$i" & pids+=($!)
done
# readers during the writes see whole versions: each lists its 300 files
r=0
for _ in 1 2 3 4 5; do
	"$TD" check -q "$MANY" 2>>reader.err || r=1
	"$TD" versions "$MANY" | awk 'NR > 1 && $1 ~ /^t/ && $2 != 300 { bad = 1 } END { exit bad }' || r=1
done
w=0
for p in "${pids[@]}"; do wait "$p" || w=1; done
check_eq "8 writers at once" "$w" 0
[ "$w" = 0 ] || cat err* >&2
check_eq "readers during writes" "$r" 0
check_eq "8 whole versions" "$("$TD" versions "$MANY" | awk 'NR > 1 && $1 ~ /^t/ && $2 == 300' | wc -l)" 8
s=0; "$TD" check -q "$MANY" || s=$?
check_eq "check after 8 writers" "$s" 0
check_eq "shared content once" "$(PGDB=many pg_psql -tA -c 'SELECT count(*) FROM content')" 1350

# ---- a writer killed mid-way, two writers of one label ----
mkdir big
head -c 12000000 /dev/urandom >big.bin
(cd big && split -b 3000 -a 4 ../big.bin f)
rm big.bin
"$TD" scan -q big -o "$MANY" --label big --jobs 1 & pid=$!
# Freeze the writer as soon as it holds the label's lock (key 2 is the
# label's hash; 0 is the schema lock, which a frozen writer must not hold),
# so that it is mid-way, whatever the machine's speed, while the second
# writer runs.
held=0
for _ in $(seq 600); do
	[ "$(PGDB=many pg_psql -tA -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid <> 0")" -gt 0 ] && { held=1; break; }
	sleep 0.05
done
kill -STOP "$pid" 2>/dev/null || true
committed=$("$TD" versions "$MANY" | grep -c '^big ' || true)
s=0; timeout 120 "$TD" scan -q "$EX/vendor" -o "$MANY" --label big 2>err || s=$?
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
if [ "$held" = 1 ] && [ "$committed" = 0 ]; then
	check_eq "second writer of a label" "$s" 2
	grep -q "is being written" err && ok || fail "second writer: $(cat err)"
	check_eq "no partial version after kill -9" "$("$TD" versions "$MANY" | grep -c '^big ' || true)" 0
else
	echo "note: the first writer of 'big' was not caught mid-way (lock seen: $held); the kill -9 case was not exercised"
fi
s=0; "$TD" check -q "$MANY" || s=$?
check_eq "check after kill -9" "$s" 0
s=0; "$TD" scan -q big -o "$MANY" --label big2 || s=$?
check_eq "the label's lock went with the killed writer" "$s" 0

# ---- errors: exit 2, clear, nothing lost ----
before=$("$TD" versions "$TD_PG" | grep -c '^v')
s=0; "$TD" versions "postgresql://postgres@%2Fnowhere:notaport/td" 2>err || s=$?
check_eq "bad URI" "$s" 2
grep -q "unable to open 'postgresql://postgres@%2Fnowhere:notaport/td'" err && ok || fail "bad URI: $(cat err)"
s=0; "$TD" compare "postgresql://postgres@${PGSOCK//\//%2F}:1/td" "$EX/vendor" 2>err || s=$?
check_eq "server down" "$s" 2
grep -q "unable to open.*No such file or directory" err && ok || fail "server down: $(cat err)"
pg_psql -q -c "CREATE ROLE alice LOGIN PASSWORD 'Sekr3t-pw'" -c "GRANT ALL ON DATABASE td TO alice" \
	-d td -c "GRANT USAGE ON SCHEMA public TO alice" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO alice"
PW_URI="postgresql://alice:Sekr3t-pw@127.0.0.1:$PGPORT_TD/td"
BAD_URI="postgresql://alice:wrong-pw@127.0.0.1:$PGPORT_TD/td"
s=0; "$TD" versions "$BAD_URI" 2>err >out || s=$?
check_eq "wrong password" "$s" 2
grep -q "password authentication failed" err && ok || fail "wrong password: $(cat err)"
grep -q "wrong-pw" err out && fail "the password is shown" || ok
s=0; "$TD" scan "$EX/vendor" -o "$PW_URI" --label ro >out 2>err || s=$?
check_eq "read-only role" "$s" 2
grep -q "permission denied" err && ok || fail "read-only: $(cat err)"
check_eq "nothing lost" "$("$TD" versions "$TD_PG" | grep -c '^v')" "$before"
# credentials never shown: not in notes, errors, reports or check
"$TD" compare "$PW_URI" "$EX/vendor" --base v1 >text.out 2>&1 || true
"$TD" compare "$PW_URI" "$EX/vendor" --base v1 --format json >json.out 2>&1 || true
"$TD" compare "$PW_URI?password=Sekr3t-pw&connect_timeout=5" "$EX/vendor" --format html >html.out 2>&1 || true
"$TD" check "$PW_URI" >check.out 2>&1 || true
"$TD" versions "postgresql://alice:Sekr3t-pw%zz@127.0.0.1:$PGPORT_TD/td" >bad.out 2>&1 || true
grep -l "Sekr3t" text.out json.out html.out check.out bad.out err out && fail "a password is shown" || ok
grep -q "^upstream: v1 " text.out && ok || fail "upstream line: $(head -3 text.out)"
grep -q "postgresql://alice@127.0.0.1:$PGPORT_TD/td: ok" check.out && ok || fail "check: $(cat check.out)"
finish
