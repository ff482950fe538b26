# SPDX-License-Identifier: GPL-2.0-or-later
# profile = reclaim (src/profile/reclaim_latency.c): reclaim and compaction
# stall latencies from the real kernel's vmscan/compaction begin/end
# tracepoints, recorded in a tracefs instance of lrubench's own; the
# histograms in the results, compare and plot; a kernel without the
# tracepoints; hostile histograms; cleanup of the instance, after SIGKILL too.

# 64M memcg, 256M files: the readers' page cache is reclaimed inside the
# memcg (mm_vmscan_memcg_reclaim_* on this machine: cgroup v1, no swap)
RQUICK=(--quick -w readtwice -i 1 --set global.warmup=0 --set readtwice.runtime=2s
        --set readtwice.file_size=256M --set readtwice.memcg_limit=64M --set readtwice.memcgs=1)

# tracefs seen from a mount namespace of our own (nobody else's changes)
in_tracefs() {   # SCRIPT (sh, run in /sys/kernel/tracing)
  unshare -m --propagation private sh -c \
    'mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || exit 125; cd /sys/kernel/tracing && '"$1"
}
need_reclaim_tracepoints() {
  need_root
  in_tracefs 'test -e events/vmscan/mm_vmscan_memcg_reclaim_begin/id' ||
    skip "no vmscan:mm_vmscan_memcg_reclaim_begin tracepoint"
}
# our instances (lrubench-<pid>) in tracefs, one per line
instances() { in_tracefs 'ls instances' | grep -E '^lrubench-[0-9]+$' || true; }
has_instance() { instances | grep -qx "lrubench-$1"; }
# instances whose run is dead: what a run must never leave
dead_instances() {
  local i
  for i in $(instances); do [ -d "/proc/${i#lrubench-}" ] || echo "$i"; done
}

