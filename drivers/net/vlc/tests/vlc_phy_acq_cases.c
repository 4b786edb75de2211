// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC PHY core's cold-start acquisition: sweeps of
 * starting offsets (in the tick, deferred, at small levels), a neighbour
 * hidden behind our own pulse, and false locks found by the fuzzer.
 * Suite "vlc_phy_acq", written once and included by the KUnit wrapper
 * (vlc_phy_kunit.c) and the host cmocka runner
 * (tests/host/vlc_phy_test.c); the table at the end lists them for both.
 * The channel they run on is vlc_phy_cases.h.
 */

#include "vlc_phy_cases.h"

/* ---- 8. cold-start acquisition ------------------------------------- */

/* The sweep is 640 runs on the host; a KASAN kernel in QEMU takes a
 * quarter of it, within KUnit's time limit.
 */
#ifdef __KERNEL__
#define VLC_TEST_ACQ_OFFSETS	8
#else
#define VLC_TEST_ACQ_OFFSETS	32
#endif
#define VLC_TEST_ACQ_LOCK	64	/* frames to lock, at most */
#define VLC_TEST_ACQ_HOLD	32	/* ... and lock held this long after */
#define VLC_TEST_ACQ_TOL	5000	/* ns, locked offset: guard / 4 */
#define VLC_TEST_ACQ_SNR	100	/* fine sync resolves ~2 us here */
#define VLC_TEST_ACQ_MISS_PCT	10	/* both correcting: runs not locked */
#define VLC_TEST_ACQ_BYTES	16
#define VLC_TEST_ACQ_PREAMBLE	16	/* symbols */
#define VLC_TEST_ACQ_GAP	4	/* idle frames after it */
#define A0			0
#define A1			1

struct vlc_test_acq_cfg {
	enum vlc_phy_mode mode;
	u32 brightness;
	/* 0: SIG, SNR VLC_TEST_ACQ_SNR, photodiodes; else this signal,
	 * this rms noise, and @led: both sense with their LED
	 */
	u32 sig;
	u32 noise;
	bool led;
};

struct vlc_test_acq_res {
	u32 runs, fails;
	u32 lock_max, lock_sum;	/* over the runs that locked */
	u32 coarse;
};

static bool vlc_test_within(s64 v, s64 tol)
{
	return v <= tol && v >= -tol;
}

/* Truly within tol, and each PHY fine-locked reporting a small offset,
 * or so well aligned from the start that the other's light hides in its
 * own on-time: it never saw anything (sync NONE, no coarse report).
 */
static bool vlc_test_acq_locked(struct vlc_hsim *ch)
{
	u32 locked = 0, none = 0;
	int i;

	if (!vlc_test_within(vlc_hsim_offset(ch, A0, A1), VLC_TEST_ACQ_TOL))
		return false;
	for (i = A0; i <= A1; i++) {
		const struct vlc_phy *p = &ch->node[i].phy;
		const struct vlc_phy_rx *rx = &p->last_rx;

		if (p->locked && !rx->acquiring &&
		    rx->sync != VLC_PHY_SYNC_NONE &&
		    vlc_test_within(rx->offset_ns, VLC_TEST_ACQ_TOL))
			locked++;
		else if (!p->locked && rx->sync == VLC_PHY_SYNC_NONE &&
			 !p->stats.acq_coarse)
			none++;
	}
	return locked + none == 2;
}

/* Ticks a deferred search takes, 0 for a search in the tick. */
static u32 vlc_test_acq_defer;

/* How the last run ended, for the log. */
static struct {
	s32 offset;
	bool locked[2];
	int sync[2];
	s32 off[2];
	u32 got, want, erasures;
} vlc_test_acq_end;

/* One cold start: node A1 starts @off ns into the frame of node A0.
 * @data: A1 sends random symbols meanwhile (A0 stays idle); @both: both
 * emulated MACs correct, else only A0. Returns frames to a lasting lock
 * (counted on A1, which starts last) or U32_MAX, after checking that a
 * byte sequence then goes through without a single error.
 */
