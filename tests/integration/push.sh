# SPDX-License-Identifier: GPL-2.0-or-later
# lrubench push and fetch --results against a real results store: Debian's
# nginx with its WebDAV module, started by each test on 127.0.0.1 with a
# config the test writes (tests/fixtures/store/nginx.sh), stopped and its
# state removed when the test ends, also on failure. Every failure of the
# store (401, 403, 5xx, a redirect loop, a hung server, no MOVE) is a clear
# error and exit 1, and leaves nothing half-written in the store.

source "$LRUBENCH_SRC/tests/fixtures/store/nginx.sh"
FIX=$LRUBENCH_SRC/tests/fixtures

push_setup() {
  start_store
  mkdir -p "$T/r" "$T/tmp"
  export TMPDIR=$T/tmp
  cp -r "$FIX/compare/golden/6.8.0-vanilla" "$FIX/compare/golden/6.8.0-patched" "$T/r/"
  "$LRUBENCH" pack -q "$T/r" -o "$T/both.tar.zst" || fail "pack failed"
}

# nothing but the archives named, and no temporary upload, below $1
assert_store() {
  local where=$1; shift
  assert_eq "$(store_files "$where" | tr '\n' ' ')" "$*" "files in the store's $where"
}

test_push_archive_and_folders_then_fetch_and_compare() {
  push_setup
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/results/run1/"
  assert_grep "pushed $T/both.tar.zst to $STORE/results/run1/both.tar.zst" "$T/out"
  cmp "$T/both.tar.zst" "$STORE_ROOT/results/run1/both.tar.zst" || fail "stored archive differs"
  # label folders are packed on the way, one archive per label
  expect_exit 0 "$LRUBENCH" push "$T/r" "$STORE/results/run2/"
  assert_store results "run1/both.tar.zst run2/6.8.0-patched.tar.zst run2/6.8.0-vanilla.tar.zst "
  # a URL naming the file
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/results/named.tar.zst"
  assert_file "$STORE_ROOT/results/named.tar.zst"
  # back, checked, and compared
  expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" "$STORE/results/run2/6.8.0-vanilla.tar.zst" \
    "$STORE/results/run2/6.8.0-patched.tar.zst"
  assert_grep "fetched $STORE/results/run2/6.8.0-vanilla.tar.zst into $T/dl/6.8.0-vanilla.tar.zst" "$T/out"
  expect_exit 0 "$LRUBENCH" compare "$T/dl"
  cp "$T/out" "$T/from-store.txt"
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  cmp "$T/out" "$T/from-store.txt" || fail "compare of the fetched archives differs from the folders"
  [ -z "$(ls -A "$T/dl" | grep -v '\.tar\.zst$')" ] || fail "left in the download folder: $(ls -A "$T/dl")"
  [ -z "$(ls -A "$T/tmp")" ] || fail "left in TMPDIR: $(ls -A "$T/tmp")"
}

test_push_keeps_an_existing_archive_unless_force() {
  push_setup
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/results/"
  mkdir -p "$T/other"
  "$LRUBENCH" pack -q "$T/r/6.8.0-vanilla" -o "$T/other/both.tar.zst" || fail "pack failed"
  expect_exit 1 "$LRUBENCH" push "$T/other/both.tar.zst" "$STORE/results/"
  assert_grep_err "MOVE $STORE/results/both.tar.zst: HTTP 412: an archive of that name exists already (--force replaces it)"
  cmp "$T/both.tar.zst" "$STORE_ROOT/results/both.tar.zst" || fail "the existing archive was replaced"
  assert_store results "both.tar.zst "
  expect_exit 0 "$LRUBENCH" push --force "$T/other/both.tar.zst" "$STORE/results/"
  cmp "$T/other/both.tar.zst" "$STORE_ROOT/results/both.tar.zst" || fail "--force did not replace it"
  assert_store results "both.tar.zst "
}

