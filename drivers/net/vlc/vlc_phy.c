// SPDX-License-Identifier: GPL-2.0
/* VLC PHY core: slot schedule, encoding, ambient removal, decisions,
 * erasures, sync estimation and brightness compensation.
 *
 * Pure C shared by the kernel and the host tests: only <linux/types.h>
 * level helpers, 64-bit divisions through <linux/math64.h> (armhf has no
 * libgcc division in the kernel), no floating point, no allocation.
 * The frame format is drawn in Documentation/networking/vlc.rst.
 */

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/math.h>
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
		msg = "modulation is neither 2slot nor 4ppm";
	else if (!t->sync_ns)
		msg = "sync-us is zero";
	else if (!t->guard_ns)
		msg = "guard-us is zero";
	else if (!t->data_ns)
		msg = "data-us is zero";
	else if (!t->frame_ns)
		msg = "frame-us is zero";
	else if (t->frame_ns > VLC_PHY_FRAME_NS_MAX)
		msg = "frame-us above 100 ms";
	else if (t->frame_ns < VLC_PHY_FRAME_NS_MIN)
		msg = "frame-us below 10 us";
	else if (t->guard_ns < t->tolerance_ns)
		msg = "guard-us shorter than tolerance-us";
	else if (vlc_phy_dark_ns(t, mode) > t->frame_ns)
		msg = "frame-us too short for its sync-us, guard-us and data-us slots";

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
	/* A data frame cannot emit less than one data slot; settings below
	 * are refused (vlc_phy_brightness_check()).
	 */
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
	/* Below one data slot a data frame has no illumination left, and an
	 * idle frame's pulses are as long as a data slot or shorter: the
	 * acquisition of a neighbour would take them for data (K3).
	 */
	if (brightness < min) {
		if (why)
			*why = "brightness below the minimum of one data slot";
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

/* Settings are checked together and applied at the next frame start;
 * on error nothing changes. Changing several at once must go through
 * vlc_phy_set_config(): one at a time, the order could matter (a new
 * mode may need a lower brightness first, or the reverse).
 */
int vlc_phy_set_config(struct vlc_phy *phy, const struct vlc_phy_timing *t,
		       enum vlc_phy_mode mode, u32 brightness,
		       const char **why)
{
	int ret;

	ret = vlc_phy_timing_check(t, mode, why);
	if (!ret)
		ret = vlc_phy_brightness_check(t, mode, brightness, why);
	if (ret)
		return ret;
	phy->new_timing = *t;
	phy->new_mode = mode;
	phy->new_brightness = brightness;
	return 0;
}

/* The settings the next frame will use. */
void vlc_phy_get_config(const struct vlc_phy *phy, struct vlc_phy_timing *t,
			enum vlc_phy_mode *mode, u32 *brightness)
{
	*t = phy->new_timing;
	*mode = phy->new_mode;
	*brightness = phy->new_brightness;
}

int vlc_phy_set_timing(struct vlc_phy *phy, const struct vlc_phy_timing *t,
		       const char **why)
{
	return vlc_phy_set_config(phy, t, phy->new_mode, phy->new_brightness,
				  why);
}

int vlc_phy_set_mode(struct vlc_phy *phy, enum vlc_phy_mode mode,
		     const char **why)
{
	return vlc_phy_set_config(phy, &phy->new_timing, mode,
				  phy->new_brightness, why);
}

int vlc_phy_set_brightness(struct vlc_phy *phy, u32 brightness,
			   const char **why)
{
	return vlc_phy_set_config(phy, &phy->new_timing, phy->new_mode,
				  brightness, why);
}

/* The backend's pins, for a PHY that is stopped. */
void vlc_phy_set_pins(struct vlc_phy *phy, const struct vlc_pin_ops *pins)
{
	phy->pins = pins;
}

void vlc_phy_set_rx_min_level(struct vlc_phy *phy, u32 level)
{
	phy->rx_min_level = level;
}

void vlc_phy_adjust_phase(struct vlc_phy *phy, s32 ns)
{
	s64 p = (s64)phy->phase_pending + ns;

	phy->phase_pending = clamp_t(s64, p, S32_MIN, S32_MAX);
	/* a coarse report must not be acted upon twice */
	phy->acq.agree = 0;
	phy->acq.fresh = false;
}

/* Append a slot; @centre: it is measured, the fits need its centre. */
static void vlc_phy_add_slot(struct vlc_phy *phy, u32 *off, u8 kind,
			     u32 len, bool on, bool centre)
{
	struct vlc_phy_slot *s = &phy->slot[phy->nslots++];

	s->start = *off;
	s->len = len;
	s->kind = kind;
	s->on = on;
	/* Slot centre in 1/4096 of the frame keeps the fit in 64 bits. */
	if (centre)
		s->centre = div_u64(((u64)2 * *off + len) << 11,
				    phy->timing.frame_ns);
	*off += len;
}

static bool vlc_phy_timing_eq(const struct vlc_phy_timing *a,
			      const struct vlc_phy_timing *b)
{
	return a->sync_ns == b->sync_ns && a->guard_ns == b->guard_ns &&
	       a->data_ns == b->data_ns && a->frame_ns == b->frame_ns &&
	       a->tolerance_ns == b->tolerance_ns;
}

/* The measured part, S1 to S2, all dark: it only changes with the
 * timing or the mode, so it is laid out again only then.
 */
static void vlc_phy_layout(struct vlc_phy *phy)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 n = vlc_phy_ndata(phy->mode), k, off = 0;

	phy->nslots = 0;
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_S1, tm->sync_ns, false, true);
	for (k = 0; k < n; k++) {
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_G, tm->guard_ns, false,
				 true);
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_D, tm->data_ns, false,
				 true);
	}
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_G, tm->guard_ns, false, true);
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_S2, tm->sync_ns, false, true);
	phy->nmeas = phy->nslots;
	phy->meas_ns = off;
	phy->layout_ok = true;
	phy->fits_ok = false;
}

/* Start a frame at absolute time @t: apply pending settings, fetch the
 * symbol unless S1 is already over, and lay out the slot table.
 */
