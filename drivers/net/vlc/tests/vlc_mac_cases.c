// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC MAC core, written once and included by the KUnit
 * wrapper (vlc_mac_kunit.c) and the host cmocka runner
 * (tests/host/vlc_mac_test.c). The list at the end names them for both.
 *
 * MACs are wired back to back through a symbol channel run frame by
 * frame: each frame every node's tx_symbol is collected; a receiver sees
 * the one symbol sent (maybe erased or flipped at a seeded rate), an
 * erasure when two or more sent (a collision), or idle.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/crc-ccitt.h>

#include "vlc_test.h"
#include "vlc_phy.h"
#include "vlc_mac.h"

/* Helpers that check things take the runner's context like a case. */
#ifdef __KERNEL__
#define TN_CTX		struct kunit *vlc_test_ctx
#else
#define TN_CTX		void **vlc_test_ctx
#endif

#define TN_NODES	3
#define TN_PKTS		48
#define TN_FIFO		16

/* A frame handed to a MAC; its bytes are regenerated from the id. */
struct vlc_mac_tpkt {
	u16 len;
	u8 dst[VLC_MAC_ALEN];
	u8 src[VLC_MAC_ALEN];
	u16 et;
	u8 from;
	s8 done;		/* -1 queued, 0 dropped, 1 sent */
	u8 deliveries[TN_NODES];
};

struct vlc_mac_tnode {
	struct vlc_mac mac;
	struct vlc_mac_tnet *net;
	int idx;
	bool present;
	bool acquiring;		/* its PHY reports no lock */
	bool seen[TN_NODES];	/* whose light reaches this node */
	u32 backlog[TN_PKTS];	/* ids waiting for room in the MAC */
	u32 backlog_head;
	u32 backlog_count;
	u32 fifo[TN_FIFO];	/* ids queued in the MAC, oldest first */
	u32 fifo_head;
	u32 fifo_count;
	u32 delivered;
	u32 tx_ok;
	u32 tx_fail;
	u32 tx_syms;		/* data symbols emitted */
	u32 first_tx;		/* frame of the first data symbol, or 0 */
	u32 done_frame;		/* frame of the last tx_done */
	s64 phase_sum;
	u32 phase_calls;
	u16 last_len;
	u8 last[VLC_MAC_FRAME_MAX];
};

struct vlc_mac_tnet {
	struct vlc_mac_tnode node[TN_NODES];
	int n;
	u64 rng;
	u32 erase_ppm;		/* per received symbol */
	u32 flip_ppm;
	bool hard;		/* the PHY reports hard decisions */
	u32 hard_flip_ppm;	/* of them, wrong ones */
	u32 frame;
	u32 bad;		/* deliveries that were not a sent frame */
	u32 dup;		/* a frame delivered twice to one node */
	u32 npkts;
	struct vlc_mac_tpkt pkt[TN_PKTS];
	u8 scratch[VLC_MAC_FRAME_MAX];
};

/* Too big for a kernel stack, and the cases run one at a time. */
static struct vlc_mac_tnet vlc_mac_tnet;

