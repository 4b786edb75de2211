// SPDX-License-Identifier: GPL-2.0
/*
 * VLC PHY core: slot schedule, encoding, ambient removal, decisions,
 * erasures, sync estimation and brightness compensation.
 *
 * Pure C shared by the kernel and the host tests: only <linux/types.h>
 * level helpers, 64-bit divisions through <linux/math64.h> (armhf has no
 * libgcc division in the kernel), no floating point, no allocation.
 * The frame format is drawn in Documentation/networking/vlc.rst.
 */

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/vlc.h>

#include "vlc_phy.h"

enum {
	VLC_PHY_SLOT_S1,
	VLC_PHY_SLOT_G,
	VLC_PHY_SLOT_D,
	VLC_PHY_SLOT_S2,
	VLC_PHY_SLOT_IA,
	VLC_PHY_SLOT_ID,
	VLC_PHY_SLOT_IB,
};

#define VLC_PHY_DEFAULT_BRIGHTNESS	200	/* per-mille, fits both modes */

/* Receiver constants. A data symbol needs a decision margin of
 * VLC_PHY_K_DECIDE noise rms (and half the signal): a wrong symbol then
 * takes a noise excursion of several sigma of the difference, which is
 * why low SNR gives erasures, not errors.
 */
#define VLC_PHY_K_CARRIER	4	/* lit: this many noise rms */
#define VLC_PHY_K_DECIDE	6	/* decided: this many noise rms */
#define VLC_PHY_K_SYNC		5	/* light in S1/S2: noise rms */
#define VLC_PHY_SYNC_FRAC	16	/* ... and 1/16 of the signal */
#define VLC_PHY_NOISE_WARMUP	8	/* noise samples before deciding */
#define VLC_PHY_NOISE_SHIFT	4	/* noise EWMA weight 1/16 */
#define VLC_PHY_SIGNAL_SHIFT	3	/* signal EWMA weight 1/8 */
#define VLC_PHY_SIGNAL_HOLD	2048	/* frames a signal estimate lives */
#define VLC_PHY_FIT_BITS	24	/* levels scaled below this for the fit */

const struct vlc_phy_timing vlc_phy_default_timing = {
	.sync_ns = 40000,
	.guard_ns = 20000,
	.data_ns = 50000,
	.frame_ns = 500000,
	.tolerance_ns = 20000,
};

/* Length of the measured (dark but for data) part of the frame. */
static u64 vlc_phy_dark_ns(const struct vlc_phy_timing *t,
			   enum vlc_phy_mode mode)
{
	u32 n = vlc_phy_ndata(mode);

	return 2 * (u64)t->sync_ns + (u64)(n + 1) * t->guard_ns +
	       (u64)n * t->data_ns;
}

int vlc_phy_timing_check(const struct vlc_phy_timing *t,
			 enum vlc_phy_mode mode, const char **why)
{
	const char *msg = NULL;

	if (mode != VLC_PHY_MODE_2SLOT && mode != VLC_PHY_MODE_4PPM)
		msg = "mode is neither 2-slot nor 4-PPM";
	else if (!t->sync_ns)
		msg = "sync_ns is zero";
	else if (!t->guard_ns)
		msg = "guard_ns is zero";
	else if (!t->data_ns)
		msg = "data_ns is zero";
	else if (!t->frame_ns)
		msg = "frame_ns is zero";
	else if (t->frame_ns > VLC_PHY_FRAME_NS_MAX)
		msg = "frame_ns above 100 ms";
	else if (t->guard_ns < t->tolerance_ns)
		msg = "guard_ns shorter than tolerance_ns";
	else if (vlc_phy_dark_ns(t, mode) > t->frame_ns)
		msg = "frame_ns too short for sync_ns, guard_ns and data_ns slots";

	if (why)
		*why = msg;
	return msg ? -EINVAL : 0;
}

int vlc_phy_brightness_range(const struct vlc_phy_timing *t,
			     enum vlc_phy_mode mode, u32 *min, u32 *max)
{
	u64 illum;

