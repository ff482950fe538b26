/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Slurm's commands (sbatch, squeue, sacct, scancel), run as children by
 * argv (core/child.h), found with find_in_path, their output read back;
 * and the pure parsers of what they print. lrubench does not link Slurm:
 * the commands are its stable interface, and a login node has them.
 */
#ifndef LRUBENCH_FLEET_SLURM_H
#define LRUBENCH_FLEET_SLURM_H

#include <stdbool.h>
#include "core/strlist.h"
#include "core/util.h"

/*
 * Run Slurm's prog with args; out gets what it printed (stdout and stderr,
 * at most 4 MiB). Returns its exit code, or an enum slurm_status: it could
 * not run (a message printed), or prog is not installed (a message
 * printed: the caller's exit 3).
 */
enum slurm_status {
	SLURM_CANNOT_RUN = -1,
	SLURM_NOT_INSTALLED = -3,
};
int slurm_run(const char *prog, const struct strlist *args, struct strbuf *out);

/* A job script: "#!/bin/sh", a comment, and `exec ARGV...` with every word
 * single-quoted, so no word is ever read by the shell as code. */
void slurm_script(const char *comment, const struct strlist *argv, struct strbuf *out);
/* s single-quoted for sh ('it'\''s'). */
void shell_quote(const char *s, struct strbuf *out);

/* The job id `sbatch --parsable` printed ("123" or "123;cluster"), or
 * NULL when out holds none (a refusal's message, say). Malloc'ed. */
char *slurm_parse_jobid(const char *out);

/* One job array task's state, from squeue or sacct. */
struct slurm_task_state {
	char *job;        /* the array's job id */
	long index;       /* the array index; -1 for a job that is not an array task */
	char *state;      /* PENDING, RUNNING, COMPLETED, FAILED, CANCELLED ... */
	char *node;       /* may be "" (pending) */
	char *exit_code;  /* "1:0"; "" when unknown (squeue) */
};

struct slurm_states {
	struct slurm_task_state *v;
	size_t n;
};

/*
 * Parse lines "JOBID|STATE|NODE[|EXIT]" where JOBID is "123", "123_4",
 * "123_[5-9%2]" (pending tasks, expanded) or a step ("123_4.batch",
 * skipped). Appends to st; lines it cannot read are skipped.
 */
void slurm_parse_states(const char *text, struct slurm_states *st);
const struct slurm_task_state *slurm_find_state(const struct slurm_states *st, const char *job,
						long index);
void slurm_states_release(struct slurm_states *st);

/* Task states of the jobs, from squeue (jobs Slurm still holds, all
 * states) and, where it has accounting, sacct (exit codes, older jobs).
 * 0, SLURM_CANNOT_RUN when neither answered (a message printed), or
 * SLURM_NOT_INSTALLED. */
int slurm_query(const struct strlist *jobs, struct slurm_states *st);

#endif
