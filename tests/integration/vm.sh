# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=1800   (a VM boot under TCG is slow; the default is 600 s)
# VM mode: `lrubench run --kernel-a IMG --kernel-b IMG`. The bad-input tests
# need no VM and always run. The boot tests need LRUBENCH_TEST_VM=1 (.ci/run
# sets it): they unpack two Debian kernel packages (apt-get download +
# dpkg-deb -x, nothing installed) into $LRUBENCH_TEST_KERNELS (default
# /var/cache/lrubench-test-kernels) and boot them under qemu (TCG here: KVM
# exists on this machine but runs guests far too slowly, and the probe says so).

source "$LRUBENCH_SRC/tests/fixtures/vm/common.sh"

test_vm_image_missing() {
  need_root
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/no-such-bzImage" -o "$T/results"
  assert_grep_err "cannot read kernel image $T/no-such-bzImage"
  assert_grep_err "No such file"
  assert_no_file "$T/results/no-such-bzImage"
}

test_vm_not_a_kernel() {
  need_root
  printf 'this is not a kernel\n' > "$T/notes.txt"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/notes.txt" -o "$T/results"
  assert_grep_err "$T/notes.txt: not a Linux kernel image"
  assert_grep_err "HdrS"
}

test_vm_kernel_without_9p() {
  need_root
  local rel=9.9.9-lrubench-no9p
  mkdir -p "$T/root/boot"
  vm_fake_bzimage "$T/root/boot/vmlinuz-$rel" "$rel"
  # the -cloud-amd64 flavour's situation: 9p not configured at all
  printf '# CONFIG_9P_FS is not set\nCONFIG_VIRTIO_PCI=m\n' > "$T/root/boot/config-$rel"
  TMPDIR=$T expect_exit 3 "$LRUBENCH" run --kernel-a "$T/root/boot/vmlinuz-$rel" -o "$T/results"
  assert_grep_err "CONFIG_9P_FS"
  assert_grep_err "CONFIG_NET_9P_VIRTIO"
  assert_grep_err "CONFIG_VIRTIO_PCI"
  assert_grep_err "not set in its config"
  # and with no config and no modules at all
  rm "$T/root/boot/config-$rel"
  TMPDIR=$T expect_exit 3 "$LRUBENCH" run --kernel-a "$T/root/boot/vmlinuz-$rel" -o "$T/results"
  assert_grep_err "CONFIG_9P_FS, CONFIG_NET_9P_VIRTIO and CONFIG_VIRTIO_PCI"
  assert_grep_err "no modules found"
  [ -z "$(ls -d "$T"/lrubench-vm.* 2>/dev/null)" ] || fail "temporary folder left: $(ls -d "$T"/lrubench-vm.*)"
  # a kernel build tree: arch/x86/boot/bzImage, its .config at the top
  mkdir -p "$T/linux/arch/x86/boot"
  vm_fake_bzimage "$T/linux/arch/x86/boot/bzImage" "$rel"
  printf 'CONFIG_VIRTIO_PCI=y\nCONFIG_NET_9P_VIRTIO=y\n# CONFIG_9P_FS is not set\n' > "$T/linux/.config"
  TMPDIR=$T expect_exit 3 "$LRUBENCH" run --kernel-a "$T/linux/arch/x86/boot/bzImage" -o "$T/results"
  assert_grep_err "missing: CONFIG_9P_FS (9p file system: not set in its config)"
  if grep -q "CONFIG_VIRTIO_PCI (" "$T/err"; then fail "CONFIG_VIRTIO_PCI=y in .config was not seen"; fi
}

test_vm_kernel_b_without_a() {
  need_root
  expect_exit 2 "$LRUBENCH" run --kernel-b "$T/x" -o "$T/results"
  assert_grep_err "kernel-b needs --kernel-a"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/x" --label one -o "$T/results"
  assert_grep_err "label-a"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/x" --set vm.colour=red -o "$T/results"
  assert_grep_err "vm.colour"
  # the suite's workloads are checked before anything boots
  expect_exit 2 "$LRUBENCH" run --kernel-a host -w nosuch -o "$T/results"
  assert_grep_err "unknown workload 'nosuch'"
  assert_no_file "$T/results"
}

# The label rule of `run --label` (core/label_name.h), for --label-a and for
# the kernel release that is the default label; refused before any boot.
test_vm_label_names() {
  need_root
  vm_fake_bzimage "$T/bzImage" "9.9.9-lrubench"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --label-a .hidden -o "$T/results"
  assert_grep_err "label-a: label '.hidden' starts with '.'"
  vm_fake_bzimage "$T/bzImage" "9.9.9,lrubench"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" -o "$T/results"
  assert_grep_err "kernel a: label '9.9.9,lrubench' has ','.*give --label-a NAME"
  assert_no_file "$T/results"
}

# --kernel-a host: the running kernel, natively, through the same path
test_vm_host_kernel() {
  need_root
  expect_exit 0 "$LRUBENCH" run --quick -w readtwice --set readtwice.memcgs=1 --set readtwice.runtime=1s \
    --set global.iterations=1 --set global.warmup=0 --kernel-a host -o "$T/results"
  local rj=$T/results/$(uname -r)/run.json
  assert_eq "$(json_get "$rj" "['status']")" complete "status"
  assert_eq "$(json_get "$rj" "['system']['kernel_release']")" "$(uname -r)" "kernel_release"
  assert_eq "$(json_get "$rj" "['vm']['image']")" host "vm.image"
  vm_positive_samples "$T/results/$(uname -r)/readtwice.json"
  # a second run into the same label is refused before anything runs
  expect_exit 2 "$LRUBENCH" run --quick -w readtwice --kernel-a host -o "$T/results"
  assert_grep_err "already holds a run"
}

# [vm] keys from an INI file, overridden by --set and the --vm-* aliases in
# command-line order; the guest suite keeps the file but clears its kernels,
# so the run inside is native (a real run on the host kernel shows it).
test_vm_keys_from_config_file() {
  need_root
  printf '[vm]\nkernel_a = host\nlabel_a = fromini\ntimeout = 20m\nrounds = 3\n' > "$T/ab.conf"
  expect_exit 0 "$LRUBENCH" run --dry-run -c "$T/ab.conf" --quick -w readtwice --set vm.rounds=2 -o "$T/results"
  assert_grep "label fromini -> $T/results/fromini" "$T/out"
  assert_grep "rounds: 2: A, A; timeout per boot: 1200 s" "$T/out"
  assert_grep "runs: .* -c $T/ab.conf -w readtwice --quick --set vm.kernel_a= --set vm.kernel_b= --set vm.kernels= --label fromini" "$T/out"
  if grep -q "vm.rounds" "$T/out"; then fail "a vm.* --set reached the guest suite"; fi
  expect_exit 0 "$LRUBENCH" run --dry-run -c "$T/ab.conf" --vm-timeout 30m --set vm.timeout=40m \
    --set vm.rounds=1 -o "$T/results"
  assert_grep "timeout per boot: 2400 s" "$T/out"
  expect_exit 0 "$LRUBENCH" run --dry-run -c "$T/ab.conf" --set vm.timeout=40m --vm-timeout 30m \
    --set vm.rounds=1 -o "$T/results"
  assert_grep "timeout per boot: 1800 s" "$T/out"
  assert_no_file "$T/results"
  expect_exit 0 "$LRUBENCH" run -c "$T/ab.conf" --set vm.rounds=1 --quick -w readtwice \
    --set readtwice.memcgs=1 --set readtwice.runtime=1s --set global.iterations=1 --set global.warmup=0 \
    -o "$T/results"
  assert_eq "$(json_get "$T/results/fromini/run.json" "['status']")" complete "status"
  assert_eq "$(json_get "$T/results/fromini/run.json" "['vm']['image']")" host "vm.image"
  python3 - "$T/results/fromini/run.json" <<'PY' || fail "[vm] entered run.json's config"
import json, sys
assert "vm" not in json.load(open(sys.argv[1]))["config"]
PY
  expect_exit 0 "$LRUBENCH" list vm
  assert_grep "^  vm.kernel_a = " "$T/out"
  assert_grep "^  vm.memory = 4G  --quick: 2G" "$T/out"
}

