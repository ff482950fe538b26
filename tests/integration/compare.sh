# SPDX-License-Identifier: GPL-2.0-or-later
# `lrubench compare` on the hand-written results folders under
# tests/fixtures/compare/: text byte for byte against committed expected
# files (golden.txt holds reference/stats-golden.md's V1+V2 block), json,
# csv and markdown by parsed values, every bad input of issue 3 (exit 2,
# a message naming what is wrong, nothing written) and the CI gate.
# No root needed: compare only reads files.

FIX=$LRUBENCH_SRC/tests/fixtures/compare

# python3 one-liners read the outputs (no jq needed on the test machine)
py() { python3 -c "$@"; }

# A bad input: exit 2, a message on stderr, nothing on stdout, no JUnit file.
bad() {
  expect_exit 2 "$LRUBENCH" compare --junit "$T/junit.xml" "$@"
  [ -s "$T/out" ] && fail "stdout should be empty: $(head -3 "$T/out")"
  [ -s "$T/err" ] || fail "no message on stderr"
  assert_no_file "$T/junit.xml"
}

# copy a fixture folder into $T so a test can break it
copy() { cp -r "$FIX/$1" "$T/$1"; }

# keep only the ops named (space separated) of every table in the gate fixture
gate_subset() {
  local dest=$T/gate-$1; shift
  cp -r "$FIX/gate" "$dest"
  py 'import json,sys,glob
keep=set(sys.argv[2:])
for p in glob.glob(sys.argv[1]+"/*/readtwice.json"):
    d=json.load(open(p))
    for t in d["tables"]:
        t["ops"]=[o for o in t["ops"] if o["op"] in keep]
    json.dump(d,open(p,"w"))' "$dest" "$@"
  echo "$dest"
}

test_golden_text_byte_for_byte() {
  expect_exit 0 "$LRUBENCH" compare "$FIX/golden"
  cmp "$T/out" "$FIX/expected/golden.txt" || { diff "$FIX/expected/golden.txt" "$T/out"; fail "text differs"; }
  # the V1+V2 block of reference/stats-golden.md, verbatim and contiguous
  py 'import sys
out=open(sys.argv[1]).read(); block=open(sys.argv[2]).read()
sys.exit(0 if block in out else 1)' "$T/out" "$FIX/expected/golden-v1v2.txt" ||
    fail "golden V1+V2 block not reproduced exactly"
}

test_edge_text_byte_for_byte() {
  expect_exit 0 "$LRUBENCH" compare "$FIX/edge"
  cmp "$T/out" "$FIX/expected/edge.txt" || { diff "$FIX/expected/edge.txt" "$T/out"; fail "text differs"; }
}

test_edge_v3_and_marks() {
  expect_exit 0 "$LRUBENCH" compare "$FIX/edge"
  # V3: lower is better, Amean row, significant at the 10% level
  assert_grep 'Amean     fault-huge-1       128.75 (   0.00%)      107.00 \*  16.89%\*' "$T/out"
  assert_grep 'Amean     fault-base-4        22.33 (   0.00%)       18.50 \*  17.16%\*' "$T/out"
  assert_grep 'BAmean-95 fault-huge-1       125.00 (   0.00%)      105.75 (  15.40%)' "$T/out"
  # single sample: Stddev 0.00 (0.00%), CoeffVar 0.00 (100.00%)
  assert_grep 'Stddev    single        2.08 (   0.00%)        0.00 (   0.00%)' "$T/out"
  assert_grep 'CoeffVar  single        5.00 (   0.00%)        0.00 ( 100.00%)' "$T/out"
  assert_grep 'Hmean     huge-1       66.67 (   0.00%)       83.33 \*  25.00%\*' "$T/out"
  # undefined Hmean, missing op, missing table: marked, never a silent number
  assert_grep 'Hmean     huge-2        0.00 (   0.00%)' "$T/out"
  assert_grep 'op huge-2: a sample <= 0: Hmean undefined' "$T/out"
  assert_grep 'fault-both-8        51.00 (   0.00%)         n/a$' "$T/out"
  assert_grep 'no such table in its results' "$T/out"
  # what differs, and the two warnings
  assert_grep '^  system.nr_cpus  *2 | 4$' "$T/out"
  assert_grep '^  config.readtwice.memcgs 1,4 | 1,4,8$' "$T/out"
  assert_grep '^WARNING: the lrubench configs differ' "$T/out"
  assert_grep '^WARNING: 5.9-rc2-lruv18 ran under QEMU TCG' "$T/out"
  # rcN stays on the first header row
  assert_grep '^ *5.9-rc2 *5.9-rc2$' "$T/out"
  assert_grep '^ *vanilla *lruv18$' "$T/out"
}

