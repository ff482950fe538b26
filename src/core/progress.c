// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress lines: ETA is the mean time of the units done so far times those left. */
#include "core/progress.h"

#include <stdio.h>
#include <unistd.h>
#include "core/util.h"

void format_duration(double secs, char *buf, size_t len)
{
	long s = (long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
	else if (s >= 60)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%lds", s);
}

void progress_begin(struct progress *p, const char *workload, size_t total_units)
{
	p->workload = workload;
	p->total_units = total_units;
	p->done_units = 0;
	p->busy = 0;
	p->started = now_monotonic();
	p->tty = isatty(STDOUT_FILENO);
	p->note[0] = '\0';
}

void progress_replan(struct progress *p, size_t units_left)
{
	p->total_units = p->done_units + units_left;
}

void progress_set_note(struct progress *p, const char *note)
{
	snprintf(p->note, sizeof(p->note), "%s", note ? note : "");
}

static void eta(const struct progress *p, char *buf, size_t len)
{
	if (!p->done_units) {
		snprintf(buf, len, "ETA ?");
		return;
	}
	char d[32];
	format_duration(p->busy / (double)p->done_units * (double)(p->total_units - p->done_units),
			d, sizeof(d));
	snprintf(buf, len, "ETA %s", d);
}

static void what(char *buf, size_t len, int iteration, int iterations, int warmup)
{
	if (iteration < 0)
		snprintf(buf, len, "warm-up %d/%d", warmup + iteration + 1, warmup);
	else if (iterations <= 0)
		snprintf(buf, len, "iteration %d (auto)", iteration + 1);
	else
		snprintf(buf, len, "iteration %d/%d", iteration + 1, iterations);
}

void progress_unit(struct progress *p, const char *step, int iteration, int iterations, int warmup)
{
	char w[64], e[48];

	if (lb_quiet || !p->tty)
		return;
	what(w, sizeof(w), iteration, iterations, warmup);
	eta(p, e, sizeof(e));
	printf("\r\033[K%s  %s  %s  [%zu/%zu]  %s%s%s", p->workload, step, w, p->done_units + 1,
	       p->total_units, e, p->note[0] ? "  " : "", p->note);
	fflush(stdout);
}

void progress_done(struct progress *p, double secs, const char *step, int iteration, int iterations, int warmup)
{
	char w[64], e[48];

	p->done_units++;
	p->busy += secs;
	if (lb_quiet || p->tty)
		return;
	what(w, sizeof(w), iteration, iterations, warmup);
	eta(p, e, sizeof(e));
	printf("%s: %s %s done in %.1fs [%zu/%zu] %s%s%s\n", p->workload, step, w, secs,
	       p->done_units, p->total_units, e, p->note[0] ? " " : "", p->note);
	fflush(stdout);
}

void progress_interrupted(struct progress *p, double secs, const char *step, int iteration,
			  int iterations, int warmup)
{
	char w[64];

	if (lb_quiet)
		return;
	what(w, sizeof(w), iteration, iterations, warmup);
	printf("%s%s: %s %s interrupted after %.1fs (not recorded)\n", p->tty ? "\r\033[K" : "",
	       p->workload, step, w, secs);
	fflush(stdout);
}

void progress_end(struct progress *p)
{
	if (!lb_quiet && p->tty) {
		printf("\r\033[K");
		fflush(stdout);
	}
}