static u32 vlc_test_acq_run(u64 seed, const struct vlc_test_acq_cfg *cfg,
			    u32 off, bool data, bool both, bool *data_ok)
{
	struct vlc_hsim *ch = &vlc_test_ch;
	struct vlc_hsim_node *n0 = &ch->node[A0], *n1 = &ch->node[A1];
	u32 f, lock_at = 0, nsym = 0, b, k, bits = vlc_phy_bits(cfg->mode);
	u8 log[VLC_TEST_ACQ_BYTES * 8 + 8];
	u32 sig = cfg->sig ?: SIG;
	int i;

	vlc_hsim_init(ch, seed);
	ch->gain[A0][A1] = sig;
	ch->gain[A1][A0] = sig;
	ch->ambient = (cfg->sig ? 2 : 5) * sig;
	ch->flicker100 = sig;
	ch->noise = cfg->sig ? cfg->noise : vlc_test_noise(VLC_TEST_ACQ_SNR);
	for (i = A0; i <= A1; i++) {
		if (cfg->led)
			vlc_hsim_set_led_rx(ch, i);
		vlc_phy_set_mode(&ch->node[i].phy, cfg->mode, NULL);
		vlc_phy_set_brightness(&ch->node[i].phy, cfg->brightness, NULL);
		vlc_phy_set_rx_min_level(&ch->node[i].phy, sig / 10 /
					 (cfg->led ? VLC_LIGHT_LED_DIV : 1));
	}
	n0->resync = VLC_HSIM_RESYNC_MAC;
	n1->resync = both ? VLC_HSIM_RESYNC_MAC : VLC_HSIM_RESYNC_OFF;
	n0->defer_ticks = vlc_test_acq_defer;
	n1->defer_ticks = vlc_test_acq_defer;
	if (data) {
		n1->tx = VLC_HSIM_TX_RANDOM;
		n1->idle_per256 = 32;
	}
	vlc_hsim_start(ch, A0, T0);
	vlc_hsim_run_until(ch, T0 + off);
	vlc_hsim_start(ch, A1, T0 + off);

	for (f = 1; f <= VLC_TEST_ACQ_LOCK + VLC_TEST_ACQ_HOLD; f++) {
		vlc_hsim_run_frames(ch, A1, 1);
		if (!vlc_test_acq_locked(ch))
			lock_at = f;
	}
	lock_at++;

	vlc_test_acq_end.offset = vlc_hsim_offset(ch, A0, A1);
	for (i = A0; i <= A1; i++) {
		vlc_test_acq_end.locked[i] = ch->node[i].phy.locked;
		vlc_test_acq_end.sync[i] = ch->node[i].phy.last_rx.sync;
		vlc_test_acq_end.off[i] = ch->node[i].phy.last_rx.offset_ns;
	}

	/* then A0 sends bytes to A1, after a preamble (a MAC frame has
	 * one) that lets an A1 which never saw A0 acquire its data light
	 */
	n1->tx = VLC_HSIM_TX_IDLE;
	for (b = 0; b < VLC_TEST_ACQ_PREAMBLE; b++)
		vlc_test_seq[nsym++] = vlc_hsim_rand_below(ch, 1U << bits);
	for (b = 0; b < VLC_TEST_ACQ_GAP; b++)
		vlc_test_seq[nsym++] = VLC_SYM_IDLE & 0xff;
	for (b = 0; b < VLC_TEST_ACQ_BYTES; b++) {
		u8 v = vlc_hsim_rand_below(ch, 256);

		for (k = 0; k < 8; k += bits)
			vlc_test_seq[nsym++] = (v >> k) & ((1U << bits) - 1);
	}
	vlc_hsim_run_frames(ch, A1, 2);
	n0->tx = VLC_HSIM_TX_SEQ;
	n0->seq = vlc_test_seq;
	n0->seq_len = nsym;
	n0->seq_pos = 0;
	vlc_hsim_run_frames(ch, A1, VLC_TEST_ACQ_PREAMBLE +
			    VLC_TEST_ACQ_GAP / 2);
	n1->log = log;
	n1->log_len = sizeof(log);
	vlc_hsim_run_frames(ch, A1, nsym - VLC_TEST_ACQ_PREAMBLE -
			    VLC_TEST_ACQ_GAP / 2 + 3);
	nsym -= VLC_TEST_ACQ_PREAMBLE + VLC_TEST_ACQ_GAP;
	*data_ok = n1->log_n == nsym && !n1->log_erasures &&
		   !memcmp(log, vlc_test_seq + VLC_TEST_ACQ_PREAMBLE +
			   VLC_TEST_ACQ_GAP, nsym);
	vlc_test_acq_end.got = n1->log_n;
	vlc_test_acq_end.want = nsym;
	vlc_test_acq_end.erasures = n1->log_erasures;
	n1->log = NULL;
	return lock_at;
}

