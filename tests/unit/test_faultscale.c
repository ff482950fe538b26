// SPDX-License-Identifier: GPL-2.0-or-later
/* faultscale's parts without root: the loop of each case on real mappings
 * and a real sparse file, the groups of a step, the rate of a sample, and
 * one real measurement of forked tasks and of threads (no cgroup, no node);
 * the tasks as a core/child_set.h set: a task whose loop fails, one killed
 * and one stopped (stuck) each fail the op only, and no task of ours is
 * left when fs_run returns. The test stays one thread: fs_run forks. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "unit.h"
#include "core/cleanup.h"
#include "core/procfs.h"
#include "workloads/faultscale/fault_loop.h"
#include "workloads/faultscale/fault_tasks.h"

static void loop_counts_every_page(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);

	(void)state;
	for (int k = 0; k < FS_NCASES; k++) {
		struct fs_loop l = { .kase = k, .len = 64 * (size_t)pg, .fd = -1 };
		uint64_t n = 0;

		assert_int_equal(fs_loop_prepare(&l, unit_tmp), 0);
		assert_true(k == FS_PAGE_FAULT1 ? l.fd < 0 : l.fd >= 0);
		assert_int_equal(fs_loop_run(&l, &n, 3), 0);
		assert_int_equal(n, 3 * 64);   /* one count a page, three passes */
		fs_loop_release(&l);
		assert_int_equal(l.fd, -1);
	}
	/* the file has no name: nothing is left in the folder */
	assert_int_equal(remove_tree(unit_tmp), 0);
	assert_int_equal(mkdir(unit_tmp, 0700), 0);
}

static void loop_errors(void **state)
{
	struct fs_loop l = { .kase = FS_PAGE_FAULT3, .len = 1 << 20, .fd = -1 };
	uint64_t n = 0;

	(void)state;
	assert_int_equal(fs_loop_prepare(&l, "/nonexistent/faultscale"), ENOENT);
	assert_int_equal(l.fd, -1);
	/* a mapping no machine holds fails its mmap with an errno, not a crash */
	l = (struct fs_loop){ .kase = FS_PAGE_FAULT1, .len = (size_t)1 << 62, .fd = -1 };
	assert_int_not_equal(fs_loop_run(&l, &n, 1), 0);
	assert_int_equal(n, 0);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT2, 100) == 200);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT1, 100) == 100);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT3, 100) == 100);
}

static void groups_of_a_step(void **state)
{
	size_t g, per;

	(void)state;
	fs_groups(false, 4, 2, &g, &per);   /* processes: one a task */
	assert_int_equal(g, 4);
	assert_int_equal(per, 1);
	fs_groups(true, 4, 0, &g, &per);    /* threads in the root: one process */
	assert_int_equal(g, 1);
	assert_int_equal(per, 4);
	fs_groups(true, 4, 2, &g, &per);    /* a process per memcg */
	assert_int_equal(g, 2);
	assert_int_equal(per, 2);
	fs_groups(true, 1, 2, &g, &per);    /* fewer tasks than memcgs */
	assert_int_equal(g, 1);
	assert_int_equal(per, 1);
	fs_groups(true, 5, 4, &g, &per);    /* 2,2,1: three processes, not an empty fourth */
	assert_int_equal(g, 3);
	assert_int_equal(per, 2);
	assert_true(fs_rate(100, 300, 2.0) == 100.0);
	assert_true(fs_rate(300, 100, 2.0) == 0.0);
	assert_true(fs_rate(0, 100, 0.0) == 0.0);
}

