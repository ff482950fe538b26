// SPDX-License-Identifier: GPL-2.0-or-later
/* A minimal QMP client (see qmp.h). Replies are one JSON object a line. */
#include "vm/qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <stdlib.h>
#include <unistd.h>
#include "core/cleanup.h"

/* The next whole line from the socket, as a parsed object. */
static json_object *read_message(struct qmp *q, struct strbuf *err)
{
	double deadline = now_monotonic() + q->timeout;

	for (;;) {
		char *nl = q->in.len ? memchr(q->in.buf, '\n', q->in.len) : NULL;
		char buf[4096];
		struct pollfd p = { q->fd, POLLIN, 0 };
		double left;
		ssize_t r;

		if (nl) {
			size_t l = (size_t)(nl - q->in.buf) + 1;
			char *line = xstrndup(q->in.buf, l);
			json_object *o = json_tokener_parse(line);

			memmove(q->in.buf, q->in.buf + l, q->in.len - l + 1);
			q->in.len -= l;
			if (!o || !json_object_is_type(o, json_type_object)) {
				strbuf_addf(err, "qemu sent QMP text that is not a JSON object: %.120s", line);
				json_object_put(o);
				free(line);
				return NULL;
			}
			free(line);
			return o;
		}
		left = deadline - now_monotonic();
		if (left <= 0) {
			strbuf_addf(err, "qemu did not answer on its QMP socket within %.0f s", q->timeout);
			return NULL;
		}
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			strbuf_addf(err, "poll on the QMP socket: %s", strerror(errno));
			return NULL;
		}
		if (!r)
			continue;
		r = read(q->fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			strbuf_addf(err, "qemu closed its QMP socket%s%s", r ? ": " : "",
				    r ? strerror(errno) : "");
			return NULL;
		}
		if (q->in.len + (size_t)r > (1 << 20)) {
			strbuf_addstr(err, "a QMP message of more than 1 MiB");
			return NULL;
		}
		strbuf_add(&q->in, buf, (size_t)r);
	}
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t w = write(fd, s, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

int qmp_execute(struct qmp *q, const char *command, json_object **ret, struct strbuf *err)
{
	return qmp_execute_args(q, command, NULL, ret, err);
}

int qmp_execute_args(struct qmp *q, const char *command, json_object *args, json_object **ret,
		     struct strbuf *err)
{
	char *msg = args ? xasprintf("{\"execute\": \"%s\", \"arguments\": %s}\n", command,
				     json_object_to_json_string_ext(args, JSON_C_TO_STRING_PLAIN))
			 : xasprintf("{\"execute\": \"%s\"}\n", command);
	int rc = -1;

	if (ret)
		*ret = NULL;
	if (write_all(q->fd, msg, strlen(msg))) {
		strbuf_addf(err, "cannot send %s to qemu: %s", command, strerror(errno));
		free(msg);
		return -1;
	}
	free(msg);
	for (;;) {
		json_object *o = read_message(q, err), *v;

		if (!o)
			break;
		if (json_object_object_get_ex(o, "return", &v)) {
			if (ret)
				*ret = json_object_get(v);
			json_object_put(o);
			rc = 0;
			break;
		}
		if (json_object_object_get_ex(o, "error", &v)) {
			json_object *d = NULL;

			json_object_object_get_ex(v, "desc", &d);
			strbuf_addf(err, "qemu refused %s: %s", command,
				    d ? json_object_get_string(d) : json_object_to_json_string(v));
			json_object_put(o);
			break;
		}
		json_object_put(o);   /* an event: not our answer */
	}
	return rc;
}

int qmp_open(struct qmp *q, const char *path, double timeout,
	     bool (*still_alive)(void *arg), void *arg, struct strbuf *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	double deadline = now_monotonic() + timeout;
	json_object *greeting;

	memset(q, 0, sizeof(*q));
	strbuf_init(&q->in);
	q->fd = -1;
	q->timeout = timeout;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		strbuf_addf(err, "QMP socket path %s is longer than a unix socket allows (%zu): "
			    "set TMPDIR to a shorter folder", path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (;;) {
		q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (q->fd < 0) {
			strbuf_addf(err, "socket: %s", strerror(errno));
			return -1;
		}
		if (!connect(q->fd, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		close(q->fd);
		q->fd = -1;
		if (errno != ENOENT && errno != ECONNREFUSED) {
			strbuf_addf(err, "cannot connect to qemu's QMP socket %s: %s", path, strerror(errno));
			return -1;
		}
		if (still_alive && !still_alive(arg)) {
			strbuf_addstr(err, "qemu ended before its QMP socket was ready");
			return -1;
		}
		if (now_monotonic() > deadline || lb_stop_requested()) {
			strbuf_addf(err, "qemu's QMP socket %s did not appear within %.0f s", path, timeout);
			return -1;
		}
		usleep(20 * 1000);
	}
	greeting = read_message(q, err);
	if (!greeting || !json_object_object_get_ex(greeting, "QMP", NULL)) {
		if (greeting)
			strbuf_addstr(err, "qemu's QMP socket sent no greeting");
		json_object_put(greeting);
		qmp_close(q);
		return -1;
	}
	json_object_put(greeting);
	if (qmp_execute(q, "qmp_capabilities", NULL, err)) {
		qmp_close(q);
		return -1;
	}
	return 0;
}

void qmp_close(struct qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	strbuf_release(&q->in);
}
