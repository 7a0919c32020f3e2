# Errors of the kernel options: each exits 2 with a message.
sh "$SRC/tests/data/kernel/make_trees.sh" .
run() { "$TD" compare "$@" 2>&1 && echo "exit 0" || echo "exit $?"; }
run up tgt -q --arch vax
run up tgt -q --built-only
run up tgt -q --policy bsp.policy --no-policy
run up tgt -q --by-dir 0
printf 'CONFIG_A=y\n' >noarch.config
run up tgt -q --config noarch.config
printf 'CONFIG_A=maybe\n' >bad.config
run up tgt -q --arch x86 --config bad.config
printf '[class core]\nwieght = 2\n' >bad.policy
run up tgt -q --policy bad.policy
"$TD" scan tgt -o tgt.db -q
run up tgt.db -q --arch x86 --config x86.config
