// SPDX-License-Identifier: GPL-2.0
/* Host benchmark of the VLC MAC core under contention, in virtual time
 * (PHY frames), seeded and deterministic:
 *
 *   mac_bench contend NODES TOPO RTS SIZE FRAMES SEED [BITS]
 *   mac_bench cost SIZE FRAMES SEED [BITS]
 *
 * Node 0 receives; nodes 1..NODES-1 always have a SIZE-byte Ethernet
 * frame (IPv4, unicast) queued for it. TOPO "all": everybody sees
 * everybody; "hidden": the senders see the receiver only (a star of
 * hidden terminals). RTS is the rts_threshold (0: RTS/CTS off). The
 * channel is the MAC test's: a receiver gets the symbol when exactly one
 * node in its view sends, an erasure when two or more do (a collision),
 * idle otherwise; no noise. Prints one line:
 *
 *   "goodput G share_min S collisions C retries R cts_timeouts T
 *    delivered D"
 *
 * G: IP payload bits delivered per frame (the raw rate is one bit per
 * frame in 2-slot mode, so G is the ratio to it); S: the smallest
 * sender's share of the delivered packets; C, R, T: sums over senders of
 * mac_collisions, mac_tx_retries, mac_cts_timeouts. BITS: bits per
 * symbol, 1 (2-slot, the default) or 2 (4-PPM); G is then per frame, not
 * per symbol.
 *
 * cost: node 1 sends SIZE-byte frames to node 0 for FRAMES frames, as
 * "contend 2 all 200"; node 0's vlc_mac_rx_frame() calls go through
 * rx_measured() and node 1's vlc_mac_tx_symbol() through tx_measured(),
 * for callgrind's --toggle-collect. Prints "delivered_bytes frames
 * delivered": Ethernet bytes delivered to node 0's stack.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vlc_phy.h"
#include "vlc_mac.h"

#define NODES_MAX	9

struct bnode {
	struct vlc_mac mac;
	unsigned int delivered;
	unsigned int sent;
	int sym;
};

static struct bnode node[NODES_MAX];
static bool sees[NODES_MAX][NODES_MAX];
static u64 rng;
static u8 frame_buf[VLC_MAC_FRAME_MAX];

static u32 bench_random(void *ctx)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(rng >> 32);
}

static void bench_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	struct bnode *n = ctx;

	n->delivered++;
}

static void bench_tx_done(void *ctx, unsigned int len, bool ok)
{
	struct bnode *n = ctx;

	if (ok)
		n->sent++;
}

static const struct vlc_mac_ops bench_ops = {
	.deliver = bench_deliver,
	.tx_done = bench_tx_done,
	.random = bench_random,
};

/* An IPv4 frame from node @from to node 0, addresses in short form. */
static void bench_frame(unsigned int from, unsigned int size)
{
	static const u8 pfx[5] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };

	memset(frame_buf, from, size);
	memcpy(frame_buf, pfx, 5);
	frame_buf[5] = 1;
	memcpy(frame_buf + 6, pfx, 5);
	frame_buf[11] = from + 1;
	frame_buf[12] = 0x08;
	frame_buf[13] = 0x00;
}

/* Functions of their own, called: not inlined, nor tail-called (the
 * compiler may still clone them: callgrind is given "rx_measured*");
 * noinline comes from the Makefile, as the kernel's headers define it.
 */

static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/* The calls callgrind counts in "cost" (node 0 receives, 1 sends). */
static unsigned int measured;

static noinline void rx_measured(struct vlc_mac *mac,
				 const struct vlc_phy_rx *rx)
{
	vlc_mac_rx_frame(mac, rx);
	barrier();	/* no tail call: callgrind must see this frame */
}

static noinline int tx_measured(struct vlc_mac *mac)
{
	return vlc_mac_tx_symbol(mac);
}

/* What node @j's PHY reports of the symbols sent this frame, each
 * node's in node[].sym: @hrng draws its hard decision in a collision.
 */