VLC_TEST(vlc_phy_test_acquisition)
{
	static const struct vlc_test_acq_cfg cfg[] = {
		{ .mode = VLC_PHY_MODE_2SLOT, .brightness = 100 },
		{ .mode = VLC_PHY_MODE_2SLOT, .brightness = 200 },
		{ .mode = VLC_PHY_MODE_2SLOT, .brightness = 400 },
		{ .mode = VLC_PHY_MODE_4PPM, .brightness = 100 },
		{ .mode = VLC_PHY_MODE_4PPM, .brightness = 200 },
	};
	u32 fns = vlc_test_frame_ns(), c, j, v, fails = 0, runs = 0, ok_runs;
	const typeof(vlc_test_acq_end) *e = &vlc_test_acq_end;

	for (c = 0; c < ARRAY_SIZE(cfg); c++) {
		/* v: bit 0 = neighbour sends data, bit 1 = one side only */
		for (v = 0; v < 4; v++) {
			struct vlc_test_acq_res r = { 0 };
			bool data = v & 1, both = !(v & 2);

			for (j = 0; j < VLC_TEST_ACQ_OFFSETS; j++) {
				u32 off = j * (fns / VLC_TEST_ACQ_OFFSETS) +
					  1237 * (j % 7);
				bool ok;
				u32 at = vlc_test_acq_run(0xac0 + 64 * c +
							  16 * v + j, &cfg[c],
							  off, data, both, &ok);

				r.runs++;
				r.coarse += vlc_test_ch.node[A0].rs_coarse;
				if (at <= VLC_TEST_ACQ_LOCK && ok) {
					r.lock_max = max(r.lock_max, at);
					r.lock_sum += at;
				} else {
					r.fails++;
					VLC_TEST_LOG("  %s %s off %u: lock %u, data %s %u/%u e%u",
						     data ? "data" : "idle",
						     both ? "both" : "one",
						     off, at, ok ? "ok" : "BAD",
						     e->got, e->want, e->erasures);
					VLC_TEST_LOG("    now %d, lk %d/%d, sync %d/%d, off %d/%d",
						     e->offset, e->locked[0],
						     e->locked[1], e->sync[0],
						     e->sync[1], e->off[0],
						     e->off[1]);
				}
			}
			ok_runs = max(r.runs - r.fails, 1U);
			VLC_TEST_LOG("mode %d b %u %s, %s correcting:",
				     cfg[c].mode, cfg[c].brightness,
				     data ? "data" : "idle",
				     both ? "both" : "one side");
			VLC_TEST_LOG("  %u/%u locked in %u max, %u.%u mean frames, %u coarse steps",
				     r.runs - r.fails, r.runs, r.lock_max,
				     r.lock_sum / ok_runs,
				     (r.lock_sum % ok_runs) * 10 / ok_runs,
				     r.coarse);
			if (both) {
				fails += r.fails;
				runs += r.runs;
			}
		}
	}
	/* All configurations are logged first, then judged. The goal is
	 * every run; what the acquisition reaches today with both sides
	 * correcting is asserted so that it does not regress (one-sided
	 * runs are logged only: a corrector that only sees data pulses, at
	 * brightness 100, has no fine measure of them).
	 */
	VLC_TEST_LOG("both correcting: %u of %u runs locked within %u frames",
		     runs - fails, runs, VLC_TEST_ACQ_LOCK);
	VLC_EXPECT_LE(fails * 100, runs * VLC_TEST_ACQ_MISS_PCT);
}

