// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC MAC core's coded frames (vlc_mac_fec.c): parity
 * against erasures, the coded header, a pair whose settings differ, a
 * decode that goes wrong, the decode run by the owner, the header's own
 * codecs, the parity that follows the erasures. Suite "vlc_mac_fec", written once and included
 * by the KUnit wrapper (vlc_mac_kunit.c) and the host cmocka runner
 * (tests/host/vlc_mac_test.c); the table at the end lists them for both.
 * The test network they run on is vlc_mac_cases.h. Only EXPECTs here:
 * every case frees the codecs it made.
 */

#include "vlc_mac_cases.h"

static struct vlc_fec tn_fec[TN_NODES];

/* Node @i gets codecs (deferring the decode to the case if @defer) and
 * the setting @fec; false if the codecs could not be made.
 */
static bool tn_fec_on(struct vlc_mac_tnet *t, int i, u8 fec, bool defer)
{
	struct vlc_mac_params p = t->node[i].mac.p;

	if (vlc_fec_init(&tn_fec[i]))
		return false;
	/* the cases decode between ticks: one set serves headers too */
	vlc_mac_set_fec(&t->node[i].mac, &tn_fec[i], &tn_fec[i], defer);
	p.fec = fec;
	return !vlc_mac_set_params(&t->node[i].mac, &p, NULL);
}

static void tn_fec_off(struct vlc_mac_tnet *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		vlc_mac_set_fec(&t->node[i].mac, NULL, NULL, false);
		vlc_fec_exit(&tn_fec[i]);
	}
}

/* The coded frame around the plain one of @n bytes at @body (CRC
 * added here), at @level: into @b, its length returned.
 */
static unsigned int tn_coded(u8 *b, const u8 *body, unsigned int n,
			     unsigned int level)
{
	unsigned int par = vlc_fec_parity(level), c, i, off = 0, len;
	u16 fcs;

	memcpy(b + 4, body, n);
	fcs = ~crc_ccitt(0xffff, body, n);
	b[4 + n++] = fcs & 0xff;
	b[4 + n++] = fcs >> 8;
	b[0] = 7 << 5 | level << 2 | n >> 8;
	b[1] = n & 0xff;
	vlc_fec_encode(&tn_fec[0], 1, b, 2, b + 2);
	c = (n + 254 - par) / (255 - par);
	for (i = 0; i < c; i++) {
		len = n / c + (i < n % c);
		vlc_fec_encode(&tn_fec[0], level, b + 4 + off, len,
			       b + 4 + n + i * par);
		off += len;
	}
	return 4 + n + c * par;
}

/* Erase every symbol of byte @k of the frame tn_raw_frame() made. */
static void tn_erase_byte(struct tn_raw *r, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		r->sym[8 + 8 * (1 + k) + i] = VLC_SYM_ERASURE;
}

static u8 tn_fbuf[VLC_MAC_CODED_MAX];
static u8 tn_body[VLC_MAC_AIR_MAX];

/* 1. At 0.3% of the symbols erased, a 1514-byte frame gets through with
 * 16 parity bytes a codeword, and not without.
 */
