#!/usr/bin/env bash
# compare's identical/modified/added/removed sets equal diff -rq's, for
# directories, archives and git revisions of the same trees.
. "$(dirname "$0")/lib.sh"
up=$SRC/examples/upstream vendor=$SRC/examples/vendor

sets_from_diff() { # diff -rq --no-dereference output -> modified/added/removed lists
	diff -rq --no-dereference "$1" "$2" >"$TMP/diff.txt" || true
	sed -n "s|^Files $1/\(.*\) and $2/.* differ\$|\1|p" "$TMP/diff.txt" | sort >"$TMP/want.modified"
	: >"$TMP/want.added"; : >"$TMP/want.removed"
	sed -n "s|^Only in $2\(.*\): \(.*\)\$|\1/\2|p" "$TMP/diff.txt" | sed 's|^/||' | while read -r p; do
		if [ -d "$2/$p" ]; then (cd "$2" && find "$p" -type f); else echo "$p"; fi
	done | sort >"$TMP/want.added"
	sed -n "s|^Only in $1\(.*\): \(.*\)\$|\1/\2|p" "$TMP/diff.txt" | sed 's|^/||' | while read -r p; do
		if [ -d "$1/$p" ]; then (cd "$1" && find "$p" -type f); else echo "$p"; fi
	done | sort >"$TMP/want.removed"
}

check_sets() { # name [compare options] upstream-spec target-spec
	local s=0 name=$1
	shift
	"$TD" compare -q "$@" --format csv >"$TMP/got.csv" || s=$?
	check_eq "$name exit" "$s" 1
	for st in modified added removed; do
		csv_status "$st" <"$TMP/got.csv" >"$TMP/got.$st"
		if cmp -s "$TMP/got.$st" "$TMP/want.$st"; then ok; else
			fail "$name: $st set differs from diff -rq"; diff "$TMP/want.$st" "$TMP/got.$st" >&2 || true
		fi
	done
}

sets_from_diff "$up" "$vendor"
check_eq "example has modified files" "$(wc -l <"$TMP/want.modified")" 6
check_sets dirs "$up" "$vendor"

"$TD" scan -q "$up" -o "$TMP/up.db" --label v1
check_sets db-vs-dir "$TMP/up.db" "$vendor"

tar -C "$SRC/examples" -czf "$TMP/vendor.tar.gz" vendor
tar -C "$SRC/examples" -cJf "$TMP/vendor.tar.xz" vendor
check_sets db-vs-tgz "$TMP/up.db" "$TMP/vendor.tar.gz"
check_sets db-vs-txz "$TMP/up.db" "$TMP/vendor.tar.xz"
# scores too are the same whatever the sources: dir vs dir, dir vs archive, archive vs dir
# (--no-origins: copy detection would digest the whole upstream and hide a short cut)
scores() { "$TD" compare -q --no-origins --format csv "$@" | tr -d '\r' | cut -d, -f1-5 || true; }
# (with a change that keeps a file's size, which the SHA-256-only pass sees first)
cp -a "$vendor" "$TMP/v2"
sed -i 's/static/STATIC/' "$TMP/v2/kernel/fork.c"
tar -C "$TMP" -czf "$TMP/v2.tar.gz" v2
tar -C "$SRC/examples" -czf "$TMP/up.tar.gz" upstream
scores "$up" "$TMP/v2" >"$TMP/s.dirs"
grep -q '^kernel/fork.c,modified,clean,[0-9]*,0$' "$TMP/s.dirs" && ok || fail "same-size change not scored by TLSH"
scores "$up" "$TMP/v2.tar.gz" >"$TMP/s.dir-tar"
scores "$TMP/up.tar.gz" "$TMP/v2" >"$TMP/s.tar-dir"
for k in dir-tar tar-dir; do
	if cmp -s "$TMP/s.dirs" "$TMP/s.$k"; then ok; else
		fail "scores of $k differ from dir vs dir"; diff "$TMP/s.dirs" "$TMP/s.$k" >&2 || true
	fi
done

