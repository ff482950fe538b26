// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Child processes (see child.h). Everything the child needs -- the resolved
 * program path, the environment, the output file -- is prepared before
 * fork(), because between fork and exec the child may only make
 * async-signal-safe calls. A failure in the child (cannot join the cgroup,
 * cannot bind, cannot exec) is written as {step, errno} to a close-on-exec
 * pipe; the parent reads either EOF (exec worked) or the failure, and turns
 * it into a message that names the command.
 */
#include "core/child.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/path.h"
#include "core/util.h"

extern char **environ;

/* What failed in the child, carried through the pipe. */
enum child_step {
	STEP_CGROUP = 1,
	STEP_NUMA,
	STEP_CHDIR,
	STEP_STDIO,
	STEP_IDS,
	STEP_EXEC,
};

struct child_failure {
	int step;
	int err;
};

static const char *child_name(const struct child *c)
{
	if (c->name)
		return c->name;
	if (c->argv && c->argv[0])
		return c->argv[0];
	return "child";
}

/* Undo for the registry: kill the whole group, then reap the leader. */
static void child_cleanup(void *arg)
{
	struct child *c = arg;

	if (c->pid > 0 && c->running) {
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->running = false;
	}
}

/* environ plus env_add ("K=V" replaces an inherited K). NULL: no additions. */
static char **build_env(const char *const *add)
{
	size_t n = 0, na = 0, k = 0;
	char **env;

	if (!add || !add[0])
		return NULL;
	while (environ[n])
		n++;
	while (add[na])
		na++;
	env = xcalloc(n + na + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t kl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		bool replaced = false;

		for (size_t j = 0; j < na; j++)
			if (!strncmp(add[j], environ[i], kl) && add[j][kl] == '=')
				replaced = true;
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < na; j++)
		env[k++] = (char *)add[j];
	env[k] = NULL;
	return env;
}

static void write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += w;
		len -= (size_t)w;
	}
}

static void __attribute__((noreturn)) child_fail(int fd, int step)
{
	struct child_failure f = { step, errno };

	write_full(fd, &f, sizeof(f));
	_exit(127);
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void __attribute__((noreturn))
child_main(struct child *c, const char *prog, char **envp, int out_fd, int errlog_fd, int null_fd,
	   int err_fd, pid_t parent, const sigset_t *oldmask)
{
	static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2 };
	struct sigaction dfl;

	/* the parent's handlers (and its cleanup registry) must never run here */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < ARRAY_SIZE(reset); i++)
		sigaction(reset[i], &dfl, NULL);
	sigprocmask(SIG_SETMASK, oldmask, NULL);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)   /* the parent died before prctl */
		_exit(127);

	if (c->cgroup_procs) {
		int fd = open(c->cgroup_procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			child_fail(err_fd, STEP_CGROUP);
		close(fd);
	}
	if (c->bind && c->bind->node >= 0) {
		int r = numa_apply_self(c->bind);
		if (r < 0) {
			errno = -r;
			child_fail(err_fd, STEP_NUMA);
		}
	}
	if (c->dir && chdir(c->dir))
		child_fail(err_fd, STEP_CHDIR);
	if (c->null_stdio) {
		if (dup2(null_fd, 0) < 0 || dup2(null_fd, 1) < 0 || dup2(null_fd, 2) < 0)
			child_fail(err_fd, STEP_STDIO);
	} else if (out_fd >= 0) {
		if (dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 ||
		    dup2(errlog_fd >= 0 ? errlog_fd : out_fd, 2) < 0)
			child_fail(err_fd, STEP_STDIO);
	}
	if (c->inherit_fd > 0 && fcntl(c->inherit_fd, F_SETFD, 0) < 0)
		child_fail(err_fd, STEP_STDIO);
	if (c->set_ids) {
		if (setgroups(0, NULL) || setgid(c->gid) || setuid(c->uid))
			child_fail(err_fd, STEP_IDS);
		/* changing credentials clears the parent-death signal: set it again,
		 * or a postmaster would outlive a SIGKILLed lrubench */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
	}
	if (c->fn) {
		int r;

		/* fn may call exit(): the atexit registry run must not touch the parent's things */
		cleanup_forget_all();
		close(err_fd);   /* EOF tells the parent the child started */
		r = c->fn(c->fn_arg);
		_exit(r & 0xff);
	}
	execve(prog, (char *const *)c->argv, envp ? envp : environ);
	child_fail(err_fd, STEP_EXEC);
}

