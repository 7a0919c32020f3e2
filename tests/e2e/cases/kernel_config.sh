# --config: which files the .config builds, from the target's Kbuild files
# (obj-y, obj-$(CONFIG_X), composite bar-y/baz-objs, subdir-y, dir/); built
# and not-built totals; the unknown $(shell ...) is reported on stderr.
sh "$SRC/tests/data/kernel/make_trees.sh" .
"$TD" compare up tgt --arch x86 --config x86.config 2>err.txt || echo "exit $?"
echo "--- stderr:"
cat err.txt
echo "--- --built-only:"
"$TD" compare up tgt -q --arch x86 --config x86.config --built-only --no-policy || echo "exit $?"
echo "--- without --arch (the .config's header names x86_64): other architectures are not built"
"$TD" compare up tgt -q --config x86.config --no-policy --format csv | grep '^arch/' | cut -d, -f1,2,13
