# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=900   (eight real lrubench tasks on three Slurm nodes sharing 2 CPUs)
# lrubench fleet on a multi-node Slurm (issue 29): one slurmctld and three
# slurmd, each in a network namespace (and host name) of its own on this
# machine, joined by veths to a bridge (tests/fixtures/slurm/multi.sh), so
# job arrays, --exclusive, --nodelist and the collect job meet several
# nodes. As in fleet.sh both "kernels" are this machine's kernel under two
# names: what is tested is the machinery. Every daemon, namespace and veth
# is removed when the test ends (trap), also on failure; the test checks it.

source "$LRUBENCH_SRC/tests/fixtures/slurm/cluster.sh"
source "$LRUBENCH_SRC/tests/fixtures/slurm/multi.sh"
source "$LRUBENCH_SRC/tests/integration/fleet.sh"

mc_wait_jobs_done() {   # mc_wait_jobs_done SECONDS
  local i
  for i in $(seq $(( $1 * 2 ))); do
    [ -z "$(on_ctl timeout 10 squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  on_ctl squeue; fail "Slurm jobs still running after $1 s"
}

# no two jobs of the list (lines "NODE START END", epoch seconds) overlap
# on one node: --exclusive held
assert_exclusive() {
  sort -k1,1 -k2,2n "$1" | awk '$1 == node && $2 < end { print "overlap on " $1 ": " $0; bad = 1 }
    { node = $1; end = $3 } END { exit bad }' || { cat "$1"; fail "two jobs shared a node"; }
}

# jobs of the squeue listing as "NODE START END" (the collect job aside)
job_spans() {
  on_ctl squeue -h -t all -o '%j %N %S %e' | awk '$1 !~ /collect/ { print $2, $3, $4 }' |
    while read -r node s e; do echo "$node $(date -d "$s" +%s) $(date -d "$e" +%s)"; done
}

test_fleet_multi_node() {
  need_root
  start_multi_cluster 3
  local r n l
  # 1. pinned: nodes = n1,n2 -> one array per node, each task on its node
  PLAN_NAME=pin write_plan "$T/p.ini" "results = $T/results" "repetitions = 1" "nodes = n1,n2"
  expect_exit 0 on_ctl "$LRUBENCH" fleet submit "$T/p.ini"
  assert_grep "submitted 4 tasks of pin in 2 job arrays" "$T/out"
  # 2. unpinned: Slurm picks the nodes
  PLAN_NAME=free write_plan "$T/q.ini" "results = $T/results" "repetitions = 2"
  expect_exit 0 on_ctl "$LRUBENCH" fleet submit "$T/q.ini"
  assert_grep "submitted 4 tasks of free in 1 job array" "$T/out"
  mc_wait_jobs_done 600

  r=$T/pin.fleet
  expect_exit 0 on_ctl "$LRUBENCH" fleet status "$T/p.ini"
  assert_eq "$(grep -c "^  task .* COMPLETED" "$T/out")" 4 "completed pinned tasks in fleet status"
  assert_grep "^  collect .* COMPLETED" "$T/out"
  assert_grep "4 of 4 tasks complete, 0 failed" "$r/fleet-report.txt"
  for n in n1 n2; do
    for l in base-$n-r1 patched-$n-r1; do
      assert_eq "$(json_get "$T/results/pin/$l/run.json" '["status"]')" complete "$l status"
    done
    # pooled per node: each node's kernels are compared with each other
    assert_file "$r/pooled/base-$n/run.json"
    assert_file "$r/pooled/patched-$n/run.json"
  done
  # the task ran on its node: the node's own host name, in the label's run.json
  assert_grep '"hostname": "n2"' "$T/results/pin/base-n2-r1/run.json"
  assert_grep "base-n1" "$r/compare.txt"
  assert_grep "patched-n2" "$r/compare.txt"
  assert_no_file "$r/pooled/base-n3"

  r=$T/free.fleet
  expect_exit 0 on_ctl "$LRUBENCH" fleet status "$T/q.ini"
  assert_eq "$(grep -c "^  task .* COMPLETED" "$T/out")" 4 "completed unpinned tasks in fleet status"
  assert_grep "4 of 4 tasks complete, 0 failed" "$r/fleet-report.txt"
  # whatever nodes Slurm chose, the folders name them and the pooling follows
  ls "$T/results/free" > "$T/free-labels"
  [ "$(grep -c '^base-n[123]-r[12]$' "$T/free-labels")" = 2 ] || { cat "$T/free-labels"; fail "base tasks' labels"; }
  for l in $(cat "$T/free-labels"); do
    n=${l#*-}; n=${n%-r*}
    assert_file "$r/pooled/${l%%-*}-$n/run.json"
    assert_grep "\"hostname\": \"$n\"" "$T/results/free/$l/run.json"
  done
  # the jobs of both plans spread over more than one node, never two at once on one
  job_spans > "$T/spans"
  [ "$(awk '{print $1}' "$T/spans" | sort -u | wc -l)" -ge 2 ] || { cat "$T/spans"; fail "all tasks on one node"; }
  assert_exclusive "$T/spans"

  # everything goes: daemons, namespaces, veths
  stop_multi_cluster
  ! ip netns list | grep -q "^$MC_ID-" || { ip netns list; fail "a namespace was left behind"; }
  [ ! -e "$T/slurm" ] || fail "the cluster's state was left behind"
  assert_no_leaks
}

# A node lost mid-run: its slurmd killed while its first task runs. Slurm
# marks it DOWN and the job NODE_FAIL (JobRequeue=0 here: with requeueing a
# task pinned to the lost node would wait for it forever); the task pinned
# behind it cannot run and is cancelled, as a lab's operator would. The
# collect job and fleet status name both, and the other nodes' kernels are
# still pooled and compared.
test_fleet_multi_node_lost() {
  need_root
  MC_SLURMD_TIMEOUT=6 MC_JOB_REQUEUE=0 start_multi_cluster 3
  local r=$T/lost.fleet id
  PLAN_NAME=lost write_plan "$T/p.ini" "results = $T/results" "nodes = n1,n2,n3" \
    "set = readtwice.runtime=4s"
  expect_exit 0 on_ctl "$LRUBENCH" fleet submit "$T/p.ini"
  # lost while a task's lrubench really runs there: Slurm's RUNNING outlives
  # the run by the job's epilog, and on a slow machine (a fresh root, the
  # sanitizer build) n3's first task may be over before submit returns; then
  # its second one is the one lost, and nothing waits behind it
  wait_for "a task's lrubench running on n3" node_runs_lrubench "$MC_ID-n3"
  lose_node n3
  wait_for "n3 marked down" sh -c 'nsenter --net=/run/netns/$0 sinfo -h -n n3 -o %t | grep -q down' "$MC_CTL"
  # the task queued behind it on n3 never starts: cancel it
  for id in $(on_ctl squeue -h -t PENDING -w n3 -o %i 2>/dev/null) \
    $(on_ctl squeue -h -t PENDING -o '%i %j %r' | awk '/ReqNodeNotAvail|NodeDown/ {print $1}'); do
    on_ctl scancel "$id"
  done
  mc_wait_jobs_done 300
  expect_exit 0 on_ctl "$LRUBENCH" fleet status "$T/p.ini"
  # Slurm's word for the lost task: FAILED when its step reported the end
  # before the node was marked down, NODE_FAIL otherwise
  assert_grep "node n3, job [0-9_]*): FAILED: .*Slurm: \(FAILED\|NODE_FAIL\) on n3" "$r/fleet-report.txt"
  assert_grep "^  task .* n3  *\(FAILED\|NODE_FAIL\)$" "$T/out"
  assert_grep "base-n1" "$r/compare.txt"
  assert_grep "patched-n2" "$r/compare.txt"
  if grep -q "node n3, job [0-9_]*): complete" "$r/fleet-report.txt"; then
    # n3's first task ended before the loss: its second one was lost
    assert_eq "$(grep -c "node n3, job [0-9_]*): complete" "$r/fleet-report.txt")" 1 "n3 tasks complete"
    assert_grep "5 of 6 tasks complete, 1 failed" "$r/fleet-report.txt"
    grep -q "CANCELLED" "$r/fleet-report.txt" && fail "a task cancelled with nothing pending behind the lost one"
  else
    # the first one lost, the one queued behind it cancelled
    assert_grep "node n3, job [0-9_]*): FAILED: no results; Slurm: CANCELLED on n3" "$r/fleet-report.txt"
    assert_grep "4 of 6 tasks complete, 2 failed" "$r/fleet-report.txt"
    assert_grep "^  task .* n3  *CANCELLED$" "$T/out"
    assert_no_file "$r/pooled/base-n3"
  fi
  stop_multi_cluster
  ! ip netns list | grep -q "^$MC_ID-" || { ip netns list; fail "a namespace was left behind"; }
  assert_no_leaks
}
