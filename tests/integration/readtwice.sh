# SPDX-License-Identifier: GPL-2.0-or-later
# readtwice's fidelity parts against the real kernel (issue 32): reader = dd
# makes GNU dd's system calls (strace of both on files of one size), the
# per-reader table is the mean of the readers' own rates and compare prints
# its Amean when the run says statistic = amean, file_size = auto sizes by
# vm-scalability's rule and says so in run.json, and with no memory
# controller (the cgroup mounts removed in a mount namespace of the test's
# own; the machine keeps them) memcgs = 0 runs in no memcg and says so.

RT=(-w readtwice --quick --set global.warmup=0 --set readtwice.runtime=1s)

# (LeakSanitizer cannot run under ptrace: a SANITIZE=1 build runs without its
# leak check here.) Reads of FILE-ish names and writes to /dev/null in an strace -y log, per pid:
# "reads writes" of the busiest pid
syscalls_per_reader() {
  python3 - "$1" "$2" <<'PY'
import re, sys, collections
pat = sys.argv[2]
r, w = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r"(\d+)\s+(read|write)\((\d+)<([^>]*)>", line)
    if not m:
        continue
    pid, call, path = m.group(1), m.group(2), m.group(4)
    if call == "read" and path.endswith(pat):
        r[pid] += 1
    # (a path of the run's private mount namespace as strace, outside it,
    # resolves it: in a chroot it carries the chroot's folder in front)
    elif call == "write" and path.endswith("/dev/null"):
        w[pid] += 1
for pid in sorted(r, key=lambda p: -r[p]):
    print(r[pid], w[pid])
PY
}

test_readtwice_reader_dd_makes_dds_syscalls() {
  need_root
  need_cmd strace
  need_cmd dd coreutils
  # GNU dd on a sparse 8M file: a read() per 4 KiB (and the one at EOF), a write() per block
  truncate -s 8M "$T/ddfile"
  strace -f -y -qq -e trace=read,write -o "$T/dd.st" dd bs=4k if="$T/ddfile" of=/dev/null 2>"$T/dd.err" ||
    fail "dd under strace"
  syscalls_per_reader "$T/dd.st" ddfile > "$T/dd.counts"
  assert_eq "$(head -1 "$T/dd.counts")" "2049 2048" "GNU dd's reads and writes of 2048 blocks"
  # lrubench's dd reader on a file of the same size: the same calls per reader
  strace -f -y -qq -e trace=read,write -o "$T/lb.st" env ASAN_OPTIONS=detect_leaks=0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" \
    --label d --set readtwice.memcgs=1 --set readtwice.file_size=8M --set readtwice.reader=dd \
    --set readtwice.runtime=60s --set readtwice.memcg_limit=none >"$T/out" 2>"$T/err" ||
    { cat "$T/err"; fail "run with reader = dd"; }
  syscalls_per_reader "$T/lb.st" readtwice-0 > "$T/lb.counts"
  assert_eq "$(wc -l < "$T/lb.counts")" 2 "two readers read the file"
  assert_eq "$(sed -n 1p "$T/lb.counts")" "2049 2048" "reader 1: dd's calls"
  assert_eq "$(sed -n 2p "$T/lb.counts")" "2049 2048" "reader 2: dd's calls"
  # it stopped at end of file as dd does, and the results say which reader ran
  python3 - "$T/r/d" <<'PY' || fail "readtwice.json of reader = dd"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["config"]["readtwice"]["reader"] == "dd", run["config"]["readtwice"]
assert run["workload_facts"]["readtwice"]["reader"] == "dd"
x = d["details"][0]
assert x["reader"] == "dd" and x["readers_reached_eof"] == 2, x
PY
  # the native reader wraps at EOF instead: no write() to /dev/null at all
  strace -f -y -qq -e trace=read,write -o "$T/nat.st" env ASAN_OPTIONS=detect_leaks=0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" \
    --label n --set readtwice.memcgs=1 --set readtwice.file_size=8M >"$T/out" 2>"$T/err" ||
    fail "run with reader = native"
  syscalls_per_reader "$T/nat.st" readtwice-0 > "$T/nat.counts"
  assert_eq "$(sed -n 1p "$T/nat.counts" | cut -d' ' -f2)" 0 "native: no write per block"
  assert_no_leaks
}

