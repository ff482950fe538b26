// SPDX-License-Identifier: GPL-2.0-or-later
/* A timed round of forked tasks started together (task_round.h). */
#include "core/task_round.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_set.h"
#include "core/child_watch.h"
#include "core/cleanup.h"

double round_mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / 1e6 / secs : 0;
}

struct task_arg {
	const struct round_spec *spec;
	uint32_t index;      /* written to ready_fd when it is ready */
	int ready_fd, go_fd, go_wfd;
	struct round_slot *slot;
	const double *release;   /* shared: now_monotonic() of the release */
};

/* Runs in the forked task: prepare, say ready, wait for go, work, record. */
static int task_main(void *p)
{
	struct task_arg *a = p;
	const struct round_spec *spec = a->spec;
	void *arg = spec->tasks[a->index].arg;
	uint32_t me = a->index;
	char c;
	unsigned cpu = 0, node = 0;
	double start, release;
	int e;

	/* our copy of the go pipe's write end would keep it from ever reaching EOF */
	close(a->go_wfd);
	if ((e = spec->prepare ? spec->prepare(arg) : 0)) {
		a->slot->err = e;
		return 1;
	}
	if (write(a->ready_fd, &me, sizeof(me)) != (ssize_t)sizeof(me))
		return 1;
	while (read(a->go_fd, &c, 1) < 0 && errno == EINTR)
		;   /* EOF on the go pipe is the start signal */
	start = now_monotonic();
	/* written before the go pipe was closed, whose EOF we just read */
	__atomic_load(a->release, &release, __ATOMIC_ACQUIRE);
	a->slot->late = start > release ? start - release : 0;
	/* first run at or past the deadline: nothing was done in the window */
	e = start < release + spec->runtime ? spec->work(arg, release + spec->runtime, a->slot) : 0;
	/* from the release, not from our first run: waiting for a CPU then is the
	 * same contention as waiting between turns later (task_round.h) */
	a->slot->elapsed = now_monotonic() - release;
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

/* Task i in messages: its own name, or "<spec name> <i>" in buf. */
static const char *task_name(const struct round_spec *spec, size_t i, char *buf, size_t len)
{
	if (spec->tasks[i].name)
		return spec->tasks[i].name;
	snprintf(buf, len, "%s %zu", spec->name, i);
	return buf;
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

/* Task i is stuck, before it said ready (ready false) or after its runtime:
 * WL_OP_FAILED with spec->why filled, or WL_FAILED without it. The message
 * is printed. */
static enum wl_status task_stuck(const struct round_spec *spec, size_t i, const struct child *k,
		      const struct child_watch *w, bool ready)
{
	char buf[128], what[192];
	const char *name = task_name(spec, i, buf, sizeof(buf));

	if (spec->why) {
		/* the kernel under test holds it (D state...): the op failed */
		snprintf(what, sizeof(what), "%s%s", name, ready ? "" : " (not ready to start)");
		child_stuck_report(k, w, what, spec->why);
		error("%s", spec->why->buf);
		return WL_OP_FAILED;
	}
	if (!ready)
		error("%s (pid %d) not ready %.0f s after the tasks were started (state %c)", name,
		      (int)k->pid, spec->grace, proc_state(k->pid));
	else
		error("%s (pid %d) did not end %.0f s after its runtime (state %c)", name,
		      (int)k->pid, spec->grace, proc_state(k->pid));
	return WL_FAILED;
}

/* Task i ended with code != 0 after its release: WL_FAILED, or
 * WL_OP_FAILED (why set) when it was killed rather than failed. The message
 * is printed. */
static enum wl_status task_failed(const struct round_spec *spec, size_t i, const struct child *k,
		       const struct round_slot *slot, int code)
{
	char buf[128], why[128];
	const char *name = task_name(spec, i, buf, sizeof(buf)), *file = spec->tasks[i].file;

	if (slot->err) {
		error("%s (pid %d) failed%s%s: %s", name, (int)k->pid, file ? " on " : "",
		      file ? file : "", strerror(slot->err));
		return WL_FAILED;
	}
	child_describe_code(code, why, sizeof(why));
	if (spec->why) {
		/* killed (by the OOM killer, say): the op failed, not the workload */
		strbuf_addf(spec->why, "%s (pid %d) %s", name, (int)k->pid, why);
		error("%s", spec->why->buf);
		return WL_OP_FAILED;
	}
	error("%s (pid %d) %s", name, (int)k->pid, why);
	return WL_FAILED;
}

/*
 * Wait until every task said it is ready (its index, through the pipe):
 * WL_OK; WL_INTERRUPTED when a stop was requested; WL_FAILED on an error or
 * when a task ended first; task_stuck()'s status when one is not ready by
 * the deadline of w. Every message is printed.
 */
static enum wl_status wait_ready(const struct round_spec *spec, int fd, struct child *kids,
		      const struct round_slot *slots, struct child_watch *w)
{
	size_t n = spec->ntasks, got = 0, have = 0;
	bool *ready = xcalloc(n, sizeof(*ready));
	uint32_t buf[64];
	char nbuf[128], why[128];
	enum wl_status ret = WL_OK;

	while (got < n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 200);

		if (lb_stop_requested()) {
			ret = WL_INTERRUPTED;
			break;
		}
		if (r < 0 && errno != EINTR) {
			error_errno("%s: waiting for the tasks to start", spec->name);
			ret = WL_FAILED;
			break;
		}
		if (r > 0) {
			ssize_t got_bytes = read(fd, (char *)buf + have, sizeof(buf) - have);

			if (got_bytes > 0) {
				/* whole indexes only: a pipe write of 4 bytes is atomic */
				size_t bytes = have + (size_t)got_bytes, k;

				for (k = 0; k + sizeof(uint32_t) <= bytes; k += sizeof(uint32_t)) {
					uint32_t i = buf[k / sizeof(uint32_t)];

					if (i < n && !ready[i]) {
						ready[i] = true;
						got++;
					}
				}
				have = bytes - k;
				memmove(buf, (char *)buf + k, have);
			}
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			int code;

			if (child_wait(&kids[i], 0, &code, NULL) == 0) {
				if (slots[i].err)
					snprintf(why, sizeof(why), "%s", strerror(slots[i].err));
				else
					child_describe_code(code, why, sizeof(why));
				error("%s (pid %d) exited before it started: %s",
				      task_name(spec, i, nbuf, sizeof(nbuf)), (int)kids[i].pid, why);
				ret = WL_FAILED;
				goto out;
			}
		}
		for (size_t i = 0; i < n; i++)
			if (!ready[i] && child_watch_stuck(w, &kids[i])) {
				ret = task_stuck(spec, i, &kids[i], w, false);
				goto out;
			}
	}
out:
	free(ready);
	return ret;
}

/* child_wait() for k until it ends (WATCH_REAPED, *code set), a stop is
 * requested (WATCH_STOP), it is stuck by w (WATCH_STUCK) or waiting fails
 * (WATCH_ERROR). */
static int wait_task(struct child *k, struct child_watch *w, int *code)
{
	for (;;) {
		double left = w->deadline - now_monotonic();
		/* wake at the deadline itself, and at least once a second */
		int r = child_wait(k, left > 0 && left < 1 ? left : 1, code, NULL);

		if (r == CHILD_REAPED)
			return WATCH_REAPED;
		if (r == CHILD_STOP || lb_stop_requested())
			return WATCH_STOP;
		if (r != CHILD_TIMEOUT)
			return WATCH_ERROR;
		if (child_watch_stuck(w, k))
			return WATCH_STUCK;
	}
}

_Static_assert(sizeof(struct round_slot) % sizeof(double) == 0,
	       "the release time after the slots must be aligned");

enum wl_status round_run(const struct round_spec *spec, struct round_slot *out)
{
	size_t n = spec->ntasks;
	size_t shared_len = n * sizeof(struct round_slot);
	/* the slots, then the release time */
	size_t map_len = shared_len + sizeof(double);
	struct round_slot *shared;
	double *release;
	struct child *kids = xcalloc(n, sizeof(*kids));
	struct task_arg *args = xcalloc(n, sizeof(*args));
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 };
	enum wl_status ret = WL_FAILED;
	struct child_watch watch;
	double t;
	/* the set starts and stops them; the waits are the round's own (ready, then done) */
	struct child_set set = { .n = n, .kids = kids, .bind = spec->bind };

	shared = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
		error_errno("%s: cannot map %zu bytes for results", spec->name, map_len);
		goto out;
	}
	/* a slot is a multiple of 8 bytes long: the release time after them is aligned */
	release = (double *)(void *)((char *)shared + shared_len);
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		error_errno("%s: cannot create pipes", spec->name);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		args[i] = (struct task_arg){ spec, (uint32_t)i, ready[1], go[0], go[1], &shared[i],
					     release };
		kids[i].fn = task_main;
		kids[i].fn_arg = &args[i];
		kids[i].cgroup_procs = spec->tasks[i].cgroup_procs;
		kids[i].name = spec->name;
	}
	/* forked on without waiting for each task to join its cgroup
	 * (core/child_set.h): the joins of many tasks run at once */
	t = now_monotonic();
	ret = child_set_start(&set);
	if (ret != WL_OK)
		goto stop;
	if (spec->times)
		spec->times->start = now_monotonic() - t;
	t = now_monotonic();
	ret = WL_FAILED;
	/* getting ready takes no time of its own: grace from now */
	child_watch_start(&watch, 0, spec->grace);
	ret = wait_ready(spec, ready[0], kids, shared, &watch);
	if (ret != WL_OK)
		goto stop;
	if (spec->times)
		spec->times->ready = now_monotonic() - t;
	t = now_monotonic();
	/* one deadline for every task: the release plus runtime (task_round.h) */
	__atomic_store(release, &t, __ATOMIC_RELEASE);
	close(go[1]);   /* release every task at once */
	go[1] = -1;
	/* one deadline for all: runtime after the release, plus grace */
	child_watch_start(&watch, spec->runtime, spec->grace);
	for (size_t i = 0; i < n; i++) {
		int code = 0, r = wait_task(&kids[i], &watch, &code);
		char buf[128];

		if (r == WATCH_STOP || lb_stop_requested()) {
			ret = WL_INTERRUPTED;
			goto stop;
		}
		if (r == WATCH_STUCK) {
			ret = task_stuck(spec, i, &kids[i], &watch, true);
			goto stop;
		}
		if (r != WATCH_REAPED) {
			error("%s (pid %d) could not be waited for", task_name(spec, i, buf, sizeof(buf)),
			      (int)kids[i].pid);
			ret = WL_FAILED;
			goto stop;
		}
		if (code) {
			ret = task_failed(spec, i, &kids[i], &shared[i], code);
			goto stop;
		}
	}
	memcpy(out, shared, shared_len);
	if (spec->times) {
		spec->times->reap = now_monotonic() - t - spec->runtime;
		spec->times->late = 0;
		for (size_t i = 0; i < n; i++)
			if (out[i].late > spec->times->late)
				spec->times->late = out[i].late;
	}
	ret = WL_OK;
stop:
	child_set_release(&set);
out:
	for (int k = 0; k < 2; k++) {
		if (ready[k] >= 0)
			close(ready[k]);
		if (go[k] >= 0)
			close(go[k]);
	}
	if (shared)
		munmap(shared, map_len);
	free(kids);
	free(args);
	return ret;
}
