# SPDX-License-Identifier: GPL-2.0-or-later
# `lrubench run` of readtwice against the real kernel: real memcgs, a real
# ext4 on a real loop device, real reader processes.

QUICK=(--quick -w readtwice --set global.warmup=0 --set readtwice.runtime=1s --set readtwice.file_size=64M)

run_status() { json_get "$1/run.json" '["status"]'; }

# pids of the readers of run $1 (they sit in its memcgs)
readers_of() { cat /sys/fs/cgroup/memory/lrubench-$1/readtwice-*/cgroup.procs \
  /sys/fs/cgroup/lrubench-$1/readtwice-*/cgroup.procs 2>/dev/null; }
has_readers() { [ -n "$(readers_of "$1")" ]; }
no_readers() { [ -z "$(readers_of "$1")" ]; }

test_quick_run_writes_results() {
  need_root
  expect_exit 0 "$LRUBENCH" run --quick -w readtwice -o "$T/r" --label t1 --set readtwice.memcgs=1,2,4
  assert_file "$T/r/t1/run.json"
  assert_eq "$(run_status "$T/r/t1")" complete "status"
  assert_eq "$(json_get "$T/r/t1/run.json" '["system"]["kernel_release"]')" "$(uname -r)" "kernel_release"
  assert_eq "$(json_get "$T/r/t1/run.json" '["system"]["nr_cpus"]')" "$(nproc)" "nr_cpus"
  [ "$(json_get "$T/r/t1/run.json" '["system"]["mem_total_kb"]')" -gt 0 ] || fail "mem_total_kb"
  assert_eq "$(json_get "$T/r/t1/run.json" '["config"]["readtwice"]["memcgs"]')" "1,2,4" "effective config"
  python3 - "$T/r/t1/readtwice.json" <<'EOF' || fail "readtwice.json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["workload"] == "readtwice"
# the measured tables; the profile ones (CPU split, reclaim, fairness) explain them
titles = [t["title"] for t in d["tables"] if not t.get("explains")]
assert titles == ["readtwice MB/s aggregate", "readtwice MB/s per memcg",
                  "readtwice MB/s per reader"], titles
for t in (t for t in d["tables"] if not t.get("explains")):
    assert t["better"] == "higher" and t["unit"] == "MB/s"
    assert t["x_axis"] == {"name": "memory cgroups", "unit": "count"}, t.get("x_axis")
    ops = {o["op"]: o["samples"] for o in t["ops"]}
    assert sorted(ops) == ["memcgs-1", "memcgs-2", "memcgs-4"], ops
    for op, s in ops.items():
        assert len(s) == 3 and all(x > 0 for x in s), (op, s)
# per memcg = aggregate / N for every iteration
agg = {o["op"]: o["samples"] for o in d["tables"][0]["ops"]}
per = {o["op"]: o["samples"] for o in d["tables"][1]["ops"]}
for n in (1, 2, 4):
    for a, p in zip(agg["memcgs-%d" % n], per["memcgs-%d" % n]):
        assert abs(a / n - p) < 1e-6 * a, (a, p)
det = d["details"]
assert len(det) == 9 and all(len(x["memcg_mbps"]) == int(x["step"].split("-")[1]) for x in det)
# every reader ran on a CPU and node of the binding
run = json.load(open(sys.argv[1].replace("readtwice.json", "run.json")))
b = run["numa_binding"]
for x in det:
    assert len(x["reader_cpus"]) == 2 * len(x["memcg_mbps"]), x
    assert all(c in b["cpus"] for c in x["reader_cpus"]), (x["reader_cpus"], b)
    assert all(n == b["node"] for n in x["reader_nodes"]), (x["reader_nodes"], b)
EOF
  assert_grep "readtwice MB/s aggregate" "$T/out"
  assert_no_leaks
}

test_two_hundred_memcgs() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label many \
    --set readtwice.memcgs=200 --set readtwice.readers_per_memcg=1
  python3 - "$T/r/many/readtwice.json" <<'EOF' || fail "200 memcgs results"
