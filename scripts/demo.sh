#!/usr/bin/env bash
# Install dependencies, build, and compare Debian's 6.1 kernel with the kernel.org release it is built
# on, patch by patch.
#
# Usage: scripts/demo.sh [--example]
#
# Debian's archive holds both sides: the source package linux=6.1.187-1 gives the upstream tree
# (linux_6.1.187.orig.tar.xz) and debian/patches/series (the patches, with DEP-3 headers); the binary
# package linux-source-6.1=6.1.187-1 is the patched tree as Debian ships it. They are downloaded once
# (about 280 MB) into $TREEDRIFT_DEMO_CACHE (default /var/cache/treedrift-demo) and unpacked there
# (about 3 GB); later runs reuse them. Downloading the source package needs a deb-src entry: when apt
# has none, one is derived from the machine's own deb entries (same mirrors, suites and components).
#
# --example: no network; compare the small example pair in examples/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."

SRC_PKG=linux=6.1.187-1
BIN_PKG=linux-source-6.1=6.1.187-1
ORIG_TAR=linux_6.1.187.orig.tar.xz
DEB_TAR=linux_6.1.187-1.debian.tar.xz
DEB_FILE=linux-source-6.1_6.1.187-1_all.deb
CACHE=${TREEDRIFT_DEMO_CACHE:-/var/cache/treedrift-demo}
APT_ETC=/etc/apt
SRC_LIST=$APT_ETC/sources.list.d/treedrift-demo-src

