// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC PHY core on a locked pair: round trips, low SNR,
 * collisions, early/late detection, brightness, the light model,
 * parameter validation, late ticks, phase moves and the signal estimate.
 * Suite "vlc_phy", written once and included by the KUnit wrapper
 * (vlc_phy_kunit.c) and the host cmocka runner
 * (tests/host/vlc_phy_test.c); the table at the end lists them for both.
 * The channel they run on is vlc_phy_cases.h.
 */

#include "vlc_phy_cases.h"

/* ---- 1. round trip through ambient, flicker and noise ---------------- */

struct vlc_test_cond {
	const char *name;
	u32 dc, f100, f120, snr;
};

static const struct vlc_test_cond vlc_test_conds[] = {
	{ "dc 20x, snr 20", 20 * SIG, 0, 0, 20 },
	{ "dc 20x, 100 Hz flicker 5x, snr 20", 20 * SIG, 5 * SIG, 0, 20 },
	{ "dc 20x, 120 Hz flicker 5x, snr 20", 20 * SIG, 0, 5 * SIG, 20 },
};

/* Every byte value, LSB first, as 1- or 2-bit symbols. */
static u32 vlc_test_fill_bytes(enum vlc_phy_mode mode)
{
	u32 bits = vlc_phy_bits(mode), v, b, n = 0;

	for (v = 0; v < 256; v++)
		for (b = 0; b < 8; b += bits)
			vlc_test_seq[n++] = (v >> b) & ((1U << bits) - 1);
	return n;
}

VLC_TEST(vlc_phy_test_roundtrip)
{
	enum vlc_phy_mode mode;
	u32 c;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		for (c = 0; c < ARRAY_SIZE(vlc_test_conds); c++) {
			const struct vlc_test_cond *cd = &vlc_test_conds[c];
			struct vlc_hsim *ch = vlc_test_pair(0x5eed + c, mode,
							    200);
			struct vlc_hsim_node *tx = &ch->node[TX];
			struct vlc_hsim_node *rx = &ch->node[RX];
			struct vlc_hsim_score *sc = &rx->score;
			u32 n = vlc_test_fill_bytes(mode);

			ch->ambient = cd->dc;
			ch->flicker100 = cd->f100;
			ch->flicker120 = cd->f120;
			ch->noise = vlc_test_noise(cd->snr);
			tx->tx = VLC_HSIM_TX_RANDOM;
			vlc_test_start_pair(ch);
			/* warm-up: noise and signal estimates settle */
			vlc_hsim_run_frames(ch, RX, 32);
			tx->tx = VLC_HSIM_TX_SEQ;
			tx->seq = vlc_test_seq;
			tx->seq_len = n;
			vlc_hsim_score_reset(rx);
			vlc_hsim_run_frames(ch, RX, n);

			VLC_TEST_LOG("mode %d, %s: %u symbols, min margin %u/1000",
				     mode, cd->name, sc->correct,
				     sc->min_margin);
			VLC_EXPECT_EQ(sc->frames, n);
			VLC_EXPECT_EQ(sc->correct, n);
			VLC_EXPECT_EQ(sc->wrong, 0);
			VLC_EXPECT_EQ(sc->erasures, 0);
			VLC_EXPECT_EQ(sc->missed, 0);
			VLC_EXPECT_GE(sc->min_margin, 1000);
		}
	}
}

/* ---- 2. no safe decision: erasures, not wrong bits ------------------- */

#define VLC_TEST_LOW_N	1500

VLC_TEST(vlc_phy_test_low_snr)
{
	static const u32 snrs[] = { 4, 6, 8 };
	enum vlc_phy_mode mode;
	u32 i;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		for (i = 0; i < ARRAY_SIZE(snrs); i++) {
			struct vlc_hsim *ch = vlc_test_pair(0x10 + i, mode,
							    200);
			struct vlc_hsim_node *rx = &ch->node[RX];
			struct vlc_hsim_score *sc = &rx->score;

			ch->ambient = 20 * SIG;
			ch->flicker100 = 2 * SIG;
			ch->noise = vlc_test_noise(snrs[i]);
			ch->node[TX].tx = VLC_HSIM_TX_RANDOM;
			vlc_test_start_pair(ch);
			/* scored from the cold start on */
			vlc_hsim_run_frames(ch, RX, VLC_TEST_LOW_N);

			VLC_TEST_LOG("mode %d snr %u: %u ok, %u wrong, %u erased, %u missed",
				     mode, snrs[i], sc->correct, sc->wrong,
				     sc->erasures, sc->missed);
			VLC_EXPECT_EQ(sc->frames, VLC_TEST_LOW_N);
			VLC_EXPECT_EQ(sc->wrong, 0);
			/* the margin is not met often: not all decided */
			VLC_EXPECT_GE(sc->erasures + sc->missed,
				      VLC_TEST_LOW_N / 20);
			VLC_EXPECT_GE(sc->erasures, 1);
		}
	}
}

#define VLC_TEST_COLL_N	1000

