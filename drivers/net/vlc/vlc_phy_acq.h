/* SPDX-License-Identifier: GPL-2.0 */
/* VLC PHY core: the state of acquisition (vlc_phy_acq.c).
 *
 * struct vlc_phy embeds struct vlc_phy_acq by value, so that it stays
 * plain data an executor can embed; vlc_phy.h includes this header for
 * that size alone. Its fields are vlc_phy_acq.c's: no other file touches
 * them, the engine and the receiver go through the hooks of
 * vlc_phy_priv.h.
 */
#ifndef _VLC_PHY_ACQ_H
#define _VLC_PHY_ACQ_H

#include <linux/types.h>

/* While acquiring, the dark ID part is measured in up to this many
 * windows of about guard_ns / 2.
 */
#define VLC_PHY_ID_WINDOWS	16

/* Acquisition: measured slots of one frame plus our dark ID part. */
#define VLC_PHY_ACQ_BINS	(11 + VLC_PHY_ID_WINDOWS)
#define VLC_PHY_ACQ_NH		8	/* h grid: 0, 1/8 .. 8/8 of the max */
#define VLC_PHY_ACQ_NX		64	/* offset grid: frame_ns / 64 */

/* One candidate of the acquisition search. */
struct vlc_phy_acq_cand {
	u32 x;		/* neighbour frame start in our frame, ns */
	u32 h;		/* half its on-time, ns */
	s8 k;		/* its lit data slot, -1 for none */
	s64 c;		/* correlation with the levels */
	u32 q;		/* template energy off the ambient line */
};

/* Template of one component (illumination or data) and its sums. */
struct vlc_phy_acq_sums {
	s64 s, t, c;
	u64 p2;
	u16 p[VLC_PHY_ACQ_BINS];
};

struct vlc_phy_acq_edge {
	u32 q, r;
};

/* Where the acquisition search of a captured frame stands. */
enum vlc_phy_acq_stage {
	VLC_PHY_ACQ_IDLE,	/* nothing captured */
	VLC_PHY_ACQ_CAPTURED,	/* a frame waits for the search */
	VLC_PHY_ACQ_BUSY,	/* deferred: the search runs elsewhere */
	VLC_PHY_ACQ_GRID,	/* in the tick: the grid, a few columns a tick */
	VLC_PHY_ACQ_REFINE,	/* in the tick: the refinement */
};

/* Acquisition state: a snapshot of one frame, the search over it that
 * runs a few steps per tick, and the tracking of the estimates from frame
 * to frame.
 */
struct vlc_phy_acq {
	/* the frame being searched */
	u64 fs;
	u32 bs[VLC_PHY_ACQ_BINS];
	u32 be[VLC_PHY_ACQ_BINS];
	u32 lv[VLC_PHY_ACQ_BINS];
	u16 cen[VLC_PHY_ACQ_BINS];
	u32 inv[VLC_PHY_ACQ_BINS];
	s32 y[VLC_PHY_ACQ_BINS];
	s32 t[VLC_PHY_ACQ_BINS];
	u64 yy;
	u64 var;
	u32 rn, rs;
	u32 fns, dns, dl, hmax, step;
	u32 ds[4];
	u8 nd, nb, ys;
	u8 nid;		/* the last nid bins are our ID windows */
	s8 own;		/* our data slot lit (and left out), or -1 */
	bool detect;	/* the frame's search found the neighbour */

	/* taken from the PHY with the frame (vlc_phy_acq_take()) */
	u64 in_noise_var;
	u32 in_noise_samples;
	u32 in_min_level;	/* the backend's smallest signal, 0: unknown */
	bool in_flush;	/* forget the evidence first */
	bool in_stale;	/* the frame predates the grid's last move */

	/* the outcome, for vlc_phy_acq_apply_*() */
	bool v_noise;	/* v_var is a noise sample */
	bool v_empty;	/* no light at all in the frame */
	u64 v_var;
	u32 v_pmax;	/* largest lit fraction of the best template */

	/* the search */
	u8 stage;
	u8 pos;
	u8 work;
	bool flush;	/* set by the tick: evidence to forget */
	u8 colh[VLC_PHY_ACQ_NX];
	s8 colk[VLC_PHY_ACQ_NX];
	u32 cols[VLC_PHY_ACQ_NX];
	u32 colq[VLC_PHY_ACQ_NX];
	s64 cn[VLC_PHY_ACQ_NX];		/* correlation / noise rms */
	s64 accc[VLC_PHY_ACQ_NX];	/* ... accumulated */
	u64 accq[VLC_PHY_ACQ_NX];	/* template energy, accumulated */
	u32 rsig;			/* 2^16 / noise rms, levels scaled */
	struct vlc_phy_acq_cand best;
	struct vlc_phy_acq_cand fbest;	/* best of the grid, this frame */
	/* scratch of a grid column, kept off the stack */
	struct vlc_phy_acq_edge es[VLC_PHY_ACQ_BINS];
	struct vlc_phy_acq_edge ee[VLC_PHY_ACQ_BINS];
	struct vlc_phy_acq_sums mi[VLC_PHY_ACQ_NH + 1];
	struct vlc_phy_acq_sums md[4];

	/* tracking */
	u32 phase;
	u32 a;
	u32 a_known;	/* amplitude seen with a window wholly lit */
	u8 agree;
	u8 misses;
	u8 empty;	/* trusted frames in a row with no light at all */
	bool seen;	/* a report went out since the last lock */
	bool have;
	bool fresh;
	bool hid;	/* the estimate rests on the edges of our pulse */
	bool coarse_adj;
};

#endif /* _VLC_PHY_ACQ_H */
