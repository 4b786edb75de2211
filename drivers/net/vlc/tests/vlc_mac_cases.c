// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC MAC core on the test network: delivery, noise,
 * beacons, retries, CSMA, parameters, airtime, fragment adaptation,
 * RTS/CTS, hidden terminals and location beacons.
 * Suite "vlc_mac", written once and included by the KUnit wrapper
 * (vlc_mac_kunit.c) and the host cmocka runner
 * (tests/host/vlc_mac_test.c); the table at the end lists them for both.
 * The test network they run on is vlc_mac_cases.h.
 */

#include "vlc_mac_cases.h"

/* 1. Unicast ping and MTU frames, broadcast, odd addresses: byte-exact. */
static void tn_case_delivery(TN_CTX, int bits)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u8 bcast[VLC_MAC_ALEN], odd_dst[VLC_MAC_ALEN] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	u8 odd_src[VLC_MAC_ALEN] = {
		0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	int ping, mtu, arp, odd, i;

	vlc_mac_default_params(&p);
	p.bits_per_symbol = bits;
	t = tn_init(3, 1, &p);
	memset(bcast, 0xff, sizeof(bcast));
	ping = tn_send_ip(t, 0, 1, 98);
	mtu = tn_send_ip(t, 0, 1, 1514);
	arp = tn_send(t, 0, bcast, NULL, 0x0806, 42);
	odd = tn_send(t, 0, odd_dst, odd_src, 0x88b5, 300);
	VLC_ASSERT_TRUE(ping >= 0 && mtu >= 0 && arp >= 0 &&
			odd >= 0);
	tn_run(t, 60000, 500);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(t->dup, 0);
	for (i = 0; i < 4; i++)
		VLC_EXPECT_EQ(t->pkt[i].done, 1);
	VLC_EXPECT_EQ(t->pkt[ping].deliveries[1], 1);
	VLC_EXPECT_EQ(t->pkt[mtu].deliveries[1], 1);
	VLC_EXPECT_EQ(t->pkt[ping].deliveries[2], 0);
	VLC_EXPECT_EQ(t->pkt[mtu].deliveries[2], 0);
	VLC_EXPECT_EQ(t->pkt[arp].deliveries[1], 1);
	VLC_EXPECT_EQ(t->pkt[arp].deliveries[2], 1);
	VLC_EXPECT_EQ(t->pkt[odd].deliveries[1], 1);
	VLC_EXPECT_EQ(t->pkt[odd].deliveries[2], 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 4);
	VLC_EXPECT_EQ(t->node[2].delivered, 2);
	/* 1 + 7 unicast fragments acked (1500 = 6 x 240 + 60), nothing
	 * retried; the 302 bytes of the odd frame go in 2
	 */
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_acked, 8);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_retries, 0);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_fragments,
		      8 + 1 + 2);
	VLC_EXPECT_EQ(t->node[1].mac.stats.rx_crc_errors, 0);
	VLC_EXPECT_EQ(vlc_mac_tx_full(&t->node[0].mac), false);
}

VLC_TEST(vlc_mac_test_delivery)
{
	tn_case_delivery(vlc_test_ctx, 1);
}

VLC_TEST(vlc_mac_test_delivery_4ppm)
{
	tn_case_delivery(vlc_test_ctx, 2);
}

/* 2. Erasures and bit flips: delivered intact exactly once, or dropped. */
VLC_TEST(vlc_mac_test_noise)
{
	static const u16 sizes[] = { 98, 42, 300, 98, 600, 160 };
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 i, ok = 0, dropped = 0;
	u64 crc = 0, aborts = 0;
	int id;

	vlc_mac_default_params(&p);
	p.retry_limit = 10;
	t = tn_init(2, 7, &p);
	t->erase_ppm = 1000;
	t->flip_ppm = 300;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		id = tn_queue_ip(t, 0, 1, sizes[i]);
		VLC_ASSERT_TRUE(id >= 0);
		id = tn_queue_ip(t, 1, 0, sizes[ARRAY_SIZE(sizes) - 1 - i]);
		VLC_ASSERT_TRUE(id >= 0);
	}
	tn_run(t, 400000, 3000);
	VLC_ASSERT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(t->dup, 0);
	for (i = 0; i < t->npkts; i++) {
		struct vlc_mac_tpkt *pk = &t->pkt[i];
		int to = !pk->from;

		if (pk->done == 1) {
			ok++;
			VLC_EXPECT_EQ(pk->deliveries[to], 1);
		} else {
			/* the receiver may have it; only its ACKs got lost */
			dropped++;
			VLC_EXPECT_LE(pk->deliveries[to], 1);
		}
	}
	for (i = 0; i < 2; i++) {
		struct vlc_mac_stats *s = &t->node[i].mac.stats;

		crc += s->rx_crc_errors + s->rx_bad_header;
		aborts += s->rx_erasure_aborts;
		VLC_EXPECT_EQ(s->tx_dropped, t->node[i].tx_fail);
	}
	VLC_TEST_LOG("noise: %u ok, %u dropped, %llu crc/header, %llu erasure",
		     ok, dropped, (unsigned long long)crc,
		     (unsigned long long)aborts);
	VLC_EXPECT_GT(crc, 0);
	VLC_EXPECT_GT(aborts, 0);
	VLC_EXPECT_GE(ok, t->npkts / 2);
}

