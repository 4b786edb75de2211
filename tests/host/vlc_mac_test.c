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
#include "vlc_mac_fec_cases.c"

int main(void)
{
	static const struct vlc_test_group g[] = {
		VLC_TEST_GROUP(vlc_mac),
		VLC_TEST_GROUP(vlc_mac_rx),
		VLC_TEST_GROUP(vlc_mac_sync),
		VLC_TEST_GROUP(vlc_mac_fec),
	};

	return vlc_test_main("vlc_mac", g, ARRAY_SIZE(g));
}
