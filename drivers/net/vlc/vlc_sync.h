/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLC resync loop: where this node's frame grid goes, from the PHY's
 * reports of where its neighbours' frames sit. Pure C; one instance per
 * node, run by the MAC (vlc_mac_rx.c) and by the host simulator.
 */
#ifndef _VLC_SYNC_H
#define _VLC_SYNC_H

#include <linux/types.h>

struct vlc_phy_rx;

/**
 * struct vlc_sync - state of one resync loop; zero is the initial state
 * @sum: ns, the offsets of the current window so far
 * @n: frames in the window
 * @windows: windows completed, for the rate's leak
 * @settle: windows since an acquisition, capped
 * @rate: ns per frame moved while locked, Q8
 * @frac: ns of the rate not moved yet, Q8
 * @acq_off: ns, the last acquisition report
 * @acq_moved: ns we moved for it; 0: none pending
 * @acquiring: the last report was of an acquiring PHY
 */
struct vlc_sync {
	s64 sum;
	u8 n;
	u8 windows;
	u8 settle;
	s32 rate;
	s32 frac;
	s32 acq_off;
	s32 acq_moved;
	bool acquiring;
};

s32 vlc_sync_frame(struct vlc_sync *s, const struct vlc_phy_rx *rx,
		   bool heard, u32 deadband_ns);

/* The PHY had no lock in the last frame the loop ran on. */
static inline bool vlc_sync_acquiring(const struct vlc_sync *s)
{
	return s->acquiring;
}

#endif /* _VLC_SYNC_H */
