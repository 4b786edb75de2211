// SPDX-License-Identifier: GPL-2.0
/* link_bench's link: the two nodes on the host simulator, PHY and MAC,
 * their medium, the timer-lateness model that delays their callbacks,
 * and the set-up and lock every section of link_bench starts from
 * (link_bench.c says what the sections measure and what "lock" means).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_bench.h"

struct vlc_hsim ch;
struct lnode ln[2];

struct lb_medium lb_med = {
	.gain = SIG,
	.ambient = 5 * SIG,
	.flicker = SIG,
	.noise = SIG / 100,
	.rx_min = SIG / 10,
	.rx = LB_RX_PD,
};

u32 lb_frame_ns;		/* mac_pair()'s frame, 0: the default */
u32 lb_guard_ns;		/* its guards and tolerance, 0: scaled */
u32 lb_delivered;		/* Ethernet frames lb_mac_ops delivered */
struct jitter jit;
u64 jrng;
void (*lb_tick0)(void);

u64 splitmix(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 below(u64 *s, u32 n)
{
	return (u32)(((splitmix(s) >> 32) * n) >> 32);
}

/* Exponential, mean jit.a: 53 random bits, never log(0). */
static u64 jit_exp(void)
{
	return (u64)(-(double)jit.a *
		     log(((splitmix(&jrng) >> 11) + 1) / 9007199254740992.0));
}

/* The lateness of node @idx's callback due at @t. */
static u64 jit_draw(int idx, u64 t)
{
	switch (jit.kind) {
	case JIT_CONST:
		return idx ? 0 : jit.a;
	case JIT_UNIF:
		return below(&jrng, jit.a + 1);
	case JIT_MODEL:
		if (jit.p && below(&jrng, 1000000) < jit.p)
			return below(&jrng, jit.t + 1);
		return jit_exp();
	case JIT_BURST:
		/* a tail event holds the CPU for a while: every callback
		 * due within the run is late, not only the one that drew it
		 */
		if (t < jit.end[idx])
			return below(&jrng, jit.t + 1);
		if (jit.p && below(&jrng, 1000000) < jit.p) {
			jit.end[idx] = t + jit.len;
			return below(&jrng, jit.t + 1);
		}
		return jit_exp();
	default:
		return 0;
	}
}

int jit_parse(const char *s)
{
	memset(&jit, 0, sizeof(jit));
	if (!strcmp(s, "none"))
		return 0;
	if (sscanf(s, "const:%u", &jit.a) == 1) {
		jit.kind = JIT_CONST;
		return 0;
	}
	if (sscanf(s, "unif:%u", &jit.a) == 1) {
		jit.kind = JIT_UNIF;
		return 0;
	}
	if (sscanf(s, "model:%u:%u:%u", &jit.a, &jit.p, &jit.t) == 3) {
		jit.kind = JIT_MODEL;
		return 0;
	}
	if (sscanf(s, "burst:%u:%u:%u:%u", &jit.a, &jit.p, &jit.t,
		   &jit.len) == 4) {
		jit.kind = JIT_BURST;
		return 0;
	}
	return -1;
}

/* The worker of a deferred search, as vlc_hsim.c runs it. */
static void lb_defer(struct lnode *l)
{
	struct vlc_phy *phy = &l->cn->phy;

	if (l->defer_left && !--l->defer_left)
		vlc_phy_acq_end(phy);
	if (!l->defer_left && vlc_phy_acq_begin(phy)) {
		vlc_phy_acq_search(phy);
		l->defer_left = l->defer_ticks;
	}
}

/* Run the earliest tick in real (late) time, so that a window closed
 * late still sees every emission before its end; draw the next lateness.
 */
static void lb_step(void)
{
	struct lnode *l = NULL;
	u64 now, best = U64_MAX;
	int i;

	for (i = 0; i < 2; i++) {
		struct lnode *c = &ln[i];
		u64 t;

		if (!c->cn->active)
			continue;
		t = vlc_phy_next_ns(&c->cn->phy) + c->late;
		if (t < best) {
			best = t;
			l = c;
		}
	}
	now = best;
	ch.now = now;
	vlc_phy_tick(&l->cn->phy, now);
	if (l->defer_ticks)
		lb_defer(l);
	if (lb_tick0 && !l->cn->idx)
		lb_tick0();
	l->late = jit_draw(l->cn->idx, vlc_phy_next_ns(&l->cn->phy));
	if (l->late)
		l->late_calls++;
}

void lb_run_frames(u32 frames, u32 (*count)(void))
{
	u32 end = count() + frames;

	while (count() < end)
		lb_step();
}

/* ---- PHY driven by the real MAC ------------------------------------ */

int lb_tx_symbol(void *ctx)
{
	struct lnode *l = ctx;

	return vlc_mac_tx_symbol(&l->mac);
}

void lb_rx_frame(void *ctx, const struct vlc_phy_rx *rx)
{
	struct lnode *l = ctx;

	l->frames += 1 + rx->skipped;
	if (l->counting && rx->sync == VLC_PHY_SYNC_NONE)
		l->carrier_losses++;
	vlc_mac_rx_frame(&l->mac, rx);
}

static const struct vlc_phy_client_ops lb_client = {
	.tx_symbol = lb_tx_symbol,
	.rx_frame = lb_rx_frame,
};

static void lb_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	lb_delivered++;
}

