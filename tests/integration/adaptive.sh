# SPDX-License-Identifier: GPL-2.0-or-later
# iterations = auto, interleaved steps, run --baseline, lrubench noise and
# compare's notes, against the real kernel: real readtwice runs with a tiny
# runtime. Where a test needs a known outcome it sets the goal out of reach
# (precision=0.01%: only a cap can stop a step) or within reach of anything
# (precision=100%), instead of relying on how noisy this machine is.

QUICK=(--quick -w readtwice --set global.warmup=0 --set readtwice.runtime=1s --set readtwice.file_size=64M)

samples_saved() { [ -f "$1" ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if sum(len(o["samples"]) for o in d["tables"][0]["ops"]) >= int(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null; }

test_adaptive_caps_and_records() {
  need_root
  # never precise enough: the iteration cap stops every step
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=0.01% \
    --set global.min_iterations=2 --set global.max_iterations=3 --set readtwice.memcgs=1,2 \
    -o "$T/r" --label cap
  assert_grep "iteration cap" "$T/out"
  python3 - "$T/r/cap/readtwice.json" <<'EOF' || fail "records of the iteration cap"
import json, sys
d = json.load(open(sys.argv[1]))
recs = {(r["table"], r["op"]): r for r in d["adaptive"]}
for t in d["tables"]:
    for o in t["ops"]:
        r = recs[(t["title"], o["op"])]
        assert len(o["samples"]) == 3 and r["iterations"] == 3, r
        assert r["stopped"] == "iteration cap", r
        assert r["decides"] == (t["title"] == "readtwice MB/s aggregate"), r
        # the deciding op could not reach 0.01%; other tables' ops may be constant
        assert not r["decides"] or r["precision"] > 0.01, r
for p in d["progress"]:
    assert p["done"] == 3 and p["stopped"] == "iteration cap" and p["seconds"] > 0, p
EOF
  assert_eq "$(json_get "$T/r/cap/run.json" '["config"]["global"]["iterations"]')" auto "config"
  # a second an iteration against a 1 s budget: the time cap after the minimum
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=0.01% \
    --set global.min_iterations=2 --set global.time_budget=1s --set readtwice.memcgs=1 \
    -o "$T/r" --label time
  assert_eq "$(json_get "$T/r/time/readtwice.json" '["adaptive"][0]["stopped"]')" "time cap" "stopped"
  assert_eq "$(json_get "$T/r/time/readtwice.json" '["adaptive"][0]["iterations"]')" 2 "iterations"
  # within reach of anything but a spread of 60% (t(0.975, 3) / 2 x CoeffVar at 4 samples):
  # the minimum is enough
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=100% \
    --set global.min_iterations=4 --set readtwice.memcgs=1 -o "$T/r" --label easy
  assert_eq "$(json_get "$T/r/easy/readtwice.json" '["adaptive"][0]["stopped"]')" reached "stopped"
  assert_eq "$(json_get "$T/r/easy/readtwice.json" '["adaptive"][0]["iterations"]')" 4 "iterations"
  assert_no_leaks
}

test_adaptive_bad_keys() {
  need_root
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.min_iterations=5 \
    --set global.max_iterations=4 -o "$T/r" --label bad
  assert_grep_err "global.max_iterations=4 is below global.min_iterations=5"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" --set global.precision=0% -o "$T/r" --label bad
  assert_grep_err "global.precision"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" --set global.precision=abc -o "$T/r" --label bad
  assert_grep_err "not a percentage"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i sometimes -o "$T/r" --label bad
  assert_grep_err "'sometimes' is not a whole number"
  assert_no_file "$T/r/bad"
}

# SIGINT during an adaptive run, then --resume: the samples saved stay, the
# steps go on from where they stopped, and no step grows past its cap.
test_adaptive_sigint_then_resume() {
  need_root
  local args=("${QUICK[@]}" -i auto --set global.precision=0.01% --set global.min_iterations=2
              --set global.max_iterations=4 --set readtwice.memcgs=1,2 -o "$T/r" --label s)
  "$LRUBENCH" run "${args[@]}" >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for "two saved iterations" samples_saved "$T/r/s/readtwice.json" 2
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_eq "$(json_get "$T/r/s/run.json" '["status"]')" interrupted "status"
  assert_no_leaks
  cp "$T/r/s/readtwice.json" "$T/before.json"
  local before
  before=$(python3 -c 'import json,sys; print(sum(len(o["samples"]) for o in json.load(open(sys.argv[1]))["tables"][0]["ops"]))' "$T/before.json")
  [ "$before" -lt 8 ] || fail "the interrupted run had already finished ($before samples)"
  expect_exit 0 "$LRUBENCH" run "${args[@]}" --resume
  assert_eq "$(json_get "$T/r/s/run.json" '["status"]')" complete "status after resume"
  python3 - "$T/before.json" "$T/r/s/readtwice.json" <<'EOF' || fail "resumed adaptive run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
old = {(t["title"], o["op"]): o["samples"] for t in a["tables"] for o in t["ops"]}
for t in b["tables"]:
    for o in t["ops"]:
        s = o["samples"]
        assert len(s) == 4, (o["op"], s)                       # the cap, not 4 more
        assert s[:len(old.get((t["title"], o["op"]), []))] == old.get((t["title"], o["op"]), []), o
recs = {(r["table"], r["op"]): r for r in b["adaptive"] if r["decides"]}
assert sorted(recs) == [("readtwice MB/s aggregate", "memcgs-1"), ("readtwice MB/s aggregate", "memcgs-2")], recs
assert all(r["stopped"] == "iteration cap" and r["iterations"] == 4 for r in recs.values()), recs
# the time of the first part is kept
sec = {p["step"]: p["seconds"] for p in b["progress"]}
assert all(v >= 3.5 for v in sec.values()), sec
EOF
  assert_no_leaks
}

test_interleaved_order_is_recorded() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 2 --set global.interleave=yes \
    --set readtwice.memcgs=1,2,4 -o "$T/r" --label il
  python3 - "$T/r/il/readtwice.json" <<'EOF' || fail "interleaved order"
import json, sys
d = json.load(open(sys.argv[1]))
order = [(o["step"], o["iteration"]) for o in d["order"]]
assert order == [("memcgs-1", 0), ("memcgs-2", 0), ("memcgs-4", 0),
                 ("memcgs-1", 1), ("memcgs-2", 1), ("memcgs-4", 1)], order
# the details say the same: iterations ran round by round
det = [(x["step"], x["iteration"]) for x in d["details"]]
assert det == order, det
EOF
  # the default is sequential and records no order
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 1 --set readtwice.memcgs=1,2 -o "$T/r" --label seq
  python3 -c 'import json,sys; assert "order" not in json.load(open(sys.argv[1]))' "$T/r/seq/readtwice.json" \
    || fail "order recorded without interleave"
  assert_no_leaks
}

test_run_baseline_decides_and_compare_says_so() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 4 --set readtwice.memcgs=1 -o "$T/r" --label A
  # an interval within ±100% of the baseline is reached at the minimum (4 a
  # side: a half-width near 1.7 x CoeffVar)
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=100% \
    --set global.min_iterations=4 --set readtwice.memcgs=1 -o "$T/r" --label B --baseline "$T/r/A"
  # no noise --runs beside the baseline: what the alpha covers is said
  assert_grep_err "readtwice: no spread between runs measured beside the baseline"
  python3 - "$T/r/B/readtwice.json" <<'EOF' || fail "records against the baseline"
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["adaptive"] if x["decides"]][0]
assert r["stopped"] in ("decided", "reached") and r["iterations"] == 4, r
lo, hi = r["change_ci"]
assert lo <= hi and (hi - lo) / 2 <= 100 or lo > 0 or hi < 0, r
EOF
  assert_eq "$(json_get "$T/r/B/run.json" '["baseline"]')" "$T/r/A" "run.json baseline"
  # the stopping record says how the samples were gathered (issue 23)
  python3 - "$T/r/B/readtwice.json" <<'EOF' || fail "stopping record"
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["adaptive"] if x["decides"]][0]
s = r["sequential"]
assert s["design"].startswith("group sequential") and s["alpha"] == 0.05, s
assert s["look"] == 1 and s["looks"] >= 1 and s["baseline_n"] == 4, s
assert "between_runs" not in s and "between_runs_pct" not in s, s
# the whole alpha at one look where the plan from a quiet baseline ends at the
# first look (min_iterations 4); spent over several looks, each boundary is wider
if s["last_look"] == 4:
    assert abs(s["boundary"] - 1.96) < 0.005, s
