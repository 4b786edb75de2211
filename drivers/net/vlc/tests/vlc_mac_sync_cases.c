// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC MAC core's frame synchronisation: the resync
 * loop, coarse reports from acquisition, clock skew between nodes, and
 * the beacons of a node that acquires.
 * Suite "vlc_mac_sync", written once and included by the KUnit wrapper
 * (vlc_mac_kunit.c) and the host cmocka runner
 * (tests/host/vlc_mac_test.c); the table at the end lists them for both.
 * The test network they run on is vlc_mac_cases.h.
 */

#include "vlc_mac_cases.h"

/* 6. Resync: a quarter of the mean offset per 16 frames, dead band
 * respected; each window outside it also teaches a rate (mean / 2048 ns
 * per frame) that moves the grid every locked frame, ours included.
 */
VLC_TEST(vlc_mac_test_resync)
{
	struct vlc_mac_tnet *t = tn_init(1, 13, NULL);
	struct vlc_mac_tnode *a = &t->node[0];
	s64 before;

	tn_sync(t, 0, 10000, VLC_PHY_SYNC_LATE, 15);
	VLC_EXPECT_EQ(a->phase_calls, 0);
	tn_sync(t, 0, 10000, VLC_PHY_SYNC_LATE, 1);
	VLC_EXPECT_EQ(a->phase_calls, 1);
	VLC_EXPECT_EQ(a->phase_sum, 2500);
	VLC_EXPECT_EQ(a->mac.stats.phase_corrections, 1);
	/* in sync from now on: the rate alone, 10000 ns in 2048 frames, in
	 * steps of 1 us (what is left waits for the next step)
	 */
	tn_sync(t, 0, 0, VLC_PHY_SYNC_IN, 2048);
	VLC_EXPECT_GT(a->phase_sum, 2500 + 10000 - 1000);
	VLC_EXPECT_LE(a->phase_sum, 2500 + 10000);
	VLC_EXPECT_LE(a->phase_calls, 1 + 10);
	/* ... also in frames we emit, which say nothing themselves */
	tn_own(t, 0, 40000, VLC_PHY_SYNC_LATE, 1024);
	VLC_EXPECT_GT(a->phase_sum, 2500 + 15000 - 1000);
	VLC_EXPECT_LE(a->phase_sum, 2500 + 15000);
	VLC_EXPECT_LE(a->phase_calls, 1 + 15);
	VLC_EXPECT_EQ(a->mac.stats.phase_corrections, a->phase_calls);
	/* ... but not while the PHY acquires */
	before = a->phase_sum;
	tn_report(t, 0, 40000, VLC_PHY_SYNC_LATE, false, true, 512);
	VLC_EXPECT_EQ(a->phase_sum, before);

	/* inside the dead band (2 us): nothing */
	t = tn_init(1, 13, NULL);
	tn_sync(t, 0, 1900, VLC_PHY_SYNC_LATE, 64);
	tn_sync(t, 0, -2000, VLC_PHY_SYNC_EARLY, 64);
	VLC_EXPECT_EQ(a->phase_calls, 0);
	/* frames with no sync information do not count */
	tn_sync(t, 0, 50000, VLC_PHY_SYNC_NONE, 64);
	VLC_EXPECT_EQ(a->phase_calls, 0);
	/* early neighbour: move earlier; the mean is what counts */
	tn_sync(t, 0, -6000, VLC_PHY_SYNC_EARLY, 8);
	tn_sync(t, 0, -10000, VLC_PHY_SYNC_EARLY, 8);
	VLC_EXPECT_EQ(a->phase_calls, 1);
	VLC_EXPECT_EQ(a->phase_sum, -2000);
	/* and the rate learnt is earlier too: -8000 / 2048 ns per frame */
	tn_sync(t, 0, 0, VLC_PHY_SYNC_IN, 1024);
	VLC_EXPECT_LT(a->phase_sum, -2000 - 4000 + 1000);
	VLC_EXPECT_GE(a->phase_sum, -2000 - 4000);
}