# git: the same two trees as two tags of one repository
git init -q "$TMP/repo"
gitc() { git -C "$TMP/repo" -c user.name=t -c user.email=t@t "$@"; }
cp -a "$up/." "$TMP/repo/"
gitc add -A && gitc commit -qm upstream && gitc tag v1
(cd "$TMP/repo" && git rm -rq . && cp -a "$vendor/." .)
gitc add -A && gitc commit -qm vendor && gitc tag vendor
check_sets git-vs-git "git:$TMP/repo@v1" "git:$TMP/repo@vendor"
check_sets db-vs-git "$TMP/up.db" "git:$TMP/repo@vendor"
want=$(git -C "$TMP/repo" diff --name-status --no-renames v1 vendor | awk '{print $1}' | sort | uniq -c | awk '{printf "%s%s ", $2, $1}')
"$TD" compare -q "git:$TMP/repo@v1" "git:$TMP/repo@vendor" --format csv >"$TMP/g.csv" || true
got=$(for s in added modified removed; do n=$(csv_status $s <"$TMP/g.csv" | wc -l); [ "$n" = 0 ] || printf "%s%s " "$(echo $s | cut -c1 | tr amr AMD)" "$n"; done | tr ' ' '\n' | sort | tr '\n' ' ')
want=$(echo "$want" | tr " " "\n" | grep . | sort | tr "\n" " ")
check_eq "git diff --name-status counts" "$got" "$want"

# --repo R takes bare revisions; a database operand stays a database
check_sets repo-revs --repo "$TMP/repo" v1 vendor
check_sets repo-db-vs-rev --repo "$TMP/repo" "$TMP/up.db" vendor
s=0; "$TD" compare -q --repo "$TMP/repo" v1 no-such-tag 2>"$TMP/err" || s=$?
check_eq "--repo unknown revision exit" "$s" 2
grep -q "no-such-tag" "$TMP/err" && ok || fail "--repo error names the revision: $(cat "$TMP/err")"

# equal blob ids are never read: two tags differing in one file read 2 blobs
cp -a "$TMP/repo" "$TMP/repo2"
echo "one more line" >>"$TMP/repo2/$(cd "$TMP/repo2" && git ls-files | grep -v '^\.' | head -1)"
git -C "$TMP/repo2" -c user.name=t -c user.email=t@t commit -qam one && git -C "$TMP/repo2" tag one
n=$(git -C "$TMP/repo2" ls-files | wc -l)
"$TD" compare --stats --repo "$TMP/repo2" vendor one >/dev/null 2>"$TMP/stats" || true
grep -q "^treedrift: $((2 * n)) files listed, 2 read " "$TMP/stats" && ok ||
	fail "unchanged blobs were read: $(cat "$TMP/stats")"
# then each stage's wall time, those that ran
t='[0-9]+\.[0-9]{2} s'
grep -Eq "^treedrift: time: load $t, compare $t, origins $t, annotate $t, lines $t, summary $t, report $t\$" \
	"$TMP/stats" && ok || fail "stage times: $(cat "$TMP/stats")"
"$TD" compare --stats --no-lines --no-origins --repo "$TMP/repo2" vendor one >/dev/null 2>"$TMP/stats" || true
grep -Eq "^treedrift: time: load $t, compare $t, annotate $t, summary $t, report $t\$" "$TMP/stats" && ok ||
	fail "stage times without lines and origins: $(cat "$TMP/stats")"
# a database scanned from git keeps blob ids: against a revision, only the changed blob is read
git -C "$TMP/repo2" branch bsp/2.0 vendor
"$TD" scan -q --repo "$TMP/repo2" bsp/2.0 -o "$TMP/vendor-git.db"
check_eq "--repo scan label is the revision" "$("$TD" show --versions "$TMP/vendor-git.db" | awk 'NR == 2 {print $1}')" bsp/2.0
"$TD" compare --stats --repo "$TMP/repo2" "$TMP/vendor-git.db" one >/dev/null 2>"$TMP/stats" || true
grep -q " 1 read .*, $((n - 1)) reused\$" "$TMP/stats" && ok ||
	fail "db from git vs revision read unchanged blobs: $(cat "$TMP/stats")"

# a scan of a tag, of its checkout and of its git archive give the same entries
"$TD" scan -q "git:$TMP/repo@v1" -o "$TMP/git.db" --label v1
git -C "$TMP/repo" archive --prefix=top/ -o "$TMP/v1.tar" v1
"$TD" scan -q "$TMP/v1.tar" -o "$TMP/tar.db" --label v1
for db in up git tar; do
	"$TD" show "$TMP/$db.db" | sed -n '/^version /,$p' | awk '{print $1, $2, $3, $4, $5, $6}' >"$TMP/$db.show"
done
if cmp -s "$TMP/up.show" "$TMP/tar.show"; then ok; else fail "archive scan differs from directory scan"; diff "$TMP/up.show" "$TMP/tar.show" >&2 || true; fi
if cmp -s "$TMP/up.show" "$TMP/git.show"; then ok; else fail "git scan differs from directory scan"; diff "$TMP/up.show" "$TMP/git.show" >&2 || true; fi
finish
