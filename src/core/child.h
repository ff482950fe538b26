/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes, in the manner of git's run-command.c: argv arrays and
 * execve (never a shell); between fork and exec only async-signal-safe calls;
 * an exec failure travels back through a close-on-exec pipe so "command not
 * found" is an error message; death by signal is reported as 128 + signal.
 *
 * Every child is placed, before it runs a single instruction of its own,
 * into its cgroup (by writing "0" to cgroup.procs from the child itself)
 * and onto its NUMA node, and becomes a process-group leader so the whole
 * tree (make -j, sysbench threads, postgres backends) can be signalled.
 * A running child is in the cleanup registry; PR_SET_PDEATHSIG makes it die
 * with lrubench even on SIGKILL.
 */
#ifndef LRUBENCH_CHILD_H
#define LRUBENCH_CHILD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "core/numa.h"

struct child {
	/* exactly one of argv / fn */
	const char *const *argv;   /* argv[0] is looked up in PATH if it has no '/' */
	int (*fn)(void *arg);      /* fork-only child: runs fn, exits with its value */
	void *fn_arg;

	const char *cgroup_procs;  /* cgroup.procs (v2) or tasks/cgroup.procs (v1) to join; NULL: stay */
	const struct numa_bind *bind;  /* NULL or node < 0: no binding */
	const char *dir;           /* chdir here first; NULL: stay */
	const char *out_path;      /* stdout+stderr appended here; NULL: inherit */
	const char *err_path;      /* with out_path: stderr appended here instead, so a
				    * parser of stdout never reads a tool's warnings */
	bool null_stdio;           /* stdin/stdout/stderr to /dev/null (overrides out_path) */
	int inherit_fd;            /* > 0: stays open across exec (a pipe the child writes a
				    * result to, its number given in argv) */
	const char *const *env_add;/* extra "K=V" entries for the child's environment */
	uid_t uid;                 /* drop to uid/gid when set_ids (e.g. postgres refuses root) */
	gid_t gid;
	bool set_ids;
	const char *name;          /* for messages; default argv[0] or "child" */
	double start_timeout;      /* seconds from fork to exec (or fn) before the child
				    * is killed as stuck; <= 0: CHILD_START_TIMEOUT */

	/* filled in */
	int term_signal;           /* once reaped: the signal that ended it, 0 when it exited
				    * (an exit status of 129 and SIGHUP both read 129 as a code) */
	pid_t pid;
	int cleanup_id;
	bool running;
	int start_fd;              /* between child_start_begin and _finish: the pipe the
				    * child's start failure comes through */
};

/* Start; 0 or -1 with a message naming the command (exec failures included). */
int child_start(struct child *c);
/*
 * child_start in two halves, for starting many children without waiting for
 * each in turn (task_round, child_set): begin forks and returns at once (0,
 * or -1 with a message when it could not fork); finish waits until the
 * child has joined its cgroup, bound itself and exec'ed (or, for fn, is
 * about to run fn) and reports a failure of those like child_start (-1, the
 * child reaped). Between the two the child holds one descriptor of ours
 * (start_fd), so keep the number of unfinished starts bounded
 * (CHILD_START_WINDOW).
 */
int child_start_begin(struct child *c);
int child_start_finish(struct child *c);
#define CHILD_START_WINDOW 128
/* a start is setup only (fork, cgroup, binding, exec): a minute is far past
 * any machine's slowest, and short of a hang */
#define CHILD_START_TIMEOUT 60.0
/* What child_wait returns. */
enum { CHILD_REAPED = 0, CHILD_TIMEOUT = 1, CHILD_ERROR = -1, CHILD_STOP = -2 };
/* Wait for exit. timeout < 0: forever. Returns CHILD_REAPED when the child
 * was reaped, CHILD_TIMEOUT (still running), CHILD_ERROR, CHILD_STOP when a
 * stop was requested (SIGINT) while waiting (still running: caller kills).
 * *code is the exit
 * status, or 128+signal; ru (may be NULL) gets the rusage of the child and
 * all its reaped descendants (wait4). */
int child_wait(struct child *c, double timeout, int *code, struct rusage *ru);
/* Has it exited (or is it no longer ours)? Looked at without reaping it, so
 * its process group can still be signalled. */
bool child_has_exited(struct child *c);
/* Signal the child's whole process group. */
void child_signal(struct child *c, int sig);
/* SIGTERM to the group, wait up to grace seconds for the leader to exit,
 * then SIGKILL to the group (descendants that outlived the leader too) and
 * reap. The leader is reaped only after that last kill, so the group id
 * cannot belong to another process yet. Idempotent. */
void child_stop(struct child *c, double grace);
/* Describe an exit code: "exited with 3", "killed by signal 9 (Killed)". */
void child_describe_code(int code, char *buf, size_t len);
/* Report a child that ended badly, the one way: "WHAT exited with 2; last
 * lines of LOG:" and the end of its log (error_with_log; log may be NULL).
 * code is the exit code child_wait/child_run gave. Returns -1. */
int child_failed(int code, const char *log, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Run argv to completion (with the same placement options) and return its
 * exit code, or -1 when it could not start. Output goes to c->out_path. */
int child_run(struct child *c, double timeout);

#endif
