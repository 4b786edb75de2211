// SPDX-License-Identifier: GPL-2.0
/* link_bench's UDP goodput under lateness, with the MAC (link_bench.c
 * has the link, the lateness model and what "lock" means):
 *
 *   link_bench goodput MODE FRAME_NS JITTER FEC SIZE PACKETS SEED [FRAG]
 *	The lock's two nodes, PHY and MAC, on ber's channel both ways
 *	(ambient 5 SIG, no flicker), all slots scaled with FRAME_NS (as
 *	FRAME_NS/GUARD_NS: but the guards and the tolerance, GUARD_NS), MODE
 *	the PHY's and the MAC's bits per symbol; locked on time, then every
 *	callback late per JITTER as in ber. FEC: "off", "auto" or parity
 *	symbols 2, 4, 8, 16, 32 (struct vlc_mac_params.fec of both nodes,
 *	each given codecs by vlc_fec_init() unless off). Node 0 sends
 *	PACKETS UDP datagrams in SIZE-byte Ethernet frames (1514: MTU 1500)
 *	to node 1, its MAC queue kept full; FRAG: the largest fragment's
 *	payload (struct vlc_mac_params.frag_size; by default 240). Prints
 *	"mode frame_ns fec size packets delivered corrupt goodput_bps
 *	raw_bps ratio retries drops fec_corrected_frames
 *	fec_corrected_symbols fec_uncorrectable unfinished duplicates
 *	elapsed_ns tx_frames fec_tx_frames truncated no_delimiter":
 *	delivered byte for byte (corrupt: not), goodput SIZE - 42 bytes
 *	per datagram delivered over the virtual time from the first one
 *	queued to the last delivered or given up, raw bits per symbol per
 *	frame, ratio the two's; node 0's retries and drops (retry limit,
 *	max_age); both nodes' FEC counters; unfinished: packets node 0's
 *	MAC still held when the run stopped, none finished in GP_STALL
 *	bare airtimes of one (the time then runs to the stop); duplicates:
 *	intact datagrams delivered again; node 0's frames on air (every
 *	type) and those of them coded; frames both nodes lost before
 *	their end (a run of dark frames) or whose delimiter they missed.
 *
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_bench.h"

/* ---- UDP goodput under lateness, with the MAC ---------------------- */

#define GP_HDRS		42	/* Ethernet, IPv4 and UDP headers */
#define GP_MIN		(GP_HDRS + 4)	/* and the packet's index */
#define GP_LOCK_MAX	20000	/* frames: no lock, no link */
/* A packet's airtime beyond its bits: framing, ACKs, gaps, access. */
#define GP_OVERHEAD	2000
/* Frames without a packet finished (acknowledged or given up), in bare
 * airtimes of a packet, before the run stops: more than a packet takes
 * with each of its fragments retried to the limit, so the link is down.
 */
#define GP_STALL	20

static struct {
	u32 size;
	u32 packets;
	u64 seed;
	u8 *seen;		/* per packet: delivered intact */
	u32 delivered;		/* packets delivered intact, once each */
	u32 corrupt;		/* deliveries not byte-exact */
	u32 dups;		/* intact deliveries of a packet again */
	u32 done;		/* packets node 0's MAC finished with */
	u64 last_ns;		/* the last delivery or give-up */
} gp;

static struct vlc_fec gp_fec[2];

/* Packet @idx as node 0's stack would hand it over: a UDP datagram from
 * 10.0.0.1 to 10.0.0.2 in an Ethernet frame the MAC compresses (short
 * addresses, IPv4), its payload the index, then seeded random bytes.
 */
static void gp_packet(u8 *f, u32 idx)
{
	static const u8 hdr[34] = {
		0x02, 0x56, 0x4c, 0x43, 0x00, 0x02,	/* dst */
		0x02, 0x56, 0x4c, 0x43, 0x00, 0x01,	/* src */
		0x08, 0x00,				/* IPv4 */
		0x45, 0x00, 0, 0, 0, 0, 0x40, 0x00,	/* len, id, DF */
		64, 17, 0, 0,				/* ttl, UDP, sum */
		10, 0, 0, 1, 10, 0, 0, 2,
	};
	u32 ip = gp.size - 14, sum = 0, i;
	u64 r = gp.seed ^ ((u64)idx << 32) ^ 0x6f0d;

	memcpy(f, hdr, sizeof(hdr));
	f[16] = ip >> 8;
	f[17] = ip;
	f[18] = idx >> 8;
	f[19] = idx;
	for (i = 14; i < 34; i += 2)
		sum += f[i] << 8 | f[i + 1];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = ~(sum + (sum >> 16));
	f[24] = sum >> 8;
	f[25] = sum;
	f[34] = 0x13;			/* ports 5001, 5001 */
	f[35] = 0x89;
	f[36] = 0x13;
	f[37] = 0x89;
	f[38] = (ip - 20) >> 8;
	f[39] = ip - 20;
	f[40] = 0;			/* no checksum: IPv4 allows it */
	f[41] = 0;
	f[42] = idx >> 24;
	f[43] = idx >> 16;
	f[44] = idx >> 8;
	f[45] = idx;
	for (i = GP_MIN; i < gp.size; i++)
		f[i] = (u8)(splitmix(&r) >> 32);
}

