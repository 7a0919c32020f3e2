#!/usr/bin/env bash
# Output files (compare -o, trend --svg; cli/output.c): the temporary file
# never follows a planted symlink; devices and FIFOs are written in place,
# never replaced or unlinked; an output that is one of the inputs is refused
# before anything is read; errors name the output, not a temporary file.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/up" "$TMP/t"
for i in $(seq 1 6); do seq 1 $((i * 200)) | sed "s/^/line $i /" >"$TMP/up/f$i.c"; done
cp -r "$TMP/up/." "$TMP/t/"; echo changed >>"$TMP/t/f2.c"
"$TD" scan -q "$TMP/up" -o "$TMP/up.db" --label v1
"$TD" scan -q "$TMP/t" -o "$TMP/t.db" --label t1
is_root=0; [ "$(id -u)" = 0 ] && is_root=1
no_temps() { # what, dir: no temporary file left behind
	local left; left=$(find "$2" -maxdepth 1 -name '*.tmp-*' | head -3)
	[ -z "$left" ] && ok || fail "$1: temporary files left: $left"
}

# a plain -o: the report, no temporary file left, exit 1 (drift)
s=0; "$TD" compare -q -o "$TMP/r.txt" "$TMP/up.db" "$TMP/t" || s=$?
check_eq "compare -o" "$s" 1
grep -q 'f2.c' "$TMP/r.txt" && ok || fail "report missing from -o"
no_temps "compare -o" "$TMP"
# replacing a report keeps its mode
chmod 640 "$TMP/r.txt"
"$TD" compare -q -o "$TMP/r.txt" "$TMP/up.db" "$TMP/t" || true
check_eq "mode of a replaced report" "$(stat -c %a "$TMP/r.txt")" 640

# 1. symlinks planted where the temporary file would go (F.tmp-PID used to
# be predictable): none is followed, the file they point to stays as it was
mkdir "$TMP/plant"
echo "precious" >"$TMP/victim"
# (made without a process per link: the next PIDs are the ones to cover)
python3 - "$TMP" <<'EOF'
import os, sys
d = sys.argv[1]
try:
    last = int(open('/proc/sys/kernel/ns_last_pid').read())
except OSError:
    last = 0
for pid in range(last + 1, last + 3001) if last else []:
    for name in ('r.json', 'c.svg'):
        os.symlink(d + '/victim', '%s/plant/%s.tmp-%d' % (d, name, pid))
EOF
s=0; "$TD" compare -q -f json -o "$TMP/plant/r.json" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
check_eq "compare -o beside planted symlinks" "$s" 1
s=0; "$TD" trend -q --svg "$TMP/plant/c.svg" "$TMP/up.db" "$TMP/t" >/dev/null 2>"$TMP/err" || s=$?
check_eq "trend --svg beside planted symlinks" "$s" 0
check_eq "the symlinks' target" "$(cat "$TMP/victim")" "precious"
[ -f "$TMP/plant/r.json" ] && [ ! -L "$TMP/plant/r.json" ] && ok || fail "-o is not a regular file"
[ -f "$TMP/plant/c.svg" ] && [ ! -L "$TMP/plant/c.svg" ] && ok || fail "--svg is not a regular file"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/plant/r.json" && ok || fail "-o json unreadable"

# 2. special files are written in place, never replaced or unlinked
if [ "$is_root" = 1 ]; then
	mknod "$TMP/null" c 1 3 && mknod "$TMP/full" c 1 7
	s=0; "$TD" compare -q -o "$TMP/null" "$TMP/up.db" "$TMP/t" || s=$?
	check_eq "compare -o a null device" "$s" 1
	[ -c "$TMP/null" ] && ok || fail "compare -o replaced a character device: $(ls -l "$TMP/null")"
	s=0; "$TD" trend -q --svg "$TMP/full" "$TMP/up.db" "$TMP/t" >/dev/null 2>"$TMP/err" || s=$?
	check_eq "trend --svg a full device" "$s" 2
	[ -c "$TMP/full" ] && ok || fail "trend --svg removed a device it could not write"
	grep -qF "unable to write '$TMP/full': No space left on device" "$TMP/err" && ok ||
		fail "full device error: $(cat "$TMP/err")"
	s=0; "$TD" compare -q -o "$TMP/full" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
	check_eq "compare -o a full device" "$s" 2
	[ -c "$TMP/full" ] && ok || fail "compare -o removed a device it could not write"
	no_temps "devices" "$TMP"
else
	echo "device part skipped (mknod needs root)"
