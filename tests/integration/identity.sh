# SPDX-License-Identifier: GPL-2.0-or-later
# What a run records about the kernel and the machine (run.json
# system.kernel and system.host), read back against what this kernel and
# this machine say through other means (python's own reading of the ELF
# notes, zcat | sha256sum, /proc and /sys); two labels of this same kernel
# failing the gate with its build id; run --dry-run exiting as the run would.

# A short real run: LABEL [extra run options...]
quick_run() {
  local label=$1; shift
  "$LRUBENCH" run -q -w readtwice -i 2 --set global.warmup=0 --set readtwice.memcgs=1 \
    --set readtwice.runtime=1s --set readtwice.file_size=64M -o "$T/res" --label "$label" "$@" \
    >"$T/run-$label.out" 2>"$T/run-$label.err"
}

# The GNU build id of /sys/kernel/notes, read independently of lrubench.
notes_build_id() {
  python3 - <<'EOF'
import struct, sys
try:
    b = open('/sys/kernel/notes', 'rb').read()
except OSError:
    sys.exit(0)
off = 0
while off + 12 <= len(b):
    nsz, dsz, typ = struct.unpack_from('=III', b, off)
    name = b[off + 12:off + 12 + nsz]
    doff = off + 12 + ((nsz + 3) & ~3)
    if typ == 3 and name == b'GNU\0':
        print(b[doff:doff + dsz].hex())
        break
    off = doff + ((dsz + 3) & ~3)
EOF
}

