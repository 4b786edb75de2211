// SPDX-License-Identifier: GPL-2.0
/* The host simulator: the VLC PHY tests' and benches' optical medium.
 *
 * Each node is a PHY whose fake pins record the LED timeline and answer a
 * receive window with what the light model (vlc_light.h) says it reads:
 * the neighbours' light, ambient DC and 100/120 Hz mains flicker, and
 * Gaussian noise (rms noise over noise_ref_ns). A node may sense with its
 * own LED instead, as vlc_sim does. Everything is integer and seeded, so
 * a run is the same under KUnit and on the host.
 */

#include <linux/types.h>
#include <linux/math.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "vlc_hsim.h"

#ifdef __KERNEL__
#include <linux/sched.h>
#define vlc_hsim_yield()	cond_resched()
#else
#define vlc_hsim_yield()	do { } while (0)
#endif

/* splitmix64: tiny, good enough and the same everywhere */
u64 vlc_hsim_rand(struct vlc_hsim *ch)
{
	u64 z = (ch->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 vlc_hsim_rand_below(struct vlc_hsim *ch, u32 n)
{
	return (u32)(((vlc_hsim_rand(ch) >> 32) * n) >> 32);
}

/* Irwin-Hall: the sum of 12 uniforms has unit variance; Q16 result. */
s64 vlc_hsim_gauss_q16(struct vlc_hsim *ch)
{
	s64 s = 0;
	int i;

	for (i = 0; i < 12; i++)
		s += (s64)(vlc_hsim_rand(ch) >> 48);
	return s - 393210;	/* 12 * 65535 / 2 */
}

u64 vlc_hsim_on_ns(const struct vlc_hsim_node *n, u64 t)
{
	return n->on_total + (n->led ? t - n->on_since : 0);
}

/* How long the LED of @n was on within [a, b). */
u64 vlc_hsim_lit_ns(const struct vlc_hsim_node *n, u64 a, u64 b)
{
	u32 i, first = (n->ev_head + VLC_HSIM_RING - n->ev_count) %
		       VLC_HSIM_RING;
	bool on = n->ev_base;
	u64 cur = a, lit = 0;

	for (i = 0; i < n->ev_count; i++) {
		u32 k = (first + i) % VLC_HSIM_RING;
		u64 t = n->ev_t[k];

		if (t >= b)
			break;
		if (t > cur) {
			if (on)
				lit += t - cur;
			cur = t;
		}
		on = n->ev_on[k];
	}
	if (on && b > cur)
		lit += b - cur;
	return lit;
}

static void vlc_hsim_pin_call(struct vlc_hsim_node *n, u64 t)
{
	n->pin_calls++;
	n->pin_min_t = min(n->pin_min_t, t);
}

static void vlc_hsim_emit(void *ctx, bool on, u64 t)
{
	struct vlc_hsim_node *n = ctx;

	vlc_hsim_pin_call(n, t);
	if (on == n->led)
		return;
	if (n->ev_count == VLC_HSIM_RING) {
		n->ev_base = n->ev_on[(n->ev_head + VLC_HSIM_RING -
				       n->ev_count) % VLC_HSIM_RING];
		n->ev_count--;
	}
	n->ev_t[n->ev_head] = t;
	n->ev_on[n->ev_head] = on;
	n->ev_head = (n->ev_head + 1) % VLC_HSIM_RING;
	n->ev_count++;
	if (on)
		n->on_since = t;
	else
		n->on_total += t - n->on_since;
	n->led = on;
}

static void vlc_hsim_rx_begin(void *ctx, u64 t)
{
	struct vlc_hsim_node *n = ctx;

	vlc_hsim_pin_call(n, t);
	n->rx_t0 = t;
	n->rx_open = true;
}

static u32 vlc_hsim_rx_end(void *ctx, u64 t)
{
	struct vlc_hsim_node *n = ctx;
	struct vlc_hsim *ch = n->chan;
	u64 a = n->rx_t0, len = t - a, light = 0;
	s64 v, sigma;
	int i;

	vlc_hsim_pin_call(n, t);
	n->rx_open = false;
	if (!len)
		return ch->ambient;
	for (i = 0; i < VLC_HSIM_NODES; i++) {
		const struct vlc_hsim_node *s = &ch->node[i];

		if (s->active && ch->gain[i][n->idx])
			light += (u64)ch->gain[i][n->idx] *
				 vlc_hsim_lit_ns(s, a, t);
	}
	v = div64_u64(light, len) + (s64)ch->ambient +
	    vlc_light_flicker_mean(ch->flicker100, 100, a, t) +
	    vlc_light_flicker_mean(ch->flicker120, 120, a, t);
	if (n->led_rx)
		v = vlc_light_led_sense(v, vlc_hsim_lit_ns(n, a, t), len);
	if (ch->noise) {
		sigma = vlc_light_noise_rms(ch->noise, ch->noise_ref_ns, len);
		v += (sigma * vlc_hsim_gauss_q16(ch)) >> 16;
	}
	return clamp_t(s64, v, 0, U32_MAX);
}

static const struct vlc_pin_ops vlc_hsim_pins = {
	.emit = vlc_hsim_emit,
	.rx_begin = vlc_hsim_rx_begin,
	.rx_end = vlc_hsim_rx_end,
};

/* The LED itself: the PHY leaves the windows in which it emits dark. */
static const struct vlc_pin_ops vlc_hsim_pins_led = {
	.emit = vlc_hsim_emit,
	.rx_begin = vlc_hsim_rx_begin,
	.rx_end = vlc_hsim_rx_end,
	.shared_led = true,
};

static int vlc_hsim_tx_symbol(void *ctx)
{
	struct vlc_hsim_node *n = ctx;
	struct vlc_hsim *ch = n->chan;
	u32 nsym = 1U << vlc_phy_bits(n->phy.mode);
	u64 now = ch->now;
	int sym = VLC_SYM_IDLE;

	/* the first call reports an empty frame, to show the settings */
	if (ch->on_frame)
		ch->on_frame(ch, n, n->tx_frames ?
			     n->sent[(n->tx_frames - 1) % VLC_HSIM_SENT] :
			     VLC_SYM_IDLE,
			     n->tx_frames ?
			     vlc_hsim_on_ns(n, now) - n->fr_on_mark : 0,
			     n->tx_frames ? now - n->fr_start : 0);
	n->fr_start = now;
	n->fr_on_mark = vlc_hsim_on_ns(n, now);

	switch (n->tx) {
	case VLC_HSIM_TX_IDLE:
		break;
	case VLC_HSIM_TX_SEQ:
		if (n->seq_pos < n->seq_len)
			sym = n->seq[n->seq_pos++];
		break;
	case VLC_HSIM_TX_RANDOM:
		if (vlc_hsim_rand_below(ch, 256) >= n->idle_per256)
			sym = vlc_hsim_rand_below(ch, nsym);
		break;
	case VLC_HSIM_TX_MIRROR: {
		const struct vlc_hsim_node *m = &ch->node[n->mirror];

		if (m->tx_frames)
			sym = m->sent[(m->tx_frames - 1) % VLC_HSIM_SENT];
		if (sym >= 0)
			sym ^= nsym >> 1;	/* D1<->D2, or D1<->D3 */
		break;
	}
	}
	n->sent[n->tx_frames % VLC_HSIM_SENT] = sym;
	n->tx_frames++;
	return sym;
}

/* The MAC's resync loop, run as the MAC runs it (vlc_mac_rx.c): frames
 * we emitted in are not heard.
 */
static void vlc_hsim_resync(struct vlc_hsim_node *n,
			    const struct vlc_phy_rx *rx)
{
	s32 move;

	if (n->resync != VLC_HSIM_RESYNC_MAC)
		return;
	move = vlc_sync_frame(&n->sync, rx, !(rx->flags & VLC_PHY_RX_OWN_TX),
			      VLC_HSIM_RESYNC_DEADBAND);
	if (!move)
		return;
	vlc_phy_adjust_phase(&n->phy, move);
	if (rx->acquiring)
		n->rs_coarse++;
	else
		n->rs_fine++;
}

static void vlc_hsim_rx_frame(void *ctx, const struct vlc_phy_rx *rx)
{
	struct vlc_hsim_node *n = ctx;
	struct vlc_hsim_score *sc = &n->score;
	const struct vlc_hsim_node *r;
	int sent = VLC_SYM_IDLE;
	u32 k;

	vlc_hsim_resync(n, rx);
	if (n->log && rx->sym >= 0 && n->log_n < n->log_len)
		n->log[n->log_n++] = rx->sym;
	else if (n->log && rx->sym == VLC_SYM_ERASURE)
		n->log_erasures++;
	if (n->chan->on_rx)
		n->chan->on_rx(n->chan, n, rx);

	/* frames lost to an overrun still count, to stay aligned */
	n->rx_frames += rx->skipped;
	k = n->rx_frames++;

	if (k < n->score_from || n->ref < 0)
		return;
	r = &n->chan->node[n->ref];
	if (r->tx_frames > k && r->tx_frames - k <= VLC_HSIM_SENT)
		sent = r->sent[k % VLC_HSIM_SENT];

	sc->frames++;
	sc->sync[rx->sync]++;
	if (rx->sync == VLC_PHY_SYNC_EARLY || rx->sync == VLC_PHY_SYNC_LATE) {
		sc->offset_sum += rx->offset_ns;
		sc->offset_min = min(sc->offset_min, rx->offset_ns);
		sc->offset_max = max(sc->offset_max, rx->offset_ns);
	}
	if (rx->sym == VLC_SYM_ERASURE) {
		sc->erasures++;
	} else if (rx->sym == VLC_SYM_IDLE) {
		if (sent >= 0)
			sc->missed++;
		else
			sc->idle++;
	} else if (rx->sym == sent) {
		sc->correct++;
		sc->min_margin = min(sc->min_margin, rx->margin);
	} else {
		sc->wrong++;
	}
}

static bool vlc_hsim_set_bits(void *ctx, unsigned int bits)
{
	struct vlc_hsim_node *n = ctx;

	if (n->hold_mode)
		return false;
	n->bits = bits;
	return true;
}

static const struct vlc_phy_client_ops vlc_hsim_client = {
	.tx_symbol = vlc_hsim_tx_symbol,
	.rx_frame = vlc_hsim_rx_frame,
	.set_bits = vlc_hsim_set_bits,
};

void vlc_hsim_score_reset(struct vlc_hsim_node *n)
{
	n->score = (struct vlc_hsim_score){
		.min_margin = U32_MAX,
		.offset_min = S32_MAX,
		.offset_max = S32_MIN,
	};
	n->score_from = n->rx_frames;
}

/* Where the frame grid of node @b sits in that of node @a, in
 * (-frame_ns / 2, frame_ns / 2]: positive when @b is late.
 */
s32 vlc_hsim_offset(const struct vlc_hsim *ch, int a, int b)
{
	const struct vlc_phy *pa = &ch->node[a].phy, *pb = &ch->node[b].phy;
	u32 fns = pa->timing.frame_ns, rem;
	u64 fa = vlc_phy_frame_start(pa), fb = vlc_phy_frame_start(pb);
	s32 d;

	if (fb >= fa) {
		div_u64_rem(fb - fa, fns, &rem);
		d = rem;
	} else {
		div_u64_rem(fa - fb, fns, &rem);
		d = -(s32)rem;
	}
	if (d > (s32)(fns / 2))
		d -= fns;
	else if (d <= -(s32)(fns / 2))
		d += fns;
	return d;
}

void vlc_hsim_init(struct vlc_hsim *ch, u64 seed)
{
	int i;

	*ch = (struct vlc_hsim){
		.rng = seed,
		.noise_ref_ns = 50000,
	};
	for (i = 0; i < VLC_HSIM_NODES; i++)
		vlc_hsim_node_init(ch, i);
}

void vlc_hsim_node_init(struct vlc_hsim *ch, int idx)
{
	struct vlc_hsim_node *n = &ch->node[idx];

	*n = (struct vlc_hsim_node){
		.chan = ch,
		.idx = idx,
		.ref = -1,
		.score.min_margin = U32_MAX,
	};
	vlc_phy_init(&n->phy, &vlc_hsim_pins, n, &vlc_hsim_client, n);
}

/* Sense with the node's LED; before vlc_hsim_start(). */
void vlc_hsim_set_led_rx(struct vlc_hsim *ch, int idx)
{
	struct vlc_hsim_node *n = &ch->node[idx];

	n->led_rx = true;
	n->phy.pins = &vlc_hsim_pins_led;
}

void vlc_hsim_start(struct vlc_hsim *ch, int idx, u64 t_ns)
{
	struct vlc_hsim_node *n = &ch->node[idx];

	n->active = true;
	ch->now = t_ns;
	vlc_phy_set_acq_defer(&n->phy, n->defer_ticks > 0);
	vlc_phy_start(&n->phy, t_ns);
}

/* The worker of a deferred search: the search runs at once (it uses only
 * the frame it took), its outcome reaches the PHY defer_ticks later.
 */
static void vlc_hsim_defer(struct vlc_hsim_node *n)
{
	struct vlc_phy *phy = &n->phy;

	if (vlc_phy_acq_in_tick(phy))
		n->tick_search++;
	if (n->defer_left && !--n->defer_left)
		vlc_phy_acq_end(phy);
	if (!n->defer_left && vlc_phy_acq_begin(phy)) {
		vlc_phy_acq_search(phy);
		n->searches++;
		n->defer_left = n->defer_ticks;
	}
}

/* Run the earliest pending tick; on ties the lower node index first. */
bool vlc_hsim_step(struct vlc_hsim *ch)
{
	struct vlc_hsim_node *n = NULL;
	u64 now;
	int i;

	/* Cases run for seconds under KASAN in a TCG guest: let RCU and
	 * the rest of a non-preemptible kernel through.
	 */
	if (!(++ch->steps & 1023))
		vlc_hsim_yield();

	for (i = 0; i < VLC_HSIM_NODES; i++) {
		struct vlc_hsim_node *c = &ch->node[i];

		if (c->active && (!n || vlc_phy_next_ns(&c->phy) <
				  vlc_phy_next_ns(&n->phy)))
			n = c;
	}
	if (!n)
		return false;
	now = vlc_phy_next_ns(&n->phy) + n->late_ns;
	n->late_ns = 0;
	n->pin_calls = 0;
	n->pin_min_t = U64_MAX;
	ch->now = now;
	vlc_phy_tick(&n->phy, now);
	if (n->defer_ticks)
		vlc_hsim_defer(n);
	return true;
}

void vlc_hsim_run_until(struct vlc_hsim *ch, u64 t_ns)
{
	int i;

	for (;;) {
		bool due = false;

		for (i = 0; i < VLC_HSIM_NODES; i++)
			if (ch->node[i].active &&
			    vlc_phy_next_ns(&ch->node[i].phy) <= t_ns)
				due = true;
		if (!due || !vlc_hsim_step(ch))
			return;
	}
}

/* Run until node @idx has delivered @frames more received frames. */
void vlc_hsim_run_frames(struct vlc_hsim *ch, int idx, u32 frames)
{
	u32 end = ch->node[idx].rx_frames + frames;

	while (ch->node[idx].rx_frames < end)
		if (!vlc_hsim_step(ch))
			return;
}
