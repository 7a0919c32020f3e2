s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --fail-on dirty --exclude 'drivers/' --format csv > /dev/null || s=$?
echo "no dirty file outside drivers/: exit $s"
s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --fail-on dirty --format csv > /dev/null || s=$?
echo "with drivers/: exit $s"
# A tree whose only drift is added files: new, not dirty
mkdir -p up tgt
seq 1 300 | sed 's/^/upstream line /' > up/a.c
cp up/a.c tgt/a.c
seq 1 300 | sed 's/^/a new driver, line /' > tgt/new-driver.c
for gate in dirty safe clean new; do
	s=0; "$TD" compare -q up tgt --fail-on "$gate" > /dev/null || s=$?
	echo "only an added file, --fail-on $gate: exit $s"
done
s=0; "$TD" compare -q up tgt --fail-on dirty --fail-on new > /dev/null || s=$?
echo "only an added file, --fail-on dirty --fail-on new: exit $s"
s=0; "$TD" compare -q up tgt --fail-on grimy > /dev/null 2>&1 || s=$?
echo "--fail-on grimy: exit $s"
