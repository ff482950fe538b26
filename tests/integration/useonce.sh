# SPDX-License-Identifier: GPL-2.0-or-later
# useonce against the real kernel: a data file of real blocks (twice the
# memcg limit) read by read() at 4096 and 5000 bytes and by mmap, every
# number checked against the details behind it; a mapped protected working
# set whose major faults appear when the streamer pushes it out; a work
# folder too small (a loop-mounted ext4 in the test's own mount namespace)
# or on tmpfs refused with exit 3; bad values with exit 2; a streamer killed
# mid-run fails its op only; SIGINT leaves nothing, data file included.
# run-tests: timeout=900

UO=(-w useonce -i 1 --set global.warmup=0 --set useonce.memcg_limit=32M --set useonce.passes=2)

# The work folder of these runs, on the filesystem $T is on: real disk
# blocks, not tmpfs (then the workload refuses, tested below on purpose).
uo_workdir() {
  [ "$(stat -f -c %T "$T")" != tmpfs ] || skip "$T is on tmpfs: useonce needs a disk-backed work folder"
  echo "$T/work"
}
# data files of any run under the work folder
uo_files_left() { find "$1" -name 'useonce-*' 2>/dev/null; }
# pids in the run's useonce memcg
uo_tasks_of() { cat /sys/fs/cgroup/memory/lrubench-$1/useonce-0/cgroup.procs \
  /sys/fs/cgroup/lrubench-$1/useonce-0/cgroup.procs 2>/dev/null; }
uo_has_task() { [ -n "$(uo_tasks_of "$1")" ]; }

