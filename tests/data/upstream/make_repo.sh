#!/bin/sh
# A generated upstream history and a vendor branch that covers every
# upstream-provenance outcome once. Usage: make_repo.sh DIR (DIR/r is made).
#
# main (upstream): base (tag base), then, up to tag tip:
#   U1 a.c     Fixes:            vendor cherry-picks it (-x)        -> cherry-pick, applied
#   U2 b.c     Cc: stable        vendor backports it, one line      -> backport (modified), applied
#                                changed, with a cherry-pick line
#   U3 c.c     names a CVE       vendor took 2 of its 4 lines       -> partial
#   U4 d.c     Fixes:            not taken                          -> missing
#   U5 gone.c                    vendor removed gone.c              -> not applicable (file removed)
#   U6 e.c                       e.c not built (CONFIG_E unset)     -> not applicable with --config
#   U7 f.c     no tag            not taken                          -> missing
# vendor (from base):
#   V1 cherry-pick -x U1; V2 U2 modified, "(cherry picked from commit U2)";
#   V3 c.c: its own lines and two of U3's; V4 d.c: its own lines, claiming
#   to be U4 (a wrong claim); V5 removes gone.c; V6 f.c: its own lines,
#   claiming a commit that is nowhere (a wrong claim); V7 a.c: its own.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
. "$here/common.sh"
repo a b c d e f gone
printf 'obj-y += a.o b.o c.o d.o f.o gone.o\nobj-$(CONFIG_E) += e.o\n' > Kbuild
g add -A && g commit -qm base && g tag base

sed -i 's/^int a_v10 = 70;$/int a_v10 = 71; \/* no overflow *\//' a.c
g commit -qam 'a: fix an overflow' -m 'Fixes: 0123456789ab ("a: add a")'
U1=$(g rev-parse HEAD)
sed -i '/^int b_v5 = 35;$/,/^int b_v8 = 56;$/d' b.c
sed -i '4a int b_err1 = check(1);\nint b_err2 = check(2);\nint b_err3 = check(3);\nint b_err4 = check(4);' b.c
g commit -qam 'b: handle errors' -m 'Cc: stable@vger.kernel.org'
U2=$(g rev-parse HEAD)
sed -i '20a int c_cve1 = bound(1);\nint c_cve2 = bound(2);\nint c_cve3 = bound(3);\nint c_cve4 = bound(4);' c.c
g commit -qam 'c: bound the length (CVE-2024-0001)'
U3=$(g rev-parse HEAD)
sed -i 's/^int d_v30 = 210;$/int d_v30 = 211; \/* no leak *\//' d.c
g commit -qam 'd: fix a leak' -m 'Fixes: 89abcdef0123 ("d: add d")'
U4=$(g rev-parse HEAD)
sed -i 's/^int gone_v3 = 21;$/int gone_v3 = 22;/' gone.c
g commit -qam 'gone: fix a race' -m 'Fixes: 456789abcdef ("gone: add")'
sed -i 's/^int e_v3 = 21;$/int e_v3 = 23;/' e.c
g commit -qam 'e: fix a typo' -m 'Fixes: 3456789abcde ("e: add")'
sed -i 's/^int f_v3 = 21;$/int f_v3 = 24;/' f.c
g commit -qam 'f: clean up'
g tag tip

g checkout -q -b vendor base
g cherry-pick -x "$U1" >/dev/null
sed -i '/^int b_v5 = 35;$/,/^int b_v8 = 56;$/d' b.c
sed -i '4a int b_err1 = check(1);\nint b_err2 = check(2);\nint b_err3 = check(3);\nint b_err4 = vendor_check(4);' b.c
g commit -qam 'b: handle errors' -m "(cherry picked from commit $U2)"
sed -i '30a int c_own1 = 1;\nint c_own2 = 2;\nint c_own3 = 3;\nint c_own4 = 4;\nint c_own5 = 5;\nint c_own6 = 6;\nint c_cve1 = bound(1);\nint c_cve2 = bound(2);' c.c
g commit -qam 'c: the vendor tweak'
sed -i '10a int d_own1 = 1;\nint d_own2 = 2;' d.c
g commit -qam 'd: a vendor feature' -m "(cherry picked from commit $U4)"
g rm -q gone.c
g commit -qm 'gone: not needed'
sed -i '5a int f_own1 = 1;' f.c
g commit -qam 'f: a vendor knob' -m '(cherry picked from commit 0badc0ffee0badc0ffee0badc0ffee0badc0ffee)'
sed -i '35a int a_own1 = 1;' a.c
g commit -qam 'a: the vendor own'
printf '# CONFIG_E is not set\n' > ../e.config
