# symlinks in show: recorded, never followed; -f json flags those that point
# outside the tree (link_outside), as scan warns about them
mkdir t t/sub
printf 'a file long enough to get a TLSH digest of its own, surely it is\n' >t/sub/file.txt
ln -s file.txt t/sub/in-tree
ln -s ../sub t/sub/up-inside
ln -s /etc/passwd t/absolute
ln -s ../../outside t/sub/climbing
"$TD" scan t -o t.db --label links 2>&1
"$TD" show t.db | sed -n '/^version /,$p'
"$TD" show -f json t.db | sed -n '/"entries"/,$p'