# --dry-run shows what would boot and creates nothing (the modules of the
# kernel are faked: three empty .ko files with a modules.dep)
test_vm_dry_run() {
  need_root
  need_cmd qemu-system-x86_64 qemu-system-x86
  local rel=9.9.9-lrubench-dry m
  mkdir -p "$T/root/boot" "$T/tmp"
  vm_fake_bzimage "$T/root/boot/vmlinuz-$rel" "$rel"
  m=$T/root/lib/modules/$rel
  mkdir -p "$m/kernel/virtio" "$m/kernel/9p"
  : > "$m/kernel/virtio/virtio_ring.ko"; : > "$m/kernel/virtio/virtio_pci.ko"
  : > "$m/kernel/9p/9pnet_virtio.ko"; : > "$m/kernel/9p/9p.ko"
  printf '%s\n' "kernel/virtio/virtio_ring.ko:" \
    "kernel/virtio/virtio_pci.ko: kernel/virtio/virtio_ring.ko" \
    "kernel/9p/9pnet_virtio.ko: kernel/virtio/virtio_ring.ko" \
    "kernel/9p/9p.ko:" > "$m/modules.dep"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --dry-run --quick -w readtwice --kernel-a "$T/root/boot/vmlinuz-$rel" \
    --kernel-b host --set vm.numa_nodes=2 --set vm.cpus=2 -o "$T/results"
  assert_grep "kernel a: $T/root/boot/vmlinuz-$rel, release $rel, label $rel" "$T/out"
  assert_grep "modules: 4 from $m" "$T/out"
  assert_grep "memdev=mem1" "$T/out"
  assert_grep "lrubench.virt=" "$T/out"
  assert_grep "kernel b: the running kernel" "$T/out"
  # virtio_ring before both of its users
  [ "$(grep -n 'virtio_ring.ko$' "$T/out" | head -1 | cut -d: -f1)" -lt \
    "$(grep -n 'virtio_pci.ko$' "$T/out" | head -1 | cut -d: -f1)" ] || fail "load order"
  assert_no_file "$T/results"
  [ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left: $(ls -A "$T/tmp")"
}

# ---- boots (LRUBENCH_TEST_VM=1) ----

# Three kernels in one run, rounds A, B, C: the two Debian images and a copy
# of the first under another name (--kernel NAME=IMG), with its modules
# found beside it as in an unpacked package.
test_vm_three_kernels() {
  vm_kernels
  mkdir -p "$T/tmp" "$T/copy/boot"
  cp "$KA" "$T/copy/boot/vmlinuz-$RA"
  cp "$(dirname "$KA")/config-$RA" "$T/copy/boot/config-$RA"
  ln -s "$(dirname "$(dirname "$KA")")/lib" "$T/copy/lib"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" --kernel-b "$KB" \
    --kernel copy="$T/copy/boot/vmlinuz-$RA" -o "$T/results"
  local virt; virt=$(vm_expected_virt)
  local r cfg
  for r in "$RA" "$RB" copy; do
    assert_file "$T/results/$r/run.json"
    assert_eq "$(json_get "$T/results/$r/run.json" "['status']")" complete "status of $r"
    assert_eq "$(json_get "$T/results/$r/run.json" "['system']['virt']")" "$virt" "system.virt of $r"
    # the project's real cgroup v2 coverage: the guest mounts cgroup2 only
    assert_eq "$(json_get "$T/results/$r/run.json" "['system']['cgroup_mode']")" v2 "cgroup_mode of $r"
    vm_positive_samples "$T/results/$r/readtwice.json"
    assert_grep "LRUBENCH-EXIT 0" "$T/results/$r/logs/vm-console.log"
    # the guest's identity, from inside the guest, and the image's config from the host
    case $r in
      "$RA") cfg=$(dirname "$KA")/config-$RA ;;
      "$RB") cfg=$(dirname "$KB")/config-$RB ;;
      copy) cfg=$T/copy/boot/config-$RA ;;
    esac
    python3 - "$T/results/$r/run.json" "$cfg" <<'PY' ||
import hashlib, json, re, sys
k = json.load(open(sys.argv[1]))["system"]["kernel"]
assert re.fullmatch(r"[0-9a-f]{40}", k["build_id"] or ""), k.get("build_id")
want = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert k["image_config"]["sha256"] == want, (k["image_config"], want)
assert k["config"].get("sha256"), k["config"]
assert "taint_start" in k and "taint_end" in k, k
PY
      fail "system.kernel of $r"
  done
  assert_eq "$(json_get "$T/results/$RA/run.json" "['system']['kernel_release']")" "$RA" "release of A"
  assert_eq "$(json_get "$T/results/$RB/run.json" "['system']['kernel_release']")" "$RB" "release of B"
  assert_eq "$(json_get "$T/results/copy/run.json" "['system']['kernel_release']")" "$RA" "release of the copy"
  assert_eq "$(json_get "$T/results/copy/run.json" "['vm']['kernel']")" c "kernel letter of the copy"
  [ "$RA" != "$RB" ] || fail "both images have release $RA"
  [ "$(json_get "$T/results/$RA/run.json" "['system']['kernel']['build_id']")" != \
    "$(json_get "$T/results/$RB/run.json" "['system']['kernel']['build_id']")" ] || fail "one build id for two kernels"
  assert_eq "$(json_get "$T/results/copy/run.json" "['system']['kernel']['build_id']")" \
    "$(json_get "$T/results/$RA/run.json" "['system']['kernel']['build_id']")" "build id of the copy"
  # A and its copy are one build, and compare says so; B is another
  assert_grep "these labels ran the same kernel build (build id .*): $RA, copy" "$T/out"
  if grep "same kernel build" "$T/out" | grep -q "$RB"; then fail "B reported as the same build"; fi
  assert_grep "^  kernel.build_id " "$T/out"
  # booted in the order given
  grep -o "kernel [abc]: booting" "$T/out" | tr '\n' ' ' > "$T/order"
  assert_eq "$(cat "$T/order")" "kernel a: booting kernel b: booting kernel c: booting " "boot order"
  # the comparison shows all three, baseline first
  assert_grep "^Labels: $RA (baseline), $RB, copy$" "$T/out"
  grep -Eq '^Hmean +memcgs-1 +[0-9.]+ \( *0\.00%\) +[0-9.]+ \( *-?[0-9.]+%\) +[0-9.]+ \( *-?[0-9.]+%\)$' "$T/out" ||
    { tail -40 "$T/out"; fail "no three-column comparison printed"; }
  assert_grep "console log of copy: $T/results/copy/logs/vm-console.log" "$T/out"
  vm_no_leftovers
}

