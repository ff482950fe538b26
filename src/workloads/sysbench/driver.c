// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PostgreSQL lifecycle + sysbench command lines for the sysbench workload.
 * See sysbench_driver.h for the shape; comments here say why.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"
#include "core/path.h"
#include "workloads/sysbench/driver.h"

/* ------------------------------------------------------------------ pure */

void sb_thread_stride(unsigned max, struct ull_list *out)
{
	/* mmtests' threads_huge_stride_begin, as its sysbench shellpack used
	 * it until 2026 (and so in the seed's runs): small counts densely,
	 * then wider steps, always ending at max. */
	unsigned long long v[LB_LIST_MAX * 4];
	size_t n = 0;

	out->n = 0;
	if (max == 0)
		return;
#define SEQ(from, step, to) \
	for (unsigned long long x = (from); x <= (to) && n < ARRAY_SIZE(v); x += (step)) \
		v[n++] = x
	if (max >= 32) {
		SEQ(1, 4, 8);
		SEQ(12, 9, 32);
		SEQ(48, 31, max);
	} else if (max >= 8) {
		SEQ(1, 3, 8);
		SEQ(12, 6, max);
	} else {
		SEQ(1, 2, max);
	}
#undef SEQ
	/* keep room for max itself at the end */
	for (size_t i = 0; i < n && out->n < LB_LIST_MAX - 1; i++)
		if (v[i] < max)
			out->v[out->n++] = v[i];
	out->v[out->n++] = max;
}

unsigned long long sb_table_rows(uint64_t workload_bytes, unsigned long long tables)
{
	unsigned long long rows = workload_bytes / (1024 * 1024) * SB_ROWS_PER_MB;

	return tables ? rows / tables : 0;
}

void pg_format_conf(struct strbuf *sb, const struct pg_conf *c)
{
	strbuf_addstr(sb, "\n# --- written by lrubench (later settings win) ---\n");
	strbuf_addf(sb, "listen_addresses = '127.0.0.1'\n");
	strbuf_addf(sb, "port = %d\n", c->port);
	strbuf_addf(sb, "unix_socket_directories = '%s'\n", c->socket_dir);
	strbuf_addf(sb, "unix_socket_permissions = 0700\n");
	strbuf_addf(sb, "max_connections = %llu\n", c->max_connections);
	strbuf_addf(sb, "shared_buffers = %llukB\n", (unsigned long long)(c->shared_buffers / 1024));
	strbuf_addf(sb, "effective_cache_size = %llukB\n",
		    (unsigned long long)(c->effective_cache_size / 1024));
	strbuf_addf(sb, "work_mem = %llukB\n", (unsigned long long)(c->work_mem / 1024));
	/* A throwaway cluster: crash safety buys nothing, and without it the
	 * prepare step is not dominated by WAL flushes. */
	strbuf_addstr(sb, "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n");
	/* No autovacuum storms or checkpoints in the middle of measured runs of
	 * a read-only workload: the data does not change after prepare. */
	strbuf_addstr(sb, "autovacuum = off\ncheckpoint_timeout = 1d\nmax_wal_size = 4GB\n");
	strbuf_addstr(sb, "logging_collector = off\nlog_destination = 'stderr'\n");
}

static int version_of(const char *name)
{
	/* "15" -> 150, "9.6" -> 96: old two-part versions sort below 10 */
	char *end;
	long major = strtol(name, &end, 10);

	if (end == name || major <= 0)
		return -1;
	if (*end == '.') {
		long minor = strtol(end + 1, &end, 10);
		return *end ? -1 : (int)(major * 10 + minor);
	}
	return *end ? -1 : (int)(major * 10);
}

int pg_find_bindir(const char *root, char *out, size_t len)
{
	DIR *d = opendir(root);
	struct dirent *e;
	int best = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		int v = version_of(e->d_name);

		if (v < 0 || v <= best)
			continue;
		snprintf(path, sizeof(path), "%s/%s/bin/postgres", root, e->d_name);
		if (access(path, X_OK))
			continue;
		best = v;
		snprintf(out, len, "%s/%s/bin", root, e->d_name);
	}
	closedir(d);
	return best < 0 ? -1 : 0;
}

