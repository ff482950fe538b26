// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory cgroups in cgroupfs (see cgroup_setup.h).
 *
 * Removal is written once, async-signal-safe (fixed buffers, raw system
 * calls, getdents64 instead of readdir), because it runs both from
 * cg_destroy() and from the cleanup registry inside a signal handler. It
 * kills every member, removes sub-cgroups depth first and retries rmdir
 * while the kernel still reports EBUSY. The happy path (an empty memcg)
 * costs a handful of system calls and never sleeps, so creating and
 * removing a thousand memcgs stays cheap.
 */
#include "core/cgroup_setup.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"

#define RMDIR_TIMEOUT_NS (5LL * 1000 * 1000 * 1000)
#define EMPTY_TIMEOUT_NS (2LL * 1000 * 1000 * 1000)
#define MAX_DEPTH 8

const char *cg_mode_name(enum cg_mode m)
{
	switch (m) {
	case CG_V1: return "v1";
	case CG_V2: return "v2";
	default: return "none";
	}
}

int cg_path_join(char *buf, size_t len, const char *dir, const char *file)
{
	size_t dl = strlen(dir), fl = strlen(file);

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	while (*file == '/') {
		file++;
		fl--;
	}
	if (dl + 1 + fl + 1 > len) {
		if (len)
			buf[0] = '\0';
		return -1;
	}
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, file, fl + 1);
	return 0;
}

/* ---- async-signal-safe removal ---- */

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* SIGKILL every pid listed in dir/cgroup.procs; returns how many were listed. */
static int kill_listed(const char *dir)
{
	char path[PATH_MAX], buf[4096];
	long pid = -1;
	int fd, n = 0;
	ssize_t r;

	if (cg_path_join(path, sizeof(path), dir, "cgroup.procs"))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = (pid < 0 ? 0 : pid * 10) + (buf[i] - '0');
			} else if (pid >= 0) {
				if (pid > 0)
					kill((pid_t)pid, SIGKILL);
				n++;
				pid = -1;
			}
		}
	}
	if (pid > 0) {
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	close(fd);
	return n;
}

/* Kill all members and wait (bounded) until cgroup.procs is empty. */
static int empty_cgroup(const char *dir)
{
	char path[PATH_MAX];
	long long end = 0;
	long nap = 1000 * 1000;
	int fd;

	/* v2 (5.14+): one write kills the whole subtree */
	if (!cg_path_join(path, sizeof(path), dir, "cgroup.kill")) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t w = write(fd, "1", 1);
			(void)w;
			close(fd);
		}
	}
	while (kill_listed(dir) > 0) {
		if (!end)
			end = mono_ns() + EMPTY_TIMEOUT_NS;
		else if (mono_ns() > end)
			return EBUSY;
		sleep_ns(nap);
		if (nap < 20 * 1000 * 1000)
			nap *= 2;
	}
	return 0;
}

static int rmdir_retry(const char *dir)
{
	long long end = 0;
	long nap = 1000 * 1000;

	for (;;) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY && errno != EINTR)
			return errno;
		/* a dying memcg (or a process still exiting) is drained asynchronously */
		if (!end)
			end = mono_ns() + RMDIR_TIMEOUT_NS;
		else if (mono_ns() > end)
			return EBUSY;
		kill_listed(dir);
		sleep_ns(nap);
		if (nap < 50 * 1000 * 1000)
			nap *= 2;
	}
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove dir and every sub-cgroup in it, deepest first. Returns 0 or errno. */
static int remove_cgroup_tree(const char *dir, int depth)
{
	char sub[PATH_MAX];
	char dents[4096] __attribute__((aligned(8)));
	int fd, ret = 0, again = 1;

	empty_cgroup(dir);
	while (again && depth < MAX_DEPTH) {
		long n;

		again = 0;
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT ? 0 : errno;
		while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
			for (long off = 0; off < n; ) {
				struct linux_dirent64 *d = (struct linux_dirent64 *)(dents + off);

				off += d->d_reclen;
				if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				if (cg_path_join(sub, sizeof(sub), dir, d->d_name))
					continue;
				if (remove_cgroup_tree(sub, depth + 1))
					ret = EBUSY;
				else
					again = 1;   /* the listing changed: read it again */
			}
		}
		close(fd);
		if (ret)
			break;
	}
	if (ret)
		return ret;
	return rmdir_retry(dir);
}

