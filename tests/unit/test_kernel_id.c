// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel_id.c: the GNU build-id note (a fixture copied from the
 * /sys/kernel/notes of the 6.18 kernel the project is tested on, and notes
 * built here), config options, debug options, taint letters, and the
 * identity of the running kernel.
 */
#include "unit.h"
#include <json-c/json.h>
#include "core/kernel_id.h"

#define FIXTURE "tests/fixtures/kernel/notes-6.18-xen.bin"

/* Append one ELF note (this machine's byte order) to buf. */
static size_t note(unsigned char *buf, size_t off, uint32_t type, const char *name, const void *desc,
		   uint32_t descsz)
{
	uint32_t hdr[3] = { (uint32_t)strlen(name) + 1, descsz, type };
	size_t nsz = (hdr[0] + 3) & ~3u, dsz = (descsz + 3) & ~3u;

	memcpy(buf + off, hdr, sizeof(hdr));
	memset(buf + off + 12, 0, nsz + dsz);
	memcpy(buf + off + 12, name, hdr[0]);
	memcpy(buf + off + 12 + nsz, desc, descsz);
	return off + 12 + nsz + dsz;
}

static void test_build_id_fixture(void **state)
{
	size_t len = 0;
	char *notes = read_file_str(FIXTURE, &len), hex[129];
	const char *why = NULL;

	(void)state;
	assert_non_null(notes);
	assert_int_equal(len, 164);
	/* the fixture holds five notes: GNU build id, two Linux, two Xen */
	assert_int_equal(kernel_build_id_parse(notes, len, hex, sizeof(hex), &why), 0);
	assert_string_equal(hex, "e4f18d9dc1d0e6fc2b17e93e885a647b3c0a6fc1");
	assert_null(why);
	/* cut in the middle of a note: malformed, not a wrong id */
	assert_int_equal(kernel_build_id_parse(notes, 30, hex, sizeof(hex), &why), -1);
	assert_string_equal(hex, "");
	assert_non_null(strstr(why, "malformed"));
	/* too small an output buffer for a 20-byte id */
	assert_int_equal(kernel_build_id_parse(notes, len, hex, 40, &why), -1);
	assert_non_null(strstr(why, "too long"));
	free(notes);
}

static void test_build_id_built(void **state)
{
	unsigned char buf[512], id[8] = { 0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3 };
	char hex[129];
	const char *why;
	uint32_t v = 6;
	size_t n;

	(void)state;
	/* the GNU note after others, with an odd-sized descriptor before it */
	n = note(buf, 0, 0x101, "Linux", "abc", 3);
	n = note(buf, n, 6, "Linux", &v, sizeof(v));
	n = note(buf, n, 3, "GNU", id, sizeof(id));
	assert_int_equal(kernel_build_id_parse(buf, n, hex, sizeof(hex), &why), 0);
	assert_string_equal(hex, "deadbeef00010203");
	/* type 3 under another name is not a build id */
	n = note(buf, 0, 3, "Linux", id, sizeof(id));
	assert_int_equal(kernel_build_id_parse(buf, n, hex, sizeof(hex), &why), -1);
	assert_string_equal(why, "no GNU build-id note");
	/* no notes at all */
	assert_int_equal(kernel_build_id_parse(buf, 0, hex, sizeof(hex), &why), -1);
	/* a name size past the end */
	n = note(buf, 0, 3, "GNU", id, sizeof(id));
	((uint32_t *)buf)[0] = 4000;
	assert_int_equal(kernel_build_id_parse(buf, n, hex, sizeof(hex), &why), -1);
	assert_non_null(strstr(why, "malformed"));
	/* trailing bytes that are not a note */
	n = note(buf, 0, 1, "Linux", "x", 1);
	assert_int_equal(kernel_build_id_parse(buf, n + 5, hex, sizeof(hex), &why), -1);
	assert_non_null(strstr(why, "trailing"));
}

