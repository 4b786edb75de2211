// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the VLC MAC core. The cases and their table live in
 * vlc_mac_cases.c, shared with the host cmocka runner; this file only
 * registers them.
 */

#include <kunit/test.h>

#include "vlc_mac_cases.c"

static struct kunit_suite vlc_mac_test_suite = {
	.name = "vlc_mac",
	.test_cases = vlc_mac_test_cases,
};

kunit_test_suite(vlc_mac_test_suite);
