# SPDX-License-Identifier: GPL-2.0-or-later
# [settings] on the real kernel (issue 28, core/knobs.h): vm.swappiness and the
# THP mode set for a run, seen from inside a workload step (while readtwice's
# readers sit in their memcg) and in run.json, restored after a normal end,
# a SIGINT, two SIGINTs, and after a SIGKILL by the next run (its marker); a
# knob as an axis (two labels in one command) that compare names first and
# the gate passes without --allow-same-kernel, while one build set up alike
# still fails; every bad input of the issue with its exit code, before
# anything starts.

SWAP=/proc/sys/vm/swappiness
THPE=/sys/kernel/mm/transparent_hugepage/enabled

kn_need() {
  need_root
  [ -w $SWAP ] || skip "no $SWAP"
}
thp_now() { sed 's/.*\[\(.*\)\].*/\1/' $THPE; }
swap_now() { cat $SWAP; }
# a value other than the current one, so the run visibly changes it
other_swap() { [ "$(swap_now)" = 10 ] && echo 20 || echo 10; }
other_thp() { [ "$(thp_now)" = never ] && echo always || echo never; }

# kn_run ARGS...: readtwice's quick run with ARGS, results in $T/r, its own
# private work folder (the markers live there)
kn_run() {
  "$LRUBENCH" run -w readtwice --quick -o "$T/r" --set global.workdir="$T/work" "$@"
}

readers_in_memcg() {
  local f
  for f in /sys/fs/cgroup/memory/lrubench-"$pid"/readtwice-*/cgroup.procs \
           /sys/fs/cgroup/lrubench-"$pid"/readtwice-*/cgroup.procs; do
    # (cgroupfs files have no size: read them)
    [ -n "$(cat "$f" 2>/dev/null)" ] && return 0
  done
  kill -0 "$pid" 2>/dev/null || { cat "$T/err"; fail "the run ended before a step ran"; }
  return 1
}

# A long run in the background, waited for (on the event, not a time) until
# readtwice's readers are in their memcg: mid-step, the settings applied.
# Its setup writes the files first, which takes minutes on a loaded 2-CPU
# machine: the bound is lib.sh's wait_for's ten times over.
kn_start_long_run() {
  # lrubench itself in the background (not kn_run: $! would be the
  # function's subshell, and the run's cgroup is named after lrubench's pid)
  "$LRUBENCH" run -w readtwice --quick -o "$T/r" --set global.workdir="$T/work" --label long \
    -i 1000 --set global.warmup=0 --set readtwice.memcgs=1 --set readtwice.file_size=64M \
    "$@" >"$T/out" 2>"$T/err" &
  pid=$!
  local _i
  for _i in $(seq 1 3000); do
    readers_in_memcg && return 0
    sleep 0.2
  done
  kill -INT "$pid"; wait "$pid"
  fail "timed out waiting for readtwice's readers in their memcg"
}

test_knobs_applied_during_the_run_and_restored() {
  kn_need
  local sw th want_sw want_th
  sw=$(swap_now); th=$(thp_now); want_sw=$(other_swap); want_th=$(other_thp)
  kn_start_long_run --set settings.vm.swappiness="$want_sw" --set settings.$THPE="$want_th"
  # read while a workload step runs: the values hold for the workload
  assert_eq "$(swap_now)" "$want_sw" "vm.swappiness during a readtwice step"
  assert_eq "$(thp_now)" "$want_th" "THP enabled during a readtwice step"
  kill -INT "$pid"; wait "$pid"
  # a normal end: run.json records the deliberate settings, the value read
  # back while the run held it and the one from before
  expect_exit 0 kn_run --label done --set readtwice.memcgs=1 --set readtwice.file_size=64M \
    --set settings.vm.swappiness="$want_sw" \
    --set settings.$THPE="$want_th"
  python3 - "$T/r/done/run.json" "$want_sw" "$sw" "$want_th" "$th" "$THPE" <<'PY' || fail "run.json settings"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
sw = s["vm.swappiness"]; th = s[sys.argv[6]]
assert sw["path"] == "/proc/sys/vm/swappiness", sw
assert (sw["value"], sw["during"], sw["before"]) == (sys.argv[2], sys.argv[2], sys.argv[3]), sw
assert (th["value"], th["during"], th["before"]) == (sys.argv[4], sys.argv[4], sys.argv[5]), th
assert sw["origin"].startswith("--set settings.vm.swappiness="), sw
assert d["config"]["settings"]["vm.swappiness"] == sys.argv[2]
PY
  assert_eq "$(swap_now)" "$sw" "vm.swappiness restored after the run"
  assert_eq "$(thp_now)" "$th" "THP enabled restored after the run"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "markers left: $(ls "$T/work")"
  assert_no_leaks
}