static void vlc_phy_frame_begin(struct vlc_phy *phy, u64 t, u64 now)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 n, k, off, illum, target, light, on, dark, shrink;
	s32 adj;
	int sym = VLC_SYM_IDLE;

	if (!phy->layout_ok || phy->mode != phy->new_mode ||
	    !vlc_phy_timing_eq(&phy->timing, &phy->new_timing)) {
		phy->timing = phy->new_timing;
		phy->mode = phy->new_mode;
		vlc_phy_layout(phy);
	}
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

	for (k = 0; k < n; k++)
		phy->slot[2 + 2 * k].on = sym == (int)k;
	phy->nslots = phy->nmeas;
	off = phy->meas_ns;

	/* Light of the whole period = setting; data light counts in it. */
	illum = tm->frame_ns - off;
	target = div_u64((u64)phy->brightness * tm->frame_ns, 1000);
	light = sym >= 0 ? tm->data_ns : 0;
	on = target > light ? min(target - light, illum) : 0;
	dark = illum - on;

	/* Phase moves only the dark ID part, never the on-time. While a
	 * coarse correction is due it is made in one frame: a delay as it
	 * is, an advance by shrinking ID if it can, else as the equivalent
	 * delay of frame_ns minus the advance.
	 */
	if (phy->acq.coarse_adj && phy->phase_pending) {
		s64 p = clamp_t(s32, phy->phase_pending, -(s32)tm->frame_ns,
				(s32)tm->frame_ns);

		if (p < 0 && -p > dark)
			p += tm->frame_ns;
		adj = p;
		phy->phase_pending = 0;
	} else {
		shrink = min(dark, tm->sync_ns);
		adj = clamp_t(s32, phy->phase_pending, -(s32)shrink,
			      (s32)tm->sync_ns);
		phy->phase_pending -= adj;
	}
	if (adj) {
		/* acquisition trusts frames from the one after next on */
		phy->acq.settle = t + 2 * (u64)tm->frame_ns + adj;
		phy->acq.agree = 0;
		phy->acq.fresh = false;
	}
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IA, on / 2, true, false);

	/* While acquiring, our dark ID is measured too, in windows short
	 * enough for a neighbour's pulse to cover some wholly.
	 */
	phy->acq.id_first = phy->nslots;
	phy->acq.id_n = 0;
	phy->acq.id_late = false;
	if (!phy->locked && !adj && dark >= tm->guard_ns) {
		u32 m = min_t(u64, div_u64(dark, max(tm->guard_ns / 2, 1U)),
			      VLC_PHY_ID_WINDOWS), len = div_u64(dark, m);

		for (k = 0; k + 1 < m; k++)
			vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_ID, len, false,
					 true);
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_ID,
				 dark - (m - 1) * len, false, true);
		phy->acq.id_n = m;
	} else {
		vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_ID, dark + adj,
				 false, false);
	}
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IB, on - on / 2, true, false);
}

static u64 vlc_phy_abs(s64 v)
{
	return v < 0 ? -(u64)v : (u64)v;
}

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

static void vlc_phy_noise_add(struct vlc_phy *phy, u64 var);

/* Update the noise estimate from the residuals of the final fit. */
static void vlc_phy_noise_update(struct vlc_phy *phy,
				 const struct vlc_phy_fit *f)
{
	if (f->n >= 3)
		vlc_phy_noise_add(phy, div_u64(f->ssr, f->n - 2));
}

/* floor(sqrt(@v)), from @r near it: the estimate moves by 1/16 at a
 * time, so a Newton step or two replaces a bit-by-bit root each frame.
 */
static u32 vlc_phy_sqrt_near(u64 v, u32 r)
{
	u32 i;

	if (!r || r >= BIT(31) || v >= (1ULL << 62))
		return int_sqrt64(v);
	for (i = 0; i < 4; i++) {
		u64 nr = ((u64)r + div64_u64(v, r)) >> 1;

		if (nr == r || !nr || nr >= BIT(31))
			break;
		r = nr;
	}
	if ((u64)r * r > v)
		r--;
	else if ((u64)(r + 1) * (r + 1) <= v)
		r++;
	/* still off: the estimate jumped */
	if ((u64)r * r > v || (u64)(r + 1) * (r + 1) <= v)
		return int_sqrt64(v);
	return r;
}

