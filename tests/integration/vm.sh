# SPDX-License-Identifier: GPL-2.0-or-later
# VM mode: `lrubench run --kernel-a IMG --kernel-b IMG`. The bad-input tests
# need no VM and always run. The boot tests need LRUBENCH_TEST_VM=1 (.ci/run
# sets it): they unpack two Debian kernel packages (apt-get download +
# dpkg-deb -x, nothing installed) into $LRUBENCH_TEST_KERNELS (default
# /var/cache/lrubench-test-kernels) and boot them under qemu (TCG here: KVM
# exists on this machine but runs guests far too slowly, and the probe says so).

# A file with a real x86 boot header ("HdrS" at 0x202, kernel_version at
# 0x20e) and no kernel behind it: enough for everything lrubench checks
# before it boots. Mocked because a kernel without 9p cannot be had otherwise
# without the cloud package download.
vm_fake_bzimage() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
path, release = sys.argv[1], sys.argv[2]
buf = bytearray(0x1000)
buf[0x202:0x206] = b"HdrS"
struct.pack_into("<H", buf, 0x206, 0x20f)
struct.pack_into("<H", buf, 0x20e, 0x3c0)
s = (release + " (test@lrubench) #1 SMP").encode() + b"\0"
buf[0x5c0:0x5c0 + len(s)] = s
open(path, "wb").write(buf)
PY
}

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
  assert_grep "rounds: 2, timeout per boot: 1200 s" "$T/out"
  assert_grep "runs: .* -c $T/ab.conf -w readtwice --quick --set vm.kernel_a= --set vm.kernel_b= --label fromini" "$T/out"
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

# Sets KA/KB (images) and RA/RB (releases): Debian 6.1 amd64 and rt-amd64.
vm_kernels() {
  [ "${LRUBENCH_TEST_VM:-0}" = 1 ] || skip "VM tests boot kernels under qemu: set LRUBENCH_TEST_VM=1 (needs apt access for two Debian kernel packages)"
  need_root
  need_cmd qemu-system-x86_64 qemu-system-x86
  need_cmd apt-get apt
  local cache=${LRUBENCH_TEST_KERNELS:-/var/cache/lrubench-test-kernels} nn flavour
  nn=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-rt-amd64$' 2>/dev/null |
       sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-rt-amd64 .*/\1/p' | sort -n | tail -1)
  [ -n "$nn" ] || skip "apt knows no linux-image-6.1.0-NN-rt-amd64 package (Debian 12 sources needed)"
  mkdir -p "$cache"
  for flavour in amd64 rt-amd64; do
    if [ ! -f "$cache/$flavour/boot/vmlinuz-6.1.0-$nn-$flavour" ]; then
      ( cd "$cache" && apt-get download "linux-image-6.1.0-$nn-$flavour" >/dev/null 2>&1 ) ||
        skip "cannot apt-get download linux-image-6.1.0-$nn-$flavour"
      rm -rf "$cache/$flavour"
      dpkg-deb -x "$cache"/linux-image-6.1.0-"$nn"-"$flavour"_*.deb "$cache/$flavour" ||
        fail "dpkg-deb -x of linux-image-6.1.0-$nn-$flavour failed"
    fi
  done
  RA=6.1.0-$nn-amd64; RB=6.1.0-$nn-rt-amd64
  KA=$cache/amd64/boot/vmlinuz-$RA; KB=$cache/rt-amd64/boot/vmlinuz-$RB
}

# A small suite: two memcg counts, short iterations.
VM_SUITE=(--quick -w readtwice --set readtwice.memcgs=1,2 --set readtwice.runtime=2s --set global.iterations=2)

# virt as announced: TCG unless the KVM probe passed
vm_expected_virt() { if grep -q "using TCG" "$T/err"; then echo tcg; else echo kvm; fi; }

vm_no_leftovers() {
  local left
  left=$(pgrep -f "qemu-system-x86_64.*$T/results" 2>/dev/null)
  [ -z "$left" ] || fail "qemu left running: $left"
  [ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left: $(ls -A "$T/tmp")"
  [ -z "$(ls -d "$T"/results/.vm-round-* 2>/dev/null)" ] || fail "staging folders left in $T/results"
  # VM mode creates no host cgroups, mounts or loop devices (the guest has its
  # own); lib.sh's assert_no_leaks would also see other concurrent runs'.
  left=$(grep " $T" /proc/mounts)
  [ -z "$left" ] || fail "mounts left behind: $left"
  left=$(pgrep -f "lrubench run .*$T/results" 2>/dev/null)
  [ -z "$left" ] || fail "lrubench processes left behind: $left"
}

vm_positive_samples() {
  python3 - "$1" <<'PY' || fail "samples of $1 are missing or not positive"
import json, sys
d = json.load(open(sys.argv[1]))
# the measured tables (the profile tables hold percentages that may be 0)
vals = [v for t in d["tables"] if not t.get("explains") for o in t["ops"] for v in o["samples"]]
assert vals and all(v > 0 for v in vals), vals
PY
}

test_vm_two_kernels() {
  vm_kernels
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" --kernel-b "$KB" -o "$T/results"
  local virt; virt=$(vm_expected_virt)
  local r
  for r in "$RA" "$RB"; do
    assert_file "$T/results/$r/run.json"
    assert_eq "$(json_get "$T/results/$r/run.json" "['status']")" complete "status of $r"
    assert_eq "$(json_get "$T/results/$r/run.json" "['system']['kernel_release']")" "$r" "kernel_release"
    assert_eq "$(json_get "$T/results/$r/run.json" "['system']['virt']")" "$virt" "system.virt of $r"
    # the project's real cgroup v2 coverage: the guest mounts cgroup2 only
    assert_eq "$(json_get "$T/results/$r/run.json" "['system']['cgroup_mode']")" v2 "cgroup_mode of $r"
    vm_positive_samples "$T/results/$r/readtwice.json"
    assert_grep "LRUBENCH-EXIT 0" "$T/results/$r/logs/vm-console.log"
  done
  [ "$RA" != "$RB" ] || fail "both images have release $RA"
  # the comparison, mmtests layout, baseline first
  grep -Eq '^Hmean +memcgs-1 ' "$T/out" || { tail -40 "$T/out"; fail "no comparison printed"; }
  assert_grep "console log of $RA: $T/results/$RA/logs/vm-console.log" "$T/out"
  vm_no_leftovers
}

test_vm_numa_two_nodes_and_rounds() {
  vm_kernels
  mkdir -p "$T/tmp"
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${VM_SUITE[@]}" --set global.numa_node=1 \
    --set vm.numa_nodes=2 --set vm.cpus=2 --set vm.rounds=2 --kernel-a "$KA" -o "$T/results"
  local rj=$T/results/$RA/run.json
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
  vm_no_leftovers
}

test_vm_guest_panic() {
  vm_kernels
  mkdir -p "$T/tmp"
  # no such init in the initramfs and no root= : the guest kernel panics
  TMPDIR=$T/tmp expect_exit 1 "$LRUBENCH" run "${VM_SUITE[@]}" --kernel-a "$KA" \
    --set vm.cmdline_extra=rdinit=/no-such-init -o "$T/results"
  assert_grep_err "panicked: Kernel panic"
  assert_grep_err "; last lines of .*/vm-console.log:"
  assert_grep "Kernel panic" "$T/results/$RA/logs/vm-console.log"
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
  assert_file "$T/results/$RA/logs/vm-console.log"
  vm_no_leftovers
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
