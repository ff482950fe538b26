// SPDX-License-Identifier: GPL-2.0-or-later
/* THP sysfs knobs: read, probe, set for the run and restore on every exit. */
#include "workloads/thpscale/thp_sysfs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const knob_names[] = { "enabled", "defrag" };


static const char *sysfs_root(void)
{
	const char *r = getenv("LRUBENCH_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

void thp_knob_path(enum thp_knob k, char *buf, size_t len)
{
	snprintf(buf, len, "%s/kernel/mm/transparent_hugepage/%s", sysfs_root(), knob_names[k]);
}

static int read_knob_text(enum thp_knob k, char **text, char *path, size_t plen)
{
	thp_knob_path(k, path, plen);
	*text = read_file_str(path, NULL);
	if (!*text)
		return error("cannot read %s: %s", path, strerror(errno));
	return 0;
}

int thp_knob_read(enum thp_knob k, char *mode, size_t len)
{
	char path[PATH_MAX], *text, *lb, *rb;
	const char *s;
	size_t n;

	if (read_knob_text(k, &text, path, sizeof(path)))
		return -1;
	lb = strchr(text, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		s = lb + 1;
		n = (size_t)(rb - s);
	} else {
		s = text + strspn(text, " \t\n");
		n = strcspn(s, " \t\n");
	}
	if (!n || n >= len) {
		free(text);
		return error("cannot parse %s: no selected mode", path);
	}
	memcpy(mode, s, n);
	mode[n] = '\0';
	free(text);
	return 0;
}

int thp_knob_offers(enum thp_knob k, const char *mode)
{
	char path[PATH_MAX], *text, *tok, *save = NULL;
	int found = 0;

	if (read_knob_text(k, &text, path, sizeof(path)))
		return -1;
	for (tok = strtok_r(text, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		size_t n = strlen(tok);
		if (tok[0] == '[' && n > 1 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, mode))
			found = 1;
	}
	free(text);
	return found;
}

int thp_probe(struct strbuf *why)
{
	char path[PATH_MAX];

	thp_knob_path(THP_ENABLED, path, sizeof(path));
	if (access(path, R_OK)) {
		strbuf_addf(why, "transparent huge pages are not available: cannot read %s (%s); "
			    "the kernel needs CONFIG_TRANSPARENT_HUGEPAGE", path, strerror(errno));
		return 1;
	}
	return 0;
}

const char *thp_knob_logical(enum thp_knob k)
{
	return k == THP_ENABLED ? "/sys/kernel/mm/transparent_hugepage/enabled"
				: "/sys/kernel/mm/transparent_hugepage/defrag";
}

int thp_knob_set(struct knob *s, enum thp_knob k, const char *mode, const char *workdir,
		 const char *origin)
{
	struct strbuf err = STRBUF_INIT;
	int r = 0;

	thp_knob_restore(s);
	if (knob_init(s, thp_knob_logical(k), mode, origin, &err) || knob_apply(s, workdir, &err))
		r = error("THP %s: %s", knob_names[k], strbuf_str(&err));
	strbuf_release(&err);
	return r;
}

void thp_knob_restore(struct knob *s)
{
	knob_restore(s);
}
