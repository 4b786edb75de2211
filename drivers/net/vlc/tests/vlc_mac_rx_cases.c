// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC MAC core's receiver: malformed and unexpected
 * frames fed straight into one node, and the PHY's hard decisions.
 * Suite "vlc_mac_rx", written once and included by the KUnit wrapper
 * (vlc_mac_kunit.c) and the host cmocka runner
 * (tests/host/vlc_mac_test.c); the table at the end lists them for both.
 * The test network they run on is vlc_mac_cases.h.
 */

#include "vlc_mac_cases.h"

#define TN_STAT(x)	(t->node[1].mac.stats.x)

/* 3. Malformed input from the air: each dropped into its own counter.
 * Node 1 of two takes frames fed straight in; no beacon of its own may
 * cut one, and node 0 (short address 1) is not there to answer.
 */
static struct vlc_mac_tnet *tn_rx_init(void)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t = tn_quiet_pair(3, 0, &p);

	tn_feed(t, NULL, 0, 4);
	return t;
}

static u8 tn_buf[VLC_MAC_AIR_MAX + 16];

/* The symbols of a good 30-byte DATA frame from 9, to spoil */
static struct tn_raw *tn_raw_data(void)
{
	return tn_raw_frame(tn_buf, tn_data(tn_buf, 9, 2, 0, true, 30), true);
}

/* a good single-fragment frame is accepted and acknowledged */
VLC_TEST(vlc_mac_test_rx_good)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	unsigned int n;

	n = tn_data(tn_buf, 9, 1, 0, true, 30);
	tn_feed_frame(t, tn_buf, n);
	VLC_EXPECT_EQ(TN_STAT(rx_frames_ok), 1);
	VLC_EXPECT_EQ(TN_STAT(rx_delivered), 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(t->node[1].last_len, 14 + 30);
	VLC_EXPECT_EQ(t->node[1].tx_syms, 64);		/* its ACK */
}

/* truncated: idle in the middle of the payload */
VLC_TEST(vlc_mac_test_rx_truncated)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	struct tn_raw *r = tn_raw_data();

	tn_feed(t, r->sym, r->n - 100, 100);
	VLC_EXPECT_EQ(TN_STAT(rx_truncated), 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

/* length beyond the buffer, and zero */
VLC_TEST(vlc_mac_test_rx_bad_length)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;
	unsigned int n;

	n = tn_data(b, 9, 2, 0, true, 30);
	b[4] = VLC_MAC_FRAG_MAX + 1;
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 1);
	b[4] = 255;
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 2);
	b[4] = 0;
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 3);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

VLC_TEST(vlc_mac_test_rx_bad_crc)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	struct tn_raw *r = tn_raw_data();

	r->sym[r->n - 3] ^= 1;
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(TN_STAT(rx_crc_errors), 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

/* unknown types and reserved bits set, in every frame type */
VLC_TEST(vlc_mac_test_rx_reserved)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;
	unsigned int n, i;

	/* reserved types 0, 6, 7 */
	for (i = 0; i < 8; i++) {
		if (i >= 1 && i <= 5)
			continue;
		n = tn_data(b, 9, 2, 0, true, 30);
		b[0] = i << 5;
		tn_feed_frame(t, b, n);
	}
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 3);
	/* an ACK with reserved bits set */
	b[0] = 2 << 5 | 1;
	b[1] = 2;
	b[2] = 9;
	b[3] = 0;
	tn_feed_frame(t, b, 4);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 4);
	/* a beacon with reserved bits set, then a good one */
	b[0] = 5 << 5 | 2;
	b[1] = 9;
	tn_feed_frame(t, b, 2);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 5);
	VLC_EXPECT_EQ(TN_STAT(rx_beacons), 0);
	b[0] = 5 << 5;
	tn_feed_frame(t, b, 2);
	VLC_EXPECT_EQ(TN_STAT(rx_beacons), 1);
	/* RTS and CTS with reserved bits set */
	b[0] = 3 << 5 | 4;
	tn_feed_frame(t, b, 5);
	b[0] = 4 << 5 | 1;
	tn_feed_frame(t, b, 5);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 7);
	VLC_EXPECT_EQ(TN_STAT(rx_rts) + TN_STAT(rx_cts), 0);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

/* erasure inside a frame; an out-of-range symbol counts as one; light
 * without a delimiter
 */
