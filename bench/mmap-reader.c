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
 * The reference for bench/useonce-vs-dd's mmap pass too, a fixed amount of
 * work instead of a time: `mmap-reader --passes K FILE` maps FILE, reads one
 * byte of every page, unmaps, K times, with no fadvise (what leaves memory
 * is reclaim's choice, as in useonce), and prints "seconds S" for all K.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* useonce's passes: K whole-file mapped passes, timed together */
static int passes(const char *file, int k)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), size;
	struct stat st;
	double start;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return perror(file), 1;
	size = (size_t)st.st_size / pg * pg;
	start = now();
	for (int i = 0; i < k; i++) {
		const volatile unsigned char *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

		if (p == MAP_FAILED)
			return perror("mmap"), 1;
		for (size_t off = 0; off < size; off += pg)
			(void)p[off];
		munmap((void *)p, size);
	}
	printf("seconds %.6f\n", now() - start);
	return 0;
}

int main(int argc, char **argv)
{
	int pfd[2];
	double secs, agg = 0;
	FILE *f;

	if (argc == 4 && !strcmp(argv[1], "--passes") && atoi(argv[2]) > 0)
		return passes(argv[3], atoi(argv[2]));
	if (argc < 3 || (secs = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: mmap-reader SECONDS FILE...\n");
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
