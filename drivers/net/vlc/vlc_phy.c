// SPDX-License-Identifier: GPL-2.0
/* VLC PHY core, the frame engine: settings, the slot schedule with its
 * encoding and brightness compensation, and the tick that runs it. The
 * receiver is in vlc_phy_rx.c, the acquisition of a neighbour in
 * vlc_phy_acq.c; vlc_phy_priv.h is what the three share.
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
#include "vlc_phy_priv.h"

enum {
	VLC_PHY_SLOT_S1,
	VLC_PHY_SLOT_G,
	VLC_PHY_SLOT_D,
	VLC_PHY_SLOT_S2,
	VLC_PHY_SLOT_IA,
	VLC_PHY_SLOT_ID,
	VLC_PHY_SLOT_ID_WIN,	/* acquiring: a measured window of ID */
	VLC_PHY_SLOT_IB,
};

#define VLC_PHY_DEFAULT_BRIGHTNESS	200	/* per-mille, fits both modes */

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
			 enum vlc_phy_mode mode, enum vlc_refusal *why)
{
	enum vlc_refusal r = VLC_REFUSE_NONE;

	if (mode != VLC_PHY_MODE_2SLOT && mode != VLC_PHY_MODE_4PPM)
		r = VLC_REFUSE_MODULATION;
	else if (t->sync_ns < VLC_PHY_SLOT_NS_MIN)
		r = VLC_REFUSE_SYNC_MIN;
	else if (t->guard_ns < VLC_PHY_SLOT_NS_MIN)
		r = VLC_REFUSE_GUARD_MIN;
	else if (t->data_ns < VLC_PHY_SLOT_NS_MIN)
		r = VLC_REFUSE_DATA_MIN;
	else if (t->frame_ns > VLC_PHY_FRAME_NS_MAX)
		r = VLC_REFUSE_FRAME_MAX;
	else if (t->frame_ns < VLC_PHY_FRAME_NS_MIN)
		r = VLC_REFUSE_FRAME_MIN;
	else if (t->guard_ns < t->tolerance_ns)
		r = VLC_REFUSE_GUARD_TOLERANCE;
	else if (vlc_phy_dark_ns(t, mode) > t->frame_ns)
		r = VLC_REFUSE_FRAME_SLOTS;

	if (why)
		*why = r;
	return r ? -EINVAL : 0;
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

static int vlc_phy_brightness_check(const struct vlc_phy_timing *t,
				    enum vlc_phy_mode mode, u32 brightness,
				    enum vlc_refusal *why)
{
	enum vlc_refusal r = VLC_REFUSE_NONE;
	u32 min, max;

	if (vlc_phy_brightness_range(t, mode, &min, &max))
		r = VLC_REFUSE_BRIGHTNESS_TIMING;
	else if (brightness > max)
		r = VLC_REFUSE_BRIGHTNESS_MAX;
	/* Below one data slot a data frame has no illumination left, and an
	 * idle frame's pulses are as long as a data slot or shorter: the
	 * acquisition of a neighbour would take them for data (K3).
	 */
	else if (brightness < min)
		r = VLC_REFUSE_BRIGHTNESS_MIN;

	if (why)
		*why = r;
	return r ? -EINVAL : 0;
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
		       enum vlc_refusal *why)
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
		       enum vlc_refusal *why)
{
	return vlc_phy_set_config(phy, t, phy->new_mode, phy->new_brightness,
				  why);
}

int vlc_phy_set_mode(struct vlc_phy *phy, enum vlc_phy_mode mode,
		     enum vlc_refusal *why)
{
	return vlc_phy_set_config(phy, &phy->new_timing, mode,
				  phy->new_brightness, why);
}

int vlc_phy_set_brightness(struct vlc_phy *phy, u32 brightness,
			   enum vlc_refusal *why)
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
	vlc_phy_acq_drop_report(phy);
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

/* Pending settings take effect, together, once the client has no frame
 * of the old mode on air; the measured part is laid out again only if
 * the timing or the mode changed.
 */
static void vlc_phy_apply_settings(struct vlc_phy *phy)
{
	if ((!phy->layout_ok || phy->mode != phy->new_mode) && phy->client &&
	    phy->client->set_bits &&
	    !phy->client->set_bits(phy->client_ctx,
				   vlc_phy_bits(phy->new_mode)))
		return;
	if (!phy->layout_ok || phy->mode != phy->new_mode ||
	    !vlc_phy_timing_eq(&phy->timing, &phy->new_timing)) {
		phy->timing = phy->new_timing;
		phy->mode = phy->new_mode;
		vlc_phy_layout(phy);
	}
	phy->brightness = phy->new_brightness;
}

/* The symbol of the frame that starts, and the data slots lit for it.
 * Asked of the client even when the frame starts late: a symbol lost in
 * its own frame is an erasure at the receiver, one sent a frame later
 * would shift every symbol after it.
 */
