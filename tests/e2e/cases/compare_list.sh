# what the list shows and in which order: --sort, --identical
echo "== --sort distance"
"$TD" compare "$EX/upstream" "$EX/vendor" --format csv --sort distance | tr -d '\r' | cut -d, -f1-4
echo "== --sort risk"
"$TD" compare "$EX/upstream" "$EX/vendor" --format csv --sort risk | tr -d '\r' | cut -d, -f1-4
echo "== --identical --include 'kernel/**'"
"$TD" compare "$EX/upstream" "$EX/vendor" --format csv --identical --include 'kernel/**' | tr -d '\r' | cut -d, -f1-4
s=0; "$TD" compare "$EX/upstream" "$EX/vendor" --sort size 2>err.txt >/dev/null || s=$?
echo "$s $(cat err.txt)"