# Placement under TCG (pinning needs no KVM): two guest nodes on this host's
# one node, each vCPU pinned to a host CPU, memory bound, all read back.
test_vm_numa_two_nodes_and_rounds() {
  vm_kernels
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${VM_SUITE[@]}" --set global.numa_node=1 \
    --set vm.numa_nodes=2 --set vm.cpus=2 --set vm.rounds=2 --vm-cpus-from node --kernel-a "$KA" \
    -o "$T/results"
  local rj=$T/results/$RA/run.json nodes
  assert_eq "$(json_get "$rj" "['system']['numa_nodes']")" 2 "guest NUMA nodes"
  assert_eq "$(json_get "$rj" "['numa_binding']['node']")" 1 "bound node"
  # qemu gives node 1 the second vCPU
  assert_eq "$(json_get "$rj" "['numa_binding']['cpus']")" "[1]" "CPUs of node 1"
  assert_eq "$(json_get "$rj" "['vm']['rounds']")" 2 "rounds recorded"
  # two rounds of 2 iterations each, pooled per op
  assert_eq "$(json_get "$T/results/$RA/readtwice.json" "['tables'][0]['ops'][0]['samples'].__len__()")" 4 "pooled samples"
  vm_positive_samples "$T/results/$RA/readtwice.json"
  # the readers themselves ran on node 1's CPU
  python3 - "$T/results/$RA/readtwice.json" <<'EOF' || fail "readers not placed on node 1"
import json, sys
det = json.load(open(sys.argv[1]))["details"]
assert det and all(set(x["reader_nodes"]) == {1} and set(x["reader_cpus"]) == {1} for x in det), det
EOF
  assert_file "$T/results/$RA/logs/round-2/vm-console.log"
  # the guest sampled its monitors (issue 24 point 5): every pooled iteration
  # of every op has its series home, round 2's numbered after round 1's, each
  # with samples of the guest's levels and an end record
  python3 - "$T/results/$RA" <<'EOF' || fail "the guest's monitor series"
import json, os, sys
root = sys.argv[1]
d = json.load(open(root + "/readtwice.json"))
ops = [o["op"] for o in d["tables"][0]["ops"]]
got = sorted(os.listdir(root + "/series/readtwice"))
want = sorted("%s.%d.series" % (op, i) for op in ops for i in range(4))
assert got == want, (got, want)
for n in got:
    lines = open(root + "/series/readtwice/" + n).read().split("\n")
    cols = [c for l in lines if l.startswith("c ") for c in l.split()[1:]]
    assert "vmstat.nr_active_file" in cols and "meminfo.MemFree" in cols, (n, cols[:8])
    assert sum(l.startswith("r ") for l in lines) >= 2, n
    assert any(l.startswith("e ") for l in lines), n
EOF
  # the placement as applied, read back from /proc/<qemu>/task/*/status and
  # numa_maps: vCPU i alone on host CPU i (of host node 0), both guest
  # nodes' RAM bound to host node 0, where its pages are
  nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
  [ "$nodes" = 1 ] || skip "this check is written for a host with one NUMA node ($nodes here)"
  assert_grep "placement: the host has 1 NUMA node: guest nodes 0-1 are all on host node 0" "$T/out"
  python3 - "$rj" <<'EOF' || fail "placement not applied as planned"
import json, sys
pl = json.load(open(sys.argv[1]))["vm"]["placement"]
assert pl["cpus_from"] == "node" and pl["host_nodes"] == [0, 0], pl
assert "all on host node 0" in pl["note"], pl
a = pl["applied"]
assert [(v["vcpu"], v["cpus_allowed"]) for v in a["vcpus"]] == [(0, "0"), (1, "1")], a["vcpus"]
assert len({v["thread"] for v in a["vcpus"]}) == 2, a["vcpus"]
assert len(a["memory"]) == 2 and all(m["policy"] == "bind:0" for m in a["memory"]), a["memory"]
assert all(set(m["pages"]) == {"0"} and m["pages"]["0"] > 0 for m in a["memory"]), a["memory"]
assert pl["summary"] == "vCPU->host CPUs 0:0 1:1; memory bind:0 on node 0, bind:0 on node 0", pl["summary"]
assert len(pl["round_summaries"]) == 2, pl
EOF
  vm_no_leftovers
}

# A guest kernel that panics before the suite starts: its label still gets
# a run.json that says so, with the console.
test_vm_guest_panic() {
  vm_kernels
  mkdir -p "$T/tmp"
  # no such init in the initramfs and no root= : the guest kernel panics
  TMPDIR=$T/tmp expect_exit 1 "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" \
    --set vm.cmdline_extra=rdinit=/no-such-init -o "$T/results"
  assert_grep_err "panicked: Kernel panic"
  assert_grep_err "; last lines of .*/vm-console.log:"
  assert_grep_err "kernel a ($RA) panicked in round 1: its cell is failed"
  assert_grep "Kernel panic" "$T/results/$RA/logs/vm-console.log"
  python3 - "$T/results/$RA/run.json" <<'EOF' || fail "the failure is not recorded"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "failed" and "system" not in r, r
f = r["vm"]["failures"]
assert len(f) == 1 and f[0]["round"] == 1 and f[0]["what"] == "panicked", f
assert f[0]["first_line"].startswith("Kernel panic - not syncing"), f
assert f[0]["console_log"] == "logs/vm-console.log" and f[0]["console_tail"], f
EOF
  vm_no_leftovers
}

# A crash in the middle of a comparison is a result: kernel B's build panics
# its guest (sysrq) in round 2; B's cell is failed with the reason and the
# console, A's rounds complete, and compare says what happened.
test_vm_guest_crash_is_a_result() {
  vm_kernels
  mkdir -p "$T/tmp"
  # from round 2 on (the guest's LRUBENCH_VM_ROUND; a guest sees no other
  # round's results), its build panics the rt kernel
  vm_kernbench_tree "$T/src.tar" '[ "$$LRUBENCH_VM_ROUND" -ge 2 ] && uname -r | grep -q -- -rt-'
  cd "$T" || fail "cd $T"
  TMPDIR=$T/tmp expect_exit 1 "$LRUBENCH" run --quick -w kernbench --set kernbench.source="$T/src.tar" \
    --set global.iterations=1 --set global.warmup=0 --vm-rounds 2 \
    --kernel base="$KA" --kernel rt="$KB" -o "$T/results"
  assert_grep_err "kernel b (rt) panicked in round 2: its cell is failed"
  assert_grep_err "Kernel panic - not syncing: sysrq triggered crash"
  # A: both rounds, pooled
  assert_eq "$(json_get "$T/results/base/run.json" "['status']")" complete "status of base"
  assert_eq "$(vm_samples "$T/results/base/kernbench.json" elsp-2)" 2 "samples of base"
  assert_file "$T/results/base/logs/round-2/vm-console.log"
  # B: round 1's numbers, round 2's crash
  assert_eq "$(vm_samples "$T/results/rt/kernbench.json" elsp-2)" 1 "samples of rt"
  assert_grep "sysrq triggered crash" "$T/results/rt/logs/round-2/vm-console.log"
  python3 - "$T/results/rt/run.json" <<'EOF' || fail "the crash is not recorded"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "failed", r["status"]
f = r["vm"]["failures"]
assert len(f) == 1 and f[0]["round"] == 2 and f[0]["what"] == "panicked", f
assert f[0]["first_line"] == "Kernel panic - not syncing: sysrq triggered crash", f
assert f[0]["console_log"] == "logs/round-2/vm-console.log", f
# the last lines of that console, as they were
log = open(sys.argv[1].replace("run.json", f[0]["console_log"])).read().splitlines()
assert f[0]["console_tail"] == [l for l in log if l][-len(f[0]["console_tail"]):], f
assert len(f[0]["console_tail"]) == 20, f
assert r["vm"]["rounds"] == 2 and len(r["vm"]["round_seconds"]) == 2, r["vm"]
EOF
  # the comparison of both, with what happened to B
  assert_grep "^Labels: base (baseline), rt$" "$T/out"
  assert_grep "^WARNING: rt: panicked in round 2 (first line: Kernel panic - not syncing: sysrq triggered crash); console: logs/round-2/vm-console.log$" "$T/out"
  assert_grep "^WARNING: rt: its numbers are from the rounds before the failure$" "$T/out"
  grep -Eq '^Amean +elsp-2 ' "$T/out" || { tail -30 "$T/out"; fail "no comparison printed"; }
  vm_no_leftovers
}

