# SPDX-License-Identifier: GPL-2.0-or-later
# lrubench fetch: downloads into the verified cache from a test fixture HTTP
# server on 127.0.0.1 (tests/fixtures/kernbench/server.py; no internet here),
# and the safe extraction (--extract) against generated hostile tarballs.
source "$LRUBENCH_SRC/tests/fixtures/kernbench/common.sh"

test_fetch_verified_then_cache_hit() {
  start_server
  head -c 3000000 /dev/urandom > "$T/www/blob"
  local s; s=$(sha "$T/www/blob")
  expect_exit 0 "$LRUBENCH" fetch "$BASE/blob" --sha256 "$s" --cache "$T/cache"
  assert_grep "fetched $BASE/blob" "$T/out"
  assert_cache_entries "$T/cache" 1
  local key; key=$(printf '%s' "$BASE/blob" | sha256sum | cut -c1-64)
  assert_file "$T/cache/$key"
  assert_eq "$(sha "$T/cache/$key")" "$s" "cached content"
  assert_eq "$(cat "$T/cache/$key.url")" "$BASE/blob" "sidecar"
  # second run: no server at all, so only the cache can answer
  stop_server
  expect_exit 0 "$LRUBENCH" fetch "$BASE/blob" --sha256 "$s" --cache "$T/cache"
  assert_grep "is in the cache" "$T/out"
}

test_fetch_file_url() {
  echo hello > "$T/f.txt"
  expect_exit 0 "$LRUBENCH" fetch "file://$T/f.txt" --cache "$T/cache"
  assert_cache_entries "$T/cache" 1
}

test_fetch_checksum_mismatch() {
  start_server
  echo "not what you expect" > "$T/www/blob"
  local bad; bad=$(printf 'x' | sha256sum | cut -c1-64)
  expect_exit 1 "$LRUBENCH" fetch "$BASE/blob" --sha256 "$bad" --cache "$T/cache"
  assert_grep_err "checksum mismatch for $BASE/blob"
  assert_cache_entries "$T/cache" 0
}

test_fetch_stale_cache_entry_is_replaced() {
  start_server
  echo one > "$T/www/blob"
  expect_exit 0 "$LRUBENCH" fetch "$BASE/blob" --cache "$T/cache"
  echo two > "$T/www/blob"
  expect_exit 0 "$LRUBENCH" fetch "$BASE/blob" --cache "$T/cache" --sha256 "$(sha "$T/www/blob")"
  assert_grep_err "fetching it again"
  local key; key=$(printf '%s' "$BASE/blob" | sha256sum | cut -c1-64)
  assert_eq "$(cat "$T/cache/$key")" "two" "refreshed entry"
}

test_fetch_http_404() {
  start_server
  expect_exit 1 "$LRUBENCH" fetch "$BASE/missing.tar.xz" --cache "$T/cache"
  assert_grep_err "cannot fetch $BASE/missing.tar.xz: HTTP status 404"
  assert_cache_entries "$T/cache" 0
}

test_fetch_connection_refused() {
  # a port that was free a moment ago: bind, note it, close
  local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  expect_exit 1 "$LRUBENCH" fetch "http://127.0.0.1:$port/x.tar.xz" --cache "$T/cache"
  assert_grep_err "cannot fetch http://127.0.0.1:$port/x.tar.xz"
  # refused on loopback is not transient: no retries
  if grep -q retrying "$T/err"; then fail "retried a refused loopback connection"; fi
  assert_cache_entries "$T/cache" 0
}

test_fetch_truncated_transfer_retried_then_fails() {
  start_server
  head -c 1000000 /dev/urandom > "$T/www/blob"
  expect_exit 1 "$LRUBENCH" fetch "$BASE/truncated/blob" --retries 1 --cache "$T/cache"
  assert_grep_err "retrying in 1 s (1 of 1)"
  assert_grep_err "cannot fetch $BASE/truncated/blob: .*truncated transfer"
  assert_cache_entries "$T/cache" 0
}

test_fetch_usage_errors() {
  expect_exit 2 "$LRUBENCH" fetch
  expect_exit 2 "$LRUBENCH" fetch http://127.0.0.1:1/x --sha256 abc
  assert_grep_err "malformed --sha256 'abc'"
  expect_exit 2 "$LRUBENCH" fetch ftp://example.org/x.tar.xz
  assert_grep_err "unsupported URL 'ftp://example.org/x.tar.xz'"
  expect_exit 2 "$LRUBENCH" fetch http://127.0.0.1:1/x --bogus
}

test_fetch_sigint_leaves_no_partial_entry() {
  start_server
  head -c 20000000 /dev/urandom > "$T/www/big"   # /slow/ sends 64 KiB per 50 ms: ~15 s
  "$LRUBENCH" fetch "$BASE/slow/big" --cache "$T/cache" >"$T/out" 2>"$T/err" &
  local pid=$!
  wait_until '[ -n "$(find "$T/cache" -name ".tmp-*" -size +100k 2>/dev/null)" ]' 20
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_grep_err "interrupted while fetching $BASE/slow/big"
  assert_cache_entries "$T/cache" 0
}

# ---- extraction ----

test_extract_formats_strip_top_folder() {
  local f
  for f in tar tar.gz tar.xz $(command -v zstd >/dev/null && echo tar.zst); do
    make_fake_kernel "$T/k.$f"
    expect_exit 0 "$LRUBENCH" fetch "$T/k.$f" --extract "$T/x-$f"
    assert_file "$T/x-$f/Makefile"
    assert_file "$T/x-$f/mm/vmscan.c"
    [ -x "$T/x-$f/scripts/helper.sh" ] || fail "$f: execute bit lost"
    assert_no_file "$T/x-$f.extracting"
  done
}