else:
    assert s["last_look"] > 4 and s["boundary"] > 1.96, s
EOF
  expect_exit 0 "$LRUBENCH" compare --names A,B "$T/r"
  assert_grep "note: B: op memcgs-1: \\(decided\\|equivalent within ±100%\\) after 4 iterations (sequential, alpha 5%; spread between runs not measured)" "$T/out"
  # the star is the sequential verdict: present exactly when it decided
  if [ "$(json_get "$T/r/B/readtwice.json" '["adaptive"][0]["stopped"]')" = decided ]; then
    assert_grep "^Hmean *memcgs-1 .*%\\*" "$T/out"
  elif grep -q "^Hmean *memcgs-1 .*%\\*" "$T/out"; then
    fail "a star without a sequential decision"
  fi
  # against a baseline it was not held against: no star, and the note says why
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 2 --set readtwice.memcgs=1 -o "$T/r" --label A2
  expect_exit 0 "$LRUBENCH" compare --names A2,B "$T/r"
  assert_grep "the fixed-sample t-test does not apply after optional stopping" "$T/out"
  if grep -q "^Hmean *memcgs-1 .*%\\*" "$T/out"; then fail "a t-test star after optional stopping"; fi
  # what a baseline needs
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i 3 -o "$T/r" --label C --baseline "$T/r/A"
  assert_grep_err "only iterations = auto"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i auto -o "$T/r" --label C --baseline "$T/nowhere"
  assert_grep_err "not a label folder"
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i auto --kernel-a host -o "$T/r" --baseline "$T/r/A"
  assert_grep_err "in VM mode kernel A is the baseline"
  assert_no_file "$T/r/C"
  assert_no_leaks
}