/* Idle nodes beacon every beacon_interval frames, and only then. */
VLC_TEST(vlc_mac_test_beacon)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	int i;

	vlc_mac_default_params(&p);
	p.beacon_interval = 200;
	t = tn_init(3, 21, &p);
	for (i = 0; i < 1000; i++)
		tn_step(t);
	for (i = 0; i < 3; i++) {
		const struct vlc_mac_stats *st = &t->node[i].mac.stats;

		/* one per interval plus airtime and contention, never more */
		VLC_EXPECT_GE(st->tx_beacons, 3);
		VLC_EXPECT_LE(st->tx_beacons, 5);
		/* every other node heard every beacon: no collisions */
		VLC_EXPECT_EQ(st->rx_crc_errors, 0);
		VLC_EXPECT_EQ(st->rx_delivered, 0);
	}
	VLC_EXPECT_EQ(t->node[0].mac.stats.rx_beacons,
		      t->node[1].mac.stats.tx_beacons +
		      t->node[2].mac.stats.tx_beacons);

	p.beacon_interval = 0;
	t = tn_init(2, 22, &p);
	for (i = 0; i < 1000; i++)
		tn_step(t);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_beacons, 0);
	VLC_EXPECT_EQ(t->node[1].mac.stats.rx_beacons, 0);
}

/* 4. Nobody answers: exactly retry_limit retries, then the queue drains. */
VLC_TEST(vlc_mac_test_retry_limit)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	struct vlc_mac_stats *s;

	vlc_mac_default_params(&p);
	p.retry_limit = 3;
	p.cw_max = 32;
	p.rts_threshold = 0;	/* DATA retries (RTS ones: vlc_mac_test_rts) */
	t = tn_init(2, 11, &p);
	t->node[1].present = false;
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 98) >= 0);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 200) >= 0);
	tn_run(t, 100000, 10);
	s = &t->node[0].mac.stats;
	VLC_ASSERT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->pkt[0].done, 0);
	VLC_EXPECT_EQ(t->pkt[1].done, 0);
	VLC_EXPECT_EQ(t->node[0].tx_fail, 2);
	VLC_EXPECT_EQ(s->tx_retries, 2 * 3);
	VLC_EXPECT_EQ(s->tx_fragments, 2 * (3 + 1));
	VLC_EXPECT_EQ(s->tx_dropped, 2);
	VLC_EXPECT_EQ(s->tx_acked, 0);
	VLC_EXPECT_EQ(s->collisions, 0);
	VLC_EXPECT_EQ(t->node[0].mac.tx.q_count, 0);
	VLC_EXPECT_EQ(t->node[0].mac.tx.state, VLC_MAC_TX_IDLE);
	VLC_EXPECT_EQ(t->node[0].mac.tx.cw, p.cw_min);
	VLC_EXPECT_EQ(t->bad, 0);
}

/* 4b. A peer that vanished with a full queue towards it: the stress
 * scenario's flood ping (58-byte frames) fills the qdisc (32) and the
 * netdev's ring (16), whose skbs hold the sender's socket and so its
 * netns. Every packet is given up after retry_limit retries, each
 * costing at most DIFS + CW + airtime + the ACK timeout, so the queue
 * drains in bounded time (plus the beacons sent meanwhile).
 */
VLC_TEST(vlc_mac_test_vanished_peer)
{
	const unsigned int npkts = TN_PKTS, len = 58;
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 frames, bound = 0, cw, k;

	vlc_mac_default_params(&p);
	t = tn_init(2, 23, &p);
	t->node[1].present = false;
	for (k = 0; k < npkts; k++)
		VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, len) >= 0);
	/* one packet: every attempt at its longest, the window doubling */
	for (k = 0, cw = p.cw_min; k <= p.retry_limit; k++) {
		bound += p.difs + cw + vlc_mac_ack_timeout(&t->node[0].mac) +
			 vlc_mac_frame_symbols(&p, 1 + 5 + len - 14 + 2);
		cw = min_t(u32, 2 * cw, p.cw_max);
	}
	/* all of them, and a beacon every beacon_interval frames */
	bound *= npkts;
	bound += bound / p.beacon_interval *
		 (p.difs + p.cw_max + vlc_mac_frame_symbols(&p, 5));
	frames = tn_run(t, 2 * bound, 0);
	VLC_TEST_LOG("vanished peer: %u packets given up in %u frames (%u ms), bound %u",
		     npkts, frames, frames / 2, bound);
	VLC_ASSERT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->node[0].tx_fail, npkts);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_retries,
		      (u64)npkts * p.retry_limit);
	VLC_EXPECT_LE(frames, bound);
	VLC_EXPECT_EQ(t->node[0].mac.tx.q_count, 0);
}

