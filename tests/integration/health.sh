# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's health during a run, and children that get stuck, on the
# real kernel (root). tests/helpers/in_memcg acts on the memcg a step of the
# run creates, while that step runs:
#  - kernel messages: a test cannot make the kernel WARN on purpose, so the
#    helper writes stand-ins to /dev/kmsg (lrubench counts what reads like
#    the kernel's reports, and marks those written from user space);
#  - an OOM kill is real: the helper joins a memcg with a 32M limit and
#    touches 256M of anonymous memory on a machine without swap;
#  - a stuck reader: the helper SIGSTOPs one, a stand-in for a reader the
#    kernel holds in D state.

IN_MEMCG=${LRUBENCH_HELPERS:-build/rel/helpers}/in_memcg

# The memory controller's hierarchy: v1's memory mount, else cgroup2.
memcg_root() {
  awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts | grep . ||
    awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts
}

need_memcg() {
  need_root
  [ -x "$IN_MEMCG" ] || skip "no $IN_MEMCG (make tests)"
  [ -n "$(memcg_root)" ] || skip "no memory cgroup controller"
}

# Start a readtwice run in the background: LABEL [extra options...]; sets LB_PID.
start_run() {
  local label=$1; shift
  "$LRUBENCH" run -q -w readtwice -i 2 --set global.warmup=0 --set readtwice.memcgs=1,2 \
    --set readtwice.file_size=64M -o "$T/res" --label "$label" "$@" \
    >"$T/run-$label.out" 2>"$T/run-$label.err" &
  LB_PID=$!
}

py() { python3 -c "$@"; }

test_kernel_messages_counted_per_op() {
  need_memcg
  start_run warn --set readtwice.runtime=2s
  # readtwice-1 exists only during memcgs-2: the stand-ins belong to that op
  "$IN_MEMCG" --kmsg "WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 lrubench-test stand-in+0x0/0x0" \
    --kmsg "WARNING: possible circular locking dependency detected (lrubench-test stand-in)" \
    "$(memcg_root)/lrubench-$LB_PID/readtwice-1" || fail "in_memcg failed"
  wait "$LB_PID"; local rc=$?
  [ "$rc" = 0 ] || { cat "$T/run-warn.err"; fail "run exit $rc"; }
  py 'import json,sys
d=json.load(open(sys.argv[1]))["kernel_health"]
ev={(e["step"],e["kind"]):e for e in d["events"] if e["workload"]=="readtwice"}
w=ev[("memcgs-2","warning")]; l=ev[("memcgs-2","lockdep")]
assert w["count"]>=1 and l["count"]>=1, ev
assert "lrubench-test stand-in" in w["first"][0], w
assert w["from_user_space"] is True
assert not any(k[0]=="memcgs-1" and "lrubench-test" in " ".join(e.get("first",[])) for k,e in ev.items())
' "$T/res/warn/run.json" || fail "events not counted for memcgs-2"
  # compare says it under the table, and the gate fails on it
  cp -r "$T/res/warn" "$T/res/copy"
  py 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["label"]="copy"; json.dump(d,open(p,"w"))' \
    "$T/res/copy/run.json"
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 50 --allow-same-kernel --junit "$T/j.xml" \
    "$T/res/warn" "$T/res/copy"
  assert_grep "^kernel copy logged [0-9]* warnings\? and [0-9]* lockdep reports\? during memcgs-2$" "$T/out"
  assert_grep "^  first: WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 lrubench-test stand-in" "$T/out"
  assert_grep "^lrubench: kernel health: kernel warn logged .* during readtwice memcgs-2" "$T/err"
  need_cmd xmllint libxml2-utils
  assert_eq "$(xmllint --xpath 'string(//testcase[@name="kernel health of copy"]/failure/@type)' "$T/j.xml")" \
    "kernel health" "JUnit failure"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 50 --allow-same-kernel --allow-kernel-warnings \
    "$T/res/warn" "$T/res/copy"
  assert_no_leaks
}

test_real_oom_kill_fails_the_op() {
  need_memcg
  [ "$(wc -l </proc/swaps)" -le 1 ] || skip "swap is on: an anonymous hog would be swapped, not OOM-killed"
  start_run oom --set readtwice.runtime=3s --set readtwice.memcg_limit=32M
  # the first readtwice-0 is memcgs-1's: 256M of anonymous memory in 32M
  "$IN_MEMCG" --hog $((256 << 20)) "$(memcg_root)/lrubench-$LB_PID/readtwice-0" 2>"$T/hog.err" &
  local hog=$!
  wait "$hog"; local hogrc=$?
  wait "$LB_PID"; local rc=$?
  assert_eq "$hogrc" 137 "the hog was not OOM-killed (SIGKILL)"
  assert_eq "$rc" 1 "run exit"
  assert_grep "readtwice: memcgs-1: the kernel OOM-killed pid $hog (in_memcg) in memcg /lrubench-$LB_PID/readtwice-0" \
    "$T/run-oom.err"
  assert_grep "memcgs-1 iteration 1 failed; going on with the next step" "$T/run-oom.err"
  py 'import json,sys
d=json.load(open(sys.argv[1])); hog=sys.argv[2]
assert d["status"]=="failed", d["status"]
f=d["failed_ops"]; assert len(f)==1 and f[0]["step"]=="memcgs-1", f
assert f[0]["reason"].startswith("the kernel OOM-killed pid %s (in_memcg)" % hog), f
ev=[e for e in d["kernel_health"]["events"] if e["kind"]=="oom_kill" and e["step"]=="memcgs-1"]
assert ev and ev[0]["count"]==1, d["kernel_health"]
assert "task_memcg=/lrubench-%s/readtwice-0" % sys.argv[3] in ev[0]["first"][0], ev
assert "from_user_space" not in ev[0]
r=json.load(open(sys.argv[4]))
ops={o["op"]:len(o["samples"]) for t in r["tables"] for o in t["ops"]}
assert ops=={"memcgs-2": 2}, ops
' "$T/res/oom/run.json" "$hog" "$LB_PID" "$T/res/oom/readtwice.json" || fail "run.json"
  # compare: the OOM kill under the table, the failed op, and a gate that fails
  cp -r "$T/res/oom" "$T/res/base"
  py 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["label"]="base"; json.dump(d,open(p,"w"))' \
    "$T/res/base/run.json"
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 50 --allow-same-kernel "$T/res/base" "$T/res/oom"
  assert_grep "^kernel oom logged 1 OOM kill during memcgs-1$" "$T/out"
  assert_grep "^oom: memcgs-1 iteration 1 failed: the kernel OOM-killed pid $hog" "$T/out"
  assert_grep "^lrubench: missing data: oom: run status is 'failed'" "$T/err"
  assert_no_leaks
}

