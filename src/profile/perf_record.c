// SPDX-License-Identifier: GPL-2.0-or-later
/* perf record around one iteration (perf_record.h). */
#include "profile/perf_record.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"

#define ACK_SECONDS 30.0      /* perf sets up its events before it acks "enable" */
#define STOP_SECONDS 120.0    /* perf writes its data file before it exits */

/* registry undo: async-signal-safe */
static void unlink_path(void *arg)
{
	unlink(arg);
}

static void describe_exit(const struct child *c, const char *what, int code, struct strbuf *why)
{
	char d[96];

	if (c->term_signal)
		child_describe_code(128 + c->term_signal, d, sizeof(d));
	else
		snprintf(d, sizeof(d), "exited with %d", code);
	strbuf_addf(why, "%s %s", what, d);
}

static void add_log_tail(const char *log, struct strbuf *why)
{
	struct strbuf tail = STRBUF_INIT;

	file_tail(log, 3, &tail);
	if (tail.len) {
		while (tail.len && tail.buf[tail.len - 1] == '\n')
			tail.buf[--tail.len] = '\0';
		for (size_t i = 0; i < tail.len; i++)
			if (tail.buf[i] == '\n')
				tail.buf[i] = ' ';
		strbuf_addf(why, " (perf said: %s)", tail.buf);
	}
	strbuf_release(&tail);
}

/*
 * Send a control command and wait for perf's "ack". 0 acked; -1 perf died
 * (why says how); 1 no answer in time.
 */
