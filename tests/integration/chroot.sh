# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12, item 12: `run` in a chroot whose / is not a mount point (build
# chroots, some containers), where "/" cannot be made a mount slave. A real
# chroot: the lrubench binary and the libraries ldd names, /proc, /sys and
# /dev bound in. Everything is mounted inside `unshare -m`, so the test's own
# mounts vanish with it whatever happens.

# chroot_run ROOT SETUP ARGS...: in a private mount namespace, bind /proc,
# /sys, /dev into ROOT, run the shell commands SETUP, then lrubench ARGS
# chrooted; stdout and stderr in $T/out and $T/err, exit status returned
chroot_run() {
  local root=$1 setup=$2; shift 2
  unshare -m --propagation private bash -c '
    root=$1 setup=$2; shift 2
    mount --rbind /proc "$root/proc" && mount --rbind /sys "$root/sys" &&
      mount --rbind /dev "$root/dev" || exit 99
    eval "$setup" || exit 98
    exec chroot "$root" /lrubench "$@"' - "$root" "$setup" "$@" >"$T/out" 2>"$T/err"
}

make_chroot() {  # make_chroot ROOT: lrubench and its libraries, nothing else
  local root=$1 lib
  mkdir -p "$root"/proc "$root"/sys "$root"/dev "$root"/tmp "$root"/var/tmp
  cp "$LRUBENCH" "$root/lrubench"
  for lib in $(ldd "$LRUBENCH" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}

test_chroot_without_root_mount_refuses_with_what_to_do() {
  need_root
  need_cmd unshare util-linux
  make_chroot "$T/root"
  chroot_run "$T/root" true run -q --label t -o /results -w readtwice --quick
  local rc=$?
  [ "$rc" = 3 ] || { cat "$T/err"; fail "exit $rc, expected 3"; }
  assert_grep_err "/ is not a mount point here (a chroot?) and the workdir /var/tmp/lrubench lies on it"
  assert_grep_err "mount --bind ROOT ROOT"
  assert_no_file "$T/root/results/t"
}

test_chroot_workdir_on_a_mount_runs() {
  need_root
  need_cmd unshare util-linux
  make_chroot "$T/root"
  mkdir -p "$T/wd/sr"
  # the workdir on a mount the chroot can reach: its mounts are made slaves
  chroot_run "$T/root" 'mount --bind "'"$T/wd"'" "$root/var/tmp"' \
    run -q --label t -o /results -w readtwice --set readtwice.memcgs=1 \
    --set readtwice.runtime=1s --set readtwice.iterations=1 --set readtwice.warmup=0 \
    --set readtwice.file_size=16M --set global.sparse_root=dir:/var/tmp/sr
  local rc=$?
  [ "$rc" = 0 ] || { cat "$T/err"; fail "exit $rc, expected 0"; }
  assert_file "$T/root/results/t/readtwice.json"
  assert_eq "$(json_get "$T/root/results/t/run.json" '["status"]')" complete "status"
  assert_no_leaks
}