static void run_one(bool threads, enum fs_case kase)
{
	struct numa_bind b = { .node = -1 };
	int cpus[2] = { 0, 0 };
	struct strbuf why = STRBUF_INIT;
	struct fs_spec spec = { .kase = kase, .threads = threads, .ntasks = 2, .cpus = cpus,
				.len = 1 << 20, .dir = unit_tmp, .bind = &b, .warm = 0, .samples = 1,
				.stuck_timeout = 30, .why = &why };
	struct fs_out out;

	sched_getaffinity(0, sizeof(b.cpus), &b.cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b.cpus)) {
			cpus[0] = cpus[1] = c;   /* both on the first CPU we may use */
			break;
		}
	fs_groups(threads, 2, 0, &spec.ngroups, &spec.per);
	assert_int_equal(fs_run(&spec, &out), WL_OK);
	assert_true(out.ops > 0);
	assert_true(out.second[0] == out.ops);
	assert_true(out.task[0] > 0 && out.task[1] > 0);
	assert_int_equal(out.ran_cpu[0], cpus[0]);
	assert_int_equal(out.ran_cpu[1], cpus[0]);
	assert_true(out.min_task <= out.max_task);
	fs_out_release(&out);
	strbuf_release(&why);
}

static void real_processes_and_threads(void **state)
{
	(void)state;
	run_one(false, FS_PAGE_FAULT1);
	run_one(true, FS_PAGE_FAULT2);
}

/* a task that cannot make its file fails the measurement, naming the folder */
static void task_without_its_file(void **state)
{
	struct numa_bind b = { .node = -1 };
	int cpus[1] = { 0 };
	struct strbuf why = STRBUF_INIT;
	struct fs_spec spec = { .kase = FS_PAGE_FAULT3, .ntasks = 1, .ngroups = 1, .per = 1, .cpus = cpus,
				.len = 1 << 20, .dir = "/nonexistent/fs", .bind = &b, .samples = 1,
				.stuck_timeout = 30, .why = &why };
	struct fs_out out;
	char *err;

	(void)state;
	sched_getaffinity(0, sizeof(b.cpus), &b.cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b.cpus)) {
			cpus[0] = c;
			break;
		}
	capture_start();
	assert_int_equal(fs_run(&spec, &out), WL_FAILED);
	err = capture_end();
	assert_non_null(strstr(err, "faultscale task 0"));
	assert_non_null(strstr(err, "its file goes in /nonexistent/fs"));
	assert_null(out.task);
	free(err);
	strbuf_release(&why);
}

/* The first CPU we may use. */
static int first_cpu(struct numa_bind *b)
{
	sched_getaffinity(0, sizeof(b->cpus), &b->cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b->cpus))
			return c;
	return 0;
}

/* Children of parent (the tasks' processes), zombies included. */
static size_t children_of(pid_t parent, pid_t *first)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		struct proc_stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || proc_stat_read("", (pid_t)pid, &st) || st.ppid != parent)
			continue;
		if (!n++ && first)
			*first = (pid_t)pid;
	}
	closedir(d);
	return n;
}

static size_t our_children(pid_t *first)
{
	return children_of(getpid(), first);
}

/*
 * What the kernel under test might do to a task: sig to the first task's
 * process once `want` of them exist and it has used CPU time (it faults: it
 * was started and released; a child stopped before its start is finished
 * would hold child_start_finish). The hitter is a process, not a thread of
 * the test: fs_run forks, and a fork while a thread of ours holds a lock of
 * ASan's allocator (GCC 12's libasan does not take them around fork) leaves
 * the task locked at its first malloc, used no CPU, "stuck" 30 s later. It
 * is a grandchild, so the test's children stay fs_run's alone; it writes
 * its victim's pid to the pipe and ends (EOF: it is gone, or found none).
 */
