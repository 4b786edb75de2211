// SPDX-License-Identifier: GPL-2.0
/* Host runner of the VLC PHY cases under cmocka. The cases and their
 * tables are the ones KUnit runs (drivers/net/vlc/tests/vlc_phy*_cases.c),
 * one cmocka group per KUnit suite; the summary line adds them up.
 */

#include <linux/kernel.h>

#include "vlc_phy_cases.c"
#include "vlc_phy_acq_cases.c"

int main(void)
{
	static const struct vlc_test_group g[] = {
		VLC_TEST_GROUP(vlc_phy),
		VLC_TEST_GROUP(vlc_phy_acq),
	};

	return vlc_test_main("vlc_phy", g, ARRAY_SIZE(g));
}
