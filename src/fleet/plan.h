/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fleet plan (docs/FLEET.md): which kernels, which suite, how many
 * repetitions, on which nodes -- the INI file `lrubench fleet plan|submit|
 * status` read, and that every task and the collect job read again on the
 * nodes (so it lives on a path they share).
 *
 *   [fleet]
 *   name = lru-2026-11          required; a label-like name: job names, the
 *                               results subfolder, the store folder
 *   results = /shared/results   tasks write <results>/<name>/<label>/
 *   store = https://store/lab/  tasks push <store><name>/task-<ID>.tar.zst
 *                               (one of results and store, or both)
 *   mode = host                 host: each node runs the kernel it booted;
 *                               vm: each task boots its kernel in qemu
 *   repetitions = 2             1..100
 *   workloads = readtwice       run -w (a comma list)
 *   suite = readtwice-40memcgs  run -c: a config file, or the name of a
 *                               shipped suite (lrubench list --suites) or
 *                               config (quick, default)
 *   quick = yes                 run --quick
 *   iterations = 3              run -i
 *   set = readtwice.runtime=1s  run --set (repeatable)
 *   partition = bench           sbatch --partition
 *   nodes = n1,n2               one task per kernel x repetition x node,
 *                               pinned; without it Slurm picks a node for
 *                               each kernel x repetition
 *   constraint = epyc           sbatch --constraint: node features
 *   time = 2:00:00              sbatch --time of each task
 *   sbatch = --account=mm       one more sbatch argument (repeatable): one
 *                               of an allow-list, by its full name
 *                               (fleet_sbatch_option_check)
 *   lrubench = /opt/lb/lrubench the program on the nodes (default: this one)
 *
 *   [kernel base]               one section per kernel, the first is the
 *   release = 6.8.0-rc1         baseline. host mode: the release the node
 *   constraint = k-6.8-rc1      must run, checked by the task (optional), and
 *                               a feature selecting nodes booted with it
 *   image = /shared/bzImage     vm mode: the kernel image (must exist)
 *   modules = /shared/modules   vm mode: its modules (optional)
 *
 * Kernel names are 1..64 of A-Z a-z 0-9 . _ + (no '-'), so a task's label
 * "<kernel>-<node>-r<repetition>" reads back unambiguously whatever the
 * node's name holds.
 *
 * Tasks are numbered 0..N-1: kernel-major, then repetition, then node. Tasks
 * that need different sbatch options (a node of the list, a kernel's
 * constraint) cannot share a job array, so the tasks are grouped by those
 * options: one array per group, each array index a task of its group.
 */
#ifndef LRUBENCH_FLEET_PLAN_H
#define LRUBENCH_FLEET_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/strlist.h"
#include "core/util.h"

#define FLEET_KERNEL_NAME_MAX 64
#define FLEET_MAX_REPETITIONS 100
#define FLEET_MAX_TASKS 10000    /* Slurm's default MaxArraySize is 1001 per array */

enum fleet_mode { FLEET_HOST, FLEET_VM };

struct fleet_kernel {
	char *name;
	char *release;      /* host: checked on the node; NULL: any */
	char *constraint;   /* host: sbatch --constraint for its tasks; NULL: none */
	char *image;        /* vm: the kernel image */
	char *modules;      /* vm: its modules; NULL: none */
};

struct fleet_task {
	size_t id;          /* 0..ntasks-1 */
	size_t kernel;      /* index into kernels */
	unsigned rep;       /* 1..repetitions */
	const char *node;   /* pinned node (from nodes), or NULL: Slurm picks */
	size_t group;       /* the job array it is in */
	size_t index;       /* its index in that array */
};

struct fleet_group {
	const char *node;          /* --nodelist, or NULL */
	const char *constraint;    /* --constraint (plan's and kernel's joined with &), or NULL */
	char *constraint_buf;
	size_t *tasks;             /* task ids, in array index order */
	size_t ntasks;
};

struct fleet_plan {
	char *path;                /* absolute path of the plan file */
	char *name;
	char *results, *store;     /* at least one */
	enum fleet_mode mode;
	unsigned repetitions;
	char *workloads, *suite, *suite_path, *iterations;
	bool quick;
	struct strlist sets;
	char *partition, *constraint, *time_limit, *lrubench;
	struct strlist nodes;
	struct strlist sbatch_args;
	struct fleet_kernel *kernels;
	size_t nkernels;
	struct fleet_task *tasks;
	size_t ntasks;
	struct fleet_group *groups;
	size_t ngroups;
};

/*
 * Read and check a plan: every key known, values in range, kernels named
 * by the rule, a vm plan's images present, the suite found, the run
 * options accepted by the config tables (the same --set a task will pass),
 * task labels within the label rule. 0, or -1 with the reason in err
 * ("FILE:LINE: ..." where a line is to blame) and nothing to release.
 */
int fleet_plan_load(const char *path, struct fleet_plan *p, struct strbuf *err);
void fleet_plan_release(struct fleet_plan *p);

/* May a plan add this sbatch option (fleet.sbatch)? An allow-list of full
 * option names with a value (plan.c says why each is safe for a root job);
 * 0, or -1 with the reason in why. */
int fleet_sbatch_option_check(const char *v, struct strbuf *why);

/* The label of a task that ran on node: "<kernel>-<node>-r<rep>". */
char *fleet_task_label(const struct fleet_plan *p, const struct fleet_task *t, const char *node);
/* The task whose label this is (kernel and repetition match; the node is
 * what lies between), or NULL. */
const struct fleet_task *fleet_task_of_label(const struct fleet_plan *p, const char *label,
					     char **node);
/* The `lrubench run` arguments of a task (after "run"), results into outdir. */
void fleet_task_run_args(const struct fleet_plan *p, const struct fleet_task *t,
			 const char *label, const char *outdir, struct strlist *argv);
/* The folder of the plan's state: <plan's folder>/<name>.fleet (job
 * scripts, Slurm's output files, the submitted job ids). Malloc'ed. */
char *fleet_state_dir(const struct fleet_plan *p);
/* The store URL of a task's archive (store set): <store><name>/task-<id>.tar.zst */
char *fleet_task_store_url(const struct fleet_plan *p, const struct fleet_task *t);

/* Print the plan: kernels, suite, where results go, tasks, job arrays. */
void fleet_plan_print(const struct fleet_plan *p, FILE *out);

#endif