/* With max_age, packets for a peer that went away go once they are that
 * old, counted apart from the retry limit's, long before their retries
 * would have run out.
 */
VLC_TEST(vlc_mac_test_max_age)
{
	const unsigned int npkts = 8, len = 58;
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 frames;
	u64 expired;
	unsigned int k;

	vlc_mac_default_params(&p);
	p.max_age = 2000;
	t = tn_init(2, 29, &p);
	t->node[1].present = false;
	for (k = 0; k < npkts; k++)
		VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, len) >= 0);
	frames = tn_run(t, 200000, 0);
	expired = t->node[0].mac.stats.tx_expired;
	VLC_TEST_LOG("max_age 2000: %u packets gone in %u frames, %llu expired",
		     npkts, frames, (unsigned long long)expired);
	VLC_ASSERT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->node[0].tx_fail, npkts);
	VLC_EXPECT_GT(expired, 0);
	VLC_EXPECT_EQ(expired + t->node[0].mac.stats.tx_dropped, (u64)npkts);
	/* a packet is never tried once older than max_age */
	VLC_EXPECT_LE(frames, (npkts / VLC_MAC_TXQ_LEN + 1) *
		      (p.max_age + p.difs + p.cw_max +
		       vlc_mac_ack_timeout(&t->node[0].mac) +
		       vlc_mac_frame_symbols(&p, 1 + 5 + len - 14 + 2)));

	p.max_age = 63;
	VLC_EXPECT_EQ(vlc_mac_check_params(&p, NULL), -EINVAL);
}

/* 5. Two senders, one receiver: backoff sorts out the collisions. With
 * cw_min 1 both senders start in the same frame, so the first attempts
 * must collide and only the doubled windows can separate them.
 */
static void tn_case_csma(TN_CTX, u16 cw_min, u64 seed)
{
	u64 backoffs = 0, coll = 0, retries = 0;
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 i;

	vlc_mac_default_params(&p);
	p.cw_min = cw_min;
	t = tn_init(3, seed, &p);
	for (i = 0; i < 4; i++) {
		VLC_ASSERT_TRUE(tn_send_ip(t, 0, 2, i & 1 ? 300 : 98) >= 0);
		VLC_ASSERT_TRUE(tn_send_ip(t, 1, 2, i & 1 ? 98 : 300) >= 0);
	}
	VLC_EXPECT_EQ(vlc_mac_tx_full(&t->node[0].mac), true);
	VLC_EXPECT_EQ(tn_send_ip(t, 0, 2, 98), -1);
	tn_run(t, 200000, 500);
	VLC_ASSERT_TRUE(tn_all_done(t));
	for (i = 0; i < t->npkts; i++) {
		VLC_EXPECT_EQ(t->pkt[i].done, 1);
		VLC_EXPECT_EQ(t->pkt[i].deliveries[2], 1);
	}
	for (i = 0; i < 2; i++) {
		backoffs += t->node[i].mac.stats.backoffs;
		coll += t->node[i].mac.stats.collisions;
		retries += t->node[i].mac.stats.tx_retries;
	}
	VLC_TEST_LOG("csma cw_min %u: %llu backoffs, %llu collisions, %llu retries, %u frames",
		     cw_min, (unsigned long long)backoffs,
		     (unsigned long long)coll, (unsigned long long)retries,
		     t->frame);
	VLC_EXPECT_GT(backoffs, 0);
	if (cw_min == 1) {
		VLC_EXPECT_GT(coll, 0);
		VLC_EXPECT_GE(retries, 2);
		/* the receiver saw erasures where no delimiter could be */
		VLC_EXPECT_GT(t->node[2].mac.stats.rx_no_delimiter, 0);
	}
	VLC_EXPECT_EQ(t->node[2].delivered, 8);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(t->dup, 0);
}

VLC_TEST(vlc_mac_test_csma)
{
	tn_case_csma(vlc_test_ctx, 8, 5);
	tn_case_csma(vlc_test_ctx, 1, 6);
}

static void vlc_mac_tparam(struct vlc_mac_params *p, int which, int v)
{
	switch (which) {
	case 0:
		p->short_addr = v;
		break;
	case 1:
		p->bits_per_symbol = v;
		break;
	case 2:
		p->frag_size = v;
		break;
	case 3:
		p->retry_limit = v;
		break;
	case 4:
		p->cw_min = v;
		break;
	case 5:
		p->cw_max = v;
		break;
	case 6:
		p->difs = v;
		break;
	case 7:
		p->sifs = v;
		break;
	case 8:
		p->ack_timeout = v;
		break;
	case 9:
		p->preamble = v;
		break;
	case 10:
		p->sync_deadband_ns = v;
		break;
	case 11:
		p->beacon_interval = v;
		break;
	case 12:
		p->loc_interval = v;
		break;
	case 13:
		p->rts_threshold = v;
		break;
	default:
		p->fec = v;
		break;
	}
}

