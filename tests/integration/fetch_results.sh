# SPDX-License-Identifier: GPL-2.0-or-later
# fetch --results against the fixture HTTP server on 127.0.0.1
# (tests/fixtures/kernbench/server.py): its limits, what its messages show
# of a URL, and where it may write (issue 30, points 8, 14, 18, 22).
source "$LRUBENCH_SRC/tests/fixtures/kernbench/common.sh"
GOLDEN=$LRUBENCH_SRC/tests/fixtures/compare/golden

# a results archive of one label at $T/www/$1
serve_archive() {
  mkdir -p "$T/r"
  [ -d "$T/r/6.8.0-vanilla" ] || cp -r "$GOLDEN/6.8.0-vanilla" "$T/r/"
  "$LRUBENCH" pack -q "$T/r/6.8.0-vanilla" -o "$T/www/$1" || fail "pack failed"
}

# --timeout and --max-size reach the download, and results have small
# defaults of their own (256M, 10m), not a kernel tarball's (2G, 1h).
test_fetch_results_honours_timeout_and_max_size() {
  start_server
  # no length, bytes forever: stopped at the cap given
  expect_exit 1 timeout -k 5 60 "$LRUBENCH" fetch --results "$T/dl" --max-size 1M "$BASE/endless/x.tar.zst"
  assert_grep_err "cannot fetch $BASE/endless/x.tar.zst: larger than 1MB (--max-size)"
  # 1.2 KB/s passes curl's low-speed check forever: the deadline given ends it
  expect_exit 1 timeout -k 5 60 "$LRUBENCH" fetch --results "$T/dl" --timeout 2s "$BASE/trickle/x.tar.zst"
  assert_grep_err "not done within the time limit (--timeout)"
  # the default cap: a declared length of 300M is refused before the body
  truncate -s 300M "$T/www/big.tar.zst"
  expect_exit 1 timeout -k 5 60 "$LRUBENCH" fetch --results "$T/dl" "$BASE/big.tar.zst"
  assert_grep_err "cannot fetch $BASE/big.tar.zst: larger than 256MB (--max-size)"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" --max-size lots "$BASE/x.tar.zst"
  assert_grep_err "--max-size wants a size"
  assert_eq "$(ls -A "$T/dl" 2>/dev/null)" "" "files left in the download folder"
}

# A presigned URL's query is its signature: no message shows it.
test_fetch_results_never_prints_the_query() {
  start_server
  serve_archive v.tar.zst
  local q='X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=f00dfeedsecret'
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst?$q"
  assert_grep "fetched $BASE/v.tar.zst?... into $T/dl/v.tar.zst" "$T/out"
  expect_exit 1 "$LRUBENCH" fetch --results "$T/dl2" --retries 0 "$BASE/missing.tar.zst?$q"
  assert_grep_err "cannot fetch $BASE/missing.tar.zst?...: HTTP status 404"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl2" "$BASE/x.zip?$q"
  assert_grep_err "the URL must end in a file name"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl2" "ftp://127.0.0.1/x.tar.zst?$q"
  assert_grep_err "is not an http:// or https:// URL"
  if grep -e f00dfeedsecret -e AKIDEXAMPLE "$T/out" "$T/err"; then fail "the query was printed"; fi
  # all runs together: every message of every one
  true
}

# Two URLs of one name, or a DIR/NAME that exists: exit 2 before anything
# is downloaded or written, and the file there is kept.
test_fetch_results_never_overwrites() {
  start_server
  serve_archive v.tar.zst
  mkdir -p "$T/www/other"
  cp "$T/www/v.tar.zst" "$T/www/other/v.tar.zst"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst" "$BASE/other/v.tar.zst"
  assert_grep_err "$BASE/v.tar.zst and $BASE/other/v.tar.zst would both be saved as $T/dl/v.tar.zst"
  assert_no_file "$T/dl"
  mkdir -p "$T/dl"
  echo mine > "$T/dl/v.tar.zst"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst"
  assert_grep_err "$T/dl/v.tar.zst exists already: fetch --results never replaces a file"
  assert_eq "$(cat "$T/dl/v.tar.zst")" mine "the file that was there"
  assert_eq "$(ls -A "$T/dl")" "v.tar.zst" "what DIR holds"
  # a name already taken by a link or a folder is not replaced either
  rm "$T/dl/v.tar.zst"; ln -s /etc/passwd "$T/dl/v.tar.zst"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst"
  [ -L "$T/dl/v.tar.zst" ] || fail "the link was replaced"
  # and with the name free it is fetched
  rm "$T/dl/v.tar.zst"
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst"
  cmp "$T/www/v.tar.zst" "$T/dl/v.tar.zst" || fail "fetched archive differs"
}

