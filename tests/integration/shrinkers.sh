# SPDX-License-Identifier: GPL-2.0-or-later
# shrinkers against the real kernel: a real parent memcg with a limit and
# N = 4 real child memcgs, a real tmpfs mounted in each by a task of that
# memcg, M = 2 real mounters mounting and unmounting while a presser streams
# a real sparse file; the results checked against the details; a mounter
# killed and a mount that fails fail their op only; SIGKILL of lrubench
# leaves no mount (the namespace goes with the last process) and the next
# run removes its memcgs; profile = reclaim's mm_shrink_slab latency; the
# bad inputs with their exit codes.
# run-tests: timeout=600

SK=(-w shrinkers --quick --set global.warmup=0 --set shrinkers.memcgs=4 --set shrinkers.mounters=2
    --set shrinkers.memcg_limit=64M)

sk_cg() { if [ -d /sys/fs/cgroup/memory ]; then echo "/sys/fs/cgroup/memory/lrubench-$1/shrinkers"; \
  else echo "/sys/fs/cgroup/lrubench-$1/shrinkers"; fi; }
# pids of mounters (the children name themselves) in child memcg I of run PID
sk_tasks_of() {
  local p
  for p in $(cat "$(sk_cg "$1")/shrinkers-$2/cgroup.procs" 2>/dev/null); do
    [ "$(cat /proc/$p/comm 2>/dev/null)" = lrb-mounter ] && echo "$p"
  done
}
sk_has_task() { [ -n "$(sk_tasks_of "$1" "$2")" ]; }
# tmpfs mounts of the workload in the mount namespace of PID
sk_mounts_of() { nsenter -t "$1" -m grep -c ' - tmpfs lrubench-shrinkers ' /proc/self/mountinfo 2>/dev/null; }
sk_mounted() { [ "$(sk_mounts_of "$1")" -ge "$2" ] 2>/dev/null; }
# a process other than those of the test in mount namespace NS
ns_in_use() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$1" ] && return 0
  done
  return 1
}
no_ns() { ! ns_in_use "$1"; }

# N = 4, M = 2: while it runs, the parent has its limit, every child memcg
# its tmpfs and the mounters theirs; after, ops/s and latencies recorded
# and matching the details, and nothing left.
test_shrinkers_n4_m2_records_ops_and_latencies() {
  need_root
  need_cmd nsenter util-linux
  "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --label a --set shrinkers.runtime=4s \
    --set "global.workdir=$T/work" >"$T/out" 2>"$T/err" &
  local pid=$! cg i lim
  wait_for "a mounter in memcg 1" sk_has_task $pid 1
  cg=$(sk_cg $pid)
  lim=$(cat "$cg/memory.limit_in_bytes" 2>/dev/null || cat "$cg/memory.max")
  assert_eq "$lim" $((64 << 20)) "the parent's limit"
  for i in 1 2 3 4; do [ -d "$cg/shrinkers-$i" ] || fail "no child memcg shrinkers-$i"; done
  # the four settlers' tmpfs stay mounted; the mounters' come and go
  wait_for "4 tmpfs mounts in the run's namespace" sk_mounted $pid 4
  grep -q 'lrubench-shrinkers' /proc/self/mountinfo && fail "the run's mounts are visible outside"
  wait $pid; assert_eq "$?" 0 "exit"
  assert_eq "$(json_get "$T/r/a/run.json" '["status"]')" complete "status"
  python3 - "$T/r/a" <<'PY' || fail "shrinkers.json"
import json, sys
d = json.load(open(sys.argv[1] + "/shrinkers.json"))
t = {x["title"]: x for x in d["tables"] if not x.get("explains")}
assert sorted(t) == ["shrinkers mount latency", "shrinkers mount+umount ops/s",
                     "shrinkers reclaim pages/s", "shrinkers umount latency"], sorted(t)
for x in t.values():
    assert x["x_axis"] == {"name": "mounters", "unit": "count"}, x["x_axis"]
[det] = [x for x in d["details"] if x["step"] == "memcgs-4-mounters-2"]
assert det["memcgs"] == 4 and det["mounters"] == 2 and det["pressers"] == 1, det
ops = {o["op"]: o["samples"] for o in t["shrinkers mount+umount ops/s"]["ops"]}
assert list(ops) == ["memcgs-4-mounters-2"], ops
assert ops["memcgs-4-mounters-2"][0] == det["ops_per_s"] > 0, (ops, det)
assert len(det["mounter_ops_per_s"]) == 2 and all(v > 0 for v in det["mounter_ops_per_s"]), det
assert abs(sum(det["mounter_ops_per_s"]) - det["ops_per_s"]) < 1e-6 * det["ops_per_s"], det
for kind in ("mount", "umount"):
    h = det[kind]
    lat = {o["op"]: o["samples"][0] for o in t["shrinkers %s latency" % kind]["ops"]}
    assert lat["p50-memcgs-4-mounters-2"] == h["p50_us"], (lat, h)
    assert lat["p99-memcgs-4-mounters-2"] == h["p99_us"] and lat["max-memcgs-4-mounters-2"] == h["max_us"]
    assert 0 < h["p50_us"] <= h["p99_us"] <= h["max_us"] * 1.02, h
# every mount was unmounted: as many of one as of the other, about ops/s x window
assert det["mount"]["count"] == det["umount"]["count"] > 0, det
assert det["mount"]["count"] <= det["ops_per_s"] * det["window_s"] * 1.1, det
# the presser held the parent at its limit: it read more than the limit, and
# the reclaim table is the counter over the window
assert det["presser_bytes"] > det["parent_limit_bytes"], det
[rec] = t["shrinkers reclaim pages/s"]["ops"]
assert abs(rec["samples"][0] - det["reclaimed_pages"] / det["window_s"]) < 1e-6 * rec["samples"][0] + 1e-9, rec
assert det["reclaimed_pages"] > 0, det
# sys CPU % from the run layer's CPU split
assert any(x["title"] == "shrinkers sys CPU %" for x in d["tables"]), [x["title"] for x in d["tables"]]
PY
  grep -q "still in the mount table" "$T/err" && fail "mounts left after detaching: $(cat "$T/err")"
  [ ! -d "$(sk_cg $pid)" ] || fail "memcgs of the run left"
  assert_no_leaks
}

