# SPDX-License-Identifier: GPL-2.0-or-later
# sysbench OLTP read-only against a real PostgreSQL (issue 5). Real server,
# real sysbench, real cgroups; nothing is mocked.

sb_need() {
  need_root
  need_cmd sysbench sysbench
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || skip "needs PostgreSQL server binaries (apt-get install postgresql)"
}

# assert_no_leaks (lib.sh) fails whenever another helper's lrubench run is
# live on this machine (their cgroups and mounts); so leaks are checked for
# the runs of this test by pid: run-scoped names carry it.
SB_PIDS=
sb_run() {   # sb_run EXPECTED_EXIT args... (like expect_exit, recording the pid)
  local want=$1; shift
  "$LRUBENCH" "$@" >"$T/out" 2>"$T/err" &
  local pid=$!
  SB_PIDS="$SB_PIDS $pid"
  wait "$pid"; local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "command: lrubench $*"; echo "--- stdout"; tail -20 "$T/out"; echo "--- stderr"; tail -20 "$T/err"
    fail "exit $rc, expected $want"
  fi
}
sb_no_leaks() {
  local p left
  for p in $SB_PIDS; do
    left=$(find /sys/fs/cgroup -maxdepth 3 -type d -name "lrubench-$p" 2>/dev/null)
    [ -z "$left" ] || fail "cgroup left behind: $left"
    left=$(grep "/run-$p/" /proc/mounts)
    [ -z "$left" ] || fail "mount left behind: $left"
    left=$(losetup -a 2>/dev/null | grep "/run-$p/")
    [ -z "$left" ] || fail "loop device left behind: $left"
    left=$(pgrep -af "/run-$p/" | grep -v pgrep)
    [ -z "$left" ] || fail "processes of run $p left behind: $left"
  done
  left=$(pgrep -f "^$LRUBENCH " 2>/dev/null)
  [ -z "$left" ] || fail "lrubench processes left behind: $left"
  assert_no_leaks
}

# The cluster folder of a run, from the fact it records in run.json.
sb_cluster() { json_get "$1/run.json" '["workload_facts"]["sysbench"]["cluster"]'; }

# No process of ours runs on that cluster, and the folder is gone.
sb_assert_gone() {
  local cluster=$1 left
  [ -n "$cluster" ] || fail "no cluster path"
  left=$(pgrep -af -- "$cluster" | grep -v pgrep)
  [ -z "$left" ] || fail "postgres left running on $cluster: $left"
  # backends do not carry the path in their command line, but their cwd is
  # the data folder (it stays visible, "(deleted)", after removal)
  local p
  for p in $(pgrep -u postgres); do
    case $(readlink "/proc/$p/cwd" 2>/dev/null) in
      "$cluster"*) fail "postgres process $p left in $cluster: $(tr '\0' ' ' < "/proc/$p/cmdline")" ;;
    esac
  done
  assert_no_file "$cluster"
}

# The cluster path, read from lrubench's own output while it runs.
sb_cluster_from_output() {
  sed -n 's/.*PostgreSQL cluster in \([^ ]*\) .*/\1/p' "$T/out" "$T/err" 2>/dev/null | head -1
}

