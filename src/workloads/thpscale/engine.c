// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thpscale's engine, modelled on mmtests' thpscale (behaviour, not code):
 * every thread fragments memory (fill an anonymous region, unmap the first
 * 1 MB of every 2 MB block, read-fault file pages that may land in the
 * holes), waits for all threads of all instances, then write-faults a second
 * region one 2 MB step at a time, timing the fault and the fill of the 2 MB.
 */
#include "workloads/thpscale/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/util.h"

static size_t round_page(size_t n)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);

	return (n + ps - 1) & ~(ps - 1);
}

struct thp_shared *thp_shared_create(unsigned instances, unsigned threads, uint64_t nr_faults)
{
	size_t nthreads = (size_t)instances * threads;
	size_t nfaults = nthreads * nr_faults;
	size_t off_res = round_page(sizeof(struct thp_shared));
	size_t off_lat = off_res + round_page(nthreads * sizeof(struct thp_thread_result));
	size_t off_kind = off_lat + round_page(nfaults * sizeof(double));
	size_t len = off_kind + round_page(nfaults ? nfaults : 1);
	struct thp_shared *sh;
	char *base;

	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		error("cannot map %zu bytes for thpscale results: %s", len, strerror(errno));
		return NULL;
	}
	memset(base, 0, len);
	sh = (struct thp_shared *)base;
	sh->waiting_for = (uint32_t)nthreads;
	sh->instances = instances;
	sh->threads = threads;
	sh->nr_faults = nr_faults;
	sh->map_len = len;
	sh->res = (struct thp_thread_result *)(base + off_res);
	sh->lat_us = (double *)(base + off_lat);
	sh->kind = (unsigned char *)(base + off_kind);
	return sh;
}