# profile = reclaim on shrinkers (the suite's profile): the profile pass
# traces vmscan:mm_shrink_slab_start/end while the presser holds the parent
# at its limit, so reclaim calls the child memcgs' shrinkers: the "shrink
# slab" stall count and p50/p99/max tables have samples, they match the
# histogram in the details, and the workload's tasks are among those that
# stalled (the trace is system-wide: other tasks may be there too).
test_shrinkers_profile_reclaim_records_shrink_slab_latency() {
  need_root
  need_cmd unshare util-linux
  unshare -m --propagation private sh -c '{ mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing; } 2>/dev/null &&
    test -e /sys/kernel/tracing/events/vmscan/mm_shrink_slab_start/id' ||
    skip "no vmscan:mm_shrink_slab_start tracepoint"
  expect_exit 0 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --label p --set shrinkers.runtime=3s \
    --set "global.workdir=$T/work" --profile reclaim
  python3 - "$T/r/p" <<'PY' || fail "shrink slab latency"
import json, sys
d = json.load(open(sys.argv[1] + "/shrinkers.json"))
t = {x["title"]: x for x in d["tables"]}
step = "memcgs-4-mounters-2"
one = lambda title: {o["op"]: o["samples"] for o in t[title]["ops"]}[step]
[p] = [x["profile"] for x in d["details"] if "profile" in x]
assert p["kind"] == "reclaim" and p["status"] == "ok", p
rl = p["reclaim_latency"]
assert "mm_shrink_slab_start" in rl["tracepoints"] and "mm_shrink_slab_end" in rl["tracepoints"], rl
ops = {o["name"]: o for o in rl["ops"]}
# the presser held the parent at its limit: its reclaim (which walks every
# child's shrinkers) was traced, with its percentiles
m = ops["memcg reclaim"]
assert m["count"] > 0 and any(x["comm"] == "lrb-presser" for x in m["tasks"]), m
for s in ("stalls", "stall us p50", "stall us p99", "stall us max"):
    title = "shrinkers memcg reclaim " + s
    assert t[title]["explains"] is True and len(one(title)) == 1, title
# a shrinker scan is traced only when the shrinker had objects to free
# (do_shrink_slab returns at its count otherwise): 6.18 here traced none.
# Its count is always a table; its percentiles exist when there were scans.
title = "shrinkers shrink slab stalls"
assert t[title]["explains"] is True and t[title]["unit"] == "count", t[title]
n = one(title)[0]
op = ops["shrink slab"]
assert op["count"] == n and sum(b[2] for b in op["buckets"]) == n, op
if n:
    p50, p99, mx = (one("shrinkers shrink slab stall us " + s)[0] for s in ("p50", "p99", "max"))
    assert 0 < p50 <= p99 <= mx and op["p99_us"] == p99 and op["max_us"] == mx, (n, p50, p99, mx, op)
else:
    assert "shrinkers shrink slab stall us p50" not in t, "percentiles of no scan"
# the timed tables keep the timed iteration only
assert len({o["op"]: o["samples"] for o in t["shrinkers mount+umount ops/s"]["ops"]}[step]) == 1
PY
  assert_no_leaks
}

