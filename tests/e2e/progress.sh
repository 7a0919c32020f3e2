#!/usr/bin/env bash
# The progress bar: on a terminal (script(1) gives stderr a pty) it shows
# which tree it reads, files and bytes, and a rate and ETA once a pass has
# run a second; --quiet and a pipe keep stderr silent. Colour: --color auto
# is off in a pipe and with NO_COLOR, --color always is on.
. "$(dirname "$0")/lib.sh"
if ! command -v script >/dev/null; then
	echo "SKIP: script(1) is not installed"
	exit 77
fi
mkdir -p "$TMP/up" "$TMP/t"
for i in $(seq 1 40); do seq 1 $((i * 100)) >"$TMP/up/f$i.txt"; done
cp -r "$TMP/up/." "$TMP/t/"; echo changed >>"$TMP/t/f3.txt"
"$TD" scan -q "$TMP/up" -o "$TMP/up.db"
tty_stderr() { # command...: what it writes to a terminal, stdout to a file
	script -qec "$* >$TMP/stdout" /dev/null </dev/null | tr '\r' '\n'
}
out=$(tty_stderr "$TD" compare "$TMP/up.db" "$TMP/t" || true)
bar='\[[#.]+\] [0-9]+/[0-9]+ files, [0-9.]+ (B|KiB|MiB)(, [0-9.]+ (B|KiB|MiB|GiB|TiB)/s, ETA [0-9]+m[0-9][0-9]s)?'
printf '%s\n' "$out" | grep -Eq "^reading target $bar" && ok || fail "no progress bar on a terminal: $out"
# each pass's first update comes microseconds after its start: no rate yet
# (it once showed 166.4 TiB/s), and never a rate past a TiB/s
first=$(printf '%s\n' "$out" | grep -E '^reading ' | head -1)
case $first in *'/s'*) fail "a rate in the first update: $first" ;; *) ok ;; esac
printf '%s\n' "$out" | grep -q 'TiB/s' && fail "an absurd rate: $out" || ok
# two directories: each bar says which tree it reads
out=$(tty_stderr "$TD" compare "$TMP/up" "$TMP/t" || true)
printf '%s\n' "$out" | grep -Eq "^reading upstream $bar" && ok || fail "no upstream bar: $out"
printf '%s\n' "$out" | grep -Eq "^reading target $bar" && ok || fail "no target bar: $out"
printf '%s\n' "$out" | grep -Eq '^reading \[' && fail "a bar that does not say which tree: $out" || ok
grep -q 'f3.txt' "$TMP/stdout" && ok || fail "report missing"
out=$(tty_stderr "$TD" compare -q "$TMP/up.db" "$TMP/t" || true)
check_eq "--quiet on a terminal" "$(printf '%s' "$out" | tr -d '\n')" ""
out=$(tty_stderr "$TD" scan "$TMP/t" -o "$TMP/t.db")
printf '%s\n' "$out" | grep -q 'files' && ok || fail "no progress for scan on a terminal: $out"
s=0; "$TD" compare "$TMP/up.db" "$TMP/t" >/dev/null 2>"$TMP/err" || s=$?
check_eq "compare exit" "$s" 1
check_eq "stderr in a pipe" "$(cat "$TMP/err")" ""
# colour: only on a terminal, never with NO_COLOR, always when asked
esc=$(printf '\033')
script -qec "$TD compare $TMP/up.db $TMP/t -q" /dev/null </dev/null >"$TMP/tty.out" || true
grep -q "$esc\[3[123]m" "$TMP/tty.out" && ok || fail "no colour on a terminal"
NO_COLOR=1 script -qec "$TD compare $TMP/up.db $TMP/t -q" /dev/null </dev/null >"$TMP/tty.out" || true
grep -q "$esc\[3[123]m" "$TMP/tty.out" && fail "colour despite NO_COLOR" || ok
"$TD" compare -q "$TMP/up.db" "$TMP/t" >"$TMP/pipe.out" || true
grep -q "$esc" "$TMP/pipe.out" && fail "colour in a pipe" || ok
"$TD" compare -q --color always "$TMP/up.db" "$TMP/t" >"$TMP/pipe.out" || true
grep -q "$esc\[3[123]m" "$TMP/pipe.out" && ok || fail "--color always"
finish
