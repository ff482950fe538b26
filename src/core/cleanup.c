// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cleanup registry: an array of undo actions, run newest first. It grows
 * (by doubling) up to CLEANUP_MAX entries: more than the largest run the
 * config allows (readtwice: 4096 memcgs x (64 readers + 1), plus the run's
 * own few dozen), which tests/unit/test_cleanup.c checks against the option
 * tables. The array only changes in cleanup_push(), with every signal
 * blocked, and the only other thread that exists during a run (archive
 * extraction's feeder) blocks every signal: a handler never sees it half
 * moved. Running and popping entries never allocates, so the second-signal
 * path can run it from the handler.
 */
#include "core/cleanup.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/util.h"

#define CLEANUP_MAX (1 << 20)
#define CLEANUP_FIRST 1024   /* entries allocated by the first push */

struct entry {
	const char *what;
	cleanup_fn fn;
	void *arg;
	int id;   /* 0: free slot */
};

/*
 * Entries never move within the array: a popped one becomes a hole (id 0),
 * and the top shrinks past holes. An id encodes its slot (id - 1) %
 * CLEANUP_MAX, so a pop is O(1) whatever order children end in (thousands of
 * readers end together); the rest of the id is a generation, so a stale id
 * does not pop the slot's next owner.
 */
static struct entry *entries;
static int nentries;        /* high-water mark of used slots */
static int capacity;        /* allocated slots */
static unsigned seq;
static volatile sig_atomic_t running_all;
volatile sig_atomic_t lb_interrupted;

int cleanup_capacity(void)
{
	return CLEANUP_MAX;
}

void cleanup_msg(const char *a, const char *b)
{
	static const char pfx[] = "lrubench: cleanup: ";
	ssize_t r;

	r = write(2, pfx, sizeof(pfx) - 1);
	if (a)
		r = write(2, a, strlen(a));
	if (b)
		r = write(2, b, strlen(b));
	r = write(2, "\n", 1);
	(void)r;
}

int cleanup_push(const char *what, cleanup_fn fn, void *arg)
{
	sigset_t all, old;
	int id = -1;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (nentries == capacity && capacity < CLEANUP_MAX) {
		int cap = capacity ? capacity * 2 : CLEANUP_FIRST;
		struct entry *grown;

		if (cap > CLEANUP_MAX)
			cap = CLEANUP_MAX;
		/* not xrealloc: out of memory here is "cannot track", not death */
		grown = realloc(entries, (size_t)cap * sizeof(*entries));
		if (grown) {
			entries = grown;
			capacity = cap;
		}
	}
	if (nentries < capacity) {
		entries[nentries].what = what;
		entries[nentries].fn = fn;
		entries[nentries].arg = arg;
		/* generations 0..2046: the largest id, 2047 * 2^20, still fits an int */
		id = nentries + 1 + (int)(seq++ % 2047) * CLEANUP_MAX;
		entries[nentries].id = id;
		nentries++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (id < 0)
		error("too many resources to track for cleanup (%d)", nentries);
	return id;
}

void cleanup_pop(int id, bool run)
{
	sigset_t all, old;
	struct entry e = { 0 };

	if (id <= 0)
		return;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	{
		int i = (id - 1) % CLEANUP_MAX;

		if (i < nentries && entries[i].id == id) {
			e = entries[i];
			entries[i].id = 0;
			entries[i].fn = NULL;
			while (nentries > 0 && entries[nentries - 1].id == 0)
				nentries--;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (run && e.fn)
		e.fn(e.arg);
}

void cleanup_run_all(void)
{
	sigset_t all, old;

	if (running_all)
		return;
	running_all = 1;
	for (;;) {
		struct entry e;

		sigfillset(&all);
		sigdelset(&all, SIGINT);   /* keep the "second signal" path alive */
		sigdelset(&all, SIGTERM);
		sigprocmask(SIG_BLOCK, &all, &old);
		if (!nentries) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			break;
		}
		e = entries[--nentries];
		entries[nentries].id = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (e.fn)
			e.fn(e.arg);
	}
	running_all = 0;
}

void cleanup_forget_all(void)
{
	/* only called in a fresh child, where nothing else runs concurrently.
	 * Every look-up stops at nentries, so the entries are not touched:
	 * writing to each would copy every page of the registry into each
	 * forked task (thousands of readers, thousands of entries) */
	nentries = 0;
}

static void on_signal(int sig)
{
	if (lb_interrupted || running_all) {
		/* second signal: undo everything right here and leave */
		cleanup_msg("second signal, cleaning up immediately", NULL);
		running_all = 0;
		cleanup_run_all();
		_exit(LB_EXIT_INTERRUPTED);
	}
	lb_interrupted = sig;
}

static void at_exit_cleanup(void)
{
	cleanup_run_all();
}

/* the signals that request a stop */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: blocking calls return EINTR so loops notice */
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(at_exit_cleanup);
}

int lb_poll(struct pollfd *p, nfds_t n, int ms)
{
	sigset_t set, old;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int r = 0;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	/* this thread's mask (lrubench has reader threads: sigprocmask is
	 * unspecified there) */
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (!lb_stop_requested())
		r = ppoll(p, n, ms < 0 ? NULL : &ts, &old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

int lb_sleep(double secs)
{
	struct timespec ts;
	double end = now_monotonic() + secs;

	while (!lb_interrupted) {
		double left = end - now_monotonic();
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
	return -1;
}
