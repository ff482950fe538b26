# SPDX-License-Identifier: GPL-2.0-or-later
# Where the kernel spent the time (src/profile/): the CPU split and reclaim
# counters of every timed iteration, and the profile pass under the real
# perf (perf lock record / perf lock contention on the real kernel's
# lock:contention_begin/end tracepoints), its failures, and cleanup.

PQUICK=(--quick -w readtwice --set global.warmup=0 --set readtwice.runtime=2s --set readtwice.file_size=64M)

need_perf() {
  need_root
  command -v perf >/dev/null 2>&1 || skip "needs perf (apt-get install linux-perf)"
  perf version >/dev/null 2>&1 || skip "perf does not run here: $(perf version 2>&1 | head -1)"
  [ -n "$(ls /sys/kernel/tracing/events/lock/contention_begin 2>/dev/null)" ] ||
    grep -q tracefs /proc/filesystems || skip "no tracefs"
}

# the perf lock record started by lrubench run $1 (pid), if any
perf_of() { pgrep -P "$1" -f "lock record" 2>/dev/null | head -1; }
has_perf() { [ -n "$(perf_of "$1")" ]; }

# A folder of wrappers that run the real perf, with something changed.
perf_wrapper() {   # DIR BODY
  local real
  real=$(command -v perf)
  mkdir -p "$1"
  printf '#!/bin/sh\nREAL=%s\n%s\n' "$real" "$2" >"$1/perf"
  chmod 755 "$1/perf"
}

profile_of() {   # JSON STEP -> the profile detail of the step, as JSON
  python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = [e["profile"] for e in d.get("details", []) if e.get("step") == sys.argv[2] and "profile" in e]
assert len(p) == 1, p
print(json.dumps(p[0]))
EOF
}

test_profile_lock_pass() {
  need_perf
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 2 -o "$T/r" --label p --set readtwice.memcgs=1,2 --profile lock
  python3 - "$T/r/p" <<'EOF' || fail "profiled results"
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "readtwice.json")))
t = {x["title"]: x for x in d["tables"]}
ops = lambda title: {o["op"]: o["samples"] for o in t[title]["ops"]}
# the timed tables hold the 2 timed iterations only: the profiled one is not in them
for title in ("readtwice MB/s aggregate", "readtwice MB/s per memcg"):
    assert not t[title].get("explains"), title
    assert {k: len(v) for k, v in ops(title).items()} == {"memcgs-1": 2, "memcgs-2": 2}, ops(title)
# the lock tables: one profiled pass per op, explaining, lower is better
for title, unit in (("readtwice lru_lock wait", "ms"), ("readtwice lru_lock contended", "count")):
    assert t[title]["explains"] is True and t[title]["better"] == "lower" and t[title]["unit"] == unit
    assert {k: len(v) for k, v in ops(title).items()} == {"memcgs-1": 1, "memcgs-2": 1}, ops(title)
    assert all(v[0] >= 0 for v in ops(title).values())
# the always-on tables: one sample per timed iteration
for title in ("readtwice user CPU %", "readtwice sys CPU %", "readtwice softirq CPU %",
              "readtwice vmstat pgscan/s", "readtwice fairness", "readtwice memcg workingset_refault/s"):
    assert t[title]["explains"] is True, title
    assert {k: len(v) for k, v in ops(title).items()} == {"memcgs-1": 2, "memcgs-2": 2}, (title, ops(title))
