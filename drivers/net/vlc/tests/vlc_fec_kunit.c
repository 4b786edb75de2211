// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the VLC FEC layer, on the kernel's own lib/reed_solomon.
 * The cases live in vlc_fec_cases.c, shared with the host cmocka runner;
 * this file includes them and registers their suite, and one case of its
 * own.
 */

#include <kunit/test.h>

#include "vlc_fec_cases.c"

VLC_TEST_SUITE(vlc_fec);

/* In a kernel tree VLC selects REED_SOLOMON: the shared cases must run
 * on the codecs, not pass through their branch for a kernel without.
 */
static void vlc_fec_kunit_available(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, vlc_fec_available());
}

static struct kunit_case vlc_fec_kunit_cases[] = {
	KUNIT_CASE(vlc_fec_kunit_available),
	{}
};

static struct kunit_suite vlc_fec_kunit_suite = {
	.name = "vlc_fec_kunit",
	.test_cases = vlc_fec_kunit_cases,
};

kunit_test_suites(&vlc_fec_test_suite, &vlc_fec_kunit_suite);
