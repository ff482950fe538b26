/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an iteration's details say about its readers: which reader ran
 * (native or dd), each reader's own MB/s, bytes and seconds (what dd prints), how many read the
 * whole file (wrapped, or stopped at end of file with reader = dd: the
 * posted 4 TiB files never got there) and, with no memory controller, that
 * the per-memcg numbers are absent and why.
 */
#ifndef LRUBENCH_READTWICE_READER_REPORT_H
#define LRUBENCH_READTWICE_READER_REPORT_H

#include <stdbool.h>
#include <json-c/json.h>
#include "workloads/readtwice/readers.h"

void rt_add_reader_details(json_object *d, const struct round_slot *r, size_t nreaders,
			   uint64_t file_size, int reader_mode, bool no_controller);

#endif