# iterations = auto in real guests (issue 19; tests/integration/adaptive.sh
# holds the decision rules with host "kernels"): the guests run
# min_iterations a round, and a kernel that panics in round 2 drops out of
# the decision while A goes on to the round cap alone.
test_vm_auto_rounds_go_on_after_a_crash() {
  vm_kernels
  mkdir -p "$T/tmp"
  # rt panics in its first round. A crash in a later round is
  # test_vm_guest_crash_is_a_result's; here it must come before any
  # comparison: with rt's round 1 beside base's, the two could stop "too
  # noisy" or "decided" after round 1 by chance (CI saw it), and then no
  # round would come after the crash.
  vm_kernbench_tree "$T/src.tar" 'uname -r | grep -q -- -rt-'
  cd "$T" || fail "cd $T"
  # base alone is judged on its own precision, and 0.01% cannot be reached
  # by a TCG guest's builds: only the round cap ends its rounds
  TMPDIR=$T/tmp expect_exit 1 "$LRUBENCH" run --quick -w kernbench --set kernbench.source="$T/src.tar" \
    -i auto --set global.min_iterations=2 --set global.precision=0.01% --set global.warmup=0 \
    --vm-rounds 3 --kernel base="$KA" --kernel rt="$KB" -o "$T/results"
  assert_grep_err "kernel b (rt) panicked in round 1: its cell is failed"
  # rt booted once, base three times: A, B, A, A
  grep -o "kernel [ab]: booting" "$T/out" | tr '\n' ' ' > "$T/order"
  assert_eq "$(cat "$T/order")" "kernel a: booting kernel b: booting kernel a: booting kernel a: booting " "boot order"
  # the guests ran min_iterations a round, not "auto"
  assert_eq "$(json_get "$T/results/base/run.json" '["config"]["global"]["iterations"]')" 2 "guest iterations"
  assert_eq "$(vm_samples "$T/results/base/kernbench.json" elsp-2)" 6 "samples of base"
  assert_no_file "$T/results/rt/kernbench.json"
  assert_eq "$(json_get "$T/results/base/run.json" '["vm"]["adaptive"]["stopped"]')" "round cap" "base stopped"
  assert_eq "$(json_get "$T/results/base/run.json" '["vm"]["adaptive"]["rounds"]')" 3 "base rounds"
  assert_eq "$(json_get "$T/results/rt/run.json" '["status"]')" failed "status of rt"
  python3 - "$T/results/rt/run.json" <<'PY' || fail "rt's label claims a decision"
import json, sys
r = json.load(open(sys.argv[1]))
assert "adaptive" not in r["vm"], r["vm"]
assert [f["round"] for f in r["vm"]["failures"]] == [1], r["vm"]["failures"]
PY
  assert_grep "not decided after 3 rounds" "$T/out"
  vm_no_leftovers
}

test_vm_sigint() {
  vm_kernels
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" --kernel-b "$KB" -o "$T/results" \
    >"$T/out" 2>"$T/err" &
  local pid=$! i
  # wait until the suite runs inside the first guest, then interrupt
  for i in $(seq 1 600); do
    grep -q "^\[$RA\] " "$T/out" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.5
  done
  grep -q "^\[$RA\] " "$T/out" || { kill -INT $pid; wait $pid; fail "the guest never started"; }
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  assert_no_file "$T/results/$RB"
  assert_grep "interrupted" "$T/err"
  # the label being written says so (the core wrote it, or VM mode marked it)
  if [ -f "$T/results/$RA/run.json" ]; then
    assert_eq "$(json_get "$T/results/$RA/run.json" "['status']")" interrupted "status of $RA"
  fi
  assert_file "$T/results/$RA/logs/vm-console.log"
  vm_no_leftovers
}

test_vm_timeout() {
  vm_kernels
  mkdir -p "$T/tmp"
  # the suite alone reads for 6 x 2 s, so 10 s can never be enough
  TMPDIR=$T/tmp expect_exit 1 "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" --vm-timeout 10s -o "$T/results"
  assert_grep_err "did not finish within vm_timeout=10s"
  assert_grep_err "; last lines of .*/vm-console.log:"
  assert_grep_err "kernel a ($RA) hung in round 1"
  assert_file "$T/results/$RA/logs/vm-console.log"
  assert_eq "$(json_get "$T/results/$RA/run.json" "['vm']['failures'][0]['what']")" hung "what"
  vm_no_leftovers
}

