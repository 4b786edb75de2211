// SPDX-License-Identifier: GPL-2.0
/*
 * Host runner of the VLC FEC cases under cmocka, on the kernel's own
 * lib/reed_solomon (tests/host/rslib.mk). The same cases run in the
 * build without REED_SOLOMON (vlc_fec_nors_test), where they check that
 * FEC says it is unavailable.
 */

#include <linux/kernel.h>

#include "vlc_fec_cases.c"

int main(void)
{
	static const struct vlc_test_group g[] = {
		VLC_TEST_GROUP(vlc_fec),
	};

	return vlc_test_main(VLC_FEC_TEST_NAME, g, ARRAY_SIZE(g));
}