void thp_shared_destroy(struct thp_shared *sh)
{
	if (sh)
		munmap(sh, sh->map_len);
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	/* not FUTEX_PRIVATE_FLAG: the word is shared between processes */
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

void thp_shared_abort(struct thp_shared *sh)
{
	__atomic_store_n(&sh->abort, 1, __ATOMIC_SEQ_CST);
	futex(&sh->arrived, FUTEX_WAKE, INT_MAX, NULL);
}

static bool aborted(const struct thp_shared *sh)
{
	return __atomic_load_n(&sh->abort, __ATOMIC_RELAXED) != 0;
}

/* Returns false when the barrier was broken by an abort. */
static bool barrier_wait(struct thp_shared *sh)
{
	uint32_t n = __atomic_add_fetch(&sh->arrived, 1, __ATOMIC_SEQ_CST);

	if (n >= sh->waiting_for) {
		futex(&sh->arrived, FUTEX_WAKE, INT_MAX, NULL);
		return !aborted(sh);
	}
	for (;;) {
		/* the timeout only bounds how long a missed abort could go unseen */
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		uint32_t v = __atomic_load_n(&sh->arrived, __ATOMIC_SEQ_CST);

		if (aborted(sh))
			return false;
		if (v >= sh->waiting_for)
			return true;
		futex(&sh->arrived, FUTEX_WAIT, v, &ts);
	}
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct worker {
	struct thp_instance *in;
	unsigned thread;
	pthread_t tid;
};

static void fail(struct thp_shared *sh, struct thp_thread_result *r, const char *what, int err)
{
	r->failed = 1;
	snprintf(r->msg, sizeof(r->msg), "%s: %s", what, strerror(err));
	thp_shared_abort(sh);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct thp_instance *in = w->in;
	struct thp_shared *sh = in->sh;
	const struct thp_layout *l = in->layout;
	struct thp_thread_result *r = &sh->res[in->index * sh->threads + w->thread];
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	size_t nprobe = thp_probe_pages(ps);
	unsigned char vec[THP_SIZE / 4096];
	char *first = MAP_FAILED, *second = MAP_FAILED, *fmap = MAP_FAILED, *aligned;
	uint64_t t0, t1, f;
	off_t off = (off_t)thp_file_offset(l, in->index, w->thread);
	volatile unsigned long sum = 0;
	int fd = -1;

	if (nprobe > sizeof(vec))
		nprobe = sizeof(vec);

	/* 1. fill a large anonymous region, then unmap the first half of
	 *    every 2 MB block: free memory is now in 1 MB pieces */
	t0 = now_ns();
	first = mmap(NULL, l->thread_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (first == MAP_FAILED) {
		fail(sh, r, "cannot map the first region", errno);
		goto out;
	}
	memset(first, 1, l->thread_size);
	for (size_t i = 0, n = thp_hole_count((uintptr_t)first, l->thread_size); i < n; i++)
		munmap((void *)thp_hole_addr((uintptr_t)first, i), THP_HOLE);

	/* 2. the second region, mapped but not touched, 2 MB-aligned */
	second = mmap(NULL, l->second_map, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (second == MAP_FAILED) {
		fail(sh, r, "cannot map the second region", errno);
		goto out;
	}
	aligned = (char *)thp_align_up((uintptr_t)second, (uintptr_t)THP_SIZE);
	if (in->madvise && madvise(second, l->second_map, MADV_HUGEPAGE)) {
		fail(sh, r, "madvise(MADV_HUGEPAGE)", errno);
		goto out;
	}
	t1 = now_ns();
	r->anon_init_us = (double)(t1 - t0) / 1e3;

	/* 3. page cache into the holes: read-fault this thread's file span,
	 *    dropped first so every iteration faults it afresh */
	fd = open(in->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(sh, r, "cannot open the data file", errno);
		goto out;
	}
	posix_fadvise(fd, off, (off_t)l->file_span, POSIX_FADV_DONTNEED);
	fmap = mmap(NULL, l->file_span, PROT_READ, MAP_SHARED, fd, off);
	if (fmap == MAP_FAILED) {
		fail(sh, r, "cannot map the data file", errno);
		goto out;
	}
	for (size_t i = 0; i < l->file_span; i += ps)
		sum += (unsigned char)fmap[i];
	r->file_init_us = (double)(now_ns() - t1) / 1e3;

	/* 4. everybody starts faulting at once */
	if (!barrier_wait(sh)) {
		r->failed = 1;
		snprintf(r->msg, sizeof(r->msg), "stopped before faulting: another thread "
			 "failed or a stop was requested");
		goto out;
	}

	/* 5. the timed part: write fault + fill of each 2 MB; the residency
	 *    check between the two (a system call) is not timed */
	for (f = 0; f < l->nr_faults && !aborted(sh); f++) {
		char *p = aligned + f * THP_SIZE;
		size_t idx = thp_fault_index(sh, in->index, w->thread, f);
		uint64_t a, b, c, d;

		a = now_ns();
		*(volatile char *)p = 1;
		b = now_ns();
		if (mincore(p + THP_PROBE_PAGE * ps, nprobe * ps, vec)) {
			fail(sh, r, "mincore", errno);
			break;
		}
		c = now_ns();
		memset(p, 2, THP_SIZE);
		d = now_ns();
		sh->lat_us[idx] = (double)((b - a) + (d - c)) / 1e3;
		sh->kind[idx] = (unsigned char)thp_classify(vec, nprobe);
	}
	r->faults = f;
	if (!r->failed && f < l->nr_faults) {
		r->failed = 1;
		snprintf(r->msg, sizeof(r->msg), "stopped after %llu of %llu faults",
			 (unsigned long long)f, (unsigned long long)l->nr_faults);
	}
out:
	/* a thread that failed before the barrier must still not block it */
	if (r->failed)
		thp_shared_abort(sh);
	if (fmap != MAP_FAILED)
		munmap(fmap, l->file_span);
	if (fd >= 0)
		close(fd);
	if (first != MAP_FAILED)
		munmap(first, l->thread_size);
	if (second != MAP_FAILED)
		munmap(second, l->second_map);
	(void)sum;
	return NULL;
}

int thp_instance_main(void *arg)
{
	struct thp_instance *in = arg;
	struct thp_shared *sh = in->sh;
	unsigned n = sh->threads, started = 0;
	struct worker *w = calloc(n, sizeof(*w));
	int ret = 0;

	if (!w) {
		thp_shared_abort(sh);
		return 1;
	}
	for (unsigned t = 0; t < n; t++) {
		int e;

		w[t].in = in;
		w[t].thread = t;
		e = pthread_create(&w[t].tid, NULL, worker_main, &w[t]);
		if (e) {
			struct thp_thread_result *r = &sh->res[in->index * n + t];
			fail(sh, r, "cannot create a thread", e);
			break;
		}
		started++;
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	for (unsigned t = 0; t < n; t++)
		if (sh->res[in->index * n + t].failed || t >= started)
			ret = 1;
	free(w);
	return ret;
}

int thp_write_data_file(const char *path, uint64_t size)
{
	size_t chunk = 1 << 20;
	unsigned char *buf = xmalloc(chunk);
	int fd, ret = 0;

	/* non-zero data, so the blocks are real (no holes) */
	for (size_t i = 0; i < chunk; i++)
		buf[i] = (unsigned char)(1 + i % 251);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(buf);
		return error("cannot create %s: %s", path, strerror(errno));
	}
	for (uint64_t done = 0; done < size && !ret; ) {
		size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
		ssize_t w;

		if (lb_stop_requested()) {
			ret = error("interrupted while writing %s", path);
			break;
		}
		w = write(fd, buf, n);
		if (w <= 0)
			ret = error("cannot write %s: %s", path, w < 0 ? strerror(errno) : "short write");
		else
			done += (uint64_t)w;
	}
	if (!ret && fsync(fd))
		ret = error("cannot fsync %s: %s", path, strerror(errno));
	if (!ret)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(fd) && !ret)
		ret = error("cannot write %s: %s", path, strerror(errno));
	free(buf);
	return ret;
}
