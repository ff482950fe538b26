/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's mounts (a tmpfs and a loop filesystem under the workdir) live
 * in a mount namespace of its own, made a recursive slave so that nothing
 * propagates back to the machine. In a chroot whose / is not a mount point
 * (build chroots, some containers) "/" cannot be made a slave (EINVAL): the
 * mount that holds the workdir is made one instead, when the chroot can
 * reach it; when the workdir lies on the unreachable root mount, the run is
 * refused before anything is created (exit 3) with what to do.
 */
#ifndef LRUBENCH_MOUNT_NS_H
#define LRUBENCH_MOUNT_NS_H

#include "core/util.h"

/* Can mount_ns_private(workdir) work here? 0, or -1 with the reason in err. */
int mount_ns_check(const char *workdir, struct strbuf *err);
/* unshare(CLONE_NEWNS) and keep every mount of the run from propagating. */
int mount_ns_private(const char *workdir);

/* Where the mount holding path is mounted, from mountinfo (a file of
 * /proc/self/mountinfo's format): the longest mount point that is path or
 * a folder above it; NULL (free it otherwise) when none is visible. */
char *mount_point_of(const char *mountinfo, const char *path);

#endif
