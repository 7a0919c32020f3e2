"$TD" scan "$EX/upstream" -o up.db --label v1.2 -q
"$TD" show up.db | sed 's/database [0-9]* bytes/database N bytes/'
# --versions prints what `treedrift versions` prints, in text and JSON
"$TD" show --versions up.db >show.txt
"$TD" versions up.db | cmp - show.txt && echo "show --versions: as versions"
"$TD" show --versions -f json up.db >show.json
"$TD" versions -f json up.db | cmp - show.json && echo "show --versions -f json: as versions -f json"
"$TD" show -f json up.db | sed -n '1,/^ "label"/p' | sed 's/"database_bytes": [0-9]*/"database_bytes": N/'
