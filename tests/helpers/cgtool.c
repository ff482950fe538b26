// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper for tests/integration/coresys.sh (root, real kernel): drives
 * cgroup_setup.c, child.c, numa.c and sparse_root.c directly.
 *
 *   cgtool cgroups N LIMIT   create N memcgs under a run parent, set LIMIT
 *                            (bytes, 0 = none), start a bound child in each
 *                            that prints /proc/self/cgroup and numa_maps,
 *                            check it ran inside its memcg, destroy, check
 *                            nothing is left; prints the timings
 *   cgtool hold N LIMIT      N memcgs with a sleeping child in each; prints
 *                            the run parent, "ready", and waits for a signal
 *   cgtool killtree v1|v2 N  N cgroups, each with a shell and two grandchildren;
 *                            cg_destroy them while they run, check every
 *                            process died (v2 without the memory controller
 *                            uses the cgroup2 mount beside v1: cgroup.kill)
 *   cgtool stale             create and destroy a run parent (which removes
 *                            stale lrubench-<pid> cgroups of dead runs)
 *   cgtool sparse SPEC WORKDIR SIZE [hold]
 *                            set up the sparse root, write and read a sparse
 *                            file there, print "dir <path>", tear down (or,
 *                            with hold, print "ready" and wait for a signal)
 * Exit: 0 ok, 1 failure, 3 as sparse_root_setup's WL_UNSUPPORTED, 130 interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cgroup_setup.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/numa.h"
#include "core/sparse_root.h"
#include "core/util.h"

static int usage(void)
{
	fprintf(stderr, "usage: cgtool cgroups N LIMIT | hold N LIMIT | killtree v1|v2 N | stale | sparse SPEC WORKDIR SIZE [hold]\n");
	return 2;
}

static int discover(struct cg_env *env)
{
	struct strbuf err = STRBUF_INIT;
	int r = cg_discover(env, "/proc/mounts", "", &err);

	if (r)
		error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return r;
}

static void wait_for_signal(void)
{
	printf("ready\n");
	fflush(stdout);
	while (!lb_stop_requested())
		pause();
}

