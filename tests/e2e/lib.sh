# Helpers for the scripted end-to-end tests: TD is the binary.
set -euo pipefail
TD=$1
TMP=$(mktemp -d)
trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/e2e/wrap.sh"
TD_REAL=$TD
TD=$(td_wrap "$TD" "$TMP")
fails=0
checks=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
check_eq() { # what got want
	if [ "$2" = "$3" ]; then ok; else fail "$1: got '$2', want '$3'"; fi
}
finish() {
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
}
# Paths by status from a CSV report (first two columns; paths here need no quoting).
csv_status() { tr -d '\r' | awk -F, -v s="$1" 'NR > 1 && $2 == s { print $1 }' | sort; }
