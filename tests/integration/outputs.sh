# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 30 (high 2 and 3): every output path lrubench is given (report -o,
# compare --junit, pack -o, plot -o, trend -o) is written only as a regular
# file it replaces, a device or FIFO it writes in place, or a descriptor of
# its own (/dev/stdout); a symlink, folder or block device planted there is
# refused and left as it was. Device nodes are our own (mknod in $T), so a
# regression can never turn the machine's /dev/null into a file.

EDGE=$LRUBENCH_SRC/tests/fixtures/compare/edge

test_output_files_never_replace_a_device_node() {
  need_root
  mknod "$T/null" c 1 3
  expect_exit 0 "$LRUBENCH" report -o "$T/null" "$EDGE"
  [ -c "$T/null" ] || fail "report -o turned the device node into $(stat -c %F "$T/null")"
  expect_exit 0 "$LRUBENCH" compare --junit "$T/null" "$EDGE"
  [ -c "$T/null" ] || fail "compare --junit turned the device node into $(stat -c %F "$T/null")"
  expect_exit 1 "$LRUBENCH" pack --force -o "$T/null" "$EDGE/5.9-rc2-vanilla"
  assert_grep_err "$T/null is a device, a FIFO or a descriptor: an archive replaces only a regular file"
  [ -c "$T/null" ] || fail "pack --force -o turned the device node into $(stat -c %F "$T/null")"
  ls -A "$T" | grep -q 'tmp' && fail "a temp file was left: $(ls -A "$T")"
  true
}

test_output_to_a_fifo_or_stdout_is_written_in_place() {
  mkfifo "$T/fifo"
  # a bounded reader: a FIFO that was replaced would leave it waiting
  timeout 20 cat "$T/fifo" >"$T/got" &
  local reader=$!
  expect_exit 0 "$LRUBENCH" report -o "$T/fifo" "$EDGE"
  wait "$reader"
  [ -p "$T/fifo" ] || fail "the FIFO was replaced"
  assert_grep "5.9-rc2-lruv18" "$T/got"
  # /dev/stdout is our descriptor 1, whatever it is (here a file)
  expect_exit 0 "$LRUBENCH" report -o /dev/stdout "$EDGE"
  assert_grep "5.9-rc2-lruv18" "$T/out"
}

test_output_symlink_and_folder_are_refused() {
  echo "keep me" >"$T/victim"
  ln -s "$T/victim" "$T/report.txt"
  expect_exit 1 "$LRUBENCH" report -o "$T/report.txt" "$EDGE"
  assert_grep_err "$T/report.txt is a symbolic link: lrubench writes only to a regular file"
  assert_eq "$(cat "$T/victim")" "keep me" "the symlink's target"
  [ -L "$T/report.txt" ] || fail "the symlink was replaced"
  mkdir "$T/j.xml"
  expect_exit 1 "$LRUBENCH" compare --junit "$T/j.xml" "$EDGE"
  assert_grep_err "$T/j.xml is a folder"
  [ -d "$T/j.xml" ] || fail "the folder was replaced"
}

# high 3: gnuplot opened trend's FIGURE path itself, following a planted link
test_trend_figure_never_writes_through_a_planted_symlink() {
  need_cmd gnuplot gnuplot-nox
  echo "keep me" >"$T/victim"
  mkdir "$T/fig"
  ln -s "$T/victim" "$T/fig/trend.png"
  ln -s "$T/victim" "$T/fig/trend.gp"
  expect_exit 1 "$LRUBENCH" trend -o "$T/fig/trend.png" "$EDGE"
  assert_grep_err "$T/fig/trend.png is a symbolic link"
  assert_eq "$(cat "$T/victim")" "keep me" "the symlink's target"
  [ -L "$T/fig/trend.png" ] && [ -L "$T/fig/trend.gp" ] || fail "a planted symlink was replaced"
  # what was not planted is published, and no staging folder stays
  [ -s "$T/fig/trend.dat" ] || fail "trend.dat missing: $(ls -A "$T/fig")"
  ls -A "$T/fig" | grep -q lrubench-plot && fail "the staging folder was left"
  # without the links, the figure is drawn
  rm "$T/fig/trend.png" "$T/fig/trend.gp"
  expect_exit 0 "$LRUBENCH" trend -o "$T/fig/trend.png" "$EDGE"
  [ -s "$T/fig/trend.png" ] || fail "no trend.png"
  true
}
