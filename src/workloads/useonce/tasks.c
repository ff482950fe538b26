// SPDX-License-Identifier: GPL-2.0-or-later
/* The useonce streamer and protected set (tasks.h). */
#include "workloads/useonce/tasks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/util.h"

const char *const uo_counter_names[UO_NCOUNTERS] = {
	[UO_PGACTIVATE] = "pgactivate",
	[UO_PGDEACTIVATE] = "pgdeactivate",
	[UO_REFAULT] = "workingset_refault",
	[UO_ACTIVATE] = "workingset_activate",
};
/* the names each counter has had: file pages since 5.9, one counter before */
static const char *const counter_keys[UO_NCOUNTERS][2] = {
	[UO_PGACTIVATE] = { "pgactivate", NULL },
	[UO_PGDEACTIVATE] = { "pgdeactivate", NULL },
	[UO_REFAULT] = { "workingset_refault_file", "workingset_refault" },
	[UO_ACTIVATE] = { "workingset_activate_file", "workingset_activate" },
};

bool uo_stat_lookup(const char *text, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; ) {
		unsigned long long x;

		if (!strncmp(l, key, kl) && l[kl] == ' ' && sscanf(l + kl, " %llu", &x) == 1) {
			*v = x;
			return true;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return false;
}

/* Each counter from the memcg when it has it (its own pages only), else the
 * machine's; the first read decides the source, later reads keep it. */
static void counters_read(const char *memory_stat, int *source, uint64_t *v)
{
	char *mem = memory_stat ? read_file_str(memory_stat, NULL) : NULL;
	char *vm = read_file_str("/proc/vmstat", NULL);

	for (int c = 0; c < UO_NCOUNTERS; c++) {
		v[c] = 0;
		for (int k = 0; k < 2 && counter_keys[c][k]; k++) {
			const char *key = counter_keys[c][k];

			if ((source[c] == UO_SRC_NONE || source[c] == UO_SRC_MEMCG) && mem &&
			    uo_stat_lookup(mem, key, &v[c])) {
				source[c] = UO_SRC_MEMCG;
				break;
			}
			if ((source[c] == UO_SRC_NONE || source[c] == UO_SRC_VMSTAT) && vm &&
			    uo_stat_lookup(vm, key, &v[c])) {
				source[c] = UO_SRC_VMSTAT;
				break;
			}
		}
	}
	free(mem);
	free(vm);
}

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

/* One read() pass from the start to end of file: bytes, or -1 with errno. */
static int64_t read_pass(int fd, char *buf, size_t block)
{
	int64_t bytes = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		ssize_t r = read(fd, buf, block);

		if (r == 0)
			return bytes;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		bytes += r;
	}
}

/* One mapped pass: map, a volatile read of one byte per page, unmap. */
static int64_t mmap_pass(int fd, size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const volatile unsigned char *p;

	if (!size)
		return 0;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	for (size_t off = 0; off < size; off += pg)
		(void)p[off];
	munmap((void *)p, size);
	return (int64_t)size;
}

/* a window of 1 GiB of 4 KiB pages: a 256 KiB vector */
#define UO_MINCORE_WINDOW (1ULL << 30)

int uo_resident_bytes(int fd, uint64_t size, uint64_t *bytes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *vec = xmalloc(UO_MINCORE_WINDOW / pg);
	uint64_t n = 0;

	for (uint64_t off = 0; off < size; off += UO_MINCORE_WINDOW) {
		size_t len = size - off < UO_MINCORE_WINDOW ? (size_t)(size - off) : (size_t)UO_MINCORE_WINDOW;
		size_t pages = (len + pg - 1) / pg;
		void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		int r;

		if (p == MAP_FAILED) {
			free(vec);
			return -1;
		}
		r = mincore(p, len, vec);
		munmap(p, len);
		if (r) {
			free(vec);
			return -1;
		}
		for (size_t i = 0; i < pages; i++)
			if (vec[i] & 1) {
				/* the last page counts the bytes of the file in it */
				uint64_t at = off + (uint64_t)i * pg;

				n += size - at < pg ? size - at : pg;
			}
	}
	free(vec);
	*bytes = n;
	return 0;
}