/* One variance sample into the noise estimate. */
static void vlc_phy_noise_add(struct vlc_phy *phy, u64 var)
{
	u32 shift;

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
	phy->noise = vlc_phy_sqrt_near(phy->noise_var, phy->noise);
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

/* ---- Acquisition ---------------------------------------------------
 *
 * Two boards start their frame grids at arbitrary times. Until a
 * neighbour is locked (no signal scale yet, or lock lost) the PHY
 * acquires it from its light, data or not:
 *
 * Observation. Each frame's measured slots S1..S2 are kept, and our dark
 * ID part is measured too (our LED is off there), in up to 16 windows of
 * about guard_ns / 2, so that a neighbour's pulse in it covers whole
 * windows. Frames with our own data slot lit drop that slot; frames
 * that were late, overran or ran while our grid moved are not used.
 *
 * Model. The neighbour has our timing. In its own frame it lights IA on
 * [D, D + h) and IB on [F - h, F), D being the measured part, F the
 * frame and h half its on-time, plus at most one data slot k. Its frame
 * starts at our time x. For a candidate (x, h, k) the template p_i is
 * the lit fraction of our window i, and the levels are modelled as an
 * ambient line plus A * p_i. Its score is the energy it explains,
 * c^2 / q: c is the correlation of p with the levels off their line, q
 * the energy of p off that line (no division per candidate).
 *
 * Search. A grid of 64 offsets, each with 9 values of h (0 to the
 * largest) and every data slot or none; each offset keeps its best
 * (h, k). Per offset, c (in noise rms) and q are accumulated over frames
 * (weight 3/4), and scored as (sum c)^2 / sum q: one amplitude for all
 * frames. This rejects the aliases that explain one frame's pulse with
 * another amplitude (a lone data pulse fits any data slot, and a short
 * illumination pulse inside one window fits anything in that window).
 * The best offset must lead every offset more than a data slot away by
 * 64 noise variances and be near the best of the current frame (else
 * the neighbour moved and the history is dropped); it is then refined by
 * halving steps in x and h (8 neighbours, 6 levels). The search runs in
 * the ticks after the frame, a few offsets per tick, and finishes before
 * the next frame's report.
 *
 * Reports. An estimate is the neighbour's frame start modulo F; two in
 * a row within F / 128 make one coarse report: sync LATE/EARLY with
 * offset_ns in (-F/2, F/2] relative to the frame reported, rx->coarse
 * set, rx->acquiring set (symbols are withheld: erasure if a data slot
 * is lit, idle if not). After our grid moves, frames until the one after
 * next (when the neighbour's own move has settled) are not used, so a
 * report is never acted upon twice. An estimate in the data slot that
 * we lit and left out, less than half a data slot off our grid, rests on
 * the edges of the neighbour's pulse: it is reported and may lock, but
 * without rx->coarse (two nodes beaconing in step moved on such
 * estimates, 10 us wrong, and lost each other). While coarse reports
 * are being made, vlc_phy_adjust_phase() applies a correction in one
 * frame (an advance that the dark ID cannot absorb becomes a delay of F
 * minus it).
 *
 * Scale and lock. The amplitude A of a fit in which some window is at
 * least 7/8 lit is the level of a fully lit window: the signal scale the
 * fine estimator needs. The PHY locks (signal = A, noise relearnt) when a
 * report is within sync_ns, or when, after a report, two
 * frames show no light at all: the neighbour now hides in our own IA/IB,
 * i.e. it is aligned to better than the fine estimator's reach. Locked,
 * the S1/S2 estimator of before runs, and a fine offset above
 * sync_ns / 8 seen in two settled frames in a row is flagged coarse too.
 * Eight frames in a row of light the fine model cannot explain, or
 * VLC_PHY_SIGNAL_HOLD frames without a symbol or a spill, unlock.
 *
 * The MAC should apply half of every report with rx->coarse set at once,
 * or all of it when the neighbour evidently stood still (vlc_mac.c,
 * vlc_mac_acq_step()), even in a frame it lit, and restart its average;
 * ignore the other reports while rx->acquiring is set, and keep
 * averaging 16 locked reports, idle frames included (an idle
 * neighbour's spill is the only sync signal between idle nodes), for
 * the last microseconds.
 *
 * Limits. Only light in our measured part or our dark ID is seen (so
 * brightness has a floor of one data slot: a dimmer idle neighbour's
 * pulses pass for data), and two idle nodes
 * aligned to within their on-times from the start see nothing of each
 * other (sync NONE) until data flows. A neighbour whose light is data
 * pulses only is acquired once it has sent different symbols. Near
 * x = +-F/2 the sign is arbitrary (either converges). Offsets below
 * about 10 us are not resolved by acquisition at SNR 100; the fine
 * estimator needs illumination spill into S1/S2, so a corrector that
 * sees only data pulses (brightness near the minimum) does not converge
 * alone. Measured (vlc_phy_test_acquisition, SNR 100, 32 offsets): with
 * both sides correcting 303 of 320 runs lock within 64 frames, in 12 to
 * 23 frames on average.
 *
 * Cost, per searched frame: a snapshot (a line fit, ~30 short
 * divisions), 64 grid offsets of 26 (2-slot) to 44 (4-PPM) candidates
 * that share one template per (h) and per (k), 48 refinement candidates:
 * about a million instructions. Deferred (vlc_phy_acq_begin()), a worker
 * runs it outside the tick and the tick only captures; otherwise (the
 * simulator, for determinism) it is spread over the ticks from the end
 * of our ID to the next S2, about 1/10 per tick. Nothing of this runs
 * while locked.
 */
#define VLC_PHY_ACQ_LEVELS	6	/* refinement: step / 2 .. / 64 */
#define VLC_PHY_ACQ_FRAC	12	/* templates: lit fraction, Q12 */
#define VLC_PHY_ACQ_QMIN	BIT(16)	/* templates too flat to use */
#define VLC_PHY_ACQ_DETECT	64	/* accumulated noise variances */
#define VLC_PHY_ACQ_MARGIN	64	/* lead over offsets a slot away, ditto */
#define VLC_PHY_ACQ_EMPTY	16	/* below this, a frame shows nothing */
#define VLC_PHY_ACQ_HIDDEN	2	/* such frames, after a step, to lock */
#define VLC_PHY_ACQ_WARMUP	4	/* noise samples before detecting */
#define VLC_PHY_ACQ_MISSES	4	/* frames a lost neighbour is kept */
#define VLC_PHY_ACQ_LOST	8	/* unexplained frames to unlock */
#define VLC_PHY_ACQ_COL_MAX	BIT(24)	/* score of one offset, one frame */
#define VLC_PHY_ACQ_CN_MAX	BIT(28)	/* its correlation in noise rms */
/* Floor of the noise the search scales by, so that a noiseless channel
 * does not saturate every correlation (K3): an eighth of the backend's
 * smallest signal (vlc_phy_set_rx_min_level()), in raw levels, so an LED
 * that senses (125 in vlc_sim) or a 10-bit ADC is not hidden under it;
 * without one, rms 128 of the search's levels (below 2^14). A floor
 * following the largest level of each frame instead gave weak frames the
 * confidence of strong ones: false locks again (fuzz_params).
 */
#define VLC_PHY_ACQ_FLOOR_DIV	8
#define VLC_PHY_ACQ_VAR_MIN	BIT(14)

static s64 vlc_phy_sshr(s64 v, u32 s)
{
	return v >= 0 ? (s64)((u64)v >> s) : -(s64)((u64)-v >> s);
}

/* (a * b) >> 32 without losing the top bits */
static u64 vlc_phy_mul_shr32(u64 a, u32 b)
{
	u64 lo = (u64)(u32)a * b;

	return (a >> 32) * b + (lo >> 32);
}

/* a * b > c * d, for b and d below 2^32 and a and c below 2^62 */
static bool vlc_phy_mul_gt(u64 a, u32 b, u64 c, u32 d)
{
	u64 l1 = (u64)(u32)a * b, h1 = (a >> 32) * b + (l1 >> 32);
	u64 l2 = (u64)(u32)c * d, h2 = (c >> 32) * d + (l2 >> 32);

	if (h1 != h2)
		return h1 > h2;
	return (u32)l1 > (u32)l2;
}

/* Wrap a phase difference into (-F/2, F/2]. */
static s32 vlc_phy_wrap(s64 d, u32 fns)
{
	while (d > fns / 2)
		d -= fns;
	while (d <= -(s64)(fns / 2))
		d += fns;
	return d;
}

static u32 vlc_phy_seg(u32 r, u32 a, u32 len)
{
	return r <= a ? 0 : min(r - a, len);
}

/* A window edge as whole neighbour frames @q plus a rest @r. */
static void vlc_phy_acq_reduce(const struct vlc_phy_acq *a, u32 b, u32 x,
			       struct vlc_phy_acq_edge *e)
{
	u64 v = (u64)b + a->fns - x;

	e->q = 0;
	while (v >= a->fns) {
		v -= a->fns;
		e->q++;
	}
	e->r = v;
}

/* Neighbour light in [0, edge) of its frames: illumination, data slot. */
static u64 vlc_phy_acq_lit_i(const struct vlc_phy_acq *a,
			     const struct vlc_phy_acq_edge *e, u32 h)
{
	return (u64)e->q * 2 * h + vlc_phy_seg(e->r, a->dns, h) +
	       vlc_phy_seg(e->r, a->fns - h, h);
}

static u64 vlc_phy_acq_lit_d(const struct vlc_phy_acq *a,
			     const struct vlc_phy_acq_edge *e, u32 k)
{
	return (u64)e->q * a->dl + vlc_phy_seg(e->r, a->ds[k], a->dl);
}

static u32 vlc_phy_acq_frac(const struct vlc_phy_acq *a, u32 i, u64 lit)
{
	return ((u64)min_t(u64, lit, U32_MAX) * a->inv[i]) >>
	       (32 - VLC_PHY_ACQ_FRAC);
}

static void vlc_phy_acq_sums(const struct vlc_phy_acq *a,
			     struct vlc_phy_acq_sums *m)
{
	u32 i;

	m->s = 0;
	m->t = 0;
	m->c = 0;
	m->p2 = 0;
	for (i = 0; i < a->nb; i++) {
		u32 p = m->p[i];

		m->s += p;
		m->t += (s64)a->t[i] * p;
		m->c += (s64)a->y[i] * p;
		m->p2 += p * p;
	}
}

/* Score inputs of illumination @mi plus data @md (either may be NULL). */
static void vlc_phy_acq_combine(const struct vlc_phy_acq *a,
				const struct vlc_phy_acq_sums *mi,
				const struct vlc_phy_acq_sums *md,
				struct vlc_phy_acq_cand *c)
{
	s64 s = 0, t = 0, q;
	u64 p2 = 0;
	u32 i;

	c->c = 0;
	if (mi) {
		s += mi->s;
		t += mi->t;
		c->c += mi->c;
		p2 += mi->p2;
	}
	if (md) {
		s += md->s;
		t += md->t;
		c->c += md->c;
		p2 += md->p2;
	}
	if (mi && md)
		for (i = 0; i < a->nb; i++)
			p2 += 2 * (u32)mi->p[i] * md->p[i];
	q = p2 - vlc_phy_mul_shr32((u64)(s * s), a->rn) -
	    (vlc_phy_mul_shr32((u64)(t * t), a->rs) >> 16);
	c->q = clamp_t(s64, q, 0, U32_MAX);
}

static bool vlc_phy_acq_better(const struct vlc_phy_acq_cand *n,
			       const struct vlc_phy_acq_cand *b)
{
	if (n->c <= 0 || n->q < VLC_PHY_ACQ_QMIN)
		return false;
	if (b->c <= 0 || b->q < VLC_PHY_ACQ_QMIN)
		return true;
	return vlc_phy_mul_gt((u64)(n->c * n->c), b->q,
			      (u64)(b->c * b->c), n->q);
}

static u32 vlc_phy_acq_h(const struct vlc_phy_acq *a, u32 m)
{
	return div_u64((u64)a->hmax * m, VLC_PHY_ACQ_NH);
}

/* One candidate on its own, for the refinement; returns its largest
 * lit fraction.
 */
static u32 vlc_phy_acq_eval(struct vlc_phy_acq *a, struct vlc_phy_acq_cand *c)
{
	struct vlc_phy_acq_sums *mi = &a->mi[0], *md = &a->md[0];
	struct vlc_phy_acq_edge s, e;
	u32 i, pmax = 0;

	for (i = 0; i < a->nb; i++) {
		vlc_phy_acq_reduce(a, a->bs[i], c->x, &s);
		vlc_phy_acq_reduce(a, a->be[i], c->x, &e);
		mi->p[i] = c->h ? vlc_phy_acq_frac(a, i,
					vlc_phy_acq_lit_i(a, &e, c->h) -
					vlc_phy_acq_lit_i(a, &s, c->h)) : 0;
		md->p[i] = c->k >= 0 ? vlc_phy_acq_frac(a, i,
					vlc_phy_acq_lit_d(a, &e, c->k) -
					vlc_phy_acq_lit_d(a, &s, c->k)) : 0;
		pmax = max_t(u32, pmax, mi->p[i] + md->p[i]);
	}
	vlc_phy_acq_sums(a, mi);
	if (c->k >= 0)
		vlc_phy_acq_sums(a, md);
	vlc_phy_acq_combine(a, c->h ? mi : NULL, c->k >= 0 ? md : NULL, c);
	return pmax;
}

/* One grid column: offset @j * step, every h of the grid and data slot. */
static void vlc_phy_acq_col(struct vlc_phy_acq *a, u32 j)
{
	struct vlc_phy_acq_edge *s = a->es, *e = a->ee;
	struct vlc_phy_acq_sums *mi = a->mi, *md = a->md;
	struct vlc_phy_acq_cand best = { 0 }, c;
	u32 i, m, x = j * a->step;
	int k;

	for (i = 0; i < a->nb; i++) {
		vlc_phy_acq_reduce(a, a->bs[i], x, &s[i]);
		vlc_phy_acq_reduce(a, a->be[i], x, &e[i]);
	}
	for (m = 1; m <= VLC_PHY_ACQ_NH; m++) {
		u32 h = vlc_phy_acq_h(a, m);

		for (i = 0; i < a->nb; i++) {
			u64 lit = vlc_phy_acq_lit_i(a, &e[i], h) -
				  vlc_phy_acq_lit_i(a, &s[i], h);

			mi[m].p[i] = vlc_phy_acq_frac(a, i, lit);
		}
		vlc_phy_acq_sums(a, &mi[m]);
	}
	for (k = 0; k < a->nd; k++) {
		for (i = 0; i < a->nb; i++) {
			u64 lit = vlc_phy_acq_lit_d(a, &e[i], k) -
				  vlc_phy_acq_lit_d(a, &s[i], k);

			md[k].p[i] = vlc_phy_acq_frac(a, i, lit);
		}
		vlc_phy_acq_sums(a, &md[k]);
	}
	a->colh[j] = 0;
	a->colk[j] = -1;
	for (m = 0; m <= VLC_PHY_ACQ_NH; m++) {
		for (k = -1; k < a->nd; k++) {
			if (!m && k < 0)
				continue;
			vlc_phy_acq_combine(a, m ? &mi[m] : NULL,
					    k >= 0 ? &md[k] : NULL, &c);
			if (vlc_phy_acq_better(&c, &best)) {
				best = c;
				a->colh[j] = m;
				a->colk[j] = k;
			}
		}
	}
	if (!j || vlc_phy_acq_better(&best, &a->fbest))
		a->fbest = best;
	a->cols[j] = 0;
	a->cn[j] = 0;
	a->colq[j] = 0;
	if (best.c > 0 && best.q >= VLC_PHY_ACQ_QMIN) {
		a->cols[j] = min_t(u64, div64_u64((u64)(best.c * best.c),
						  (u64)best.q * a->var),
				   VLC_PHY_ACQ_COL_MAX);
		/* in noise rms * 16, for the amplitude shared over frames */
		a->cn[j] = min_t(u64, ((u64)best.c * a->rsig) >> 12,
				 VLC_PHY_ACQ_CN_MAX);
		a->colq[j] = best.q;
	}
}

/* Forget the evidence; @all: also the scale and the coarse history. The
 * accumulators belong to the search: it zeroes them before its next
 * frame.
 */
static void vlc_phy_acq_reset(struct vlc_phy_acq *a, bool all)
{
	a->flush = true;
	a->agree = 0;
	a->fresh = false;
	a->have = false;
	a->misses = 0;
	a->empty = 0;
	if (all) {
		a->a_known = 0;
		a->a = 0;
		a->seen = false;
	}
}

/* Noise from neighbouring ID windows: equal but at a pulse's edges, so
 * with enough of them the median of their differences is 0.95 rms.
 */
static bool vlc_phy_acq_noise_id(const struct vlc_phy_acq *a, u64 *var)
{
	u32 d[VLC_PHY_ID_WINDOWS], i, j, n = 0, first = a->nb - a->nid, m;

	if (a->nid < 10)
		return false;
	for (i = first; i + 1 < a->nb; i++) {
		u32 v = a->lv[i + 1] > a->lv[i] ? a->lv[i + 1] - a->lv[i] :
			a->lv[i] - a->lv[i + 1];

		/* insertion sort, at most 15 values */
		for (j = n++; j > 0 && d[j - 1] > v; j--)
			d[j] = d[j - 1];
		d[j] = v;
	}
	m = d[n / 2] + (d[n / 2] >> 4);
	*var = (u64)m * m;
	return true;
}

/* Noise from what the best candidate of the grid leaves unexplained. */
static u64 vlc_phy_acq_noise(const struct vlc_phy_acq *a)
{
	const struct vlc_phy_acq_cand *b = &a->fbest;
	u64 e = 0, r;

	if (vlc_phy_acq_noise_id(a, &r))
		return r;
	if (b->c > 0 && b->q >= VLC_PHY_ACQ_QMIN)
		e = div64_u64((u64)(b->c * b->c), b->q);
	r = a->yy > e ? a->yy - e : 0;
	r = div_u64(r, a->nb - 4);
	if (r >= (1ULL << (62 - 2 * a->ys)))
		return U64_MAX >> 2;
	return r << (2 * a->ys);
}

/* Accumulated score of column @j: (sum cn)^2 / sum q. */
static u64 vlc_phy_acq_acc(const struct vlc_phy_acq *a, u32 j)
{
	u64 c = a->accc[j] > 0 ? a->accc[j] : 0;

	return a->accq[j] ? div64_u64(c * c, a->accq[j]) : 0;
}

/* Column @i scores above column @j, without dividing. */
static bool vlc_phy_acq_acc_gt(const struct vlc_phy_acq *a, u32 i, u32 j)
{
	u64 ci = a->accc[i] > 0 ? a->accc[i] : 0;
	u64 cj = a->accc[j] > 0 ? a->accc[j] : 0;

	if (!ci || !a->accq[i])
		return false;
	if (!cj || !a->accq[j])
		return true;
	/* both q sums stay below 2^32, both c sums below 2^31 */
	return vlc_phy_mul_gt(ci * ci, a->accq[j], cj * cj, a->accq[i]);
}

static void vlc_phy_acq_forget(struct vlc_phy_acq *a)
{
	u32 j;

	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		a->accc[j] = 0;
		a->accq[j] = 0;
	}
}