/* Undo for the registry: the arg is the cgroup's path (owned by struct cgroup). */
static void cg_cleanup(void *arg)
{
	const char *path = arg;

	if (remove_cgroup_tree(path, 0))
		cleanup_msg("cannot remove cgroup ", path);
}

/* ---- discovery ---- */

/* /proc/mounts escapes space, tab, newline and backslash as \ooo */
static void unescape_mount(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);

	for (const char *p = list; p && *p; ) {
		size_t l = strcspn(p, seps);
		if (l == wl && !strncmp(p, word, wl))
			return true;
		p += l;
		if (*p)
			p++;
	}
	return false;
}

static bool file_has_word(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX];
	char *s;
	bool ok;

	if (cg_path_join(path, sizeof(path), dir, file))
		return false;
	s = read_file_str(path, NULL);
	ok = s && has_word(s, word, " \t\n");
	free(s);
	return ok;
}

int cg_discover(struct cg_env *env, const char *mounts_path, const char *prefix, struct strbuf *err)
{
	char *text = read_file_str(mounts_path, NULL), *save = NULL, *v1_root = NULL;
	bool v2_memory = false;

	memset(env, 0, sizeof(*env));
	if (!prefix)
		prefix = "";
	if (!text) {
		strbuf_addf(err, "cannot read %s: %s", mounts_path, strerror(errno));
		return -1;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *sp = NULL;
		int n = 0;

		for (char *t = strtok_r(line, " ", &sp); t && n < 4; t = strtok_r(NULL, " ", &sp))
			f[n++] = t;
		if (n < 4)
			continue;
		unescape_mount(f[1]);
		if (!strcmp(f[2], "cgroup2") && !env->v2_root) {
			env->v2_root = xasprintf("%s%s", prefix, f[1]);
			v2_memory = file_has_word(env->v2_root, "cgroup.controllers", "memory");
		} else if (!strcmp(f[2], "cgroup") && !v1_root && has_word(f[3], "memory", ",")) {
			v1_root = xasprintf("%s%s", prefix, f[1]);
		}
	}
	free(text);
	if (v2_memory) {
		env->mode = CG_V2;
		env->root = xstrdup(env->v2_root);
		free(v1_root);
	} else if (v1_root) {
		env->mode = CG_V1;
		env->root = v1_root;
		env->hybrid = env->v2_root != NULL;
	} else {
		env->mode = CG_NONE;
		if (env->v2_root)
			strbuf_addf(err, "no memory cgroup controller: %s/cgroup.controllers lacks memory "
				    "and no cgroup v1 hierarchy has it (%s)", env->v2_root, mounts_path);
		else
			strbuf_addf(err, "no memory cgroup controller: no cgroup2 or cgroup v1 memory "
				    "mount in %s", mounts_path);
		return -1;
	}
	return 0;
}

/* v2: the undo of "+memory" in the root's cgroup.subtree_control. */
struct subtree_undo {
	char path[PATH_MAX];
};

static void subtree_cleanup(void *arg)
{
	struct subtree_undo *u = arg;
	int fd = open(u->path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "-memory", 7) != 7)
			cleanup_msg("cannot write '-memory' to ", u->path);
		close(fd);
	}
}

void cg_env_release(struct cg_env *env)
{
	if (env->subtree_id > 0) {
		cleanup_pop(env->subtree_id, true);
		env->subtree_id = 0;
	}
	/* not freed by its undo, which may run in a signal handler */
	free(env->subtree_undo);
	env->subtree_undo = NULL;
	free(env->root);
	free(env->v2_root);
	env->root = env->v2_root = NULL;
	env->mode = CG_NONE;
}