example=0
case "${1-}" in
"") ;;
--example) example=1 ;;
*) echo "usage: scripts/demo.sh [--example]" >&2; exit 2 ;;
esac

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
log() { printf 'demo: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
td=build/cli/treedrift

if [ "$example" -eq 1 ]; then
	db=$(mktemp -d)/upstream.db
	"$td" scan examples/upstream -o "$db" --label example-1.2 --quiet
	echo "\$ treedrift compare upstream.db examples/vendor"
	status=0
	"$td" compare "$db" examples/vendor || status=$?
	rm -rf "$(dirname "$db")"
	# 1 means drift was found, which is what the example shows.
	[ "$status" -le 1 ]
	exit 0
fi

# has_deb_src: does apt have an enabled deb-src entry (one-line or deb822)?
has_deb_src() {
	local f
	for f in "$APT_ETC"/sources.list "$APT_ETC"/sources.list.d/*.list; do
		[ -f "$f" ] && grep -Eq '^[[:space:]]*deb-src[[:space:]]' "$f" && return 0
	done
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^[[:space:]]*$/ { if (src && en) found = 1; src = 0; en = 1; next }
		     /^Types:/ { if ($0 ~ /[[:space:]]deb-src([[:space:]]|$)/) src = 1 }
		     /^Enabled:[[:space:]]*no/ { en = 0 }
		     BEGIN { en = 1 }
		     END { if (src && en) found = 1; exit !found }' "$f" && return 0
	done
	return 1
}

# derive_deb_src: write deb-src copies of apt's deb entries, mirrors read from the machine's own
# sources (one-line files become one .list, deb822 files one .sources).
derive_deb_src() {
	local f lines="" stanzas=""
	for f in "$APT_ETC"/sources.list "$APT_ETC"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		lines+=$(sed -n -E 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' "$f")$'\n'
	done
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# each stanza whose Types holds deb, with Types: deb-src; other fields as they are
		stanzas+=$(awk 'function flush() { if (keep && n) { for (i = 1; i <= n; i++) print buf[i]; print "" } n = 0; keep = 0 }
		     /^[[:space:]]*$/ { flush(); next }
		     /^#/ { next }
		     tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") keep = 1
		                              buf[++n] = "Types: deb-src"; next }
		     { buf[++n] = $0 }
		     END { flush() }' "$f")$'\n\n'
	done
	if [ -n "$(tr -d '[:space:]' <<<"$lines")" ]; then
		log "adding deb-src lines to $SRC_LIST.list"
		printf '%s' "$lines" | "${sudo_cmd[@]}" tee "$SRC_LIST.list" >/dev/null
	fi
	if [ -n "$(tr -d '[:space:]' <<<"$stanzas")" ]; then
		log "adding deb-src entries to $SRC_LIST.sources"
		printf '%s' "$stanzas" | "${sudo_cmd[@]}" tee "$SRC_LIST.sources" >/dev/null
	fi
	[ -f "$SRC_LIST.list" ] || [ -f "$SRC_LIST.sources" ] || die "no deb entries in $APT_ETC to derive deb-src from"
}

# The downloads, once.
if [ ! -d "$CACHE" ]; then
	"${sudo_cmd[@]}" install -d -o "$(id -u)" -g "$(id -g)" "$CACHE"
fi
if [ ! -f "$CACHE/$ORIG_TAR" ] || [ ! -f "$CACHE/$DEB_TAR" ] || [ ! -f "$CACHE/$DEB_FILE" ]; then
	if [ ! -f "$CACHE/$ORIG_TAR" ] || [ ! -f "$CACHE/$DEB_TAR" ]; then
		versions=$(apt-cache showsrc "${SRC_PKG%%=*}" 2>/dev/null || true)
		if ! grep -qx "Version: ${SRC_PKG#*=}" <<<"$versions"; then
			has_deb_src || derive_deb_src
			"${sudo_cmd[@]}" apt-get update -qq
		fi
	fi
	dl=$(mktemp -d "$CACHE/.download.XXXXXX")
	chmod 0777 "$dl" # apt's _apt user writes the files
	trap 'rm -rf "$dl"' EXIT
	if [ ! -f "$CACHE/$ORIG_TAR" ] || [ ! -f "$CACHE/$DEB_TAR" ]; then
		log "downloading $SRC_PKG (source, about 140 MB)"
		(cd "$dl" && apt-get source -q --download-only "$SRC_PKG") || die "apt-get source $SRC_PKG failed"
		mv -f "$dl/$ORIG_TAR" "$dl/$DEB_TAR" "$CACHE/"
	fi
	if [ ! -f "$CACHE/$DEB_FILE" ]; then
		log "downloading $BIN_PKG (about 140 MB)"
		(cd "$dl" && apt-get download -q "$BIN_PKG") || die "apt-get download $BIN_PKG failed"
		mv -f "$dl/$DEB_FILE" "$CACHE/"
	fi
	rm -rf "$dl"
	trap - EXIT
fi

# unpack NAME CMD...: run CMD in a scratch folder of the cache that becomes $CACHE/NAME, once
unpack() {
	local name=$1 work
	shift
	[ -d "$CACHE/$name" ] && return 0
	log "unpacking $name"
	work=$(mktemp -d "$CACHE/.unpack.XXXXXX")
	chmod 0755 "$work"
	(cd "$work" && "$@") || { rm -rf "$work"; die "unpacking $name failed"; }
	mv "$work" "$CACHE/$name"
}
unpack upstream-6.1.187 tar -xJf "$CACHE/$ORIG_TAR" --strip-components=1 --no-same-owner
unpack debian-6.1.187-1 tar -xJf "$CACHE/$DEB_TAR" --no-same-owner
unpack linux-source-6.1.187-1 sh -c \
	'dpkg-deb --fsys-tarfile "$1" | tar -xOf - ./usr/src/linux-source-6.1.tar.xz |
	 tar -xJf - --strip-components=1 --no-same-owner' sh "$CACHE/$DEB_FILE"

up=$CACHE/upstream-6.1.187
target=$CACHE/linux-source-6.1.187-1
series=$CACHE/debian-6.1.187-1/debian/patches/series
echo "\$ treedrift compare upstream-6.1.187 linux-source-6.1.187-1 --patches debian/patches/series"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
status=0
"$td" compare "$up" "$target" --patches "$series" -o "$out" || status=$?
end=$(date +%s.%N)
# 1 means drift was found, which is what Debian's patches are.
[ "$status" -le 1 ] || die "treedrift compare failed (exit $status)"
# The report's head, its totals, the 15 riskiest patches, the patches' origins and what they leave
# unexplained (the whole report lists every changed file and every patch).
awk -v top=15 '
	NR <= 4 && NF { print; next }
	/^Totals:/ { sect = "t"; print ""; print; next }
	/^Patches:/ { sect = "p"; n = 0; print ""; print; next }
	/^Changed files/ { sect = ""; tail = tail "\n" $0; next }
	!NF { if (sect == "t") sect = ""; next }
	sect == "t" { print; next }
	sect == "p" { if (n++ <= top) print; if (n > 1) origin[$7]++; next }
	END {
		if (n > top + 1) print "  ... " n - top - 1 " more"
		printf "\npatch origins:"
		split("upstream submitted local unknown", k, " ")
		for (i = 1; i <= 4; i++) printf " %s %d", k[i], origin[k[i]]
		print tail
	}' "$out"
awk -v s="$start" -v e="$end" 'BEGIN { printf "\ncompare took %.1f s (the whole report: treedrift compare ... -o FILE)\n", e - s }'
