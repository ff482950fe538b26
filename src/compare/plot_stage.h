/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot makes every file (.dat, .gp, index.md, the figures gnuplot writes in
 * pieces) in a fresh staging folder inside -o and renames each into place
 * at the end. So an interrupted plot leaves no partial figure (the staging
 * folder goes, from the cleanup registry on a second signal too), and
 * gnuplot never opens a path in -o: a symlink, device or folder planted
 * there is refused at the rename (core/util.h output_target_kind), never
 * written through or replaced. trend -o uses it the same way. The folder is
 * a core/tmpdir.h one (OUTDIR/.lrubench-plot.<pid>-XXXXXX): private, in the
 * cleanup registry, and one a SIGKILLed plot left is removed by the next.
 *
 * OUTDIR itself is opened by descriptor (core/util.h open_output_dir,
 * O_DIRECTORY|O_NOFOLLOW; issue 30, 22): a symlink given or planted as
 * OUTDIR is refused, and the files are renamed into the folder opened
 * (renameat), whatever its path leads to by then.
 */
#ifndef LRUBENCH_PLOT_STAGE_H
#define LRUBENCH_PLOT_STAGE_H

struct tmpdir;

struct plot_stage {
	char *dir;        /* the staging folder's path; NULL when there is none */
	const char *outdir;
	int outfd;        /* OUTDIR, opened; only while outdir is set */
	struct tmpdir *tmp;
};

/* Open OUTDIR and create the staging folder in it; -1 with a message,
 * OUTPUT_DIR_REFUSED (core/util.h; also printed) when OUTDIR is a symlink or
 * not a folder: a usage error. */
int plot_stage_open(struct plot_stage *st, const char *outdir);
/* Rename every file of the staging folder into OUTDIR, then remove it. */
int plot_stage_publish(struct plot_stage *st);
/* Remove the staging folder and everything in it (interrupted, failed). */
void plot_stage_abort(struct plot_stage *st);

#endif