import json, sys
d = json.load(open(sys.argv[1]))
det = d["details"][0]
assert len(det["memcg_mbps"]) == 200, det
# every memcg's reader worked, unless it first ran after the 1 s window had
# closed (core/task_round.h: such a task does no work); on a loaded machine
# the last of 200 tasks on 2 CPUs may (readers_late says how late)
if det["seconds"]["readers_late"] < 1.0:
    assert all(x > 0 for x in det["memcg_mbps"]), det
else:
    assert any(x > 0 for x in det["memcg_mbps"]), det
EOF
  assert_no_leaks
}

test_sigint_then_resume() {
  need_root
  "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label s --set readtwice.memcgs=1,2 >"$T/out" 2>"$T/err" &
  local pid=$!
  # interrupt once the first iteration is saved, so resume has something to skip
  wait_for "first saved iteration" test -f "$T/r/s/readtwice.json"
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_eq "$(run_status "$T/r/s")" interrupted "status"
  assert_grep_err "interrupted"
  assert_no_leaks
  local before
  before=$(python3 -c 'import json,sys; print(sum(len(o["samples"]) for o in json.load(open(sys.argv[1]))["tables"][0]["ops"]))' "$T/r/s/readtwice.json")
  [ "$before" -lt 6 ] || fail "the interrupted run had already finished ($before samples)"
  # a run without --resume refuses the unfinished folder
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label s --set readtwice.memcgs=1,2
  assert_grep_err "did not complete"
  # --resume with a different config is refused
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label s --set readtwice.memcgs=1,4 --resume
  assert_grep_err "config differs"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label s --set readtwice.memcgs=1,2 --resume
  assert_eq "$(run_status "$T/r/s")" complete "status after resume"
  python3 - "$T/r/s/readtwice.json" "$before" <<'EOF' || fail "resumed samples"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tables"]:
    for o in t["ops"]:
        assert len(o["samples"]) == 3, (o["op"], o["samples"])
EOF
  assert_no_leaks
}

test_sigterm_and_double_sigint_leave_nothing() {
  need_root
  "$LRUBENCH" run "${QUICK[@]}" -i 5 -o "$T/r" --label term --set readtwice.memcgs=4 >"$T/out" 2>&1 &
  local pid=$!
  wait_for "readers" has_readers $pid
  kill -TERM $pid; wait $pid; assert_eq "$?" 130 "exit after SIGTERM"
  assert_no_leaks
  "$LRUBENCH" run "${QUICK[@]}" -i 5 -o "$T/r" --label dbl --set readtwice.memcgs=4 >"$T/out" 2>&1 &
  pid=$!
  wait_for "readers" has_readers $pid
  kill -INT $pid; kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after two SIGINTs"
  assert_no_leaks
}

test_killed_reader_fails_cleanly() {
  need_root
  "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label k --set readtwice.runtime=20s \
    --set readtwice.memcgs=2 >"$T/out" 2>"$T/err" &
  local pid=$! victim
  wait_for "readers" has_readers $pid
  victim=$(readers_of $pid | head -1)
  kill -KILL "$victim"
  wait $pid; local rc=$?
  assert_eq "$rc" 1 "exit code when a reader dies"
  assert_grep_err "readtwice reader .*pid $victim.*killed by signal 9"
  assert_eq "$(run_status "$T/r/k")" failed "status"
  assert_no_leaks
}

test_complete_label_is_not_overwritten() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label done --set readtwice.memcgs=1
  local before; before=$(md5sum < "$T/r/done/readtwice.json")
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label done --set readtwice.memcgs=1
  assert_grep_err "holds a complete run; use --force"
  assert_eq "$(md5sum < "$T/r/done/readtwice.json")" "$before" "results untouched"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label done --set readtwice.memcgs=2 --force
  assert_eq "$(json_get "$T/r/done/run.json" '["config"]["readtwice"]["memcgs"]')" 2 "forced run replaced it"
  assert_no_leaks
}

