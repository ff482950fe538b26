# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=1200   (kernel builds; the default limit is 600 s)
# kernbench end to end: a generated source tarball whose Makefile mimics
# kbuild (tests/fixtures/kernbench/common.sh) is served by the test fixture
# HTTP server on 127.0.0.1 and drives the real pipeline: download, verify,
# cache, extraction, configure, warm-up, timed builds (real make and gcc) in
# real memcgs, results. LRUBENCH_TEST_LONG=1 also builds Debian's
# linux-source-6.1 (tinyconfig, -j2).
source "$LRUBENCH_SRC/tests/fixtures/kernbench/common.sh"

MEMCG_ROOT=/sys/fs/cgroup/memory

# lrubench run with the test's private results, workdir and cache. kb_args
# only fills KB (for runs in the background, where $! must be lrubench itself).
kb_args() {
  local label=$1; shift
  KB=(run -w kernbench -o "$T/res" --label "$label"
      --set global.workdir="$T/work" --set global.drop_caches=no
      --set kernbench.cache="$T/cache" --set kernbench.config_target=tinyconfig "$@")
}
kb_run() { kb_args "$@"; "$LRUBENCH" "${KB[@]}"; }

need_memcg() {
  need_root
  [ -d "$MEMCG_ROOT" ] || grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null ||
    skip "no memory cgroup controller"
}

# No kernbench memcg of any lrubench run is left.
assert_no_kernbench_memcgs() {
  local left
  left=$(find /sys/fs/cgroup -maxdepth 3 -type d -path '*/lrubench-*/kernbench-*' 2>/dev/null)
  [ -z "$left" ] || fail "kernbench memcgs left behind: $left"
}

# No process is left whose working folder is inside this test's $T (make, cc, sleep).
assert_no_procs_in_T() {
  local p cwd left=
  for p in /proc/[0-9]*; do
    cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
    case $cwd in "$T"/*) left="$left ${p#/proc/}($(cat "$p/comm" 2>/dev/null))" ;; esac
  done
  [ -z "$left" ] || fail "processes left running in $T:$left"
}

ops_of() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tables"] if t["title"] == "kernbench"][0]
assert t["unit"] == "s" and t["better"] == "lower", t
print(" ".join("%s:%d:%s" % (o["op"], len(o["samples"]), all(v > 0 for v in o["samples"])) for o in t["ops"]))
' "$1"; }

test_kernbench_pipeline_in_memcgs_then_cache_hit() {
  need_memcg; start_server
  make_fake_kernel "$T/www/fakelinux-1.0.tar.xz"
  local url="$BASE/fakelinux-1.0.tar.xz" s; s=$(sha "$T/www/fakelinux-1.0.tar.xz")
  expect_exit 0 kb_run a -i 2 --set kernbench.warmup=1 --set kernbench.source="$url" \
    --set kernbench.sha256="$s" --set kernbench.jobs=1,2 --set kernbench.memcgs=2 \
    --set kernbench.memcg_limit=256M
  assert_grep "fetched $url" "$T/out"
  # the workload's summary line (printed before teardown, while its state is there)
  assert_grep "^kernbench: .*, make vmlinux, 2 builds at once (one memcg each)$" "$T/out"
  # elapsed and user time are > 0 for every op; system time may round to 0 on a fast machine
  local ops; ops=$(ops_of "$T/res/a/kernbench.json")
  case $ops in "elsp-1:2:True user-1:2:True syst-1:2:"*" elsp-2:2:True user-2:2:True syst-2:2:"*) ;;
    *) fail "unexpected ops: $ops" ;; esac
  # each build ran in its own memcg, created under the run's parent
  assert_grep "built in memcg .*/lrubench-[0-9]*/kernbench-1" "$T/res/a/logs/kernbench-build-j2-i1-m1.log"
  assert_grep "built in memcg .*/lrubench-[0-9]*/kernbench-2" "$T/res/a/logs/kernbench-build-j2-i1-m2.log"
  assert_file "$T/res/a/logs/kernbench-build-j1-w1-m1.log"   # the core's warm-up iteration
  assert_grep "CONFIG_FAKE_tinyconfig" "$T/res/a/logs/kernbench-config.log"
  assert_eq "$(json_get "$T/res/a/run.json" '["workload_facts"]["kernbench"]["source_cache_hit"]')" False "first run hit the cache"
  assert_eq "$(json_get "$T/res/a/run.json" '["status"]')" complete "status"
  assert_eq "$(json_get "$T/res/a/kernbench.json" '["details"][0]["builds"][1]["memcg"]' | grep -c kernbench-2)" 1 "details name the memcg"
  assert_cache_entries "$T/cache" 1
  assert_no_kernbench_memcgs
  [ -z "$(ls -A "$T/work" 2>/dev/null)" ] || fail "workdir left: $(ls -A "$T/work")"
  # second run: the server is gone, the verified cache entry must serve
  stop_server
  expect_exit 0 kb_run b -i 1 --set kernbench.warmup=0 --set kernbench.source="$url" \
    --set kernbench.sha256="$s" --set kernbench.jobs=2
  assert_grep "found in the cache" "$T/out"
  assert_eq "$(json_get "$T/res/b/run.json" '["workload_facts"]["kernbench"]["source_cache_hit"]')" True "second run hit the cache"
  # warmup = 0: setup did the untimed warm-up build
  assert_file "$T/res/b/logs/kernbench-build-j2-setup-m1.log"
  assert_eq "$(json_get "$T/res/b/run.json" '["workload_facts"]["kernbench"]["warmup_build"]')" setup "warm-up"
  assert_no_procs_in_T
}