static const char *step_what(int step)
{
	switch (step) {
	case STEP_CGROUP: return "cannot join cgroup";
	case STEP_NUMA: return "cannot bind to NUMA node";
	case STEP_CHDIR: return "cannot change to folder";
	case STEP_STDIO: return "cannot redirect output";
	case STEP_IDS: return "cannot change user";
	default: return NULL;
	}
}

static const char *step_object(const struct child *c, int step)
{
	switch (step) {
	case STEP_CGROUP: return c->cgroup_procs;
	case STEP_CHDIR: return c->dir;
	case STEP_STDIO: return c->out_path ? c->out_path : "/dev/null";
	default: return NULL;
	}
}

int child_start_begin(struct child *c)
{
	const char *name = child_name(c);
	char *prog = NULL;
	char **envp = NULL;
	int out_fd = -1, errlog_fd = -1, null_fd = -1, pipefd[2] = { -1, -1 };
	sigset_t all, old;
	pid_t parent = getpid(), pid;
	int ret = -1;

	c->pid = 0;
	c->running = false;
	c->cleanup_id = 0;
	c->term_signal = 0;
	c->start_fd = -1;
	if (!!c->argv == !!c->fn)
		return error("child '%s': exactly one of argv and fn must be set", name);
	if (c->argv) {
		if (!c->argv[0])
			return error("child '%s': empty argv", name);
		/* a name with '/' goes to execve as it is, so that its
		 * failure (EACCES, ENOEXEC...) is the one reported */
		prog = strchr(c->argv[0], '/') ? xstrdup(c->argv[0]) : find_in_path(c->argv[0]);
		if (!prog)
			return error("cannot run '%s': %s", c->argv[0], strerror(ENOENT));
	}
	envp = build_env(c->env_add);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		error_errno("cannot open /dev/null");
		goto out;
	}
	if (c->out_path && !c->null_stdio) {
		out_fd = open(c->out_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (out_fd < 0) {
			error_errno("cannot run '%s': cannot open %s", name, c->out_path);
			goto out;
		}
		if (c->err_path) {
			errlog_fd = open(c->err_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (errlog_fd < 0) {
				error_errno("cannot run '%s': cannot open %s", name, c->err_path);
				goto out;
			}
		}
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		error_errno("cannot run '%s': pipe", name);
		goto out;
	}
	fflush(NULL);   /* no stdio buffer gets written twice */

	/* no handler may run in the child before it resets them */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		child_main(c, prog, envp, out_fd, errlog_fd, null_fd, pipefd[1], parent, &old);
	}
	if (pid > 0) {
		c->pid = pid;
		c->running = true;
		setpgid(pid, pid);   /* also here, so child_signal never races the child */
		c->cleanup_id = cleanup_push(name, child_cleanup, c);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		error_errno("cannot run '%s': fork", name);
		goto out;
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	if (c->cleanup_id < 0) {
		/* untracked, it could outlive us: do not let it run */
		kill(-pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->running = false;
		c->cleanup_id = 0;
		error("cannot run '%s': the cleanup registry is full", name);
		goto out;
	}

	/* child_start_finish reads what the child says about its start */
	c->start_fd = pipefd[0];
	pipefd[0] = -1;
	ret = 0;
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (out_fd >= 0)
		close(out_fd);
	if (errlog_fd >= 0)
		close(errlog_fd);
	if (null_fd >= 0)
		close(null_fd);
	free(envp);
	free(prog);
	return ret;
}

/*
 * A child that never gets to exec (stopped, or blocked in a setup step: an
 * open of its cgroup file that cannot complete) would hold child_start_finish
 * forever, and with it the whole set before its watch begins: the start has
 * a deadline of its own, and a stop request (SIGINT) ends the wait too (the
 * child then counts as started, and goes with the caller's stop).
 */
static int start_stuck(struct child *c, const char *why)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->running = false;
	cleanup_pop(c->cleanup_id, false);
	c->cleanup_id = 0;
	return error("cannot run '%s': %s (killed)", child_name(c), why);
}

int child_start_finish(struct child *c)
{
	struct child_failure f;
	ssize_t r;
	int fd = c->start_fd;
	double limit = c->start_timeout > 0 ? c->start_timeout : CHILD_START_TIMEOUT,
	       end = now_monotonic() + limit;

	if (fd < 0)
		return 0;
	c->start_fd = -1;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = end - now_monotonic();
		int n;

		if (lb_stop_requested()) {
			/* counted as started: the caller's stop kills it with the rest */
			close(fd);
			return 0;
		}
		if (left <= 0) {
			char why[96];

			close(fd);
			snprintf(why, sizeof(why), "it did not start within %g s (stopped, or stuck "
				 "before exec)", limit);
			return start_stuck(c, why);
		}
		/* a look at the stop request at least every 100 ms */
		n = poll(&p, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
		if (n > 0)
			break;
		if (n < 0 && errno != EINTR) {
			close(fd);
			return start_stuck(c, "poll of its start pipe failed");
		}
	}
	do
		r = read(fd, &f, sizeof(f));
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r == (ssize_t)sizeof(f)) {
		const char *name = child_name(c), *what = step_what(f.step), *obj = step_object(c, f.step);

		/* the child has exited (127): reap it */
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->running = false;
		cleanup_pop(c->cleanup_id, false);
		c->cleanup_id = 0;
		if (!what)
			error("cannot run '%s': %s", name, strerror(f.err));
		else if (obj)
			error("cannot run '%s': %s %s: %s", name, what, obj, strerror(f.err));
		else
			error("cannot run '%s': %s: %s", name, what, strerror(f.err));
		return -1;
	}
	return 0;
}