static u64 tn_rand(struct vlc_mac_tnet *t)
{
	u64 z = (t->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 tn_below(struct vlc_mac_tnet *t, u32 n)
{
	return (u32)(((tn_rand(t) >> 32) * n) >> 32);
}

static void tn_vlc_addr(u8 *a, u8 x)
{
	a[0] = 0x02;
	a[1] = 0x56;
	a[2] = 0x4c;
	a[3] = 0x43;
	a[4] = 0x00;
	a[5] = x;
}

static void tn_fill(const struct vlc_mac_tpkt *p, u32 id, u8 *f)
{
	unsigned int i;

	memcpy(f, p->dst, VLC_MAC_ALEN);
	memcpy(f + VLC_MAC_ALEN, p->src, VLC_MAC_ALEN);
	f[12] = p->et >> 8;
	f[13] = p->et & 0xff;
	f[14] = id >> 8;
	f[15] = id & 0xff;
	for (i = 16; i < p->len; i++)
		f[i] = (u8)(id * 37 + i * 13 + (i >> 4));
}

static void tn_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	struct vlc_mac_tnode *nd = ctx;
	struct vlc_mac_tnet *t = nd->net;
	struct vlc_mac_tpkt *p;
	u32 id;

	nd->delivered++;
	nd->last_len = len;
	memcpy(nd->last, frame, len);
	if (len < 16) {
		t->bad++;
		return;
	}
	id = frame[14] << 8 | frame[15];
	if (id >= t->npkts) {
		t->bad++;
		return;
	}
	p = &t->pkt[id];
	tn_fill(p, id, t->scratch);
	if (len != p->len || memcmp(frame, t->scratch, len)) {
		t->bad++;
		return;
	}
	if (p->deliveries[nd->idx]++)
		t->dup++;
}

static void tn_tx_done(void *ctx, unsigned int len, bool ok)
{
	struct vlc_mac_tnode *nd = ctx;
	struct vlc_mac_tnet *t = nd->net;
	struct vlc_mac_tpkt *p;

	nd->done_frame = t->frame;
	if (ok)
		nd->tx_ok++;
	else
		nd->tx_fail++;
	if (!nd->fifo_count) {
		t->bad++;
		return;
	}
	p = &t->pkt[nd->fifo[nd->fifo_head]];
	nd->fifo_head = (nd->fifo_head + 1) % TN_FIFO;
	nd->fifo_count--;
	if (p->len != len || p->done != -1)
		t->bad++;
	p->done = ok;
}

static void tn_phase(void *ctx, s32 ns)
{
	struct vlc_mac_tnode *nd = ctx;

	nd->phase_sum += ns;
	nd->phase_calls++;
}

static u32 tn_random(void *ctx)
{
	struct vlc_mac_tnode *nd = ctx;

	return (u32)(tn_rand(nd->net) >> 32);
}

static const struct vlc_mac_ops tn_ops = {
	.deliver = tn_deliver,
	.tx_done = tn_tx_done,
	.phase = tn_phase,
	.random = tn_random,
};

/* @n nodes with short addresses 1..n, all seeing each other. */
static struct vlc_mac_tnet *tn_init(int n, u64 seed,
				    const struct vlc_mac_params *tmpl)
{
	struct vlc_mac_tnet *t = &vlc_mac_tnet;
	struct vlc_mac_params p;
	int i, j;

	memset(t, 0, sizeof(*t));
	t->n = n;
	t->rng = seed;
	for (i = 0; i < n; i++) {
		struct vlc_mac_tnode *nd = &t->node[i];

		if (tmpl)
			p = *tmpl;
		else
			vlc_mac_default_params(&p);
		p.short_addr = i + 1;
		nd->net = t;
		nd->idx = i;
		nd->present = true;
		for (j = 0; j < n; j++)
			nd->seen[j] = j != i;
		vlc_mac_init(&nd->mac, &p, &tn_ops, nd);
	}
	return t;
}

static int tn_xmit(struct vlc_mac_tnet *t, int from, u32 id)
{
	struct vlc_mac_tnode *nd = &t->node[from];

	if (nd->fifo_count >= TN_FIFO)
		return -1;
	tn_fill(&t->pkt[id], id, t->scratch);
	if (vlc_mac_xmit(&nd->mac, t->scratch, t->pkt[id].len))
		return -1;
	nd->fifo[(nd->fifo_head + nd->fifo_count) % TN_FIFO] = id;
	nd->fifo_count++;
	return 0;
}

/* Register a frame and hand it to the MAC now, or with @backlog when the
 * MAC has room (as the netdev does). Returns the id, or -1.
 */
static int tn_send_bl(struct vlc_mac_tnet *t, int from, const u8 *dst,
		      const u8 *src, u16 et, unsigned int len, bool backlog)
{
	struct vlc_mac_tnode *nd = &t->node[from];
	struct vlc_mac_tpkt *p;
	u32 id = t->npkts;

	if (id >= TN_PKTS)
		return -1;
	p = &t->pkt[id];
	memset(p, 0, sizeof(*p));
	p->len = len;
	memcpy(p->dst, dst, VLC_MAC_ALEN);
	if (src)
		memcpy(p->src, src, VLC_MAC_ALEN);
	else
		tn_vlc_addr(p->src, nd->mac.p.short_addr);
	p->et = et;
	p->from = from;
	p->done = -1;
	if (backlog) {
		nd->backlog[(nd->backlog_head + nd->backlog_count) %
			    TN_PKTS] = id;
		nd->backlog_count++;
	} else if (tn_xmit(t, from, id)) {
		return -1;
	}
	t->npkts++;
	return id;
}

static int tn_send(struct vlc_mac_tnet *t, int from, const u8 *dst,
		   const u8 *src, u16 et, unsigned int len)
{
	return tn_send_bl(t, from, dst, src, et, len, false);
}

/* Unicast IPv4-like frame from node @from to node @to. */
static int tn_send_ip(struct vlc_mac_tnet *t, int from, int to,
		      unsigned int len)
{
	u8 dst[VLC_MAC_ALEN];

	tn_vlc_addr(dst, t->node[to].mac.p.short_addr);
	return tn_send(t, from, dst, NULL, 0x0800, len);
}

static int tn_queue_ip(struct vlc_mac_tnet *t, int from, int to,
		       unsigned int len)
{
	u8 dst[VLC_MAC_ALEN];

	tn_vlc_addr(dst, t->node[to].mac.p.short_addr);
	return tn_send_bl(t, from, dst, NULL, 0x0800, len, true);
}

static void tn_step(struct vlc_mac_tnet *t)
{
	int sym[TN_NODES], i, j, k, nsend;
	struct vlc_phy_rx rx;

	t->frame++;
	for (i = 0; i < t->n; i++) {
		struct vlc_mac_tnode *nd = &t->node[i];

		while (nd->backlog_count && !vlc_mac_tx_full(&nd->mac) &&
		       !tn_xmit(t, i, nd->backlog[nd->backlog_head])) {
			nd->backlog_head = (nd->backlog_head + 1) % TN_PKTS;
			nd->backlog_count--;
		}
		sym[i] = nd->present ? vlc_mac_tx_symbol(&nd->mac) :
			 VLC_SYM_IDLE;
		if (sym[i] >= 0) {
			nd->tx_syms++;
			if (!nd->first_tx)
				nd->first_tx = t->frame;
		}
	}
	for (j = 0; j < t->n; j++) {
		struct vlc_mac_tnode *nd = &t->node[j];

		if (!nd->present)
			continue;
		memset(&rx, 0, sizeof(rx));
		rx.sym = VLC_SYM_IDLE;
		rx.bits = nd->mac.p.bits_per_symbol;
		nsend = 0;
		for (k = 0; k < t->n; k++) {
			if (!nd->seen[k] || sym[k] < 0)
				continue;
			nsend++;
			rx.sym = sym[k];
		}
		if (nsend > 1) {
			rx.sym = VLC_SYM_ERASURE;
		} else if (nsend == 1) {
			if (t->hard) {
				rx.hard = rx.sym;
				rx.flags |= VLC_PHY_RX_HARD;
				if (t->hard_flip_ppm &&
				    tn_below(t, 1000000) < t->hard_flip_ppm)
					rx.hard ^= 1 << tn_below(t, rx.bits);
			}
			if (t->erase_ppm && tn_below(t, 1000000) < t->erase_ppm)
				rx.sym = VLC_SYM_ERASURE;
			else if (t->flip_ppm &&
				 tn_below(t, 1000000) < t->flip_ppm)
				rx.sym ^= 1 << tn_below(t, rx.bits);
		}
		rx.carrier = nsend > 0;
		rx.sync = VLC_PHY_SYNC_NONE;
		rx.acquiring = nd->acquiring;
		if (sym[j] >= 0)
			rx.flags |= VLC_PHY_RX_OWN_TX;
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
}

static bool tn_all_done(struct vlc_mac_tnet *t)
{
	u32 i;

	for (i = 0; i < t->npkts; i++)
		if (t->pkt[i].done < 0)
			return false;
	return true;
}

/* Run until every queued frame is done, then @settle more frames. */
static u32 tn_run(struct vlc_mac_tnet *t, u32 max, u32 settle)
{
	u32 start = t->frame;

	while (!tn_all_done(t) && t->frame - start < max)
		tn_step(t);
	while (settle--)
		tn_step(t);
	return t->frame - start;
}

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

/* Symbols of a raw frame, for feeding garbage straight into rx_frame. */
struct tn_raw {
	int sym[2400];
	unsigned int n;
};

static struct tn_raw tn_raw;

static void tn_raw_bytes(struct tn_raw *r, const u8 *b, unsigned int len)
{
	unsigned int i, k;

	for (i = 0; i < len; i++)
		for (k = 0; k < 8 && r->n < ARRAY_SIZE(r->sym); k++)
			r->sym[r->n++] = (b[i] >> (7 - k)) & 1;
}

/* Preamble, SFD, @len bytes of header and payload, CRC unless !crc. */
static struct tn_raw *tn_raw_frame(const u8 *b, unsigned int len, bool crc)
{
	struct tn_raw *r = &tn_raw;
	u8 sfd = 0x97, fcs[2];
	u16 c;

	for (r->n = 0; r->n < 8; r->n++)
		r->sym[r->n] = r->n & 1;
	tn_raw_bytes(r, &sfd, 1);
	tn_raw_bytes(r, b, len);
	if (crc) {
		c = ~crc_ccitt(0xffff, b, len);
		fcs[0] = c & 0xff;
		fcs[1] = c >> 8;
		tn_raw_bytes(r, fcs, 2);
	}
	return r;
}

/* Feed symbols into node 1 (its own output is recorded), then idle. */
static void tn_feed(struct vlc_mac_tnet *t, const int *sym, unsigned int n,
		    unsigned int idle)
{
	struct vlc_mac_tnode *nd = &t->node[1];
	struct vlc_phy_rx rx;
	unsigned int i;
	int s;

	for (i = 0; i < n + idle; i++) {
		t->frame++;
		s = vlc_mac_tx_symbol(&nd->mac);
		if (s >= 0)
			nd->tx_syms++;
		memset(&rx, 0, sizeof(rx));
		rx.bits = 1;
		rx.sym = i < n ? sym[i] : VLC_SYM_IDLE;
		rx.carrier = rx.sym != VLC_SYM_IDLE;
		if (s >= 0)
			rx.flags = VLC_PHY_RX_OWN_TX;
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
}

static void tn_feed_frame(struct vlc_mac_tnet *t, const u8 *b,
			  unsigned int len)
{
	struct tn_raw *r = tn_raw_frame(b, len, true);

	tn_feed(t, r->sym, r->n, 100);
}

/* A DATA header + payload from @tx to node 1 (short 2). */
static unsigned int tn_data(u8 *b, u8 tx, u8 seq, u8 frag, bool last,
			    unsigned int len)
{
	unsigned int i, n = 0;

	b[n++] = 1 << 5 | (last ? 0x10 : 0);	/* DATA, IPv4 */
	b[n++] = 2;
	b[n++] = tx;
	b[n++] = seq << 5 | frag;
	b[n++] = len;
	for (i = 0; i < len; i++)
		b[n++] = i;
	return n;
}

#define TN_STAT(x)	(t->node[1].mac.stats.x)

/* 3. Malformed input from the air: each dropped into its own counter.
 * Node 1 of two takes frames fed straight in; no beacon of its own may
 * cut one, and node 0 (short address 1) is not there to answer.
 */
static struct vlc_mac_tnet *tn_rx_init(void)
{
	struct vlc_mac_params p;
	struct vlc_mac_tnet *t;

	vlc_mac_default_params(&p);
	p.beacon_interval = 0;
	t = tn_init(2, 3, &p);
	t->node[0].present = false;
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
	 * the longest exchange possible, about 11 s at 500 us frames, less
	 * than two MTU frames' airtime.
	 */
	b[0] = 4 << 5;
	b[1] = 7;
	b[2] = 9;
	b[3] = 0xff;
	b[4] = 0xff;
	tn_feed(t, tn_raw_frame(b, 5, true)->sym, tn_raw.n, 0);
	VLC_EXPECT_EQ(TN_STAT(nav_clamped), 1);
	VLC_EXPECT_EQ(t->node[1].mac.nav.frames, t->node[1].mac.nav.max);
	VLC_EXPECT_EQ(t->node[1].mac.nav.max, 21823);	/* vlc.rst */
	VLC_EXPECT_LE(t->node[1].mac.nav.max, 2 * VLC_MAC_MTU_FRAMES);
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

/* Feed node 0 @n frames of neighbour light at @offset ns. */
static void tn_sync(struct vlc_mac_tnet *t, int idx, s32 offset,
		    enum vlc_phy_sync sync, unsigned int n)
{
	struct vlc_mac_tnode *nd = &t->node[idx];
	struct vlc_phy_rx rx;

	while (n--) {
		memset(&rx, 0, sizeof(rx));
		vlc_mac_tx_symbol(&nd->mac);
		rx.sym = 0;
		rx.bits = 1;
		rx.carrier = true;
		rx.sync = sync;
		rx.offset_ns = offset;
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
}

static void tn_report(struct vlc_mac_tnet *t, int idx, s32 offset,
		      enum vlc_phy_sync sync, bool coarse, bool acquiring,
		      unsigned int n);

/* Feed node @idx @n frames it emitted in (no sync information). */
static void tn_own(struct vlc_mac_tnet *t, int idx, s32 offset,
		   enum vlc_phy_sync sync, unsigned int n)
{
	struct vlc_mac_tnode *nd = &t->node[idx];
	struct vlc_phy_rx rx;

	while (n--) {
		memset(&rx, 0, sizeof(rx));
		vlc_mac_tx_symbol(&nd->mac);
		rx.sym = VLC_SYM_IDLE;
		rx.bits = 1;
		rx.sync = sync;
		rx.offset_ns = offset;
		rx.flags = VLC_PHY_RX_OWN_TX;
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
}

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
	default:
		p->rts_threshold = v;
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
	default: return p->rts_threshold;
	}
}

/* 7. Every bad value: -EINVAL naming the field, old parameters kept. */
VLC_TEST(vlc_mac_test_params)
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
		/* SIFS 2 + an ACK of 8 + 28 symbols at 2 bits: 38 frames */
		{ "ack_timeout", 8, 37 },
		{ "ack_timeout", 8, 4097 },
	};
	/* every limit itself is taken */
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
	};
	struct vlc_mac_tnet *t = tn_init(1, 17, NULL);
	struct vlc_mac *mac = &t->node[0].mac;
	struct vlc_mac_params good, p;
	const char *why;
	unsigned int i;

	vlc_mac_default_params(&good);
	good.short_addr = 7;
	good.bits_per_symbol = 2;
	good.frag_size = 200;
	good.ack_timeout = 100;
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &good, &why), 0);
	VLC_EXPECT_TRUE(!why);
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac), 100);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = good;
		vlc_mac_tparam(&p, bad[i].which, bad[i].value);
		why = NULL;
		VLC_EXPECT_EQ(vlc_mac_set_params(mac, &p, &why), -EINVAL);
		VLC_EXPECT_STR_HAS(why, bad[i].field);
		VLC_EXPECT_EQ(memcmp(&mac->p, &good, sizeof(good)), 0);
	}
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac), 100);
	for (i = 0; i < ARRAY_SIZE(edge); i++) {
		p = good;
		vlc_mac_tparam(&p, edge[i].which, edge[i].value);
		VLC_EXPECT_EQ(vlc_mac_set_params(mac, &p, &why), 0);
		VLC_EXPECT_EQ(vlc_mac_tparam_get(&mac->p, edge[i].which),
			      edge[i].value);
	}
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &good, NULL), 0);

	/* 0 derives the timeout: SIFS + the ACK's airtime + slack */
	p = good;
	p.ack_timeout = 0;
	VLC_ASSERT_EQ(vlc_mac_set_params(mac, &p, NULL), 0);
	VLC_EXPECT_EQ(vlc_mac_ack_timeout(mac),
		      p.sifs + vlc_mac_frame_symbols(&p, 7) + 4);

	/* address compression */
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
	/* the CRC is the kernel's X.25 one (check value of "123456789") */
	VLC_EXPECT_EQ((u16)~crc_ccitt(0xffff, (const u8 *)"123456789", 9),
		      0x906e);
	/* frames from the stack that cannot be sent */
	VLC_EXPECT_EQ(vlc_mac_xmit(mac, t->scratch, 14), -EINVAL);
	VLC_EXPECT_EQ(vlc_mac_xmit(mac, t->scratch, VLC_MAC_FRAME_MAX + 1),
		      -EINVAL);
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

