#!/bin/sh
# An upstream commit that fixes two files, of which the vendor took the
# change to one and left the other as in the base: the target has part of
# the fix, not all of it. Usage: make_half.sh DIR (DIR/r is made).
#
# main (upstream): base (tag base), then "xy: fix both" (x.c and y.c), tag tip.
# vendor (from base): "y: take half", y.c's change alone; x.c as in the base.
set -eu
cd "$1"
export GIT_CONFIG_NOSYSTEM=1 HOME="$PWD" GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
	GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
	GIT_AUTHOR_DATE='2024-01-02T03:04:05Z' GIT_COMMITTER_DATE='2024-01-02T03:04:05Z'
g() { git -c init.defaultBranch=main -c commit.gpgsign=false "$@"; }
src() { # NAME: 40 distinct lines
	awk -v n="$1" 'BEGIN { printf "/* %s */\n", n; for (i = 1; i <= 40; i++) printf "int %s_v%d = %d;\n", n, i, i * 7 }'
}
g init -q r
cd r
for f in x y; do src $f > $f.c; done
g add -A && g commit -qm base && g tag base
sed -i 's/^int x_v10 = 70;$/int x_v10 = 71;/' x.c
sed -i 's/^int y_v10 = 70;$/int y_v10 = 71;/' y.c
g commit -qam 'xy: fix both' -m 'Fixes: 0123456789ab ("xy: add")'
g tag tip
g checkout -q -b vendor base
sed -i 's/^int y_v10 = 70;$/int y_v10 = 71;/' y.c
g commit -qam 'y: take half'
