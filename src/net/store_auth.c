// SPDX-License-Identifier: GPL-2.0-or-later
/* Credentials and URLs for a results store (store_auth.h). */
#include "net/store_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <curl/curl.h>
#include "core/net_client.h"

#define TOKEN_MAX 4096
#define NETRC_MAX (64 * 1024)

/* A token is one header value: printable ASCII, no blanks, so it can
 * neither break the header nor smuggle another one in. */
static bool token_ok(const char *t)
{
	if (!*t)
		return false;
	for (; *t; t++)
		if ((unsigned char)*t <= 0x20 || (unsigned char)*t >= 0x7f)
			return false;
	return true;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int read_token_file(struct store_auth *a, const char *path)
{
	char buf[TOKEN_MAX + 2];
	struct stat st;
	ssize_t n = 0, r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return error_errno("cannot open the token file %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > TOKEN_MAX) {
		close(fd);
		return error("the token file %s is not a regular file of at most 4 KiB", path);
	}
	while (n <= TOKEN_MAX && (r = read(fd, buf + n, sizeof(buf) - 1 - (size_t)n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return error_errno("cannot read the token file %s", path);
		}
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (!token_ok(trim(buf))) {
		explicit_bzero(buf, sizeof(buf));
		return error("the token file %s does not hold a token (one word of printable "
			     "characters)", path);
	}
	a->token = xstrdup(trim(buf));
	a->token_from = path;
	explicit_bzero(buf, sizeof(buf));
	return 0;
}

int store_auth_load(struct store_auth *a, const char *token_file, const char *netrc_file)
{
	const char *env = getenv("LRUBENCH_TOKEN");
	const char *file = token_file ? token_file : getenv("LRUBENCH_TOKEN_FILE");
	const char *netrc = netrc_file ? netrc_file : getenv("LRUBENCH_NETRC");

	memset(a, 0, sizeof(*a));
	if (env && *env && !token_file) {
		char *t = xstrdup(env), *tt = trim(t);

		if (!token_ok(tt)) {
			explicit_bzero(t, strlen(t));
			free(t);
			return error("$LRUBENCH_TOKEN does not hold a token (one word of printable "
				     "characters)");
		}
		a->token = xstrdup(tt);
		a->token_from = "$LRUBENCH_TOKEN";
		explicit_bzero(t, strlen(t));
		free(t);
	} else if (file && *file && read_token_file(a, file)) {
		return -1;
	}
	if (store_netrc_load(a, netrc && *netrc ? netrc : NULL)) {
		store_auth_release(a);
		return -1;
	}
	return 0;
}

int store_netrc_load(struct store_auth *a, const char *file)
{
	struct strbuf err = STRBUF_INIT;
	const char *home = getenv("HOME");
	char *dflt = NULL;
	size_t len;

	if (!file && home && *home) {
		dflt = xasprintf("%s/.netrc", home);
		if (access(dflt, F_OK)) {   /* none: no credentials, as libcurl */
			free(dflt);
			return 0;
		}
		file = dflt;
	}
	if (!file)
		return 0;
	a->netrc = read_regular_file(file, NETRC_MAX, 0, &len, &err);
	if (!a->netrc) {
		error("the netrc file %s is not a regular file of at most 64 KiB (%s)", file,
		      err.buf);
		strbuf_release(&err);
		free(dflt);
		return -1;
	}
	if (memchr(a->netrc, '\0', len))
		a->netrc[strlen(a->netrc)] = '\0';   /* read up to a NUL: text only */
	a->netrc_file = xstrdup(file);
	strbuf_release(&err);
	free(dflt);
	return 0;
}

/* The next word of netrc text at *p: blanks separate, "..." quotes with
 * \ escapes (as libcurl reads it). Written into out (at most n-1 bytes);
 * false at the end. */
static bool netrc_word(const char **p, char *out, size_t n)
{
	const char *s = *p;
	size_t k = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (!*s)
		return false;
	if (*s == '"') {
		for (s++; *s && *s != '"'; s++) {
			if (*s == '\\' && s[1])
				s++;
			if (k + 1 < n)
				out[k++] = *s;
		}
		if (*s == '"')
			s++;
	} else {
		for (; *s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r'; s++)
			if (k + 1 < n)
				out[k++] = *s;
	}
	out[k] = '\0';
	*p = s;
	return true;
}

bool store_netrc_lookup(const char *text, const char *host, char *login, char *password,
			size_t n)
{
	/* [0] the host's "machine" entry (the first), [1] "default" */
	char w[NETRC_WORD], user[2][NETRC_WORD] = { "", "" }, pass[2][NETRC_WORD] = { "", "" };
	const char *p = text;
	int in = -1;              /* the entry the words belong to: 0, 1, or -1 another */
	bool machine_seen = false;
	int use;

	login[0] = password[0] = '\0';
	while (p && netrc_word(&p, w, sizeof(w))) {
		if (!strcmp(w, "machine")) {
			bool match = netrc_word(&p, w, sizeof(w)) && !strcasecmp(w, host);

			in = match && !machine_seen ? 0 : -1;
			machine_seen |= match;
		} else if (!strcmp(w, "default")) {
			in = 1;
		} else if (!strcmp(w, "login") || !strcmp(w, "password") || !strcmp(w, "account")) {
			char *to = NULL;

			if (in >= 0)
				to = !strcmp(w, "login") ? user[in] : !strcmp(w, "password") ? pass[in] : NULL;
			if (!netrc_word(&p, to ? to : w, NETRC_WORD))
				break;
		} else if (!strcmp(w, "macdef")) {
			/* a macro: its name, then lines up to an empty one */
			const char *end = strstr(p, "\n\n");

			p = end ? end + 2 : p + strlen(p);
		}
	}
	use = machine_seen ? 0 : 1;
	if (pass[use][0]) {
		snprintf(login, n, "%s", user[use]);
		snprintf(password, n, "%s", pass[use]);
	}
	explicit_bzero(w, sizeof(w));
	explicit_bzero(pass, sizeof(pass));
	return password[0] != '\0';
}

void store_auth_apply(void *curl, const struct store_auth *a, const char *url)
{
	static int warned;
	char login[NETRC_WORD], password[NETRC_WORD];
	CURL *h = curl;
	CURLU *u;
	char *host = NULL;

	/* libcurl never reads a netrc itself: it would look the password up
	 * again for every redirect's host, whatever its port, and give a
	 * "default" entry to any host at all (issue 30, 15) */
	curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
	if (a->token) {
		curl_easy_setopt(h, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
		curl_easy_setopt(h, CURLOPT_XOAUTH2_BEARER, a->token);
		return;
	}
	if (!a->netrc)
		return;
	/* no token: the netrc entry of the URL's host, set as the request's
	 * own credentials, which libcurl sends only to that scheme, host and
	 * port: a redirect anywhere else goes without them */
	u = curl_url();
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host &&
	    store_netrc_lookup(a->netrc, host, login, password, sizeof(login))) {
		curl_easy_setopt(h, CURLOPT_USERNAME, login);
		curl_easy_setopt(h, CURLOPT_PASSWORD, password);
		curl_easy_setopt(h, CURLOPT_UNRESTRICTED_AUTH, 0L);
		if (!strncasecmp(url, "http://", 7) && !store_url_loopback(url) &&
		    !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			warning("sending the password of %s's entry for %s over plain http: anyone "
				"on the way can read it; use https", a->netrc_file, host);
	}
	explicit_bzero(login, sizeof(login));
	explicit_bzero(password, sizeof(password));
	curl_free(host);
	curl_url_cleanup(u);
}

bool store_auth_given(const struct store_auth *a)
{
	return a->token != NULL;
}

void store_auth_release(struct store_auth *a)
{
	if (a->token) {
		explicit_bzero(a->token, strlen(a->token));
		free(a->token);
	}
	if (a->netrc) {
		explicit_bzero(a->netrc, strlen(a->netrc));
		free(a->netrc);
	}
	free(a->netrc_file);
	memset(a, 0, sizeof(*a));
}

int store_url_check(const char *url)
{
	CURLU *u = curl_url();
	char *shown = store_url_shown(url);
	int ret = 0;

	if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8))
		ret = error("unsupported URL '%s': a results store is http:// or https://", shown);
	else if (fetch_url_has_credentials(url))
		ret = error("refusing a URL with a user name or password in it (they would show "
			    "in process lists and logs): put the credentials in $LRUBENCH_TOKEN, "
			    "$LRUBENCH_TOKEN_FILE or a netrc file");
	else if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
		ret = error("malformed URL '%s'", shown);
	curl_url_cleanup(u);
	free(shown);
	return ret;
}

bool store_url_loopback(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL;
	bool lo = false;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
		lo = !strncmp(host, "127.", 4) || !strcmp(host, "[::1]") ||
		     !strcasecmp(host, "localhost");
	curl_free(host);
	curl_url_cleanup(u);
	return lo;
}

const char *store_http_meaning(long code, bool auth_given)
{
	switch (code) {
	case 400: return "the store refused the request as malformed (a checksum it "
			 "could not match?)";
	case 401: return auth_given ? "the store refused the credentials given" :
			 "the store wants credentials: set $LRUBENCH_TOKEN or "
			 "$LRUBENCH_TOKEN_FILE (a bearer token), or add the host to a netrc file";
	case 403: return "forbidden: these credentials may not write there";
	case 404: return "no such folder on the store";
	case 405: return "the store does not allow this method there";
	case 408: return "the store timed out waiting for the request";
	case 409: return "conflict: the folder does not exist on the store (create it first)";
	case 411: return "the store wants a length";
	case 412: return "an archive of that name exists already (--force replaces it)";
	case 413: return "too large for the store";
	case 414: return "the URL is too long for the store";
	case 423: return "locked on the store";
	case 429: return "the store asks to slow down";
	case 500: return "the store failed (internal error)";
	case 501: return "the store does not implement this method";
	case 502: return "bad gateway in front of the store";
	case 503: return "the store is unavailable";
	case 504: return "a gateway in front of the store timed out";
	case 507: return "the store is out of space";
	default: return code >= 500 ? "the store failed" : "the store refused the request";
	}
}
