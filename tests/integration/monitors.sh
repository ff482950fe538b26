# SPDX-License-Identifier: GPL-2.0-or-later
# The monitors against the real kernel (issue 24 points 1, 2, 4): a sampler
# per timed iteration writes a series beside the results; the level tables
# explain the results in compare; plot draws the levels over time; a colocate
# run swapping to zram shows swap used at its end; bad keys, a hostile series
# file and a killed sampler.

RT=(-w readtwice --quick --set global.warmup=0 --set readtwice.memcgs=1)

mon_need() {
  need_root
  need_cmd python3
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup"
}

# The series of FILE as python reads it (its own reader: the format is
# documented, core/series.h): prints "COLUMN first end" for the column,
# with end the last sample at or before the end of the workload's timed work
# (the last sample, here).
series_column() {
  python3 - "$1" "$2" <<'PY'
import sys
cols, last, rows = [], [], []
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "c":
        cols += f[1:]; last += [0] * (len(f) - 1)
    elif f[0] == "r":
        row = []
        for i, v in enumerate(f[2:]):
            if v == ".":
                row.append(None)
            else:
                last[i] += int(v); row.append(last[i])
        rows.append(row + [None] * (len(cols) - len(row)))
i = cols.index(sys.argv[2])
vals = [r[i] for r in rows if i < len(r) and r[i] is not None]
print(sys.argv[2], vals[0], max(vals), len(vals))
PY
}

test_monitors_readtwice_active_file_rises() {
  mon_need
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label a --set readtwice.runtime=2s
  assert_grep "^monitors: sampled every 250 ms on CPU [0-9]* (" "$T/out"
  local s="$T/r/a/series/readtwice/memcgs-1.0.series"
  assert_file "$s"
  read -r _ first peak n < <(series_column "$s" vmstat.nr_active_file) || fail "no nr_active_file in $s"
  [ "$n" -ge 4 ] || fail "only $n samples in 2 s at 250 ms"
  # readtwice reads its files twice: the second read activates them
  [ "$peak" -gt $((first + 2560)) ] || fail "nr_active_file did not rise by 10 MB: $first -> $peak"
  grep -q '^e [0-9]*$' "$s" || fail "no end record in $s"
  # the level tables, marked as explaining, and the sampler's cost in the details
  python3 - "$T/r/a" <<'PY' || fail "level tables"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
t = {x["title"]: x for x in d["tables"]}
for name in ("readtwice active file MB (peak)", "readtwice active file MB (end)",
             "readtwice swap used MB (end)", "readtwice memcg usage MB (peak)"):
    assert name in t and t[name].get("explains"), name
    assert t[name]["ops"][0]["op"] == "memcgs-1", t[name]
assert t["readtwice active file MB (peak)"]["ops"][0]["samples"][0] > 10
m = d["details"][0]["monitors"]
assert m["samples"] >= 4 and m["bytes"] > 0 and m["cpu_ms"] >= 0, m
run = json.load(open(sys.argv[1] + "/run.json"))
assert "vmstat" in run["monitors"]["monitors"] and run["monitors"]["cpu"] >= 0, run["monitors"]
PY
  # compare shows them under the explaining heading (against a copy labelled b)
  cp -r "$T/r/a" "$T/r/b"
  python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); d["label"] = "b"; json.dump(d, open(p, "w"))' \
    "$T/r/b/run.json" || fail "relabel"
  expect_exit 0 "$LRUBENCH" compare "$T/r/a" "$T/r/b"
  python3 - "$T/out" <<'PY' || { cat "$T/out"; fail "compare: level table not under the explaining heading"; }
import sys
text = open(sys.argv[1]).read()
h = text.index("these tables explain the tables above")
assert text.index("readtwice active file MB (peak)") > h
PY
  # plot draws the file LRU over time
  if command -v gnuplot >/dev/null; then
    expect_exit 0 "$LRUBENCH" plot "$T/r/a" -o "$T/p"
    assert_file "$T/p/readtwice-levels-memcgs-1-file-lru.png"
    assert_grep "active file MB" "$T/p/readtwice-levels-memcgs-1-file-lru.gp"
    assert_grep "readtwice-levels-memcgs-1-file-lru" "$T/p/index.md"
  fi
  assert_no_leaks
}

test_monitors_colocate_swap_used_at_end() {
  mon_need
  [ -e /sys/class/zram-control/hot_add ] || skip "no zram in this kernel (CONFIG_ZRAM, or modprobe zram)"
  need_cmd mkswap util-linux
  expect_exit 0 "$LRUBENCH" run -w colocate --quick --set global.warmup=0 -i 1 -o "$T/r" --label z \
    --set colocate.low_memcgs=1 --set colocate.low_kind=anon --set colocate.swap=zram \
    --set colocate.probe=anon
  python3 - "$T/r/z/colocate.json" <<'PY' || fail "swap used at the end"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["title"]: x for x in d["tables"]}
