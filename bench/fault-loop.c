// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bare loop of will-it-scale's page-fault cases, for bench/faultscale-vs-c:
 * T processes or threads, task i bound to the i-th CPU allowed, each maps
 * 128M (or MAPSIZE), writes a byte per page counting each, unmaps, forever;
 * the parent sleeps WARM seconds, reads the counters, sleeps SECS, reads them
 * again and prints "ops_per_s N". No cgroups, no shared barrier beyond a pipe,
 * no per-second sampling: the least a harness can do.
 * Usage: fault-loop page_fault1|2|3 processes|threads T WARM SECS DIR [MAPSIZE]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int kase, go[2];
static size_t len = 128UL << 20;
static const char *dir;
static volatile unsigned long long *counts;   /* one per 256 bytes */
static int cpus[1024], ncpus;
static pid_t pids[1024];

static void *task(void *p)
{
	long i = (long)p;
	cpu_set_t s;
	int fd = -1;
	char c;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	volatile unsigned long long *n = counts + i * 32;

	CPU_ZERO(&s);
	CPU_SET(cpus[i % ncpus], &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		_exit(2);
	if (kase != 1) {
		fd = open(dir, O_TMPFILE | O_RDWR, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)len))
			_exit(3);
	}
	read(go[0], &c, 1);
	for (;;) {
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       kase == 1 ? MAP_PRIVATE | MAP_ANONYMOUS : kase == 2 ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			_exit(4);
		for (size_t o = 0; o < len; o += pg) {
			m[o] = 0;
			(*n)++;
		}
		munmap(m, len);
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static unsigned long long total(int T)
{
	unsigned long long s = 0;

	for (int i = 0; i < T; i++)
		s += counts[i * 32];
	return s;
}

int main(int argc, char **argv)
{
	cpu_set_t all;
	int T, threads;
	double warm, secs, t0, t1;
	unsigned long long a, b;

	if (argc < 7 || atoi(argv[3]) < 1 || atoi(argv[3]) > 1024) {
		fprintf(stderr, "usage: fault-loop page_fault1|2|3 processes|threads T WARM SECS DIR [MAPSIZE]\n");
		return 2;
	}
	kase = argv[1][strlen(argv[1]) - 1] - '0';
	threads = !strcmp(argv[2], "threads");
	T = atoi(argv[3]);
	warm = atof(argv[4]);
	secs = atof(argv[5]);
	dir = argv[6];
	if (argc > 7)
		len = strtoull(argv[7], NULL, 0);
	sched_getaffinity(0, sizeof(all), &all);
	for (int c = 0; c < CPU_SETSIZE && ncpus < 1024; c++)
		if (CPU_ISSET(c, &all))
			cpus[ncpus++] = c;
	counts = mmap(NULL, (size_t)T * 256, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED || pipe(go))
		return 1;
	for (long i = 0; i < T; i++) {
		if (threads) {
			pthread_t th;

			pthread_create(&th, NULL, task, (void *)i);
		} else if ((pids[i] = fork()) == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(go[1]);   /* or the go pipe never reaches EOF */
			task((void *)i);
		}
	}
	close(go[1]);
	usleep((useconds_t)(warm * 1e6));
	t0 = now();
	a = total(T);
	usleep((useconds_t)(secs * 1e6));
	b = total(T);
	t1 = now();
	printf("ops_per_s %.1f\n", (double)(b - a) / (t1 - t0));
	fflush(stdout);
	if (!threads)
		for (int i = 0; i < T; i++) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	return 0;
}