/* vlc_mac_test_coarse, first: a coarse report applied at once, the
 * fine reports pending forgotten; one too small to halve.
 */
static void tn_coarse_at_once(TN_CTX, struct vlc_mac_tnet *t)
{
	struct vlc_mac_tnode *a = &t->node[0];

	/* 10 fine reports pending, then a coarse one: applied at once */
	tn_report(t, 0, 10000, VLC_PHY_SYNC_LATE, false, false, 10);
	VLC_EXPECT_EQ(a->phase_calls, 0);
	tn_report(t, 0, -300000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_calls, 1);
	VLC_EXPECT_EQ(a->phase_sum, -150000);
	VLC_EXPECT_EQ(a->mac.stats.phase_corrections, 1);
	/* the 10 earlier reports were forgotten: 15 more make no mean */
	tn_report(t, 0, 10000, VLC_PHY_SYNC_LATE, false, false, 15);
	VLC_EXPECT_EQ(a->phase_calls, 1);
	tn_report(t, 0, 10000, VLC_PHY_SYNC_LATE, false, false, 1);
	VLC_EXPECT_EQ(a->phase_calls, 2);
	VLC_EXPECT_EQ(a->phase_sum, -150000 + 2500);

	/* a coarse offset too small to halve moves nothing */
	tn_report(t, 0, 1, VLC_PHY_SYNC_NONE, true, false, 1);
	VLC_EXPECT_EQ(a->phase_calls, 2);
}

/* ... then while acquiring: fine reports ignored, the packet held;
 * each coarse report moves half of its offset, or all of it when
 * predicted ...
 */
static void tn_coarse_acquiring(TN_CTX, struct vlc_mac_tnet *t)
{
	struct vlc_mac_tnode *a = &t->node[0];

	/* acquiring: fine reports ignored, the packet held */
	a->phase_sum = 0;
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 98) >= 0);
	tn_report(t, 0, 40000, VLC_PHY_SYNC_LATE, false, true, 200);
	VLC_EXPECT_EQ(a->phase_calls, 2);
	VLC_EXPECT_EQ(a->tx_syms, 0);
	VLC_EXPECT_EQ(a->mac.stats.tx_fragments, 0);
	/* a coarse report while acquiring still counts */
	tn_report(t, 0, 80000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_calls, 3);
	VLC_EXPECT_EQ(a->phase_sum, 40000);
	VLC_EXPECT_EQ(a->tx_syms, 0);
	/* the next says 80000 - 40000 (within 4 us): the neighbour stood
	 * still, the whole of it goes
	 */
	tn_report(t, 0, 43000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_calls, 4);
	VLC_EXPECT_EQ(a->phase_sum, 83000);
	/* it moved after all (0 expected): half again */
	tn_report(t, 0, -20000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_sum, 73000);
	/* -20000 - -10000 would be -10000: -16000 is not within an eighth
	 * of itself (2 us) nor 4 us of it
	 */
	tn_report(t, 0, -16000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_sum, 65000);
	VLC_EXPECT_EQ(a->phase_calls, 6);
}

/* ... and last, reports in frames we lit; the lock, and the packet
 * sent after it.
 */