test_noise_floor_and_compare_notes() {
  need_root
  expect_exit 2 "$LRUBENCH" noise "${QUICK[@]}" -i auto -o "$T/r"
  assert_grep_err "fixed iteration count"
  expect_exit 0 "$LRUBENCH" noise "${QUICK[@]}" -i 2 --set readtwice.memcgs=1,2 -o "$T/r" --label aa
  assert_grep "Noise floor: A/A, 2 iterations a side" "$T/out"
  assert_file "$T/r/noise.json"
  python3 - "$T/r/noise.json" "$T/r/.noise/aa/readtwice.json" <<'EOF' || fail "noise.json"
import json, sys
n = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
assert n["schema"] == 1 and n["iterations"] == 2, n
assert n["system"]["hostname"] and n["config"]["readtwice"]["memcgs"] == "1,2", n
ops = n["workloads"][0]["tables"][0]["ops"]
assert [o["op"] for o in ops] == ["memcgs-1", "memcgs-2"], ops
for o in ops:
    assert o["n"] == [2, 2] and o["floor_pct"] >= abs(o["aa_change_pct"]) and o["spread_pct"] >= 0, o
# the A/A run itself: 4 iterations a step, alternating A and A'
assert all(len(o["samples"]) == 4 for t in run["tables"] for o in t["ops"])
EOF
  # two labels on this machine with the same workload config as the noise run
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 2 --set readtwice.memcgs=1,2 -o "$T/r" --label A
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 2 --set readtwice.memcgs=1,2 -o "$T/r" --label B
  # compare takes the dot folder for no label
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  assert_grep "Labels: A (baseline), B" "$T/out"
  # a floor far above any change: every op is within it
  python3 - "$T/r/noise.json" 1000 <<'EOF'
import json, sys
n = json.load(open(sys.argv[1]))
for t in n["workloads"][0]["tables"]:
    for o in t["ops"]:
        o["spread_pct"] = float(sys.argv[2]); o["aa_change_pct"] = 0.0
json.dump(n, open(sys.argv[1], "w"))
EOF
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  # under the aggregate table, both ops; none under the tables that explain it
  python3 - "$T/out" <<'EOF' || fail "noise notes"
import re, sys
text = open(sys.argv[1]).read()
agg = text.split("readtwice MB/s aggregate\n", 1)[1].split("\n\n", 1)[0]
notes = re.findall(r"^note: B: op (memcgs-\d+): [-+][0-9.]+%, within this machine's noise \([0-9.]+%\)$", agg, re.M)
assert notes == ["memcgs-1", "memcgs-2"], agg
if "where the kernel spent the time" in text:
    assert "within this machine's noise" not in text.split("where the kernel spent the time", 1)[1]
EOF
  # a floor of 0: no note; another machine's floor: none either, and the
  # output is byte for byte the one without a noise file
  python3 - "$T/r/noise.json" 0 <<'EOF'
import json, sys
n = json.load(open(sys.argv[1]))
for t in n["workloads"][0]["tables"]:
    for o in t["ops"]:
        o["spread_pct"] = float(sys.argv[2]); o["aa_change_pct"] = 0.0
json.dump(n, open(sys.argv[1], "w"))
EOF
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  if grep -q "within this machine's noise" "$T/out"; then fail "a note under a floor of 0"; fi
  python3 - "$T/r/noise.json" <<'EOF'
import json, sys
n = json.load(open(sys.argv[1]))
n["system"]["hostname"] = "another-machine"
for t in n["workloads"][0]["tables"]:
    for o in t["ops"]:
        o["spread_pct"] = 1000.0
json.dump(n, open(sys.argv[1], "w"))
EOF
  expect_exit 0 "$LRUBENCH" compare "$T/r"; cp "$T/out" "$T/other-machine.txt"
  rm "$T/r/noise.json"
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  cmp "$T/out" "$T/other-machine.txt" || fail "another machine's floor changed the output"
  assert_no_leaks
}

