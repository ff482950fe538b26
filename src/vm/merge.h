/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm_rounds > 1: kernel A, B, A, B, ... so drift (thermal, page cache of the
 * host, other tenants) hits both kernels alike. The first round of a kernel
 * writes results/<label>/ as usual; later rounds write to a staging folder
 * and are pooled here: every sample of a table/op is appended to the same
 * table/op of the label, details are appended with their "vm_round", logs go
 * to logs/round-N/.
 */
#ifndef LRUBENCH_VM_MERGE_H
#define LRUBENCH_VM_MERGE_H

#include <json-c/json.h>
#include "core/util.h"

/* Pool the samples of src (a parsed <workload>.json) into dst. */
int vm_merge_samples(json_object *dst, json_object *src, int round, struct strbuf *err);
/* Pool the label folder src_dir (a later round) into dst_dir. */
int vm_merge_label(const char *dst_dir, const char *src_dir, int round, struct strbuf *err);
/* Load dir/run.json, let fn change it, write it back atomically. */
int vm_update_run_json(const char *dir, void (*fn)(json_object *run, void *arg), void *arg,
		       struct strbuf *err);

#endif
