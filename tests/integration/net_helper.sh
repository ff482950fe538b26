# SPDX-License-Identifier: GPL-2.0-or-later
# The split between lrubench and its helper program lrubench-net (issue 11):
# libcurl, libarchive and libcrypto are loaded only by the helper, which
# does the downloads, and the helper is a well-behaved child: a missing one
# is a clear error, and every way lrubench can be stopped stops it cleanly.
source "$LRUBENCH_SRC/tests/fixtures/kernbench/common.sh"

NET_HELPER="$(dirname "$LRUBENCH")/lrubench-net"

# The loader's own record (LD_DEBUG=files, which sees dlopen too) of the
# objects lrubench loaded while running "$@"; output to $T/ld.<pid>.
loaded_by() {
  local pid
  LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" "$LRUBENCH" "$@" >/dev/null 2>&1 &
  pid=$!
  wait $pid
  [ -s "$T/ld.$pid" ] || fail "no loader record for lrubench $*"
  # the record is real: lrubench's own dependency is in it
  grep -q 'file=libjson-c' "$T/ld.$pid" || fail "loader record of lrubench $* lacks libjson-c"
  grep -o 'file=[^ ]*' "$T/ld.$pid" | sort -u
}

test_net_libraries_stay_out_of_lrubench() {
  local cmp="$LRUBENCH_SRC/tests/fixtures/compare/golden" cmd
  ldd "$LRUBENCH" > "$T/ldd" || fail "ldd $LRUBENCH failed"
  if grep -E 'libcurl|libarchive|libcrypto' "$T/ldd"; then
    fail "lrubench links the network and archive libraries"
  fi
  # ... which the helper does link (so the check above is not vacuous)
  ldd "$NET_HELPER" > "$T/ldd-net" || fail "ldd $NET_HELPER failed"
  assert_grep libcurl "$T/ldd-net"
  assert_grep libarchive "$T/ldd-net"
  for cmd in "--version" "list" "check" "compare $cmp/6.8.0-vanilla $cmp/6.8.0-patched" \
             "plot -o $T/plots $cmp/6.8.0-vanilla $cmp/6.8.0-patched"; do
    # shellcheck disable=SC2086 # cmd is a list of words
    loaded_by $cmd > "$T/loaded" || exit 1
    if grep -E 'libcurl|libarchive|libcrypto' "$T/loaded"; then
      fail "lrubench $cmd loaded the network and archive libraries"
    fi
  done
}

# The libexec folder compiled into lrubench (where `make install` puts the
# helper): an installed helper would be found by a lone copy of lrubench too.
installed_helper() {
  tr -c '[:print:]' '\n' < "$LRUBENCH" | grep -m1 -E '^/.*/libexec/lrubench$'
}

test_fetch_without_helper_names_where_it_looked() {
  local libexec; libexec=$(installed_helper)
  [ -n "$libexec" ] || fail "no libexec folder compiled into $LRUBENCH"
  [ ! -e "$libexec/lrubench-net" ] || skip "a helper is installed in $libexec: a lone lrubench would find it"
  mkdir -p "$T/alone"
  cp "$LRUBENCH" "$T/alone/lrubench"
  echo hello > "$T/f"
  expect_exit 3 "$T/alone/lrubench" fetch "file://$T/f" --cache "$T/cache"
  assert_grep_err "cannot find the helper program lrubench-net"
  assert_grep_err "looked for $T/alone/lrubench-net and $libexec/lrubench-net"
  assert_no_file "$T/cache"
  # and with the helper beside it, the same copy works
  cp "$NET_HELPER" "$T/alone/lrubench-net"
  expect_exit 0 "$T/alone/lrubench" fetch "file://$T/f" --cache "$T/cache"
  assert_cache_entries "$T/cache" 1
}

# Starts a slow download (~15 s) in the background; sets PID (lrubench) and
# HELPER (its child doing the download) once the temp file is growing.
slow_fetch() {
  start_server
  head -c 20000000 /dev/urandom > "$T/www/big"   # /slow/ sends 64 KiB per 50 ms
  "$LRUBENCH" fetch "$BASE/slow/big" --cache "$T/cache" >"$T/out" 2>"$T/err" &
  PID=$!
  wait_until '[ -n "$(find "$T/cache" -name ".tmp-*" -size +100k 2>/dev/null)" ]' 20
  HELPER=$(pgrep -P $PID)
  [ -n "$HELPER" ] || fail "lrubench downloads without a child process"
}

test_fetch_downloads_in_the_helper() {
  slow_fetch
  assert_eq "$(readlink "/proc/$HELPER/exe")" "$(readlink -f "$NET_HELPER")" "the downloading child"
  grep -q libcurl "/proc/$HELPER/maps" || fail "the helper has no libcurl mapped"
  if grep -E 'libcurl|libarchive' "/proc/$PID/maps"; then fail "lrubench itself maps the network libraries"; fi
  kill -INT $PID
  wait $PID; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_grep_err "interrupted while fetching $BASE/slow/big"
  [ ! -e "/proc/$HELPER" ] || fail "the helper outlived lrubench"
  assert_cache_entries "$T/cache" 0
}

test_fetch_second_sigint_still_cleans_up() {
  # the second signal makes lrubench run its cleanup registry at once, from
  # the handler: that must still let the helper remove its temp file (two
  # different signals, so they cannot merge into one pending signal)
  slow_fetch
  kill -INT $PID
  kill -TERM $PID
  wait $PID; local rc=$?
  assert_eq "$rc" 130 "exit code after two SIGINTs"
  [ ! -e "/proc/$HELPER" ] || fail "the helper outlived lrubench"
  assert_cache_entries "$T/cache" 0
}

test_fetch_helper_cleans_up_when_lrubench_is_killed() {
  # SIGKILL gives lrubench no chance to pass the stop on: the helper's
  # parent-death signal (SIGTERM) makes it unwind on its own
  slow_fetch
  kill -KILL $PID
  wait $PID 2>/dev/null
  wait_until '[ ! -e "/proc/$HELPER" ]' 20
  assert_cache_entries "$T/cache" 0
}
