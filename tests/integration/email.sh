# SPDX-License-Identifier: GPL-2.0-or-later
# Plain text for mail and the nightly commands: compare -f email (golden,
# 72 columns), compare --baseline, lrubench report (on fixtures and on two
# real short runs), plot --format txt, lrubench trend, run --label patterns.

FIX=$LRUBENCH_SRC/tests/fixtures/compare

# gen_results DIR LABELS... -- WORKLOAD:TABLE:better:OP1,OP2,... ...
# Label folders with run.json and results whose samples grow with the op
# and the label's place, deterministic (no random numbers).
gen_results() {
  python3 - "$@" <<'EOF'
import json, os, sys
args = sys.argv[1:]
root, sep = args[0], args.index("--")
labels, tables = args[1:sep], args[sep + 1:]
for li, label in enumerate(labels):
    d = os.path.join(root, label)
    os.makedirs(d)
    json.dump({"schema": 1, "label": label, "status": "complete",
               "started": "2026-11-%02dT22:15:30Z" % (li + 1),
               "system": {"kernel_release": label, "kernel_version": "#1 SMP PREEMPT_DYNAMIC",
                          "machine": "x86_64", "nr_cpus": 64, "mem_total_kb": 263921232,
                          "numa_nodes": 2, "cpu_model": "AMD EPYC 7452", "virt": "host",
                          "thp_enabled": "always", "thp_defrag": "madvise", "cgroup_mode": "v2"},
               "config": {"global": {"iterations": "5", "warmup": "1"},
                          "readtwice": {"memcgs": "1-128:x2", "runtime": "20s"},
                          "sysbench": {"threads": "1-128:x2", "runtime": "60s"}}},
              open(os.path.join(d, "run.json"), "w"))
    per_wl = {}
    for spec in tables:
        wl, title, better, ops = spec.split(":")
        t = {"title": title, "unit": "MB/s" if wl == "readtwice" else ("tps" if better == "higher" else "ms"),
             "better": better, "ops": []}
        for oi, op in enumerate(ops.split(",")):
            base = 1000.0 * (oi + 1) * (1 + 0.03 * li)
            t["ops"].append({"op": op, "samples": [base * (1 + 0.01 * k) for k in range(5)]})
        per_wl.setdefault(wl, []).append(t)
    for wl, ts in per_wl.items():
        json.dump({"schema": 1, "workload": wl, "tables": ts}, open(os.path.join(d, wl + ".json"), "w"))
EOF
}

test_email_golden_byte_for_byte() {
  expect_exit 0 "$LRUBENCH" compare -f email "$FIX/golden"
  cmp "$T/out" "$FIX/expected/golden-email.txt" || { diff "$FIX/expected/golden-email.txt" "$T/out"; fail "email differs"; }
  expect_exit 0 "$LRUBENCH" compare -f email "$FIX/edge"
  cmp "$T/out" "$FIX/expected/edge-email.txt" || { diff "$FIX/expected/edge-email.txt" "$T/out"; fail "email differs"; }
  assert_mail_safe "$T/out"
  # the text output is unchanged by the email renderer's existence
  expect_exit 0 "$LRUBENCH" compare "$FIX/golden"
  cmp "$T/out" "$FIX/expected/golden.txt" || fail "text output changed"
}

test_email_72_columns_2_3_5_labels_long_ops() {
  local n longop=memcgs-with-an-op-name-much-longer-than-any-column-could-hold-1
  for n in 2 3 5; do
    local labels=() i
    for ((i = 0; i < n; i++)); do labels+=("6.1.0-13-amd64-2026113${i}T221530"); done
    gen_results "$T/r$n" "${labels[@]}" -- \
      "readtwice:readtwice MB/s aggregate:higher:memcgs-1,memcgs-2,$longop" \
      "sysbench:sysbench Latency 95th percentile:lower:1,2,4"
    expect_exit 0 "$LRUBENCH" compare -f email "$T/r$n"
    assert_mail_safe "$T/out"
    # nothing dropped: every op and every label's column
    assert_grep "^$longop\$" "$T/out"
    assert_grep '^memcgs-2 ' "$T/out"
    [ "$(grep -c '  change' "$T/out")" = $(( (n - 1) * 2 )) ] || fail "$n labels: change columns"
    for ((i = 0; i < n; i++)); do assert_grep "${labels[$i]}" "$T/out"; done
  done
}

