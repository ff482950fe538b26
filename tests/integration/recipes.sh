# SPDX-License-Identifier: GPL-2.0-or-later
# The nightly recipes of contrib/: the systemd units pass
# `systemd-analyze verify` in a scratch root where `make install-nightly`
# put them; the CI files parse as YAML; and the commands these files hold
# are run here as they are written (read out of the files, not copied):
# two nights of real short readtwice runs each, the first night making the
# baseline, the second compared against it, with JUnit, reports and the
# pruning of old labels checked.

# Real but short: two iterations of two seconds, no warm-up.
NIGHT_ARGS="-w readtwice --quick --set readtwice.memcgs=1,2 --set readtwice.runtime=2s -i 2 --set global.warmup=0"

# A python3 with PyYAML (Debian: python3-yaml, in scripts/install-deps).
yaml_python() {
  local p
  for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null 2>&1 && "$p" -c 'import yaml' 2>/dev/null && { echo "$p"; return 0; }
  done
  skip "needs PyYAML (apt-get install python3-yaml)"
}

# The command lines of a CI file, one per line: gitlab (the job's script)
# or github (the run: of every step). Fails unless the file parses.
ci_commands() {
  "$PY" - "$1" "$2" <<'EOF'
import sys, yaml
kind, path = sys.argv[1], sys.argv[2]
d = yaml.safe_load(open(path))
if kind == "gitlab":
    cmds = d["lrubench-nightly"]["script"]
else:
    cmds = [s["run"] for s in d["jobs"]["nightly"]["steps"] if "run" in s]
for c in cmds:
    assert "\n" not in c.strip(), "one command per line: %r" % c
    print(c.strip())
EOF
}

# The job's environment block of a CI file, as NAME=VALUE lines.
ci_env() {
  "$PY" - "$1" "$2" <<'EOF'
import sys, yaml
kind, path = sys.argv[1], sys.argv[2]
d = yaml.safe_load(open(path))
env = d["lrubench-nightly"]["variables"] if kind == "gitlab" else d["jobs"]["nightly"]["env"]
for k, v in env.items():
    print("%s=%s" % (k, v))
EOF
}

# A CI workspace: the checkout (contrib/ and the built lrubench) as the job sees it.
make_workspace() {
  mkdir -p "$T/ws"
  ln -s "$LRUBENCH_SRC/contrib" "$T/ws/contrib"
  ln -s "$LRUBENCH" "$T/ws/lrubench"
}

# Every command but the build, run in the workspace with the job's variables
# and the test's own results folder and run arguments. Returns the exit of
# the nightly command.
run_ci_night() {   # run_ci_night KIND FILE
  local kind=$1 file=$2 cmd rc=0 nightly_rc=0 line
  local -a env=()
  while IFS= read -r line; do env+=("$line"); done < <(ci_env "$kind" "$file")
  env+=("LRUBENCH_RESULTS=$T/results" "LRUBENCH_RUN_ARGS=$NIGHT_ARGS" "LRUBENCH_FAIL_PCT=1000")
  while IFS= read -r cmd; do
    case $cmd in
      make*) continue ;;   # the build: this test runs the binary built for the suite
    esac
    rc=0
    (cd "$T/ws" && env "${env[@]}" bash -c "$cmd") >>"$T/night.log" 2>&1 || rc=$?
    case $cmd in
      *lrubench-nightly*) nightly_rc=$rc ;;
      *) [ "$rc" = 0 ] || fail "'$cmd' exited $rc" ;;
    esac
  done < <(ci_commands "$kind" "$file")
  return "$nightly_rc"
}

label_count() { find "$T/results" -mindepth 2 -maxdepth 2 -name run.json | wc -l; }

