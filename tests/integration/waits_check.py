#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No workload waits for its children on its own: the rule of
docs/ARCHITECTURE.md §5 ("no workload has a wait loop for several children
of its own"), checked over the sources.

Usage: waits_check.py SRC [--single FILE=CALL ...]

Several children are a core/child_set.h set (child_set_wait, child_set_watch,
child_set_poll, child_set_stuck). So under SRC/workloads every call of a
wait primitive -- child_wait, child_wait_watched, child_watch_stuck,
child_has_exited, waitpid, waitid, wait, wait3, wait4, pidfd_open -- is an
error, unless a --single FILE=CALL entry (FILE relative to SRC/workloads)
allows it: one entry is one call site that waits for one single child, and
the list in tests/integration/layers.sh says which child. Comments and
string literals do not count. An entry that matches no call is an error
too, so the list cannot go stale. Exit 0 clean, 1 unlisted or stale, 2 bad
arguments.
"""
import os
import re
import sys

CALLS = ("child_wait", "child_wait_watched", "child_watch_stuck", "child_has_exited",
         "waitpid", "waitid", "wait", "wait3", "wait4", "SYS_pidfd_open", "pidfd_open")
# a call, or the syscall number handed to syscall()
CALL = re.compile(r"\b(%s)\b\s*\(|\b(SYS_pidfd_open)\b" %
                  "|".join(c for c in CALLS if c != "SYS_pidfd_open"))
# comments, then string and character literals (kept as "" so lines keep their numbers)
CODE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m):
    t = m.group(0)
    if t.startswith(("//", "/*")):
        return re.sub(r"[^\n]", " ", t)
    return t[0] + " " * (len(t) - 2) + t[-1]


def calls(root):
    """(file, line, call) of every wait primitive called under root."""
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                code = CODE.sub(blank, f.read())
            for no, line in enumerate(code.split("\n"), 1):
                if line.lstrip().startswith("#"):
                    continue   # #include <sys/wait.h>, a macro's name
                for m in CALL.finditer(line):
                    # a declaration or definition of our own is not a call
                    if re.search(r"\b(int|void|bool|pid_t|static)\s+\**\s*$", line[:m.start()]):
                        continue
                    yield rel, no, m.group(1) or m.group(2)


def main(argv):
    if len(argv) < 2:
        print("usage: waits_check.py SRC [--single FILE=CALL ...]", file=sys.stderr)
        return 2
    src = argv[1]
    root = os.path.join(src, "workloads")
    if not os.path.isdir(root):
        print("waits_check: %s has no workloads/ folder" % src, file=sys.stderr)
        return 2
    allowed = {}   # (file, call) -> call sites allowed
    args = argv[2:]
    while args:
        if args[0] != "--single" or len(args) < 2 or "=" not in args[1]:
            print("waits_check: bad argument %s" % args[0], file=sys.stderr)
            return 2
        f, c = args[1].split("=", 1)
        if c not in CALLS:
            print("waits_check: %s is not a wait primitive (%s)" % (c, ", ".join(CALLS)),
                  file=sys.stderr)
            return 2
        allowed[(f, c)] = allowed.get((f, c), 0) + 1
        args = args[2:]
    bad = 0
    srcname = os.path.basename(os.path.normpath(src))
    for rel, no, call in calls(root):
        if allowed.get((rel, call), 0) > 0:
            allowed[(rel, call)] -= 1
            continue
        print("%s/workloads/%s:%d: %s(): a workload watches its children through "
              "core/child_set.h (child_set_wait, child_set_watch, child_set_poll); a wait for "
              "one single child goes on the list of single-child waits (docs/ARCHITECTURE.md §5)"
              % (srcname, rel, no, call))
        bad += 1
    for (f, c), left in sorted(allowed.items()):
        for _ in range(left):
            print("single-child wait %s=%s no longer exists: take it off the list" % (f, c))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
