// SPDX-License-Identifier: GPL-2.0
/* VLC PHY core, the receiver: the ambient line through the dark slots,
 * the sync hypotheses of a locked PHY, the signal estimate and what
 * feeds the noise estimate (vlc_phy_noise.c), and the decisions, once
 * per frame when its measured part is over.
 *
 * Pure C, as vlc_phy.c.
 */

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/math.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/vlc.h>

#include "vlc_phy.h"
#include "vlc_phy_priv.h"

/* Receiver constants. A data symbol needs a decision margin of
 * VLC_PHY_K_DECIDE noise rms (and half the signal): a wrong symbol then
 * takes a noise excursion of several sigma of the difference, which is
 * why low SNR gives erasures, not errors.
 */
#define VLC_PHY_K_DECIDE	6	/* decided: this many noise rms */
#define VLC_PHY_K_SYNC		5	/* light in S1/S2: noise rms */
#define VLC_PHY_SYNC_FRAC	16	/* ... and 1/16 of the signal */
#define VLC_PHY_NOISE_WARMUP	8	/* noise samples before deciding */
#define VLC_PHY_SIGNAL_SHIFT	3	/* signal EWMA weight 1/8 */
#define VLC_PHY_FIT_BITS	24	/* levels scaled below this for the fit */
#define VLC_PHY_UNEXPLAINED_MAX	8	/* unexplained frames to unlock */

/* Least-squares line through chosen measured slots, in integers. */
struct vlc_phy_fit {
	s64 mean;	/* Q16 mean level (minus base) */
	s64 tmean;	/* Q16 mean slot centre */
	s64 slope;	/* Q16 level per 1/4096 of a frame */
	u64 ssr;	/* sum of squared residuals, in level units */
	s64 sy;		/* for the SSR: Sy, n Stt - St^2, n Sty - St Sy */
	s64 stt, sty;
	u32 base;
	u8 shift;
	u8 n;
};

/* Sums of the dark slots of a frame, from which the fit through any
 * subset of them is the sum less the few slots left out: one pass per
 * frame, not one per hypothesis. Levels are taken above the smallest
 * one; the line does not depend on that base, only its range does.
 */
#define VLC_PHY_MAX_MEAS	11	/* S1, S2, 4 data slots, 5 guards */

struct vlc_phy_sums {
	u32 all;
	u32 base;
	u8 shift;
	s64 sy, sty, syy;
	s64 y[VLC_PHY_MAX_MEAS];	/* each slot's terms of the sums */
	s64 ty[VLC_PHY_MAX_MEAS];
};

static void vlc_phy_sums_init(const struct vlc_phy *phy, u32 all,
			      struct vlc_phy_sums *m)
{
	u32 i, base = U32_MAX, maxdev = 0, left;

	m->all = all;
	m->shift = 0;
	m->sy = 0;
	m->sty = 0;
	m->syy = 0;
	for (left = all; left; left &= left - 1) {
		u32 v = phy->level[__ffs(left)];

		base = min(base, v);
		maxdev = max(maxdev, v);
	}
	maxdev -= base;
	/* Keep every product below 2^63; only absurd spreads lose bits. */
	while (maxdev >= BIT(VLC_PHY_FIT_BITS)) {
		maxdev >>= 1;
		m->shift++;
	}
	m->base = base;
	for (left = all; left; left &= left - 1) {
		s64 t, y;

		i = __ffs(left);
		t = phy->slot[i].centre;
		y = (phy->level[i] - base) >> m->shift;
		m->y[i] = y;
		m->ty[i] = t * y;
		m->sy += y;
		m->sty += m->ty[i];
		m->syy += y * y;
	}
}

/* The line through the slots of @mask (a subset of m->all), in fixed
 * point: evaluation is then a multiply, and a fit two divisions. Its SSR
 * is vlc_phy_fit_ssr()'s, apart: a hypothesis that already explains the
 * slots it leaves out worse than the best so far does not need it.
 */
