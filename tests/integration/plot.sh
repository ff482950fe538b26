# SPDX-License-Identifier: GPL-2.0-or-later
# lrubench plot on the committed fixture results (tests/fixtures/plot/results:
# two labels; readtwice = a doubling sweep memcgs-1..8 whose tables declare
# their x axis, thpscale = three linear sweeps in one table plus a table with
# a single-sample op, written before tables declared an x axis, kerndevel =
# ops without numbers). The real gnuplot draws every figure.

PLOT_FIX="$LRUBENCH_SRC/tests/fixtures/plot/results"
PLOT_CHECK="$LRUBENCH_SRC/tests/integration/plot_check.py"
# The figures the fixture must give: <workload>-<table slug>-<kind>
PLOT_FIGS="
readtwice-mb-s-aggregate-scaling
readtwice-mb-s-aggregate-candles
readtwice-mb-s-per-memcg-scaling
readtwice-mb-s-per-memcg-candles
thpscale-fault-latencies-scaling-fault-base
thpscale-fault-latencies-scaling-fault-huge
thpscale-fault-latencies-scaling-fault-both
thpscale-fault-latencies-candles
thpscale-percentage-faults-huge-scaling
thpscale-percentage-faults-huge-candles
kerndevel-elapsed-time-bars
kerndevel-elapsed-time-candles
"
PLOT_W=960
PLOT_H=600

plot_expect_files() {   # DIR EXT
  local f n=0
  for f in $PLOT_FIGS; do
    assert_file "$1/$f.gp"
    assert_file "$1/$f.dat"
    [ -n "$2" ] && assert_file "$1/$f.$2"
    # the script names its data and image by relative path, so it runs from OUTDIR
    assert_grep "^plot \"$f.dat\" index 0 " "$1/$f.gp"
    assert_grep "^set output \"$f.${2:-png}\"" "$1/$f.gp"
    [ -n "$2" ] && assert_grep "($f.$2)" "$1/index.md"
    n=$((n + 1))
  done
  assert_file "$1/index.md"
  # nothing beyond the expected figures (an extra one means the sweep detection changed)
  assert_eq "$(ls "$1" | grep -c '\.gp$')" "$n" "number of .gp files in $1"
}

test_plot_png() {
  need_cmd gnuplot gnuplot-nox
  need_cmd python3
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  plot_expect_files "$T/plots" png
  for f in $PLOT_FIGS; do
    python3 "$PLOT_CHECK" png "$T/plots/$f.png" $PLOT_W $PLOT_H || fail "$f.png"
  done
  assert_grep "set label 1 'higher is better'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  assert_grep "set label 1 'lower is better'" "$T/plots/kerndevel-elapsed-time-bars.gp"
  # readtwice doubles (1,2,4,8): log2 axis; thpscale counts 1,2,3: linear
  assert_grep "^set logscale x 2" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  if grep -q "logscale" "$T/plots/thpscale-fault-latencies-scaling-fault-huge.gp"; then
    fail "1,2,3 is not a doubling sweep but got a log axis"
  fi
  # legend carries the labels, baseline (earliest run) first
  assert_grep "index 0 using .* title '6.8.0-vanilla'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  assert_grep "index 1 using .* title '6.8.0-patched'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  assert_grep "set ylabel 'Hmean ± stddev (MB/s)'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  assert_grep "set ylabel 'Amean ± stddev (µs)'" "$T/plots/thpscale-fault-latencies-scaling-fault-huge.gp"
  # the x axis the results declare; results without one: the ops' series name
  assert_grep "^set xlabel 'memory cgroups (count)'$" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  assert_grep "^set xlabel 'fault-huge (N)'$" "$T/plots/thpscale-fault-latencies-scaling-fault-huge.gp"
}

# plot knows no workload: the x axis comes from the results file. A copy of
# the readtwice fixture as a workload no code has heard of, with an axis no
# code could guess, and one table declared categorical (x_axis null) although
# its ops end in numbers.
test_plot_axis_from_unknown_workload() {
  need_cmd python3
  mkdir -p "$T/res" "$T/bin"
  for l in 6.8.0-vanilla 6.8.0-patched; do
    mkdir -p "$T/res/$l"
    cp "$PLOT_FIX/$l/run.json" "$T/res/$l/"
    python3 - "$PLOT_FIX/$l/readtwice.json" "$T/res/$l/pagewalk.json" <<'EOF' || fail "rewriting $l"
import json, sys
d = json.load(open(sys.argv[1]))
d["workload"] = "pagewalk"
for t in d["tables"]:
    t["title"] = t["title"].replace("readtwice", "pagewalk")
d["tables"][0]["x_axis"] = {"name": "walker pairs", "unit": "pairs"}
d["tables"][1]["x_axis"] = None
json.dump(d, open(sys.argv[2], "w"))
EOF
  done
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$T/res"
  assert_grep "^set xlabel 'walker pairs (pairs)'$" "$T/plots/pagewalk-mb-s-aggregate-scaling.gp"
  assert_grep "^set logscale x 2" "$T/plots/pagewalk-mb-s-aggregate-scaling.gp"
  # categorical: bars and candles, no line over memcgs-N
  assert_file "$T/plots/pagewalk-mb-s-per-memcg-bars.gp"
  assert_file "$T/plots/pagewalk-mb-s-per-memcg-candles.gp"
  assert_no_file "$T/plots/pagewalk-mb-s-per-memcg-scaling.gp"
  assert_eq "$(ls "$T/plots" | grep -c '\.gp$')" 4 "number of .gp files"
}

