# CSV cells a spreadsheet would run as formulas get a quote in front (OWASP);
# --csv-raw writes them as they are. Names from an untrusted tree.
mkdir up t
for n in '=HYPERLINK("http:x")' '+1+1' '-dash' '@SUM(A1)' "$(printf '\tTAB')" "$(printf '\rCR')" 'plain' "a=b"; do
	printf 'content of %s, long enough for a TLSH digest of its own, really\n' "$n" >"up/$n"
	printf 'other content of %s, long enough for a TLSH digest, changed\n' "$n" >"t/$n"
done
echo "== default"
"$TD" compare -q --format csv up t | tr '\r\t' 'RT' || true
echo "== --csv-raw"
"$TD" compare -q --format csv --csv-raw up t | tr '\r\t' 'RT'