# DIR a symlink (to somewhere else): refused, nothing written there.
test_fetch_results_refuses_a_symlinked_folder() {
  start_server
  serve_archive v.tar.zst
  mkdir -p "$T/elsewhere"
  ln -s "$T/elsewhere" "$T/dl"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" "$BASE/v.tar.zst"
  assert_grep_err "fetch --results: $T/dl is a symbolic link: lrubench writes only into a real folder"
  assert_eq "$(ls -A "$T/elsewhere")" "" "written through the link"
  # a file where the folder should be
  echo x > "$T/file"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/file" "$BASE/v.tar.zst"
  assert_eq "$(cat "$T/file")" x "the file given as DIR"
}

# A second fixture server on another port of 127.0.0.1 (or on $2), logging
# the Authorization header of every request to $1; sets PORT2.
start_second_server() {
  AUTH_LOG=$1 SERVER_ADDR=${2:-127.0.0.1} python3 "$KB_FIX/server.py" "$T/www" "$T/port2" &
  SRV2=$!
  trap 'kill $SRV $SRV2 2>/dev/null; wait $SRV $SRV2 2>/dev/null; lib_teardown' EXIT
  wait_until '[ -s "$T/port2" ]' 10
  PORT2=$(cat "$T/port2")
}

# Issue 30, 15: a netrc password goes to its machine's host and port only:
# not along a redirect to another port of that host, and a "default" entry
# not to a redirect's other host; the same for a source download's ~/.netrc.
test_netrc_credentials_do_not_follow_redirects() {
  AUTH_LOG=$T/auth1.log start_server
  start_second_server "$T/auth2.log"
  serve_archive v.tar.zst
  printf 'machine 127.0.0.1 login lab password hunter2\n' > "$T/netrc"
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" --netrc-file "$T/netrc" "$BASE/redirect/$PORT2/v.tar.zst"
  assert_grep "GET /redirect/$PORT2/v.tar.zst auth=Basic" "$T/auth1.log"   # sent where it belongs
  assert_grep "GET /v.tar.zst auth=-" "$T/auth2.log"
  grep -q "plain http" "$T/err" && fail "warned about loopback"
  # a "default" entry: to the URL's host, not to the host redirected to
  printf 'default login lab password hunter2\n' > "$T/netrc-default"
  rm -rf "$T/dl"
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" --netrc-file "$T/netrc-default" "$BASE/redirect-host/v.tar.zst"
  assert_grep "GET /redirect-host/v.tar.zst auth=Basic" "$T/auth1.log"
  assert_grep "GET /v.tar.zst auth=-" "$T/auth1.log"
  grep -q "GET /v.tar.zst auth=Basic" "$T/auth1.log" "$T/auth2.log" && fail "the password followed a redirect"
  # a source download reads ~/.netrc by the same rule
  mkdir -p "$T/home"; cp "$T/netrc" "$T/home/.netrc"; : > "$T/auth2.log"
  echo data > "$T/www/blob"
  HOME=$T/home expect_exit 0 "$LRUBENCH" fetch --cache "$T/cache" "$BASE/redirect/$PORT2/blob"
  assert_grep "GET /blob auth=-" "$T/auth2.log"
  grep -q hunter2 "$T/out" "$T/err" && fail "the password was printed"
  true
}

# netrc credentials over plain http to a host that is not loopback: a
# warning (this machine's own non-loopback address, so nothing leaves it).
test_netrc_over_plain_http_warns() {
  local ip
  ip=$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -1)
  [ -n "$ip" ] || skip "no non-loopback IPv4 address on this machine"
  start_server
  start_second_server "$T/auth2.log" "$ip"
  serve_archive v.tar.zst
  printf 'machine %s login lab password hunter2\n' "$ip" > "$T/netrc"
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" --netrc-file "$T/netrc" "http://$ip:$PORT2/v.tar.zst"
  assert_grep_err "sending the password of $T/netrc's entry for $ip over plain http"
  assert_grep "GET /v.tar.zst auth=Basic" "$T/auth2.log"
  grep -q hunter2 "$T/out" "$T/err" && fail "the password was printed"
  true
}
