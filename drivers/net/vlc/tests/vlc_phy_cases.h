/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness of the VLC PHY cases: the channel and the pair of nodes
 * that vlc_phy_cases.c and vlc_phy_acq_cases.c share, included once by
 * each runner (the KUnit wrapper vlc_phy_kunit.c and the host cmocka
 * runner tests/host/vlc_phy_test.c), which include both case files into
 * one translation unit.
 *
 * Units: a lit data slot measures SIG above ambient at the receiver;
 * "SNR" is SIG over the rms noise of a data_ns window.
 */
#ifndef _VLC_PHY_CASES_H
#define _VLC_PHY_CASES_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>

#include "vlc_test.h"
#include "vlc_hsim.h"
#include "vlc_phy.h"
#include "vlc_phy_priv.h"

#define SIG		10000U
#define T0		1000000ULL	/* virtual time of the first frame */
#define TX		0
#define RX		1
#define TX2		2

/* @call, which reports its reason in the case's "why", is refused with
 * -EINVAL for a reason that names @sub.
 */
#define VLC_EXPECT_REFUSED(call, sub)					\
	do {								\
		VLC_EXPECT_EQ(call, -EINVAL);				\
		VLC_EXPECT_STR_HAS(vlc_refusal_msg(why), sub);				\
	} while (0)

/* Too big for a kernel stack, and the cases run one at a time. */
static struct vlc_hsim vlc_test_ch;
static u8 vlc_test_seq[2048];

static u32 vlc_test_frame_ns(void)
{
	return vlc_phy_default_timing.frame_ns;
}

/* TX node 0 seen by RX node 1 at SIG; TX2 is dark until a case wires it. */
static struct vlc_hsim *vlc_test_pair(u64 seed, enum vlc_phy_mode mode,
				      u32 brightness)
{
	struct vlc_hsim *ch = &vlc_test_ch;
	int i;

	vlc_hsim_init(ch, seed);
	ch->gain[TX][RX] = SIG;
	for (i = 0; i < VLC_HSIM_NODES; i++) {
		vlc_phy_set_mode(&ch->node[i].phy, mode, NULL);
		vlc_phy_set_brightness(&ch->node[i].phy, brightness, NULL);
	}
	vlc_phy_set_rx_min_level(&ch->node[RX].phy, SIG / 10);
	ch->node[RX].ref = TX;
	return ch;
}

static void vlc_test_start_pair(struct vlc_hsim *ch)
{
	vlc_hsim_start(ch, TX, T0);
	vlc_hsim_start(ch, RX, T0);
}

/* Noise rms for a signal-to-noise ratio @snr on a data window. */
static u32 vlc_test_noise(u32 snr)
{
	return SIG / snr;
}

#endif /* _VLC_PHY_CASES_H */