# iterations = auto (issue 19) with a failed op: the OOM kill ends memcgs-1's
# step alone (no more iterations, no decision resting on it), memcgs-2 runs to
# its cap, and --resume measures memcgs-1 again from its start.
test_oom_in_auto_run_then_resume() {
  need_memcg
  [ "$(wc -l </proc/swaps)" -le 1 ] || skip "swap is on: an anonymous hog would be swapped, not OOM-killed"
  local auto=(-i auto --set global.min_iterations=2 --set global.max_iterations=3
              --set global.precision=0.01% --set readtwice.runtime=3s --set readtwice.memcg_limit=32M)
  start_run oomauto "${auto[@]}"
  "$IN_MEMCG" --hog $((256 << 20)) "$(memcg_root)/lrubench-$LB_PID/readtwice-0" 2>"$T/hog.err" &
  local hog=$!
  wait "$hog"; local hogrc=$?
  wait "$LB_PID"; local rc=$?
  assert_eq "$hogrc" 137 "the hog was not OOM-killed (SIGKILL)"
  assert_eq "$rc" 1 "run exit"
  assert_grep "memcgs-1 iteration 1 failed; going on with the next step" "$T/run-oomauto.err"
  py 'import json,sys
d=json.load(open(sys.argv[1])); r=json.load(open(sys.argv[2]))
assert d["status"]=="failed", d["status"]
assert [f["step"] for f in d["failed_ops"]]==["memcgs-1"], d["failed_ops"]
ops={o["op"]:len(o["samples"]) for o in r["tables"][0]["ops"]}
assert ops=={"memcgs-2": 3}, ops                     # the cap, 0.01% is out of reach
rec=[a for a in r.get("adaptive", []) if a["decides"]]
assert [a["op"] for a in rec]==["memcgs-2"], rec       # no record of the failed op
assert rec[0]["stopped"]=="iteration cap", rec
' "$T/res/oomauto/run.json" "$T/res/oomauto/readtwice.json" || fail "the failed auto run"
  # --resume: the same command, without the hog
  "$LRUBENCH" run -q -w readtwice -i 2 --set global.warmup=0 --set readtwice.memcgs=1,2 \
    --set readtwice.file_size=64M -o "$T/res" --label oomauto "${auto[@]}" --resume >"$T/out" 2>"$T/err"
  assert_eq "$?" 0 "exit of --resume"
  py 'import json,sys
d=json.load(open(sys.argv[1])); r=json.load(open(sys.argv[2]))
assert d["status"]=="complete" and d.get("resumed"), (d["status"], d.get("resumed"))
ops={o["op"]:len(o["samples"]) for o in r["tables"][0]["ops"]}
assert ops=={"memcgs-1": 3, "memcgs-2": 3}, ops        # memcgs-2 not run again
rec={a["op"]:a for a in r["adaptive"] if a["decides"]}
assert sorted(rec)==["memcgs-1","memcgs-2"] and all(a["stopped"]=="iteration cap" for a in rec.values()), rec
' "$T/res/oomauto/run.json" "$T/res/oomauto/readtwice.json" || fail "the resumed auto run"
  assert_no_leaks
}

test_stuck_reader_ends_the_op() {
  need_memcg
  start_run stuck --set readtwice.runtime=2s --set global.stuck_timeout=2s
  # SIGSTOP stands in for D state: the reader stops running, never ends
  local reader
  reader=$("$IN_MEMCG" --stop-member "$(memcg_root)/lrubench-$LB_PID/readtwice-0") || fail "in_memcg failed"
  wait "$LB_PID"; local rc=$?
  assert_eq "$rc" 1 "run exit"
  # stopped before or after it said it was ready: either way stuck, and named
  assert_grep "readtwice reader [0-9]* of memcg 0 \(.*\)\? *(pid $reader) is stuck: not done 2 s past its deadline" \
    "$T/run-stuck.err"
  assert_grep "pid $reader (lrubench) stopped (T), kernel stack: " "$T/run-stuck.err"
  assert_grep "memcgs-1 iteration 1 failed; going on with the next step" "$T/run-stuck.err"
  kill -0 "$reader" 2>/dev/null && fail "the stuck reader $reader was left behind"
  py 'import json,sys
d=json.load(open(sys.argv[1]))
assert d["status"]=="failed"
f=d["failed_ops"]; assert len(f)==1 and f[0]["step"]=="memcgs-1", f
assert "is stuck" in f[0]["reason"] and "stopped (T)" in f[0]["reason"], f
r=json.load(open(sys.argv[2]))
assert {o["op"] for t in r["tables"] for o in t["ops"]}=={"memcgs-2"}
' "$T/res/stuck/run.json" "$T/res/stuck/readtwice.json" || fail "run.json"
  assert_no_leaks
}