/* The search deferred to a worker that answers late (as the kernel's
 * hrtimer and thread executors run it): the PHYs still lock, no tick
 * searched, and the worker did. 26 ticks is about one frame while
 * acquiring, so frames captured meanwhile go unsearched.
 */
#define VLC_TEST_ACQ_DEFER_OFFSETS	16	/* the same on host and kernel */

VLC_TEST(vlc_phy_test_acq_deferred)
{
	static const struct vlc_test_acq_cfg cfg = {
		.mode = VLC_PHY_MODE_2SLOT, .brightness = 200
	};
	u32 fns = vlc_test_frame_ns(), j, v, fails = 0, runs = 0;
	u32 searches = 0, tick_search = 0;

	vlc_test_acq_defer = 26;
	for (v = 0; v < 2; v++) {
		for (j = 0; j < VLC_TEST_ACQ_DEFER_OFFSETS; j++) {
			u32 off = j * (fns / VLC_TEST_ACQ_DEFER_OFFSETS) + 3001;
			bool ok;
			u32 at = vlc_test_acq_run(0xde0 + 16 * v + j, &cfg, off,
						  v, true, &ok);

			runs++;
			if (at > VLC_TEST_ACQ_LOCK || !ok)
				fails++;
			searches += vlc_test_ch.node[A0].searches +
				    vlc_test_ch.node[A1].searches;
			tick_search += vlc_test_ch.node[A0].tick_search +
				       vlc_test_ch.node[A1].tick_search;
		}
	}
	vlc_test_acq_defer = 0;
	VLC_TEST_LOG("deferred search: %u of %u runs locked within %u frames, %u searches",
		     runs - fails, runs, VLC_TEST_ACQ_LOCK, searches);
	VLC_EXPECT_EQ(tick_search, 0);
	VLC_EXPECT_LT(runs, searches);
	VLC_EXPECT_LE(fails * 100, runs * VLC_TEST_ACQ_MISS_PCT);
}

/* Small levels: an LED that senses (1/8 of the light, blind while lit,
 * as vlc_sim's "led" receiver) and a photodiode read by a 10-bit ADC, at
 * SNR 50, each with its smallest signal set as backends do. The search
 * must scale by the noise it measures and the backend's scale, not by a
 * floor fixed in its levels, which hid these signals.
 */
#define VLC_TEST_ACQ_SMALL_MISS_PCT	25