/* Make sure children of dir get the memory controller (v2 only). */
static int enable_subtree_memory(struct cg_env *env, const char *dir, bool is_root)
{
	struct subtree_undo *u;
	char path[PATH_MAX];

	if (file_has_word(dir, "cgroup.subtree_control", "memory"))
		return 0;
	if (cg_path_join(path, sizeof(path), dir, "cgroup.subtree_control"))
		return error("path too long: %s", dir);
	if (write_str_file(path, "+memory"))
		return -1;
	if (!is_root || env->subtree_id > 0)
		return 0;   /* our own cgroups are removed whole */
	u = xcalloc(1, sizeof(*u));
	memcpy(u->path, path, sizeof(path));
	env->subtree_undo = u;
	env->subtree_id = cleanup_push(u->path, subtree_cleanup, u);
	return 0;
}

int cg_create(struct cg_env *env, const struct cgroup *parent, const char *name, struct cgroup *out)
{
	const char *pdir = parent ? parent->path : env->root;
	char path[PATH_MAX];

	memset(out, 0, sizeof(*out));
	if (env->mode == CG_NONE || !pdir)
		return error("no memory cgroup controller");
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return error("invalid cgroup name '%s'", name);
	if (cg_path_join(path, sizeof(path), pdir, name))
		return error("cgroup path too long: %s/%s", pdir, name);
	if (env->mode == CG_V2 && enable_subtree_memory(env, pdir, !parent))
		return -1;
	if (mkdir(path, 0755)) {
		if (errno == EEXIST)
			return error("cannot create cgroup %s: it already exists", path);
		return error_errno("cannot create cgroup %s", path);
	}
	out->path = xstrdup(path);
	out->mode = env->mode;
	out->cleanup_id = cleanup_push(out->path, cg_cleanup, out->path);
	if (out->cleanup_id < 0) {
		rmdir(out->path);
		free(out->path);
		out->path = NULL;
		return -1;
	}
	return 0;
}

static bool stale_name(const char *name, pid_t *pid)
{
	unsigned long long v;

	if (strncmp(name, "lrubench-", 9) || parse_ull(name + 9, &v) || !v || v > INT_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

/* Remove lrubench-<pid> folders whose pid is gone (a SIGKILLed run). */
void cg_remove_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;
	pid_t pid;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		int r;

		if (!stale_name(de->d_name, &pid) || pid == getpid())
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;   /* its run is alive (or not ours to judge) */
		if (cg_path_join(path, sizeof(path), root, de->d_name))
			continue;
		r = remove_cgroup_tree(path, 0);
		if (r)
			warning("cannot remove stale cgroup %s (pid %d is gone): %s", path, (int)pid, strerror(r));
		else
			info("removed stale cgroup %s left by an earlier run (pid %d)", path, (int)pid);
	}
	closedir(d);
}

int cg_create_run_parent(struct cg_env *env, struct cgroup *out)
{
	char name[64], path[PATH_MAX];

	if (env->mode == CG_NONE)
		return error("no memory cgroup controller");
	cg_remove_stale(env->root);
	snprintf(name, sizeof(name), "lrubench-%d", (int)getpid());
	if (cg_create(env, NULL, name, out))
		return -1;
	if (env->mode == CG_V1) {
		/* always 1 on modern kernels (and read-only there): best effort */
		if (!cg_path_join(path, sizeof(path), out->path, "memory.use_hierarchy")) {
			int fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd >= 0) {
				ssize_t w = write(fd, "1", 1);
				(void)w;
				close(fd);
			}
		}
	} else if (enable_subtree_memory(env, out->path, false)) {
		cg_destroy(out);
		return -1;
	}
	return 0;
}

int cg_borrow_root(const struct cg_env *env, struct cgroup *out)
{
	memset(out, 0, sizeof(*out));
	if (env->mode == CG_NONE || !env->root)
		return error("no memory cgroup controller: there is no root memory cgroup to run in");
	out->path = xstrdup(env->root);
	out->mode = env->mode;
	out->borrowed = true;
	return 0;
}

int cg_set_limit(const struct cgroup *cg, uint64_t bytes)
{
	char path[PATH_MAX], val[32];
	bool v2 = cg->mode == CG_V2;

	if (cg->borrowed)
		return bytes ? error("the root memory cgroup %s takes no limit", cg->path) : 0;

	if (cg_path_join(path, sizeof(path), cg->path, v2 ? "memory.max" : "memory.limit_in_bytes"))
		return error("path too long: %s", cg->path);
	if (bytes)
		snprintf(val, sizeof(val), "%llu", (unsigned long long)bytes);
	else
		snprintf(val, sizeof(val), "%s", v2 ? "max" : "-1");
	return write_str_file(path, val);
}

