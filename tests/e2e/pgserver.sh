# A throw-away PostgreSQL server for the tests, sourced after lib.sh:
#   pg_start    initdb into $TMP/pg and start the server on a Unix socket in
#               that directory, as an unprivileged user (the tests run as
#               root in CI); sets PGDIR, PGSOCK, TD_PG (a URI of database
#               "td") and registers pg_stop at exit
#   pg_uri DB   a URI of database DB on that server
#   pg_psql ... psql on that server as its superuser
# pg_start returns 77 (and says why) when Debian's postgresql package is
# not installed; the caller then skips.
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
PG_USER=nobody

pg_as() { # run a command as the server's user
	if [ "$(id -u)" = 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

pg_start() {
	if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
		echo "skipped: Debian's postgresql package is not installed (scripts/deps.sh installs it)"
		return 77
	fi
	if [ "$(id -u)" = 0 ]; then
		: # nobody: no account to make
	else
		PG_USER=$(id -un)
	fi
	PGDIR=$(mktemp -d /tmp/td-pg.XXXXXX)
	chmod 755 "$PGDIR"
	[ "$(id -u)" = 0 ] && chown "$PG_USER" "$PGDIR"
	pg_as "$PG_BIN/initdb" -D "$PGDIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C >"$PGDIR/initdb.log" 2>&1 || {
		cat "$PGDIR/initdb.log" >&2; return 1; }
	# (password logins over TCP on loopback, for the wrong-password test)
	PGPORT_TD=$((20000 + RANDOM % 20000))
	pg_as "$PG_BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 \
		-o "-k $PGDIR -c listen_addresses=127.0.0.1 -p $PGPORT_TD -c fsync=off -c max_connections=60" start >/dev/null || {
		cat "$PGDIR/server.log" >&2; return 1; }
	trap 'pg_stop; chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
	PGSOCK=$PGDIR
	pg_psql -q -c "CREATE DATABASE td" >/dev/null
	TD_PG=$(pg_uri td)
	export PGSOCK TD_PG
}

pg_stop() {
	[ -n "${PGDIR:-}" ] || return 0
	pg_as "$PG_BIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$PGDIR"
	PGDIR=
}

# The socket directory as host, percent-encoded.
pg_uri() { echo "postgresql://postgres@${PGSOCK//\//%2F}:$PGPORT_TD/$1"; }

pg_psql() { "$PG_BIN/psql" -X -h "$PGSOCK" -p "$PGPORT_TD" -U postgres -d "${PGDB:-postgres}" -v ON_ERROR_STOP=1 "$@"; }