VLC_TEST(vlc_phy_test_acq_small)
{
	static const struct vlc_test_acq_cfg cfg[] = {
		{ .mode = VLC_PHY_MODE_2SLOT, .brightness = 200,
		  .sig = 4000, .noise = 10, .led = true },
		{ .mode = VLC_PHY_MODE_4PPM, .brightness = 200,
		  .sig = 4000, .noise = 10, .led = true },
		{ .mode = VLC_PHY_MODE_2SLOT, .brightness = 200,
		  .sig = 500, .noise = 10 },
		{ .mode = VLC_PHY_MODE_4PPM, .brightness = 200,
		  .sig = 500, .noise = 10 },
	};
	u32 fns = vlc_test_frame_ns(), c, j, fails, runs = 0, all = 0;

	for (c = 0; c < ARRAY_SIZE(cfg); c++) {
		fails = 0;
		for (j = 0; j < VLC_TEST_ACQ_OFFSETS; j++) {
			u32 off = j * (fns / VLC_TEST_ACQ_OFFSETS) +
				  1237 * (j % 7);
			bool ok;
			u32 at = vlc_test_acq_run(0x5a0 + 64 * c + j, &cfg[c],
						  off, j & 1, true, &ok);

			if (at > VLC_TEST_ACQ_LOCK || !ok)
				fails++;
		}
		VLC_TEST_LOG("mode %d, signal %u rms %u, %s: %u of %u runs locked within %u frames",
			     cfg[c].mode, cfg[c].sig, cfg[c].noise,
			     cfg[c].led ? "LEDs" : "photodiodes",
			     VLC_TEST_ACQ_OFFSETS - fails, VLC_TEST_ACQ_OFFSETS,
			     VLC_TEST_ACQ_LOCK);
		runs += VLC_TEST_ACQ_OFFSETS;
		all += fails;
	}
	VLC_EXPECT_LE(all * 100, runs * VLC_TEST_ACQ_SMALL_MISS_PCT);
}

/* A neighbour that sends what we send, less than half a data slot off
 * our grid, hides behind the data slot the search leaves out (ours) but
 * for its edges: what the search makes of them is reported without
 * rx->coarse, not to be acted upon. In the link bench two nodes that
 * beaconed in step moved on 13.5 us for a true 3.8 and lost each other;
 * here, without that rule, 4 of these 5 runs report a coarse estimate
 * more than 5 us off. Sending the other symbol, the neighbour is in
 * plain view and reported coarse as before.
 */
static u32 vlc_test_hid_coarse, vlc_test_hid_wrong;

static void vlc_test_hid_rx(struct vlc_hsim *ch, struct vlc_hsim_node *n,
			    const struct vlc_phy_rx *rx)
{
	if (n != &ch->node[A1] || !rx->acquiring || !rx->coarse)
		return;
	vlc_test_hid_coarse++;
	if (!vlc_test_within((s64)rx->offset_ns - vlc_hsim_offset(ch, A1, A0),
			     VLC_TEST_ACQ_TOL))
		vlc_test_hid_wrong++;
}

VLC_TEST(vlc_phy_test_acq_own_pulse)
{
	static const s32 offs[] = { 3000, 8000, 14000, -6000, -12000 };
	u32 fns = vlc_test_frame_ns(), half = sizeof(vlc_test_seq) / 2;
	struct vlc_hsim *ch = &vlc_test_ch;
	u32 j, same, i, coarse[2] = { 0, 0 }, wrong = 0;
	u64 t;

	for (same = 0; same < 2; same++) {
		for (j = 0; j < ARRAY_SIZE(offs); j++) {
			vlc_hsim_init(ch, 0x0b0 + 8 * same + j);
			ch->gain[A0][A1] = SIG;
			ch->gain[A1][A0] = SIG;
			ch->ambient = 5 * SIG;
			ch->flicker100 = SIG;
			ch->noise = vlc_test_noise(VLC_TEST_ACQ_SNR);
			for (i = 0; i < half; i++) {
				vlc_test_seq[i] = vlc_hsim_rand_below(ch, 2);
				vlc_test_seq[half + i] = same ?
					vlc_test_seq[i] : !vlc_test_seq[i];
			}
			for (i = A0; i <= A1; i++) {
				struct vlc_hsim_node *n = &ch->node[i];

				vlc_phy_set_brightness(&n->phy, 200, NULL);
				vlc_phy_set_rx_min_level(&n->phy, SIG / 10);
				n->tx = VLC_HSIM_TX_SEQ;
				n->seq = vlc_test_seq + (i == A1 ? half : 0);
				n->seq_len = half;
			}
			vlc_test_hid_coarse = 0;
			vlc_test_hid_wrong = 0;
			ch->on_rx = vlc_test_hid_rx;
			/* A1 starts so far after A0's frame, or before */
			t = T0 + (offs[j] < 0 ? fns : 0) + offs[j];
			vlc_hsim_start(ch, A0, T0);
			vlc_hsim_run_until(ch, t);
			vlc_hsim_start(ch, A1, t);
			vlc_hsim_run_frames(ch, A1, 200);
			ch->on_rx = NULL;
			VLC_TEST_LOG("%s symbols, %d ns: %u coarse reports, %u over 5 us off",
				     same ? "same" : "other", offs[j],
				     vlc_test_hid_coarse, vlc_test_hid_wrong);
			coarse[same] += vlc_test_hid_coarse;
			if (same)
				wrong += vlc_test_hid_wrong;
		}
	}
	VLC_EXPECT_EQ(wrong, 0);
	VLC_EXPECT_GE(coarse[0], ARRAY_SIZE(offs) - 1);
}

