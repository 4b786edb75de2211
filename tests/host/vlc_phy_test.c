// SPDX-License-Identifier: GPL-2.0
/* Host runner of the VLC PHY cases under cmocka. The cases and their
 * table are the ones KUnit runs (drivers/net/vlc/tests/vlc_phy_cases.c).
 */

#include <linux/kernel.h>

#include "vlc_phy_cases.c"

int main(void)
{
	int n = ARRAY_SIZE(vlc_phy_test_cases);
	int failed = cmocka_run_group_tests_name("vlc_phy", vlc_phy_test_cases,
						 NULL, NULL);

	printf("vlc_phy: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
