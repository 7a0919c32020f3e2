# compare --patches with --history: each patch matched to the upstream
# commits (cherry-pick, modified backport, local; declared origins checked,
# two wrong ones caught) and each upstream commit's status in the target
# (applied, partial, missing, not applicable), on the repository
# tests/data/upstream/make_repo.sh builds; --fail-on fix and cve; trend's
# fixes and cves; then --config (e.c not built), a directory target without
# history, JSON against the schema, Markdown (its missing fixes), HTML (ids
# abbreviated, files as in the base) and CycloneDX; then (make_later.sh)
# commits that upstream reverts or fixes later, in every report.
sh "$SRC/tests/data/upstream/make_repo.sh" .
s=0; "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip |
	sed -n '/^Patches: /,$p' || s=$?
echo "exit $s"
echo "--- --fail-on fix and cve: exit 1 when one is missing or partial"
for gate in fix cve; do
	s=0; "$TD" compare -q git:r@base git:r@vendor --history git:r@tip --fail-on $gate >/dev/null || s=$?
	echo "--fail-on $gate: exit $s"
done
s=0; "$TD" compare -q git:r@base git:r@vendor --history git:r@tip --fail-on cve -X c.c >/dev/null || s=$?
echo "--fail-on cve, c.c left out: exit $s"
s=0; "$TD" compare -q git:r@base git:r@vendor --history git:r@tip --fail-on fix -X b.c -X c.c -X d.c -X e.c >/dev/null || s=$?
echo "--fail-on fix, b.c to e.c left out: exit $s"
s=0; "$TD" compare -q git:r@base git:r@vendor --fail-on cve 2>&1 >/dev/null || s=$?
echo "--fail-on cve without --history: exit $s"
echo "--- trend: the fixes and the CVE fixes each release lacks"
"$TD" trend -q git:r@base git:r@vendor git:r@tip --history git:r@tip
echo "--- --config: e.c is not built"
"$TD" compare git:r@base git:r@vendor --history git:r@tip --arch x86 --config e.config | sed -n '/^Missing upstream/,$p'
echo "--- a directory target, no patches: from the content alone"
mkdir tgt && git -C r archive vendor | tar -x -C tgt
"$TD" compare git:r@base tgt --history git:r@tip | sed -n '/^Missing upstream/,$p'
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format json > out.json || true
python3 "$SRC/tests/e2e/validate_json.py" "$SRC/doc/treedrift-compare.schema.json" out.json
python3 - <<'PY'
import json, sys
doc = json.load(open("out.json"))
print("schema ok")
print(doc["upstream_summary"])
for p in doc["patches"]:
    u = p["upstream"]
    c = u["claim"]
    print(p["subject"], "|", u["match"], u["commit"] and u["commit"][:12], u["share"], u["fix"],
          c and (c["status"], c["share"]))
for x in doc["missing_fixes"]:
    print(x["subject"], "|", x["status"], x["reason"], x["patch"] and x["patch"][:12], x["fix"], x["tags"],
          x["lines_in_target"], "of", x["lines"], "as in base", x["files_as_in_base"], x["files"])
PY
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format markdown > out.md || true
grep -o 'verified: [^|]*' out.md || true
sed -n '/^## Missing upstream fixes/,$p' out.md
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format html > out.html || true
grep -c '<tr><td>\(missing\|partial\)</td>' out.html || true
# commit ids abbreviated to git's 12 digits, each with the whole id as its
# title, and the wide tables in a box that scrolls on its own
python3 - <<'PY'
import re
html = open("out.html").read()
ids = re.findall(r'<span class="oid" title="([0-9a-f]*)">([0-9a-f]*)</span>', html)
print("html commit ids:", len(ids), "all abbreviated" if ids and all(
    len(full) == 40 and short == full[:12] for full, short in ids) else "NOT ABBREVIATED")
print("no 40-digit id shown in full:", not re.search(r'>[0-9a-f]{40}<', html))
print("wide tables:", html.count('<div class="wide"><table>'))
print("summary:", re.search(r'<dt>upstream fixes</dt><dd>.*?</dd>', html).group(0))
print("rows with files as in the base:", len(re.findall(r'<td class="n">[^<]*as in the base</td>', html)))
# each patch's origin as verified, and their counts above the table
print("patches:", re.search(r'Against upstream: [^<]*', html).group(0))
head = re.search(r'<h2 id="patches">.*?</thead>', html, re.S).group(0)
print("verified column:", "<th>verified</th>" in head)
for row in re.findall(r'<tr><td>(?:(?!</tr>).)*?<summary>.*?</tr>', html, re.S):
    subject = re.search(r'<summary>(.*?)</summary>', row).group(1)
    cells = re.findall(r'<td[^>]*>(.*?)</td>', re.sub(r'<details>.*?</details>', '', row, flags=re.S))
    print(" ", subject, "|", re.sub(r'<span class="oid" title="[0-9a-f]*">([0-9a-f]*)</span>', r'\1', cells[3]))
PY
"$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format cyclonedx > out.cdx.json || true
python3 "$SRC/tests/e2e/cyclonedx_validate.py" "$SRC/doc/schema/cyclonedx" out.cdx.json && echo "cyclonedx valid"
python3 -c 'import json
for p in json.load(open("out.cdx.json"))["metadata"]["component"]["pedigree"]["patches"]:
    print(p["type"], [(r["type"], r["id"][:12]) for r in p["resolves"]])'
echo "--- reverts and fixes of fixes (make_later.sh): what upstream undid or fixed later"
mkdir later && sh "$SRC/tests/data/upstream/make_later.sh" later
(cd later && "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip |
	sed -n '/^Missing upstream/,$p' || true)
(cd later && "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format markdown |
	sed -n '/^| status/,$p' || true)
(cd later && "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format html |
	grep -o 'fixed later by <span class="oid" title="[0-9a-f]*">[0-9a-f]*</span>' | wc -l || true)
(cd later && "$TD" compare git:r@base git:r@vendor --patches git:r@base..vendor --history git:r@tip --format json |
	python3 -c 'import json, sys
d = json.load(sys.stdin)
ids = {x["id"]: x["subject"] for x in d["missing_fixes"]}
for x in d["missing_fixes"]:
    print(x["subject"], "|", x["status"], x["reason"], "reverted by:", ids.get(x["reverted_by"]),
          "fixed by:", [ids[i] for i in x["fixed_by"]], "reverts:", x["tags"]["reverts"] is not None)' || true)
