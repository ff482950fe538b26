# SPDX-License-Identifier: GPL-2.0-or-later
# thpscale on the real kernel: huge faults with THP=madvise + MADV_HUGEPAGE,
# none with THP=never, per-fault sample counts checked against the layout and
# the details, THP sysfs settings restored after a normal end, a SIGINT and a
# double SIGINT, and each bad input with its exit code.

THP=/sys/kernel/mm/transparent_hugepage

thp_need() {
  need_root
  [ -r $THP/enabled ] || skip "no THP on this kernel ($THP/enabled)"
}
thp_mode() { sed 's/.*\[\(.*\)\].*/\1/' "$THP/$1"; }
# a mode other than the current one, to see that the run changed it
other_enabled() { [ "$(thp_mode enabled)" = never ] && echo always || echo never; }
other_defrag() { [ "$(thp_mode defrag)" = defer ] && echo never || echo defer; }

# thp_run ARGS...: the acceptance command plus ARGS, results in $T/r/t; the
# run's pid in $pid (its cgroups and mounts are named after it); the kernel's
# counters around it in $T/vmstat.before and $T/vmstat.after
thp_run() {
  local rc
  cp /proc/vmstat "$T/vmstat.before"
  "$LRUBENCH" run -w thpscale --quick -o "$T/r" --label t \
    --set thpscale.threads=1,2 --set thpscale.mapsize=512M "$@" &
  pid=$!
  wait "$pid"; rc=$?
  cp /proc/vmstat "$T/vmstat.after"
  return $rc
}

# lib.sh's assert_no_leaks ignores objects of runs that are still alive
# (other suites on this machine) and counts everything of a dead pid.
thp_no_leaks() { assert_no_leaks; }

# thp_check_counts MAPSIZE_MB INSTANCES: every op's sample count matches the
# faults the layout makes (mapsize / T per thread, half of it in 2 MB steps)
# and the per-iteration details; latencies positive; the vmstat counters of
# each iteration add up to the summary the run printed ($T/out) and to no
# more than the kernel's own counters over the whole run; prints "T pct..."
thp_check_counts() {
  python3 - "$T/r/t" "$1" "$2" "$T/out" "$T/vmstat.before" "$T/vmstat.after" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1] + "/thpscale.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
mapsize_mb, inst = int(sys.argv[2]), int(sys.argv[3])
lat = next(t for t in d["tables"] if t["title"] == "thpscale Fault Latencies")
pct = next(t for t in d["tables"] if t["title"] == "thpscale Percentage Faults Huge")
ops = {o["op"]: o["samples"] for o in lat["ops"]}
pops = {o["op"]: o["samples"] for o in pct["ops"]}
iters = int(run["config"]["global"]["iterations"])
def die(msg):
    print("FAIL:", msg); sys.exit(1)
