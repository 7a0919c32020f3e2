"$TD" compare "$EX/upstream" "$EX/vendor" --sort distance -q