static int vlc_phy_fetch_symbol(struct vlc_phy *phy)
{
	u32 n = vlc_phy_ndata(phy->mode), k;
	int sym = VLC_SYM_IDLE;

	if (phy->client && phy->client->tx_symbol)
		sym = phy->client->tx_symbol(phy->client_ctx);
	if (sym < 0 || sym >= (int)n)
		sym = VLC_SYM_IDLE;
	phy->tx_sym = sym;
	if (sym >= 0)
		phy->stats.symbols_tx++;

	for (k = 0; k < n; k++)
		phy->slot[2 + 2 * k].on = sym == (int)k;
	return sym;
}

/* The illumination part after the measured one: its on-time @on (IA and
 * IB together) and its dark ID part @dark, for the frame's symbol @sym.
 */
static void vlc_phy_split_light(const struct vlc_phy *phy, int sym, u32 *on,
				u32 *dark)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 illum, target, light;

	/* Light of the whole period = setting; data light counts in it. */
	illum = tm->frame_ns - phy->meas_ns;
	target = div_u64((u64)phy->brightness * tm->frame_ns, 1000);
	light = sym >= 0 ? tm->data_ns : 0;
	*on = target > light ? min(target - light, illum) : 0;
	*dark = illum - *on;
}

/* The part of the pending phase correction that the frame starting at
 * @t makes, in ns added to its dark ID part of @dark ns.
 */
static s32 vlc_phy_phase_step(struct vlc_phy *phy, u64 t, u32 dark)
{
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 shrink;
	s32 adj;

	/* Phase moves only the dark ID part, never the on-time. While a
	 * coarse correction is due it is made in one frame: a delay as it
	 * is, an advance by shrinking ID if it can, else as the equivalent
	 * delay of frame_ns minus the advance.
	 */
	if (phy->phase_pending && vlc_phy_acq_coarse_due(phy)) {
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
		phy->settle_ns = t + 2 * (u64)tm->frame_ns + adj;
		vlc_phy_acq_drop_report(phy);
	}
	return adj;
}

/* The dark ID part, @dark ns stretched by the phase step @adj. While
 * acquiring, our dark ID is measured too, in windows short enough for a
 * neighbour's pulse to cover some wholly.
 */
static void vlc_phy_layout_id(struct vlc_phy *phy, u32 *off, u32 dark,
			      s32 adj)
{
	u32 m = vlc_phy_acq_id_windows(phy, phy->nslots, dark, adj), len, k;

	if (!m) {
		vlc_phy_add_slot(phy, off, VLC_PHY_SLOT_ID, dark + adj,
				 false, false);
		return;
	}
	len = dark / m;
	for (k = 0; k + 1 < m; k++)
		vlc_phy_add_slot(phy, off, VLC_PHY_SLOT_ID_WIN, len, false,
				 true);
	vlc_phy_add_slot(phy, off, VLC_PHY_SLOT_ID_WIN, dark - (m - 1) * len,
			 false, true);
}

/* Start a frame at absolute time @t: apply pending settings, fetch the
 * symbol, and lay out the slot table: the measured part as laid out,
 * then IA, ID and IB.
 */
static void vlc_phy_frame_begin(struct vlc_phy *phy, u64 t)
{
	u32 off, on, dark;
	s32 adj;
	int sym;

	vlc_phy_apply_settings(phy);

	phy->frame_start = t;
	phy->frame_flags = 0;
	phy->decoded = false;
	phy->cur = 0;
	phy->nslots = 0;

	sym = vlc_phy_fetch_symbol(phy);
	phy->nslots = phy->nmeas;
	off = phy->meas_ns;
	vlc_phy_split_light(phy, sym, &on, &dark);
	adj = vlc_phy_phase_step(phy, t, dark);

	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IA, on / 2, true, false);
	vlc_phy_layout_id(phy, &off, dark, adj);
	vlc_phy_add_slot(phy, &off, VLC_PHY_SLOT_IB, on - on / 2, true, false);
}

/* Emit and measure for the slot that starts now. */
static inline void vlc_phy_slot_pins(struct vlc_phy *phy, u64 now, u64 end)
{
	const struct vlc_phy_slot *s = &phy->slot[phy->cur];

	if (s->on != phy->led) {
		phy->pins->emit(phy->pin_ctx, s->on, now);
		phy->led = s->on;
	}
	if (phy->cur < phy->nmeas || s->kind == VLC_PHY_SLOT_ID_WIN) {
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
	vlc_phy_acq_start(phy);
	phy->acq_busy = false;
	vlc_phy_frame_begin(phy, now_ns);
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
			phy->acq_busy |= vlc_phy_acq_window_end(phy,
								now_ns > t + tol);
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
			vlc_phy_frame_begin(phy, t);
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
		if (s->kind == VLC_PHY_SLOT_ID_WIN)
			vlc_phy_acq_id_late(phy);
	}

	vlc_phy_slot_pins(phy, now_ns, end);

	if (phy->acq_busy)
		phy->acq_busy = vlc_phy_acq_tick(phy);

	/* Decoding after the pins keeps the slot edge on time. */
	if (!phy->decoded && phy->cur >= phy->nmeas)
		vlc_phy_frame_rx(phy);
	return phy->next_ns;
}
