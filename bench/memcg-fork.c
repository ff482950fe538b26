// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The least a harness can do to run one readtwice iteration of N memcgs x R
 * readers, for bench/memcg-scale: the floor lrubench's set-up and tear-down
 * is measured against. It makes N memcgs below PARENT (a memcg the bench
 * made), starts N x R reader processes, each in its memcg, that open FILE
 * and say they are ready; releases them together; each reads FILE 4 KiB at
 * a time until one deadline (the release + SECS), and exits; then it reaps
 * them and removes the memcgs. No cleanup registry, no binding, no timeouts,
 * no results: only fork, the cgroup join, exit and wait.
 *
 * MODE each:     the program forks every reader in turn and each joins its
 *                memcg itself (one cgroup attach per process: lrubench's way).
 * MODE spawners: one spawner process per CPU; each takes a share of the
 *                memcgs, joins each of them once and forks that memcg's R
 *                readers there (they are born in it: no attach of their own),
 *                as children of the program (CLONE_PARENT), so it reaps them.
 *
 * Prints one line: "make S start S reap S remove S" (seconds): make = the
 * memcgs made; start = from the first fork until every reader said ready;
 * reap = from the deadline until the last reader was reaped; remove = the
 * memcgs removed. Run as root.
 * Usage: memcg-fork PARENT N R SECS FILE each|spawners
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *parent, *file;
static double secs;
static volatile double *release;   /* shared: the release time, 0 before it */
static int ready_w, go_r;

static int join(size_t m)
{
	char path[4096];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/m%zu/cgroup.procs", parent, m);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* In the reader: open, say ready, wait for the release, read to the deadline. */
static void __attribute__((noreturn)) reader(void)
{
	static char buf[4096];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	char c = 1;
	double end;
	unsigned n = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (fd < 0 || write(ready_w, &c, 1) != 1)
		_exit(1);
	while (read(go_r, &c, 1) < 0 && errno == EINTR)
		;   /* EOF: the release */
	end = *release + secs;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r == 0 && lseek(fd, 0, SEEK_SET) < 0)
			_exit(1);
		if (r < 0 && errno != EINTR)
			_exit(1);
		if (++n % 16 == 0 && now() >= end)
			_exit(0);
	}
}

/* fork, the child a child of our parent when adopt is set */
static pid_t spawn(int adopt)
{
	return adopt ? (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0) : fork();
}

int main(int argc, char **argv)
{
	size_t n, per, total, spawners = 1, got = 0;
	int ready[2], go[2], each;
	double t0, t_make, t_start, t_reap, t_remove;
	char path[4096], c;

	if (argc != 7 || (strcmp(argv[6], "each") && strcmp(argv[6], "spawners"))) {
		fprintf(stderr, "usage: memcg-fork PARENT N R SECS FILE each|spawners\n");
		return 2;
	}
	parent = argv[1];
	n = strtoul(argv[2], NULL, 10);
	per = strtoul(argv[3], NULL, 10);
	secs = strtod(argv[4], NULL);
	file = argv[5];
	each = !strcmp(argv[6], "each");
	total = n * per;
	release = mmap(NULL, sizeof(*release), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (release == MAP_FAILED || pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		perror("memcg-fork");
		return 1;
	}
	ready_w = ready[1];
	go_r = go[0];

	t0 = now();
	for (size_t m = 0; m < n; m++) {
		snprintf(path, sizeof(path), "%s/m%zu", parent, m);
		if (mkdir(path, 0755)) {
			perror(path);
			return 1;
		}
	}
	t_make = now() - t0;

	t0 = now();
	if (each) {
		for (size_t i = 0; i < total; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				close(go[1]);
				if (join(i / per))
					_exit(1);
				reader();
			}
			if (pid < 0) {
				perror("fork");
				return 1;
			}
		}
	} else {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		spawners = cpus > 1 ? (size_t)cpus : 1;
		for (size_t s = 0; s < spawners; s++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid)
				continue;
			close(go[1]);
			/* memcgs s, s + spawners, ...: the shares are even */
			for (size_t m = s; m < n; m += spawners) {
				if (join(m))
					_exit(1);
				for (size_t k = 0; k < per; k++) {
					pid_t r = spawn(1);

					if (r == 0)
						reader();
					if (r < 0)
						_exit(1);
				}
			}
			_exit(0);
		}
	}
	close(ready[1]);
	while (got < total) {
		ssize_t r = read(ready[0], &c, 1);

		if (r == 1)
			got++;
		else if (r == 0 || errno != EINTR)
			break;
	}
	t_start = now() - t0;
	if (got < total) {
		fprintf(stderr, "memcg-fork: %zu of %zu readers said ready\n", got, total);
		return 1;
	}
	*release = now();
	close(go[1]);   /* release them all */
	for (size_t left = total + (each ? 0 : spawners); left > 0; left--)
		while (wait(NULL) < 0 && errno == EINTR)
			;
	t_reap = now() - *release - secs;

	t0 = now();
	for (size_t m = 0; m < n; m++) {
		snprintf(path, sizeof(path), "%s/m%zu", parent, m);
		if (rmdir(path))
			perror(path);
	}
	t_remove = now() - t0;
	printf("make %.3f start %.3f reap %.3f remove %.3f\n", t_make, t_start, t_reap, t_remove);
	return 0;
}