/* The value vlc_mac_tparam() sets, read back. */
static int vlc_mac_tparam_get(const struct vlc_mac_params *p, int which)
{
	switch (which) {
	case 0: return p->short_addr;
	case 1: return p->bits_per_symbol;
	case 2: return p->frag_size;
	case 3: return p->retry_limit;
	case 4: return p->cw_min;
	case 5: return p->cw_max;
	case 6: return p->difs;
	case 7: return p->sifs;
	case 8: return p->ack_timeout;
	case 9: return p->preamble;
	case 10: return p->sync_deadband_ns;
	case 11: return p->beacon_interval;
	case 12: return p->loc_interval;
	case 13: return p->rts_threshold;
	default: return p->fec;
	}
}

/* 7. Parameters. A MAC with a good set other than the defaults, the
 * one each parameter case starts from; @out receives it.
 */
static struct vlc_mac *tn_params_init(TN_CTX, struct vlc_mac_params *out)
{
	struct vlc_mac_tnet *t = tn_init(1, 17, NULL);
	struct vlc_mac *mac = &t->node[0].mac;
	struct vlc_mac_params good;
	enum vlc_refusal why;

	vlc_mac_default_params(&good);
	good.short_addr = 7;
	good.bits_per_symbol = 2;
	good.frag_size = 200;
	good.ack_timeout = 100;
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &good, &why), 0);
	VLC_EXPECT_TRUE(!why);
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac), 100);
	*out = good;
	return mac;
}

/* Every bad value: -EINVAL naming the field, old parameters kept. */
VLC_TEST(vlc_mac_test_params_bad)
{
	static const struct {
		const char *field;
		int which;
		int value;
	} bad[] = {
		{ "short_addr", 0, 255 },
		{ "bits_per_symbol", 1, 0 },
		{ "bits_per_symbol", 1, 3 },
		{ "frag-size", 2, 47 },
		{ "frag-size", 2, 241 },
		{ "retry-limit", 3, 16 },
		{ "cw-min", 4, 0 },
		{ "cw-min", 4, 512 },
		{ "cw-max", 5, 0 },
		{ "cw-max", 5, 2048 },
		{ "difs", 6, 2 },
		{ "difs", 6, 65 },
		{ "sifs", 7, 0 },
		{ "sifs", 7, 16 },
		{ "ack_timeout", 8, 20 },
		{ "ack_timeout", 8, 5000 },
		{ "preamble", 9, 1 },
		{ "preamble", 9, 33 },
		{ "sync_deadband_ns", 10, 1000001 },
		{ "beacon-interval", 11, 1 },
		{ "beacon-interval", 11, 63 },
		{ "loc-interval", 12, 63 },
		{ "rts-threshold", 13, 1519 },
		{ "fec", 14, 1 },
		{ "fec", 14, 3 },
		{ "fec", 14, 5 },
		{ "fec", 14, 33 },
		{ "fec", 14, 254 },
		/* SIFS 2 + an ACK of 8 + 28 symbols at 2 bits: 38 frames */
		{ "ack_timeout", 8, 37 },
		{ "ack_timeout", 8, 4097 },
	};
	struct vlc_mac_params good, p;
	struct vlc_mac *mac;
	enum vlc_refusal why;
	unsigned int i;

	mac = tn_params_init(vlc_test_ctx, &good);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = good;
		vlc_mac_tparam(&p, bad[i].which, bad[i].value);
		why = VLC_REFUSE_NONE;
		VLC_EXPECT_EQ(vlc_mac_set_params(mac, &p, &why), -EINVAL);
		VLC_EXPECT_STR_HAS(vlc_refusal_msg(why), bad[i].field);
		VLC_EXPECT_EQ(memcmp(&mac->p, &good, sizeof(good)), 0);
	}
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac), 100);
}

/* Every limit itself is taken, and read back as set. */
VLC_TEST(vlc_mac_test_params_limits)
{
	static const struct {
		int which;
		int value;
	} edge[] = {
		{ 0, 0 }, { 0, 254 }, { 1, 1 }, { 1, 2 }, { 2, 48 }, { 2, 240 },
		{ 3, 0 }, { 3, 15 }, { 4, 1 }, { 4, 256 }, { 5, 32 },
		{ 5, 1024 }, { 6, 3 }, { 6, 64 }, { 7, 1 }, { 7, 3 },
		{ 8, 0 }, { 8, 38 }, { 8, 4096 }, { 9, 2 }, { 9, 32 },
		{ 10, 0 }, { 10, 1000000 }, { 11, 0 }, { 11, 64 },
		{ 11, 65535 }, { 12, 0 }, { 12, 64 }, { 12, 65535 },
		{ 13, 0 }, { 13, 1 }, { 13, 1518 },
		{ 14, VLC_MAC_FEC_OFF }, { 14, 2 }, { 14, 4 }, { 14, 8 },
		{ 14, 16 }, { 14, 32 }, { 14, VLC_MAC_FEC_AUTO },
	};
	struct vlc_mac_params good, p;
	struct vlc_mac *mac;
	enum vlc_refusal why;
	unsigned int i;
	bool ok;

	mac = tn_params_init(vlc_test_ctx, &good);
	for (i = 0; i < ARRAY_SIZE(edge); i++) {
		p = good;
		vlc_mac_tparam(&p, edge[i].which, edge[i].value);
		VLC_EXPECT_EQ(vlc_mac_set_params(mac, &p, &why), 0);
		VLC_EXPECT_EQ(vlc_mac_tparam_get(&mac->p, edge[i].which),
			      edge[i].value);
	}
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &good, NULL), 0);

	/* fec is a set, not a range: every other value is refused as fec */
	for (i = 0; i <= U8_MAX; i++) {
		p = good;
		p.fec = i;
		ok = i == VLC_MAC_FEC_OFF || i == VLC_MAC_FEC_AUTO ||
		     i == 2 || i == 4 || i == 8 || i == 16 || i == 32;
		why = VLC_REFUSE_NONE;
		VLC_EXPECT_EQ(vlc_mac_check_params(&p, &why), ok ? 0 : -EINVAL);
		VLC_EXPECT_EQ(why, ok ? VLC_REFUSE_NONE : VLC_REFUSE_FEC);
	}
	VLC_EXPECT_EQ(vlc_refusal_field(VLC_REFUSE_FEC), VLC_FIELD_FEC);
}

