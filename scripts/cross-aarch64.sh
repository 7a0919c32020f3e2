#!/usr/bin/env bash
# Cross-build the TLSH unit test for arm64 (aarch64) with Debian's cross
# compiler and run it under qemu-user: the portable loop must give the
# reference's digests on a CPU without x86 vector extensions.
#
#   scripts/cross-aarch64.sh
#
# The test needs only lib/digest/tlsh.c, lib/base/error.c, lib/base/huge.c
# and the generated tables (no OpenSSL, SQLite, libgit2 or libarchive), so
# nothing but the C library is cross-built. The table generator runs on the
# build machine. It runs with each portable loop forced (scalar, pair) and
# with none, and checks that pair is the default there.
#
# Environment:
#   TD_CROSS_BUILD  build directory (default build-aarch64)
#   CROSS_CC        compiler (default aarch64-linux-gnu-gcc)
#   QEMU            emulator (default qemu-aarch64)
# Packages (scripts/deps.sh): gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TD_CROSS_BUILD:-build-aarch64}
cc=${CROSS_CC:-aarch64-linux-gnu-gcc}
qemu=${QEMU:-qemu-aarch64}

for tool in "$cc" "$qemu" cc; do
	command -v "$tool" >/dev/null || { echo "cross-aarch64: '$tool' not found (scripts/deps.sh installs it)" >&2; exit 1; }
done
mkdir -p "$build"
flags=(-std=c17 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
       -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64)

# The generator is a build-machine program, as in lib/CMakeLists.txt.
cc "${flags[@]}" -Ilib/digest lib/digest/gen/tlsh_tables.c -o "$build/tlsh_tables"
"$build/tlsh_tables" "$build/tlsh_tables.h"

# Static, so that qemu needs no arm64 sysroot at run time.
"$cc" "${flags[@]}" -static -D_XOPEN_SOURCE=700 -DTD_TEST_DATA="\"$PWD/tests/data\"" \
	-Iinclude -Ilib/base -Ilib/digest -I"$build" -Itests/unit \
	tests/unit/test_tlsh.c lib/digest/tlsh.c lib/base/error.c lib/base/huge.c -lpthread -o "$build/test_tlsh"

run() { # label, then environment assignments for the test
	local label=$1 log
	shift
	log=$build/test_tlsh.$label.log
	if env "$@" "$qemu" "$build/test_tlsh" >"$log" 2>&1; then
		echo "aarch64 (qemu) test_tlsh, $label: $(tail -n 1 "$log")"
	else
		cat "$log"
		echo "aarch64 (qemu) test_tlsh, $label: FAILED (log: $log)" >&2
		return 1
	fi
}
run scalar TD_TLSH_LOOP=scalar
grep -q '^TD_TLSH_LOOP=scalar: the default loop is scalar' "$build/test_tlsh.scalar.log"
run pair TD_TLSH_LOOP=pair
grep -q '^TD_TLSH_LOOP=pair: the default loop is pair' "$build/test_tlsh.pair.log"
run auto TD_TLSH_LOOP=auto
grep -q '^TD_TLSH_LOOP=auto: the default loop is pair' "$build/test_tlsh.auto.log"
