# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12: hostile and careless input to the commands that read what other
# people made (results folders, configs): signs and sample counts that must
# not flip a verdict, files that are not files, numbers out of range, and
# names that must stay inert in every output. Each test failed on the code
# before the fix it guards.

py() { python3 -c "$@"; }

# two_labels DIR BETTER "A samples" "B samples": labels base and cand, one
# table "t" (unit u) of workload w with one op "1"
two_labels() {
  python3 - "$@" <<'PY'
import json, os, sys
root, better, a, b = sys.argv[1:5]
for i, (lab, vals) in enumerate((("base", a), ("cand", b))):
    d = os.path.join(root, lab)
    os.makedirs(d, exist_ok=True)
    json.dump({"schema": 1, "label": lab, "status": "complete",
               "started": "2026-01-0%dT00:00:00Z" % (i + 1)}, open(d + "/run.json", "w"))
    json.dump({"schema": 1, "workload": "w", "tables": [{"title": "t", "unit": "u",
               "better": better, "ops": [{"op": "1", "samples": [float(x) for x in vals.split()]}]}]},
              open(d + "/w.json", "w"))
PY
}

# --- item 3: negative samples never turn an improvement into a regression ---

test_negative_samples_lower_is_better_is_an_improvement() {
  two_labels "$T/r" lower "-1 -2 -3" "-4 -5 -6"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 5 --junit "$T/j.xml" "$T/r"
  assert_grep '^Amean     1       -2.00 (   0.00%)       -5.00 \* 150.00%\*$' "$T/out"
  assert_grep "note: cand: op 1: negative samples: percents are relative to the baseline's magnitude" "$T/out"
  # a spread is never negative
  assert_grep '^CoeffVar  1       50.00 ' "$T/out"
  grep -q 'regression' "$T/err" && fail "an improvement reported as a regression: $(cat "$T/err")"
  grep -q '<failure' "$T/j.xml" && fail "JUnit has a failure"
  expect_exit 0 "$LRUBENCH" compare -f json "$T/r"
  py 'import json,sys
c=json.load(open(sys.argv[1]))["workloads"][0]["tables"][0]["ops"][0]["labels"][1]
assert c["percent"]["mean"]==150, c["percent"]
assert c["verdict"]=="improvement", c["verdict"]
lo,hi=c["change_percent_ci95"]; assert 0<lo<150<hi, (lo,hi)
assert c["regression"] is False' "$T/out" || fail "json of negative samples"
}

test_negative_samples_higher_is_better_worse_is_a_regression() {
  # the other direction must still be caught: -2 -> -5, higher is better
  two_labels "$T/r" higher "-1 -2 -3" "-4 -5 -6"
  expect_exit 0 "$LRUBENCH" compare -f json "$T/r"
  py 'import json,sys
c=json.load(open(sys.argv[1]))["workloads"][0]["tables"][0]["ops"][0]["labels"][1]
assert c["mean"] is None          # Hmean is undefined with a sample <= 0 (mmtests)
# min -3 -> -6 and max -1 -> -4 are worse: negative percents
assert c["percent"]["min"]==-100 and c["percent"]["max"]==-300, c["percent"]' "$T/out" ||
    fail "percent of a worse negative sample"
}

test_zero_baseline_percent_follows_the_direction() {
  # lower is better, 0 -> -3 is better: mmtests would print -99 (worse)
  two_labels "$T/r" lower "0 0 0" "-3 -3 -3"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 0 "$T/r"
  assert_grep '^Amean     1        0.00 (   0.00%)       -3.00 \* 100.00%\*$' "$T/out"
  grep -q 'regression' "$T/err" && fail "an improvement reported as a regression"
  true
}

# --- issue 30 low 13: the gate never passes on nothing compared ---

