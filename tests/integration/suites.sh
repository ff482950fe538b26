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
    if sec == "vm":
        continue   # [vm] is VM mode's, never in run.json's config (lrubench-vm(7))
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

# The thread files docs/REPRODUCING.md reproduces (../shared/reference/threads/
# in the project's workspace; their names are fixed, so they are listed here).
THREAD_FILES="000_ff13f65a2e55ca47.txt 001_f9623cc4ce744674.txt 002_1d2249efe3e57f56.txt
003_6a8dc213c9874cef.txt 004_c5232dd1fd399317.txt"
REPRODUCING="$LRUBENCH_SRC/docs/REPRODUCING.md"

# Every suite's header has its fidelity table: a "Fidelity" line naming the
# rows of docs/REPRODUCING.md it reproduces (each one a "### ID" heading
# there), then "posted parameter | posted value | this suite | deviation and
# reason" and its rows, four non-empty cells each (a row may go on over
# lines indented by three spaces), among them the run length, iterations,
# counts, limits, cache state, binding and the program that does the work.
test_suite_fidelity_tables() {
  [ -f "$REPRODUCING" ] || fail "no docs/REPRODUCING.md"
  local f
  for f in $(suite_files); do
    python3 - "$f" "$REPRODUCING" <<'PY' || fail "$(basename "$f"): fidelity table"
import re, sys
name, doc = sys.argv[1].rsplit("/", 1)[-1], open(sys.argv[2]).read()
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
head = []
for l in lines:
    if not l.startswith("#"):
        break
    head.append(l)
fid = [l for l in head if l.startswith("# Fidelity")]
assert len(fid) == 1, (name, "needs one '# Fidelity' line", fid)
assert "docs/REPRODUCING.md" in fid[0], (name, "Fidelity line does not point to docs/REPRODUCING.md")
ids = re.findall(r"\b00[0-4]-\d\d\b", fid[0])
assert ids, (name, "Fidelity line names no row (000-01 ...)")
for i in ids:
    assert re.search(r"^### " + re.escape(i) + " ", doc, re.M), (name, "no row", i, "in REPRODUCING.md")
    assert re.search(r"^\| \[" + re.escape(i) + r"\]", doc, re.M), (name, "row", i, "not in the index")
cols = "# posted parameter | posted value | this suite | deviation and reason"
assert cols in head, (name, "no table header line", cols)
texts = []
for l in head[head.index(cols) + 1:]:
    if l == "#":
        break
    if l.startswith("#   ") and texts:
        texts[-1] += " " + l[4:].strip()
        continue
    assert l.startswith("# ") and not l.startswith("#  "), (name, "not a table row:", l)
    texts.append(l[2:].strip())
rows = [[c.strip() for c in t.split(" | ")] for t in texts]
assert len(rows) >= 7, (name, "only", len(rows), "rows")
for r in rows:
    assert len(r) == 4 and all(r), (name, "not four non-empty cells:", r)
firsts = " / ".join(r[0] for r in rows)
for want in ("runtime", "iterations", "count", "limit", "cache", "binding", "program"):
    assert want in firsts, (name, "no row for", want, "in", firsts)
for l in lines:
    assert len(l) <= 100, (name, "line longer than 100 characters:", l)
PY
  done
}

# docs/REPRODUCING.md covers the five threads and every shipped suite, its
# index and its rows agree, and it names no suite that does not exist.
test_reproducing_names_threads_and_suites() {
  [ -f "$REPRODUCING" ] || fail "no docs/REPRODUCING.md"
  local t f
  for t in $THREAD_FILES; do
    grep -qF "$t" "$REPRODUCING" || fail "REPRODUCING.md does not name thread $t"
    grep -q "^## Thread ${t%%_*}" "$REPRODUCING" || fail "REPRODUCING.md has no section for thread ${t%%_*}"
  done
  for f in $(suite_files); do
    grep -qF "configs/suites/$(basename "$f")" "$REPRODUCING" ||
      fail "REPRODUCING.md does not name configs/suites/$(basename "$f")"
  done
  python3 - "$REPRODUCING" "$SUITES" <<'PY' || fail "REPRODUCING.md: index, rows and suites disagree"
import os, re, sys
doc = open(sys.argv[1]).read()
index = re.findall(r"^\| \[(00[0-4]-\d\d)\]\(#", doc, re.M)
rows = re.findall(r"^### (00[0-4]-\d\d) ", doc, re.M)
assert index and len(index) == len(set(index)), ("index rows missing or repeated", index)
assert len(rows) == len(set(rows)), ("detail rows repeated", rows)
assert set(index) == set(rows), ("index and rows differ", set(index) ^ set(rows))
for t in ("000", "001", "002", "003", "004"):
    assert any(r.startswith(t) for r in rows), ("no row for thread", t)
for s in set(re.findall(r"configs/suites/([A-Za-z0-9_.-]+\.conf)", doc)):
    assert os.path.isfile(os.path.join(sys.argv[2], s)), ("names a suite that does not exist", s)
PY
}