	if (vlc_phy_timing_check(t, mode, NULL))
		return -EINVAL;
	illum = t->frame_ns - vlc_phy_dark_ns(t, mode);
	/* A data frame cannot emit less than one data slot. */
	*min = div_u64((u64)t->data_ns * 1000 + t->frame_ns - 1, t->frame_ns);
	/* Idle frames must reach the setting with the illumination part
	 * alone, so the data slot does not count towards the maximum.
	 */
	*max = div_u64(illum * 1000, t->frame_ns);
	return 0;
}

int vlc_phy_brightness_check(const struct vlc_phy_timing *t,
			     enum vlc_phy_mode mode, u32 brightness,
			     const char **why)
{
	u32 min, max;

	if (vlc_phy_brightness_range(t, mode, &min, &max)) {
		if (why)
			*why = "timing invalid for brightness";
		return -EINVAL;
	}
	if (brightness > max) {
		if (why)
			*why = "brightness above the maximum the illumination part allows";
		return -EINVAL;
	}
	if (why)
		*why = NULL;
	return 0;
}

void vlc_phy_init(struct vlc_phy *phy, const struct vlc_pin_ops *pins,
		  void *pin_ctx, const struct vlc_phy_client_ops *client,
		  void *client_ctx)
{
	*phy = (struct vlc_phy){
		.pins = pins,
		.pin_ctx = pin_ctx,
		.client = client,
		.client_ctx = client_ctx,
		.timing = vlc_phy_default_timing,
		.mode = VLC_PHY_MODE_2SLOT,
		.brightness = VLC_PHY_DEFAULT_BRIGHTNESS,
		.new_timing = vlc_phy_default_timing,
		.new_mode = VLC_PHY_MODE_2SLOT,
		.new_brightness = VLC_PHY_DEFAULT_BRIGHTNESS,
		.tx_sym = VLC_SYM_IDLE,
		.decoded = true,
	};
}

/* Settings are checked against each other and applied at a frame start. */
int vlc_phy_set_timing(struct vlc_phy *phy, const struct vlc_phy_timing *t,
		       const char **why)
{
	int ret;

	ret = vlc_phy_timing_check(t, phy->new_mode, why);
	if (!ret)
		ret = vlc_phy_brightness_check(t, phy->new_mode,
					       phy->new_brightness, why);
	if (!ret)
		phy->new_timing = *t;
	return ret;
}

int vlc_phy_set_mode(struct vlc_phy *phy, enum vlc_phy_mode mode,
		     const char **why)
{
	int ret;

	ret = vlc_phy_timing_check(&phy->new_timing, mode, why);
	if (!ret)
		ret = vlc_phy_brightness_check(&phy->new_timing, mode,
					       phy->new_brightness, why);
	if (!ret)
		phy->new_mode = mode;
	return ret;
}

int vlc_phy_set_brightness(struct vlc_phy *phy, u32 brightness,
			   const char **why)
{
	int ret;

	ret = vlc_phy_brightness_check(&phy->new_timing, phy->new_mode,
				       brightness, why);
	if (!ret)
		phy->new_brightness = brightness;
	return ret;
}

void vlc_phy_set_rx_min_level(struct vlc_phy *phy, u32 level)
{
	phy->rx_min_level = level;
}

void vlc_phy_adjust_phase(struct vlc_phy *phy, s32 ns)
{
	s64 p = (s64)phy->phase_pending + ns;

	phy->phase_pending = clamp_t(s64, p, S32_MIN, S32_MAX);
}

static void vlc_phy_add_slot(struct vlc_phy *phy, u32 *off, u8 kind,
			     u32 len, bool on)
{
	struct vlc_phy_slot *s = &phy->slot[phy->nslots++];

	s->start = *off;
	s->len = len;
	s->kind = kind;
	s->on = on;
	/* Slot centre in 1/4096 of the frame keeps the fit in 64 bits. */
	s->centre = div_u64(((u64)2 * *off + len) << 11, phy->timing.frame_ns);
	*off += len;
}

/* Start a frame at absolute time @t: apply pending settings, fetch the
 * symbol unless S1 is already over, and lay out the slot table.
 */