/* ack_timeout 0 derives the timeout: SIFS + the ACK's airtime + slack */
VLC_TEST(vlc_mac_test_params_ack_timeout)
{
	struct vlc_mac_params good, p;
	struct vlc_mac *mac;

	mac = tn_params_init(vlc_test_ctx, &good);
	p = good;
	p.ack_timeout = 0;
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &p, NULL), 0);
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac),
		      p.sifs + vlc_mac_frame_symbols(&p, 7) + 4);
}

/* Address compression: the VLC prefix to a short address, and back */
VLC_TEST(vlc_mac_test_short_addr)
{
	u8 a[VLC_MAC_ALEN] = { 0x02, 0x56, 0x4c, 0x43, 0x00, 0x2a };

	VLC_EXPECT_EQ(vlc_mac_short_addr(a), 0x2a);
	a[5] = 0xff;
	VLC_EXPECT_EQ(vlc_mac_short_addr(a), -1);
	memset(a, 0xff, sizeof(a));
	VLC_EXPECT_EQ(vlc_mac_short_addr(a), VLC_MAC_BCAST);
	a[0] = 0x33;
	VLC_EXPECT_EQ(vlc_mac_short_addr(a), -1);
}

/* The CRC is the kernel's X.25 one (check value of "123456789") */
VLC_TEST(vlc_mac_test_crc)
{
	VLC_EXPECT_EQ((u16)~crc_ccitt(0xffff, (const u8 *)"123456789", 9),
		      0x906e);
}

/* Frames from the stack that cannot be sent: no payload, or too long */
VLC_TEST(vlc_mac_test_xmit_len)
{
	struct vlc_mac_tnet *t = tn_init(1, 17, NULL);
	struct vlc_mac *mac = &t->node[0].mac;

	VLC_EXPECT_EQ(vlc_mac_xmit(mac, t->scratch, 14), -EINVAL);
	VLC_EXPECT_EQ(vlc_mac_xmit(mac, t->scratch, VLC_MAC_FRAME_MAX + 1),
		      -EINVAL);
}

/* The MAC takes a new mode's symbols only between frames of its own:
 * a frame on air ends in the symbols it began with.
 */
VLC_TEST(vlc_mac_test_set_bits)
{
	struct vlc_mac_tnet *t = tn_init(2, 23, NULL);
	struct vlc_mac *mac = &t->node[0].mac;
	u32 i;

	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 98) >= 0);
	for (i = 0; i < 10000 && !t->node[0].tx_syms; i++)
		tn_step(t);
	VLC_ASSERT_TRUE(t->node[0].tx_syms > 0);
	VLC_EXPECT_TRUE(!vlc_mac_set_bits(mac, 2));
	VLC_EXPECT_EQ(mac->p.bits_per_symbol, 1);
	VLC_EXPECT_TRUE(vlc_mac_set_bits(&t->node[1].mac, 1));

	for (i = 0; i < 10000 && mac->tx.emit.sym < mac->tx.emit.nsyms; i++)
		tn_step(t);
	VLC_EXPECT_TRUE(vlc_mac_set_bits(mac, 2));
	VLC_EXPECT_EQ(mac->p.bits_per_symbol, 2);
}

/* 8. The documented airtime of a ping one way, ACK included. */
static void tn_case_overhead(TN_CTX, int bits, u32 total, u32 data,
			     u32 ack)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;

	vlc_mac_default_params(&p);
	p.bits_per_symbol = bits;
	t = tn_init(2, 19, &p);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 98) >= 0);
	tn_run(t, 10000, 0);
	VLC_ASSERT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->node[0].done_frame -
		      t->node[0].first_tx + 1, total);
	VLC_EXPECT_EQ(t->node[0].tx_syms, data);
	VLC_EXPECT_EQ(t->node[1].tx_syms, ack);
	VLC_EXPECT_EQ(t->node[0].tx_syms,
		      vlc_mac_frame_symbols(&p, 1 + 5 + 84 + 2));
}