/* The grid is done: pick the column to refine, or give up. Only the
 * search's own state changes; the outcome for the PHY (a noise sample,
 * an empty frame) is left in a->v_* for vlc_phy_acq_apply_select().
 */
static bool vlc_phy_acq_select(struct vlc_phy_acq *a)
{
	u32 j, b = 0, second = U32_MAX, colmax = 0, near, samples;
	u64 sb, ss;
	bool warm;

	a->detect = false;
	a->v_noise = false;
	a->v_empty = false;
	if (a->in_flush || a->in_stale)
		vlc_phy_acq_forget(a);
	if (a->in_stale)
		return false;	/* measured before our grid moved and settled */
	/* the frame's noise, from its best candidate */
	a->v_var = vlc_phy_acq_noise(a);
	a->v_noise = true;
	samples = a->in_noise_samples;
	if (samples < BIT(VLC_PHY_NOISE_SHIFT))
		samples++;
	warm = samples >= VLC_PHY_ACQ_WARMUP;
	/* Each offset explains the frames with one amplitude: as the
	 * neighbour's symbols change, the aliases that explain one frame's
	 * pulse with another amplitude (a shorter pulse) fall behind.
	 * Score: (sum c / rms)^2 / sum q, the energy explained over the
	 * last few frames in noise variances (times 256).
	 */
	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		a->accc[j] += a->cn[j] - vlc_phy_sshr(a->accc[j], 2);
		a->accq[j] += a->colq[j] - (a->accq[j] >> 2);
		if (vlc_phy_acq_acc_gt(a, j, b))
			b = j;
		colmax = max(colmax, a->cols[j]);
	}
	/* the neighbour moved: what was gathered before misleads */
	if ((u64)a->cols[b] * 2 < colmax) {
		for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
			a->accc[j] = a->cn[j];
			a->accq[j] = a->colq[j];
			if (vlc_phy_acq_acc_gt(a, j, b))
				b = j;
		}
	}
	/* no light at all: after a coarse step, the neighbour hides in
	 * our own on-time
	 */
	if (colmax < VLC_PHY_ACQ_EMPTY && warm)
		a->v_empty = true;
	/* the peak is about a data slot wide; aliases are further away */
	near = min_t(u64, div_u64(a->dl, a->step), VLC_PHY_ACQ_NX / 4);
	for (j = 0; j < VLC_PHY_ACQ_NX; j++) {
		u32 d = (j + VLC_PHY_ACQ_NX - b) % VLC_PHY_ACQ_NX;

		if (d > near && d < VLC_PHY_ACQ_NX - near &&
		    (second == U32_MAX || vlc_phy_acq_acc_gt(a, j, second)))
			second = j;
	}
	sb = vlc_phy_acq_acc(a, b);
	ss = second == U32_MAX ? 0 : vlc_phy_acq_acc(a, second);
	a->detect = warm &&
		    sb >= VLC_PHY_ACQ_DETECT * 256 &&
		    sb - ss >= VLC_PHY_ACQ_MARGIN * 256 &&
		    (u64)a->cols[b] * 4 >= (u64)colmax * 3;
	if (!a->detect)
		return false;
	a->best = (struct vlc_phy_acq_cand){ .x = b * a->step,
		.h = vlc_phy_acq_h(a, a->colh[b]), .k = a->colk[b] };
	vlc_phy_acq_eval(a, &a->best);
	return true;
}

