# SPDX-License-Identifier: GPL-2.0-or-later
# compare's gate on missing data, on copies of the gate fixture
# (tests/fixtures/compare/gate) broken one way each: an op, a table or a
# workload the baseline has and the candidate lacks, a run that did not
# complete, a single sample. Each is its own failure, stderr line and JUnit
# testcase; --allow-missing passes them. And the golden comparison with
# the new run.json facts present and equal: the tables print byte for byte
# as before. No root needed: compare only reads files.

GFIX=$LRUBENCH_SRC/tests/fixtures/compare

# gate_copy NAME PYTHON: the gate fixture (its "regression" op only) in
# $T/NAME, then PYTHON run with d = the candidate's readtwice.json and r =
# its run.json (both written back).
gate_copy() {
  local dest=$T/$1
  cp -r "$GFIX/gate" "$dest"
  python3 -c 'import json,sys,glob
for p in glob.glob(sys.argv[1]+"/*/readtwice.json"):
    d=json.load(open(p))
    for t in d["tables"]:
        t["ops"]=[o for o in t["ops"] if o["op"] in ("regression","noisy")]
    json.dump(d,open(p,"w"))
dp=sys.argv[1]+"/cand/readtwice.json"; rp=sys.argv[1]+"/cand/run.json"
d=json.load(open(dp)); r=json.load(open(rp))
exec(sys.argv[2])
json.dump(d,open(dp,"w")); json.dump(r,open(rp,"w"))' "$dest" "$2"
  echo "$dest"
}

# The gate's checks only (the regression itself is below 50%).
gate() { expect_exit "$1" "$LRUBENCH" compare --fail-on-regression 50 --junit "$T/j.xml" "${@:2}"; }

junit_failure() {
  need_cmd xmllint libxml2-utils
  xmllint --noout "$T/j.xml" || fail "JUnit XML not well-formed"
  xmllint --xpath "string(//testcase[@name=\"$1\"]/failure/@type)" "$T/j.xml"
}

test_gate_fixture_passes_its_checks() {
  local d; d=$(gate_copy clean 'pass')
  gate 0 "$d"
  grep -q 'missing data\|insufficient' "$T/err" && fail "a complete fixture failed a check"
  true
}

test_gate_fails_on_missing_op() {
  local d; d=$(gate_copy op 'd["tables"][0]["ops"]=[o for o in d["tables"][0]["ops"] if o["op"]!="noisy"]')
  gate 1 "$d"
  assert_grep_err "^lrubench: missing data: cand has no samples of readtwice / readtwice MB/s aggregate / noisy; the baseline base has"
  assert_grep_err "the gate failed 1 check beyond regressions"
  assert_eq "$(junit_failure 'readtwice/readtwice MB/s aggregate/noisy of cand')" "missing data" "testcase"
  gate 0 --allow-missing "$d"
}

test_gate_fails_on_missing_table_and_workload() {
  # a second table in the baseline only
  local d; d=$(gate_copy table 'pass')
  python3 -c 'import json,sys,copy
p=sys.argv[1]; d=json.load(open(p)); t=copy.deepcopy(d["tables"][0]); t["title"]="readtwice MB/s per memcg"
d["tables"].append(t); json.dump(d,open(p,"w"))' "$d/base/readtwice.json"
  gate 1 "$d"
  assert_grep_err "^lrubench: missing data: cand has no table 'readtwice MB/s per memcg' of readtwice; the baseline base has"
  assert_eq "$(junit_failure 'readtwice/readtwice MB/s per memcg of cand')" "missing data" "testcase"
  # the candidate has no workload results at all
  d=$(gate_copy workload 'pass')
  rm "$d/cand/readtwice.json"
  gate 1 "$d"
  assert_grep_err "cand has no results of workload readtwice; the baseline base has"
  assert_eq "$(junit_failure 'readtwice of cand')" "missing data" "testcase"
}

test_gate_fails_on_unfinished_run() {
  local s
  for s in interrupted failed running; do
    local d; d=$(gate_copy "st-$s" "r[\"status\"]=\"$s\"")
    gate 1 "$d"
    assert_grep_err "^lrubench: missing data: cand: run status is '$s', not complete"
    assert_eq "$(junit_failure 'run status of cand')" "missing data" "testcase ($s)"
    gate 0 --allow-missing "$d"
  done
}

test_gate_fails_on_one_sample() {
  local d; d=$(gate_copy one 'd["tables"][0]["ops"][0]["samples"]=d["tables"][0]["ops"][0]["samples"][:1]')
  gate 1 "$d"
  assert_grep_err "^lrubench: insufficient data: readtwice / readtwice MB/s aggregate / .*: cand has 1 sample; 2 a side are needed"
  assert_eq "$(junit_failure "$(sed -n 's/.*insufficient data: readtwice \/ readtwice MB\/s aggregate \/ \([a-z]*\): cand.*/readtwice\/readtwice MB\/s aggregate\/\1 samples of cand/p' "$T/err")")" \
    "insufficient data" "testcase"
  gate 0 --allow-missing "$d"
}

# With kernel and host facts present and equal (one kernel build), the
# tables are byte for byte the golden ones; the header says what is new.
test_golden_tables_unchanged_with_identity() {
  cp -r "$GFIX/golden" "$T/golden"
  python3 -c 'import json,sys,glob
k={"build_id":"e4f18d9dc1d0e6fc2b17e93e885a647b3c0a6fc1","config":{"source":"/proc/config.gz",
   "sha256":"3bc833bf53f2c37021d423c014cddf6c50cd1a36061400bf235e2543bd8daf09","options":{"CONFIG_MEMCG":"y"}},
   "lru_gen_enabled":"absent","taint_start":0,"taint_start_flags":"","taint_end":0,"taint_end_flags":""}
h={"microcode":"0x1","swaps":[],"thp":{"shmem_enabled":"never"},"sysctl":{"vm.swappiness":"60"},
   "node_mem_kb":{"0":100},"load_avg":[0.0,0.0,0.0],"busy_processes":[]}
for p in glob.glob(sys.argv[1]+"/*/run.json"):
    r=json.load(open(p)); r["system"]["kernel"]=k; r["system"]["host"]=h
    r["kernel_health"]={"log":"/dev/kmsg","lost":0,"events":[],"taint_changes":[]}
    json.dump(r,open(p,"w"))' "$T/golden"
  expect_exit 0 "$LRUBENCH" compare "$T/golden"
  # from the first table on, the golden output exactly
  sed -n '/^readtwice MB\/s aggregate$/,$p' "$T/out" >"$T/tables"
  sed -n '/^readtwice MB\/s aggregate$/,$p' "$GFIX/expected/golden.txt" >"$T/golden-tables"
  cmp "$T/tables" "$T/golden-tables" || { diff "$T/golden-tables" "$T/tables" | head; fail "tables differ"; }
  assert_grep "^WARNING: these labels ran the same kernel build (build id e4f18d9dc1d0e6fc2b17e93e885a647b3c0a6fc1): 6.8.0-vanilla, 6.8.0-patched" "$T/out"
  # the release names the labels; it is the only kernel fact that differs
  assert_eq "$(sed -n '/^Kernel:$/,/^WARNING/p' "$T/out" | grep -c '^  ')" 1 "kernel facts listed"
  assert_grep "^  kernel.release 6.8.0-vanilla | 6.8.0-patched$" "$T/out"
  [ "$(grep -c '^WARNING' "$T/out")" = 1 ] || fail "one warning expected: $(grep '^WARNING' "$T/out")"
}