static void tn_coarse_lit(TN_CTX, struct vlc_mac_tnet *t,
			  const struct vlc_mac_params *p)
{
	struct vlc_mac_tnode *a = &t->node[0];
	struct vlc_phy_rx rx;

	/* in a frame we lit (our beacon): the search left our own data
	 * slot out, so the report counts (half: -8000 was due, not 30000)
	 */
	memset(&rx, 0, sizeof(rx));
	rx.sym = VLC_SYM_IDLE;
	rx.bits = 1;
	rx.offset_ns = 30000;
	rx.coarse = true;
	rx.acquiring = true;
	rx.flags = VLC_PHY_RX_OWN_TX;
	vlc_mac_tx_symbol(&a->mac);
	vlc_mac_rx_frame(&a->mac, &rx);
	VLC_EXPECT_EQ(a->phase_calls, 7);
	VLC_EXPECT_EQ(a->phase_sum, 80000);
	/* fine reports in frames we lit are not heard: a whole window of
	 * them moves nothing
	 */
	tn_own(t, 0, 40000, VLC_PHY_SYNC_LATE, 1 << 4);
	VLC_EXPECT_EQ(a->phase_calls, 7);
	/* locked: a large fine offset that is the other half of the last
	 * report (30000 - 15000, within 4 us), here in a frame we lit: the
	 * neighbour stood still, and all of it goes, once
	 */
	rx.offset_ns = 14000;
	rx.acquiring = false;
	vlc_mac_tx_symbol(&a->mac);
	vlc_mac_rx_frame(&a->mac, &rx);
	VLC_EXPECT_EQ(a->phase_calls, 8);
	VLC_EXPECT_EQ(a->phase_sum, 94000);
	vlc_mac_tx_symbol(&a->mac);
	vlc_mac_rx_frame(&a->mac, &rx);
	VLC_EXPECT_EQ(a->phase_calls, 8);
	/* locked: the packet goes after DIFS and backoff */
	tn_report(t, 0, 0, VLC_PHY_SYNC_IN, false, false,
		  p->difs + p->cw_min + 1);
	VLC_EXPECT_EQ(a->mac.stats.tx_fragments, 1);
	VLC_EXPECT_GT(a->tx_syms, 0);
	/* acquiring again, 20000 moves 10000; locked, 21000 is not the
	 * other half: the neighbour moved too, and the slow loop takes it
	 */
	tn_report(t, 0, 20000, VLC_PHY_SYNC_NONE, true, true, 1);
	VLC_EXPECT_EQ(a->phase_calls, 9);
	VLC_EXPECT_EQ(a->phase_sum, 104000);
	tn_report(t, 0, 21000, VLC_PHY_SYNC_LATE, true, false, 2);
	VLC_EXPECT_EQ(a->phase_calls, 9);
}

/* 10. Coarse reports from acquisition: half of the offset at once (all
 * of it when the last report and our move for it predicted this one),
 * even in a frame we lit, and the averaging of fine reports starts
 * over; the first large fine offset after the lock, when it is the
 * other half, all at once too. While acquiring, fine reports are
 * ignored and data is held, on an otherwise idle medium.
 */
VLC_TEST(vlc_mac_test_coarse)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t = tn_quiet_pair(37, 1, &p);

	tn_coarse_at_once(vlc_test_ctx, t);
	tn_coarse_acquiring(vlc_test_ctx, t);
	tn_coarse_lit(vlc_test_ctx, t, &p);
}

/* Resync models: node i's frame grid sits at drift[i] ns per frame plus
 * the moves its MAC made; each correcting node hears the sum of the
 * others' offsets, as their light adds up in its S1 or S2, reported IN
 * below TN_SYNC_SEEN and saturated at TN_SYNC_SAT (a PHY at the default
 * timing). Beacons go out as usual and are frames without sync.
 */
#define TN_SYNC_SEEN	2500
#define TN_SYNC_SAT	40000

struct tn_model {
	s32 drift[TN_NODES];	/* ns per frame */
	bool fixed[TN_NODES];	/* a reference that never corrects */
	u32 frame;
	s64 spread_max;		/* largest gap between two grids measured */
};