test_gate_fails_when_nothing_was_compared() {
  need_cmd xmllint libxml2-utils
  # the baseline's op has no samples: nothing is compared
  two_labels "$T/r" higher "" "5 6 7"
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 5 "$T/r"
  assert_grep_err "insufficient data: w / t / 1: base has 0 samples"
  assert_grep_err "missing data: no measured op has samples in both the baseline base and another label"
  # both sides empty
  two_labels "$T/e" higher "" ""
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 5 "$T/e"
  assert_grep_err "cand has 0 samples"
  # labels with no ops at all: JUnit tests="0" used to pass
  mkdir -p "$T/z"
  two_labels "$T/z" higher "1 2" "1 2"
  for l in base cand; do
    python3 -c 'import json,sys; json.dump({"schema": 1, "workload": "w", "tables": []}, open(sys.argv[1], "w"))' "$T/z/$l/w.json"
  done
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 5 --junit "$T/j.xml" "$T/z"
  assert_grep_err "there is nothing for the gate to pass"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j.xml")" 1 "JUnit failures"
  # --allow-missing says it was meant
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 5 --allow-missing "$T/z"
}

# --- item 4: one sample a side is insufficient data, never a regression ---

test_single_sample_is_insufficient_data_everywhere() {
  two_labels "$T/r" higher "6" "5.9"
  need_cmd xmllint libxml2-utils
  # the gate's missing-data check (issue 14) fails it: never as a regression
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 1 "$T/r"
  assert_grep_err "insufficient data: w / t / 1: cand has 1 sample"
  grep -q 'regression:' "$T/err" && fail "gate called it a regression"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 1 --allow-missing --junit "$T/j.xml" "$T/r"
  # text: no significance star, and a note saying why
  assert_grep '^Hmean     1        6.00 (   0.00%)        5.90 (  -1.67%)$' "$T/out"
  assert_grep 'note: cand: op 1: fewer than 2 samples on a side: insufficient data' "$T/out"
  # gate: its own outcome, said on stderr and in JUnit as skipped
  assert_grep 'not gated: w / t / 1: cand: insufficient data (fewer than 2 samples on a side)' "$T/err"
  grep -q 'regression:' "$T/err" && fail "gate called it a regression"
  xmllint --noout "$T/j.xml" || fail "JUnit not well-formed"
  assert_eq "$(xmllint --xpath 'count(//failure)' "$T/j.xml")" 0 "failures"
  assert_eq "$(xmllint --xpath 'count(//skipped)' "$T/j.xml")" 1 "skipped"
  assert_eq "$(xmllint --xpath 'string(/testsuites/@skipped)' "$T/j.xml")" 1 "skipped attribute"
  assert_grep 'insufficient data' "$T/j.xml"
  # json: insufficient data and no regression, no test
  expect_exit 0 "$LRUBENCH" compare -f json --fail-on-regression 1 --allow-missing "$T/r"
  py 'import json,sys
c=json.load(open(sys.argv[1]))["workloads"][0]["tables"][0]["ops"][0]["labels"][1]
assert c["verdict"]=="insufficient data", c["verdict"]
assert c["regression"] is False
assert c["mmtests_ttest"]["p"] is None and c["mmtests_ttest"]["significant"] is False' "$T/out" ||
    fail "json of a single sample"
  # markdown
  expect_exit 0 "$LRUBENCH" compare -f markdown "$T/r"
  assert_grep '| insufficient data |$' "$T/out"
}

# --- item 5: only regular files, with a size cap; no hang, no OOM ---

# a hang would be caught by run-tests' timeout too, but a message is clearer
hang_guard() { timeout -k 5 60 "$@"; }
# The old code read /dev/zero until out of memory: a memory limit keeps such
# a failure small. Not under ASan, which reserves terabytes of shadow.
memory_guard() {
  if grep -q __asan_init "$LRUBENCH" 2>/dev/null; then "$@"; else (ulimit -v 4000000; "$@"); fi
}

test_fifo_named_json_is_an_error_not_a_hang() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  mkfifo "$T/g/6.8.0-patched/x.json"
  expect_exit 2 hang_guard "$LRUBENCH" compare "$T/g"
  assert_grep_err "cannot read $T/g/6.8.0-patched/x.json: it is a FIFO"
}

test_fifo_run_json_is_an_error_not_a_hang() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  rm "$T/g/6.8.0-vanilla/run.json"
  mkfifo "$T/g/6.8.0-vanilla/run.json"
  expect_exit 2 hang_guard "$LRUBENCH" compare "$T/g"
  assert_grep_err "cannot read $T/g/6.8.0-vanilla/run.json: it is a FIFO"
}

