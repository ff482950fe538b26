// SPDX-License-Identifier: GPL-2.0-or-later
/* The workloads lrubench knows, in the order `list` and `-w all` use. */
#include <string.h>
#include "core/workload.h"

extern const struct workload_ops readtwice_ops, thpscale_ops, sysbench_ops, kernbench_ops,
	mmapread_ops, colocate_ops, faultscale_ops, shrinkers_ops, useonce_ops;

const struct workload_ops *const workloads[] = {
	&readtwice_ops,
	&thpscale_ops,
	&kernbench_ops,
	&sysbench_ops,
	&mmapread_ops,
	&colocate_ops,
	&faultscale_ops,
	&shrinkers_ops,
	&useonce_ops,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
