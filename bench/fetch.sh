#!/usr/bin/env bash
# Fetch Debian linux-source packages and lay them out as benchmark data.
#
# Usage: bench/fetch.sh [PACKAGE=VERSION ...]
#
# For every PACKAGE=VERSION this leaves, under the cache directory
# ($TREEDRIFT_BENCH_CACHE, default /var/cache/treedrift-bench):
#
#   tar/linux-VERSION.tar.xz   the upstream-style source tarball from the .deb
#   trees/linux-VERSION/       that tarball unpacked, top folder stripped
#                              (the tree root holds Makefile, kernel/, mm/ ...)
#
# Entries that already exist are left alone, so re-running is cheap.
# Needs root (or equivalent) for apt-get download into the cache directory,
# and an up-to-date apt package list (apt-get update).
set -euo pipefail

CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}

DEFAULT_SPECS=(
    linux-source-6.1=6.1.192-3
    linux-source-6.1=6.1.190-1
    linux-source-6.1=6.1.187-1
    linux-source-6.1=6.1.176-1
    linux-source-6.12=6.12.118-1~deb12u1
)

log() { printf 'fetch: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# One scratch directory per run, inside the cache so that the final mv is a
# rename on the same filesystem. It is removed on exit, whatever happens.
SCRATCH=
cleanup() {
    [[ -z $SCRATCH ]] || rm -rf -- "$SCRATCH"
}
trap cleanup EXIT

# fetch_tarball PACKAGE VERSION DEST
# Download PACKAGE=VERSION and store its /usr/src/*.tar.xz at DEST.
fetch_tarball() {
    local pkg=$1 ver=$2 dest=$3
    local work=$SCRATCH/deb debs deb tarballs

    mkdir -p "$work"
    log "downloading $pkg=$ver"
    # apt-get download writes into the current directory. The _apt user
    # must be able to write there, or apt warns and downloads unsandboxed.
    chmod 0777 "$work"
    (cd "$work" && apt-get download -q "$pkg=$ver") \
        || die "apt-get download $pkg=$ver failed"

    debs=("$work"/*.deb)
    [[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] \
        || die "expected one .deb for $pkg=$ver in $work"
    deb=${debs[0]}

    log "extracting $(basename "$deb")"
    dpkg-deb -x "$deb" "$work/root"
    tarballs=("$work"/root/usr/src/linux-source-*.tar.xz)
    [[ ${#tarballs[@]} -eq 1 && -f ${tarballs[0]} ]] \
        || die "expected one /usr/src/linux-source-*.tar.xz in $deb"

    mv -- "${tarballs[0]}" "$dest.part"
    mv -- "$dest.part" "$dest"
    rm -rf -- "$work"
}

# unpack_tree TARBALL DEST
# Unpack TARBALL so that its single top-level folder becomes DEST.
unpack_tree() {
    local tarball=$1 dest=$2
    local work=$SCRATCH/tree entries

    mkdir -p "$work"
    log "unpacking $(basename "$tarball")"
    tar -xJf "$tarball" -C "$work" --no-same-owner

    shopt -s nullglob dotglob
    entries=("$work"/*)
    shopt -u nullglob dotglob
    [[ ${#entries[@]} -eq 1 && -d ${entries[0]} ]] \
        || die "$tarball does not hold a single top-level folder"
    [[ -f ${entries[0]}/Makefile ]] \
        || die "$tarball: no Makefile at the tree root"

    mv -- "${entries[0]}" "$dest"
    rm -rf -- "$work"
}

main() {
    local specs=("$@") spec pkg ver name tarball tree
    [[ ${#specs[@]} -gt 0 ]] || specs=("${DEFAULT_SPECS[@]}")

    mkdir -p "$CACHE/tar" "$CACHE/trees" "$CACHE/results"
    SCRATCH=$(mktemp -d "$CACHE/.fetch.XXXXXX")
    chmod 0755 "$SCRATCH"   # let apt's _apt user reach the download dir

    for spec in "${specs[@]}"; do
        [[ $spec == ?*=?* ]] || die "bad argument '$spec' (want PACKAGE=VERSION)"
        pkg=${spec%%=*}
        ver=${spec#*=}
        name=linux-$ver
        tarball=$CACHE/tar/$name.tar.xz
        tree=$CACHE/trees/$name

        if [[ -f $tarball ]]; then
            log "have $tarball"
        else
            fetch_tarball "$pkg" "$ver" "$tarball"
        fi

        if [[ -d $tree ]]; then
            log "have $tree"
        else
            unpack_tree "$tarball" "$tree"
        fi
    done
}

main "$@"