test_extract_via_cache() {
  start_server
  make_fake_kernel "$T/www/k.tar.xz"
  expect_exit 0 "$LRUBENCH" fetch "$BASE/k.tar.xz" --sha256 "$(sha "$T/www/k.tar.xz")" --cache "$T/cache" --extract "$T/tree"
  assert_file "$T/tree/kernel/sched.c"
  expect_exit 1 "$LRUBENCH" fetch "$BASE/k.tar.xz" --cache "$T/cache" --extract "$T/tree"
  assert_grep_err "already exists"
}

# hostile.py writes one tarball per attack; each must be refused with the
# entry named, and nothing may appear outside the extraction folder.
hostile() {
  local kind=$1 entry=$2
  mkdir -p "$T/outside"
  python3 "$KB_FIX/hostile.py" "$kind" "$T/evil.tar" "$T/outside"
  expect_exit 1 "$LRUBENCH" fetch "$T/evil.tar" --extract "$T/x/tree"
  assert_grep_err "refusing entry '$entry' of $T/evil.tar"
  assert_no_file "$T/x/tree"
  assert_no_file "$T/x/tree.extracting"
  assert_eq "$(ls -A "$T/outside")" "" "files written outside"
  [ -z "$(ls -A "$T/x" 2>/dev/null)" ] || fail "left in the extraction parent: $(ls -A "$T/x")"
  assert_eq "$(sha /etc/passwd)" "$PASSWD_SHA" "/etc/passwd changed"
}

test_extract_refuses_dotdot() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile dotdot "top/../../outside/escaped"; }
test_extract_refuses_absolute_path() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile absolute "$T/outside/abs"; }
test_extract_refuses_symlink_escape() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile symlink "top/link"; }
test_extract_refuses_relative_symlink_escape() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile symlink-rel "top/link"; }
test_extract_refuses_hardlink_to_etc_passwd() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile hardlink "top/passwd"; }
test_extract_refuses_hardlink_dotdot() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile hardlink-rel "top/passwd"; }
test_extract_refuses_device_node() { PASSWD_SHA=$(sha /etc/passwd); mkdir -p "$T/x"; hostile device "top/null"; }

# Extracting as root must never create a setuid/setgid/sticky or
# world-writable file or folder, whatever modes the tarball carries.
test_extract_masks_setuid_and_world_writable_modes() {
  python3 "$KB_FIX/hostile.py" modes "$T/modes.tar" "$T/outside"
  expect_exit 0 "$LRUBENCH" fetch "$T/modes.tar" --extract "$T/tree"
  assert_file "$T/tree/suid"
  local bad; bad=$(find "$T/tree" -perm /7002 -printf '%m %p\n')
  assert_eq "$bad" "" "entries with setuid, setgid, sticky or world-write bits"
  assert_eq "$(stat -c %a "$T/tree/suid")" 755 "suid file mode"
  assert_eq "$(stat -c %a "$T/tree/sgid")" 755 "sgid file mode"
  assert_eq "$(stat -c %a "$T/tree/world")" 664 "world-writable file mode"
  assert_eq "$(stat -c %a "$T/tree/sticky")" 775 "sticky folder mode"
  assert_eq "$(stat -c %a "$T/tree/wdir")" 775 "world-writable folder mode"
}

test_extract_sigint_removes_partial_folder() {
  # The tarball arrives through a FIFO that the test feeds only partly, so
  # the extraction is certainly in progress (blocked on input) when SIGINT comes.
  make_fake_kernel "$T/k.tar"
  mkfifo "$T/fifo"
  "$LRUBENCH" fetch "$T/fifo" --extract "$T/tree" >"$T/out" 2>"$T/err" &
  local pid=$!
  exec 3<>"$T/fifo"   # read-write: never blocks, even when lrubench is gone
  head -c 3072 "$T/k.tar" >&3   # of about 10 KiB
  wait_until '[ -d "$T/tree.extracting/fakelinux-1.0" ]' 20
  kill -INT $pid
  wait $pid; local rc=$?
  exec 3>&-
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_no_file "$T/tree"
  assert_no_file "$T/tree.extracting"
}

# fetch --results downloads into a private folder DIR/.lrubench-fetch-<pid>-*
# (core/tmpdir.h) of the helper; one a killed helper left (its pid dead) goes
# with the next fetch into DIR, one of a live process stays (issue 30, 19).
test_fetch_results_sweeps_what_a_killed_helper_left() {
  start_server
  mkdir -p "$T/r" "$T/dl"
  cp -r "$LRUBENCH_SRC/tests/fixtures/compare/golden/6.8.0-vanilla" "$T/r/"
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/www/v.tar.zst"
  sleep 0 & local dead=$!; wait $dead
  mkdir -p "$T/dl/.lrubench-fetch-$dead-abcdef"
  head -c 1000 /dev/zero >"$T/dl/.lrubench-fetch-$dead-abcdef/half-a-download"
  mkdir -p "$T/dl/.lrubench-fetch-$$-abcdef"   # alive: this shell
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst"
  assert_file "$T/dl/v.tar.zst"
  assert_no_file "$T/dl/.lrubench-fetch-$dead-abcdef"
  [ -d "$T/dl/.lrubench-fetch-$$-abcdef" ] || fail "removed the folder of a live process"
  assert_eq "$(ls -A "$T/dl" | sort | tr '\n' ' ')" ".lrubench-fetch-$$-abcdef v.tar.zst " "what DIR holds"
}