test_alpha_changes_marks() {
  # p = 0.0881 for fault-base-4: significant at 0.10, not at 0.05
  expect_exit 0 "$LRUBENCH" compare --alpha 0.05 "$FIX/edge"
  assert_grep 'Amean     fault-base-4        22.33 (   0.00%)       18.50 (  17.16%)' "$T/out"
  assert_grep 'Amean     fault-huge-1       128.75 (   0.00%)      107.00 \*  16.89%\*' "$T/out"
}

test_names_pick_and_order() {
  expect_exit 0 "$LRUBENCH" compare --names 6.8.0-patched,6.8.0-vanilla "$FIX/golden"
  assert_grep '^Labels: 6.8.0-patched (baseline), 6.8.0-vanilla$' "$T/out"
  assert_grep '^ *patched *vanilla$' "$T/out"
  assert_grep 'Min       1      870.00 (   0.00%)      990.00 (  13.79%)' "$T/out"
  # label folders given one by one keep run.json "started" order
  expect_exit 0 "$LRUBENCH" compare "$FIX/golden/6.8.0-patched" "$FIX/golden/6.8.0-vanilla"
  cmp "$T/out" "$FIX/expected/golden.txt" || fail "order should follow run.json started"
}

# In a folder of labels only folders with a label's name are labels (the
# rule run and the VM mode apply): a hidden one is skipped quietly, another
# with a warning naming it; the comparison is the same.
test_folder_names_that_are_not_labels() {
  copy golden
  cp -r "$T/golden/6.8.0-vanilla" "$T/golden/.hidden"
  cp -r "$T/golden/6.8.0-vanilla" "$T/golden/old results"
  expect_exit 0 "$LRUBENCH" compare "$T/golden"
  cmp "$T/out" "$FIX/expected/golden.txt" || fail "the comparison changed"
  assert_grep_err "golden/old results is not read: label 'old results' has ' '"
  if grep -q hidden "$T/err"; then fail "a hidden folder was reported"; fi
}

test_json_values() {
  expect_exit 0 "$LRUBENCH" compare -f json "$FIX/golden"
  py 'import json,sys,math
d=json.load(open(sys.argv[1]))
assert d["schema"]==1 and abs(d["alpha"]-0.1)<1e-12, d["alpha"]
assert [l["label"] for l in d["labels"]]==["6.8.0-vanilla","6.8.0-patched"]
t=d["workloads"][0]["tables"][0]
assert t["title"]=="readtwice MB/s aggregate" and t["better"]=="higher" and t["mean_stat"]=="Hmean"
ops={o["op"]:o["labels"] for o in t["ops"]}
b,n=ops["1"]
def near(a,x,tol): assert abs(a-x)<=tol, (a,x)
near(b["hmean"],1062.7204,5e-5); near(n["hmean"],915.0882,5e-5)
near(b["gmean"],1065.3190,5e-5); near(b["stddev"],85.8487,5e-5); near(b["coeffvar"],8.0383,5e-5)
near(b["bmean_50"],1147.8261,5e-5); near(b["bmean_95"],1082.6011,5e-5)
assert b["n"]==5 and b["baseline"] is True and b["compared"] is False
near(n["percent"]["mean"],-13.89,5e-3); near(n["percent"]["stddev"],62.62,5e-3)
mm=n["mmtests_ttest"]
near(mm["p"],0.006963,5e-7); near(mm["t"],3.601858,5e-7); near(mm["se"],40.987803,5e-7)
assert mm["df"]==8 and mm["significant"] is True
w=n["welch_ttest"]; assert 0<w["p"]<0.05 and w["df"]>0, w
lo,hi=n["change_percent_ci95"]; assert lo<n["percent"]["mean"]<hi<0, (lo,hi)
assert n["verdict"]=="regression"
lo,hi=b["mean_ci95"]; assert lo<b["mean"]<hi
b4,n4=ops["4"]
near(n4["mmtests_ttest"]["p"],0.5550,5e-5); assert n4["mmtests_ttest"]["significant"] is False
assert n4["verdict"]=="no significant change"
lo,hi=n4["change_percent_ci95"]; assert lo<0<hi
' "$T/out" || fail "json values"
}