static int cmd_cgroups(int n, uint64_t limit, bool hold)
{
	struct cg_env env;
	struct cgroup run, *cgs = xcalloc((size_t)n, sizeof(*cgs));
	struct child *kids = xcalloc((size_t)n, sizeof(*kids));
	char **outs = xcalloc((size_t)n, sizeof(*outs));
	struct strbuf err = STRBUF_INIT;
	struct numa_bind bind;
	char procs[4096], tmpdir[] = "/tmp/lrubench-cgtool.XXXXXX";
	const char *cat_argv[] = { "cat", "/proc/self/cgroup", "/proc/self/numa_maps", NULL };
	const char *sleep_argv[] = { "sleep", "600", NULL };
	double t0, t_create, t_run, t_destroy;
	int ret = 1, made = 0;
	bool have_tmp = false;

	if (discover(&env))
		return 3;
	if (numa_resolve("", "auto", &bind, &err)) {
		error("%s", strbuf_str(&err));
		return 3;
	}
	t0 = now_monotonic();
	if (cg_create_run_parent(&env, &run))
		goto out;
	for (made = 0; made < n; made++) {
		char name[32];

		snprintf(name, sizeof(name), "m%d", made);
		if (cg_create(&env, &run, name, &cgs[made]) || cg_set_limit(&cgs[made], limit))
			goto out;
	}
	t_create = now_monotonic() - t0;
	printf("mode %s root %s parent %s\n", cg_mode_name(env.mode), env.root, run.path);
	if (hold) {
		for (int i = 0; i < n; i++) {
			kids[i].argv = sleep_argv;
			kids[i].cgroup_procs = cg_procs_file(&cgs[i], procs, sizeof(procs));
			kids[i].bind = &bind;
			if (child_start(&kids[i]))
				goto out;
			if (cg_nr_procs(&cgs[i]) != 1) {
				error("%s: expected 1 process, found %d", cgs[i].path, cg_nr_procs(&cgs[i]));
				goto out;
			}
		}
		wait_for_signal();
		ret = 130;
		goto out;
	}
	/* the children's output folder only here: a holder killed by SIGKILL
	 * (test_cgroups_sigkill_then_stale_removal) would leave it in /tmp */
	if (!mkdtemp(tmpdir)) {
		error_errno("mkdtemp");
		goto out;
	}
	have_tmp = true;
	t0 = now_monotonic();
	for (int i = 0; i < n; i++) {
		char *text, want[4096];
		int code;

		outs[i] = xasprintf("%s/out-%d", tmpdir, i);
		kids[i].argv = cat_argv;
		kids[i].cgroup_procs = cg_procs_file(&cgs[i], procs, sizeof(procs));
		kids[i].bind = &bind;
		kids[i].out_path = outs[i];
		code = child_run(&kids[i], 30);
		if (code) {
			error("child in %s: exit %d", cgs[i].path, code);
			goto out;
		}
		text = read_file_str(outs[i], NULL);
		/* the memory line names our cgroup relative to the hierarchy root */
		snprintf(want, sizeof(want), "%s\n", cgs[i].path + strlen(env.root));
		if (!text || !strstr(text, want)) {
			error("child of %s did not run inside it; /proc/self/cgroup:\n%s", cgs[i].path,
			      text ? text : "(none)");
			free(text);
			goto out;
		}
		if (bind.node >= 0) {
			snprintf(want, sizeof(want), " bind:%d ", bind.node);
			if (!strstr(text, want)) {
				error("child of %s is not bound to node %d", cgs[i].path, bind.node);
				free(text);
				goto out;
			}
		}
		free(text);
		if (cg_nr_procs(&cgs[i]) != 0) {
			error("%s still has processes after its child exited", cgs[i].path);
			goto out;
		}
	}
	t_run = now_monotonic() - t0;
	t0 = now_monotonic();
	for (int i = n - 1; i >= 0; i--)
		if (cg_destroy(&cgs[i]))
			goto out;
	if (cg_destroy(&run))
		goto out;
	t_destroy = now_monotonic() - t0;
	printf("created %d memcgs in %.3f ms (%.3f ms each), ran %d children in %.3f ms, "
	       "destroyed in %.3f ms (%.3f ms each)\n", n, t_create * 1e3, t_create * 1e3 / n, n,
	       t_run * 1e3, t_destroy * 1e3, t_destroy * 1e3 / n);
	ret = 0;
out:
	for (int i = 0; i < n; i++)
		child_stop(&kids[i], 1);
	for (int i = n - 1; i >= 0; i--)
		cg_destroy(&cgs[i]);
	cg_destroy(&run);
	cg_env_release(&env);
	for (int i = 0; i < n; i++)
		free(outs[i]);
	free(outs);
	free(kids);
	free(cgs);
	strbuf_release(&err);
	if (have_tmp)
		remove_tree(tmpdir);
	return ret;
}

/* Dead, or a zombie waiting for its (new) parent to reap it. */
static bool pid_dead(pid_t pid)
{
	char path[64], *st, *p;
	bool dead;

	if (kill(pid, 0))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	st = read_file_str(path, NULL);
	p = st ? strrchr(st, ')') : NULL;
	dead = !st || (p && (p[2] == 'Z' || p[2] == 'X'));
	free(st);
	return dead;
}