# readtwice keeps the CPUs busy: some sys time; Jain's index is in (0, 1]
assert all(x > 0 for v in ops("readtwice sys CPU %").values() for x in v)
assert all(0 < x <= 1 + 1e-9 for v in ops("readtwice fairness").values() for x in v)
assert ops("readtwice fairness")["memcgs-1"] == [1.0, 1.0]
prof = [e for e in d["details"] if "profile" in e]
assert [e["step"] for e in prof] == ["memcgs-1", "memcgs-2"], prof
for e in prof:
    p = e["profile"]
    assert p["status"] == "ok" and p["kind"] == "lock", p
    assert p["lru_lock"]["source"] == "perf lock contention"
    lru = {o["op"]: o["samples"][0] for o in t["readtwice lru_lock wait"]["ops"]}
    assert abs(p["lru_lock"]["wait_total_ms"] - lru[e["step"]]) < 1e-9
    # its own throughput, against the timed mean: the profiler's overhead
    thr = [x for x in p["throughput"] if x["table"] == "readtwice MB/s aggregate"]
    assert len(thr) == 1 and thr[0]["value"] > 0 and thr[0]["ratio"] > 0, thr
    assert os.path.isfile(os.path.join(sys.argv[1], p["perf_output"])), p["perf_output"]
    # a short pass may see no contention at all (issue 30): then its lru_lock
    # count says 0 too; whatever it saw is well-formed
    assert isinstance(p["top_locks"], list), p
    assert all("caller" in x and "lock_taker" in x for x in p["top_locks"]), p["top_locks"]
    if not p["top_locks"]:
        assert ops("readtwice lru_lock contended")[e["step"]] == [0], (e["step"], p)
# every timed iteration's detail carries its counters
timed = [e for e in d["details"] if "memcg_mbps" in e]
assert len(timed) == 4 and all("cpu_percent" in e["counters"] for e in timed), timed
run = json.load(open(os.path.join(sys.argv[1], "run.json")))
assert run["config"]["global"]["profile"] == "lock"
assert run["profile"]["kind"] == "lock" and run["profile"]["lock_source"] == "perf lock contention"
assert run["profile"]["failed_steps"] == 0
EOF
  # perf's own report is kept, and it is perf's format
  assert_grep "contended" "$T/r/p/logs/profile-readtwice-memcgs-2-lock.txt"
  cat "$T/out" "$T/err" >"$T/both"
  assert_grep "profile pass (profile=lock)" "$T/both"
  assert_grep "lru_lock wait" "$T/out"
  [ -z "$(ls /var/tmp/lrubench/run-*/profile-* 2>/dev/null)" ] || fail "perf data or FIFOs left"
  assert_no_leaks
}

test_profile_none_still_splits_cpu() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label n --set readtwice.memcgs=1
  python3 - "$T/r/n/readtwice.json" <<'EOF' || fail "unprofiled results"
import json, sys
d = json.load(open(sys.argv[1]))
titles = {x["title"] for x in d["tables"]}
assert {"readtwice user CPU %", "readtwice sys CPU %", "readtwice irq CPU %", "readtwice softirq CPU %",
        "readtwice iowait CPU %", "readtwice vmstat pgscan/s"} <= titles, titles
assert not any("lru_lock" in x for x in titles), titles
assert not any("profile" in e for e in d["details"])
EOF
  [ -z "$(ls "$T/r/n/logs" | grep profile)" ] || fail "profile logs without a profile"
  assert_eq "$(json_get "$T/r/n/run.json" '["profile"]["kind"]')" none "run.json profile kind"
  assert_no_leaks
}

test_profile_cpu_pass() {
  need_perf
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label c --set readtwice.memcgs=1 --profile cpu
  python3 - "$T/r/c/readtwice.json" <<'EOF' || fail "cpu profile"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
assert "readtwice spinlock CPU %" in t and "readtwice lru_lock wait" not in t, sorted(t)
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "ok" and p["top_symbols"], p
assert all(0 <= s["percent"] <= 100 for s in p["top_symbols"])
EOF
  assert_no_leaks
}

# ---- what cannot run is exit 3 before anything starts ----

test_profile_perf_missing() {
  need_root
  # a PATH without perf (lrubench itself is called by its path)
  PATH=/nonexistent expect_exit 3 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label m --profile lock
  assert_grep_err "no perf in PATH"
  assert_grep_err "lock_stat"
  assert_no_file "$T/r/m"
  PATH=/nonexistent expect_exit 3 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label m --profile cpu
  assert_grep_err "profile=cpu needs perf"
  assert_no_leaks
}

# --dry-run exits as the run would (issue 31): the profile's check is one of
# the run's, so no perf is exit 3 there too, and nothing is created
test_profile_dry_run_perf_missing() {
  need_root
  local kinds="lock cpu"
  # with /proc/lock_stat, profile=lock needs no perf
  [ -e /proc/lock_stat ] && kinds=cpu
  for k in $kinds; do
    PATH=/usr/bin/none expect_exit 3 "$LRUBENCH" run --dry-run --profile "$k" -w mmapread -o "$T/r" --label d
    assert_grep_err "perf"
    assert_no_file "$T/r/d"
  done
  assert_no_leaks
}