VLC_TEST(vlc_mac_test_fec_erasures)
{
	struct vlc_mac_tnet *t = tn_init(2, 71, NULL);
	const struct vlc_mac_stats *s = &t->node[1].mac.stats;
	int id, i;

	VLC_EXPECT_TRUE(vlc_fec_available());
	for (i = 0; i < 2; i++)
		VLC_EXPECT_TRUE(tn_fec_on(t, i, 16, false));
	t->erase_ppm = 3000;
	id = tn_send_ip(t, 0, 1, 1514);
	tn_run(t, 200000, 500);
	VLC_EXPECT_EQ(t->pkt[id].done, 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(s->rx_erasure_aborts, 0);
	VLC_EXPECT_GE(s->fec_corrected_frames, 5);
	VLC_EXPECT_GT(s->fec_corrected_symbols, s->fec_corrected_frames);
	VLC_EXPECT_GE(t->node[0].mac.stats.fec_tx_frames, 7);
	/* the ACKs are coded too */
	VLC_EXPECT_GE(t->node[1].mac.stats.fec_tx_frames, 7);
	VLC_TEST_LOG("fec 16, 0.3%% erased: %llu frames corrected, %llu bytes, %llu retries",
		     (unsigned long long)s->fec_corrected_frames,
		     (unsigned long long)s->fec_corrected_symbols,
		     (unsigned long long)t->node[0].mac.stats.tx_retries);
	tn_fec_off(t);

	t = tn_init(2, 71, NULL);
	t->erase_ppm = 3000;
	id = tn_send_ip(t, 0, 1, 1514);
	tn_run(t, 200000, 500);
	VLC_EXPECT_EQ(t->pkt[id].done, 0);
	VLC_EXPECT_GT(t->node[1].mac.stats.rx_erasure_aborts, 0);
}

/* 2. The coded header survives two of its four bytes lost, not three;
 * a node without codecs takes a coded frame that arrived whole.
 */
VLC_TEST(vlc_mac_test_fec_header)
{
	struct vlc_mac_tnet *t;
	const struct vlc_mac_stats *s;
	struct tn_raw *r;
	unsigned int n, len;

	t = tn_quiet_pair(72, 0, &(struct vlc_mac_params){});
	s = &t->node[1].mac.stats;
	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_OFF, false));
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	n = tn_data(tn_body, 9, 1, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 3);
	tn_feed(t, NULL, 0, 4);

	r = tn_raw_frame(tn_fbuf, len, false);
	tn_erase_byte(r, 0);
	tn_erase_byte(r, 2);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(s->fec_corrected_frames, 0);	/* the body was whole */

	tn_data(tn_body, 9, 2, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 3);
	r = tn_raw_frame(tn_fbuf, len, false);
	tn_erase_byte(r, 0);
	tn_erase_byte(r, 1);
	tn_erase_byte(r, 3);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(s->fec_uncorrectable, 1);

	/* body bytes lost, within the parity: corrected */
	tn_data(tn_body, 9, 3, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 3);
	r = tn_raw_frame(tn_fbuf, len, false);
	tn_erase_byte(r, 0);
	for (n = 4; n < 12; n++)
		tn_erase_byte(r, n);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 2);
	VLC_EXPECT_EQ(s->fec_corrected_frames, 1);
	VLC_EXPECT_EQ(s->fec_corrected_symbols, 8);

	/* two bytes dark in the body: its length is known, they are
	 * erasures; in a plain frame two dark symbols end it
	 */
	n = tn_data(tn_body, 9, 4, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 3);
	r = tn_raw_frame(tn_fbuf, len, false);
	for (n = 0; n < 15; n++)
		r->sym[8 + 8 * (1 + 10) + n] = VLC_SYM_IDLE;
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 3);
	VLC_EXPECT_EQ(s->fec_corrected_frames, 2);
	VLC_EXPECT_EQ(s->rx_truncated, 0);
	tn_fec_off(t);

	/* no codecs: whole, taken; a byte lost, dropped */
	t = tn_quiet_pair(73, 0, &(struct vlc_mac_params){});
	s = &t->node[1].mac.stats;
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	n = tn_data(tn_body, 9, 1, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 2);
	tn_feed(t, NULL, 0, 4);
	r = tn_raw_frame(tn_fbuf, len, false);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	tn_data(tn_body, 9, 2, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 2);
	r = tn_raw_frame(tn_fbuf, len, false);
	tn_erase_byte(r, 10);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(s->fec_uncorrectable, 1);
	tn_fec_off(t);
}

/* 3. A word "corrected" into another codeword whose data is wrong: the
 * CRC drops it, it is counted, nothing is delivered.
 */
