#!/usr/bin/env bash
# Install dependencies, build with warnings as errors, run the whole test suite:
# the unit tests of a clang build (build-clang/), everything once under
# ASan+UBSan (build-asan/), the end-to-end tests once under valgrind memcheck
# (TD_VALGRIND, see tests/e2e/wrap.sh), the TLSH test on arm64 under qemu-user
# (scripts/cross-aarch64.sh), then the normal gcc run, whose CTest
# summary is the last thing printed.
# TD_TEST_QUICK=1 runs the normal pass only.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
stage() { # name log command...: run quietly, show the log if it fails
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		echo "$name: $(grep -E 'tests passed' "$log" | tail -1)"
	else
		cat "$log"
		echo "$name: FAILED (log: $log)" >&2
		return 1
	fi
}
if [ -z "${TD_TEST_QUICK:-}" ]; then
	# clang beside gcc, warnings as errors in both; its unit tests run too
	CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_WERROR=ON >/dev/null
	cmake --build build-clang -j"$jobs" >/dev/null
	stage "clang (unit)" build-clang/ctest.log ctest --test-dir build-clang -L unit --output-on-failure -j"$jobs" ||
		exit 1
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_WERROR=ON -DTD_SANITIZE=ON >/dev/null
	cmake --build build-asan -j"$jobs" >/dev/null
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		stage "ASan+UBSan" build-asan/ctest.log ctest --test-dir build-asan --output-on-failure -j"$jobs" ||
		exit 1
	if command -v valgrind >/dev/null; then
		# valgrind's reports land in build/valgrind-logs/, one per process
		rm -rf build/valgrind-logs && mkdir -m 1777 -p build/valgrind-logs
		if ! TD_VALGRIND=1 TD_VALGRIND_LOGS=$PWD/build/valgrind-logs \
			stage "valgrind (e2e)" build/valgrind.log \
			ctest --test-dir build -L e2e --output-on-failure -j"$jobs"; then
			grep -l "ERROR SUMMARY: [1-9]\|definitely lost\|Invalid " build/valgrind-logs/* | xargs -r cat
			exit 1
		fi
	fi
	# the TLSH test cross-built for arm64, run under qemu-user
	./scripts/cross-aarch64.sh
fi
ctest --test-dir build --output-on-failure -j"$jobs"
