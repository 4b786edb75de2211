/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test network of the VLC MAC cases: the harness that
 * vlc_mac_cases.c, vlc_mac_rx_cases.c, vlc_mac_sync_cases.c and
 * vlc_mac_fec_cases.c share, included once by each runner (the KUnit
 * wrapper vlc_mac_kunit.c and the host cmocka runner
 * tests/host/vlc_mac_test.c), which include the four case files into
 * one translation unit.
 *
 * MACs are wired back to back through a symbol channel run frame by
 * frame: each frame every node's tx_symbol is collected; a receiver sees
 * the one symbol sent (maybe erased or flipped at a seeded rate), an
 * erasure when two or more sent (a collision), or idle. Raw frames and
 * PHY reports can also be fed to one node straight.
 */
#ifndef _VLC_MAC_CASES_H
#define _VLC_MAC_CASES_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/crc-ccitt.h>

#include "vlc_test.h"
#include "vlc_phy.h"
#include "vlc_mac.h"

/* Helpers that check things take the runner's context like a case. */
#define TN_CTX		VLC_TEST_CTX

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

/* Feed node @idx @n frames, each reported as @tmpl says. With @own_if_sent,
 * a frame in which the MAC sent is reported as its own (and counted in
 * tx_syms), as the PHY reports it.
 */
static void tn_frames(struct vlc_mac_tnet *t, int idx,
		      const struct vlc_phy_rx *tmpl, bool own_if_sent,
		      unsigned int n)
{
	struct vlc_mac_tnode *nd = &t->node[idx];
	struct vlc_phy_rx rx;
	int s;

	while (n--) {
		rx = *tmpl;
		s = vlc_mac_tx_symbol(&nd->mac);
		if (own_if_sent && s >= 0) {
			nd->tx_syms++;
			rx.flags = VLC_PHY_RX_OWN_TX;
		}
		vlc_mac_rx_frame(&nd->mac, &rx);
	}
}

/* Feed node @idx @n frames of neighbour light at @offset ns. */
static void tn_sync(struct vlc_mac_tnet *t, int idx, s32 offset,
		    enum vlc_phy_sync sync, unsigned int n)
{
	struct vlc_phy_rx rx = { .sym = 0, .bits = 1, .carrier = true,
				 .sync = sync, .offset_ns = offset };

	tn_frames(t, idx, &rx, false, n);
}

/* Feed node @idx @n frames it emitted in (no sync information). */
static void tn_own(struct vlc_mac_tnet *t, int idx, s32 offset,
		   enum vlc_phy_sync sync, unsigned int n)
{
	struct vlc_phy_rx rx = { .sym = VLC_SYM_IDLE, .bits = 1, .sync = sync,
				 .offset_ns = offset,
				 .flags = VLC_PHY_RX_OWN_TX };

	tn_frames(t, idx, &rx, false, n);
}

/* Feed node @idx @n frames of an idle medium with a PHY report. */
static void tn_report(struct vlc_mac_tnet *t, int idx, s32 offset,
		      enum vlc_phy_sync sync, bool coarse, bool acquiring,
		      unsigned int n)
{
	struct vlc_phy_rx rx = { .sym = VLC_SYM_IDLE, .bits = 1, .sync = sync,
				 .offset_ns = offset, .coarse = coarse,
				 .acquiring = acquiring };

	tn_frames(t, idx, &rx, true, n);
}

/* Two nodes that send no beacons, the one at @absent not there. */
static struct vlc_mac_tnet *tn_quiet_pair(u64 seed, int absent,
					  struct vlc_mac_params *p)
{
	struct vlc_mac_tnet *t;

	vlc_mac_default_params(p);
	p->beacon_interval = 0;
	t = tn_init(2, seed, p);
	t->node[absent].present = false;
	return t;
}

#endif /* _VLC_MAC_CASES_H */
