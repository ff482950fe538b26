// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readtwice engine. Readers are forked processes (not threads), each
 * placed in its memcg and on the NUMA node before it runs, so the page
 * cache it creates is charged to that memcg. They start together: each
 * reports ready through one pipe, and all wait on a second pipe that the
 * parent closes to release them at once. Each reader times itself, so a
 * late start or a slow exit is not counted as reading time.
 */
#include "workloads/readtwice/readers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_watch.h"
#include "core/cleanup.h"
#include "core/util.h"

double rt_mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / 1e6 / secs : 0;
}

void rt_summarize(const struct rt_reader *r, size_t nmemcg, size_t readers_per_memcg,
		  double *memcg_mbps, struct rt_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (size_t m = 0; m < nmemcg; m++) {
		double v = 0;

		for (size_t k = 0; k < readers_per_memcg; k++) {
			const struct rt_reader *x = &r[m * readers_per_memcg + k];
			v += rt_mbps(x->bytes, x->elapsed);
		}
		memcg_mbps[m] = v;
		sum->aggregate += v;
		if (m == 0 || v < sum->per_memcg_min)
			sum->per_memcg_min = v;
		if (m == 0 || v > sum->per_memcg_max)
			sum->per_memcg_max = v;
	}
	sum->per_memcg_mean = nmemcg ? sum->aggregate / (double)nmemcg : 0;
}

struct reader_arg {
	const char *file;
	double runtime;
	int ready_fd, go_fd, go_wfd;
	struct rt_reader *slot;
	uint32_t index;      /* written to ready_fd when it is ready */
};

/* Runs in the forked reader: open, say ready, wait for go, read until time is up. */
static int reader_main(void *p)
{
	struct reader_arg *a = p;
	static char buf[READTWICE_BLOCK] __attribute__((aligned(4096)));
	uint32_t me = a->index;
	char c;
	double start, end, now;
	uint64_t bytes = 0;
	unsigned n = 0;
	int fd;

	/* our copy of the go pipe's write end would keep it from ever reaching EOF */
	close(a->go_wfd);
	fd = open(a->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		a->slot->err = errno;
		return 1;
	}
	if (write(a->ready_fd, &me, sizeof(me)) != (ssize_t)sizeof(me))
		return 1;
	while (read(a->go_fd, &c, 1) < 0 && errno == EINTR)
		;   /* EOF on the go pipe is the start signal */
	now = start = now_monotonic();
	end = start + a->runtime;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r > 0) {
			bytes += (uint64_t)r;
		} else if (r == 0) {
			if (lseek(fd, 0, SEEK_SET) < 0) {
				a->slot->err = errno;
				return 1;
			}
		} else if (errno != EINTR) {
			a->slot->err = errno;
			return 1;
		}
		/* a clock read per 64 KiB keeps the harness out of the numbers */
		if (++n % 16 == 0 && (now = now_monotonic()) >= end)
			break;
	}
	a->slot->bytes = bytes;
	a->slot->elapsed = now - start;
	{
		unsigned cpu = 0, node = 0;
		if (syscall(SYS_getcpu, &cpu, &node, NULL) == 0) {
			a->slot->cpu = (int)cpu;
			a->slot->node = (int)node;
		} else {
			a->slot->cpu = a->slot->node = -1;
		}
	}
	close(fd);
	return 0;
}

/*
 * Wait until every reader said it is ready (its index, through the pipe),
 * giving up when one died, when we are told to stop (-2), or when one is
 * not ready by the deadline of w: -3, why says which and how it is stuck.
 */
static int wait_ready(int fd, size_t want, struct child *kids, size_t nkids, size_t per_memcg,
		      struct child_watch *w, struct strbuf *why)
{
	bool *ready = xcalloc(nkids, sizeof(*ready));
	size_t got = 0, have = 0;
	uint32_t buf[64];
	int ret = 0;