VLC_TEST(vlc_phy_test_collision)
{
	enum vlc_phy_mode mode;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		struct vlc_hsim *ch = vlc_test_pair(0xc011, mode, 200);
		struct vlc_hsim_node *rx = &ch->node[RX];
		struct vlc_hsim_score *sc = &rx->score;
		u64 join = T0 + 64ULL * vlc_test_frame_ns();

		ch->ambient = 20 * SIG;
		ch->flicker120 = 5 * SIG;
		ch->noise = vlc_test_noise(20);
		ch->gain[TX2][RX] = SIG;
		ch->node[TX].tx = VLC_HSIM_TX_RANDOM;
		ch->node[TX2].tx = VLC_HSIM_TX_MIRROR;
		ch->node[TX2].mirror = TX;
		vlc_test_start_pair(ch);
		/* the receiver first learns the signal from one transmitter */
		vlc_hsim_run_until(ch, join);
		VLC_EXPECT_EQ(rx->score.wrong, 0);
		VLC_EXPECT_GE(rx->score.correct, 50);
		vlc_hsim_start(ch, TX2, join);
		vlc_hsim_run_frames(ch, RX, 1);
		vlc_hsim_score_reset(rx);
		vlc_hsim_run_frames(ch, RX, VLC_TEST_COLL_N);

		VLC_TEST_LOG("mode %d collision: %u decided, %u erased of %u",
			     mode, sc->correct + sc->wrong, sc->erasures,
			     sc->frames);
		/* opposite symbols at equal power: never a decision */
		VLC_EXPECT_EQ(sc->correct + sc->wrong, 0);
		VLC_EXPECT_EQ(sc->erasures, VLC_TEST_COLL_N);
	}
}

/* ---- 3. early / late detection --------------------------------------- */

struct vlc_test_sweep {
	enum vlc_phy_mode mode;
	u32 brightness;
	s32 max_ns;	/* sweep -max..max */
};

VLC_TEST(vlc_phy_test_sync)
{
	/* IA/IB halves must cover the offset to measure it: see brightness */
	static const struct vlc_test_sweep sw[] = {
		{ VLC_PHY_MODE_2SLOT, 400, 40000 },
		{ VLC_PHY_MODE_4PPM, 240, 30000 },
	};
	const struct vlc_phy_timing *tm = &vlc_phy_default_timing;
	s32 step = tm->sync_ns / 8, tol = tm->sync_ns / 10;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(sw); i++) {
		struct vlc_hsim *ch = vlc_test_pair(0x5c + i, sw[i].mode,
						    sw[i].brightness);
		struct vlc_hsim_node *tx = &ch->node[TX];
		struct vlc_hsim_node *rx = &ch->node[RX];
		struct vlc_hsim_score *sc = &rx->score;
		u32 wrong = 0;
		s32 d;

		ch->ambient = 5 * SIG;
		ch->flicker100 = SIG;
		ch->noise = vlc_test_noise(200);
		tx->tx = VLC_HSIM_TX_RANDOM;
		tx->idle_per256 = 64;
		vlc_test_start_pair(ch);
		vlc_hsim_run_frames(ch, RX, 64);

		for (d = -sw[i].max_ns; d <= sw[i].max_ns; d += step) {
			s64 mean;
			u32 n;

			/* positive: the transmitter's frames come later */
			vlc_phy_adjust_phase(&tx->phy, d);
			vlc_hsim_run_frames(ch, RX, 3);
			vlc_hsim_score_reset(rx);
			vlc_hsim_run_frames(ch, RX, 16);
			n = sc->frames;
			wrong += sc->wrong;
			if (d == 0) {
				VLC_EXPECT_EQ(sc->sync[VLC_PHY_SYNC_IN], n);
			} else {
				enum vlc_phy_sync want = d > 0 ?
					VLC_PHY_SYNC_LATE : VLC_PHY_SYNC_EARLY;

				VLC_EXPECT_EQ(sc->sync[want], n);
				mean = div_s64(sc->offset_sum, n);
				VLC_TEST_LOG("mode %d offset %d: mean %lld, %d..%d",
					     sw[i].mode, d, (long long)mean,
					     sc->offset_min, sc->offset_max);
				VLC_EXPECT_LE(mean - d, tol);
				VLC_EXPECT_GE(mean - d, -tol);
				/* and every single frame within tol */
				VLC_EXPECT_LE(sc->offset_max - d, tol);
				VLC_EXPECT_GE(sc->offset_min - d, -tol);
			}
			vlc_phy_adjust_phase(&tx->phy, -d);
			vlc_hsim_run_frames(ch, RX, 3);
		}
		/* shifted slots are erased rather than misread */
		VLC_EXPECT_EQ(wrong, 0);
	}
}

/* ---- 4. brightness ------------------------------------------------- */

struct vlc_test_light {
	bool have;
	u32 brightness;		/* of the frame in progress */
	u32 data_ns;
	u32 frame_ns;
	u32 frames;
	u32 bad_data;		/* data frames not emitting what they must */
	u32 bad_idle;
	u64 on_sum;
	u64 len_sum;
	u32 len_other;		/* frames not frame_ns long */
};

