# --config with the target as a git revision (the Kbuild files are read from
# the object database) and as an archive (read once more for them); an
# upstream database works as any upstream.
sh "$SRC/tests/data/kernel/make_trees.sh" .
(cd tgt && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m t)
"$TD" scan up -o up.db --label v6.1 -q
"$TD" compare up.db git:tgt@HEAD -q --arch x86 --config x86.config --built-only --format csv | cut -d, -f1,2,13
echo "--- archive:"
tar czf tgt.tar.gz --exclude=.git tgt
"$TD" compare up.db tgt.tar.gz -q --arch x86 --config x86.config --format csv | cut -d, -f1,2,13
