#!/usr/bin/env bash
# PostgreSQL against SQLite in the same run, on real kernel trees:
#   1. scan BENCH_TREE into a new SQLite file and into a new PostgreSQL
#      database (a server of its own, tests/e2e/pgserver.sh), alternately;
#   2. compare BENCH_COMPARE_TREE against the version in each;
#   3. with BENCH_SCALE=N (N > 4): N versions, the four real Debian 6.1 trees
#      plus versions derived from them (a hard-linked copy of one tree with a
#      subset of the files that changed on the way to the next one), scanned
#      into SQLite with --reuse and copied into PostgreSQL with `db copy`:
#      size per version, `base` across all of them and a `compare`, on both.
#
# Environment:
#   TREEDRIFT_BENCH_CACHE  trees (default /var/cache/treedrift-bench)
#   TREEDRIFT              binary (default build/cli/treedrift)
#   BENCH_TREE             default trees/linux-6.1.176-1
#   BENCH_COMPARE_TREE     default trees/linux-6.1.192-3
#   BENCH_RUNS             timed runs per command and backend (default 2)
#   BENCH_SCALE            versions for part 3 (default 0: skipped)
#   BENCH_RATIO            0 skips parts 1 and 2
#   BENCH_WORK             scratch space (default work/pg in the cache)
#   BENCH_KEEP             1 keeps the server and its databases at the end
#                          (its directory and port are printed) for more
#                          measurements on the same data
# Prints a Markdown table per part.
set -euo pipefail
REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
TD=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
TREE=${BENCH_TREE:-$CACHE/trees/linux-6.1.176-1}
TARGET=${BENCH_COMPARE_TREE:-$CACHE/trees/linux-6.1.192-3}
RUNS=${BENCH_RUNS:-2}
SCALE=${BENCH_SCALE:-0}
WORK=${BENCH_WORK:-$CACHE/work/pg}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$REPO_ROOT/tests/e2e/pgserver.sh"
pg_start || exit 1
mkdir -p "$WORK"
if [ "${BENCH_KEEP:-0}" = 1 ]; then
	trap 'rm -rf "$TMP"' EXIT
	echo "server kept: socket directory $PGDIR, port $PGPORT_TD" \
		"(stop: runuser -u $PG_USER -- $PG_BIN/pg_ctl -D $PGDIR/data stop)" >&2
fi