VLC_TEST(vlc_mac_test_fec_misdecode)
{
	struct vlc_mac_tnet *t = tn_quiet_pair(74, 0, &(struct vlc_mac_params){});
	const struct vlc_mac_stats *s = &t->node[1].mac.stats;
	struct tn_raw *r;
	unsigned int n, len;

	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_OFF, false));
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	n = tn_data(tn_body, 9, 1, 0, true, 30);
	len = tn_coded(tn_fbuf, tn_body, n, 1);
	/* another body, its CRC left as the first one's: a codeword */
	tn_fbuf[4 + 10] ^= 0x5a;
	vlc_fec_encode(&tn_fec[0], 1, tn_fbuf + 4, n + 2, tn_fbuf + 4 + n + 2);
	/* one byte off that codeword: the decoder moves to it */
	tn_fbuf[4 + 20] ^= 0x33;
	tn_feed(t, NULL, 0, 4);
	r = tn_raw_frame(tn_fbuf, len, false);
	tn_feed(t, r->sym, r->n, 100);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
	VLC_EXPECT_EQ(s->fec_uncorrectable, 1);
	VLC_EXPECT_EQ(s->rx_crc_errors, 1);
	VLC_EXPECT_EQ(s->fec_corrected_frames, 0);
	VLC_EXPECT_EQ(s->rx_frames_ok, 0);
	tn_fec_off(t);
}

/* 4. One end off (and without codecs), the other auto: both ways go. */
VLC_TEST(vlc_mac_test_fec_mixed)
{
	struct vlc_mac_tnet *t = tn_init(2, 75, NULL);
	int i;

	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_AUTO, false));
	t->erase_ppm = 300;
	for (i = 0; i < 6; i++) {
		tn_queue_ip(t, 0, 1, 98);
		tn_queue_ip(t, 1, 0, 98 + 100 * i);
	}
	tn_run(t, 400000, 500);
	VLC_EXPECT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_EQ(t->dup, 0);
	VLC_EXPECT_EQ(t->node[0].delivered, 6);
	VLC_EXPECT_EQ(t->node[1].delivered, 6);
	VLC_EXPECT_EQ(t->node[0].mac.stats.fec_tx_frames, 0);
	VLC_EXPECT_GT(t->node[1].mac.stats.fec_tx_frames, 0);
	VLC_EXPECT_EQ(t->node[0].mac.stats.fec_deferred, 0);
	VLC_TEST_LOG("off and auto, 0.03%% erased: auto sent %llu coded frames",
		     (unsigned long long)t->node[1].mac.stats.fec_tx_frames);
	tn_fec_off(t);
}

/* 5. The owner decodes, some frames later, off the receive call; a
 * frame that needs the decoder while it is busy is dropped, counted.
 */