test_json_symlink_to_dev_zero_is_refused() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  ln -s /dev/zero "$T/g/6.8.0-vanilla/zero.json"
  expect_exit 2 memory_guard hang_guard "$LRUBENCH" compare "$T/g"
  assert_grep_err "cannot read $T/g/6.8.0-vanilla/zero.json: it is a symbolic link"
}

test_oversized_results_file_is_refused() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  # a sparse 2 GiB file: over the 1 GiB cap, costs no disk
  truncate -s 2G "$T/g/6.8.0-vanilla/huge.json"
  expect_exit 2 memory_guard hang_guard "$LRUBENCH" compare "$T/g"
  assert_grep_err "cannot read $T/g/6.8.0-vanilla/huge.json: larger than 1GB"
}

test_dry_run_config_dev_zero_errors_at_once() {
  need_root
  expect_exit 2 hang_guard "$LRUBENCH" run --dry-run -c /dev/zero
  assert_grep_err "cannot read config file /dev/zero: it is a device"
  mkfifo "$T/fifo.conf"
  expect_exit 2 hang_guard "$LRUBENCH" run --dry-run -c "$T/fifo.conf"
  assert_grep_err "cannot read config file $T/fifo.conf: it is a FIFO"
}

# --- item 8: out-of-range numbers are errors; wide values keep their columns ---

test_run_json_schema_must_be_an_integer() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  sed -i 's/"schema": 1/"schema": "1abc"/' "$T/g/6.8.0-vanilla/run.json"
  expect_exit 2 "$LRUBENCH" compare "$T/g"
  assert_grep_err "$T/g/6.8.0-vanilla/run.json: schema version \"1abc\" is not known"
}

test_integer_beyond_64_bits_is_an_error() {
  two_labels "$T/r" higher "1 2 3" "1 2 3"
  sed -i 's/"samples": \[1.0/"samples": [99999999999999999999999/' "$T/r/cand/w.json"
  grep -q 99999999999999999999999 "$T/r/cand/w.json" || fail "fixture not changed"
  expect_exit 2 "$LRUBENCH" compare "$T/r"
  assert_grep_err "$T/r/cand/w.json: line 1, byte [0-9]*: integer 99999999999999999999999 is out of range"
}

test_values_over_1e9_keep_a_space_between_columns() {
  two_labels "$T/r" higher "11500000000 11500000001" "11500000002 11500000003"
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  assert_grep '^Min       1 11500000000.00 (   0.00%) 11500000002.00 (   0.00%)$' "$T/out"
  # every row has the same layout: the header follows the wider columns
  py 'import sys
lines=open(sys.argv[1]).read().split("\n")
i=lines.index("t")
rows=[l for l in lines[i+3:] if l and not l.startswith("note")]
assert len(set(len(l) for l in rows))==1, rows
assert len(lines[i+1])==len(rows[0]), (lines[i+1], rows[0])' "$T/out" || fail "columns not aligned"
}

# --- item 9: any bytes in a name: JSON and JUnit stay valid, text is inert ---

# set_op DIR LABEL NAME: rename op "1" of a two_labels folder to NAME (raw
# bytes, written into the JSON string as they are)
set_op() {
  python3 - "$@" <<'PY'
import os, sys
d, label, name = sys.argv[1], sys.argv[2], os.fsencode(sys.argv[3])
p = os.path.join(d, label, "w.json")
raw = open(p, "rb").read()
open(p, "wb").write(raw.replace(b'"op": "1"', b'"op": "' + name + b'"'))
PY
}

test_invalid_utf8_name_keeps_json_and_junit_valid() {
  need_cmd xmllint libxml2-utils
  two_labels "$T/r" higher "1 2 3" "4 5 6"
  set_op "$T/r" base "$(printf 'op\xff\xfe')"
  set_op "$T/r" cand "$(printf 'op\xff\xfe')"
  expect_exit 0 "$LRUBENCH" compare -f json --junit "$T/j.xml" "$T/r"
  py 'import json,sys
d=json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))   # strict UTF-8
op=d["workloads"][0]["tables"][0]["ops"][0]["op"]
assert op=="op\ufffd\ufffd", repr(op)' "$T/out" || fail "JSON output not valid UTF-8 JSON"
  xmllint --noout "$T/j.xml" || fail "JUnit not well-formed"
}