# SIGKILL of lrubench: no undo runs, yet the mount namespace (every tmpfs
# with it) goes with its last process, the children die with their parent,
# and the next run removes the killed run's memcgs.
test_shrinkers_sigkill_leaves_no_mount_then_next_run_removes_memcgs() {
  need_root
  need_cmd nsenter util-linux
  "$LRUBENCH" run "${SK[@]}" -i 3 -o "$T/r" --label k --set shrinkers.runtime=60s \
    --set "global.workdir=$T/work" >"$T/out" 2>"$T/err" &
  local pid=$! ns cg
  wait_for "a mounter in memcg 1" sk_has_task $pid 1
  wait_for "4 tmpfs mounts in the run's namespace" sk_mounted $pid 4
  ns=$(readlink /proc/$pid/ns/mnt)
  [ "$ns" != "$(readlink /proc/self/ns/mnt)" ] || fail "the run is in the test's mount namespace"
  cg=$(sk_cg $pid)
  kill -KILL $pid; wait $pid 2>/dev/null
  wait_for "every process of the run's mount namespace to end" no_ns "$ns"
  # (another run on this machine may sweep them first: they are a dead pid's)
  expect_exit 0 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --label next --set shrinkers.runtime=1s \
    --set shrinkers.pressers=0 --set "global.workdir=$T/work"
  [ ! -d "$cg" ] || fail "the killed run's memcgs $cg not removed"
  assert_no_leaks
}

# A mounter killed mid-run (as the OOM killer would) fails its op; a mount
# point removed under a mounter makes its mount(2) fail, which fails that
# op; the run goes on with the next step, ends failed, leaves nothing.
test_shrinkers_killed_mounter_and_failed_mount_fail_their_op_only() {
  need_root
  "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --label f --set shrinkers.mounters=1,2,3 \
    --set shrinkers.runtime=8s --set "global.workdir=$T/work" >"$T/out" 2>"$T/err" &
  local pid=$! victim
  wait_for "mounter 0 in memcg 1" sk_has_task $pid 1
  victim=$(sk_tasks_of $pid 1 | head -1)
  kill -KILL "$victim"
  # step 2: mounter 1 runs in memcg 2; take its mount point away
  wait_for "mounter 1 in memcg 2" sk_has_task $pid 2
  rmdir "$T/work/run-$pid/shrinkers/mounter-1" || fail "cannot remove the mount point"
  wait $pid; assert_eq "$?" 1 "run exit"
  assert_grep_err "shrinkers mounter 0 (pid $victim) killed by signal 9"
  # between its mount and its umount, the removal detaches its tmpfs: then umount fails
  grep -q "shrinkers mounter 1 (pid [0-9]*) exited with 1: mount tmpfs on .*mounter-1: No such file or directory" "$T/err" ||
    assert_grep_err "shrinkers mounter 1 (pid [0-9]*) exited with 1: umount .*mounter-1: Invalid argument"
  assert_grep_err "memcgs-4-mounters-1 iteration 1 failed; going on with the next step"
  python3 - "$T/r/f" <<'PY' || fail "run.json"
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
assert d["status"] == "failed", d["status"]
assert [f["step"] for f in d["failed_ops"]] == ["memcgs-4-mounters-1", "memcgs-4-mounters-2"], d["failed_ops"]
r = json.load(open(sys.argv[1] + "/shrinkers.json"))
[t] = [x for x in r["tables"] if x["title"] == "shrinkers mount+umount ops/s"]
assert [o["op"] for o in t["ops"]] == ["memcgs-4-mounters-3"], t["ops"]
PY
  assert_no_leaks
}

# Counts past the config's limits, data the limit cannot hold: exit 2
# naming the key, before anything is made.
test_shrinkers_bad_input() {
  need_root
  expect_exit 2 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --set shrinkers.memcgs=9000
  assert_grep_err "shrinkers.memcgs"
  expect_exit 2 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --set shrinkers.mounters=4,5000
  assert_grep_err "shrinkers.mounters"
  expect_exit 2 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --set shrinkers.files=1000 --set shrinkers.file_size=64K
  assert_grep_err "more than half of memcg_limit 64M: lower shrinkers.files or file_size"
  expect_exit 2 "$LRUBENCH" run "${SK[@]}" -i 1 -o "$T/r" --set shrinkers.runtime=0s
  assert_grep_err "shrinkers.runtime"
  assert_no_leaks
}
