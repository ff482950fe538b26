// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real workload. */
#include "workload.h"

static const struct option_def readtwice_options[] = { OPT_END };
static const struct table_def readtwice_tables[] = { { NULL, NULL, 0 } };

static int readtwice_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	strbuf_addstr(why, "not built yet");
	return 1;
}

const struct workload_ops readtwice_ops = {
	.name = "readtwice",
	.summary = "(not built yet)",
	.options = readtwice_options,
	.opts_size = 0,
	.tables = readtwice_tables,
	.probe = readtwice_probe,
};
