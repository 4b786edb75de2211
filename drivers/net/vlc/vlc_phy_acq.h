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

/* One candidate of the acquisition search: the model of vlc_phy_acq.c. */
struct vlc_phy_acq_cand {
	u32 x;		/* neighbour frame start in our frame, ns */
	u32 h;		/* half its on-time, ns */
	s8 k;		/* its lit data slot, -1 for none */
	s64 c;		/* correlation with the levels */
	u32 q;		/* template energy off the ambient line */
};

/* Template of one component (illumination or data) and its sums. */
struct vlc_phy_acq_sums {
	s64 sum_p;	/* sum of frac[] */
	s64 sum_tp;	/* sum of time * frac, for the line's slope */
	s64 sum_yp;	/* sum of resid * frac: the correlation */
	u64 sum_pp;	/* sum of frac^2 */
	u16 frac[VLC_PHY_ACQ_BINS];	/* lit fraction of each bin, Q12 */
};

/* A window edge in the neighbour's frames, for a candidate offset. */
struct vlc_phy_acq_edge {
	u32 frames;	/* whole neighbour frames before the edge */
	u32 rest;	/* ns into the next one */
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
 * to frame. A bin is one measured window of the captured frame (a slot
 * from S1 to S2, or an ID window), our own lit data slot left out.
 * "Search units" are levels off their ambient line, shifted right by
 * resid_shift to stay below 2^14.
 */
struct vlc_phy_acq {
	/* the engine's frame: while acquiring, the dark ID part is measured
	 * in windows (vlc_phy_acq_id_windows())
	 */
	u8 id_first;		/* slot index of the first ID window */
	u8 id_count;		/* ID windows, 0 when ID is one unmeasured slot */
	bool id_late;		/* an ID window began or ended late */

	/* the frame being searched */
	u64 frame_start;	/* its start, absolute ns */
	u32 win_start[VLC_PHY_ACQ_BINS];	/* bin start, ns in the frame */
	u32 win_end[VLC_PHY_ACQ_BINS];		/* bin end, ns in the frame */
	u32 level[VLC_PHY_ACQ_BINS];	/* bin level, backend units */
	u16 centre[VLC_PHY_ACQ_BINS];	/* bin centre, 1/4096 of frame_ns */
	u32 inv_len[VLC_PHY_ACQ_BINS];	/* 2^32 / bin length in ns */
	s32 resid[VLC_PHY_ACQ_BINS];	/* level off the line, search units */
	s32 time[VLC_PHY_ACQ_BINS];	/* centred bin time, below 2^10 */
	u64 resid_sq;		/* sum of resid^2 */
	u64 noise_var;		/* noise variance, search units^2, floored */
	u32 inv_nbins;		/* 2^32 / nbins */
	u32 inv_stt;		/* 2^48 / sum of time^2 */
	u32 frame_ns;		/* the frame's timing, ns */
	u32 meas_ns;		/* length of its measured part, S1 to S2 */
	u32 data_ns;		/* length of a data slot */
	u32 half_on_max;	/* largest h: half the illumination part, ns */
	u32 col_step;		/* offset between grid columns, ns */
	u32 data_start[4];	/* start of each data slot, ns into the frame */
	u8 ndata;		/* data slots of the mode: 2 or 4 */
	u8 nbins;		/* bins in use */
	u8 resid_shift;		/* levels >> this are search units */
	u8 id_bins;		/* the last id_bins bins are our ID windows */
	s8 own_data;		/* our data slot lit (and left out), or -1 */
	bool detected;		/* the frame's search found the neighbour */

	/* taken from the PHY with the frame (vlc_phy_acq_take()) */
	u64 in_noise_var;	/* the PHY's noise variance, backend units^2 */
	u32 in_noise_samples;	/* the samples it rests on */
	u32 in_min_level;	/* the backend's smallest signal, 0: unknown */
	bool in_flush;		/* forget the evidence first */
	bool in_stale;		/* the frame predates the grid's last move */

	/* the outcome, for vlc_phy_acq_apply_*() */
	bool out_has_noise;	/* out_noise_var is a noise sample */
	bool out_empty;		/* no light at all in the frame */
	u64 out_noise_var;	/* the frame's noise, backend units^2 */
	u32 out_lit_max;	/* largest lit fraction of the best, Q12 */

	/* the search */
	u8 stage;		/* enum vlc_phy_acq_stage */
	bool defer;		/* the search runs outside the tick */
	u8 cursor;		/* next grid column, or refinement level */
	u8 steps_per_tick;	/* columns or levels searched per tick */
	bool flush;		/* set by the tick: evidence to forget */
	/* per grid column (offset j * col_step), the best h and data slot
	 * of this frame and its scores
	 */
	u8 col_h[VLC_PHY_ACQ_NX];	/* h as a grid index: 0..NH */
	s8 col_k[VLC_PHY_ACQ_NX];	/* data slot, -1 for none */
	u32 col_score[VLC_PHY_ACQ_NX];	/* c^2 / q, noise variances */
	u32 col_q[VLC_PHY_ACQ_NX];	/* template energy q */
	s64 col_cn[VLC_PHY_ACQ_NX];	/* c in noise rms, times 16 */
	s64 acc_cn[VLC_PHY_ACQ_NX];	/* col_cn accumulated over frames */
	u64 acc_q[VLC_PHY_ACQ_NX];	/* col_q accumulated over frames */
	u32 inv_rms;		/* 2^16 / noise rms, search units */
	struct vlc_phy_acq_cand best;	/* the candidate being refined */
	struct vlc_phy_acq_cand grid_best;	/* the grid's best this frame */
	/* scratch of a grid column, kept off the stack */
	struct vlc_phy_acq_edge edge_start[VLC_PHY_ACQ_BINS];
	struct vlc_phy_acq_edge edge_end[VLC_PHY_ACQ_BINS];
	struct vlc_phy_acq_sums tpl_illum[VLC_PHY_ACQ_NH + 1];	/* per h */
	struct vlc_phy_acq_sums tpl_data[4];	/* per data slot */

	/* tracking */
	u32 phase_ns;	/* last estimate: neighbour frame start mod frame_ns */
	u32 amp;	/* its amplitude, backend units */
	u32 amp_known;	/* amplitude seen with a window wholly lit, 0: none */
	u8 agree;	/* estimates in a row within frame_ns / 128 */
	u8 misses;	/* frames in a row without an estimate */
	u8 empty;	/* trusted frames in a row with no light at all */
	bool reported;	/* a report went out since the last lock */
	bool have_est;	/* phase_ns and amp hold an estimate */
	bool fresh_est;	/* it agrees with the one before, not yet reported */
	bool edge_only;	/* the estimate rests on the edges of our pulse */
	bool coarse_mode;	/* coarse reports are being made: phase
				 * corrections are applied in one frame
				 */
};

#endif /* _VLC_PHY_ACQ_H */
