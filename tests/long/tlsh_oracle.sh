#!/bin/sh
# Long test: `treedrift hash -r` against Debian's tlsh (tlsh-tools 3.x) on
# real files. That older build prints digests without the "T1" prefix and
# refuses inputs under 256 bytes, but hashes like 4.x otherwise, so it is a
# second, independent oracle.
#
# Usage: tlsh_oracle.sh TREEDRIFT [DIR]
#   DIR defaults to $TD_TLSH_ORACLE_DIR, else /usr/include. A kernel tree
#   makes a good DIR (bench/fetch.sh lays some out). DIR must not hold FIFOs:
#   the reference would block opening them.
# Registered with ctest only when configured with -DTD_LONG_TESTS=ON, and
# then run with `ctest -L long`. Exits 77 (skipped) without /usr/bin/tlsh.
#
# Differences that are expected and allowed: files under 256 bytes (only
# treedrift hashes them), and paths through symbolic links (only the
# reference follows them).
set -u
export LC_ALL=C  # one byte order for sort and join

bin=$1
dir=${2:-${TD_TLSH_ORACLE_DIR:-/usr/include}}
ref=${TD_TLSH_ORACLE_BIN:-/usr/bin/tlsh}
[ -x "$bin" ] || { echo "skip: $bin not built"; exit 77; }
[ -x "$ref" ] || { echo "skip: no $ref (apt-get install tlsh-tools)"; exit 77; }
[ -d "$dir" ] || { echo "error: '$dir' is not a directory" >&2; exit 2; }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

now() { date +%s.%N; }
# The reference crashes on trees as large as a kernel's, so it is run on
# each entry of DIR in turn; the paths it prints are the same.
t0=$(now)
: >"$tmp/ref.raw"
for entry in "$dir"/* "$dir"/.[!.]* "$dir"/..?*; do
	if [ -L "$entry" ] || [ ! -e "$entry" ]; then
		continue
	elif [ -d "$entry" ]; then
		"$ref" -r "$entry" >>"$tmp/ref.raw" 2>/dev/null
	elif [ -f "$entry" ]; then
		"$ref" -f "$entry" >>"$tmp/ref.raw" 2>/dev/null
	else
		continue
	fi
	st=$?
	[ $st -eq 0 ] || { echo "error: $ref failed (status $st) on '$entry'" >&2; exit 2; }
done
sed 's/^/T1/' "$tmp/ref.raw" | sort -t '	' -k2,2 >"$tmp/ref"
t1=$(now)
"$bin" hash -r "$dir" 2>"$tmp/ours.err" | sort -t '	' -k2,2 >"$tmp/ours"
t2=$(now)
find "$dir" -type l >"$tmp/links"

# One line per path: "both", "ref" or "ours", then what each said.
join -t '	' -1 2 -2 2 -a 1 -a 2 -e - -o 0,1.1,2.1 "$tmp/ref" "$tmp/ours" >"$tmp/joined"

awk -F '\t' -v links="$tmp/links" -v tmp="$tmp" '
BEGIN {
	while ((getline l < links) > 0)
		link[l] = 1
}
function through_link(p,   q) {
	for (q = p; q != ""; sub(/\/[^\/]*$/, "", q)) {
		if (q in link)
			return 1
		if (q !~ /\//)
			break
	}
	return 0
}
{
	path = $1; r = $2; o = $3
	if (r != "-" && o != "-") {
		n++
		if (r != o) {
			bad++
			printf "DIFFERENT %s\n  tlsh:      %s\n  treedrift: %s\n", path, r, o
		}
	} else if (r != "-") {
		if (through_link(path))
			links_only++
		else {
			bad++
			printf "ONLY TLSH HASHED %s\n", path
		}
	} else {
		print path > (tmp "/ours_only")
	}
}
END {
	printf "compared %d digests, %d through links skipped, %d problems\n", n, links_only, bad
	exit bad > 0
}' "$tmp/joined"
status=$?

# treedrift alone hashed these: they must be under 256 bytes.
if [ -s "$tmp/ours_only" ]; then
	tr '\n' '\0' <"$tmp/ours_only" | xargs -0 stat -c '%s	%n' -- | awk -F '\t' '
	$1 >= 256 { printf "ONLY TREEDRIFT HASHED %s (%d bytes)\n", $2, $1; big++; next }
	{ small++ }
	END {
		printf "%d files under 256 bytes hashed by treedrift only\n", small
		exit big > 0
	}' || status=1
fi

bytes=$(du -sb "$dir" | cut -f1)
awk -v b="$bytes" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
	printf "%.1f MB: tlsh %.2f s, treedrift hash %.2f s\n", b / 1e6, t1 - t0, t2 - t1 }'
exit $status