test_kernbench_local_tarball_root_cgroup() {
  need_root
  make_fake_kernel "$T/k.tar.gz"
  expect_exit 0 kb_run a -i 1 --set kernbench.warmup=0 --set kernbench.source="$T/k.tar.gz" \
    --set kernbench.jobs=1,3
  local ops; ops=$(ops_of "$T/res/a/kernbench.json")
  case $ops in "elsp-1:1:True user-1:1:True syst-1:1:"*" elsp-3:1:True user-3:1:True syst-3:1:"*) ;;
    *) fail "unexpected ops: $ops" ;; esac
  # memcgs = 0: the build runs in the root memory cgroup (the controller on,
  # no memcg of its own), not in a kernbench memcg nor in lrubench's cgroup
  if grep -q "kernbench-1" "$T/res/a/logs/kernbench-build-j1-i0-m1.log"; then
    fail "memcgs=0 build ran in a kernbench memcg"
  fi
  grep -qE "built in memcg ([0-9]+:memory|0:):/$" "$T/res/a/logs/kernbench-build-j1-i0-m1.log" ||
    fail "memcgs=0 build did not run in the root memory cgroup: $(grep 'built in' "$T/res/a/logs/kernbench-build-j1-i0-m1.log")"
  assert_cache_entries "$T/cache" 0
}

test_kernbench_config_file_olddefconfig() {
  need_root
  make_fake_kernel "$T/k.tar"
  printf 'CONFIG_FROM_FILE=y\n' > "$T/my.config"
  expect_exit 0 kb_run a -i 1 --set kernbench.warmup=0 --set kernbench.source="$T/k.tar" \
    --set kernbench.jobs=1 --set kernbench.config_target="$T/my.config"
  assert_grep "CONFIG_OLDDEFCONFIG_DONE" "$T/res/a/logs/kernbench-config.log"
}

test_kernbench_build_failure_shows_log_tail() {
  need_root
  FAKE_BROKEN=1 make_fake_kernel "$T/k.tar.xz"
  expect_exit 1 kb_run a -i 1 --set kernbench.warmup=0 --set kernbench.source="$T/k.tar.xz" \
    --set kernbench.jobs=2
  assert_grep_err "make -j2 vmlinux in .*/tree-1 exited with 2; last lines of .*kernbench-build-j2-setup-m1.log"
  assert_grep_err "mm/vmscan.c.*error"
  assert_eq "$(json_get "$T/res/a/run.json" '["status"]')" failed "status"
  assert_no_procs_in_T
}

test_kernbench_source_checksum_mismatch() {
  need_root; start_server
  make_fake_kernel "$T/www/k.tar.xz"
  local bad; bad=$(printf 'other' | sha256sum | cut -c1-64)
  expect_exit 1 kb_run a --set kernbench.source="$BASE/k.tar.xz" --set kernbench.sha256="$bad"
  assert_grep_err "checksum mismatch for $BASE/k.tar.xz"
  assert_cache_entries "$T/cache" 0
}

test_kernbench_source_http_404() {
  need_root; start_server
  expect_exit 1 kb_run a --set kernbench.source="$BASE/none.tar.xz"
  assert_grep_err "cannot fetch $BASE/none.tar.xz: HTTP status 404"
  assert_cache_entries "$T/cache" 0
}

test_kernbench_source_connection_refused() {
  need_root
  local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  expect_exit 1 kb_run a --set kernbench.source="http://127.0.0.1:$port/k.tar.xz"
  assert_grep_err "cannot fetch http://127.0.0.1:$port/k.tar.xz"
  assert_cache_entries "$T/cache" 0
}

test_kernbench_config_errors() {
  need_root
  make_fake_kernel "$T/k.tar"
  expect_exit 2 kb_run a --set kernbench.source="$T/k.tar" --set kernbench.sha256=xyz
  assert_grep_err "kernbench.sha256 'xyz'"
  expect_exit 2 kb_run a --set kernbench.source="$T/k.tar" --set kernbench.config_target=allyesconfig
  assert_grep_err "kernbench.config_target 'allyesconfig'"
  expect_exit 2 kb_run a --set kernbench.source="$T/k.tar" --set kernbench.memcg_limit=64M
  assert_grep_err "kernbench.memcg_limit needs kernbench.memcgs"
  expect_exit 2 kb_run a --set kernbench.source="$T/nothere.tar.xz"
  assert_grep_err "kernbench.source $T/nothere.tar.xz"
  expect_exit 2 kb_run a --set kernbench.source="ftp://example.org/k.tar.xz"
}