# The checksum header carries the file's sha256, base64 (RFC 9530).
test_push_sends_repr_digest() {
  push_setup
  local want
  want=$(python3 -c 'import base64,hashlib,sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1],"rb").read()).digest()).decode())' "$T/both.tar.zst")
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/results/"
  assert_grep "\"PUT /results/.both.tar.zst.part-[0-9a-f]* HTTP/1.1\" 201 digest=sha-256=:$want:" "$T/nginx/access.log"
  expect_exit 0 "$LRUBENCH" push --force --checksum none "$T/both.tar.zst" "$STORE/results/"
  assert_grep "201 digest=-" "$T/nginx/access.log"
}

test_push_token_never_shown() {
  push_setup
  expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/auth/"
  assert_grep_err "HTTP 401: the store wants credentials: set \$LRUBENCH_TOKEN"
  LRUBENCH_TOKEN=wrong-token expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/auth/"
  assert_grep_err "HTTP 401: the store refused the credentials given"
  if grep -q wrong-token "$T/out" "$T/err"; then fail "the token was printed"; fi
  assert_store auth ""
  LRUBENCH_TOKEN=$STORE_TOKEN expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/auth/"
  if grep -q "$STORE_TOKEN" "$T/out" "$T/err"; then fail "the token was printed"; fi
  printf '%s\n' "$STORE_TOKEN" > "$T/token"
  expect_exit 0 "$LRUBENCH" push --force --token-file "$T/token" "$T/both.tar.zst" "$STORE/auth/"
  LRUBENCH_TOKEN_FILE=$T/token expect_exit 0 "$LRUBENCH" push --force "$T/both.tar.zst" "$STORE/auth/"
  assert_store auth "both.tar.zst "
  # fetching from the store takes the same credentials
  expect_exit 1 "$LRUBENCH" fetch --results "$T/dl" "$STORE/auth/both.tar.zst"
  assert_grep_err "HTTP status 401: the store wants credentials"
  LRUBENCH_TOKEN=$STORE_TOKEN expect_exit 0 "$LRUBENCH" fetch --results "$T/dl" "$STORE/auth/both.tar.zst"
  assert_file "$T/dl/both.tar.zst"
  # never on a command line
  expect_exit 2 "$LRUBENCH" push "$T/both.tar.zst" "http://user:$STORE_TOKEN@127.0.0.1:1/auth/"
  assert_grep_err "refusing a URL with a user name or password"
  expect_exit 2 "$LRUBENCH" push --token "$STORE_TOKEN" "$T/both.tar.zst" "$STORE/auth/"
  # a token file that is not one
  head -c 5000 /dev/zero | tr '\0' x > "$T/big-token"
  expect_exit 1 "$LRUBENCH" push --token-file "$T/big-token" "$T/both.tar.zst" "$STORE/auth/x/"
  assert_grep_err "is not a regular file of at most 4 KiB"
}

test_push_netrc() {
  push_setup
  # /auth/ wants a bearer token; netrc sends basic auth, refused the same
  printf 'machine 127.0.0.1 login lab password hunter2\n' > "$T/netrc"
  expect_exit 1 "$LRUBENCH" push --netrc-file "$T/netrc" "$T/both.tar.zst" "$STORE/auth/"
  assert_grep_err "HTTP 401"
  if grep -q hunter2 "$T/out" "$T/err"; then fail "the netrc password was printed"; fi
  grep -q "Basic" "$T/nginx/access.log" && fail "access log holds credentials?"
  expect_exit 1 "$LRUBENCH" push --netrc-file "$T/nonexistent" "$T/both.tar.zst" "$STORE/results/"
  assert_grep_err "the netrc file $T/nonexistent is not a regular file"
}

