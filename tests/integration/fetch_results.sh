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