# Both modes, a file of 2x the memcg limit: elapsed, CPU % and refaults of
# every pass recorded, and the details agree with the tables.
test_useonce_both_modes_record_elapsed_cpu_refaults() {
  need_root
  local w; w=$(uo_workdir) || exit $?
  expect_exit 0 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label a --set global.workdir="$w"
  assert_grep_err "useonce needs .* of disk in the work folder $w"
  python3 - "$T/r/a" <<'PY' || fail "useonce.json"
import json, sys
d = json.load(open(sys.argv[1] + "/useonce.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["status"] == "complete", run["status"]
fact = run["workload_facts"]["useonce"]["data_file"]
size = 2 * 32 << 20
assert fact["bytes"] == size and fact["write_seconds"] > 0, fact
t = {x["title"]: {o["op"]: o["samples"] for o in x["ops"]} for x in d["tables"]}
steps = ["read-4096", "read-5000", "mmap"]
for title in ("useonce elapsed s", "useonce CPU %", "useonce MB/s"):
    assert sorted(t[title]) == sorted(steps), (title, t[title])
assert "useonce protected set major faults" not in t, "no protected set was asked for"
for step in steps:
    det = [x for x in d["details"] if x["step"] == step]
    assert len(det) == 1, (step, det)
    x = det[0]
    assert x["mode"] == step.split("-")[0] and x["file_bytes"] == size, x
    if step.startswith("read"):
        assert x["block"] == int(step.split("-")[1]), x
    assert len(x["passes"]) == 2, x["passes"]
    el = cpu = 0
    for i, p in enumerate(x["passes"], 1):
        op = "%s-pass-%d" % (step, i)
        # every pass read the whole file, took time and CPU
        assert p["bytes"] == size and p["elapsed"] > 0 and p["user"] + p["sys"] > 0, p
        assert abs(t["useonce elapsed s per pass"][op][0] - p["elapsed"]) < 1e-9, (op, p)
        pct = 100 * (p["user"] + p["sys"]) / p["elapsed"]
        assert abs(t["useonce CPU % per pass"][op][0] - pct) < 1e-6, (op, p)
        assert abs(t["useonce MB/s per pass"][op][0] - size / p["elapsed"] / 1e6) < 1e-6, op
        r = t["useonce workingset_refault/s per pass"][op][0]
        assert abs(r - p["workingset_refault"] / p["elapsed"]) < 1e-6, (op, r, p)
        el += p["elapsed"]; cpu += p["user"] + p["sys"]
    assert abs(t["useonce elapsed s"][step][0] - el) < 1e-9, step
    assert abs(t["useonce CPU %"][step][0] - 100 * cpu / el) < 1e-6, step
    # the file is twice the limit: the second pass finds the first one's
    # pages evicted and its shadows still there (refaults, the memcg's own count)
    assert x["counter_source"]["workingset_refault"] == "memory.stat of the memcg", x["counter_source"]
    assert x["passes"][1]["workingset_refault"] > 0, (step, x["passes"])
    assert x["memcg_workingset_refault"] >= x["passes"][1]["workingset_refault"], x
    # the cache state is measured, not assumed: the iteration started cold
    # (the drop left no more than a readahead window's worth), the memcg
    # held at most its limit of the file after each pass, and what was
    # evicted came back from storage (real blocks: refaults do I/O)
    assert x["io_accounting"] is True, x
    assert 0 <= x["resident_at_start_bytes"] <= size // 100, x["resident_at_start_bytes"]
    for i, p in enumerate(x["passes"], 1):
        assert p["resident_after_bytes"] <= 32 << 20, (step, i, p)
        mb = t["useonce MB read from storage per pass"]["%s-pass-%d" % (step, i)][0]
        assert abs(mb - p["storage_bytes"] / 1e6) < 1e-9, (step, i, mb, p)
    assert x["passes"][0]["storage_bytes"] >= size * 9 // 10, (step, x["passes"][0])
    assert x["passes"][1]["storage_bytes"] >= size // 2, (step, x["passes"][1])
PY
  [ -z "$(uo_files_left "$w")" ] || fail "data files left: $(uo_files_left "$w")"
  assert_no_leaks
}

# A mapped protected working set in the streamer's memcg: while the streamer
# maps a file of 4x the limit, pages of the set are pushed out and come back
# by major faults (real ones: the set maps a file of real data).
test_useonce_protected_set_major_faults() {
  need_root
  local w; w=$(uo_workdir) || exit $?
  expect_exit 0 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label p --set global.workdir="$w" \
    --set useonce.modes=mmap,read --set useonce.block_sizes=4096 --set useonce.file_size=256M \
    --set useonce.passes=3 --set useonce.protect=mapped --set useonce.protect_size=40M \
    --set useonce.protect_pause=100ms --set useonce.memcg_limit=64M
  python3 - "$T/r/p" <<'PY' || fail "useonce.json"
import json, sys
d = json.load(open(sys.argv[1] + "/useonce.json"))
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["workload_facts"]["useonce"]["protected_file"]["bytes"] == 40 << 20, run["workload_facts"]
t = {x["title"]: {o["op"]: o["samples"][0] for o in x["ops"]} for x in d["tables"]}
maj = t["useonce protected set major faults"]
assert sorted(maj) == ["mmap", "read-4096"], maj
total = 0
for step in ("mmap", "read-4096"):
    x = [x for x in d["details"] if x["step"] == step][0]["protected"]
    assert x["kind"] == "mapped" and x["bytes"] == 40 << 20, x
    # it ran beside the streamer: sweeps of every page, each touch timed
    assert x["sweeps"] >= 1 and x["touches"] >= x["sweeps"] * (40 << 20) // 4096, x
    assert maj[step] == x["majflt"], (step, maj, x)
    assert abs(t["useonce protected set touch p99"][step] - x["p99_us"]) < 1e-9, x
    assert x["max_us"] >= x["p99_us"] >= x["p50_us"] > 0, x
    total += x["majflt"]
# pushed out and faulted back in: the thread's warning about mapped use-once.
# Made certain here, not left to the kernel's timing: 40M of a 64M memcg is
# more than its active list may hold (a memcg this small keeps the inactive
# file list at least as long as the active one), so part of the set always
# sits on the inactive list, where the streamer's churn (3 passes of 256M)
# evicts it between two sweeps: 7-98 faults a mode in 10 runs here, release
# and ASan builds. (With 12M of 32M the kernel could keep it all active: 0
# faults in 4 of 7 runs. With 24M of 32M an ASan build's own anonymous memory
# left the mmap streamer no room: OOM-killed in the fresh root.)
assert total > 0, "no major fault of the protected set in either mode"
PY
  [ -z "$(uo_files_left "$w")" ] || fail "data files left: $(uo_files_left "$w")"
  assert_no_leaks
}

# uo_in_fs KIND CMD...: CMD in a mount namespace of the test's own where
# $T/mnt is a 48M ext4 on a loop device (KIND ext4, autoclear: it goes with
# the namespace) or a 48M tmpfs (KIND tmpfs)
uo_in_fs() {
  local kind=$1; shift
  unshare -m --propagation private sh -c '
    if [ "$1" = ext4 ]; then mount -o loop "$2/small.img" "$2/mnt" || exit 125
    else mount -t tmpfs -o size=48M uo-test "$2/mnt" || exit 125; fi
    chmod 700 "$2/mnt"; shift 2; exec "$@"' sh "$kind" "$T" "$@"
}
uo_loop_gone() { ! losetup -a 2>/dev/null | grep -qF "$T/small.img"; }

# A work folder whose filesystem cannot hold the data file: exit 3 naming
# the folder, the need and what is free, for the run and for --dry-run,
# before anything exists; a file that fits passes the same check; on tmpfs:
# exit 3 naming tmpfs.
test_useonce_disk_too_small_is_exit_3() {
  need_root
  need_cmd mkfs.ext4 e2fsprogs
  need_cmd unshare util-linux
  truncate -s 48M "$T/small.img" && mkfs.ext4 -q -F "$T/small.img" || fail "mkfs.ext4"
  mkdir "$T/mnt"
  local need=$(( ((64 << 20) + (64 << 20) / 100 + (16 << 20) + (1 << 20) - 1) / (1 << 20) * (1 << 20) ))
  expect_exit 3 uo_in_fs ext4 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label s \
    --set global.workdir="$T/mnt/work" --set useonce.file_size=64M
  assert_grep_err "useonce: the work folder $T/mnt/work needs .* ($need bytes) for its data files"
  assert_grep_err "its filesystem (at $T/mnt) has .* bytes) free"
  [ ! -e "$T/r" ] || fail "a refused run made its results folder"
  expect_exit 3 uo_in_fs ext4 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label s --dry-run \
    --set global.workdir="$T/mnt/work" --set useonce.file_size=64M
  assert_grep_err "useonce needs .* ($need bytes) of disk in the work folder $T/mnt/work"
  # the control: a file that fits passes the same check
  expect_exit 0 uo_in_fs ext4 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label s --dry-run \
    --set global.workdir="$T/mnt/work" --set useonce.file_size=8M
  expect_exit 3 uo_in_fs tmpfs "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label s \
    --set global.workdir="$T/mnt/work" --set useonce.file_size=8M
  assert_grep_err "useonce: the work folder $T/mnt/work is on tmpfs"
  wait_for "the loop device to go with the namespace" uo_loop_gone
  assert_no_leaks
}

# Counts and sizes beyond the limits: exit 2 naming the key and the value,
# nothing made.
test_useonce_bad_values_are_exit_2() {
  need_root
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.passes=65
  assert_grep_err "useonce.passes"
  assert_grep_err "65"
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.block_sizes=4096,0
  assert_grep_err "useonce.block_sizes"
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.block_sizes=128M
  assert_grep_err "useonce.block_sizes"
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.modes=read,stream
  assert_grep_err "useonce.modes: unknown 'stream'"
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.protect=mapped --set useonce.protect_size=32M
  assert_grep_err "useonce.protect_size: 32M is not below useonce.memcg_limit 32M"
  expect_exit 2 "$LRUBENCH" run "${UO[@]}" -o "$T/r" --set useonce.file_size=8T
  assert_grep_err "useonce.file_size"
  [ ! -e "$T/r" ] || fail "a refused run made its results folder"
  assert_no_leaks
}

# A streamer killed mid-run (as the OOM killer would) fails its op with the
# reason; the next step runs, the run ends failed, nothing is left.
test_useonce_killed_streamer_fails_its_op_only() {
  need_root
  local w; w=$(uo_workdir) || exit $?
  "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label k --set global.workdir="$w" --set useonce.modes=read,mmap \
    --set useonce.block_sizes=4096 --set useonce.passes=12 >"$T/out" 2>"$T/err" &
  local pid=$! victim
  wait_for "the streamer" uo_has_task $pid
  victim=$(uo_tasks_of $pid | head -1)
  kill -KILL "$victim"
  wait $pid; assert_eq "$?" 1 "run exit"
  assert_grep_err "useonce streamer (pid $victim) killed by signal 9"
  python3 - "$T/r/k" "$victim" <<'PY' || fail "run.json"
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
assert d["status"] == "failed", d["status"]
f = d["failed_ops"]
assert len(f) == 1 and f[0]["step"] == "read-4096", f
assert "pid %s) killed by signal 9" % sys.argv[2] in f[0]["reason"], f
r = json.load(open(sys.argv[1] + "/useonce.json"))
ops = {o["op"] for t in r["tables"] if t["title"] == "useonce elapsed s" for o in t["ops"]}
assert ops == {"mmap"}, ops
PY
  [ -z "$(uo_files_left "$w")" ] || fail "data files left: $(uo_files_left "$w")"
  assert_no_leaks
}

# SIGINT while the streamer runs: 130, no memcg, task or data file left.
test_useonce_sigint_leaves_nothing() {
  need_root
  local w; w=$(uo_workdir) || exit $?
  "$LRUBENCH" run "${UO[@]}" -o "$T/r" --label i --set global.workdir="$w" --set useonce.modes=mmap \
    --set useonce.passes=64 --set useonce.protect=mapped --set useonce.protect_size=8M >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for "the streamer" uo_has_task $pid
  kill -INT $pid; wait $pid; assert_eq "$?" 130 "exit after SIGINT"
  assert_eq "$(json_get "$T/r/i/run.json" '["status"]')" interrupted "status"
  [ -z "$(uo_files_left "$w")" ] || fail "data files left: $(uo_files_left "$w")"
  assert_no_leaks
}
