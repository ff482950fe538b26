// SPDX-License-Identifier: GPL-2.0-or-later
/* Label folders and archives to a comparison (compare/load.h). */
#include "compare/load.h"

#include "compare/baseline.h"
#include "compare/labels.h"

int comparison_load(char **dirs, size_t ndirs, const char *names, const char *baseline,
		    double alpha, const char *needs_two, struct label_result **labels,
		    size_t *nlabels, struct comparison *cmp, struct strbuf *err)
{
	if (labels_collect(dirs, ndirs, names, labels, nlabels, err) ||
	    (baseline && labels_pick_baseline(labels, nlabels, baseline, err)))
		return -1;
	if (*nlabels < 2) {
		strbuf_addf(err, "only one label (%s in %s): %s", (*labels)[0].label,
			    (*labels)[0].dir, needs_two);
		return -1;
	}
	if (comparison_build(*labels, *nlabels, alpha, cmp, err))
		return -1;
	if (!cmp->nwls) {
		strbuf_addf(err, "no workload results (<workload>.json) in any of the %zu labels",
			    *nlabels);
		comparison_release(cmp);
		return -1;
	}
	return 0;
}
