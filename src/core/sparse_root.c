// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sparse root (see sparse_root.h): a real filesystem whose sparse files
 * read as clean page cache with no block I/O, the way vm-scalability does it.
 *
 *   <workdir>/tmpfs                 private tmpfs, holds only the image
 *   <workdir>/tmpfs/lrubench-P.img  sparse image of `size` bytes
 *   /dev/loopN                      over the image, LO_FLAGS_AUTOCLEAR
 *   <workdir>/mnt                   ext4 or xfs on the loop device
 *
 * Each step is pushed on the cleanup registry as soon as it exists; the undo
 * functions only use fixed buffers in struct sparse_root and system calls,
 * so a second SIGINT can run them. We hold the loop device open until
 * teardown: it cannot be handed to someone else meanwhile, and if we are
 * SIGKILLed the last close detaches it (autoclear). Mounts do not survive a
 * SIGKILL that way; a private mount namespace (unshare(CLONE_NEWNS) in the
 * caller) would make them.
 */
#include "core/sparse_root.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/path.h"
#include "core/util.h"

enum sr_kind { SR_DIR, SR_EXT4, SR_XFS };

struct sparse_root {
	enum sr_kind kind;
	char workdir[PATH_MAX];
	char tmpfs[PATH_MAX];
	char img[PATH_MAX];
	char mnt[PATH_MAX];
	char dir[PATH_MAX];      /* what the caller uses */
	char dev[32];            /* /dev/loopN */
	int loop_fd;
	/* cleanup handles, in creation order */
	int id_workdir, id_tmpfs_dir, id_tmpfs_mount, id_loop, id_mnt_dir, id_mnt_mount;
	bool torn_down;
	struct sparse_root *next;   /* every root stays reachable: teardown is idempotent */
};

static struct sparse_root *all_roots;

static const char *const mkfs_tool[] = { [SR_EXT4] = "mkfs.ext4", [SR_XFS] = "mkfs.xfs" };
static const char *const mkfs_pkg[] = { [SR_EXT4] = "e2fsprogs", [SR_XFS] = "xfsprogs" };
static const char *const fs_type[] = { [SR_EXT4] = "ext4", [SR_XFS] = "xfs" };

int sparse_root_check_spec(const char *spec, struct strbuf *err)
{
	if (!spec)
		spec = "";
	if (!strcmp(spec, "loop-ext4") || !strcmp(spec, "loop-xfs"))
		return 0;
	if (!strncmp(spec, "dir:", 4)) {
		if (spec[4] != '/') {
			strbuf_addf(err, "sparse_root=%s: the folder after dir: must be an absolute path", spec);
			return -1;
		}
		return 0;
	}
	strbuf_addf(err, "sparse_root=%s: expected loop-ext4, loop-xfs or dir:/path", spec);
	return -1;
}

/* ---- undo actions (async-signal-safe) ---- */

static void undo_rmdir_workdir(void *arg)
{
	struct sparse_root *sr = arg;

	rmdir(sr->workdir);
}

static void undo_rmdir_tmpfs(void *arg)
{
	struct sparse_root *sr = arg;

	rmdir(sr->tmpfs);
}

static void undo_rmdir_mnt(void *arg)
{
	struct sparse_root *sr = arg;

	rmdir(sr->mnt);
}

/* Unmount; if something still holds it (a straggler), detach it lazily so it
 * leaves the mount table now and is released when the last user goes. */
static void unmount_path(const char *path)
{
	for (int i = 0; i < 50; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (!umount2(path, UMOUNT_NOFOLLOW) || errno == EINVAL || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) && errno != EINVAL && errno != ENOENT)
		cleanup_msg("cannot unmount ", path);
}

static void undo_mount_tmpfs(void *arg)
{
	struct sparse_root *sr = arg;

	unmount_path(sr->tmpfs);
}

static void undo_mount_mnt(void *arg)
{
	struct sparse_root *sr = arg;

	unmount_path(sr->mnt);
}

static void undo_loop(void *arg)
{
	struct sparse_root *sr = arg;

	if (sr->loop_fd >= 0) {
		/* with other openers left this only sets autoclear; fine */
		ioctl(sr->loop_fd, LOOP_CLR_FD, 0);
		close(sr->loop_fd);
		sr->loop_fd = -1;
	}
}

/* ---- setup steps ---- */

static int set_path(char *buf, const char *a, const char *b)
{
	int n = snprintf(buf, PATH_MAX, "%s%s%s", a, b ? "/" : "", b ? b : "");

	if (n < 0 || n >= PATH_MAX)
		return error("path too long: %s/%s", a, b ? b : "");
	return 0;
}

/* mkdir that registers an rmdir; an existing empty folder is used as is. */
static int make_dir(const char *path, int *id, cleanup_fn undo, struct sparse_root *sr)
{
	if (mkdir(path, 0700)) {
		if (errno != EEXIST)
			return error_errno("cannot create folder %s", path);
		if (!is_dir(path))
			return error("%s exists and is not a folder", path);
		return 0;   /* not ours: leave it in place */
	}
	*id = cleanup_push(path, undo, sr);
	return *id < 0 ? -1 : 0;
}

