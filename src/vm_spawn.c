// SPDX-License-Identifier: GPL-2.0-or-later
/* Processes for VM mode, in the manner of git's run-command.c (see vm_spawn.h). */
#include "vm_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cleanup.h"
#include "util.h"

static void proc_undo(void *arg)
{
	struct vm_proc *p = arg;
	int st;

	if (!p->running)
		return;
	kill(p->own_group ? -p->pid : p->pid, SIGKILL);
	while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
		;
	p->running = false;
}

int vm_spawn(struct vm_proc *p, const char *const *argv)
{
	int pfd[2], err = 0;
	ssize_t r;
	pid_t pid;
	const char *name = p->name ? p->name : argv[0];

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return error_errno("cannot start %s: pipe", name);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return error_errno("cannot start %s: fork", name);
	}
	if (pid == 0) {
		/* only async-signal-safe calls from here to exec */
		int fd;
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (p->own_group)
			setpgid(0, 0);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			if (fd > 2)
				close(fd);
		}
		if (p->out_path) {
			fd = open(p->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0) {
				err = errno;
				r = write(pfd[1], &err, sizeof(err));
				_exit(127);
			}
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		execvp(argv[0], (char *const *)argv);
		err = errno;
		r = write(pfd[1], &err, sizeof(err));
		(void)r;
		_exit(127);
	}
	close(pfd[1]);
	do
		r = read(pfd[0], &err, sizeof(err));
	while (r < 0 && errno == EINTR);
	close(pfd[0]);
	if (r == sizeof(err)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (err == ENOENT)
			return error("cannot run %s: command not found", argv[0]);
		return error("cannot run %s: %s", argv[0], strerror(err));
	}
	if (p->own_group)
		setpgid(pid, pid);   /* both sides, so there is no race with a signal */
	p->pid = pid;
	p->running = true;
	p->cleanup_id = cleanup_push(name, proc_undo, p);
	return 0;
}

int vm_proc_wait(struct vm_proc *p, double timeout, int *code)
{
	double end = timeout < 0 ? 0 : now_monotonic() + timeout;

	if (!p->running)
		return -1;
	for (;;) {
		int st;
		pid_t r = waitpid(p->pid, &st, WNOHANG);
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (r == p->pid) {
			p->running = false;
			cleanup_pop(p->cleanup_id, false);
			*code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return error_errno("cannot wait for %s", p->name ? p->name : "child");
		if (lb_stop_requested())
			return -2;
		if (timeout >= 0 && now_monotonic() > end)
			return 1;
		nanosleep(&ts, NULL);
	}
}

void vm_proc_stop(struct vm_proc *p, int sig, double grace)
{
	double end = now_monotonic() + grace;

	if (!p->running)
		return;
	kill(p->own_group ? -p->pid : p->pid, sig);
	while (now_monotonic() < end) {
		int st;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
			p->running = false;
			cleanup_pop(p->cleanup_id, false);
			return;
		}
		nanosleep(&ts, NULL);
	}
	cleanup_pop(p->cleanup_id, true);
}

int vm_run_argv(const char *const *argv, const char *out_path, double timeout)
{
	struct vm_proc p = { .name = argv[0], .out_path = out_path };
	int code = -1, r;

	if (vm_spawn(&p, argv))
		return -1;
	r = vm_proc_wait(&p, timeout, &code);
	if (r != 0) {
		vm_proc_stop(&p, SIGTERM, 2);
		return r == 1 ? 124 : -1;
	}
	return code;
}