# Placement and --kernel checked before anything boots: what no host can do
# is a usage error (2), what this host lacks is 3.
test_vm_placement_and_kernels_refused() {
  need_root
  need_cmd qemu-system-x86_64 qemu-system-x86
  local rel=9.9.9-lrubench-place ncpu
  ncpu=$(nproc)
  mkdir -p "$T/tmp"
  vm_fake_bzimage "$T/bzImage" "$rel"
  local R=("$LRUBENCH" run --dry-run --quick -w readtwice --kernel-a "$T/bzImage" -o "$T/results")
  TMPDIR=$T/tmp expect_exit 3 "${R[@]}" --set vm.cpus=1 --vm-cpus-from 1000
  assert_grep_err "vm.cpus_from: host CPU 1000 is not online or not allowed to lrubench here (usable: "
  TMPDIR=$T/tmp expect_exit 2 "${R[@]}" --set vm.cpus=$((ncpu + 1)) --vm-cpus-from node --vm-host-node 0
  assert_grep_err "vm.cpus_from=node: host node 0 has too few usable CPUs"
  TMPDIR=$T/tmp expect_exit 2 "${R[@]}" --set vm.cpus=2 --vm-cpus-from 0
  assert_grep_err "vm.cpus_from=0 lists 1 host CPU for vm.cpus=2 vCPUs"
  TMPDIR=$T/tmp expect_exit 3 "${R[@]}" --vm-host-node 63
  assert_grep_err "vm.host_node=63: no such node with memory on this host; nodes present: "
  if [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" = 0 ]; then
    TMPDIR=$T/tmp expect_exit 3 "${R[@]}" --vm-memory-backend hugetlb
    assert_grep_err "vm.memory_backend=hugetlb needs 1024 free 2048K huge pages"
  fi
  expect_exit 2 "${R[@]}" --vm-memory-backend tmpfs
  assert_grep_err "vm.memory_backend"
  expect_exit 2 "${R[@]}" --kernel "$T/bzImage"
  assert_grep_err "--kernel $T/bzImage: expected NAME=IMG"
  expect_exit 2 "${R[@]}" --kernel "x=$T/a,b"
  assert_grep_err "a ',' cannot be in NAME or IMG"
  expect_exit 2 "${R[@]}" --kernel "$rel=$T/bzImage"
  assert_grep_err "kernels a (--kernel-a) and b (--kernel $rel) would both write results/$rel"
  expect_exit 2 "${R[@]}" --set "vm.kernels=ok=$T/bzImage,justapath"
  assert_grep_err "vm.kernels: 'justapath' is not NAME=IMG"
  # qemu's QMP socket goes in the temporary folder: a unix socket path is short
  local deep; deep=$T/tmp/$(printf 'd%.0s' $(seq 100))
  mkdir -p "$deep"
  TMPDIR=$deep expect_exit 2 "${R[@]}"
  assert_grep_err "is too deep for qemu's QMP socket (a unix socket path has at most 107 bytes)"
  [ -z "$(ls -A "$deep")" ] || fail "temporary files left: $(ls -A "$deep")"
  rmdir "$deep"
  assert_no_file "$T/results"
  [ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left: $(ls -A "$T/tmp")"
  # listed with the other [vm] keys
  expect_exit 0 "$LRUBENCH" list vm
  assert_grep "^  vm.kernels = " "$T/out"
  assert_grep "^  vm.cpus_from = none" "$T/out"
  assert_grep "^  vm.host_node = auto" "$T/out"
  assert_grep "^  vm.memory_backend = ram" "$T/out"
}

# --dry-run shows the placement and the paused, QMP-driven qemu; rounds
# A, B, C in order (modules faked as in test_vm_dry_run).
test_vm_dry_run_placement() {
  need_root
  need_cmd qemu-system-x86_64 qemu-system-x86
  local rel=9.9.9-lrubench-dry m
  mkdir -p "$T/root/boot" "$T/tmp"
  vm_fake_bzimage "$T/root/boot/vmlinuz-$rel" "$rel"
  m=$T/root/lib/modules/$rel
  mkdir -p "$m/kernel"
  printf 'CONFIG_9P_FS=y\nCONFIG_NET_9P_VIRTIO=y\nCONFIG_VIRTIO_PCI=y\n' > "$T/root/boot/config-$rel"
  : > "$m/modules.dep"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --dry-run --quick -w readtwice \
    --kernel one="$T/root/boot/vmlinuz-$rel" --kernel two="$T/root/boot/vmlinuz-$rel" --kernel-a host \
    --vm-cpus 1 --vm-cpus-from 0 --vm-rounds 2 -o "$T/results"
  assert_grep "^kernel a: the running kernel" "$T/out"
  assert_grep "^kernel b: .*label one" "$T/out"
  assert_grep "^kernel c: .*label two" "$T/out"
  assert_grep " -S -qmp unix:<qmp socket>,server=on,wait=off " "$T/out"
  assert_grep "memory-backend-ram,id=mem0,size=2048M,host-nodes=[0-9]*,policy=bind -machine memory-backend=mem0" "$T/out"
  assert_grep "^placement: vCPUs pinned to host CPUs 0; guest node 0 on host node [0-9]* (memory-backend-ram, policy=bind)$" "$T/out"
  assert_grep "^rounds: 2: A, B, C, A, B, C; timeout per boot: 900 s$" "$T/out"
  assert_no_file "$T/results"
}

# compare, from hand-written label folders: a kernel that panicked in round
# 2, one that never started its suite, and placements that differ.
test_vm_compare_shows_failures_and_placement() {
  local l
  for l in a b c; do mkdir -p "$T/r/$l"; done
  python3 - "$T/r" <<'PY'
import json, sys, os
root = sys.argv[1]
def run(label, placement, failures=None, system=True):
    r = {"schema": 1, "label": label, "status": "failed" if failures else "complete",
         "started": "2026-11-30T10:00:0%dZ" % "abc".index(label),
         "vm": {"accel": "tcg", "memory": "2G", "cpus": 2, "numa_nodes": 1,
                "placement": {"summary": placement}}}
    if system:
        r["system"] = {"kernel_release": "6.1", "virt": "tcg", "cmdline": "x"}
        r["config"] = {"global": {"iterations": "1"}}
    if failures:
        r["vm"]["failures"] = failures
    json.dump(r, open(os.path.join(root, label, "run.json"), "w"))
def samples(label, v):
    json.dump({"schema": 1, "workload": "readtwice", "tables": [{"title": "readtwice MB/s",
               "unit": "MB/s", "better": "higher", "ops": [{"op": "memcgs-1", "samples": v}]}]},
              open(os.path.join(root, label, "readtwice.json"), "w"))
run("a", "vCPU->host CPUs 0:0 1:1; memory bind:0 on node 0")
samples("a", [100, 101])
run("b", "vCPU->host CPUs 0:0-1 1:0-1; memory default on node 0",
    [{"round": 2, "what": "panicked", "first_line": "Kernel panic - not syncing: sysrq triggered crash",
      "console_log": "logs/round-2/vm-console.log"}])
samples("b", [90])
run("c", None, [{"round": 1, "what": "hung", "first_line": None, "console_log": "logs/vm-console.log"}],
    system=False)
PY
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  assert_grep "^Labels: a (baseline), b, c$" "$T/out"
  assert_grep "^  vm.placement.summary *vCPU->host CPUs 0:0 1:1; memory bind:0 on node 0 | vCPU->host CPUs 0:0-1 1:0-1; memory default on node 0 | -$" "$T/out"
  assert_grep "^WARNING: b: panicked in round 2 (first line: Kernel panic - not syncing: sysrq triggered crash); console: logs/round-2/vm-console.log$" "$T/out"
  assert_grep "^WARNING: b: its numbers are from the rounds before the failure$" "$T/out"
  assert_grep "^WARNING: c: hung in round 1; console: logs/vm-console.log$" "$T/out"
  assert_grep "^WARNING: c has no results: its guest never finished a round$" "$T/out"
  # the facts it has none of are not "differences"
  if grep -q "^  system.cmdline" "$T/out"; then fail "a label without system facts made a difference"; fi
  if grep -q "run status is 'failed'" "$T/out"; then fail "the failure was said twice"; fi
}

# point 7 of the profile feature: the guest runs the same profile pass (perf
# from the shared root, tracefs mounted by lrubench inside the guest) and its
# tables come back with the samples
test_vm_profile_lock() {
  vm_kernels
  command -v perf >/dev/null 2>&1 || skip "needs perf on the host root the guest shares (apt-get install linux-perf)"
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${VM_SUITE[@]}" --profile lock --kernel-a "$KA" -o "$T/results"
  python3 - "$T/results/$RA" <<'EOF2' || fail "guest profile"
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "readtwice.json")))
t = {x["title"]: x for x in d["tables"]}
for title in ("readtwice lru_lock wait", "readtwice lru_lock contended", "readtwice sys CPU %"):
    assert t[title]["explains"] is True, title
assert sorted(o["op"] for o in t["readtwice lru_lock wait"]["ops"]) == ["memcgs-1", "memcgs-2"]
prof = [e["profile"] for e in d["details"] if "profile" in e]
assert len(prof) == 2 and all(p["status"] == "ok" for p in prof), prof
run = json.load(open(os.path.join(sys.argv[1], "run.json")))
assert run["profile"]["lock_source"] == "perf lock contention", run["profile"]
# cgroup v2 in the guest: user and sys from the run cgroup's cpu.stat
assert run["profile"]["cpu_source"] == "cgroup2 cpu.stat of the run cgroup", run["profile"]
EOF2
  assert_file "$T/results/$RA/logs/profile-readtwice-memcgs-2-lock.txt"
  vm_no_leftovers
}