ci_two_nights() {   # ci_two_nights KIND FILE
  local kind=$1 file=$2 cmds
  need_root
  PY=$(yaml_python)
  cmds=$(ci_commands "$kind" "$file") || fail "$file does not parse as the expected YAML"
  # the commands are the build, the nightly script and the copy of the reports
  [ "$(printf '%s\n' "$cmds" | grep -c '^make -j"$(nproc)" lrubench$')" = 1 ] || fail "no build line: $cmds"
  printf '%s\n' "$cmds" | grep -qx 'LRUBENCH="$PWD/lrubench" LRUBENCH_JUNIT="$PWD/junit.xml" contrib/nightly/lrubench-nightly' ||
    fail "the nightly line is not the one this test runs: $cmds"
  make_workspace
  run_ci_night "$kind" "$file" || { cat "$T/night.log"; fail "night 1 failed"; }
  assert_eq "$(label_count)" 1 "labels after night 1"
  assert_file "$T/results/BASELINE"
  assert_no_file "$T/ws/junit.xml"
  run_ci_night "$kind" "$file" || { cat "$T/night.log"; fail "night 2 failed"; }
  assert_eq "$(label_count)" 2 "labels after night 2"
  # JUnit for the job, the text report copied beside it, both nights' labels auto-made
  assert_file "$T/ws/junit.xml"
  xmllint --noout "$T/ws/junit.xml" || fail "junit.xml is not XML"
  grep -q '<testcase' "$T/ws/junit.xml" || fail "no testcase in junit.xml"
  ls "$T/ws"/*.txt >/dev/null 2>&1 || fail "no report copied into the workspace"
  grep -q "^Labels: $(cat "$T/results/BASELINE") (baseline), " "$T"/ws/*.txt ||
    fail "the report does not compare against the baseline"
  ls "$T/results" | grep -Eq "^$(uname -r)-[0-9]{8}T[0-9]{6}$" || fail "no auto label: $(ls "$T/results")"
  assert_no_leaks
}

test_gitlab_ci_commands_two_nights() {
  ci_two_nights gitlab "$LRUBENCH_SRC/contrib/ci/gitlab-ci.yml"
}

test_github_workflow_commands_two_nights() {
  ci_two_nights github "$LRUBENCH_SRC/contrib/ci/github-nightly.yml"
}

# `make install-nightly` into a scratch root with the system's own units, so
# that verify checks ExecStart's program and the targets the units name.
install_root() {
  local root=$T/root
  mkdir -p "$root/usr/lib/systemd"
  cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/" 2>/dev/null ||
    cp -a /lib/systemd/system "$root/usr/lib/systemd/"
  make -s -C "$LRUBENCH_SRC" install-nightly DESTDIR="$root" PREFIX=/usr/local >/dev/null ||
    fail "make install-nightly failed"
}

test_systemd_units_verify() {
  need_cmd systemd-analyze systemd
  install_root
  local units=/usr/local/lib/systemd/system
  systemd-analyze verify --man=no --root="$T/root" "$units/lrubench-nightly.service" \
    "$units/lrubench-nightly.timer" >"$T/out" 2>&1 || { cat "$T/out"; fail "systemd-analyze verify failed"; }
  [ -s "$T/out" ] && { cat "$T/out"; fail "systemd-analyze verify warned"; }
  # verify does fail on a broken unit: ExecStart's program missing
  rm "$T/root/usr/local/libexec/lrubench/lrubench-nightly"
  ! systemd-analyze verify --man=no --root="$T/root" "$units/lrubench-nightly.service" \
    >/dev/null 2>&1 || fail "verify passed without the ExecStart program"
  grep -q '^OnCalendar=' "$T/root$units/lrubench-nightly.timer" || fail "the timer has no OnCalendar"
  grep -q '^Unit=lrubench-nightly.service$' "$T/root$units/lrubench-nightly.timer" || fail "timer unit"
}

# The service's ExecStart with the environment systemd would give it
# (Environment=, then EnvironmentFile= under the scratch root), run from the
# scratch root's installed script: two nights, the second against a baseline
# made ten times faster, so the gate must fail; an old label is pruned.
test_systemd_execstart_two_nights() {
  need_root
  need_cmd xmllint libxml2-utils
  install_root
  local unit=$T/root/usr/local/lib/systemd/system/lrubench-nightly.service envfile exec rc=0
  exec=$(sed -n 's/^ExecStart=//p' "$unit")
  assert_eq "$exec" /usr/local/libexec/lrubench/lrubench-nightly "ExecStart"
  envfile=$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit")
  # the settings file as an admin writes it: results in the scratch folder
  { cat "$LRUBENCH_SRC/contrib/systemd/lrubench-nightly.env"
    echo "LRUBENCH_RESULTS=$T/results"
    echo "LRUBENCH_RUN_ARGS=$NIGHT_ARGS"
    echo "LRUBENCH=$LRUBENCH"; } > "$T/root$envfile"
  night() {
    local -a env=()
    local line
    while IFS= read -r line; do env+=("$line"); done < <(sed -n 's/^Environment=//p' "$unit")
    while IFS= read -r line; do
      case $line in ''|'#'*) continue ;; esac
      env+=("$line")
    done < "$T/root$envfile"
    env -i PATH="$PATH" "${env[@]}" "$T/root$exec" >>"$T/night.log" 2>&1
  }
  night || { cat "$T/night.log"; fail "night 1 failed"; }
  local first
  first=$(cat "$T/results/BASELINE")
  # a baseline ten times faster than night 1, and a label 40 days old
  cp -r "$T/results/$first" "$T/results/fast"
  python3 - "$T/results/fast" <<'EOF'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json")); r["label"] = "fast"; r["started"] = "2000-01-01T00:00:00Z"
json.dump(r, open(d + "/run.json", "w"))
w = json.load(open(d + "/readtwice.json"))
for t in w["tables"]:
    for o in t["ops"]:
        o["samples"] = [v * 10 for v in o["samples"]]
w.pop("details", None)
json.dump(w, open(d + "/readtwice.json", "w"))
EOF
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden/6.8.0-vanilla" "$T/results/old"
  touch -d '40 days ago' "$T/results/old/run.json"
  echo "LRUBENCH_BASELINE=fast" >> "$T/root$envfile"
  echo "LRUBENCH_FAIL_PCT=5" >> "$T/root$envfile"
  night || rc=$?
  assert_eq "$rc" 1 "night 2 against a 10x faster baseline: exit"
  local second
  second=$(ls "$T/results" | grep -v -e '^fast$' -e '^old$' -e '^reports$' -e '^BASELINE$' -e "^$first\$")
  [ -n "$second" ] || fail "no second label"
  assert_file "$T/results/reports/$second.txt"
  assert_file "$T/results/reports/html/$second/index.html"   # the page (html.sh tests it)
  xmllint --noout "$T/results/reports/$second.junit.xml" || fail "junit not XML"
  grep -q '<failure' "$T/results/reports/$second.junit.xml" || fail "the regression is not in the JUnit"
  grep -q 'changed at\|No change' "$T/results/reports/trend.txt" || fail "no trend report"
  # 30 days kept: the old label went, the baseline and the first night stayed
  assert_no_file "$T/results/old"
  assert_file "$T/results/fast/run.json"
  assert_file "$T/results/$first/run.json"
  assert_no_leaks
}

test_nightly_script_usage_errors() {
  expect_exit 2 "$LRUBENCH_SRC/contrib/nightly/lrubench-nightly" --bogus
  assert_grep_err "unknown argument '--bogus'"
  expect_exit 2 "$LRUBENCH_SRC/contrib/nightly/lrubench-nightly" --keep-days x --results "$T/r"
  assert_grep_err "keep-days 'x'"
  expect_exit 2 env LRUBENCH=/nonexistent/lrubench "$LRUBENCH_SRC/contrib/nightly/lrubench-nightly" \
    --results "$T/r"
  assert_grep_err "not found"
  expect_exit 0 "$LRUBENCH_SRC/contrib/nightly/lrubench-nightly" --help
  assert_grep 'LRUBENCH_KEEP_DAYS' "$T/out"
}
