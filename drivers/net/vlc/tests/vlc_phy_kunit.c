// SPDX-License-Identifier: GPL-2.0
/* KUnit suite of the VLC PHY core. The cases and their table live in
 * vlc_phy_cases.c, shared with the host cmocka runner; this file only
 * registers them.
 */

#include <kunit/test.h>

#include "vlc_phy_cases.c"

static struct kunit_suite vlc_phy_test_suite = {
	.name = "vlc_phy",
	.test_cases = vlc_phy_test_cases,
};

kunit_test_suite(vlc_phy_test_suite);