# Issue 30 (medium 12): --force removes a label folder, never another
# folder that happens to be at -o/LABEL (-o /lib/modules --label $(uname -r)).
test_force_removes_only_label_folders() {
  mkdir -p "$T/r/mods/kernel"
  echo keep >"$T/r/mods/kernel/a.ko"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" --dry-run -o "$T/r" --label mods --force
  assert_grep_err "$T/r/mods exists but is not a label folder (no run.json of lrubench in it): pick another --label; --force removes only label folders"
  # a run.json that is not lrubench's (no schema) does not make it one
  echo '{"label": "mods"}' >"$T/r/mods/run.json"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" --dry-run -o "$T/r" --label mods --force
  assert_grep_err "is not lrubench's run.json"
  need_root
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label mods --force
  assert_eq "$(cat "$T/r/mods/kernel/a.ko")" keep "the folder's files"
}

# Every bad input: the documented exit code, a message naming the culprit, no
# label folder, nothing left behind.
bad_input() {
  local code=$1 msg=$2; shift 2
  expect_exit "$code" "$LRUBENCH" run "$@"
  assert_grep_err "$msg"
  [ ! -e "$T/r/bad" ] || fail "a label folder was left for a bad input: $*"
  assert_no_leaks
}

test_bad_inputs() {
  need_root
  printf '[global]\niterations = 2\n[readtwice]\nnosuchkey = 1\n' > "$T/bad.conf"
  bad_input 2 "bad.conf:4: unknown key 'nosuchkey' in \[readtwice\]" -c "$T/bad.conf" -o "$T/r" --label bad
  bad_input 2 "readtwice.file_size: '12Q' is not a size" -o "$T/r" --label bad --set readtwice.file_size=12Q
  bad_input 2 "readtwice.memcgs: 4097 is out of range" -o "$T/r" --label bad --set readtwice.memcgs=4097
  bad_input 2 "readtwice.runtime: '-1' is not a time" -o "$T/r" --label bad --set readtwice.runtime=-1
  bad_input 2 "cannot read config file $T/missing.conf" -c "$T/missing.conf" -o "$T/r" --label bad
  bad_input 2 "expected SECTION.KEY=VALUE" -o "$T/r" --label bad --set memcgs=1
  bad_input 3 "numa_node=7: no such node; nodes present: 0" -o "$T/r" --label bad --set global.numa_node=7
  bad_input 2 "numa_node" -o "$T/r" --label bad --set global.numa_node=seven
  bad_input 2 "unknown workload 'nosuch'" -o "$T/r" --label bad -w nosuch
  bad_input 2 "unknown option '--bogus'" -o "$T/r" --label bad --bogus
  # the one label rule (core/label_name.h), the one compare applies to folders
  bad_input 2 "label '..' starts with '.': a label is 1 to 200 characters" -o "$T/r" --label ..
  bad_input 2 "label '.hidden' starts with '.'" -o "$T/r" --label .hidden
  bad_input 2 "label 'a/b' has '/'" -o "$T/r" --label a/b
  bad_input 2 "label 'a,b' has ','" -o "$T/r" --label a,b
  bad_input 2 "sparse_root" -o "$T/r" --label bad --set global.sparse_root=nfs
  bad_input 2 "nothing to resume" -o "$T/r" --label bad --resume
}

test_unwritable_results_folder() {
  need_root
  mkdir -p "$T/ro"
  mount -t tmpfs -o ro,size=1m testro "$T/ro" || skip "cannot mount a read-only tmpfs"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -o "$T/ro/results" --label bad
  umount "$T/ro"
  assert_grep_err "results folder $T/ro/results is not writable"
  assert_no_leaks
}

test_sparse_root_dir_refuses_tmpfs() {
  need_root
  expect_exit 1 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label tmpfs --set readtwice.memcgs=1 \
    --set global.sparse_root=dir:/dev/shm
  assert_grep_err "/dev/shm.*tmpfs"
  assert_no_leaks
  mkdir -p "$T/plain"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label plain --set readtwice.memcgs=1 \
    --set "global.sparse_root=dir:$T/plain"
  assert_no_leaks
}

