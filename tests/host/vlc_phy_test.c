// SPDX-License-Identifier: GPL-2.0
/* Host runner of the VLC PHY cases under cmocka. The cases and their
 * table are the ones KUnit runs (drivers/net/vlc/tests/vlc_phy_cases.c).
 */

#include <stdlib.h>

#include <linux/kernel.h>

#include "vlc_phy_cases.c"

int main(void)
{
	int n = ARRAY_SIZE(vlc_phy_test_cases);
	int failed;

	/* VLC_TEST_FILTER=pattern runs the matching cases only */
	if (getenv("VLC_TEST_FILTER"))
		cmocka_set_test_filter(getenv("VLC_TEST_FILTER"));
	failed = cmocka_run_group_tests_name("vlc_phy", vlc_phy_test_cases,
					     NULL, NULL);

	printf("vlc_phy: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