end = t["colocate swap used MB (end)"]
assert end.get("explains"), end
v = end["ops"][0]["samples"][0]
assert end["ops"][0]["op"] == "low-1" and v > 0, end
print("swap used at the end:", v, "MB")
PY
  assert_file "$T/r/z/series/colocate/low-1.0.series"
  assert_no_leaks
}

test_monitors_bad_keys_exit_2() {
  mon_need
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" --dry-run -o "$T/r" --set global.monitors=vmstat,slabinfo
  assert_grep_err "global.monitors: unknown monitor 'slabinfo'"
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" --dry-run -o "$T/r" --set global.monitor_interval=5
  assert_grep_err "monitor_interval"
  assert_grep_err "5 is out of range (10..60000)"
  expect_exit 2 "$LRUBENCH" run "${RT[@]}" --dry-run -o "$T/r" --set "global.monitors=vmstat,,psi"
  assert_grep_err "global.monitors: unknown monitor ''"
  assert_no_file "$T/r"
}

test_monitors_none_writes_no_series() {
  mon_need
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label n --set readtwice.runtime=1s \
    --set global.monitors=none
  assert_no_file "$T/r/n/series"
  grep -q "active file MB" "$T/r/n/readtwice.json" && fail "level tables without monitors"
  assert_no_leaks
}

# plot refuses a hostile series with its file and offset, and writes no figure of it
test_monitors_hostile_series_refused() {
  mon_need
  need_cmd gnuplot
  expect_exit 0 "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label h --set readtwice.runtime=1s
  local s="$T/r/h/series/readtwice/memcgs-1.0.series"
  assert_file "$s"
  printf 'lrubench-series 1\nc a b\nr 0 1 2 3\n' >"$s"
  expect_exit 1 "$LRUBENCH" plot "$T/r/h" -o "$T/p"
  assert_grep_err "$s: offset 32: more values than declared columns"
  # a truncated one likewise
  printf 'lrubench-series 1\nc a\nr 0 1\nr 25' >"$s"
  expect_exit 1 "$LRUBENCH" plot "$T/r/h" -o "$T/p2"
  assert_grep_err "$s: offset 28: truncated"
  # a link in its place is not followed
  ln -sf /etc/passwd "$s"
  expect_exit 1 "$LRUBENCH" plot "$T/r/h" -o "$T/p3"
  assert_grep_err "memcgs-1.0.series"
}

# A sampler killed mid-iteration: the run goes on, the samples before the
# kill are kept and say why they stop, the level tables are made of them,
# nothing of the sampler is left.
test_monitors_sampler_killed_keeps_samples() {
  mon_need
  "$LRUBENCH" run "${RT[@]}" -i 1 -o "$T/r" --label k --set readtwice.runtime=6s >"$T/out" 2>"$T/err" &
  local lb=$! mon=""
  find_mon() { mon=$(pgrep -P "$lb" -x lrubench-mon); [ -n "$mon" ]; }
  wait_for "the sampler" find_mon
  # some samples first
  have_rows() { [ "$(grep -c '^r' "$T/r/k/series/readtwice/memcgs-1.0.series" 2>/dev/null)" -ge 3 ]; }
  wait_for "three samples" have_rows
  kill -KILL "$mon"
  wait "$lb"; local rc=$?
  [ "$rc" = 0 ] || { cat "$T/err"; fail "run exit $rc after the sampler was killed"; }
  assert_grep_err "monitors: the sampler of readtwice memcgs-1 was killed before the end"
  local s="$T/r/k/series/readtwice/memcgs-1.0.series"
  assert_grep "^x the sampler was killed" "$s"
  grep -q '^e ' "$s" && fail "an end record after a kill"
  [ "$(grep -c '^r' "$s")" -ge 3 ] || fail "the samples before the kill are gone"
  python3 - "$T/r/k" <<'PY' || fail "tables and note after the kill"
import json, sys
d = json.load(open(sys.argv[1] + "/readtwice.json"))
t = {x["title"] for x in d["tables"]}
assert "readtwice active file MB (peak)" in t, t
assert "MB/s" in d["tables"][0]["unit"]
m = d["details"][0]["monitors"]
assert "killed" in m["stopped_early"], m
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["monitors"]["killed"] == 1 and run["status"] == "complete", run["monitors"]
PY
  pgrep -P "$lb" >/dev/null && fail "a child of the run is left"
  assert_no_leaks
}