# The per-reader table: each reader's bytes over its own time, averaged (the
# posted awk over dd outputs); statistic = amean gives it an Amean row.
test_readtwice_per_reader_table_and_amean() {
  need_root
  for l in a b; do
    expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 2 -o "$T/r" --label $l --set readtwice.memcgs=2 \
      --set readtwice.file_size=64M --set readtwice.memcg_limit=none --set readtwice.statistic=amean
  done
  python3 - "$T/r/a" <<'PY' || fail "per-reader table"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
t = {x["title"]: x for x in d["tables"]}
per = t["readtwice MB/s per reader"]["ops"][0]["samples"]
agg = t["readtwice MB/s aggregate"]["ops"][0]["samples"]
memcg = t["readtwice MB/s per memcg"]["ops"][0]["samples"]
det = [x for x in d["details"] if x["step"] == "memcgs-2"]
assert len(per) == 2 and len(det) == 2, (per, det)
for p, a, m, x in zip(per, agg, memcg, det):
    own = x["reader_mbps"]
    assert len(own) == 4 and all(v > 0 for v in own), own
    assert abs(sum(own) / 4 - p) < 1e-6 * p, (own, p)
    # and from the readers' own byte counts and seconds, as dd prints them
    b, t = x["reader_bytes"], x["reader_seconds"]
    assert len(b) == 4 and len(t) == 4 and all(v > 0 for v in b + t), x
    mean = sum(bb / 1e6 / tt for bb, tt in zip(b, t)) / 4
    assert abs(mean - p) < 1e-6 * p, (b, t, p)
    assert abs(a / 4 - p) < 1e-6 * p and abs(m / 2 - p) < 1e-6 * p, (a, m, p)
PY
  expect_exit 0 "$LRUBENCH" compare "$T/r/a" "$T/r/b"
  grep -A12 "readtwice MB/s per reader" "$T/out" > "$T/per"
  assert_grep "^Amean" "$T/per"
  grep -q "^Hmean" "$T/per" && fail "statistic = amean still prints Hmean"
  # without the hint: mmtests' Hmean
  for l in c d; do
    expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 2 -o "$T/h" --label $l --set readtwice.memcgs=1 \
      --set readtwice.file_size=64M
  done
  expect_exit 0 "$LRUBENCH" compare "$T/h/c" "$T/h/d"
  grep -A12 "readtwice MB/s per reader" "$T/out" > "$T/per"
  assert_grep "^Hmean" "$T/per"
  assert_no_leaks
}

test_readtwice_file_size_auto_says_its_rule() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label z --set readtwice.memcgs=2 \
    --set readtwice.file_size=auto --set readtwice.memcg_limit=none
  assert_grep "readtwice: file_size = auto" "$T/out"
  python3 - "$T/r/z" <<'PY' || fail "file_sizing fact"
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
d = json.load(open(sys.argv[1] + "/readtwice.json"))
fs = run["workload_facts"]["readtwice"]["file_sizing"]
assert fs["rotate_bytes"] == min(1 << 42, fs["mem_available"] << 8), fs
assert fs["divisor"] == 1 and fs["files"] == 2, fs
assert fs["file_size"] == fs["rotate_bytes"] // 4096 * 4096, fs
assert fs["mem_available"] > 0 and "ROTATE_BYTES" in fs["formula"], fs
assert run["config"]["readtwice"]["file_size"] == "auto"
# terabytes: no reader reached the end in 1 s
assert all(x["readers_reached_eof"] == 0 for x in d["details"]), d["details"]
PY
  # a fixed size says so too
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label f --set readtwice.memcgs=1 \
    --set readtwice.file_size=64M
  assert_eq "$(json_get "$T/r/f/run.json" '["workload_facts"]["readtwice"]["file_sizing"]["file_size"]')" \
    67108864 "fixed size recorded"
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" -o "$T/r" --label b --set readtwice.file_size=automatic
  assert_grep_err "readtwice.file_size: 'automatic' is not a size"
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" -o "$T/r" --label b --set readtwice.reader=cat
  assert_grep_err "readtwice.reader: 'cat' is not one of native|dd"
  assert_no_leaks
}

# No memory controller: memcgs = 0 measures, in no memcg, and says so;
# memcgs > 0 is exit 3 naming the count.
test_readtwice_without_memory_controller() {
  need_root
  need_cmd unshare util-linux
  expect_exit 0 without_cgroup_fs "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label n \
    --set readtwice.memcgs=0 --set readtwice.file_size=64M --set readtwice.reader=dd
  python3 - "$T/r/n" <<'PY' || fail "results without a memory controller"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["status"] == "complete"
titles = [t["title"] for t in d["tables"] if not t.get("explains")]
assert "readtwice MB/s per memcg" not in titles, titles
assert "readtwice MB/s per reader" in titles and "readtwice MB/s aggregate" in titles, titles
x = d["details"][0]
assert "no memory controller" in x["memory_controller"], x
assert not any(k.startswith("memcg_pg") for k in x), x
assert all(v > 0 for v in x["reader_mbps"]), x
PY
  expect_exit 3 without_cgroup_fs "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label m \
    --set readtwice.memcgs=0,2
  assert_grep_err "readtwice.memcgs = 2 needs one"
  assert_no_file "$T/r/m"
  assert_no_leaks
}

