// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper for tests/integration/health.sh (root, real kernel): acts on
 * a memcg that a running `lrubench run` creates for one step, while that
 * step runs, so that what happens is attributed to that op.
 *
 *   in_memcg [--timeout S] [--kmsg TEXT]... [--stop-member] [--hog BYTES] DIR
 *
 * Waits until DIR/cgroup.procs exists (the step began) and holds a
 * process, then, in this order:
 *   --kmsg TEXT     writes TEXT to /dev/kmsg: a stand-in for a message of
 *                   the kernel's (a WARN, a lockdep splat), which a test
 *                   cannot make the kernel print on purpose
 *   --stop-member   SIGSTOPs the first process of the memcg (a reader) and
 *                   prints its pid: a stand-in for a reader stuck in D state
 *   --hog BYTES     joins the memcg and touches BYTES of anonymous memory:
 *                   with a smaller memcg limit and no swap the kernel's OOM
 *                   killer kills it for real (exit 3 if it survives)
 * Exit: 0 done, 2 usage, 3 survived --hog, 4 DIR never appeared.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: in_memcg [--timeout S] [--kmsg TEXT]... [--stop-member] [--hog BYTES] DIR\n");
	return 2;
}

/* The first pid in DIR/cgroup.procs, 0 while it is empty or absent. */
static long first_member(const char *procs)
{
	FILE *f = fopen(procs, "r");
	long pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *kmsg[16], *dir = NULL;
	size_t nkmsg = 0;
	double timeout = 60;
	unsigned long long hog = 0;
	int stop = 0;
	char procs[4096];
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	long pid;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			timeout = atof(argv[++i]);
		else if (!strcmp(argv[i], "--kmsg") && i + 1 < argc && nkmsg < 16)
			kmsg[nkmsg++] = argv[++i];
		else if (!strcmp(argv[i], "--stop-member"))
			stop = 1;
		else if (!strcmp(argv[i], "--hog") && i + 1 < argc)
			hog = strtoull(argv[++i], NULL, 10);
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			return usage();
	}
	if (!dir)
		return usage();
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	/* the step began when its memcg holds a process */
	for (double waited = 0; !(pid = first_member(procs)); waited += 0.01) {
		if (waited > timeout) {
			fprintf(stderr, "in_memcg: %s held no process within %.0f s\n", dir, timeout);
			return 4;
		}
		nanosleep(&tick, NULL);
	}
	for (size_t i = 0; i < nkmsg; i++)
		if (write_str("/dev/kmsg", kmsg[i])) {
			fprintf(stderr, "in_memcg: cannot write to /dev/kmsg: %s\n", strerror(errno));
			return 1;
		}
	if (stop) {
		if (kill((pid_t)pid, SIGSTOP)) {
			fprintf(stderr, "in_memcg: cannot stop %ld: %s\n", pid, strerror(errno));
			return 1;
		}
		printf("%ld\n", pid);
		fflush(stdout);
	}
	if (hog) {
		char *p;

		if (write_str(procs, "0")) {
			fprintf(stderr, "in_memcg: cannot join %s: %s\n", dir, strerror(errno));
			return 1;
		}
		p = mmap(NULL, hog, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "in_memcg: cannot map %llu bytes: %s\n", hog, strerror(errno));
			return 1;
		}
		/* every page touched: anonymous memory the memcg cannot reclaim without swap */
		for (unsigned long long off = 0; off < hog; off += 4096)
			p[off] = 1;
		fprintf(stderr, "in_memcg: touched %llu bytes in %s and was not OOM-killed\n", hog, dir);
		return 3;
	}
	return 0;
}
