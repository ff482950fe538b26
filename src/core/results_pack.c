// SPDX-License-Identifier: GPL-2.0-or-later
/* Packing label folders into a results archive (results_pack.h). */
#include "core/results_pack.h"

#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "core/cleanup.h"
#include "core/net_client.h"
#include "core/results.h"

static const char *run_status(const struct label_result *l)
{
	json_object *v;

	if (json_object_object_get_ex(l->run, "status", &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "(none)";
}

int results_pack_check(const struct strlist *dirs, struct strlist *names)
{
	struct strbuf err = STRBUF_INIT;
	struct label_result *labels = xcalloc(dirs->n ? dirs->n : 1, sizeof(*labels));
	size_t loaded = 0;
	int ret = LB_EXIT_USAGE;

	for (; loaded < dirs->n; loaded++) {
		struct label_result *l = &labels[loaded];

		if (label_result_load(dirs->v[loaded], l, &err)) {
			error("%s (pack keeps only results that compare can read)", err.buf);
			goto out;
		}
		if (strlist_has(names, l->label)) {
			error("label '%s' is in two of the folders given (%s is one): an archive "
			      "holds a label once", l->label, l->dir);
			label_result_release(l);
			goto out;
		}
		if (strcmp(run_status(l), "complete"))
			warning("%s: run.json says status '%s', not 'complete'; packed as it is",
				dirs->v[loaded], run_status(l));
		strlist_push(names, l->label);
	}
	ret = 0;
out:
	for (size_t i = 0; i < loaded; i++)
		label_result_release(&labels[i]);
	free(labels);
	strbuf_release(&err);
	return ret;
}

int results_pack_write(const struct strlist *dirs, const struct strlist *names,
		       const char *out, enum ra_compress c, bool force)
{
	struct pack_result res;
	char *helper = net_helper_path();
	int r;

	if (!helper)
		return LB_EXIT_UNSUPPORTED;
	free(helper);
	r = net_pack(out, ra_compress_name(c), force, names, dirs, &res);
	if (r)
		return r == NET_INTERRUPTED || lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
	info("packed %zu label%s (%zu files, %.1f KiB) into %s (%.1f KiB, %s)", names->n,
	     names->n == 1 ? "" : "s", res.files, (double)res.bytes_in / 1024.0, out,
	     (double)res.bytes_out / 1024.0, ra_compress_name(c));
	return LB_EXIT_OK;
}

int results_pack_label(const char *dir, const char *outdir, char **out)
{
	struct strlist dirs = STRLIST_INIT, names = STRLIST_INIT;
	int ret;

	*out = NULL;
	strlist_push(&dirs, dir);
	ret = results_pack_check(&dirs, &names);
	if (!ret) {
		*out = xasprintf("%s/%s%s", outdir, names.v[0], ra_compress_suffix(RA_ZSTD));
		ret = results_pack_write(&dirs, &names, *out, RA_ZSTD, false);
	}
	strlist_release(&dirs);
	strlist_release(&names);
	return ret;
}

