#!/bin/sh
# Opt-in check of the Kbuild evaluator on a real kernel tree (ctest -L long,
# with -DTD_LONG_TESTS=ON): for each of x86_64 and arm64 defconfig, compare
# the objects and sources td_kbuild_eval() derives with those a real build
# compiles, and fail under 99% precision or recall.
#
#   kbuild_real.sh KBUILD_BUILT [ARCH...]
#
# Reference ("what a real build compiles"), found quickly instead of a full
# build: `make defconfig`, then a real `make prepare scripts` (host tools and
# generated headers, about a minute), then `make -n -k` of the default target
# (vmlinux and modules), which prints every compile command without running
# it, plus the compile commands of that real prepare step (V=1) and the
# objects scripts/link-vmlinux.sh has Makefile.build compile at link time
# (init/version-timestamp.o). A reference object is the output of a compile
# command run with the
# target compiler (-nostdinc: host tools excluded): "-c -o X.o SRC"; its
# source is SRC when that file is in the tree (not a generated one). Paths
# are normalised ("a/../b" -> "b"), as make writes them unnormalised. The
# boot images (bzImage, Image.gz, dtbs) and modpost's generated *.mod.o are
# not reached by -n (they need vmlinux) and are outside both sets.
#
# The tree ($TD_KERNEL_TREE, default the benchmark's linux-6.1) is never
# written to: the build runs with O= in a temporary directory, or in a
# temporary copy when the tree is not clean. Exit 77 (skipped) when the tree
# is missing.
set -eu

BUILT=${1:?usage: kbuild_real.sh KBUILD_BUILT [ARCH...]}
shift
ARCHES=${*:-x86_64 arm64}
TREE=${TD_KERNEL_TREE:-/var/cache/treedrift-bench/trees/linux-6.1.192-3}
MIN_PERCENT=${TD_KBUILD_MIN_PERCENT:-99}
JOBS=${TD_JOBS:-2}

if [ ! -f "$TREE/Makefile" ] || [ ! -f "$TREE/Kbuild" ]; then
	echo "kbuild_real: no kernel tree at '$TREE' (set TD_KERNEL_TREE); skipped"
	exit 77
fi
TREE=$(cd "$TREE" && pwd)

need_pkgs=
command -v make >/dev/null 2>&1 || need_pkgs="$need_pkgs make"
command -v gcc >/dev/null 2>&1 || need_pkgs="$need_pkgs gcc"
command -v flex >/dev/null 2>&1 || need_pkgs="$need_pkgs flex"
command -v bison >/dev/null 2>&1 || need_pkgs="$need_pkgs bison"
command -v bc >/dev/null 2>&1 || need_pkgs="$need_pkgs bc"
[ -f /usr/include/gelf.h ] || need_pkgs="$need_pkgs libelf-dev"
[ -f /usr/include/openssl/ssl.h ] || need_pkgs="$need_pkgs libssl-dev"
case " $ARCHES " in
*" arm64 "*) command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
		need_pkgs="$need_pkgs gcc-aarch64-linux-gnu" ;;
esac
if [ -n "$need_pkgs" ]; then
	echo "kbuild_real: installing$need_pkgs"
	if [ "$(id -u)" != 0 ]; then
		echo "kbuild_real: not root; install$need_pkgs first" >&2
		exit 1
	fi
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need_pkgs >/dev/null
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kbuild_real.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

# In-tree build products mean O= would be refused: work on a copy then.
if [ -e "$TREE/.config" ] || [ -d "$TREE/include/config" ]; then
	echo "kbuild_real: '$TREE' is not clean; copying it"
	SRC="$WORK/src"
	mkdir "$SRC"
	(cd "$TREE" && tar cf - --exclude=.git .) | (cd "$SRC" && tar xf -)
	(cd "$SRC" && make -s mrproper)
else
	SRC=$TREE
fi

# textual path normalisation: drop "." and empty parts, fold "x/.."
NORM='{
	n = split($0, p, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (p[i] == "" || p[i] == ".") continue
		if (p[i] == ".." && k > 0 && o[k] != "..") { k--; continue }
		o[++k] = p[i]
	}
	s = ""
	for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") o[i]
	print s
}'

# compare REF DERIVED LABEL: prints the counts, returns 1 under the minimum
compare() {
	common=$(comm -12 "$1" "$2" | wc -l)
	nref=$(wc -l < "$1")
	nder=$(wc -l < "$2")
	awk -v c="$common" -v r="$nref" -v d="$nder" -v label="$3" -v min="$MIN_PERCENT" 'BEGIN {
		rec = r ? 100 * c / r : 100; prec = d ? 100 * c / d : 100
		printf "  %-8s reference %5d  derived %5d  common %5d  recall %6.2f%%  precision %6.2f%%\n",
			label, r, d, c, rec, prec
		exit (rec < min || prec < min) ? 1 : 0
	}'
}

