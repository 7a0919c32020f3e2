s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --fail-on dirty --exclude 'drivers/' --format csv > /dev/null || s=$?
echo "no dirty file outside drivers/: exit $s"
s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --fail-on dirty --format csv > /dev/null || s=$?
echo "with drivers/: exit $s"
