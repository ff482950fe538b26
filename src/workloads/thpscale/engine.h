/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thpscale's measuring engine: what runs inside one instance process (its
 * memcg, its NUMA node), with one thread per `threads`, and the shared
 * memory the results come back through.
 *
 * The parent maps a struct thp_shared (MAP_SHARED | MAP_ANONYMOUS) before it
 * forks the instances; every thread of every instance writes its own slice
 * (latencies and kinds of its faults, init times, errors), so nothing is
 * copied or parsed afterwards. All threads of all instances meet at one
 * process-shared barrier (a futex in that memory) before the timed phase,
 * so the instances fault concurrently; the parent can break the barrier
 * (abort) when an instance dies or a stop is requested.
 */
#ifndef LRUBENCH_THPSCALE_ENGINE_H
#define LRUBENCH_THPSCALE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include "workloads/thpscale/layout.h"

struct thp_thread_result {
	double anon_init_us;    /* map + fill + punch the first region */
	double file_init_us;    /* read-fault the file span */
	uint64_t faults;        /* faults made (= timed samples) */
	int failed;
	char msg[200];
};

struct thp_shared {
	uint32_t arrived;       /* barrier futex word */
	uint32_t abort;         /* set by anyone: stop at the next check */
	uint32_t waiting_for;   /* threads that must reach the barrier */
	unsigned instances, threads;
	uint64_t nr_faults;     /* per thread */
	size_t map_len;         /* of this whole mapping */
	struct thp_thread_result *res;  /* [instances * threads] */
	double *lat_us;                 /* [instances * threads * nr_faults] */
	unsigned char *kind;            /* same index; enum thp_kind */
};

/* Map and zero the shared region (touched here, so charged to the parent). */
struct thp_shared *thp_shared_create(unsigned instances, unsigned threads, uint64_t nr_faults);
void thp_shared_destroy(struct thp_shared *sh);
/* Break the barrier and stop the fault loops (safe from any process). */
void thp_shared_abort(struct thp_shared *sh);
/* Index of fault f of (instance, thread) in lat_us[] / kind[]. */
static inline size_t thp_fault_index(const struct thp_shared *sh, unsigned inst,
				     unsigned thread, uint64_t f)
{
	return ((size_t)inst * sh->threads + thread) * sh->nr_faults + f;
}

/* What one instance process runs. */
struct thp_instance {
	struct thp_shared *sh;
	const struct thp_layout *layout;
	unsigned index;          /* instance number: its slice and file region */
	const char *file;        /* the data file */
	bool madvise;            /* MADV_HUGEPAGE on the second region */
};
/* Runs the instance's threads to the end; 0 when every thread completed,
 * 1 otherwise (messages in the thread results). The struct child fn. */
int thp_instance_main(void *arg);

/* Write the data file: size bytes of non-zero data, fsync'ed, then dropped
 * from the page cache so the instances fault it in (and are charged for it).
 * Checks lb_stop_requested(). 0 or -1 with a message. */
int thp_write_data_file(const char *path, uint64_t size);

#endif
