# SPDX-License-Identifier: GPL-2.0-or-later
# lrubench fleet: plans checked without Slurm, then a real one-host Slurm
# (munged, slurmctld, slurmd on 127.0.0.1; tests/fixtures/slurm/cluster.sh)
# running plans of readtwice with a tiny runtime on this host's kernel.
# The plans name two kernels, "base" and "patched", but both are the kernel
# this machine booted, under two names: a one-host cluster cannot boot two
# kernels, and what is tested is the fleet machinery (arrays, labels,
# pooling, compare, failed tasks), not a kernel difference. Every daemon is
# stopped and its state removed when a test ends (trap), also on failure.

source "$LRUBENCH_SRC/tests/fixtures/slurm/cluster.sh"
source "$LRUBENCH_SRC/tests/fixtures/store/nginx.sh"
FIX=$LRUBENCH_SRC/tests/fixtures

# write_plan FILE [KEY=VALUE lines for [fleet]] -- then [kernel] sections
# come from $KERNELS (default: base and patched).
write_plan() {
  local f=$1; shift
  {
    echo "[fleet]"
    echo "name = ${PLAN_NAME:-t1}"
    echo "workloads = ${WL:-readtwice}"
    echo "quick = yes"
    echo "iterations = 2"
    echo "set = readtwice.runtime=1s"
    echo "set = readtwice.memcgs=1"
    echo "set = readtwice.file_size=64M"
    echo "set = global.warmup=0"
    printf '%s\n' "$@"
    printf '%b' "${KERNELS-[kernel base]\n[kernel patched]\n}"
  } > "$f"
}

