/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which lrubench made a result: the version, and the git tree it was built from. */
#ifndef LRUBENCH_VERSION_H
#define LRUBENCH_VERSION_H

/* `git describe --always --dirty --tags` of the source tree at build time
 * ("v0.1.0-12-gabc1234-dirty"), or "" when it was not built from git. */
const char *lrubench_git_describe(void);

#endif