# noise --runs: R A/A runs, each its own set-up, and the spread between them
# (one-way analysis of variance of the runs' samples, recomputed here)
test_noise_between_runs() {
  need_root
  expect_exit 2 "$LRUBENCH" noise "${QUICK[@]}" -i 2 --runs 0 -o "$T/r"
  assert_grep_err "runs: 0 is out of range"
  assert_no_file "$T/r"
  # a label whose last run's label would be too long: refused before any run
  expect_exit 2 "$LRUBENCH" noise "${QUICK[@]}" -i 2 --runs 3 -o "$T/r" --label "$(printf 'a%.0s' $(seq 198))"
  assert_grep_err "runs 3: the last run's label 'a*\.\.\.' is too long"
  assert_no_file "$T/r"
  expect_exit 0 "$LRUBENCH" noise "${QUICK[@]}" -i 2 --set readtwice.memcgs=1 --runs 3 -o "$T/r" --label aa
  assert_grep "the spread between 3 runs, each its own set-up" "$T/out"
  assert_grep "between runs" "$T/out"
  python3 - "$T/r" <<'EOF' || fail "between-run spread"
import json, math, sys
root = sys.argv[1]
n = json.load(open(root + "/noise.json"))
assert n["runs"] == 3, n
runs = [json.load(open("%s/.noise/%s/readtwice.json" % (root, d))) for d in ("aa", "aa-run2", "aa-run3")]
for t in n["workloads"][0]["tables"]:
    for o in t["ops"]:
        x = [[op for tb in r["tables"] if tb["title"] == t["title"] for op in tb["ops"] if op["op"] == o["op"]][0]["samples"] for r in runs]
        N = sum(len(s) for s in x); R = len(x); g = sum(map(sum, x)) / N
        if g == 0:   # a rate that stayed 0: nothing to separate
            assert "runs" not in o, o
            continue
        m = [sum(s) / len(s) for s in x]
        msw = sum((v - m[i]) ** 2 for i, s in enumerate(x) for v in s) / (N - R)
        msb = sum(len(s) * (m[i] - g) ** 2 for i, s in enumerate(x)) / (R - 1)
        n0 = (N - sum(len(s) ** 2 for s in x) / N) / (R - 1)
        b = 100 * math.sqrt((msb - msw) / n0) / g if msb > msw else 0
        assert o["runs"] == 3 and abs(o["between_runs_pct"] - b) < 0.002, (o, b)
        assert abs(o["within_run_pct"] - 100 * math.sqrt(msw) / g) < 0.002, o
        # Satterthwaite's degrees of freedom of (MSB - MSW) / n0
        df = (msb - msw) ** 2 / (msb ** 2 / (R - 1) + msw ** 2 / (N - R)) if msb > msw else 0
        assert abs(o["between_df"] - df) < 0.006 and 0 <= o["between_df"] <= R - 1, (o, df)
EOF
  # a baseline in the same results folder: -i auto holds the spread between
  # runs in its interval, says so, records it, and compare's note says it
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i 4 --set readtwice.memcgs=1 -o "$T/r" --label base
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=100% \
    --set global.min_iterations=4 --set readtwice.memcgs=1 -o "$T/r" --label seq --baseline "$T/r/base"
  assert_grep "readtwice: the spread between runs measured by lrubench noise --runs 3 beside the baseline is in every change's interval" "$T/out"
  python3 - "$T/r/noise.json" "$T/r/seq/readtwice.json" <<'EOF' || fail "between runs in the sequential record"
import json, sys
n, d = (json.load(open(p)) for p in sys.argv[1:3])
r = [x for x in d["adaptive"] if x["decides"]][0]
o = [o for t in n["workloads"][0]["tables"] if t["title"] == r["table"] for o in t["ops"] if o["op"] == r["op"]][0]
s = r["sequential"]
assert s["between_runs"] == 3 and abs(s["between_runs_pct"] - o["between_runs_pct"]) < 0.001, (s, o)
assert abs(s["between_df"] - o["between_df"]) < 0.001, (s, o)
EOF
  expect_exit 0 "$LRUBENCH" compare --names base,seq "$T/r"
  assert_grep "note: seq: op memcgs-1: .* (sequential, alpha 5%; spread between runs [0-9.]*% from 3 runs" "$T/out"
  # a resumed run holds the noise.json it started with: measured anew in
  # between, --resume is refused (exit 2) and the label is left as it was
  assert_eq "$(json_get "$T/r/seq/run.json" '["baseline_noise_measured"]')" \
    "$(json_get "$T/r/noise.json" '["measured"]')" "run.json baseline_noise_measured"
  python3 - "$T/r/seq/run.json" "$T/r/noise.json" <<'EOF'
import json, sys
r, n = (json.load(open(p)) for p in sys.argv[1:3])
r["status"] = "interrupted"; n["measured"] = "2000-01-01T00:00:00Z"
json.dump(r, open(sys.argv[1], "w")); json.dump(n, open(sys.argv[2], "w"))
EOF
  local sum; sum=$(cat "$T/r/seq/"*.json | md5sum)
  expect_exit 2 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=100% \
    --set global.min_iterations=4 --set readtwice.memcgs=1 -o "$T/r" --label seq --baseline "$T/r/base" --resume
  assert_grep_err "resume: the noise.json beside the baseline changed since the interrupted run (measured .*, now 2000-01-01T00:00:00Z)"
  assert_eq "$(cat "$T/r/seq/"*.json | md5sum)" "$sum" "the refused resume changed the label"
  # --resume keeps complete runs as they are and measures again
  local before; before=$(stat -c %Y.%s "$T/r/.noise/aa-run2/run.json")
  rm "$T/r/noise.json"
  expect_exit 0 "$LRUBENCH" noise "${QUICK[@]}" -i 2 --set readtwice.memcgs=1 --runs 3 -o "$T/r" --label aa --resume
  assert_eq "$(stat -c %Y.%s "$T/r/.noise/aa-run2/run.json")" "$before" "a complete run was run again"
  assert_file "$T/r/noise.json"
  assert_no_leaks
}