static void lb_tx_done(void *ctx, unsigned int len, bool ok) { }

void lb_phase(void *ctx, s32 ns)
{
	struct lnode *l = ctx;

	vlc_phy_adjust_phase(&l->cn->phy, ns);
}

u32 lb_random(void *ctx)
{
	return (u32)(vlc_hsim_rand(&ch) >> 32);
}

static const struct vlc_mac_ops lb_mac_ops = {
	.deliver = lb_deliver,
	.tx_done = lb_tx_done,
	.phase = lb_phase,
	.random = lb_random,
};

/* The MAC callbacks of mac_pair()'s nodes. */
const struct vlc_mac_ops *lb_ops = &lb_mac_ops;

/* Default timing with every slot scaled by @num / @den and the clock
 * @ppm fast (its slots that much shorter in true time).
 */
struct vlc_phy_timing lb_timing(u64 num, u64 den, s32 ppm)
{
	const struct vlc_phy_timing *d = &vlc_phy_default_timing;
	u64 n = num * 1000000, q = den * (u64)(1000000 + ppm);
	struct vlc_phy_timing t = {
		.sync_ns = (d->sync_ns * n + q / 2) / q,
		.guard_ns = (d->guard_ns * n + q / 2) / q,
		.data_ns = (d->data_ns * n + q / 2) / q,
		.frame_ns = (d->frame_ns * n + q / 2) / q,
		.tolerance_ns = (d->tolerance_ns * n + q / 2) / q,
	};

	return t;
}

u32 frames1(void)
{
	return ln[1].frames;
}

/* Both nodes on the host simulator, on the medium lb_med (by default:
 * each sees the other at SIG, ambient 5 SIG with 100 Hz flicker of SIG,
 * SNR 100 on a data slot, photodiodes).
 */
int mac_pair(u64 seed, s32 ppm, u32 defer, u32 *off)
{
	const struct lb_medium *m = &lb_med;
	/* a second LED senses a fraction of every light, as the light
	 * model's LED does, but is never blind: the light scaled down at a
	 * photodiode's pins, to the nearest unit
	 */
	u32 div = m->rx == LB_RX_LED2 ? VLC_LIGHT_LED_DIV : 1;
	struct vlc_mac_params p;
	enum vlc_refusal why;
	int i;

	vlc_hsim_init(&ch, seed);
	memset(ln, 0, sizeof(ln));
	ch.gain[0][1] = (m->gain + div / 2) / div;
	ch.gain[1][0] = (m->gain + div / 2) / div;
	ch.ambient = (m->ambient + div / 2) / div;
	ch.flicker100 = (m->flicker + div / 2) / div;
	ch.noise = m->noise;
	ch.noise_ref_ns = vlc_phy_default_timing.data_ns;
	for (i = 0; i < 2; i++) {
		struct lnode *l = &ln[i];
		struct vlc_hsim_node *cn = &ch.node[i];
		struct vlc_phy_timing t = lb_frame_ns ?
			lb_timing(lb_frame_ns,
				  vlc_phy_default_timing.frame_ns,
				  i ? ppm : 0) :
			lb_timing(1, 1, i ? ppm : 0);

		if (lb_guard_ns) {
			t.guard_ns = lb_guard_ns;
			t.tolerance_ns = lb_guard_ns;
		}

		if (m->rx == LB_RX_LED)
			vlc_hsim_set_led_rx(&ch, i);
		l->cn = cn;
		l->defer_ticks = defer;
		vlc_phy_init(&cn->phy, cn->phy.pins, cn, &lb_client, l);
		if (vlc_phy_set_timing(&cn->phy, &t, &why)) {
			fprintf(stderr, "link_bench: %s\n",
				vlc_refusal_msg(why));
			return -1;
		}
		vlc_phy_set_rx_min_level(&cn->phy, m->rx_min);
		vlc_mac_default_params(&p);
		p.short_addr = i + 1;
		vlc_mac_init(&l->mac, &p, lb_ops, l);
		cn->defer_ticks = defer;
	}
	jrng = seed ^ 0x5eed;
	*off = below(&jrng, ch.node[0].phy.new_timing.frame_ns);
	vlc_hsim_start(&ch, 0, T0);
	while (vlc_phy_next_ns(&ch.node[0].phy) <= T0 + *off)
		lb_step();
	vlc_hsim_start(&ch, 1, T0 + *off);
	return 0;
}

static bool mac_locked(s32 tol)
{
	s32 d = vlc_hsim_offset(&ch, 0, 1);

	return ch.node[0].phy.locked && ch.node[1].phy.locked &&
	       d <= tol && d >= -tol;
}

/* Frames of node 1 until a lock that holds LOCK_HOLD frames, the grids
 * within @tol of each other meanwhile.
 */
u32 mac_lock(u32 max, s32 tol)
{
	u32 f, since = 0;

	for (f = 1; f <= max + LOCK_HOLD; f++) {
		lb_run_frames(1, frames1);
		if (!mac_locked(tol)) {
			since = 0;
			continue;
		}
		if (!since)
			since = f;
		if (f - since + 1 >= LOCK_HOLD)
			return since <= max ? since : max + 1;
	}
	return max + 1;
}
