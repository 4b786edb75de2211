// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core: the resync loop, which moves this node's frame grid
 * (ops->phase) on the PHY's reports of where its neighbours' frames sit.
 */

#include <linux/types.h>
#include <linux/minmax.h>

#include "vlc_mac_priv.h"

#define VLC_MAC_SYNC_SHIFT	4	/* mean offset over 16 frames */
/* Resync loop (see vlc_mac_resync()): the rate is in 1/256 ns per frame */
#define VLC_MAC_SYNC_FRAC	8
#define VLC_MAC_SYNC_KP_SHIFT	2	/* phase: mean / 4 */
#define VLC_MAC_SYNC_KI_SHIFT	3	/* rate: mean / 8 / 256 ns per frame, */
#define VLC_MAC_SYNC_KI_SETTLE	255	/* for this many windows after a lock, */
#define VLC_MAC_SYNC_KI_TRACK	5	/* then mean / 32 / 256 ns per frame */
#define VLC_MAC_SYNC_LEAK_EVERY	16	/* windows, a power of 2 */
#define VLC_MAC_SYNC_LEAK_SHIFT	12	/* rate leaks 1/4096 of itself */
#define VLC_MAC_SYNC_RATE_MAX	(2048 << VLC_MAC_SYNC_FRAC)	/* ns/frame */
#define VLC_MAC_SYNC_STEP_NS	1000	/* the rate moves at least this */
/* an acquisition report within this, or an eighth of itself if more, of
 * what the last one and our move for it predict: the neighbour stood still
 */
#define VLC_MAC_ACQ_STILL_NS	4000

/* Resync: every node runs the same phase and rate (PI) loop on what it
 * sees, and follows the sum of its neighbours; nobody leads. The PHY
 * reports where the neighbours' frames sit in ours (their light in our
 * S1 or S2), positive when late; several neighbours' light adds up, so
 * the report is the sum of their offsets, and IN (0) under its threshold.
 *
 * Phase: the mean over 16 frames that could carry a neighbour's light,
 * outside the dead band, moves our grid by a quarter of it (not a half:
 * with n neighbours on one side the sum is n times the mean offset, and
 * the loop stays stable up to n = 7).
 *
 * Rate: the same mean adds mean / 2048 ns per frame to our rate for the
 * first 255 windows after an acquisition (about 2 s), mean / 8192 after
 * that; the rate
 * moves our grid while locked, our own transmissions included, in steps
 * of 1 us (under what the PHY sees, and a move every few frames rather
 * than every frame in a trace) or with the next correction. It learns
 * our skew against the others: no standing offset (a phase-only loop
 * keeps skew * 16 frames / gain), and no drift while we send a long
 * frame blind. The network's common rate is seen by nobody; the rate
 * leaks 1/4096 every 16 windows so that it stays near the clocks' mean.
 *
 * One node following a fixed one: poles at 0.79 and 0.96 per window, no
 * overshoot; the rate is learnt with a time constant of 27 windows (0.2 s
 * at the default timing). Then the gain drops by 4: with three or more
 * nodes the reports under traffic are noisy (a sender's light and the
 * idle nodes' change places in the sum), and the fast rate walks with
 * them, the sender's grid with it while it sends blind: in a host model
 * of five nodes, one saturating, half the goodput was lost to erasures.
 * Acquisition (coarse) reports are applied at
 * once, by half, so that two acquiring nodes meet in the middle; but
 * when a report is what the previous one said minus our move for it, the
 * neighbour stood still (it is locked, perhaps on a wrong grid that it
 * will leave once we are near), and the whole of it goes (see
 * vlc_mac_acq_step()); so does the first large fine offset after the
 * lock when it is the half we left. Limits and measurements:
 * Documentation/networking/vlc.rst, "Resynchronisation".
 */
static s64 vlc_mac_sshr(s64 v, unsigned int shift)
{
	/* on the magnitude: no signed shift, rounds toward zero */
	u64 mag = v < 0 ? -(u64)v : (u64)v;

	mag >>= shift;
	return v < 0 ? -(s64)mag : (s64)mag;
}

/* An offset of @off ns is what the last acquisition report said less
 * our move for it: the neighbour did not move since.
 */
static bool vlc_mac_acq_still(const struct vlc_mac *mac, s32 off)
{
	s64 err = (s64)off - ((s64)mac->sync.acq_off - mac->sync.acq_moved);
	s64 mag = off < 0 ? -(s64)off : off;

	if (err < 0)
		err = -err;
	return mac->sync.acq_moved &&
	       err <= max_t(s64, VLC_MAC_ACQ_STILL_NS, mag / 8);
}

/* The move for an acquisition report of @off ns: half of it, or all of
 * it when the neighbour did not move since the last one, since halving
 * toward a neighbour that stands still takes several reports and leaves
 * the rest to the slow fine loop (vlc-benchmarks.rst, "Synchronisation").
 */
