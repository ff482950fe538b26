// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * N children started together and waited for together (child_set.h).
 *
 * Starting: child_start_begin forks and returns; the child joins its cgroup
 * and execs while we fork the next one, and child_start_finish (which reads
 * the child's start pipe) runs CHILD_START_WINDOW children behind, so a
 * cgroup v1 attach (milliseconds each) of one child overlaps the forks of the
 * others instead of being waited for one by one.
 *
 * Waiting: one poll over the pidfds of every running child, so the set
 * wakes when any of them exits (its end time is its own), when a stop is
 * requested (core/cleanup.h lb_poll), and at least every
 * CHILD_SET_LOOK_MS to look at the deadlines.
 */
#include "core/child_set.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/memcg_set.h"

#define CHILD_SET_PIDFDS 256
/*
 * The longest sleep between two looks when no child ends. The stuck check
 * reads CPU time once a second (child_watch.c), deadlines are seconds, and
 * a stop signal ends the sleep at once (lb_poll), so looking more
 * often buys nothing; and each look is a wake-up on a CPU the children
 * may need, a context switch away from a measured task when there is one
 * per CPU (faultscale-vs-wis in bench/README.md).
 */
#define CHILD_SET_LOOK_MS 1000

static void set_alloc(struct child_set *s)
{
	size_t n = s->n ? s->n : 1;

	s->code = xcalloc(n, sizeof(*s->code));
	s->ru = xcalloc(n, sizeof(*s->ru));
	s->end = xcalloc(n, sizeof(*s->end));
	s->done = xcalloc(n, sizeof(*s->done));
	s->watch = xcalloc(n, sizeof(*s->watch));
	s->pidfd = xcalloc(n, sizeof(*s->pidfd));
	for (size_t i = 0; i < n; i++)
		s->pidfd[i] = -1;
}

static void close_pidfd(struct child_set *s, size_t i)
{
	if (s->pidfd[i] >= 0) {
		close(s->pidfd[i]);
		s->pidfd[i] = -1;
	}
}

/* A start that failed or was interrupted: the callback, then stop. */
static void stop_started(struct child_set *s)
{
	for (size_t i = 0; i < s->started; i++)
		if (s->kids[i].start_fd >= 0) {
			close(s->kids[i].start_fd);
			s->kids[i].start_fd = -1;
		}
	if (s->stopping)
		s->stopping(s->data);
	child_set_stop(s);
}

enum wl_status child_set_start(struct child_set *s)
{
	size_t per = s->per ? s->per : 1, w = CHILD_START_WINDOW;

	set_alloc(s);
	s->started = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct child *c = &s->kids[i];

		if (!c->cgroup_procs && s->memcgs)
			c->cgroup_procs = memcg_set_procs(s->memcgs, i, per);
		if (!c->bind)
			c->bind = s->bind;
		if (lb_stop_requested()) {
			stop_started(s);
			return WL_INTERRUPTED;
		}
		if (child_start_begin(c))
			goto fail;
		s->started++;
		if (i >= w && child_start_finish(&s->kids[i - w]))
			goto fail;
	}
	for (size_t i = s->started > w ? s->started - w : 0; i < s->started; i++)
		if (child_start_finish(&s->kids[i]))
			goto fail;
	/* watched from the moment all of them run */
	for (size_t i = 0; i < s->started; i++)
		child_watch_start(&s->watch[i], s->length, s->stuck_timeout);
	return WL_OK;
fail:
	stop_started(s);
	return WL_FAILED;
}

/* Reap child i if it has ended: 1 reaped, 0 still running, -1 error. */
static int reap_one(struct child_set *s, size_t i)
{
	int r = child_wait(&s->kids[i], 0, &s->code[i], &s->ru[i]);

	if (r == CHILD_TIMEOUT || r == CHILD_STOP)
		return 0;   /* a stop request is the caller's to see */
	if (r != CHILD_REAPED)
		return -1;
	s->end[i] = now_monotonic();
	s->done[i] = true;
	close_pidfd(s, i);
	if (s->ended)
		s->ended(s->data, i, s->code[i]);
	return 1;
}

static void abort_set(struct child_set *s)
{
	if (s->stopping)
		s->stopping(s->data);
	child_set_stop(s);
}

/* Sleep until a child exits or a stop is requested, at most ms milliseconds. */
static void sleep_on_children(struct child_set *s, int ms)
{
	struct pollfd *p = xcalloc(s->started + 1, sizeof(*p));
	nfds_t np = 0;
	bool blind = false;

	for (size_t i = 0; i < s->started; i++) {
		if (s->done[i])
			continue;
		if (s->pidfd[i] < 0) {
			blind = true;   /* no pidfd (old kernel, no descriptor left) */
			continue;
		}
		p[np].fd = s->pidfd[i];
		p[np++].events = POLLIN;
	}
	/* a stop signal that came after the last look ends it too */
	lb_poll(p, np, blind && ms > 20 ? 20 : ms);
	free(p);
}