static void vlc_phy_fit_line(const struct vlc_phy_sums *m, u32 mask,
			     const struct vlc_phy_tsum *ts,
			     struct vlc_phy_fit *f)
{
	s64 n = ts->n, st = ts->st, sy = m->sy, sty = m->sty;
	u32 i, out;

	f->base = m->base;
	f->shift = m->shift;
	f->slope = 0;
	f->mean = 0;
	f->tmean = 0;
	f->ssr = 0;
	f->stt = 0;
	for (out = m->all & ~mask; out; out &= out - 1) {
		i = __ffs(out);
		sy -= m->y[i];
		sty -= m->ty[i];
	}
	f->n = n;
	f->sy = sy;
	if (!n)
		return;
	f->mean = div_s64(sy << 16, n);
	f->tmean = ts->tmean;
	f->stt = ts->stt;
	f->sty = n * sty - st * sy;
	if (f->stt > 0) {
		f->slope = div64_s64(f->sty * 65536, f->stt);
		/* a steeper line is nonsense and would overflow below */
		f->slope = clamp_t(s64, f->slope, -(1LL << 34), 1LL << 34);
	}
}

/* n * SSR = n Syy - Sy^2 - (n Sty - St Sy)^2 / (n Stt - St^2); levels
 * below 2^24 and at most 11 slots keep it in 64 bits but for the square,
 * which takes a 128-bit product.
 */
static void vlc_phy_fit_ssr(const struct vlc_phy_sums *m, u32 mask,
			    struct vlc_phy_fit *f)
{
	s64 syy = m->syy;
	u32 out;
	u64 a;

	if (!f->n)
		return;
	for (out = m->all & ~mask; out; out &= out - 1)
		syy -= m->y[__ffs(out)] * m->y[__ffs(out)];
	a = f->n * syy - f->sy * f->sy;
	if (f->stt > 0) {
		u64 b = vlc_phy_abs(f->sty);
		u64 e = mul_u64_u64_div_u64(b, b, f->stt);

		a = a > e ? a - e : 0;
	}
	f->ssr = div_u64(a, f->n) << (2 * f->shift);
}

/* Ambient level of the line at slot centre @t (may be negative). */
static s64 vlc_phy_fit_at(const struct vlc_phy_fit *f, s64 t)
{
	s64 y = f->mean + ((f->slope * ((t << 16) - f->tmean)) >> 16);

	y = (y + (1 << 15)) >> 16;
	return (s64)f->base + y * (1LL << f->shift);
}

/* Level of measured slot @i above the fitted ambient. */
static s64 vlc_phy_above(const struct vlc_phy *phy,
			 const struct vlc_phy_fit *f, u32 i)
{
	return (s64)phy->level[i] - vlc_phy_fit_at(f, phy->slot[i].centre);
}

/* Update the noise estimate from the residuals of the final fit. */
static void vlc_phy_noise_update(struct vlc_phy *phy,
				 const struct vlc_phy_fit *f)
{
	if (f->n >= 3)
		vlc_phy_noise_add(phy, div_u64(f->ssr, f->n - 2));
}

/* Sync hypotheses. A neighbour late by x lights our S1 with its IB for x
 * (up to its IB length), and its lit data slot spills min(x, guard_ns)
 * into the guard after it, then into the next slot; early mirrors this
 * with IA into S2 and the guard before. A guard lit that way would bend
 * the ambient line, so each hypothesis leaves out the guard it predicts
 * lit (and the S slot beyond it), fits the line through the rest, reads
 * x from S1 (late) or S2 (early), and is scored by how well line plus
 * predicted spill explain all dark slots. With three guards alone a lit
 * end guard cannot be told from an ambient slope; S1/S2 decide it.
 */
enum { VLC_PHY_HYP_IN, VLC_PHY_HYP_LATE, VLC_PHY_HYP_EARLY };

struct vlc_phy_hyp {
	struct vlc_phy_fit f;
	u32 mask;
	u32 x;		/* offset, ns */
	s64 sp;		/* S1 (late) or S2 (early) above the line */
	u64 cost;
	u8 dir;
};

