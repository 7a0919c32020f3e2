"$TD" compare "$EX/upstream" "$EX/vendor" --format csv | tr -d '\r'
