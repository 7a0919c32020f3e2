#!/usr/bin/env python3
"""Line-similarity oracle for copy detection, outside the product.

Usage: bench/copies_oracle.py REPO BASE TARGET [REPORT.json] [--threshold T] [--min-lines N] [--same-ext]

For each file that TARGET adds to BASE (the paths of TARGET that BASE does
not have) and that has at least N lines (default 10: a copy claim on a
two-line Makefile means nothing either way), the oracle similarity is the best
line similarity over all BASE files (with --same-ext: of the same extension):

    similarity(a, b) = 2 * unchanged / (lines(a) + lines(b))

with unchanged = lines(a) - deleted and the counts of `git diff --numstat
BASE_BLOB TARGET_BLOB` (git's default diff, exact lines, no normalisation).
The extension is what follows the last '.' of the file name; a name
without one uses what follows its last '_' (defconfig), else the whole name
(Makefile, Kconfig). To keep it to a few thousand diffs, only the 12 base
files with the highest bound are diffed per added file; the bound is
2 * |common lines as a multiset| / (lines(a) + lines(b)), which no diff can
exceed, so a pair outside the 12 is diffed too when its bound beats the best
found. The oracle calls a file a copy when its similarity is >= T (default
0.5, as treedrift's TD_DEFAULT_COPY_SIMILARITY).

Prints one line per added file (oracle similarity, best base file) and,
given treedrift's JSON report of the same comparison, precision and recall
of its origins (copied or moved) against the oracle.
"""
import collections
import json
import subprocess
import sys

TOP = 12


def git(repo, *args, data=None):
    return subprocess.run(["git", "-C", repo, *args], input=data, capture_output=True, check=True).stdout


def ext_of(path):
    name = path.rsplit("/", 1)[-1]
    if "." in name:
        return name.rsplit(".", 1)[1]
    if "_" in name:
        return name.rsplit("_", 1)[1]
    return name


def blobs(repo, rev):
    out = {}
    for line in git(repo, "ls-tree", "-r", "-z", rev).split(b"\0"):
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        mode, kind, oid = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755"):
            out[path.decode("utf-8", "surrogateescape")] = oid.decode()
    return out


def read_blobs(repo, oids):
    p = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    content = {}
    for oid in oids:
        p.stdin.write(oid.encode() + b"\n")
        p.stdin.flush()
        header = p.stdout.readline().split()
        size = int(header[2])
        content[oid] = p.stdout.read(size)
        p.stdout.read(1)
    p.stdin.close()
    p.wait()
    return content


def lines_of(data):
    if not data:
        return []
    ls = data.split(b"\n")
    if data.endswith(b"\n"):
        ls.pop()
    return ls


def similarity(repo, a_oid, b_oid, na, nb):
    if a_oid == b_oid:
        return 1.0
    out = git(repo, "diff", "--numstat", a_oid, b_oid).split()
    if not out or out[0] == b"-":
        return 0.0
    added, deleted = int(out[0]), int(out[1])
    return 2.0 * (na - deleted) / (na + nb) if na + nb else 1.0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    threshold = 0.5
    min_lines = 10
    same_ext = "--same-ext" in sys.argv
    if "--min-lines" in sys.argv:
        min_lines = int(sys.argv[sys.argv.index("--min-lines") + 1])
        args.remove(sys.argv[sys.argv.index("--min-lines") + 1])
    if "--threshold" in sys.argv:
        threshold = float(sys.argv[sys.argv.index("--threshold") + 1])
        args.remove(sys.argv[sys.argv.index("--threshold") + 1])
    repo, base, target = args[:3]
    report = args[3] if len(args) > 3 else None
    up = blobs(repo, base)
    tg = blobs(repo, target)
    added = sorted(p for p in tg if p not in up)
    content = read_blobs(repo, set(up.values()) | {tg[p] for p in added})
    by_ext = collections.defaultdict(list)
    for path, oid in up.items():
        by_ext[ext_of(path) if same_ext else ""].append(path)
    index = {}
    nlines = {}
    for e, paths in by_ext.items():
        inv = collections.defaultdict(list)
        for path in paths:
            c = collections.Counter(lines_of(content[up[path]]))
            nlines[path] = sum(c.values())
            for line, k in c.items():
                inv[line].append((path, k))
        index[e] = inv
    oracle = {}
    for path in added:
        data = content[tg[path]]
        c = collections.Counter(lines_of(data))
        n = sum(c.values())
        if n < min_lines:
            continue
        common = collections.Counter()
        for line, k in c.items():
            for other, m in index.get(ext_of(path) if same_ext else "", {}).get(line, ()):
                common[other] += min(k, m)
        bounds = sorted(((2.0 * v / (n + nlines[o]), o) for o, v in common.items()), reverse=True)
        best, best_path = 0.0, None
        for i, (bound, other) in enumerate(bounds):
            if bound <= best or (i >= TOP and bound < threshold):
                break
            s = similarity(repo, up[other], tg[path], nlines[other], n)
            if s > best:
                best, best_path = s, other
        oracle[path] = (best, best_path)
        print(f"{best:.3f}\t{path}\t{best_path or '-'}")
    if not report:
        return
    d = json.load(open(report))
    claimed = {f["path"]: f["origin"] for f in d["files"]
               if f["status"] == "added" and f["origin"] and f["path"] in oracle}
    truth = {p for p, (s, _) in oracle.items() if s >= threshold}
    tp = len(truth & set(claimed))
    fp = sorted(set(claimed) - truth)
    fn = sorted(truth - set(claimed))
    precision = tp / len(claimed) if claimed else 1.0
    recall = tp / len(truth) if truth else 1.0
    for p in fp:
        print(f"false copy\t{p}\t{claimed[p]['path']}\toracle {oracle[p][0]:.3f}", file=sys.stderr)
    for p in fn:
        print(f"missed copy\t{p}\t{oracle[p][1]}\toracle {oracle[p][0]:.3f}", file=sys.stderr)
    print(f"added {len(added)} judged {len(oracle)} oracle_copies {len(truth)} claimed {len(claimed)} true {tp} "
          f"precision {precision:.3f} recall {recall:.3f}")


if __name__ == "__main__":
    main()
