# SPDX-License-Identifier: GPL-2.0-or-later
# cgroups, child processes, NUMA binding and the sparse root against the real
# kernel (root), through the test helper tests/helpers/cgtool.c. Leak checks
# look only at what this test created (its cgtool pid, its $T), since other
# runs may share the machine.

CGTOOL=${LRUBENCH_HELPERS:-build/rel/helpers}/cgtool

need_memcg() {
  need_root
  [ -x "$CGTOOL" ] || fail "test helper $CGTOOL is not built (make tests)"
  grep -qE ' cgroup .*memory| cgroup2 ' /proc/mounts || skip "no cgroup filesystem mounted"
}

# wait_for_line FILE PATTERN [SECS]: poll until FILE has a line matching PATTERN
wait_for_line() {
  local i
  for ((i = 0; i < ${3:-30} * 10; i++)); do
    grep -q -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "--- $1:"; cat "$1"; fail "timed out waiting for '$2' in $1"
}

# wait_gone PID [SECS]: poll until the process no longer exists
wait_gone() {
  local i
  for ((i = 0; i < ${2:-30} * 10; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  fail "process $1 still exists"
}

memcg_root() { sed -n 's/^mode [^ ]* root \([^ ]*\) parent .*/\1/p' "$1"; }
run_parent() { sed -n 's/^mode [^ ]* root [^ ]* parent \(.*\)/\1/p' "$1"; }

assert_nothing_under() {
  local left
  left=$(grep -F "$1" /proc/mounts)
  [ -z "$left" ] || fail "mounts left behind: $left"
  left=$(losetup -a 2>/dev/null | grep -F "$1")
  [ -z "$left" ] || fail "loop devices left behind: $left"
}

test_cgroups_children_inside_and_removed() {
  need_memcg
  expect_exit 0 "$CGTOOL" cgroups 50 64M
  assert_grep "created 50 memcgs" "$T/out"
  local parent
  parent=$(sed -n 's/^mode [^ ]* root [^ ]* parent \(.*\)/\1/p' "$T/out")
  [ -n "$parent" ] || fail "no run parent printed"
  assert_no_file "$parent"
}

test_cgroups_limits_members_and_sigint() {
  need_memcg
  "$CGTOOL" hold 3 64M >"$T/out" 2>"$T/err" &
  local pid=$! parent root mode limit_file pids p
  wait_for_line "$T/out" '^ready'
  parent=$(run_parent "$T/out"); root=$(memcg_root "$T/out")
  mode=$(sed -n 's/^mode \([^ ]*\) .*/\1/p' "$T/out")
  assert_eq "$(basename "$parent")" "lrubench-$pid" "run parent name"
  if [ "$mode" = v2 ]; then limit_file=memory.max; else limit_file=memory.limit_in_bytes; fi
  for m in m0 m1 m2; do
    assert_eq "$(cat "$parent/$m/$limit_file")" 67108864 "$m $limit_file"
    pids=$(cat "$parent/$m/cgroup.procs")
    assert_eq "$(echo "$pids" | wc -w)" 1 "processes in $m"
    # the member names its memcg in /proc/PID/cgroup, and runs on the node's CPUs
    grep -q ":${parent#$root}/$m\$" "/proc/$pids/cgroup" || fail "pid $pids not in $m: $(cat /proc/$pids/cgroup)"
    if [ "$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)" = 1 ]; then
      p=$(sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$pids/status")
      assert_eq "$p" "$(cat /sys/devices/system/node/node0/cpulist)" "CPUs of pid $pids"
    fi
    echo "$pids" >>"$T/members"
  done
  kill -INT "$pid"
  wait "$pid"; local rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  assert_no_file "$parent"
  for p in $(cat "$T/members"); do wait_gone "$p" 5; done
}

# SIGKILL cannot be caught: the children die with their parent
# (PR_SET_PDEATHSIG), the cgroups stay, and the next run removes them.
test_cgroups_sigkill_then_stale_removal() {
  need_memcg
  "$CGTOOL" hold 2 0 >"$T/out" 2>"$T/err" &
  local pid=$! parent p
  wait_for_line "$T/out" '^ready'
  parent=$(run_parent "$T/out")
  cat "$parent"/m*/cgroup.procs >"$T/members"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  for p in $(cat "$T/members"); do wait_gone "$p" 10; done
  # Any lrubench run on this machine sweeps stale run parents, so a run of
  # another test may beat us to it; when it has not, ours must remove it.
  local was_there=no
  [ -d "$parent" ] && was_there=yes
  expect_exit 0 "$CGTOOL" stale
  assert_no_file "$parent"
  if [ "$was_there" = yes ] && ! grep -q "removed stale cgroup $parent" "$T/out"; then
    echo "note: $parent was removed by another lrubench run meanwhile"
  fi
}

test_sparse_loop_ext4() {
  need_root
  need_cmd mkfs.ext4 e2fsprogs
  local work=$T/lrubench-work
  expect_exit 0 "$CGTOOL" sparse loop-ext4 "$work" 1G
  assert_grep "^dir $work/mnt\$" "$T/out"
  assert_nothing_under "$T"
  assert_no_file "$work"
}

test_sparse_loop_xfs() {
  need_root
  need_cmd mkfs.xfs xfsprogs
  local work=$T/lrubench-work
  expect_exit 0 "$CGTOOL" sparse loop-xfs "$work" 512M
  assert_grep "^dir $work/mnt\$" "$T/out"
  assert_nothing_under "$T"
  assert_no_file "$work"
}

test_sparse_refuses_tmpfs() {
  need_root
  [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not tmpfs here"
  expect_exit 1 "$CGTOOL" sparse dir:/dev/shm "$T/lrubench-work" 1G
  assert_grep_err "sparse_root=dir:/dev/shm: /dev/shm is tmpfs"
  expect_exit 1 "$CGTOOL" sparse "dir:$T/missing" "$T/lrubench-work" 1G
  assert_grep_err "sparse_root=dir:$T/missing"
  expect_exit 1 "$CGTOOL" sparse loop-btrfs "$T/lrubench-work" 1G
  assert_grep_err "expected loop-ext4, loop-xfs or dir:/path"
  # a folder on a real filesystem is used as it is
  mkdir "$T/real"
  expect_exit 0 "$CGTOOL" sparse "dir:$T/real" "$T/lrubench-work" 1G
  assert_grep "^dir $T/real\$" "$T/out"
  assert_no_file "$T/lrubench-work"
}

# The package is installed here: hide /usr/sbin in a private mount namespace
# to see the message a machine without it gets.
test_sparse_missing_mkfs_is_exit_3() {
  need_root
  need_cmd unshare util-linux
  expect_exit 3 unshare -m --propagation private sh -c \
    'mount -t tmpfs lrubench-hide /usr/sbin && exec "$0" sparse loop-xfs "$1" 1G' "$CGTOOL" "$T/lrubench-work"
  assert_grep_err "mkfs.xfs not found: install the Debian package xfsprogs"
  assert_nothing_under "$T"
  assert_no_file "$T/lrubench-work"
}

test_sparse_sigint_cleans_up() {
  need_root
  need_cmd mkfs.ext4 e2fsprogs
  local work=$T/lrubench-work
  "$CGTOOL" sparse loop-ext4 "$work" 2G hold >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for_line "$T/out" '^ready'
  grep -qF "$work/mnt" /proc/mounts || fail "the sparse root is not mounted"
  losetup -a | grep -qF "$work" || fail "no loop device over the image"
  kill -INT "$pid"
  wait "$pid"; local rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  assert_nothing_under "$T"
  assert_no_file "$work"
}

# A SIGKILLed process cannot unmount; in a private mount namespace the kernel
# drops its mounts with it, and the autoclear loop device follows.
test_sparse_sigkill_in_private_namespace() {
  need_root
  need_cmd unshare util-linux
  need_cmd mkfs.ext4 e2fsprogs
  local work=$T/lrubench-work i
  unshare -m --propagation private "$CGTOOL" sparse loop-ext4 "$work" 1G hold >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_for_line "$T/out" '^ready'
  losetup -a | grep -qF "$work" || fail "no loop device over the image"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  # the namespace is released asynchronously: poll briefly
  for ((i = 0; i < 100; i++)); do
    losetup -a | grep -qF "$work" || break
    sleep 0.1
  done
  assert_nothing_under "$T"
  rm -rf "$work"   # folders survive SIGKILL; mounts and loop devices do not
}

# cg_destroy with live process trees inside (a shell and two grandchildren
# per cgroup, not our direct children): all killed, all folders removed.
killtree() {
  need_memcg
  "$CGTOOL" killtree "$1" 4 >"$T/out" 2>"$T/err"; local rc=$?
  [ "$rc" = 77 ] && skip "$(cat "$T/out")"
  [ "$rc" = 0 ] || { cat "$T/out" "$T/err"; fail "cgtool killtree $1: exit $rc"; }
  assert_grep "killed 12 processes, removed 5 cgroups" "$T/out"
  local parent
  parent=$(sed -n 's/^mode [^ ]* parent \([^ ]*\) .*/\1/p' "$T/out")
  [ -n "$parent" ] || fail "no parent printed"
  assert_no_file "$parent"
}

test_cgroups_destroy_kills_process_trees_v1() { killtree v1; }

# Here memory is on v1, but the cgroup2 mount beside it has cgroup.kill and
# the same rmdir rules, so the v2 removal path runs for real too.
test_cgroups_destroy_kills_process_trees_v2() {
  grep -q ' cgroup2 ' /proc/mounts || skip "no cgroup2 mount"
  killtree v2
}
