"$TD" compare "$EX/upstream" "$EX/upstream"