static void bench_hear(unsigned int j, unsigned int nodes, unsigned int bits,
		       u32 *hrng, struct vlc_phy_rx *rx)
{
	unsigned int k, nsend = 0;

	memset(rx, 0, sizeof(*rx));
	rx->sym = VLC_SYM_IDLE;
	rx->bits = bits;
	for (k = 0; k < nodes; k++) {
		if (!sees[j][k] || node[k].sym < 0)
			continue;
		nsend++;
		rx->sym = node[k].sym;
		/* the PHY's hard decision in a collision: the brightest
		 * slot, one of the senders' symbols
		 */
		*hrng ^= *hrng << 13;
		*hrng ^= *hrng >> 17;
		*hrng ^= *hrng << 5;
		if (nsend == 1 || *hrng % nsend == 0)
			rx->hard = node[k].sym;
	}
	if (nsend > 1)
		rx->sym = VLC_SYM_ERASURE;
	if (nsend > 0)
		rx->flags = VLC_PHY_RX_HARD;
	rx->carrier = nsend > 0;
	if (node[j].sym >= 0)
		rx->flags |= VLC_PHY_RX_OWN_TX;
}

static int contend(int argc, char **argv)
{
	unsigned int nodes, rts, size, frames, i, j, f, bits;
	unsigned int total = 0, min_share = ~0U;
	u64 coll = 0, retries = 0, cto = 0;
	struct vlc_mac_params p;
	struct vlc_phy_rx rx;
	u32 hrng = 0x2545f491;
	bool hidden;

	if (argc != 8 && argc != 9)
		return 2;
	bits = argc == 9 ? atoi(argv[8]) : 1;
	nodes = atoi(argv[2]);
	hidden = !strcmp(argv[3], "hidden");
	rts = atoi(argv[4]);
	size = atoi(argv[5]);
	frames = atoi(argv[6]);
	rng = strtoull(argv[7], NULL, 0) * 0x9e3779b97f4a7c15ULL | 1;
	if (nodes < 2 || nodes > NODES_MAX || size < 15 ||
	    size > VLC_MAC_FRAME_MAX || bits < 1 || bits > 2)
		return 2;

	for (i = 0; i < nodes; i++) {
		vlc_mac_default_params(&p);
		p.short_addr = i + 1;
		p.rts_threshold = rts;
		p.bits_per_symbol = bits;
		if (vlc_mac_check_params(&p, NULL))
			return 2;
		vlc_mac_init(&node[i].mac, &p, &bench_ops, &node[i]);
		for (j = 0; j < nodes; j++)
			sees[i][j] = i != j && (!hidden || !i || !j);
	}

	for (f = 0; f < frames; f++) {
		for (i = 0; i < nodes; i++) {
			while (i && !vlc_mac_tx_full(&node[i].mac)) {
				bench_frame(i, size);
				vlc_mac_xmit(&node[i].mac, frame_buf, size);
			}
			node[i].sym = i == measured ?
				      tx_measured(&node[i].mac) :
				      vlc_mac_tx_symbol(&node[i].mac);
		}
		for (j = 0; j < nodes; j++) {
			bench_hear(j, nodes, bits, &hrng, &rx);
			if (j || !measured)
				vlc_mac_rx_frame(&node[j].mac, &rx);
			else
				rx_measured(&node[j].mac, &rx);
		}
	}
	if (measured) {
		printf("%llu %u %u\n",
		       (unsigned long long)node[0].delivered * size, frames,
		       node[0].delivered);
		return 0;
	}

	for (i = 1; i < nodes; i++) {
		total += node[i].sent;
		coll += node[i].mac.stats.collisions;
		retries += node[i].mac.stats.tx_retries;
		cto += node[i].mac.stats.cts_timeouts;
	}
	for (i = 1; i < nodes && total; i++)
		if (node[i].sent * 1000 / total < min_share)
			min_share = node[i].sent * 1000 / total;
	printf("goodput %.3f share_min %.3f collisions %llu retries %llu ",
	       (double)node[0].delivered * (size - 14) * 8 / frames,
	       total ? min_share / 1000.0 : 0.0, (unsigned long long)coll,
	       (unsigned long long)retries);
	printf("cts_timeouts %llu delivered %u\n", (unsigned long long)cto,
	       node[0].delivered);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	if (argc > 1 && !strcmp(argv[1], "contend"))
		ret = contend(argc, argv);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "cost")) {
		char *a[9] = { argv[0], "contend", "2", "all", "200", argv[2],
			       argv[3], argv[4], argc == 6 ? argv[5] : "1" };

		measured = 1;
		ret = contend(9, a);
	}
	if (ret == 2)
		fprintf(stderr,
			"usage: mac_bench contend NODES all|hidden RTS SIZE FRAMES SEED [BITS]\n"
			"       mac_bench cost SIZE FRAMES SEED [BITS]\n");
	return ret;
}