# Wait (up to $1 seconds) until Slurm holds no job that is still to run.
wait_jobs_done() {
  local i
  for i in $(seq $(( $1 * 5 ))); do
    [ -z "$(squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  squeue; fail "Slurm jobs still running after $1 s"
}

bad_plan() {   # bad_plan MESSAGE: the plan in $T/p.ini is refused with MESSAGE
  expect_exit 2 "$LRUBENCH" fleet plan "$T/p.ini"
  assert_grep_err "$1"
}

test_fleet_plan_checks() {
  write_plan "$T/p.ini" "results = $T/results" "repetitions = 3" "nodes = n1,n2"
  expect_exit 0 "$LRUBENCH" fleet plan "$T/p.ini"
  assert_grep "t1, host mode, 2 kernels x 3 repetitions x nodes = 12 tasks" "$T/out"
  assert_grep "run:     lrubench run -o DIR --label LABEL -w readtwice --quick -i 2 --set readtwice.runtime=1s" "$T/out"
  assert_grep "job array 0: 6 tasks, --exclusive --nodes=1 --nodelist=n1" "$T/out"
  assert_grep "job array 1: 6 tasks, --exclusive --nodes=1 --nodelist=n2" "$T/out"
  # a kernel's constraint makes its own arrays
  KERNELS='[kernel base]\nconstraint = k1\n[kernel patched]\nconstraint = k2\n' \
    write_plan "$T/p.ini" "results = $T/results" "constraint = epyc"
  expect_exit 0 "$LRUBENCH" fleet plan "$T/p.ini"
  assert_grep "job array 1: 1 task, --exclusive --nodes=1 --constraint=epyc&k2" "$T/out"
  # bad plans: each a clear error, exit 2
  write_plan "$T/p.ini"
  bad_plan "give fleet.results (a folder every node shares) or fleet.store"
  write_plan "$T/p.ini" "results = relative/dir"
  bad_plan "fleet.results = relative/dir: give an absolute path"
  write_plan "$T/p.ini" "results = $T/r" "suite = nosuchsuite"
  bad_plan "fleet.suite = nosuchsuite: unknown suite (known:.* quick"
  write_plan "$T/p.ini" "results = $T/r" "suite = $T/missing.conf"
  bad_plan "fleet.suite $T/missing.conf: no such file"
  WL=readtwice,nosuch write_plan "$T/p.ini" "results = $T/r"
  bad_plan "unknown workload 'nosuch'"
  write_plan "$T/p.ini" "results = $T/r" "set = readtwice.nosuchkey=1"
  bad_plan "nosuchkey"
  write_plan "$T/p.ini" "results = $T/r" "colour = blue"
  bad_plan "p.ini:[0-9]*: unknown key fleet.colour"
  write_plan "$T/p.ini" "results = $T/r" "repetitions = 0"
  bad_plan "fleet.repetitions = 0: 0 is out of range (1..100)"
  write_plan "$T/p.ini" "results = $T/r" "store = ftp://x/"
  bad_plan "fleet.store = ftp://x/: an http:// or https:// URL"
  write_plan "$T/p.ini" "results = $T/r" "sbatch = --array=1-9"
  bad_plan "fleet.sbatch = --array=1-9: --array is not an option a plan may add"
  write_plan "$T/p.ini" "results = $T/r" "sbatch = --outp=/tmp/x"
  bad_plan "--outp is not an option a plan may add"
  write_plan "$T/p.ini" "results = $T/r" "sbatch = --chdir=/"
  bad_plan "--chdir is not an option a plan may add"
  KERNELS='[kernel base]\n[kernel base]\n' write_plan "$T/p.ini" "results = $T/r"
  bad_plan "\[kernel base\] given twice"
  KERNELS='[kernel my-kernel]\n' write_plan "$T/p.ini" "results = $T/r"
  bad_plan "no '-': labels are <kernel>-<node>-r<repetition>"
  KERNELS='' write_plan "$T/p.ini" "results = $T/r"
  bad_plan "no \[kernel NAME\] section"
  # vm mode: images must exist
  KERNELS="[kernel base]\nimage = $T/bzImage-missing\n" write_plan "$T/p.ini" "results = $T/r" "mode = vm"
  bad_plan "\[kernel base\]: image $T/bzImage-missing: no such file"
  KERNELS='[kernel base]\n' write_plan "$T/p.ini" "results = $T/r" "mode = vm"
  bad_plan "\[kernel base\] needs image ="
  KERNELS="[kernel base]\nimage = $T/x\n" write_plan "$T/p.ini" "results = $T/r"
  bad_plan "has image/modules, which are for mode = vm"
  : > "$T/bzImage-a"; : > "$T/bzImage-b"
  KERNELS="[kernel a]\nimage = $T/bzImage-a\n[kernel b]\nimage = $T/bzImage-b\n" \
    write_plan "$T/p.ini" "results = $T/r" "mode = vm"
  expect_exit 0 "$LRUBENCH" fleet plan "$T/p.ini"
  assert_grep "kernel b            image $T/bzImage-b" "$T/out"
  assert_grep "lrubench run -o DIR --kernel-a .* --label-a LABEL" "$T/out"
  expect_exit 2 "$LRUBENCH" fleet plan "$T/nonexistent.ini"
  assert_grep_err "cannot read the plan"
  expect_exit 2 "$LRUBENCH" fleet
  expect_exit 2 "$LRUBENCH" fleet launch "$T/p.ini"
  assert_grep_err "'launch' is not a fleet subcommand"
}

# No Slurm on this machine (PATH without it): exit 3, saying so.
# The plan is read as a config is (core/util.h read_regular_file): a FIFO
# or a device is refused at once (fopen of a FIFO blocked forever), and so
# is a file of more than 1 MiB or one holding a NUL byte.
test_fleet_plan_reads_only_a_regular_file() {
  mkfifo "$T/fifo.ini"
  expect_exit 2 timeout -k 5 60 "$LRUBENCH" fleet plan "$T/fifo.ini"
  assert_grep_err "cannot read the plan $T/fifo.ini: it is a FIFO (only regular files are read)"
  expect_exit 2 timeout -k 5 60 "$LRUBENCH" fleet plan /dev/zero
  assert_grep_err "cannot read the plan /dev/zero: it is a device"
  head -c 1100000 /dev/zero | tr '\0' '#' >"$T/big.ini"
  expect_exit 2 "$LRUBENCH" fleet plan "$T/big.ini"
  assert_grep_err "cannot read the plan $T/big.ini: larger than 1MB"
  write_plan "$T/nul.ini" "results = $T/results"
  printf 'x\0y\n' >>"$T/nul.ini"
  expect_exit 2 "$LRUBENCH" fleet plan "$T/nul.ini"
  assert_grep_err "cannot read the plan $T/nul.ini: it holds a NUL byte (not a text file)"
  # a link to a plan is fine (a plan is named on the command line)
  write_plan "$T/p.ini" "results = $T/results"
  ln -s "$T/p.ini" "$T/link.ini"
  expect_exit 0 "$LRUBENCH" fleet plan "$T/link.ini"
}

test_fleet_without_slurm() {
  write_plan "$T/p.ini" "results = $T/results"
  mkdir -p "$T/bin"
  PATH=$T/bin expect_exit 3 "$LRUBENCH" fleet submit "$T/p.ini"
  assert_grep_err "Slurm's sbatch is not installed here"
  assert_no_file "$T/t1.fleet/submitted"
  # dry run: the scripts and sbatch lines, nothing submitted
  PATH=$T/bin expect_exit 0 "$LRUBENCH" fleet submit --dry-run "$T/p.ini"
  assert_grep "^sbatch --parsable --job-name=lrubench-t1 --array=0-1 --exclusive --nodes=1" "$T/out"
  assert_grep "^sbatch --parsable --job-name=lrubench-t1-collect --dependency=afterany:JOBS" "$T/out"
  assert_grep "^exec '.*/lrubench' 'fleet' 'task' '$T/p.ini' '--group=0'" "$T/t1.fleet/array-0.sh"
  assert_no_file "$T/t1.fleet/submitted"
  expect_exit 2 "$LRUBENCH" fleet status "$T/p.ini"
  assert_grep_err "has not been submitted"
}

# Issue 30 (high 1): the collect job, as root, reads task folders on a
# shared path. A run.json whose label walks out of the results folder is
# refused by the label rule and names nothing; a results file that is a
# symlink is not followed; every file is read once, into collect's own copy.
# No Slurm is needed: `fleet collect` without --jobs is the job's body.
test_fleet_collect_refuses_hostile_task_folders() {
  need_root
  write_plan "$T/p.ini" "results = $T/results"
  local src=$FIX/compare/edge/5.9-rc2-vanilla l
  mkdir -p "$T/secret" && echo '{"secret": 1}' >"$T/secret/key.json" && chmod 0600 "$T/secret/key.json"
  for l in base-h-r1 patched-h-r1; do
    mkdir -p "$T/results/t1/$l"
    cp "$src/thpscale.json" "$T/results/t1/$l/"
  done
  sed 's/"label": "5.9-rc2-vanilla"/"label": "base-h-r1"/' "$src/run.json" >"$T/results/t1/base-h-r1/run.json"
  sed "s|\"label\": \"5.9-rc2-vanilla\"|\"label\": \"patched-x/../../../../..$T/elsewhere/P-r1\"|" \
    "$src/run.json" >"$T/results/t1/patched-h-r1/run.json"
  ln -s "$T/secret/key.json" "$T/results/t1/base-h-r1/stolen.json"
  expect_exit 1 "$LRUBENCH" fleet collect "$T/p.ini"
  assert_grep_err "its run.json's label is refused: label 'patched-x/"
  [ -e "$T/elsewhere" ] && fail "collect wrote outside the results folder: $(find "$T/elsewhere")"
  # the symlinked file makes the folder unreadable as a whole: never followed
  assert_grep_err "base-h-r1 is not read: cannot read stolen.json: it is a symbolic link"
  grep -rqs secret "$T/t1.fleet" && fail "the symlinked file's content was copied"
  assert_no_file "$T/t1.fleet/taken"
  true
}

# Issue 30 (high 3, every path handed to another program): Slurm opens the
# --output files in the plan's state folder by name, as root, so a state
# folder that others can write (or a link) is refused before any job exists.
test_fleet_state_folder_must_be_ours() {
  write_plan "$T/p.ini" "results = $T/results"
  mkdir -p "$T/bin" "$T/t1.fleet"
  chmod 0777 "$T/t1.fleet"
  PATH=$T/bin expect_exit 1 "$LRUBENCH" fleet submit --dry-run "$T/p.ini"
  assert_grep_err "$T/t1.fleet is owned by uid $(id -u) with mode 0777: lrubench writes by name only"
  assert_no_file "$T/t1.fleet/array-0.sh"
  rmdir "$T/t1.fleet" && mkdir "$T/elsewhere" && ln -s "$T/elsewhere" "$T/t1.fleet"
  PATH=$T/bin expect_exit 1 "$LRUBENCH" fleet submit --dry-run "$T/p.ini"
  assert_grep_err "$T/t1.fleet is a link to a folder, not a folder"
  assert_no_file "$T/elsewhere/array-0.sh"
}

# The plan of issue 17: 2 kernel labels x 2 repetitions of readtwice on the
# host kernel, through a real Slurm; the collect job pools and compares.
test_fleet_slurm_runs_pools_and_compares() {
  need_root
  start_cluster
  write_plan "$T/p.ini" "results = $T/results" "repetitions = 2"
  expect_exit 0 "$LRUBENCH" fleet submit "$T/p.ini"
  assert_grep "submitted 4 tasks of t1 in 1 job array" "$T/out"
  expect_exit 2 "$LRUBENCH" fleet submit "$T/p.ini"
  assert_grep_err "was submitted already"
  wait_jobs_done 400
  expect_exit 0 "$LRUBENCH" fleet status "$T/p.ini"
  assert_eq "$(grep -c "^  task .* COMPLETED" "$T/out")" 4 "completed tasks in fleet status"
  assert_grep "^  collect .* COMPLETED" "$T/out"
  local n=$SLURM_NODE r=$T/t1.fleet
  assert_grep "4 of 4 tasks complete, 0 failed" "$r/fleet-report.txt"
  for l in base-$n-r1 base-$n-r2 patched-$n-r1 patched-$n-r2; do
    assert_eq "$(json_get "$T/results/t1/$l/run.json" '["status"]')" complete "$l status"
  done
  # the merged compare: the repetitions pooled, base first
  assert_grep "^Labels: base-$n (baseline), patched-$n" "$r/compare.txt"
  assert_grep "^Hmean     memcgs-1" "$r/compare.txt"
  local per pooled
  per=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tables"][0]["ops"][0]["samples"]))' "$T/results/t1/base-$n-r1/readtwice.json")
  pooled=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tables"][0]["ops"][0]["samples"]))' "$r/pooled/base-$n/readtwice.json")
  assert_eq "$pooled" "$((per * 2))" "samples pooled from both repetitions"
  assert_eq "$(json_get "$r/pooled/base-$n/run.json" '["fleet_pooled_from"]')" "['base-$n-r1', 'base-$n-r2']" "pooled from"
  # and the cover-letter block of them
  assert_grep "patched-$n" "$r/report.md"
  # the same compare from the command line, on the pooled labels
  expect_exit 0 "$LRUBENCH" compare --names "base-$n,patched-$n" "$r/pooled"
  cmp "$T/out" "$r/compare.txt" || fail "compare.txt differs from compare of the pooled labels"
  assert_no_leaks
}

# A task that cannot run (its kernel's release is not the node's) fails at
# once and is named, with its Slurm state, by the collect job.
test_fleet_failed_task_is_named() {
  need_root
  start_cluster
  KERNELS='[kernel base]\n[kernel other]\nrelease = 0.0.0-not-this-kernel\n' \
    write_plan "$T/p.ini" "results = $T/results"
  expect_exit 0 "$LRUBENCH" fleet submit "$T/p.ini"
  wait_jobs_done 300
  local r=$T/t1.fleet
  assert_grep "task 0 (kernel base, repetition 1, node $SLURM_NODE, job [0-9]*_0): complete" "$r/fleet-report.txt"
  assert_grep "task 1 (kernel other, repetition 1, node .*): FAILED: no results; Slurm: FAILED" "$r/fleet-report.txt"
  assert_grep "1 of 2 tasks complete, 1 failed" "$r/fleet-report.txt"
  assert_grep "runs kernel $(uname -r), but kernel other of the plan is release 0.0.0-not-this-kernel" "$r"/task-*_1.out
  assert_grep "fewer than two pooled labels" "$r"/collect-*.out
  expect_exit 0 "$LRUBENCH" fleet status "$T/p.ini"
  assert_grep "^  task   1 .* FAILED" "$T/out"
  assert_grep "^  collect .* FAILED" "$T/out"
}

# Slurm refusing the job: a clear error, exit 1, nothing left queued.
test_fleet_slurm_refuses_the_job() {
  need_root
  start_cluster
  write_plan "$T/p.ini" "results = $T/results" "partition = nosuchpartition"
  expect_exit 1 "$LRUBENCH" fleet submit "$T/p.ini"
  assert_grep_err "Slurm refused the job (sbatch exited with 1): .*nvalid partition"
  assert_no_file "$T/t1.fleet/submitted"
  assert_eq "$(squeue -h | wc -l)" 0 "jobs queued"
}

# No shared folder: each task pushes its archive to a results store (a
# real nginx), and the collect job fetches them from there.
test_fleet_store_mode() {
  need_root
  start_store
  start_cluster
  trap 'stop_cluster; stop_store; lib_teardown' EXIT
  write_plan "$T/p.ini" "store = $STORE/results/"
  expect_exit 0 "$LRUBENCH" fleet submit "$T/p.ini"
  wait_jobs_done 300
  assert_store_files() { assert_eq "$(store_files results | tr '\n' ' ')" "$1" "files in the store"; }
  assert_store_files "t1/task-0.tar.zst t1/task-1.tar.zst "
  local r=$T/t1.fleet n=$SLURM_NODE
  assert_grep "2 of 2 tasks complete, 0 failed" "$r/fleet-report.txt"
  assert_grep "^Labels: base-$n (baseline), patched-$n" "$r/compare.txt"
  expect_exit 0 "$LRUBENCH" compare "$r/fetched"
  assert_grep "^Labels: base-$n-r1 (baseline), patched-$n-r1" "$T/out"
}