VLC_TEST(vlc_mac_test_overhead)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;

	tn_case_overhead(vlc_test_ctx, 1, VLC_MAC_PING98_FRAMES, 744, 64);

	/* 1514 bytes: 7 fragments, 7 ACKs, 13 SIFS gaps (vlc_mac_tx.c) */
	vlc_mac_default_params(&p);
	p.rts_threshold = 0;
	t = tn_init(2, 23, &p);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 1514) >= 0);
	tn_run(t, 20000, 0);
	VLC_ASSERT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->node[0].done_frame - t->node[0].first_tx + 1,
		      VLC_MAC_MTU_FRAMES);
	VLC_EXPECT_EQ(t->node[0].tx_syms, 7 * 72 + 1500 * 8);
	VLC_EXPECT_EQ(t->node[1].tx_syms, 7 * 64);

	/* the same after RTS 72, SIFS 2, CTS 72, SIFS 2 (the defaults) */
	t = tn_init(2, 23, NULL);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 1514) >= 0);
	tn_run(t, 20000, 0);
	VLC_ASSERT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->node[0].done_frame - t->node[0].first_tx + 1,
		      VLC_MAC_MTU_FRAMES_RTS);
	VLC_EXPECT_EQ(t->node[0].tx_syms, 72 + 7 * 72 + 1500 * 8);
	VLC_EXPECT_EQ(t->node[1].tx_syms, 72 + 7 * 64);

	/* 4-PPM: 8 + 92 * 4 = 376, SIFS 2, ACK 8 + 7 * 4 = 36 */
	tn_case_overhead(vlc_test_ctx, 2, 414, 376, 36);
}

/* 9. Fragment length adapts; a retransmission keeps its length. The
 * first ACK of an MTU frame is lost: the sender resends fragment 0 with
 * its 240 bytes (the receiver has them: it counts a duplicate) and cuts
 * the following ones from 120 bytes, 16 more after each clean ACK.
 */
VLC_TEST(vlc_mac_test_frag_adapt)
{
	struct vlc_mac_params p0;
	struct vlc_mac_tnet *t;
	struct vlc_mac_stats *s;
	u32 i;

	/* without RTS, so that node 1's first symbol is its first ACK */
	vlc_mac_default_params(&p0);
	p0.rts_threshold = 0;
	t = tn_init(2, 29, &p0);
	s = &t->node[0].mac.stats;

	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 1514) >= 0);
	for (i = 0; i < 5000 && !t->node[1].tx_syms; i++)
		tn_step(t);
	VLC_ASSERT_EQ(t->node[1].tx_syms, 1);	/* its first ACK started */
	t->node[0].seen[1] = false;
	for (i = 0; i < 70; i++)
		tn_step(t);
	t->node[0].seen[1] = true;
	tn_run(t, 40000, 100);
	VLC_ASSERT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->pkt[0].deliveries[1], 1);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(s->tx_retries, 1);
	VLC_EXPECT_EQ(t->node[1].mac.stats.rx_dup, 1);
	/* 240, 240 again, then 120 136 152 168 184 200 216 and the last 84 */
	VLC_EXPECT_EQ(s->tx_fragments, 2 + 8);
	VLC_EXPECT_EQ(s->tx_acked, 9);
	VLC_EXPECT_EQ(t->node[0].tx_syms,
		      10 * 72 + (240 + 1500) * 8);

	/* Under 1e-3 erasures per symbol, adapting from 240 delivers MTU
	 * frames about as fast as fixed 48-byte fragments (the best fixed
	 * size there), and byte-exact.
	 */
	{
		static const u16 fmax[] = { 48, 240 };
		struct vlc_mac_params p;
		u32 frames[2];

		for (i = 0; i < ARRAY_SIZE(fmax); i++) {
			vlc_mac_default_params(&p);
			p.frag_size = fmax[i];
			p.retry_limit = 15;
			t = tn_init(2, 31, &p);
			t->erase_ppm = 1000;
			VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
			VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
			VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
			VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
			frames[i] = tn_run(t, 400000, 0);
			VLC_ASSERT_TRUE(tn_all_done(t));
			VLC_EXPECT_EQ(t->node[1].delivered, 4);
			VLC_EXPECT_EQ(t->bad, 0);
			VLC_EXPECT_EQ(t->dup, 0);
			VLC_TEST_LOG("frag max %u, 1e-3 erased: 4 MTU frames in %u, frag_len %u",
				     fmax[i], frames[i],
				     t->node[0].mac.tx.frag_len);
		}
		VLC_EXPECT_LE(frames[1], frames[0] + frames[0] / 5);
	}
}

/* 10. RTS/CTS: the reservation covers the exchange exactly; a node
 * that heard an RTS
 * whose exchange never started is released; each RTS has retry_limit
 * retries.
 */