static int cmd_killtree(const char *mode, int n)
{
	const char *argv[] = { "sh", "-c", "sleep 600 & sleep 600 & wait", NULL };
	struct cg_env env;
	struct cgroup run = { 0 }, *cgs = xcalloc((size_t)n, sizeof(*cgs));
	struct child *kids = xcalloc((size_t)n, sizeof(*kids));
	pid_t *pids = xcalloc((size_t)n * 3, sizeof(*pids));
	char procs[4096];
	int npids = 0, ret = 1;
	bool manual_v2 = false;

	if (discover(&env))
		return 3;
	if (!strcmp(mode, "v2") && env.mode != CG_V2) {
		if (!env.v2_root)
			return error("no cgroup2 mount"), 3;
		/* cgroup2 without memory: plain folders, removed by cg_destroy */
		manual_v2 = true;
		run.path = xasprintf("%s/lrubench-%d", env.v2_root, (int)getpid());
		run.mode = CG_V2;
		if (mkdir(run.path, 0755)) {
			error_errno("cannot create %s", run.path);
			goto out;
		}
	} else if (strcmp(mode, cg_mode_name(env.mode))) {
		printf("skip: memory controller is on %s\n", cg_mode_name(env.mode));
		ret = 77;
		goto out;
	} else if (cg_create_run_parent(&env, &run)) {
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "m%d", i);
		if (manual_v2) {
			cgs[i].path = xasprintf("%s/%s", run.path, name);
			cgs[i].mode = CG_V2;
			if (mkdir(cgs[i].path, 0755)) {
				error_errno("cannot create %s", cgs[i].path);
				goto out;
			}
		} else if (cg_create(&env, &run, name, &cgs[i])) {
			goto out;
		}
		kids[i].argv = argv;
		kids[i].cgroup_procs = cg_procs_file(&cgs[i], procs, sizeof(procs));
		if (child_start(&kids[i]))
			goto out;
	}
	for (int i = 0; i < n; i++) {
		char *text, *save = NULL;
		double end = now_monotonic() + 10;

		while (cg_nr_procs(&cgs[i]) < 3 && now_monotonic() < end)
			lb_sleep(0.01);
		text = read_file_str(cg_procs_file(&cgs[i], procs, sizeof(procs)), NULL);
		for (char *t = strtok_r(text, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
			pids[npids++] = atoi(t);
		free(text);
	}
	if (npids != 3 * n) {
		error("expected %d processes in the cgroups, found %d", 3 * n, npids);
		goto out;
	}
	printf("mode %s parent %s processes %d\n", mode, run.path, npids);
	for (int i = 0; i < n; i++)
		if (cg_destroy(&cgs[i]))
			goto out;
	if (cg_destroy(&run))
		goto out;
	for (int i = 0; i < n; i++) {
		int code = -1;

		if (child_wait(&kids[i], 10, &code, NULL) || code != 128 + SIGKILL) {
			error("shell %d: expected death by SIGKILL, code %d", (int)kids[i].pid, code);
			goto out;
		}
	}
	for (int i = 0; i < npids; i++) {
		double end = now_monotonic() + 5;

		while (!pid_dead(pids[i]) && now_monotonic() < end)
			lb_sleep(0.01);
		if (!pid_dead(pids[i])) {
			error("pid %d survived cg_destroy", (int)pids[i]);
			goto out;
		}
	}
	printf("killed %d processes, removed %d cgroups\n", npids, n + 1);
	ret = 0;
out:
	for (int i = 0; i < n; i++) {
		child_stop(&kids[i], 0);
		cg_destroy(&cgs[i]);
	}
	cg_destroy(&run);
	cg_env_release(&env);
	free(pids);
	free(kids);
	free(cgs);
	return ret;
}

static int cmd_stale(void)
{
	struct cg_env env;
	struct cgroup run;
	int r;

	if (discover(&env))
		return 3;
	r = cg_create_run_parent(&env, &run) || cg_destroy(&run);
	cg_env_release(&env);
	return r ? 1 : 0;
}

static int cmd_sparse(const char *spec, const char *workdir, const char *size_s, bool hold)
{
	struct sparse_root *sr;
	const char *dir;
	uint64_t size;
	char *file, buf[4096];
	int fd, r;
	ssize_t got;

	if (parse_size(size_s, &size))
		return error("bad size '%s'", size_s);
	r = sparse_root_setup(spec, workdir, size, &sr, &dir);
	if (r != WL_OK)
		return r == WL_UNSUPPORTED ? 3 : 1;
	printf("dir %s\n", dir);
	fflush(stdout);
	/* a sparse file reads as zeros without block I/O */
	file = xasprintf("%s/sparse-file", dir);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 64 << 20) || (got = pread(fd, buf, sizeof(buf), 32 << 20)) != sizeof(buf) ||
	    buf[0] || buf[4095]) {
		error_errno("cannot use a sparse file in %s", dir);
		r = 1;
	}
	if (fd >= 0)
		close(fd);
	unlink(file);
	free(file);
	if (!r && hold) {
		wait_for_signal();
		r = 130;
	}
	sparse_root_teardown(sr);
	sparse_root_teardown(sr);   /* idempotent */
	return r;
}

int main(int argc, char **argv)
{
	lb_progname = "cgtool";
	signals_install();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "cgroups")) {
		uint64_t limit;
		if (parse_size(argv[3], &limit))
			return usage();
		return cmd_cgroups(atoi(argv[2]), limit, false);
	}
	if (argc == 4 && !strcmp(argv[1], "hold")) {
		uint64_t limit;
		if (parse_size(argv[3], &limit))
			return usage();
		return cmd_cgroups(atoi(argv[2]), limit, true);
	}
	if (argc == 4 && !strcmp(argv[1], "killtree"))
		return cmd_killtree(argv[2], atoi(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "stale"))
		return cmd_stale();
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "sparse"))
		return cmd_sparse(argv[2], argv[3], argv[4], argc == 6 && !strcmp(argv[5], "hold"));
	return usage();
}
