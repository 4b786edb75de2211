// SPDX-License-Identifier: GPL-2.0
/* Test cases of the VLC PHY core, written once and included by the KUnit
 * wrapper (vlc_phy_kunit.c) and the host cmocka runner
 * (tests/host/vlc_phy_test.c). The table at the end lists them for both.
 *
 * Units: a lit data slot measures SIG above ambient at the receiver;
 * "SNR" is SIG over the rms noise of a data_ns window.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>

#include "vlc_test.h"
#include "vlc_test_chan.h"
#include "vlc_phy.h"

#define SIG		10000U
#define T0		1000000ULL	/* virtual time of the first frame */
#define TX		0
#define RX		1
#define TX2		2

/* Too big for a kernel stack, and the cases run one at a time. */
static struct vlc_chan vlc_test_ch;
static u8 vlc_test_seq[2048];

static u32 vlc_test_frame_ns(void)
{
	return vlc_phy_default_timing.frame_ns;
}

/* TX node 0 seen by RX node 1 at SIG; TX2 is dark until a case wires it. */
static struct vlc_chan *vlc_test_pair(u64 seed, enum vlc_phy_mode mode,
				      u32 brightness)
{
	struct vlc_chan *ch = &vlc_test_ch;
	int i;

	vlc_chan_init(ch, seed);
	ch->gain[TX][RX] = SIG;
	for (i = 0; i < VLC_CHAN_NODES; i++) {
		vlc_phy_set_mode(&ch->node[i].phy, mode, NULL);
		vlc_phy_set_brightness(&ch->node[i].phy, brightness, NULL);
	}
	vlc_phy_set_rx_min_level(&ch->node[RX].phy, SIG / 10);
	ch->node[RX].ref = TX;
	return ch;
}

static void vlc_test_start_pair(struct vlc_chan *ch)
{
	vlc_chan_start(ch, TX, T0);
	vlc_chan_start(ch, RX, T0);
}

