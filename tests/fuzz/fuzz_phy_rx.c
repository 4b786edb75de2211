// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the PHY's receive path under any light and timing.
 *
 * PHYs run in virtual time on the host simulator
 * (tests/vlc_hsim.c): node 0 is the receiver under test, node 1 a
 * neighbour, node 2 an optional interferer that sends the opposite of
 * node 1's symbols. The input sets the channel (gain, ambient, noise,
 * flicker, start offset, timing, mode, brightness, resync, deferred
 * search) and a list of events injected between ticks: late ticks, any
 * measured level in place of the model's, phase corrections, settings
 * changed mid-run, a shared LED.
 *
 * Checked on every report (abort on violation): the symbol is idle,
 * erasure or a value of the frame's mode; bits is 1 or 2; acquiring
 * withholds symbols; a symbol has margin >= 1000; offset_ns has the sign
 * of sync and is within sync_ns once locked, within frame_ns / 2 while
 * acquiring; a late or overrun frame claims carrier; the counters add up
 * (frames = reports + skipped, symbols + idle + erasures = reports) and
 * never decrease. On the pins: windows open and close in turn, time never
 * goes back, a shared LED never measures while lit. On the ticks: the
 * next boundary is in the future and within two frames, and a frame
 * takes at most a bounded number of ticks (no hang).
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include "vlc_phy.h"
#include "vlc_hsim.h"
#include "fuzz.h"

#define NODES		VLC_HSIM_NODES
#define MAX_EVENTS	64
#define MAX_SEQ		256
#define TICKS_PER_FRAME	(2 * VLC_PHY_MAX_SLOTS)
#define MAX_STEPS	20000	/* ticks of all nodes per input */

enum {
	EV_LATE,	/* the next tick of the node is late by v * 64 ns */
	EV_LEVEL,	/* the next window reads v << 8 */
	EV_ADD,		/* the next window reads (s16)v * 16 more */
	EV_EXTREME,	/* the next v & 15 windows read 0 or U32_MAX */
	EV_PHASE,	/* vlc_phy_adjust_phase((s16)v * 64) */
	EV_BRIGHT,	/* brightness v % 1001 (refused: nothing) */
	EV_MODE,	/* the other mode */
	EV_TIMING,	/* timing table entry v */
	EV_FLICKER,	/* 100 and 120 Hz flicker amplitude v */
	EV_GAIN,	/* gain from node 1 */
	EV_NOISE,
	EV_MIN_LEVEL,	/* vlc_phy_set_rx_min_level(v << 4) */
	EV_COUNT
};

struct event {
	u32 tick;
	u8 kind, node;
	u16 v;
};

/* What each node's pins and reports looked like so far. */
struct watch {
	const struct vlc_pin_ops *orig;
	bool shared;
	bool led, open;
	u64 last_t;
	u32 extreme;		/* windows left to read 0 / U32_MAX */
	bool override, add;
	u32 level;
	s32 delta;
	u64 reports, frames;
	u32 ticks;		/* since the last report */
	u32 max_sync, max_frame;
	struct vlc_phy_stats stats;
};

static struct {
	struct vlc_hsim ch;
	struct watch w[NODES];
	struct event ev[MAX_EVENTS];
	u32 nev;
	u8 seq[MAX_SEQ];
} S;

static const struct vlc_phy_timing timings[] = {
	{ 40000, 20000, 50000, 500000, 20000 },		/* defaults */
	{ 2000, 1000, 2000, 30000, 500 },		/* fast */
	{ 1, 1, 1, 16, 0 },				/* tiny */
	{ 10000, 10000, 10000, 110000, 10000 },		/* no light in 4-PPM */
	{ 4000000, 2000000, 5000000, 100000000, 0 },	/* 100 ms */
};

#define NTIMINGS	ARRAY_SIZE(timings)

static void pin_time(struct watch *w, u64 t)
{
	FZ_CHECK(t >= w->last_t, "pin call at %llu after %llu",
		 (unsigned long long)t, (unsigned long long)w->last_t);
	w->last_t = t;
}