for T in (1, 2):
    per_thread = (mapsize_mb // T) // 2 * 2 // 4          # 2 MB steps per thread
    want = iters * inst * T * per_thread
    det = [x for x in d["details"] if x["step"] == "threads-%d" % T]
    if len(det) != iters: die("threads-%d: %d details, want %d" % (T, len(det), iters))
    faults = sum(x["faults"] for x in det)
    huge = sum(x["faults_huge"] for x in det)
    base = sum(x["faults_base"] for x in det)
    both = ops.get("fault-both-%d" % T, [])
    if len(both) != want or faults != want:
        die("threads-%d: %d samples, %d in details, layout says %d" % (T, len(both), faults, want))
    if len(ops.get("fault-huge-%d" % T, [])) != huge: die("fault-huge-%d count != faults_huge" % T)
    if len(ops.get("fault-base-%d" % T, [])) != base: die("fault-base-%d count != faults_base" % T)
    if huge == 0 and ("fault-huge-%d" % T) in ops: die("empty fault-huge-%d op exists" % T)
    if base == 0 and ("fault-base-%d" % T) in ops: die("empty fault-base-%d op exists" % T)
    if min(both) <= 0: die("non-positive latency")
    if len(pops["huge-%d" % T]) != iters: die("huge-%d: one sample per iteration" % T)
    for x in det:
        for k in ("thp_fault_alloc", "thp_fault_fallback", "compact_stall", "pgmigrate_success"):
            if k not in x["vmstat"]: die("vmstat %s missing in details" % k)
        # the kernel's own count of THP faults covers ours (mincore's
        # classification); other processes can only add to it
        if x["vmstat"]["thp_fault_alloc"] < x["faults_huge"]:
            die("thp_fault_alloc %d < huge faults %d" % (x["vmstat"]["thp_fault_alloc"], x["faults_huge"]))
        # a counter is a difference of two readings: never negative, never the
        # "missing" marker or a wrapped subtraction
        for k, v in x["vmstat"].items():
            if not isinstance(v, int) or v < 0 or v >= 1 << 40:
                die("vmstat %s = %r in an iteration of threads-%d" % (k, v, T))
    # the summary line: faults, huge share and each counter summed over the
    # iterations, the same numbers as the details
    m = re.search(r"^thpscale threads-%d: (\d+) faults, ([\d.]+)%% huge; vmstat over (\d+) "
                  r"iterations?:(.*)$" % T, open(sys.argv[4]).read(), re.M)
    if not m: die("no summary line for threads-%d in the run's output" % T)
    if int(m.group(1)) != faults or int(m.group(3)) != iters:
        die("threads-%d summary %s faults over %s iterations, details %d over %d"
            % (T, m.group(1), m.group(3), faults, iters))
    if abs(float(m.group(2)) - 100.0 * huge / faults) > 0.051:
        die("threads-%d summary %s%% huge, details %.2f%%" % (T, m.group(2), 100.0 * huge / faults))
    printed = dict(kv.split("=") for kv in m.group(4).split())
    for k, v in printed.items():
        want = sum(x["vmstat"].get(k, 0) for x in det)
        if int(v) != want:
            die("threads-%d summary %s=%s, details sum to %d" % (T, k, v, want))
    print(T, min(pops["huge-%d" % T]), max(pops["huge-%d" % T]))
# over the whole run the kernel counted at least what the iterations did
def vmstat(path):
    return {k: int(v) for k, v in (l.split() for l in open(path))}
before, after = vmstat(sys.argv[5]), vmstat(sys.argv[6])
for k in ("thp_fault_alloc", "thp_fault_fallback", "compact_stall", "pgmigrate_success"):
    if k not in before:
        continue
    total = sum(x["vmstat"].get(k, 0) for x in d["details"])
    if total > after[k] - before[k]:
        die("%s: the iterations sum to %d, the kernel counted %d over the run"
            % (k, total, after[k] - before[k]))
PY
}

test_thpscale_madvise_gives_huge_faults() {
  thp_need
  local en df
  en=$(thp_mode enabled); df=$(thp_mode defrag)
  expect_exit 0 thp_run --set thpscale.thp_enabled=madvise --set thpscale.madvise=yes
  thp_check_counts 512 1 >"$T/pct" || { cat "$T/pct"; fail "sample counts"; }
  # huge-T > 0 in every iteration, for every T
  while read -r t lo hi; do
    python3 -c "import sys; sys.exit(0 if float('$lo') > 0 else 1)" || fail "huge-$t has an iteration with no huge fault"
  done <"$T/pct"
  assert_eq "$(json_get "$T/r/t/run.json" '["workload_facts"]["thpscale"]["thp_enabled"]')" madvise "recorded mode"
  assert_grep "thp_fault_alloc=" "$T/out"
  assert_eq "$(thp_mode enabled)" "$en" "THP enabled restored"
  assert_eq "$(thp_mode defrag)" "$df" "THP defrag restored"
  thp_no_leaks
}

test_thpscale_never_gives_base_faults() {
  thp_need
  local en df
  en=$(thp_mode enabled); df=$(thp_mode defrag)
  expect_exit 0 thp_run --set thpscale.thp_enabled=never --set thpscale.thp_defrag="$(other_defrag)"
  thp_check_counts 512 1 >"$T/pct" || { cat "$T/pct"; fail "sample counts"; }
  while read -r t lo hi; do
    assert_eq "$hi" 0.0 "huge-$t with THP never"
  done <"$T/pct"
  python3 - "$T/r/t/thpscale.json" <<'PY' || fail "fault-huge op with THP never"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(any(o["op"].startswith("fault-huge") for t in d["tables"] for o in t["ops"]))
PY
  assert_eq "$(json_get "$T/r/t/run.json" '["workload_facts"]["thpscale"]["thp_enabled"]')" never "recorded mode"
  assert_eq "$(thp_mode enabled)" "$en" "THP enabled restored"
  assert_eq "$(thp_mode defrag)" "$df" "THP defrag restored"
  thp_no_leaks
}

