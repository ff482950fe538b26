// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgs = 0 without a memory controller (memcg_optional.h). */
#include "core/memcg_optional.h"

enum wl_status memcgs_without_controller(const struct ull_list *memcgs, const char *workload,
					 struct strbuf *why)
{
	for (size_t i = 0; i < memcgs->n; i++) {
		if (!memcgs->v[i])
			continue;
		strbuf_addf(why, "no memory cgroup controller is mounted (cgroup v2 with memory in "
			    "cgroup.controllers, or a v1 memory hierarchy): %s.memcgs = %llu needs one; "
			    "memcgs = 0 runs without it, in no memcg", workload, memcgs->v[i]);
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}