test_kernbench_sigint_during_download() {
  need_root; start_server
  head -c 20000000 /dev/urandom > "$T/www/big.tar.xz"   # /slow/ takes ~15 s for it
  kb_args a --set kernbench.source="$BASE/slow/big.tar.xz"
  "$LRUBENCH" "${KB[@]}" >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_until '[ -n "$(find "$T/cache" -name ".tmp-*" -size +100k 2>/dev/null)" ]' 20
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_cache_entries "$T/cache" 0
  [ -z "$(ls -A "$T/work" 2>/dev/null)" ] || fail "workdir left: $(ls -A "$T/work")"
}

test_kernbench_sigint_during_extraction() {
  # the tarball comes through a FIFO fed only partly: extraction is surely running
  need_root
  make_fake_kernel "$T/k.tar"
  mkfifo "$T/fifo"
  kb_args a --set kernbench.source="$T/fifo"
  "$LRUBENCH" "${KB[@]}" >"$T/out" 2>"$T/err" &
  local pid=$!
  exec 3<>"$T/fifo"   # read-write: never blocks, even when lrubench is gone
  head -c 3072 "$T/k.tar" >&3
  wait_until '[ -n "$(ls -d "$T"/work/run-*/kernbench/tree-1.extracting/fakelinux-1.0 2>/dev/null)" ]' 20
  kill -INT $pid
  wait $pid; local rc=$?
  exec 3>&-
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_grep_err "interrupted while extracting $T/fifo"
  [ -z "$(ls -A "$T/work" 2>/dev/null)" ] || fail "workdir left: $(ls -A "$T/work")"
  assert_eq "$(json_get "$T/res/a/run.json" '["status"]')" interrupted "status"
}

test_kernbench_sigint_during_build() {
  need_memcg
  make_fake_kernel "$T/k.tar.xz" fakelinux-1.0 "$T/slow"
  touch "$T/slow"   # every vmlinux recipe now hangs after linking
  kb_args a --set kernbench.source="$T/k.tar.xz" --set kernbench.memcgs=2 \
    --set kernbench.jobs=2 --set kernbench.warmup=1
  "$LRUBENCH" "${KB[@]}" >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_until 'grep -qs SLOW-BUILD-STARTED "$T"/res/a/logs/kernbench-build-j2-w1-m1.log' 30
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_no_procs_in_T
  assert_no_kernbench_memcgs
  [ -z "$(ls -A "$T/work" 2>/dev/null)" ] || fail "workdir left: $(ls -A "$T/work")"
}

# Long: Debian's linux-source-6.1, tinyconfig, -j2, one timed build (after the
# untimed warm-up build setup does), end to end. Enable with LRUBENCH_TEST_LONG=1.
test_kernbench_long_linux_source() {
  [ "${LRUBENCH_TEST_LONG:-0}" = 1 ] || skip "long test: set LRUBENCH_TEST_LONG=1"
  need_root
  [ -f /usr/src/linux-source-6.1.tar.xz ] || skip "needs /usr/src/linux-source-6.1.tar.xz (apt-get install linux-source-6.1)"
  expect_exit 0 "$LRUBENCH" run -w kernbench -o "$T/res" --label long -i 1 \
    --set global.workdir="$T/work" --set kernbench.warmup=0 \
    --set kernbench.config_target=tinyconfig --set kernbench.jobs=2
  local ops; ops=$(ops_of "$T/res/long/kernbench.json")
  case $ops in "elsp-2:1:True user-2:1:True syst-2:1:True") ;; *) fail "unexpected ops: $ops" ;; esac
  assert_grep "vmlinux" "$T/res/long/logs/kernbench-build-j2-i0-m1.log"
  assert_no_procs_in_T
}

test_kernbench_probe_names_missing_packages() {
  # A PATH with every build tool but flex and bc: the run must exit 3 naming
  # them and their Debian packages (the tools really are absent from this PATH).
  need_root
  mkdir -p "$T/bin"
  local c
  for c in make gcc bison cp cat sh; do ln -s "$(command -v $c)" "$T/bin/$c"; done
  make_fake_kernel "$T/k.tar"
  PATH="$T/bin" expect_exit 3 "$LRUBENCH" run -w kernbench -o "$T/res" --label a \
    --set global.workdir="$T/work" --set kernbench.source="$T/k.tar"
  assert_grep_err "flex, bc missing for kernel builds (apt-get install flex bc)"
}