test_reclaim_profile_memcg_stalls() {
  need_reclaim_tracepoints
  expect_exit 0 "$LRUBENCH" run "${RQUICK[@]}" -o "$T/r" --label a --profile reclaim
  local kthreads=no   # does this kernel have the kswapd and kcompactd tracepoints?
  in_tracefs 'test -e events/vmscan/mm_vmscan_kswapd_wake/id && test -e events/vmscan/mm_vmscan_wakeup_kswapd/id &&
    test -e events/compaction/mm_compaction_kcompactd_sleep/id && test -e events/compaction/mm_compaction_wakeup_kcompactd/id' &&
    kthreads=yes
  python3 - "$T/r/a/readtwice.json" "$kthreads" <<'EOF' || fail "reclaim latency results"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
ops = lambda title: {o["op"]: o["samples"] for o in t[title]["ops"]}
# the timed table holds the timed iteration only
assert {k: len(v) for k, v in ops("readtwice MB/s aggregate").items()} == {"memcgs-1": 1}
for title, unit in (("readtwice memcg reclaim stalls", "count"),
                    ("readtwice memcg reclaim stall us p50", "us"),
                    ("readtwice memcg reclaim stall us p99", "us"),
                    ("readtwice memcg reclaim stall us max", "us"),
                    ("readtwice direct reclaim stalls", "count")):
    assert t[title]["explains"] is True and t[title]["better"] == "lower", title
    assert t[title]["unit"] == unit, (title, t[title]["unit"])
    assert list(ops(title)) == ["memcgs-1"] and len(ops(title)["memcgs-1"]) == 1, ops(title)
n = ops("readtwice memcg reclaim stalls")["memcgs-1"][0]
p50, p99, mx = (ops("readtwice memcg reclaim stall us " + s)["memcgs-1"][0] for s in ("p50", "p99", "max"))
assert n > 0, n
assert 0 < p50 <= p99 <= mx, (p50, p99, mx)
p = [e["profile"] for e in d["details"] if "profile" in e]
assert len(p) == 1 and p[0]["status"] == "ok" and p[0]["kind"] == "reclaim", p
rl = p[0]["reclaim_latency"]
assert "mm_vmscan_memcg_reclaim_begin" in rl["tracepoints"], rl["tracepoints"]
op = {o["name"]: o for o in rl["ops"]}["memcg reclaim"]
assert op["count"] == n and sum(b[2] for b in op["buckets"]) == n, op
assert op["p99_us"] == p99 and op["max_us"] == mx
assert op["tasks"] and op["tasks"][0]["max_us"] <= mx and op["tasks"][0]["count"] > 0, op["tasks"]
# kswapd and kcompactd beside them, each saying what it measures; their wakeups counted
if sys.argv[2] != "yes":
    assert "mm_vmscan_kswapd_wake" not in rl["tracepoints"]
    sys.exit(0)
ops = {o["name"]: o for o in rl["ops"]}
for name, begin in (("kswapd wake-to-sleep", "mm_vmscan_kswapd_wake"),
                    ("kcompactd wake-to-sleep", "mm_compaction_kcompactd_wake")):
    o = ops[name]
    assert o["begin"] == begin and o["measures"] and o["periods"] == "periods", o
    assert sum(b[2] for b in o["buckets"]) == o["count"] and o["begins"] >= o["count"], o
    assert t["readtwice %s periods" % name]["ops"][0]["samples"] == [o["count"]], name
w = {x["name"]: x["count"] for x in rl["wakeups"]}
assert set(w) == {"kswapd wakeup requests", "kcompactd wakeup requests"}, w
assert t["readtwice kswapd wakeup requests"]["ops"][0]["samples"] == [w["kswapd wakeup requests"]]
# kcompactd sleeps again at least every 500 ms with proactive compaction on: after a wake
# (a period) or a timeout (a lone end, its normal, not unpaired); the pass is 2 s
if int(open("/proc/sys/vm/compaction_proactiveness").read()) > 0:
    o = ops["kcompactd wake-to-sleep"]
    assert o["lone_ends"] + o["count"] >= 1, o
EOF
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["profile"]; assert p["kind"] == "reclaim" and "memcg reclaim" in p["reclaim_pairs"], p' \
    "$T/r/a/run.json" || fail "run.json's profile"
  # the pass's instance went with it (the run's pid is dead now)
  assert_eq "$(dead_instances)" "" "tracefs instances of dead runs"
  assert_no_leaks
  # compare shows the tables under the explaining heading (b: a's copy)
  cp -r "$T/r/a" "$T/r/b"
  python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["label"]="b"; json.dump(d,open(p,"w"))' "$T/r/b/run.json"
  expect_exit 0 "$LRUBENCH" compare "$T/r/a" "$T/r/b"
  python3 - "$T/out" <<'EOF' || fail "compare's explaining heading"
import sys
t = open(sys.argv[1]).read()
h = t.index("== readtwice: ")
assert t.index("memcg reclaim stall us p99") > h, "p99 not under the explaining heading"
EOF
  # plot draws the histogram, labels overlaid
  if command -v gnuplot >/dev/null 2>&1; then
    expect_exit 0 "$LRUBENCH" plot "$T/r" -o "$T/fig"
    assert_file "$T/fig/readtwice-reclaim-latency-memcg-reclaim-memcgs-1.png"
    assert_grep "# label: a (" "$T/fig/readtwice-reclaim-latency-memcg-reclaim-memcgs-1.dat"
    assert_grep "reclaim-latency-memcg-reclaim" "$T/fig/index.md"
    expect_exit 0 "$LRUBENCH" plot --format txt "$T/r" -o "$T/txt"
    assert_grep "memcg reclaim stall latency" "$T/txt/readtwice-reclaim-latency-memcg-reclaim-memcgs-1.txt"
    # a point of a label (A, or b's B drawn over it: b is a's copy) on a row of the y axis
    grep -Eq '^ +[0-9.]+ [|+].*[AB]' "$T/txt/readtwice-reclaim-latency-memcg-reclaim-memcgs-1.txt" ||
      fail "no point inside the txt histogram"
    # the cover letter carries one, in text
    expect_exit 0 "$LRUBENCH" report "$T/r/a" "$T/r/b"
    assert_grep "Figure [0-9]*: readtwice memcgs-1: memcg reclaim stall latency histogram" "$T/out"
    assert_grep "a (.* stalls)" "$T/out"
  fi
}