/* The hypotheses of a mode, in the order they are scored: in sync
 * first, then late with no guard lit or one after a data slot (never
 * G0), then early with none or one before a data slot (never the last
 * guard); each with the slots it leaves out of its line: the S slot it
 * reads, the guard it predicts lit and, for an end guard, the S slot
 * beyond it. Acquiring, only the first.
 */
struct vlc_phy_hyp_def {
	u8 dir;
	u8 g;
	u16 out;
};

#define VLC_PHY_L(g, out)	{ VLC_PHY_HYP_LATE, g, out }
#define VLC_PHY_E(g, out)	{ VLC_PHY_HYP_EARLY, g, out }

/* S1 is slot 0, S2 slot 6 (2-slot) or 10 (4-PPM) */
static const struct vlc_phy_hyp_def vlc_phy_hyps_2slot[] = {
	{ VLC_PHY_HYP_IN, 0, 0 },
	VLC_PHY_L(0, BIT(0)), VLC_PHY_L(3, BIT(0) | BIT(3)),
	VLC_PHY_L(5, BIT(0) | BIT(5) | BIT(6)),
	VLC_PHY_E(0, BIT(6)), VLC_PHY_E(1, BIT(6) | BIT(1) | BIT(0)),
	VLC_PHY_E(3, BIT(6) | BIT(3)),
};

static const struct vlc_phy_hyp_def vlc_phy_hyps_4ppm[] = {
	{ VLC_PHY_HYP_IN, 0, 0 },
	VLC_PHY_L(0, BIT(0)), VLC_PHY_L(3, BIT(0) | BIT(3)),
	VLC_PHY_L(5, BIT(0) | BIT(5)), VLC_PHY_L(7, BIT(0) | BIT(7)),
	VLC_PHY_L(9, BIT(0) | BIT(9) | BIT(10)),
	VLC_PHY_E(0, BIT(10)), VLC_PHY_E(1, BIT(10) | BIT(1) | BIT(0)),
	VLC_PHY_E(3, BIT(10) | BIT(3)), VLC_PHY_E(5, BIT(10) | BIT(5)),
	VLC_PHY_E(7, BIT(10) | BIT(7)),
};

/* Light a neighbour offset by @x puts into measured slot @i. */
static s64 vlc_phy_spill(const struct vlc_phy *phy, u8 dir, u32 g, u32 x,
			 u32 signal, u32 i)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 s2 = phy->nmeas - 1, beyond = x > tm->guard_ns ?
		 x - tm->guard_ns : 0;

	if ((dir == VLC_PHY_HYP_LATE && i == 0) ||
	    (dir == VLC_PHY_HYP_EARLY && i == s2))
		return div_u64((u64)signal * x, tm->sync_ns);
	if (g && i == g)
		return div_u64((u64)signal * min(x, tm->guard_ns),
			       tm->guard_ns);
	/* beyond a lit end guard: into the S slot next to it */
	if (g && ((dir == VLC_PHY_HYP_LATE && g == s2 - 1 && i == s2) ||
		  (dir == VLC_PHY_HYP_EARLY && g == 1 && i == 0)))
		return div_u64((u64)signal * beyond, tm->sync_ns);
	return 0;
}

/* @g: index of the guard predicted lit, 0 for none. */
/* Score hypothesis (@dir, @g) into @h: the squared residuals of its
 * line through the slots it keeps, plus those of the slots it leaves
 * out less their predicted spill. One that sees no light where it
 * predicts spill is the in-sync line with slots left out, never better
 * than it: U64_MAX. So is one whose slots left out alone cost @bound or
 * more, the cost of the best so far (the SSR only adds to it).
 */
