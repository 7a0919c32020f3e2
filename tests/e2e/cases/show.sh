"$TD" scan "$EX/upstream" -o up.db --label v1.2 -q
"$TD" show up.db