static void tn_model_run(struct vlc_mac_tnet *t, struct tn_model *m,
			 u32 frames, bool measure)
{
	s64 pos[TN_NODES], lo, hi, sum;
	struct vlc_phy_rx rx;
	int i, j, sym;

	for (; frames; frames--, m->frame++) {
		for (i = 0; i < t->n; i++)
			pos[i] = (s64)m->drift[i] * m->frame +
				 t->node[i].phase_sum;
		lo = pos[0];
		hi = pos[0];
		for (i = 1; i < t->n; i++) {
			lo = min(lo, pos[i]);
			hi = max(hi, pos[i]);
		}
		if (measure)
			m->spread_max = max(m->spread_max, hi - lo);
		for (i = 0; i < t->n; i++) {
			if (m->fixed[i])
				continue;
			sum = 0;
			for (j = 0; j < t->n; j++)
				if (j != i)
					sum += pos[j] - pos[i];
			sum = clamp_t(s64, sum, -TN_SYNC_SAT, TN_SYNC_SAT);
			memset(&rx, 0, sizeof(rx));
			sym = vlc_mac_tx_symbol(&t->node[i].mac);
			rx.sym = VLC_SYM_IDLE;
			rx.bits = 1;
			if (sym >= 0)
				rx.flags = VLC_PHY_RX_OWN_TX;
			if (sum >= TN_SYNC_SEEN || sum <= -TN_SYNC_SEEN) {
				rx.sync = sum > 0 ? VLC_PHY_SYNC_LATE :
						    VLC_PHY_SYNC_EARLY;
				rx.offset_ns = (s32)sum;
			} else {
				rx.sync = VLC_PHY_SYNC_IN;
			}
			vlc_mac_rx_frame(&t->node[i].mac, &rx);
		}
	}
}

/* 13. Clock skew leaves no standing offset: one node following a
 * neighbour whose clock is 1000 ppm off (500 ns per 500 us frame), and
 * two nodes 2000 ppm apart following each other, stay within 5 us (the
 * PHY's threshold, the dead band and the rate's 1 us steps); the rate
 * learnt is the skew. A phase-only loop that halves the mean every 16
 * frames keeps them 16 us apart on average, 44 us at worst.
 */
VLC_TEST(vlc_mac_test_resync_skew)
{
	struct vlc_mac_tnet *t = tn_init(2, 41, NULL);
	struct tn_model m = { .drift = { 0, 500 }, .fixed = { false, true } };
	s64 before;

	tn_model_run(t, &m, 4000, false);
	before = t->node[0].phase_sum;
	tn_model_run(t, &m, 4000, true);
	VLC_TEST_LOG("resync: follower at 1000 ppm: gap <= %lld ns, moved %lld ns in 4000 frames",
		     (long long)m.spread_max,
		     (long long)(t->node[0].phase_sum - before));
	VLC_EXPECT_LE(m.spread_max, 5000);
	/* 500 ns per frame, within 1% */
	VLC_EXPECT_LE(t->node[0].phase_sum - before, 4000 * 505);
	VLC_EXPECT_GE(t->node[0].phase_sum - before, 4000 * 495);

	/* both correcting, 2000 ppm apart */
	t = tn_init(2, 43, NULL);
	memset(&m, 0, sizeof(m));
	m.drift[1] = 1000;
	tn_model_run(t, &m, 4000, false);
	before = t->node[0].phase_sum - t->node[1].phase_sum;
	tn_model_run(t, &m, 4000, true);
	VLC_TEST_LOG("resync: two nodes 2000 ppm apart: gap <= %lld ns",
		     (long long)m.spread_max);
	VLC_EXPECT_LE(m.spread_max, 5000);
	VLC_EXPECT_LE(t->node[0].phase_sum - t->node[1].phase_sum - before,
		      4000 * 1010);
	VLC_EXPECT_GE(t->node[0].phase_sum - t->node[1].phase_sum - before,
		      4000 * 990);
}

/* 14. Three nodes with skews of -1000, 0 and +1000 ppm, each hearing the
 * sum of the other two, settle on a common phase from up to 40 us apart
 * and hold it; the middle one sees them on both sides.
 */
