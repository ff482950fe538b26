# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12, items 2 and 5: what fetch accepts (schemes, credentials), how
# readable cache entries are, and the limits of a download (size, deadline)
# and of an extraction (bytes, entries, ratio). The HTTP side is the test
# fixture server on 127.0.0.1 (tests/fixtures/kernbench/server.py).
source "$LRUBENCH_SRC/tests/fixtures/kernbench/common.sh"

test_fetch_refuses_credentials_in_a_url() {
  start_server
  echo data > "$T/www/blob"
  local url="http://user:s3cret@127.0.0.1:$PORT/blob"
  expect_exit 2 "$LRUBENCH" fetch "$url" --cache "$T/cache"
  assert_grep_err "http://\*\*\*@127.0.0.1:$PORT/blob: a password in a URL would be stored"
  assert_grep_err "netrc"
  grep -rq s3cret "$T/out" "$T/err" && fail "the password was printed"
  grep -rqs s3cret "$T/cache" && fail "the password was stored"
  true
}

test_fetch_file_url_keeps_a_private_file_private() {
  echo secret >"$T/private"; chmod 600 "$T/private"
  echo public >"$T/public"; chmod 644 "$T/public"
  expect_exit 0 "$LRUBENCH" fetch "file://$T/private" --cache "$T/cache"
  expect_exit 0 "$LRUBENCH" fetch "file://$T/public" --cache "$T/cache"
  local k
  k=$(printf '%s' "file://$T/private" | sha256sum | cut -c1-64)
  assert_eq "$(stat -c %a "$T/cache/$k")" 600 "mode of the entry of a 0600 file"
  k=$(printf '%s' "file://$T/public" | sha256sum | cut -c1-64)
  assert_eq "$(stat -c %a "$T/cache/$k")" 644 "mode of the entry of a 0644 file"
}

test_fetch_file_url_refuses_fifos_and_devices() {
  mkfifo "$T/fifo"
  expect_exit 1 timeout -k 5 60 "$LRUBENCH" fetch "file://$T/fifo" --cache "$T/cache"
  assert_grep_err "file://$T/fifo: cannot read $T/fifo: it is a FIFO"
  expect_exit 1 timeout -k 5 60 "$LRUBENCH" fetch "file:///dev/zero" --cache "$T/cache"
  assert_grep_err "it is a device"
  assert_cache_entries "$T/cache" 0
}

test_fetch_size_cap() {
  start_server
  head -c 3000000 /dev/urandom >"$T/www/blob"
  # a declared length over the cap: refused before the body
  expect_exit 1 "$LRUBENCH" fetch "$BASE/blob" --max-size 1M --cache "$T/cache"
  assert_grep_err "cannot fetch $BASE/blob: larger than 1MB (--max-size, kernbench.fetch_max_size)"
  # no length at all, bytes forever: refused when the cap is passed
  expect_exit 1 timeout -k 5 120 "$LRUBENCH" fetch "$BASE/endless/x" --max-size 2M --cache "$T/cache"
  assert_grep_err "larger than 2MB"
  assert_cache_entries "$T/cache" 0
}

test_fetch_deadline_stops_a_trickling_server() {
  start_server
  # 1.2 KB/s passes curl's low-speed check (1 KB/s) forever
  expect_exit 1 timeout -k 5 120 "$LRUBENCH" fetch "$BASE/trickle/x" --timeout 3s --cache "$T/cache"
  assert_grep_err "not done within the time limit (--timeout, kernbench.fetch_timeout)"
  assert_cache_entries "$T/cache" 0
  expect_exit 2 "$LRUBENCH" fetch "$BASE/x" --timeout soon
  assert_grep_err "--timeout wants a time"
}

# a tarball whose one file is sparse: the archive is tiny, the file is not
sparse_tarball() {  # sparse_tarball OUT SIZE
  mkdir -p "$T/sp/top"
  truncate -s "$2" "$T/sp/top/big"
  tar -C "$T/sp" -cSzf "$1" top
  rm -rf "$T/sp"
}

test_extract_refuses_a_1t_sparse_file() {
  sparse_tarball "$T/a.tar.gz" 1T
  expect_exit 1 "$LRUBENCH" fetch "$T/a.tar.gz" --extract "$T/tree"
  assert_grep_err "refusing $T/a.tar.gz at entry 'top/big': its entries hold more than 16GB"
  assert_no_file "$T/tree"
  assert_no_file "$T/tree.extracting"
}

test_extract_refuses_a_bomb_by_ratio() {
  # 300 MB out of a few hundred bytes of gzip
  sparse_tarball "$T/a.tar.gz" 300M
  expect_exit 1 "$LRUBENCH" fetch "$T/a.tar.gz" --extract "$T/tree"
  assert_grep_err "is more than 100 times its size (--extract-max-ratio"
  assert_no_file "$T/tree"
  # the limit is the user's to raise
  expect_exit 0 "$LRUBENCH" fetch "$T/a.tar.gz" --extract "$T/tree" --extract-max-ratio 10000000
}

test_extract_refuses_too_many_entries() {
  python3 - "$T/many.tar" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    for i in range(1001):
        info = tarfile.TarInfo("top/f%d" % i)
        t.addfile(info, io.BytesIO(b""))
PY
  expect_exit 1 "$LRUBENCH" fetch "$T/many.tar" --extract "$T/tree" --extract-max-files 1000
  assert_grep_err "more than 1000 entries (--extract-max-files"
  assert_no_file "$T/tree"
  expect_exit 0 "$LRUBENCH" fetch "$T/many.tar" --extract "$T/tree" --extract-max-files 1001
}
