#!/usr/bin/env bash
# The installed library as another program sees it: cmake --install into a
# temporary prefix, then
# - libtreedrift.so exports only td_ symbols (nm -D), and has its soname;
# - examples/embed/embed.c builds against it with pkg-config, and through
#   the CMake package (find_package(treedrift)), and prints the total
#   distance that the CLI's JSON report gives for the same pair.
# Needs TD_BUILD_DIR (the build tree), a C compiler ($CC, default cc),
# pkg-config and nm. TD_EMBED_CFLAGS: flags the library was built with that
# a program linking it needs too (the sanitizers).
. "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
cflags=${TD_EMBED_CFLAGS:-}
for tool in "$CC" pkg-config nm cmake; do
	command -v "$tool" >/dev/null || { echo "no $tool: skipped"; exit 77; }
done
[ -n "${TD_BUILD_DIR:-}" ] || { echo "TD_BUILD_DIR not set: skipped"; exit 77; }
prefix=$TMP/inst
cmake --install "$TD_BUILD_DIR" --prefix "$prefix" >/dev/null
lib=$(ls "$prefix"/lib*/libtreedrift.so 2>/dev/null | head -1)
libdir=$(dirname "$lib")
[ -n "$lib" ] && ok || fail "libtreedrift.so not installed"

# Only the public API is exported: td_/TD_ names, nothing else.
others=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | grep -v '^td_' | grep -v '^TD_' || true)
check_eq "exports other than td_" "$others" ""
check_eq "td_analyze exported" "$(nm -D --defined-only "$lib" | awk '$3 == "td_analyze"' | wc -l)" 1
check_eq "internals hidden" "$(nm -D --defined-only "$lib" | grep -c 'td_listing_\|kb_exec\|td_malloc_array' || true)" 0
soname=$(objdump -p "$lib" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
check_eq "soname" "$soname" "libtreedrift.so.0"

# The embed example through pkg-config.
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
"$CC" -std=c11 -pedantic -Wall -Wextra -Werror $cflags "$SRC/examples/embed/embed.c" \
	$(pkg-config --cflags --libs treedrift) -o "$TMP/embed" && ok || fail "embed.c does not build"
# The example trees, and a pair with a copy and a multi-version database.
mkdir -p "$TMP/up/d" "$TMP/tgt/d"
seq 1 400 | sed 's/^/upstream line /' >"$TMP/up/d/a.c"
seq 1 400 | sed 's/^/upstream line /; 37s/$/ changed/' >"$TMP/tgt/d/a.c"
seq 1 300 | sed 's/^/other file /' >"$TMP/up/d/b.c"
seq 1 300 | sed 's/^/other file /; 5d' >"$TMP/tgt/d/copy-of-b.c"
for pair in "$SRC/examples/upstream $SRC/examples/vendor" "$TMP/up $TMP/tgt"; do
	set -- $pair
	status=0
	LD_LIBRARY_PATH=$libdir "$TMP/embed" "$1" "$2" >"$TMP/embed.out" || status=$?
	check_eq "embed exit status (drift)" "$status" 1
	got=$(awk '/^total distance/ { print $3 }' "$TMP/embed.out")
	"$TD" compare -q --format json "$1" "$2" >"$TMP/cli.json" || true
	want=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["total_distance"])' <"$TMP/cli.json")
	check_eq "embed total = CLI total ($(basename "$2"))" "$got" "$want"
	[ -n "$got" ] && [ "$got" != 0 ] && ok || fail "no drift found by embed"
done

# The same example through the CMake package.
if CC=$CC cmake -S "$SRC/examples/embed" -B "$TMP/embed-cmake" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_FLAGS="$cflags" >/dev/null &&
	cmake --build "$TMP/embed-cmake" >/dev/null; then
	got=$(LD_LIBRARY_PATH=$libdir "$TMP/embed-cmake/embed" "$SRC/examples/upstream" "$SRC/examples/vendor" |
		head -1 || true)
	check_eq "find_package(treedrift) build" "${got%% *}" "total"
else
	fail "examples/embed does not build with find_package(treedrift)"
fi
finish