VLC_TEST(vlc_mac_test_resync_net)
{
	struct vlc_mac_tnet *t = tn_init(3, 47, NULL);
	struct tn_model m = { .drift = { -500, 0, 500 } };
	int i;

	t->node[0].phase_sum = -20000;
	t->node[1].phase_sum = 5000;
	t->node[2].phase_sum = 20000;
	tn_model_run(t, &m, 10000, false);
	tn_model_run(t, &m, 20000, true);
	VLC_TEST_LOG("resync: three nodes +-1000 ppm: grids within %lld ns",
		     (long long)m.spread_max);
	VLC_EXPECT_LE(m.spread_max, 5000);
	for (i = 0; i < 3; i++)
		VLC_EXPECT_GT(t->node[i].mac.stats.phase_corrections, 0);
}

/* 17. A node whose PHY has no lock beacons after 24 to 48 idle frames,
 * then at doubling intervals, not after beacon_interval (1000): two
 * aligned idle nodes see nothing of each other but lit data slots. Once
 * locked on a neighbour's frame it sends one hello beacon, then none
 * until beacon_interval; locked on an idle medium, none.
 */
VLC_TEST(vlc_mac_test_acq_beacon)
{
	struct vlc_mac_tnet *t = tn_init(2, 67, NULL);
	const struct vlc_mac_stats *s0 = &t->node[0].mac.stats;
	const struct vlc_mac_stats *s1 = &t->node[1].mac.stats;
	u64 b;
	int i;

	t->node[0].acquiring = true;
	for (i = 0; i < 800; i++)
		tn_step(t);
	VLC_TEST_LOG("acquiring: first beacon at frame %u, %llu in 800",
		     t->node[0].first_tx, (unsigned long long)s0->tx_beacons);
	VLC_EXPECT_GE(t->node[0].first_tx, 24);
	VLC_EXPECT_LE(t->node[0].first_tx, 48 + 4 + 1);
	/* 24..48, 48..96, 96..192, 192..384 after each 48-frame beacon */
	VLC_EXPECT_GE(s0->tx_beacons, 4);
	VLC_EXPECT_LE(s0->tx_beacons, 5);
	/* locked from the start: no beacon before beacon_interval */
	VLC_EXPECT_EQ(s1->tx_beacons, 0);

	/* node 1 locks (after acquiring) while node 0's beacon is on air */
	t = tn_init(2, 68, NULL);
	s0 = &t->node[0].mac.stats;
	s1 = &t->node[1].mac.stats;
	t->node[0].acquiring = true;
	t->node[1].acquiring = true;
	for (i = 0; i < 400 && !s1->rx_frames_ok; i++) {
		tn_step(t);
		if (t->node[0].tx_syms == 10)
			t->node[1].acquiring = false;
	}
	VLC_ASSERT_TRUE(!t->node[1].acquiring);
	b = s1->tx_beacons;
	for (i = 0; i < 120; i++)
		tn_step(t);
	VLC_EXPECT_EQ(s1->tx_beacons, b + 1);
	b = s1->tx_beacons;
	for (i = 0; i < 800; i++)
		tn_step(t);
	VLC_EXPECT_EQ(s1->tx_beacons, b);

	/* locked on an idle medium: no hello */
	t = tn_init(2, 69, NULL);
	t->node[0].acquiring = true;
	for (i = 0; i < 10; i++)
		tn_step(t);
	t->node[0].acquiring = false;
	for (i = 0; i < 900; i++)
		tn_step(t);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_beacons, 0);
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_mac_sync_test_cases[] = {
	VLC_TEST_CASE(vlc_mac_test_resync)
	VLC_TEST_CASE(vlc_mac_test_coarse)
	VLC_TEST_CASE(vlc_mac_test_resync_skew)
	VLC_TEST_CASE(vlc_mac_test_resync_net)
	VLC_TEST_CASE(vlc_mac_test_acq_beacon)
	VLC_TEST_CASES_END
};