VLC_TEST(vlc_mac_test_rx_bad_symbols)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	int bad_sym[64];
	struct tn_raw *r;
	unsigned int i;

	r = tn_raw_data();
	r->sym[100] = VLC_SYM_ERASURE;
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(TN_STAT(rx_erasure_aborts), 1);
	r = tn_raw_data();
	r->sym[120] = 3;
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(TN_STAT(rx_erasure_aborts), 2);

	for (i = 0; i < ARRAY_SIZE(bad_sym); i++)
		bad_sym[i] = i & 1;
	tn_feed(t, bad_sym, ARRAY_SIZE(bad_sym), 10);
	VLC_EXPECT_EQ(TN_STAT(rx_no_delimiter), 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

/* fragments: 0 (accepted), 2 (out of order), 0 again (duplicate); one of
 * a packet never started; too many for any Ethernet frame
 */
VLC_TEST(vlc_mac_test_rx_fragments)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	unsigned int n, i, acks;

	acks = t->node[1].tx_syms;
	n = tn_data(tn_buf, 9, 3, 0, false, 64);
	tn_feed_frame(t, tn_buf, n);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks + 64);
	n = tn_data(tn_buf, 9, 3, 2, false, 64);
	tn_feed_frame(t, tn_buf, n);
	VLC_EXPECT_EQ(TN_STAT(rx_out_of_order), 1);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks + 64);	/* no ACK */
	n = tn_data(tn_buf, 9, 3, 0, false, 64);
	tn_feed_frame(t, tn_buf, n);
	VLC_EXPECT_EQ(TN_STAT(rx_dup), 1);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks + 128);	/* ACKed again */

	n = tn_data(tn_buf, 10, 5, 3, true, 64);
	tn_feed_frame(t, tn_buf, n);
	VLC_EXPECT_EQ(TN_STAT(rx_orphan), 1);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks + 128);

	/* seven 240-byte fragments overflow any Ethernet frame */
	for (i = 0; i < 7; i++) {
		n = tn_data(tn_buf, 11, 1, i, false, VLC_MAC_FRAG_MAX);
		tn_feed_frame(t, tn_buf, n);
	}
	VLC_EXPECT_EQ(TN_STAT(rx_too_long), 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
	VLC_EXPECT_EQ(TN_STAT(rx_delivered), 0);
}

/* A DATA frame as tn_data() builds it, with the full source in it. */
static unsigned int tn_data_sfull(u8 *b, u8 tx, u8 seq, u8 frag, bool last,
				  unsigned int len)
{
	unsigned int n = tn_data(b + VLC_MAC_ALEN, tx, seq, frag, last, len);

	b[0] = b[VLC_MAC_ALEN] | 0x01;		/* full source */
	b[1] = 2;
	b[2] = tx;
	memcpy(b + 3, "\x02\x56\x4c\x43\x00", VLC_MAC_ALEN - 1);
	b[3 + VLC_MAC_ALEN - 1] = tx;
	return n + VLC_MAC_ALEN;
}

/* A later fragment that carries the full source the first one left
 * out is not of that packet, even when the source is the one an
 * earlier packet of that sender carried.
 */
VLC_TEST(vlc_mac_test_rx_frag_sfull)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;

	tn_feed_frame(t, b, tn_data_sfull(b, 14, 1, 0, true, 64));
	VLC_EXPECT_EQ(TN_STAT(rx_delivered), 1);
	tn_feed_frame(t, b, tn_data(b, 14, 2, 0, false, 64));
	tn_feed_frame(t, b, tn_data_sfull(b, 14, 2, 1, true, 64));
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 1);
	VLC_EXPECT_EQ(TN_STAT(rx_delivered), 1);
}

/* headers a fragment must agree with, or carry in full */
VLC_TEST(vlc_mac_test_rx_frag_headers)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;
	unsigned int n;

	/* a later fragment that disagrees with the first one's header */
	n = tn_data(b, 12, 1, 0, false, 64);
	tn_feed_frame(t, b, n);
	n = tn_data(b, 12, 1, 1, true, 64);
	b[0] |= 1 << 2;		/* ARP instead of IPv4 */
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 1);

	/* uncoded ethertype needs its 2 bytes, and a byte of payload: a
	 * bare 14-byte header is never sent (found by the fuzzer, K1)
	 */
	n = tn_data(b, 13, 1, 0, true, 1);
	b[0] |= 3 << 2;
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 2);
	n = tn_data(b, 13, 2, 0, true, 2);
	b[0] |= 3 << 2;
	tn_feed_frame(t, b, n);
	VLC_EXPECT_EQ(TN_STAT(rx_bad_header), 3);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
	VLC_EXPECT_EQ(TN_STAT(rx_delivered), 0);
}