static void w_emit(void *ctx, bool on, u64 t)
{
	struct vlc_hsim_node *n = ctx;
	struct watch *w = &S.w[n->idx];

	pin_time(w, t);
	FZ_CHECK(!(w->shared && on && w->open),
		 "shared LED lit while measuring");
	w->led = on;
	w->orig->emit(ctx, on, t);
}

static void w_rx_begin(void *ctx, u64 t)
{
	struct vlc_hsim_node *n = ctx;
	struct watch *w = &S.w[n->idx];

	pin_time(w, t);
	FZ_CHECK(!w->open, "rx_begin while a window is open");
	FZ_CHECK(!(w->shared && w->led), "shared LED measures while lit");
	w->open = true;
	w->orig->rx_begin(ctx, t);
}

static u32 w_rx_end(void *ctx, u64 t)
{
	struct vlc_hsim_node *n = ctx;
	struct watch *w = &S.w[n->idx];
	u32 v;

	pin_time(w, t);
	FZ_CHECK(w->open, "rx_end without rx_begin");
	w->open = false;
	v = w->orig->rx_end(ctx, t);
	if (w->extreme) {
		v = w->extreme & 1 ? U32_MAX : 0;
		w->extreme--;
	} else if (w->override) {
		v = w->level;
		w->override = false;
	} else if (w->add) {
		v = clamp_t(s64, (s64)v + w->delta, 0, U32_MAX);
		w->add = false;
	}
	return v;
}

static const struct vlc_pin_ops w_pins = {
	.emit = w_emit,
	.rx_begin = w_rx_begin,
	.rx_end = w_rx_end,
};

static const struct vlc_pin_ops w_pins_shared = {
	.emit = w_emit,
	.rx_begin = w_rx_begin,
	.rx_end = w_rx_end,
	.shared_led = true,
};

static void on_rx(struct vlc_hsim *ch, struct vlc_hsim_node *n,
		  const struct vlc_phy_rx *rx)
{
	struct watch *w = &S.w[n->idx];
	const struct vlc_phy_stats *st = &n->phy.stats;
	u64 mag = rx->offset_ns < 0 ? -(s64)rx->offset_ns : rx->offset_ns;

	w->reports++;
	w->frames += 1 + (u64)rx->skipped;
	w->ticks = 0;
	FZ_CHECK(rx->bits == 1 || rx->bits == 2, "bits %u", rx->bits);
	FZ_CHECK(rx->sym == VLC_SYM_IDLE || rx->sym == VLC_SYM_ERASURE ||
		 (rx->sym >= 0 && rx->sym < 1 << rx->bits),
		 "symbol %d of %u bits", rx->sym, rx->bits);
	FZ_CHECK(rx->sync <= VLC_PHY_SYNC_LATE, "sync %d", rx->sync);
	FZ_CHECK(!(rx->acquiring && rx->sym >= 0),
		 "symbol %d while acquiring", rx->sym);
	FZ_CHECK(rx->sym < 0 || rx->margin >= 1000,
		 "symbol %d with margin %u", rx->sym, rx->margin);
	FZ_CHECK(rx->sync == VLC_PHY_SYNC_LATE ? rx->offset_ns >= 0 :
		 rx->sync == VLC_PHY_SYNC_EARLY ? rx->offset_ns <= 0 :
		 rx->offset_ns == 0,
		 "sync %d with offset %d", rx->sync, rx->offset_ns);
	if (rx->acquiring)
		FZ_CHECK(mag <= w->max_frame / 2 + 1,
			 "acquiring offset %d, frame_ns up to %u",
			 rx->offset_ns, w->max_frame);
	else
		FZ_CHECK(mag <= w->max_sync, "locked offset %d, sync_ns %u",
			 rx->offset_ns, w->max_sync);
	FZ_CHECK(!(rx->flags & ~0x1fU), "flags %#x", rx->flags);
	FZ_CHECK(!(rx->flags & VLC_PHY_RX_HARD) ||
		 (rx->hard >= 0 && rx->hard < (1 << rx->bits)),
		 "hard decision %d of %u bits", rx->hard, rx->bits);
	FZ_CHECK(!(rx->flags & VLC_PHY_RX_TX_ABORTED) ||
		 (rx->flags & VLC_PHY_RX_OWN_TX), "aborted, not own");
	FZ_CHECK(!(rx->flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN)) ||
		 rx->carrier, "unmeasured frame without carrier");
	FZ_CHECK(st->frames == w->frames, "frames %llu, reported %llu",
		 (unsigned long long)st->frames,
		 (unsigned long long)w->frames);
	FZ_CHECK(st->symbols_rx + st->idle + st->erasures == w->reports,
		 "symbols + idle + erasures != %llu reports",
		 (unsigned long long)w->reports);
}