/* ---- false lock (fuzzer finding K3) ------------------------------ */

struct vlc_test_fl {
	u64 start[VLC_HSIM_NODES][VLC_HSIM_SENT];	/* by tx_frames */
	u32 bad;	/* symbols decided that no data pulse lit */
	u32 bad_on;	/* frames whose on-time was not the setting */
};

static struct vlc_test_fl vlc_test_fl;

static void vlc_test_fl_frame(struct vlc_hsim *ch, struct vlc_hsim_node *n,
			      int sym, u64 on_ns, u64 len_ns)
{
	struct vlc_test_fl *fl = ch->priv;
	u64 target = div_u64((u64)n->phy.brightness * n->phy.timing.frame_ns,
			     1000);

	fl->start[n->idx][n->tx_frames % VLC_HSIM_SENT] =
		vlc_phy_frame_start(&n->phy);
	/* the last frame lit the setting, or its one data slot */
	if (sym >= 0)
		target = max_t(u64, target, n->phy.timing.data_ns);
	if (len_ns && on_ns != target)
		fl->bad_on++;
}

static u64 vlc_test_data_slot(const struct vlc_phy_timing *t, int k)
{
	return t->sync_ns + t->guard_ns + (u64)k * (t->data_ns + t->guard_ns);
}

/* A symbol decided in a frame we did not send in must be a slot that a
 * data pulse of the neighbour lit, never its illumination.
 */
static void vlc_test_fl_rx(struct vlc_hsim *ch, struct vlc_hsim_node *n,
			   const struct vlc_phy_rx *rx)
{
	const struct vlc_hsim_node *r = &ch->node[!n->idx];
	const struct vlc_phy_timing *t = &n->phy.timing;
	struct vlc_test_fl *fl = ch->priv;
	u64 a, b, c;
	u32 j;

	if (rx->sym < 0 || (rx->flags & VLC_PHY_RX_OWN_TX))
		return;
	a = vlc_phy_frame_start(&n->phy) + vlc_test_data_slot(t, rx->sym);
	b = a + t->data_ns;
	j = r->tx_frames > VLC_HSIM_SENT ? r->tx_frames - VLC_HSIM_SENT : 0;
	for (; j < r->tx_frames; j++) {
		int sent = r->sent[j % VLC_HSIM_SENT];

		if (sent < 0)
			continue;
		c = fl->start[r->idx][j % VLC_HSIM_SENT] +
		    vlc_test_data_slot(t, sent);
		if (c < b && c + t->data_ns > a)
			return;
	}
	fl->bad++;
}

struct vlc_test_fl_case {
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 brightness;
	u32 offset;	/* node 1 starts this much after node 0 */
	bool resync;	/* both correct as the MAC does */
	u32 frames;
};

/* The fuzzer's setting (tests/fuzz/fuzz_params.c, corpus/params/k3-*):
 * a noiseless channel with ambient light. At default settings a
 * neighbour 109 us early (390944 ns late) was locked at offset 0: with
 * no noise every offset's correlation saturated, and a lone data pulse
 * won the search, so the neighbour's 50 us illumination pulse, lit in
 * our D2, was decided as a 1. In the short 4-PPM timing at the minimum
 * brightness, with nobody correcting, one frame without light was
 * counted twice and locked the PHY as if the neighbour hid behind our
 * own on-time, 13 us away.
 */