# cgroup v1 has no per-memcg pgscan/pgsteal; pgpgout counts the folios
# uncharged from the memcg alone (reclaimed, or lost a read race), which
# bench/readtwice-vs-vmscalability compares where /proc/vmstat counts every
# user of a shared machine. Two memcgs at the smallest limit,
# each reader wrapping over a file four times the limit: every memcg reclaims,
# and its pgpgout says so.
test_readtwice_memcg_pgpgout_on_v1() {
  need_root
  grep -q '^cgroup [^ ]* cgroup [^ ]*memory' /proc/mounts || skip "no cgroup v1 memory hierarchy"
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label p --set readtwice.memcgs=2 \
    --set readtwice.file_size=64M --set readtwice.memcg_limit=16M --set readtwice.runtime=2s
  python3 - "$T/r/p" <<'PY' || fail "pgpgout of each memcg"
import json, sys
x = json.load(open(sys.argv[1] + "/readtwice.json"))["details"][0]
own = x["memcg_pgpgout"]
assert len(own) == 2 and all(v > 0 for v in own), x
assert x["pgpgout_total"] == sum(own), x
PY
  assert_no_leaks
}

# fs_per_memcg = yes: each memcg's file on a filesystem of its own (a tmpfs,
# a sparse image, a loop device, ext4, a mount per memcg, as each posted
# container had its own XFS), told by the files' devices in run.json; all of
# it gone after a complete run, after SIGINT and after SIGKILL while the
# filesystems are mounted (the loop devices are visible outside the run's
# mount namespace; the mounts are not, and go with it).
rt_fs_loops() {   # the loop devices of a run's per-memcg images
  losetup -a 2>/dev/null | grep -c "run-$1/readtwice/fs-"
}
rt_left_by() {   # what run PID left: its cgroups, mounts, loop devices
  leak_candidates | grep -E "(lrubench|run)-$1([^0-9]|$)"
}

test_readtwice_fs_per_memcg() {
  need_cmd mkfs.ext4 e2fsprogs
  local sig pid rc i
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label f \
    --set readtwice.memcgs=1,3 --set readtwice.file_size=64M \
    --set readtwice.fs_per_memcg=yes --set global.sparse_size=1G
  assert_grep "3 filesystems, one per memcg (loop-ext4, image 1G each)" "$T/out"
  python3 - "$T/r/f/run.json" <<'PY' || fail "the files' filesystems"
import json, sys
f = json.load(open(sys.argv[1]))["workload_facts"]["readtwice"]
assert f["fs_per_memcg"] is True, f
assert len(f["file_devices"]) == 3 and len(set(f["file_devices"])) == 3, f
PY
  assert_no_leaks
  # the default: one filesystem for every file
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label s \
    --set readtwice.memcgs=2 --set readtwice.file_size=64M
  python3 - "$T/r/s/run.json" <<'PY' || fail "one shared filesystem"
import json, sys
f = json.load(open(sys.argv[1]))["workload_facts"]["readtwice"]
assert f["fs_per_memcg"] is False and len(set(f["file_devices"])) == 1, f
PY
  for sig in INT KILL; do
    "$LRUBENCH" run "${RT[@]}" -i 3 -o "$T/r" --label "k$sig" --set readtwice.memcgs=3 \
      --set readtwice.file_size=64M --set readtwice.fs_per_memcg=yes \
      --set global.sparse_size=1G --set readtwice.runtime=20s >"$T/out" 2>"$T/err" &
    pid=$!
    for i in $(seq 1 600); do
      [ "$(rt_fs_loops "$pid")" = 3 ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ "$(rt_fs_loops "$pid")" = 3 ] || { kill -KILL "$pid"; fail "no 3 loop devices"; }
    kill -"$sig" "$pid"
    wait "$pid"; rc=$?
    [ "$sig" = KILL ] || assert_eq "$rc" 130 "exit after SIGINT"
    for i in $(seq 1 100); do
      [ "$(rt_fs_loops "$pid")" = 0 ] && break
      sleep 0.1
    done
    assert_eq "$(rt_fs_loops "$pid")" 0 "loop devices left after SIG$sig"
    # a SIGKILLed run undoes nothing: its memcgs are a dead pid's, which the
    # next run removes (another run on this machine may sweep them first)
    [ "$sig" = KILL ] && expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label "n$sig" \
      --set readtwice.memcgs=1 --set readtwice.file_size=16M --set readtwice.runtime=1s
    # (not assert_no_leaks: on a shared machine another run may be ending just now)
    wait_for "the cgroups of the run killed by SIG$sig" eval '[ -z "$(rt_left_by "$pid")" ]'
  done
  # a folder is not a filesystem made per memcg
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" -o "$T/r" --label d --set readtwice.fs_per_memcg=yes \
    --set "global.sparse_root=dir:$T"
  assert_grep_err "readtwice.fs_per_memcg=yes needs global.sparse_root = loop-ext4 or loop-xfs"
}