# Guest RAM on huge pages (memfd hugetlb=on), bound to a host node: the
# test reserves the pages it needs and gives them back (a sysctl it changes
# and restores, trap included).
test_vm_hugetlb_backend() {
  vm_kernels
  local want=256
  # a global: the EXIT trap runs after this function's locals are gone (with
  # a local, set -u failed the trap and every run leaked 256 pages: this
  # machine had 1792 reserved)
  HUGE_BEFORE=$(cat /proc/sys/vm/nr_hugepages)
  trap 'echo "$HUGE_BEFORE" > /proc/sys/vm/nr_hugepages; lib_teardown' EXIT
  echo $((HUGE_BEFORE + want)) > /proc/sys/vm/nr_hugepages
  [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -ge "$want" ] ||
    skip "cannot reserve $want huge pages here"
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --quick -w readtwice --set readtwice.memcgs=1 \
    --set readtwice.runtime=1s --set readtwice.file_size=64M --set global.iterations=1 \
    --set global.warmup=0 --vm-memory 512M --vm-memory-backend hugetlb --vm-host-node 0 \
    --kernel-a "$KA" -o "$T/results"
  python3 - "$T/results/$RA/run.json" <<'PY' || fail "guest RAM not on bound huge pages"
import json, sys
pl = json.load(open(sys.argv[1]))["vm"]["placement"]
assert pl["memory_backend"] == "hugetlb" and pl["host_nodes"] == [0], pl
mem = pl["applied"]["memory"]
assert len(mem) == 1 and mem[0]["policy"] == "bind:0" and mem[0]["page_kb"] == 2048, mem
assert mem[0]["pages"].get("0", 0) > 0, mem
# vCPUs float: host_node alone binds memory only
assert all(v["cpus_allowed"] != "?" for v in pl["applied"]["vcpus"]), pl
PY
  vm_no_leftovers
}

# Issue 30 point 9: the guest sees only what it was given and writes only its
# own label. A hostile "build" (kernbench's fake tree, run as root in the
# guest) tries to read a canary under the host's /root, /etc/shadow, a file
# beside the suite's own input in the current folder, and the host root
# over 9p; writes another label's run.json and a new label; and leaves a
# symlink, a device node, a FIFO and a setuid file in its own results.
test_vm_guest_sees_only_its_exports() {
  vm_kernels
  local R=$T/results L=base
  # a global, for the EXIT trap (see test_vm_hugetlb_backend)
  CANARY=/root/lrubench-canary-$$-$RANDOM
  local canary=$CANARY
  trap 'rm -f "$CANARY"; lib_teardown' EXIT
  echo "canary $$ $RANDOM" > "$canary"; chmod 600 "$canary"
  echo "beside the input" > "$T/beside.txt"
  mkdir -p "$T/tmp" "$R/victim" "$T/src"
  printf '{"label": "victim", "status": "complete"}\n' > "$R/victim/run.json"
  cp "$R/victim/run.json" "$T/victim.orig"
  mkdir -p "$T/src/fakelinux/init"
  cat > "$T/src/fakelinux/Makefile" <<MK
# a hostile build for lrubench's VM tests: each line may fail, the build not
tinyconfig defconfig allnoconfig:
	echo "CONFIG_FAKE_\$@=y" > .config
init/:
	-cp $canary $R/$L/canary-copy
	-cp /etc/shadow $R/$L/shadow-copy
	-cp $T/beside.txt $R/$L/beside-copy
	-mkdir -p /mnt/h && mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /mnt/h && cp /mnt/h$canary $R/$L/hostroot-copy
	-mkdir -p $R/victim && echo forged > $R/victim/run.json
	-mkdir -p $R/intruder && echo x > $R/intruder/run.json
	-ln -sf /etc/passwd $R/$L/evil-link
	-mknod $R/$L/evil-dev c 1 3
	-mkfifo $R/$L/evil-fifo
	-echo x > $R/$L/evil-suid && chmod 4755 $R/$L/evil-suid
	echo built > init/built
clean:
	rm -f init/built
.PHONY: tinyconfig defconfig allnoconfig init/ clean
MK
  : > "$T/src/fakelinux/init/.keep"
  tar -C "$T/src" -cf "$T/src.tar" fakelinux
  cd "$T" || fail "cd $T"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --quick -w kernbench --set kernbench.source="$T/src.tar" \
    --set global.iterations=1 --set global.warmup=0 --kernel-a "$KA" --label-a $L -o "$R"
  assert_eq "$(json_get "$R/$L/run.json" "['status']")" complete "status"
  # the build really ran in the guest (its log came home)
  ls "$R/$L"/logs/kernbench-*.log >/dev/null 2>&1 || fail "no kernbench log came home"
  local f
  for f in canary-copy shadow-copy beside-copy hostroot-copy evil-link evil-dev evil-fifo; do
    [ ! -e "$R/$L/$f" ] && [ ! -L "$R/$L/$f" ] || fail "the guest's $f arrived on the host: $(ls -l "$R/$L/$f")"
  done
  if grep -rqsF "$(cat "$canary")" "$R"; then fail "the canary's text is in the results"; fi
  # a setuid file arrives, if at all, as a plain file
  if [ -e "$R/$L/evil-suid" ]; then
    [ -f "$R/$L/evil-suid" ] && [ ! -u "$R/$L/evil-suid" ] && [ ! -g "$R/$L/evil-suid" ] ||
      fail "evil-suid arrived as $(ls -l "$R/$L/evil-suid")"
  fi
  cmp -s "$R/victim/run.json" "$T/victim.orig" || fail "the guest rewrote another label: $(cat "$R/victim/run.json")"
  assert_no_file "$R/intruder"
  local left; left=$(find "$R" \( -type l -o -type b -o -type c -o -type p -o -type s -o -perm /6000 \) -print)
  [ -z "$left" ] || fail "links, devices or set-id files in the results: $left"
  [ -z "$(find "$R" ! -user root -print)" ] || fail "files not owned by root: $(find "$R" ! -user root)"
  vm_no_leftovers
}

# Bad boot options and host side keys, refused before anything boots (no VM
# needed: the image is a fake with a real boot header).
test_vm_boot_options_refused() {
  need_root
  vm_fake_bzimage "$T/bzImage" "9.9.9-lrubench"
  local long
  long=$(printf 'x%.0s' $(seq 1025))
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --kernel-b "$T/bzImage" --label-b b \
    --cmdline-b 'quiet "a b"' -o "$T/results"
  assert_grep_err "cmdline-b: byte 0x22 at offset 6"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --cmdline-a "$(printf 'a\nb')" -o "$T/results"
  assert_grep_err "cmdline-a: byte 0x0a at offset 1"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --cmdline-a "rdinit=/bin/sh" -o "$T/results"
  assert_grep_err "VM mode sets rdinit= itself"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --cmdline-a "$long" -o "$T/results"
  assert_grep_err "cmdline-a: 1025 bytes of boot options, at most 1024"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --kernel "c=$T/bzImage lrubench.virt=kvm" -o "$T/results"
  assert_grep_err "kernel c: 'lrubench.virt=kvm': lrubench.\* options are VM mode's own"
  expect_exit 2 "$LRUBENCH" run --kernel-a host --cmdline-a quiet -o "$T/results"
  assert_grep_err "the running kernel (host) was booted already"
  # host knobs: outside the allowed trees, twice, not KNOB=VALUE
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --vm-host-settings kernel.panic=1 -o "$T/results"
  assert_grep_err "vm.host_settings (--vm-host-settings kernel.panic=1): "
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" \
    --vm-host-settings "vm.swappiness=10, vm.swappiness=20" -o "$T/results"
  assert_grep_err "vm.swappiness is set twice"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --vm-host-settings "vm.swappiness" -o "$T/results"
  assert_grep_err "'vm.swappiness' is not KNOB=VALUE"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --vm-balloon-target 1G -o "$T/results"
  assert_grep_err "vm.balloon_target needs vm.balloon = free-page-reporting"
  assert_no_file "$T/results"
}