static const struct vlc_test_fl_case vlc_test_fl_cases[] = {
	{ .t = { 40000, 20000, 50000, 500000, 20000 }, .brightness = 200,
	  .offset = 390944, .resync = true, .frames = 48 },
	{ .t = { 40000, 20000, 50000, 500000, 20000 }, .brightness = 200,
	  .offset = 380000, .resync = true, .frames = 48 },
	{ .t = { 40000, 20000, 50000, 500000, 20000 }, .brightness = 200,
	  .offset = 400000, .resync = false, .frames = 48 },
	{ .t = { 1872, 1000, 2000, 30000, 500 }, .mode = VLC_PHY_MODE_4PPM,
	  .brightness = 67, .offset = 13192, .frames = 200 },
};

VLC_TEST(vlc_phy_test_false_lock)
{
	struct vlc_hsim *ch = &vlc_test_ch;
	u32 c, i, f, locked;

	for (c = 0; c < ARRAY_SIZE(vlc_test_fl_cases); c++) {
		const struct vlc_test_fl_case *fc = &vlc_test_fl_cases[c];
		s32 off = 0;

		vlc_hsim_init(ch, 1);
		ch->on_frame = vlc_test_fl_frame;
		ch->on_rx = vlc_test_fl_rx;
		ch->gain[0][1] = SIG;
		ch->gain[1][0] = SIG;
		ch->ambient = 5 * SIG;
		vlc_test_fl = (struct vlc_test_fl){ 0 };
		ch->priv = &vlc_test_fl;
		for (i = 0; i < 2; i++) {
			struct vlc_hsim_node *n = &ch->node[i];

			VLC_ASSERT_EQ(vlc_phy_set_config(&n->phy, &fc->t,
							 fc->mode,
							 fc->brightness,
							 NULL), 0);
			n->tx = VLC_HSIM_TX_RANDOM;
			n->idle_per256 = i ? 64 : 224;
			n->resync = fc->resync ? VLC_HSIM_RESYNC_MAC :
						 VLC_HSIM_RESYNC_OFF;
		}
		vlc_hsim_start(ch, 0, 1000);
		vlc_hsim_start(ch, 1, 1000 + fc->offset);
		locked = 0;
		for (f = 0; f < fc->frames; f++) {
			vlc_hsim_run_frames(ch, 0, 1);
			off = vlc_hsim_offset(ch, 0, 1);
			/* locked only within the fine estimator's reach */
			if (ch->node[0].phy.locked) {
				locked++;
				VLC_EXPECT_TRUE(vlc_test_within(off,
								fc->t.sync_ns));
			}
		}
		VLC_TEST_LOG("%u ns, offset %u, %s: locked %u/%u, now %d ns, %u bad",
			     fc->t.frame_ns, fc->offset,
			     fc->resync ? "correcting" : "fixed", locked,
			     fc->frames, off, vlc_test_fl.bad);
		VLC_EXPECT_EQ(vlc_test_fl.bad, 0);
		VLC_EXPECT_EQ(vlc_test_fl.bad_on, 0);
		if (fc->resync)
			VLC_EXPECT_TRUE(ch->node[0].phy.locked);
		ch->on_frame = NULL;
		ch->on_rx = NULL;
	}
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_phy_acq_test_cases[] = {
	VLC_TEST_CASE_SLOW(vlc_phy_test_acquisition)
	VLC_TEST_CASE_SLOW(vlc_phy_test_acq_deferred)
	VLC_TEST_CASE_SLOW(vlc_phy_test_acq_small)
	VLC_TEST_CASE(vlc_phy_test_acq_own_pulse)
	VLC_TEST_CASE(vlc_phy_test_false_lock)
	VLC_TEST_CASES_END
};