/* Noise rms for a signal-to-noise ratio @snr on a data window. */
static u32 vlc_test_noise(u32 snr)
{
	return SIG / snr;
}

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
			struct vlc_chan *ch = vlc_test_pair(0x5eed + c, mode,
							    200);
			struct vlc_chan_node *tx = &ch->node[TX];
			struct vlc_chan_node *rx = &ch->node[RX];
			struct vlc_chan_score *sc = &rx->score;
			u32 n = vlc_test_fill_bytes(mode);

			ch->ambient = cd->dc;
			ch->flicker100 = cd->f100;
			ch->flicker120 = cd->f120;
			ch->noise = vlc_test_noise(cd->snr);
			tx->tx = VLC_CHAN_TX_RANDOM;
			vlc_test_start_pair(ch);
			/* warm-up: noise and signal estimates settle */
			vlc_chan_run_frames(ch, RX, 32);
			tx->tx = VLC_CHAN_TX_SEQ;
			tx->seq = vlc_test_seq;
			tx->seq_len = n;
			vlc_chan_score_reset(rx);
			vlc_chan_run_frames(ch, RX, n);

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
			struct vlc_chan *ch = vlc_test_pair(0x10 + i, mode,
							    200);
			struct vlc_chan_node *rx = &ch->node[RX];
			struct vlc_chan_score *sc = &rx->score;

			ch->ambient = 20 * SIG;
			ch->flicker100 = 2 * SIG;
			ch->noise = vlc_test_noise(snrs[i]);
			ch->node[TX].tx = VLC_CHAN_TX_RANDOM;
			vlc_test_start_pair(ch);
			/* scored from the cold start on */
			vlc_chan_run_frames(ch, RX, VLC_TEST_LOW_N);

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
		struct vlc_chan *ch = vlc_test_pair(0xc011, mode, 200);
		struct vlc_chan_node *rx = &ch->node[RX];
		struct vlc_chan_score *sc = &rx->score;
		u64 join = T0 + 64ULL * vlc_test_frame_ns();

		ch->ambient = 20 * SIG;
		ch->flicker120 = 5 * SIG;
		ch->noise = vlc_test_noise(20);
		ch->gain[TX2][RX] = SIG;
		ch->node[TX].tx = VLC_CHAN_TX_RANDOM;
		ch->node[TX2].tx = VLC_CHAN_TX_MIRROR;
		ch->node[TX2].mirror = TX;
		vlc_test_start_pair(ch);
		/* the receiver first learns the signal from one transmitter */
		vlc_chan_run_until(ch, join);
		VLC_EXPECT_EQ(rx->score.wrong, 0);
		VLC_EXPECT_GE(rx->score.correct, 50);
		vlc_chan_start(ch, TX2, join);
		vlc_chan_run_frames(ch, RX, 1);
		vlc_chan_score_reset(rx);
		vlc_chan_run_frames(ch, RX, VLC_TEST_COLL_N);

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
		struct vlc_chan *ch = vlc_test_pair(0x5c + i, sw[i].mode,
						    sw[i].brightness);
		struct vlc_chan_node *tx = &ch->node[TX];
		struct vlc_chan_node *rx = &ch->node[RX];
		struct vlc_chan_score *sc = &rx->score;
		u32 wrong = 0;
		s32 d;

		ch->ambient = 5 * SIG;
		ch->flicker100 = SIG;
		ch->noise = vlc_test_noise(200);
		tx->tx = VLC_CHAN_TX_RANDOM;
		tx->idle_per256 = 64;
		vlc_test_start_pair(ch);
		vlc_chan_run_frames(ch, RX, 64);

		for (d = -sw[i].max_ns; d <= sw[i].max_ns; d += step) {
			s64 mean;
			u32 n;

			/* positive: the transmitter's frames come later */
			vlc_phy_adjust_phase(&tx->phy, d);
			vlc_chan_run_frames(ch, RX, 3);
			vlc_chan_score_reset(rx);
			vlc_chan_run_frames(ch, RX, 16);
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
			vlc_chan_run_frames(ch, RX, 3);
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

static void vlc_test_light_frame(struct vlc_chan *ch, struct vlc_chan_node *n,
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
	struct vlc_chan *ch = &vlc_test_ch;
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
		struct vlc_chan_node *tx;

		vlc_chan_init(ch, 0xb1 + mode);
		tx = &ch->node[TX];
		vlc_phy_set_mode(&tx->phy, mode, NULL);
		vlc_phy_brightness_range(tm, mode, &min, &max);
		tx->tx = VLC_CHAN_TX_RANDOM;
		tx->idle_per256 = 96;
		ch->on_frame = vlc_test_light_frame;
		ch->priv = &l;
		vlc_chan_start(ch, TX, T0);

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
			vlc_chan_run_until(ch, ch->now + tm->frame_ns);
			l = (struct vlc_test_light){ 0 };
			vlc_chan_run_until(ch, ch->now + VLC_TEST_LIGHT_FRAMES *
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

VLC_TEST(vlc_phy_test_validation)
{
	const struct vlc_phy_timing def = vlc_phy_default_timing;
	struct vlc_chan *ch = vlc_test_pair(0x7a1, VLC_PHY_MODE_2SLOT, 400);
	struct vlc_phy *phy = &ch->node[TX].phy;
	struct vlc_phy_timing t;
	const char *why;

	vlc_chan_start(ch, TX, T0);
	vlc_chan_run_until(ch, T0 + 3 * (u64)def.frame_ns);

	t = def;
	t.data_ns = 0;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "data-us");

	t = def;
	t.sync_ns = 0;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "sync-us");

	t = def;
	t.guard_ns = 10000;	/* tolerance stays 20000 */
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "guard-us shorter than tolerance-us");

	t = def;
	t.frame_ns = 230000;	/* 2-slot dark part is 240000 */
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "frame-us too short");

	t = def;
	t.frame_ns = VLC_PHY_FRAME_NS_MAX + 1;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "frame-us above");

	/* slots of 1 ns fit a 16 ns frame, which no timer can run and
	 * whose acquisition grid would be 0 (found by the fuzzer, K2)
	 */
	t.sync_ns = 1;
	t.guard_ns = 1;
	t.data_ns = 1;
	t.tolerance_ns = 0;
	t.frame_ns = 16;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "frame-us below 10 us");

	/* fits 2-slot, but the illumination left cannot give 40% */
	t = def;
	t.frame_ns = 380000;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness");

	VLC_EXPECT_EQ(vlc_phy_set_brightness(phy, 521, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness above");
	VLC_EXPECT_EQ(vlc_phy_set_brightness(phy, 1001, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness");
	/* one data slot is 100 per-mille: below, idle pulses pass for data */
	VLC_EXPECT_EQ(vlc_phy_set_brightness(phy, 99, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness below the minimum");
	VLC_EXPECT_EQ(vlc_phy_set_brightness(phy, 0, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness below the minimum");
	/* a longer data slot takes the setting below its minimum */
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &def, VLC_PHY_MODE_2SLOT, 100,
					 &why), 0);
	t = def;
	t.data_ns = 60000;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness below the minimum");
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &def, VLC_PHY_MODE_2SLOT, 400,
					 &why), 0);

	/* 40% fits 2-slot but not 4-PPM (max 24%) */
	VLC_EXPECT_EQ(vlc_phy_set_mode(phy, VLC_PHY_MODE_4PPM, &why),
		      -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness");
	VLC_EXPECT_EQ(vlc_phy_set_mode(phy, 7, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "modulation");

	/* nothing of the above changed anything, now or later */
	vlc_chan_run_until(ch, ch->now + 2 * (u64)def.frame_ns);
	VLC_EXPECT_TRUE(vlc_test_timing_eq(&phy->timing, &def));
	VLC_EXPECT_TRUE(vlc_test_timing_eq(&phy->new_timing, &def));
	VLC_EXPECT_EQ(phy->brightness, 400);
	VLC_EXPECT_EQ(phy->mode, VLC_PHY_MODE_2SLOT);

	/* a good value waits for the frame boundary */
	t = def;
	t.frame_ns = 600000;
	VLC_EXPECT_EQ(vlc_phy_set_timing(phy, &t, &why), 0);
	VLC_EXPECT_TRUE(!why);
	VLC_EXPECT_EQ(phy->timing.frame_ns, def.frame_ns);
	vlc_chan_run_until(ch, vlc_phy_frame_start(phy) + def.frame_ns);
	VLC_EXPECT_EQ(phy->timing.frame_ns, 600000);

	t = def;
	t.tolerance_ns = 0;	/* allowed: a perfect timer */
	VLC_EXPECT_EQ(vlc_phy_timing_check(&t, VLC_PHY_MODE_4PPM, &why), 0);

	/* 2-slot at 400 per-mille to 4-PPM at 200: neither order of single
	 * changes works (4-PPM allows at most 240), the pair at once does
	 */
	t = def;
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_2SLOT, 400,
					 NULL), 0);
	VLC_EXPECT_EQ(vlc_phy_set_mode(phy, VLC_PHY_MODE_4PPM, &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness");
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_4PPM, 200,
					 &why), 0);
	{
		struct vlc_phy_timing got;
		enum vlc_phy_mode mode;
		u32 b;

		vlc_phy_get_config(phy, &got, &mode, &b);
		VLC_EXPECT_TRUE(vlc_test_timing_eq(&got, &def));
		VLC_EXPECT_EQ(mode, VLC_PHY_MODE_4PPM);
		VLC_EXPECT_EQ(b, 200);
	}
	VLC_EXPECT_EQ(vlc_phy_set_config(phy, &t, VLC_PHY_MODE_4PPM, 300,
					 &why), -EINVAL);
	VLC_EXPECT_STR_HAS(why, "brightness");
	VLC_EXPECT_EQ(phy->new_brightness, 200);
}

/* ---- 6. late callbacks ---------------------------------------------- */

/* Step until node @n is about to end slot @slot of a frame. */
static void vlc_test_step_to_slot(struct vlc_chan *ch, struct vlc_chan_node *n,
				  u8 slot)
{
	int guard = 100000;

	while (n->phy.cur != slot && guard--)
		vlc_chan_step(ch);
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
	struct vlc_chan *ch = vlc_test_pair(0x51a7, VLC_PHY_MODE_2SLOT, 200);
	struct vlc_chan_node *rx = &ch->node[RX];
	struct vlc_phy *phy = &rx->phy;
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 i, late, ovr, frames;
	u64 fs;

	ch->noise = vlc_test_noise(50);
	ch->node[TX].tx = VLC_CHAN_TX_RANDOM;
	vlc_test_start_pair(ch);
	vlc_chan_run_frames(ch, RX, 64);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		vlc_test_step_to_slot(ch, rx, 1);
		fs = vlc_phy_frame_start(phy);
		late = phy->stats.late;
		ovr = phy->stats.overruns;
		frames = rx->rx_frames;
		rx->late_ns = (u64)c[i].half_slots * tm->data_ns / 2;
		while (phy->cur == 1)
			vlc_chan_step(ch);
		VLC_EXPECT_EQ(phy->stats.late, late + 1);
		VLC_EXPECT_EQ(phy->stats.overruns, ovr + c[i].overrun);
		VLC_EXPECT_EQ(phy->cur, c[i].cur);
		/* on the grid: the end of the slot resumed in, not now + x */
		VLC_EXPECT_EQ(vlc_phy_next_ns(phy),
			      fs + phy->slot[c[i].cur].start +
			      phy->slot[c[i].cur].len);
		vlc_chan_run_frames(ch, RX, rx->rx_frames - frames + 1);
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
	struct vlc_chan *ch = vlc_test_pair(0x1a7e, VLC_PHY_MODE_2SLOT, 200);
	struct vlc_chan_node *rx = &ch->node[RX];
	struct vlc_phy *phy = &rx->phy;
	const struct vlc_phy_timing *tm = &phy->timing;
	u32 frames, late, ovr;
	u64 now, fs, next;

	ch->ambient = 20 * SIG;
	ch->noise = vlc_test_noise(20);
	ch->node[TX].tx = VLC_CHAN_TX_RANDOM;
	vlc_test_start_pair(ch);
	vlc_chan_run_frames(ch, RX, 32);
	vlc_chan_score_reset(rx);
	VLC_EXPECT_EQ(phy->stats.late, 0);
	VLC_EXPECT_EQ(phy->stats.overruns, 0);

	/* (a) end of G1 late by more than tolerance: D1 starts late */
	vlc_test_step_to_slot(ch, rx, 1);
	rx->late_ns = tm->tolerance_ns + 1000;
	fs = vlc_phy_frame_start(phy);
	frames = rx->rx_frames;
	while (phy->cur == 1)
		vlc_chan_step(ch);
	now = fs + phy->slot[1].start + phy->slot[1].len +
	      tm->tolerance_ns + 1000;
	VLC_EXPECT_EQ(phy->stats.late, 1);
	VLC_EXPECT_EQ(phy->stats.overruns, 0);
	VLC_EXPECT_EQ(phy->cur, 2);
	/* anchored: the end of D1 on the grid, not now + data_ns */
	VLC_EXPECT_EQ(vlc_phy_next_ns(phy),
		      fs + phy->slot[2].start + phy->slot[2].len);
	VLC_EXPECT_LT(vlc_phy_next_ns(phy), now + tm->data_ns);
	vlc_chan_run_frames(ch, RX, rx->rx_frames - frames + 1);
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
		vlc_chan_step(ch);
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
	vlc_chan_run_frames(ch, RX, rx->rx_frames - frames + 1);
	VLC_EXPECT_EQ(phy->last_rx.sym, VLC_SYM_ERASURE);
	VLC_EXPECT_TRUE(phy->last_rx.flags & VLC_PHY_RX_OVERRUN);

	/* (c) three frames and a bit late: whole frames are stepped over */
	vlc_test_step_to_slot(ch, rx, 3);
	ovr = phy->stats.overruns;
	rx->late_ns = 3 * (u64)tm->frame_ns + 123000;
	while (phy->cur == 3)
		vlc_chan_step(ch);
	VLC_EXPECT_EQ(phy->stats.overruns, ovr + 1);
	VLC_EXPECT_LE(rx->pin_calls, 3);
	VLC_EXPECT_TRUE(vlc_test_on_grid(vlc_phy_frame_start(phy),
					 tm->frame_ns));
	VLC_EXPECT_GT(vlc_phy_next_ns(phy), ch->now);
	VLC_EXPECT_GE(phy->last_rx.skipped, 2);

	/* and the receiver is back to decoding */
	vlc_chan_run_frames(ch, RX, 2);
	vlc_chan_score_reset(rx);
	vlc_chan_run_frames(ch, RX, 40);
	VLC_EXPECT_EQ(rx->score.correct, 40);
	VLC_EXPECT_TRUE(vlc_test_on_grid(vlc_phy_frame_start(phy),
					 tm->frame_ns));
}

/* ---- 7. phase adjustment -------------------------------------------- */

VLC_TEST(vlc_phy_test_phase)
{
	const struct vlc_phy_timing *tm = &vlc_phy_default_timing;
	struct vlc_chan *ch = vlc_test_pair(0xfa5e, VLC_PHY_MODE_2SLOT, 300);
	struct vlc_chan_node *tx = &ch->node[TX];
	struct vlc_phy *phy = &tx->phy;
	struct vlc_test_light l = { 0 };
	u32 fns = tm->frame_ns, rem;
	u64 fs;

	tx->tx = VLC_CHAN_TX_RANDOM;
	tx->idle_per256 = 96;
	ch->on_frame = vlc_test_light_frame;
	ch->priv = &l;
	vlc_chan_start(ch, TX, T0);
	vlc_chan_run_until(ch, T0 + 8ULL * fns);

	/* +7 us: one frame 7 us longer, on-time untouched */
	vlc_phy_adjust_phase(phy, 7000);
	l = (struct vlc_test_light){ .have = true, .brightness = 300,
		.data_ns = tm->data_ns, .frame_ns = fns };
	vlc_chan_run_until(ch, ch->now + 4ULL * fns);
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
	vlc_chan_run_until(ch, ch->now + 4ULL * fns);
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
	vlc_chan_run_until(ch, ch->now + 6ULL * fns);
	VLC_EXPECT_EQ(l.len_other, 3);	/* +40, +40, +20 us */
	VLC_EXPECT_EQ(l.len_sum, (u64)l.frames * fns + 100000);
	VLC_EXPECT_EQ(phy->phase_pending, 0);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	div_u64_rem(vlc_phy_frame_start(phy) - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 104000);

	/* at full brightness idle frames have no dark ID to shrink */
	VLC_ASSERT_EQ(vlc_phy_set_brightness(phy, 520, NULL), 0);
	vlc_chan_run_until(ch, ch->now + 2ULL * fns);
	vlc_phy_adjust_phase(phy, -60000);
	l.frames = 0;
	l.len_sum = 0;
	l.len_other = 0;
	vlc_chan_run_until(ch, ch->now + 30ULL * fns);
	VLC_EXPECT_EQ(phy->phase_pending, 0);
	VLC_EXPECT_EQ(l.len_sum + 60000, (u64)l.frames * fns);
	VLC_EXPECT_GE(l.len_other, 2);
	VLC_EXPECT_EQ(l.bad_data + l.bad_idle, 0);
	div_u64_rem(vlc_phy_frame_start(phy) - T0, fns, &rem);
	VLC_EXPECT_EQ(rem, 44000);
	ch->on_frame = NULL;
}

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
static bool vlc_test_acq_locked(struct vlc_chan *ch)
{
	u32 locked = 0, none = 0;
	int i;

	if (!vlc_test_within(vlc_chan_offset(ch, A0, A1), VLC_TEST_ACQ_TOL))
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
	struct vlc_chan *ch = &vlc_test_ch;
	struct vlc_chan_node *n0 = &ch->node[A0], *n1 = &ch->node[A1];
	u32 f, lock_at = 0, nsym = 0, b, k, bits = vlc_phy_bits(cfg->mode);
	u8 log[VLC_TEST_ACQ_BYTES * 8 + 8];
	u32 sig = cfg->sig ?: SIG;
	int i;

	vlc_chan_init(ch, seed);
	ch->gain[A0][A1] = sig;
	ch->gain[A1][A0] = sig;
	ch->ambient = (cfg->sig ? 2 : 5) * sig;
	ch->flicker100 = sig;
	ch->noise = cfg->sig ? cfg->noise : vlc_test_noise(VLC_TEST_ACQ_SNR);
	for (i = A0; i <= A1; i++) {
		if (cfg->led)
			vlc_chan_set_led_rx(ch, i);
		vlc_phy_set_mode(&ch->node[i].phy, cfg->mode, NULL);
		vlc_phy_set_brightness(&ch->node[i].phy, cfg->brightness, NULL);
		vlc_phy_set_rx_min_level(&ch->node[i].phy, sig / 10 /
					 (cfg->led ? VLC_LIGHT_LED_DIV : 1));
	}
	n0->resync = VLC_CHAN_RESYNC_MAC;
	n1->resync = both ? VLC_CHAN_RESYNC_MAC : VLC_CHAN_RESYNC_OFF;
	n0->defer_ticks = vlc_test_acq_defer;
	n1->defer_ticks = vlc_test_acq_defer;
	if (data) {
		n1->tx = VLC_CHAN_TX_RANDOM;
		n1->idle_per256 = 32;
	}
	vlc_chan_start(ch, A0, T0);
	vlc_chan_run_until(ch, T0 + off);
	vlc_chan_start(ch, A1, T0 + off);

	for (f = 1; f <= VLC_TEST_ACQ_LOCK + VLC_TEST_ACQ_HOLD; f++) {
		vlc_chan_run_frames(ch, A1, 1);
		if (!vlc_test_acq_locked(ch))
			lock_at = f;
	}
	lock_at++;

	vlc_test_acq_end.offset = vlc_chan_offset(ch, A0, A1);
	for (i = A0; i <= A1; i++) {
		vlc_test_acq_end.locked[i] = ch->node[i].phy.locked;
		vlc_test_acq_end.sync[i] = ch->node[i].phy.last_rx.sync;
		vlc_test_acq_end.off[i] = ch->node[i].phy.last_rx.offset_ns;
	}

	/* then A0 sends bytes to A1, after a preamble (a MAC frame has
	 * one) that lets an A1 which never saw A0 acquire its data light
	 */
	n1->tx = VLC_CHAN_TX_IDLE;
	for (b = 0; b < VLC_TEST_ACQ_PREAMBLE; b++)
		vlc_test_seq[nsym++] = vlc_chan_rand_below(ch, 1U << bits);
	for (b = 0; b < VLC_TEST_ACQ_GAP; b++)
		vlc_test_seq[nsym++] = VLC_SYM_IDLE & 0xff;
	for (b = 0; b < VLC_TEST_ACQ_BYTES; b++) {
		u8 v = vlc_chan_rand_below(ch, 256);

		for (k = 0; k < 8; k += bits)
			vlc_test_seq[nsym++] = (v >> k) & ((1U << bits) - 1);
	}
	vlc_chan_run_frames(ch, A1, 2);
	n0->tx = VLC_CHAN_TX_SEQ;
	n0->seq = vlc_test_seq;
	n0->seq_len = nsym;
	n0->seq_pos = 0;
	vlc_chan_run_frames(ch, A1, VLC_TEST_ACQ_PREAMBLE +
			    VLC_TEST_ACQ_GAP / 2);
	n1->log = log;
	n1->log_len = sizeof(log);
	vlc_chan_run_frames(ch, A1, nsym - VLC_TEST_ACQ_PREAMBLE -
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
	 * every run; what the acquisition reaches today is asserted so it
	 * does not regress: 299 of 320 runs with both sides correcting
	 * (one-sided runs are logged only: a corrector that only sees
	 * data pulses, at brightness 100, has no fine measure of them).
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

static void vlc_test_hid_rx(struct vlc_chan *ch, struct vlc_chan_node *n,
			    const struct vlc_phy_rx *rx)
{
	if (n != &ch->node[A1] || !rx->acquiring || !rx->coarse)
		return;
	vlc_test_hid_coarse++;
	if (!vlc_test_within((s64)rx->offset_ns - vlc_chan_offset(ch, A1, A0),
			     VLC_TEST_ACQ_TOL))
		vlc_test_hid_wrong++;
}

VLC_TEST(vlc_phy_test_acq_own_pulse)
{
	static const s32 offs[] = { 3000, 8000, 14000, -6000, -12000 };
	u32 fns = vlc_test_frame_ns(), half = sizeof(vlc_test_seq) / 2;
	struct vlc_chan *ch = &vlc_test_ch;
	u32 j, same, i, coarse[2] = { 0, 0 }, wrong = 0;
	u64 t;

	for (same = 0; same < 2; same++) {
		for (j = 0; j < ARRAY_SIZE(offs); j++) {
			vlc_chan_init(ch, 0x0b0 + 8 * same + j);
			ch->gain[A0][A1] = SIG;
			ch->gain[A1][A0] = SIG;
			ch->ambient = 5 * SIG;
			ch->flicker100 = SIG;
			ch->noise = vlc_test_noise(VLC_TEST_ACQ_SNR);
			for (i = 0; i < half; i++) {
				vlc_test_seq[i] = vlc_chan_rand_below(ch, 2);
				vlc_test_seq[half + i] = same ?
					vlc_test_seq[i] : !vlc_test_seq[i];
			}
			for (i = A0; i <= A1; i++) {
				struct vlc_chan_node *n = &ch->node[i];

				vlc_phy_set_brightness(&n->phy, 200, NULL);
				vlc_phy_set_rx_min_level(&n->phy, SIG / 10);
				n->tx = VLC_CHAN_TX_SEQ;
				n->seq = vlc_test_seq + (i == A1 ? half : 0);
				n->seq_len = half;
			}
			vlc_test_hid_coarse = 0;
			vlc_test_hid_wrong = 0;
			ch->on_rx = vlc_test_hid_rx;
			/* A1 starts so far after A0's frame, or before */
			t = T0 + (offs[j] < 0 ? fns : 0) + offs[j];
			vlc_chan_start(ch, A0, T0);
			vlc_chan_run_until(ch, t);
			vlc_chan_start(ch, A1, t);
			vlc_chan_run_frames(ch, A1, 200);
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

/* ---- 12. a signal estimate set too high comes down ------------------ */

/* Locked on the illumination of several aligned neighbours, a PHY takes
 * their sum for the signal (colliding senders raise it too): a single
 * sender's symbols, under half of it, are erasures until it follows the
 * clean lit slots down again.
 */
VLC_TEST(vlc_phy_test_signal_down)
{
	enum vlc_phy_mode mode;

	for (mode = VLC_PHY_MODE_2SLOT; mode <= VLC_PHY_MODE_4PPM; mode++) {
		struct vlc_chan *ch = vlc_test_pair(0x51d0, mode, 200);
		struct vlc_chan_node *rx = &ch->node[RX];
		struct vlc_chan_score *sc = &rx->score;
		u32 sig;

		ch->ambient = 20 * SIG;
		ch->noise = vlc_test_noise(20);
		ch->node[TX].tx = VLC_CHAN_TX_RANDOM;
		vlc_test_start_pair(ch);
		vlc_chan_run_frames(ch, RX, 64);
		sig = rx->phy.signal;
		VLC_ASSERT_TRUE(rx->phy.locked);
		VLC_ASSERT_GE(sig, SIG / 2);
		rx->phy.signal = 4 * sig;
		vlc_chan_score_reset(rx);
		vlc_chan_run_frames(ch, RX, 64);

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

/* ---- false lock (fuzzer finding K3) ------------------------------ */

struct vlc_test_fl {
	u64 start[VLC_CHAN_NODES][VLC_CHAN_SENT];	/* by tx_frames */
	u32 bad;	/* symbols decided that no data pulse lit */
	u32 bad_on;	/* frames whose on-time was not the setting */
};

static struct vlc_test_fl vlc_test_fl;

static void vlc_test_fl_frame(struct vlc_chan *ch, struct vlc_chan_node *n,
			      int sym, u64 on_ns, u64 len_ns)
{
	struct vlc_test_fl *fl = ch->priv;
	u64 target = div_u64((u64)n->phy.brightness * n->phy.timing.frame_ns,
			     1000);

	fl->start[n->idx][n->tx_frames % VLC_CHAN_SENT] =
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
static void vlc_test_fl_rx(struct vlc_chan *ch, struct vlc_chan_node *n,
			   const struct vlc_phy_rx *rx)
{
	const struct vlc_chan_node *r = &ch->node[!n->idx];
	const struct vlc_phy_timing *t = &n->phy.timing;
	struct vlc_test_fl *fl = ch->priv;
	u64 a, b, c;
	u32 j;

	if (rx->sym < 0 || (rx->flags & VLC_PHY_RX_OWN_TX))
		return;
	a = vlc_phy_frame_start(&n->phy) + vlc_test_data_slot(t, rx->sym);
	b = a + t->data_ns;
	j = r->tx_frames > VLC_CHAN_SENT ? r->tx_frames - VLC_CHAN_SENT : 0;
	for (; j < r->tx_frames; j++) {
		int sent = r->sent[j % VLC_CHAN_SENT];

		if (sent < 0)
			continue;
		c = fl->start[r->idx][j % VLC_CHAN_SENT] +
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
	struct vlc_chan *ch = &vlc_test_ch;
	u32 c, i, f, locked;

	for (c = 0; c < ARRAY_SIZE(vlc_test_fl_cases); c++) {
		const struct vlc_test_fl_case *fc = &vlc_test_fl_cases[c];
		s32 off = 0;

		vlc_chan_init(ch, 1);
		ch->on_frame = vlc_test_fl_frame;
		ch->on_rx = vlc_test_fl_rx;
		ch->gain[0][1] = SIG;
		ch->gain[1][0] = SIG;
		ch->ambient = 5 * SIG;
		vlc_test_fl = (struct vlc_test_fl){ 0 };
		ch->priv = &vlc_test_fl;
		for (i = 0; i < 2; i++) {
			struct vlc_chan_node *n = &ch->node[i];

			VLC_ASSERT_EQ(vlc_phy_set_config(&n->phy, &fc->t,
							 fc->mode,
							 fc->brightness,
							 NULL), 0);
			n->tx = VLC_CHAN_TX_RANDOM;
			n->idle_per256 = i ? 64 : 224;
			n->resync = fc->resync ? VLC_CHAN_RESYNC_MAC :
						 VLC_CHAN_RESYNC_OFF;
		}
		vlc_chan_start(ch, 0, 1000);
		vlc_chan_start(ch, 1, 1000 + fc->offset);
		locked = 0;
		for (f = 0; f < fc->frames; f++) {
			vlc_chan_run_frames(ch, 0, 1);
			off = vlc_chan_offset(ch, 0, 1);
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

/* The one list of cases; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_phy_test_cases[] = {
	VLC_TEST_CASE_SLOW(vlc_phy_test_roundtrip)
	VLC_TEST_CASE_SLOW(vlc_phy_test_low_snr)
	VLC_TEST_CASE_SLOW(vlc_phy_test_collision)
	VLC_TEST_CASE(vlc_phy_test_sync)
	VLC_TEST_CASE_SLOW(vlc_phy_test_brightness)
	VLC_TEST_CASE(vlc_phy_test_light_model)
	VLC_TEST_CASE(vlc_phy_test_validation)
	VLC_TEST_CASE(vlc_phy_test_late)
	VLC_TEST_CASE(vlc_phy_test_late_slots)
	VLC_TEST_CASE(vlc_phy_test_phase)
	VLC_TEST_CASE_SLOW(vlc_phy_test_acquisition)
	VLC_TEST_CASE_SLOW(vlc_phy_test_acq_deferred)
	VLC_TEST_CASE_SLOW(vlc_phy_test_acq_small)
	VLC_TEST_CASE(vlc_phy_test_acq_own_pulse)
	VLC_TEST_CASE(vlc_phy_test_signal_down)
	VLC_TEST_CASE(vlc_phy_test_false_lock)
	VLC_TEST_CASES_END
};