# VM mode with two runs of the host kernel (no qemu needed): the rounds adapt
test_vm_rounds_until_decided() {
  need_root
  local base=("${QUICK[@]}" -i auto --set readtwice.memcgs=1
              --kernel-a host --kernel-b host --label-a A --label-b B -o "$T/r")
  # 4 samples a side put the change's half-width near 1.7 x CoeffVar: ±100% is
  # reached in the first round unless the machine's spread is above 55%
  expect_exit 0 "$LRUBENCH" run "${base[@]}" --set global.min_iterations=4 --set global.precision=100%
  # run.json says what the one op's sequential verdict was: "reached"
  # (equivalent within ±100%) is no "decided" (issue 23)
  python3 - "$T/r/B/run.json" "$T/r/B/readtwice.json" <<'EOF' || fail "vm.adaptive.stopped"
import json, sys
run, d = (json.load(open(p)) for p in sys.argv[1:3])
va, r = run["vm"]["adaptive"], [a for a in d["adaptive"] if a["decides"]]
assert len(r) == 1 and r[0]["stopped"] in ("decided", "reached"), r
assert va["stopped"] == r[0]["stopped"], (va, r)
assert va["verdicts"][r[0]["stopped"]] == 1 and sum(va["verdicts"].values()) == 1, va
EOF
  assert_eq "$(json_get "$T/r/B/run.json" '["vm"]["adaptive"]["rounds"]')" 1 "rounds"
  # the guests ran min_iterations, not auto
  assert_eq "$(json_get "$T/r/B/run.json" '["config"]["global"]["iterations"]')" 4 "guest iterations"
  assert_grep "\\(decided\\|equivalent within ±100%\\) after 1 round (sequential, alpha 5%)$" "$T/out"
  # out of reach: an A/A of one kernel can never be "equivalent within
  # ±0.01%": it runs to vm.rounds, or says "too noisy" early, or -- at the
  # sequential design's false-decision rate, at most 5% (issue 23; issue 30
  # asked that such a test allow the stated rate) -- stops "decided"
  expect_exit 0 "$LRUBENCH" run "${base[@]}" --set global.min_iterations=2 --set global.precision=0.01% \
    --set vm.rounds=2 --force
  python3 - "$T/r/B/run.json" "$T/r/B/readtwice.json" <<'EOF' || fail "rounds out of reach"
import json, sys
run, d = (json.load(open(p)) for p in sys.argv[1:3])
va, r = run["vm"]["adaptive"], d["adaptive"][0]
assert r["sequential"]["looks"] == 2 and r["sequential"]["alpha"] == 0.05, r
assert r["rounds"] == va["rounds"] and r["iterations"] == 2 * r["rounds"], (va, r)
# the one judged op's verdict, whichever it was (issue 23)
assert va["stopped"] == r["stopped"], (va, r)
if r["stopped"] == "round cap":
    assert va["stopped"] == "round cap" and va["rounds"] == 2, va
else:
    assert r["stopped"] in ("too noisy", "decided"), r
EOF
  if [ "$(json_get "$T/r/B/readtwice.json" '["adaptive"][0]["stopped"]')" = "round cap" ]; then
    assert_grep "not decided after 2 rounds (sequential, alpha 5%; round cap)" "$T/out"
  fi
  assert_no_leaks
}