test_knobs_restored_after_sigint() {
  kn_need
  local sw th rc
  sw=$(swap_now); th=$(thp_now)
  kn_start_long_run --set settings.vm.swappiness="$(other_swap)" --set settings.$THPE="$(other_thp)"
  [ "$(swap_now)" != "$sw" ] || fail "the run did not set vm.swappiness"
  kill -INT "$pid"; wait "$pid"; rc=$?
  assert_eq "$rc" 130 "exit after SIGINT"
  assert_eq "$(swap_now)" "$sw" "vm.swappiness restored after SIGINT"
  assert_eq "$(thp_now)" "$th" "THP enabled restored after SIGINT"
  assert_eq "$(json_get "$T/r/long/run.json" '["status"]')" interrupted "status"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "markers left: $(ls "$T/work")"
  assert_no_leaks
}

test_knobs_restored_after_two_sigints() {
  kn_need
  local sw th rc
  sw=$(swap_now); th=$(thp_now)
  kn_start_long_run --set settings.vm.swappiness="$(other_swap)" --set settings.$THPE="$(other_thp)"
  kill -INT "$pid"; kill -INT "$pid"; wait "$pid"; rc=$?
  assert_eq "$rc" 130 "exit after two SIGINTs"
  # the second signal runs the registry from the handler: the undo is
  # open/write/close, and the marker goes with it
  assert_eq "$(swap_now)" "$sw" "vm.swappiness restored after a second SIGINT"
  assert_eq "$(thp_now)" "$th" "THP enabled restored after a second SIGINT"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "markers left: $(ls "$T/work")"
  assert_no_leaks
}

test_knobs_sigkill_then_next_run_restores() {
  kn_need
  local sw th want_sw killed
  sw=$(swap_now); th=$(thp_now); want_sw=$(other_swap)
  kn_start_long_run --set settings.vm.swappiness="$want_sw" --set settings.$THPE="$(other_thp)"
  killed=$pid
  kill -9 "$pid"; wait "$pid"
  assert_eq "$(swap_now)" "$want_sw" "a SIGKILLed run leaves its value (nothing can undo it)"
  ls "$T/work" | grep -q "lrubench-knob-$killed\." || fail "no marker of run $killed in $T/work"
  # the next run, whatever it does (here a dry run with nothing to resume),
  # puts the values back before anything else
  expect_exit 2 kn_run --dry-run --resume --label nothing-to-resume
  assert_grep_err "put /proc/sys/vm/swappiness back to '$sw': run $killed was killed"
  assert_eq "$(swap_now)" "$sw" "vm.swappiness as before the killed run"
  assert_eq "$(thp_now)" "$th" "THP enabled as before the killed run"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "markers left: $(ls "$T/work")"
  # the killed run's cgroups went with the next real run
  expect_exit 0 kn_run --label after --set readtwice.memcgs=1 --set readtwice.file_size=64M
  assert_no_leaks
}

# A marker whose knob was changed since (by someone else) is not used: the
# value stays, a warning says so.
test_knobs_marker_of_a_changed_knob_is_left() {
  kn_need
  local sw
  sw=$(swap_now)
  mkdir -p "$T/work"; chmod 755 "$T/work"
  printf 'lrubench knob marker 1\n/proc/sys/vm/swappiness\n%s\n%s\n' 1 "$((sw + 1))" \
    >"$T/work/lrubench-knob-4194400.0"
  expect_exit 0 kn_run --dry-run --label x
  assert_grep_err "holds '$sw', not the '$((sw + 1))' run 4194400 (killed) wrote: left as it is"
  assert_eq "$(swap_now)" "$sw" "the knob is left"
  assert_no_file "$T/work/lrubench-knob-4194400.0"
}

# A knob as an axis: two labels in one command, named after the values;
# compare names the deliberate setting first and the gate passes one build in
# two settings, saying why; a copy of a label (set up alike) still fails.
test_knobs_sweep_thp_two_labels_compare_and_gate() {
  kn_need
  local th
  th=$(thp_now)
  expect_exit 0 kn_run --label k --set readtwice.memcgs=1 --set readtwice.file_size=64M \
    --set "settings.$THPE=always,madvise"
  assert_file "$T/r/k+transparent_hugepage.enabled-always/run.json"
  assert_file "$T/r/k+transparent_hugepage.enabled-madvise/run.json"
  assert_eq "$(json_get "$T/r/k+transparent_hugepage.enabled-always/run.json" '["settings"]["'$THPE'"]["during"]')" always "label always ran with always"
  assert_eq "$(json_get "$T/r/k+transparent_hugepage.enabled-madvise/run.json" '["settings"]["'$THPE'"]["during"]')" madvise "label madvise ran with madvise"
  assert_eq "$(thp_now)" "$th" "THP enabled restored after the sweep"
  # a regression threshold no difference reaches: the checks decide
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 100000 \
    "$T/r/k+transparent_hugepage.enabled-always" "$T/r/k+transparent_hugepage.enabled-madvise"
  # the first fact of "what differs" is the deliberate one
  sed -n '/^Differs besides the kernel:/{n;p;}' "$T/out" >"$T/first"
  assert_grep "set by the run: $THPE *always | madvise" "$T/first"
  assert_grep "in different deliberate settings" "$T/out"
  assert_grep_err "same kernel, compared on purpose"
  # one build, nothing deliberate different: still the same-build failure
  cp -r "$T/r/k+transparent_hugepage.enabled-always" "$T/r/twin"
  python3 - "$T/r/twin/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = "twin"   # a label is named once among the compared folders
json.dump(d, open(sys.argv[1], "w"))
PY
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 100000 \
    "$T/r/k+transparent_hugepage.enabled-always" "$T/r/twin"
  assert_grep_err "same kernel build"
  assert_no_leaks
}