static void vlc_phy_hyp_eval(const struct vlc_phy *phy,
			     const struct vlc_phy_sums *m,
			     struct vlc_phy_hyp *h,
			     const struct vlc_phy_hyp_def *def,
			     const struct vlc_phy_tsum *ts, u32 signal,
			     u64 bound)
{
	u32 all = m->all, out, g = def->g;
	u32 s2 = phy->nmeas - 1, i;
	u8 dir = def->dir;
	s64 r;

	h->dir = dir;
	h->mask = all & ~(u32)def->out;
	h->x = 0;
	h->sp = 0;
	h->cost = 0;
	vlc_phy_fit_line(m, h->mask, ts, &h->f);
	if (dir != VLC_PHY_HYP_IN) {
		h->sp = vlc_phy_above(phy, &h->f,
				      dir == VLC_PHY_HYP_LATE ? 0 : s2);
		if (h->sp <= 0) {
			h->cost = U64_MAX;
			return;
		}
		h->x = min_t(u64, div_u64((u64)h->sp * phy->timing.sync_ns,
					  signal), phy->timing.sync_ns);
	}
	/* only the slots left out of the fit can hold spill */
	for (out = all & ~h->mask; out; out &= out - 1) {
		i = __ffs(out);
		r = vlc_phy_above(phy, &h->f, i) -
		    vlc_phy_spill(phy, dir, g, h->x, signal, i);
		r = clamp_t(s64, r, -(1LL << 30), 1LL << 30);
		h->cost += (u64)(r * r);
	}
	if (h->cost >= bound) {
		h->cost = U64_MAX;
		return;
	}
	vlc_phy_fit_ssr(m, h->mask, &h->f);
	h->cost += h->f.ssr;
}

/* Lock to a neighbour that acquisition found, its signal scale @signal. */
static void vlc_phy_rx_lock(struct vlc_phy *phy, u32 signal)
{
	phy->locked = true;
	phy->signal = signal;
	phy->since_signal = 0;
	phy->spilled = false;
	/* The search's noise holds its model error and its short ID
	 * windows; the fine fit learns its own, from in-sync frames, as a
	 * plain mean from now on (decisions still need half the signal).
	 */
	phy->noise_samples = VLC_PHY_NOISE_WARMUP;
	phy->noise_var = 0;
	phy->noise = 0;
	phy->stats.acq_locks++;
	phy->unexplained = 0;
}

static void vlc_phy_unlock(struct vlc_phy *phy)
{
	phy->locked = false;
	phy->signal = 0;
	phy->stats.acq_lost++;
	vlc_phy_acq_unlocked(phy);
}

/* Locked, a large fine offset seen in two settled frames in a row is
 * reported as coarse too, so that the MAC need not average 16 frames
 * for each halving of it.
 */
static void vlc_phy_fine_coarse(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	u32 big = phy->timing.sync_ns / 8;
	u64 mag = vlc_phy_abs(rx->offset_ns);
	u64 d = vlc_phy_abs((s64)rx->offset_ns - phy->fine_big_ns);

	if (mag <= big || phy->frame_start < phy->settle_ns) {
		phy->fine_big_seen = false;
		return;
	}
	if (phy->fine_big_seen && d <= max_t(u64, big, mag / 4)) {
		rx->coarse = true;
		phy->stats.acq_coarse++;
		phy->fine_big_seen = false;
		return;
	}
	phy->fine_big_seen = true;
	phy->fine_big_ns = rx->offset_ns;
}

/* The time sums of every hypothesis' line, for the slot layout: last,
 * acquisition's, through the guards only.
 */
static void vlc_phy_fits_init(struct vlc_phy *phy)
{
	u32 n = vlc_phy_ndata(phy->mode), s2 = 2 * n + 2, j, nh, left, mask;
	u32 gmask = 0xaaaaaaaa & (BIT(s2) - 1);
	const struct vlc_phy_hyp_def *hyp = n == 4 ? vlc_phy_hyps_4ppm :
						      vlc_phy_hyps_2slot;

	nh = n == 4 ? ARRAY_SIZE(vlc_phy_hyps_4ppm) :
		      ARRAY_SIZE(vlc_phy_hyps_2slot);
	for (j = 0; j <= nh; j++) {
		struct vlc_phy_tsum *ts = &phy->tsum[j < nh ? j :
						     VLC_PHY_NHYP - 1];
		s64 c = 0, st = 0, stt = 0, t;

		mask = j < nh ? (gmask | BIT(0) | BIT(s2)) & ~(u32)hyp[j].out :
		       gmask;
		for (left = mask; left; left &= left - 1) {
			t = phy->slot[__ffs(left)].centre;
			c++;
			st += t;
			stt += t * t;
		}
		ts->n = c;
		ts->st = st;
		ts->stt = c * stt - st * st;
		ts->tmean = c ? div_s64(st << 16, c) : 0;
	}
	phy->fits_ok = true;
}