	while (got < want) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 200);

		if (lb_stop_requested()) {
			ret = -2;
			break;
		}
		if (r < 0 && errno != EINTR) {
			ret = error_errno("readtwice: waiting for readers to start");
			break;
		}
		if (r > 0) {
			ssize_t n = read(fd, (char *)buf + have, sizeof(buf) - have);

			if (n > 0) {
				/* whole indexes only: a pipe write of 4 bytes is atomic */
				size_t bytes = have + (size_t)n, k;

				for (k = 0; k + sizeof(uint32_t) <= bytes; k += sizeof(uint32_t)) {
					uint32_t i = buf[k / sizeof(uint32_t)];

					if (i < nkids && !ready[i]) {
						ready[i] = true;
						got++;
					}
				}
				have = bytes - k;
				memmove(buf, (char *)buf + k, have);
			}
			continue;
		}
		for (size_t i = 0; i < nkids; i++) {
			int code;
			if (child_wait(&kids[i], 0, &code, NULL) == 0) {
				ret = error("readtwice reader %zu (pid %d) exited before it started reading",
					    i, (int)kids[i].pid);
				goto out;
			}
		}
		for (size_t i = 0; i < nkids; i++)
			if (!ready[i] && child_watch_stuck(w, &kids[i])) {
				char what[96];

				snprintf(what, sizeof(what), "readtwice reader %zu of memcg %zu (not ready to read)",
					 i, i / per_memcg);
				child_stuck_report(&kids[i], w, what, why);
				error("%s", why->buf);
				ret = -3;
				goto out;
			}
	}
out:
	free(ready);
	return ret;
}

int readtwice_round(const struct rt_spec *spec, struct rt_reader *out)
{
	size_t n = spec->nmemcg * spec->readers_per_memcg, started = 0;
	struct rt_reader *shared;
	struct child *kids = xcalloc(n, sizeof(*kids));
	struct reader_arg *args = xcalloc(n, sizeof(*args));
	char (*procs)[4096] = xcalloc(spec->nmemcg, sizeof(*procs));
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, ret = -1;
	size_t shared_len = n * sizeof(*shared);
	struct child_watch watch;

	shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
		error_errno("readtwice: cannot map %zu bytes for results", shared_len);
		goto out;
	}
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		error_errno("readtwice: cannot create pipes");
		goto out;
	}
	for (size_t m = 0; m < spec->nmemcg; m++)
		if (spec->cgs)
			cg_procs_file(&spec->cgs[m], procs[m], sizeof(procs[m]));
	for (size_t i = 0; i < n; i++) {
		size_t m = i / spec->readers_per_memcg;

		args[i] = (struct reader_arg){ spec->files[m], spec->runtime, ready[1], go[0], go[1], &shared[i],
					       (uint32_t)i };
		kids[i].fn = reader_main;
		kids[i].fn_arg = &args[i];
		kids[i].cgroup_procs = spec->cgs ? procs[m] : NULL;
		kids[i].bind = spec->bind;
		kids[i].name = "readtwice reader";
		if (child_start(&kids[i]))
			goto stop;
		started++;
		if (lb_stop_requested()) {
			ret = -2;
			goto stop;
		}
	}
	/* starting to read takes no time of its own: stuck_timeout from now */
	child_watch_start(&watch, 0, spec->stuck_timeout);
	ret = wait_ready(ready[0], n, kids, n, spec->readers_per_memcg, &watch, spec->why);
	if (ret)
		goto stop;
	close(go[1]);   /* release every reader at once */
	go[1] = -1;
	/* one deadline for all: runtime after the release, plus stuck_timeout */
	child_watch_start(&watch, spec->runtime, spec->stuck_timeout);
	for (size_t i = 0; i < n; i++) {
		int code, r;
		char why[128], what[96];
		size_t m = i / spec->readers_per_memcg;

		snprintf(what, sizeof(what), "readtwice reader %zu of memcg %zu", i, m);
		kids[i].name = what;
		r = child_wait_watched(&kids[i], &watch, 1.0, &code, NULL, spec->why);
		kids[i].name = "readtwice reader";
		if (r == WATCH_STOP || lb_stop_requested()) {
			ret = -2;
			goto stop;
		}
		if (r == WATCH_STUCK) {
			/* a reader the kernel under test holds (D state...) ends the op */
			error("%s", spec->why->buf);
			ret = -3;
			goto stop;
		}
		if (r) {
			ret = error("%s (pid %d) could not be waited for", what, (int)kids[i].pid);
			goto stop;
		}
		if (code) {
			child_describe_code(code, why, sizeof(why));
			if (shared[i].err) {
				ret = error("%s (pid %d) failed on %s: %s", what, (int)kids[i].pid,
					    spec->files[m], strerror(shared[i].err));
				goto stop;
			}
			/* killed (by the OOM killer, say): the op failed, not the workload */
			strbuf_addf(spec->why, "%s (pid %d) %s", what, (int)kids[i].pid, why);
			error("%s", spec->why->buf);
			ret = -3;
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
	free(procs);
	return ret;
}
