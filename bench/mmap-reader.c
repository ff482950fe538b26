// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reference for bench/mmapread-vs-c: the least code that does what an
 * mmapread task does. One process per file, each for SECONDS: map the file
 * read-only, read one byte of every page, unmap, drop the file's pages
 * (POSIX_FADV_DONTNEED), again; a clock read per 16 pages. No cgroups, no
 * barrier, no shared memory: each process prints its own bytes and time.
 *
 * Usage: mmap-reader SECONDS FILE...
 * Prints: one line "task I bytes B seconds S mbps M" per file, then
 * "aggregate_mbps X" (1 MB = 10^6 bytes, the sum of the tasks' rates).
 *
 * The reference for bench/useonce-vs-dd's passes too, a fixed amount of
 * work instead of a time, what useonce's streamer does and nothing more:
 * `mmap-reader --passes K FILE` maps FILE, reads one byte of every page,
 * unmaps, K times; `mmap-reader --read-passes K BLOCK FILE` read()s FILE in
 * BLOCK-byte calls into a page-aligned buffer from offset 0 to its end, K
 * times on one descriptor (lseek between). No fadvise (what leaves memory
 * is reclaim's choice, as in useonce). Prints one line per pass,
 * "pass I seconds S storage_bytes B" (B: getrusage's ru_inblock x 512, the
 * bytes this process read from storage, readahead included), then
 * "seconds S storage_bytes B" for all K.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int reader(const char *file, double secs, int out)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), size;
	uint64_t bytes = 0;
	unsigned long n = 0;
	struct stat st;
	double start, end, t;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return perror(file), 1;
	size = (size_t)st.st_size / pg * pg;
	start = now();
	end = start + secs;
	for (;;) {
		const volatile unsigned char *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		int done = 0;

		if (p == MAP_FAILED)
			return perror("mmap"), 1;
		for (size_t off = 0; off < size; off += pg) {
			(void)p[off];
			bytes += pg;
			if (++n % 16 == 0 && now() >= end) {
				done = 1;
				break;
			}
		}
		munmap((void *)p, size);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (done || now() >= end)
			break;
	}
	t = now() - start;
	dprintf(out, "%llu %.9f\n", (unsigned long long)bytes, t);
	return 0;
}

static long long inblock(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_inblock;
}

/* useonce's passes: K whole-file passes, mapped (block 0) or by read() of
 * block bytes, each timed on its own as useonce's streamer times them */
static int passes(const char *file, int k, size_t block)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), size;
	struct stat st;
	double total = 0;
	long long in_total = 0;
	char *buf = NULL;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return perror(file), 1;
	if (block && posix_memalign((void **)&buf, 4096, block))
		return perror("posix_memalign"), 1;
	size = (size_t)st.st_size;
	for (int i = 0; i < k; i++) {
		long long in0 = inblock();
		double t0 = now(), t;

		if (block) {
			ssize_t r;

			if (lseek(fd, 0, SEEK_SET) < 0)
				return perror("lseek"), 1;
			while ((r = read(fd, buf, block)) > 0)
				;
			if (r < 0)
				return perror("read"), 1;
		} else if (size) {
			const volatile unsigned char *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

			if (p == MAP_FAILED)
				return perror("mmap"), 1;
			for (size_t off = 0; off < size; off += pg)
				(void)p[off];
			munmap((void *)p, size);
		}
		t = now() - t0;
		total += t;
		in_total += inblock() - in0;
		printf("pass %d seconds %.6f storage_bytes %lld\n", i + 1, t, (inblock() - in0) * 512);
	}
	printf("seconds %.6f storage_bytes %lld\n", total, in_total * 512);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int pfd[2];
	double secs, agg = 0;
	FILE *f;

	if (argc == 4 && !strcmp(argv[1], "--passes") && atoi(argv[2]) > 0)
		return passes(argv[3], atoi(argv[2]), 0);
	if (argc == 5 && !strcmp(argv[1], "--read-passes") && atoi(argv[2]) > 0 && atoi(argv[3]) > 0)
		return passes(argv[4], atoi(argv[2]), (size_t)atoi(argv[3]));
	if (argc < 3 || (secs = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: mmap-reader SECONDS FILE... | --passes K FILE | "
			"--read-passes K BLOCK FILE\n");
		return 2;
	}
	if (pipe(pfd))
		return perror("pipe"), 1;
	for (int i = 2; i < argc; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return perror("fork"), 1;
		if (pid == 0) {
			close(pfd[0]);
			_exit(reader(argv[i], secs, pfd[1]));
		}
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	for (int i = 2; i < argc; i++) {
		unsigned long long b;
		double t;

		if (fscanf(f, "%llu %lf", &b, &t) != 2)
			return fprintf(stderr, "a reader failed\n"), 1;
		printf("task %d bytes %llu seconds %.3f mbps %.1f\n", i - 2, b, t, b / 1e6 / t);
		agg += b / 1e6 / t;
	}
	while (wait(NULL) > 0)
		;
	printf("aggregate_mbps %.1f\n", agg);
	return 0;
}