VLC_TEST(vlc_mac_test_fec_defer)
{
	struct vlc_mac_tnet *t = tn_init(2, 76, NULL);
	struct vlc_mac *m = &t->node[1].mac;
	u32 taken = 0, waited = 0;

	VLC_EXPECT_TRUE(tn_fec_on(t, 0, 8, false));
	VLC_EXPECT_TRUE(tn_fec_on(t, 1, 8, true));
	t->erase_ppm = 2000;
	tn_send_ip(t, 0, 1, 1514);
	while (!tn_all_done(t) && t->frame < 200000) {
		tn_step(t);
		if (!vlc_mac_fec_pending(m) || ++waited < 2)
			continue;
		waited = 0;
		VLC_EXPECT_TRUE(vlc_mac_fec_begin(m));
		VLC_EXPECT_TRUE(!vlc_mac_fec_begin(m));
		vlc_mac_fec_decode(m);
		vlc_mac_fec_end(m);
		taken++;
	}
	tn_run(t, 0, 500);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_EXPECT_GT(taken, 0);
	VLC_EXPECT_EQ(m->stats.fec_corrected_frames + m->stats.fec_uncorrectable,
		      taken);
	VLC_EXPECT_EQ(m->stats.fec_deferred, taken + vlc_mac_fec_pending(m));
	VLC_EXPECT_EQ(m->stats.fec_busy, 0);

	tn_fec_off(t);

	/* two in need of the decoder, nobody decoding: the second is
	 * dropped, the first delivered once decoded
	 */
	t = tn_quiet_pair(78, 0, &(struct vlc_mac_params){});
	m = &t->node[1].mac;
	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_OFF, true));
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	tn_feed(t, NULL, 0, 4);
	for (taken = 1; taken <= 2; taken++) {
		struct tn_raw *r;
		unsigned int n = tn_data(tn_body, 9, taken, 0, true, 40);

		r = tn_raw_frame(tn_fbuf, tn_coded(tn_fbuf, tn_body, n, 2),
				 false);
		tn_erase_byte(r, 7);
		tn_feed(t, r->sym, r->n, 20);
	}
	VLC_EXPECT_TRUE(vlc_mac_fec_pending(m));
	VLC_EXPECT_EQ(m->stats.fec_busy, 1);
	VLC_EXPECT_EQ(t->node[1].delivered, 0);
	VLC_EXPECT_TRUE(vlc_mac_fec_begin(m));
	vlc_mac_fec_decode(m);
	vlc_mac_fec_end(m);
	VLC_EXPECT_TRUE(!vlc_mac_fec_pending(m));
	VLC_EXPECT_EQ(t->node[1].delivered, 1);
	VLC_EXPECT_EQ(m->stats.fec_corrected_frames, 1);
	tn_fec_off(t);
}

/* A body's decoder scratch, as the decoder leaves it. */
struct tn_scratch {
	u16 par[VLC_FEC_PARITY_MAX];
	int pos[VLC_FEC_PARITY_MAX];
	u16 corr[VLC_FEC_PARITY_MAX];
};

static struct vlc_fec tn_fec_hdr;

static void tn_scratch_get(struct tn_scratch *s, const struct vlc_fec *fec)
{
	memcpy(s->par, fec->par, sizeof(s->par));
	memcpy(s->pos, fec->pos, sizeof(s->pos));
	memcpy(s->corr, fec->corr, sizeof(s->corr));
}

/* 5b. While the owner decodes a body off the tick, the tick decodes a
 * coded header with codecs of its own: the body's are left alone.
 */
VLC_TEST(vlc_mac_test_fec_hdr_codecs)
{
	struct tn_scratch before, after;
	struct vlc_mac_tnet *t;
	struct vlc_mac *m;
	struct tn_raw *r;
	unsigned int n;

	t = tn_quiet_pair(79, 0, &(struct vlc_mac_params){});
	m = &t->node[1].mac;
	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_OFF, true));
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec_hdr), 0);
	vlc_mac_set_fec(m, &tn_fec[1], &tn_fec_hdr, true);
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	tn_feed(t, NULL, 0, 4);

	/* a body with a byte lost: handed to the owner, who takes it */
	n = tn_data(tn_body, 9, 1, 0, true, 40);
	r = tn_raw_frame(tn_fbuf, tn_coded(tn_fbuf, tn_body, n, 2), false);
	tn_erase_byte(r, 7);
	tn_feed(t, r->sym, r->n, 20);
	VLC_EXPECT_TRUE(vlc_mac_fec_begin(m));

	/* meanwhile a frame whose header lost two bytes, its body whole */
	memset(&tn_fec[1].par, 0xa5, sizeof(tn_fec[1].par));
	memset(&tn_fec[1].pos, 0xa5, sizeof(tn_fec[1].pos));
	memset(&tn_fec[1].corr, 0xa5, sizeof(tn_fec[1].corr));
	tn_scratch_get(&before, &tn_fec[1]);
	n = tn_data(tn_body, 9, 2, 0, true, 40);
	r = tn_raw_frame(tn_fbuf, tn_coded(tn_fbuf, tn_body, n, 2), false);
	tn_erase_byte(r, 0);
	tn_erase_byte(r, 2);
	tn_feed(t, r->sym, r->n, 20);
	tn_scratch_get(&after, &tn_fec[1]);
	VLC_EXPECT_EQ(memcmp(&before, &after, sizeof(before)), 0);
	VLC_EXPECT_EQ(t->node[1].delivered, 1);

	vlc_mac_fec_decode(m);
	vlc_mac_fec_end(m);
	VLC_EXPECT_EQ(t->node[1].delivered, 2);
	VLC_EXPECT_EQ(m->stats.fec_corrected_frames, 1);
	tn_fec_off(t);
	vlc_fec_exit(&tn_fec_hdr);
}

