// SPDX-License-Identifier: GPL-2.0
/* KUnit suites of the VLC PHY core. The cases and their tables live in
 * vlc_phy_cases.c and vlc_phy_acq_cases.c, shared with the host cmocka
 * runner, on the channel of vlc_phy_cases.h; this file only includes
 * them, as one translation unit, and registers their suites.
 */

#include <kunit/test.h>

#include "vlc_phy_cases.c"
#include "vlc_phy_acq_cases.c"

VLC_TEST_SUITE(vlc_phy);
VLC_TEST_SUITE(vlc_phy_acq);

kunit_test_suites(&vlc_phy_test_suite, &vlc_phy_acq_test_suite);
