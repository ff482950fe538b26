/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What runs on the cluster's nodes (docs/FLEET.md): one task of a job
 * array, and the collect job that runs after all of them.
 */
#ifndef LRUBENCH_FLEET_TASK_H
#define LRUBENCH_FLEET_TASK_H

#include "core/strlist.h"
#include "fleet/plan.h"

/*
 * The task at index $SLURM_ARRAY_TASK_ID of job array group: an ordinary
 * `lrubench run` (this program, as a child) with the label
 * <kernel>-<node>-r<rep>, node being the one Slurm gave ($SLURMD_NODENAME),
 * into <results>/<name>/ or, with only a store, a private temp folder; then,
 * with a store, the label packed and pushed as <store><name>/task-<id>.tar.zst.
 * In host mode a kernel's release, when the plan gives one, must be the
 * node's (uname -r), or the task fails at once (exit 3) saying so.
 * Returns an LB_EXIT_* code: run's own, or 1 when the push failed.
 */
int fleet_task_run(const struct fleet_plan *p, size_t group);

/*
 * After every task (sbatch --dependency=afterany): the tasks' labels (from
 * the results folder, or fetched from the store), checked against the plan;
 * the repetitions of each kernel on each node pooled into one label
 * <kernel>-<node> (every sample kept, vm/merge.c's pooling); `lrubench
 * compare` of the pooled labels, baseline first, into <state>/compare.txt
 * and `lrubench report` into <state>/report.md;
 * <state>/fleet-report.txt names every task, and why each failed one has no
 * results (the Slurm state and exit code, from squeue/sacct). Everything
 * is printed too (the job's output file). jobs are the arrays' job ids.
 * Returns 0 when every task has results and compare ran, else 1.
 */
int fleet_collect(const struct fleet_plan *p, const struct strlist *jobs);

#endif
