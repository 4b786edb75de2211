// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the VLC FEC layer, on the kernel's own lib/reed_solomon.
 * The cases live in vlc_fec_cases.c, shared with the host cmocka runner;
 * this file only includes them and registers their suite.
 */

#include <kunit/test.h>

#include "vlc_fec_cases.c"

VLC_TEST_SUITE(vlc_fec);

kunit_test_suites(&vlc_fec_test_suite);
