// SPDX-License-Identifier: GPL-2.0
/* Host runner of the VLC PHY cases under cmocka. The cases and their
 * tables are the ones KUnit runs (drivers/net/vlc/tests/vlc_phy*_cases.c),
 * one cmocka group per KUnit suite; the summary line adds them up.
 */

#include <stdlib.h>

#include <linux/kernel.h>

#include "vlc_phy_cases.c"
#include "vlc_phy_acq_cases.c"

int main(void)
{
	int n = 0, failed = 0;

	/* VLC_TEST_FILTER=pattern runs the matching cases only */
	if (getenv("VLC_TEST_FILTER"))
		cmocka_set_test_filter(getenv("VLC_TEST_FILTER"));
	failed += cmocka_run_group_tests_name("vlc_phy", vlc_phy_test_cases,
					      NULL, NULL);
	n += ARRAY_SIZE(vlc_phy_test_cases);
	failed += cmocka_run_group_tests_name("vlc_phy_acq",
					      vlc_phy_acq_test_cases,
					      NULL, NULL);
	n += ARRAY_SIZE(vlc_phy_acq_test_cases);

	printf("vlc_phy: %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