# A tool the sparse root needs is missing (mkfs.xfs hidden under an empty
# tmpfs on /usr/sbin, in a mount namespace of the test's own): this machine
# cannot run what was asked, exit 3 (it was 1), and nothing is left.
test_sparse_root_tool_missing_is_exit_3() {
  need_root
  need_cmd unshare util-linux
  expect_exit 3 unshare -m --propagation private sh -c \
    'mount -t tmpfs lrubench-hide /usr/sbin && exec "$@"' sh "$LRUBENCH" run "${QUICK[@]}" -i 1 \
    -o "$T/r" --label noxfs --set readtwice.memcgs=1 --set global.sparse_root=loop-xfs
  assert_grep_err "mkfs.xfs not found: install the Debian package xfsprogs"
  assert_eq "$(run_status "$T/r/noxfs")" failed "status"
  assert_no_leaks
}

test_help_version_list_check() {
  for c in run compare plot list check fetch; do
    expect_exit 0 "$LRUBENCH" $c --help
    assert_grep "usage: lrubench $c" "$T/out"
    expect_exit 0 "$LRUBENCH" $c --version
    assert_grep "lrubench [0-9]" "$T/out"
  done
  expect_exit 2 "$LRUBENCH" nosuchcommand
  assert_grep_err "'nosuchcommand' is not a lrubench command"
  expect_exit 0 "$LRUBENCH" list
  assert_grep "readtwice.memcgs = " "$T/out"
  assert_grep "table \"readtwice MB/s aggregate\"" "$T/out"
  expect_exit 2 "$LRUBENCH" list nosuch
  "$LRUBENCH" check >"$T/out" 2>"$T/err"; local rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "check exited $rc"
  assert_grep "memory cgroup" "$T/out"
  assert_grep "readtwice" "$T/out"
}

# --quick and configs/quick.conf must describe the same run, for every workload.
test_quick_conf_matches_quick_flag() {
  need_root
  # --dry-run checks as a run would, probes included: a workload that cannot
  # run here exits 3 both ways, the others are compared
  local w n=0 rc1 rc2
  for w in $("$LRUBENCH" list | sed -n 's/^\[\([a-z]*\)\].*/\1/p' | grep -v '^global$\|^vm$'); do
    "$LRUBENCH" run --quick -w "$w" --dry-run -o "$T/r" >"$T/quick.json" 2>"$T/err"; rc1=$?
    "$LRUBENCH" run -c "$LRUBENCH_SRC/configs/quick.conf" -w "$w" --dry-run -o "$T/r" >"$T/out" 2>"$T/err"
    rc2=$?
    assert_eq "$rc1" "$rc2" "$w: exit of the --quick and quick.conf dry runs"
    [ "$rc1" = 0 ] || continue
    n=$((n + 1))
    python3 - "$T/quick.json" "$T/out" <<'EOF' || fail "configs/quick.conf and --quick differ ($w)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
diff = [(s, k, a[s][k], b[s].get(k)) for s in a for k in a[s] if a[s][k] != b[s].get(k)]
assert not diff, diff
EOF
  done
  [ "$n" -gt 0 ] || fail "no workload could be compared"
  [ ! -e "$T/r" ] || fail "a dry run made a results folder"
}

# The cgroup mode of this machine, and where run PID's parent cgroup is.
cg_mode() {
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo v2
  elif awk '$2 == "/sys/fs/cgroup/memory" && $3 == "cgroup"' /proc/mounts | grep -q memory; then echo v1
  else echo none; fi
}
run_cgroup() {
  case $(cg_mode) in
    v2) echo "/sys/fs/cgroup/lrubench-$1" ;;
    v1) echo "/sys/fs/cgroup/memory/lrubench-$1" ;;
  esac
}

# are there N memcgs below $1, each with a process in it?
memcgs_with_readers() {
  local n=0 m
  for m in "$1"/readtwice-*; do
    [ -n "$(cat "$m/cgroup.procs" 2>/dev/null)" ] && n=$((n + 1))
  done
  [ "$n" = "$2" ]
}

