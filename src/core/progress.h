/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress of a run: one rewritten line on a terminal, plain lines otherwise. */
#ifndef LRUBENCH_PROGRESS_H
#define LRUBENCH_PROGRESS_H

#include <stddef.h>

struct progress {
	const char *workload;
	size_t total_units;   /* iterations (warm-up included) this workload will run */
	size_t done_units;
	double started;       /* when the first unit began */
	double busy;          /* seconds spent in finished units */
	int tty;
	char note[64];        /* shown after the ETA: iterations = auto's precision so far */
};

void progress_begin(struct progress *p, const char *workload, size_t total_units);
/* With iterations = auto the total is a prediction: set the units still to
 * come (the ETA follows), and a note such as "±4.1% (goal 3%)". */
void progress_replan(struct progress *p, size_t units_left);
void progress_set_note(struct progress *p, const char *note);
/* Before a unit: "readtwice  memcgs-4  warm-up 1/1 ... ETA 1m20s";
 * iterations 0: iterations = auto, no known count */
void progress_unit(struct progress *p, const char *step, int iteration, int iterations, int warmup);
/* After a unit took `secs`. */
void progress_done(struct progress *p, double secs, const char *step, int iteration, int iterations, int warmup);
/* The unit was cut short by a stop request (SIGINT): "interrupted after
 * 0.2s", not "done" (its samples are not recorded; issue 30). */
void progress_interrupted(struct progress *p, double secs, const char *step, int iteration,
			  int iterations, int warmup);
void progress_end(struct progress *p);
/* "1h02m", "3m05s", "12s" */
void format_duration(double secs, char *buf, size_t len);

#endif