static void vlc_phy_acq_refine(struct vlc_phy_acq *a, u32 level)
{
	static const s8 dx[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };
	static const s8 dh[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
	u32 sx = a->step >> (level + 1);
	u32 sh = div_u64(a->hmax, 2 * VLC_PHY_ACQ_NH) >> level;
	struct vlc_phy_acq_cand c, from = a->best;
	int d;

	/* the 8 neighbours: moving x and h together keeps one pulse edge */
	for (d = 0; d < 8; d++) {
		s64 h = (s64)from.h + dh[d] * (s64)sh;

		c = from;
		if ((dx[d] && !sx) || (dh[d] && !sh))
			continue;
		c.x = from.x + a->fns + dx[d] * (s32)sx;
		while (c.x >= a->fns)
			c.x -= a->fns;
		c.h = clamp_t(s64, h, 0, a->hmax);
		if ((dh[d] && c.h == from.h) || (!c.h && c.k < 0))
			continue;
		vlc_phy_acq_eval(a, &c);
		if (vlc_phy_acq_better(&c, &a->best))
			a->best = c;
	}
}

static void vlc_phy_acq_miss(struct vlc_phy_acq *a, bool empty)
{
	a->empty = empty && a->empty < U8_MAX ? a->empty + 1 : 0;
	a->agree = 0;
	a->fresh = false;
	if (++a->misses > VLC_PHY_ACQ_MISSES)
		a->have = false;
}

/* The grid's outcome, into the PHY: a noise sample, or a frame that
 * showed nothing. Tick context (or the executor's lock held).
 */
static void vlc_phy_acq_apply_select(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	if (a->in_stale) {
		vlc_phy_acq_reset(a, false);
		a->flush = false;	/* the search forgot already */
		return;
	}
	if (a->v_noise)
		vlc_phy_noise_add(phy, a->v_var);
	/* vlc_phy_acq_miss() counts the empty frame: once, not twice */
	if (!a->v_empty)
		a->empty = 0;
	if (!a->detect)
		vlc_phy_acq_miss(a, a->v_empty);
}

/* The refined estimate of a frame: track it. Tick context (or the
 * executor's lock held).
 */
static void vlc_phy_acq_apply_finish(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	struct vlc_phy_acq_cand *b = &a->best;
	u32 r, phase, amp, min_amp, pmax = a->v_pmax;
	s64 amp64;
	s32 d;

	if (b->c <= 0 || b->q < VLC_PHY_ACQ_QMIN) {
		vlc_phy_acq_miss(a, false);
		return;
	}
	amp64 = div64_s64(b->c << VLC_PHY_ACQ_FRAC, b->q);
	amp = vlc_phy_sat_u32(amp64 << a->ys);
	min_amp = max3(phy->rx_min_level, VLC_PHY_K_CARRIER * phy->noise, 1U);
	if (amp < min_amp) {
		vlc_phy_acq_miss(a, false);
		return;
	}
	/* the scale is only known when a window was wholly lit */
	if (pmax >= (7U << VLC_PHY_ACQ_FRAC) / 8)
		a->a_known = a->a_known ?
			     a->a_known - (a->a_known >> 2) + (amp >> 2) : amp;
	div_u64_rem(a->fs, a->fns, &r);
	phase = r + b->x;
	if (phase >= a->fns)
		phase -= a->fns;
	d = vlc_phy_wrap((s64)phase - a->phase, a->fns);
	if (a->have && vlc_phy_abs(d) <= (a->fns >> 7)) {
		if (a->agree < U8_MAX)
			a->agree++;
	} else {
		a->agree = 0;
	}
	a->phase = phase;
	a->a = amp;
	/* A neighbour that lit the data slot we lit (and left out), its
	 * pulse more than half behind ours, shows only its edges: its
	 * estimate is weak.
	 */
	a->hid = b->k >= 0 && b->k == a->own &&
		 (b->x < a->dl / 2 || b->x > a->fns - a->dl / 2);
	a->have = true;
	a->misses = 0;
	a->empty = 0;
	a->fresh = a->agree >= 1;
}

/* A window just ended: once the last measured one of the frame has
 * (S2, or our last ID window), copy the frame for a search. This runs
 * before the next slot starts, so it only copies.
 */
static void vlc_phy_acq_capture(struct vlc_phy *phy, bool late)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 i, nb = 0, last, own = U32_MAX;

	if (phy->cur >= phy->acq.id_first && late)
		a->id_late = true;
	last = a->id_n ? a->id_first + a->id_n - 1 : phy->nmeas - 1;
	if (phy->cur != last || late || a->id_late || phy->locked ||
	    a->stage != VLC_PHY_ACQ_IDLE ||
	    (phy->frame_flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN)))
		return;
	/* our own data slot says nothing about the neighbour */
	if (phy->tx_sym >= 0)
		own = 2 + 2 * phy->tx_sym;
	a->nid = a->id_n;
	for (i = 0; i <= last; i++) {
		const struct vlc_phy_slot *sl = &phy->slot[i];

		if (i == own || (i >= phy->nmeas && i < a->id_first))
			continue;
		a->bs[nb] = sl->start;
		a->be[nb] = sl->start + sl->len;
		a->cen[nb] = sl->centre;
		a->lv[nb++] = phy->level[i];
	}
	a->nb = nb;
	a->own = phy->tx_sym >= 0 ? phy->tx_sym : -1;
	a->fs = phy->frame_start;
	a->fns = phy->timing.frame_ns;
	a->dns = phy->slot[phy->nmeas - 1].start + phy->slot[phy->nmeas - 1].len;
	a->dl = phy->timing.data_ns;
	a->nd = vlc_phy_ndata(phy->mode);
	for (i = 0; i < a->nd; i++)
		a->ds[i] = phy->slot[2 + 2 * i].start;
	/* in the tick, done by the next frame's report */
	a->work = div_u64(VLC_PHY_ACQ_NX + VLC_PHY_ACQ_LEVELS + phy->nmeas,
			  phy->nmeas + 1);
	a->stage = VLC_PHY_ACQ_CAPTURED;
}

