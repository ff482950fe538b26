// SPDX-License-Identifier: GPL-2.0-or-later
/* Deadlines for a workload's children; see child_watch.h. */
#include "core/child_watch.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "core/procfs.h"

/* the processes named in a report, and the frames of each stack */
#define REPORT_PROCS 8
#define REPORT_FRAMES 12

void child_watch_start(struct child_watch *w, double length, double stuck_timeout)
{
	memset(w, 0, sizeof(*w));
	w->start = w->moved = now_monotonic();
	w->stuck_timeout = stuck_timeout;
	w->deadline = length >= 0 ? w->start + length + stuck_timeout : -1;
}

/* The CPU time of every process of the group pgrp, reaped children included. */
static unsigned long long group_ticks(pid_t pgrp)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	unsigned long long sum = 0;

	while (d && (de = readdir(d))) {
		struct proc_stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (!*end && pid > 0 && !proc_stat_read("", (pid_t)pid, &st) && st.pgrp == pgrp)
			sum += st.ticks + st.child_ticks;
	}
	if (d)
		closedir(d);
	return sum;
}

bool child_watch_stuck(struct child_watch *w, const struct child *c)
{
	double now = now_monotonic();
	unsigned long long t;

	if (w->stuck_timeout <= 0 || !c->running)
		return false;
	if (w->deadline >= 0)
		return now >= w->deadline;
	if (now < w->next_look)
		return now - w->moved >= w->stuck_timeout;
	w->next_look = now + 1;
	t = group_ticks(c->pid);
	/* any change counts as progress: a member that exited takes its time away */
	if (t != w->ticks) {
		w->ticks = t;
		w->moved = now;
	}
	return now - w->moved >= w->stuck_timeout;
}

void child_stuck_report(const struct child *c, const struct child_watch *w, const char *what,
			struct strbuf *why)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t shown = 0;

	strbuf_addf(why, "%s (pid %d) is stuck: ", what, (int)c->pid);
	if (w->deadline >= 0)
		strbuf_addf(why, "not done %g s past its deadline (global.stuck_timeout)", w->stuck_timeout);
	else
		strbuf_addf(why, "no CPU time used for %g s (global.stuck_timeout)", w->stuck_timeout);
	while (d && (de = readdir(d)) && shown < REPORT_PROCS) {
		struct proc_stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || proc_stat_read("", (pid_t)pid, &st) || st.pgrp != c->pid)
			continue;
		/* a running member is not what holds it up */
		if (st.state == 'R' && pid != c->pid)
			continue;
		strbuf_addf(why, "; pid %ld (%s) %s", pid, st.comm, proc_state_name(st.state));
		strbuf_addstr(why, ", kernel stack: ");
		if (proc_kernel_stack((pid_t)pid, REPORT_FRAMES, why))
			strbuf_addstr(why, "not readable");
		shown++;
	}
	if (d)
		closedir(d);
}

int child_wait_watched(struct child *c, struct child_watch *w, double slice, int *code,
		       struct rusage *ru, struct strbuf *why)
{
	for (;;) {
		int r = child_wait(c, slice, code, ru);

		if (r == CHILD_REAPED)
			return WATCH_REAPED;
		if (r == CHILD_STOP)
			return WATCH_STOP;
		if (r != CHILD_TIMEOUT)
			return WATCH_ERROR;
		if (child_watch_stuck(w, c)) {
			child_stuck_report(c, w, c->name ? c->name : "child", why);
			return WATCH_STUCK;
		}
	}
}