/* Score the sync hypotheses of the frame into @hyps and return the best.
 * Acquiring (!@locked), there is nothing to scale spill by: the in-sync
 * line through the guards only. Each hypothesis is scored in one place,
 * so that the compiler inlines the scoring and its fit.
 */
static const struct vlc_phy_hyp *vlc_phy_best_hyp(struct vlc_phy *phy,
						  bool locked, u32 signal,
						  struct vlc_phy_hyp hyps[2])
{
	u32 n = vlc_phy_ndata(phy->mode);
	u32 s2 = 2 * n + 2, gmask, j, nh;
	struct vlc_phy_hyp *best = &hyps[0], *h = &hyps[1], *hp;
	const struct vlc_phy_hyp_def *hyp;
	struct vlc_phy_sums m;

	/* the guards: G0..Gn at the odd slots 1 to s2 - 1 */
	gmask = 0xaaaaaaaa & (BIT(s2) - 1);

	if (!phy->fits_ok)
		vlc_phy_fits_init(phy);
	vlc_phy_sums_init(phy, locked ? gmask | BIT(0) | BIT(s2) : gmask, &m);
	hyp = n == 4 ? vlc_phy_hyps_4ppm : vlc_phy_hyps_2slot;
	nh = locked ? (n == 4 ? ARRAY_SIZE(vlc_phy_hyps_4ppm) :
		       ARRAY_SIZE(vlc_phy_hyps_2slot)) : 1;
	j = 0;
	do {
		vlc_phy_hyp_eval(phy, &m, j ? h : best, &hyp[j],
				 &phy->tsum[locked ? j : VLC_PHY_NHYP - 1],
				 signal, j ? best->cost : U64_MAX);
		if (j && h->cost < best->cost) {
			hp = best;
			best = h;
			h = hp;
		}
	} while (++j < nh);
	return best;
}

/* Locked: the neighbour's offset as the best hypothesis @best reads it
 * from S1 or S2, and whether the fine model explains the frame's light.
 */
static void vlc_phy_fine_sync(struct vlc_phy *phy, struct vlc_phy_rx *rx,
			      const struct vlc_phy_hyp *best, u32 signal)
{
	u32 s2 = 2 * vlc_phy_ndata(phy->mode) + 2, sync_thr;

	sync_thr = max(VLC_PHY_K_SYNC * phy->noise,
		       signal / VLC_PHY_SYNC_FRAC);
	/* light the fine model cannot explain: lock lost? */
	if (best->cost > max_t(u64, (u64)signal * signal / 16,
			       (u64)16 * (s2 + 1) * phy->noise_var))
		phy->unexplained++;
	else
		phy->unexplained = 0;
	if (best->dir != VLC_PHY_HYP_IN && best->sp > sync_thr) {
		s32 off = best->x;

		if (best->dir == VLC_PHY_HYP_LATE) {
			rx->sync = VLC_PHY_SYNC_LATE;
			rx->offset_ns = off;
			phy->stats.sync_late++;
		} else {
			rx->sync = VLC_PHY_SYNC_EARLY;
			rx->offset_ns = -off;
			phy->stats.sync_early++;
		}
		vlc_phy_fine_coarse(phy, rx);
	} else {
		rx->sync = VLC_PHY_SYNC_IN;
		phy->fine_big_seen = false;
	}
	/* The best hypothesis leaves out the slots it believes lit, even a
	 * spill too small to report: fitting those as dark would read the
	 * spill as noise, raise the thresholds, hide more spill, and let
	 * the grids drift apart unseen.
	 */
}

/* The @n data slots' levels above the ambient line @f into @d, and the
 * mean ambient at them into @rx.
 */