test_profile_tracepoints_missing() {
  need_perf
  # No kernel here lacks lock:contention_begin, so a tracefs folder without
  # events plays one (LRUBENCH_TRACEFS, documented as a test knob).
  mkdir -p "$T/fake-tracefs/events/sched"
  LRUBENCH_TRACEFS=$T/fake-tracefs expect_exit 3 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label tp --profile lock
  assert_grep_err "lock:contention_begin"
  assert_grep_err "5.19"
  assert_no_file "$T/r/tp"
  LRUBENCH_TRACEFS=$T/fake-tracefs "$LRUBENCH" check >"$T/out" 2>"$T/err"
  assert_grep "lock tracepoints *no" "$T/out"
  assert_grep "profile=lock *no" "$T/out"
  assert_grep "profile=cpu *yes" "$T/out"
}

test_profile_unknown_kind() {
  expect_exit 2 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label u --profile sometimes
  assert_grep_err "'sometimes' is not one of none|lock|cpu|all"
  expect_exit 2 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label u --set global.profile=yes
  assert_grep_err "global.profile"
  expect_exit 2 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label u --profile
  assert_no_file "$T/r/u"
}

# ---- a profile that fails keeps the timed samples and marks the op ----

test_profile_perf_exits_nonzero() {
  need_perf
  # the real perf, given an option it does not know when it is to record
  perf_wrapper "$T/bin" 'if [ "$1 $2" = "lock record" ]; then exec "$REAL" "$@" --no-such-option; fi
exec "$REAL" "$@"'
  PATH=$T/bin:$PATH expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label x --set readtwice.memcgs=1 --profile lock
  assert_grep_err "profile failed (the timed samples are kept)"
  assert_grep_err "perf lock record exited with"
  python3 - "$T/r/x/readtwice.json" <<'EOF' || fail "failed profile"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
assert len(t["readtwice MB/s aggregate"]["ops"][0]["samples"]) == 1
assert "readtwice lru_lock wait" not in t
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "failed" and "exited with" in p["reason"], p
EOF
  assert_eq "$(json_get "$T/r/x/run.json" '["profile"]["failed_steps"]')" 1 "failed steps"
  assert_no_leaks
}

test_profile_perf_killed() {
  need_perf
  "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label k --set readtwice.memcgs=1 \
    --set readtwice.runtime=20s --profile lock >"$T/out" 2>"$T/err" &
  local pid=$! rc
  wait_for "perf lock record" has_perf "$pid"
  kill -9 "$(perf_of "$pid")"
  wait "$pid"; rc=$?
  assert_eq "$rc" 0 "exit status"
  assert_grep_err "perf lock record killed by signal 9"
  python3 - "$T/r/k/readtwice.json" <<'EOF' || fail "killed perf"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
assert len(t["readtwice MB/s aggregate"]["ops"][0]["samples"]) == 1
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "failed" and "signal 9" in p["reason"], p
EOF
  assert_no_leaks
}