/* WL_OK; WL_UNSUPPORTED without loop devices; WL_FAILED (printed). */
static enum wl_status attach_loop(struct sparse_root *sr)
{
	int ctl, img_fd = -1;
	enum wl_status ret = WL_FAILED;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		error_errno("loop devices are not available: cannot open /dev/loop-control "
			    "(is the loop module loaded? modprobe loop)");
		return WL_UNSUPPORTED;
	}
	img_fd = open(sr->img, O_RDWR | O_CLOEXEC);
	if (img_fd < 0) {
		error_errno("cannot open %s", sr->img);
		goto out;
	}
	/* another process may grab the same free device between the calls: retry */
	for (int tries = 0; tries < 20; tries++) {
		struct loop_config cfg;
		struct loop_info64 info;
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int fd;

		if (n < 0) {
			error_errno("cannot get a free loop device from /dev/loop-control");
			goto out;
		}
		snprintf(sr->dev, sizeof(sr->dev), "/dev/loop%d", n);
		fd = open(sr->dev, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT || errno == ENXIO)
				continue;
			error_errno("cannot open %s", sr->dev);
			goto out;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)img_fd;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "lrubench-%d", (int)getpid());
		if (!ioctl(fd, LOOP_CONFIGURE, &cfg)) {
			sr->loop_fd = fd;
			break;
		}
		if (errno == EINVAL || errno == ENOTTY) {
			/* before 5.8: two steps */
			if (!ioctl(fd, LOOP_SET_FD, img_fd)) {
				memset(&info, 0, sizeof(info));
				info.lo_flags = LO_FLAGS_AUTOCLEAR;
				memcpy(info.lo_file_name, cfg.info.lo_file_name, LO_NAME_SIZE);
				if (ioctl(fd, LOOP_SET_STATUS64, &info)) {
					error_errno("cannot configure %s", sr->dev);
					ioctl(fd, LOOP_CLR_FD, 0);
					close(fd);
					goto out;
				}
				sr->loop_fd = fd;
				break;
			}
		}
		close(fd);
		if (errno != EBUSY) {
			error_errno("cannot attach %s to %s", sr->img, sr->dev);
			goto out;
		}
	}
	if (sr->loop_fd < 0) {
		error("cannot attach %s: every free loop device was taken by others", sr->img);
		goto out;
	}
	sr->id_loop = cleanup_push(sr->dev, undo_loop, sr);
	ret = sr->id_loop < 0 ? WL_FAILED : WL_OK;
out:
	if (img_fd >= 0)
		close(img_fd);   /* the loop device keeps its own reference */
	close(ctl);
	return ret;
}

/*
 * The image's holes already read as zeros, so nothing needs zeroing: no
 * discard, lazy inode table and journal init, and the ext4 mount option
 * noinit_itable keeps the kernel's lazyinit thread from writing zeroed inode
 * tables into tmpfs (shmem) in the background while we measure. A 20G image
 * then costs a few MB of tmpfs instead of ~450 MB.
 */
static int run_mkfs(struct sparse_root *sr, const char *tool)
{
	char log[PATH_MAX];
	const char *ext4[] = { tool, "-q", "-F", "-E", "nodiscard,lazy_itable_init=1,lazy_journal_init=1", sr->dev, NULL };
	const char *xfs[] = { tool, "-q", "-f", "-K", sr->dev, NULL };
	struct child c = { .argv = sr->kind == SR_EXT4 ? ext4 : xfs, .out_path = log };
	int code;

	if (set_path(log, sr->tmpfs, "mkfs.log"))
		return -1;
	code = child_run(&c, 600);
	if (code == 0)
		return 0;
	if (code > 0)   /* the log is in our tmpfs, gone after cleanup: its tail is all there is */
		child_failed(code, log, "%s %s", mkfs_tool[sr->kind], sr->dev);
	return -1;
}