# SIGKILL cannot be caught: the run's mounts live in its own mount namespace
# (gone with its last process), its loop device is autoclear, its readers die
# with it (PDEATHSIG), and the next run removes the cgroup and scratch folder.
# The cgroup checks are those of this machine's mode: v1 (memory controller
# mounted on /sys/fs/cgroup/memory) or v2 (cgroup2 on /sys/fs/cgroup). Only
# one can be tested per machine: a controller bound to a v1 hierarchy cannot
# be enabled in a v2 one, and remounting the host's hierarchies is not a
# test's business. The machine this suite runs on is v1; v2 is covered inside
# the qemu guests of tests/integration/vm.sh (LRUBENCH_TEST_KERNELS).
test_sigkill_then_next_run_cleans_up() {
  need_root
  local mode cg m
  mode=$(cg_mode)
  [ "$mode" != none ] || skip "no memory cgroup controller"
  # one long iteration, so that its memcgs stay while the test looks at them
  "$LRUBENCH" run "${QUICK[@]}" -i 5 -o "$T/r" --label kill --set readtwice.memcgs=2 \
    --set readtwice.runtime=20s --set readtwice.memcg_limit=96M --set "global.workdir=$T/work" \
    >"$T/out" 2>&1 &
  local pid=$!
  wait_for "readers" has_readers $pid
  # the run's cgroups are where this mode puts them, so that "removed" below
  # is about real directories
  cg=$(run_cgroup $pid)
  [ -d "$cg" ] || fail "no cgroup $cg for run $pid ($mode)"
  wait_for "readers in both memcgs of $cg" memcgs_with_readers "$cg" 2
  assert_eq "$(json_get "$T/r/kill/run.json" '["system"]["cgroup_mode"]')" "$mode" "recorded cgroup mode"
  for m in "$cg"/readtwice-*; do
    if [ "$mode" = v1 ]; then
      assert_eq "$(cat "$m/memory.limit_in_bytes")" $((96 << 20)) "v1 limit of $m"
    else
      assert_eq "$(cat "$m/memory.max")" $((96 << 20)) "v2 limit of $m"
    fi
  done
  if [ "$mode" = v2 ]; then
    grep -qw memory "$cg/cgroup.subtree_control" || fail "memory not enabled below $cg"
  fi
  kill -KILL $pid; wait $pid 2>/dev/null
  wait_for "readers to die" no_readers $pid
  grep -q "run-$pid" /proc/mounts && fail "mounts of the killed run are visible"
  wait_for "the loop device to detach" sh -c "! losetup -a | grep -q 'lrubench-$pid'"
  [ -d "$T/work/run-$pid" ] || fail "expected the killed run's scratch folder to be there"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label next --set readtwice.memcgs=1 \
    --set "global.workdir=$T/work"
  [ ! -d "$cg" ] || fail "stale cgroup $cg not removed"
  [ ! -d "$T/work/run-$pid" ] || fail "stale scratch folder run-$pid not removed"
  assert_no_leaks
}

# memcgs = 0: the memory controller enabled, the readers in the root memory
# cgroup (not in a memcg of the run, not in lrubench's own cgroup).
# (the memory line of a v1 or hybrid machine comes before the unified 0:: line)
in_root_memcg() {
  grep -E '^[0-9]+:memory:|^0::' "/proc/$1/cgroup" 2>/dev/null | head -1 | grep -qE ':/$'
}
child_in_root_memcg() {
  local c
  for c in $(pgrep -P "$1"); do in_root_memcg "$c" && return 0; done
  return 1
}
test_memcgs_zero_reads_in_root_cgroup() {
  need_root
  in_root_memcg $$ && skip "this shell already runs in the root memory cgroup: nothing to tell apart"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 -o "$T/r" --label z --set readtwice.memcgs=0,2
  python3 - "$T/r/z/readtwice.json" <<'PY' || fail "memcgs-0 results"
import json, sys
d = json.load(open(sys.argv[1]))
for t in (t for t in d["tables"] if not t.get("explains")):   # not the profile tables (issue 13)
    ops = {o["op"]: o["samples"] for o in t["ops"]}
    assert sorted(ops) == ["memcgs-0", "memcgs-2"], ops
    assert all(x > 0 for x in ops["memcgs-0"]), ops
det = [x for x in d["details"] if x["step"] == "memcgs-0"]
assert len(det) == 1 and len(det[0]["memcg_mbps"]) == 1 and len(det[0]["reader_cpus"]) == 2, det
PY
  "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label z2 --set readtwice.memcgs=0 \
    --set readtwice.runtime=30s >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for "a reader in the root memory cgroup" child_in_root_memcg $pid
  kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after SIGINT"
  assert_no_leaks
}
