// SPDX-License-Identifier: GPL-2.0
/* Host benchmark of the VLC MAC core under contention, in virtual time
 * (PHY frames), seeded and deterministic:
 *
 *   mac_bench contend NODES TOPO RTS SIZE FRAMES SEED [BITS]
 *   mac_bench cost SIZE FRAMES SEED [BITS]
 *   mac_bench fec PARITY ERASED ERRORS FRAMES SEED inline|defer
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
 *
 * fec: node 1 sends node 0 FRAMES frames of the longest body (258 bytes:
 * a 240-byte fragment with full addresses), one at a time, 2-slot, coded
 * with PARITY bytes a codeword (0: a plain frame). The channel is
 * contend's, but in each codeword of each frame ERASED bytes lose a
 * symbol (an erasure without a hard decision) and ERRORS more have one
 * wrong, at positions drawn from SEED. Node 0's vlc_mac_rx_frame() that
 * completes a frame goes through rx_measured(); with defer, the decode
 * then runs as the driver's work item runs it: dec_measured() calls
 * vlc_mac_fec_decode(), end_measured() vlc_mac_fec_end() (under the
 * owner's lock). Prints "parity body codewords erased errors frames
 * good encode_ns complete_ns decode_ns end_ns", good: the frames whose
 * body passed its CRC (decoded, if coded; a coded fragment is the first
 * of its packet, which is not delivered alone), then the median host
 * wall time of node 1's vlc_mac_tx_symbol() that starts a frame (and
 * codes it), of the completing call, and of the two deferred parts (0
 * when not run).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/math.h>

#include "vlc_phy.h"
#include "vlc_mac.h"
#include "vlc_mac_priv.h"
#include "vlc_fec.h"

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

/* ---- fec: the cost of coded frames --------------------------------- */

#define FEC_SIZE	(14 + VLC_MAC_FRAG_MAX)	/* one fragment */
#define FEC_WAIT	10000	/* frames: a frame that never ends */

static struct vlc_fec fec_codecs[2];

static noinline void dec_measured(struct vlc_mac *mac)
{
	vlc_mac_fec_decode(mac);
	barrier();
}

static noinline void end_measured(struct vlc_mac *mac)
{
	vlc_mac_fec_end(mac);
	barrier();
}

static u64 fec_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int fec_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 fec_median(u64 *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), fec_cmp);
	return v[n / 2];
}

/* Per byte after the delimiter of the coded frame in @e: 1 erased,
 * 2 wrong; @x erased and @errs wrong bytes a codeword, drawn with @r.
 */
static void fec_plan(const struct vlc_mac_emit *e, unsigned int x,
		     unsigned int errs, u64 *r, u8 *plan)
{
	const u8 *b = e->buf + 1;
	unsigned int n = (b[0] & 1) << 8 | b[1], level = (b[0] >> 2) & 7;
	unsigned int par = vlc_fec_parity(level), c, i, k, off = 0, len;
	unsigned int pick, want;

	memset(plan, 0, VLC_MAC_CODED_MAX);
	if (b[0] >> VLC_MAC_TYPE_SHIFT != VLC_MAC_T_CODED)
		return;
	c = DIV_ROUND_UP(n, VLC_FEC_SYMBOLS_MAX - par);
	for (i = 0; i < c; i++) {
		len = n / c + (i < n % c);
		for (want = 1; want <= 2; want++) {
			for (k = 0; k < (want == 1 ? x : errs); ) {
				*r ^= *r << 13;
				*r ^= *r >> 7;
				*r ^= *r << 17;
				pick = (u32)(*r >> 32) % (len + par);
				pick = pick < len ? VLC_MAC_FEC_HDR + off + pick :
				       VLC_MAC_FEC_HDR + n + i * par + pick - len;
				if (plan[pick])
					continue;
				plan[pick] = want;
				k++;
			}
		}
		off += len;
	}
}

/* Both nodes afresh for a frame: parity @par, the decode deferred or not. */
static void fec_nodes(unsigned int par, bool defer)
{
	struct vlc_mac_params p;
	int i;

	for (i = 0; i < 2; i++) {
		vlc_mac_default_params(&p);
		p.short_addr = i + 1;
		p.fec = par;
		vlc_mac_init(&node[i].mac, &p, &bench_ops, &node[i]);
		/* the bench decodes between ticks: one set */
		vlc_mac_set_fec(&node[i].mac, &fec_codecs[i], &fec_codecs[i],
				defer);
		node[i].delivered = 0;
	}
}

/* What the receiver hears of symbol @sym that @e just sent: the first
 * symbol of a byte that @plan marks 1 erased, 2 wrong.
 */
static void fec_heard(const struct vlc_mac_emit *e, int sym, const u8 *plan,
		      struct vlc_phy_rx *hear)
{
	unsigned int k;