# gen_level_labels DIR CHANGED...: labels base and cand of readtwice memcgs-1,2 with 5
# iterations, their level tables and series (the documented format, core/series.h), made up
# so that what changes is known: cand's throughput drops in memcgs-1; each CHANGED level
# (OP:active|cached) rises by 60 MB in cand; everything else is the same in both.
gen_level_labels() {
  python3 - "$@" <<'PY'
import json, os, sys
root, changed = sys.argv[1], set(sys.argv[2:])
for li, label in enumerate(("base", "cand")):
    d = os.path.join(root, label)
    os.makedirs(os.path.join(d, "series", "readtwice"))
    json.dump({"schema": 1, "label": label, "status": "complete",
               "started": "2026-11-%02dT22:15:30Z" % (li + 1),
               "system": {"kernel_release": "6.18.0-" + label, "machine": "x86_64", "nr_cpus": 2},
               "config": {"global": {"iterations": "5", "warmup": "0", "monitors": "all"},
                          "readtwice": {"memcgs": "1,2"}}},
              open(os.path.join(d, "run.json"), "w"))
    tables = {}
    def add(title, unit, better, op, v, explains=True):
        t = tables.setdefault(title, {"title": title, "unit": unit, "better": better, "ops": []})
        if explains:
            t["explains"] = True
        o = [o for o in t["ops"] if o["op"] == op]
        if o:
            o[0]["samples"].append(v)
        else:
            t["ops"].append({"op": op, "samples": [v]})
    for op in ("memcgs-1", "memcgs-2"):
        for it in range(5):
            up = lambda what: 60 if label == "cand" and "%s:%s" % (op, what) in changed else 0
            add("readtwice MB/s aggregate", "MB/s", "higher", op,
                1000.0 + 10 * it - (200 if label == "cand" and op == "memcgs-1" else 0), False)
            act, cached = 100 + up("active") + it, 300 + up("cached") + it
            lines = ["lrubench-series 1", "m interval_ms 250", "m page_size 4096",
                     "c vmstat.nr_active_file vmstat.nr_inactive_file meminfo.Cached"]
            prev = [0, 0, 0]
            for k in range(9):   # the levels ramp up over 2 s
                cur = [int((10 + (act - 10) * k / 8) * 256), (200 - 10 * k) * 256,
                       int((250 + (cached - 250) * k / 8) * 1024)]
                lines.append("r %d %s" % (250 if k else 0, " ".join(str(c - p) for c, p in zip(cur, prev))))
                prev = cur
            lines.append("e 9")
            with open(os.path.join(d, "series", "readtwice", "%s.%d.series" % (op, it)), "w") as f:
                f.write("\n".join(lines) + "\n")
            add("readtwice active file MB (peak)", "MB", "lower", op, act)
            add("readtwice active file MB (end)", "MB", "lower", op, act)
            add("readtwice inactive file MB (peak)", "MB", "lower", op, 200 + 0.5 * it)
            add("readtwice Cached MB (peak)", "MB", "lower", op, cached)
    json.dump({"schema": 1, "workload": "readtwice", "tables": list(tables.values())},
              open(os.path.join(d, "readtwice.json"), "w"))
PY
}

# The cover letter carries the levels over time of what changed significantly, and no more
# (issue 24 point 4: "report can include one"). No root: made-up labels, the real gnuplot.
test_monitors_report_level_figures() {
  need_cmd python3
  need_cmd gnuplot gnuplot-nox
  gen_level_labels "$T/r" memcgs-1:active
  expect_exit 0 "$LRUBENCH" report -o "$T/letter.txt" "$T/r"
  assert_mail_safe "$T/letter.txt"
  tr '\n' ' ' < "$T/letter.txt" | tr -s ' ' |
    grep -q 'Figure 2: readtwice memcgs-1: active and inactive file over the median iteration, per label (a level that changed significantly)' ||
    { cat "$T/letter.txt"; fail "no level figure of memcgs-1's active file"; }
  assert_grep ' base: active file MB$' "$T/letter.txt"
  assert_grep ' cand: active file MB$' "$T/letter.txt"
  [ "$(grep -c '^Figure' "$T/letter.txt")" = 2 ] || fail "a level figure of what did not change"
  grep -q 'memcgs-2: active' "$T/letter.txt" && fail "memcgs-2 did not change"
  grep -q 'more level figure' "$T/letter.txt" && fail "nothing was left out"
  local one
  one=$(wc -l < "$T/letter.txt")
  # three changed (file LRU of both ops, Cached of memcgs-2): two figures, the op whose
  # throughput changed first, and a line for the one left out
  gen_level_labels "$T/r3" memcgs-1:active memcgs-2:active memcgs-2:cached
  expect_exit 0 "$LRUBENCH" report -o "$T/letter3.txt" "$T/r3"
  assert_mail_safe "$T/letter3.txt"
  [ "$(grep -c '^Figure' "$T/letter3.txt")" = 3 ] || fail "not two level figures"
  assert_grep '^Figure 2: readtwice memcgs-1: active and inactive file' "$T/letter3.txt"
  assert_grep '^Figure 3: readtwice memcgs-2: ' "$T/letter3.txt"
  assert_grep '^(1 more level figure of ops that changed significantly left out;' "$T/letter3.txt"
  [ "$(wc -l < "$T/letter3.txt")" -lt $((one + 40)) ] || fail "the letter grew by more than a figure"
  # the same labels without their series (monitors = none, older results): no level figure
  rm -r "$T/r/base/series" "$T/r/cand/series"
  expect_exit 0 "$LRUBENCH" report -o "$T/letter0.txt" "$T/r"
  [ "$(grep -c '^Figure' "$T/letter0.txt")" = 1 ] || fail "a level figure without series"
}
