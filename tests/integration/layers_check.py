#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The include graph of src/ against the layer table of docs/ARCHITECTURE.md §1.

Usage: layers_check.py SRC DOC [--known FILE=TARGET ...]

The table is the data: each row of §1's "What each layer may include" table
names a layer in its first cell (`src/core/`, `src/main.c`,
`src/workloads/<name>/`) and, in its third cell, the layers (`vm/`) and
single headers (`compare/stats.h`) it may include; every backticked word of
that cell counts, the prose around them does not. A layer always includes
its own files; `src/workloads/<name>/` means each workload's folder on its
own (one workload never includes another's files).

Every #include of a file under SRC that names a file under SRC ("..." or
<...>: -Isrc serves both; <net/if.h> is not ours and is skipped) is an edge.
An edge the table does not allow is printed as
  src/FILE:LINE: FROM -> TO (HEADER): not allowed: FROM may include its own
  files, ... (docs/ARCHITECTURE.md §1)
A --known FILE=TARGET pair (FILE a path under SRC, or a folder ending in /;
TARGET a layer like profile/) is an edge that is known and being removed: it
is allowed, and a known edge that no longer exists is an error too, so the
list cannot go stale. Exit 0 clean, 1 forbidden or stale edges, 2 the table
cannot be read.
"""
import os
import re
import sys

TABLE_HEADING = "What each layer may include"


def die(msg):
    print("layers_check: " + msg, file=sys.stderr)
    sys.exit(2)


def layer_of(rel):
    """The layer of a path relative to src/: 'main.c', 'core/',
    'workloads/<name>/' (matched by the row src/workloads/<name>/) or
    'workloads/table.c'."""
    parts = rel.split("/")
    if len(parts) == 1:
        return rel
    if parts[0] == "workloads":
        return rel if len(parts) == 2 else "workloads/%s/" % parts[1]
    return parts[0] + "/"


def row_key(layer):
    """The table row a layer is found under."""
    if layer.startswith("workloads/") and layer.endswith("/"):
        return "workloads/<name>/"
    return layer


def read_table(doc, src):
    """{row key: [allowed layers and headers]} from the table in DOC."""
    try:
        with open(doc, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        die("cannot read %s: %s" % (doc, e.strerror))
    try:
        start = next(i for i, l in enumerate(lines) if TABLE_HEADING in l)
    except StopIteration:
        die("%s has no line '%s' before the layer table (§1)" % (doc, TABLE_HEADING))
    rules = {}
    rows = iter(enumerate(lines[start + 1:], start + 2))
    for no, line in rows:
        if line.startswith("|"):
            break
    else:
        die("%s:%d: no table after '%s'" % (doc, start + 1, TABLE_HEADING))
    for no, line in rows:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or set(cells[0]) <= set("-: "):
            continue   # the |---| line
        m = re.fullmatch(r"`src/([^`]+)`", cells[0])
        if not m:
            die("%s:%d: the first cell must be one `src/...` path: %s" % (doc, no, cells[0]))
        allowed = re.findall(r"`([^`]+)`", cells[2])
        for a in allowed:
            if not (a.endswith("/") and os.path.isdir(os.path.join(src, a))) and \
               not (a.endswith(".h") and os.path.isfile(os.path.join(src, a))):
                die("%s:%d: `%s` is neither a folder nor a header under %s" % (doc, no, a, src))
        rules[m.group(1)] = allowed
    if not rules:
        die("%s: the layer table after '%s' has no rows" % (doc, TABLE_HEADING))
    return rules


INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def edges(src):
    """(file, line, header) of every include of a file under src."""
    for top, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, src)
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(2)
                    # "x.h" is looked for beside the file first, then in -Isrc
                    here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                    if m.group(1) == '"' and os.path.isfile(os.path.join(src, here)):
                        yield rel, no, here
                    elif os.path.isfile(os.path.join(src, inc)):
                        yield rel, no, os.path.normpath(inc)


def main(argv):
    if len(argv) < 3:
        die("usage: layers_check.py SRC DOC [--known FILE=TARGET ...]")
    src, doc = argv[1], argv[2]
    known = {}
    args = argv[3:]
    while args:
        if args[0] != "--known" or len(args) < 2 or "=" not in args[1]:
            die("bad argument %s" % args[0])
        f, t = args[1].split("=", 1)
        known[(f, t)] = False
        args = args[2:]
    rules = read_table(doc, src)
    bad = 0
    srcname = os.path.basename(os.path.normpath(src))
    for rel, no, inc in edges(src):
        frm, to = layer_of(rel), layer_of(inc)
        if frm == to:
            continue
        key = row_key(frm)
        if key not in rules:
            print("%s/%s: its layer %s has no row in the table of %s §1" %
                  (srcname, rel, key, doc))
            bad += 1
            continue
        allowed = rules[key]
        if to in allowed or inc in allowed:
            continue
        hit = [k for k in known if (k[0] == rel or rel.startswith(k[0]) and k[0].endswith("/"))
               and k[1] == to]
        if hit:
            for k in hit:
                known[k] = True
            continue
        print("%s/%s:%d: %s -> %s (%s): not allowed: %s may include its own files%s (%s §1)" %
              (srcname, rel, no, frm, to, inc, key,
               "".join(", " + a for a in allowed), doc))
        bad += 1
    for (f, t), seen in known.items():
        if not seen:
            print("known edge %s -> %s no longer exists: take it off the --known list" % (f, t))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
