// SPDX-License-Identifier: GPL-2.0-or-later
/* The shrinkers workload's children (mount_loop.h). */
#include "workloads/shrinkers/mount_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "core/util.h"

/* nosuid, nodev, noexec: nothing of these mounts is ever run */
#define SK_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

static size_t shared_bytes(size_t n, size_t nhists)
{
	return sizeof(struct sk_shared) + n * sizeof(struct sk_task) + nhists * sizeof(struct sk_hists);
}

struct sk_shared *sk_shared_create(size_t n, size_t nhists)
{
	struct sk_shared *sh = mmap(NULL, shared_bytes(n, nhists), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED) {
		error_errno("shrinkers: cannot map the results of %zu tasks", n);
		return NULL;
	}
	sh->n = n;
	sh->nhists = nhists;
	/* after the tasks; both are 8-byte aligned */
	sh->hist = (struct sk_hists *)(void *)&sh->task[n];
	return sh;
}

void sk_shared_destroy(struct sk_shared *sh)
{
	if (sh)
		munmap(sh, shared_bytes(sh->n, sh->nhists));
}

void sk_shared_start(struct sk_shared *sh, double seconds)
{
	sh->t_end = now_monotonic() + seconds;
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
}

void sk_shared_abort(struct sk_shared *sh)
{
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
}

static bool stopped(const struct sk_shared *sh)
{
	return __atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE);
}

/* Wait for the start flag (1 ms polls: the start is not what is timed). */
static void wait_go(const struct sk_shared *sh)
{
	struct timespec ms = { 0, 1000000 };

	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int failed(struct sk_task *t, const char *what, const char *path)
{
	snprintf(t->msg, sizeof(t->msg), "%s %.120s: %.60s", what, path, strerror(errno));
	return 1;
}

/* All of len to fd (a tmpfs file: short writes only when it is full) */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int sk_settler_main(void *arg)
{
	struct sk_job *j = arg;
	struct sk_task *t = &j->sh->task[j->slot];
	char opts[64], name[4096 + 32], *buf;
	int ret = 0;

	prctl(PR_SET_NAME, "lrb-settler");

	snprintf(opts, sizeof(opts), "size=%llu,mode=0700", (unsigned long long)j->tmpfs_size);
	if (mount(SK_SOURCE, j->path, "tmpfs", SK_FLAGS, opts))
		return failed(t, "mount tmpfs on", j->path);
	/* the files' pages, dentries and inodes are charged to this task's memcg */
	buf = xmalloc(j->file_size ? j->file_size : 1);
	memset(buf, 'l', j->file_size);
	for (unsigned f = 0; f < j->files && !ret; f++) {
		int fd;

		snprintf(name, sizeof(name), "%s/f%u", j->path, f);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0) {
			ret = failed(t, "create", name);
			break;
		}
		if (write_all(fd, buf, j->file_size))
			ret = failed(t, "write", name);
		close(fd);
	}
	free(buf);
	return ret;
}

int sk_mounter_main(void *arg)
{
	struct sk_job *j = arg;
	struct sk_shared *sh = j->sh;
	struct sk_task *t = &sh->task[j->slot];
	struct sk_hists *h = &sh->hist[j->slot];
	uint64_t end;

	prctl(PR_SET_NAME, "lrb-mounter");
	wait_go(sh);
	end = (uint64_t)(sh->t_end * 1e9);
	t->t_first = now_monotonic();
	for (;;) {
		uint64_t t0 = now_ns(), t1, t2;

		if (t0 >= end || stopped(sh))
			break;
		/* the smallest tmpfs: its superblock (and shrinker) is the point */
		if (mount(SK_SOURCE, j->path, "tmpfs", SK_FLAGS, "size=64k,nr_inodes=16"))
			return failed(t, "mount tmpfs on", j->path);
		t1 = now_ns();
		if (umount2(j->path, 0))
			return failed(t, "umount", j->path);
		t2 = now_ns();
		lh_record(&h->mount, t1 - t0);
		lh_record(&h->umount, t2 - t1);
		t->ops++;
		t->t_last = (double)t2 / 1e9;
	}
	return 0;
}

int sk_presser_main(void *arg)
{
	struct sk_job *j = arg;
	struct sk_shared *sh = j->sh;
	struct sk_task *t = &sh->task[j->slot];
	size_t len = 1 << 20;
	char *buf = xmalloc(len);
	int fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	prctl(PR_SET_NAME, "lrb-presser");
	if (fd < 0) {
		free(buf);
		return failed(t, "open", j->path);
	}
	wait_go(sh);
	t->t_first = now_monotonic();
	while (!stopped(sh) && now_monotonic() < sh->t_end) {
		ssize_t r = read(fd, buf, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			free(buf);
			return failed(t, "read", j->path);
		}
		/* the end of the file: around again, every page a new charge once
		 * the first pass has been reclaimed */
		if (r == 0 && lseek(fd, 0, SEEK_SET) < 0) {
			close(fd);
			free(buf);
			return failed(t, "seek", j->path);
		}
		t->ops += (uint64_t)r;
	}
	t->t_last = now_monotonic();
	close(fd);
	free(buf);
	return 0;
}

void sk_umount_all(char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (paths[i])
			/* EINVAL (nothing mounted there) is the usual answer */
			while (!umount2(paths[i], MNT_DETACH))
				;
}

size_t sk_mounts_left(void)
{
	char *text = read_file_str("/proc/self/mountinfo", NULL);
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, " - tmpfs " SK_SOURCE " ")); p++)
		n++;
	free(text);
	return n;
}
