# SPDX-License-Identifier: GPL-2.0-or-later
# mmapread against the real kernel: real memcgs (and the root memory cgroup
# for memcgs = 0), real sparse files on a real ext4 over a loop device, real
# page-cache faults; results checked against the details the run recorded;
# SIGINT and a second SIGINT mid-run leave no cgroup, mount or task; the
# probe without a memory controller; each bad input with its exit code.

MR=(-w mmapread --quick --set global.warmup=0 --set mmapread.runtime=1s --set mmapread.file_size=64M)

# pids in the run's mmapread memcgs
mr_tasks_of() { cat /sys/fs/cgroup/memory/lrubench-$1/mmapread-*/cgroup.procs \
  /sys/fs/cgroup/lrubench-$1/mmapread-*/cgroup.procs 2>/dev/null; }
mr_has_tasks() { [ -n "$(mr_tasks_of "$1")" ]; }
mr_in_root_memcg() {
  local c
  for c in $(pgrep -P "$1"); do
    grep -E '^[0-9]+:memory:|^0::' "/proc/$c/cgroup" 2>/dev/null | head -1 | grep -qE ':/$' && return 0
  done
  return 1
}

test_mmapread_quick_run() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${MR[@]}" -i 2 -o "$T/r" --label a --set mmapread.memcgs=0,2 \
    --set mmapread.tasks_per_memcg=2
  assert_eq "$(json_get "$T/r/a/run.json" '["status"]')" complete "status"
  assert_eq "$(json_get "$T/r/a/run.json" '["workload_facts"]["mmapread"]["files"]')" 4 "files made"
  python3 - "$T/r/a" <<'PY' || fail "mmapread.json"
import json, sys
d = json.load(open(sys.argv[1] + "/mmapread.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
tables = {t["title"]: t for t in d["tables"] if not t.get("explains")}   # profile tables explain these (issue 13)
assert sorted(tables) == ["mmapread MB/s aggregate", "mmapread MB/s per task"], sorted(tables)
for t in tables.values():
    assert t["unit"] == "MB/s" and t["better"] == "higher", t
    assert t["x_axis"] == {"name": "memory cgroups", "unit": "count"}, t["x_axis"]
    assert [o["op"] for o in t["ops"]] == ["memcgs-0", "memcgs-2"], t["ops"]
agg = {o["op"]: o["samples"] for o in tables["mmapread MB/s aggregate"]["ops"]}
per = {o["op"]: o["samples"] for o in tables["mmapread MB/s per task"]["ops"]}
b = run["numa_binding"]
for op, ntasks in (("memcgs-0", 2), ("memcgs-2", 4)):
    det = [x for x in d["details"] if x["step"] == op]
    assert len(det) == 2 and len(agg[op]) == 2, (op, det, agg[op])
    for x, a, p in zip(det, agg[op], per[op]):
        # the aggregate is the sum of the tasks' rates; per task, their mean
        assert len(x["task_mbps"]) == ntasks, x
        assert abs(sum(x["task_mbps"]) - a) < 1e-6 * a and a > 0, (x["task_mbps"], a)
        assert abs(a / ntasks - p) < 1e-6 * a, (a, p)
        assert all(c in b["cpus"] for c in x["task_cpus"]), (x["task_cpus"], b)
        if b["node"] != "none":
            assert all(n == b["node"] for n in x["task_nodes"]), x["task_nodes"]
    # the memcgs' own counters saw the faults (a 1 s read of 64M files
    # faults at least one 16-page window per file)
    for x in det:
        if op == "memcgs-2" and "pgfault_total" in x:
            assert x["pgfault_total"] >= ntasks, x
PY
  assert_grep "mmapread MB/s aggregate" "$T/out"
  assert_grep "^mmapread: 2 tasks per memcg, a file each of 64M, evict=fadvise" "$T/out"
  assert_no_leaks
}

test_mmapread_shared_file_and_reclaim() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${MR[@]}" -i 1 -o "$T/r" --label s --set mmapread.memcgs=2 \
    --set mmapread.shared_file=yes --set mmapread.evict=reclaim --set mmapread.memcg_limit=32M
  assert_eq "$(json_get "$T/r/s/run.json" '["workload_facts"]["mmapread"]["files"]')" 1 "one shared file"
  assert_eq "$(json_get "$T/r/s/run.json" '["config"]["mmapread"]["evict"]')" reclaim "evict"
  assert_no_leaks
}

# memcgs = 0: the controller on, the tasks in the root memory cgroup; and a
# SIGINT mid-run ends it with 130 and leaves nothing.
test_mmapread_memcgs_zero_in_root_then_sigint() {
  need_root
  grep -E '^[0-9]+:memory:|^0::' /proc/$$/cgroup | head -1 | grep -qE ':/$' &&
    skip "this shell already runs in the root memory cgroup: nothing to tell apart"
  "$LRUBENCH" run "${MR[@]}" -i 3 -o "$T/r" --label z --set mmapread.memcgs=0 \
    --set mmapread.runtime=30s >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for "a task in the root memory cgroup" mr_in_root_memcg $pid
  kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after SIGINT"
  assert_eq "$(json_get "$T/r/z/run.json" '["status"]')" interrupted "status"
  assert_no_leaks
}