static void vlc_phy_frame_begin(struct vlc_phy *phy, u64 t, u64 now)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 n, k, off = 0, illum, target, light, on, dark, shrink;
	s32 adj;
	int sym = VLC_SYM_IDLE;

	phy->timing = phy->new_timing;
	phy->mode = phy->new_mode;
	phy->brightness = phy->new_brightness;
	n = vlc_phy_ndata(phy->mode);

	phy->frame_start = t;
	phy->frame_flags = 0;
	phy->decoded = false;
	phy->cur = 0;
	phy->nslots = 0;

	if (now < t + tm->sync_ns && phy->client && phy->client->tx_symbol)
		sym = phy->client->tx_symbol(phy->client_ctx);
	if (sym < 0 || sym >= (int)n)
		sym = VLC_SYM_IDLE;
	phy->tx_sym = sym;
	if (sym >= 0)
		phy->stats.symbols_tx++;

	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_S1, tm->sync_ns, false);
	for (k = 0; k < n; k++) {
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_G, tm->guard_ns, false);
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_D, tm->data_ns,
				 sym == (int)k);
	}
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_G, tm->guard_ns, false);
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_S2, tm->sync_ns, false);
	phy->nmeas = phy->nslots;

	/* Light of the whole period = setting; data light counts in it. */
	illum = tm->frame_ns - off;
	target = div_u64((u64)phy->brightness * tm->frame_ns, 1000);
	light = sym >= 0 ? tm->data_ns : 0;
	on = target > light ? min(target - light, illum) : 0;
	dark = illum - on;

	/* Phase moves only the dark ID part, never the on-time. */
	shrink = min(dark, tm->sync_ns);
	adj = clamp_t(s32, phy->phase_pending, -(s32)shrink,
		      (s32)tm->sync_ns);
	phy->phase_pending -= adj;

	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IA, on / 2, true);
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_ID, dark + adj, false);
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IB, on - on / 2, true);
}

/* Least-squares line through chosen measured slots, in integers. */
struct vlc_phy_fit {
	s64 mean;	/* Q16 mean level (minus base) */
	s64 tmean;	/* Q16 mean slot centre */
	s64 slope;	/* Q16 level per 1/4096 of a frame */
	u32 base;
	u8 shift;
	u8 n;
};

/* Fixed point keeps evaluation to a multiply: two divisions per fit. */
static void vlc_phy_fit(const struct vlc_phy *phy, u32 mask,
			struct vlc_phy_fit *f)
{
	u32 i, base = U32_MAX, maxdev = 0;
	s64 st = 0, sy = 0, stt = 0, sty = 0, n;