test_json_nulls_for_undefined() {
  expect_exit 0 "$LRUBENCH" compare -f json "$FIX/edge"
  py 'import json,sys
d=json.load(open(sys.argv[1]))
tabs={t["title"]:t for t in d["workloads"][0]["tables"]}
ops={o["op"]:o["labels"] for o in tabs["thpscale Percentage Faults Huge"]["ops"]}
assert ops["huge-2"][0]["hmean"] is None and ops["huge-2"][0]["mean"] is None
assert ops["single"][1]["n"]==1 and ops["single"][1]["stddev"] is None
assert ops["single"][1]["verdict"]=="insufficient data"
assert tabs["thpscale Extra"]["labels_without_table"]==["5.9-rc2-vanilla"]
lat={o["op"]:o["labels"] for o in tabs["thpscale Fault Latencies"]["ops"]}
assert lat["fault-both-8"][1]["present"] is False
assert abs(lat["fault-base-4"][1]["mmtests_ttest"]["p"]-0.0881)<5e-5
assert any(f["fact"]=="config.readtwice.memcgs" for f in d["differences"])
assert any("TCG" in w for w in d["warnings"])
' "$T/out" || fail "json values"
}

test_csv_values_and_quoting() {
  copy golden
  # a title with a comma and a quote must survive CSV quoting
  sed -i 's/"readtwice MB\/s aggregate"/"readtwice, \\"MB\/s\\" aggregate"/' \
    "$T"/golden/*/readtwice.json
  expect_exit 0 "$LRUBENCH" compare -f csv "$T/golden"
  py 'import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
assert rows[0]==["workload","table","op","label","stat","value"], rows[0]
assert all(len(r)==6 for r in rows), [r for r in rows if len(r)!=6][:3]
v={(r[2],r[3],r[4]):r[5] for r in rows[1:]}
assert all(r[1]=="readtwice, \"MB/s\" aggregate" for r in rows[1:])
def f(op,l,s): return float(v[(op,l,s)])
assert abs(f("1","6.8.0-vanilla","hmean")-1062.7204)<5e-5
assert abs(f("1","6.8.0-patched","pct_mean")+13.89)<5e-3
assert abs(f("1","6.8.0-patched","mmtests_p")-0.006963)<5e-7
assert f("1","6.8.0-patched","mmtests_significant")==1
assert v[("1","6.8.0-patched","verdict")]=="regression"
assert abs(f("4","6.8.0-patched","bmean_95")-4044.28)<5e-3
assert ("1","6.8.0-vanilla","pct_mean") not in v
' "$T/out" || fail "csv values"
}

test_markdown_values() {
  expect_exit 0 "$LRUBENCH" compare -f markdown "$FIX/gate"
  py 'import sys,re
lines=open(sys.argv[1]).read().splitlines()
hdr=[i for i,l in enumerate(lines) if l.startswith("| op |")]
assert len(hdr)==1, hdr
cols=[c.strip() for c in lines[hdr[0]].strip("|").split("|")]
assert cols==["op","n","base Hmean ± 95% CI","cand Hmean ± 95% CI","change (95% CI)","Welch p","verdict"], cols
assert re.match(r"^\|(---:?\|)+$", lines[hdr[0]+1]), lines[hdr[0]+1]
rows={}
for l in lines[hdr[0]+2:]:
    if not l.startswith("|"): break
    c=[x.strip() for x in l.strip("|").split("|")]
    rows[c[0]]=c
assert set(rows)=={"regression","improvement","noisy"}
assert all(r[1]=="10 / 10" for r in rows.values()), rows
for r in rows.values(): del r[1]
assert all(l.count("|")==8 for l in lines[hdr[0]:hdr[0]+5]), "7 columns"
m=re.match(r"^([-+]\d+\.\d\d)% \(([-+]\d+\.\d\d)% to ([-+]\d+\.\d\d)%\)$", rows["regression"][3])
assert m, rows["regression"][3]
pct,lo,hi=map(float,m.groups()); assert lo<pct<hi<0 and abs(pct+9.99)<0.005
assert rows["regression"][5]=="worse" and rows["improvement"][5]=="better"
assert rows["noisy"][5]=="no significant change"
assert float(rows["noisy"][4])>0.05
mean,ci=re.match(r"^(\d+\.\d\d) ± (\d+\.\d\d)$", rows["regression"][1]).groups()
assert abs(float(mean)-1001.36)<0.005 and float(ci)>0
' "$T/out" || fail "markdown values"
}

test_gate_real_regression() {
  local d; d=$(gate_subset reg regression noisy improvement)
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 5 --junit "$T/j.xml" "$d"
  assert_grep '^lrubench: regression: readtwice / readtwice MB/s aggregate / regression: Hmean base 1001.36 → cand 901.35 (-9.99%, p = ' "$T/err"
  [ "$(grep -c 'regression: readtwice' "$T/err")" = 1 ] || fail "one line per regression"
  need_cmd xmllint libxml2-utils
  xmllint --noout "$T/j.xml" || fail "JUnit XML not well-formed"
  assert_eq "$(xmllint --xpath 'count(//testcase)' "$T/j.xml")" 3 "testcases"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j.xml")" 1 "failures"
  assert_eq "$(xmllint --xpath 'string(/testsuites/@failures)' "$T/j.xml")" 1 "failures attribute"
  assert_eq "$(xmllint --xpath 'string(/testsuites/@tests)' "$T/j.xml")" 3 "tests attribute"
  assert_eq "$(xmllint --xpath 'string(//failure/../@name)' "$T/j.xml")" \
    "readtwice/readtwice MB/s aggregate/regression" "failed testcase"
  # the threshold: 9.99% is not a regression of 10% or more
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 10 --junit "$T/j2.xml" "$d"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j2.xml")" 0 "failures at 10%"
}

test_gate_significant_improvement_passes() {
  local d; d=$(gate_subset imp improvement)
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 0 --junit "$T/j.xml" "$d"
  assert_grep 'Hmean     improvement      497.94 (   0.00%)      597.53 \*  20.00%\*' "$T/out"
  need_cmd xmllint libxml2-utils
  xmllint --noout "$T/j.xml" || fail "JUnit XML not well-formed"
  assert_eq "$(xmllint --xpath 'count(//testcase)' "$T/j.xml")" 1 "testcases"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j.xml")" 0 "failures"
  grep -q 'regression' "$T/err" && fail "no regression expected"
  true
}

test_gate_large_insignificant_change_passes() {
  local d; d=$(gate_subset noisy noisy)
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 5 --junit "$T/j.xml" "$d"
  # more than 25% worse, but not significant: no star, no failure
  assert_grep 'Hmean     noisy      180.19 (   0.00%)      128.46 ( -28.71%)' "$T/out"
  need_cmd xmllint libxml2-utils
  xmllint --noout "$T/j.xml" || fail "JUnit XML not well-formed"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j.xml")" 0 "failures"
}

test_bad_folder_missing() {
  bad "$T/nonexistent"
  assert_grep_err "$T/nonexistent: no such folder"
}

test_bad_no_results() {
  mkdir -p "$T/empty/sub"
  bad "$T/empty"
  assert_grep_err "$T/empty: no results"
}

test_bad_one_label() {
  bad "$FIX/golden/6.8.0-vanilla"
  assert_grep_err "only one label (6.8.0-vanilla"
}

test_bad_corrupt_json() {
  copy golden
  printf '{ "schema": 1,\n  "workload": "readtwice",\n  "tables": [ { "title": oops } ] }\n' \
    >"$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-patched/readtwice.json: invalid JSON at line 3, byte [0-9]"
}

test_bad_truncated_run_json() {
  copy golden
  head -c 40 "$FIX/golden/6.8.0-vanilla/run.json" >"$T/golden/6.8.0-vanilla/run.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-vanilla/run.json: invalid JSON at line"
}

test_bad_schema_unknown() {
  copy golden
  sed -i 's/"schema": 1/"schema": 2/' "$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-patched/readtwice.json: schema version 2 is not known (this lrubench reads 1)"
}

test_bad_run_json_schema_unknown() {
  copy golden
  sed -i 's/"schema": 1/"schema": 7/' "$T/golden/6.8.0-vanilla/run.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-vanilla/run.json: schema version 7 is not known (this lrubench reads 1)"
}

# json-c reads NaN and Infinity; a sample must be a finite number
test_bad_sample_nan() {
  copy golden
  sed -i '0,/1000,/s//NaN,/' "$T/golden/6.8.0-vanilla/readtwice.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-vanilla/readtwice.json: tables\[0\].ops\[0\].samples\[0\]: not a finite number"
  copy golden
  sed -i '0,/1000,/s//Infinity,/' "$T/golden/6.8.0-vanilla/readtwice.json"
  bad "$T/golden"
  assert_grep_err "readtwice.json: tables\[0\].ops\[0\].samples\[0\]: not a finite number"
}

test_bad_duplicate_table() {
  copy golden
  py 'import json,sys
p=sys.argv[1]; d=json.load(open(p)); d["tables"].append(d["tables"][0]); json.dump(d,open(p,"w"))' \
    "$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "$T/golden/6.8.0-patched/readtwice.json: tables\[1\]: table \"readtwice MB/s aggregate\" appears twice"
}

test_bad_sample_not_a_number() {
  copy golden
  sed -i '0,/1000,/s//"1000",/' "$T/golden/6.8.0-vanilla/readtwice.json"
  bad "$T/golden"
  assert_grep_err "readtwice.json: tables\[0\].ops\[0\].samples\[0\]: not a number"
}

test_bad_duplicate_op() {
  copy golden
  sed -i '0,/"op": "4"/s//"op": "1"/' "$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "readtwice.json: tables\[0\].ops\[1\]: op \"1\" appears twice"
}

test_bad_better_disagrees() {
  copy golden
  sed -i 's/"better": "higher"/"better": "lower"/' "$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "readtwice: table 'readtwice MB/s aggregate': better is \"higher\" in 6.8.0-vanilla but \"lower\" in 6.8.0-patched"
}

test_bad_units_differ() {
  copy golden
  sed -i 's|"unit": "MB/s"|"unit": "GB/s"|' "$T/golden/6.8.0-patched/readtwice.json"
  bad "$T/golden"
  assert_grep_err "unit is 'MB/s' in 6.8.0-vanilla but 'GB/s' in 6.8.0-patched"
}

test_bad_names_unknown_label() {
  bad --names 6.8.0-vanilla,6.9.0-nope "$FIX/golden"
  assert_grep_err "no label '6.9.0-nope'"
}

test_bad_alpha_zero() {
  bad --alpha 0 "$FIX/golden"
  assert_grep_err "--alpha: 0 is out of range (0 < P < 1)"
}

test_bad_alpha_one_and_a_half() {
  bad --alpha 1.5 "$FIX/golden"
  assert_grep_err "--alpha: 1.5 is out of range (0 < P < 1)"
  bad --alpha 0.1x "$FIX/golden"
  assert_grep_err "--alpha: '0.1x' is not a number"
}

test_bad_fail_on_regression_negative() {
  bad --fail-on-regression -3 "$FIX/golden"
  assert_grep_err "--fail-on-regression: -3 is out of range (PCT >= 0)"
}

test_bad_format() {
  bad -f yaml "$FIX/golden"
  assert_grep_err "unknown format 'yaml'"
}

test_help() {
  expect_exit 0 "$LRUBENCH" compare --help
  assert_grep "usage: lrubench compare" "$T/out"
}

# The contract between run and compare (docs/ARCHITECTURE.md §8): two real, tiny readtwice
# runs compared, so a change to what `run` writes cannot break `compare` unseen.
test_real_run_results_compare() {
  need_root
  local l rc
  for l in 6.1-a 6.1-b; do
    "$LRUBENCH" run -q -w readtwice --label "$l" -o "$T/results" --set readtwice.memcgs=1,2 \
      --set readtwice.runtime=1s --set readtwice.file_size=64M --set readtwice.iterations=3 \
      --set readtwice.warmup=0 >"$T/run-$l.log" 2>&1
    rc=$?
    [ "$rc" = 3 ] && skip "lrubench run cannot run readtwice here: $(tail -1 "$T/run-$l.log")"
    [ "$rc" = 0 ] || { tail -20 "$T/run-$l.log"; fail "run $l exit $rc"; }
  done
  assert_no_leaks
  expect_exit 0 "$LRUBENCH" compare "$T/results"
  assert_grep '^Labels: 6.1-a (baseline), 6.1-b$' "$T/out"
  assert_grep '^readtwice MB/s aggregate$' "$T/out"
  assert_grep '^Hmean     memcgs-2 ' "$T/out"
  expect_exit 0 "$LRUBENCH" compare -f json "$T/results"
  py 'import json,sys
d=json.load(open(sys.argv[1]))
t={t["title"]:t for w in d["workloads"] for t in w["tables"]}
assert "readtwice MB/s per memcg" in t
for o in t["readtwice MB/s aggregate"]["ops"]:
    assert [c["n"] for c in o["labels"]]==[3,3], o
    assert o["labels"][1]["compared"], o
' "$T/out" || fail "json of real results"
  # What two real runs of one kernel give is noise, so their verdicts cannot
  # be asserted. Fixed samples in the files run wrote (everything else as it
  # wrote it) make the verdict certain: the candidate 20% slower.
  py 'import json,sys
for label, scale in (("6.1-a", 1.0), ("6.1-b", 0.8)):
    p = sys.argv[1] + "/" + label + "/readtwice.json"
    d = json.load(open(p))
    t = next(t for t in d["tables"] if t["title"] == "readtwice MB/s aggregate")
    for o in t["ops"]:
        o["samples"] = [v * scale for v in (1000.0, 1010.0, 990.0)]
    json.dump(d, open(p, "w"))' "$T/results"
  expect_exit 0 "$LRUBENCH" compare -f json "$T/results"
  py 'import json,sys
d=json.load(open(sys.argv[1]))
t={t["title"]:t for w in d["workloads"] for t in w["tables"]}
ops=t["readtwice MB/s aggregate"]["ops"]
assert [o["op"] for o in ops]==["memcgs-1","memcgs-2"], ops
for o in ops:
    c=o["labels"][1]
    assert c["verdict"]=="regression", (o["op"], c["verdict"])
    assert abs(c["percent"]["mean"] + 20) < 1e-9, c["percent"]
    assert c["mmtests_ttest"]["significant"] is True
    assert c["change_percent_ci95"][1] < 0, c["change_percent_ci95"]
' "$T/out" || fail "verdicts of the fixed samples"
  # and the gate fails on exactly those two (the per-memcg table is still noise)
  "$LRUBENCH" compare --fail-on-regression 10 "$T/results" >"$T/out" 2>"$T/err"
  assert_eq "$?" 1 "exit of the gate"
  assert_grep_err '^lrubench: regression: readtwice / readtwice MB/s aggregate / memcgs-1: Hmean 6.1-a 999.93 → 6.1-b 799.95 (-20.00%, p = '
  assert_grep_err '^lrubench: regression: readtwice / readtwice MB/s aggregate / memcgs-2: '
}