test_thpscale_two_memcgs_with_limit() {
  thp_need
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup"
  expect_exit 0 thp_run --set thpscale.mapsize=256M --set thpscale.memcgs=2 \
    --set thpscale.memcg_limit=512M
  thp_check_counts 256 2 >"$T/pct" || { cat "$T/pct"; fail "sample counts"; }
  assert_eq "$(json_get "$T/r/t/run.json" '["workload_facts"]["thpscale"]["instances"]')" 2 "instances"
  thp_no_leaks
}

# Start a long run in the background; wait (bounded, on a condition, not a
# time) until an instance process is inside its memcg, i.e. mid-step.
thp_start_long_run() {
  "$LRUBENCH" run -w thpscale -o "$T/r" --label t -i 1000 --set global.warmup=0 \
    --set thpscale.threads=2 --set thpscale.mapsize=512M \
    --set thpscale.thp_enabled="$(other_enabled)" --set thpscale.thp_defrag="$(other_defrag)" \
    "$@" >"$T/out" 2>"$T/err" &
  pid=$!
  local i procs
  for i in $(seq 1 3000); do
    procs=$(cat /sys/fs/cgroup/memory/lrubench-$pid/thpscale-1/cgroup.procs \
                /sys/fs/cgroup/lrubench-$pid/thpscale-1/cgroup.procs 2>/dev/null)
    [ -n "$procs" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$T/err"; fail "run ended before it was interrupted"; }
    sleep 0.01
  done
  kill -9 "$pid"; fail "no instance appeared in its memcg"
}

test_thpscale_sigint_restores_thp() {
  thp_need
  local en df rc
  en=$(thp_mode enabled); df=$(thp_mode defrag)
  thp_start_long_run
  [ "$(thp_mode enabled)" != "$en" ] || fail "the run did not change THP enabled"
  kill -INT "$pid"
  wait "$pid"; rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_eq "$(thp_mode enabled)" "$en" "THP enabled restored after SIGINT"
  assert_eq "$(thp_mode defrag)" "$df" "THP defrag restored after SIGINT"
  assert_eq "$(json_get "$T/r/t/run.json" '["status"]')" interrupted "status"
  thp_no_leaks
}

test_thpscale_double_sigint_restores_thp() {
  thp_need
  local en df rc
  en=$(thp_mode enabled); df=$(thp_mode defrag)
  thp_start_long_run
  kill -INT "$pid"; kill -INT "$pid"
  wait "$pid"; rc=$?
  assert_eq "$rc" 130 "exit code after two SIGINTs"
  assert_eq "$(thp_mode enabled)" "$en" "THP enabled restored after a second SIGINT"
  assert_eq "$(thp_mode defrag)" "$df" "THP defrag restored after a second SIGINT"
  thp_no_leaks
}

# Issue 28: SIGKILL runs no undo. The THP modes of a killed run stay, and
# the next run used to "restore" what it found (the killed run's modes): the
# original ones were lost for good. Now a marker with the old value, written
# before the change, lets the next run put them back before anything else.
test_thpscale_sigkill_then_next_run_restores_thp() {
  thp_need
  local en df want_en want_df killed
  en=$(thp_mode enabled); df=$(thp_mode defrag)
  want_en=$(other_enabled); want_df=$(other_defrag)
  thp_start_long_run --set global.workdir="$T/work"
  assert_eq "$(thp_mode enabled)" "$want_en" "the run set THP enabled"
  killed=$pid
  kill -9 "$pid"; wait "$pid"
  assert_eq "$(thp_mode enabled)" "$want_en" "a SIGKILLed run leaves its THP mode (nothing can undo it)"
  # the next run asks for the same modes: what it restores at its end must
  # be the machine's modes from before the killed run, not the killed run's
  expect_exit 0 thp_run --force --set global.workdir="$T/work" \
    --set thpscale.thp_enabled="$want_en" --set thpscale.thp_defrag="$want_df"
  assert_grep_err "back to '$en': run $killed was killed"
  assert_eq "$(thp_mode enabled)" "$en" "THP enabled as before the killed run"
  assert_eq "$(thp_mode defrag)" "$df" "THP defrag as before the killed run"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "knob markers left: $(ls "$T/work")"
  thp_no_leaks
}

test_thpscale_threads_zero() {
  need_root
  expect_exit 2 thp_run --set thpscale.threads=0
  assert_grep_err "threads"
  thp_no_leaks
}

test_thpscale_unknown_thp_mode() {
  thp_need
  local en
  en=$(thp_mode enabled)
  expect_exit 2 thp_run --set thpscale.thp_enabled=sometimes
  assert_grep_err "thp_enabled"
  assert_grep_err "sometimes"
  expect_exit 2 thp_run --set thpscale.thp_defrag=often
  assert_grep_err "thp_defrag"
  assert_eq "$(thp_mode enabled)" "$en" "THP untouched"
  thp_no_leaks
}

test_thpscale_mapsize_beyond_node_memory() {
  thp_need
  expect_exit 3 thp_run --set thpscale.mapsize=64T
  assert_grep_err "thpscale.mapsize"
  assert_grep_err "node"
  thp_no_leaks
}

test_thpscale_mapsize_beyond_memcg_limit() {
  thp_need
  expect_exit 2 thp_run --set thpscale.mapsize=512M --set thpscale.memcg_limit=256M
  assert_grep_err "memcg_limit"
  thp_no_leaks
}

test_thpscale_mapsize_not_a_size() {
  thp_need
  expect_exit 2 thp_run --set thpscale.mapsize=lots
  assert_grep_err "thpscale.mapsize"
  assert_grep_err "lots"
  expect_exit 2 thp_run --set thpscale.mapsize=4M --set thpscale.threads=1,2
  assert_grep_err "too small"
}

# THP not compiled in cannot be arranged on this kernel: the test hook
# LRUBENCH_SYSFS_ROOT points the THP knobs at an empty fake /sys.
test_thpscale_probe_without_thp() {
  need_root
  mkdir -p "$T/fakesys"
  LRUBENCH_SYSFS_ROOT="$T/fakesys" expect_exit 3 thp_run
  assert_grep_err "CONFIG_TRANSPARENT_HUGEPAGE"
  thp_no_leaks
}

test_thpscale_data_file_beyond_sparse_image() {
  thp_need
  # 2 x 384M of data files do not fit a 512M image, while 2 x 480M of memory
  # fits any node this suite runs on (the memory check would answer first)
  expect_exit 2 thp_run --set thpscale.mapsize=384M --set thpscale.memcgs=2 \
    --set thpscale.threads=1 --set global.sparse_root=loop-ext4 --set global.sparse_size=512M
  assert_grep_err "global.sparse_size"
  thp_no_leaks
}

# memcgs = 0: one instance in the root memory cgroup (the controller on, no
# memcg of its own), not in lrubench's cgroup nor in a memcg of the run.
thp_in_root_memcg() {
  local c
  for c in $(pgrep -P "$1"); do
    grep -E '^[0-9]+:memory:|^0::' "/proc/$c/cgroup" 2>/dev/null | head -1 | grep -qE ':/$' && return 0
  done
  return 1
}
test_thpscale_memcgs_zero_runs_in_root_cgroup() {
  thp_need
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup"
  grep -E '^[0-9]+:memory:|^0::' /proc/$$/cgroup | head -1 | grep -qE ':/$' &&
    skip "this shell already runs in the root memory cgroup: nothing to tell apart"
  "$LRUBENCH" run -w thpscale -o "$T/r" --label t -i 1000 --set global.warmup=0 \
    --set thpscale.threads=1 --set thpscale.mapsize=256M --set thpscale.memcgs=0 \
    >"$T/out" 2>"$T/err" &
  pid=$!
  local i seen=
  # an instance lives for one fault pass: the check that sees it is the one that counts
  for i in $(seq 1 3000); do
    thp_in_root_memcg "$pid" && { seen=1; break; }
    kill -0 "$pid" 2>/dev/null || { cat "$T/err"; fail "run ended before an instance was seen"; }
    sleep 0.01
  done
  [ -n "$seen" ] || { kill -9 "$pid"; fail "no instance appeared in the root memory cgroup"; }
  [ -z "$(find /sys/fs/cgroup -maxdepth 3 -type d -path "*/lrubench-$pid/thpscale-*")" ] ||
    fail "memcgs=0 created a thpscale memcg"
  kill -INT "$pid"; wait "$pid"; assert_eq "$?" 130 "exit after SIGINT"
  thp_no_leaks
}
