// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bare loop of the shrinkers workload's mounters, for bench/shrinkers-vs-c:
 * in a mount namespace of its own (made a recursive slave, as lrubench's), mount
 * a tmpfs of the mounters' size on DIR and unmount it, SECS seconds, and print
 * "ops_per_s N" (pairs over the time from the first to the last). No timing of
 * each call, no histogram, no shared memory: the least a harness can do. Run it
 * from a shell already in the memcg to measure in.
 * Usage: mount-loop DIR SECS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long ops = 0;
	double t0, t1, end;

	if (argc != 3) {
		fprintf(stderr, "usage: mount-loop DIR SECS\n");
		return 2;
	}
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL)) {
		perror("mount-loop: a private mount namespace");
		return 1;
	}
	t0 = t1 = now();
	end = t0 + atof(argv[2]);
	while (t1 < end) {
		if (mount("lrubench-bench", argv[1], "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=64k,nr_inodes=16") || umount2(argv[1], 0)) {
			perror("mount-loop");
			return 1;
		}
		ops++;
		t1 = now();
	}
	printf("ops_per_s %.1f\n", (double)ops / (t1 - t0));
	return 0;
}