int uo_stream_main(void *arg)
{
	struct uo_stream_arg *a = arg;
	struct uo_stream_result *res = a->res;
	uint64_t c0[UO_NCOUNTERS], c1[UO_NCOUNTERS];
	struct stat sb;
	char *buf = NULL;
	int fd = open(a->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb))
		goto fail;
	if (!a->mmap && posix_memalign((void **)&buf, 4096, a->block)) {
		errno = ENOMEM;
		goto fail;
	}
	counters_read(a->memory_stat, res->source, c0);
	res->io_accounting = access("/proc/self/io", R_OK) == 0;
	res->resident_known = uo_resident_bytes(fd, (uint64_t)sb.st_size, &res->resident_start) == 0;
	for (unsigned p = 0; p < a->passes && p < UO_MAX_PASSES; p++) {
		struct uo_pass *ps = &res->pass[p];
		struct rusage r0, r1;
		double t0, t1;
		int64_t got;

		getrusage(RUSAGE_SELF, &r0);
		t0 = now_monotonic();
		got = a->mmap ? mmap_pass(fd, (size_t)sb.st_size) : read_pass(fd, buf, a->block);
		t1 = now_monotonic();
		getrusage(RUSAGE_SELF, &r1);
		if (got < 0)
			goto fail;
		counters_read(a->memory_stat, res->source, c1);
		ps->elapsed = t1 - t0;
		ps->user = tv(&r1.ru_utime) - tv(&r0.ru_utime);
		ps->sys = tv(&r1.ru_stime) - tv(&r0.ru_stime);
		ps->bytes = (uint64_t)got;
		ps->majflt = (uint64_t)(r1.ru_majflt - r0.ru_majflt);
		ps->minflt = (uint64_t)(r1.ru_minflt - r0.ru_minflt);
		ps->storage_bytes = (uint64_t)(r1.ru_inblock - r0.ru_inblock) * 512;
		if (res->resident_known &&
		    uo_resident_bytes(fd, (uint64_t)sb.st_size, &ps->resident_after))
			res->resident_known = false;
		for (int c = 0; c < UO_NCOUNTERS; c++) {
			ps->count[c] = c1[c] >= c0[c] ? c1[c] - c0[c] : 0;
			c0[c] = c1[c];
		}
		res->done = p + 1;
	}
	free(buf);
	close(fd);
	return 0;
fail:
	res->err = errno ? errno : EIO;
	free(buf);
	if (fd >= 0)
		close(fd);
	return 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int uo_protect_main(void *arg)
{
	struct uo_protect_arg *a = arg;
	struct uo_protect_result *res = a->res;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), pages = a->size / pg;
	struct timespec pause = { (time_t)a->pause, (long)((a->pause - (double)(time_t)a->pause) * 1e9) };
	volatile unsigned char *p;
	struct rusage r0, r1;
	int fd = -1;

	if (a->mapped) {
		fd = open(a->file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto fail;
		p = mmap(NULL, pages * pg, PROT_READ, MAP_SHARED, fd, 0);
	} else {
		p = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (p == MAP_FAILED)
		goto fail;
	/* 4 KiB pages, each its own fault, as the counts say */
	madvise((void *)p, pages * pg, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < pages; i++)
		if (a->mapped)
			(void)p[i * pg];
		else
			p[i * pg] = (unsigned char)(i | 1);   /* not a page of zeroes */
	getrusage(RUSAGE_SELF, &r0);
	res->ready = 1;
	for (;;) {
		for (size_t i = 0; i < pages; i++) {
			uint64_t t0 = now_ns();

			(void)p[i * pg];
			lh_record(&res->hist, now_ns() - t0);
		}
		getrusage(RUSAGE_SELF, &r1);
		res->majflt = (uint64_t)(r1.ru_majflt - r0.ru_majflt);
		res->minflt = (uint64_t)(r1.ru_minflt - r0.ru_minflt);
		res->sweeps++;
		if (a->pause > 0)
			nanosleep(&pause, NULL);
	}
fail:
	res->err = errno ? errno : EIO;
	fprintf(stderr, "lrubench: useonce protected set: %s\n", strerror(res->err));
	if (fd >= 0)
		close(fd);
	return 1;
}
