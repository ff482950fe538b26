/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cleanup registry (docs/ARCHITECTURE.md §7). Everything a run creates or changes -- a
 * cgroup, a mount, a loop device, a child process, a server, a sysfs value --
 * is pushed here the moment it exists, and undone in reverse order on every
 * exit path: normal return, error, SIGINT/SIGTERM/SIGHUP, and atexit().
 *
 * Signals: the first SIGINT/SIGTERM only sets lb_interrupted (the signal
 * number) so the run loop stops at the next check and unwinds normally. A
 * second one runs the registry from the handler and _exit(130)s at once, so
 * every undo function must be async-signal-safe in what it does (kill, rmdir,
 * umount, ioctl, open/write/close); they must not call malloc or stdio.
 * Messages go through cleanup_msg(), which uses write(2).
 */
#ifndef LRUBENCH_CLEANUP_H
#define LRUBENCH_CLEANUP_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>

typedef void (*cleanup_fn)(void *arg);

/* Register an undo action; returns a handle > 0, or -1 when full (more than
 * cleanup_capacity() entries, or no memory). `what` and `arg` must stay
 * valid until the entry is popped or has run (`what` is printed if undo
 * fails). */
int cleanup_push(const char *what, cleanup_fn fn, void *arg);
/* The most entries the registry holds at once. */
int cleanup_capacity(void);
/* Remove entry `id`; run its action first when `run` is true. */
void cleanup_pop(int id, bool run);
/* Run every pending action, newest first. Safe to call more than once. */
void cleanup_run_all(void);
/* In a forked child: drop every entry without running it (they are the
 * parent's), so an exit() in the child cannot undo the parent's work. */
void cleanup_forget_all(void);

/* Install handlers for SIGINT, SIGTERM, SIGHUP (and SIGPIPE ignored); also
 * registers cleanup_run_all with atexit. */
void signals_install(void);
extern volatile sig_atomic_t lb_interrupted;
static inline bool lb_stop_requested(void) { return lb_interrupted != 0; }

/* Sleep up to `secs`; returns early (-1) when a stop was requested. */
int lb_sleep(double secs);

/* poll() the n descriptors up to ms milliseconds (< 0: no limit), or until a stop is
 * requested: the stop signals are let in only inside the wait (ppoll), so
 * one that lands after the caller's last look at lb_stop_requested() ends
 * the wait at once instead of being slept through. poll()'s return (0 when a
 * stop was already requested). */
int lb_poll(struct pollfd *p, nfds_t n, int ms);

/* async-signal-safe message: "lrubench: cleanup: <a><b>\n" */
void cleanup_msg(const char *a, const char *b);

#endif
