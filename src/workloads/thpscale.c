// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real workload. */
#include "workload.h"

static const struct option_def thpscale_options[] = { OPT_END };
static const struct table_def thpscale_tables[] = { { NULL, NULL, 0 } };

static int thpscale_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	strbuf_addstr(why, "not built yet");
	return 1;
}

const struct workload_ops thpscale_ops = {
	.name = "thpscale",
	.summary = "(not built yet)",
	.options = thpscale_options,
	.opts_size = 0,
	.tables = thpscale_tables,
	.probe = thpscale_probe,
};