/* A descriptor each for the first CHILD_SET_PIDFDS children still running:
 * a set of thousands must not use up the descriptors the run needs. */
static size_t open_pidfds(struct child_set *s)
{
	size_t left = 0;

	for (size_t i = 0; i < s->started; i++) {
		left += !s->done[i];
		if (!s->done[i] && s->pidfd[i] < 0 && i < CHILD_SET_PIDFDS)
			s->pidfd[i] = (int)syscall(SYS_pidfd_open, s->kids[i].pid, 0);
	}
	return left;
}

enum wl_status child_set_stuck(struct child_set *s, size_t i, const char *what, struct strbuf *why)
{
	child_stuck_report(&s->kids[i], &s->watch[i], what, why);
	error("%s", why->buf);
	abort_set(s);
	return WL_OP_FAILED;
}

/*
 * One look at every child not yet reaped: reap the ended ones (their ended
 * callback), then its deadline. WL_OK with *left the children still
 * running and *first the first one reaped by this look (or -1); a stuck
 * child or a failed wait stops the set (WL_OP_FAILED, WL_FAILED).
 */
static enum wl_status look(struct child_set *s, size_t *left, long *first, struct strbuf *why)
{
	*first = -1;
	for (size_t i = 0; i < s->started; i++) {
		int r;

		if (s->done[i])
			continue;
		r = reap_one(s, i);
		if (r < 0) {
			abort_set(s);
			return WL_FAILED;
		}
		if (r) {
			(*left)--;
			if (*first < 0)
				*first = (long)i;
			continue;
		}
		if (child_watch_stuck(&s->watch[i], &s->kids[i])) {
			char what[128];

			if (s->what)
				s->what(s->data, i, what, sizeof(what));
			else
				snprintf(what, sizeof(what), "%s",
					 s->kids[i].name ? s->kids[i].name : "child");
			return child_set_stuck(s, i, what, why);
		}
	}
	return WL_OK;
}

enum wl_status child_set_wait(struct child_set *s, struct strbuf *why)
{
	size_t left = open_pidfds(s);

	while (left) {
		long first;
		enum wl_status r = look(s, &left, &first, why);

		if (r != WL_OK)
			return r;
		if (lb_stop_requested()) {
			abort_set(s);
			return WL_INTERRUPTED;
		}
		if (left)
			sleep_on_children(s, CHILD_SET_LOOK_MS);
	}
	return WL_OK;
}

enum wl_status child_set_watch(struct child_set *s, double until, long *ended, struct strbuf *why)
{
	size_t left = open_pidfds(s);

	*ended = -1;
	while (left) {
		double rest;
		enum wl_status r = look(s, &left, ended, why);

		if (r != WL_OK || *ended >= 0)
			return r;
		if (lb_stop_requested()) {
			abort_set(s);
			return WL_INTERRUPTED;
		}
		rest = until - now_monotonic();
		if (rest <= 0)
			break;
		/* never back before until: a sampler reads its counters then */
		sleep_on_children(s, rest * 1000 < CHILD_SET_LOOK_MS ? (int)(rest * 1000) + 1 :
				  CHILD_SET_LOOK_MS);
	}
	return WL_OK;
}

bool child_set_poll(struct child_set *s, size_t *i, int *code)
{
	for (size_t k = 0; k < s->started; k++)
		if (!s->done[k] && s->kids[k].running && reap_one(s, k) == 1) {
			*i = k;
			*code = s->code[k];
			return true;
		}
	return false;
}

long child_set_failed(const struct child_set *s)
{
	for (size_t i = 0; i < s->started; i++)
		if (s->done[i] && s->code[i])
			return (long)i;
	return -1;
}

/* Is any started child still running (not exited, zombies count as ended)? */
static bool any_running(struct child_set *s)
{
	for (size_t i = 0; i < s->started; i++)
		if (s->kids[i].running && !child_has_exited(&s->kids[i]))
			return true;
	return false;
}

void child_set_stop(struct child_set *s)
{
	double end = now_monotonic() + s->stop_grace;

	/* SIGTERM to every group first, so the graces run at once, not one after another */
	for (size_t i = 0; i < s->started; i++)
		child_signal(&s->kids[i], SIGTERM);
	while (s->stop_grace > 0 && now_monotonic() < end && any_running(s)) {
		/* not poll(): an exited child's pidfd stays readable until it is reaped */
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	for (size_t i = 0; i < s->started; i++) {
		if (s->kids[i].running)
			child_stop(&s->kids[i], 0);
		if (s->pidfd)
			close_pidfd(s, i);
	}
}

void child_set_release(struct child_set *s)
{
	if (s->started)
		child_set_stop(s);
	free(s->code);
	free(s->ru);
	free(s->end);
	free(s->done);
	free(s->watch);
	free(s->pidfd);
	s->code = NULL;
	s->ru = NULL;
	s->end = NULL;
	s->done = NULL;
	s->watch = NULL;
	s->pidfd = NULL;
	s->started = 0;
}