VLC_TEST(vlc_mac_test_rts)
{
	struct vlc_mac_tnode *obs;
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 i;

	/* node 3 watches node 1 send an MTU frame to node 2 */
	t = tn_init(3, 41, NULL);
	obs = &t->node[2];
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 1514) >= 0);
	for (i = 0; i < 20000 && t->pkt[0].done < 0; i++)
		tn_step(t);
	VLC_ASSERT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_rts, 1);
	VLC_EXPECT_EQ(t->node[1].mac.stats.tx_cts, 1);
	VLC_EXPECT_EQ(obs->mac.stats.rx_rts, 1);
	VLC_EXPECT_EQ(obs->mac.stats.rx_cts, 1);
	VLC_EXPECT_GE(obs->mac.stats.nav_set, 1);
	VLC_EXPECT_EQ(obs->mac.stats.nav_reset, 0);
	/* The reservation is exact: it ended with the last ACK, and it
	 * kept the observer quiet through every dark gap of the exchange:
	 * SIFS before and after the CTS, after each of the 7 DATA, after
	 * each of the first 6 ACKs.
	 */
	VLC_EXPECT_EQ(obs->mac.nav.frames, 0);
	VLC_EXPECT_EQ(obs->mac.stats.nav_frames, 2 + 2 + 7 * 2 + 6 * 2);

	/* nobody answers: the observer is released, the RTS retried */
	vlc_mac_default_params(&p);
	p.retry_limit = 2;
	t = tn_init(3, 43, &p);
	obs = &t->node[2];
	t->node[1].present = false;
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, 1514) >= 0);
	tn_run(t, 20000, 10);
	VLC_ASSERT_EQ(t->pkt[0].done, 0);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_rts, 3);
	VLC_EXPECT_EQ(t->node[0].mac.stats.cts_timeouts, 3);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_fragments, 0);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_dropped, 1);
	VLC_EXPECT_EQ(obs->mac.stats.rx_rts, 3);
	VLC_EXPECT_EQ(obs->mac.stats.nav_reset, 3);
	VLC_EXPECT_EQ(obs->mac.nav.frames, 0);
	/* released within SIFS + CTS + SIFS + slack of each RTS, not after
	 * the announced MTU exchange
	 */
	VLC_EXPECT_LE(obs->mac.stats.nav_frames, 3 * (2 + 72 + 2 + 4));

	/* short packets go without */
	t = tn_init(2, 45, NULL);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, VLC_MAC_RTS_DEFAULT - 1) >= 0);
	VLC_ASSERT_TRUE(tn_send_ip(t, 0, 1, VLC_MAC_RTS_DEFAULT) >= 0);
	tn_run(t, 20000, 10);
	VLC_EXPECT_EQ(t->pkt[0].done, 1);
	VLC_EXPECT_EQ(t->pkt[1].done, 1);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_rts, 1);
}

/* 11. Hidden terminals: nodes 1 and 3 cannot see each other and both
 * send six MTU frames to node 2. Without RTS/CTS their fragments collide
 * at node 2 (in this seeded run not one packet survives its 16 attempts);
 * with it, node 2's CTS silences the other sender for the whole packet,
 * all twelve arrive in at most twice their bare airtime, and DATA is
 * retransmitted less than half as often.
 */
static u32 tn_hidden(TN_CTX, u16 rts, u64 seed, u64 *retries)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	u32 frames, i;

	vlc_mac_default_params(&p);
	p.rts_threshold = rts;
	p.retry_limit = 15;
	t = tn_init(3, seed, &p);
	t->node[0].seen[2] = false;
	t->node[2].seen[0] = false;
	for (i = 0; i < 6; i++) {
		VLC_EXPECT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
		VLC_EXPECT_TRUE(tn_queue_ip(t, 2, 1, 1514) >= 0);
	}
	frames = tn_run(t, 2000000, 0);
	VLC_EXPECT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(t->dup, 0);
	*retries = t->node[0].mac.stats.tx_retries +
		   t->node[2].mac.stats.tx_retries;
	VLC_TEST_LOG("hidden, rts_threshold %u: %u frames, %llu retries, %u delivered",
		     rts, frames, (unsigned long long)*retries,
		     t->node[1].delivered);
	return t->node[1].delivered == 12 ? frames : U32_MAX;
}

VLC_TEST(vlc_mac_test_hidden)
{
	u64 r_off, r_on;
	u32 off, on;

	off = tn_hidden(vlc_test_ctx, 0, 47, &r_off);
	on = tn_hidden(vlc_test_ctx, VLC_MAC_RTS_DEFAULT, 47, &r_on);
	VLC_EXPECT_EQ(off, U32_MAX);
	VLC_EXPECT_LE(on, 2 * 12 * VLC_MAC_MTU_FRAMES_RTS);
	VLC_EXPECT_LE(2 * r_on, r_off);
	/* 12 MTU frames cannot take less than their airtime */
	VLC_EXPECT_GE(on, 12 * VLC_MAC_MTU_FRAMES_RTS);
}

/* 12. Location beacons go every loc_interval frames even under load,
 * and every node keeps who it heard, how bright and how long ago.
 */
