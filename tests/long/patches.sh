#!/bin/sh
# The patch stage on real data, checked against git and the patches' own
# headers (issue 19's acceptance):
# - U-Boot: v2023.10..v2023.10-stm32mp lists all 902 commits in git's
#   order; each patch's files are git diff-tree -r --name-only of its
#   commit; each changed file's patches are git log BASE..TIP -- PATH; every
#   commit with a cherry-pick line is upstream and names that commit; the
#   files each patch renames are git diff-tree -M's, those it renames
#   unchanged (and only those) at distance 0; of the files git diff-tree
#   -C -C --find-copies-harder finds copied from a file the patch keeps,
#   at least 90% are scored from a file of their directory.
# - Debian (when bench data is there, see below): linux 6.1.187's orig
#   tree and debian/patches/series: every patch listed; Origin: at
#   git.kernel.org is upstream, Forwarded: not-needed is local.
# Usage: patches.sh PATCH_DUMP. Skips (77) when no data is there.
# Data: $TREEDRIFT_BENCH_CACHE (default /var/cache/treedrift-bench) with
# u-boot-stm32mp.git, and for Debian debsrc/orig (the orig tarball unpacked)
# and debsrc/patched (dpkg-source -x of linux_6.1.187-1.dsc), or else what
# scripts/demo.sh unpacks into $TREEDRIFT_DEMO_CACHE (/var/cache/treedrift-demo).
set -eu
DUMP=$1
CACHE=${TREEDRIFT_BENCH_CACHE:-/var/cache/treedrift-bench}
U=$CACHE/u-boot-stm32mp.git
D=$CACHE/debsrc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ran=0
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

if [ -d "$U" ]; then
	ran=1
	R=v2023.10..v2023.10-stm32mp
	"$DUMP" "git:$U@v2023.10" "git:$U@v2023.10-stm32mp" "git:$U@$R" >"$tmp/dump"
	git -C "$U" rev-list --reverse --no-merges $R >"$tmp/want_ids"
	grep '^P ' "$tmp/dump" | cut -d' ' -f2 >"$tmp/ids"
	n=$(wc -l <"$tmp/ids")
	[ "$n" -eq 902 ] || fail "u-boot: $n patches, want 902"
	cmp -s "$tmp/ids" "$tmp/want_ids" || fail "u-boot: patch ids differ from git rev-list's"

	# files of each patch
	awk '/^P /{id=$2} /^F /{print id " " substr($0, 3)}' "$tmp/dump" | LC_ALL=C sort >"$tmp/files"
	git -C "$U" -c core.quotepath=off diff-tree -r --name-only --no-renames --stdin <"$tmp/want_ids" |
		awk '/^[0-9a-f]+$/{id=$0; next} {print id " " $0}' | LC_ALL=C sort >"$tmp/want_files"
	cmp -s "$tmp/files" "$tmp/want_files" || fail "u-boot: patch files differ from git diff-tree's"
	echo "u-boot: $(wc -l <"$tmp/files") patch files checked"

	# patches of each changed file
	grep '^R ' "$tmp/dump" | while read -r _ path _ ids; do
		want=$(git -C "$U" log --reverse --format=%H $R -- "$path" | tr '\n' ' ' | sed 's/ $//')
		[ "$ids" = "$want" ] || echo "$path"
	done >"$tmp/bad_refs"
	[ -s "$tmp/bad_refs" ] && fail "u-boot: patches of $(wc -l <"$tmp/bad_refs") files differ from git log's," \
		"first $(head -1 "$tmp/bad_refs")"
	echo "u-boot: $(grep -c '^R ' "$tmp/dump") changed files checked against git log"
	grep -qx 'U 0' "$tmp/dump" || fail "u-boot: some changed file has no patch"

	# files renamed (no compare origins here): git diff-tree -M's renames,
	# those of the same content (R100) scored 0; a file scored from one
	# the patch removes is a rename, from one it keeps a copy
	git -C "$U" -c core.quotepath=off diff-tree -r -M --diff-filter=R --stdin <"$tmp/want_ids" |
		awk '/^[0-9a-f]+$/{id=$0; next} {split($0, a, "\t"); print id " " a[2] "\t" a[3] "\t" ($5 == "R100")}' |
		LC_ALL=C sort >"$tmp/want_renames"
	git -C "$U" -c core.quotepath=off diff-tree -r --name-only --no-renames --diff-filter=D --stdin \
		<"$tmp/want_ids" | awk '/^[0-9a-f]+$/{id=$0; next} {print id " " $0}' >"$tmp/removed"
	grep '^C ' "$tmp/dump" | awk -F'\t' '
		NR == FNR { gone[$0] = 1; next }
		{ split($1, a, " "); kind = (a[2] " " a[4]) in gone ? "R" : "C";
		  print kind " " a[2] " " a[4] "\t" $2 "\t" (a[3] == 0) }' "$tmp/removed" - >"$tmp/scored_from"
	sed -n 's/^R //p' "$tmp/scored_from" | LC_ALL=C sort >"$tmp/renames"
	[ -s "$tmp/want_renames" ] || fail "u-boot: git finds no rename to check"
	cmp -s "$tmp/renames" "$tmp/want_renames" || fail "u-boot: renames differ from git diff-tree -M's"
	echo "u-boot: $(wc -l <"$tmp/renames") renames checked against git"

	# files copied from a file the patch keeps: git's copies, found
	git -C "$U" -c core.quotepath=off diff-tree -r -C -C --find-copies-harder --diff-filter=C --stdin \
		<"$tmp/want_ids" | awk '/^[0-9a-f]+$/{id=$0; next} {split($0, a, "\t"); print id " " a[3]}' |
		LC_ALL=C sort -u >"$tmp/want_copies"
	sed -n 's/^C //p' "$tmp/scored_from" | awk -F'\t' '{split($1, a, " "); print a[1] " " $2}' |
		LC_ALL=C sort -u >"$tmp/copies"
	want=$(wc -l <"$tmp/want_copies")
	found=$(LC_ALL=C comm -12 "$tmp/want_copies" "$tmp/copies" | wc -l)
	[ "$want" -gt 0 ] && [ $((found * 10)) -ge $((want * 9)) ] ||
		fail "u-boot: $found of git's $want copies scored from a file the patch keeps, want 90%"
	echo "u-boot: $found of git's $want copies found, $(wc -l <"$tmp/copies") in all"

	# cherry-pick lines: upstream, naming that commit
	git -C "$U" log --reverse --format='C %H%n%B' $R |
		awk '/^C [0-9a-f]+$/{id=$2; seen=0; next}
		     !seen && match($0, /cherry picked from commit [0-9a-fA-F]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/.* /, "", s);
			print id " upstream " tolower(s); seen=1 }' >"$tmp/want_cp"
	awk '/^P /{print $2 " " $3 " " $4}' "$tmp/dump" >"$tmp/origins"
	n=0
	while read -r line; do
		n=$((n + 1))
		grep -qxF "$line" "$tmp/origins" || fail "u-boot: want '$line'"
	done <"$tmp/want_cp"
	echo "u-boot: $n cherry-picked commits checked"
