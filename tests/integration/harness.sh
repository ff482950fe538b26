# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12, item 12: tests/run-tests gives every test its own time limit, so
# a hang is one failed test with a clear line, not a hung suite. Checked on
# a copy of run-tests in a scratch tree with a hanging unit binary and a
# hanging integration test.

test_run_tests_times_out_a_hanging_test() {
  local tree=$T/tree rc
  mkdir -p "$tree/tests/integration" "$tree/build/rel/tests"
  cp "$LRUBENCH_SRC/tests/run-tests" "$tree/tests/"
  cp "$LRUBENCH_SRC/tests/integration/lib.sh" "$tree/tests/integration/"
  printf 'test_hangs() { sleep 1000; }\ntest_passes() { true; }\n' >"$tree/tests/integration/fake.sh"
  printf '#!/bin/sh\nsleep 1000\n' >"$tree/build/rel/tests/test_hangs"
  chmod +x "$tree/build/rel/tests/test_hangs"
  LRUBENCH_BUILD=build/rel LRUBENCH_TEST_TIMEOUT=2 timeout 120 "$tree/tests/run-tests" >"$T/out" 2>&1
  rc=$?
  [ "$rc" = 124 ] && fail "run-tests hung on a hanging test"
  [ "$rc" = 0 ] && fail "run-tests passed with hanging tests"
  assert_grep '^FAIL  test_hangs  *timed out after 2s' "$T/out"
  assert_grep '^FAIL  fake:test_hangs  *([0-9]*s) timed out after 2s$' "$T/out"
  assert_grep '^ok    fake:test_passes' "$T/out"
  assert_grep '^1 passed, 2 failed, 0 skipped$' "$T/out"
  pgrep -f "sleep 1000" >/dev/null && fail "the hanging test's process survived"
  true
}

# Every tool the tests and workloads call comes from a package that
# scripts/install-deps installs: a fresh minimal root lacked xz. The list
# maps each command to its Debian package; the installed package must
# really provide it (dpkg -L), so the map cannot go stale unseen.
test_install_deps_covers_the_tools_tests_use() {
  need_cmd dpkg-query dpkg
  local pair cmd pkg missing=""
  for pair in xz:xz-utils zstd:zstd curl:curl python3:python3 xmllint:libxml2-utils \
              gnuplot:gnuplot-nox unshare:util-linux mkfs.ext4:e2fsprogs mkfs.xfs:xfsprogs \
              numactl:numactl pgrep:procps cpio:cpio busybox:busybox-static \
              qemu-system-x86_64:qemu-system-x86 sysbench:sysbench ip:iproute2; do
    cmd=${pair%%:*} pkg=${pair#*:}
    grep -qw -- "$pkg" "$LRUBENCH_SRC/scripts/install-deps" || { missing="$missing $cmd($pkg)"; continue; }
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      dpkg -L "$pkg" | grep -q "/$cmd\$" || fail "package $pkg does not provide $cmd: fix the map"
    fi
  done
  [ -z "$missing" ] || fail "not installed by scripts/install-deps:$missing"
}