static void stats_check(struct watch *w, const struct vlc_phy_stats *s)
{
	const u64 *x = (const u64 *)&w->stats, *y = (const u64 *)s;
	unsigned int i;

	for (i = 0; i < sizeof(*s) / sizeof(u64); i++)
		FZ_CHECK(y[i] >= x[i], "counter %u went from %llu to %llu", i,
			 (unsigned long long)x[i], (unsigned long long)y[i]);
	w->stats = *s;
}

/* Settings through the public setter; a refused one changes nothing. */
static void configure(struct vlc_hsim_node *n, const struct vlc_phy_timing *t,
		      enum vlc_phy_mode mode, u32 bright)
{
	struct watch *w = &S.w[n->idx];
	struct vlc_phy_timing ot, nt;
	enum vlc_phy_mode om, nm;
	enum vlc_refusal why = VLC_REFUSE_NONE;
	u32 ob, nb;

	vlc_phy_get_config(&n->phy, &ot, &om, &ob);
	if (vlc_phy_set_config(&n->phy, t, mode, bright, &why)) {
		FZ_CHECK(why, "refused without a reason");
		vlc_phy_get_config(&n->phy, &nt, &nm, &nb);
		FZ_CHECK(!memcmp(&ot, &nt, sizeof(ot)) && om == nm && ob == nb,
			 "refused settings changed something");
		return;
	}
	w->max_sync = max(w->max_sync, t->sync_ns);
	w->max_frame = max(w->max_frame, t->frame_ns);
}

static void event(const struct event *e)
{
	struct vlc_hsim_node *n = &S.ch.node[e->node];
	struct watch *w = &S.w[e->node];
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 b;

	vlc_phy_get_config(&n->phy, &t, &mode, &b);
	switch (e->kind) {
	case EV_LATE:
		n->late_ns = (u64)e->v * 64;
		break;
	case EV_LEVEL:
		w->override = true;
		w->level = (u32)e->v << 8;
		break;
	case EV_ADD:
		w->add = true;
		w->delta = (s16)e->v * 16;
		break;
	case EV_EXTREME:
		w->extreme = e->v & 15;
		break;
	case EV_PHASE:
		vlc_phy_adjust_phase(&n->phy, (s16)e->v * 64);
		break;
	case EV_BRIGHT:
		configure(n, &t, mode, e->v % 1001);
		break;
	case EV_MODE:
		configure(n, &t, !mode, b);
		break;
	case EV_TIMING:
		configure(n, &timings[e->v % NTIMINGS], mode, b);
		break;
	case EV_FLICKER:
		S.ch.flicker100 = e->v;
		S.ch.flicker120 = e->v >> 4;
		break;
	case EV_GAIN:
		S.ch.gain[1][e->node] = e->v;
		break;
	case EV_NOISE:
		S.ch.noise = e->v;
		break;
	case EV_MIN_LEVEL:
		vlc_phy_set_rx_min_level(&n->phy, (u32)e->v << 4);
		break;
	}
}

static void node_setup(int i, const struct vlc_phy_timing *t,
		       enum vlc_phy_mode mode, u32 bright, bool shared)
{
	struct vlc_hsim_node *n = &S.ch.node[i];
	struct watch *w = &S.w[i];
	u32 bmin, bmax;