# Poll (bounded) until a file matching the glob contains a string.
sb_wait_for() {
  local glob=$1 what=$2 pid=$3 i
  for i in $(seq 1 1200); do
    # shellcheck disable=SC2086
    grep -qs -- "$what" $glob && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

test_sysbench_quick_run() {
  sb_need
  sb_run 0 run -w sysbench --quick -o "$T/r" --label t --set sysbench.threads=1,2
  local dir=$T/r/t
  assert_file "$dir/sysbench.json"
  # every TPS sample equals the per-second rate sysbench printed in the log of
  # the same step and iteration (parsed here independently of lrubench)
  python3 - "$dir" <<'EOF' || fail "samples do not match the logs"
import json, re, sys, os
d = sys.argv[1]
w = json.load(open(os.path.join(d, "sysbench.json")))
tables = {t["title"]: t for t in w["tables"]}
tps = tables["sysbench Transactions per second"]
lat = tables["sysbench Latency 95th percentile"]
assert tps["better"] == "higher" and lat["better"] == "lower", "directions"
assert "sysbench Time" not in tables, "a Time table from runs of a fixed time"
ops = [o["op"] for o in tps["ops"]]
assert ops == ["1", "2"], ops
for o in tps["ops"]:
    assert o["samples"], "no samples for op %s" % o["op"]
    for i, v in enumerate(o["samples"]):
        assert v > 0, "tps %r" % v
        log = open(os.path.join(d, "logs", "sysbench-t%s-i%d.log" % (o["op"], i))).read()
        m = re.search(r"^\s*transactions:\s+\d+\s+\(([0-9.]+) per sec\.\)", log, re.M)
        assert m, "no transactions line in log of op %s iteration %d" % (o["op"], i)
        assert float(m.group(1)) == v, "op %s it %d: sample %r, log %s" % (o["op"], i, v, m.group(1))
        n = re.search(r"^\s*Number of threads:\s+(\d+)", log, re.M)
        assert n and n.group(1) == o["op"], "log ran %s threads" % (n and n.group(1))
for o in lat["ops"]:
    for i, v in enumerate(o["samples"]):
        log = open(os.path.join(d, "logs", "sysbench-t%s-i%d.log" % (o["op"], i))).read()
        m = re.search(r"^\s*95th percentile:\s+([0-9.]+)", log, re.M)
        assert m and float(m.group(1)) == v, "latency op %s it %d" % (o["op"], i)
EOF
  assert_eq "$(json_get "$dir/run.json" '["status"]')" complete "run status"
  # drop_caches = yes (the default): run.json records a drop before every unit run
  python3 - "$dir/run.json" <<'EOF' || fail "page_cache records"
import json, sys
pc = json.load(open(sys.argv[1]))["page_cache"]
units = [(x["step"], x["iteration"]) for x in pc if x["workload"] == "sysbench"]
assert len(units) == len(set(units)) and ("threads-2", "iteration 1") in units, units
assert all(x["dropped"] is True for x in pc), pc
EOF
  # errors per second are recorded per iteration
  python3 - "$dir/sysbench.json" <<'EOF' || fail "details missing"
import json, sys
w = json.load(open(sys.argv[1]))
det = w.get("details") or []
assert det and all("errors_per_sec" in x and "latency_p95_ms" in x for x in det), det[:1]
EOF
  assert_file "$dir/logs/postgres.log"
  assert_file "$dir/logs/postgresql.conf"
  # the workload's summary line, taken before teardown while its state is there
  assert_grep "^sysbench: PostgreSQL .* rows/table, shared_buffers" "$T/out"
  sb_assert_gone "$(sb_cluster "$dir")"
  sb_no_leaks
}

# SIGINT while sysbench prepares the tables: exit 130, server stopped,
# cluster removed.
test_sysbench_sigint_during_prepare() {
  sb_need
  "$LRUBENCH" run -w sysbench -o "$T/r" --label t -i 1 --set sysbench.threads=1 \
    --set sysbench.workload_size=2G >"$T/out" 2>"$T/err" &
  local pid=$!; SB_PIDS=$pid
  sb_wait_for "$T/r/t/logs/sysbench-prepare.log" "Inserting" "$pid" || fail "prepare never started"
  local cluster; cluster=$(sb_cluster_from_output)
  [ -d "$cluster/data" ] || fail "cluster $cluster not there during prepare"
  kill -INT "$pid"
  wait "$pid"; local rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  sb_assert_gone "$cluster"
  sb_no_leaks
}

# SIGINT in the middle of a measured run.
test_sysbench_sigint_during_run() {
  sb_need
  "$LRUBENCH" run -w sysbench --quick -o "$T/r" --label t --set sysbench.threads=2 \
    --set sysbench.runtime=60s --set global.warmup=0 >"$T/out" 2>"$T/err" &
  local pid=$!; SB_PIDS=$pid
  sb_wait_for "$T/r/t/logs/sysbench-t2-i0.log" "Threads started" "$pid" || fail "run never started"
  local cluster; cluster=$(sb_cluster_from_output)
  [ -d "$cluster/data" ] || fail "cluster $cluster not there during the run"
  kill -INT "$pid"
  wait "$pid"; local rc=$?
  assert_eq "$rc" 130 "exit status after SIGINT"
  sb_assert_gone "$cluster"
  pgrep -af "sysbench oltp_read_only" | grep -F -- "$cluster" && fail "sysbench left running"
  sb_no_leaks
}

# A server that refuses its configuration: exit 1 with its log in the message.
test_sysbench_bad_shared_buffers() {
  sb_need
  sb_run 1 run -w sysbench --quick -o "$T/r" --label t \
    --set sysbench.threads=1 --set sysbench.shared_buffers=64K
  assert_grep_err 'outside the valid range for parameter "shared_buffers"'
  assert_grep_err 'postgres exited with 1'
  local cluster; cluster=$(sb_cluster_from_output)
  sb_assert_gone "$cluster"
  sb_no_leaks
}

# The first port is taken by someone else: the next free one is used.
test_sysbench_port_taken() {
  sb_need
  need_cmd python3
  python3 - "$T/port" <<'EOF' &
import socket, sys, time, os
s = socket.socket()
for p in range(5433, 5633):
    try:
        s.bind(("127.0.0.1", p)); break
    except OSError:
        continue
s.listen(1)
open(sys.argv[1] + ".tmp", "w").write(str(p)); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)
EOF
  local lpid=$! i
  for i in $(seq 1 100); do [ -s "$T/port" ] && break; sleep 0.1; done
  local taken; taken=$(cat "$T/port") || fail "listener did not start"
  sb_run 0 run -w sysbench --quick -o "$T/r" --label t \
    --set sysbench.threads=1 --set sysbench.port="$taken"
  kill "$lpid"; wait "$lpid" 2>/dev/null
  local used; used=$(json_get "$T/r/t/run.json" '["workload_facts"]["sysbench"]["port"]')
  [ "$used" -gt "$taken" ] || fail "port $used used although $taken was taken"
  assert_grep "port $taken is taken" "$T/out"
  sb_assert_gone "$(sb_cluster "$T/r/t")"
  sb_no_leaks
}