test_nul_in_a_name_is_an_error_not_a_truncation() {
  two_labels "$T/r" higher "1 2 3" "4 5 6"
  set_op "$T/r" cand 'a\u0000b'
  expect_exit 2 "$LRUBENCH" compare "$T/r"
  assert_grep_err 'w.json: tables\[0\].ops\[0\]."op" holds a NUL character'
}

test_control_characters_print_inert() {
  two_labels "$T/r" higher "1 2 3" "4 5 6"
  set_op "$T/r" base '\u001b[31mred\r\n## x'
  set_op "$T/r" cand '\u001b[31mred\r\n## x'
  sed -i 's/"label": "cand"/"label": "c\\u001b]0;owned\\u0007"/' "$T/r/cand/run.json"
  # a DAMON fact from a hostile run.json: listed and warned about, inert
  py 'import json,sys
p=sys.argv[1]; d=json.load(open(p)); h=d.setdefault("system",{}).setdefault("host",{})
h["damon"]="kdamond 0 on (\x1b[2Jpaddr\r\n## x)" if sys.argv[2]=="on" else "off"
h["damon_moves_lru"]=sys.argv[2]=="on"
json.dump(d,open(p,"w"))' "$T/r/cand/run.json" on
  py 'import json,sys
p=sys.argv[1]; d=json.load(open(p)); d.setdefault("system",{})["host"]={"damon":"off","damon_moves_lru":False}
json.dump(d,open(p,"w"))' "$T/r/base/run.json"
  for f in text markdown; do
    expect_exit 0 "$LRUBENCH" compare -f "$f" --fail-on-regression 0 "$T/r"
    grep -q "$(printf '\033')" "$T/out" && fail "$f: a raw ESC"
    grep -q "$(printf '\r')" "$T/out" && fail "$f: a raw CR"
    grep -q '^## x' "$T/out" && fail "$f: a name started a line (a heading)"
    grep -q "$(printf '\033')" "$T/err" && fail "$f: a raw ESC on stderr"
    case $f in
      text) assert_grep 'red\\x0d\\x0a## x' "$T/out"
            assert_grep 'system.host.damon .*kdamond 0 on (\\x1b\[2Jpaddr\\x0d\\x0a## x)' "$T/out" ;;
      markdown) assert_grep 'red  ## x' "$T/out"   # a line break is a space in a cell
                assert_grep 'system.host.damon.*kdamond 0 on (\\x1b\\\[2Jpaddr  ## x)' "$T/out" ;;
    esac
  done
  assert_grep 'c\\x1b\]0;owned\\x07' "$T/out"
  assert_grep 'DAMON was paging out' "$T/out"
}