const char *cg_procs_file(const struct cgroup *cg, char *buf, size_t len)
{
	if (cg_path_join(buf, len, cg->path, "cgroup.procs"))
		return NULL;
	return buf;
}

/*
 * Names to try, in order, for a key. Since 5.9 both v2 and v1 split the
 * refault counter into _anon and _file; the page-cache one is what the
 * workloads mean. v1 calls the file and anon totals "cache" and "rss" (bytes,
 * like v2). v1 has no pgscan/pgsteal/pgactivate at all: those return -1.
 */
static const char *const *stat_names(const char *key, bool v2)
{
	static const char *const refault[] = { "workingset_refault_file", "workingset_refault", NULL };
	static const char *const file_v1[] = { "cache", NULL };
	static const char *const anon_v1[] = { "rss", NULL };

	if (!strcmp(key, "workingset_refault"))
		return refault;
	if (!v2 && !strcmp(key, "file"))
		return file_v1;
	if (!v2 && !strcmp(key, "anon"))
		return anon_v1;
	return NULL;
}

static int stat_lookup(const char *text, const char *name, uint64_t *val)
{
	size_t nl = strlen(name);

	for (const char *p = text; p && *p; ) {
		if (!strncmp(p, name, nl) && p[nl] == ' ') {
			unsigned long long v;
			char *end;

			errno = 0;
			v = strtoull(p + nl + 1, &end, 10);
			if (errno || end == p + nl + 1)
				return -1;
			*val = v;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

char *cg_stat_text(const struct cgroup *cg)
{
	char path[PATH_MAX];

	if (cg_path_join(path, sizeof(path), cg->path, "memory.stat"))
		return NULL;
	return read_file_str(path, NULL);
}

int cg_stat_in(const struct cgroup *cg, const char *text, const char *key, uint64_t *val)
{
	const char *const *names = stat_names(key, cg->mode == CG_V2);
	const char *single[] = { key, NULL };
	int ret = -1;

	if (!text)
		return -1;
	for (const char *const *n = names ? names : single; *n && ret; n++)
		ret = stat_lookup(text, *n, val);
	return ret;
}

int cg_stat(const struct cgroup *cg, const char *key, uint64_t *val)
{
	char *text = cg_stat_text(cg);
	int ret = cg_stat_in(cg, text, key, val);

	free(text);
	return ret;
}

int cg_usage(const struct cgroup *cg, uint64_t *bytes)
{
	char path[PATH_MAX];
	unsigned long long v;
	char *s;
	int ret;

	if (cg_path_join(path, sizeof(path), cg->path,
			 cg->mode == CG_V2 ? "memory.current" : "memory.usage_in_bytes"))
		return -1;
	s = read_file_str(path, NULL);
	if (!s)
		return error_errno("cannot read %s", path);
	s[strcspn(s, "\n")] = '\0';
	ret = parse_ull(s, &v);
	if (ret)
		error("cannot parse '%s' in %s", s, path);
	else
		*bytes = v;
	free(s);
	return ret;
}

int cg_nr_procs(const struct cgroup *cg)
{
	char path[PATH_MAX];
	char *s;
	int n = 0;

	if (!cg_procs_file(cg, path, sizeof(path)))
		return -1;
	s = read_file_str(path, NULL);
	if (!s)
		return error_errno("cannot read %s", path);
	for (char *p = s; *p; p++)
		if (*p == '\n')
			n++;
	free(s);
	return n;
}

int cg_destroy(struct cgroup *cg)
{
	int r;

	if (!cg->path)
		return 0;
	if (cg->borrowed) {
		/* the machine's root cgroup: its tasks are not ours to kill */
		free(cg->path);
		cg->path = NULL;
		return 0;
	}
	r = remove_cgroup_tree(cg->path, 0);
	cleanup_pop(cg->cleanup_id, false);
	cg->cleanup_id = 0;
	if (r)
		error("cannot remove cgroup %s: %s", cg->path, strerror(r));
	free(cg->path);
	cg->path = NULL;
	return r ? -1 : 0;
}
