// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure parts of push and fetch --results (net/push.h, net/store_auth.h,
 * net/store_fetch.h): URL names, what a status means, URL checks. The
 * uploads themselves are tested against nginx in tests/integration/push.sh. */
#include "unit.h"
#include "net/push.h"
#include "net/store_auth.h"
#include "net/store_fetch.h"

static void final_and_temp_urls(void **state)
{
	char *s;

	(void)state;
	s = push_final_url("http://h/results/run1/", "/tmp/x/a.tar.zst");
	assert_string_equal(s, "http://h/results/run1/a.tar.zst");
	free(s);
	/* issue 30, 17: the file's name is one segment, percent-encoded */
	s = push_final_url("http://h/r/", "/tmp/a?x=1&y=2#.tar.zst");
	assert_string_equal(s, "http://h/r/a%3Fx%3D1%26y%3D2%23.tar.zst");
	free(s);
	s = push_final_url("http://h/r/", "b c%+~_-.tar.zst");
	assert_string_equal(s, "http://h/r/b%20c%25%2B~_-.tar.zst");
	free(s);
	s = push_final_url("http://h/results/b.tar.zst", "a.tar.zst");
	assert_string_equal(s, "http://h/results/b.tar.zst");
	free(s);
	s = push_temp_url("http://h/results/run1/a.tar.zst", "0badcafe");
	assert_string_equal(s, "http://h/results/run1/.a.tar.zst.part-0badcafe");
	free(s);
	/* a presigned URL is put directly, but the name rule holds without the query */
	s = push_temp_url("https://b.s3/k/a.tar.zst?X-Amz-Signature=secret", "1");
	assert_string_equal(s, "https://b.s3/k/.a.tar.zst.part-1");
	free(s);
}

static void urls_shown_without_secrets(void **state)
{
	char *s;

	(void)state;
	s = store_url_shown("https://b.s3/k/a.tar.zst?X-Amz-Signature=secret");
	assert_string_equal(s, "https://b.s3/k/a.tar.zst?...");
	free(s);
	s = store_url_shown("http://h/a.tar.zst");
	assert_string_equal(s, "http://h/a.tar.zst");
	free(s);
	assert_true(store_url_loopback("http://127.0.0.1:8080/x"));
	assert_true(store_url_loopback("http://localhost/x"));
	assert_false(store_url_loopback("https://store.example.org/x"));
}

static void url_checks(void **state)
{
	(void)state;
	capture_start();
	assert_int_equal(store_url_check("http://127.0.0.1/results/"), 0);
	assert_int_equal(store_url_check("https://store.example.org/results/a.tar.zst"), 0);
	assert_int_equal(store_url_check("ftp://store/x"), -1);
	assert_int_equal(store_url_check("file:///etc/passwd"), -1);
	assert_int_equal(store_url_check("http://lab:hunter2@store/x"), -1);
	{
		char *err = capture_end();

		assert_non_null(strstr(err, "refusing a URL with a user name or password"));
		assert_null(strstr(err, "hunter2"));
		free(err);
	}
}

static void status_meanings(void **state)
{
	(void)state;
	assert_non_null(strstr(store_http_meaning(401, false), "wants credentials"));
	assert_non_null(strstr(store_http_meaning(401, true), "refused the credentials"));
	assert_non_null(strstr(store_http_meaning(403, true), "forbidden"));
	assert_non_null(strstr(store_http_meaning(412, false), "--force"));
	assert_non_null(strstr(store_http_meaning(503, false), "unavailable"));
	assert_non_null(strstr(store_http_meaning(599, false), "store failed"));
	assert_non_null(strstr(store_http_meaning(418, false), "refused"));
}

static void fetch_names(void **state)
{
	char *n;

	(void)state;
	n = store_fetch_name("http://h/results/run1/node1-k-r1.tar.zst");
	assert_string_equal(n, "node1-k-r1.tar.zst");
	free(n);
	n = store_fetch_name("https://b.s3/k/a.tar.gz?X-Amz-Signature=s");
	assert_string_equal(n, "a.tar.gz");
	free(n);
	capture_start();
	assert_null(store_fetch_name("http://h/results/run1/"));
	assert_null(store_fetch_name("http://h/results/.hidden.tar.zst"));
	assert_null(store_fetch_name("http://h/results/run.json"));
	free(capture_end());
}

/* issue 30, 15: the entry of a host, else default; never another's */
static void netrc_entries(void **state)
{
	const char *text = "machine store.lab login lab password hunter2\n"
			   "machine \"other host\" login o password \"p w\\\"q\"\n"
			   "macdef init\nmachine evil login x password y\n\n"
			   "machine noPass login np\n"
			   "default login anon password guest\n";
	char login[NETRC_WORD], pass[NETRC_WORD];

	(void)state;
	assert_true(store_netrc_lookup(text, "STORE.lab", login, pass, sizeof(login)));
	assert_string_equal(login, "lab");
	assert_string_equal(pass, "hunter2");
	assert_true(store_netrc_lookup(text, "other host", login, pass, sizeof(login)));
	assert_string_equal(pass, "p w\"q");
	/* a name inside a macro is not an entry: the default answers */
	assert_true(store_netrc_lookup(text, "evil", login, pass, sizeof(login)));
	assert_string_equal(login, "anon");
	/* an entry without a password: none (not the default's) */
	assert_false(store_netrc_lookup(text, "nopass", login, pass, sizeof(login)));
	assert_string_equal(pass, "");
	assert_false(store_netrc_lookup("machine a login b password c\n", "d", login, pass,
					sizeof(login)));
	assert_false(store_netrc_lookup(NULL, "d", login, pass, sizeof(login)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(final_and_temp_urls),
		cmocka_unit_test(urls_shown_without_secrets),
		cmocka_unit_test(url_checks),
		cmocka_unit_test(status_meanings),
		cmocka_unit_test(fetch_names),
		cmocka_unit_test(netrc_entries),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