static void vlc_test_light_frame(struct vlc_hsim *ch, struct vlc_hsim_node *n,
				 int sym, u64 on_ns, u64 len_ns)
{
	struct vlc_test_light *l = ch->priv;
	u64 target;

	if (l->have && len_ns) {
		target = div_u64((u64)l->brightness * l->frame_ns, 1000);
		if (sym >= 0 && on_ns != max_t(u64, target, l->data_ns))
			l->bad_data++;
		if (sym < 0 && on_ns != target)
			l->bad_idle++;
		if (len_ns != l->frame_ns)
			l->len_other++;
		l->frames++;
		l->on_sum += on_ns;
		l->len_sum += len_ns;
	}
	l->have = true;
	l->brightness = n->phy.brightness;
	l->data_ns = n->phy.timing.data_ns;
	l->frame_ns = n->phy.timing.frame_ns;
}

#define VLC_TEST_LIGHT_FRAMES	10

VLC_TEST(vlc_phy_test_brightness)
{
	const struct vlc_phy_timing *tm = &vlc_phy_default_timing;
	struct vlc_hsim *ch = &vlc_test_ch;
	struct vlc_test_light l = { 0 };
	enum vlc_phy_mode mode;
	u32 min, max, b;

	VLC_ASSERT_EQ(vlc_phy_brightness_range(tm, VLC_PHY_MODE_2SLOT,
					       &min, &max), 0);
	VLC_EXPECT_EQ(min, 100);
	VLC_EXPECT_EQ(max, 520);
	VLC_ASSERT_EQ(vlc_phy_brightness_range(tm, VLC_PHY_MODE_4PPM,
					       &min, &max), 0);
	VLC_EXPECT_EQ(min, 100);
	VLC_EXPECT_EQ(max, 240);

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		struct vlc_hsim_node *tx;

		vlc_hsim_init(ch, 0xb1 + mode);
		tx = &ch->node[TX];
		vlc_phy_set_mode(&tx->phy, mode, NULL);
		vlc_phy_brightness_range(tm, mode, &min, &max);
		tx->tx = VLC_HSIM_TX_RANDOM;
		tx->idle_per256 = 96;
		ch->on_frame = vlc_test_light_frame;
		ch->priv = &l;
		vlc_hsim_start(ch, TX, T0);

		/* below one data slot: refused, the setting kept */
		VLC_EXPECT_EQ(vlc_phy_set_brightness(&tx->phy, min - 1, NULL),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_phy_set_brightness(&tx->phy, 0, NULL),
			      -EINVAL);
		for (b = min; b <= max; b++) {
			u64 want, got;

			VLC_ASSERT_EQ(vlc_phy_set_brightness(&tx->phy, b, NULL),
				      0);
			/* the setting applies from the next frame on */
			vlc_hsim_run_until(ch, ch->now + tm->frame_ns);
			l = (struct vlc_test_light){ 0 };
			vlc_hsim_run_until(ch, ch->now + VLC_TEST_LIGHT_FRAMES *
					   (u64)tm->frame_ns);
			VLC_EXPECT_EQ(l.bad_idle, 0);
			VLC_EXPECT_EQ(l.bad_data, 0);
			VLC_EXPECT_EQ(l.len_other, 0);
			VLC_EXPECT_GE(l.frames, VLC_TEST_LIGHT_FRAMES - 1);
			if (!l.len_sum)
				continue;
			/* average light per period within 1% of the setting */
			want = b * l.len_sum;
			got = l.on_sum * 1000;
			VLC_EXPECT_LE(got, want + want / 100);
			VLC_EXPECT_GE(got, want - want / 100);
		}
		ch->on_frame = NULL;
	}
}

/* ---- 5. parameter validation ---------------------------------------- */

static bool vlc_test_timing_eq(const struct vlc_phy_timing *a,
			       const struct vlc_phy_timing *b)
{
	return a->sync_ns == b->sync_ns && a->guard_ns == b->guard_ns &&
	       a->data_ns == b->data_ns && a->frame_ns == b->frame_ns &&
	       a->tolerance_ns == b->tolerance_ns;
}

/* The light model's noise is given for the default data slot, and white
 * noise averages down over a longer window; an LED receiver senses an
 * eighth of the light, and none while its own LED is lit.
 */
VLC_TEST(vlc_phy_test_light_model)
{
	u64 ref = VLC_LIGHT_NOISE_REF_NS;

	VLC_EXPECT_EQ(vlc_phy_default_timing.data_ns, VLC_LIGHT_NOISE_REF_NS);
	VLC_EXPECT_EQ(vlc_light_noise_rms(1000, ref, ref), 1000);
	VLC_EXPECT_EQ(vlc_light_noise_rms(1000, ref, 4 * ref), 500);
	VLC_EXPECT_EQ(vlc_light_noise_rms(1000, ref, ref / 4), 2000);
	VLC_EXPECT_EQ(vlc_light_led_sense(800, 0, 1000), 100);
	VLC_EXPECT_EQ(vlc_light_led_sense(800, 500, 1000), 50);
	VLC_EXPECT_EQ(vlc_light_led_sense(800, 2000, 1000), 0);
	VLC_EXPECT_EQ(vlc_light_flicker_mean(1000, 100, 0, 10000000), 0);
	VLC_EXPECT_EQ(vlc_light_flicker_mean(1000, 100, 2450000, 2550000),
		      999);
}