test_kernel_release_cannot_make_a_heading_in_index_md() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  sed -i 's/"kernel_release": "[^"]*"/"kernel_release": "6.8\\n## owned\\u001b[2J"/' "$T"/g/*/run.json
  grep -q 'owned' "$T/g/6.8.0-vanilla/run.json" || fail "fixture has no kernel_release"
  "$LRUBENCH" plot -q -o "$T/plots" "$T/g" >"$T/out" 2>"$T/err"
  assert_file "$T/plots/index.md"
  grep -q '^## owned' "$T/plots/index.md" && fail "kernel_release became a heading"
  grep -q "$(printf '\033')" "$T/plots/index.md" && fail "a raw ESC in index.md"
  assert_grep 'kernel 6.8\\x0a## owned\\x1b\[2J' "$T/plots/index.md"
}

# --- item 11: nothing silently dropped or accepted ---

test_folder_without_run_json_is_named() {
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden" "$T/g"
  mkdir -p "$T/g/6.9.0-forgot"
  cp "$T/g/6.8.0-vanilla/readtwice.json" "$T/g/6.9.0-forgot/"
  expect_exit 0 "$LRUBENCH" compare "$T/g"
  assert_grep_err "warning: $T/g/6.9.0-forgot: no run.json in it: not a label folder, skipped"
}

test_run_refuses_a_hidden_label() {
  need_root
  expect_exit 2 "$LRUBENCH" run --dry-run --label .hidden
  assert_grep_err "label '.hidden' starts with '.'"
}

test_run_refuses_duplicates_in_a_list() {
  need_root
  expect_exit 2 "$LRUBENCH" run --dry-run --set readtwice.memcgs=1,1,1
  assert_grep_err "readtwice.memcgs: '1,1,1' lists 1 twice"
  expect_exit 2 "$LRUBENCH" run --dry-run --set readtwice.memcgs=1-4,2
  assert_grep_err "lists 2 twice"
}

test_run_refuses_an_empty_workdir() {
  need_root
  expect_exit 2 "$LRUBENCH" run --dry-run --set global.workdir=
  assert_grep_err "global.workdir: empty value"
  printf '[global]\nworkdir =\n' >"$T/c.conf"
  expect_exit 2 "$LRUBENCH" run --dry-run -c "$T/c.conf"
  assert_grep_err "$T/c.conf:2: .*empty value"
  # a key whose default is empty may stay empty
  expect_exit 0 "$LRUBENCH" run --dry-run --set kernbench.sha256=
}

# Issue 30 (medium 10): a work folder another user made or can write is
# refused before anything runs (paths below it are used by name, as root).
test_run_refuses_a_work_folder_not_its_own() {
  need_root
  mkdir "$T/wd"
  chmod 0777 "$T/wd"
  expect_exit 2 "$LRUBENCH" run --dry-run -o "$T/r" --set global.workdir="$T/wd"
  assert_grep_err "$T/wd is owned by uid 0 with mode 0777: lrubench writes by name only"
  chmod 0755 "$T/wd"
  chown nobody "$T/wd"
  expect_exit 2 "$LRUBENCH" run --dry-run -o "$T/r" --set global.workdir="$T/wd"
  assert_grep_err "$T/wd is owned by uid $(id -u nobody) with mode 0755"
  chown root "$T/wd"
  expect_exit 0 "$LRUBENCH" run --dry-run -o "$T/r" --set global.workdir="$T/wd"
}

test_dry_run_checks_the_results_folder() {
  need_root
  expect_exit 2 "$LRUBENCH" run --dry-run -o /dev/null/results
  assert_grep_err "results folder /dev/null/results is not writable"
}

# --- item 7: INI files: long lines, duplicate keys, a folder as -c ---

test_config_long_line_is_an_error_not_a_new_line() {
  need_root
  # the tail of a long comment used to be parsed as a line of its own
  printf '[global]\n# %s iterations = 9\n' "$(printf '%0250d' 0)" >"$T/long.conf"
  expect_exit 2 "$LRUBENCH" run --dry-run -c "$T/long.conf"
  assert_grep_err "$T/long.conf:2: the line is 267 characters long; config lines hold at most 199"
  printf '[global]\nworkdir = /tmp/%s\n' "$(printf '%0300d' 0)" >"$T/wd.conf"
  expect_exit 2 "$LRUBENCH" run --dry-run -c "$T/wd.conf"
  assert_grep_err "$T/wd.conf:2: the line is 315 characters long"
}

test_config_duplicate_key_names_both_lines() {
  need_root
  printf '[global]\niterations = 2\n\niterations = 3\n' >"$T/dup.conf"
  expect_exit 2 "$LRUBENCH" run --dry-run -c "$T/dup.conf"
  assert_grep_err "$T/dup.conf:4: 'iterations' is set twice in \[global\] (first at line 2)"
  # the same key in two sections is no duplicate
  printf '[global]\niterations = 2\n[readtwice]\niterations = 3\n' >"$T/two.conf"
  expect_exit 0 "$LRUBENCH" run --dry-run -c "$T/two.conf"
}

test_config_folder_is_an_error() {
  need_root
  mkdir "$T/conf.d"
  expect_exit 2 "$LRUBENCH" run --dry-run -c "$T/conf.d"
  assert_grep_err "cannot read config file $T/conf.d: it is a folder, not a file"
}