test_run_records_kernel_identity() {
  need_root
  quick_run id || { cat "$T/run-id.err"; fail "run failed"; }
  local rj=$T/res/id/run.json
  assert_eq "$(json_get "$rj" '["status"]')" complete "status"
  # the build id as python reads the note; none: the reason is recorded
  local id; id=$(notes_build_id)
  if [ -n "$id" ]; then
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["build_id"]')" "$id" "build id"
  else
    json_get "$rj" '["system"]["kernel"]["build_id_unknown"]' >/dev/null || fail "no reason for the missing build id"
  fi
  assert_eq "$(json_get "$rj" '["system"]["kernel_version"]')" "$(uname -v)" "uname -v"
  assert_eq "$(json_get "$rj" '["system"]["cmdline"]')" "$(tr -d '\n' </proc/cmdline | sed 's/ *$//')" "cmdline"
  # the config: /proc/config.gz here, or the reason it is unknown
  if [ -r /proc/config.gz ]; then
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["config"]["source"]')" /proc/config.gz "config source"
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["config"]["sha256"]')" \
      "$(zcat /proc/config.gz | sha256sum | cut -d' ' -f1)" "config sha256"
    local memcg; memcg=$(zcat /proc/config.gz | sed -n 's/^CONFIG_MEMCG=//p')
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["config"]["options"]["CONFIG_MEMCG"]')" "${memcg:-n}" "CONFIG_MEMCG"
    local lockdep; lockdep=$(zcat /proc/config.gz | sed -n 's/^CONFIG_LOCKDEP=//p')
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["config"]["options"]["CONFIG_LOCKDEP"]')" "${lockdep:-n}" "CONFIG_LOCKDEP"
  else
    json_get "$rj" '["system"]["kernel"]["config"]["unknown"]' >"$T/why"
    assert_grep "/proc/config.gz" "$T/why"
    assert_grep "/boot/config-$(uname -r)" "$T/why"
  fi
  if [ -r /sys/kernel/mm/lru_gen/enabled ]; then
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["lru_gen_enabled"]')" "$(cat /sys/kernel/mm/lru_gen/enabled)" "lru_gen"
  else
    assert_eq "$(json_get "$rj" '["system"]["kernel"]["lru_gen_enabled"]')" absent "lru_gen"
  fi
  json_get "$rj" '["system"]["kernel"]["taint_start"]' >/dev/null || fail "no taint at start"
  json_get "$rj" '["system"]["kernel"]["taint_end"]' >/dev/null || fail "no taint at end"
  # the host, against /proc and /sys
  assert_eq "$(json_get "$rj" '["system"]["host"]["sysctl"]["vm.swappiness"]')" "$(cat /proc/sys/vm/swappiness)" "swappiness"
  assert_eq "$(json_get "$rj" '["system"]["host"]["zone_reclaim_mode"]')" "$(cat /proc/sys/vm/zone_reclaim_mode)" "zone_reclaim_mode"
  assert_eq "$(json_get "$rj" '["system"]["host"]["numa_balancing"]')" "$(cat /proc/sys/kernel/numa_balancing)" "numa_balancing"
  assert_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["system"]["host"]["swaps"]))' "$rj")" \
    "$(($(wc -l </proc/swaps) - 1))" "swap devices"
  assert_eq "$(python3 -c 'import json,sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["system"]["host"]["node_mem_kb"], key=int)))' "$rj")" \
    "$(ls -d /sys/devices/system/node/node* | sed 's/.*node//' | sort -n | tr '\n' ' ' | sed 's/ $//')" "nodes"
  if grep -q '^microcode' /proc/cpuinfo; then
    assert_eq "$(json_get "$rj" '["system"]["host"]["microcode"]')" "$(sed -n 's/^microcode[[:space:]]*: //p' /proc/cpuinfo | head -1)" "microcode"
  fi
  [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["system"]["host"]["load_avg"]))' "$rj")" = 3 ] || fail "load average"
  # DAMON, against its sysfs: "absent", "off", or each kdamond that was on
  local kd=/sys/kernel/mm/damon/admin/kdamonds want=absent k
  if [ -r $kd/nr_kdamonds ]; then
    want=off
    for k in $(seq 0 $(($(cat $kd/nr_kdamonds) - 1))); do
      [ "$(cat $kd/$k/state)" = on ] && want="kdamond $k on"
    done
  fi
  case $(json_get "$rj" '["system"]["host"]["damon"]') in
    "$want"*) ;;
    *) fail "system.host.damon is not what $kd says ($want)" ;;
  esac
  if [ "$want" != absent ] && [ "$want" != off ] &&
     grep -qx 'pageout' $kd/*/contexts/*/schemes/*/action 2>/dev/null; then
    assert_eq "$(json_get "$rj" '["system"]["host"]["damon_moves_lru"]')" True "damon_moves_lru"
    assert_grep "DAMON is running a scheme that pages out" "$T/run-id.err"
    cp -r "$T/res/id" "$T/res/again"
    python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["label"]="again"; json.dump(d,open(p,"w"))' \
      "$T/res/again/run.json"
    expect_exit 0 "$LRUBENCH" compare "$T/res/id" "$T/res/again"
    cat "$T/out" "$T/err" >"$T/both"
    assert_grep "id: DAMON was paging out or reordering memory while it ran" "$T/both"
    assert_grep "again: DAMON was paging out or reordering memory while it ran" "$T/both"
  fi
  # the busiest processes at start: never lrubench itself
  local pid; pid=$(json_get "$rj" '["pid"]')
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(p["pid"]==int(sys.argv[2]) for p in d["system"]["host"]["busy_processes"]))' "$rj" "$pid" ||
    fail "lrubench listed among the busy processes"
  # the lrubench build: git describe of the tree it was built from
  local stamp=$LRUBENCH_HELPERS/../git-describe.stamp
  if [ -s "$stamp" ]; then
    assert_eq "$(json_get "$rj" '["lrubench_git"]')" "$(cat "$stamp")" "lrubench_git"
  fi
  assert_eq "$(json_get "$rj" '["kernel_health"]["log"]')" /dev/kmsg "kernel log"
  assert_no_leaks
}

# Done when (issue 14): two labels of this same kernel, compared with
# --fail-on-regression, exit 1 naming the same build id.
test_same_kernel_fails_the_gate() {
  need_root
  local id; id=$(notes_build_id)
  [ -n "$id" ] || skip "this kernel has no GNU build-id note"
  quick_run a || { cat "$T/run-a.err"; fail "run a failed"; }
  quick_run b || { cat "$T/run-b.err"; fail "run b failed"; }
  expect_exit 1 "$LRUBENCH" compare --fail-on-regression 50 --junit "$T/j.xml" "$T/res/a" "$T/res/b"
  assert_grep "^lrubench: same kernel: these labels ran the same kernel build (build id $id): a, b" "$T/err"
  assert_grep "^WARNING: these labels ran the same kernel build (build id $id): a, b" "$T/out"
  need_cmd xmllint libxml2-utils
  xmllint --noout "$T/j.xml" || fail "JUnit XML not well-formed"
  assert_eq "$(xmllint --xpath 'string(//testcase[@name="distinct kernel builds"]/failure/@type)' "$T/j.xml")" \
    "same kernel" "JUnit failure"
  # a user comparing two configurations of one kernel says so; whatever
  # the shared machine's kernel logged meanwhile is not this test's subject
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 50 --allow-same-kernel --allow-kernel-warnings \
    "$T/res/a" "$T/res/b"
  grep -q 'same kernel' "$T/err" && fail "--allow-same-kernel still failed on it"
  # without the gate: a warning, exit 0
  expect_exit 0 "$LRUBENCH" compare "$T/res/a" "$T/res/b"
  assert_grep "same kernel build (build id $id)" "$T/out"
  assert_no_leaks
}

# --dry-run goes through the run's own checks and exits with its code.
test_dry_run_exits_as_the_run_would() {
  need_root
  local big node_kb
  # more than the node's memory: a run refuses it in validation (exit 3)
  node_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo)
  big=$(( node_kb / 1024 / 1024 * 4 + 64 ))G
  expect_exit 3 "$LRUBENCH" run --dry-run -w thpscale --set thpscale.mapsize="$big" -o "$T/res" --label big
  assert_grep_err "thpscale.mapsize"
  [ -s "$T/out" ] && fail "a failed dry run printed the config"
  expect_exit 3 "$LRUBENCH" run -q -w thpscale --set thpscale.mapsize="$big" -o "$T/res" --label big
  assert_grep_err "thpscale.mapsize"
  assert_no_file "$T/res/big"
  # an output folder that cannot be: exit 2, like the run
  expect_exit 2 "$LRUBENCH" run --dry-run -w readtwice -o /etc/passwd/x --label x
  assert_grep_err "results folder /etc/passwd/x is not writable"
  # a complete run is not overwritten without --force, dry or not
  quick_run done || { cat "$T/run-done.err"; fail "run failed"; }
  expect_exit 2 "$LRUBENCH" run --dry-run -w readtwice -o "$T/res" --label done
  assert_grep_err "holds a complete run"
  # fine: the config, exit 0, nothing created
  expect_exit 0 "$LRUBENCH" run --dry-run -w readtwice -o "$T/res" --label fresh
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))["readtwice"]' "$T/out" || fail "no config printed"
  assert_no_file "$T/res/fresh"
  expect_exit 0 "$LRUBENCH" run --dry-run --force -w readtwice -o "$T/res" --label done
  assert_eq "$(json_get "$T/res/done/run.json" '["status"]')" complete "--dry-run --force left the run alone"
  assert_no_leaks
}

# One label, one kernel: --resume refuses to continue a run begun on
# another kernel build (its run.json is edited to say it was).
test_resume_refuses_another_kernel_build() {
  need_root
  [ -n "$(notes_build_id)" ] || skip "this kernel has no GNU build-id note"
  quick_run r || { cat "$T/run-r.err"; fail "run failed"; }
  python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["status"]="interrupted"
d["system"]["kernel"]["build_id"]="0123456789abcdef0123456789abcdef01234567"; json.dump(d,open(p,"w"))' \
    "$T/res/r/run.json"
  expect_exit 2 quick_run r --resume
  assert_grep "began on kernel build 0123456789abcdef0123456789abcdef01234567, this kernel is build $(notes_build_id)" \
    "$T/run-r.err"
  assert_eq "$(json_get "$T/res/r/run.json" '["status"]')" interrupted "run.json untouched"
  # the same build: it continues (nothing is left to measure) and completes
  python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["system"]["kernel"]["build_id"]=sys.argv[2]
json.dump(d,open(p,"w"))' "$T/res/r/run.json" "$(notes_build_id)"
  expect_exit 0 quick_run r --resume
  assert_eq "$(json_get "$T/res/r/run.json" '["status"]')" complete "resumed"
  assert_no_leaks
}
