# Sourced by the long tests on STMicroelectronics' U-Boot for STM32MP
# (bash): sets src (the checkout), cache and repo, unpacking the repository
# from ../shared/data/u-boot-stm32mp.git.tar (beside the checkout) into the
# benchmark cache if it is not there yet; without either, the test is
# skipped (exit 77).
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
repo=$cache/u-boot-stm32mp.git
if [ ! -d "$repo" ]; then
	tarball=$src/../shared/data/u-boot-stm32mp.git.tar
	[ -f "$tarball" ] || { echo "neither $repo nor $tarball: skipped" >&2; exit 77; }
	mkdir -p "$cache"
	tar xf "$tarball" -C "$cache"
fi