test_compare_baseline() {
  # by name: the others keep their order after it
  expect_exit 0 "$LRUBENCH" compare --baseline 6.8.0-patched "$FIX/golden"
  assert_grep '^Labels: 6.8.0-patched (baseline), 6.8.0-vanilla$' "$T/out"
  # by folder, not among the DIRs given
  expect_exit 0 "$LRUBENCH" compare --baseline "$FIX/golden/6.8.0-patched" "$FIX/golden/6.8.0-vanilla"
  assert_grep '^Labels: 6.8.0-patched (baseline), 6.8.0-vanilla$' "$T/out"
  # by folder, among them: not loaded twice
  expect_exit 0 "$LRUBENCH" compare -f email --baseline "$FIX/golden/6.8.0-patched" "$FIX/golden"
  assert_grep '^Kernels: 6.8.0-patched (baseline), 6.8.0-vanilla$' "$T/out"
  # unknown; the same label name in another folder
  expect_exit 2 "$LRUBENCH" compare --baseline nosuch "$FIX/golden"
  assert_grep_err "baseline 'nosuch': neither a label among the results given (found: "
  [ -s "$T/out" ] && fail "output despite the error"
  cp -r "$FIX/golden/6.8.0-patched" "$T/6.8.0-patched"
  expect_exit 2 "$LRUBENCH" compare --baseline "$T/6.8.0-patched" "$FIX/golden"
  assert_grep_err "label '6.8.0-patched' is in both"
}

# readtwice + sysbench at a big machine's sweep sizes (8 memcg counts, 8
# thread counts): the whole report stays under 200 lines.
test_report_readtwice_sysbench_under_200_lines() {
  need_cmd gnuplot gnuplot-nox
  local sweep=1,2,4,8,16,32,64,128
  gen_results "$T/r" 6.8.0-vanilla 6.8.0-mglru -- \
    "readtwice:readtwice MB/s aggregate:higher:memcgs-${sweep//,/,memcgs-}" \
    "readtwice:readtwice MB/s per memcg:higher:memcgs-${sweep//,/,memcgs-}" \
    "sysbench:sysbench Transactions per second:higher:$sweep" \
    "sysbench:sysbench Latency 95th percentile:lower:$sweep"
  mkdir -p "$T/tmp"
  expect_exit 0 env TMPDIR="$T/tmp" "$LRUBENCH" report -o "$T/report.txt" "$T/r"
  [ -s "$T/out" ] && fail "report -o printed to stdout"
  # the figures were made in a temporary folder, removed again
  [ -z "$(ls -A "$T/tmp")" ] || fail "left in TMPDIR: $(ls -A "$T/tmp")"
  assert_mail_safe "$T/report.txt"
  local lines
  lines=$(wc -l < "$T/report.txt")
  [ "$lines" -lt 200 ] || fail "report has $lines lines"
  # the parts: machine, kernels, what was run, the tables, a figure per throughput table
  assert_grep '^AMD EPYC 7452, x86_64, 64 CPUs, 251.7 GiB, 2 NUMA nodes, THP=always$' "$T/report.txt"
  assert_grep '^  defrag=madvise, cgroup v2$' "$T/report.txt"
  assert_grep '^  6.8.0-vanilla (baseline): #1 SMP PREEMPT_DYNAMIC$' "$T/report.txt"
  assert_grep '^Workloads: readtwice, sysbench$' "$T/report.txt"
  assert_grep '^Iterations: 5 measured after 1 warm-up' "$T/report.txt"
  assert_grep '^sysbench: threads 1-128:x2, runtime 60s$' "$T/report.txt"
  assert_grep '^memcgs-128 ' "$T/report.txt"
  assert_grep '^Amean (stddev) in ms; lower is better$' "$T/report.txt"
  [ "$(grep -c '^Figure [0-9]*: ' "$T/report.txt")" = 3 ] || fail "not one figure per throughput table"
  assert_grep '^Figure 3: sysbench Transactions per second, Hmean per kernel' "$T/report.txt"
  grep -q '^Figure.*Latency' "$T/report.txt" && fail "a figure for a latency table"
  return 0
}

