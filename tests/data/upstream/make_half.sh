#!/bin/sh
# An upstream commit that fixes two files, of which the vendor took the
# change to one and left the other as in the base: the target has part of
# the fix, not all of it. Usage: make_half.sh DIR (DIR/r is made).
#
# main (upstream): base (tag base), then "xy: fix both" (x.c and y.c), tag tip.
# vendor (from base): "y: take half", y.c's change alone; x.c as in the base.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
. "$here/common.sh"
repo x y
g add -A && g commit -qm base && g tag base
sed -i 's/^int x_v10 = 70;$/int x_v10 = 71;/' x.c
sed -i 's/^int y_v10 = 70;$/int y_v10 = 71;/' y.c
g commit -qam 'xy: fix both' -m 'Fixes: 0123456789ab ("xy: add")'
g tag tip
g checkout -q -b vendor base
sed -i 's/^int y_v10 = 70;$/int y_v10 = 71;/' y.c
g commit -qam 'y: take half'