/* Hand the captured frame to the search, with what it needs of the PHY. */
static void vlc_phy_acq_take(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	a->in_flush = a->flush;
	a->flush = false;
	a->in_stale = a->fs < a->settle;
	a->in_noise_var = phy->noise_var;
	a->in_noise_samples = phy->noise_samples;
	a->in_min_level = phy->rx_min_level;
}

/* Prepare the captured frame for the search: the ambient line off the
 * levels, centred time, reciprocals.
 */
static void vlc_phy_acq_snapshot(struct vlc_phy_acq *a)
{
	s32 tc[VLC_PHY_ACQ_BINS];
	s64 sc = 0, st = 0, stt = 0, sy = 0, sty = 0, ybar, slope;
	s64 r[VLC_PHY_ACQ_BINS];
	u32 i, nb = a->nb, sh = 0, mx = 0;
	u64 rmax = 0, fl;

	/* centred time, scaled below 2^10 */
	for (i = 0; i < nb; i++)
		sc += a->cen[i];
	for (i = 0; i < nb; i++) {
		tc[i] = (s32)(nb * a->cen[i]) - (s32)sc;
		mx = max_t(u32, mx, vlc_phy_abs(tc[i]));
	}
	while ((mx >> sh) >= 1024)
		sh++;
	for (i = 0; i < nb; i++) {
		a->t[i] = vlc_phy_sshr(tc[i], sh);
		st += a->t[i];
	}
	st = div_s64(st, nb);
	for (i = 0; i < nb; i++) {
		a->t[i] -= st;
		stt += (s64)a->t[i] * a->t[i];
		sy += a->lv[i];
		sty += (s64)a->t[i] * a->lv[i];
	}
	stt = max_t(s64, stt, 1);

	/* levels off their line, scaled below 2^14 */
	ybar = div_s64(sy * 256, nb);
	slope = div64_s64(sty * 256, stt);
	for (i = 0; i < nb; i++) {
		r[i] = vlc_phy_sshr((s64)a->lv[i] * 256 - ybar -
				    slope * a->t[i] + 128, 8);
		rmax = max_t(u64, rmax, vlc_phy_abs(r[i]));
	}
	a->ys = 0;
	while ((rmax >> a->ys) >= (1U << 14))
		a->ys++;
	a->yy = 0;
	for (i = 0; i < nb; i++) {
		a->y[i] = vlc_phy_sshr(r[i], a->ys);
		a->yy += (s64)a->y[i] * a->y[i];
		a->inv[i] = min_t(u64, div_u64(1ULL << 32, a->be[i] - a->bs[i]),
				  U32_MAX);
	}
	a->rn = div_u64(1ULL << 32, nb);
	a->rs = min_t(u64, div64_u64(1ULL << 48, stt), U32_MAX);
	/* On a noiseless channel every column's correlation would
	 * saturate at VLC_PHY_ACQ_CN_MAX, and (sum c)^2 / sum q would then
	 * pick the smallest template, a lone data pulse anywhere: a
	 * neighbour's illumination pulse read as data (K3).
	 */
	if (a->in_min_level) {
		fl = a->in_min_level / VLC_PHY_ACQ_FLOOR_DIV;
		fl = max_t(u64, (fl * fl) >> (2 * a->ys), 1);
	} else {
		fl = VLC_PHY_ACQ_VAR_MIN;
	}
	a->var = max_t(u64, a->in_noise_var >> (2 * a->ys), fl);
	a->rsig = div_u64(1ULL << 16, max(int_sqrt64(a->var), 1U));

	a->hmax = (a->fns - a->dns + 1) / 2;
	a->step = div_u64(a->fns, VLC_PHY_ACQ_NX);
	a->pos = 0;
}

