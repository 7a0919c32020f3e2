#!/bin/sh
# End-to-end test of `treedrift hash`: the reference's example data and edge
# cases give the reference's lines, and what cannot be hashed is reported.
#
# Usage: hash.sh TREEDRIFT DATA_DIR   (DATA_DIR is tests/data)
# Exits 77 (skipped) when TREEDRIFT has not been built.
set -u

bin=$1
data=$2/tlsh
[ -x "$bin" ] || { echo "skip: $bin not built"; exit 77; }
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac  # the tests change directory

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
. "$(dirname "$0")/wrap.sh"
bin=$(td_wrap "$bin" "$tmp")
fail=0
check() { # check WHAT: report a failure of the previous test
	echo "FAIL: $1" >&2
	fail=1
}

# 1. The 80 example files, as `tlsh -r example_data` prints them.
(cd "$data" && "$bin" hash -r example_data >"$tmp/out" 2>"$tmp/err")
[ $? -eq 0 ] || check "hash -r example_data: exit status"
cmp -s "$tmp/out" "$data/expected/len.out" || { diff "$data/expected/len.out" "$tmp/out" | head; check "hash -r example_data: output"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; check "hash -r example_data: unexpected stderr"; }

# 2. Files one by one, in the order given.
(cd "$data" && "$bin" hash example_data/bio.txt example_data/0Alice.txt >"$tmp/out") || check "hash FILE FILE: exit status"
(grep -F '	example_data/bio.txt' "$data/expected/len.out"; grep -F '	example_data/0Alice.txt' "$data/expected/len.out") >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || check "hash FILE FILE: output"

# 3. The edge cases, when python3 can generate them: digests, and a warning
#    for each rejected input.
if command -v python3 >/dev/null 2>&1; then
	python3 "$data/edge/make_inputs.py" "$tmp/inputs" || check "make_inputs.py"
	(cd "$tmp" && "$bin" hash -r inputs >"$tmp/out" 2>"$tmp/err") || check "hash -r inputs: exit status"
	cmp -s "$tmp/out" "$data/edge/hashes.tsv" || { diff "$data/edge/hashes.tsv" "$tmp/out" | head; check "hash -r inputs: output"; }
	while IFS='	' read -r path reason; do
		case $reason in
		too_small) want="'$path': file too small" ;;
		*) want="'$path': cannot hash" ;;
		esac
		grep -qF "$want" "$tmp/err" || check "no warning for $path ($reason)"
	done <"$data/edge/rejects.tsv"
	[ "$(wc -l <"$tmp/err")" -eq "$(wc -l <"$data/edge/rejects.tsv")" ] || { cat "$tmp/err"; check "hash -r inputs: stderr"; }
	rm -rf "$tmp/inputs"
else
	echo "note: no python3, edge inputs not tested"
fi

# 4. Inside a tree, symbolic links and special files are skipped with a
#    warning, and do not make it fail; the file itself is hashed.
mkdir -p "$tmp/tree/sub" || exit 2
cp "$data/example_data/bio.txt" "$tmp/tree/sub/bio.txt"
ln -s /etc/passwd "$tmp/tree/link"
ln -s sub "$tmp/tree/linkdir"
mkfifo "$tmp/tree/fifo" 2>/dev/null || echo "note: no mkfifo"
(cd "$tmp" && "$bin" hash -r tree >"$tmp/out" 2>"$tmp/err") || check "hash -r tree: exit status"
printf '%s\ttree/sub/bio.txt\n' "$(grep -F '	example_data/bio.txt' "$data/expected/len.out" | cut -f1)" >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { cat "$tmp/out"; check "hash -r tree: output"; }
grep -qF "skipping 'tree/link': symbolic link" "$tmp/err" || check "symbolic link not reported"
grep -qF "skipping 'tree/linkdir': symbolic link" "$tmp/err" || check "link to a directory not reported"
if [ -p "$tmp/tree/fifo" ]; then
	grep -qF "skipping 'tree/fifo': not a regular file" "$tmp/err" || check "FIFO not reported"
fi

# 5. Errors: exit status 2 and a message quoting the subject.
(cd "$tmp" && "$bin" hash tree >/dev/null 2>"$tmp/err")
[ $? -eq 2 ] || check "hash DIR without -r: exit status"
grep -qF "'tree' is a directory" "$tmp/err" || check "hash DIR without -r: message"
"$bin" hash "$tmp/missing" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || check "hash MISSING: exit status"
grep -qF "treedrift: unable to open '$tmp/missing': No such file or directory" "$tmp/err" || check "hash MISSING: message"
"$bin" hash >/dev/null 2>&1
[ $? -eq 2 ] || check "hash without operands: exit status"
"$bin" hash --help >"$tmp/out" || check "hash --help: exit status"
grep -q '^usage: treedrift hash' "$tmp/out" || check "hash --help: output"

[ $fail -eq 0 ] && echo "ok"
exit $fail