/* A PHY at 2-slot and 400 per-mille, three frames into its run: what
 * each validation case starts from.
 */
static struct vlc_hsim *vlc_test_valid_start(void)
{
	struct vlc_hsim *ch = vlc_test_pair(0x7a1, VLC_PHY_MODE_2SLOT, 400);

	vlc_hsim_start(ch, TX, T0);
	vlc_hsim_run_until(ch, T0 + 3 * (u64)vlc_phy_default_timing.frame_ns);
	return ch;
}

/* Nothing refused changed anything, now or later. */
static void vlc_test_valid_kept(VLC_TEST_CTX, struct vlc_hsim *ch)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_phy *phy = &ch->node[TX].phy;

	vlc_hsim_run_until(ch, ch->now + 2 * (u64)def.frame_ns);
	VLC_EXPECT_TRUE(vlc_test_timing_eq(&phy->timing, &def));
	VLC_EXPECT_TRUE(vlc_test_timing_eq(&phy->new_timing, &def));
	VLC_EXPECT_EQ(phy->brightness, 400);
	VLC_EXPECT_EQ(phy->mode, VLC_PHY_MODE_2SLOT);
}

/* A timing that cannot run is refused, naming the setting at fault. */
VLC_TEST(vlc_phy_test_validation_timing)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_phy *phy = &ch->node[TX].phy;
	struct vlc_phy_timing t;
	enum vlc_refusal why;

	t = def;
	t.data_ns = 0;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why), "data-us");

	t = def;
	t.sync_ns = 0;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why), "sync-us");

	t = def;
	t.guard_ns = 1;
	t.tolerance_ns = 0;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "guard-us below 1 us");

	t = def;
	t.guard_ns = 10000;	/* tolerance stays 20000 */
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "guard-us shorter than tolerance-us");

	t = def;
	t.frame_ns = 230000;	/* 2-slot dark part is 240000 */
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "frame-us too short");

	t = def;
	t.frame_ns = VLC_PHY_FRAME_NS_MAX + 1;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why), "frame-us above");

	/* Slots of 1 ns fit a 16 ns frame, which no timer can run and
	 * whose acquisition grid would be 0 (found by the fuzzer, K2). The
	 * shortest slots fit an 8 us frame: refused too.
	 */
	t.sync_ns = 1;
	t.guard_ns = 1;
	t.data_ns = 1;
	t.tolerance_ns = 0;
	t.frame_ns = 16;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "sync-us below 1 us");
	t.sync_ns = VLC_PHY_SLOT_NS_MIN;
	t.guard_ns = VLC_PHY_SLOT_NS_MIN;
	t.data_ns = VLC_PHY_SLOT_NS_MIN;
	t.frame_ns = 8000;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "frame-us below 10 us");

	/* fits 2-slot, but the illumination left cannot give 40% */
	t = def;
	t.frame_ns = 380000;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why), "brightness");

	vlc_test_valid_kept(vlc_test_ctx, ch);
}

/* A brightness out of the range of the mode and timing is refused. */
VLC_TEST(vlc_phy_test_validation_brightness)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_phy *phy = &ch->node[TX].phy;
	struct vlc_phy_timing t;
	enum vlc_refusal why;

	VLC_EXPECT_REFUSED(vlc_phy_set_brightness(phy, 521, &why),
			   "brightness above");
	VLC_EXPECT_REFUSED(vlc_phy_set_brightness(phy, 1001, &why),
			   "brightness");
	/* one data slot is 100 per-mille: below, idle pulses pass for data */
	VLC_EXPECT_REFUSED(vlc_phy_set_brightness(phy, 99, &why),
			   "brightness below the minimum");
	VLC_EXPECT_REFUSED(vlc_phy_set_brightness(phy, 0, &why),
			   "brightness below the minimum");
	/* a longer data slot takes the setting below its minimum */
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &def, VLC_PHY_MODE_2SLOT, 100,
					 &why), 0);
	t = def;
	t.data_ns = 60000;
	VLC_EXPECT_REFUSED(vlc_phy_set_timing(phy, &t, &why),
			   "brightness below the minimum");
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &def, VLC_PHY_MODE_2SLOT, 400,
					 &why), 0);

	vlc_test_valid_kept(vlc_test_ctx, ch);
}

