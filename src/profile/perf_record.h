/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One `perf ... record` around one profiled iteration, as a child of the run
 * like any other (core/child.h: killed and reaped on SIGINT), with its data
 * file in the cleanup registry so it is removed on every path.
 *
 * perf starts with its events disabled (-D -1) and a control FIFO pair
 * (--control fifo:CTL,ACK, perf 5.10 and later): lrubench writes "enable"
 * and waits for perf's "ack" before the iteration starts, so no part of the
 * iteration runs unobserved and perf's own start-up is not in it; after
 * the iteration, "disable" then "stop" (perf exits 0 and writes its data).
 */
#ifndef LRUBENCH_PERF_RECORD_H
#define LRUBENCH_PERF_RECORD_H

#include <stdbool.h>
#include "core/child.h"
#include "core/strlist.h"
#include "core/util.h"

struct perf_record {
	const char *what;        /* "perf lock record", for messages */
	struct child c;
	struct strlist argv;
	char *data;              /* perf.data path */
	char *ctl, *ack;         /* the FIFOs */
	char *log;               /* perf's own output */
	int ctl_fd, ack_fd;
	int data_id, ctl_id, ack_id;  /* cleanup registry entries */
	bool started;
	bool live;               /* set up by perf_record_start; released once */
	bool sigint_stop;        /* perf stat: "stop" is acked but ignored; SIGINT ends it (set
				  * before perf_record_start, kept by it) */
};

/*
 * Start `perf <sub...> -o DATA -D -1 --control fifo:CTL,ACK <extra...>`:
 * sub is e.g. {"lock", "record", "-a", NULL}; files are made in dir as
 * <name>.data/.ctl/.ack; perf's output is appended to log. Returns 0 once
 * perf acknowledged "enable"; -1 with why (nothing left running or on disk).
 */
int perf_record_start(struct perf_record *r, const char *perf, const char *const *sub,
		      const char *dir, const char *name, const char *log, struct strbuf *why);
/* Disable, stop and reap perf; 0 when it exited 0 and its data file exists,
 * -1 with why ("perf lock record was killed by signal 9 (Killed)"). The
 * data file stays until perf_record_release. */
int perf_record_stop(struct perf_record *r, struct strbuf *why);
/* Kill perf if it still runs, remove the data file and the FIFOs. Idempotent. */
void perf_record_release(struct perf_record *r);

/*
 * Run `perf ARGS` to completion with stdout+stderr written to out (truncated
 * first: perf lock prints its tables on stderr), bounded by timeout seconds.
 * 0, or -1 with why naming the command, its exit status and the last lines of
 * its output.
 */
int perf_run_report(const char *perf, const char *const *args, const char *out, double timeout,
		    struct strbuf *why);
/*
 * The same for a subcommand whose result is its stdout (report, script):
 * stderr goes to OUT.stderr (removed when empty), so perf's warnings are
 * never parsed as its output; why's last lines are its stderr's.
 */
int perf_run_report_stdout(const char *perf, const char *const *args, const char *out,
			   double timeout, struct strbuf *why);

#endif
