// SPDX-License-Identifier: GPL-2.0-or-later
/* A timed round of forked tasks started together (task_round.h). */
#include "core/task_round.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/util.h"

double round_mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / 1e6 / secs : 0;
}

struct task_arg {
	const struct round_spec *spec;
	size_t index;
	int ready_fd, go_fd, go_wfd;
	struct round_slot *slot;
};

/* Runs in the forked task: prepare, say ready, wait for go, work, record. */
static int task_main(void *p)
{
	struct task_arg *a = p;
	const struct round_spec *spec = a->spec;
	void *arg = spec->tasks[a->index].arg;
	char c = 'r';
	unsigned cpu = 0, node = 0;
	double start;
	int e;

	/* our copy of the go pipe's write end would keep it from ever reaching EOF */
	close(a->go_wfd);
	if ((e = spec->prepare ? spec->prepare(arg) : 0)) {
		a->slot->err = e;
		return 1;
	}
	if (write(a->ready_fd, &c, 1) != 1)
		return 1;
	while (read(a->go_fd, &c, 1) < 0 && errno == EINTR)
		;   /* EOF on the go pipe is the start signal */
	start = now_monotonic();
	e = spec->work(arg, start + spec->runtime, a->slot);
	a->slot->elapsed = now_monotonic() - start;
	if (e) {
		a->slot->err = e;
		return 1;
	}
	if (syscall(SYS_getcpu, &cpu, &node, NULL) == 0) {
		a->slot->cpu = (int)cpu;
		a->slot->node = (int)node;
	} else {
		a->slot->cpu = a->slot->node = -1;
	}
	return 0;
}

/* Read one ready byte per task: 0; -2 when a stop was requested; -1 on an
 * error (reported); -3 with *dead set when task *dead ended first. */
static int wait_ready(const struct round_spec *spec, int fd, struct child *kids, size_t *dead)
{
	size_t got = 0;
	char buf[256];

	while (got < spec->ntasks) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 200);

		if (lb_stop_requested())
			return -2;
		if (r < 0 && errno != EINTR)
			return error_errno("%s: waiting for the tasks to start", spec->name);
		if (r > 0) {
			size_t left = spec->ntasks - got;
			ssize_t n = read(fd, buf, sizeof(buf) < left ? sizeof(buf) : left);

			if (n > 0)
				got += (size_t)n;
			continue;
		}
		for (size_t i = 0; i < spec->ntasks; i++) {
			int code;

			if (child_wait(&kids[i], 0, &code, NULL) == 0) {
				*dead = i;
				return -3;
			}
		}
	}
	return 0;
}

/* The state letter of a process (R, S, D ...) from /proc/PID/stat, or '?'. */
static char proc_state(pid_t pid)
{
	char path[64], *text, *paren, st = '?';

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = read_file_str(path, NULL);
	if (text && (paren = strrchr(text, ')')) && paren[1] == ' ' && paren[2])
		st = paren[2];
	free(text);
	return st;
}

static int task_failed(const struct round_spec *spec, size_t i, const struct child *k,
		       const struct round_slot *slot, int code)
{
	char why[128];

	if (slot->err)
		return error("%s %zu (pid %d) failed: %s", spec->name, i, (int)k->pid,
			     strerror(slot->err));
	child_describe_code(code, why, sizeof(why));
	return error("%s %zu (pid %d) %s", spec->name, i, (int)k->pid, why);
}

int round_run(const struct round_spec *spec, struct round_slot *out)
{
	size_t n = spec->ntasks, started = 0, dead = 0;
	size_t shared_len = n * sizeof(struct round_slot);
	struct round_slot *shared;
	struct child *kids = xcalloc(n, sizeof(*kids));
	struct task_arg *args = xcalloc(n, sizeof(*args));
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, ret = -1;
	double deadline;

	shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
		error_errno("%s: cannot map %zu bytes for results", spec->name, shared_len);
		goto out;
	}
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		error_errno("%s: cannot create pipes", spec->name);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		args[i] = (struct task_arg){ spec, i, ready[1], go[0], go[1], &shared[i] };
		kids[i].fn = task_main;
		kids[i].fn_arg = &args[i];
		kids[i].cgroup_procs = spec->tasks[i].cgroup_procs;
		kids[i].bind = spec->bind;
		kids[i].name = spec->name;
		if (child_start(&kids[i]))
			goto stop;
		started++;
		if (lb_stop_requested()) {
			ret = -2;
			goto stop;
		}
	}
	ret = wait_ready(spec, ready[0], kids, &dead);
	if (ret == -3) {
		error("%s %zu (pid %d) exited before it started: %s", spec->name, dead,
		      (int)kids[dead].pid, shared[dead].err ? strerror(shared[dead].err) : "no reason recorded");
		ret = -1;
	}
	if (ret)
		goto stop;
	close(go[1]);   /* release every task at once */
	go[1] = -1;
	deadline = now_monotonic() + spec->runtime + spec->grace;
	for (size_t i = 0; i < n; i++) {
		int code = 0, r;

		do {
			double left = deadline - now_monotonic();

			r = child_wait(&kids[i], left > 1 ? 1 : left > 0 ? left : 0, &code, NULL);
		} while (r == 1 && !lb_stop_requested() && now_monotonic() < deadline);
		if (r == -2 || lb_stop_requested()) {
			ret = -2;
			goto stop;
		}
		if (r) {
			ret = error("%s %zu (pid %d) did not end %.0f s after its runtime (state %c)",
				    spec->name, i, (int)kids[i].pid, spec->grace, proc_state(kids[i].pid));
			goto stop;
		}
		if (code) {
			ret = task_failed(spec, i, &kids[i], &shared[i], code);
			goto stop;
		}
	}
	memcpy(out, shared, shared_len);
	ret = 0;
stop:
	for (size_t i = 0; i < started; i++)
		child_stop(&kids[i], 0);
out:
	for (int k = 0; k < 2; k++) {
		if (ready[k] >= 0)
			close(ready[k]);
		if (go[k] >= 0)
			close(go[k]);
	}
	if (shared)
		munmap(shared, shared_len);
	free(kids);
	free(args);
	return ret;
}