/* A mode that cannot give the brightness set, or none, is refused. */
VLC_TEST(vlc_phy_test_validation_mode)
{
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_phy *phy = &ch->node[TX].phy;
	enum vlc_refusal why;

	/* 40% fits 2-slot but not 4-PPM (max 24%) */
	VLC_EXPECT_REFUSED(vlc_phy_set_mode(phy, VLC_PHY_MODE_4PPM, &why),
			   "brightness");
	VLC_EXPECT_REFUSED(vlc_phy_set_mode(phy, 7, &why), "modulation");

	vlc_test_valid_kept(vlc_test_ctx, ch);
}

/* A good timing is taken, and applies from the next frame boundary. */
VLC_TEST(vlc_phy_test_validation_pending)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_phy *phy = &ch->node[TX].phy;
	struct vlc_phy_timing t;
	enum vlc_refusal why;

	/* a good value waits for the frame boundary */
	t = def;
	t.frame_ns = 600000;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), 0);
	VLC_EXPECT_TRUE(!why);
	VLC_EXPECT_EQ(phy->timing.frame_ns, def.frame_ns);
	vlc_hsim_run_until(ch, vlc_phy_frame_start(phy) + def.frame_ns);
	VLC_EXPECT_EQ(phy->timing.frame_ns, 600000);

	t = def;
	t.tolerance_ns = 0;	/* allowed: a perfect timer */
	VLC_EXPECT_EQ(vlc_phy_timing_check(&t, VLC_PHY_MODE_4PPM, &why), 0);
}

/* A new mode waits for the client: its frame on air ends in the symbols
 * it began with, and the settings change together afterwards.
 */
VLC_TEST(vlc_phy_test_validation_mode_held)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_hsim_node *n = &ch->node[TX];
	struct vlc_phy *phy = &n->phy;
	struct vlc_phy_timing t = def;

	n->hold_mode = true;
	t.frame_ns = 600000;
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_4PPM, 200,
					 NULL), 0);
	vlc_hsim_run_until(ch, vlc_phy_frame_start(phy) + 3 * def.frame_ns);
	VLC_EXPECT_EQ(phy->mode, VLC_PHY_MODE_2SLOT);
	VLC_EXPECT_EQ(phy->timing.frame_ns, def.frame_ns);

	n->hold_mode = false;
	vlc_hsim_run_until(ch, vlc_phy_frame_start(phy) + def.frame_ns);
	VLC_EXPECT_EQ(phy->mode, VLC_PHY_MODE_4PPM);
	VLC_EXPECT_EQ(phy->timing.frame_ns, 600000);
	VLC_EXPECT_EQ(n->bits, 2);
}

/* 2-slot at 400 per-mille to 4-PPM at 200: neither order of single
 * changes works (4-PPM allows at most 240), the pair at once does
 */
VLC_TEST(vlc_phy_test_validation_config)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_valid_start();
	struct vlc_phy *phy = &ch->node[TX].phy;
	struct vlc_phy_timing t, got;
	enum vlc_phy_mode mode;
	enum vlc_refusal why;
	u32 b;

	t = def;
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_2SLOT, 400,
					 NULL), 0);
	VLC_EXPECT_REFUSED(vlc_phy_set_mode(phy, VLC_PHY_MODE_4PPM, &why),
			   "brightness");
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_4PPM, 200,
					 &why), 0);
	vlc_phy_get_config(phy, &got, &mode, &b);
	VLC_EXPECT_TRUE(vlc_test_timing_eq(&got, &def));
	VLC_EXPECT_EQ(mode, VLC_PHY_MODE_4PPM);
	VLC_EXPECT_EQ(b, 200);
	VLC_EXPECT_REFUSED(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_4PPM, 300, &why),
			   "brightness");
	VLC_EXPECT_EQ(phy->new_brightness, 200);
}

/* ---- 6. late callbacks ---------------------------------------------- */

/* Step until node @n is about to end slot @slot of a frame. */
static void vlc_test_step_to_slot(struct vlc_hsim *ch, struct vlc_hsim_node *n,
				  u8 slot)
{
	int guard = 100000;

	while (n->phy.cur != slot && guard--)
		vlc_hsim_step(ch);
}

static bool vlc_test_on_grid(u64 t, u32 frame_ns)
{
	u32 rem;

	div_u64_rem(t - T0, frame_ns, &rem);
	return rem == 0;
}

/* 6b. The start of D1 handled 0.5, 1 and 3 data slots late: a measured
 * slot handled late is an erasure and counted (late), one handled at or
 * after its end is skipped (overrun), and the grid stays anchored.
 */