test_reclaim_profile_tracepoints_missing() {
  need_root
  # This kernel has every pair, so a tracefs folder without them plays a
  # kernel that lacks them: LRUBENCH_TRACEFS, the tracefs test seam
  # (profile/tracefs.h) that profile.sh uses for the lock tracepoints.
  mkdir -p "$T/fake-tracefs/events/sched"
  LRUBENCH_TRACEFS=$T/fake-tracefs expect_exit 3 "$LRUBENCH" run "${RQUICK[@]}" -o "$T/r" --label m --profile reclaim
  assert_grep_err "profile=reclaim: none of its tracepoints is on this kernel"
  assert_grep_err "memcg reclaim (vmscan/mm_vmscan_memcg_reclaim_begin): not available on this kernel"
  assert_grep_err "compaction (compaction/mm_compaction_begin): not available on this kernel"
  assert_grep_err "kswapd wake-to-sleep (vmscan/mm_vmscan_kswapd_wake): not available on this kernel"
  assert_grep_err "kcompactd wakeup requests (compaction/mm_compaction_wakeup_kcompactd): not available"
  assert_no_file "$T/r/m"
  LRUBENCH_TRACEFS=$T/fake-tracefs expect_exit 3 "$LRUBENCH" run --dry-run "${RQUICK[@]}" -o "$T/r" --label m --profile reclaim
  assert_grep_err "not available on this kernel"
  LRUBENCH_TRACEFS=$T/fake-tracefs "$LRUBENCH" check >"$T/out" 2>"$T/err"
  assert_grep "profile=reclaim *no *profile=reclaim: none of its tracepoints" "$T/out"
  # the real kernel: check lists what it will trace
  "$LRUBENCH" check >"$T/out" 2>"$T/err"
  if in_tracefs 'test -e events/vmscan/mm_vmscan_memcg_reclaim_begin/id'; then
    assert_grep "profile=reclaim *yes *stall latencies of .*memcg reclaim" "$T/out"
  fi
}

# plot's histograms from made-up details (no root): a pair's own words (kswapd's periods,
# not stalls) and, in txt, the points drawn inside the y range (it was [0:1] of percentages)
test_reclaim_plot_words_and_points() {
  need_cmd gnuplot gnuplot-nox
  cp -r "$LRUBENCH_SRC/tests/fixtures/plot/results" "$T/res"
  python3 - "$T/res/6.8.0-patched/readtwice.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("details", []).append({"step": "memcgs-1", "profile": {"kind": "reclaim", "status": "ok",
    "reclaim_latency": {"ops": [
        {"name": "kswapd wake-to-sleep", "periods": "periods", "histogram": "time", "count": 3,
         "buckets": [[1000, 1090, 2], [100000, 109000, 1]]},
        {"name": "memcg reclaim", "count": 2, "buckets": [[1, 1.09, 2]]}],
    "wakeups": [{"name": "kswapd wakeup requests", "count": 4}]}}})
json.dump(d, open(sys.argv[1], "w"))
EOF
  expect_exit 0 "$LRUBENCH" plot --format txt "$T/res" -o "$T/txt"
  local k=$T/txt/readtwice-reclaim-latency-kswapd-wake-to-sleep-memcgs-1.txt
  local m=$T/txt/readtwice-reclaim-latency-memcg-reclaim-memcgs-1.txt
  assert_grep "kswapd wake-to-sleep time" "$k"
  assert_grep "6.8.0-patched (3 periods)" "$k"
  assert_grep "6.8.0-patched (2 stalls)" "$m"   # older results: a stall's words
  local f
  for f in "$k" "$m"; do
    grep -Eq '^ +[0-9.]+ [|+].*A' "$f" || { cat "$f"; fail "$f: no point inside the plot"; }
  done
}