log() { printf 'bench %(%T)T: %s\n' -1 "$*" >&2; }
# Wall seconds of a command (its output discarded).
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || [ $? = 1 ] || { log "failed: $*"; return 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "conditions: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg) at start, PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}')" \
	"(fsync off, local socket), $RUNS runs each, median"
[ "${BENCH_RATIO:-1}" = 0 ] && RUNS=0

# ---- 1 and 2: scan and compare ----
sq_scan=() pg_scan=() sq_cmp=() pg_cmp=()
for run in $(seq 1 "$RUNS"); do
	rm -f "$WORK/one.db"
	log "scan into SQLite, run $run"
	sq_scan+=("$(secs "$TD" scan -q "$TREE" -o "$WORK/one.db" --label v1)")
	pg_psql -q -c "DROP DATABASE IF EXISTS one" -c "CREATE DATABASE one"
	log "scan into PostgreSQL, run $run"
	pg_scan+=("$(secs "$TD" scan -q "$TREE" -o "$(pg_uri one)" --label v1)")
done
for run in $(seq 1 "$RUNS"); do
	log "compare against SQLite, run $run"
	sq_cmp+=("$(secs "$TD" compare -q "$WORK/one.db" "$TARGET" --format json)")
	log "compare against PostgreSQL, run $run"
	pg_cmp+=("$(secs "$TD" compare -q "$(pg_uri one)" "$TARGET" --format json)")
done
if [ "$RUNS" -gt 0 ]; then
a=$(printf '%s\n' "${sq_scan[@]}" | median) b=$(printf '%s\n' "${pg_scan[@]}" | median)
c=$(printf '%s\n' "${sq_cmp[@]}" | median) d=$(printf '%s\n' "${pg_cmp[@]}" | median)
echo
echo "| $(basename "$TREE") | SQLite (s) | PostgreSQL (s) | ratio | runs SQLite / PostgreSQL |"
echo "| --- | ---: | ---: | ---: | --- |"
echo "| scan | $a | $b | $(echo "scale=2; $b / $a" | bc) | ${sq_scan[*]} / ${pg_scan[*]} |"
echo "| compare $(basename "$TARGET") | $c | $d | $(echo "scale=2; $d / $c" | bc) | ${sq_cmp[*]} / ${pg_cmp[*]} |"
echo "database size: SQLite $(stat -c %s "$WORK/one.db") bytes, PostgreSQL $("$TD" versions "$(pg_uri one)" | tail -1 | grep -o '[0-9]* bytes')"
fi

[ "$SCALE" -gt 4 ] || exit 0

# ---- 3: many versions ----
mapfile -t REAL < <(ls -d "$CACHE"/trees/linux-6.1.*-* | sort -V)
[ "${#REAL[@]}" -ge 2 ] || { log "need the Debian 6.1 trees (bench/fetch.sh)"; exit 1; }
rm -f "$WORK/many.db"
pg_psql -q -c "DROP DATABASE IF EXISTS many" -c "CREATE DATABASE many"
MANY=$(pg_uri many)
echo
echo "| versions | SQLite size (MB) | PostgreSQL size (MB) | scan into SQLite (s) | copy to PostgreSQL (s) |"
echo "| ---: | ---: | ---: | ---: | ---: |"
n=0
for i in "${!REAL[@]}"; do
	[ "$n" -lt "$SCALE" ] || break
	from=${REAL[$i]}
	next=${REAL[$((i + 1))]:-}
	# the files that changed on the way to the next release
	changed=()
	if [ -n "$next" ]; then
		mapfile -t changed < <(diff -rq "$from" "$next" 2>/dev/null | awk '/^Files / { print $2 }' | sed "s#^$from/##")
	fi
	per=$(( (SCALE - ${#REAL[@]}) / (${#REAL[@]} - 1) + 1 ))
	for k in $(seq 0 $((per - 1))); do
		[ "$n" -lt "$SCALE" ] || break
		label=$(basename "$from")
		tree=$from
		if [ "$k" -gt 0 ] && [ "${#changed[@]}" -gt 0 ]; then
			label="$label+$k"
			tree=$WORK/derived
			rm -rf "$tree"
			cp -al "$from" "$tree"
			# subset k of per: every per-th changed file, from offset k
			for ((j = k; j < ${#changed[@]}; j += per)); do
				f=${changed[$j]}
				[ -f "$next/$f" ] && { rm -f "$tree/$f"; cp "$next/$f" "$tree/$f"; }
			done
		elif [ "$k" -gt 0 ]; then
			break
		fi
		reuse=()
		[ -e "$WORK/many.db" ] && reuse=(--reuse "$WORK/many.db")
		t1=$(secs "$TD" scan -q "$tree" -o "$WORK/many.db" --label "$label" "${reuse[@]}")
		rm -f "$WORK/one-version.db"
		"$TD" db copy -q "$WORK/many.db" "$WORK/one-version.db" --label "$label"
		t2=$(secs "$TD" db copy -q "$WORK/one-version.db" "$MANY")
		n=$((n + 1))
		sz1=$(stat -c %s "$WORK/many.db")
		sz2=$("$TD" versions "$MANY" | tail -1 | grep -o '[0-9]* bytes' | cut -d' ' -f1)
		echo "| $n | $(echo "scale=1; $sz1 / 1000000" | bc) | $(echo "scale=1; $sz2 / 1000000" | bc) | $t1 | $t2 |"
	done
done
rm -rf "$WORK/derived" "$WORK/one-version.db"
b1=$(secs "$TD" base "$WORK/many.db" "$TARGET")
b2=$(secs "$TD" base "$MANY" "$TARGET")
c1=$(secs "$TD" compare -q "$WORK/many.db" "$TARGET" --base auto --format json)
c2=$(secs "$TD" compare -q "$MANY" "$TARGET" --base auto --format json)
echo
echo "| $n versions | SQLite (s) | PostgreSQL (s) |"
echo "| --- | ---: | ---: |"
echo "| base $(basename "$TARGET") | $b1 | $b2 |"
echo "| compare --base auto | $c1 | $c2 |"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
