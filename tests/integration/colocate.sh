# SPDX-License-Identifier: GPL-2.0-or-later
# colocate against the real kernel: a probe in a high-priority memcg while
# low-priority memcgs reclaim under their limits, with page-cache pressure,
# and with anonymous pressure swapping to a zram device lrubench creates and
# removes. SIGINT and a second SIGINT mid-run leave no cgroup, zram device,
# swap or child; probe failures; bad inputs.

CO=(-w colocate --quick --set global.warmup=0)

co_need() {
  need_root
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup"
}
co_need_zram() {
  co_need
  [ -e /sys/class/zram-control/hot_add ] || skip "no zram in this kernel (CONFIG_ZRAM, or modprobe zram)"
  need_cmd mkswap util-linux
}
co_zram_devices() { ls /sys/block | grep '^zram' | sort | tr '\n' ' '; }
co_zram_swaps() { awk '$1 ~ /zram/ { print $1 }' /proc/swaps | sort | tr '\n' ' '; }
co_pressure_of() { cat /sys/fs/cgroup/memory/lrubench-$1/colocate-low-*/cgroup.procs \
  /sys/fs/cgroup/lrubench-$1/colocate-low-*/cgroup.procs 2>/dev/null; }
# the run swaps on a zram device of its own, and its pressure tasks are running
co_swapping() { [ "$(co_zram_swaps)" != "$SWAPS_BEFORE" ] && [ -n "$(co_pressure_of "$1")" ]; }

# the tables against the details of the same iterations
co_check_results() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/colocate.json"))
ks = [int(k) for k in sys.argv[2].split(",")]
t = {x["title"]: x for x in d["tables"]}
lat, rec = t["colocate high-priority latency"], t["colocate low-priority reclaim rate"]
assert lat["unit"] == "usec" and lat["better"] == "lower", lat
assert rec["unit"] == "pages/s" and rec["better"] == "higher", rec
for x in (lat, rec):
    assert x["x_axis"] == {"name": "low-priority memcgs", "unit": "count"}, x["x_axis"]
ops = {o["op"]: o["samples"] for o in lat["ops"]}
want = ["%s-%d" % (p, k) for k in ks for p in ("p50", "p99", "max")]
assert sorted(ops) == sorted(want), (sorted(ops), want)
rops = {o["op"]: o["samples"] for o in rec["ops"]}
assert sorted(rops) == sorted("reclaim-%d" % k for k in ks if k), rops
for k in ks:
    det = [x for x in d["details"] if x["step"] == "low-%d" % k]
    assert det, k
    for i, x in enumerate(det):
        p50, p99, mx = (ops["%s-%d" % (p, k)][i] for p in ("p50", "p99", "max"))
        assert 0 < p50 <= p99 <= mx, (k, p50, p99, mx)
        assert x["ops"] > 1000, x
        assert len(x["low_reclaimed_pages"]) == k, x
        if k:
            # the rate is the low memcgs' reclaimed pages over the probe's window
            rate = sum(x["low_reclaimed_pages"]) / x["window_seconds"]
            got = rops["reclaim-%d" % k][i]
            assert got > 0 and abs(rate - got) <= 1e-6 * got, (rate, got)
print("ok")
PY
}

test_colocate_file_pressure() {
  co_need
  expect_exit 0 "$LRUBENCH" run "${CO[@]}" -i 2 -o "$T/r" --label f --set colocate.low_memcgs=0,2
  co_check_results "$T/r/f" 0,2 >"$T/check" || { cat "$T/check"; fail "results"; }
  assert_grep "^colocate: probe read; low memcgs: file pressure, working set 96M over a 48M limit" "$T/out"
  assert_no_leaks
}

test_colocate_anon_pressure_on_zram_swap() {
  co_need_zram
  local before swaps
  before=$(co_zram_devices); swaps=$(co_zram_swaps)
  expect_exit 0 "$LRUBENCH" run "${CO[@]}" -i 1 -o "$T/r" --label z --set colocate.low_memcgs=0,1 \
    --set colocate.low_kind=anon --set colocate.swap=zram --set colocate.probe=anon
  co_check_results "$T/r/z" 0,1 >"$T/check" || { cat "$T/check"; fail "results"; }
  local dev; dev=$(json_get "$T/r/z/run.json" '["workload_facts"]["colocate"]["swap_device"]')
  case $dev in /dev/zram[0-9]*) ;; *) fail "no zram device recorded: $dev" ;; esac
  # the anonymous pressure went to that device: it held pages during low-1
  python3 - "$T/r/z/colocate.json" <<'PY' || fail "nothing was swapped to zram"
import json, sys
d = json.load(open(sys.argv[1]))
x = [x for x in d["details"] if x["step"] == "low-1"][0]
assert x["zram_stored_bytes"] > 0, x
PY
  assert_eq "$(co_zram_devices)" "$before" "zram devices after the run"
  assert_eq "$(co_zram_swaps)" "$swaps" "zram swaps after the run"
  assert_no_leaks
}

