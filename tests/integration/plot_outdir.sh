# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 30, 22: plot -o DIR opens DIR by descriptor (O_DIRECTORY|O_NOFOLLOW):
# a symlink given or planted as the output folder is refused (exit 2), and
# nothing is written where it leads. (fetch --results DIR: fetch_results.sh.)
GOLDEN=$LRUBENCH_SRC/tests/fixtures/compare/golden

test_plot_refuses_a_symlinked_output_folder() {
  mkdir -p "$T/victim"
  ln -s "$T/victim" "$T/plots"
  expect_exit 2 "$LRUBENCH" plot -q -o "$T/plots" "$GOLDEN/6.8.0-vanilla" "$GOLDEN/6.8.0-patched"
  assert_grep_err "$T/plots is a symbolic link: lrubench writes only into a real folder"
  assert_eq "$(ls -A "$T/victim")" "" "written through the link"
  # a link to a folder that does not exist yet: not created through it
  ln -s "$T/not-yet" "$T/plots2"
  expect_exit 2 "$LRUBENCH" plot -q -o "$T/plots2" "$GOLDEN/6.8.0-vanilla"
  assert_no_file "$T/not-yet"
  # the real folder it leads to is fine
  need_cmd gnuplot gnuplot-nox
  expect_exit 0 "$LRUBENCH" plot -q -o "$T/victim" "$GOLDEN/6.8.0-vanilla" "$GOLDEN/6.8.0-patched"
  assert_file "$T/victim/index.md"
  ls -A "$T/victim" | grep -q lrubench-plot && fail "the staging folder was left"
  true
}
