# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12, item 10: plot with hostile names and values draws every figure
# it can (a label starting with a quote, an op named "100%", a 300-character
# title, ops without samples, means that overflow a double), and never
# writes through a symlink planted in -o.

hostile_results() {  # hostile_results DIR
  python3 - "$1" <<'PY'
import json, os, sys
root = sys.argv[1]
for i, lab in enumerate(["'quote", "100%-lab"]):
    d = os.path.join(root, "l%d" % i)
    os.makedirs(d)
    json.dump({"schema": 1, "label": lab, "status": "complete",
               "started": "2026-01-0%dT00:00:00Z" % (i + 1)}, open(d + "/run.json", "w"))
    tables = [
        {"title": "normal", "unit": "u", "better": "higher",
         "ops": [{"op": "memcgs-1", "samples": [1, 2, 3]}, {"op": "memcgs-2", "samples": [2, 3, 4]}]},
        {"title": "percent op", "unit": "u", "better": "higher",
         "ops": [{"op": "100%", "samples": [1, 2, 3]}, {"op": "a'b\"c", "samples": [2, 3]}]},
        {"title": "T" * 300, "unit": "u", "better": "lower", "ops": [{"op": "x", "samples": [1, 2]}]},
        {"title": "empty ops", "unit": "u", "better": "lower",
         "ops": [{"op": "e1", "samples": []}, {"op": "e2", "samples": []}]},
        {"title": "huge", "unit": "u", "better": "lower",
         "ops": [{"op": "h", "samples": [1.7e308, 1.7e308]}, {"op": "fine", "samples": [1, 2]}]},
    ]
    json.dump({"schema": 1, "workload": "w", "tables": tables}, open(d + "/w.json", "w"))
PY
}

test_plot_hostile_names_and_values_draw_every_figure() {
  need_cmd gnuplot gnuplot-nox
  hostile_results "$T/r"
  expect_exit 0 "$LRUBENCH" plot -q -o "$T/plots" "$T/r"
  local f
  for f in w-normal-scaling w-percent-op-bars w-huge-bars; do
    [ -s "$T/plots/$f.png" ] || fail "figure $f.png missing or empty: $(ls "$T/plots")"
  done
  # the 300-character title makes a file name that fits
  ls "$T/plots" | grep -q '^w-tttttttttt.*-bars\.png$' || fail "no figure of the long title"
  assert_grep_err "empty ops: nothing to draw"
  assert_grep_err "huge: op h of 'quote: the mean or stddev overflows a double: not drawn"
}

# Issue 30: a planted symlink is neither written through nor replaced (lrubench
# replaces only regular files): that figure fails, the others are published.
test_plot_refuses_a_planted_symlink_and_never_writes_through_it() {
  need_cmd gnuplot gnuplot-nox
  echo "keep me" >"$T/victim"
  mkdir -p "$T/plots"
  ln -s "$T/victim" "$T/plots/index.md"
  ln -s "$T/victim" "$T/plots/thpscale-fault-latencies-bars.gp"
  expect_exit 1 "$LRUBENCH" plot -q -o "$T/plots" "$LRUBENCH_SRC/tests/fixtures/compare/edge"
  assert_eq "$(cat "$T/victim")" "keep me" "the symlink's target"
  [ -L "$T/plots/index.md" ] || fail "index.md's planted symlink was replaced"
  assert_grep_err "$T/plots/index.md is a symbolic link"
  [ -s "$T/plots/thpscale-fault-latencies-bars.png" ] || fail "the other figures were not published"
  ls -A "$T/plots" | grep -q lrubench-plot && fail "the staging folder was left"
  true
}
