# the boundary: clean < clean-below, dirty > dirty-above
"$TD" compare "$EX/upstream" "$EX/vendor" --clean-below 5 --dirty-above 66 --include 'kernel/**' --include 'mm/**' --format csv | tr -d '\r'
