/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes VM mode starts (qemu, depmod, `lrubench run` natively for
 * --kernel-a host, `lrubench compare`): argv arrays, never a shell; an exec
 * failure comes back through a close-on-exec pipe as a message; a running
 * process is in the cleanup registry (SIGKILL + reap, async-signal-safe) and
 * dies with us (PR_SET_PDEATHSIG).
 */
#ifndef LRUBENCH_VM_SPAWN_H
#define LRUBENCH_VM_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

struct vm_proc {
	const char *name;     /* for messages */
	bool own_group;       /* own process group: a terminal's ^C does not reach it */
	const char *out_path; /* stdout+stderr to this file (created/truncated); NULL: inherit */
	pid_t pid;
	int cleanup_id;
	bool running;
};

/* 0, or -1 with a message naming the command. */
int vm_spawn(struct vm_proc *p, const char *const *argv);
/* 0 reaped (*code = exit status or 128+signal), 1 timeout (timeout < 0:
 * none), -2 stop requested while waiting, -1 error. */
int vm_proc_wait(struct vm_proc *p, double timeout, int *code);
/* signal, wait up to grace seconds, then SIGKILL and reap. Idempotent. */
void vm_proc_stop(struct vm_proc *p, int sig, double grace);
/* Run to completion, output to out_path (NULL: inherit); the exit code, or
 * -1 when it could not start, 124 on timeout. */
int vm_run_argv(const char *const *argv, const char *out_path, double timeout);

#endif