	memset(hear, 0, sizeof(*hear));
	hear->sym = sym;
	hear->hard = sym;
	hear->bits = 1;
	hear->carrier = sym >= 0;
	hear->flags = sym >= 0 ? VLC_PHY_RX_HARD : 0;
	if (sym < 0 || e->sym <= e->pre + 8)
		return;
	/* the symbol's byte after the delimiter */
	k = e->sym - 1 - e->pre - 8;
	if (plan[k / 8] == 1 && k % 8 == 0) {
		hear->sym = VLC_SYM_ERASURE;
		hear->flags = 0;
	} else if (plan[k / 8] == 2 && k % 8 == 0) {
		hear->sym ^= 1;
		hear->hard = hear->sym;
	}
}

static int fec(int argc, char **argv)
{
	unsigned int par = atoi(argv[2]), x = atoi(argv[3]);
	unsigned int errs = atoi(argv[4]), frames = atoi(argv[5]);
	u64 r = strtoull(argv[6], NULL, 0) * 0x9e3779b97f4a7c15ULL | 1;
	bool defer = !strcmp(argv[7], "defer");
	u64 *enc = calloc(frames, sizeof(u64));
	u64 *cpl = calloc(frames, sizeof(u64));
	u64 *dec = calloc(frames, sizeof(u64));
	u64 *end = calloc(frames, sizeof(u64));
	unsigned int ne = 0, nc = 0, nd = 0, ok = 0, f, i, w, body = 0;
	unsigned int words = 0;
	static u8 plan[VLC_MAC_CODED_MAX];
	struct vlc_mac *tx = &node[1].mac, *rx = &node[0].mac;
	struct vlc_phy_rx hear;
	u64 t;

	if (!enc || !cpl || !dec || !end || !frames ||
	    (par != 0 && par != 2 && par != 4 && par != 8 && par != 16 &&
	     par != 32) || x + 2 * errs > par)
		return 2;
	rng = 0x2545f4914f6cdd1dULL;
	for (i = 0; i < 2; i++)
		if (vlc_fec_init(&fec_codecs[i]))
			return 1;
	for (f = 0; f < frames; f++) {
		fec_nodes(par, defer);
		/* full addresses: the longest header */
		memset(frame_buf, f, FEC_SIZE);
		memcpy(frame_buf, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02"
		       "\x08\x00", 14);
		vlc_mac_xmit(tx, frame_buf, FEC_SIZE);
		for (w = 0; w < FEC_WAIT; w++) {
			bool last;
			int sym;

			t = fec_ns();
			sym = vlc_mac_tx_symbol(tx);
			t = fec_ns() - t;
			/* the frame starts: it was coded in this call */
			if (sym >= 0 && tx->tx.emit.sym == 1) {
				enc[ne++] = t;
				fec_plan(&tx->tx.emit, x, errs, &r, plan);
				body = (tx->tx.emit.buf[1] & 1) << 8 |
				       tx->tx.emit.buf[2];
				words = par ? DIV_ROUND_UP(body,
					VLC_FEC_SYMBOLS_MAX - par) : 0;
				if (!par)
					body = tx->tx.emit.nbytes - 1;
			}
			vlc_mac_tx_symbol(rx);
			fec_heard(&tx->tx.emit, sym, plan, &hear);
			last = sym >= 0 && tx->tx.emit.sym == tx->tx.emit.nsyms;
			if (last) {
				t = fec_ns();
				rx_measured(rx, &hear);
				cpl[nc++] = fec_ns() - t;
			} else {
				vlc_mac_rx_frame(rx, &hear);
			}
			if (last && vlc_mac_fec_begin(rx)) {
				t = fec_ns();
				dec_measured(rx);
				dec[nd] = fec_ns() - t;
				t = fec_ns();
				end_measured(rx);
				end[nd++] = fec_ns() - t;
			}
			memset(&hear, 0, sizeof(hear));
			hear.sym = VLC_SYM_IDLE;
			hear.bits = 1;
			if (sym >= 0)
				hear.flags = VLC_PHY_RX_OWN_TX;
			vlc_mac_rx_frame(tx, &hear);
			if (last)
				break;
		}
		ok += node[0].mac.stats.rx_frames_ok;
	}
	printf("%u %u %u %u %u %u %u %llu %llu %llu %llu\n", par, body, words,
	       x, errs, frames, ok, (unsigned long long)fec_median(enc, ne),
	       (unsigned long long)fec_median(cpl, nc),
	       (unsigned long long)fec_median(dec, nd),
	       (unsigned long long)fec_median(end, nd));
	for (i = 0; i < 2; i++)
		vlc_fec_exit(&fec_codecs[i]);
	free(enc);
	free(cpl);
	free(dec);
	free(end);
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
	if (argc == 8 && !strcmp(argv[1], "fec"))
		ret = fec(argc, argv);
	if (ret == 2)
		fprintf(stderr,
			"usage: mac_bench contend NODES all|hidden RTS SIZE FRAMES SEED [BITS]\n"
			"       mac_bench cost SIZE FRAMES SEED [BITS]\n"
			"       mac_bench fec PARITY ERASED ERRORS FRAMES SEED inline|defer\n");
	return ret;
}