# Several kernels (--kernel NAME=IMG, issue 18): B and C are each held
# against A, the baseline; A gets no records of its own
test_vm_rounds_three_kernels() {
  need_root
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set readtwice.memcgs=1 --kernel-a host \
    --label-a A --kernel B=host --kernel C=host -o "$T/r" --set global.min_iterations=2 \
    --set global.precision=0.01% --set vm.rounds=2
  # three runs of one kernel: the ops run to the cap or stop early as
  # "too noisy" (or "decided" at the design's false-decision rate, issue 23)
  local rounds
  rounds=$(json_get "$T/r/A/run.json" '["vm"]["adaptive"]["rounds"]')
  for l in A B C; do
    assert_eq "$(json_get "$T/r/$l/run.json" '["vm"]["adaptive"]["rounds"]')" "$rounds" "$l rounds"
  done
  for l in B C; do
    assert_eq "$(json_get "$T/r/$l/readtwice.json" '["adaptive"][0]["rounds"]')" "$rounds" "$l record"
    assert_eq "$(json_get "$T/r/$l/readtwice.json" '["adaptive"][0]["iterations"]')" $((2 * rounds)) "$l samples"
    json_get "$T/r/$l/readtwice.json" '["adaptive"][0]["sequential"]' >/dev/null ||
      fail "$l was not held against A"
  done
  python3 -c 'import json,sys; assert "adaptive" not in json.load(open(sys.argv[1]))' \
    "$T/r/A/readtwice.json" || fail "A, the baseline, got records"
  if [ "$rounds" = 2 ]; then assert_grep "decided after 2 rounds" "$T/out"; fi
  assert_no_leaks
}

# The profile pass (src/profile/) follows a step's timed iterations however
# many auto made, in interleaved rounds too, and --resume makes the pending ones.
test_adaptive_interleaved_with_profile_pass() {
  need_root
  command -v perf >/dev/null 2>&1 || skip "needs perf (apt-get install linux-perf)"
  perf version >/dev/null 2>&1 || skip "perf does not run here"
  expect_exit 0 "$LRUBENCH" run "${QUICK[@]}" -i auto --set global.precision=0.01% \
    --set global.min_iterations=2 --set global.max_iterations=2 --set global.interleave=yes \
    --set readtwice.memcgs=1,2 --profile cpu -o "$T/r" --label p
  python3 - "$T/r/p/readtwice.json" <<'EOF2' || fail "profile passes of an adaptive run"
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["progress"]:
    assert p["done"] == 2 and p["stopped"] == "iteration cap" and p.get("profiled"), p
prof = [e["step"] for e in d["details"] if "profile" in e]
assert sorted(prof) == ["memcgs-1", "memcgs-2"], prof
# the deciding table's ops stop the steps; the profile's tables are recorded, not deciding
recs = d["adaptive"]
assert any(not r["decides"] for r in recs) and all(r["decides"] == (r["table"] == "readtwice MB/s aggregate") for r in recs)
assert [(o["step"], o["iteration"]) for o in d["order"]] == [("memcgs-1", 0), ("memcgs-2", 0), ("memcgs-1", 1), ("memcgs-2", 1)]
EOF2
  assert_no_leaks
}
