#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan+UBSan) and run each for a bounded
# time on its seed corpus in tests/fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh [TARGET...]         all targets when none is named
#
# Environment:
#   TD_FUZZ_SECONDS   time for all targets together (default 60), split evenly
#   TD_FUZZ_BUILD     build directory (default build-fuzz)
#   TD_FUZZ_WORK      where new inputs and crash reproducers go (default: a
#                     temporary directory, removed unless something was found)
#
# The seed corpora are read, never written. Exit status 0 when no target
# found anything, 1 otherwise (the reproducers are kept and listed).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TD_FUZZ_BUILD:-build-fuzz}
total=${TD_FUZZ_SECONDS:-60}

if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang is needed (apt-get install clang libclang-rt-14-dev)" >&2
	exit 2
fi
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_FUZZ=ON \
      -DTD_WERROR=ON -DBUILD_TESTING=OFF >/dev/null
if [ $# -eq 0 ]; then
	set -- $(cd tests/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
fi
names=()
for t in "$@"; do names+=("fuzz_$t"); done
cmake --build "$build" -j"$(nproc)" --target "${names[@]}" >/dev/null

per=$(( total / $# )); [ "$per" -ge 1 ] || per=1
work=${TD_FUZZ_WORK:-$(mktemp -d)}
found=0
for t in "$@"; do
	mkdir -p "$work/$t/new" "$work/$t/artifacts"
	log=$work/$t/log
	s=0
	ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/fuzz_$t" -max_total_time="$per" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$work/$t/artifacts/" "$work/$t/new" "tests/fuzz/corpus/$t" \
		>"$log" 2>&1 || s=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ "$s" -ne 0 ] || [ -n "$(ls -A "$work/$t/artifacts")" ]; then
		found=1
		echo "fuzz $t: FINDING after ${execs:-?} runs (exit $s); log $log; reproducers:" >&2
		ls "$work/$t/artifacts" >&2
		tail -40 "$log" >&2
	else
		echo "fuzz $t: ${per}s, ${execs:-?} runs, ${cov:-cov: ?}, no findings"
	fi
done
if [ "$found" = 0 ] && [ -z "${TD_FUZZ_WORK:-}" ]; then
	rm -rf "$work"
fi
exit "$found"