status=0
for arch in $ARCHES; do
	case $arch in
	arm64|aarch64) cross=aarch64-linux-gnu- ;;
	*) cross= ;;
	esac
	out="$WORK/out-$arch"
	mkdir -p "$out/tools"
	if [ "$SRC" = "$TREE" ]; then
		mk() { make -C "$SRC" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }
		objdir=$out
	else
		mk() { make -C "$SRC" ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }
		objdir=$SRC
	fi
	echo "kbuild_real: $arch: defconfig, prepare, make -n"
	start=$(date +%s)
	mk -s defconfig > "$out/defconfig.log" 2>&1
	mk -j"$JOBS" V=1 prepare scripts > "$out/prepare.log" 2>&1 || {
		echo "kbuild_real: make prepare failed for $arch:" >&2
		tail -20 "$out/prepare.log" >&2
		exit 1
	}
	mk -n -k > "$out/dryrun.log" 2> "$out/dryrun.err" || true
	cp "$objdir/.config" "$out/config"

	# reference objects and their sources
	awk -v T="$SRC/" '/-nostdinc/ && match($0, / -c -o [^ ]+\.o [^ ;'"'"']+/) {
		split(substr($0, RSTART, RLENGTH), a, " ")
		s = a[4]
		if (index(s, T) == 1) s = substr(s, length(T) + 1)
		print a[3] > "/dev/stderr"
		print s
	}' "$out/prepare.log" "$out/dryrun.log" 2> "$out/ref-objects.raw" |
		awk "$NORM" | sort -u > "$out/ref-sources.all"
	# the link stage, which -n cannot reach, has Makefile.build compile what
	# scripts/link-vmlinux.sh names (6.1.y: init/version-timestamp.o)
	grep -oE 'Makefile.build" obj=[^ ]+ [^ ]+[.]o' "$SRC/scripts/link-vmlinux.sh" 2>/dev/null |
		awk '{print $3}' | while read -r o; do
			echo "$o" >> "$out/ref-objects.raw"
			[ -f "$TREE/${o%.o}.c" ] && echo "${o%.o}.c" >> "$out/ref-sources.all"
		done
	sort -u -o "$out/ref-sources.all" "$out/ref-sources.all"
	awk "$NORM" "$out/ref-objects.raw" | sort -u > "$out/ref-objects"
	while read -r f; do
		[ -f "$TREE/$f" ] && echo "$f"
	done < "$out/ref-sources.all" | sort -u > "$out/ref-sources"
	# every .o the commands write through if_changed (compile, objcopy, ld -r)
	grep -oE "> [^ ]*\.[^ /]+\.o\.cmd" "$out/dryrun.log" |
		sed 's/^> //; s|\.\([^/]*\)\.cmd$|\1|' | awk "$NORM" | sort -u > "$out/produced"

	"$BUILT" "$TREE" "$out/config" "$arch" objects > "$out/der-objects" 2> "$out/built.err"
	"$BUILT" "$TREE" "$out/config" "$arch" sources > "$out/der-sources" 2>> "$out/built.err"
	"$BUILT" "$TREE" "$out/config" "$arch" warnings > "$out/warnings" 2>> "$out/built.err"
	end=$(date +%s)

	echo "kbuild_real: $arch defconfig ($((end - start)) s; $(wc -l < "$out/warnings") warnings):"
	compare "$out/ref-objects" "$out/der-objects" objects || status=1
	compare "$out/ref-sources" "$out/der-sources" sources || status=1
	extra=$(comm -13 "$out/ref-objects" "$out/der-objects" | wc -l)
	explained=$(comm -13 "$out/ref-objects" "$out/der-objects" | comm -12 - "$out/produced" | wc -l)
	echo "  derived objects not compiled: $extra, of which made by the build otherwise" \
	     "(objcopy, ld -r): $explained"
	comm -23 "$out/ref-objects" "$out/der-objects" | head -20 | sed 's/^/  missing object: /'
	comm -13 "$out/ref-objects" "$out/der-objects" | comm -23 - "$out/produced" | head -20 |
		sed 's/^/  extra object: /'
	comm -3 "$out/ref-sources" "$out/der-sources" | head -20 | sed 's/^/  differing source: /'
	sed 's/^/  warning: /' "$out/warnings" | head -20
done
if [ $status = 0 ]; then
	echo "kbuild_real: agreement at least $MIN_PERCENT% for $ARCHES"
else
	echo "kbuild_real: agreement under $MIN_PERCENT%" >&2
fi
exit $status
