/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the shrinkers workload's children do (lrubench-shrinkers(7)), each a
 * fork-only child (struct child .fn) in a memcg of the set:
 *   settler   mounts its memcg's tmpfs and writes a few files there, so the
 *             superblock's shrinker and its dentries and inodes belong to
 *             that memcg, then exits (the mount stays: the run's namespace)
 *   mounter   mounts and unmounts a tmpfs of its own in a loop until the
 *             end time, timing each mount(2) and umount(2) into histograms
 *             (core/lat_hist.h): each mount registers a memcg-aware
 *             shrinker, each umount unregisters it
 *   presser   streams a sparse file through the page cache until the end
 *             time, so the parent memcg sits at its limit and its reclaim
 *             walks every child memcg's shrinkers
 * Each names itself (lrb-settler, lrb-mounter, lrb-presser: ps and the
 * tests tell them apart). The results live in one shared mapping (struct sk_shared), read by
 * lrubench after the children are reaped. Mounters and pressers wait at a
 * start flag so all of them run for the same window.
 */
#ifndef LRUBENCH_SHRINKERS_MOUNT_LOOP_H
#define LRUBENCH_SHRINKERS_MOUNT_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include "core/lat_hist.h"

/* what every mount of the workload shows as its source in mountinfo */
#define SK_SOURCE "lrubench-shrinkers"

struct sk_task {
	uint64_t ops;              /* mounter: mount+umount pairs; presser: bytes read */
	double t_first, t_last;    /* monotonic seconds: first op began, last one ended */
	char msg[200];             /* why it failed ("" when it did not) */
};

/* A mounter's two histograms (ns). */
struct sk_hists {
	struct lat_hist mount, umount;
};

struct sk_shared {
	int go;                    /* the start flag (atomic) */
	int stop;                  /* end now (atomic): the set is being stopped */
	double t_end;              /* monotonic seconds: mounters and pressers stop here */
	size_t n, nhists;
	struct sk_hists *hist;     /* nhists, after the tasks in the same mapping */
	struct sk_task task[];     /* n */
};

/* One child's job: shared slot, its folder or file, what to write. */
struct sk_job {
	struct sk_shared *sh;
	size_t slot;
	const char *path;          /* settler/mounter: the mount point; presser: the file */
	unsigned files;            /* settler: files to write */
	uint64_t file_size;        /* settler: bytes each */
	uint64_t tmpfs_size;       /* settler: the tmpfs's size= */
};

/* A shared area of n tasks, the first nhists of them with histograms (mmap,
 * zeroed); NULL with a message. */
struct sk_shared *sk_shared_create(size_t n, size_t nhists);
void sk_shared_destroy(struct sk_shared *sh);
/* Let the waiting children go, and end at now + seconds. */
void sk_shared_start(struct sk_shared *sh, double seconds);
/* Make every child end at once (the set is stopping). */
void sk_shared_abort(struct sk_shared *sh);

/* The three children (struct child .fn, arg a struct sk_job): 0 or 1 with
 * the reason in the slot's msg. */
int sk_settler_main(void *arg);
int sk_mounter_main(void *arg);
int sk_presser_main(void *arg);

/* Detach whatever is mounted on each of paths (n; NULL entries skipped);
 * async-signal-safe (the cleanup registry may call it from a handler). */
void sk_umount_all(char *const *paths, size_t n);
/* Mounts of ours (source SK_SOURCE) still in this process's mountinfo. */
size_t sk_mounts_left(void);

#endif