test_plot_svg() {
  need_cmd gnuplot gnuplot-nox
  need_cmd xmllint libxml2-utils
  need_cmd python3
  expect_exit 0 "$LRUBENCH" plot --format svg -o "$T/svg" "$PLOT_FIX"
  plot_expect_files "$T/svg" svg
  for f in $PLOT_FIGS; do
    xmllint --noout "$T/svg/$f.svg" || fail "$f.svg is not well-formed XML"
    python3 "$PLOT_CHECK" svgsize "$T/svg/$f.svg" $PLOT_W $PLOT_H || fail "$f.svg"
  done
  [ -z "$(ls "$T/svg" | grep '\.png$')" ] || fail "--format svg wrote PNG files"
}

# Each .dat row = mean row (Hmean/Amean), stddev, min, max, n recomputed in
# python3 from the fixture samples with the formulas of docs/ARCHITECTURE.md §10.
test_plot_dat_matches_stats() {
  need_cmd python3
  # gnuplot is not needed for the data: keep it out of PATH (scripts still written)
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  python3 "$PLOT_CHECK" dat "$PLOT_FIX" "$T/plots" || fail ".dat numbers differ from docs/ARCHITECTURE.md §10"
  # the golden vector V1 (stats-golden.md) is the fixture's readtwice memcgs-1
  assert_grep '^"memcgs-1" 1 1062.72' "$T/plots/readtwice-mb-s-aggregate-scaling.dat"
  assert_grep '^"memcgs-1" 1 915.08' "$T/plots/readtwice-mb-s-aggregate-scaling.dat"
  # n = 1: stddev undefined is 0, as compare prints it
  assert_grep '^"huge-1" 1 66.670000 0.000000 66.670000 66.670000 1$' \
    "$T/plots/thpscale-percentage-faults-huge-scaling.dat"
}

# A user restyles a figure and reruns gnuplot by hand in OUTDIR.
test_plot_script_reruns_from_outdir() {
  need_cmd gnuplot gnuplot-nox
  need_cmd python3
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  rm "$T/plots/kerndevel-elapsed-time-bars.png"
  sed -i 's/^set title .*/set title "restyled"/' "$T/plots/kerndevel-elapsed-time-bars.gp"
  (cd "$T/plots" && gnuplot kerndevel-elapsed-time-bars.gp) || fail "gnuplot failed on the script in OUTDIR"
  python3 "$PLOT_CHECK" png "$T/plots/kerndevel-elapsed-time-bars.png" $PLOT_W $PLOT_H || fail "rerun png"
}

test_plot_names_order_the_legend() {
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot --names 6.8.0-patched,6.8.0-vanilla -o "$T/plots" "$PLOT_FIX"
  assert_grep "index 0 using .* title '6.8.0-patched'" "$T/plots/kerndevel-elapsed-time-bars.gp"
  [ "$(grep -m1 '^# label:' "$T/plots/kerndevel-elapsed-time-bars.dat")" = "# label: 6.8.0-patched" ] ||
    fail "first .dat block is not the first --names label"
  expect_exit 2 env PATH="$T/bin" "$LRUBENCH" plot --names nosuchlabel -o "$T/plots2" "$PLOT_FIX"
  assert_grep_err "nosuchlabel"
}