# vm.balloon = free-page-reporting on a qemu whose virtio-balloon-pci lacks
# the property (before 5.1): exit 3 before anything boots or is made. Mocked:
# this machine's qemu has the property, so a stand-in on PATH answers the
# device help as an older one would (its only use here).
test_vm_balloon_on_a_qemu_without_free_page_reporting() {
  vm_kernels   # a real image: a fake one is refused before the tools are checked
  mkdir -p "$T/bin"
  cat > "$T/bin/qemu-system-x86_64" <<'SH'
#!/bin/sh
# an older qemu's answer to -device virtio-balloon-pci,help
echo "virtio-balloon-pci options:"
echo "  deflate-on-oom=<bool>  - on/off (default: false)"
echo "  guest-stats-polling-interval=<int>"
SH
  chmod +x "$T/bin/qemu-system-x86_64"
  PATH=$T/bin:$PATH expect_exit 3 "$LRUBENCH" run --kernel-a "$KA" \
    --vm-balloon free-page-reporting -o "$T/results"
  assert_grep_err "vm.balloon = free-page-reporting: qemu-system-x86_64 has no virtio-balloon-pci device with the free-page-reporting property (qemu 5.1 or later)"
  assert_no_file "$T/results"
}

# The 000 thread's diagnosis of the mmap-read regression as one VM A/B: one
# image booted twice, the second with cgroup_disable=memory; mmapread with
# memcgs = 0 runs in both, the second with no memory controller. The guest's
# own /proc/cmdline shows each boot's options; the gate passes one build in
# two boot settings and says why. The host side in the same run: a host knob
# held for the boots and put back, the balloon device bound in the guest with
# a target asked, qemu's RSS recorded per round.
test_vm_boot_options_memcg_off() {
  vm_kernels
  mkdir -p "$T/tmp"
  local sw want rj
  sw=$(cat /proc/sys/vm/swappiness)
  want=$(( sw == 10 ? 11 : 10 ))
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --quick -w mmapread --set mmapread.memcgs=0 \
    --set mmapread.tasks_per_memcg=1 --set mmapread.file_size=64M --set mmapread.runtime=2s \
    --set global.iterations=2 \
    --kernel-a "$KA" --label-a memcg --kernel-b "$KA" --label-b nomemcg --cmdline-b cgroup_disable=memory \
    --vm-host-settings "vm.swappiness=$want" --vm-balloon free-page-reporting --vm-balloon-target 1536M \
    --vm-rss-interval 2s -o "$T/results"
  assert_eq "$(cat /proc/sys/vm/swappiness)" "$sw" "host swappiness put back"
  assert_grep "host: vm.swappiness = $want for the boots (was $sw)" "$T/out"
  for l in memcg nomemcg; do
    rj=$T/results/$l/run.json
    assert_eq "$(json_get "$rj" "['status']")" complete "status of $l"
    vm_positive_samples "$T/results/$l/mmapread.json"
    assert_eq "$(json_get "$rj" "['vm']['host_settings']['vm.swappiness']['during']")" "$want" "host knob of $l"
    assert_eq "$(json_get "$rj" "['vm']['balloon']")" free-page-reporting "balloon of $l"
    assert_grep "virtio devices bound: .*virtio_balloon/virtio" "$T/results/$l/logs/vm-console.log"
    python3 - "$rj" <<'PY' || fail "qemu memory of $l"
import json, sys
vm = json.load(open(sys.argv[1]))["vm"]
m = vm["qemu_memory"]
assert len(m) == 1 and m[0]["round"] == 1, m
assert m[0]["rss_kb"] and all(x > 0 for x in m[0]["rss_kb"]), m
assert m[0]["hwm_kb"] >= m[0]["max_rss_kb"] > 0, m
assert m[0]["balloon"]["target"] == 1536 << 20 and m[0]["balloon"]["asked"] is True, m
assert vm["host"]["kernel_release"] and "thp" in vm["host"]["state"], vm["host"]
PY
  done
  # each boot as asked, as the guest itself saw it
  assert_eq "$(json_get "$T/results/memcg/run.json" "['vm']['boot_options']")" "" "A's options"
  assert_eq "$(json_get "$T/results/nomemcg/run.json" "['vm']['boot_options']")" cgroup_disable=memory "B's options"
  assert_eq "$(json_get "$T/results/nomemcg/run.json" "['vm']['boot_options_seen']")" True "B's seen"
  assert_grep "cgroup_disable=memory" <(json_get "$T/results/nomemcg/run.json" "['system']['cmdline']")
  if json_get "$T/results/memcg/run.json" "['system']['cmdline']" | grep -q cgroup_disable; then
    fail "A booted with cgroup_disable"
  fi
  # no memory controller in B: its details say so; A had one
  assert_grep "no memory controller" "$T/results/nomemcg/mmapread.json"
  if grep -q "no memory controller" "$T/results/memcg/mmapread.json"; then fail "A ran without memcg"; fi
  # one build, two boot settings: said first, and the gate passes it with the reason
  assert_grep "set by the run: boot options *(none) | cgroup_disable=memory" "$T/out"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 100000 "$T/results/memcg" "$T/results/nomemcg"
  assert_grep_err "same kernel, compared on purpose: .*boot options): memcg, nomemcg"
  vm_no_leftovers
}

# A kernel's own knobs inside its guest (vm.settings_a/_b, vm.kernel_settings):
# what needs no kernel is refused before anything boots or is made (no VM
# needed: the image is a fake), and a dry run shows them on the guest's line.
test_vm_guest_settings_refused() {
  need_root
  vm_fake_bzimage "$T/bzImage" "9.9.9-lrubench"
  local R=("$LRUBENCH" run --kernel-a "$T/bzImage" --kernel-b "$T/bzImage" --label-b b -o "$T/results")
  expect_exit 2 "${R[@]}" --settings-b kernel.panic=1
  assert_grep_err "vm.settings_b (--settings-b kernel.panic=1): "
  expect_exit 2 "${R[@]}" --settings-b "vm.swappiness=10, /proc/sys/vm/swappiness=20"
  assert_grep_err "is set twice (one value for one knob of a guest)"
  expect_exit 2 "${R[@]}" --settings-a vm.swappiness
  assert_grep_err "'vm.swappiness' is not KNOB=VALUE"
  expect_exit 2 "${R[@]}" --settings-a vm.swappiness=keep
  assert_grep_err "vm.swappiness = keep: keep is \[settings\]' word"
  # the suite's [settings] are every guest's: one knob, one value
  printf '[settings]\nvm.swappiness = 60\n' > "$T/suite.conf"
  expect_exit 2 "${R[@]}" -c "$T/suite.conf" --settings-b vm.swappiness=10
  assert_grep_err "vm.swappiness is also set by the suite's \[settings\] ($T/suite.conf:2)"
  expect_exit 2 "${R[@]}" --kernel "c=$T/bzImage" --set vm.kernel_settings=d:vm.swappiness=1
  assert_grep_err "'d' is no kernel of vm.kernels"
  expect_exit 2 "$LRUBENCH" run --kernel-a "$T/bzImage" --settings-b vm.swappiness=1 -o "$T/results"
  assert_grep_err "settings-b without --kernel-b"
  # a kernel run natively sets its knob on the host, where vm.host_settings holds it
  expect_exit 2 "$LRUBENCH" run --kernel-a host --settings-a vm.swappiness=10 \
    --vm-host-settings vm.swappiness=20 -o "$T/results"
  assert_grep_err "vm.swappiness is also in vm.host_settings, and --kernel-a runs on the host"
  assert_no_file "$T/results"
  # each guest's run gets its own, after the suite's options
  expect_exit 0 "$LRUBENCH" run --dry-run --quick -w readtwice --kernel-a host --label-a a \
    --settings-a "vm.swappiness=10" --kernel-b host --label-b b -o "$T/results"
  assert_grep "settings: vm.swappiness = 10 (vm.settings_a (--settings-a vm.swappiness=10))" "$T/out"
  assert_grep "runs: .* --quick --set settings.vm.swappiness=10 --label a " "$T/out"
  if grep -q "settings.vm.swappiness=10 --label b" "$T/out"; then fail "kernel B got A's knob"; fi
  assert_no_file "$T/results"
}

