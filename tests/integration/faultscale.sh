# SPDX-License-Identifier: GPL-2.0-or-later
# faultscale against the real kernel: real page faults of every case and
# mode with tasks 1 and 2, in the root memory cgroup (memcgs 0) and in two
# real memcgs; the results checked against the details the run recorded,
# compare and plot with tasks on the x axis; each task on its own CPU; a
# task killed mid-run fails its op only, a stopped one is stuck; SIGINT and
# a second SIGINT leave nothing; the bad inputs with their exit codes.
# run-tests: timeout=900

FS=(-w faultscale --set global.warmup=0 --set faultscale.samples=1 --set faultscale.warmup_samples=1
    --set faultscale.mapsize=16M)

# pids in the run's faultscale memcgs
fs_tasks_of() { cat /sys/fs/cgroup/memory/lrubench-$1/faultscale-*/cgroup.procs \
  /sys/fs/cgroup/lrubench-$1/faultscale-*/cgroup.procs 2>/dev/null; }
fs_has_tasks() { [ "$(fs_tasks_of "$1" | wc -l)" -ge "${2:-1}" ]; }

# Every case and mode, tasks 1 and 2, memcgs 0 and 2: the tables, the
# details behind every number, then compare and plot of the two labels.
test_faultscale_every_case_and_mode_memcgs_0_and_2() {
  need_root
  local m
  for m in 0 2; do
    expect_exit 0 "$LRUBENCH" run "${FS[@]}" -i 1 -o "$T/r" --label m$m --set faultscale.tasks=1,2 \
      --set faultscale.memcgs=$m
    assert_eq "$(json_get "$T/r/m$m/run.json" '["status"]')" complete "status of memcgs=$m"
    python3 - "$T/r/m$m" "$m" "$(nproc)" <<'PY' || fail "faultscale.json of memcgs=$m"
import json, sys
d = json.load(open(sys.argv[1] + "/faultscale.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
memcgs, ncpu = int(sys.argv[2]), int(sys.argv[3])
tables = {t["title"]: t for t in d["tables"] if not t.get("explains")}
want = ["faultscale %s %s ops/s" % (c, m) for c in ("page_fault1", "page_fault2", "page_fault3")
        for m in ("processes", "threads")]
assert sorted(tables) == sorted(want + ["faultscale linear ops/s", "faultscale scaling efficiency"]), \
    sorted(tables)
b = run["numa_binding"]
for title in want:
    t = tables[title]
    assert t["unit"] == "ops/s" and t["better"] == "higher", t
    assert t["x_axis"] == {"name": "tasks", "unit": "count"}, t["x_axis"]
    assert [o["op"] for o in t["ops"]] == ["tasks-1", "tasks-2"], t["ops"]
    case, mode = title.split()[1:3]
    for o in t["ops"]:
        T = int(o["op"].split("-")[1])
        step = "%s-%s-%d" % (case, mode, T)
        det = [x for x in d["details"] if x["step"] == step]
        assert len(det) == 1 and len(o["samples"]) == 1, (step, det, o)
        x = det[0]
        # the op is the mean of the measured seconds, and those the tasks' sum
        # page_fault3's tasks dirty the file: a second spent in dirty throttling
        # (balance_dirty_pages, a loop device on a busy machine) may write nothing
        assert x["ops_per_s"] == o["samples"][0] and x["ops_per_s"] >= 0, (x, o)
        if case == "page_fault1":
            assert x["ops_per_s"] > 0 and all(v > 0 for v in x["task_ops_per_s"]), x
        assert len(x["per_second"]) == 1 and abs(x["per_second"][0] - x["ops_per_s"]) <= 1e-6 * x["ops_per_s"]
        assert len(x["task_ops_per_s"]) == T and all(v >= 0 for v in x["task_ops_per_s"]), x
        assert abs(sum(x["task_ops_per_s"]) - x["ops_per_s"]) <= 0.02 * x["ops_per_s"], x
        assert x["tasks"] == T and x["memcgs"] == memcgs, x
        # processes: one a task; threads: one process (memcgs 0) or one per memcg
        procs = T if mode == "processes" else (1 if memcgs == 0 else min(T, memcgs))
        assert x["processes"] == procs, (step, x["processes"], procs)
        # each task on its own CPU of the node, and it ran there
        assert x["task_ran_on"] == x["task_cpus"], x
        assert all(c in b["cpus"] for c in x["task_cpus"]), (x["task_cpus"], b)
        if T <= ncpu:
            assert len(set(x["task_cpus"])) == T, x["task_cpus"]
        if memcgs and "pgfault_total" in x:
            # the memcgs' own counters saw the faults
            assert x["pgfault_total"] > 0, x
lin = {o["op"]: o["samples"] for o in tables["faultscale linear ops/s"]["ops"]}
eff = {o["op"]: o["samples"] for o in tables["faultscale scaling efficiency"]["ops"]}
for c in ("page_fault1", "page_fault2", "page_fault3"):
    for m in ("processes", "threads"):
        one = [o for o in tables["faultscale %s %s ops/s" % (c, m)]["ops"] if o["op"] == "tasks-1"][0]
        two = [o for o in tables["faultscale %s %s ops/s" % (c, m)]["ops"] if o["op"] == "tasks-2"][0]
        k = "%s-%s-" % (c, m)
        assert abs(lin[k + "1"][0] - one["samples"][0]) <= 1e-6 * one["samples"][0], (lin, one)
        assert abs(lin[k + "2"][0] - 2 * one["samples"][0]) <= 1e-6 * one["samples"][0], lin
        if one["samples"][0] > 0:
            assert abs(eff[k + "2"][0] - 100 * two["samples"][0] / lin[k + "2"][0]) < 1e-6, eff
        else:
            assert k + "2" not in eff, eff   # no 1-task figure to scale against
        assert k + "1" not in eff, eff
PY
  done
  # compare: the tables with tasks-1 and tasks-2 rows, both labels
  expect_exit 0 "$LRUBENCH" compare --allow-same-kernel "$T/r/m0" "$T/r/m2"
  assert_grep "^faultscale page_fault1 processes ops/s" "$T/out"
  assert_grep "^faultscale page_fault3 threads ops/s" "$T/out"
  assert_grep "^faultscale scaling efficiency" "$T/out"
  assert_grep "tasks-2" "$T/out"
  # plot: tasks on the x axis of the scaling figures
  need_cmd gnuplot gnuplot-nox
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$T/r/m0" "$T/r/m2"
  local gp="$T/plots/faultscale-page_fault1-processes-ops-s-scaling.gp"
  assert_file "$gp"
  assert_grep "^set xlabel 'tasks (count)'$" "$gp"
  assert_grep "^set xlabel 'tasks (count)'$" "$T/plots/faultscale-linear-ops-s-scaling-page_fault2-threads.gp"
  assert_no_leaks
}

# Each task in its memcg and bound to one CPU, while it runs; then SIGINT
# (130, nothing left) and a second run with two SIGINTs.
test_faultscale_tasks_bound_in_memcgs_then_sigint() {
  need_root
  [ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
  "$LRUBENCH" run "${FS[@]}" -i 3 -o "$T/r" --label i --set faultscale.tasks=2 --set faultscale.memcgs=2 \
    --set faultscale.cases=page_fault1 --set faultscale.modes=processes --set faultscale.samples=60 \
    >"$T/out" 2>"$T/err" &
  local pid=$! p cpus=""
  wait_for "a task in each memcg" fs_has_tasks $pid 2
  for p in $(fs_tasks_of $pid); do
    cpus="$cpus $(taskset -pc "$p" | sed 's/.*: //')"
  done
  # two tasks, one CPU each, not the same one
  [ "$(echo $cpus | wc -w)" = 2 ] || fail "affinities: $cpus"
  case $cpus in *,*|*-*) fail "a task is bound to more than one CPU: $cpus" ;; esac
  [ "$(echo $cpus | tr ' ' '\n' | sort -u | wc -l)" = 2 ] || fail "two tasks on one CPU: $cpus"
  kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after SIGINT"
  assert_eq "$(json_get "$T/r/i/run.json" '["status"]')" interrupted "status"
  assert_no_leaks
  "$LRUBENCH" run "${FS[@]}" -i 3 -o "$T/r" --label d --set faultscale.tasks=2 --set faultscale.memcgs=2 \
    --set faultscale.modes=threads --set faultscale.samples=60 >"$T/out" 2>"$T/err" &
  pid=$!
  wait_for "tasks in memcgs" fs_has_tasks $pid 1
  kill -INT $pid; kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after two SIGINTs"
  assert_no_leaks
}

# A task killed mid-run (as the OOM killer would) fails its op with the
# reason; the next step runs and the run ends failed.
test_faultscale_killed_task_fails_its_op_only() {
  need_root
  "$LRUBENCH" run "${FS[@]}" -i 1 -o "$T/r" --label k --set faultscale.tasks=1,2 --set faultscale.memcgs=1 \
    --set faultscale.cases=page_fault1 --set faultscale.modes=processes --set faultscale.samples=30 \
    >"$T/out" 2>"$T/err" &
  local pid=$! victim
  wait_for "the 1-task step's task" fs_has_tasks $pid 1
  victim=$(fs_tasks_of $pid | head -1)
  kill -KILL "$victim"
  wait $pid; assert_eq "$?" 1 "run exit"
  assert_grep_err "faultscale task 0 (pid $victim) killed by signal 9"
  assert_grep_err "page_fault1-processes-1 iteration 1 failed; going on with the next step"
  python3 - "$T/r/k" "$victim" <<'PY' || fail "run.json"
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
assert d["status"] == "failed", d["status"]
f = d["failed_ops"]
assert len(f) == 1 and f[0]["step"] == "page_fault1-processes-1", f
assert "pid %s) killed by signal 9" % sys.argv[2] in f[0]["reason"], f
r = json.load(open(sys.argv[1] + "/faultscale.json"))
ops = {(t["title"], o["op"]) for t in r["tables"] if not t.get("explains") for o in t["ops"]}
assert ops == {("faultscale page_fault1 processes ops/s", "tasks-2")}, ops
PY
  assert_no_leaks
}

# A stopped task (SIGSTOP stands in for D state) is stuck after
# global.stuck_timeout: its op fails with its state, the task is gone.
test_faultscale_stopped_task_is_stuck() {
  need_root
  "$LRUBENCH" run "${FS[@]}" -i 1 -o "$T/r" --label s --set faultscale.tasks=1 --set faultscale.memcgs=1 \
    --set faultscale.cases=page_fault1 --set faultscale.modes=processes --set faultscale.samples=30 \
    --set global.stuck_timeout=2s >"$T/out" 2>"$T/err" &
  local pid=$! victim
  wait_for "the task" fs_has_tasks $pid 1
  victim=$(fs_tasks_of $pid | head -1)
  kill -STOP "$victim"
  wait $pid; assert_eq "$?" 1 "run exit"
  assert_grep_err "faultscale task 0.*(pid $victim) is stuck"
  assert_grep_err "stopped (T)"
  kill -0 "$victim" 2>/dev/null && fail "the stuck task $victim was left behind"
  assert_eq "$(json_get "$T/r/s/run.json" '["failed_ops"][0]["step"]')" page_fault1-processes-1 "failed op"
  assert_no_leaks
}

test_faultscale_bad_inputs() {
  need_root
  local q=("${FS[@]}" -o "$T/r" --label b --dry-run)
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.cases=page_fault9
  assert_grep_err "faultscale.cases: unknown 'page_fault9' (choose from page_fault1, page_fault2, page_fault3)"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.modes=processes,processes
  assert_grep_err "faultscale.modes: 'processes' given twice"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.mapsize=5000
  assert_grep_err "faultscale.mapsize: 5000 is not a multiple of the page size"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.memcg_limit=64M
  assert_grep_err "faultscale.memcg_limit needs faultscale.memcgs >= 1"
  # the mapping above what a memcg holds: 2 tasks of 128M in one 128M memcg
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.mapsize=128M --set faultscale.tasks=2 \
    --set faultscale.memcgs=1 --set faultscale.memcg_limit=128M --set faultscale.cases=page_fault1
  assert_grep_err "2 tasks of a memcg at 2 tasks map 256M, above memcg_limit 128M"
  # page_fault2 holds twice its mapping
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.mapsize=64M --set faultscale.tasks=1 \
    --set faultscale.memcgs=1 --set faultscale.memcg_limit=100M --set faultscale.cases=page_fault2
  assert_grep_err "map 128M, above memcg_limit 100M"
  # above the node's memory
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.mapsize=1T --set faultscale.tasks=1 \
    --set faultscale.cases=page_fault1
  assert_grep_err "1 tasks map 1T, more than the .* of memory"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.file_dir=relative/dir
  assert_grep_err "faultscale.file_dir: 'relative/dir' is not an absolute path"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.file_dir="$T/none"
  assert_grep_err "faultscale.file_dir: $T/none is not a directory (it does not exist)"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" -i auto --set faultscale.cases=page_fault2
  assert_grep_err "iterations = auto decides on the first table"
  expect_exit 2 "$LRUBENCH" run "${q[@]}" --set faultscale.tasks=0
  assert_grep_err "faultscale.tasks"
  # more tasks than CPUs: allowed, and said
  expect_exit 0 "$LRUBENCH" run "${q[@]}" --set faultscale.tasks=$(( $(nproc) + 1 ))
  assert_grep_err "tasks share CPUs"
  assert_no_file "$T/r/b"
  assert_no_leaks
}

# MADV_HUGEPAGE while THP is never (a bind mount over the sysfs file, in a
# mount namespace of the test's own: the machine's THP mode is not touched).
test_faultscale_madvise_hugepage_with_thp_never() {
  need_root
  need_cmd unshare util-linux
  local thp=/sys/kernel/mm/transparent_hugepage/enabled
  [ -f $thp ] || skip "no THP on this kernel"
  echo "always madvise [never]" >"$T/thp"
  expect_exit 3 unshare -m --propagation private bash -c 'mount --bind "$1" "$2" || exit 125; shift 2; "$@"' \
    _ "$T/thp" $thp "$LRUBENCH" run "${FS[@]}" -o "$T/r" --label h --set faultscale.madvise_hugepage=yes
  assert_grep_err "faultscale.madvise_hugepage = yes, but $thp is never"
  assert_no_file "$T/r/h"
  # a real run with MADV_HUGEPAGE where THP allows it
  grep -q '\[never\]' $thp && skip "THP is never here: the real MADV_HUGEPAGE run cannot be made"
  expect_exit 0 "$LRUBENCH" run "${FS[@]}" -i 1 -o "$T/r" --label hp --set faultscale.madvise_hugepage=yes \
    --set faultscale.cases=page_fault1 --set faultscale.tasks=1 --set faultscale.mapsize=64M
  assert_grep "(MADV_HUGEPAGE)" "$T/out"
  assert_no_leaks
}

test_faultscale_memcgs_without_controller() {
  need_root
  need_cmd unshare util-linux
  expect_exit 3 without_cgroup_fs "$LRUBENCH" run "${FS[@]}" -i 1 -o "$T/r" --label p --set faultscale.memcgs=2
  assert_grep_err "faultscale.memcgs: no memory cgroup controller on this machine"
  assert_no_file "$T/r/p"
  assert_no_leaks
}
