/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A parallel for-loop: the one thread pool of the code base (compare loads
 * labels and computes cells with it). No shared state beyond what fn
 * touches: give each index its own output slot and the result does not
 * depend on the number of threads or the order they run in.
 */
#ifndef LRUBENCH_PARALLEL_H
#define LRUBENCH_PARALLEL_H

#include <stddef.h>

/* More threads than this buy nothing for compare's work (JSON parsing and
 * statistics of independent items), and cost their start-up. */
#define PARALLEL_MAX_THREADS 16

/*
 * Call fn(arg, i) once for every i < n and return when all calls have
 * returned. The calls run on min(n, online CPUs, PARALLEL_MAX_THREADS)
 * threads, the calling thread among them; with one thread (n < 2, or one
 * CPU) it is a plain loop on the calling thread. Indices are handed out in
 * increasing order, one at a time, so uneven items balance themselves. A
 * thread that cannot be created is no error: the others do its share.
 */
void parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg);

#endif