VLC_TEST(vlc_phy_test_late_slots)
{
	static const struct {
		u32 half_slots;		/* lateness in data_ns / 2 */
		u8 cur;			/* slot the tick resumes in */
		bool overrun;
	} c[] = {
		{ 1, 2, false },	/* 25 us: still in D1 */
		{ 2, 3, true },		/* 50 us: D1 over, in G2 */
		{ 6, 6, true },		/* 150 us: D1 G2 D2 G3 over, in S2 */
	};
	struct vlc_hsim *ch = vlc_test_pair(0x51a7, VLC_PHY_MODE_2SLOT, 200);
	struct vlc_hsim_node *rx = &ch->node[RX];
	struct vlc_phy *phy = &rx->phy;
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 i, late, ovr, frames;
	u64 fs;

	ch->noise = vlc_test_noise(50);
	ch->node[TX].tx = VLC_HSIM_TX_RANDOM;
	vlc_test_start_pair(ch);
	vlc_hsim_run_frames(ch, RX, 64);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		vlc_test_step_to_slot(ch, rx, 1);
		fs = vlc_phy_frame_start(phy);
		late = phy->stats.late;
		ovr = phy->stats.overruns;
		frames = rx->rx_frames;
		rx->late_ns = (u64)c[i].half_slots * tm->data_ns / 2;
		while (phy->cur == 1)
			vlc_hsim_step(ch);
		VLC_EXPECT_EQ(phy->stats.late, late + 1);
		VLC_EXPECT_EQ(phy->stats.overruns, ovr + c[i].overrun);
		VLC_EXPECT_EQ(phy->cur, c[i].cur);
		/* on the grid: the end of the slot resumed in, not now + x */
		VLC_EXPECT_EQ(vlc_phy_next_ns(phy),
			      fs + phy->slot[c[i].cur].start +
			      phy->slot[c[i].cur].len);
		vlc_hsim_run_frames(ch, RX, rx->rx_frames - frames + 1);
		VLC_EXPECT_EQ(phy->last_rx.sym, VLC_SYM_ERASURE);
		VLC_EXPECT_TRUE(phy->last_rx.flags &
				(c[i].overrun ? VLC_PHY_RX_OVERRUN :
						VLC_PHY_RX_LATE));
		VLC_EXPECT_TRUE(vlc_test_on_grid(vlc_phy_frame_start(phy),
						 tm->frame_ns));
	}
}

VLC_TEST(vlc_phy_test_late)
{
	struct vlc_hsim *ch = vlc_test_pair(0x1a7e, VLC_PHY_MODE_2SLOT, 200);
	struct vlc_hsim_node *rx = &ch->node[RX];
	struct vlc_phy *phy = &rx->phy;
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 frames, late, ovr;
	u64 now, fs, next;

	ch->ambient = 20 * SIG;
	ch->noise = vlc_test_noise(20);
	ch->node[TX].tx = VLC_HSIM_TX_RANDOM;
	vlc_test_start_pair(ch);
	vlc_hsim_run_frames(ch, RX, 32);
	vlc_hsim_score_reset(rx);
	VLC_EXPECT_EQ(phy->stats.late, 0);
	VLC_EXPECT_EQ(phy->stats.overruns, 0);

	/* (a) end of G1 late by more than tolerance: D1 starts late */
	vlc_test_step_to_slot(ch, rx, 1);
	rx->late_ns = tm->tolerance_ns + 1000;
	fs = vlc_phy_frame_start(phy);
	frames = rx->rx_frames;
	while (phy->cur == 1)
		vlc_hsim_step(ch);
	now = fs + phy->slot[1].start + phy->slot[1].len +
	      tm->tolerance_ns + 1000;
	VLC_EXPECT_EQ(phy->stats.late, 1);
	VLC_EXPECT_EQ(phy->stats.overruns, 0);
	VLC_EXPECT_EQ(phy->cur, 2);
	/* anchored: the end of D1 on the grid, not now + data_ns */
	VLC_EXPECT_EQ(vlc_phy_next_ns(phy),
		      fs + phy->slot[2].start + phy->slot[2].len);
	VLC_EXPECT_LT(vlc_phy_next_ns(phy), now + tm->data_ns);
	vlc_hsim_run_frames(ch, RX, rx->rx_frames - frames + 1);
	VLC_EXPECT_EQ(phy->last_rx.sym, VLC_SYM_ERASURE);
	VLC_EXPECT_TRUE(phy->last_rx.flags & VLC_PHY_RX_LATE);
	VLC_EXPECT_EQ(rx->score.erasures, 1);

	/* (b) end of D1 100 us late: G2, D2, G3 pass unseen */
	vlc_test_step_to_slot(ch, rx, 2);
	fs = vlc_phy_frame_start(phy);
	late = phy->stats.late;
	ovr = phy->stats.overruns;
	rx->late_ns = 100000;
	frames = rx->rx_frames;
	while (rx->phy.cur == 2)
		vlc_hsim_step(ch);
	now = fs + phy->slot[2].start + phy->slot[2].len + 100000;
	VLC_EXPECT_EQ(phy->stats.overruns, ovr + 1);
	VLC_EXPECT_EQ(phy->stats.late, late + 1);
	/* only rx_end of D1 and rx_begin of S2, both at the late time */
	VLC_EXPECT_EQ(rx->pin_calls, 2);
	VLC_EXPECT_EQ(rx->pin_min_t, now);
	VLC_EXPECT_EQ(phy->cur, 6);	/* S2, the slot containing now */
	next = vlc_phy_next_ns(phy);
	VLC_EXPECT_EQ(next, fs + phy->slot[6].start + phy->slot[6].len);
	VLC_EXPECT_GT(next, now);
	vlc_hsim_run_frames(ch, RX, rx->rx_frames - frames + 1);
	VLC_EXPECT_EQ(phy->last_rx.sym, VLC_SYM_ERASURE);
	VLC_EXPECT_TRUE(phy->last_rx.flags & VLC_PHY_RX_OVERRUN);

	/* (c) three frames and a bit late: whole frames are stepped over */
	vlc_test_step_to_slot(ch, rx, 3);
	ovr = phy->stats.overruns;
	rx->late_ns = 3 * (u64)tm->frame_ns + 123000;
	while (phy->cur == 3)
		vlc_hsim_step(ch);
	VLC_EXPECT_EQ(phy->stats.overruns, ovr + 1);
	VLC_EXPECT_LE(rx->pin_calls, 3);
	VLC_EXPECT_TRUE(vlc_test_on_grid(vlc_phy_frame_start(phy),
					 tm->frame_ns));
	VLC_EXPECT_GT(vlc_phy_next_ns(phy), ch->now);
	VLC_EXPECT_GE(phy->last_rx.skipped, 2);

	/* and the receiver is back to decoding */
	vlc_hsim_run_frames(ch, RX, 2);
	vlc_hsim_score_reset(rx);
	vlc_hsim_run_frames(ch, RX, 40);
	VLC_EXPECT_EQ(rx->score.correct, 40);
	VLC_EXPECT_TRUE(vlc_test_on_grid(vlc_phy_frame_start(phy),
					 tm->frame_ns));
}