/* an ACK to us that nobody asked for; one to another node; a CTS to us
 * that nobody asked for
 */
VLC_TEST(vlc_mac_test_rx_unexpected)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;

	b[0] = 2 << 5;
	b[1] = 2;
	b[2] = 9;
	b[3] = 3 << 5;
	tn_feed_frame(t, b, 4);
	VLC_EXPECT_EQ(TN_STAT(rx_unexpected_ack), 1);
	b[1] = 7;
	tn_feed_frame(t, b, 4);
	VLC_EXPECT_EQ(TN_STAT(rx_unexpected_ack), 1);
	VLC_EXPECT_EQ(TN_STAT(rx_other), 1);

	b[0] = 4 << 5;
	b[1] = 2;
	b[2] = 9;
	b[3] = 0;
	b[4] = 100;
	tn_feed_frame(t, b, 5);
	VLC_EXPECT_EQ(TN_STAT(rx_unexpected_ack), 2);
	VLC_EXPECT_EQ(t->node[1].mac.nav.frames, 0);
}

/* An RTS to us is answered by a CTS; a CTS between others sets the NAV,
 * clamped, and no RTS is answered while it lasts.
 */
VLC_TEST(vlc_mac_test_rx_rts_nav)
{
	struct vlc_mac_tnet *t = tn_rx_init();
	u8 *b = tn_buf;
	unsigned int acks;

	/* the CTS (72 symbols) announces what is left of the reservation */
	acks = t->node[1].tx_syms;
	b[0] = 3 << 5;
	b[1] = 2;
	b[2] = 9;
	b[3] = 0x01;
	b[4] = 0x00;
	tn_feed_frame(t, b, 5);
	VLC_EXPECT_EQ(TN_STAT(tx_cts), 1);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks + 72);

	/* A CTS between others announcing 65535 frames: the NAV is cut to
	 * the longest exchange possible, coded at the strongest level,
	 * about 17 s at 500 us frames, less than three MTU frames' airtime.
	 */
	b[0] = 4 << 5;
	b[1] = 7;
	b[2] = 9;
	b[3] = 0xff;
	b[4] = 0xff;
	tn_feed(t, tn_raw_frame(b, 5, true)->sym, tn_raw.n, 0);
	VLC_EXPECT_EQ(TN_STAT(nav_clamped), 1);
	VLC_EXPECT_EQ(t->node[1].mac.nav.frames, t->node[1].mac.nav.max);
	VLC_EXPECT_EQ(t->node[1].mac.nav.max, 33151);	/* vlc.rst */
	VLC_EXPECT_LE(t->node[1].mac.nav.max, 3 * VLC_MAC_MTU_FRAMES);
	/* while it lasts, an RTS to us gets no answer */
	acks = t->node[1].tx_syms;
	b[0] = 3 << 5;
	b[1] = 2;
	b[3] = 0x01;
	tn_feed_frame(t, b, 5);
	VLC_EXPECT_EQ(t->node[1].tx_syms, acks);
	VLC_EXPECT_EQ(TN_STAT(tx_cts), 1);
	/* and it ends: the node answers again */
	tn_feed(t, NULL, 0, t->node[1].mac.nav.max);
	VLC_EXPECT_EQ(t->node[1].mac.nav.frames, 0);
	VLC_EXPECT_GT(TN_STAT(nav_frames), 0);
	tn_feed_frame(t, b, 5);
	VLC_EXPECT_EQ(TN_STAT(tx_cts), 2);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
}

/* 15. Inside a frame the MAC takes the PHY's hard decision for an
 * erasure: with every tenth symbol erased, frames that would all abort
 * are delivered byte-exact. Hard decisions that are wrong are caught by
 * the CRC, counted, and the fragments retried; nothing corrupt is
 * delivered. Without hard decisions the erasures abort every frame.
 */