int child_start(struct child *c)
{
	if (child_start_begin(c))
		return -1;
	return child_start_finish(c);
}

static int decode_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

static void reaped(struct child *c)
{
	if (c->start_fd >= 0) {
		/* begun, never finished: its start no longer matters */
		close(c->start_fd);
		c->start_fd = -1;
	}
	c->running = false;
	cleanup_pop(c->cleanup_id, false);
	c->cleanup_id = 0;
}

/* Try to reap without blocking: 1 reaped, 0 still running, -1 error. */
static int try_reap(struct child *c, int *code, struct rusage *ru)
{
	int status;
	pid_t r;

	do
		r = wait4(c->pid, &status, WNOHANG, ru);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		if (errno == ECHILD) {
			/* reaped by the cleanup registry (or never ours) */
			reaped(c);
			if (code)
				*code = 128 + SIGKILL;
			return 1;
		}
		return error_errno("cannot wait for '%s' (pid %d)", child_name(c), (int)c->pid);
	}
	if (r == 0)
		return 0;
	reaped(c);
	c->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (code)
		*code = decode_status(status);
	return 1;
}

/*
 * Has the child exited? Looked at without reaping it (WNOWAIT): until it is
 * reaped its pid, and with it the process group id, cannot be given to
 * another process, so kill(-pid) still reaches only what is left of our
 * group. 1 exited (a zombie now), 0 still running, -1 error.
 */
static int try_peek(struct child *c)
{
	siginfo_t si;
	int r;

	memset(&si, 0, sizeof(si));
	do
		r = waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		if (errno == ECHILD) {
			/* reaped by the cleanup registry (or never ours) */
			reaped(c);
			return 1;
		}
		return error_errno("cannot wait for '%s' (pid %d)", child_name(c), (int)c->pid);
	}
	return si.si_pid != 0;
}

/*
 * Wait up to timeout seconds (< 0: forever). A pidfd becomes readable when
 * the child exits, so poll() sleeps exactly as long as needed; a SIGINT that
 * lands just before the poll still ends it at once (lb_poll lets the stop
 * signals in only inside the wait). honour_stop: return CHILD_STOP when
 * lb_interrupted is set. reap
 * false: return CHILD_REAPED once the child has exited but leave it a zombie (try_peek).
 */
