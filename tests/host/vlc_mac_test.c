// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner of the VLC MAC cases under cmocka. The cases and their
 * table are the ones KUnit runs (drivers/net/vlc/tests/vlc_mac_cases.c).
 */

#include <linux/kernel.h>

#include "vlc_mac_cases.c"

int main(void)
{
	int n = ARRAY_SIZE(vlc_mac_test_cases);
	int failed = cmocka_run_group_tests_name("vlc_mac", vlc_mac_test_cases,
						 NULL, NULL);

	printf("vlc_mac: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
