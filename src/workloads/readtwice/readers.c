// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readtwice engine. The readers are the tasks of a core/task_round.h
 * round: forked processes (not threads), each placed in its memcg and on the
 * NUMA node before it runs, so the page cache it creates is charged to that
 * memcg; they start together and each times itself. Here: what a reader
 * does (open its memcg's file, then read it), and the per-memcg sums.
 */
#include "workloads/readtwice/readers.h"
#include "workloads/readtwice/dd_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rt_summarize(const struct round_slot *r, size_t nmemcg, size_t readers_per_memcg,
		  double *memcg_mbps, struct rt_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (size_t m = 0; m < nmemcg; m++) {
		double v = 0;

		for (size_t k = 0; k < readers_per_memcg; k++) {
			const struct round_slot *x = &r[m * readers_per_memcg + k];
			v += round_mbps(x->bytes, x->elapsed);
		}
		memcg_mbps[m] = v;
		sum->aggregate += v;
		if (m == 0 || v < sum->per_memcg_min)
			sum->per_memcg_min = v;
		if (m == 0 || v > sum->per_memcg_max)
			sum->per_memcg_max = v;
	}
	sum->per_memcg_mean = nmemcg ? sum->aggregate / (double)nmemcg : 0;
	/* the aggregate is the sum of every reader's own rate */
	sum->per_reader_mean = nmemcg && readers_per_memcg ?
		sum->aggregate / (double)(nmemcg * readers_per_memcg) : 0;
}

/* In the reader, before it says ready: open its memcg's file. */
static int reader_open(void *p)
{
	struct rt_reader *rd = p;

	rd->fd = open(rd->file, O_RDONLY | O_CLOEXEC);
	return rd->fd < 0 ? errno : 0;
}

/* In the reader, after the release: read until end, wrapping at EOF. */
static int reader_read(void *p, double end, struct round_slot *slot)
{
	struct rt_reader *rd = p;
	static char buf[READTWICE_BLOCK] __attribute__((aligned(4096)));
	uint64_t bytes = 0;
	unsigned n = 0;

	for (;;) {
		ssize_t r = read(rd->fd, buf, sizeof(buf));

		if (r > 0) {
			bytes += (uint64_t)r;
		} else if (r == 0) {
			if (lseek(rd->fd, 0, SEEK_SET) < 0)
				return errno;
		} else if (errno != EINTR) {
			return errno;
		}
		/* a clock read per 64 KiB keeps the harness out of the numbers */
		if (++n % 16 == 0 && now_monotonic() >= end)
			break;
	}
	slot->bytes = bytes;
	return 0;
}

enum wl_status readtwice_round(const struct rt_spec *spec, struct round_slot *out)
{
	size_t per = spec->readers_per_memcg, n = spec->nmemcg * per;
	struct rt_reader *rd = xcalloc(n, sizeof(*rd));
	struct round_task *tasks = xcalloc(n, sizeof(*tasks));
	char (*names)[80] = xcalloc(n, sizeof(*names));
	struct round_spec round;
	enum wl_status ret;

	for (size_t i = 0; i < n; i++) {
		size_t m = i / per;

		rd[i] = (struct rt_reader){ spec->files[m], -1, -1 };
		snprintf(names[i], sizeof(names[i]), "readtwice reader %zu of memcg %zu", i, m);
		tasks[i] = (struct round_task){ &rd[i], memcg_set_procs(spec->set, i, per), names[i],
						spec->files[m] };
	}
	/* a stuck or killed reader fails the op (spec->why), a failed read the workload */
	round = (struct round_spec){ n, tasks, reader_open, reader_read, spec->bind, spec->runtime,
				     spec->stuck_timeout, "readtwice reader", spec->why, spec->times };
	if (spec->reader == RT_READER_DD) {
		round.prepare = rt_dd_open;
		round.work = rt_dd_read;
	}
	ret = round_run(&round, out);
	free(rd);
	free(tasks);
	free(names);
	return ret;
}
