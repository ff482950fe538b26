# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=1800   (two VM boots under TCG are slow; the default is 600 s)
# VM mode's profile passes (issue 27 point 5): the guest runs `--profile cpu`
# as a native run does, and its folded stacks come home with the samples,
# so compare's differential table and plot's flame graphs work on VM
# labels as on native ones. Needs LRUBENCH_TEST_VM=1 (.ci/run sets it), as
# tests/integration/vm.sh: the two Debian 6.1 kernels (amd64 and rt-amd64)
# boot under qemu (TCG here), each once, with one op and one iteration.

source "$LRUBENCH_SRC/tests/fixtures/vm/common.sh"

test_vm_profile_cpu_folded_come_home() {
  vm_kernels
  command -v perf >/dev/null 2>&1 || skip "needs perf on the host root the guest shares (apt-get install linux-perf)"
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --quick -w readtwice --set readtwice.memcgs=2 \
    --set readtwice.runtime=2s --set global.iterations=1 --set global.warmup=0 --profile cpu \
    --kernel-a "$KA" --kernel-b "$KB" -o "$T/results"
  local l f
  for l in "$RA" "$RB"; do
    f=$T/results/$l/logs/profile-readtwice-memcgs-2-cpu.folded
    [ -f "$f" ] && [ ! -L "$f" ] || fail "no folded stacks came home for $l ($f)"
    [ "$(stat -c %s "$f")" -gt 0 ] && [ "$(stat -c %s "$f")" -lt 1048576 ] || fail "$f: size $(stat -c %s "$f")"
    python3 - "$T/results/$l" <<'PY' || fail "the profile pass of $l"
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "readtwice.json")))
prof = [e["profile"] for e in d["details"] if "profile" in e]
assert len(prof) == 1 and prof[0]["status"] == "ok", prof
p = prof[0]
# the detail names the file that came home, relative to the label
assert p["folded"] == "logs/profile-readtwice-memcgs-2-cpu.folded", p.get("folded")
assert p["folded_stacks"] > 0 and p["cpu_samples"] > 0, p
# the guest's own kernel was sampled, by name (perf in the guest reads its kallsyms)
assert any(s[1] == "k" and not s[0].startswith("0x") for s in p["cpu_symbols"]), p["cpu_symbols"][:5]
run = json.load(open(os.path.join(sys.argv[1], "run.json")))
assert run["profile"]["kind"] == "cpu" and run["vm"]["image"] != "host", (run["profile"], run["vm"])
PY
  done
  expect_exit 0 "$LRUBENCH" compare -f json "$T/results/$RA" "$T/results/$RB"
  cp "$T/out" "$T/c.json"
  python3 - "$T/c.json" "$RA" "$RB" >"$T/top" <<'PY' || fail "the differential table of the two VM labels"
import json, sys
d, ra, rb = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
w = [x for x in d["workloads"] if x["workload"] == "readtwice"][0]
diffs = w["cpu_profile_diff"]
assert [(x["op"], x["baseline"], x["label"]) for x in diffs] == [("memcgs-2", ra, rb)], diffs
top = diffs[0]["top"]
assert top and abs(top[0]["self_change"]) > 0, diffs[0]
print(top[0]["symbol"])
PY
  expect_exit 0 "$LRUBENCH" plot -o "$T/plot" "$T/results/$RA" "$T/results/$RB"
  assert_flamegraphs "$T/plot" "$(cat "$T/top")"
  vm_no_leftovers
}