int pg_check_bindir(const char *dir, struct strbuf *why)
{
	static const char *const need[] = { "postgres", "initdb", "psql", NULL };
	struct stat st;

	if (stat(dir, &st)) {
		strbuf_addf(why, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(why, "%s: not a directory", dir);
		return -1;
	}
	for (int i = 0; need[i]; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, need[i]);
		if (access(path, X_OK)) {
			strbuf_addf(why, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

void pg_pidfile_status(const char *text, char *out, size_t len)
{
	/* postmaster.pid: pid, datadir, start time, port, socket dir, listen
	 * address, shmem key, status -- the status line is what pg_ctl waits
	 * for, and it is written last. */
	const char *p = text;
	int line = 1;

	if (len)
		out[0] = '\0';
	if (!p)
		return;
	while (*p && line < 8) {
		if (*p++ == '\n')
			line++;
	}
	if (line != 8)
		return;
	size_t n = strcspn(p, " \n");
	if (!p[n])   /* not yet terminated */
		return;
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

void sb_argv(const struct sb_cmd *c, struct strlist *argv)
{
	strlist_push(argv, "sysbench");
	strlist_push(argv, c->test);
	strlist_push(argv, "--db-driver=pgsql");
	strlist_pushf(argv, "--pgsql-host=%s", c->host);
	strlist_pushf(argv, "--pgsql-port=%d", c->port);
	strlist_pushf(argv, "--pgsql-user=%s", c->user);
	strlist_pushf(argv, "--pgsql-db=%s", c->db);
	strlist_pushf(argv, "--tables=%llu", c->tables);
	strlist_pushf(argv, "--table-size=%llu", c->table_size);
	strlist_pushf(argv, "--threads=%llu", c->threads);
	if (!strcmp(c->command, "run")) {
		/* whole seconds: sysbench's --time takes an integer */
		unsigned long long t = (unsigned long long)(c->time + 0.5);

		if (c->events) {
			/* a fixed amount of work: the time it takes is the result */
			strlist_push(argv, "--time=0");
			strlist_pushf(argv, "--events=%llu", c->events);
		} else {
			strlist_pushf(argv, "--time=%llu", t ? t : 1);
			strlist_push(argv, "--events=0");
		}
		strlist_push(argv, "--percentile=95");
		strlist_push(argv, "--report-interval=0");
	}
	strlist_push(argv, c->command);
}

/* ------------------------------------------------------ small processes */

/* Run argv (argv[0] found by find_in_path) with stdout+stderr into buf;
 * returns the exit code, 127 when it cannot be executed, -1 when fork
 * fails. Used before child.c's machinery matters (probe) and for one-shot
 * tools. */
static int run_capture(const char *const *argv, char *buf, size_t len)
{
	char *prog;
	int pfd[2];
	pid_t pid;
	size_t used = 0;
	int status;

	if (len)
		buf[0] = '\0';
	prog = find_in_path(argv[0]);
	if (!prog)
		return 127;
	if (pipe2(pfd, O_CLOEXEC)) {
		free(prog);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		free(prog);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	free(prog);
	close(pfd[1]);
	for (;;) {
		char tmp[4096];
		ssize_t r = read(pfd[0], tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t take = (size_t)r;
		if (len && used + take > len - 1)
			take = len - 1 - used;
		memcpy(buf + used, tmp, take);
		used += take;
		if (len)
			buf[used] = '\0';
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int sb_check_binary(struct strbuf *why)
{
	static const char *const argv[] = { "sysbench", "--help", NULL };
	char *out = xmalloc(65536);
	int rc = run_capture(argv, out, 65536);

	if (rc == 127 || rc < 0) {
		strbuf_addstr(why, "sysbench not found in PATH (apt-get install sysbench)");
		free(out);
		return -1;
	}
	if (!strstr(out, "pgsql - PostgreSQL driver")) {
		strbuf_addstr(why, "sysbench has no PostgreSQL (pgsql) driver: install Debian's "
			      "sysbench package, which is built with it");
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

bool pg_port_free(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* no SO_REUSEADDR: a port in TIME_WAIT or bound to 0.0.0.0 counts as
	 * taken, as PostgreSQL's own bind would see it */
	ok = !bind(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

int pg_pick_port(int from)
{
	for (int p = from; p < from + 200 && p <= 65535; p++)
		if (pg_port_free(p))
			return p;
	return -1;
}

int pg_user(char *name, size_t len, uid_t *uid, gid_t *gid, bool *created)
{
	struct passwd *pw = getpwnam("postgres");

	*created = false;
	if (!pw)
		pw = getpwnam(PG_USER_FALLBACK);
	if (!pw) {
		static const char *const argv[] = {
			"useradd", "--system", "--user-group", "--no-create-home",
			"--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
			"--comment", "lrubench PostgreSQL clusters", PG_USER_FALLBACK, NULL,
		};
		char out[1024];
		int rc = run_capture(argv, out, sizeof(out));
		if (rc)
			return error("cannot create the system user %s for PostgreSQL (useradd "
				     "exited with %d): %s", PG_USER_FALLBACK, rc, out);
		pw = getpwnam(PG_USER_FALLBACK);
		if (!pw)
			return error("useradd %s succeeded but the user is not there", PG_USER_FALLBACK);
		*created = true;
		info("sysbench: created system user %s (uid %u) to own PostgreSQL clusters; "
		     "it is kept for later runs", PG_USER_FALLBACK, (unsigned)pw->pw_uid);
	}
	if (pw->pw_uid == 0)
		return error("user %s is root: PostgreSQL refuses to run as root", pw->pw_name);
	snprintf(name, len, "%s", pw->pw_name);
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

/* -------------------------------------------- async-signal-safe undoers */

static void undo_remove_cluster(void *arg)
{
	remove_tree_sigsafe(arg);
}

/* Has pid exited (a zombie now)? Leaves it for child.c to reap. */
static bool pid_exited(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == pid;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Wait up to ms for the postmaster to exit; true when it did. */
static bool wait_exit_ms(pid_t pid, long ms)
{
	for (long t = 0; t < ms; t += 20) {
		if (pid_exited(pid))
			return true;
		sleep_ms(20);
	}
	return pid_exited(pid);
}

/* On the signal path: immediate shutdown (the postmaster SIGQUITs its
 * backends and removes its shared memory), then SIGKILL to the group. */
static void undo_stop_postmaster(void *arg)
{
	struct pg_server *s = arg;
	pid_t pid = s->pm_pid;

	if (pid <= 0)
		return;
	if (!pid_exited(pid)) {
		kill(pid, SIGQUIT);
		if (!wait_exit_ms(pid, 5000))
			kill(-pid, SIGKILL);
	}
	kill(-pid, SIGKILL);   /* stray backends of a killed postmaster */
}

/* --------------------------------------------------------- the server */

static void child_for(struct pg_server *s, struct child *c, const char *const *argv,
		      const char *out)
{
	memset(c, 0, sizeof(*c));
	c->argv = argv;
	c->uid = s->uid;
	c->gid = s->gid;
	c->set_ids = true;
	c->dir = s->top;
	c->out_path = out;
	c->bind = s->bind;
	c->cgroup_procs = s->cgroup_procs[0] ? s->cgroup_procs : NULL;
}

static int run_as_db_user(struct pg_server *s, const char *const *argv, const char *log,
			  const char *what)
{
	struct child c;
	int code;

	child_for(s, &c, argv, log);
	c.name = what;
	code = child_run(&c, 600);
	if (lb_stop_requested())
		return -1;   /* interrupted: the hook's failure counts as such, no message */
	if (code)
		return child_failed(code, log, "%s", what);
	return 0;
}

int pg_server_init(struct pg_server *s, const char *helper_log)
{
	char bin[PATH_MAX + 16];
	struct strbuf conf = STRBUF_INIT;
	char path[PATH_MAX + 32];
	int fd, rc;

	s->dir_cleanup = s->stop_cleanup = 0;
	s->started = false;
	s->made_top = false;
	s->pm_pid = 0;
	if (mkdir(s->top, 0700))   /* a fresh private folder: it must not exist */
		return error_errno("cannot create %s", s->top);
	s->made_top = true;
	s->dir_cleanup = cleanup_push("PostgreSQL cluster directory", undo_remove_cluster, s->top);
	if (chown(s->top, s->uid, s->gid))
		return error_errno("cannot chown %s to uid %u", s->top, (unsigned)s->uid);
	snprintf(s->sockdir, sizeof(s->sockdir), "%s", s->top);
	snprintf(s->datadir, sizeof(s->datadir), "%s/data", s->top);
	s->conf.socket_dir = s->sockdir;

	snprintf(bin, sizeof(bin), "%s/initdb", s->bindir);
	{
		const char *const argv[] = {
			bin, "-D", s->datadir, "-U", "postgres", "-E", "UTF8", "--locale=C",
			/* the socket lives in a 0700 folder of the cluster's user
			 * (root gets through); TCP needs a password nobody has */
			"--auth-local=trust", "--auth-host=scram-sha-256",
			"--no-sync", NULL,
		};
		rc = run_as_db_user(s, argv, helper_log, "initdb");
		if (rc) {
			if (rc == -1)
				error("hint: user uid %u must be able to reach %s (every parent "
				      "folder needs o+x)", (unsigned)s->uid, s->top);
			return rc;
		}
	}
	pg_format_conf(&conf, &s->conf);
	snprintf(path, sizeof(path), "%s/postgresql.conf", s->datadir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write(fd, conf.buf, conf.len) != (ssize_t)conf.len) {
		error_errno("cannot append lrubench's settings to %s", path);
		if (fd >= 0)
			close(fd);
		strbuf_release(&conf);
		return -1;
	}
	close(fd);
	strbuf_release(&conf);
	return 0;
}

bool pg_server_alive(struct pg_server *s)
{
	return s->started && s->pm_pid > 0 && !pid_exited(s->pm_pid);
}

enum wl_status pg_server_start(struct pg_server *s, double timeout)
{
	char bin[PATH_MAX + 16];
	char pidfile[PATH_MAX + 32];
	const char *argv[] = { bin, "-D", s->datadir, NULL };
	double deadline;

	snprintf(bin, sizeof(bin), "%s/postgres", s->bindir);
	snprintf(pidfile, sizeof(pidfile), "%s/postmaster.pid", s->datadir);
	child_for(s, &s->pm, argv, s->log_path);
	s->pm.name = "postgres";
	if (child_start(&s->pm))
		return WL_FAILED;
	s->pm.argv = NULL;   /* argv was on this stack frame */
	s->started = true;
	s->pm_pid = s->pm.pid;
	s->stop_cleanup = cleanup_push("PostgreSQL server", undo_stop_postmaster, s);

	deadline = now_monotonic() + timeout;
	for (;;) {
		char status[32];
		char *text;

		if (lb_stop_requested())
			return WL_INTERRUPTED;
		if (pid_exited(s->pm_pid)) {
			int code;

			child_wait(&s->pm, 0, &code, NULL);
			s->pm_pid = 0;
			child_failed(code, s->log_path, "postgres");
			return WL_FAILED;
		}
		text = read_file_str(pidfile, NULL);
		pg_pidfile_status(text, status, sizeof(status));
		free(text);
		if (!strcmp(status, "ready"))
			return WL_OK;
		if (now_monotonic() > deadline) {
			error_with_log(s->log_path, "postgres was not ready after %.0f s", timeout);
			return WL_FAILED;
		}
		sleep_ms(50);
	}
}

int pg_server_sql(struct pg_server *s, const char *sql, const char *log)
{
	char bin[PATH_MAX + 16], port[16];
	const char *const argv[] = {
		bin, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", s->sockdir, "-p", port,
		"-U", "postgres", "-d", "postgres", "-c", sql, NULL,
	};

	snprintf(bin, sizeof(bin), "%s/psql", s->bindir);
	snprintf(port, sizeof(port), "%d", s->conf.port);
	return run_as_db_user(s, argv, log, "psql");
}

int pg_server_flush(struct pg_server *s, const char *log)
{
	int fd, r;

	if ((r = pg_server_sql(s, "CHECKPOINT", log)))
		return r;
	fd = open(s->datadir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open %s", s->datadir);
	if (syncfs(fd)) {
		error_errno("cannot sync the filesystem of %s", s->datadir);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void pg_server_destroy(struct pg_server *s)
{
	if (s->started) {
		pid_t pid = s->pm_pid;

		if (pid > 0 && !pid_exited(pid)) {
			/* fast shutdown: abort transactions, disconnect, checkpoint */
			kill(pid, SIGINT);
			if (!wait_exit_ms(pid, lb_stop_requested() ? 10000 : 30000)) {
				warning("postgres (pid %d) ignored fast shutdown; immediate shutdown", (int)pid);
				kill(pid, SIGQUIT);
				if (!wait_exit_ms(pid, 5000))
					warning("postgres (pid %d) ignored immediate shutdown; killing it",
						(int)pid);
			}
		}
		/* reaps, and kills the group (backends left by a killed postmaster) */
		child_stop(&s->pm, 0);
		s->pm_pid = 0;
		s->started = false;
	}
	if (s->stop_cleanup > 0)
		cleanup_pop(s->stop_cleanup, false);
	s->stop_cleanup = 0;
	if (s->made_top) {
		remove_tree_sigsafe(s->top);
		if (path_exists(s->top))
			error("cannot remove the PostgreSQL cluster %s", s->top);
		s->made_top = false;
	}
	if (s->dir_cleanup > 0)
		cleanup_pop(s->dir_cleanup, false);
	s->dir_cleanup = 0;
}
