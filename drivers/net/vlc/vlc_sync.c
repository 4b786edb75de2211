// SPDX-License-Identifier: GPL-2.0
/*
 * VLC resync loop. The MAC runs it on every PHY frame and applies the
 * move it returns (vlc_mac_rx.c); so does the host simulator, so
 * that the benches measure the loop the driver runs.
 */

#include <linux/types.h>
#include <linux/minmax.h>

#include "vlc_phy.h"
#include "vlc_sync.h"

/**
 * DOC: Resync loop
 *
 * Every node runs the same phase and rate (PI) loop on what it sees, and
 * follows the sum of its neighbours; nobody leads. The PHY reports where
 * the neighbours' frames sit in ours (their light in our S1 or S2),
 * positive when late; several neighbours' light adds up, so the report
 * is the sum of their offsets, and IN (0) under its threshold.
 *
 * Phase: the mean over 16 frames that could carry a neighbour's light,
 * outside the dead band, moves our grid by a quarter of it (not a half:
 * with n neighbours on one side the sum is n times the mean offset, and
 * the loop stays stable up to n = 7).
 *
 * Rate: the same mean adds mean / 2048 ns per frame to our rate for the
 * first 255 windows after an acquisition, mean / 8192 after that. The
 * rate moves our grid while locked, our own transmissions included, in
 * steps of 1 us or with the next correction. It learns our skew against
 * the others: no standing offset (a phase-only loop keeps skew * 16
 * frames / gain), and no drift while we send a long frame blind. The
 * slower gain after settling keeps the rate from walking with the noisy
 * reports of three or more nodes under traffic (a sender's light and the
 * idle nodes' change places in the sum). The network's common rate is
 * seen by nobody; the rate leaks 1/4096 every 16 windows so that it
 * stays near the clocks' mean.
 *
 * Acquisition (coarse) reports are applied at once, by half, so that two
 * acquiring nodes meet in the middle; but when a report is what the
 * previous one said minus our move for it, the neighbour stood still (it
 * is locked, perhaps on a wrong grid that it will leave once we are
 * near), and the whole of it goes; so does the first large fine offset
 * after the lock when it is the half we left.
 */

#define VLC_SYNC_SHIFT		4	/* mean offset over 16 frames */
#define VLC_SYNC_FRAC		8	/* the rate is in 1/256 ns per frame */
#define VLC_SYNC_KP_SHIFT	2	/* phase: mean / 4 */
#define VLC_SYNC_KI_SHIFT	3	/* rate: mean / 8 / 256 ns per frame, */
#define VLC_SYNC_KI_SETTLE	255	/* for this many windows after a lock, */
#define VLC_SYNC_KI_TRACK	5	/* then mean / 32 / 256 ns per frame */
#define VLC_SYNC_LEAK_EVERY	16	/* windows, a power of 2 */
#define VLC_SYNC_LEAK_SHIFT	12	/* rate leaks 1/4096 of itself */
#define VLC_SYNC_RATE_MAX	(2048 << VLC_SYNC_FRAC)	/* ns/frame */
#define VLC_SYNC_STEP_NS	1000	/* the rate moves at least this */
/* an acquisition report within this, or an eighth of itself if more, of
 * what the last one and our move for it predict: the neighbour stood still
 */
#define VLC_SYNC_ACQ_STILL_NS	4000

/* An offset of @off ns is what the last acquisition report said less
 * our move for it: the neighbour did not move since.
 */
static bool vlc_sync_acq_still(const struct vlc_sync *s, s32 off)
{
	s64 err = (s64)off - ((s64)s->acq_off - s->acq_moved);
	s64 mag = off < 0 ? -(s64)off : off;

	if (err < 0)
		err = -err;
	return s->acq_moved &&
	       err <= max_t(s64, VLC_SYNC_ACQ_STILL_NS, mag / 8);
}

/* The move for an acquisition report of @off ns: half of it, or all of
 * it when the neighbour did not move since the last one, since halving
 * toward a neighbour that stands still takes several reports and leaves
 * the rest to the slow fine loop (vlc-benchmarks.rst, "Synchronisation").
 */
static s32 vlc_sync_acq_step(struct vlc_sync *s, s32 off)
{
	s32 step = vlc_sync_acq_still(s, off) ? off : off / 2;

	s->acq_off = off;
	s->acq_moved = step;
	return step;
}

/* A completed window of fine reports with mean @mean: the rate learns
 * it. Return: whether it calls for a correction, its phase share in @corr.
 */