test_knobs_sweep_swappiness_from_an_ini_file() {
  kn_need
  local sw
  sw=$(swap_now)
  printf '[settings]\nvm.swappiness = 0,100\n' >"$T/sweep.conf"
  expect_exit 0 kn_run -c "$T/sweep.conf" --label s --set readtwice.memcgs=1 \
    --set readtwice.file_size=64M
  assert_eq "$(json_get "$T/r/s+vm.swappiness-0/run.json" '["settings"]["vm.swappiness"]["origin"]')" \
    "$T/sweep.conf:2" "origin names the file and line"
  assert_file "$T/r/s+vm.swappiness-100/run.json"
  assert_eq "$(swap_now)" "$sw" "vm.swappiness restored after the sweep"
}

# kn_bad CODE WHAT ARGS...: the run refuses ARGS with CODE, naming WHAT,
# before anything starts: no label folder, the knobs untouched
kn_bad() {
  local code=$1 what=$2 sw th; shift 2
  sw=$(swap_now); th=$(thp_now)
  expect_exit "$code" kn_run --label bad "$@"
  assert_grep_err "$what"
  assert_no_file "$T/r/bad"
  assert_eq "$(swap_now)" "$sw" "vm.swappiness untouched by a refused run"
  assert_eq "$(thp_now)" "$th" "THP untouched by a refused run"
}

test_knobs_bad_inputs() {
  kn_need
  # outside the allowed trees: exit 2
  kn_bad 2 "outside the trees lrubench changes" --set settings./etc/passwd=x
  kn_bad 2 "outside the trees lrubench changes" --set settings.kernel.core_pattern=x
  kn_bad 2 "no //, . or .." --set settings./sys/kernel/mm/../../../etc/x=1
  kn_bad 2 "neither a sysctl name" --set 'settings.vm.swap piness=1'
  # not on this kernel: exit 3
  kn_bad 3 "does not exist on this kernel" --set settings.vm.no_such_knob=1
  # refused by the kernel (EINVAL, or read back different): exit 2
  kn_bad 2 "the kernel refuses it" --set settings.vm.swappiness=banana
  kn_bad 2 "the kernel refuses it" --set settings.vm.swappiness=100000
  kn_bad 2 "the kernel refuses it" --set settings.$THPE=sometimes
  # an axis with one bad value is refused before its first label runs
  kn_bad 2 "the kernel refuses it" --set settings.vm.swappiness=10,banana
  assert_no_file "$T/r/bad+vm.swappiness-10"
  # not a setting: read-only, write-only (a trigger), a folder: exit 2
  kn_bad 2 "read-only" --set settings./sys/kernel/mm/transparent_hugepage/hpage_pmd_size=4096
  kn_bad 2 "trigger" --set settings.vm.compact_memory=1
  kn_bad 2 "not a setting but a folder" --set settings./sys/kernel/mm/transparent_hugepage/khugepaged=1
  # one knob twice with two values: in one file (two names), on the command line
  printf '[settings]\nvm.swappiness = 10\n/proc/sys/vm/swappiness = 20\n' >"$T/twice.conf"
  kn_bad 2 "is set twice" -c "$T/twice.conf"
  kn_bad 2 "is set twice" --set settings.vm.swappiness=10 --set settings./proc/sys/vm/swappiness=20
  kn_bad 2 "set one knob twice" -w thpscale --set thpscale.thp_enabled=always --set settings.$THPE=never
  # two axes; an empty value; a value listed twice
  kn_bad 2 "one knob at most is an axis" --set settings.vm.swappiness=10,20 --set settings.$THPE=always,never
  kn_bad 2 "an empty value" --set settings.vm.swappiness=
  kn_bad 2 "lists 10 twice" --set settings.vm.swappiness=10,10
}

# "keep" drops a setting a file made: a later source replaces an earlier one
test_knobs_keep_drops_a_file_setting() {
  kn_need
  printf '[settings]\nvm.swappiness = 10\n' >"$T/s.conf"
  expect_exit 0 kn_run -c "$T/s.conf" --set settings.vm.swappiness=keep --dry-run --label x
  if grep -q '"settings"' "$T/out"; then fail "keep left the setting in the config"; fi
}