static void vlc_phy_data_levels(const struct vlc_phy *phy,
				const struct vlc_phy_fit *f, u32 n, s64 *d,
				struct vlc_phy_rx *rx)
{
	s64 amb = 0;
	u32 k;

	for (k = 0; k < n; k++) {
		u32 i = 2 + 2 * k;
		s64 a = vlc_phy_fit_at(f, phy->slot[i].centre);

		amb += a;
		d[k] = (s64)phy->level[i] - a;
	}
	rx->ambient = vlc_phy_sat_u32(div_s64(amb, n));
}

/* The brightest of the @n data slots @d, and the second into @second. */
static u32 vlc_phy_brightest(const s64 *d, u32 n, u32 *second)
{
	u32 hi, k;

	hi = d[1] > d[0] ? 1 : 0;
	*second = 1 - hi;
	for (k = 2; k < n; k++) {
		if (d[k] > d[hi]) {
			*second = hi;
			hi = k;
		} else if (d[k] > d[*second]) {
			*second = k;
		}
	}
	return hi;
}

/* The frame's decisions: margin, carrier and symbol, from its brightest
 * data slot @hi, @top above the line and @diff above the second.
 */
static void vlc_phy_decide(const struct vlc_phy *phy, struct vlc_phy_rx *rx,
			   u32 hi, s64 top, s64 diff, u32 signal)
{
	u32 carrier_thr, dec_thr;

	carrier_thr = max(phy->rx_min_level, VLC_PHY_K_CARRIER * phy->noise);
	dec_thr = max3(phy->rx_min_level, VLC_PHY_K_DECIDE * phy->noise,
		       signal / 2);
	dec_thr = max(dec_thr, 1U);
	rx->margin = diff > 0 ?
		vlc_phy_sat_u32(div64_s64(min_t(s64, diff, U32_MAX) * 1000,
					  dec_thr)) : 0;
	rx->carrier = top > carrier_thr;

	if (!rx->carrier)
		rx->sym = VLC_SYM_IDLE;
	else if (phy->noise_samples < VLC_PHY_NOISE_WARMUP ||
		 diff < dec_thr || rx->acquiring)
		rx->sym = VLC_SYM_ERASURE;
	else
		rx->sym = hi;
}

/* Locked: follow the signal estimate with the frame's brightest data
 * slot, @top above the line and @diff above the second, and give the
 * lock up when the neighbour stays unseen or unexplained too long.
 */
static void vlc_phy_track_signal(struct vlc_phy *phy,
				 const struct vlc_phy_rx *rx, s64 top,
				 s64 diff, bool own)
{
	bool spill = rx->sync == VLC_PHY_SYNC_LATE ||
		     rx->sync == VLC_PHY_SYNC_EARLY;

	/* A neighbour's light in S1/S2 shows it is still there if a data
	 * slot is lit too, or the frame before spilled as well: noise alone
	 * crosses the sync threshold now and then, once, and in the dark
	 * would hold the lock for ever. A drifting neighbour, idle or not,
	 * spills frame after frame.
	 */
	if (!own) {
		if (spill && (rx->carrier || phy->spilled))
			phy->since_signal = 0;
		phy->spilled = spill;
	}

	/* A shifted neighbour's lit slot is partly outside our window. */
	if (rx->sym >= 0 && !own) {
		phy->since_signal = 0;
		if (rx->sync != VLC_PHY_SYNC_LATE &&
		    rx->sync != VLC_PHY_SYNC_EARLY) {
			u32 lvl = vlc_phy_sat_u32(top);

			if (!phy->signal)
				phy->signal = lvl;
			else if (lvl >= phy->signal)
				phy->signal += (lvl - phy->signal) >>
					       VLC_PHY_SIGNAL_SHIFT;
			else
				phy->signal -= (phy->signal - lvl) >>
					       VLC_PHY_SIGNAL_SHIFT;
		}
	} else {
		/* One clean lit slot, well above the noise but under half
		 * the estimate: the estimate is too high (taken from the
		 * illumination of several aligned neighbours at the lock, or
		 * raised by colliding senders). Follow it down, else no
		 * symbol would be decided again.
		 */
		if (rx->sym == VLC_SYM_ERASURE && !own &&
		    rx->sync == VLC_PHY_SYNC_IN &&
		    phy->noise_samples >= VLC_PHY_NOISE_WARMUP &&
		    diff >= max3(phy->rx_min_level, VLC_PHY_K_DECIDE *
				 phy->noise, 1U) && 2 * top < phy->signal)
			phy->signal -= (phy->signal - (u32)top) >>
				       VLC_PHY_SIGNAL_SHIFT;
		/* our own frames say nothing of the neighbours: a node
		 * hears nobody while it sends
		 */
		if (!own && ++phy->since_signal > VLC_PHY_SIGNAL_HOLD) {
			phy->since_signal = VLC_PHY_SIGNAL_HOLD;
			vlc_phy_unlock(phy);
		}
	}
	if (phy->locked && phy->unexplained >= VLC_PHY_UNEXPLAINED_MAX)
		vlc_phy_unlock(phy);
}

