// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the VLC MAC core. The cases and their tables live in
 * vlc_mac_cases.c, vlc_mac_rx_cases.c, vlc_mac_sync_cases.c and
 * vlc_mac_fec_cases.c, shared with the host cmocka runner, on the test network of vlc_mac_cases.h;
 * this file only includes them, as one translation unit, and registers
 * their suites.
 */

#include <kunit/test.h>

#include "vlc_mac_cases.c"
#include "vlc_mac_rx_cases.c"
#include "vlc_mac_sync_cases.c"
#include "vlc_mac_fec_cases.c"

VLC_TEST_SUITE(vlc_mac);
VLC_TEST_SUITE(vlc_mac_rx);
VLC_TEST_SUITE(vlc_mac_sync);
VLC_TEST_SUITE(vlc_mac_fec);

kunit_test_suites(&vlc_mac_test_suite, &vlc_mac_rx_test_suite,
		  &vlc_mac_sync_test_suite, &vlc_mac_fec_test_suite);