/* wait_common's pidfd before it is needed (-1 is "none to be had") */
#define PIDFD_NOT_YET (-2)

static int wait_common(struct child *c, double timeout, int *code, struct rusage *ru, bool honour_stop,
		       bool reap)
{
	double end = timeout >= 0 ? now_monotonic() + timeout : 0;
	int pidfd, r;

	if (!c->running || c->pid <= 0)
		return error("'%s' is not running", child_name(c));
	pidfd = PIDFD_NOT_YET;   /* opened only when we really have to sleep */
	for (;;) {
		/* woken by the child's end, the timeout or a stop signal
		 * (lb_poll): a look a second is for nothing else, and each is a
		 * wake-up on a CPU the child may need (child_set.c CHILD_SET_LOOK_MS) */
		int slice = 1000;

		r = reap ? try_reap(c, code, ru) : try_peek(c);
		if (r < 0)
			break;
		if (r == 1) {
			r = CHILD_REAPED;
			break;
		}
		if (honour_stop && lb_stop_requested()) {
			r = CHILD_STOP;
			break;
		}
		if (timeout >= 0) {
			double left = end - now_monotonic();
			if (left <= 0) {
				r = CHILD_TIMEOUT;
				break;
			}
			if (left * 1000 < slice)
				slice = (int)(left * 1000) + 1;
		}
		if (pidfd == PIDFD_NOT_YET)
			pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };
			/* a wait that honours no stop (child_stop's grace, which a
			 * stop request may have started) must still sleep */
			if (honour_stop)
				lb_poll(&p, 1, slice);
			else
				poll(&p, 1, slice);
		} else {
			/* no pidfd (old kernel): short sleeps */
			struct timespec ts = { 0, 2 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return r;
}

bool child_has_exited(struct child *c)
{
	return !c->running || c->pid <= 0 || try_peek(c) != 0;
}

int child_wait(struct child *c, double timeout, int *code, struct rusage *ru)
{
	return wait_common(c, timeout, code, ru, true, true);
}

void child_signal(struct child *c, int sig)
{
	if (!c->running || c->pid <= 0)
		return;
	if (kill(-c->pid, sig) && errno == ESRCH)
		kill(c->pid, sig);
}

void child_stop(struct child *c, double grace)
{
	int status;

	if (!c->running || c->pid <= 0)
		return;
	child_signal(c, SIGTERM);
	if (grace > 0)
		wait_common(c, grace, NULL, NULL, false, false);
	if (!c->running)
		return;   /* the cleanup registry reaped it meanwhile */
	/*
	 * The leader is a zombie or still running; either way it is not reaped,
	 * so its pid is still the group's id and nobody else's: SIGKILL reaches
	 * the leader and the descendants that outlived it, never a process
	 * group that a reused pid made. Only then reap.
	 */
	child_signal(c, SIGKILL);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	reaped(c);
}

void child_describe_code(int code, char *buf, size_t len)
{
	if (code > 128 && code < 128 + 65)
		snprintf(buf, len, "killed by signal %d (%s)", code - 128, strsignal(code - 128));
	else
		snprintf(buf, len, "exited with %d", code);
}

int child_failed(int code, const char *log, const char *fmt, ...)
{
	struct strbuf what = STRBUF_INIT;
	char desc[64];
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&what, fmt, ap);
	va_end(ap);
	child_describe_code(code, desc, sizeof(desc));
	error_with_log(log, "%s %s", what.buf, desc);
	strbuf_release(&what);
	return -1;
}

int child_run(struct child *c, double timeout)
{
	int code = -1, r;

	if (child_start(c))
		return -1;
	r = child_wait(c, timeout, &code, NULL);
	if (r == 0)
		return code;
	if (r == 1)
		error("'%s' did not finish within %.0f s: stopped", child_name(c), timeout);
	child_stop(c, 2.0);
	return -1;
}