/* Decode the measured part of the frame. The ambient is a line through
 * dark slots against time: it cancels DC and the slope of mains flicker
 * within the frame. Which dark slots are really dark depends on the
 * neighbour's timing, hence the hypotheses above.
 */
static void vlc_phy_decode(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	u32 n = vlc_phy_ndata(phy->mode), hi, second, signal = phy->signal;
	bool own = phy->tx_sym >= 0, locked;
	const struct vlc_phy_hyp *best;
	struct vlc_phy_hyp hyps[2];
	const struct vlc_phy_fit *f;
	s64 d[4], diff;

	rx->sync = VLC_PHY_SYNC_NONE;
	locked = phy->locked && signal;
	best = vlc_phy_best_hyp(phy, locked, signal, hyps);
	f = &best->f;
	if (locked) {
		vlc_phy_fine_sync(phy, rx, best, signal);
	} else {
		u32 found = vlc_phy_acq_report(phy, rx);

		if (found)
			vlc_phy_rx_lock(phy, found);
	}

	/* Acquisition takes its noise from its own fit. */
	if (!own && !rx->acquiring)
		vlc_phy_noise_update(phy, f);

	vlc_phy_data_levels(phy, f, n, d, rx);
	hi = vlc_phy_brightest(d, n, &second);
	diff = d[hi] - d[second];
	vlc_phy_decide(phy, rx, hi, d[hi], diff, signal);

	if (rx->acquiring) {
		rx->signal = phy->signal;
		rx->noise = phy->noise;
		return;
	}
	rx->hard = hi;
	rx->flags |= VLC_PHY_RX_HARD;
	vlc_phy_track_signal(phy, rx, d[hi], diff, own);
	rx->signal = phy->signal;
	rx->noise = phy->noise;
}

/* Per-frame receive work, once the measured part is over. */
void vlc_phy_frame_rx(struct vlc_phy *phy)
{
	struct vlc_phy_rx *rx = &phy->last_rx;

	phy->decoded = true;
	phy->stats.frames++;
	*rx = (struct vlc_phy_rx){
		.sym = VLC_SYM_ERASURE,
		.bits = vlc_phy_bits(phy->mode),
		.sync = VLC_PHY_SYNC_NONE,
		.flags = phy->frame_flags,
		.skipped = phy->skipped,
		.signal = phy->signal,
		.noise = phy->noise,
		.acquiring = !phy->locked,
	};
	phy->skipped = 0;
	if (phy->tx_sym >= 0) {
		rx->flags |= VLC_PHY_RX_OWN_TX;
		if (rx->flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN))
			rx->flags |= VLC_PHY_RX_TX_ABORTED;
	}
	if (rx->flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN))
		rx->carrier = true;	/* unknown: let CSMA defer */
	else
		vlc_phy_decode(phy, rx);

	if (rx->sym >= 0)
		phy->stats.symbols_rx++;
	else if (rx->sym == VLC_SYM_IDLE)
		phy->stats.idle++;
	else
		phy->stats.erasures++;

	if (phy->client && phy->client->rx_frame)
		phy->client->rx_frame(phy->client_ctx, rx);
}