static bool vlc_sync_window(struct vlc_sync *s, s64 mean, u32 deadband_ns,
			    s64 *corr)
{
	s64 mag = mean < 0 ? -mean : mean;
	unsigned int ki;

	s->acq_moved = 0;
	if (s->settle < VLC_SYNC_KI_SETTLE)
		s->settle++;
	if (!(++s->windows & (VLC_SYNC_LEAK_EVERY - 1)))
		s->rate -= vlc_phy_sshr(s->rate, VLC_SYNC_LEAK_SHIFT);
	if (mag <= deadband_ns || mag < 2)
		return false;
	ki = s->settle < VLC_SYNC_KI_SETTLE ?
	     VLC_SYNC_KI_SHIFT : VLC_SYNC_KI_TRACK;
	s->rate = clamp_t(s64, s->rate + vlc_phy_sshr(mean, ki),
			  -VLC_SYNC_RATE_MAX, VLC_SYNC_RATE_MAX);
	*corr = vlc_phy_sshr(mean, VLC_SYNC_KP_SHIFT);
	return true;
}

/* One fine report of @off ns; at the end of a window, as
 * vlc_sync_window().
 */
static bool vlc_sync_sample(struct vlc_sync *s, s32 off, u32 deadband_ns,
			    s64 *corr)
{
	s64 mean;

	s->sum += off;
	if (++s->n < 1 << VLC_SYNC_SHIFT)
		return false;
	mean = vlc_phy_sshr(s->sum, VLC_SYNC_SHIFT);
	s->sum = 0;
	s->n = 0;
	return vlc_sync_window(s, mean, deadband_ns, corr);
}

/**
 * vlc_sync_frame - run the loop on one PHY frame
 * @s: the loop
 * @rx: the PHY's report of the frame
 * @heard: the frame could carry a neighbour's light (we did not emit)
 * @deadband_ns: a window's mean offset up to this is left alone
 *
 * At most one move per frame: the rate's share plus any correction.
 * Acquisition reports count even in a frame we lit: the search leaves
 * our own data slot out, and while the PHY acquires the MAC starts
 * nothing but beacons, whose 48 frames (2-slot) would otherwise keep two
 * nodes that beacon at once from moving toward each other for that long.
 *
 * Return: ns to move our grid by now (positive: later), 0 for none.
 */
s32 vlc_sync_frame(struct vlc_sync *s, const struct vlc_phy_rx *rx,
		   bool heard, u32 deadband_ns)
{
	s64 move, corr;

	/* (re)acquiring: no earlier acquisition report is pending */
	if (rx->acquiring && !s->acquiring)
		s->acq_moved = 0;
	s->acquiring = rx->acquiring;
	if (rx->acquiring) {
		if (!rx->coarse)
			return 0;
		s->sum = 0;
		s->n = 0;
		s->settle = 0;
		return vlc_sync_acq_step(s, rx->offset_ns);
	}
	/* the rate moves the grid in steps of about VLC_SYNC_STEP_NS */
	s->frac += s->rate;
	/* The PHY locks within sync_ns of the neighbour, and the report
	 * that locked it moved us half of that. If the first large fine
	 * offset after the lock is the other half, the neighbour stood
	 * still (locked already, or sending a beacon): move it all now
	 * rather than a quarter every 16 frames. The prediction vouches
	 * for the estimate even in a frame we lit (S1 and S2, where the
	 * PHY sees the offset, are dark in our frames too); the rate's
	 * share waits for the next frame.
	 */
	if (s->acq_moved && rx->coarse) {
		bool still = vlc_sync_acq_still(s, rx->offset_ns);

		s->acq_moved = 0;
		if (still) {
			s->sum = 0;
			s->n = 0;
			return rx->offset_ns;
		}
	}
	move = vlc_phy_sshr(s->frac, VLC_SYNC_FRAC);
	if (move >= VLC_SYNC_STEP_NS || move <= -VLC_SYNC_STEP_NS)
		s->frac -= move * (1 << VLC_SYNC_FRAC);
	else
		move = 0;
	/* Idle frames count: an idle neighbour's illumination spilling into
	 * S1/S2 is the only sync signal between idle nodes.
	 */
	if (heard && rx->sync != VLC_PHY_SYNC_NONE &&
	    vlc_sync_sample(s, rx->offset_ns, deadband_ns, &corr)) {
		/* with a correction, whatever the rate gathered goes too */
		if (!move) {
			move = vlc_phy_sshr(s->frac, VLC_SYNC_FRAC);
			s->frac -= move * (1 << VLC_SYNC_FRAC);
		}
		move += corr;
	}
	/* A locked PHY's coarse report is a sample like the others (acting
	 * on it at once, by half, would restart the window and starve the
	 * rate while the skew is large); the frame's move waits for the
	 * next, so that a move in a frame reported coarse is always half
	 * or all of its offset, as vlc_phase traces show.
	 */
	if (rx->coarse) {
		s->frac += move * (1 << VLC_SYNC_FRAC);
		return 0;
	}
	return (s32)move;
}
