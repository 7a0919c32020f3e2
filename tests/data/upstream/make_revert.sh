#!/bin/sh
# Upstream commits that later upstream commits revert. Usage: make_revert.sh
# DIR (DIR/r is made).
#
# main (upstream): base (tag base), then, up to tag tip:
#   G1 g.c  Fixes:          G2 reverts it; the vendor has neither  -> both not applicable
#   G2      reverts G1
#   H1 h.c  names a CVE     H2 reverts it and H3 reverts H2: H2 and H3 cancel,
#   H2      reverts H1      and the vendor lacks H1                -> H1 missing
#   H3      reverts H2
#   K1 k.c  Fixes:          the vendor cherry-picks it, K2 reverts it
#   K2      reverts K1      (by an abbreviated id)                 -> K1 applied, K2 missing
# vendor (from base): cherry-pick -x K1.
# The reverts are committed with git revert's message, written out, so
# that the subjects do not depend on the git version ("Reapply").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
. "$here/common.sh"
g init -q r
cd r
for f in g h k; do src $f > $f.c; done
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
g tag tip

g checkout -q -b vendor base
g cherry-pick -x "$K1" >/dev/null