test_sysbench_bad_input() {
  sb_need
  sb_run 2 run -w sysbench --quick -o "$T/r" --label a --set sysbench.threads=0
  assert_grep_err "threads"
  sb_run 3 run -w sysbench --quick -o "$T/r" --label b --set sysbench.workload_size=64T
  assert_grep_err "sysbench.workload_size: .* is bigger than the memory"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label c --set sysbench.pg_bindir=/nonexistent/bin
  assert_grep_err "sysbench.pg_bindir: /nonexistent/bin: No such file or directory"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label d --set sysbench.threads=8 \
    --set sysbench.max_connections=10
  assert_grep_err "sysbench.max_connections"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label e --set sysbench.port=65536
  assert_grep_err "sysbench.port: 65536 is out of range (1024..65535)"
  sb_no_leaks
}

# "0-2,5" -> "0 1 2 5"
sb_cpus() {
  python3 -c 'import sys
out = []
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    out += range(int(a), int(b or a) + 1)
print(" ".join(map(str, out)))' "$1"
}

# Where things run: the postmaster and its backends in the memcg
# sysbench-server with memcg_limit, sysbench in sysbench-client, both bound
# to the node's CPUs.
test_sysbench_memcg_placement() {
  sb_need
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup controller"
  "$LRUBENCH" run -w sysbench --quick -o "$T/r" --label t -i 1 --set global.warmup=0 \
    --set sysbench.threads=2 --set sysbench.runtime=6s --set sysbench.memcg_limit=768M \
    >"$T/out" 2>"$T/err" &
  local pid=$!; SB_PIDS=$pid
  sb_wait_for "$T/r/t/logs/sysbench-t2-i0.log" "Threads started" "$pid" || fail "run never started"
  local cluster; cluster=$(sb_cluster_from_output)
  local cg; cg=$(find /sys/fs/cgroup -maxdepth 3 -type d -name "lrubench-$pid" | head -1)
  [ -n "$cg" ] || fail "no run cgroup lrubench-$pid"
  local pm; pm=$(head -1 "$cluster/data/postmaster.pid")
  grep -qx "$pm" "$cg/sysbench-server/cgroup.procs" || fail "postmaster $pm not in $cg/sysbench-server"
  # every backend too (the children of the postmaster)
  local b
  for b in $(pgrep -P "$pm"); do
    grep -qx "$b" "$cg/sysbench-server/cgroup.procs" || fail "backend $b not in sysbench-server"
  done
  local lim
  if [ -f "$cg/sysbench-server/memory.limit_in_bytes" ]; then lim=$(cat "$cg/sysbench-server/memory.limit_in_bytes")
  else lim=$(cat "$cg/sysbench-server/memory.max"); fi
  assert_eq "$lim" $((768 * 1024 * 1024)) "server memcg limit"
  local sb; sb=$(pgrep -f "sysbench oltp_read_only .*--pgsql-host=$cluster " | head -1)
  [ -n "$sb" ] || fail "sysbench not found"
  grep -qx "$sb" "$cg/sysbench-client/cgroup.procs" || fail "sysbench $sb not in sysbench-client"
  local node; node=$(json_get "$T/r/t/run.json" '["config"]["global"]["numa_node"]' 2>/dev/null)
  case $node in ''|auto|none) node=0 ;; esac
  local node_cpus; node_cpus=$(sb_cpus "$(cat "/sys/devices/system/node/node$node/cpulist")")
  assert_eq "$(sb_cpus "$(taskset -cp "$pm" | sed 's/.*: //')")" "$node_cpus" "postmaster CPU binding"
  assert_eq "$(sb_cpus "$(taskset -cp "$sb" | sed 's/.*: //')")" "$node_cpus" "sysbench CPU binding"
  wait "$pid"; local rc=$?
  assert_eq "$rc" 0 "exit status"
  sb_assert_gone "$cluster"
  sb_no_leaks
}

