# --arch: arch/* of other architectures is left out of both trees, neither
# counted nor listed; the built-in Linux policy applies to a kernel-like tree.
sh "$SRC/tests/data/kernel/make_trees.sh" .
"$TD" compare up tgt -q --arch x86_64 --sort risk
