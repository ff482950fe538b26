// SPDX-License-Identifier: GPL-2.0-or-later
/* plot's staging folder (plot_stage.h). */
#include "compare/plot_stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/tmpdir.h"
#include "core/util.h"

int plot_stage_open(struct plot_stage *st, const char *outdir)
{
	st->outdir = outdir;
	st->tmp = xcalloc(1, sizeof(*st->tmp));
	if (tmpdir_create(st->tmp, outdir, ".lrubench-plot.", NULL)) {
		free(st->tmp);
		st->tmp = NULL;
		st->dir = NULL;
		return -1;
	}
	st->dir = st->tmp->path;
	return 0;
}

int plot_stage_publish(struct plot_stage *st)
{
	DIR *d = opendir(st->dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return error_errno("cannot read %s", st->dir);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* replaces only a regular file: a symlink, device or folder
		 * planted in OUTDIR is refused, never written through (util.h) */
		char *to = xasprintf("%s/%s", st->outdir, de->d_name);
		struct strbuf why = STRBUF_INIT;
		enum output_kind kind;
		int fd;

		if (output_target_kind(to, &kind, &fd, &why))
			ret = error("%s", why.buf);
		else if (kind != OUTPUT_REPLACE)
			ret = error("%s is a device or a FIFO: plot replaces only a regular file", to);
		else if (renameat(dirfd(d), de->d_name, AT_FDCWD, to))
			ret = error_errno("cannot create %s", to);
		strbuf_release(&why);
		free(to);
	}
	closedir(d);
	plot_stage_abort(st);
	return ret;
}

void plot_stage_abort(struct plot_stage *st)
{
	if (!st->tmp)
		return;
	tmpdir_remove(st->tmp);
	free(st->tmp);
	st->tmp = NULL;
	st->dir = NULL;
}