static void gp_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	static u8 want[VLC_MAC_FRAME_MAX];
	struct lnode *l = ctx;
	u32 idx;

	/* node 1 sends no packet: anything node 0 delivers is corrupt */
	if (l->cn->idx != 1 || len != gp.size) {
		gp.corrupt++;
		return;
	}
	idx = (u32)frame[GP_HDRS] << 24 | frame[GP_HDRS + 1] << 16 |
	      frame[GP_HDRS + 2] << 8 | frame[GP_HDRS + 3];
	if (idx >= gp.packets) {
		gp.corrupt++;
		return;
	}
	gp_packet(want, idx);
	if (memcmp(frame, want, len)) {
		gp.corrupt++;
		return;
	}
	if (gp.seen[idx]) {
		gp.dups++;
		return;
	}
	gp.seen[idx] = 1;
	gp.delivered++;
	gp.last_ns = ch.now;
}

static void gp_tx_done(void *ctx, unsigned int len, bool ok)
{
	struct lnode *l = ctx;

	if (l->cn->idx)
		return;
	gp.done++;
	if (!ok)
		gp.last_ns = max_t(u64, gp.last_ns, ch.now);
}

static const struct vlc_mac_ops gp_mac_ops = {
	.deliver = gp_deliver,
	.tx_done = gp_tx_done,
	.phase = lb_phase,
	.random = lb_random,
};

/* "off", "auto" or a parity count: struct vlc_mac_params.fec, or -1. */
static int gp_fec_parse(const char *s)
{
	int n;

	if (!strcmp(s, "off"))
		return VLC_MAC_FEC_OFF;
	if (!strcmp(s, "auto"))
		return VLC_MAC_FEC_AUTO;
	n = atoi(s);
	return n == 2 || n == 4 || n == 8 || n == 16 || n == 32 ? n : -1;
}

/* Node 0 sends gp.packets packets of gp.size bytes to node 1, its MAC
 * queue kept full. False if the run stopped because no packet finished
 * within GP_STALL bare airtimes of one.
 */
static bool gp_run(u32 bits)
{
	u32 queued = 0, done = 0, since = ln[1].frames, stall;
	u8 f[VLC_MAC_FRAME_MAX];

	stall = GP_STALL * (gp.size * 8 / bits + GP_OVERHEAD);
	while (queued < gp.packets || ln[0].mac.tx.q_count ||
	       ln[0].mac.tx.state != VLC_MAC_TX_IDLE) {
		if (gp.done != done) {
			done = gp.done;
			since = ln[1].frames;
		}
		if (ln[1].frames - since >= stall)
			return false;
		while (queued < gp.packets && !vlc_mac_tx_full(&ln[0].mac)) {
			gp_packet(f, queued);
			vlc_mac_xmit(&ln[0].mac, f, gp.size);
			queued++;
		}
		lb_run_frames(1, frames1);
	}
	return true;
}

/* Both nodes in @mode with FEC @fec, fragments of @frag bytes (0: the
 * default); 1 on a refusal, which it prints.
 */
static int gp_setup(enum vlc_phy_mode mode, int fec, u32 frag)
{
	struct vlc_mac_params p;
	enum vlc_refusal why;
	int i;

	for (i = 0; i < 2; i++) {
		if (vlc_phy_set_mode(&ch.node[i].phy, mode, &why)) {
			fprintf(stderr, "link_bench: %s\n",
				vlc_refusal_msg(why));
			return 1;
		}
		p = ln[i].mac.p;
		p.bits_per_symbol = vlc_phy_bits(mode);
		p.fec = fec;
		if (frag)
			p.frag_size = frag;
		if (vlc_mac_set_params(&ln[i].mac, &p, &why)) {
			fprintf(stderr, "link_bench: %s\n",
				vlc_refusal_msg(why));
			return 1;
		}
		if (fec == VLC_MAC_FEC_OFF)
			continue;
		if (vlc_fec_init(&gp_fec[i])) {
			fprintf(stderr, "link_bench: FEC unavailable\n");
			return 1;
		}
		vlc_mac_set_fec(&ln[i].mac, &gp_fec[i], &gp_fec[i], false);
	}
	return 0;
}