	*f = (struct vlc_phy_fit){ 0 };
	for (i = 0; i < phy->nmeas; i++)
		if (mask & BIT(i))
			base = min(base, phy->level[i]);
	for (i = 0; i < phy->nmeas; i++)
		if (mask & BIT(i))
			maxdev = max(maxdev, phy->level[i] - base);
	/* Keep every product below 2^63; only absurd spreads lose bits. */
	while ((maxdev >> f->shift) >= BIT(VLC_PHY_FIT_BITS))
		f->shift++;
	f->base = base;
	for (i = 0; i < phy->nmeas; i++) {
		s64 t = phy->slot[i].centre;
		s64 y = (phy->level[i] - base) >> f->shift;

		if (!(mask & BIT(i)))
			continue;
		f->n++;
		st += t;
		sy += y;
		stt += t * t;
		sty += t * y;
	}
	n = f->n;
	if (!n)
		return;
	f->mean = div_s64(sy << 16, n);
	f->tmean = div_s64(st << 16, n);
	stt = n * stt - st * st;
	sty = n * sty - st * sy;
	if (stt > 0) {
		f->slope = div64_s64(sty * 65536, stt);
		/* a steeper line is nonsense and would overflow below */
		f->slope = clamp_t(s64, f->slope, -(1LL << 34), 1LL << 34);
	}
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

static u32 vlc_phy_isqrt(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* Update the noise estimate from the residuals of the final fit. */
static void vlc_phy_noise_update(struct vlc_phy *phy,
				 const struct vlc_phy_fit *f, u32 mask)
{
	u64 ssr = 0, var;
	u32 i, shift;

	if (f->n < 3)
		return;
	for (i = 0; i < phy->nmeas; i++) {
		s64 r;

		if (!(mask & BIT(i)))
			continue;
		r = vlc_phy_above(phy, f, i);
		r = clamp_t(s64, r, -(1LL << 30), 1LL << 30);
		ssr += (u64)(r * r);
	}
	var = div_u64(ssr, f->n - 2);

	/* Plain mean while warming up, then an EWMA. */
	if (phy->noise_samples < BIT(VLC_PHY_NOISE_SHIFT))
		phy->noise_samples++;
	shift = phy->noise_samples < BIT(VLC_PHY_NOISE_SHIFT) ?
		0 : VLC_PHY_NOISE_SHIFT;
	if (shift == 0) {
		/* var_k = var_{k-1} + (x - var_{k-1}) / k */
		if (var >= phy->noise_var)
			phy->noise_var += div_u64(var - phy->noise_var,
						  phy->noise_samples);
		else
			phy->noise_var -= div_u64(phy->noise_var - var,
						  phy->noise_samples);
	} else if (var >= phy->noise_var) {
		phy->noise_var += (var - phy->noise_var) >> shift;
	} else {
		phy->noise_var -= (phy->noise_var - var) >> shift;
	}
	phy->noise = vlc_phy_isqrt(phy->noise_var);
}

static u32 vlc_phy_sat_u32(s64 v)
{
	return clamp_t(s64, v, 0, U32_MAX);
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
static void vlc_phy_hyp_eval(const struct vlc_phy *phy, struct vlc_phy_hyp *h,
			     u8 dir, u32 g, u32 all, u32 signal)
{
	u32 s2 = phy->nmeas - 1, i;
	s64 r;

	h->dir = dir;
	h->mask = all;
	h->x = 0;
	h->sp = 0;
	h->cost = 0;
	if (dir == VLC_PHY_HYP_LATE) {
		h->mask &= ~BIT(0);
		if (g == s2 - 1)
			h->mask &= ~BIT(s2);
	} else if (dir == VLC_PHY_HYP_EARLY) {
		h->mask &= ~BIT(s2);
		if (g == 1)
			h->mask &= ~BIT(0);
	}
	if (g)
		h->mask &= ~BIT(g);
	vlc_phy_fit(phy, h->mask, &h->f);
	if (dir != VLC_PHY_HYP_IN) {
		h->sp = vlc_phy_above(phy, &h->f,
				      dir == VLC_PHY_HYP_LATE ? 0 : s2);
		if (h->sp > 0)
			h->x = min_t(u64, div_u64((u64)h->sp *
						  phy->timing.sync_ns, signal),
				     phy->timing.sync_ns);
	}
	for (i = 0; i < phy->nmeas; i++) {
		if (!(all & BIT(i)))
			continue;
		r = vlc_phy_above(phy, &h->f, i) -
		    vlc_phy_spill(phy, dir, g, h->x, signal, i);
		r = clamp_t(s64, r, -(1LL << 30), 1LL << 30);
		h->cost += (u64)(r * r);
	}
}

/* Decode the measured part of the frame. The ambient is a line through
 * dark slots against time: it cancels DC and the slope of mains flicker
 * within the frame. Which dark slots are really dark depends on the
 * neighbour's timing, hence the hypotheses above.
 */
static void vlc_phy_decode(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	u32 n = vlc_phy_ndata(phy->mode);
	u32 s2 = 2 * n + 2, gmask = 0, mask, k, hi, second, g;
	u32 carrier_thr, dec_thr, sync_thr, signal = phy->signal;
	s64 d[4], amb = 0, diff;
	struct vlc_phy_hyp best, h;
	struct vlc_phy_fit f;
	bool own = phy->tx_sym >= 0;
	u8 dir;

	for (k = 0; k <= n; k++)
		gmask |= BIT(1 + 2 * k);

	rx->sync = VLC_PHY_SYNC_NONE;
	mask = gmask;
	if (!signal) {
		/* nothing to scale spill by: guards only */
		vlc_phy_fit(phy, gmask, &f);
	} else {
		u32 all = gmask | BIT(0) | BIT(s2);

		vlc_phy_hyp_eval(phy, &best, VLC_PHY_HYP_IN, 0, all, signal);
		for (dir = VLC_PHY_HYP_LATE; dir <= VLC_PHY_HYP_EARLY; dir++) {
			for (g = 0; g < s2; g += g ? 2 : 1) {
				/* late lights a guard after a data slot
				 * (never G0), early one before (never Gn)
				 */
				if ((dir == VLC_PHY_HYP_LATE && g == 1) ||
				    (dir == VLC_PHY_HYP_EARLY && g == s2 - 1))
					continue;
				vlc_phy_hyp_eval(phy, &h, dir, g, all, signal);
				if (h.cost < best.cost)
					best = h;
			}
		}
		sync_thr = max(VLC_PHY_K_SYNC * phy->noise,
			       signal / VLC_PHY_SYNC_FRAC);
		if (best.dir != VLC_PHY_HYP_IN && best.sp > sync_thr) {
			s32 off = best.x;

			if (best.dir == VLC_PHY_HYP_LATE) {
				rx->sync = VLC_PHY_SYNC_LATE;
				rx->offset_ns = off;
				phy->stats.sync_late++;
			} else {
				rx->sync = VLC_PHY_SYNC_EARLY;
				rx->offset_ns = -off;
				phy->stats.sync_early++;
			}
			f = best.f;
			mask = best.mask;
		} else {
			rx->sync = VLC_PHY_SYNC_IN;
			mask = all;
			vlc_phy_fit(phy, mask, &f);
		}
	}

	/* Shifted frames would inflate the noise estimate. */
	if (!own && rx->sync != VLC_PHY_SYNC_LATE &&
	    rx->sync != VLC_PHY_SYNC_EARLY)
		vlc_phy_noise_update(phy, &f, mask);

	for (k = 0; k < n; k++) {
		u32 i = 2 + 2 * k;
		s64 a = vlc_phy_fit_at(&f, phy->slot[i].centre);

		amb += a;
		d[k] = (s64)phy->level[i] - a;
	}
	rx->ambient = vlc_phy_sat_u32(div_s64(amb, n));

	hi = d[1] > d[0] ? 1 : 0;
	second = 1 - hi;
	for (k = 2; k < n; k++) {
		if (d[k] > d[hi]) {
			second = hi;
			hi = k;
		} else if (d[k] > d[second]) {
			second = k;
		}
	}
	diff = d[hi] - d[second];

	carrier_thr = max(phy->rx_min_level, VLC_PHY_K_CARRIER * phy->noise);
	dec_thr = max3(phy->rx_min_level, VLC_PHY_K_DECIDE * phy->noise,
		       signal / 2);
	dec_thr = max(dec_thr, 1U);
	rx->margin = diff > 0 ?
		vlc_phy_sat_u32(div64_s64(min_t(s64, diff, U32_MAX) * 1000,
					  dec_thr)) : 0;
	rx->carrier = d[hi] > carrier_thr;

	if (!rx->carrier)
		rx->sym = VLC_SYM_IDLE;
	else if (phy->noise_samples < VLC_PHY_NOISE_WARMUP || diff < dec_thr)
		rx->sym = VLC_SYM_ERASURE;
	else
		rx->sym = hi;

	/* A shifted neighbour's lit slot is partly outside our window. */
	if (rx->sym >= 0 && !own) {
		phy->since_signal = 0;
		if (rx->sync != VLC_PHY_SYNC_LATE &&
		    rx->sync != VLC_PHY_SYNC_EARLY) {
			u32 lvl = vlc_phy_sat_u32(d[hi]);

			if (!phy->signal)
				phy->signal = lvl;
			else if (lvl >= phy->signal)
				phy->signal += (lvl - phy->signal) >>
					       VLC_PHY_SIGNAL_SHIFT;
			else
				phy->signal -= (phy->signal - lvl) >>
					       VLC_PHY_SIGNAL_SHIFT;
		}
	} else if (++phy->since_signal > VLC_PHY_SIGNAL_HOLD) {
		phy->since_signal = VLC_PHY_SIGNAL_HOLD;
		phy->signal = 0;
	}
	rx->signal = phy->signal;
	rx->noise = phy->noise;
}

/* Per-frame receive work, once the measured part is over. */
static void vlc_phy_frame_rx(struct vlc_phy *phy)
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

/* Emit and measure for the slot that starts now. */
static void vlc_phy_slot_pins(struct vlc_phy *phy, u64 now)
{
	const struct vlc_phy_slot *s = &phy->slot[phy->cur];

	if (s->on != phy->led) {
		phy->pins->emit(phy->pin_ctx, s->on, now);
		phy->led = s->on;
	}
	if (phy->cur < phy->nmeas) {
		/* one LED cannot sense its own pulse: leave the slot dark */
		if (phy->pins->shared_led && s->on) {
			phy->level[phy->cur] = 0;
		} else {
			phy->pins->rx_begin(phy->pin_ctx, now);
			phy->measuring = true;
		}
	}
	phy->next_ns = phy->frame_start + s->start + s->len;
}

u64 vlc_phy_start(struct vlc_phy *phy, u64 now_ns)
{
	phy->pins->emit(phy->pin_ctx, false, now_ns);
	phy->led = false;
	phy->measuring = false;
	phy->skipped = 0;
	vlc_phy_frame_begin(phy, now_ns, now_ns);
	vlc_phy_slot_pins(phy, now_ns);
	return phy->next_ns;
}

void vlc_phy_stop(struct vlc_phy *phy, u64 now_ns)
{
	if (phy->measuring)
		phy->pins->rx_end(phy->pin_ctx, now_ns);
	phy->measuring = false;
	if (phy->led)
		phy->pins->emit(phy->pin_ctx, false, now_ns);
	phy->led = false;
}

/* Called at or after the boundary vlc_phy_next_ns(). The schedule stays
 * on the absolute grid: the next boundary is derived from the frame
 * start, never from @now_ns. Slots that have wholly passed are skipped
 * without touching the pins; their frame becomes an erasure.
 */
u64 vlc_phy_tick(struct vlc_phy *phy, u64 now_ns)
{
	u32 tol = phy->timing.tolerance_ns;
	u64 t = phy->next_ns, end, start;
	const struct vlc_phy_slot *s;
	bool skipped = false;

	if (phy->measuring) {
		phy->level[phy->cur] = phy->pins->rx_end(phy->pin_ctx, now_ns);
		phy->measuring = false;
	}
	if (now_ns > t + tol) {
		phy->stats.late++;
		/* the window of a measured slot ran over its end */
		if (phy->cur < phy->nmeas)
			phy->frame_flags |= VLC_PHY_RX_LATE;
	}

	for (;;) {
		if (++phy->cur >= phy->nslots) {
			u32 fns = phy->new_timing.frame_ns;

			if (!phy->decoded)
				vlc_phy_frame_rx(phy);
			/* whole frames passed: step over them at once */
			if (now_ns >= t + fns) {
				u64 k = div_u64(now_ns - t, fns);

				t += k * fns;
				phy->skipped += k;
				phy->stats.frames += k;
				skipped = true;
			}
			vlc_phy_frame_begin(phy, t, now_ns);
		}
		s = &phy->slot[phy->cur];
		if (!s->len)
			continue;
		end = phy->frame_start + s->start + s->len;
		if (end > now_ns)
			break;
		skipped = true;
		phy->frame_flags |= VLC_PHY_RX_OVERRUN;
		t = end;
	}
	if (skipped)
		phy->stats.overruns++;

	start = phy->frame_start + s->start;
	if (now_ns > start + tol && phy->cur < phy->nmeas)
		phy->frame_flags |= VLC_PHY_RX_LATE;

	vlc_phy_slot_pins(phy, now_ns);

	/* Decoding after the pins keeps the slot edge on time. */
	if (!phy->decoded && phy->cur >= phy->nmeas)
		vlc_phy_frame_rx(phy);
	return phy->next_ns;
}