VLC_TEST(vlc_mac_test_loc_beacon)
{
	struct vlc_mac_beacon tab[VLC_MAC_BEACONS_MAX];
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;
	unsigned int n, i;
	u32 frames;

	vlc_mac_default_params(&p);
	p.loc_interval = 2000;
	t = tn_init(3, 51, &p);
	/* node 1 keeps sending to node 2 the whole time */
	for (i = 0; i < 6; i++)
		VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
	/* and a beacon's airtime more, so that the last one is heard */
	frames = tn_run(t, 200000, 100);
	VLC_ASSERT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->node[1].delivered, 6);
	/* one per interval, give or take the contention of the last one */
	VLC_EXPECT_GE(t->node[0].mac.stats.tx_beacons, frames / 2000 - 1);
	VLC_EXPECT_LE(t->node[0].mac.stats.tx_beacons, frames / 2000 + 1);

	/* The others only get the gaps between packets, where they contend
	 * with the sender's next packet (6 and 2 beacons in this run: a
	 * limit, documented in vlc.rst).
	 */
	VLC_EXPECT_GE(t->node[1].mac.stats.tx_beacons, 2);
	VLC_EXPECT_GE(t->node[2].mac.stats.tx_beacons, 2);
	VLC_EXPECT_EQ(t->bad, 0);

	n = vlc_mac_beacons(&t->node[2].mac, tab, ARRAY_SIZE(tab));
	VLC_ASSERT_EQ(n, 2);
	for (i = 0; i < n; i++) {
		VLC_EXPECT_TRUE(tab[i].id == 1 || tab[i].id == 2);
		/* Beacons are not acknowledged; the idle nodes' wait for
		 * the gap between two packets, where two may pick the same
		 * backoff and collide (2 of 9 in this run).
		 */
		VLC_EXPECT_LE(tab[i].count,
			      t->node[tab[i].id - 1].mac.stats.tx_beacons);
		VLC_EXPECT_GE(2 * tab[i].count,
			      t->node[tab[i].id - 1].mac.stats.tx_beacons);
		VLC_EXPECT_LE(tab[i].last, 2000 + VLC_MAC_MTU_FRAMES_RTS);
	}
	/* room for only one entry */
	VLC_EXPECT_EQ(vlc_mac_beacons(&t->node[2].mac, tab, 1), 1);

	/* with every beacon off, entries age frame by frame */
	{
		struct vlc_mac_beacon old;
		struct vlc_mac_params q;

		for (i = 0; i < 3; i++) {
			q = t->node[i].mac.p;
			q.loc_interval = 0;
			q.beacon_interval = 0;
			VLC_EXPECT_EQ(vlc_mac_set_params(&t->node[i].mac, &q,
							 NULL), 0);
		}
		/* a beacon on air finishes first */
		for (i = 0; i < 100; i++)
			tn_step(t);
		vlc_mac_beacons(&t->node[2].mac, &old, 1);
		for (i = 0; i < 100; i++)
			tn_step(t);
		VLC_EXPECT_EQ(vlc_mac_beacons(&t->node[2].mac, tab, 1), 1);
		VLC_EXPECT_EQ(tab[0].id, old.id);
		VLC_EXPECT_EQ(tab[0].last, old.last + 100);
	}

	/* off: no beacons of this kind beyond the idle ones */
	p.loc_interval = 0;
	p.beacon_interval = 0;
	t = tn_init(2, 53, &p);
	VLC_ASSERT_TRUE(tn_queue_ip(t, 0, 1, 1514) >= 0);
	tn_run(t, 100000, 5000);
	VLC_EXPECT_EQ(t->node[0].mac.stats.tx_beacons, 0);
	VLC_EXPECT_EQ(vlc_mac_beacons(&t->node[1].mac, tab, 16), 0);
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_mac_test_cases[] = {
	VLC_TEST_CASE(vlc_mac_test_delivery)
	VLC_TEST_CASE(vlc_mac_test_delivery_4ppm)
	VLC_TEST_CASE(vlc_mac_test_noise)
	VLC_TEST_CASE(vlc_mac_test_beacon)
	VLC_TEST_CASE(vlc_mac_test_retry_limit)
	VLC_TEST_CASE(vlc_mac_test_vanished_peer)
	VLC_TEST_CASE(vlc_mac_test_csma)
	VLC_TEST_CASE(vlc_mac_test_params_bad)
	VLC_TEST_CASE(vlc_mac_test_params_limits)
	VLC_TEST_CASE(vlc_mac_test_params_ack_timeout)
	VLC_TEST_CASE(vlc_mac_test_short_addr)
	VLC_TEST_CASE(vlc_mac_test_crc)
	VLC_TEST_CASE(vlc_mac_test_xmit_len)
	VLC_TEST_CASE(vlc_mac_test_set_bits)
	VLC_TEST_CASE(vlc_mac_test_max_age)
	VLC_TEST_CASE(vlc_mac_test_overhead)
	VLC_TEST_CASE(vlc_mac_test_frag_adapt)
	VLC_TEST_CASE(vlc_mac_test_rts)
	VLC_TEST_CASE(vlc_mac_test_hidden)
	VLC_TEST_CASE(vlc_mac_test_loc_beacon)
	VLC_TEST_CASES_END
};
