// SPDX-License-Identifier: GPL-2.0-or-later
/* The colocate probe and pressure tasks (tasks.h). */
#include "workloads/colocate/tasks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

uint64_t co_rand(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Read the whole file once (untimed): the timed preads then hit the cache. */
static int warm_file(int fd, char *buf)
{
	ssize_t r;

	while ((r = read(fd, buf, PAGE)) > 0)
		;
	return r < 0 ? errno : 0;
}

static int probe_read(struct probe_arg *a)
{
	static char buf[PAGE] __attribute__((aligned(PAGE)));
	size_t pages = a->size / PAGE;
	uint64_t seed = a->seed, start, end, t0, t1;
	int fd = open(a->file, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return errno;
	if (!pages || (e = warm_file(fd, buf))) {
		close(fd);
		return pages ? e : EINVAL;
	}
	a->res->ready = 1;
	start = t1 = now_ns();
	end = start + (uint64_t)(a->runtime * 1e9);
	while (t1 < end) {
		off_t off = (off_t)(co_rand(&seed) % pages) * PAGE;

		t0 = now_ns();
		if (pread(fd, buf, PAGE, off) != PAGE) {
			e = errno ? errno : EIO;
			close(fd);
			return e;
		}
		t1 = now_ns();
		lh_record(&a->res->hist, t1 - t0);
	}
	a->res->elapsed = (double)(t1 - start) / 1e9;
	close(fd);
	return 0;
}

static int probe_anon(struct probe_arg *a)
{
	size_t pages = a->size / PAGE, i = 0;
	volatile char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t start, end, t0, t1;

	if (p == MAP_FAILED)
		return errno;
	/* no transparent huge pages: one fault per 4 KiB page, as the op says */
	madvise((void *)p, pages * PAGE, MADV_NOHUGEPAGE);
	a->res->ready = 1;
	start = t1 = now_ns();
	end = start + (uint64_t)(a->runtime * 1e9);
	while (t1 < end) {
		if (i == pages) {
			madvise((void *)p, pages * PAGE, MADV_DONTNEED);   /* untimed: empty again */
			i = 0;
			t1 = now_ns();
			continue;
		}
		t0 = now_ns();
		p[i++ * PAGE] = 1;   /* the first write: the fault */
		t1 = now_ns();
		lh_record(&a->res->hist, t1 - t0);
	}
	a->res->elapsed = (double)(t1 - start) / 1e9;
	munmap((void *)p, pages * PAGE);
	return 0;
}

int co_probe_main(void *arg)
{
	struct probe_arg *a = arg;
	int e = a->kind == CO_ANON ? probe_anon(a) : probe_read(a);

	a->res->err = e;
	return e ? 1 : 0;
}

static int pressure_file(struct pressure_arg *a)
{
	static char buf[16 * PAGE] __attribute__((aligned(PAGE)));
	int fd = open(a->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r == 0 && lseek(fd, 0, SEEK_SET) < 0)
			return errno;
		if (r < 0 && errno != EINTR)
			return errno;
	}
}

static int pressure_anon(struct pressure_arg *a)
{
	size_t pages = a->size / PAGE;
	uint64_t seed = a->seed;
	volatile uint64_t *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return errno;
	madvise((void *)p, pages * PAGE, MADV_NOHUGEPAGE);
	for (;;)
		for (size_t i = 0; i < pages; i++)
			p[i * (PAGE / sizeof(uint64_t))] = co_rand(&seed);
}

int co_pressure_main(void *arg)
{
	struct pressure_arg *a = arg;
	int e = a->kind == CO_ANON ? pressure_anon(a) : pressure_file(a);

	fprintf(stderr, "lrubench: colocate pressure: %s\n", strerror(e));
	return 1;
}
