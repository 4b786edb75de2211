// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the VLC MAC core. The cases and their tables live in
 * vlc_mac_cases.c, vlc_mac_rx_cases.c and vlc_mac_sync_cases.c, shared
 * with the host cmocka runner, on the test network of vlc_mac_cases.h;
 * this file only includes them, as one translation unit, and registers
 * their suites.
 */

#include <kunit/test.h>

#include "vlc_mac_cases.c"
#include "vlc_mac_rx_cases.c"
#include "vlc_mac_sync_cases.c"

static struct kunit_suite vlc_mac_test_suite = {
	.name = "vlc_mac",
	.test_cases = vlc_mac_test_cases,
};

static struct kunit_suite vlc_mac_rx_test_suite = {
	.name = "vlc_mac_rx",
	.test_cases = vlc_mac_rx_test_cases,
};

static struct kunit_suite vlc_mac_sync_test_suite = {
	.name = "vlc_mac_sync",
	.test_cases = vlc_mac_sync_test_cases,
};

kunit_test_suites(&vlc_mac_test_suite, &vlc_mac_rx_test_suite,
		  &vlc_mac_sync_test_suite);