/* In the tick: a few steps of the search, after the pins. */
static void vlc_phy_acq_work(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 n = a->work;

	if (a->stage == VLC_PHY_ACQ_CAPTURED && !phy->acq_defer) {
		vlc_phy_acq_take(phy);
		vlc_phy_acq_snapshot(a);
		a->stage = VLC_PHY_ACQ_GRID;
	}
	while (n-- && a->stage >= VLC_PHY_ACQ_GRID) {
		if (a->stage == VLC_PHY_ACQ_GRID) {
			vlc_phy_acq_col(a, a->pos++);
			if (a->pos < VLC_PHY_ACQ_NX)
				continue;
			a->pos = 0;
			/* what the tick did since the frame was taken */
			a->in_flush |= a->flush;
			a->flush = false;
			a->in_stale = a->fs < a->settle;
			a->stage = vlc_phy_acq_select(a) ?
				   VLC_PHY_ACQ_REFINE : VLC_PHY_ACQ_IDLE;
			vlc_phy_acq_apply_select(phy);
		} else {
			vlc_phy_acq_refine(a, a->pos++);
			if (a->pos < VLC_PHY_ACQ_LEVELS)
				continue;
			a->v_pmax = vlc_phy_acq_eval(a, &a->best);
			vlc_phy_acq_apply_finish(phy);
			a->stage = VLC_PHY_ACQ_IDLE;
		}
	}
}

void vlc_phy_set_acq_defer(struct vlc_phy *phy, bool defer)
{
	phy->acq_defer = defer;
}

/**
 * vlc_phy_acq_begin - take a captured frame for a deferred search
 * @phy: PHY
 *
 * Context: the caller serialises with vlc_phy_tick() (executor lock).
 * Return: true if a frame was taken; then call vlc_phy_acq_search()
 * without the lock and vlc_phy_acq_end() with it.
 */
bool vlc_phy_acq_begin(struct vlc_phy *phy)
{
	if (!phy->acq_defer || phy->acq.stage != VLC_PHY_ACQ_CAPTURED)
		return false;
	vlc_phy_acq_take(phy);
	phy->acq.stage = VLC_PHY_ACQ_BUSY;
	return true;
}

/**
 * vlc_phy_acq_search - the whole search of the frame taken
 * @phy: PHY
 *
 * Context: any, not serialised with vlc_phy_tick(): it reads and writes
 * only the search's part of @phy->acq, which the tick leaves alone while
 * the stage is VLC_PHY_ACQ_BUSY.
 */
void vlc_phy_acq_search(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 i;

	vlc_phy_acq_snapshot(a);
	for (i = 0; i < VLC_PHY_ACQ_NX; i++)
		vlc_phy_acq_col(a, i);
	if (!vlc_phy_acq_select(a))
		return;
	for (i = 0; i < VLC_PHY_ACQ_LEVELS; i++)
		vlc_phy_acq_refine(a, i);
	a->v_pmax = vlc_phy_acq_eval(a, &a->best);
}

/**
 * vlc_phy_acq_end - apply the outcome of a deferred search
 * @phy: PHY
 *
 * Context: the caller serialises with vlc_phy_tick() (executor lock).
 */
void vlc_phy_acq_end(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	if (a->stage != VLC_PHY_ACQ_BUSY)
		return;
	a->stage = VLC_PHY_ACQ_IDLE;
	/* locked, or reset, or the grid moved while the search ran */
	if (phy->locked || a->flush || a->fs < a->settle)
		return;
	vlc_phy_acq_apply_select(phy);
	if (a->detect)
		vlc_phy_acq_apply_finish(phy);
}

static void vlc_phy_acq_lock(struct vlc_phy *phy)
{
	struct vlc_phy_acq *a = &phy->acq;

	phy->locked = true;
	/* a fit with a window wholly lit, else the last one */
	phy->signal = a->a_known ? a->a_known : a->a;
	phy->since_signal = 0;
	/* The search's noise holds its model error and its short ID
	 * windows; the fine fit learns its own, from in-sync frames, as a
	 * plain mean from now on (decisions still need half the signal).
	 */
	phy->noise_samples = VLC_PHY_NOISE_WARMUP;
	phy->noise_var = 0;
	phy->noise = 0;
	phy->stats.acq_locks++;
	a->coarse_adj = false;
	a->lost = 0;
	vlc_phy_acq_reset(a, true);
}

/* The report of a frame while acquiring. */
static void vlc_phy_acq_report(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 r;
	s32 x;

	rx->acquiring = true;
	if (a->seen && (a->a_known || a->a) &&
	    a->empty >= VLC_PHY_ACQ_HIDDEN) {
		/* seen, corrected, now hidden behind our own light */
		rx->sync = VLC_PHY_SYNC_IN;
		vlc_phy_acq_lock(phy);
		return;
	}
	if (!a->have)
		return;
	div_u64_rem(phy->frame_start, a->fns, &r);
	x = vlc_phy_wrap((s64)a->phase - r, a->fns);
	rx->offset_ns = x;
	if (x > 0) {
		rx->sync = VLC_PHY_SYNC_LATE;
		phy->stats.sync_late++;
	} else if (x < 0) {
		rx->sync = VLC_PHY_SYNC_EARLY;
		phy->stats.sync_early++;
	} else {
		rx->sync = VLC_PHY_SYNC_IN;
	}
	if (!a->fresh)
		return;
	a->fresh = false;
	a->seen = true;
	if (!a->hid) {
		rx->coarse = true;
		phy->stats.acq_coarse++;
		a->coarse_adj = true;
	}
	/* within the reach of the fine estimator: lock */
	if (vlc_phy_abs(x) <= phy->timing.sync_ns && (a->a_known || a->a))
		vlc_phy_acq_lock(phy);
}

