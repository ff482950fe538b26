// SPDX-License-Identifier: GPL-2.0-or-later
/* Which mount holds a path, from a mountinfo written by hand (a chroot's
 * has no "/" line). */
#include "unit.h"
#include "core/mount_ns.h"

static void mount_points(void **state)
{
	char *mi, *mp;
	(void)state;
	mi = unit_put("chroot-mountinfo",
		      "113 92 0:41 / /proc rw,relatime - proc proc rw\n"
		      "114 92 0:42 / /var rw - tmpfs tmpfs rw\n"
		      "115 92 0:43 / /var/tmp\\040dir rw - tmpfs tmpfs rw\n");
	assert_null(mount_point_of(mi, "/var-x/tmp"));
	assert_null(mount_point_of(mi, "/various"));
	mp = mount_point_of(mi, "/var/tmp/lrubench");
	assert_string_equal(mp, "/var");
	free(mp);
	mp = mount_point_of(mi, "/var/tmp dir/lrubench");
	assert_string_equal(mp, "/var/tmp dir");
	free(mp);
	free(mi);
	mi = unit_put("machine-mountinfo",
		      "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
		      "23 22 0:41 / /proc rw - proc proc rw\n");
	mp = mount_point_of(mi, "/var/tmp/lrubench");
	assert_string_equal(mp, "/");
	free(mp);
	free(mi);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(mount_points) };

	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
