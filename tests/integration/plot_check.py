#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks for tests/integration/plot.sh, independent of lrubench's C code.

  plot_check.py dat RESULTS_DIR OUTDIR    every .dat row against docs/ARCHITECTURE.md §10, computed here
  plot_check.py png FILE WIDTH HEIGHT     PNG signature and IHDR size
  plot_check.py svgsize FILE WIDTH HEIGHT width/height attributes of the root element
"""
import json
import math
import os
import shlex
import struct
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("plot_check: " + msg, file=sys.stderr)
    sys.exit(1)


def stats(samples, better):
    """docs/ARCHITECTURE.md §10: mean row Hmean (higher) / Amean (lower); sample stddev, 0 when n = 1."""
    n = len(samples)
    amean = sum(samples) / n
    if better == "higher":
        mean = n / sum(1.0 / x for x in samples) if all(x > 0 for x in samples) else 0.0
    else:
        mean = amean
    sd = math.sqrt(sum((x - amean) ** 2 for x in samples) / (n - 1)) if n > 1 else 0.0
    return mean, sd, min(samples), max(samples), n


def load_results(root):
    """{label: {workload: {title: (better, {op: samples})}}} from the fixture JSON."""
    out = {}
    for label in sorted(os.listdir(root)):
        d = os.path.join(root, label)
        if not os.path.isfile(os.path.join(d, "run.json")):
            continue
        name = json.load(open(os.path.join(d, "run.json"))).get("label", label)
        wls = out.setdefault(name, {})
        for f in sorted(os.listdir(d)):
            if not f.endswith(".json") or f == "run.json":
                continue
            wl = json.load(open(os.path.join(d, f)))
            tables = wls.setdefault(wl["workload"], {})
            for t in wl["tables"]:
                tables[t["title"]] = (t["better"], {o["op"]: o["samples"] for o in t["ops"]})
    return out


def check_dat(results_root, outdir):
    res = load_results(results_root)
    checked = 0
    seen_ops = set()
    dats = sorted(f for f in os.listdir(outdir) if f.endswith(".dat"))
    if not dats:
        fail("no .dat files in " + outdir)
    for f in dats:
        lines = open(os.path.join(outdir, f), encoding="utf-8").read().split("\n")
        head = lines[0]
        # "# lrubench plot data: <workload> / <title> (<unit>, <better> is better)"
        if not head.startswith("# lrubench plot data: "):
            fail(f"{f}: first line is not the data header: {head!r}")
        rest = head[len("# lrubench plot data: "):]
        workload, rest = rest.split(" / ", 1)
        title = rest[:rest.rindex(" (")]
        label = None
        rows = 0
        for ln in lines[1:]:
            if ln.startswith("# label: "):
                label = ln[len("# label: "):]
                continue
            if not ln.strip() or ln.startswith("#"):
                continue
            cols = shlex.split(ln)
            if len(cols) != 7:
                fail(f"{f}: row has {len(cols)} columns, expected 7: {ln!r}")
            op = cols[0]
            if label is None:
                fail(f"{f}: data row before any '# label:' line")
            try:
                better, ops = res[label][workload][title]
                samples = ops[op]
            except KeyError:
                fail(f"{f}: {label}/{workload}/{title}/{op} is not in the fixture")
            want = stats(samples, better)
            got = [float(c) for c in cols[2:7]]
            for name, w, g in zip(("mean", "stddev", "min", "max", "n"), want, got):
                if abs(w - g) > 5e-5 * max(1.0, abs(w)):
                    fail(f"{f}: {label} {op} {name}: .dat has {g}, expected {w:.6f}")
            if f.endswith("-scaling.dat") or "-scaling-" in f:
                x = float(cols[1])
                if str(int(x)) != op[len(op.rstrip("0123456789")):]:
                    fail(f"{f}: x {cols[1]} is not the number in op {op}")
            seen_ops.add((label, workload, title, op))
            rows += 1
            checked += 1
        if not rows:
            fail(f"{f}: no data rows")
    # every sample set of the fixture is plotted somewhere
    for label, wls in res.items():
        for wl, tables in wls.items():
            for title, (_, ops) in tables.items():
                for op in ops:
                    if (label, wl, title, op) not in seen_ops:
                        fail(f"{label}/{wl}/{title}/{op} is in no .dat")
    print(f"checked {checked} rows in {len(dats)} .dat files")


def check_png(path, width, height):
    data = open(path, "rb").read(33)
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: no PNG signature")
    if data[12:16] != b"IHDR":
        fail(f"{path}: first chunk is not IHDR")
    w, h = struct.unpack(">II", data[16:24])
    if (w, h) != (width, height):
        fail(f"{path}: {w}x{h}, expected {width}x{height}")


def check_svgsize(path, width, height):
    root = ET.parse(path).getroot()
    w, h = root.get("width"), root.get("height")
    if (w, h) != (str(width), str(height)):
        fail(f"{path}: width/height {w}x{h}, expected {width}x{height}")


if __name__ == "__main__":
    if sys.argv[1] == "dat":
        check_dat(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "png":
        check_png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "svgsize":
        check_svgsize(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        fail("unknown check " + sys.argv[1])