static const char *opt(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

static void test_config_options(void **state)
{
	static const char text[] =
		"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		"CONFIG_MEMCG=y\n"
		"# CONFIG_LRU_GEN is not set\n"
		"CONFIG_TRANSPARENT_HUGEPAGE=y\n"
		"CONFIG_PREEMPT_VOLUNTARY=y\n"
		"# CONFIG_PREEMPT is not set\n"
		"CONFIG_PREEMPT_RCU=y\n"
		"CONFIG_HZ=250\n"
		"CONFIG_LOCKDEP=y\n"
		"CONFIG_KASAN=m\n"
		"CONFIG_UNRELATED=y\n"
		"CONFIG_ZSWAP_COMPRESSOR_DEFAULT=\"lzo\"\n"
		"# CONFIG_KFENCE is not set";   /* no final newline */
	json_object *o = kconfig_options(text);
	struct strlist dbg = STRLIST_INIT;

	(void)state;
	assert_string_equal(opt(o, "CONFIG_MEMCG"), "y");
	assert_string_equal(opt(o, "CONFIG_LRU_GEN"), "n");
	assert_string_equal(opt(o, "CONFIG_HZ"), "250");
	assert_string_equal(opt(o, "CONFIG_KFENCE"), "n");
	assert_string_equal(opt(o, "CONFIG_KASAN"), "m");
	/* PREEMPT*: every one the text mentions, none it does not */
	assert_string_equal(opt(o, "CONFIG_PREEMPT_VOLUNTARY"), "y");
	assert_string_equal(opt(o, "CONFIG_PREEMPT"), "n");
	assert_string_equal(opt(o, "CONFIG_PREEMPT_RCU"), "y");
	assert_null(opt(o, "CONFIG_PREEMPT_DYNAMIC"));
	/* a recorded option the text does not mention is "n"; others are not kept */
	assert_string_equal(opt(o, "CONFIG_DEBUG_VM"), "n");
	assert_null(opt(o, "CONFIG_UNRELATED"));
	assert_null(opt(o, "CONFIG_ZSWAP_COMPRESSOR_DEFAULT"));
	kconfig_debug_options(o, "root=/dev/vda ro", &dbg);
	assert_int_equal(dbg.n, 2);
	assert_string_equal(dbg.v[0], "CONFIG_LOCKDEP");
	assert_string_equal(dbg.v[1], "CONFIG_KASAN");
	strlist_release(&dbg);
	json_object_put(o);
}

static void test_debug_options_cmdline(void **state)
{
	json_object *o = kconfig_options("CONFIG_DEBUG_PAGEALLOC=y\nCONFIG_DEBUG_KMEMLEAK=y\n"
					 "CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF=y\nCONFIG_SLUB_DEBUG=y\n");
	struct strlist dbg = STRLIST_INIT;

	(void)state;
	/* built in but off by default: not distorting unless the command line turns them on */
	kconfig_debug_options(o, "ro quiet", &dbg);
	assert_int_equal(dbg.n, 0);
	kconfig_debug_options(o, "ro debug_pagealloc=on kmemleak=on slub_debug=FZ page_owner=off", &dbg);
	assert_int_equal(dbg.n, 3);
	assert_string_equal(dbg.v[0], "CONFIG_DEBUG_KMEMLEAK");
	assert_string_equal(dbg.v[1], "debug_pagealloc=on (command line)");
	assert_string_equal(dbg.v[2], "slub_debug (command line)");
	strlist_release(&dbg);
	/* no config known: the command line still counts */
	kconfig_debug_options(NULL, "page_owner=on", &dbg);
	assert_int_equal(dbg.n, 1);
	assert_string_equal(dbg.v[0], "page_owner=on (command line)");
	strlist_release(&dbg);
	json_object_put(o);
}

static void test_taint_letters(void **state)
{
	char s[96];

	(void)state;
	kernel_taint_letters(0, s, sizeof(s));
	assert_string_equal(s, "");
	kernel_taint_letters(1ULL << 9, s, sizeof(s));
	assert_string_equal(s, "W");
	kernel_taint_letters((1ULL << 12) | (1ULL << 13) | 1, s, sizeof(s));
	assert_string_equal(s, "POE");
	kernel_taint_letters(1ULL << 25, s, sizeof(s));
	assert_string_equal(s, "(25)");
	kernel_taint_letters(1ULL << 9, s, 1);   /* room for the NUL only */
	assert_string_equal(s, "");
}

/* The running kernel: a build id when it has the note, the reason when not. */
static void test_collect_running(void **state)
{
	struct kernel_id k;
	json_object *o, *v;
	unsigned long long t;

	(void)state;
	kernel_id_collect(&k);
	if (path_exists(KERNEL_NOTES)) {
		size_t len;
		char *notes = read_file_str(KERNEL_NOTES, &len), hex[129];
		const char *why;

		if (notes && !kernel_build_id_parse(notes, len, hex, sizeof(hex), &why))
			assert_string_equal(k.build_id, hex);
		free(notes);
	}
	if (!k.build_id[0])
		assert_non_null(k.build_id_why);
	assert_int_equal(k.taint_known, kernel_taint_read(&t) == 0);
	o = kernel_id_to_json(&k);
	assert_true(json_object_object_get_ex(o, "build_id", &v));
	assert_true(json_object_object_get_ex(o, "config", &v));
	/* known (source, sha256, options) or unknown with a reason */
	assert_true(json_object_object_get_ex(v, "sha256", NULL) || json_object_object_get_ex(v, "unknown", NULL));
	assert_true(json_object_object_get_ex(o, "lru_gen_enabled", &v));
	json_object_put(o);
	kernel_id_release(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id_fixture),
		cmocka_unit_test(test_build_id_built),
		cmocka_unit_test(test_config_options),
		cmocka_unit_test(test_debug_options_cmdline),
		cmocka_unit_test(test_taint_letters),
		cmocka_unit_test(test_collect_running),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