test_push_store_failures_leave_nothing() {
  push_setup
  expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/ro/"
  assert_grep_err "PUT $STORE/ro/both.tar.zst (as .both.tar.zst.part-[0-9a-f]*): HTTP 403: forbidden"
  assert_store ro ""
  expect_exit 1 "$LRUBENCH" push --retries 1 "$T/both.tar.zst" "$STORE/broken/"
  assert_grep_err "HTTP 503, the store is unavailable; retrying in 1 s (1 of 1)"
  assert_grep_err "PUT $STORE/broken/both.tar.zst (as .*): HTTP 503: the store is unavailable"
  expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/loop/"
  assert_grep_err "the store redirects in a loop (more than 10 redirects)"
  # no MOVE: the final name directly, and the temporary one deleted
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/nomove/"
  assert_grep_err "the store does not MOVE (HTTP 405)"
  assert_store nomove "both.tar.zst "
  grep -q 'DELETE /nomove/.both.tar.zst.part-' "$T/nginx/access.log" || fail "no DELETE of the temporary upload"
}

test_push_hung_store_deadline() {
  push_setup
  start_slow_server
  expect_exit 1 "$LRUBENCH" push --retries 0 --timeout 2 "$T/both.tar.zst" "$SLOW/results/"
  assert_grep_err "PUT $SLOW/results/both.tar.zst (as .*): no complete answer within 2 s"
}

test_push_refused_connection_and_bad_input() {
  push_setup
  local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "http://127.0.0.1:$port/results/"
  assert_grep_err "PUT http://127.0.0.1:$port/results/both.tar.zst (as .*): .*onnect"
  # not a results archive: refused before anything is sent
  head -c 1000 /dev/urandom > "$T/noise.tar.zst"
  expect_exit 2 "$LRUBENCH" push "$T/noise.tar.zst" "$STORE/results/"
  assert_grep_err "noise.tar.zst is not a results archive"
  assert_store results ""
  expect_exit 2 "$LRUBENCH" push "$T/both.tar.zst" "ftp://127.0.0.1/x/"
  assert_grep_err "is not an http:// or https:// URL"
  expect_exit 2 "$LRUBENCH" push "$T/both.tar.zst" "$T/r" "$STORE/results/x.tar.zst"
  assert_grep_err "give a URL ending in '/'"
  expect_exit 2 "$LRUBENCH" push "$T/both.tar.zst"
  expect_exit 2 "$LRUBENCH" push --checksum md5 "$T/both.tar.zst" "$STORE/results/"
  expect_exit 2 "$LRUBENCH" push --timeout never "$T/both.tar.zst" "$STORE/results/"
  assert_store results ""
}

test_push_fetch_results_refuses_bad_archives() {
  push_setup
  mkdir -p "$STORE_ROOT/results/bad"
  head -c 1000 /dev/urandom > "$STORE_ROOT/results/bad/noise.tar.zst"
  python3 "$FIX/pack/hostile.py" dotdot "$STORE_ROOT/results/bad/evil.tar.gz" "$T/outside"
  expect_exit 1 "$LRUBENCH" fetch --results "$T/dl" "$STORE/results/bad/noise.tar.zst"
  assert_grep_err "noise.tar.zst is not a results archive that lrubench can read: not saved"
  expect_exit 1 "$LRUBENCH" fetch --results "$T/dl" "$STORE/results/bad/evil.tar.gz"
  assert_grep_err "refusing entry 'good/../../outside/escaped'"
  expect_exit 1 "$LRUBENCH" fetch --results "$T/dl" "$STORE/results/bad/missing.tar.zst"
  assert_grep_err "HTTP status 404"
  assert_eq "$(ls -A "$T/dl")" "" "files left in the download folder"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" "$STORE/results/bad/"
  assert_grep_err "the URL must end in a file name like NAME.tar.zst"
  expect_exit 2 "$LRUBENCH" fetch --results "$T/dl" --sha256 "$(printf '%064d' 0)" "$STORE/results/x.tar.zst"
  expect_exit 2 "$LRUBENCH" fetch --token-file "$T/x" "$STORE/results/x.tar.zst"
  assert_grep_err "go with --results"
}

