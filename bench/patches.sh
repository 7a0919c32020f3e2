#!/usr/bin/env bash
# The cost of per-patch drift (--patches) on real data, same run:
# - U-Boot: compare git:U@v2023.10 against git:U@v2023.10-stm32mp, without and
#   with --patches git:U@v2023.10..v2023.10-stm32mp (902 commits);
# - Debian: kernel.org's 6.1.187 against Debian's linux-source-6.1 6.1.187-1,
#   without and with --patches debian/patches/series (168 patches), the trees
#   scripts/demo.sh unpacks (run it once first; skipped when they are absent).
# One hyperfine run per pair; prints the CPU, the loop in use and the load.
#
# Usage: bench/patches.sh
# Environment: TREEDRIFT_BENCH_CACHE (default /var/cache/treedrift-bench),
# TREEDRIFT_DEMO_CACHE (default /var/cache/treedrift-demo), TREEDRIFT (default
# build/cli/treedrift), BENCH_RUNS (default 3).
set -euo pipefail

REPO_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
DEMO=${TREEDRIFT_DEMO_CACHE:-/var/cache/treedrift-demo}
TREEDRIFT=${TREEDRIFT:-$REPO_ROOT/build/cli/treedrift}
RUNS=${BENCH_RUNS:-3}
U=$CACHE/u-boot-stm32mp.git

log() { printf 'bench-patches: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -x $TREEDRIFT ]] || die "no treedrift binary at $TREEDRIFT (build first, or set TREEDRIFT)"
command -v hyperfine >/dev/null || die "hyperfine is not installed (apt-get install hyperfine)"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $("$TREEDRIFT" --version | head -1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -d $U ]]; then
	without="$TREEDRIFT compare -q git:$U@v2023.10 git:$U@v2023.10-stm32mp"
	hyperfine -N -i --runs "$RUNS" --warmup 1 -n 'U-Boot compare' "$without" \
		-n 'U-Boot compare --patches' "$without --patches git:$U@v2023.10..v2023.10-stm32mp"
else
	log "no repository at $U: the U-Boot pair is skipped"
fi
series=$DEMO/debian-6.1.187-1/debian/patches/series
if [[ -f $series && -d $DEMO/upstream-6.1.187 && -d $DEMO/linux-source-6.1.187-1 ]]; then
	without="$TREEDRIFT compare -q $DEMO/upstream-6.1.187 $DEMO/linux-source-6.1.187-1"
	hyperfine -N -i --runs "$RUNS" --warmup 1 -n 'Debian compare' "$without" \
		-n 'Debian compare --patches' "$without --patches $series"
else
	log "no Debian trees under $DEMO (run scripts/demo.sh once): the Debian pair is skipped"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