# Tables whose every value is the same (irq CPU % all 0, fairness all 1, a
# constant negative offset, a CPU split with no CPU time, an lru_lock wait of
# 0 ms; tests/fixtures/plot/constant): gnuplot draws every figure without a
# warning ("empty y range [0:0]" before plot_gp_yrange), in every format.
test_plot_constant_tables_no_gnuplot_warning() {
  need_cmd gnuplot gnuplot-nox
  local fix="$LRUBENCH_SRC/tests/fixtures/plot/constant" fmt
  for fmt in png svg txt; do
    expect_exit 0 "$LRUBENCH" plot -f "$fmt" -o "$T/plots-$fmt" "$fix/base" "$fix/new"
    # plot passes on what gnuplot said (warnings of a run that worked)
    if grep -qiE "empty y range|warning|gnuplot" "$T/err"; then
      cat "$T/err"; fail "gnuplot said something for -f $fmt"
    fi
  done
  assert_file "$T/plots-png/readtwice-irq-cpu-candles.png"
  assert_file "$T/plots-png/readtwice-cpu-split.png"
  assert_file "$T/plots-png/readtwice-lru-lock-wait-beside-mb-s-aggregate.png"
  assert_file "$T/plots-png/readtwice-offset-bars.png"   # negative bars hang from 0
  assert_grep "^set yrange \[0:1\]" "$T/plots-png/readtwice-cpu-split.gp"
  assert_grep "^set yrange \[0.9:1.1\]" "$T/plots-png/readtwice-fairness-candles.gp"
}

# gnuplot missing is simulated with a PATH that holds no gnuplot (the real one
# stays installed): exit 3, the package named, scripts, data and index.md written.
test_plot_gnuplot_missing() {
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  assert_grep_err "gnuplot-nox"
  plot_expect_files "$T/plots" ""
  [ -z "$(ls "$T/plots" | grep '\.png$')" ] || fail "images without gnuplot?"
}

test_plot_index_has_compare_table() {
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  assert_grep '^```' "$T/plots/index.md"
  assert_grep 'readtwice MB/s aggregate' "$T/plots/index.md"
  assert_grep '1062.72' "$T/plots/index.md"    # Hmean memcgs-1, vanilla
  assert_grep '915.09' "$T/plots/index.md"     # Hmean memcgs-1, patched
  assert_grep '!\[.*\](readtwice-mb-s-aggregate-scaling.png)' "$T/plots/index.md"
}

# OUTDIR is fine but a file in it cannot be written (here: a folder stands
# where a .dat goes): an I/O failure, exit 1, not a usage error.
test_plot_write_failure_is_exit_1() {
  mkdir -p "$T/plots/readtwice-mb-s-aggregate-scaling.dat" "$T/bin"
  expect_exit 1 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX"
  assert_grep_err "$T/plots/readtwice-mb-s-aggregate-scaling.dat is a folder: plot replaces only a regular file"
}

test_plot_bad_format() {
  expect_exit 2 "$LRUBENCH" plot --format bogus -o "$T/plots" "$PLOT_FIX"
  assert_grep_err "bogus"
  assert_grep_err "png, svg or txt"
  assert_no_file "$T/plots"
}

test_plot_no_folder_given() {
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots"
  assert_grep_err "results folder"
}

test_plot_empty_folder() {
  mkdir "$T/empty"
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots" "$T/empty"
  assert_grep_err "$T/empty"
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots" "$T/does-not-exist"
  assert_grep_err "$T/does-not-exist"
}

test_plot_label_without_tables() {
  mkdir -p "$T/res/only-run" "$T/res/empty-tables"
  cp "$PLOT_FIX/6.8.0-vanilla/run.json" "$T/res/only-run/run.json"
  sed -i 's/"label": "6.8.0-vanilla"/"label": "only-run"/' "$T/res/only-run/run.json"
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots" "$T/res/only-run"
  assert_grep_err "only-run"
  assert_grep_err "no tables"
  # a workload file whose tables list is empty, next to a good label
  cp "$PLOT_FIX/6.8.0-vanilla/run.json" "$T/res/empty-tables/run.json"
  sed -i 's/"label": "6.8.0-vanilla"/"label": "empty-tables"/' "$T/res/empty-tables/run.json"
  echo '{ "schema": 1, "workload": "readtwice", "tables": [] }' >"$T/res/empty-tables/readtwice.json"
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX/6.8.0-vanilla" "$T/res/empty-tables"
  assert_grep_err "empty-tables"
  assert_grep_err "no tables"
}

test_plot_outdir_is_a_file() {
  touch "$T/file"
  expect_exit 2 "$LRUBENCH" plot -o "$T/file/plots" "$PLOT_FIX"
  assert_grep_err "$T/file"
  expect_exit 2 "$LRUBENCH" plot -o "$T/file" "$PLOT_FIX"
  assert_grep_err "$T/file"
}

