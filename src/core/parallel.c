// SPDX-License-Identifier: GPL-2.0-or-later
/* parallel_for (parallel.h): an atomic counter hands out the indices. */
#include "core/parallel.h"

#include <pthread.h>
#include <unistd.h>
#include "core/util.h"

struct loop {
	void (*fn)(void *arg, size_t i);
	void *arg;
	size_t n;
	size_t next;   /* atomic: the next index to hand out */
};

static void *worker(void *p)
{
	struct loop *l = p;
	size_t i;

	while ((i = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED)) < l->n)
		l->fn(l->arg, i);
	return NULL;
}

void parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg)
{
	struct loop l = { fn, arg, n, 0 };
	pthread_t helpers[PARALLEL_MAX_THREADS - 1];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t threads = cpus > 1 ? (size_t)cpus : 1, started = 0;

	if (threads > PARALLEL_MAX_THREADS)
		threads = PARALLEL_MAX_THREADS;
	if (threads > n)
		threads = n;
	for (size_t t = 1; t < threads; t++)
		if (!pthread_create(&helpers[started], NULL, worker, &l))
			started++;
	worker(&l);
	for (size_t t = 0; t < started; t++)
		pthread_join(helpers[t], NULL);
}
