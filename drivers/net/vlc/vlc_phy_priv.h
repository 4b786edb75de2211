/* SPDX-License-Identifier: GPL-2.0 */
/* VLC PHY core: what its files share, and no other file uses.
 *
 *   vlc_phy.c        the frame engine: settings, slot schedule, the tick
 *   vlc_phy_rx.c     the receiver: ambient line, sync hypotheses, signal
 *                    estimate, decisions
 *   vlc_phy_noise.c  the noise estimate, fed by the receiver and by
 *                    acquisition
 *   vlc_phy_acq.c    acquisition of a neighbour before the receiver
 *                    locks; its state (vlc_phy_acq.h) is touched there
 *                    alone
 *
 * Pure C, as those files.
 */
#ifndef _VLC_PHY_PRIV_H
#define _VLC_PHY_PRIV_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "vlc_phy.h"

/* Shared by the receiver and acquisition. */
#define VLC_PHY_K_CARRIER	4	/* lit: this many noise rms */
#define VLC_PHY_NOISE_SHIFT	4	/* noise EWMA weight 1/16 */
#define VLC_PHY_SIGNAL_HOLD	2048	/* frames a signal estimate lives */

static inline u64 vlc_phy_abs(s64 v)
{
	return v < 0 ? -(u64)v : (u64)v;
}

static inline u32 vlc_phy_sat_u32(s64 v)
{
	return clamp_t(s64, v, 0, U32_MAX);
}

/* Data slots of a frame in @mode. */
static inline unsigned int vlc_phy_ndata(enum vlc_phy_mode mode)
{
	return mode == VLC_PHY_MODE_4PPM ? 4 : 2;
}

/* vlc_phy_rx.c */
void vlc_phy_frame_rx(struct vlc_phy *phy);

/* vlc_phy_noise.c */
void vlc_phy_noise_add(struct vlc_phy *phy, u64 var);

/* vlc_phy_acq.c: the hooks by which the engine and the receiver reach
 * acquisition
 */
void vlc_phy_acq_start(struct vlc_phy *phy);
u32 vlc_phy_acq_id_windows(struct vlc_phy *phy, u32 first, u32 dark,
			   s32 adj);
void vlc_phy_acq_id_late(struct vlc_phy *phy);
bool vlc_phy_acq_window_end(struct vlc_phy *phy, bool late);
bool vlc_phy_acq_tick(struct vlc_phy *phy);
bool vlc_phy_acq_coarse_due(const struct vlc_phy *phy);
void vlc_phy_acq_drop_report(struct vlc_phy *phy);
u32 vlc_phy_acq_report(struct vlc_phy *phy, struct vlc_phy_rx *rx);
void vlc_phy_acq_unlocked(struct vlc_phy *phy);

#endif /* _VLC_PHY_PRIV_H */