/* ---- 7. phase adjustment -------------------------------------------- */

VLC_TEST(vlc_phy_test_phase)
{
	const struct vlc_phy_timing *tm = &vlc_phy_default_timing;
	struct vlc_hsim *ch = vlc_test_pair(0xfa5e, VLC_PHY_MODE_2SLOT, 300);
	struct vlc_hsim_node *tx = &ch->node[TX];
	struct vlc_phy *phy = &tx->phy;
	struct vlc_test_light l = { 0 };
	u32 fns = tm->frame_ns, rem;
	u64 fs;

	tx->tx = VLC_HSIM_TX_RANDOM;
	tx->idle_per256 = 96;
	ch->on_frame = vlc_test_light_frame;
	ch->priv = &l;
	vlc_hsim_start(ch, TX, T0);
	vlc_hsim_run_until(ch, T0 + 8ULL * fns);

	/* +7 us: one frame 7 us longer, on-time untouched */
	vlc_phy_adjust_phase(phy, 7000);
	l = (struct vlc_test_light){ .have = true, .brightness = 300,
		.data_ns = tm->data_ns, .frame_ns = fns };
	vlc_hsim_run_until(ch, ch->now + 4ULL * fns);
	VLC_EXPECT_EQ(l.len_other, 1);
	VLC_EXPECT_EQ(l.len_sum, (u64)l.frames * fns + 7000);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	fs = vlc_phy_frame_start(phy);
	div_u64_rem(fs - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 7000);

	/* -3 us */
	vlc_phy_adjust_phase(phy, -3000);
	l.frames = 0;
	l.len_sum = 0;
	l.len_other = 0;
	vlc_hsim_run_until(ch, ch->now + 4ULL * fns);
	VLC_EXPECT_EQ(l.len_other, 1);
	VLC_EXPECT_EQ(l.len_sum + 3000, (u64)l.frames * fns);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	div_u64_rem(vlc_phy_frame_start(phy) - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 4000);

	/* +100 us: clamped to sync_ns per frame, the rest carried */
	vlc_phy_adjust_phase(phy, 100000);
	l.frames = 0;
	l.len_sum = 0;
	l.len_other = 0;
	vlc_hsim_run_until(ch, ch->now + 6ULL * fns);
	VLC_EXPECT_EQ(l.len_other, 3);	/* +40, +40, +20 us */
	VLC_EXPECT_EQ(l.len_sum, (u64)l.frames * fns + 100000);
	VLC_EXPECT_EQ(phy->phase_pending, 0);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	div_u64_rem(vlc_phy_frame_start(phy) - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 104000);

	/* at full brightness idle frames have no dark ID to shrink */
	VLC_ASSERT_EQ(vlc_phy_set_brightness(phy, 520, NULL), 0);
	vlc_hsim_run_until(ch, ch->now + 2ULL * fns);
	vlc_phy_adjust_phase(phy, -60000);
	l.frames = 0;
	l.len_sum = 0;
	l.len_other = 0;
	vlc_hsim_run_until(ch, ch->now + 30ULL * fns);
	VLC_EXPECT_EQ(phy->phase_pending, 0);
	VLC_EXPECT_EQ(l.len_sum + 60000, (u64)l.frames * fns);
	VLC_EXPECT_GE(l.len_other, 2);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	div_u64_rem(vlc_phy_frame_start(phy) - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 44000);
	ch->on_frame = NULL;
}

/* ---- 12. a signal estimate set too high comes down ------------------ */

