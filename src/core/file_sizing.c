// SPDX-License-Identifier: GPL-2.0-or-later
/* vm-scalability's ROTATE_BYTES for file_size = auto (file_sizing.h). */
#include "core/file_sizing.h"

#include <stdio.h>
#include <stdlib.h>
#include "core/numa.h"
#include "core/util.h"
#include "core/workload.h"

uint64_t rotate_bytes(uint64_t mem_available)
{
	/* << 8 overflows nothing below 2^34 bytes (16 GiB) of which the cap is 256x */
	if (mem_available >= ROTATE_BYTES_MAX >> 8)
		return ROTATE_BYTES_MAX;
	return mem_available << 8;
}

void file_size_auto(uint64_t mem_available, unsigned long long divisor, unsigned long long files,
		    uint64_t min_size, const char *rule, struct file_sizing *out)
{
	uint64_t size;

	if (!divisor)
		divisor = 1;
	out->rule = rule;
	out->mem_available = mem_available;
	out->rotate_bytes = rotate_bytes(mem_available);
	out->divisor = divisor;
	/* whole pages: the readers read 4 KiB blocks, the mappers whole pages */
	size = out->rotate_bytes / divisor / 4096 * 4096;
	out->file_size = size < min_size ? min_size : size;
	out->files = files;
}

uint64_t mem_available_now(void)
{
	char *text = read_file_str("/proc/meminfo", NULL);
	uint64_t v = text ? meminfo_value(text, "MemAvailable") : 0;

	free(text);
	return v;
}

json_object *file_sizing_json(const struct file_sizing *fs)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "rule", json_object_new_string(fs->rule ? fs->rule : ""));
	json_object_object_add(o, "formula", json_object_new_string(
		"ROTATE_BYTES = min(1 << 42, MemAvailable << 8); file_size = ROTATE_BYTES / divisor"));
	json_object_object_add(o, "mem_available", json_object_new_int64((int64_t)fs->mem_available));
	json_object_object_add(o, "rotate_bytes", json_object_new_int64((int64_t)fs->rotate_bytes));
	json_object_object_add(o, "divisor", json_object_new_int64((int64_t)fs->divisor));
	json_object_object_add(o, "file_size", json_object_new_int64((int64_t)fs->file_size));
	json_object_object_add(o, "files", json_object_new_int64((int64_t)fs->files));
	json_object_object_add(o, "total_bytes",
			       json_object_new_double((double)fs->file_size * (double)fs->files));
	return o;
}

void file_sizing_describe(const struct file_sizing *fs, char *buf, size_t len)
{
	char avail[32], rot[32], size[32];

	format_size(fs->mem_available, avail, sizeof(avail));
	format_size(fs->rotate_bytes, rot, sizeof(rot));
	format_size(fs->file_size, size, sizeof(size));
	snprintf(buf, len, "file_size = auto (%s): ROTATE_BYTES = min(4T, 256 x MemAvailable %s) = %s, "
		 "/ %llu = %s per file, %llu file%s", fs->rule ? fs->rule : "vm-scalability", avail, rot,
		 fs->divisor, size, fs->files, fs->files == 1 ? "" : "s");
}

uint64_t file_size_resolve(struct run_env *env, const char *workload, uint64_t value,
			   unsigned long long files, unsigned long long divisor, uint64_t min_size,
			   const char *rule)
{
	struct file_sizing fs;
	json_object *o;
	char line[256];

	if (value != LB_SIZE_AUTO) {
		o = json_object_new_object();
		json_object_object_add(o, "rule", json_object_new_string("fixed: file_size as configured"));
		json_object_object_add(o, "file_size", json_object_new_int64((int64_t)value));
		json_object_object_add(o, "files", json_object_new_int64((int64_t)files));
		env_fact(env, workload, "file_sizing", o);
		return value;
	}
	file_size_auto(mem_available_now(), divisor, files, min_size, rule, &fs);
	file_sizing_describe(&fs, line, sizeof(line));
	info("%s: %s", workload, line);
	env_fact(env, workload, "file_sizing", file_sizing_json(&fs));
	return fs.file_size;
}
