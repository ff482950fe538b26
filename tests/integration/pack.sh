# SPDX-License-Identifier: GPL-2.0-or-later
# lrubench pack, and results archives read by compare and plot wherever they
# read label folders: what goes in, the three compressions, archives and
# folders mixed, and every bad archive (tests/fixtures/pack/hostile.py):
# exit 2, the entry named, nothing written outside the private temp folder,
# which is gone when lrubench exits. No root needed.

FIX=$LRUBENCH_SRC/tests/fixtures
HELPER=${LRUBENCH%/*}/lrubench-net

# a results folder with labels v (vanilla) and p (patched) from the golden
# fixture, logs and junk included; TMPDIR private so leftovers can be seen
pack_setup() {
  mkdir -p "$T/r" "$T/tmp"
  cp -r "$FIX/compare/golden/6.8.0-vanilla" "$T/r/6.8.0-vanilla"
  cp -r "$FIX/compare/golden/6.8.0-patched" "$T/r/6.8.0-patched"
  mkdir -p "$T/r/6.8.0-vanilla/logs/round-1"
  echo "a log line" > "$T/r/6.8.0-vanilla/logs/readtwice.log"
  echo "round one" > "$T/r/6.8.0-vanilla/logs/round-1/console.log"
  echo scratch > "$T/r/6.8.0-vanilla/scratch.tmp"
  echo '{}' > "$T/r/6.8.0-vanilla/.hidden.json"
  ln -s /etc/passwd "$T/r/6.8.0-vanilla/logs/passwd.log"
  export TMPDIR=$T/tmp
}

assert_tmp_clean() {
  [ -z "$(ls -A "$T/tmp")" ] || fail "left in TMPDIR: $(ls -A "$T/tmp")"
}

test_pack_contents() {
  pack_setup
  expect_exit 0 "$LRUBENCH" pack "$T/r/6.8.0-vanilla" -o "$T/v.tar.zst"
  assert_grep "packed 1 label (4 files" "$T/out"
  assert_grep_err "left out $T/r/6.8.0-vanilla/logs/passwd.log: not a regular file"
  tar --zstd -tf "$T/v.tar.zst" > "$T/list"
  assert_eq "$(head -1 "$T/list")" "lrubench-archive.json" "first entry"
  assert_eq "$(sort "$T/list" | tr '\n' ' ')" "6.8.0-vanilla/ 6.8.0-vanilla/logs/ 6.8.0-vanilla/logs/readtwice.log 6.8.0-vanilla/logs/round-1/ 6.8.0-vanilla/logs/round-1/console.log 6.8.0-vanilla/readtwice.json 6.8.0-vanilla/run.json lrubench-archive.json " "entries"
  tar --zstd -xOf "$T/v.tar.zst" lrubench-archive.json > "$T/manifest"
  assert_eq "$(json_get "$T/manifest" '["format"]')" lrubench-results "format"
  assert_eq "$(json_get "$T/manifest" '["schema"]')" 1 "schema"
  assert_eq "$(json_get "$T/manifest" '["labels"]')" "['6.8.0-vanilla']" "labels"
  tar --zstd -xOf "$T/v.tar.zst" 6.8.0-vanilla/readtwice.json | cmp - "$T/r/6.8.0-vanilla/readtwice.json" ||
    fail "readtwice.json differs in the archive"
  # one label and no -o: LABEL.tar.zst here
  (cd "$T" && "$LRUBENCH" pack -q r/6.8.0-patched) || fail "pack without -o"
  assert_file "$T/6.8.0-patched.tar.zst"
  assert_tmp_clean
}

test_pack_compare_archives_folders_mixed() {
  pack_setup
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  cp "$T/out" "$T/folders.txt"
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/both.tar.zst"
  assert_grep "packed 2 labels" "$T/out"
  expect_exit 0 "$LRUBENCH" compare "$T/both.tar.zst"
  cmp "$T/out" "$T/folders.txt" || fail "compare on the archive differs from compare on the folders"
  # mixed: one archive, one folder
  expect_exit 0 "$LRUBENCH" pack "$T/r/6.8.0-vanilla" -o "$T/v.tar.zst" -q
  expect_exit 0 "$LRUBENCH" compare "$T/v.tar.zst" "$T/r/6.8.0-patched"
  cmp "$T/out" "$T/folders.txt" || fail "compare on an archive and a folder differs"
  # a folder holding a label folder and an archive
  mkdir "$T/mixed"
  cp -r "$T/r/6.8.0-patched" "$T/mixed/"
  cp "$T/v.tar.zst" "$T/mixed/"
  expect_exit 0 "$LRUBENCH" compare "$T/mixed"
  cmp "$T/out" "$T/folders.txt" || fail "compare on a folder with an archive in it differs"
  # the json names where a label came from
  expect_exit 0 "$LRUBENCH" compare -f json "$T/v.tar.zst" "$T/r/6.8.0-patched"
  assert_grep "\"dir\": \"$T/v.tar.zst:6.8.0-vanilla\"" "$T/out"
  # the same label in an archive and a folder
  expect_exit 2 "$LRUBENCH" compare "$T/v.tar.zst" "$T/r"
  assert_grep_err "label '6.8.0-vanilla' is in both"
  assert_tmp_clean
}

test_pack_gzip_and_xz() {
  pack_setup
  expect_exit 0 "$LRUBENCH" compare "$T/r"
  cp "$T/out" "$T/folders.txt"
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/a.tar.gz"
  gzip -t "$T/a.tar.gz" || fail "not gzip"
  expect_exit 0 "$LRUBENCH" pack "$T/r" --compress xz -o "$T/a.tar.xz"
  xz -t "$T/a.tar.xz" || fail "not xz"
  expect_exit 0 "$LRUBENCH" pack "$T/r" --compress gzip -o "$T/b.archive"
  gzip -t "$T/b.archive" || fail "--compress gzip did not make gzip"
  for f in a.tar.gz a.tar.xz b.archive; do
    expect_exit 0 "$LRUBENCH" compare "$T/$f"
    cmp "$T/out" "$T/folders.txt" || fail "compare on $f differs"
  done
  expect_exit 2 "$LRUBENCH" pack "$T/r" --compress xz -o "$T/c.tar.gz"
  assert_grep_err "compress xz, but $T/c.tar.gz ends like a gzip archive"
  expect_exit 2 "$LRUBENCH" pack "$T/r" --compress lz4 -o "$T/c.tar"
  assert_grep_err "'lz4' is not zstd, gzip or xz"
  assert_no_file "$T/c.tar.gz"
  assert_tmp_clean
}

test_pack_bad_input() {
  pack_setup
  expect_exit 2 "$LRUBENCH" pack "$T/r"
  assert_grep_err "2 labels: name the archive with -o FILE"
  expect_exit 2 "$LRUBENCH" pack "$T/nonexistent" -o "$T/x.tar.zst"
  assert_grep_err "$T/nonexistent: no such folder"
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/x.tar.zst"
  cp "$T/x.tar.zst" "$T/x.orig"
  expect_exit 2 "$LRUBENCH" pack "$T/r" -o "$T/x.tar.zst"
  assert_grep_err "$T/x.tar.zst exists already (--force replaces it)"
  cmp "$T/x.tar.zst" "$T/x.orig" || fail "an existing archive was changed"
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/x.tar.zst" --force
  expect_exit 2 "$LRUBENCH" pack "$T/x.tar.zst" -o "$T/y.tar.zst"
  assert_grep_err "is a file, not a label folder"
  echo '{"schema": 1, "workload": "readtwice", "tables": [' > "$T/r/6.8.0-patched/readtwice.json"
  expect_exit 2 "$LRUBENCH" pack "$T/r" -o "$T/y.tar.zst"
  assert_grep_err "invalid JSON"
  assert_no_file "$T/y.tar.zst"
  [ -z "$(find "$T" -name '*.tmp-*')" ] || fail "temp files left: $(find "$T" -name '*.tmp-*')"
}

# Every bad archive of hostile.py: exit 2, the reason, nothing outside.
test_pack_hostile_archives() {
  pack_setup
  local kind want
  mkdir -p "$T/outside"
  while IFS='|' read -r kind want; do
    python3 "$FIX/pack/hostile.py" "$kind" "$T/$kind.tar.gz" "$T/outside"
    expect_exit 2 "$LRUBENCH" compare "$T/$kind.tar.gz" "$T/r/6.8.0-vanilla"
    assert_grep_err "$want"
    [ -s "$T/out" ] && fail "$kind: stdout not empty"
    assert_eq "$(ls -A "$T/outside")" "" "$kind: files written outside"
    assert_tmp_clean
  done <<'EOF'
not-results|is not an lrubench results archive: its first entry is 'linux-6.1/'
schema|results archive schema 2 is not known (this lrubench reads schema 1
format|not an lrubench results archive
unlisted|holds the folder 'extra', which its manifest does not list
missing-label|label 'absent' of its manifest has no run.json
nul-label|its manifest lists a bad label: it holds a NUL character
dotdot|refusing entry 'good/../../outside/escaped': '.' or '..' component
absolute|: absolute path
symlink|refusing entry 'good/logs': a symbolic link
hardlink|refusing entry 'good/passwd': a hard link
device|refusing entry 'good/null': a device, FIFO or socket
hidden|refusing entry 'good/.bashrc': a hidden file
bad-label|refusing entry '-rf/run.json': its folder is not a label
top-file|refusing entry 'stray.json': a file beside the label folders
deep|more than 5 levels deep
duplicate|refusing entry 'good/run.json': a second entry of this name
second-manifest|a second manifest
huge-file|refusing entry 'good/logs/huge.log': a file above 1 GiB
bomb|refusing entry 'good/logs/zeros.log': the files hold more than 100 times the archive's size
results-bomb|refusing entry 'good/readtwice.json': the results files hold more than 200 times the archive's size
EOF
}

test_pack_too_many_entries() {
  pack_setup
  # 20,001 folders: on tmpfs, where creating and removing them is quick
  [ -d /dev/shm ] && TMPDIR=$(mktemp -d /dev/shm/lrubench-test.XXXXXX)
  python3 "$FIX/pack/hostile.py" many "$T/many.tar.gz" "$T/outside"
  expect_exit 2 "$LRUBENCH" compare "$T/many.tar.gz" "$T/r/6.8.0-vanilla"
  assert_grep_err "more than 20000 entries"
  local left; left=$(ls -A "$TMPDIR")
  [ "$TMPDIR" != "$T/tmp" ] && rmdir "$TMPDIR"
  assert_eq "$left" "" "left in TMPDIR"
}

test_pack_truncated_and_not_archives() {
  pack_setup
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/x.tar.zst"
  local size; size=$(stat -c %s "$T/x.tar.zst")
  head -c $((size / 2)) "$T/x.tar.zst" > "$T/half.tar.zst"
  expect_exit 2 "$LRUBENCH" compare "$T/half.tar.zst"
  assert_grep_err "half.tar.zst.*truncated"
  head -c 1000 /dev/urandom > "$T/noise.tar.zst"
  expect_exit 2 "$LRUBENCH" compare "$T/noise.tar.zst" "$T/r"
  assert_grep_err "noise.tar.zst is not a results archive"
  : > "$T/empty.tar"
  expect_exit 2 "$LRUBENCH" compare "$T/empty.tar" "$T/r"
  assert_grep_err "empty.tar is not a results archive"
  mkfifo "$T/fifo.tar"
  expect_exit 2 "$LRUBENCH" compare "$T/fifo.tar" "$T/r"
  assert_grep_err "fifo.tar is not a regular file"
  # a results file that does not load names the archive, not the temp folder
  # (pack would refuse to pack it: the archive is written by hand)
  mkdir -p "$T/bad"; cp -r "$T/r/6.8.0-patched" "$T/bad/"
  echo '{"schema": 1, "workload": "readtwice", "tables": [' > "$T/bad/6.8.0-patched/readtwice.json"
  python3 - "$T/bad.tar.gz" "$T/bad/6.8.0-patched" <<'PY'
import io, json, os, sys, tarfile
out, d = sys.argv[1:]
with tarfile.open(out, "w:gz") as t:
    m = json.dumps({"format": "lrubench-results", "schema": 1, "labels": ["6.8.0-patched"]}).encode()
    ti = tarfile.TarInfo("lrubench-archive.json"); ti.size = len(m); t.addfile(ti, io.BytesIO(m))
    for f in ("run.json", "readtwice.json"):
        t.add(os.path.join(d, f), "6.8.0-patched/" + f)
PY
  expect_exit 2 "$LRUBENCH" compare "$T/bad.tar.gz" "$T/r/6.8.0-vanilla"
  assert_grep_err "$T/bad.tar.gz:6.8.0-patched/readtwice.json: invalid JSON"
  assert_tmp_clean
}

# Modes in an archive are dropped: what the helper writes is 0644/0755.
test_pack_unpack_drops_modes() {
  pack_setup
  python3 "$FIX/pack/hostile.py" modes "$T/modes.tar.gz" "$T/outside"
  mkdir "$T/dest"
  "$HELPER" unpack -- "$T/dest" "$T/modes.tar.gz" || fail "unpack failed"
  assert_eq "$(stat -c %a "$T/dest/1/good/logs/suid.log")" 644 "file mode"
  assert_eq "$(stat -c %a "$T/dest/1/good/logs")" 755 "folder mode"
}

# The monitors' series travel with the results: pack keeps series/, and the
# results-only unpack of compare and plot keeps it while it drops the logs.
test_pack_keeps_series_for_plot() {
  pack_setup
  mkdir -p "$T/r/6.8.0-vanilla/series/readtwice"
  printf 'a series stand-in\n' > "$T/r/6.8.0-vanilla/series/readtwice/memcgs-1.0.series"
  expect_exit 0 "$LRUBENCH" pack "$T/r/6.8.0-vanilla" -o "$T/v.tar.zst"
  tar --zstd -tf "$T/v.tar.zst" > "$T/list"
  assert_grep "^6.8.0-vanilla/series/readtwice/memcgs-1.0.series$" "$T/list"
  mkdir "$T/dest"
  "$HELPER" unpack --results-only -- "$T/dest" "$T/v.tar.zst" || fail "unpack failed"
  assert_file "$T/dest/1/6.8.0-vanilla/series/readtwice/memcgs-1.0.series"
  assert_file "$T/dest/1/6.8.0-vanilla/run.json"
  [ ! -e "$T/dest/1/6.8.0-vanilla/logs/readtwice.log" ] || fail "results-only kept a log"
}

test_pack_plot_reads_archives() {
  pack_setup
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/both.tar.zst"
  "$LRUBENCH" plot -q -o "$T/plots" "$T/both.tar.zst" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "plot on an archive exited $rc: $(cat "$T/err")"
  assert_file "$T/plots/index.md"
  assert_grep "both.tar.zst:6.8.0-vanilla" "$T/plots/index.md"
  assert_tmp_clean
}

# An unpack folder whose lrubench was SIGKILLed goes with the next unpack.
test_pack_stale_unpack_folder_removed() {
  pack_setup
  expect_exit 0 "$LRUBENCH" pack "$T/r" -o "$T/both.tar.zst"
  sleep 0 & local dead=$!; wait $dead
  mkdir -p "$T/tmp/lrubench-results-$dead-abcdef/1/x"
  mkdir -p "$T/tmp/lrubench-results-$$-abcdef"   # alive: this shell
  expect_exit 0 "$LRUBENCH" compare "$T/both.tar.zst"
  assert_no_file "$T/tmp/lrubench-results-$dead-abcdef"
  [ -d "$T/tmp/lrubench-results-$$-abcdef" ] || fail "removed the folder of a live process"
}

test_pack_sigint_leaves_no_partial_archive() {
  pack_setup
  # incompressible logs and xz: packing takes seconds
  local i
  for i in 1 2 3 4 5 6; do head -c 15000000 /dev/urandom > "$T/r/6.8.0-vanilla/logs/big$i.log"; done
  "$LRUBENCH" pack "$T/r" --compress xz -o "$T/big.tar.xz" >"$T/out" 2>"$T/err" &
  local pid=$!
  local i2
  for i2 in $(seq 400); do [ -n "$(find "$T" -maxdepth 1 -name '.big.tar.xz.tmp-*' -size +1k)" ] && break; sleep 0.05; done
  [ -n "$(find "$T" -maxdepth 1 -name '.big.tar.xz.tmp-*')" ] || fail "no temp archive appeared"
  kill -INT $pid
  wait $pid; local rc=$?
  assert_eq "$rc" 130 "exit code after SIGINT"
  assert_grep_err "interrupted while packing"
  assert_no_file "$T/big.tar.xz"
  [ -z "$(find "$T" -maxdepth 1 -name '.big.tar.xz.tmp-*')" ] || fail "temp archive left"
}

# report, trend and --baseline read archives as compare does.
test_pack_report_trend_baseline_read_archives() {
  pack_setup
  expect_exit 0 "$LRUBENCH" report --no-figures "$T/r"
  sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z//g' "$T/out" > "$T/folders.txt"
  expect_exit 0 "$LRUBENCH" pack -q "$T/r/6.8.0-vanilla" -o "$T/v.tar.zst"
  expect_exit 0 "$LRUBENCH" report --no-figures "$T/v.tar.zst" "$T/r/6.8.0-patched"
  sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z//g' "$T/out" > "$T/archive.txt"
  cmp "$T/folders.txt" "$T/archive.txt" || { diff "$T/folders.txt" "$T/archive.txt"; fail "report on an archive differs"; }
  expect_exit 0 "$LRUBENCH" trend "$T/v.tar.zst" "$T/r/6.8.0-patched"
  assert_grep "6.8.0-vanilla" "$T/out"
  # a fixed reference kept as an archive
  expect_exit 0 "$LRUBENCH" compare --baseline "$T/v.tar.zst" "$T/r/6.8.0-patched"
  assert_grep "^Labels: 6.8.0-vanilla (baseline), 6.8.0-patched" "$T/out"
  expect_exit 0 "$LRUBENCH" pack -q "$T/r" -o "$T/both.tar.zst"
  expect_exit 2 "$LRUBENCH" compare --baseline "$T/both.tar.zst" "$T/r/6.8.0-patched"
  assert_grep_err "the archive holds 2 labels"
  assert_tmp_clean
}

# A folder under logs/ that another user swaps for a link to a root-only
# folder while pack walks it (issue 30, point 7): the walk is by descriptor
# (openat with O_NOFOLLOW of each name under a folder held open), so no
# archive ever holds the root-only file. The swap is an atomic exchange
# (renameat2 RENAME_EXCHANGE) in a tight loop; with the old walk by path
# (lstat, then open of logs/d/key) 2 archives of 60 held it here.
test_pack_never_follows_a_swapped_folder() {
  need_root
  pack_setup
  local L=$T/r/6.8.0-vanilla i swapper held=0
  mkdir -p "$L/logs/d" "$T/secret"
  echo "an ordinary log" > "$L/logs/d/key"
  echo "root only" > "$T/secret/key"
  chmod 700 "$T/secret"
  ln -s "$T/secret" "$L/logs/d.link"
  python3 - "$L/logs" <<'PY' &
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
d = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
SYS_renameat2, RENAME_EXCHANGE = 316, 2
while True:
    if libc.syscall(SYS_renameat2, d, b"d", d, b"d.link", RENAME_EXCHANGE) != 0:
        sys.exit("renameat2: %s" % os.strerror(ctypes.get_errno()))
PY
  swapper=$!
  for i in $(seq 1 100); do
    "$LRUBENCH" pack -q "$L" -o "$T/a$i.tar.zst" >/dev/null 2>&1 || continue
    tar --zstd -xOf "$T/a$i.tar.zst" --wildcards '*/logs/d/key' 2>/dev/null | grep -q "root only" &&
      held=$((held + 1))
    rm -f "$T/a$i.tar.zst"
  done
  kill "$swapper"; wait "$swapper" 2>/dev/null
  assert_eq "$held" 0 "archives holding the root-only file"
  assert_tmp_clean
}