	w->orig = n->phy.pins;
	w->shared = shared;
	vlc_phy_set_pins(&n->phy, shared ? &w_pins_shared : &w_pins);
	w->max_sync = vlc_phy_default_timing.sync_ns;
	w->max_frame = vlc_phy_default_timing.frame_ns;
	if (vlc_phy_timing_check(t, mode, NULL))
		t = &vlc_phy_default_timing;
	vlc_phy_brightness_range(t, mode, &bmin, &bmax);
	configure(n, t, mode, min(bright, bmax));
}

/* What the input sets before its events, in the order it is read. */
struct setup {
	u8 mode, bright, tsel, tx, resync, defer;
	u32 frames, seed;
	u16 gain, ambient, noise;
	u32 offset;
	struct vlc_phy_timing t0, t1;
	int nodes;
	u32 nseq;		/* symbols of node 1 in S.seq */
};

/* The whole input: the setup, the events, then node 1's symbols. */
static void read_input(struct fz *f, struct setup *u)
{
	u32 tick = 0, i, k;

	u->mode = fz_u8(f);
	u->bright = fz_u8(f);
	u->tsel = fz_u8(f);
	u->tx = fz_u8(f);
	u->resync = fz_u8(f);
	u->defer = fz_u8(f);
	u->frames = 4 + fz_u8(f) % 64;
	u->seed = fz_u8(f);
	u->gain = fz_u16(f);
	u->ambient = fz_u16(f);
	u->noise = fz_u16(f);
	u->offset = (u32)fz_u16(f) * 1000;
	u->nodes = u->mode & 8 ? 3 : 2;

	if (u->tsel % (NTIMINGS + 1) == NTIMINGS) {
		u->t0.sync_ns = fz_u32(f);
		u->t0.guard_ns = fz_u32(f);
		u->t0.data_ns = fz_u32(f);
		u->t0.frame_ns = fz_u32(f);
		u->t0.tolerance_ns = fz_u32(f);
	} else {
		u->t0 = timings[u->tsel % (NTIMINGS + 1)];
	}
	u->t1 = u->mode & 0x10 ? timings[(u->tsel + 1) % NTIMINGS] : u->t0;

	/* events, then the symbols node 1 sends */
	S.nev = fz_u8(f) % (MAX_EVENTS + 1);
	for (i = 0; i < S.nev; i++) {
		tick += fz_u8(f);
		S.ev[i].tick = tick;
		k = fz_u8(f);
		S.ev[i].kind = (k & 15) % EV_COUNT;
		S.ev[i].node = ((k >> 4) & 3) % u->nodes;
		S.ev[i].v = fz_u16(f);
	}
	for (i = 0; fz_left(f) && i < MAX_SEQ; i++)
		S.seq[i] = fz_u8(f);
	u->nseq = i;
}

/* The channel and its nodes as @u says, started at @t_start. */
static void chan_setup(struct setup *u, u64 t_start)
{
	struct vlc_hsim *ch = &S.ch;
	enum vlc_phy_mode m;
	u8 mode = u->mode;
	u32 b;

	vlc_hsim_init(ch, u->seed);
	ch->on_rx = on_rx;
	ch->ambient = u->ambient;
	ch->noise = u->noise;
	ch->gain[1][0] = u->gain;
	ch->gain[0][1] = u->gain;
	ch->gain[2][0] = u->gain / 2;
	ch->gain[1][2] = u->gain;
	node_setup(0, &u->t0, mode & 1, u->bright * 4, mode & 4);
	node_setup(1, &u->t1, (mode ^ (mode >> 1)) & 1, u->bright * 4, false);
	node_setup(2, &u->t0, mode & 1, u->bright * 4, false);
	ch->node[0].resync = u->resync & 1 ? VLC_HSIM_RESYNC_MAC :
					     VLC_HSIM_RESYNC_OFF;
	ch->node[1].resync = u->resync & 2 ? VLC_HSIM_RESYNC_MAC :
					     VLC_HSIM_RESYNC_OFF;
	ch->node[0].defer_ticks = u->defer & 3;
	ch->node[1].defer_ticks = (u->defer >> 4) & 3;
	ch->node[1].idle_per256 = u->tx & 0xfc;
	switch (u->tx & 3) {
	case 1:
		ch->node[1].tx = VLC_HSIM_TX_SEQ;
		ch->node[1].seq = S.seq;
		ch->node[1].seq_len = u->nseq;
		break;
	case 2:
		ch->node[1].tx = VLC_HSIM_TX_RANDOM;
		break;
	case 3:
		ch->node[1].tx = VLC_HSIM_TX_MIRROR;
		ch->node[1].mirror = 0;
		break;
	}
	ch->node[2].tx = VLC_HSIM_TX_MIRROR;
	ch->node[2].mirror = 1;
	ch->node[0].tx = VLC_HSIM_TX_RANDOM;
	ch->node[0].idle_per256 = 192 + (u->resync & 0x3c);

	/* the timings in use: refused raw ones left the defaults */
	vlc_phy_get_config(&ch->node[0].phy, &u->t0, &m, &b);
	vlc_phy_get_config(&ch->node[1].phy, &u->t1, &m, &b);
	vlc_hsim_start(ch, 0, t_start);
	vlc_hsim_start(ch, 1, t_start + u->offset % u->t1.frame_ns);
	if (u->nodes == 3)
		vlc_hsim_start(ch, 2, t_start + u->offset / 3 % u->t0.frame_ns);
}

