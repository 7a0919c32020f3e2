# lines with ANSI colour: only when asked or on a terminal, never in a pipe by default or in CSV;
# NO_COLOR (set by the harness) wins over auto
"$TD" compare "$EX/upstream" "$EX/vendor" --color always --only dirty | grep -c $'\033' || true
"$TD" compare "$EX/upstream" "$EX/vendor" --only dirty | grep -c $'\033' || true
"$TD" compare "$EX/upstream" "$EX/vendor" --color never --only dirty | grep -c $'\033' || true
"$TD" compare "$EX/upstream" "$EX/vendor" --color always --format csv | grep -c $'\033' || true
s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --color sometimes 2>err.txt >/dev/null || s=$?
echo "$s $(cat err.txt)"
# on a terminal (script(1), from Debian's essential bsdutils, gives one): colour by default, none with NO_COLOR
env -u NO_COLOR script -qec "$TD compare -q $EX/upstream $EX/vendor --only dirty" /dev/null | grep -c $'\033' || true
NO_COLOR=1 script -qec "$TD compare -q $EX/upstream $EX/vendor --only dirty" /dev/null | grep -c $'\033' || true
