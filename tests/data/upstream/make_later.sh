#!/bin/sh
# Upstream commits that later upstream commits revert or fix. Usage:
# make_later.sh DIR (DIR/r is made).
#
# main (upstream): base (tag base), then, up to tag tip:
#   G1 g.c  Fixes:          G2 reverts it; the vendor has neither  -> both not applicable
#   G2      reverts G1
#   H1 h.c  names a CVE     H2 reverts it and H3 reverts H2: H2 and H3 cancel,
#   H2      reverts H1      and the vendor lacks H1                -> H1 missing
#   H3      reverts H2
#   K1 k.c  Fixes:          the vendor cherry-picks it, K2 reverts it
#   K2      reverts K1      (by an abbreviated id)                 -> K1 applied, K2 missing
#   M1 m.c  a feature       the vendor lacks it                    -> missing, fixed later by M2
#   M2 m.c  Fixes: M1       the bug came with M1                   -> not applicable
#   N1 n.c  names a CVE     the vendor lacks it                    -> missing, fixed later by N2
#   N2 n.c  Fixes: N1       a regression of N1                     -> not applicable
#   P1 p.c  Fixes:          the vendor cherry-picks it
#   P2 p.c  Fixes: P1       the vendor has P1's bug                -> missing
#   Q1 q.c  Fixes: base     the bug is in the base                 -> missing
#   S1 s.c  Fixes: M1, P1   the vendor has one of the two          -> missing
#   T1 t.c  Fixes: M1       as M2, in another file                 -> not applicable; missing
#                           when a configuration leaves m.c unbuilt (the source may have M1)
#   W       merges branch w: W1 w.c, a feature the vendor lacks    -> missing (the merge: not listed)
#   W2 w.c  Fixes: W        the bug came with what W merged        -> not applicable
#   X       merges branch x: X1 x.c, which the vendor cherry-picks -> X1 applied
#   X2 x.c  Fixes: X        the vendor has what X merged           -> missing
# vendor (from base): cherry-pick -x K1, P1 and X1.
# The reverts are committed with git revert's message, written out, so
# that the subjects do not depend on the git version ("Reapply").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
. "$here/common.sh"
repo g h k m n p q s t w x
g add -A && g commit -qm base && g tag base

revert() { # SUBJECT [ID]: revert HEAD, naming it by ID (default: in full)
	id=${2:-$(g rev-parse HEAD)}
	g revert --no-commit HEAD
	g commit -qm "Revert \"$1\"" -m "This reverts commit $id."
}
sed -i 's/^int g_v10 = 70;$/int g_v10 = 71;/' g.c
g commit -qam 'g: fix a bound' -m 'Fixes: 0123456789ab ("g: add")'
revert 'g: fix a bound'
sed -i 's/^int h_v10 = 70;$/int h_v10 = 71;/' h.c
g commit -qam 'h: check the size (CVE-2024-0002)'
revert 'h: check the size (CVE-2024-0002)'
revert 'Revert "h: check the size (CVE-2024-0002)"'
sed -i 's/^int k_v10 = 70;$/int k_v10 = 71;/' k.c
g commit -qam 'k: fix a race' -m 'Fixes: 456789abcdef ("k: add")'
K1=$(g rev-parse HEAD)
revert 'k: fix a race' "$(g rev-parse --short=12 HEAD)"
fix() { # FILE SUBJECT [MESSAGE]: one line of FILE changed
	sed -i "s/^int ${1}_v1\([0-9]\) = \(.*\);$/int ${1}_v1\1 = \2 + 1;/" "$1.c"
	g commit -qam "$2" ${3:+-m "$3"}
	g rev-parse --short=12 HEAD
}
M1=$(fix m 'm: add a cache')
fix m 'm: fix the cache' "Fixes: $M1 (\"m: add a cache\")" >/dev/null
N1=$(fix n 'n: bound a copy (CVE-2024-0003)')
fix n 'n: fix a regression of the bound' "Fixes: $N1 (\"n: bound a copy (CVE-2024-0003)\")" >/dev/null
P1=$(fix p 'p: fix a leak' 'Fixes: 0123456789ab ("p: add")')
fix p 'p: fix the leak fix' "Fixes: $P1 (\"p: fix a leak\")" >/dev/null
fix q 'q: fix an old bug' "Fixes: $(g rev-parse --short=12 base) (\"base\")" >/dev/null
fix s 's: fix two' "Fixes: $M1 (\"m: add a cache\")
Fixes: $P1 (\"p: fix a leak\")" >/dev/null
fix t 't: fix the cache user' "Fixes: $M1 (\"m: add a cache\")" >/dev/null
merged() { # NAME SUBJECT: commit SUBJECT on branch NAME, merged into main; prints the merge's id
	g checkout -q -b "$1" >/dev/null
	fix "$1" "$2" >/dev/null
	g checkout -q main
	g merge -q --no-ff -m "Merge branch '$1'" "$1"
	g rev-parse --short=12 HEAD
}
W=$(merged w 'w: add a queue')
fix w 'w: fix the queue' "Fixes: $W (\"Merge branch 'w'\")" >/dev/null
X=$(merged x 'x: add a pool')
X1=$(g rev-parse x)
fix x 'x: fix the pool' "Fixes: $X (\"Merge branch 'x'\")" >/dev/null
g tag tip

g checkout -q -b vendor base
g cherry-pick -x "$K1" >/dev/null
g cherry-pick -x "$P1" >/dev/null
g cherry-pick -x "$X1" >/dev/null
