// SPDX-License-Identifier: GPL-2.0-or-later
/* One task of a fleet's job array (task.h). */
#include "fleet/task.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/label_name.h"
#include "core/net_client.h"
#include "core/results_pack.h"
#include "core/results_unpack.h"

/* The node Slurm runs us on: $SLURMD_NODENAME, else the short host name. */
static char *node_name(void)
{
	const char *n = getenv("SLURMD_NODENAME");
	char host[256] = "";

	if (n && *n)
		return xstrdup(n);
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, ".")] = '\0';
	return xstrdup(*host ? host : "unknown");
}

static char *self_path(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	return xstrdup(self);
}

/* Run `lrubench run ARGS` as a child, its output ours (Slurm's file). A
 * stop (Slurm's SIGTERM on scancel or the time limit) is passed on. */
static int run_child(const struct strlist *argv)
{
	struct child c = { .name = "lrubench run", .argv = (const char *const *)argv->v };
	int code = LB_EXIT_FAIL, w;

	if (child_start(&c))
		return LB_EXIT_FAIL;
	w = child_wait(&c, -1, &code, NULL);
	if (w == CHILD_STOP) {
		child_stop(&c, 120);   /* run unwinds: cgroups, mounts, its results */
		return LB_EXIT_INTERRUPTED;
	}
	if (w < 0) {
		child_stop(&c, 0);
		return LB_EXIT_FAIL;
	}
	return code;
}

/* Pack the task's label and push it to the store as task-<id>.tar.zst. */
static int push_label(const struct fleet_plan *p, const struct fleet_task *t, const char *dir)
{
	struct strlist files = STRLIST_INIT, urls = STRLIST_INIT;
	struct push_request req = { .retries = -1, .force = true };   /* a requeued task replaces */
	struct strbuf err = STRBUF_INIT, pushed = STRBUF_INIT;
	const char *tmp = results_private_dir(&err);
	char *archive = NULL, *url = fleet_task_store_url(p, t);
	int ret;

	if (!tmp) {
		error("%s", err.buf);
		ret = LB_EXIT_FAIL;
		goto out;
	}
	ret = results_pack_label(dir, tmp, &archive);
	if (ret)
		goto out;
	strlist_push(&files, archive);
	strlist_push(&urls, url);
	ret = net_push(&files, &urls, &req, &pushed);
	if (!ret)
		info("task %zu: pushed its results to %s", t->id, url);
	ret = ret == NET_INTERRUPTED ? LB_EXIT_INTERRUPTED : ret ? LB_EXIT_FAIL : LB_EXIT_OK;
out:
	free(archive);
	free(url);
	strlist_release(&files);
	strlist_release(&urls);
	strbuf_release(&err);
	strbuf_release(&pushed);
	return ret;
}

int fleet_task_run(const struct fleet_plan *p, size_t group)
{
	const char *idx = getenv("SLURM_ARRAY_TASK_ID");
	const struct fleet_task *t;
	const struct fleet_kernel *k;
	struct strlist argv = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	unsigned long long index;
	char *node = NULL, *label = NULL, *outdir = NULL, *self = NULL, *ldir = NULL;
	int ret = LB_EXIT_USAGE;

	if (!idx || parse_ull(idx, &index))
		return error("fleet task: not in a Slurm job array ($SLURM_ARRAY_TASK_ID is %s); "
			     "lrubench fleet submit starts the tasks", idx ? idx : "unset"),
		       LB_EXIT_USAGE;
	if (group >= p->ngroups || index >= p->groups[group].ntasks)
		return error("fleet task: the plan %s has no task %llu in job array %zu (was the "
			     "plan changed after it was submitted?)", p->path, index, group),
		       LB_EXIT_USAGE;
	t = &p->tasks[p->groups[group].tasks[index]];
	k = &p->kernels[t->kernel];
	node = node_name();
	if (t->node && strcmp(t->node, node))
		warning("task %zu was meant for node %s and runs on %s", t->id, t->node, node);
	if (p->mode == FLEET_HOST && k->release) {
		struct utsname u;

		if (uname(&u) || strcmp(u.release, k->release)) {
			error("task %zu: node %s runs kernel %s, but kernel %s of the plan is release %s: "
			      "boot it on the nodes, or give the nodes that run it a feature and set "
			      "constraint = in [kernel %s]", t->id, node, u.release, k->name, k->release,
			      k->name);
			ret = LB_EXIT_UNSUPPORTED;
			goto out;
		}
	}
	label = fleet_task_label(p, t, node);
	if (label_name_check(label, &err)) {
		error("task %zu: %s", t->id, err.buf);
		goto out;
	}
	if (p->results) {
		outdir = xasprintf("%s/%s", p->results, p->name);
	} else {
		const char *tmp = results_private_dir(&err);

		if (!tmp) {
			error("%s", err.buf);
			ret = LB_EXIT_FAIL;
			goto out;
		}
		outdir = xstrdup(tmp);
	}
	self = self_path();
	if (!self) {
		error("cannot find this program's path (/proc/self/exe)");
		ret = LB_EXIT_FAIL;
		goto out;
	}
	strlist_push(&argv, self);
	strlist_push(&argv, "run");
	fleet_task_run_args(p, t, label, outdir, &argv);
	info("task %zu of %s: kernel %s, repetition %u, node %s: label %s", t->id, p->name, k->name,
	     t->rep, node, label);
	ret = run_child(&argv);
	if (ret) {
		error("task %zu (%s): lrubench run exited with %d", t->id, label, ret);
		goto out;
	}
	ldir = xasprintf("%s/%s", outdir, label);
	if (p->store)
		ret = push_label(p, t, ldir);
out:
	free(node);
	free(label);
	free(outdir);
	free(self);
	free(ldir);
	strlist_release(&argv);
	strbuf_release(&err);
	return ret;
}