co_interrupt() {   # co_interrupt SIGNALS...: start a long run, signal it mid-probe
  local before swaps pid
  before=$(co_zram_devices); SWAPS_BEFORE=$(co_zram_swaps)
  "$LRUBENCH" run "${CO[@]}" -i 3 -o "$T/r" --label "i$#" --set colocate.low_memcgs=1 \
    --set colocate.low_kind=anon --set colocate.swap=zram --set colocate.runtime=60s \
    >"$T/out" 2>"$T/err" &
  pid=$!
  wait_for "the run's zram swap and pressure" co_swapping $pid
  for s in "$@"; do kill "-$s" $pid; done
  wait $pid; assert_eq "$?" 130 "exit after $*"
  assert_eq "$(co_zram_devices)" "$before" "zram devices after $*"
  assert_eq "$(co_zram_swaps)" "$SWAPS_BEFORE" "zram swaps after $*"
  [ -z "$(co_pressure_of $pid)" ] || fail "pressure tasks left"
  assert_no_leaks
}

test_colocate_sigint_removes_zram_swap() {
  co_need_zram
  co_interrupt INT
  assert_grep_err "interrupted"
}

test_colocate_double_sigint_removes_zram_swap() {
  co_need_zram
  co_interrupt INT INT
}

# mkswap missing (hidden under an empty tmpfs on /usr/sbin and /sbin, in a
# mount namespace of the test's own): exit 3 naming it; nothing is created.
test_colocate_probe_without_mkswap() {
  co_need_zram
  need_cmd unshare util-linux
  local before; before=$(co_zram_devices)
  expect_exit 3 unshare -m --propagation private sh -c \
    'for d in /usr/sbin /sbin /usr/local/sbin; do [ -d "$d" ] && ! [ -L "$d" ] && mount -t tmpfs lrubench-hide "$d"; done; exec "$@"' \
    sh "$LRUBENCH" run "${CO[@]}" -i 1 -o "$T/r" --label p --set colocate.swap=zram
  assert_grep_err "workload colocate cannot run here: mkswap not found: install the Debian package util-linux"
  assert_no_file "$T/r/p"
  assert_eq "$(co_zram_devices)" "$before" "zram devices"
  assert_no_leaks
}

test_colocate_probe_without_memcg() {
  need_root
  need_cmd unshare util-linux
  expect_exit 3 without_cgroup_fs "$LRUBENCH" run "${CO[@]}" -i 1 -o "$T/r" --label p
  assert_grep_err "workload colocate cannot run here: no memory cgroup controller"
  assert_no_leaks
}

test_colocate_bad_inputs() {
  co_need
  expect_exit 2 "$LRUBENCH" run "${CO[@]}" -o "$T/r" --label b --set colocate.low_limit=96M
  assert_grep_err "colocate.low_limit 96M must be below colocate.low_wss 96M"
  expect_exit 2 "$LRUBENCH" run "${CO[@]}" -o "$T/r" --label b --set colocate.low_kind=anon
  assert_grep_err "colocate.low_kind = anon needs colocate.swap = zram"
  expect_exit 2 "$LRUBENCH" run "${CO[@]}" -o "$T/r" --label b --set colocate.swap=zram \
    --set colocate.swap_size=lots
  assert_grep_err "colocate.swap_size: 'lots' is not a size"
  expect_exit 2 "$LRUBENCH" run "${CO[@]}" -o "$T/r" --label b --set colocate.probe=write
  assert_grep_err "colocate.probe: 'write' is not one of read|anon"
  assert_no_file "$T/r/b"
  assert_no_leaks
}

# SIGKILL runs no undo: the killed run's zram swap stays until the next run
# with swap on zram finds its marker (pid dead, same size) and removes it.
test_colocate_sigkill_then_next_run_removes_zram() {
  co_need_zram
  local before pid
  before=$(co_zram_devices); SWAPS_BEFORE=$(co_zram_swaps)
  "$LRUBENCH" run "${CO[@]}" -i 3 -o "$T/r" --label k --set colocate.low_memcgs=1 \
    --set colocate.low_kind=anon --set colocate.swap=zram --set colocate.runtime=60s \
    --set "global.workdir=$T/work" >"$T/out" 2>"$T/err" &
  pid=$!
  wait_for "the run's zram swap and pressure" co_swapping $pid
  kill -KILL $pid; wait $pid 2>/dev/null
  [ "$(co_zram_devices)" != "$before" ] || fail "the killed run's zram device is already gone?"
  ls "$T/work"/lrubench-zram-$pid.* >/dev/null 2>&1 || fail "no marker of the killed run's device"
  expect_exit 0 "$LRUBENCH" run "${CO[@]}" -i 1 -o "$T/r" --label next --set colocate.low_memcgs=0 \
    --set colocate.swap=zram --set "global.workdir=$T/work"
  assert_grep_err "removing /dev/zram[0-9]*, the zram swap of run $pid, which was killed"
  assert_eq "$(co_zram_devices)" "$before" "zram devices after the next run"
  assert_eq "$(co_zram_swaps)" "$SWAPS_BEFORE" "zram swaps after the next run"
  ls "$T/work"/lrubench-zram-* >/dev/null 2>&1 && fail "markers left: $(ls "$T/work")"
  assert_no_leaks
}