# One kernel (the running one, natively: no boot) in two knob settings as
# one VM-mode comparison: each label's run sets, records and restores its
# own knob; vm.settings says it was applied; compare names the difference
# first and the gate passes one build in two settings without
# --allow-same-kernel.
test_vm_host_kernel_two_settings() {
  need_root
  [ -w /proc/sys/vm/swappiness ] || skip "no /proc/sys/vm/swappiness"
  local sw a b
  sw=$(cat /proc/sys/vm/swappiness)
  a=$(( sw == 10 ? 11 : 10 )); b=$(( sw == 70 ? 71 : 70 ))
  expect_exit 0 "$LRUBENCH" run --quick -w readtwice --set readtwice.memcgs=1 --set readtwice.runtime=1s \
    --set readtwice.file_size=64M --set global.iterations=2 --set global.warmup=0 \
    --kernel-a host --label-a "sw$a" --settings-a "vm.swappiness=$a" \
    --kernel-b host --label-b "sw$b" --settings-b "vm.swappiness=$b" -o "$T/results"
  assert_eq "$(cat /proc/sys/vm/swappiness)" "$sw" "swappiness put back"
  assert_eq "$(json_get "$T/results/sw$a/run.json" "['settings']['vm.swappiness']['during']")" "$a" "A's knob"
  assert_eq "$(json_get "$T/results/sw$b/run.json" "['settings']['vm.swappiness']['during']")" "$b" "B's knob"
  assert_eq "$(json_get "$T/results/sw$b/run.json" "['vm']['settings']['vm.swappiness']['applied']")" True "B applied"
  assert_eq "$(json_get "$T/results/sw$a/run.json" "['vm']['settings']['vm.swappiness']['origin']")" \
    "vm.settings_a (--settings-a vm.swappiness=$a)" "A's origin"
  assert_grep "set by the run: vm.swappiness *$a | $b" "$T/out"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 100000 "$T/results/sw$a" "$T/results/sw$b"
  assert_grep_err "same kernel, compared on purpose: .*: sw$a, sw$b"
  assert_no_leaks
}

# The issue's VM A/B of one image in two guest settings: swappiness and the
# THP mode set inside each guest, as its own run read them back; with the
# balloon, the guest's own free memory beside qemu's RSS in each round.
test_vm_guest_settings_and_free_memory() {
  vm_kernels
  mkdir -p "$T/tmp"
  local thp=/sys/kernel/mm/transparent_hugepage/enabled rj
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --quick -w readtwice --set readtwice.memcgs=1 \
    --set readtwice.runtime=2s --set readtwice.file_size=64M --set global.iterations=2 \
    --set global.warmup=0 \
    --kernel-a "$KA" --label-a thpalways --settings-a "vm.swappiness=10, $thp=always" \
    --kernel-b "$KA" --label-b thpmadvise --settings-b "vm.swappiness=60, $thp=madvise" \
    --vm-balloon free-page-reporting --vm-rss-interval 2s -o "$T/results"
  for l in thpalways thpmadvise; do
    rj=$T/results/$l/run.json
    assert_eq "$(json_get "$rj" "['status']")" complete "status of $l"
    vm_positive_samples "$T/results/$l/readtwice.json"
    python3 - "$rj" "$l" "$thp" <<'PY' || fail "settings or guest memory of $l"
import json, sys
r = json.load(open(sys.argv[1])); label, thp = sys.argv[2], sys.argv[3]
want = {"thpalways": ("10", "always"), "thpmadvise": ("60", "madvise")}[label]
assert r["settings"]["vm.swappiness"]["during"] == want[0], r["settings"]
assert r["settings"][thp]["during"] == want[1], r["settings"]
assert all(e["applied"] for e in r["vm"]["settings"].values()), r["vm"]["settings"]
m = r["vm"]["qemu_memory"][0]
n = len(m["rss_kb"])
assert n >= 2 and len(m["guest_free_kb"]) == n and len(m["balloon_actual_kb"]) == n, m
free = [x for x in m["guest_free_kb"] if x is not None]
actual = [x for x in m["balloon_actual_kb"] if x is not None]
# the guest reported once its driver was loaded: free memory within its RAM
assert free and all(0 < x < 2 * 1024 * 1024 for x in free), m
assert actual and all(x == 2 * 1024 * 1024 for x in actual), m
assert "guest_stats_error" not in m, m
PY
  done
  assert_grep "set by the run: vm.swappiness *10 | 60" "$T/out"
  assert_grep "set by the run: $thp *always | madvise" "$T/out"
  expect_exit 0 "$LRUBENCH" compare --fail-on-regression 100000 "$T/results/thpalways" "$T/results/thpmadvise"
  assert_grep_err "same kernel, compared on purpose: .*thpalways, thpmadvise"
  vm_no_leftovers
}

vm_qemu_gone() { ! pgrep -f "qemu-system-x86_64.*$T/" >/dev/null; }

# SIGKILL while vm.host_settings hold a host knob: nothing can undo it then,
# so the knob and its marker stay; qemu dies with its parent; the next VM
# run (a dry run) puts the knob back from the marker before anything else
# and sweeps the killed run's temporary folder; no cgroup or mount is left.
test_vm_sigkill_host_settings_next_run_restores() {
  vm_kernels
  [ -w /proc/sys/vm/swappiness ] || skip "no /proc/sys/vm/swappiness"
  mkdir -p "$T/tmp"
  local sw want pid i
  sw=$(cat /proc/sys/vm/swappiness)
  want=$(( sw == 10 ? 11 : 10 ))
  TMPDIR=$T/tmp "$LRUBENCH" run "${VM_SUITE[@]}" --set global.workdir="$T/work" --kernel-a "$KA" \
    --vm-host-settings "vm.swappiness=$want" -o "$T/results" >"$T/out" 2>"$T/err" &
  pid=$!
  for i in $(seq 1 600); do
    pgrep -f "qemu-system-x86_64.*$T/tmp" >/dev/null && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.5
  done
  vm_qemu_gone && { kill -KILL $pid; wait $pid; cat "$T/err"; fail "qemu never started"; }
  assert_eq "$(cat /proc/sys/vm/swappiness)" "$want" "the host knob held for the boot"
  kill -KILL $pid; wait $pid 2>/dev/null
  assert_eq "$(cat /proc/sys/vm/swappiness)" "$want" "a SIGKILLed run leaves its value (nothing can undo it)"
  ls "$T/work" | grep -q "lrubench-knob-$pid\." || fail "no marker of run $pid in $T/work"
  wait_for "qemu to die with its parent" vm_qemu_gone
  [ -n "$(ls -d "$T"/tmp/lrubench-vm.$pid-* 2>/dev/null)" ] || fail "the killed run's temporary folder is gone already?"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run --dry-run "${VM_SUITE[@]}" --set global.workdir="$T/work" \
    --kernel-a "$KA" -o "$T/results"
  assert_grep_err "put /proc/sys/vm/swappiness back to '$sw': run $pid was killed"
  assert_eq "$(cat /proc/sys/vm/swappiness)" "$sw" "vm.swappiness as before the killed run"
  [ -z "$(ls "$T/work" | grep lrubench-knob-)" ] || fail "markers left: $(ls "$T/work")"
  [ -z "$(find /sys/fs/cgroup -maxdepth 3 -name "lrubench-$pid*" 2>/dev/null)" ] || fail "cgroups of run $pid left"
  assert_no_file "$T/results/$RA/run.json"
  vm_no_leftovers
}