/* 6. Auto: no parity on a clean link, parity once erasures come, none
 * again once they are gone.
 */
VLC_TEST(vlc_mac_test_fec_auto)
{
	struct vlc_mac_tnet *t = tn_init(2, 77, NULL);
	const struct vlc_mac_stats *s0 = &t->node[0].mac.stats;
	u64 coded;
	int i;

	for (i = 0; i < 2; i++)
		VLC_EXPECT_TRUE(tn_fec_on(t, i, VLC_MAC_FEC_AUTO, false));
	for (i = 0; i < 2; i++)
		tn_send_ip(t, 0, 1, 600);
	tn_run(t, 100000, 100);
	VLC_EXPECT_EQ(s0->fec_tx_frames, 0);
	VLC_EXPECT_EQ(t->node[1].delivered, 2);

	t->erase_ppm = 2000;
	for (i = 0; i < 6; i++)
		tn_queue_ip(t, 0, 1, 1514);
	tn_run(t, 400000, 100);
	VLC_EXPECT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(t->node[1].delivered, 8);
	VLC_EXPECT_GT(s0->fec_tx_frames, 20);
	VLC_EXPECT_EQ(t->bad, 0);
	VLC_TEST_LOG("auto, 0.2%% erased: %llu coded, %llu retries",
		     (unsigned long long)s0->fec_tx_frames,
		     (unsigned long long)s0->tx_retries);

	/* clean again: what node 0 receives and sends through at once
	 * takes its parity back to none
	 */
	t->erase_ppm = 0;
	for (i = 0; i < 8; i++)
		tn_queue_ip(t, 0, 1, 1514);
	for (i = 0; i < 24; i++)
		tn_queue_ip(t, 1, 0, 1514);
	tn_run(t, 800000, 100);
	coded = s0->fec_tx_frames;
	for (i = 0; i < 4; i++)
		tn_queue_ip(t, 0, 1, 600);
	tn_run(t, 400000, 100);
	VLC_EXPECT_TRUE(tn_all_done(t));
	VLC_EXPECT_EQ(s0->fec_tx_frames, coded);
	tn_fec_off(t);
}

/* 6b. Auto: a DATA that comes again, its ACK lost, adds a level, which
 * the ACK sent again takes: a neighbour that senses badly (an LED) loses
 * what a clean receiver at the other end would send plain for ever.
 */
VLC_TEST(vlc_mac_test_fec_auto_dup)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t = tn_quiet_pair(81, 0, &p);
	const struct vlc_mac_stats *s = &t->node[1].mac.stats;
	unsigned int n = tn_data(tn_body, 9, 1, 0, false, 40);

	VLC_EXPECT_TRUE(tn_fec_on(t, 1, VLC_MAC_FEC_AUTO, false));
	VLC_EXPECT_EQ(vlc_fec_init(&tn_fec[0]), 0);
	tn_feed(t, NULL, 0, 4);
	tn_feed_frame(t, tn_body, n);
	VLC_EXPECT_EQ(s->tx_frames, 1);
	VLC_EXPECT_EQ(s->fec_tx_frames, 0);
	tn_feed_frame(t, tn_body, n);
	VLC_EXPECT_EQ(s->rx_dup, 1);
	VLC_EXPECT_EQ(s->tx_frames, 2);
	VLC_EXPECT_EQ(s->fec_tx_frames, 1);
	tn_fec_off(t);
}

