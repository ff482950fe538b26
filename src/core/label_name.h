/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a label may be called: the one rule for `run --label`, the VM mode's
 * --label-a/--label-b (and the kernel releases that are their defaults) and
 * the label folders `compare` and `plot` find inside a results folder.
 *
 * A label is 1 to LABEL_NAME_MAX characters from A-Z a-z 0-9 . _ + -, and
 * does not start with '.' or '-'. It is a folder name (results/<label>/),
 * so no '/'; a leading '.' would make a hidden folder, which compare skips
 * like .git; a leading '-' reads as an option; ',' separates --names; every
 * kernel release (6.8.0-rc2+, 5.15.0-91-generic) fits.
 */
#ifndef LRUBENCH_LABEL_NAME_H
#define LRUBENCH_LABEL_NAME_H

#include "core/util.h"

#define LABEL_NAME_MAX 200

/* 0 when name is a label; otherwise -1 with the reason and the rule
 * appended to err: "label '.x' starts with '.': a label is 1 to 200 ...". */
int label_name_check(const char *name, struct strbuf *err);

#endif
