// SPDX-License-Identifier: GPL-2.0-or-later
/* Label folders and archives to a comparison (compare/load.h). */
#include "compare/load.h"

#include <stdlib.h>

#include "compare/baseline.h"
#include "compare/labels.h"
#include "core/latency_hist.h"

int comparison_load(char **dirs, size_t ndirs, const struct comparison_load_opts *o,
		    struct label_result **labels, size_t *nlabels, struct comparison *cmp,
		    struct strbuf *err)
{
	if (labels_collect(dirs, ndirs, o->names, labels, nlabels, err) ||
	    (o->baseline && labels_pick_baseline(labels, nlabels, o->baseline, err)))
		return -1;
	if (!*nlabels) {
		strbuf_addf(err, "no results in %s", dirs[0]);
		return -1;
	}
	if (o->needs_two && *nlabels < 2) {
		strbuf_addf(err, "only one label (%s in %s): %s", (*labels)[0].label,
			    (*labels)[0].dir, o->needs_two);
		return -1;
	}
	/* histograms in details (reclaim latency) that plot and report would draw */
	for (size_t l = 0; l < *nlabels; l++)
		for (size_t w = 0; w < (*labels)[l].nwls; w++) {
			char *file = xasprintf("%s/%s.json", (*labels)[l].dir, (*labels)[l].wls[w].workload);
			int r = lhist_check_details((*labels)[l].wls[w].details, file, err);

			free(file);
			if (r)
				return -1;
		}
	for (size_t l = 0; o->check_label && l < *nlabels; l++)
		if (o->check_label(&(*labels)[l], err))
			return -1;
	if (comparison_build(*labels, *nlabels, o->alpha, cmp, err))
		return -1;
	if (!cmp->nwls && !o->allow_no_workloads) {
		strbuf_addf(err, "no workload results (<workload>.json) in any of the %zu labels",
			    *nlabels);
		comparison_release(cmp);
		return -1;
	}
	return 0;
}