test_mmapread_sigint_and_double_sigint_leave_nothing() {
  need_root
  "$LRUBENCH" run "${MR[@]}" -i 3 -o "$T/r" --label i --set mmapread.memcgs=2 \
    --set mmapread.runtime=30s >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for "tasks in memcgs" mr_has_tasks $pid
  kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after SIGINT"
  assert_grep_err "interrupted"
  assert_no_leaks
  "$LRUBENCH" run "${MR[@]}" -i 3 -o "$T/r" --label d --set mmapread.memcgs=2 \
    --set mmapread.runtime=30s >"$T/out" 2>"$T/err" &
  pid=$!
  wait_for "tasks in memcgs" mr_has_tasks $pid
  kill -INT $pid; kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after two SIGINTs"
  assert_no_leaks
}

# A machine without a memory cgroup controller: the cgroup mounts are
# removed in a mount namespace of the test's own (the machine keeps them).
test_mmapread_probe_without_memcg() {
  need_root
  need_cmd unshare util-linux
  expect_exit 3 without_cgroup_fs "$LRUBENCH" run "${MR[@]}" -i 1 -o "$T/r" --label p
  assert_grep_err "workload mmapread cannot run here: no memory cgroup controller"
  assert_no_file "$T/r/p"
  assert_no_leaks
}

# The memory hierarchy mounted a second time elsewhere (a chroot's /sys, as
# a leftover root left it on CI once): hiding /sys/fs/cgroup alone let the run
# find that copy. Both copies live in the test's own mount namespace.
test_mmapread_probe_without_memcg_despite_a_second_mount() {
  need_root
  need_cmd unshare util-linux
  grep -q ' - cgroup .*memory' /proc/self/mountinfo || skip "needs cgroup v1's memory hierarchy"
  mkdir "$T/cg"
  expect_exit 3 unshare -m --propagation private bash -c \
    'mount -t cgroup -o memory none "$1" || exit 125; shift; . "$0"; without_cgroup_fs "$@"' \
    "$LRUBENCH_SRC/tests/integration/lib.sh" "$T/cg" \
    "$LRUBENCH" run "${MR[@]}" -i 1 -o "$T/r" --label p
  assert_grep_err "workload mmapread cannot run here: no memory cgroup controller"
  assert_no_file "$T/r/p"
  assert_no_leaks
}

test_mmapread_bad_inputs() {
  need_root
  expect_exit 2 "$LRUBENCH" run "${MR[@]}" -o "$T/r" --label b --set mmapread.evict=never
  assert_grep_err "mmapread.evict: 'never' is not one of fadvise|reclaim"
  expect_exit 2 "$LRUBENCH" run "${MR[@]}" -o "$T/r" --label b --set mmapread.tasks_per_memcg=0
  assert_grep_err "mmapread.tasks_per_memcg: 0 is out of range"
  expect_exit 2 "$LRUBENCH" run "${MR[@]}" -o "$T/r" --label b --set mmapread.memcgs=4096 \
    --set mmapread.tasks_per_memcg=8
  assert_grep_err "memcgs-4096 with 8 tasks_per_memcg is 32768 tasks"
  expect_exit 2 "$LRUBENCH" run "${MR[@]}" -o "$T/r" --label b --set mmapread.file_size=4K
  assert_grep_err "mmapread.file_size: 4K is out of range"
  assert_no_file "$T/r/b"
  assert_no_leaks
}

# No memory controller (the cgroup mounts removed in the test's own mount
# namespace): memcgs = 0 measures, in no memcg, and the details say so.
test_mmapread_memcgs_zero_without_memory_controller() {
  need_root
  need_cmd unshare util-linux
  expect_exit 0 without_cgroup_fs "$LRUBENCH" run "${MR[@]}" -i 1 -o "$T/r" --label n --set mmapread.memcgs=0
  python3 - "$T/r/n" <<'PY' || fail "results without a memory controller"
import json, sys
d = json.load(open(sys.argv[1] + "/mmapread.json"))
x = d["details"][0]
assert "no memory controller" in x["memory_controller"], x
assert not any(k.endswith("_total") for k in x), x
assert len(x["task_mbps"]) == 2 and all(v > 0 for v in x["task_mbps"]), x
PY
  assert_no_leaks
}

# file_size = auto: ROTATE_BYTES / tasks of the largest step, recorded
test_mmapread_file_size_auto() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${MR[@]}" -i 1 -o "$T/r" --label a --set mmapread.memcgs=0,2 \
    --set mmapread.tasks_per_memcg=2 --set mmapread.file_size=auto --set mmapread.evict=reclaim
  python3 - "$T/r/a/run.json" <<'PY' || fail "file_sizing fact"
import json, sys
fs = json.load(open(sys.argv[1]))["workload_facts"]["mmapread"]["file_sizing"]
assert fs["rotate_bytes"] == min(1 << 42, fs["mem_available"] << 8), fs
assert fs["divisor"] == 4 and fs["files"] == 4, fs
assert fs["file_size"] == fs["rotate_bytes"] // 4 // 4096 * 4096, fs
PY
  assert_no_leaks
}