/* A pair in ambient 20x the signal at 20 dB, TX sending random symbols,
 * run until RX should be locked.
 */
static struct vlc_hsim *vlc_test_locked_pair(u64 seed, enum vlc_phy_mode mode)
{
	struct vlc_hsim *ch = vlc_test_pair(seed, mode, 200);

	ch->ambient = 20 * SIG;
	ch->noise = vlc_test_noise(20);
	ch->node[TX].tx = VLC_HSIM_TX_RANDOM;
	vlc_test_start_pair(ch);
	vlc_hsim_run_frames(ch, RX, 64);
	return ch;
}

/* Locked on the illumination of several aligned neighbours, a PHY takes
 * their sum for the signal (colliding senders raise it too): a single
 * sender's symbols, under half of it, are erasures until it follows the
 * clean lit slots down again.
 */
VLC_TEST(vlc_phy_test_signal_down)
{
	enum vlc_phy_mode mode;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		struct vlc_hsim *ch = vlc_test_locked_pair(0x51d0, mode);
		struct vlc_hsim_node *rx = &ch->node[RX];
		struct vlc_hsim_score *sc = &rx->score;
		u32 sig;

		sig = rx->phy.signal;
		VLC_ASSERT_TRUE(rx->phy.locked);
		VLC_ASSERT_GE(sig, SIG / 2);
		rx->phy.signal = 4 * sig;
		vlc_hsim_score_reset(rx);
		vlc_hsim_run_frames(ch, RX, 64);

		VLC_TEST_LOG("mode %d signal 4x: %u erased, then %u decided, signal %u -> %u",
			     mode, sc->erasures, sc->correct, 4 * sig,
			     rx->phy.signal);
		VLC_EXPECT_GE(sc->erasures, 1);
		VLC_EXPECT_GE(sc->correct, 48);
		VLC_EXPECT_EQ(sc->wrong, 0);
		VLC_EXPECT_TRUE(rx->phy.locked);
		VLC_EXPECT_LE(rx->phy.signal, sig + sig / 4);
	}
}

/* ---- 13. the lock ends in the dark ------------------------------------ */

/* Covered, a locked receiver sees ambient and noise only. Now and then
 * the noise crosses the sync threshold in S1 or S2; that is no neighbour,
 * and the lock must end a signal hold after the light went, every seed.
 */
#define VLC_TEST_DARK_SEEDS	8

VLC_TEST(vlc_phy_test_dark_unlock)
{
	enum vlc_phy_mode mode;
	u32 seed;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		u32 worst = 0, syncs = 0;

		for (seed = 0; seed < VLC_TEST_DARK_SEEDS; seed++) {
			struct vlc_hsim *ch = vlc_test_locked_pair(0xda4c + seed,
								    mode);
			struct vlc_hsim_node *rx = &ch->node[RX];
			u32 f;

			VLC_ASSERT_TRUE(rx->phy.locked);

			ch->gain[TX][RX] = 0;
			vlc_hsim_score_reset(rx);
			f = 0;
			while (rx->phy.locked && f++ < 3 * VLC_PHY_SIGNAL_HOLD)
				vlc_hsim_run_frames(ch, RX, 1);
			worst = max(worst, f);
			syncs += rx->score.sync[VLC_PHY_SYNC_EARLY] +
				 rx->score.sync[VLC_PHY_SYNC_LATE];
		}
		VLC_TEST_LOG("mode %d: unlocked after at most %u dark frames, %u noise syncs",
			     mode, worst, syncs);
		VLC_EXPECT_GE(syncs, 1);
		VLC_EXPECT_LE(worst, VLC_PHY_SIGNAL_HOLD + 64);
	}
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_phy_test_cases[] = {
	VLC_TEST_CASE_SLOW(vlc_phy_test_roundtrip)
	VLC_TEST_CASE_SLOW(vlc_phy_test_low_snr)
	VLC_TEST_CASE_SLOW(vlc_phy_test_collision)
	VLC_TEST_CASE(vlc_phy_test_sync)
	VLC_TEST_CASE_SLOW(vlc_phy_test_brightness)
	VLC_TEST_CASE(vlc_phy_test_light_model)
	VLC_TEST_CASE(vlc_phy_test_validation_timing)
	VLC_TEST_CASE(vlc_phy_test_validation_brightness)
	VLC_TEST_CASE(vlc_phy_test_validation_mode)
	VLC_TEST_CASE(vlc_phy_test_validation_pending)
	VLC_TEST_CASE(vlc_phy_test_validation_mode_held)
	VLC_TEST_CASE(vlc_phy_test_validation_config)
	VLC_TEST_CASE(vlc_phy_test_late)
	VLC_TEST_CASE(vlc_phy_test_late_slots)
	VLC_TEST_CASE(vlc_phy_test_phase)
	VLC_TEST_CASE(vlc_phy_test_signal_down)
	VLC_TEST_CASE_SLOW(vlc_phy_test_dark_unlock)
	VLC_TEST_CASES_END
};