/* Feed node @idx @n frames of an idle medium with a PHY report. */
static void tn_report(struct vlc_mac_tnet *t, int idx, s32 offset,
		      enum vlc_phy_sync sync, bool coarse, bool acquiring,
		      unsigned int n)
{
	struct vlc_mac_tnode *nd = &t->node[idx];
	struct vlc_phy_rx rx;
	int s;

	while (n--) {
		memset(&rx, 0, sizeof(rx));
		s = vlc_mac_tx_symbol(&nd->mac);
		if (s >= 0)
			nd->tx_syms++;
		rx.sym = VLC_SYM_IDLE;
		rx.bits = 1;
		rx.sync = sync;
		rx.offset_ns = offset;
		rx.coarse = coarse;
		rx.acquiring = acquiring;
		if (s >= 0)
			rx.flags = VLC_PHY_RX_OWN_TX;
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
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
	struct vlc_phy_rx rx;
	struct vlc_mac_tnet *t;
	struct vlc_mac_tnode *a;

	vlc_mac_default_params(&p);
	p.beacon_interval = 0;
	t = tn_init(2, 37, &p);
	a = &t->node[0];
	t->node[1].present = false;

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
		  p.difs + p.cw_min + 1);
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

/* The one list of cases; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_mac_test_cases[] = {
	VLC_TEST_CASE(vlc_mac_test_delivery)
	VLC_TEST_CASE(vlc_mac_test_delivery_4ppm)
	VLC_TEST_CASE(vlc_mac_test_noise)
	VLC_TEST_CASE(vlc_mac_test_rx_good)
	VLC_TEST_CASE(vlc_mac_test_rx_truncated)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_length)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_crc)
	VLC_TEST_CASE(vlc_mac_test_rx_reserved)
	VLC_TEST_CASE(vlc_mac_test_rx_bad_symbols)
	VLC_TEST_CASE(vlc_mac_test_rx_fragments)
	VLC_TEST_CASE(vlc_mac_test_rx_frag_headers)
	VLC_TEST_CASE(vlc_mac_test_rx_unexpected)
	VLC_TEST_CASE(vlc_mac_test_rx_rts_nav)
	VLC_TEST_CASE(vlc_mac_test_beacon)
	VLC_TEST_CASE(vlc_mac_test_retry_limit)
	VLC_TEST_CASE(vlc_mac_test_vanished_peer)
	VLC_TEST_CASE(vlc_mac_test_csma)
	VLC_TEST_CASE(vlc_mac_test_resync)
	VLC_TEST_CASE(vlc_mac_test_params)
	VLC_TEST_CASE(vlc_mac_test_overhead)
	VLC_TEST_CASE(vlc_mac_test_frag_adapt)
	VLC_TEST_CASE(vlc_mac_test_coarse)
	VLC_TEST_CASE(vlc_mac_test_rts)
	VLC_TEST_CASE(vlc_mac_test_hidden)
	VLC_TEST_CASE(vlc_mac_test_loc_beacon)
	VLC_TEST_CASE(vlc_mac_test_resync_skew)
	VLC_TEST_CASE(vlc_mac_test_resync_net)
	VLC_TEST_CASE(vlc_mac_test_hard)
	VLC_TEST_CASE(vlc_mac_test_hard_dark)
	VLC_TEST_CASE(vlc_mac_test_acq_beacon)
	VLC_TEST_CASES_END
};