test_report_usage_errors() {
  expect_exit 2 "$LRUBENCH" report
  assert_grep_err "give the results folders"
  expect_exit 2 "$LRUBENCH" report "$FIX/golden/6.8.0-vanilla"
  assert_grep_err "only one label"
  expect_exit 2 "$LRUBENCH" report --bogus "$FIX/golden"
  assert_grep_err "unknown option '--bogus'"
  expect_exit 2 "$LRUBENCH" report --baseline nosuch "$FIX/golden"
  assert_grep_err "baseline 'nosuch'"
  # without gnuplot: exit 3 naming the way out, or --no-figures
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" report "$FIX/golden"
  assert_grep_err "no-figures"
  expect_exit 0 env PATH="$T/bin" "$LRUBENCH" report --no-figures "$FIX/golden"
  grep -q '^Figure' "$T/out" && fail "a figure despite --no-figures"
  assert_grep '^Results$' "$T/out"
}

# Two real short readtwice runs, then the report a cover letter would carry.
test_report_two_real_runs() {
  need_root
  need_cmd gnuplot gnuplot-nox
  # (monitors off: with two samples a tenth of the 22 level tables come out significant by
  # chance and each adds its table to the letter, so the length would be a lottery; which
  # level tables a letter keeps is tests/unit/test_email.c's business)
  local args=(-w readtwice --quick --set readtwice.memcgs=1,2 --set readtwice.runtime=2s -i 2
              --set global.warmup=0 --set global.monitors=none -q -o "$T/res")
  "$LRUBENCH" run "${args[@]}" --label "base-%d%t" >"$T/run.log" 2>&1 || { cat "$T/run.log"; fail "run 1"; }
  "$LRUBENCH" run "${args[@]}" --label "cand-%r" >"$T/run.log" 2>&1 || { cat "$T/run.log"; fail "run 2"; }
  ls "$T/res" | grep -Eq '^base-[0-9]{8}[0-9]{6}$' || fail "pattern label: $(ls "$T/res")"
  assert_file "$T/res/cand-$(uname -r)/run.json"
  expect_exit 0 "$LRUBENCH" report -o "$T/report.txt" "$T/res"
  assert_mail_safe "$T/report.txt"
  # (the header's warnings -- one kernel build twice, a busy shared machine -- add a few
  # lines; readtwice has three throughput tables and their figures since issue 32)
  [ "$(wc -l < "$T/report.txt")" -lt 260 ] || fail "report too long: $(wc -l < "$T/report.txt") lines"
  # the line wraps at 72 columns wherever this machine's strings make it:
  # read the report as one line, white space squeezed (issue 30)
  tr '\n' ' ' < "$T/report.txt" | tr -s ' ' |
    awk -v v="$(uname -v | cut -c1-20 | tr -s ' ')" \
      '{ b = index($0, "(baseline): "); k = index(substr($0, b), v) } END { exit !(b && k) }' ||
    fail "the baseline's kernel version is not in the report"
  tr '\n' ' ' < "$T/report.txt" | grep -Eq ' base-[0-9T]+ +\(baseline\):' ||
    fail "the baseline's label is not in the report"
  assert_grep '^readtwice: memcgs 1,2, ' "$T/report.txt"
  tr '\n' ' ' < "$T/report.txt" | grep -q 'readtwice: memcgs 1,2, [^:]*runtime 2s' || fail "no runtime"
  assert_grep '^Iterations: 2 measured after 0 warm-up' "$T/report.txt"
  assert_grep '^memcgs-1 ' "$T/report.txt"
  assert_grep '^Figure 1: readtwice MB/s aggregate, Hmean per kernel' "$T/report.txt"
  assert_no_leaks
}