static int setup_dir(struct sparse_root *sr, const char *path)
{
	struct statfs sfs;

	if (statfs(path, &sfs))
		return error_errno("sparse_root=dir:%s: cannot use %s", path, path);
	if (!is_dir(path))
		return error("sparse_root=dir:%s: %s is not a folder", path, path);
	if (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC)
		return error("sparse_root=dir:%s: %s is %s, which would measure shmem instead of "
			     "a filesystem's page cache; use a folder on a disk filesystem or loop-ext4",
			     path, path, sfs.f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs");
	if (access(path, W_OK | X_OK))
		return error_errno("sparse_root=dir:%s: cannot write to %s", path, path);
	return set_path(sr->dir, path, NULL);
}

/* WL_OK; WL_UNSUPPORTED when a tool or loop devices are missing;
 * WL_FAILED (printed). */
static enum wl_status setup_loop(struct sparse_root *sr, const char *workdir, uint64_t size)
{
	const char *tool_name = mkfs_tool[sr->kind];
	char *tool = find_in_path(tool_name), opts[64];
	uint64_t tmpfs_size;
	enum wl_status st;
	int fd, r;

	if (!tool) {
		error("%s not found: install the Debian package %s (or choose another sparse_root)",
		      tool_name, mkfs_pkg[sr->kind]);
		return WL_UNSUPPORTED;
	}
	if (!size) {
		free(tool);
		error("sparse_root: the image size must be larger than 0");
		return WL_FAILED;
	}
	size = (size + 4095) & ~4095ULL;
	if (set_path(sr->workdir, workdir, NULL) || set_path(sr->tmpfs, workdir, "tmpfs") ||
	    set_path(sr->mnt, workdir, "mnt"))
		goto fail;
	if (!is_dir(workdir)) {
		/* create the parents; only the last level is ours to remove */
		char *parent = xstrdup(workdir);
		char *slash = strrchr(parent, '/');

		if (slash && slash != parent) {
			*slash = '\0';
			r = mkdir_p(parent, 0755);
		} else {
			r = 0;
		}
		free(parent);
		if (r || make_dir(sr->workdir, &sr->id_workdir, undo_rmdir_workdir, sr))
			goto fail;
	}
	if (make_dir(sr->tmpfs, &sr->id_tmpfs_dir, undo_rmdir_tmpfs, sr))
		goto fail;
	/* the image is sparse; slack covers filesystem metadata written by mkfs */
	tmpfs_size = size + size / 8 + (64ULL << 20);
	snprintf(opts, sizeof(opts), "size=%llu,mode=0700", (unsigned long long)tmpfs_size);
	if (mount("lrubench-tmpfs", sr->tmpfs, "tmpfs", MS_NOSUID | MS_NODEV, opts)) {
		error_errno("cannot mount tmpfs on %s", sr->tmpfs);
		goto fail;
	}
	sr->id_tmpfs_mount = cleanup_push(sr->tmpfs, undo_mount_tmpfs, sr);
	if (sr->id_tmpfs_mount < 0)
		goto fail;

	snprintf(opts, sizeof(opts), "lrubench-%d.img", (int)getpid());
	if (set_path(sr->img, sr->tmpfs, opts))
		goto fail;
	fd = open(sr->img, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_errno("cannot create %s", sr->img);
		goto fail;
	}
	if (ftruncate(fd, (off_t)size)) {
		error_errno("cannot size %s to %llu bytes", sr->img, (unsigned long long)size);
		close(fd);
		goto fail;
	}
	close(fd);

	st = attach_loop(sr);
	if (st != WL_OK) {
		free(tool);
		return st;
	}
	if (run_mkfs(sr, tool))
		goto fail;
	if (make_dir(sr->mnt, &sr->id_mnt_dir, undo_rmdir_mnt, sr))
		goto fail;
	if (mount(sr->dev, sr->mnt, fs_type[sr->kind], MS_NOSUID | MS_NODEV | MS_NOATIME,
		  sr->kind == SR_EXT4 ? "noinit_itable" : NULL)) {
		error_errno("cannot mount %s (%s) on %s", sr->dev, fs_type[sr->kind], sr->mnt);
		goto fail;
	}
	sr->id_mnt_mount = cleanup_push(sr->mnt, undo_mount_mnt, sr);
	if (sr->id_mnt_mount < 0)
		goto fail;
	free(tool);
	return set_path(sr->dir, sr->mnt, NULL) ? WL_FAILED : WL_OK;
fail:
	free(tool);
	return WL_FAILED;
}

enum wl_status sparse_root_setup(const char *spec, const char *workdir, uint64_t size,
				 struct sparse_root **out, const char **dir)
{
	struct strbuf err = STRBUF_INIT;
	struct sparse_root *sr;
	enum wl_status r;

	*out = NULL;
	*dir = NULL;
	if (sparse_root_check_spec(spec, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return WL_BAD_CONFIG;
	}
	strbuf_release(&err);
	sr = xcalloc(1, sizeof(*sr));
	sr->loop_fd = -1;
	sr->next = all_roots;
	all_roots = sr;
	if (!strncmp(spec, "dir:", 4)) {
		sr->kind = SR_DIR;
		r = setup_dir(sr, spec + 4) ? WL_FAILED : WL_OK;
	} else {
		sr->kind = !strcmp(spec, "loop-xfs") ? SR_XFS : SR_EXT4;
		r = setup_loop(sr, workdir, size);
	}
	if (r != WL_OK) {
		sparse_root_teardown(sr);
		return r;
	}
	*out = sr;
	*dir = sr->dir;
	return WL_OK;
}

void sparse_root_teardown(struct sparse_root *sr)
{
	int *ids[6];

	if (!sr || sr->torn_down)
		return;
	sr->torn_down = true;
	/* newest first, like the registry */
	ids[0] = &sr->id_mnt_mount;
	ids[1] = &sr->id_mnt_dir;
	ids[2] = &sr->id_loop;
	ids[3] = &sr->id_tmpfs_mount;
	ids[4] = &sr->id_tmpfs_dir;
	ids[5] = &sr->id_workdir;
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		if (*ids[i] > 0)
			cleanup_pop(*ids[i], true);
		*ids[i] = 0;
	}
}