static s32 vlc_mac_acq_step(struct vlc_mac *mac, s32 off)
{
	s32 step = vlc_mac_acq_still(mac, off) ? off : off / 2;

	mac->sync.acq_off = off;
	mac->sync.acq_moved = step;
	return step;
}

static void vlc_mac_phase(struct vlc_mac *mac, s64 ns)
{
	if (!ns)
		return;
	mac->stats.phase_corrections++;
	if (mac->ops && mac->ops->phase)
		mac->ops->phase(mac->ctx, (s32)ns);
}

/* @heard: the frame could carry a neighbour's light (we did not emit).
 * At most one move per frame: the rate's share plus any correction.
 * Acquisition reports count even in a frame we lit: the search leaves
 * our own data slot out, and while the PHY acquires we start nothing
 * but beacons, whose 48 frames (2-slot) would otherwise keep two nodes
 * that beacon at once from moving toward each other for that long.
 */
void vlc_mac_resync(struct vlc_mac *mac, const struct vlc_phy_rx *rx,
		    bool heard)
{
	s64 mean, move, mag;
	unsigned int ki;

	if (rx->acquiring) {
		if (!rx->coarse)
			return;
		mac->sync.sum = 0;
		mac->sync.n = 0;
		mac->sync.settle = 0;
		vlc_mac_phase(mac, vlc_mac_acq_step(mac, rx->offset_ns));
		return;
	}
	/* the rate moves the grid in steps of about VLC_MAC_SYNC_STEP_NS */
	mac->sync.frac += mac->sync.rate;
	/* The PHY locks within sync_ns of the neighbour, and the report
	 * that locked it moved us half of that. If the first large fine
	 * offset after the lock is the other half, the neighbour stood
	 * still (locked already, or sending a beacon): move it all now
	 * rather than a quarter every 16 frames. The prediction vouches
	 * for the estimate even in a frame we lit (S1 and S2, where the
	 * PHY sees the offset, are dark in our frames too); the rate's
	 * share waits for the next frame.
	 */
	if (mac->sync.acq_moved && rx->coarse) {
		bool still = vlc_mac_acq_still(mac, rx->offset_ns);

		mac->sync.acq_moved = 0;
		if (still) {
			mac->sync.sum = 0;
			mac->sync.n = 0;
			vlc_mac_phase(mac, rx->offset_ns);
			return;
		}
	}
	move = vlc_mac_sshr(mac->sync.frac, VLC_MAC_SYNC_FRAC);
	if (move >= VLC_MAC_SYNC_STEP_NS || move <= -VLC_MAC_SYNC_STEP_NS)
		mac->sync.frac -= move * (1 << VLC_MAC_SYNC_FRAC);
	else
		move = 0;
	/* Idle frames count: an idle neighbour's illumination spilling into
	 * S1/S2 is the only sync signal between idle nodes.
	 */
	if (!heard || rx->sync == VLC_PHY_SYNC_NONE)
		goto out;
	mac->sync.sum += rx->offset_ns;
	if (++mac->sync.n < 1 << VLC_MAC_SYNC_SHIFT)
		goto out;
	mean = vlc_mac_sshr(mac->sync.sum, VLC_MAC_SYNC_SHIFT);
	mac->sync.sum = 0;
	mac->sync.n = 0;
	mac->sync.acq_moved = 0;
	if (mac->sync.settle < VLC_MAC_SYNC_KI_SETTLE)
		mac->sync.settle++;
	if (!(++mac->sync.windows & (VLC_MAC_SYNC_LEAK_EVERY - 1)))
		mac->sync.rate -= vlc_mac_sshr(mac->sync.rate,
					       VLC_MAC_SYNC_LEAK_SHIFT);
	mag = mean < 0 ? -mean : mean;
	if (mag <= mac->p.sync_deadband_ns || mag < 2)
		goto out;
	ki = mac->sync.settle < VLC_MAC_SYNC_KI_SETTLE ?
	     VLC_MAC_SYNC_KI_SHIFT : VLC_MAC_SYNC_KI_TRACK;
	mac->sync.rate = clamp_t(s64, mac->sync.rate + vlc_mac_sshr(mean, ki),
				 -VLC_MAC_SYNC_RATE_MAX, VLC_MAC_SYNC_RATE_MAX);
	/* with a correction, whatever the rate gathered goes too */
	if (!move) {
		move = vlc_mac_sshr(mac->sync.frac, VLC_MAC_SYNC_FRAC);
		mac->sync.frac -= move * (1 << VLC_MAC_SYNC_FRAC);
	}
	move += vlc_mac_sshr(mean, VLC_MAC_SYNC_KP_SHIFT);
out:
	/* A locked PHY's coarse report is a sample like the others (acting
	 * on it at once, by half, would restart the window and starve the
	 * rate while the skew is large); the frame's move waits for the
	 * next, so that a move in a frame reported coarse is always half
	 * or all of its offset, as vlc_phase traces show.
	 */
	if (rx->coarse) {
		mac->sync.frac += move * (1 << VLC_MAC_SYNC_FRAC);
		return;
	}
	vlc_mac_phase(mac, move);
}