VLC_TEST(vlc_mac_test_hard)
{
	struct vlc_mac_tnet *t = tn_init(2, 61, NULL);
	const struct vlc_mac_stats *s = &t->node[1].mac.stats;
	int id;

	t->hard = true;
	t->erase_ppm = 100000;
	id = tn_send_ip(t, 0, 1, 1514);
	VLC_ASSERT_TRUE(id >= 0);
	tn_run(t, 200000, 500);
	VLC_EXPECT_EQ(t->pkt[id].done, 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(s->rx_erasure_aborts, 0);
	VLC_EXPECT_GT(s->rx_hard_symbols, 1000);
	VLC_EXPECT_GE(s->rx_hard_frames_ok, 7);

	/* some hard decisions wrong: CRC errors, retries, no bad data */
	t = tn_init(2, 62, NULL);
	s = &t->node[1].mac.stats;
	t->hard = true;
	t->erase_ppm = 100000;
	t->hard_flip_ppm = 3000;
	id = tn_send_ip(t, 0, 1, 1514);
	VLC_ASSERT_TRUE(id >= 0);
	tn_run(t, 400000, 500);
	VLC_EXPECT_EQ(t->pkt[id].done, 1);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_GT(s->rx_hard_crc_errors, 0);
	VLC_EXPECT_EQ(s->rx_hard_crc_errors, s->rx_crc_errors);
	VLC_EXPECT_GT(t->node[0].mac.stats.tx_retries, 0);

	/* without hard decisions every fragment aborts */
	t = tn_init(2, 63, NULL);
	t->erase_ppm = 100000;
	id = tn_send_ip(t, 0, 1, 1514);
	VLC_ASSERT_TRUE(id >= 0);
	tn_run(t, 200000, 500);
	VLC_EXPECT_EQ(t->pkt[id].done, 0);
	VLC_EXPECT_GT(t->node[1].mac.stats.rx_erasure_aborts, 0);
}

/* 16. Inside a frame a dark symbol takes the hard decision too, but two
 * in a row end the frame as truncated: the sender stopped.
 */
VLC_TEST(vlc_mac_test_hard_dark)
{
	struct vlc_mac_tnet *t = tn_init(2, 65, NULL);
	struct vlc_mac *m = &t->node[1].mac;
	struct vlc_phy_rx rx = { .bits = 1, .flags = VLC_PHY_RX_HARD };
	static const u8 sfd = 0x97;
	int i;

	/* idle, preamble, SFD, then the first header bits */
	rx.sym = VLC_SYM_IDLE;
	for (i = 0; i < 4; i++)
		vlc_mac_rx_frame(m, &rx);
	for (i = 0; i < 8; i++) {
		rx.sym = i & 1;
		rx.hard = rx.sym;
		vlc_mac_rx_frame(m, &rx);
	}
	for (i = 7; i >= 0; i--) {
		rx.sym = (sfd >> i) & 1;
		rx.hard = rx.sym;
		vlc_mac_rx_frame(m, &rx);
	}
	/* one dark frame inside the frame: taken as its hard decision */
	rx.sym = VLC_SYM_IDLE;
	rx.hard = 0;
	vlc_mac_rx_frame(m, &rx);
	VLC_EXPECT_EQ(m->stats.rx_hard_symbols, 1);
	VLC_EXPECT_EQ(m->stats.rx_truncated, 0);
	rx.sym = 1;
	vlc_mac_rx_frame(m, &rx);
	/* two in a row: truncated */
	rx.sym = VLC_SYM_IDLE;
	vlc_mac_rx_frame(m, &rx);
	VLC_EXPECT_EQ(m->stats.rx_truncated, 0);
	vlc_mac_rx_frame(m, &rx);
	VLC_EXPECT_EQ(m->stats.rx_truncated, 1);
	VLC_EXPECT_EQ(m->stats.rx_hard_symbols, 2);
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_mac_rx_test_cases[] = {
	VLC_TEST_CASE(vlc_mac_test_rx_good)
	VLC_TEST_CASE(vlc_mac_test_rx_truncated)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_length)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_crc)
	VLC_TEST_CASE(vlc_mac_test_rx_reserved)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_symbols)
	VLC_TEST_CASE(vlc_mac_test_rx_fragments)
	VLC_TEST_CASE(vlc_mac_test_rx_frag_headers)
	VLC_TEST_CASE(vlc_mac_test_rx_frag_sfull)
	VLC_TEST_CASE(vlc_mac_test_rx_unexpected)
	VLC_TEST_CASE(vlc_mac_test_rx_rts_nav)
	VLC_TEST_CASE(vlc_mac_test_hard)
	VLC_TEST_CASE(vlc_mac_test_hard_dark)
	VLC_TEST_CASES_END
};