/* 7. No coded frame takes longer on air than the longest plain 2-slot
 * one: the sender hears nobody meanwhile, and its PHY would give its
 * lock up. 4-PPM takes twice the bytes in the same airtime.
 */
VLC_TEST(vlc_mac_test_fec_airtime)
{
	struct vlc_mac_tnet *t;
	struct vlc_mac_params p;
	unsigned int bits, longest, most;
	int i;

	for (bits = 1; bits <= 2; bits++) {
		vlc_mac_default_params(&p);
		p.bits_per_symbol = bits;
		t = tn_init(2, 79, &p);
		for (i = 0; i < 2; i++)
			VLC_EXPECT_TRUE(tn_fec_on(t, i, 32, false));
		tn_send_ip(t, 0, 1, 1514);
		longest = 0;
		while (!tn_all_done(t) && t->frame < 100000) {
			tn_step(t);
			longest = max_t(unsigned int, longest,
					t->node[0].mac.tx.emit.nsyms);
		}
		VLC_EXPECT_EQ(t->node[1].delivered, 1);
		VLC_EXPECT_GT(t->node[0].mac.stats.fec_tx_frames, 7);
		p.bits_per_symbol = 1;
		most = vlc_mac_frame_symbols(&p, VLC_MAC_AIR_MAX);
		VLC_EXPECT_LE(longest, most);
		if (bits == 1)
			VLC_EXPECT_GT(longest, most - 8 * 8);
		tn_fec_off(t);
	}
}

/* 8. A coded DATA frame's body is one codeword, at every level and in
 * both modes: its parity follows it, no second codeword's.
 */
VLC_TEST(vlc_mac_test_fec_one_word)
{
	static const u8 fec[] = { 2, 4, 8, 16, 32 };
	struct vlc_mac_emit *e;
	struct vlc_mac_tnet *t;
	struct vlc_mac_params p;
	unsigned int bits, k, coded, longest;
	int i;

	for (bits = 1; bits <= 2; bits++) {
		for (k = 0; k < ARRAY_SIZE(fec); k++) {
			vlc_mac_default_params(&p);
			p.bits_per_symbol = bits;
			t = tn_init(2, 83 + k, &p);
			for (i = 0; i < 2; i++)
				VLC_EXPECT_TRUE(tn_fec_on(t, i, fec[k], false));
			e = &t->node[0].mac.tx.emit;
			tn_send_ip(t, 0, 1, 1514);
			coded = 0;
			longest = 0;
			while (!tn_all_done(t) && t->frame < 100000) {
				tn_step(t);
				if (t->node[0].mac.tx.emitting != VLC_MAC_T_DATA ||
				    e->buf[1] >> 5 != 7)
					continue;
				coded++;
				longest = max_t(unsigned int, longest, e->nbytes);
			}
			VLC_EXPECT_EQ(t->node[1].delivered, 1);
			VLC_EXPECT_GT(coded, 0);
			/* delimiter, coded header, one codeword */
			VLC_EXPECT_LE(longest, 1 + 4 + VLC_FEC_SYMBOLS_MAX);
			tn_fec_off(t);
		}
	}
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_mac_fec_test_cases[] = {
	VLC_TEST_CASE(vlc_mac_test_fec_erasures)
	VLC_TEST_CASE(vlc_mac_test_fec_header)
	VLC_TEST_CASE(vlc_mac_test_fec_misdecode)
	VLC_TEST_CASE(vlc_mac_test_fec_mixed)
	VLC_TEST_CASE(vlc_mac_test_fec_defer)
	VLC_TEST_CASE(vlc_mac_test_fec_hdr_codecs)
	VLC_TEST_CASE(vlc_mac_test_fec_auto)
	VLC_TEST_CASE(vlc_mac_test_fec_auto_dup)
	VLC_TEST_CASE(vlc_mac_test_fec_airtime)
	VLC_TEST_CASE(vlc_mac_test_fec_one_word)
	VLC_TEST_CASES_END
};
