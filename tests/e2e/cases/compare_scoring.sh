# scoring options: --no-length drops the length term, --added-distance scores new files
"$TD" compare "$EX/upstream" "$EX/vendor" --format csv | tr -d '\r' | cut -d, -f1-4 >default.csv
"$TD" compare "$EX/upstream" "$EX/vendor" --format csv --no-length --added-distance 120 | tr -d '\r' | cut -d, -f1-4 >scored.csv
echo "== default"; cat default.csv
echo "== --no-length --added-distance 120"; cat scored.csv
echo "== bad values"
for a in "--added-distance -1" "--added-distance x" "--clean-below 200 --dirty-above 100"; do
	s=0; $TD compare $a "$EX/upstream" "$EX/vendor" >/dev/null 2>err.txt || s=$?
	echo "$s $(head -n 1 err.txt)"
done