# perf's warnings on stderr are not its report: in a chroot perf 6.1 warns
# "assertion failed at util/namespaces.c:301" before the report of a system-wide
# record, and the cpu pass read that line as the report's first (it failed in a
# fresh Debian root). A wrapper says the same before report and script.
test_profile_cpu_perf_warning_on_stderr() {
  need_perf
  perf_wrapper "$T/bin" 'case $1 in report|script)
  echo "assertion failed at util/namespaces.c:301" >&2 ;; esac
exec "$REAL" "$@"'
  PATH=$T/bin:$PATH expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label w --set readtwice.memcgs=1 --profile cpu
  python3 - "$T/r/w/readtwice.json" <<'EOF' || fail "cpu profile with a warning on stderr"
import json, sys
d = json.load(open(sys.argv[1]))
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "ok" and p["top_symbols"] and p.get("folded"), p.get("reason", p)
EOF
  # the warning is kept beside the report, not lost
  grep -q "namespaces.c:301" "$T"/r/w/logs/*cpu.txt.stderr || fail "perf's stderr not kept"
  grep -q "namespaces.c:301" "$T"/r/w/logs/*cpu.txt && fail "perf's stderr in its report"
  assert_no_leaks
}

test_profile_unparseable_output() {
  need_perf
  # perf's report with one row perf never prints, right under its header
  perf_wrapper "$T/bin" 'if [ "$1 $2" = "lock contention" ]; then
  out=$(mktemp); "$REAL" "$@" >"$out" 2>&1; r=$?
  sed "/type   caller/a\\       12     71.95 us   garbage     5.99 us     spinlock   folio_batch_move_lru+0x88" "$out" >&2
  rm -f "$out"; exit $r; fi
exec "$REAL" "$@"'
  PATH=$T/bin:$PATH expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label g --set readtwice.memcgs=1 --profile lock
  assert_grep_err "cannot read the output of perf $(perf version | awk '{print $3}') lock contention, line"
  assert_grep_err "garbage"
  assert_eq "$(profile_of "$T/r/g/readtwice.json" memcgs-1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" failed "status"
  assert_no_leaks
}

# ---- cleanup ----

test_profile_sigint_kills_perf() {
  need_perf
  "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label i --set readtwice.memcgs=1 \
    --set readtwice.runtime=30s --profile lock >"$T/out" 2>"$T/err" &
  local pid=$! rc perf
  wait_for "perf lock record" has_perf "$pid"
  perf=$(perf_of "$pid")
  [ -n "$(ls /var/tmp/lrubench/run-$pid/ | grep profile-lock)" ] || fail "no perf files while it runs"
  kill -INT "$pid"
  wait "$pid"; rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  [ -d "/proc/$perf" ] && fail "perf $perf still runs"
  assert_no_file "/var/tmp/lrubench/run-$pid"
  assert_no_file "/sys/fs/cgroup/cpuacct/lrubench-$pid"
  assert_eq "$(json_get "$T/r/i/run.json" '["status"]')" interrupted "status"
  assert_no_leaks
}

test_profile_mounts_tracefs_privately() {
  need_perf
  # In a mount namespace of the test's own where tracefs is not mounted:
  # lrubench mounts it for its run, where nobody else sees it, and nothing
  # is left mounted in the test's namespace afterwards.
  unshare -m --propagation private bash -c '
    set -u
    while grep -q " /sys/kernel/tracing tracefs" /proc/mounts; do umount /sys/kernel/tracing || exit 9; done
    "$0" run "$@" >"'"$T"'/out" 2>"'"$T"'/err" &
    pid=$!
    seen=no
    for _ in $(seq 1 600); do
      if grep -q " /sys/kernel/tracing tracefs" /proc/$pid/mounts 2>/dev/null && pgrep -P $pid -f "lock record" >/dev/null; then seen=yes; break; fi
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    wait $pid; rc=$?
    echo "rc=$rc seen=$seen"
    grep " tracefs " /proc/mounts && echo "LEFT MOUNTED"
    exit 0' "$LRUBENCH" "${PQUICK[@]}" -i 1 -o "$T/r" --label tf --set readtwice.memcgs=1 --profile lock >"$T/ns" 2>&1
  assert_grep "rc=0 seen=yes" "$T/ns"
  grep -q "LEFT MOUNTED" "$T/ns" && fail "tracefs left mounted: $(cat "$T/ns")"
  assert_eq "$(profile_of "$T/r/tf/readtwice.json" memcgs-1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" ok "status"
  assert_no_leaks
}

# ---- check, compare ----

test_check_reports_profiling() {
  # exit 3 when a workload cannot run here (kernbench without its source): not ours to judge
  "$LRUBENCH" check >"$T/out" 2>"$T/err"
  for what in perf tracefs "lock tracepoints" perf_event_paranoid lock_stat profile=lock profile=cpu \
    profile=counters; do
    grep -Eq "^  $what +(yes|no) " "$T/out" || fail "check says nothing about $what"
  done
  # every "no" says why
  grep -A0 -E "^  (perf|tracefs|lock tracepoints|perf_event_paranoid|lock_stat|profile=[a-z]+) +no *$" "$T/out" &&
    fail "a 'no' without its reason"
  PATH=/nonexistent "$LRUBENCH" check >"$T/out" 2>"$T/err"
  assert_grep "perf *no *no perf in PATH" "$T/out"
}

test_compare_profile_tables() {
  need_perf
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 2 -o "$T/r" --label A --set readtwice.memcgs=1 --profile lock
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 2 -o "$T/r" --label B --set readtwice.memcgs=1
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  assert_grep "Note: profiled: A (lock); not profiled: B" "$T/out"
  grep -q "configs differ" "$T/out" && fail "a profile difference is not a config difference"
  # the measured tables first, then the ones that explain them
  python3 - "$T/out" <<'EOF' || fail "compare layout"
import sys
text = open(sys.argv[1]).read()
head = text.index("== readtwice: where the kernel spent the time")
assert text.index("\nreadtwice MB/s aggregate\n") < head
assert text.index("\nreadtwice sys CPU %\n") > head
assert text.index("\nreadtwice lru_lock wait\n") > head
EOF
  expect_exit 0 "$LRUBENCH" compare -f json "$T/r"
  python3 - "$T/out" <<'EOF' || fail "compare json"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["workloads"][0]["tables"]}
assert t["readtwice lru_lock wait"]["explains"] is True and "explains" not in t["readtwice MB/s aggregate"]
assert d["profile_note"].startswith("profiled: A (lock)")
EOF
  # the gate never fails on an explaining table: B's measured tables made
  # A's (so only noise-free samples are gated), its sys time made 10x worse
  python3 - "$T/r/A/readtwice.json" "$T/r/B/readtwice.json" <<'EOF'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
measured = {t["title"]: t for t in a["tables"] if not t.get("explains")}
b["tables"] = [measured.get(t["title"], t) for t in b["tables"]]
for t in b["tables"]:
    if t["title"] == "readtwice sys CPU %":
        for o in t["ops"]:
            o["samples"] = [x * 10 + 50 for x in o["samples"]] + [x * 10 + 51 for x in o["samples"]]
json.dump(b, open(sys.argv[2], "w"))
EOF
  # (A and B ran this one kernel build: the gate allows it here, and what
  # the shared machine's kernel logged meanwhile is not this test's subject)
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 1 --allow-same-kernel --allow-kernel-warnings \
    --junit "$T/j.xml" "$T/r"
  grep -q "sys CPU" "$T/j.xml" && fail "an explaining table in the JUnit cases"
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$T/r"
  assert_file "$T/plots/readtwice-cpu-split.gp"
  assert_file "$T/plots/readtwice-lru-lock-wait-beside-mb-s-aggregate.gp"
  if command -v gnuplot >/dev/null; then
    python3 "$LRUBENCH_SRC/tests/integration/plot_check.py" png "$T/plots/readtwice-cpu-split.png" 960 600 ||
      fail "cpu split png"
  fi
}

# profile_passes = 3: three untimed profiled passes per step, so the lock
# tables hold three samples per op and compare tests them (one pass a
# side is never tested: model.c); each pass has its own detail and logs.
test_profile_three_passes_are_tested() {
  need_perf
  local l
  for l in A B; do
    expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 2 -o "$T/r" --label $l --set readtwice.memcgs=1 \
      --profile lock --set global.profile_passes=3
  done
  cat "$T/out" "$T/err" >"$T/both"
  assert_grep "profile pass 3/3 (profile=lock)" "$T/both"
  assert_file "$T/r/B/logs/profile-readtwice-memcgs-1-pass3-lock.txt"
  python3 - "$T/r/B" <<'PY' || fail "three profiled passes"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
t = {x["title"]: x for x in d["tables"]}
for title in ("readtwice lru_lock wait", "readtwice lru_lock contended"):
    ops = {o["op"]: o["samples"] for o in t[title]["ops"]}
    assert len(ops["memcgs-1"]) == 3, (title, ops)
# the timed tables keep the two timed iterations only
assert all(len(o["samples"]) == 2 for o in t["readtwice MB/s aggregate"]["ops"])
passes = sorted(e["profile"]["pass"] for e in d["details"] if "profile" in e)
assert passes == [1, 2, 3], passes
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["profile"]["passes"] == 3 and run["config"]["global"]["profile_passes"] == "3", run["profile"]
PY
  expect_exit 0 "$LRUBENCH" compare -f json "$T/r"
  python3 - "$T/out" <<'PY' || fail "compare tests the lock table"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["workloads"][0]["tables"]}
op = [o for o in t["readtwice lru_lock wait"]["ops"] if o["op"] == "memcgs-1"][0]
b = op["labels"][1] if "labels" in op else op["cells"][1]
assert op["labels"][0]["n"] == 3 and b["n"] == 3 and b["compared"] is True and "significant" in b["mmtests_ttest"], b
PY
  assert_no_leaks
}

# profile = counters on this machine: its VM has no PMU, so the kind is
# refused before anything starts (exit 3) and check says why.
test_profile_counters_refused_without_pmu() {
  need_perf
  perf stat -e instructions true 2>&1 | grep -q "not supported" || skip "this machine has a hardware PMU"
  expect_exit 3 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label c --profile counters
  assert_grep_err "profile=counters is not available: no hardware PMU"
  assert_no_file "$T/r/c"
  expect_exit 3 "$LRUBENCH" run --dry-run "${PQUICK[@]}" -o "$T/r" --label c --profile counters
  # (check exits 3 when any workload cannot run here: not this test's subject)
  "$LRUBENCH" check >"$T/out" 2>"$T/err"
  grep "profile=counters" "$T/out" | grep -q "no .*no hardware PMU" || { cat "$T/out"; fail "check's counters line"; }
  assert_no_leaks
}

# profile = c2c on this machine: perf c2c needs a PMU that samples memory
# accesses and this VM has no PMU at all, so the kind is refused before
# anything starts (exit 3), check says why, and the software events that
# stand in for the counters kind's do not make it possible.
test_profile_c2c_refused_without_pmu() {
  need_perf
  perf stat -e instructions true 2>&1 | grep -q "not supported" || skip "this machine has a hardware PMU"
  expect_exit 3 "$LRUBENCH" run "${PQUICK[@]}" -o "$T/r" --label c --profile c2c
  assert_grep_err "profile=c2c is not available: no hardware PMU"
  assert_no_file "$T/r/c"
  LRUBENCH_COUNTERS_EVENTS=task-clock expect_exit 3 "$LRUBENCH" run --dry-run "${PQUICK[@]}" \
    -o "$T/r" --label c --set global.profile=c2c
  assert_grep_err "profile=c2c is not available: no hardware PMU"
  "$LRUBENCH" check >"$T/out" 2>"$T/err"
  grep "profile=c2c" "$T/out" | grep -q "no .*not available: no hardware PMU" || { cat "$T/out"; fail "check's c2c line"; }
  assert_no_leaks
}

# The c2c pass end to end where nothing here can sample memory accesses:
# the two things mocked, and only those, are the PMU (LRUBENCH_C2C_PMU) and
# perf c2c itself, by a wrapper that checks lrubench's argv ("c2c record --"
# then perf record's options), records with the real perf record (its
# control FIFOs, cpu-clock) and answers "c2c report" with the hand-written
# fixture. The pass's tables, details and kept report, compare's table of
# them, and nothing left running are real.
test_profile_c2c_pass_with_a_mocked_pmu() {
  need_perf
  cp "$LRUBENCH_SRC/tests/fixtures/profile/perf-6.1-c2c-report-stdio.txt" "$T/c2c.txt"
  perf_wrapper "$T/bin" 'case "$1 $2" in
"c2c record") [ "$3" = "--" ] || { echo "perf c2c record: no -- before perf record options: $*" >&2; exit 129; }
  shift 3; exec "$REAL" record -e cpu-clock "$@" ;;
"c2c report") echo "$*" >'"$T"'/report-args; cat '"$T"'/c2c.txt; exit 0 ;;
esac
exec "$REAL" "$@"'
  PATH=$T/bin:$PATH LRUBENCH_C2C_PMU=cpu expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" \
    --label c --set readtwice.memcgs=1 --profile c2c
  assert_grep "c2c report -i .* --stdio -d tot -c iaddr --no-source --full-symbols" "$T/report-args"
  python3 - "$T/r/c/readtwice.json" <<'PY' || fail "the c2c pass"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
h, r = t["readtwice c2c HITM"], t["readtwice c2c remote HITM"]
assert h["explains"] is True and h["unit"] == "samples", h
assert h["ops"] == [{"op": "memcgs-1", "samples": [7122]}] or h["ops"][0]["samples"] == [7122], h["ops"]
assert r["ops"][0]["samples"] == [602], r["ops"]
assert len(t["readtwice MB/s aggregate"]["ops"][0]["samples"]) == 1
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "ok" and p["kind"] == "c2c", p
c = p["c2c"]
assert c["hitm_local"] == 6520 and c["cachelines"] == 3, c
assert [l["symbol"] for l in c["lines"]][:2] == ["_raw_spin_lock_irqsave", "rmqueue_bulk"], c["lines"]
assert c["lines"][1]["data_address"] == "0xffff88903fffa5a8", c["lines"][1]
assert p["perf_c2c_output"] == "logs/profile-readtwice-memcgs-1-c2c.txt", p
PY
  assert_file "$T/r/c/logs/profile-readtwice-memcgs-1-c2c.txt"
  # a second label: compare shows the table under the explaining heading
  PATH=$T/bin:$PATH LRUBENCH_C2C_PMU=cpu expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" \
    --label d --set readtwice.memcgs=1 --profile c2c
  expect_exit 0 "$LRUBENCH" compare "$T/r/c" "$T/r/d"
  cp "$T/out" "$T/c.txt"
  python3 - "$T/c.txt" <<'PY' || fail "compare's c2c table"
import sys
t = open(sys.argv[1]).read()
h = t.index("where the kernel spent the time")
assert t.index("readtwice c2c HITM") > h and t.index("readtwice c2c remote HITM") > h, t[h:h + 400]
PY
  [ -z "$(find "$T/r" -name '*.data')" ] || fail "perf.data left in the results: $(find "$T/r" -name '*.data')"
  assert_no_leaks
}

# The counters pass end to end, with software events in place of the
# hardware ones (LRUBENCH_COUNTERS_EVENTS: the one thing mocked, because no
# PMU exists here): perf stat runs around the profiled pass, its counts are
# tables with perf's units, what it could not count is named, its output
# kept, nothing left running.
test_profile_counters_pass_with_software_events() {
  need_perf
  LRUBENCH_COUNTERS_EVENTS=task-clock,page-faults,cycles expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" \
    -i 1 -o "$T/r" --label c --set readtwice.memcgs=1 --profile counters
  python3 - "$T/r/c" <<'PY' || fail "counters pass"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
t = {x["title"]: x for x in d["tables"]}
assert t["readtwice task-clock"]["unit"] == "msec" and t["readtwice task-clock"]["explains"], t["readtwice task-clock"]
assert t["readtwice page-faults"]["ops"][0]["samples"][0] > 0
assert "readtwice cycles" not in t and "readtwice IPC" not in t
p = [e["profile"] for e in d["details"] if "profile" in e][0]
assert p["status"] == "ok", p
assert p["counters_hw"]["not_counted"]["cycles"] == "not supported", p["counters_hw"]
PY
  assert_grep "task-clock" "$T/r/c/logs/profile-readtwice-memcgs-1-counters.txt"
  pgrep -f "perf stat -a -x" >/dev/null && fail "perf stat left running"
  assert_no_leaks
}

# ---- issue 27: the differential CPU profile and the flame graphs ----

# Two labels of readtwice on this kernel under the real perf (cpu-clock:
# no PMU here), the second with a memcg limit under its readers' files
# (memcg reclaim in place of none: a label must keep the op names of the
# other, memcgs-N, for its ops to be compared): compare's JSON has the
# op's differential table with a top symbol that moved, text has it under
# the explaining heading, plot writes a flame graph per label and a
# differential one, each well-formed XML with that symbol in it, and the
# folded stacks stay under 1 MiB.
test_profile_cpu_differential_and_flamegraphs() {
  need_perf
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label A --set readtwice.memcgs=2 --profile cpu
  expect_exit 0 "$LRUBENCH" run "${PQUICK[@]}" -i 1 -o "$T/r" --label B --set readtwice.memcgs=2 \
    --set readtwice.memcg_limit=16M --profile cpu
  for l in A B; do
    f=$T/r/$l/logs/profile-readtwice-memcgs-2-cpu.folded
    [ -f "$f" ] || fail "no folded stacks for $l"
    [ "$(stat -c %s "$f")" -lt 1048576 ] || fail "$f is 1 MiB or more"
    [ ! -e "$T/r/$l/logs/profile-readtwice-memcgs-2-cpu-script.txt" ] || fail "perf script's output left"
  done
  expect_exit 0 "$LRUBENCH" compare -f json "$T/r/A" "$T/r/B"
  cp "$T/out" "$T/c.json"
  python3 - "$T/c.json" >"$T/top" <<'PY' || fail "differential table"
import json, sys
d = json.load(open(sys.argv[1]))
w = [x for x in d["workloads"] if x["workload"] == "readtwice"][0]
diffs = w["cpu_profile_diff"]
assert [(x["op"], x["baseline"], x["label"]) for x in diffs] == [("memcgs-2", "A", "B")], diffs
top = diffs[0]["top"]
assert 0 < len(top) <= 10 and diffs[0]["symbols"] >= len(top), diffs[0]
assert abs(top[0]["self_change"]) > 0, top[0]
ch = [abs(x["self_change"]) for x in top]
assert ch == sorted(ch, reverse=True), ch
assert all(0 <= v <= 100 for x in top for v in x["self"] + x["children"]), top
print(top[0]["symbol"])
PY
  sym=$(cat "$T/top")
  expect_exit 0 "$LRUBENCH" compare --profile-top 3 "$T/r/A" "$T/r/B"
  cp "$T/out" "$T/c.txt"
  python3 - "$T/c.txt" <<'PY' || fail "the text table"
import sys
t = open(sys.argv[1]).read()
h = t.index("where the kernel spent the time")
i = t.index("readtwice memcgs-2: CPU profile of B (B) against A (A)")
assert i > h, "not under the explaining heading"
rows = t[i:].split("\n")[3:6]
assert all(r.startswith("  [") for r in rows), rows
assert "(3 of " in t[i:], t[i:i + 800]
PY
  expect_exit 0 "$LRUBENCH" plot -o "$T/plot" "$T/r/A" "$T/r/B"
  assert_flamegraphs "$T/plot" "$sym"
  assert_no_leaks
}

# A folded-stacks file in a results folder that is not one (a stack
# without its count, here on line 3): plot refuses it naming the file and
# the line, and leaves no figure behind.
test_profile_hostile_folded_file_refused() {
  mkdir -p "$T/r/A/logs" "$T/r/B/logs"
  for l in A B; do
    cat >"$T/r/$l/run.json" <<JSON
{"schema": 1, "label": "$l", "status": "complete", "started": "2026-01-0${l/A/1}${l/B/2}T00:00:00Z", "system": {"nr_cpus": 2}}
JSON
    cat >"$T/r/$l/readtwice.json" <<JSON
{"schema": 1, "workload": "readtwice", "tables": [{"title": "readtwice MB/s aggregate", "unit": "MB/s", "better": "higher",
  "ops": [{"op": "memcgs-1", "samples": [100, 101, 99]}]}],
 "details": [{"step": "memcgs-1", "profile": {"kind": "cpu", "status": "ok",
   "folded": "logs/profile-readtwice-memcgs-1-cpu.folded", "cpu_symbols": []}}]}
JSON
    printf 'readtwice;read;vfs_read_[k] 5\nreadtwice;read 2\n' >"$T/r/$l/logs/profile-readtwice-memcgs-1-cpu.folded"
  done
  printf 'readtwice;read;vfs_read_[k] 5\nreadtwice;read 2\nreadtwice;read;<svg onload=x>\n' \
    >"$T/r/B/logs/profile-readtwice-memcgs-1-cpu.folded"
  "$LRUBENCH" plot -o "$T/plot" "$T/r/A" "$T/r/B" >"$T/out" 2>"$T/err"
  [ $? -ne 0 ] || fail "plot took a hostile folded file"
  assert_grep "B/logs/profile-readtwice-memcgs-1-cpu.folded: line 3: expected" "$T/err"
  [ -z "$(ls -A "$T/plot" 2>/dev/null)" ] || fail "plot left figures behind: $(ls "$T/plot")"
}