static int hitter_start(int sig, size_t want)
{
	pid_t parent = getpid(), mid;
	int p[2];

	assert_int_equal(pipe(p), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		if (fork() == 0) {
			pid_t pid = 0;

			close(p[0]);
			for (int k = 0; k < 30000; k++) {   /* 30 s at most */
				struct proc_stat st;

				if (children_of(parent, &pid) >= want && !proc_stat_read("", pid, &st) &&
				    st.ticks >= 5) {
					kill(pid, sig);
					if (write(p[1], &pid, sizeof(pid)) != sizeof(pid))
						_exit(1);
					_exit(0);
				}
				usleep(1000);
			}
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(waitpid(mid, NULL, 0), mid);
	return p[0];
}

/* The hitter's victim (0: none), once it has ended. */
static pid_t hitter_finish(int fd)
{
	pid_t pid = 0, extra;
	ssize_t r;

	while ((r = read(fd, &pid, sizeof(pid))) < 0 && errno == EINTR)
		;
	if (r != sizeof(pid))
		pid = 0;
	while (read(fd, &extra, sizeof(extra)) > 0)
		;   /* EOF: the hitter has ended */
	close(fd);
	return pid;
}

static enum wl_status run_hit(bool threads, size_t ntasks, int sig, double stuck_timeout,
			      uint64_t len, struct strbuf *why, pid_t *victim)
{
	struct numa_bind b = { .node = -1 };
	int cpus[2];
	struct fs_spec spec = { .kase = FS_PAGE_FAULT1, .threads = threads, .ntasks = ntasks, .cpus = cpus,
				.len = len, .dir = unit_tmp, .bind = &b, .warm = 0, .samples = 60,
				.stuck_timeout = stuck_timeout, .why = why };
	struct fs_out out;
	int hit = -1;
	enum wl_status r;

	cpus[0] = cpus[1] = first_cpu(&b);
	fs_groups(threads, ntasks, 0, &spec.ngroups, &spec.per);
	if (sig)
		hit = hitter_start(sig, threads ? 1 : ntasks);
	r = fs_run(&spec, &out);
	*victim = sig ? hitter_finish(hit) : 0;
	/* every task of ours is gone, reaped */
	assert_int_equal(our_children(NULL), 0);
	if (r == WL_OK)
		fs_out_release(&out);
	else
		assert_null(out.task);
	return r;
}

/* A task the kernel killed (the OOM killer) fails the op, naming it. */
static void killed_task_fails_the_op(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char want[64];
	pid_t victim;

	(void)state;
	capture_start();
	assert_int_equal(run_hit(false, 2, SIGKILL, 30, 1 << 20, &why, &victim), WL_OP_FAILED);
	free(capture_end());
	snprintf(want, sizeof(want), "(pid %d) killed by signal 9", (int)victim);
	assert_non_null(strstr(why.buf, "faultscale task "));
	assert_non_null(strstr(why.buf, want));
	strbuf_release(&why);
	/* threads: the process of them */
	capture_start();
	assert_int_equal(run_hit(true, 2, SIGKILL, 30, 1 << 20, &why, &victim), WL_OP_FAILED);
	free(capture_end());
	snprintf(want, sizeof(want), "faultscale process 0 (pid %d) killed by signal 9", (int)victim);
	assert_non_null(strstr(why.buf, want));
	strbuf_release(&why);
}

/* A stopped task (SIGSTOP stands in for D state) is stuck: the report
 * names it and its state; it is gone afterwards. */
static void stopped_task_is_stuck(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char want[64];
	pid_t victim;

	(void)state;
	capture_start();
	assert_int_equal(run_hit(false, 1, SIGSTOP, 1, 1 << 20, &why, &victim), WL_OP_FAILED);
	free(capture_end());
	snprintf(want, sizeof(want), "(pid %d) is stuck", (int)victim);
	assert_non_null(strstr(why.buf, "faultscale task 0"));
	assert_non_null(strstr(why.buf, want));
	assert_non_null(strstr(why.buf, "stopped (T)"));
	strbuf_release(&why);
}

/* A mapping the kernel refuses fails the op with the errno, not the workload. */
static void refused_mapping_fails_the_op(void **state)
{
	struct strbuf why = STRBUF_INIT;
	pid_t victim;

	(void)state;
	capture_start();
	assert_int_equal(run_hit(false, 2, 0, 30, (uint64_t)1 << 62, &why, &victim), WL_OP_FAILED);
	free(capture_end());
	assert_non_null(strstr(why.buf, "failed: mmap of 4611686018427387904 bytes"));
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loop_counts_every_page), cmocka_unit_test(loop_errors),
		cmocka_unit_test(groups_of_a_step), cmocka_unit_test(real_processes_and_threads),
		cmocka_unit_test(task_without_its_file), cmocka_unit_test(killed_task_fails_the_op),
		cmocka_unit_test(stopped_task_is_stuck), cmocka_unit_test(refused_mapping_fails_the_op),
	};
	signals_install();
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
