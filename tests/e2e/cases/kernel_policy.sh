# --policy FILE with weights and per-class thresholds (core: clean below 5,
# so kernel/Makefile at 18 is safe);
# --no-policy; --by-dir and --by-class rollups.
sh "$SRC/tests/data/kernel/make_trees.sh" .
"$TD" compare up tgt -q --arch x86 --policy bsp.policy --by-dir 2 --by-class || echo "exit $?"
echo "--- --no-policy --by-dir 1:"
"$TD" compare up tgt -q --arch x86 --no-policy --by-dir 1 --only dirty || echo "exit $?"
echo "--- --maintainers, --policy builtin:linux on a tree that does not look like Linux:"
rm up/Kconfig tgt/Kconfig
"$TD" compare up tgt -q --arch x86 --maintainers MAINTAINERS --only dirty || echo "exit $?"
"$TD" compare up tgt -q --arch x86 --policy builtin:linux --only dirty | head -7