fi

# Debian: the bench cache's debsrc, else what scripts/demo.sh unpacks
DEMO=${TREEDRIFT_DEMO_CACHE:-/var/cache/treedrift-demo}
if [ -d "$D/orig" ] && [ -f "$D/patched/debian/patches/series" ]; then
	deb_orig=$D/orig deb_target=$D/patched S=$D/patched/debian/patches
elif [ -d "$DEMO/upstream-6.1.187" ] && [ -d "$DEMO/linux-source-6.1.187-1" ] &&
	[ -f "$DEMO/debian-6.1.187-1/debian/patches/series" ]; then
	deb_orig=$DEMO/upstream-6.1.187 deb_target=$DEMO/linux-source-6.1.187-1 S=$DEMO/debian-6.1.187-1/debian/patches
else
	S=
fi
if [ -n "$S" ]; then
	ran=1
	"$DUMP" "$deb_orig" "$deb_target" "$S/series" >"$tmp/deb"
	sed -e 's/#.*//' "$S/series" | awk 'NF {print $1}' >"$tmp/deb_want"
	awk '/^P /{print $2}' "$tmp/deb" >"$tmp/deb_ids"
	cmp -s "$tmp/deb_ids" "$tmp/deb_want" ||
		fail "debian: patches listed differ from the series ($(wc -l <"$tmp/deb_ids") vs $(wc -l <"$tmp/deb_want"))"
	up=0 loc=0
	while read -r name; do
		# the headers: the text before the first diff
		head=$(awk '/^(diff |--- |Index: )/{exit} {print}' "$S/$name")
		got=$(awk -v n="$name" '$1 == "P" && $2 == n {print $3}' "$tmp/deb")
		if printf '%s\n' "$head" | grep -qiE '^Origin:.*git\.kernel\.org'; then
			up=$((up + 1))
			[ "$got" = upstream ] || fail "debian: $name is '$got', its Origin: is at git.kernel.org"
		elif printf '%s\n' "$head" | grep -qiE '^Forwarded: *not-needed'; then
			loc=$((loc + 1))
			[ "$got" = local ] || fail "debian: $name is '$got', it is Forwarded: not-needed"
		fi
	done <"$tmp/deb_want"
	echo "debian: $(wc -l <"$tmp/deb_ids") patches, $up with Origin: at kernel.org, $loc not-needed checked"
fi

[ "$ran" -eq 1 ] || { echo "no data under $CACHE: skipped"; exit 77; }
[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "patches: all checks passed"
