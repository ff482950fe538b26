// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real workload. */
#include "workload.h"

static const struct option_def kernbench_options[] = { OPT_END };
static const struct table_def kernbench_tables[] = { { NULL, NULL, 0 } };

static int kernbench_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	strbuf_addstr(why, "not built yet");
	return 1;
}

const struct workload_ops kernbench_ops = {
	.name = "kernbench",
	.summary = "(not built yet)",
	.options = kernbench_options,
	.opts_size = 0,
	.tables = kernbench_tables,
	.probe = kernbench_probe,
};
