# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for integration tests. Each test function runs in its own subshell
# with `set -u`; it returns 0 (pass), 77 (skip, last line says why) or
# anything else (fail). Tests run the real ./lrubench as root.

lib_setup() {
  T=$(mktemp -d /tmp/lrubench-test.XXXXXX)
  trap 'lib_teardown' EXIT
  # Each test runs in its own folder: a default -o results/ lands in $T, so
  # no test depends on the checkout's results/ or on what a user's earlier
  # run (the README's demo) left there (issue 30).
  cd "$T" || exit 1
  # run-tests' time limit sends SIGTERM: leave through the EXIT trap
  trap 'exit 143' TERM
}

lib_teardown() {
  rm -rf "$T"
}

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1 (apt-get install ${2:-$1})"; }

# Every line of a file at most 72 columns of printable ASCII (a mail: email.sh, monitors.sh).
assert_mail_safe() {
  python3 - "$1" <<'EOF' || fail "$1 is not 72-column ASCII"
import sys
data = open(sys.argv[1], "rb").read()
for i, line in enumerate(data.split(b"\n"), 1):
    assert len(line) <= 72, "line %d has %d columns: %r" % (i, len(line), line)
    assert all(0x20 <= b < 0x7f for b in line), "line %d: not printable ASCII: %r" % (i, line)
    assert not line.endswith(b" "), "line %d ends in a blank" % i
EOF
}

# assert_flamegraphs DIR SYMBOL: plot's readtwice memcgs-2 flame graphs, one
# a label of two and one of the second against the first, are SVG with more
# than 10 frames, and SYMBOL names a frame of at least two of them
# (profile.sh, vm_profile.sh).
assert_flamegraphs() {
  python3 - "$1" "$2" <<'EOF' || fail "flame graphs in $1"
import os, sys, xml.etree.ElementTree as ET
d, sym = sys.argv[1], sys.argv[2]
ns = "{http://www.w3.org/2000/svg}"
names = sorted(f for f in os.listdir(d) if f.startswith("readtwice-memcgs-2-"))
graphs = [f for f in names if f.endswith("-flamegraph.svg")]
diffs = [f for f in names if f.endswith("-flamegraph-diff.svg")]
assert len(graphs) == 2 and len(diffs) == 1, names
seen = 0
for f in graphs + diffs:
    root = ET.parse(d + "/" + f).getroot()
    assert root.tag == ns + "svg", root.tag
    titles = [t.text or "" for t in root.iter(ns + "title")]
    assert len(titles) > 10, (f, len(titles))
    seen += any(t.startswith(sym) for t in titles)
assert seen >= 2, (sym, seen)
EOF
}

# expect_exit CODE cmd... : run cmd, capture stdout/stderr in $T/out, $T/err
expect_exit() {
  local want=$1; shift
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "command: $*"; echo "--- stdout"; tail -20 "$T/out"; echo "--- stderr"; tail -20 "$T/err"
    fail "exit $rc, expected $want"
  fi
}
assert_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: '$1' != '$2'"; }
assert_file() { [ -f "$1" ] || fail "missing file $1"; }
assert_no_file() { [ ! -e "$1" ] || fail "should not exist: $1"; }
assert_grep() { grep -q -- "$1" "$2" || { echo "--- $2:"; tail -20 "$2"; fail "'$1' not found in $2"; }; }
assert_grep_err() { assert_grep "$1" "$T/err"; }
# jq-free JSON reads through python3 (a test dependency, installed by .ci/run)
# without_cgroup_fs CMD...: CMD in a mount namespace of its own where no
# cgroup or cgroup2 file system is mounted anywhere (deepest first, so a
# hierarchy's copy under another root, a chroot's say, goes too); the
# machine keeps its mounts. For runs that must find no memory controller.
without_cgroup_fs() {
  unshare -m --propagation private sh -c '
    awk '"'"'$0 ~ / - cgroup2? / {print $5}'"'"' /proc/self/mountinfo | sort -r |
      while read -r m; do umount -l "$m" || exit 1; done || exit 125
    if grep -q " - cgroup2\{0,1\} " /proc/self/mountinfo; then
      echo "without_cgroup_fs: a cgroup mount stayed" >&2; exit 125; fi
    exec "$@"' sh "$@"
}
json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$1" "$2"; }
# Poll (bounded, 60 s) until CMD... holds: WHAT names the event in the
# failure. Tests wait for events this way, never sleep a fixed time to pass.
wait_for() {
  local what=$1; shift
  for _ in $(seq 1 600); do
    "$@" && return 0
    sleep 0.1
  done
  fail "timed out waiting for $what"
}

# Nothing lrubench creates may survive a run: cgroups, mounts, loop devices,
# processes. Every such object carries its creator's pid (lrubench-<pid>,
# run-<pid>), so objects of a run that is still alive -- another test suite
# running on the same machine -- are not counted; objects of a dead pid are.
leak_candidates() {
  find /sys/fs/cgroup -maxdepth 3 -type d -name 'lrubench-*' 2>/dev/null | sed 's/^/cgroup /'
  grep lrubench /proc/mounts | awk '{print "mount " $2}'
  losetup -a 2>/dev/null | grep lrubench | sed 's/^/loop /'
}
owner_alive() {
  local pid
  pid=$(printf '%s\n' "$1" | grep -o -E '(lrubench|run)-[0-9]+' | head -1 | grep -o -E '[0-9]+$')
  [ -n "$pid" ] && [ -d "/proc/$pid" ]
}
assert_no_leaks() {
  local left="" line
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    owner_alive "$line" && continue
    left="$left
  $line"
  done < <(leak_candidates)
  [ -z "$left" ] || fail "left behind:$left"
  left=$(pgrep -f "^$LRUBENCH run .*$T" 2>/dev/null)
  [ -z "$left" ] || fail "lrubench processes left behind: $left"
}
