// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner of the VLC MAC cases under cmocka. The cases and their
 * tables are the ones KUnit runs (drivers/net/vlc/tests/vlc_mac*_cases.c),
 * one cmocka group per KUnit suite; the summary line adds them up.
 */

#include <linux/kernel.h>

#include "vlc_mac_cases.c"
#include "vlc_mac_rx_cases.c"
#include "vlc_mac_sync_cases.c"

int main(void)
{
	int n = 0, failed = 0;

	failed += cmocka_run_group_tests_name("vlc_mac", vlc_mac_test_cases,
					      NULL, NULL);
	n += ARRAY_SIZE(vlc_mac_test_cases);
	failed += cmocka_run_group_tests_name("vlc_mac_rx",
					      vlc_mac_rx_test_cases,
					      NULL, NULL);
	n += ARRAY_SIZE(vlc_mac_rx_test_cases);
	failed += cmocka_run_group_tests_name("vlc_mac_sync",
					      vlc_mac_sync_test_cases,
					      NULL, NULL);
	n += ARRAY_SIZE(vlc_mac_sync_test_cases);

	printf("vlc_mac: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
