#!/usr/bin/env bash
# The cost of line provenance on a real vendor fork: the U-Boot vendor tree
# (v2023.10-stm32mp, exported with git archive: no history) compared against
# upstream v2023.10, without and with --history v2023.10..v2024.10 (6,322
# commits), in one hyperfine run; then the peak RSS of each under
# /usr/bin/time. Prints the CPU, the core count and the load before and after.
#
# Usage: bench/provenance.sh
# Environment: TREEDRIFT_BENCH_CACHE (default /var/cache/treedrift-bench),
# TREEDRIFT (default build/cli/treedrift), BENCH_RUNS (default 3).
set -euo pipefail

REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
TREEDRIFT=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
RUNS=${BENCH_RUNS:-3}
U=$CACHE/u-boot-stm32mp.git
WORK=$CACHE/work/provenance
VENDOR=$WORK/v2023.10-stm32mp

log() { printf 'bench-provenance: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -x $TREEDRIFT ]] || die "no treedrift binary at $TREEDRIFT (build first, or set TREEDRIFT)"
[[ -d $U ]] || die "no repository at $U (unpack ../shared/data/u-boot-stm32mp.git.tar there)"
command -v hyperfine >/dev/null || die "hyperfine is not installed (apt-get install hyperfine)"
if [[ ! -d $VENDOR ]]; then
	mkdir -p "$VENDOR"
	git -C "$U" archive v2023.10-stm32mp | tar -x -C "$VENDOR"
fi

without="$TREEDRIFT compare -q git:$U@v2023.10 $VENDOR"
with="$without --history git:$U@v2024.10"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -i --runs "$RUNS" --warmup 1 -n 'compare' "$without" -n 'compare --history' "$with"
for cmd in "$without" "$with"; do
	/usr/bin/time -f '%M KB peak RSS, %U s user, %S s sys, %e s wall' $cmd >/dev/null 2>"$WORK/time" || true
	echo "${cmd#"$TREEDRIFT "}: $(tail -1 "$WORK/time")"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
