#!/usr/bin/env bash
# compare's line counts equal `git diff --numstat` for every modified file,
# whatever the sides are: directories, git revisions, archives, a database
# scanned from git (its repository there, then gone) or from a directory. A binary file, CRLF
# lines, a last line without a newline, a symlink and a file that became a
# symlink are among the changes.
. "$(dirname "$0")/lib.sh"
git_c() { git -c user.name=t -c user.email=t@t -c core.autocrlf=false "$@"; }

repo=$TMP/repo
git_c init -q "$repo"
cd "$repo"
mkdir -p src doc
python3 - <<'PY'
import random
r = random.Random(7)
words = ["{", "}", "return 0;", "i++;", "", "if (x)", "else", "\tbreak;", "int a;", "/* note */"]
for i in range(40):
    lines = [r.choice(words) for _ in range(r.randint(20, 400))]
    open(f"src/f{i}.c", "w").write("\n".join(lines) + "\n")
open("doc/crlf.txt", "wb").write(b"one\r\ntwo\r\nthree\r\n")
open("doc/nonl.txt", "w").write("first\nlast without newline")
open("doc/bin.dat", "wb").write(bytes(range(256)) * 4)
open("doc/kind", "w").write("a file first\n")
PY
ln -s src/f1.c link
git_c add -A && git_c commit -qm v1 && git_c tag v1
python3 - <<'PY'
import random
r = random.Random(8)
for i in range(0, 40, 2):
    p = f"src/f{i}.c"
    lines = open(p).read().split("\n")[:-1]
    out = []
    for l in lines:
        x = r.random()
        if x < 0.05: continue
        if x < 0.10: out.append("changed " + str(r.randint(0, 9)))
        elif x < 0.13: out += [l, "added " + str(r.randint(0, 9))]
        else: out.append(l)
    open(p, "w").write("\n".join(out) + ("\n" if i % 4 else ""))
open("doc/crlf.txt", "wb").write(b"one\ntwo\r\nthree\r\nfour\r\n")
open("doc/nonl.txt", "w").write("first\nlast without newline\n")
b = bytearray(bytes(range(256)) * 4); b[100] ^= 0xff
open("doc/bin.dat", "wb").write(bytes(b))
PY
rm doc/kind link && ln -s ../src/f3.c doc/kind && ln -s src/f2.c link
git_c add -A && git_c commit -qm v2 && git_c tag v2
cd "$TMP"

# git's answer: "path added removed", "-" for binary
git -C "$repo" diff --numstat --no-renames v1 v2 | awk -F'\t' '{ print $3, $1, $2 }' | sort >"$TMP/want"
check_eq "fixture: modified files" "$(wc -l <"$TMP/want")" 25

got_lines() { # compare options... -> "path added removed" for each modified file
	"$TD" compare -q --format json "$@" >"$TMP/got.json" || true
	python3 - "$TMP/got.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["files"]:
    if f["status"] != "modified":
        continue
    if f["lines"] == "counted":
        print(f["path"], f["lines_added"], f["lines_removed"])
    elif f["lines"] == "binary":
        print(f["path"], "-", "-")
    else:
        print(f["path"], "missing:", f["lines_missing"])
PY
}

check_lines() { # name compare-args...
	local name=$1
	shift
	got_lines "$@" | sort >"$TMP/got"
	if cmp -s "$TMP/got" "$TMP/want"; then ok; else
		fail "$name: line counts differ from git diff --numstat"
		diff "$TMP/want" "$TMP/got" >&2 || true
	fi
}

mkdir -p d1 d2
git -C "$repo" archive v1 | tar x -C d1
git -C "$repo" archive v2 | tar x -C d2
git -C "$repo" archive --prefix=top-v1/ -o "$TMP/v1.tar.gz" v1
git -C "$repo" archive -o "$TMP/v2.tar" v2
git -C "$repo" archive --prefix=a/b/ -o "$TMP/v2-deep.tar" v2

check_lines "dir vs dir" d1 d2
check_lines "git vs git" "git:$repo@v1" "git:$repo@v2"
check_lines "archive vs dir" v1.tar.gz d2
check_lines "dir vs archive" d1 v2.tar
check_lines "archive vs archive" v1.tar.gz v2.tar
check_lines "git vs archive, --strip-components" "git:$repo@v1" v2-deep.tar --strip-components 2
check_lines "--jobs 1" d1 "git:$repo@v2" --jobs 1
"$TD" compare -q --no-lines --format json d1 d2 >"$TMP/no.json" || true
check_eq "--no-lines" "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["lines_counted"], {f["lines"] for f in d["files"]})' "$TMP/no.json")" "False {None}"

# a database scanned from git reads its blobs from the repository
"$TD" scan -q "git:$repo@v1" -o git.db
check_lines "database from git" git.db d2
"$TD" compare -q git.db d2 >"$TMP/text" || true
grep -qF 'src/f0.c  +' "$TMP/text" && ok || fail "text report: no +A -R after a path"
grep -q 'modified .*distance [0-9]*, lines +[0-9]* ' "$TMP/text" && ok || fail "text report: no line totals"

# ... and says the counts are missing, and why, once the repository is gone
mv "$repo" "$TMP/moved"
got_lines git.db d2 >"$TMP/got"
check_eq "repository gone: files without counts" "$(grep -c 'missing: upstream is a database without its repository' "$TMP/got")" 24
check_eq "repository gone: the symlink is still counted" "$(grep -c '^link 1 1$' "$TMP/got")" 1
"$TD" compare -q git.db d2 >"$TMP/text" || true
check_eq "repository gone: the reason once" \
	"$(grep -c "^line counts missing: upstream is a database without its repository ('$repo' is gone)\$" "$TMP/text")" 1
grep -qF 'src/f0.c  (lines missing)' "$TMP/text" && ok || fail "text report: missing counts not said"
"$TD" compare -q git.db d2 --format csv >"$TMP/got.csv" || true
tr -d '\r' <"$TMP/got.csv" | grep -q '^src/f0.c,modified,.*,missing,,,no,,tlsh$' && ok || fail "csv: missing counts"
mv "$TMP/moved" "$repo"

# a database scanned from a directory reads the files where they were, each
# only while it is as the scan found it
"$TD" scan -q d1 -o dir.db
check_lines "database from a directory" dir.db d2
sleep 1 && echo "edited" >>d1/src/f0.c
got_lines dir.db d2 >"$TMP/got"
check_eq "directory database, file edited since" "$(grep '^src/f0.c ' "$TMP/got")" \
	"src/f0.c missing: the upstream file changed after it was read"
check_eq "directory database, the others" "$(grep -c ' missing:' "$TMP/got")" 1
mv d1 d1-moved
got_lines dir.db d2 >"$TMP/got"
check_eq "directory database, directory gone" \
	"$(grep -c 'missing: upstream is a database scanned from a directory that cannot be read' "$TMP/got")" 24
# an archive's database keeps no content
"$TD" scan -q v1.tar.gz -o tar.db
got_lines tar.db d2 >"$TMP/got"
check_eq "archive database: files without counts" \
	"$(grep -c 'missing: upstream is a database scanned from an archive, which keeps no content' "$TMP/got")" 24
finish