# run --dry-run --machine: every suite plans on the posted shapes without
# running or creating anything, and every reproduction suite's working set is
# larger than the memory that can hold it there (it reclaims, as the posted
# runs did), which this 2-CPU machine cannot show by running. The shapes: the
# 40-CPU 251 GB two-node machine of 000-07/18/19; 80 CPUs (000-09) and 104
# (000-01) and 96 threads (000-05), whose memory was not posted: 251G, 384G and
# 192G are assumptions (any size above 16G gives ROTATE_BYTES = 4T).
REPRODUCTIONS="readtwice-containers readtwice-containers-short readtwice-40memcgs readtwice-cgroupfs mmapread-root"
SHAPES="cpus=40,memory=251G,nodes=2 cpus=80,memory=251G,nodes=2 cpus=104,memory=384G,nodes=2 cpus=96,memory=192G,nodes=2"

test_suites_plan_posted_machines() {
  local f name shape
  for f in $(suite_files); do
    name=$(basename "$f" .conf)
    for shape in $SHAPES; do
      expect_exit 0 "$LRUBENCH" run --dry-run --machine "$shape" -c "$f" -o "$T/r"
      assert_grep "^plan for machine: " "$T/out"
      case " $REPRODUCTIONS " in
        *" $name "*)
          grep -q "reclaims: yes" "$T/out" || { cat "$T/out"; fail "$name on $shape does not reclaim"; }
          grep -q "reclaims: no" "$T/out" && fail "$name on $shape: a step fits in memory"
          assert_grep "ROTATE_BYTES = min(4T, 256 x MemAvailable" "$T/out"
          assert_grep "^  time: " "$T/out" ;;
      esac
    done
  done
  [ ! -e "$T/r" ] || fail "a plan made a results folder"
  # how the suites size there: one 4T file per memcg, memcgs = cpus, 4T / nr_task a task
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=80,memory=251G,nodes=2 \
    -c "$SUITES/readtwice-containers.conf"
  assert_grep 'readtwice.memcgs = 80  (written "cpus")' "$T/out"
  assert_grep "= 4T, / 1 = 4T per file, 80 files" "$T/out"
  assert_grep "step memcgs-80: 80 x 2 readers (dd), 80 files x 4T = 320T" "$T/out"
  assert_grep "time: 15m00s" "$T/out"
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=96,memory=192G -c "$SUITES/mmapread-root.conf"
  assert_grep "mmapread.tasks_per_memcg = 96" "$T/out"
  assert_grep "= 4T, / 96 = " "$T/out"
  # a small shape: 256 x 8G = 2T, and the node's share with numa_node = last
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=8,memory=16G,nodes=2,available=8G \
    -c "$SUITES/readtwice-40memcgs.conf"
  assert_grep "256 x MemAvailable 8G) = 2T" "$T/out"
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=40,memory=251G,nodes=2 \
    -c "$SUITES/sysbench-node1.conf"
  assert_grep "sized for 20 CPUs" "$T/out"
}

test_suites_plan_bad_machine() {
  expect_exit 2 "$LRUBENCH" run --machine cpus=80,memory=251G -c "$SUITES/readtwice-containers.conf"
  assert_grep_err "give --dry-run with it"
  expect_exit 2 "$LRUBENCH" run --dry-run --machine cpus=80 -w readtwice
  assert_grep_err "cpus=N and memory=SIZE are required"
  expect_exit 2 "$LRUBENCH" run --dry-run --machine cpus=80,memory=lots -w readtwice
  assert_grep_err "memory=lots is not a size"
  expect_exit 2 "$LRUBENCH" run --dry-run --machine cpus=80,memory=8G,sockets=2 -w readtwice
  assert_grep_err "unknown key 'sockets'"
  expect_exit 2 "$LRUBENCH" run --dry-run --machine cpus=2,memory=8G,nodes=4 -w readtwice
  assert_grep_err "4 nodes for 2 CPUs"
}