# A results file whose histogram is cut short or made up: compare and plot
# refuse it, naming the file and the JSON path.
test_reclaim_hostile_histogram() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/plot/results" "$T/res"
  local f=$T/res/6.8.0-patched/readtwice.json
  hostile() {   # BUCKETS COUNT
    printf '%s' "$1" >"$T/buckets.json"
    python3 - "$f" "$T/buckets.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["details"] = [{"step": "memcgs-1", "iteration": 0},
                {"step": "memcgs-1", "profile": {"kind": "reclaim", "status": "ok", "reclaim_latency": {
                    "ops": [{"name": "memcg reclaim", "count": int(sys.argv[3]),
                             "buckets": json.load(open(sys.argv[2]))}]}}}]
json.dump(d, open(sys.argv[1], "w"))
EOF
  }
  # truncated: the buckets add up to less than the count
  hostile '[[1, 1.09, 10], [1.09, 1.18, 5]]' 40
  expect_exit 2 "$LRUBENCH" compare "$T/res"
  assert_grep_err "$f: details\[1\].profile.reclaim_latency.ops\[0\].buckets: the buckets hold 15 stalls, \"count\" says 40 (truncated?)"
  expect_exit 2 "$LRUBENCH" plot "$T/res" -o "$T/p1"
  assert_grep_err "the buckets hold 15 stalls"
  # hostile: overlapping buckets, a huge edge, a non-number
  hostile '[[1, 5, 1], [2, 3, 1]]' 2
  expect_exit 2 "$LRUBENCH" plot "$T/res" -o "$T/p2"
  assert_grep_err "ops\[0\].buckets\[1\]: bucket \[2, 3) is not after"
  hostile '[[1, 1e300, 1]]' 1
  expect_exit 2 "$LRUBENCH" compare "$T/res"
  assert_grep_err "$f: details\[1\].profile.reclaim_latency.ops\[0\].buckets\[0\]"
  hostile '[[1, 2, "many"]]' 1
  expect_exit 2 "$LRUBENCH" compare "$T/res"
  assert_grep_err "buckets\[0\]: not \[lo_us, hi_us, count\] of three numbers"
  # 100,000 buckets: refused by their number
  hostile "[$(python3 -c 'print(",".join("[%d,%d,1]" % (k, k + 1) for k in range(100000)))')]" 100000
  expect_exit 2 "$LRUBENCH" plot "$T/res" -o "$T/p3"
  assert_grep_err "100000 buckets, more than the 257 a histogram has"
  assert_no_file "$T/p3/index.md"
}

# SIGKILL runs no undo: the instance outlives the run, and the next
# profile = reclaim run removes it (its pid is dead); a run leaves none.
test_reclaim_instance_after_sigkill() {
  need_reclaim_tracepoints
  "$LRUBENCH" run "${RQUICK[@]}" --set readtwice.runtime=8s -o "$T/r" --label k --profile reclaim \
    >"$T/out1" 2>"$T/err1" &
  local pid=$!
  # after the timed iteration, the pass makes its instance
  wait_for "the tracefs instance of the profile pass" has_instance "$pid"
  kill -9 "$pid"
  wait "$pid" 2>/dev/null
  has_instance "$pid" || fail "a SIGKILLed run's instance should be left for the next run"
  expect_exit 0 "$LRUBENCH" run "${RQUICK[@]}" -o "$T/r" --label n --profile reclaim
  assert_grep "removed the tracefs instance .*lrubench-$pid of a run that was killed" "$T/out"
  has_instance "$pid" && fail "the dead run's instance is still there"
  assert_eq "$(dead_instances)" "" "tracefs instances of dead runs"
  assert_no_leaks   # the killed run's cgroups went with the next run too
}
