// SPDX-License-Identifier: GPL-2.0-or-later
/* The readers' part of readtwice's details (reader_report.h). */
#include "workloads/readtwice/reader_report.h"

#include "core/memcg_optional.h"

void rt_add_reader_details(json_object *d, const struct round_slot *r, size_t nreaders,
			   uint64_t file_size, int reader_mode, bool no_controller)
{
	json_object *mbps = json_object_new_array(), *bytes = json_object_new_array();
	json_object *secs = json_object_new_array();
	size_t whole = 0;

	for (size_t i = 0; i < nreaders; i++) {
		json_object_array_add(mbps, json_object_new_double(round_mbps(r[i].bytes, r[i].elapsed)));
		json_object_array_add(bytes, json_object_new_int64((int64_t)r[i].bytes));
		json_object_array_add(secs, json_object_new_double(r[i].elapsed));
		if (file_size && r[i].bytes >= file_size)
			whole++;
	}
	json_object_object_add(d, "reader", json_object_new_string(reader_mode == RT_READER_DD ?
								   "dd" : "native"));
	json_object_object_add(d, "reader_mbps", mbps);
	/* what dd prints: "N bytes copied, T s" */
	json_object_object_add(d, "reader_bytes", bytes);
	json_object_object_add(d, "reader_seconds", secs);
	/* readers that reached end of file: a wrap (native) or a dd that ended early */
	json_object_object_add(d, "readers_reached_eof", json_object_new_int64((int64_t)whole));
	if (no_controller)
		json_object_object_add(d, "memory_controller", json_object_new_string(NO_MEMCG_NOTE));
}