# probe: no sysbench, or a sysbench built without the pgsql driver (that one
# cannot exist on this machine, so a stand-in script prints sysbench's help
# without the driver line).
test_sysbench_probe() {
  sb_need
  mkdir "$T/bin"
  PATH=$T/bin sb_run 3 run -w sysbench --quick -o "$T/r" --label a
  assert_grep_err "sysbench not found in PATH (apt-get install sysbench)"
  { echo '#!/bin/sh'; echo "cat <<'X'"; sysbench --help | grep -v 'pgsql - PostgreSQL driver'; echo X; } > "$T/bin/sysbench"
  chmod +x "$T/bin/sysbench"
  PATH=$T/bin:$PATH sb_run 3 run -w sysbench --quick -o "$T/r" --label b
  assert_grep_err "sysbench has no PostgreSQL (pgsql) driver"
  sb_no_leaks
}

# A fixed transaction count (events = N): sysbench runs --events=N --time=0,
# and the table "sysbench Time" holds the time each run took, as sysbench
# printed it; memcgs = 0 runs the server and the client in the root memory
# cgroup (no sysbench memcg is made).
test_sysbench_fixed_events_time_table() {
  sb_need
  "$LRUBENCH" run -w sysbench --quick -o "$T/r" --label t -i 2 --set sysbench.threads=1,2 \
    --set sysbench.events=300 --set sysbench.memcgs=0 --set global.warmup=0 \
    --set global.drop_caches=no >"$T/out" 2>"$T/err" &
  local pid=$!; SB_PIDS=$pid
  local i made=""
  # while it runs: no sysbench memcg under the run's parent
  for i in $(seq 1 600); do
    [ -e "$T/r/t/sysbench.json" ] && break
    made=$made$(find /sys/fs/cgroup -maxdepth 3 -type d -path "*/lrubench-$pid/sysbench-*" 2>/dev/null)
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  wait "$pid"; local rc=$?
  [ "$rc" = 0 ] || { tail -20 "$T/err"; fail "exit $rc"; }
  [ -z "$made" ] || fail "memcgs=0 made sysbench memcgs: $made"
  local dir=$T/r/t
  python3 - "$dir" <<'EOF2' || fail "the Time table does not match the logs"
import json, re, os, sys
d = sys.argv[1]
w = json.load(open(os.path.join(d, "sysbench.json")))
tables = {t["title"]: t for t in w["tables"]}
tt = tables["sysbench Time"]
assert tt["unit"] == "s" and tt["better"] == "lower", tt
assert tt["x_axis"] == {"name": "threads", "unit": "count"}, tt.get("x_axis")
assert [o["op"] for o in tt["ops"]] == ["1", "2"], tt["ops"]
for o in tt["ops"]:
    assert len(o["samples"]) == 2, o
    for i, v in enumerate(o["samples"]):
        log = open(os.path.join(d, "logs", "sysbench-t%s-i%d.log" % (o["op"], i))).read()
        assert re.search(r"--events=300\b", log) is None  # sysbench does not echo options
        m = re.search(r"^\s*total time:\s+([0-9.]+)s", log, re.M)
        n = re.search(r"^\s*transactions:\s+(\d+)", log, re.M)
        assert m and float(m.group(1)) == v, (o["op"], i, v, m and m.group(1))
        assert n and int(n.group(1)) == 300, (o["op"], i, n and n.group(1))
        assert v > 0
# TPS is still recorded beside it
assert len(tables["sysbench Transactions per second"]["ops"]) == 2
EOF2
  assert_eq "$(json_get "$dir/run.json" '["config"]["sysbench"]["events"]')" 300 "events in config"
  # the warm cache of sysbench-node1 (drop_caches = no): no drop before any of
  # the 2 x 2 iterations, by the run's records; the tables prepared once
  python3 - "$dir/run.json" <<'EOF2' || fail "page_cache records"
import json, sys
pc = json.load(open(sys.argv[1]))["page_cache"]
assert len(pc) == 4 and not any(x["dropped"] for x in pc), pc
EOF2
  assert_eq "$(ls "$dir/logs" | grep -c '^sysbench-prepare')" 1 "prepare logs"
  sb_assert_gone "$(sb_cluster "$dir")"
  sb_no_leaks
}