/* Node 0 gets its frames unless a far faster neighbour takes the
 * frames (each may run a search); the next tick is the chan's:
 * earliest, lowest index first. Returns the ticks run.
 */
static u32 run_ticks(const struct setup *u)
{
	struct vlc_hsim *ch = &S.ch;
	u32 frames = u->frames, tick, i, k = 0;
	int nodes = u->nodes;
	u64 now, next;

	for (tick = 0; tick < MAX_STEPS && S.w[0].reports < frames &&
	     S.w[1].reports + S.w[2].reports < 2 * frames + 8; tick++) {
		struct watch *w;
		int due = -1;

		while (k < S.nev && S.ev[k].tick <= tick)
			event(&S.ev[k++]);
		for (i = 0; i < (u32)nodes; i++)
			if (due < 0 || vlc_phy_next_ns(&ch->node[i].phy) <
			    vlc_phy_next_ns(&ch->node[due].phy))
				due = i;
		w = &S.w[due];
		FZ_CHECK(vlc_hsim_step(ch), "no node to run");
		FZ_CHECK(++w->ticks <= TICKS_PER_FRAME,
			 "node %d: %u ticks without a report", due, w->ticks);
		/* a late tick of one node may pass the others' boundaries */
		now = ch->now;
		next = vlc_phy_next_ns(&ch->node[due].phy);
		FZ_CHECK(next > now && next - now <= 2 * (u64)w->max_frame,
			 "node %d: next boundary %llu at %llu", due,
			 (unsigned long long)next, (unsigned long long)now);
		for (i = 0; i < (u32)nodes; i++)
			stats_check(&S.w[i], &ch->node[i].phy.stats);
	}
	/* a late tick of a node may have run ahead of the others */
	for (i = 0; i < (u32)nodes; i++)
		vlc_phy_stop(&ch->node[i].phy, max(ch->now, S.w[i].last_t));
	return tick;
}

int fz_one_input(const u8 *data, size_t size)
{
	struct fz f = { data, size };
	const struct vlc_phy_stats *st;
	struct setup u;
	u32 tick;

	memset(&S, 0, sizeof(S));
	read_input(&f, &u);
	chan_setup(&u, 1000000000ULL);
	tick = run_ticks(&u);
	st = &S.ch.node[0].phy.stats;
	if (fz_verbose())
		fprintf(stderr,
			"frames %llu ticks %u sym %llu era %llu idle %llu late %llu overruns %llu coarse %llu locks %llu lost %llu\n",
			(unsigned long long)S.w[0].reports, tick,
			(unsigned long long)st->symbols_rx,
			(unsigned long long)st->erasures,
			(unsigned long long)st->idle,
			(unsigned long long)st->late,
			(unsigned long long)st->overruns,
			(unsigned long long)st->acq_coarse,
			(unsigned long long)st->acq_locks,
			(unsigned long long)st->acq_lost);
	return 0;
}
