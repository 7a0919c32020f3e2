# JSON with --config: each file has a boolean built (null and support true
# for headers and build files), the build totals, the kernel block, rollups;
# CSV has the built column.
sh "$SRC/tests/data/kernel/make_trees.sh" .
"$TD" compare up tgt -q --arch x86 --config x86.config --by-dir 1 --format json |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
print("kernel", json.dumps(d["kernel"], sort_keys=True))
print("build", json.dumps(d["totals"]["build"], sort_keys=True))
print("by_dir", d["rollups"]["by_dir_depth"], [(r["key"], r["distance"]) for r in d["rollups"]["by_dir"]])
for f in d["files"]:
    print(f["path"], f["status"], f["built"], f["support"], f["policy_class"], f["risk"])
'
echo "--- csv:"
"$TD" compare up tgt -q --arch x86 --config x86.config --format csv | cut -d, -f1,2,11-13