test_plot_txt_size_and_legend() {
  need_cmd gnuplot gnuplot-nox
  expect_exit 0 "$LRUBENCH" plot --format txt -o "$T/p" "$FIX/golden"
  local f n=0
  for f in "$T"/p/*.txt; do
    n=$((n + 1))
    assert_mail_safe "$f"
    local lines
    lines=$(wc -l < "$f")
    [ "$lines" -ge 15 ] && [ "$lines" -le 22 ] || fail "$f: $lines lines, not about 20"
    # the legend: each label on a line of its own, with its own mark
    grep -q '6.8.0-vanilla' "$f" || fail "$f: no legend entry for the baseline"
    grep -q '6.8.0-patched' "$f" || fail "$f: no legend entry for the candidate"
    [ "$(grep -c '6.8.0-' "$f")" -ge 2 ] && ! grep -q '6.8.0-vanilla.*6.8.0-patched' "$f" ||
      fail "$f: the two labels share a legend line"
  done
  [ "$n" -ge 1 ] || fail "no txt figure"
  assert_grep '\.txt' "$T/p/index.md"
  expect_exit 2 "$LRUBENCH" plot --format gif -o "$T/q" "$FIX/golden"
  assert_grep_err "png, svg or txt"
}

test_trend_finds_the_step() {
  local labels=() i
  for ((i = 1; i <= 12; i++)); do labels+=("$(printf '6.1.0-13-amd64-202611%02dT221530' "$i")"); done
  gen_results "$T/n" "${labels[@]}" -- "readtwice:readtwice MB/s aggregate:higher:memcgs-1,memcgs-2"
  # nights 8..12 of memcgs-1 lose 15%; night 5 of memcgs-2 is one bad night
  python3 - "$T/n" <<'EOF'
import json, glob, sys
for p in sorted(glob.glob(sys.argv[1] + "/*/readtwice.json")):
    night = int(p.split("/")[-2][-9:-7])
    w = json.load(open(p))
    for o in w["tables"][0]["ops"]:
        o["samples"] = [1000.0 + (night * 7 % 5) + k for k in range(5)]
        if o["op"] == "memcgs-1" and night >= 8:
            o["samples"] = [v * 0.85 for v in o["samples"]]
        if o["op"] == "memcgs-2" and night == 5:
            o["samples"] = [v * 1.5 for v in o["samples"]]
    json.dump(w, open(p, "w"))
EOF
  expect_exit 0 "$LRUBENCH" trend "$T/n"
  assert_grep '^ 12  2026-11-12T22:15:30Z  6.1.0-13-amd64-20261112T221530$' "$T/out"
  assert_grep '^\* memcgs-1 changed at 6.1.0-13-amd64-20261108T221530: .* (-15\.[0-9]*%), .*worse$' "$T/out"
  [ "$(grep -c '^\* ' "$T/out")" = 1 ] || fail "the one bad night of memcgs-2 was taken for a change"
  if command -v gnuplot >/dev/null; then
    expect_exit 0 "$LRUBENCH" trend -o "$T/trend.txt" "$T/n"
    assert_file "$T/trend.gp"
    assert_file "$T/trend.dat"
    [ "$(awk 'length($0) > 72' "$T/trend.txt" | wc -l)" = 0 ] || fail "trend figure wider than 72"
    grep -q 'memcgs-1' "$T/trend.txt" || fail "no legend in the trend figure"
  fi
  expect_exit 2 "$LRUBENCH" trend --window 1 "$T/n"
  assert_grep_err "--window: 1 is out of range (3..1000)"
  expect_exit 2 "$LRUBENCH" trend --threshold -3 "$T/n"
  assert_grep_err "--threshold: -3 is out of range (K > 0)"
  expect_exit 2 "$LRUBENCH" trend -o "$T/trend.gif" "$T/n"
  assert_grep_err "NAME.png, NAME.svg or NAME.txt"
  expect_exit 2 "$LRUBENCH" trend "$T/n/${labels[0]}"
  assert_grep_err "only one label"
}

test_run_label_pattern_errors() {
  need_root
  expect_exit 2 "$LRUBENCH" run --dry-run -w readtwice --label 'nightly-%q'
  assert_grep_err "'%q' is not a pattern field"
  expect_exit 2 "$LRUBENCH" run --dry-run -w readtwice --label 'a/%d'
  assert_grep_err "label 'a/[0-9]*' has '/'"
}
