# rename and copy detection on a generated pair: a moved file, a copied and
# edited one, a wholly new one, a small moved file; then the options
python3 - <<'PY'
import os, random
def text(seed, n):
    r = random.Random(seed)
    words = ["static", "int", "return", "struct", "void", "if", "else", "for", "unsigned", "long",
             "spin_lock", "mutex", "dev", "priv", "err", "goto", "out", "reg", "val", "->", "(", ")", ";"]
    out, line = [], []
    while sum(len(l) + 1 for l in out) < n:
        line.append(r.choice(words) + str(r.randrange(1000)))
        if len(line) > 8:
            out.append(" ".join(line)); line = []
    return "\n".join(out) + "\n"
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(data)
foo, old, kept = text(1, 6000), text(2, 5000), text(3, 4000)
for side in ("up", "tgt"):
    put(f"{side}/kernel/kept.c", kept)
put("up/drivers/net/foo.c", foo)
put("up/drivers/old/gone.c", old)
put("up/include/tiny.h", "#define TINY 1\n")
lines = foo.splitlines(True)
for i in range(0, len(lines), 12):
    lines[i] = "/* vendor */ " + lines[i]
put("tgt/drivers/net/foo.c", foo)
put("tgt/drivers/net/foo_vendor.c", "".join(lines))
put("tgt/drivers/new/gone.c", old)
put("tgt/include/linux/tiny.h", "#define TINY 1\n")
put("tgt/drivers/misc/secret.c", text(9, 5000))
PY
echo "== default"
$TD compare -q up tgt || echo "exit $?"
echo "== csv"
$TD compare -q -f csv up tgt || echo "exit $?"
echo "== --no-verify-copies --copy-threshold 0 (moves only)"
$TD compare -q --no-verify-copies --copy-threshold 0 up tgt | grep -E 'added|moved|copied' || echo "exit $?"
echo "== --no-origins"
$TD compare -q --no-origins up tgt | grep -E 'added' || echo "exit $?"
echo "== --find-copies on a modified file"
cp tgt/drivers/net/foo_vendor.c tgt/kernel/kept.c
$TD compare -q up tgt | grep kept.c || echo "exit $?"
$TD compare -q --find-copies up tgt | grep kept.c || echo "exit $?"
echo "== from a database"
$TD scan -q up -o up.db --label v1
$TD compare -q -f json up.db tgt | grep -E '"origins"|"origin": \{' | sed 's/"sha256.*"origin"/... "origin"/'
