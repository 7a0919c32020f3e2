"$TD" scan "$EX/upstream" -o up.db --label v1.2 -q
"$TD" compare up.db "$EX/vendor" --format json