fi
# a symlink to a device (as /dev/stdout is): written through, the link kept
ln -s /dev/full "$TMP/full-link"
s=0; "$TD" trend -q --svg "$TMP/full-link" "$TMP/up.db" "$TMP/t" >/dev/null 2>"$TMP/err" || s=$?
check_eq "trend --svg through a link to /dev/full" "$s" 2
[ -L "$TMP/full-link" ] && ok || fail "trend --svg unlinked a symlink it did not create"
[ -c /dev/full ] && ok || fail "/dev/full is gone"
# a FIFO: the reader gets the report, the FIFO stays a FIFO
mkfifo "$TMP/fifo"
timeout 60 cat "$TMP/fifo" >"$TMP/fifo.out" & reader=$!
s=0; timeout 60 "$TD" compare -q -o "$TMP/fifo" "$TMP/up.db" "$TMP/t" || s=$?
wait $reader || true
check_eq "compare -o a FIFO" "$s" 1
[ -p "$TMP/fifo" ] && ok || fail "the FIFO was replaced: $(ls -l "$TMP/fifo")"
grep -q 'f2.c' "$TMP/fifo.out" && ok || fail "the FIFO's reader got no report"
# a symlink to a regular file: the file it leads to gets the report
echo old >"$TMP/real.txt"; ln -s real.txt "$TMP/link.txt"
"$TD" compare -q -o "$TMP/link.txt" "$TMP/up.db" "$TMP/t" || true
[ -L "$TMP/link.txt" ] && grep -q 'f2.c' "$TMP/real.txt" && ok || fail "-o through a symlink"
# a symlink to nothing: refused, nothing created
ln -s "$TMP/nowhere/x" "$TMP/dangling"
s=0; "$TD" compare -q -o "$TMP/dangling" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
check_eq "compare -o a dangling symlink" "$s" 2
[ -L "$TMP/dangling" ] && [ ! -e "$TMP/nowhere" ] && ok || fail "dangling symlink followed"

# an output that is one of the inputs: refused, the input unchanged
cp "$TMP/up.db" "$TMP/up.db.orig"
ln "$TMP/up.db" "$TMP/up-hard.db"; ln -s up.db "$TMP/up-sym.db"
for o in "$TMP/up.db" "$TMP/up-hard.db" "$TMP/up-sym.db" "$TMP/t"; do
	s=0; "$TD" compare -q -o "$o" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
	check_eq "compare -o $o (an input)" "$s" 2
	cmp -s "$TMP/up.db" "$TMP/up.db.orig" && ok || fail "compare -o $o overwrote the upstream database"
	grep -qF "'$o'" "$TMP/err" && ok || fail "error does not name '$o': $(cat "$TMP/err")"
done
s=0; "$TD" compare -q -o "$TMP/t.db" "$TMP/up.db" "$TMP/t.db" 2>/dev/null || s=$?
check_eq "compare -o the target database" "$s" 2
s=0; "$TD" trend -q --svg "$TMP/t.db" "$TMP/up.db" "$TMP/t.db" >/dev/null 2>&1 || s=$?
check_eq "trend --svg a target" "$s" 2
"$TD" check -q "$TMP/t.db" && ok || fail "trend --svg damaged a target database"

# a missing directory: the error names the output, not a temporary file
s=0; "$TD" compare -q -o "$TMP/missing/x.json" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
check_eq "compare -o into a missing directory" "$s" 2
check_eq "its message" "$(cat "$TMP/err")" \
	"treedrift: unable to create '$TMP/missing/x.json': No such file or directory"
s=0; "$TD" trend -q --svg "$TMP/missing/x.svg" "$TMP/up.db" "$TMP/t" >/dev/null 2>"$TMP/err" || s=$?
check_eq "trend --svg into a missing directory" "$s" 2
grep -q 'tmp-' "$TMP/err" && fail "temporary name in: $(cat "$TMP/err")" || ok
# a directory as output
s=0; "$TD" compare -q -o "$TMP/plant" "$TMP/up.db" "$TMP/t" 2>"$TMP/err" || s=$?
check_eq "compare -o a directory" "$s" 2
no_temps "errors" "$TMP"

# a run killed (SIGKILL) with its output written but not in place leaves
# nothing behind: the output is an unnamed file (O_TMPFILE) until the commit
# names it. strace kills the run at the commit's fsync.
if command -v strace >/dev/null; then
	mkdir -p "$TMP/k"
	s=0; strace -f -o /dev/null -e trace=fsync -e inject=fsync:signal=KILL \
		"$TD" compare -q -o "$TMP/k/r.json" --format json "$TMP/up.db" "$TMP/t" || s=$?
	check_eq "killed at the commit" "$s" 137
	check_eq "nothing left by a killed run" "$(ls -A "$TMP/k")" ""
else
	echo "skipped: the killed-run case needs strace"
fi
finish