static int command(struct perf_record *r, const char *cmd, double timeout, struct strbuf *why)
{
	double end = now_monotonic() + timeout;
	char buf[64];
	size_t got = 0;

	if (write(r->ctl_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
		strbuf_addf(why, "%s: cannot write to %s: %s", r->what, r->ctl, strerror(errno));
		return -1;
	}
	for (;;) {
		struct pollfd p = { .fd = r->ack_fd, .events = POLLIN };
		int code, w;

		if (poll(&p, 1, 100) > 0) {
			ssize_t n = read(r->ack_fd, buf + got, sizeof(buf) - 1 - got);
			if (n > 0) {
				got += (size_t)n;
				buf[got] = '\0';
				if (strstr(buf, "ack\n"))
					return 0;
				if (got >= sizeof(buf) - 1)
					got = 0;
			}
		}
		w = child_wait(&r->c, 0, &code, NULL);
		if (w == CHILD_REAPED) {
			describe_exit(&r->c, r->what, code, why);
			if (!r->c.term_signal)
				add_log_tail(r->log, why);
			return -1;
		}
		if (w == CHILD_STOP) {
			strbuf_addstr(why, "interrupted");
			return -1;
		}
		if (now_monotonic() > end)
			return 1;
	}
}

static int make_fifo(const char *path, int *id)
{
	unlink(path);
	if (mkfifo(path, 0600))
		return error_errno("cannot make the FIFO %s", path);
	*id = cleanup_push("perf control FIFO", unlink_path, (void *)path);
	return *id < 0 ? -1 : 0;
}

int perf_record_start(struct perf_record *r, const char *perf, const char *const *sub,
		      const char *dir, const char *name, const char *log, struct strbuf *why)
{
	const char *what = r->what;
	bool sigint_stop = r->sigint_stop;

	memset(r, 0, sizeof(*r));
	r->what = what ? what : "perf record";
	r->sigint_stop = sigint_stop;
	r->ctl_fd = r->ack_fd = -1;
	r->live = true;
	r->data = xasprintf("%s/%s.data", dir, name);
	r->ctl = xasprintf("%s/%s.ctl", dir, name);
	r->ack = xasprintf("%s/%s.ack", dir, name);
	r->log = xstrdup(log);
	if (make_fifo(r->ctl, &r->ctl_id) || make_fifo(r->ack, &r->ack_id)) {
		strbuf_addf(why, "%s: cannot make its control FIFOs in %s", r->what, dir);
		goto fail;
	}
	/* O_RDWR: opening a FIFO so never blocks, whether or not perf has it open yet */
	r->ctl_fd = open(r->ctl, O_RDWR | O_CLOEXEC);
	r->ack_fd = open(r->ack, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (r->ctl_fd < 0 || r->ack_fd < 0) {
		strbuf_addf(why, "%s: cannot open its control FIFOs: %s", r->what, strerror(errno));
		goto fail;
	}
	/* the data file is registered before perf can create it */
	unlink(r->data);
	r->data_id = cleanup_push("perf data file", unlink_path, r->data);
	if (r->data_id < 0)
		goto fail;
	strlist_push(&r->argv, perf);
	for (size_t i = 0; sub[i]; i++)
		strlist_push(&r->argv, sub[i]);
	strlist_push(&r->argv, "-o");
	strlist_push(&r->argv, r->data);
	strlist_push(&r->argv, "-D");
	strlist_push(&r->argv, "-1");
	strlist_pushf(&r->argv, "--control=fifo:%s,%s", r->ctl, r->ack);
	r->c.argv = (const char *const *)r->argv.v;
	r->c.out_path = r->log;
	r->c.name = r->what;
	if (child_start(&r->c)) {
		strbuf_addf(why, "%s could not start (see the message above)", r->what);
		goto fail;
	}
	r->started = true;
	switch (command(r, "enable\n", ACK_SECONDS, why)) {
	case 0:
		return 0;
	case 1:
		strbuf_addf(why, "%s did not acknowledge 'enable' within %.0f s", r->what, ACK_SECONDS);
		add_log_tail(r->log, why);
		break;
	default:
		break;
	}
fail:
	perf_record_release(r);
	return -1;
}

int perf_record_stop(struct perf_record *r, struct strbuf *why)
{
	double start, sigint_at;
	bool acked = false, sent_sigint = false;
	char buf[64];
	int code = -1;
	struct stat st;

	if (!r->started)
		return -1;
	if (command(r, "disable\n", ACK_SECONDS, why))
		return -1;
	/* "stop" makes perf write its data and exit 0; a perf that does not
	 * know the command does not ack it, and gets SIGINT instead; perf
	 * stat acks it and goes on (perf 6.1), so it gets SIGINT at once */
	if (r->sigint_stop) {
		child_signal(&r->c, SIGINT);
		sent_sigint = true;
	} else if (write(r->ctl_fd, "stop\n", 5) != 5) {
		strbuf_addf(why, "%s: cannot write to %s: %s", r->what, r->ctl, strerror(errno));
		return -1;
	}
	start = now_monotonic();
	sigint_at = start + 10.0;
	for (;;) {
		struct pollfd p = { .fd = r->ack_fd, .events = POLLIN };
		int w;

		if (poll(&p, 1, 100) > 0 && read(r->ack_fd, buf, sizeof(buf)) > 0)
			acked = true;
		w = child_wait(&r->c, 0, &code, NULL);
		if (w == CHILD_REAPED)
			break;
		if (w == CHILD_STOP || w == CHILD_ERROR) {
			child_stop(&r->c, 1.0);
			strbuf_addstr(why, w == CHILD_STOP ? "interrupted" : "cannot wait for perf");
			return -1;
		}
		if (!acked && !sent_sigint && now_monotonic() > sigint_at) {
			child_signal(&r->c, SIGINT);
			sent_sigint = true;
		}
		if (now_monotonic() > start + STOP_SECONDS) {
			child_stop(&r->c, 1.0);
			strbuf_addf(why, "%s did not stop within %.0f s", r->what, STOP_SECONDS);
			return -1;
		}
	}
	if (sent_sigint && r->c.term_signal == SIGINT)
		code = 0;   /* perf re-raises the SIGINT it stopped on */
	if (code) {
		describe_exit(&r->c, r->what, code, why);
		if (!r->c.term_signal)
			add_log_tail(r->log, why);
		return -1;
	}
	if (stat(r->data, &st) || !S_ISREG(st.st_mode)) {
		strbuf_addf(why, "%s exited 0 but wrote no %s", r->what, r->data);
		return -1;
	}
	return 0;
}

void perf_record_release(struct perf_record *r)
{
	if (!r->live)
		return;
	r->live = false;
	if (r->started && r->c.running)
		child_stop(&r->c, 1.0);
	r->started = false;
	if (r->ctl_fd >= 0)
		close(r->ctl_fd);
	if (r->ack_fd >= 0)
		close(r->ack_fd);
	r->ctl_fd = r->ack_fd = -1;
	cleanup_pop(r->data_id, true);
	cleanup_pop(r->ctl_id, true);
	cleanup_pop(r->ack_id, true);
	r->data_id = r->ctl_id = r->ack_id = 0;
	strlist_release(&r->argv);
	free(r->data);
	free(r->ctl);
	free(r->ack);
	free(r->log);
	r->data = r->ctl = r->ack = r->log = NULL;
}

static int run_report(const char *perf, const char *const *args, const char *out, bool apart,
		      double timeout, struct strbuf *why)
{
	struct strlist argv = STRLIST_INIT;
	struct child c;
	/* perf's warnings go beside the output, never into it: in a chroot perf
	 * warns "assertion failed at util/namespaces.c:301" when it cannot
	 * chdir back after entering a sampled process's mount namespace, and
	 * that line was read as the report's first */
	char *err = apart ? xasprintf("%s.stderr", out) : NULL;
	struct stat st;
	int code, w, ret = -1;

	strlist_push(&argv, perf);
	for (size_t i = 0; args[i]; i++)
		strlist_push(&argv, args[i]);
	memset(&c, 0, sizeof(c));
	c.argv = (const char *const *)argv.v;
	c.out_path = out;
	c.err_path = err;
	c.name = "perf";
	unlink(out);
	if (err)
		unlink(err);
	if (child_start(&c)) {
		strbuf_addf(why, "perf %s %s could not start", args[0], args[1] ? args[1] : "");
		goto out;
	}
	w = child_wait(&c, timeout, &code, NULL);
	if (w != CHILD_REAPED) {
		child_stop(&c, 1.0);
		strbuf_addf(why, w == CHILD_STOP ? "interrupted" : "perf %s %s did not finish within %.0f s",
			    args[0], args[1] ? args[1] : "", timeout);
		goto out;
	}
	if (code) {
		char what[64];

		snprintf(what, sizeof(what), "perf %s %s", args[0], args[1] ? args[1] : "");
		describe_exit(&c, what, code, why);
		if (!c.term_signal)
			add_log_tail(err && stat(err, &st) == 0 && st.st_size > 0 ? err : out, why);
		goto out;
	}
	ret = 0;
out:
	/* an empty one says nothing */
	if (err && stat(err, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		unlink(err);
	free(err);
	strlist_release(&argv);
	return ret;
}

int perf_run_report(const char *perf, const char *const *args, const char *out, double timeout,
		    struct strbuf *why)
{
	return run_report(perf, args, out, false, timeout, why);
}

int perf_run_report_stdout(const char *perf, const char *const *args, const char *out,
			   double timeout, struct strbuf *why)
{
	return run_report(perf, args, out, true, timeout, why);
}