# Root writes through any mode bits, so unwritable here means a read-only bind mount.
test_plot_outdir_read_only() {
  need_root
  mkdir -p "$T/ro"
  mount --bind "$T/ro" "$T/ro" || skip "cannot bind-mount $T/ro"
  trap 'umount "$T/ro" 2>/dev/null; lib_teardown' EXIT
  mount -o remount,bind,ro "$T/ro" || fail "cannot remount $T/ro read-only"
  expect_exit 2 "$LRUBENCH" plot -o "$T/ro/plots" "$PLOT_FIX"
  assert_grep_err "$T/ro/plots"
  assert_grep_err "Read-only file system"
  expect_exit 2 "$LRUBENCH" plot -o "$T/ro" "$PLOT_FIX"
  assert_grep_err "$T/ro"
  umount "$T/ro" || fail "cannot unmount $T/ro"
}

# Labels, workloads, titles and ops are free text in hand-written results:
# quotes, backslashes and slashes must neither break the gnuplot script nor
# put a file outside OUTDIR.
test_plot_odd_names() {
  need_cmd gnuplot gnuplot-nox
  need_cmd python3
  mkdir -p "$T/res/odd"
  # gnuplot runs `...` as a shell command inside double quotes: the label tries it
  sed 's/"label": "6.8.0-vanilla"/"label": "v \\"1\\" \\\\ b `touch pwned`\\nset output"/' \
    "$PLOT_FIX/6.8.0-vanilla/run.json" >"$T/res/odd/run.json"
  cat >"$T/res/odd/w.json" <<'JSON'
{ "schema": 1, "workload": "../evil",
  "tables": [ { "title": "My \"table\" \\ 50%", "unit": "a\"b", "better": "higher",
                "ops": [ { "op": "a \"b\"", "samples": [1, 2] },
                         { "op": "c\\d", "samples": [3, 4.5] },
                         { "op": "x-1", "samples": [5] }, { "op": "x-2", "samples": [6, 7] } ] } ] }
JSON
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$T/res/odd"
  assert_file "$T/plots/evil-my-table-50-bars.png"
  assert_file "$T/plots/evil-my-table-50-scaling-x.png"
  assert_file "$T/plots/evil-my-table-50-candles.png"
  [ -z "$(ls "$T" | grep evil)" ] || fail "a file was written outside OUTDIR"
  assert_no_file "$T/plots/pwned"
  assert_grep "title 'v \"1\" \\\\ b \`touch pwned\` set output'" "$T/plots/evil-my-table-50-bars.gp"
  python3 "$PLOT_CHECK" png "$T/plots/evil-my-table-50-bars.png" $PLOT_W $PLOT_H || fail "bars png"
}

# One kernel is enough for a figure (compare needs two, plot does not).
test_plot_one_label() {
  need_cmd gnuplot gnuplot-nox
  expect_exit 0 "$LRUBENCH" plot -o "$T/plots" "$PLOT_FIX/6.8.0-patched"
  plot_expect_files "$T/plots" png
  [ "$(grep -c '^# label:' "$T/plots/readtwice-mb-s-aggregate-scaling.dat")" = 1 ] || fail "one label, one block"
  assert_grep "index 0 using .* title '6.8.0-patched'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
  if grep -q "index 1" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"; then fail "a second line for one label"; fi
}

# Two labels that disagree on a table's direction cannot share a figure.
test_plot_tables_disagree() {
  mkdir -p "$T/res"
  cp -r "$PLOT_FIX/6.8.0-vanilla" "$PLOT_FIX/6.8.0-patched" "$T/res/"
  sed -i 's/"better": "lower"/"better": "higher"/' "$T/res/6.8.0-patched/kerndevel.json"
  expect_exit 2 "$LRUBENCH" plot -o "$T/plots" "$T/res"
  assert_grep_err "kerndevel"
  assert_grep_err "Elapsed time"
}

# A label keeps its colour in every figure, also where the label before it
# has no data (its block is then missing from the .dat).
test_plot_colours_follow_labels() {
  mkdir -p "$T/res" "$T/bin"
  cp -r "$PLOT_FIX/6.8.0-vanilla" "$PLOT_FIX/6.8.0-patched" "$T/res/"
  cp -r "$PLOT_FIX/6.8.0-patched" "$T/res/6.8.0-third"
  sed -i 's/"label": "6.8.0-patched"/"label": "6.8.0-third"/; s/T12:00:00Z/T14:00:00Z/' "$T/res/6.8.0-third/run.json"
  rm "$T/res/6.8.0-patched/kerndevel.json"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" plot -o "$T/plots" "$T/res"
  # third label, second block, third colour (gnuplot's default #3)
  assert_grep "index 1 using .*lc rgb \"#56b4e9\".* title '6.8.0-third'" "$T/plots/kerndevel-elapsed-time-bars.gp"
  assert_grep "index 2 using .*lc rgb \"#56b4e9\".* title '6.8.0-third'" "$T/plots/readtwice-mb-s-aggregate-scaling.gp"
}