test_push_sigint_leaves_nothing_in_the_store() {
  push_setup
  # a big archive (incompressible logs), sent slowly enough to interrupt:
  # nginx reads the body as fast as it comes, so the test makes the file big
  mkdir -p "$T/big/6.8.0-vanilla/logs"
  cp "$T/r/6.8.0-vanilla/"*.json "$T/big/6.8.0-vanilla/"
  local i
  for i in $(seq 12); do head -c 15000000 /dev/urandom > "$T/big/6.8.0-vanilla/logs/l$i.log"; done
  "$LRUBENCH" pack -q "$T/big/6.8.0-vanilla" -o "$T/big.tar.zst" || fail "pack failed"
  "$LRUBENCH" push "$T/big.tar.zst" "$STORE/results/" >"$T/out" 2>"$T/err" &
  local pid=$!
  for i in $(seq 200); do
    grep -q 'PUT /results/.big.tar.zst.part' "$T/nginx/access.log" && break
    [ -n "$(ls -A "$T/nginx/tmp/body" 2>/dev/null)" ] && break
    sleep 0.02
  done
  kill -INT $pid
  wait $pid; local rc=$?
  if [ "$rc" = 0 ]; then skip "the upload finished before SIGINT came (a fast machine)"; fi
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_store results ""
}

# Issue 30, 17: a file name is one path segment of URL/, percent-encoded:
# '?', '&', '=' and '#' in it are not a query or a fragment, and the
# upload still goes to a temporary name and MOVE.
test_push_percent_encodes_the_file_name() {
  push_setup
  local odd='a?x=1&y=2#.tar.zst'
  cp "$T/both.tar.zst" "$T/$odd"
  expect_exit 0 "$LRUBENCH" push "$T/$odd" "$STORE/results/"
  assert_grep "pushed $T/$odd to $STORE/results/a%3Fx%3D1%26y%3D2%23.tar.zst" "$T/out"
  assert_store results "$odd "
  cmp "$T/both.tar.zst" "$STORE_ROOT/results/$odd" || fail "stored archive differs"
  assert_grep '"PUT /results/.a%3Fx%3D1%26y%3D2%23.tar.zst.part-[0-9a-f]* HTTP/1.1" 201' "$T/nginx/access.log"
  assert_grep '"MOVE /results/.a%3Fx%3D1%26y%3D2%23.tar.zst.part-[0-9a-f]* HTTP/1.1" 20[14]' "$T/nginx/access.log"
}

# Issue 30, 16: a MOVE that answers 201 and does nothing is an error (HEAD
# finds no archive), and the temporary upload is deleted; a PUT the store
# redirects is reported under the URL it went to.
test_push_checks_the_store_did_what_it_said() {
  push_setup
  expect_exit 1 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/fakemove/"
  assert_grep_err "MOVE $STORE/fakemove/both.tar.zst: the store answered that it was done, but there is nothing there (HEAD: HTTP 404): not pushed"
  grep -q "pushed" "$T/out" && fail "reported pushed"
  assert_store fakemove ""
  # redirected: reported (and, with temp-and-MOVE, moved) where it went
  expect_exit 0 "$LRUBENCH" push --direct "$T/both.tar.zst" "$STORE/moved/"
  assert_grep "pushed $T/both.tar.zst to $STORE/results/elsewhere/moved/both.tar.zst" "$T/out"
  rm "$STORE_ROOT/results/elsewhere/moved/both.tar.zst"
  expect_exit 0 "$LRUBENCH" push "$T/both.tar.zst" "$STORE/moved/"
  assert_grep "pushed $T/both.tar.zst to $STORE/results/elsewhere/moved/both.tar.zst" "$T/out"
  assert_store results "elsewhere/moved/both.tar.zst "
}
