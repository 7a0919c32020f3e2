#!/usr/bin/env bash
# Golden-file CLI test: runs tests/e2e/cases/NAME.sh with $TD (the binary),
# $EX (the examples folder) and $SRC (the repository) in a fresh temp folder,
# and compares stdout and the exit status with NAME.stdout and NAME.exit.
# Volatile text (the temp folder, the source folder, times, the version) is
# replaced by @TMP@, @SRC@, @TIME@ and @VERSION@ first.
# TD_UPDATE_GOLDEN=1 rewrites the expected files instead; review the diff.
set -u
td=$1 case=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(dirname "$0")/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$("$td" --version | awk '{print $2}')
. "$src/tests/e2e/wrap.sh"
td=$(td_wrap "$td" "$tmp")
set +e
(cd "$tmp" && TD=$td EX=$src/examples SRC=$src NO_COLOR=1 bash -e "$src/tests/e2e/cases/$case.sh") \
	>"$tmp.out" 2>"$tmp.err"
status=$?
set -e
real_tmp=$(cd "$tmp" && pwd -P)
sed -e "s|$real_tmp|@TMP@|g" -e "s|$tmp|@TMP@|g" -e "s|$src|@SRC@|g" \
	-e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z/@TIME@/g' \
	-e "s/\"$version\"/\"@VERSION@\"/g" -e "s/treedrift $version/treedrift @VERSION@/g" \
	"$tmp.out" >"$tmp.norm"
rm -f "$tmp.out"
if [ "${TD_UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$tmp.norm" "$dir/$case.stdout"
	echo "$status" >"$dir/$case.exit"
	rm -f "$tmp.norm" "$tmp.err"
	exit 0
fi
fail=0
if ! diff -u "$dir/$case.stdout" "$tmp.norm"; then
	echo "$case: stdout differs from $case.stdout" >&2
	fail=1
fi
want=$(cat "$dir/$case.exit")
if [ "$status" != "$want" ]; then
	echo "$case: exit status $status, want $want" >&2
	fail=1
fi
if [ $fail = 1 ]; then
	echo "--- stderr:" >&2
	cat "$tmp.err" >&2
fi
rm -f "$tmp.norm" "$tmp.err"
exit $fail
