#!/usr/bin/env python3
"""Calibrate line scores of small files against TLSH (doc/calibration.md).

Usage: bench/calibrate_lines.py REPORT.json UPSTREAM TARGET [REPORT.json UPSTREAM TARGET ...]

Each REPORT is `treedrift compare -f json --tlsh-small-files UPSTREAM TARGET`
(line counts on, the default); UPSTREAM and TARGET are directories or
git:REPO@REV, as given to compare. For every modified regular file with line
counts, the changed-line fraction is

    fraction = (lines_added + lines_removed) / (lines(upstream) + lines(target))

(lines as git counts them). Files with both sides at least MIN_BYTES (4096)
bytes, where TLSH is reliable, fit the table: the fraction bins below, and in
each the median TLSH distance; a table row is (bin's median fraction, median
distance), made non-decreasing and capped at 300, the score of a wholly new file. Prints the Markdown table, the C rows of
lib/match/lines.c, and the Spearman correlation of distance and fraction per
size band (both sides under 256, 1024, 4096 bytes, and above), which shows
where TLSH stops following the change.
"""
import json
import statistics
import subprocess
import sys

MIN_BYTES = 4096
CAP = 300  # the score of a wholly new file (TD_DEFAULT_ADDED_DISTANCE): no change scores more
EDGES = [0, 0.005, 0.01, 0.02, 0.04, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.55, 0.7, 0.85, 1.0001]
BANDS = [(0, 256), (256, 1024), (1024, 4096), (4096, 1 << 62)]


class Side:
    def __init__(self, spec):
        self.spec = spec
        self.cat = None
        if spec.startswith("git:"):
            repo, rev = spec[4:].rsplit("@", 1)
            self.repo, self.rev = repo, rev
            self.cat = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)

    def read(self, path):
        if not self.cat:
            with open(self.spec + "/" + path, "rb") as f:
                return f.read()
        self.cat.stdin.write(f"{self.rev}:{path}\n".encode())
        self.cat.stdin.flush()
        header = self.cat.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            return None
        data = self.cat.stdout.read(int(header[2]))
        self.cat.stdout.read(1)
        return data


def lines(data):
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    points = []  # (fraction, distance, min size)
    for k in range(0, len(args), 3):
        report, up, tg = json.load(open(args[k])), Side(args[k + 1]), Side(args[k + 2])
        for f in report["files"]:
            if f["status"] != "modified" or f["type"] != "file" or f["lines"] != "counted" or f["fallback"]:
                continue
            a, b = up.read(f["path"]), tg.read(f["path"])
            if a is None or b is None:
                continue
            n = lines(a) + lines(b)
            if not n:
                continue
            frac = (f["lines_added"] + f["lines_removed"]) / n
            points.append((frac, f["distance"], min(len(a), len(b)), max(len(a), len(b))))
    print(f"modified files with line counts: {len(points)}\n")
    print("| both sides | files | Spearman (distance, fraction) |\n| --- | --- | --- |")
    for lo, hi in BANDS:
        sel = [p for p in points if lo <= p[3] < hi] if hi < (1 << 62) else [p for p in points if p[2] >= lo]
        name = f"larger side {lo}–{hi - 1} bytes" if hi < (1 << 62) else f"both ≥ {lo} bytes"
        print(f"| {name} | {len(sel)} | {spearman([p[1] for p in sel], [p[0] for p in sel]):.2f} |")
    fit = [p for p in points if p[2] >= MIN_BYTES]
    print(f"\nfit on {len(fit)} files with both sides ≥ {MIN_BYTES} bytes\n")
    print("| changed-line fraction | files | median fraction | median TLSH distance | table distance |")
    print("| --- | --- | --- | --- | --- |")
    rows = [(0.0, 0)]
    for lo, hi in zip(EDGES, EDGES[1:]):
        sel = [p for p in fit if lo <= p[0] < hi and p[0] > 0]
        if len(sel) < 5:
            continue
        mf = statistics.median(p[0] for p in sel)
        md = statistics.median(p[1] for p in sel)
        d = min(max(int(round(md)), rows[-1][1]), CAP)
        rows.append((mf, d))
        print(f"| {lo:g} – {min(hi, 1):g} | {len(sel)} | {mf:.4f} | {md:g} | {d} |")
    print("\nC rows for lib/match/lines.c:")
    for f, d in rows:
        print(f"\t{{ {f:.4f}, {d} }},")


if __name__ == "__main__":
    main()
