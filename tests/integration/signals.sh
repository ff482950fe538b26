# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 12, item 6: the first SIGINT or SIGTERM stops every command within a
# second with exit 130 and leaves no partial output file. The signal is sent
# as soon as the command has installed its handler (SigCgt in
# /proc/PID/status), so it lands while the work has just begun; a command
# that ignored it would finish and exit 0 (the bug this guards).

# interrupt SIG OUTFILE CMD...: run CMD (stdout to OUTFILE), send SIG once
# its handler is in place; prints "rc=N" (N < 0: killed by signal -N)
interrupt() {
  python3 - "$@" <<'PY'
import os, signal, subprocess, sys, time
sig = getattr(signal, sys.argv[1]); out = open(sys.argv[2], "wb")
p = subprocess.Popen(sys.argv[3:], stdout=out, stderr=subprocess.PIPE)
mask = 1 << (sig - 1)
deadline = time.monotonic() + 30
while p.poll() is None and time.monotonic() < deadline:
    try:
        for line in open("/proc/%d/status" % p.pid):
            if line.startswith("SigCgt:") and int(line.split()[1], 16) & mask:
                raise StopIteration
    except (StopIteration, FileNotFoundError):
        break
    time.sleep(0.001)
if p.poll() is None:
    p.send_signal(sig)
err = p.communicate(timeout=120)[1].decode(errors="replace")
sys.stderr.write(err)
print("rc=%d" % p.returncode)
PY
}

# N labels of 4 workloads x 5 tables x 2,000 ops x 30 samples: seconds of work
big_results() {
  python3 - "$1" "$2" <<'PY'
import json, os, random, shutil, sys
root, n = sys.argv[1], int(sys.argv[2])
random.seed(1)
os.makedirs(root + "/l00")
tables = [{"title": "table %d" % t, "unit": "u", "better": "higher" if t % 2 == 0 else "lower",
           "ops": [{"op": "op-%d" % o, "samples": [round(random.gauss(1000 + o, 50), 3)
                                                    for _ in range(30)]} for o in range(2000)]}
          for t in range(5)]
for w in range(4):
    json.dump({"schema": 1, "workload": "wl%d" % w, "tables": tables}, open(root + "/l00/wl%d.json" % w, "w"))
for i in range(n):
    d = root + "/l%02d" % i
    if i:
        shutil.copytree(root + "/l00", d)
    json.dump({"schema": 1, "label": "l%02d" % i, "status": "complete",
               "started": "2026-01-%02dT00:00:00Z" % (i + 1)}, open(d + "/run.json", "w"))
PY
}

check_interrupted() {  # check_interrupted RCLINE
  case $1 in
    rc=130) ;;
    rc=0) fail "the command ignored the signal and finished (exit 0)" ;;
    *) fail "exit ${1#rc=}, expected 130 (a negative number: killed by the signal)" ;;
  esac
}

test_compare_first_sigint_stops_it() {
  big_results "$T/r" 4
  local rc
  rc=$(interrupt SIGINT "$T/out" "$LRUBENCH" compare --junit "$T/j.xml" "$T/r" 2>"$T/err")
  check_interrupted "$rc"
  [ -s "$T/out" ] && fail "partial output on stdout"
  assert_no_file "$T/j.xml"
  ls "$T" | grep -q 'j.xml.tmp' && fail "a temporary JUnit file was left"
  assert_grep_err "interrupted"
}

test_compare_first_sigterm_stops_it() {
  big_results "$T/r" 4
  local rc
  rc=$(interrupt SIGTERM "$T/out" "$LRUBENCH" compare -f json --junit "$T/j.xml" "$T/r" 2>"$T/err")
  check_interrupted "$rc"
  [ -s "$T/out" ] && fail "partial output on stdout"
  assert_no_file "$T/j.xml"
}

# interrupt_when_file SIG DIR CMD...: send SIG to CMD once a figure (*.png)
# exists anywhere below DIR, so the signal lands while figures are written
interrupt_when_file() {
  python3 - "$@" <<'PY'
import os, signal, subprocess, sys, time
sig = getattr(signal, sys.argv[1]); top = sys.argv[2]
p = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
def figure():
    for d, _, files in os.walk(top):
        if any(f.endswith(".png") for f in files):
            return True
    return False
deadline = time.monotonic() + 60
while p.poll() is None and time.monotonic() < deadline and not figure():
    time.sleep(0.001)
if p.poll() is None:
    p.send_signal(sig)
err = p.communicate(timeout=120)[1].decode(errors="replace")
sys.stderr.write(err)
print("rc=%d" % p.returncode)
PY
}

test_plot_first_sigint_leaves_no_partial_figure() {
  need_cmd gnuplot gnuplot-nox
  local rc
  rc=$(interrupt_when_file SIGINT "$T/plots" "$LRUBENCH" plot -o "$T/plots" "$LRUBENCH_SRC/tests/fixtures/compare/edge" 2>"$T/err")
  check_interrupted "$rc"
  ls "$T/plots" 2>/dev/null | grep -E '\.(png|svg)$' && fail "a figure was left in -o"
  ls -A "$T/plots" 2>/dev/null | grep -q 'lrubench-plot' && fail "the staging folder was left"
  true
}

test_list_and_check_exit_130_on_the_first_sigint() {
  local rc cmd
  for cmd in list check; do
    rc=$(interrupt SIGINT "$T/out" "$LRUBENCH" "$cmd" 2>"$T/err")
    [ "$rc" = rc=130 ] || fail "lrubench $cmd: ${rc#rc=}, expected 130"
  done
}
