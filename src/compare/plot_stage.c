// SPDX-License-Identifier: GPL-2.0-or-later
/* plot's staging folder (plot_stage.h). */
#include "compare/plot_stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/tmpdir.h"
#include "core/util.h"

int plot_stage_open(struct plot_stage *st, const char *outdir)
{
	struct strbuf err = STRBUF_INIT;

	st->outdir = outdir;
	st->tmp = NULL;
	st->dir = NULL;
	st->outfd = open_output_dir(outdir, &err);
	if (st->outfd < 0) {
		int r = st->outfd;

		error("%s", err.buf);
		strbuf_release(&err);
		st->outdir = NULL;
		return r == OUTPUT_DIR_REFUSED ? OUTPUT_DIR_REFUSED : -1;
	}
	st->tmp = xcalloc(1, sizeof(*st->tmp));
	if (tmpdir_create(st->tmp, outdir, ".lrubench-plot.", NULL)) {
		plot_stage_abort(st);
		return -1;
	}
	st->dir = st->tmp->path;
	if (!output_dir_holds(st->outfd, st->dir)) {
		error("%s changed while it was being used (a link put in its place?): nothing "
		      "written", outdir);
		plot_stage_abort(st);
		return -1;
	}
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
		struct stat to;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* into the folder opened, replacing only a regular file: a
		 * symlink, device or folder planted in OUTDIR is refused, never
		 * written through (util.h output_target_kind's rule) */
		if (!fstatat(st->outfd, de->d_name, &to, AT_SYMLINK_NOFOLLOW) &&
		    !S_ISREG(to.st_mode))
			ret = error("%s/%s is %s: plot replaces only a regular file", st->outdir,
				    de->d_name, S_ISLNK(to.st_mode) ? "a symbolic link" :
				    S_ISDIR(to.st_mode) ? "a folder" : "a device or a FIFO");
		else if (renameat(dirfd(d), de->d_name, st->outfd, de->d_name))
			ret = error_errno("cannot create %s/%s", st->outdir, de->d_name);
	}
	closedir(d);
	plot_stage_abort(st);
	return ret;
}

void plot_stage_abort(struct plot_stage *st)
{
	if (st->tmp) {
		tmpdir_remove(st->tmp);
		free(st->tmp);
	}
	st->tmp = NULL;
	st->dir = NULL;
	/* outdir says outfd is open: a struct zeroed by its user holds fd 0 */
	if (st->outdir && st->outfd >= 0)
		close(st->outfd);
	st->outdir = NULL;
	st->outfd = -1;
}
