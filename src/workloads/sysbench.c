// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real workload. */
#include "workload.h"

static const struct option_def sysbench_options[] = { OPT_END };
static const struct table_def sysbench_tables[] = { { NULL, NULL, 0 } };

static int sysbench_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	strbuf_addstr(why, "not built yet");
	return 1;
}

const struct workload_ops sysbench_ops = {
	.name = "sysbench",
	.summary = "(not built yet)",
	.options = sysbench_options,
	.opts_size = 0,
	.tables = sysbench_tables,
	.probe = sysbench_probe,
};