/* The rest of goodput's line: the MACs' counters of the run. */
static void gp_print_counts(u32 packets, u64 elapsed)
{
	const struct vlc_mac_stats *s0 = &ln[0].mac.stats;
	const struct vlc_mac_stats *s1 = &ln[1].mac.stats;

	printf("%llu %llu %llu %llu %llu %u %u %llu %llu %llu %llu %llu\n",
	       (unsigned long long)s0->tx_retries,
	       (unsigned long long)(s0->tx_dropped + s0->tx_expired),
	       (unsigned long long)(s0->fec_corrected_frames +
				    s1->fec_corrected_frames),
	       (unsigned long long)(s0->fec_corrected_symbols +
				    s1->fec_corrected_symbols),
	       (unsigned long long)(s0->fec_uncorrectable +
				    s1->fec_uncorrectable),
	       packets - gp.done, gp.dups, (unsigned long long)elapsed,
	       (unsigned long long)s0->tx_frames,
	       (unsigned long long)s0->fec_tx_frames,
	       (unsigned long long)(s0->rx_truncated + s1->rx_truncated),
	       (unsigned long long)(s0->rx_no_delimiter +
				    s1->rx_no_delimiter));
}

int goodput(int argc, char **argv)
{
	enum vlc_phy_mode mode = VLC_PHY_MODE_2SLOT;
	char *gns;
	u32 fns = strtoul(argv[3], &gns, 10), size = atoi(argv[6]);
	u32 packets = atoi(argv[7]), bits = 1, off, i;
	u64 seed = strtoull(argv[8], NULL, 0), t0, elapsed;
	int fec = gp_fec_parse(argv[5]);
	struct jitter j;
	double good, raw;
	bool locked, through = false;

	if (!strcmp(argv[2], "4ppm")) {
		mode = VLC_PHY_MODE_4PPM;
		bits = 2;
	} else if (strcmp(argv[2], "2slot")) {
		return 2;
	}
	lb_guard_ns = *gns == '/' ? strtoul(gns + 1, &gns, 10) : 0;
	if (*gns || jit_parse(argv[4]) || fec < 0 || size < GP_MIN ||
	    size > VLC_MAC_FRAME_MAX || !packets || !fns)
		return 2;
	/* the lock without lateness: the same start whatever JITTER */
	j = jit;
	memset(&jit, 0, sizeof(jit));
	gp.size = size;
	gp.packets = packets;
	gp.seed = seed;
	gp.seen = calloc(packets, 1);
	if (!gp.seen)
		return 1;
	/* ber's channel, both ways */
	lb_med.flicker = 0;
	lb_frame_ns = fns;
	lb_ops = &gp_mac_ops;
	if (mac_pair(seed, 0, 26, &off))
		return 1;
	if (gp_setup(mode, fec, argc > 9 ? atoi(argv[9]) : 0))
		return 1;
	locked = mac_lock(GP_LOCK_MAX, S32_MAX) <= GP_LOCK_MAX;
	if (!locked)
		fprintf(stderr, "link_bench: no lock\n");
	for (i = 0; i < 2; i++)
		memset(&ln[i].mac.stats, 0, sizeof(ln[i].mac.stats));
	jit = j;
	jrng = seed ^ 0x1a7e;
	t0 = ch.now;
	gp.last_ns = t0;
	if (locked)
		through = gp_run(bits);
	/* stopped short: the time it ran */
	elapsed = (through ? gp.last_ns : ch.now) - t0;
	raw = bits * 1e9 / ch.node[0].phy.timing.frame_ns;
	good = elapsed ? (double)gp.delivered * (size - GP_HDRS) * 8e9 /
			 elapsed : 0;
	printf("%s %u %s %u %u %u %u %.1f %.1f %.4f ", argv[2],
	       ch.node[0].phy.timing.frame_ns, argv[5], size, packets,
	       gp.delivered, gp.corrupt, good, raw, good / raw);
	gp_print_counts(packets, elapsed);
	for (i = 0; i < 2 && fec != VLC_MAC_FEC_OFF; i++)
		vlc_fec_exit(&gp_fec[i]);
	free(gp.seen);
	return 0;
}
