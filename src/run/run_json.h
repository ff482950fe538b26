/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The label's run.json as the run loop keeps it (docs/ARCHITECTURE.md §8). */
#ifndef LRUBENCH_RUN_JSON_H
#define LRUBENCH_RUN_JSON_H

#include "run/run_state.h"

/* A new document: label, status "interrupted" until written, system,
 * binding, config, workloads. */
json_object *run_json_new(struct run_state *rs);
/* Save it with status ("running", "complete", "interrupted", "failed")
 * and what the run gathered so far. 0, or -1 with a message. */
int run_json_write(struct run_state *rs, const char *status);

#endif