static void vlc_phy_unlock(struct vlc_phy *phy)
{
	phy->locked = false;
	phy->signal = 0;
	phy->stats.acq_lost++;
	vlc_phy_acq_reset(&phy->acq, true);
}

/* Locked, a large fine offset seen in two settled frames in a row is
 * reported as coarse too, so that the MAC need not average 16 frames
 * for each halving of it.
 */
static void vlc_phy_fine_coarse(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	struct vlc_phy_acq *a = &phy->acq;
	u32 big = phy->timing.sync_ns / 8;
	u64 mag = vlc_phy_abs(rx->offset_ns);
	u64 d = vlc_phy_abs((s64)rx->offset_ns - a->fine_off);

	if (mag <= big || phy->frame_start < a->settle) {
		a->fine_prev = false;
		return;
	}
	if (a->fine_prev && d <= max_t(u64, big, mag / 4)) {
		rx->coarse = true;
		phy->stats.acq_coarse++;
		a->fine_prev = false;
		return;
	}
	a->fine_prev = true;
	a->fine_off = rx->offset_ns;
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

/* Decode the measured part of the frame. The ambient is a line through
 * dark slots against time: it cancels DC and the slope of mains flicker
 * within the frame. Which dark slots are really dark depends on the
 * neighbour's timing, hence the hypotheses above.
 */
static void vlc_phy_decode(struct vlc_phy *phy, struct vlc_phy_rx *rx)
{
	u32 n = vlc_phy_ndata(phy->mode);
	u32 s2 = 2 * n + 2, gmask, k, hi, second;
	u32 carrier_thr, dec_thr, sync_thr, signal = phy->signal;
	s64 d[4], amb = 0, diff;
	struct vlc_phy_hyp hyps[2], *best = &hyps[0], *h = &hyps[1], *hp;
	const struct vlc_phy_fit *f;
	struct vlc_phy_sums m;
	bool own = phy->tx_sym >= 0, locked;
	const struct vlc_phy_hyp_def *hyp;
	u32 j, nh;

	/* the guards: G0..Gn at the odd slots 1 to s2 - 1 */
	gmask = 0xaaaaaaaa & (BIT(s2) - 1);

	rx->sync = VLC_PHY_SYNC_NONE;
	/* Acquiring, there is nothing to scale spill by: the in-sync line
	 * through the guards only. Each hypothesis is scored in one place,
	 * so that the compiler inlines the scoring and its fit.
	 */
	locked = phy->locked && signal;
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
	f = &best->f;
	if (!locked) {
		vlc_phy_acq_report(phy, rx);
	} else {
		sync_thr = max(VLC_PHY_K_SYNC * phy->noise,
			       signal / VLC_PHY_SYNC_FRAC);
		/* light the fine model cannot explain: lock lost? */
		if (best->cost > max_t(u64, (u64)signal * signal / 16,
				       (u64)16 * (s2 + 1) * phy->noise_var))
			phy->acq.lost++;
		else
			phy->acq.lost = 0;
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
			phy->acq.fine_prev = false;
		}
		/* The best hypothesis leaves out the slots it believes lit,
		 * even a spill too small to report: fitting those as dark
		 * would read the spill as noise, raise the thresholds, hide
		 * more spill, and let the grids drift apart unseen.
		 */
	}

	/* Acquisition takes its noise from its own fit. */
	if (!own && !rx->acquiring)
		vlc_phy_noise_update(phy, f);

	for (k = 0; k < n; k++) {
		u32 i = 2 + 2 * k;
		s64 a = vlc_phy_fit_at(f, phy->slot[i].centre);

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
	else if (phy->noise_samples < VLC_PHY_NOISE_WARMUP ||
		 diff < dec_thr || rx->acquiring)
		rx->sym = VLC_SYM_ERASURE;
	else
		rx->sym = hi;

	if (rx->acquiring) {
		rx->signal = phy->signal;
		rx->noise = phy->noise;
		return;
	}
	rx->hard = hi;
	rx->flags |= VLC_PHY_RX_HARD;
	/* A neighbour's light in S1/S2 shows it is still there. */
	if (rx->sync == VLC_PHY_SYNC_LATE || rx->sync == VLC_PHY_SYNC_EARLY)
		phy->since_signal = 0;

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
				 phy->noise, 1U) && 2 * d[hi] < phy->signal)
			phy->signal -= (phy->signal - (u32)d[hi]) >>
				       VLC_PHY_SIGNAL_SHIFT;
		if (++phy->since_signal > VLC_PHY_SIGNAL_HOLD) {
			phy->since_signal = VLC_PHY_SIGNAL_HOLD;
			vlc_phy_unlock(phy);
		}
	}
	if (phy->locked && phy->acq.lost >= VLC_PHY_ACQ_LOST)
		vlc_phy_unlock(phy);
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

/* Emit and measure for the slot that starts now. */
static inline void vlc_phy_slot_pins(struct vlc_phy *phy, u64 now, u64 end)
{
	const struct vlc_phy_slot *s = &phy->slot[phy->cur];

	if (s->on != phy->led) {
		phy->pins->emit(phy->pin_ctx, s->on, now);
		phy->led = s->on;
	}
	if (phy->cur < phy->nmeas ||
	    (phy->cur >= phy->acq.id_first &&
	     phy->cur < phy->acq.id_first + phy->acq.id_n)) {
		/* one LED cannot sense its own pulse: leave the slot dark */
		if (phy->pins->shared_led && s->on) {
			phy->level[phy->cur] = 0;
		} else {
			phy->pins->rx_begin(phy->pin_ctx, now);
			phy->measuring = true;
		}
	}
	phy->next_ns = end;
}

u64 vlc_phy_start(struct vlc_phy *phy, u64 now_ns)
{
	phy->pins->emit(phy->pin_ctx, false, now_ns);
	phy->led = false;
	phy->measuring = false;
	phy->skipped = 0;
	/* a deferred search of the last run was cancelled with its worker */
	phy->acq.stage = VLC_PHY_ACQ_IDLE;
	vlc_phy_frame_begin(phy, now_ns, now_ns);
	vlc_phy_slot_pins(phy, now_ns, now_ns + phy->slot[0].len);
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
		/* locked, nothing is captured (and id_late is not read) */
		if (!phy->locked)
			vlc_phy_acq_capture(phy, now_ns > t + tol);
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

	start = end - s->len;
	if (now_ns > start + tol) {
		if (phy->cur < phy->nmeas)
			phy->frame_flags |= VLC_PHY_RX_LATE;
		if (phy->cur >= phy->acq.id_first &&
		    phy->cur < phy->acq.id_first + phy->acq.id_n)
			phy->acq.id_late = true;
	}

	vlc_phy_slot_pins(phy, now_ns, end);

	if (phy->acq.stage != VLC_PHY_ACQ_IDLE)
		vlc_phy_acq_work(phy);

	/* Decoding after the pins keeps the slot edge on time. */
	if (!phy->decoded && phy->cur >= phy->nmeas)
		vlc_phy_frame_rx(phy);
	return phy->next_ns;
}
