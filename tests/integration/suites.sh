# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped suites (configs/suites/*.conf): each one's --dry-run, its header
# (what it reproduces, where, the posted figure, how long), `list --suites`,
# and make install. A suite is only a config file: running one for real is
# the job of the workload's own tests; here the file must load, name real
# keys with valid values, and be what run would run.

SUITES="$LRUBENCH_SRC/configs/suites"

suite_files() { ls "$SUITES"/*.conf; }

# What the file sets, as "section key value" lines (inline ; and # comments
# dropped, as lrubench's INI reader drops them).
suite_keys() {
  python3 - "$1" <<'PY'
import configparser, sys
c = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), interpolation=None)
c.read(sys.argv[1])
for s in c.sections():
    for k, v in c[s].items():
        print(s, k, v)
PY
}

# Every suite runs with --dry-run: the file loads, every key exists and every
# value is valid on this machine, and the effective config holds what the
# file says (a "cpus" value as the number it stands for). A suite whose
# workload this machine cannot run (exit 3, the probe's reason) is skipped
# by name, not passed.
test_suites_dry_run() {
  need_root
  local f name n=0 skipped=""
  for f in $(suite_files); do
    name=$(basename "$f" .conf)
    "$LRUBENCH" run --dry-run -c "$f" -o "$T/r" --label "dry-$name" >"$T/out" 2>"$T/err"
    case $? in
      0) ;;
      3) grep -q "cannot run here" "$T/err" || { cat "$T/err"; fail "$name: exit 3 without a reason"; }
         skipped="$skipped $name"; continue ;;
      *) cat "$T/err"; fail "$name: run --dry-run failed" ;;
    esac
    suite_keys "$f" > "$T/keys"
    python3 - "$T/out" "$T/keys" "$(nproc)" "$name" <<'PY' || fail "$name: effective config differs from the file"
import json, re, sys
eff = json.load(open(sys.argv[1]))
cpus, name = int(sys.argv[3]), sys.argv[4]
for line in open(sys.argv[2]):
    sec, key, val = line.rstrip("\n").split(" ", 2)
    if sec == "global" and key == "workloads":
        for w in val.split(","):
            assert w in eff, (name, "workload section missing", w)
        continue
    got = eff[sec][key]
    if "cpus" in val:
        # numa_node = none in these suites: the machine's CPUs
        want = re.sub(r"(\d+)\*cpus", lambda m: str(int(m.group(1)) * cpus), val)
        want = re.sub(r"cpus/(\d+)", lambda m: str(max(1, cpus // int(m.group(1)))), want)
        want = want.replace("cpus", str(cpus))
    else:
        want = val
    assert got == want, (name, sec, key, got, want)
PY
    n=$((n + 1))
  done
  [ ! -e "$T/r" ] || fail "a dry run made a results folder"
  [ "$n" -ge 7 ] || fail "only $n suites passed --dry-run (skipped:$skipped)"
  [ -z "$skipped" ] || echo "skipped (this machine cannot run them):$skipped"
}

# The header says what the suite reproduces, on what machine, the posted
# figure and how long it takes; its first line is the one-line description.
test_suite_headers() {
  local f name what
  for f in $(suite_files); do
    name=$(basename "$f")
    head -1 "$f" | grep -q "SPDX-License-Identifier" || fail "$name: no SPDX line first"
    what=$(sed -n 2p "$f")
    case $what in "# "?*) ;; *) fail "$name: line 2 is not the one-line description: $what" ;; esac
    [ ${#what} -le 102 ] || fail "$name: description longer than 100 characters"
    for key in "Reproduces:" "Machine:" "Reported:" "Time:"; do
      grep -q "^# .*$key" "$f" || fail "$name: header lacks '$key'"
    done
    grep -q "^\[global\]" "$f" || fail "$name: no [global] section"
    grep -q "^workloads = " "$f" || fail "$name: does not say its workloads"
  done
}

test_list_suites() {
  local f name desc
  expect_exit 0 "$LRUBENCH" list --suites
  assert_grep "^suites in $SUITES/" "$T/out"
  for f in $(suite_files); do
    name=$(basename "$f" .conf)
    desc=$(sed -n '2s/^# //p' "$f")
    grep -qF -- "  $name" "$T/out" || fail "list --suites lacks $name"
    grep "^  $name " "$T/out" | grep -qF -- "$desc" || fail "list --suites: $name without its description"
  done
  [ "$(grep -c '^  ' "$T/out")" = "$(suite_files | wc -l)" ] || fail "list --suites lists other lines"
  expect_exit 2 "$LRUBENCH" list --suites readtwice
  assert_grep_err "--suites takes no SECTION"
  # a copy of lrubench with no suites beside it and none installed says where it looked
  local datadir
  datadir=$(tr -c '[:print:]' '\n' < "$LRUBENCH" | grep -m1 -E '^/.*/share/lrubench$')
  [ -n "$datadir" ] || fail "no data folder compiled into $LRUBENCH"
  [ ! -e "$datadir/configs/suites" ] || skip "suites are installed in $datadir: a lone lrubench finds them"
  mkdir -p "$T/alone"
  cp "$LRUBENCH" "$T/alone/lrubench"
  expect_exit 3 "$T/alone/lrubench" list --suites
  assert_grep_err "no suites found"
  assert_grep_err "$datadir/configs/suites"
}

# list --suites reads each suite's description with read_regular_file: a
# FIFO among the suites is listed without one, never waited on.
test_list_suites_reads_only_regular_files() {
  mkdir -p "$T/bin/configs/suites"
  cp "$LRUBENCH" "$T/bin/lrubench"
  printf '# SPDX-License-Identifier: GPL-2.0-or-later\n# a suite of its own\n[global]\n' \
    >"$T/bin/configs/suites/good.conf"
  mkfifo "$T/bin/configs/suites/fifo.conf"
  expect_exit 0 timeout -k 5 60 "$T/bin/lrubench" list --suites
  assert_grep "^  good  *a suite of its own$" "$T/out"
  assert_grep "^  fifo  *(no description)$" "$T/out"
}

# make install puts every suite under $(DATADIR)/configs/suites. -o keeps
# make from rebuilding the binaries the tests run (they may be a SANITIZE
# build).
test_make_install_installs_suites() {
  need_cmd make
  make -s -C "$LRUBENCH_SRC" -o lrubench -o lrubench-net install DESTDIR="$T/inst" \
    PREFIX=/usr DATADIR=/usr/share/lrubench >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "make install"; }
  local f
  for f in $(suite_files); do
    cmp -s "$f" "$T/inst/usr/share/lrubench/configs/suites/$(basename "$f")" ||
      fail "make install did not install $(basename "$f")"
  done
  assert_file "$T/inst/usr/share/lrubench/configs/quick.conf"
  [ -x "$T/inst/usr/bin/lrubench" ] || fail "make install did not install the binary"
}