# mmtests' own MAX_TRANSACTIONS=auto pipeline (sysbench-bench: its points,
# gnuplot's smooth cspline, the awk and perl that read the table, FLOOR
# 1000), run for real on the numbers a run recorded: SB ECS MEMTOTAL WS.
sb_mmtests_count() {
  local sb=$1 ecs=$2 mt=$3 ws=$4 c=400000 d x
  d=$(mktemp -d "$T/curve.XXXXXX")
  printf '%s %s\n' 0 $((c/2)) "$sb" $c "$ecs" $((c/2*3/2)) "$mt" $((c/2)) \
    $((mt*4/3)) $((c/2/2)) $((mt*2)) $((c/80)) $((mt*8)) $((c/80*2)) > "$d/points"
  printf 'set terminal dumb\nset table "%s/coordinates"\nplot "%s/points" smooth cspline\n' "$d" "$d" |
    gnuplot >/dev/null 2>&1 || return 1
  x=$(awk "{ if (\$1 >= $ws) print \$2 }" "$d/coordinates" | head -1)
  x=$(perl -e "print int $x")
  [ -n "$x" ] || x=1000
  [ "$x" -ge 1000 ] || x=1000
  echo "$x"
}

# workload_size, shared_buffers, effective_cache_size and events = auto (the
# posted run's rules, lrubench-sysbench(7) SIZING), kept small by a 256M
# memcg_limit, the memory the rule then sizes from: run.json records the
# rule and the sizes it chose, PostgreSQL and sysbench got them, each run did
# the 10,000 transactions and the Time table holds their times.
test_sysbench_auto_sizing() {
  sb_need
  need_cmd gnuplot
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no memory cgroup controller"
  sb_run 0 run -w sysbench --quick -o "$T/r" --label t -i 1 --set global.warmup=0 \
    --set global.drop_caches=no --set sysbench.threads=1 --set sysbench.memcg_limit=256M \
    --set sysbench.workload_size=auto --set sysbench.shared_buffers=auto \
    --set sysbench.effective_cache_size=auto --set sysbench.events=auto
  local dir=$T/r/t
  python3 - "$dir" <<'PY' || fail "the sizing record does not match what ran"
import json, os, re, sys
d = sys.argv[1]
run = json.load(open(os.path.join(d, "run.json")))
facts = run["workload_facts"]["sysbench"]
sz = facts["sizing"]
mem = 256 << 20
assert sz["memory"] == mem and sz["memory_from"] == "memcg_limit", sz
assert "3/4" in sz["rule"] and "1/4" in sz["rule"] and "1/2" in sz["rule"], sz["rule"]
ws = mem // 4 * 3 // (1 << 20) * (1 << 20)
assert sz["workload_size"] == {"bytes": ws, "rule": "3/4 x memory, whole MiB"}, sz["workload_size"]
assert sz["shared_buffers"]["bytes"] == mem // 4, sz["shared_buffers"]
assert sz["effective_cache_size"]["bytes"] == mem // 2, sz["effective_cache_size"]
rows = ws // (1 << 20) * 4500
assert sz["rows_per_table"] == rows and facts["table_size"] == rows, (sz["rows_per_table"], facts["table_size"])
assert facts["shared_buffers"] == mem // 4 and facts["effective_cache_size"] == mem // 2
ev = sz["events"]
assert ev["count"] == 10000 and "--max-requests=10000" in ev["rule"], ev
# the machine's own numbers, as read: MemTotal as /proc/meminfo says
kb = int(re.search(r"^MemTotal:\s+(\d+) kB", open("/proc/meminfo").read(), re.M).group(1))
assert sz["machine_mem_total"] == kb * 1024, sz["machine_mem_total"]
assert 0 < sz["mem_available"] <= kb * 1024, sz["mem_available"]
assert sz["posted_text_here"] == kb * 1024 // 8 * 3 // (1 << 20) * (1 << 20), sz["posted_text_here"]
assert run["config"]["sysbench"]["events"] == "auto", run["config"]["sysbench"]["events"]
# what PostgreSQL was given
conf = open(os.path.join(d, "logs", "postgresql.conf")).read()
tail = conf[conf.index("written by lrubench"):]
assert re.search(r"^shared_buffers = %dkB$" % (mem // 4 // 1024), tail, re.M), tail
assert re.search(r"^effective_cache_size = %dkB$" % (mem // 2 // 1024), tail, re.M), tail
# what sysbench did: 10,000 transactions, its time in the Time table
w = json.load(open(os.path.join(d, "sysbench.json")))
tt = {t["title"]: t for t in w["tables"]}["sysbench Time"]
assert [o["op"] for o in tt["ops"]] == ["1"] and len(tt["ops"][0]["samples"]) == 1, tt["ops"]
log = open(os.path.join(d, "logs", "sysbench-t1-i0.log")).read()
assert re.search(r"^\s*transactions:\s+10000\s", log, re.M), "not 10000 transactions"
t = float(re.search(r"^\s*total time:\s+([0-9.]+)s", log, re.M).group(1))
assert tt["ops"][0]["samples"][0] == t, (tt["ops"][0]["samples"], t)
prep = open(os.path.join(d, "logs", "sysbench-prepare.log")).read()
assert re.search(r"Inserting %d records into 'sbtest1'" % rows, prep), prep[-300:]
print("mmtests", sz["shared_buffers"]["bytes"], sz["effective_cache_size"]["bytes"],
      sz["machine_mem_total"], ws, ev["mmtests_curve"], file=open(os.path.join(d, "..", "curve"), "w"))
PY
  # mmtests' count beside it is what mmtests' own gnuplot pipeline prints
  # for the same numbers
  local _ sb ecs mt ws curve
  read -r _ sb ecs mt ws curve < "$T/r/curve"
  assert_eq "$(sb_mmtests_count "$sb" "$ecs" "$mt" "$ws")" "$curve" "mmtests' auto count"
  # the rule said as the run starts, and in the summary
  assert_grep "sysbench: memory the run may use: memcg_limit 256M" "$T/out"
  assert_grep "sysbench: workload_size = 192M (auto: 3/4 x memory): 1 table x 864000 rows" "$T/out"
  assert_grep "^sysbench sizing: events = auto: 10000 transactions a run" "$T/out"
  sb_assert_gone "$(sb_cluster "$dir")"
  sb_no_leaks
}

# run --dry-run --machine: the rules on the posted shape and on others,
# without running (no root, nothing made): the posted 3/8, 1/8, 1/4 of the
# machine on two nodes; the one-node note; a shape whose MemAvailable cannot
# hold the tables says so; mmtests' count there is its own pipeline's.
test_sysbench_plan_machine() {
  local suite=$LRUBENCH_SRC/configs/suites/sysbench-node1.conf
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=40,memory=251G,nodes=2 -c "$suite" -o "$T/r"
  assert_grep "sized for 20 CPUs and 128512M" "$T/out"
  assert_grep "^  steps: threads 1,4,7,12,18,20, 72 runs in all$" "$T/out"
  assert_grep "^  memory the run may use: the node's MemTotal 128512M$" "$T/out"
  assert_grep "^  workload_size = 96384M (auto: 3/4 x memory): 1 table x 433728000 rows$" "$T/out"
  assert_grep "^  shared_buffers = 32128M (auto: 1/4), effective_cache_size = 64256M (auto: 1/2)$" "$T/out"
  assert_grep "^  events = auto: 10000 transactions a run" "$T/out"
  assert_grep "^  working set 128512M <= memory 128512M" "$T/out"
  assert_grep "^  time: not estimated: 72 runs of 10000 transactions" "$T/out"
  # 96384M is the posted line itself there: no note
  grep -q "the posted line" "$T/out" && fail "a note on the posted shape"
  if command -v gnuplot >/dev/null; then
    assert_grep "mmtests' curve gives $(sb_mmtests_count $((32128 << 20)) $((64256 << 20)) \
      $((251 << 30)) $((96384 << 20))) here" "$T/out"
  fi
  # one node: the rule keeps the share of the run's memory; the posted line is half of it
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=2,memory=24G -c "$suite" -o "$T/r"
  assert_grep "^  workload_size = 18G (auto: 3/4 x memory)" "$T/out"
  assert_grep "(the posted line MEMTOTAL_BYTES\*3/8 would be 9G here" "$T/out"
  # a memcg_limit is the base when smaller
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=2,memory=24G -c "$suite" -o "$T/r" \
    --set sysbench.memcgs=1 --set sysbench.memcg_limit=4G
  assert_grep "^  memory the run may use: memcg_limit 4G$" "$T/out"
  assert_grep "^  workload_size = 3G (auto: 3/4 x memory)" "$T/out"
  # the shape's MemAvailable cannot hold the rule's tables: said, with the numbers
  expect_exit 0 "$LRUBENCH" run --dry-run --machine cpus=2,memory=24G,available=8G -c "$suite" -o "$T/r"
  assert_grep "cannot run there: sysbench.workload_size = auto cannot run here: 3/4 of MemTotal 24G is 18G of tables, more than MemAvailable 8G" "$T/out"
  [ ! -e "$T/r" ] || fail "a plan made a results folder"
}

# Bad auto-related values: exit 2 naming the key.
test_sysbench_bad_sizing_values() {
  sb_need
  sb_run 2 run -w sysbench --quick -o "$T/r" --label a --set sysbench.events=lots
  assert_grep_err "sysbench.events"
  assert_grep_err "'lots' is not a whole number"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label b --set sysbench.workload_size=much
  assert_grep_err "sysbench.workload_size"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label c --set sysbench.shared_buffers=lots
  assert_grep_err "sysbench.shared_buffers"
  sb_run 2 run -w sysbench --quick -o "$T/r" --label d --set sysbench.workload_size=auto \
    --set sysbench.memcg_limit=1M
  assert_grep_err "sysbench.workload_size = auto: 3/4 of memcg_limit 1M is below the 1M minimum"
  [ ! -e "$T/r" ] || fail "a refused run made a results folder"
  sb_no_leaks
}
