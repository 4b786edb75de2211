// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core (MAC v1): framing, header compression, CRC, fragmentation,
 * CSMA/CA and stop-and-wait ARQ over a PHY that carries one symbol of 1
 * or 2 bits per frame. Documentation/networking/vlc.rst draws the same.
 *
 * On air, one frame is (bytes MSB first, 1 or 2 bits per symbol):
 *
 *   preamble  p symbols 0,1,0,1.. (2-slot) or 0,1,2,3,0.. (4-PPM), p = 8:
 *             lights every data slot so the receiver's level estimate
 *             settles; the receiver tolerates erasures and a missed start
 *             here, and 8 symbols leave 4+ even if the first ones are lost.
 *   SFD       0x97: Hamming distance >= 3 from every 8-bit window of any
 *             preamble prefix of either mode (checked exhaustively).
 *   header    byte 0: type[7:5] last[4] ethertype[3:2] dfull[1] sfull[0]
 *      DATA:  dst (1 or 6 with dfull), tx (1), src (6, sfull only),
 *             seq[7:5]|frag[4:0] (1), len (1, 1..240)
 *      ACK:   dst (1), tx (1), seq|frag (1) of the fragment; bits 4:0 of
 *             byte 0 are zero (reserved, like types 0, 6 and 7)
 *      RTS:   dst (1), tx (1), duration (2, most significant first):
 *             frames from the end of the RTS to the end of the packet's
 *             last ACK; bits 4:0 of byte 0 zero
 *      CTS:   dst (1, the RTS's tx), tx (1), duration (2): what is left
 *             of the RTS's after the CTS
 *   BEACON:   tx (1); bits 4:0 of byte 0 zero. Sent after beacon_interval
 *             frames without emitting, contending like DATA, so that idle
 *             neighbours keep their lock and carrier.
 *   payload   len bytes: the Ethernet payload, prefixed by the 2 bytes of
 *             the ethertype when it is not coded (ethertype 3)
 *   CRC       CRC-16/CCITT (X.25: init 0xffff, complemented, low byte
 *             first) over header and payload
 *   idle      the end of a frame is known from the header; at least one
 *             idle frame separates frames.
 *
 * Addresses: 02:56:4c:43:00:XX ("VLC", locally administered) is XX, all
 * ones is 0xff; anything else travels in full with dfull/sfull, so every
 * frame is restored byte-exact. "tx" is the sender's short address and
 * the key of ARQ; the Ethernet source costs nothing when it is the
 * sender's own 02:56:4c:43:00:tx. Ethertype 0 = IPv4, 1 = ARP, 2 = IPv6.
 * Frames to 0xff or to a full address (multicast, bridged hosts) are
 * group frames: sent once, never acknowledged (nobody knows who should
 * answer, and ARP/ND/IP recover a loss); everything else is unicast.
 *
 * Sizes: per fragment (1-bit mode) framing costs 72 symbols (preamble 8,
 * SFD 8, header 40, CRC 16) and the ACK 68 more (SIFS 2, ACK 64, SIFS 2
 * before the next fragment), so on a clean channel longer is better:
 * fragments of at most 240 bytes (frag_size) carry a 1500-byte packet in
 * 7: 12504 symbols of DATA + 7 ACKs 448 + SIFS 26 = 12978 frames, the
 * 1472 bytes of a UDP payload being 90.7% of them (128-byte fragments:
 * 12, 13678 frames, 86.1%). Errors favour short fragments (the best at
 * 1e-3 erasures per symbol is the minimum, 48 bytes), so the length of
 * new fragments adapts: halved, down to 48, after every lost fragment,
 * 16 bytes longer after each one acknowledged at the first attempt. A
 * retransmission always carries the bytes of its first attempt, since
 * the receiver may hold them already. A 98-byte ping (84 bytes of IPv4)
 * is one DATA of 8 + 8 * (1 + 5 + 84 + 2) = 744 symbols, SIFS 2, ACK
 * 8 + 8 * (1 + 4 + 2) = 64: VLC_MAC_PING98_FRAMES = 810 frames each way,
 * 3% more than the 784 bits of the bare Ethernet frame.
 *
 * Medium access: busy = carrier, a symbol, or a frame being received.
 * DATA waits DIFS idle frames then a backoff of [0, CW) idle frames, drawn
 * for every packet and every retry so that stations that waited out the
 * same busy medium do not collide, and a station cannot starve others.
 * Costs DIFS + (CW - 1) / 2 = 19.5 frames on average (cw_min 32), 2.4%
 * of a ping: cheap next to packets of hundreds of frames, and a window
 * that wide keeps four saturated senders from colliding often, and so
 * from doubling a loser's window into starvation (tools/bench/mac_bench:
 * with cw_min 8 one of four senders got 0 of 298 packets). An
 * ACK goes out SIFS frames after the DATA without sensing; the next
 * fragment of a packet follows its ACK after SIFS too: DIFS > SIFS keeps
 * others out. Unicast fragments are retried up to retry_limit times, CW
 * doubling up to cw_max; the ACK timeout derived from our parameters
 * assumes the peer uses the same bits per symbol, preamble and SIFS.
 *
 * RTS/CTS: light links are line of sight, so hidden terminals (two
 * senders in view of a receiver, not of each other) are the normal case.
 * A unicast packet of rts_threshold bytes or more starts with an RTS,
 * after DIFS and backoff like DATA; the receiver answers SIFS later with
 * a CTS unless its own NAV is set; the first fragment follows SIFS after
 * the CTS and the others follow their ACKs as usual. Both announce how
 * long the packet's exchange lasts, and every other node that decodes
 * either keeps a NAV: a counter of frames during which the medium counts
 * as busy though dark. A sender hidden from the first sees the CTS, so
 * it keeps quiet for the whole packet, not just one fragment. Costs:
 * RTS 72 + SIFS 2 + CTS 72 + SIFS 2 = 148 frames per packet, 1.1% of an
 * MTU frame but 18% of a ping, hence a threshold (VLC_MAC_RTS_DEFAULT).
 * A lost CTS costs 150 frames instead of a whole fragment. Bounds: a
 * NAV from an RTS is dropped when nothing starts within 2 SIFS + CTS +
 * slack (its CTS was lost), and no NAV is ever longer than the longest
 * exchange the protocol allows (nav_max, about 11 s at 500 us frames),
 * whatever a frame from the air announces. An RTS without a CTS is
 * retried up to retry_limit times, with the contention window doubling.
 *
 * Location beacons: with loc_interval set, a BEACON (the node's short
 * address) is due every loc_interval frames whatever the traffic. It
 * contends like DATA and takes a packet's turn at the medium (the packet
 * follows DIFS later); a node in the middle of its own packet sends it
 * between two fragments (its RTS reserved room for it); at most one per
 * fragment, so that a short interval cannot starve the data. A node
 * that only receives waits for the medium to be free, so under others'
 * saturating traffic its beacon can be one packet late (6.5 s for an
 * MTU frame at 500 us frames). Every node keeps a table of the beacons
 * it hears, with their light level and age (vlc_mac_beacons()).
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/crc-ccitt.h>

#include "vlc_mac.h"

#define VLC_MAC_SFD		0x97

#define VLC_MAC_TYPE_SHIFT	5

#define VLC_MAC_H_LAST		0x10
#define VLC_MAC_H_ET_SHIFT	2
#define VLC_MAC_H_ET_MASK	0x0c
#define VLC_MAC_H_DFULL		0x02
#define VLC_MAC_H_SFULL		0x01

#define VLC_MAC_ET_IPV4		0
#define VLC_MAC_ET_ARP		1
#define VLC_MAC_ET_IPV6		2
#define VLC_MAC_ET_FULL		3

#define VLC_MAC_SEQ_SHIFT	5
#define VLC_MAC_FRAG_MASK	0x1f

#define VLC_MAC_ACK_LEN		(1 + 4 + 2)	/* SFD, header, CRC */
#define VLC_MAC_BEACON_LEN	(1 + 2 + 2)	/* SFD, type, tx, CRC */
#define VLC_MAC_RTS_LEN		(1 + 5 + 2)	/* SFD, header, CRC */
#define VLC_MAC_CTS_LEN		(1 + 5 + 2)
#define VLC_MAC_CRC_GOOD	0xf0b8		/* residue of X.25 FCS */
#define VLC_MAC_ACK_SLACK	4	/* frames of executor jitter */
#define VLC_MAC_HUNT_MAX	(VLC_MAC_PREAMBLE_MAX + 8 + 16)
#define VLC_MAC_SYNC_SHIFT	4	/* mean offset over 16 frames */
/* Resync loop (see vlc_mac_resync()): the rate is in 1/256 ns per frame */
#define VLC_MAC_SYNC_FRAC	8
#define VLC_MAC_SYNC_KP_SHIFT	2	/* phase: mean / 4 */
#define VLC_MAC_SYNC_KI_SHIFT	3	/* rate: mean / 8 / 256 ns per frame, */
#define VLC_MAC_SYNC_KI_SETTLE	255	/* for this many windows after a lock, */
#define VLC_MAC_SYNC_KI_TRACK	5	/* then mean / 32 / 256 ns per frame */
#define VLC_MAC_SYNC_LEAK_EVERY	16	/* windows, a power of 2 */
#define VLC_MAC_SYNC_LEAK_SHIFT	12	/* rate leaks 1/4096 of itself */
#define VLC_MAC_SYNC_RATE_MAX	(2048 << VLC_MAC_SYNC_FRAC)	/* ns/frame */
#define VLC_MAC_SYNC_STEP_NS	1000	/* the rate moves at least this */
/* an acquisition report within this, or an eighth of itself if more, of
 * what the last one and our move for it predict: the neighbour stood still
 */
#define VLC_MAC_ACQ_STILL_NS	4000
#define VLC_MAC_FRAG_STEP	16	/* fragment growth per clean ACK */
/* Dark frames in a row that end a frame as truncated (see
 * vlc_mac_rx_symbol()): SIFS is 2, so a header that announced too long
 * a frame does not run into the ACK that follows it.
 */
#define VLC_MAC_RX_DARK_END	2
/* Acquisition beacons (see vlc_mac_acq_beacon()): the first interval in
 * frames, and the hello beacon's window after a lock.
 */
#define VLC_MAC_ACQ_IVL		24
#define VLC_MAC_ACQ_HELLO	16

static const u8 vlc_mac_prefix[5] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };

static const u16 vlc_mac_ethertype[3] = {
	[VLC_MAC_ET_IPV4] = 0x0800,
	[VLC_MAC_ET_ARP] = 0x0806,
	[VLC_MAC_ET_IPV6] = 0x86dd,
};

void vlc_mac_default_params(struct vlc_mac_params *p)
{
	memset(p, 0, sizeof(*p));
	p->short_addr = 1;
	p->bits_per_symbol = 1;
	p->frag_size = 240;
	p->retry_limit = 7;
	p->cw_min = 32;
	p->cw_max = 256;
	p->difs = 4;
	p->sifs = 2;
	p->ack_timeout = 0;
	p->preamble = 8;
	p->sync_deadband_ns = 2000;
	p->beacon_interval = 1000;
	p->loc_interval = 0;
	p->rts_threshold = VLC_MAC_RTS_DEFAULT;
}

/**
 * vlc_mac_short_addr - the on-air short form of an Ethernet address
 * @addr: 6 bytes
 *
 * Return: 0..254 for 02:56:4c:43:00:XX, VLC_MAC_BCAST for broadcast, or
 * -1 when the address must travel in full.
 */
int vlc_mac_short_addr(const u8 *addr)
{
	static const u8 bcast[VLC_MAC_ALEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};

	if (!memcmp(addr, bcast, VLC_MAC_ALEN))
		return VLC_MAC_BCAST;
	if (!memcmp(addr, vlc_mac_prefix, sizeof(vlc_mac_prefix)) &&
	    addr[5] != VLC_MAC_BCAST)
		return addr[5];
	return -1;
}

static void vlc_mac_long_addr(u8 *addr, u8 short_addr)
{
	if (short_addr == VLC_MAC_BCAST) {
		memset(addr, 0xff, VLC_MAC_ALEN);
		return;
	}
	memcpy(addr, vlc_mac_prefix, sizeof(vlc_mac_prefix));
	addr[5] = short_addr;
}

/**
 * vlc_mac_frame_symbols - airtime of a frame in PHY frames
 * @p: parameters (preamble, bits per symbol)
 * @nbytes: bytes after the preamble: delimiter, header, payload, CRC
 */
unsigned int vlc_mac_frame_symbols(const struct vlc_mac_params *p,
				   unsigned int nbytes)
{
	return p->preamble + ((nbytes * 8) >> (p->bits_per_symbol - 1));
}

int vlc_mac_check_params(const struct vlc_mac_params *p, const char **why)
{
	const char *bad = NULL;

	if (p->short_addr == VLC_MAC_BCAST)
		bad = "short_addr: 255 is broadcast (0..254)";
	else if (p->bits_per_symbol != 1 && p->bits_per_symbol != 2)
		bad = "bits_per_symbol: must be 1 or 2";
	else if (p->frag_size < VLC_MAC_FRAG_MIN ||
		 p->frag_size > VLC_MAC_FRAG_MAX)
		bad = "frag-size: must be 48..240 (32 fragments per packet)";
	else if (p->retry_limit > 15)
		bad = "retry-limit: must be 0..15";
	else if (p->cw_max < 1 || p->cw_max > 1024)
		bad = "cw-max: must be 1..1024";
	else if (p->cw_min < 1 || p->cw_min > p->cw_max)
		bad = "cw-min: must be 1..cw-max";
	else if (p->sifs < 1 || p->sifs > 15)
		bad = "sifs: must be 1..15 (receivers need an idle frame)";
	else if (p->difs <= p->sifs || p->difs > 64)
		bad = "difs: must be sifs+1..64 (ACKs go first)";
	else if (p->preamble < 2 || p->preamble > VLC_MAC_PREAMBLE_MAX)
		bad = "preamble: must be 2..32 symbols";
	else if (p->ack_timeout &&
		 p->ack_timeout < p->sifs +
		 vlc_mac_frame_symbols(p, VLC_MAC_ACK_LEN))
		bad = "ack_timeout: shorter than SIFS plus an ACK";
	else if (p->ack_timeout > 4096)
		bad = "ack_timeout: must be 0 (derived) or at most 4096";
	else if (p->sync_deadband_ns > 1000000)
		bad = "sync_deadband_ns: must be 0..1000000";
	else if (p->beacon_interval && p->beacon_interval < 64)
		bad = "beacon-interval: must be 0 (off) or 64..65535 frames";
	else if (p->loc_interval && p->loc_interval < 64)
		bad = "loc-interval: must be 0 (off) or 64..65535 frames";
	else if (p->rts_threshold > VLC_MAC_FRAME_MAX)
		bad = "rts-threshold: must be 0 (off) or 1..1518 bytes";

	if (why)
		*why = bad;
	return bad ? -EINVAL : 0;
}

/**
 * struct vlc_mac_hdr - an on-air header, decoded by vlc_mac_hdr_parse()
 * @type: VLC_MAC_T_* (bits 7:5 of byte 0, as sent); 0 without byte 0
 * @hlen: header bytes; 0 if no such header: types 0, 6 and 7, or bits 4:0
 *	of byte 0 set in an ACK, RTS, CTS or BEACON (the other fields are
 *	decoded all the same)
 * @flen: bytes from the header to the CRC included; 0 while unknown (a
 *	DATA header short of its len byte) or impossible (len 0 or over
 *	VLC_MAC_FRAG_MAX)
 * @dst: short destination; VLC_MAC_BCAST for a full DATA destination
 *	and for a BEACON; -1 if not received
 * @tx: the sender's short address; -1 if not received
 * @sf: DATA and ACK: seq << 5 | frag; -1 if none or not received
 * @dur: RTS and CTS: the frames announced
 * @len: DATA: payload bytes, the len byte as received
 * @dfull: DATA: the full destination, or NULL
 * @sfull: DATA: the full source, or NULL
 */
struct vlc_mac_hdr {
	u8 type;
	u8 hlen;
	u16 flen;
	s16 dst;
	s16 tx;
	s16 sf;
	u16 dur;
	u8 len;
	const u8 *dfull;
	const u8 *sfull;
};

/* The addressed frames: DATA is variable, the others fixed. */
static void vlc_mac_hdr_data(const u8 *b, unsigned int n,
			     struct vlc_mac_hdr *h)
{
	unsigned int p = 1;

	if (b[0] & VLC_MAC_H_DFULL) {
		if (n >= p + VLC_MAC_ALEN)
			h->dfull = b + p;
		p += VLC_MAC_ALEN;
		h->dst = VLC_MAC_BCAST;
	} else if (n > p++) {
		h->dst = b[p - 1];
	}
	if (n > p++)
		h->tx = b[p - 1];
	if (b[0] & VLC_MAC_H_SFULL) {
		if (n >= p + VLC_MAC_ALEN)
			h->sfull = b + p;
		p += VLC_MAC_ALEN;
	}
	if (n > p++)
		h->sf = b[p - 1];
	h->hlen = ++p;
	if (n < p)
		return;
	h->len = b[p - 1];
	if (h->len && h->len <= VLC_MAC_FRAG_MAX)
		h->flen = p + h->len + 2;
}

/**
 * vlc_mac_hdr_parse - decode the compressed header of any frame type
 * @b: the header, from its byte 0 (the delimiter excluded)
 * @n: bytes of it received so far, 0 or more; fields beyond are left
 *	unknown
 * @h: the fields
 *
 * The one place that knows the header's layout: the receiver sizes and
 * dispatches frames with it, the events name their addresses with it,
 * and the RTS sizes a DATA header with it.
 */
static void vlc_mac_hdr_parse(const u8 *b, unsigned int n,
			      struct vlc_mac_hdr *h)
{
	*h = (struct vlc_mac_hdr){ .dst = -1, .tx = -1, .sf = -1 };
	if (!n)
		return;
	h->type = b[0] >> VLC_MAC_TYPE_SHIFT;
	switch (h->type) {
	case VLC_MAC_T_DATA:
		vlc_mac_hdr_data(b, n, h);
		return;
	case VLC_MAC_T_ACK:
		h->hlen = VLC_MAC_ACK_LEN - 1 - 2;	/* no SFD, CRC */
		if (n > 3)
			h->sf = b[3];
		break;
	case VLC_MAC_T_RTS:
	case VLC_MAC_T_CTS:
		h->hlen = VLC_MAC_RTS_LEN - 1 - 2;
		if (n > 4)
			h->dur = b[3] << 8 | b[4];
		break;
	case VLC_MAC_T_BEACON:
		h->hlen = VLC_MAC_BEACON_LEN - 1 - 2;
		h->dst = VLC_MAC_BCAST;
		if (n > 1)
			h->tx = b[1];
		break;
	default:
		return;
	}
	if (h->type != VLC_MAC_T_BEACON) {
		if (n > 1)
			h->dst = b[1];
		if (n > 2)
			h->tx = b[2];
	}
	if (b[0] & 0x1f)	/* reserved in these types */
		h->hlen = 0;
	else
		h->flen = h->hlen + 2;
}

/* Frames from the end of an RTS to the end of the last ACK of the
 * fragments that carry @rest payload bytes: the first @first bytes long,
 * the others at most @frag. For each: SIFS, DATA (@hlen header bytes),
 * SIFS, ACK; the CTS and the SIFS before it come first. Fragments that
 * grow on the way only make it shorter. No slack: frames are counted,
 * not timed, so a late callback costs a symbol, not a frame; and a NAV
 * that outlived the exchange would keep everybody but the sender out of
 * the next contention (the sender would capture the medium).
 */
static unsigned int vlc_mac_exchange(const struct vlc_mac_params *p,
				     unsigned int hlen, unsigned int rest,
				     unsigned int first, unsigned int frag)
{
	unsigned int ack = p->sifs + vlc_mac_frame_symbols(p, VLC_MAC_ACK_LEN);
	unsigned int n = p->sifs + vlc_mac_frame_symbols(p, VLC_MAC_CTS_LEN);
	unsigned int f = first, i;

	for (i = 0; rest && i < VLC_MAC_FRAGS_MAX; i++) {
		f = min(f, rest);
		n += p->sifs + vlc_mac_frame_symbols(p, 1 + hlen + f + 2) +
		     ack;
		rest -= f;
		f = frag;
	}
	return n;
}

static void vlc_mac_apply_params(struct vlc_mac *mac,
				 const struct vlc_mac_params *p)
{
	struct vlc_mac_params worst = *p;

	mac->p = *p;
	mac->resp.ack_timeout = p->ack_timeout ? p->ack_timeout :
		p->sifs + vlc_mac_frame_symbols(p, VLC_MAC_ACK_LEN) +
		VLC_MAC_ACK_SLACK;
	mac->resp.cts_timeout = p->sifs +
		vlc_mac_frame_symbols(p, VLC_MAC_CTS_LEN) + VLC_MAC_ACK_SLACK;
	/* A retransmission of a fragment we acknowledged comes before the
	 * sender's retries run out; each retry costs it at most ack_timeout
	 * + DIFS + CW idle frames (same parameters assumed), and only idle
	 * frames after a full DIFS move the clock that ages reassemblies,
	 * so no amount of other traffic makes us forget too early. After
	 * twice that a reassembly is forgotten, so a sequence number that
	 * wrapped while we were out of sight is not taken for a duplicate.
	 */
	mac->rx.lifetime = 2 * (p->retry_limit + 1) *
		(mac->resp.ack_timeout + p->difs + p->cw_max);
	if (mac->tx.cw < p->cw_min || mac->tx.cw > p->cw_max)
		mac->tx.cw = p->cw_min;
	if (!mac->tx.frag_len || mac->tx.frag_len > p->frag_size)
		mac->tx.frag_len = p->frag_size;
	/* The longest reservation any sender may announce: the largest
	 * packet, full addresses, smallest fragments, and the slowest
	 * settings the protocol allows. A NAV is never set for longer.
	 */
	worst.preamble = VLC_MAC_PREAMBLE_MAX;
	worst.sifs = 15;
	worst.bits_per_symbol = 1;
	mac->nav.max = min_t(unsigned int, U16_MAX,
			     vlc_mac_exchange(&worst, VLC_MAC_HDR_MAX,
					      VLC_MAC_FRAME_MAX -
					      VLC_MAC_ETH_HLEN + 2,
					      VLC_MAC_FRAG_MIN,
					      VLC_MAC_FRAG_MIN));
}

/**
 * vlc_mac_init - start a MAC with empty queues
 * @mac: state, allocated by the caller
 * @p: parameters; must pass vlc_mac_check_params(), else the defaults
 *	are used
 * @ops: callbacks, valid for the MAC's lifetime
 * @ctx: passed to @ops
 */
void vlc_mac_init(struct vlc_mac *mac, const struct vlc_mac_params *p,
		  const struct vlc_mac_ops *ops, void *ctx)
{
	struct vlc_mac_params def;

	memset(mac, 0, sizeof(*mac));
	mac->ops = ops;
	mac->ctx = ctx;
	if (vlc_mac_check_params(p, NULL)) {
		vlc_mac_default_params(&def);
		p = &def;
	}
	mac->tx.cw = p->cw_min;
	vlc_mac_apply_params(mac, p);
	mac->rng = 0x9e3779b9u ^ p->short_addr;
	mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
	mac->tx.state = VLC_MAC_TX_IDLE;
}

/**
 * vlc_mac_set_params - change parameters
 * @mac: the MAC
 * @p: new parameters
 * @why: set to a message naming the bad field, or NULL
 *
 * A frame already on air finishes as it started. Return: 0, or -EINVAL
 * with the previous parameters kept.
 */
int vlc_mac_set_params(struct vlc_mac *mac, const struct vlc_mac_params *p,
		       const char **why)
{
	int ret = vlc_mac_check_params(p, why);

	if (!ret)
		vlc_mac_apply_params(mac, p);
	return ret;
}

/* Tracing (ops->event): nothing is built unless someone listens. */
static bool vlc_mac_ev_on(const struct vlc_mac *mac)
{
	return mac->ops && mac->ops->event;
}

/* A frame sent or received: its addresses from the header @h, of which
 * @n bytes are known; @len bytes from the delimiter on.
 */
static void vlc_mac_ev_frame(struct vlc_mac *mac, u8 kind, u8 reason,
			     u8 attempt, const u8 *h, unsigned int n,
			     unsigned int len)
{
	struct vlc_mac_event ev;
	struct vlc_mac_hdr hd;

	if (!vlc_mac_ev_on(mac))
		return;
	vlc_mac_hdr_parse(h, n, &hd);
	ev = (struct vlc_mac_event){
		.kind = kind, .type = hd.type, .reason = reason,
		.attempt = attempt, .dst = hd.dst, .src = hd.tx,
		.seqfrag = hd.sf, .len = len,
	};
	mac->ops->event(mac->ctx, &ev);
}

/* A DATA (@type) without its ACK, or an RTS without its CTS. */
static void vlc_mac_ev_retry(struct vlc_mac *mac, u8 type, u8 attempt,
			     u8 reason)
{
	struct vlc_mac_event ev;

	if (!vlc_mac_ev_on(mac))
		return;
	ev = (struct vlc_mac_event){
		.kind = VLC_MAC_EV_RETRY, .type = type, .reason = reason,
		.attempt = attempt, .dst = mac->tx.dst,
		.src = mac->p.short_addr,
		.seqfrag = mac->tx.seq << VLC_MAC_SEQ_SHIFT | mac->tx.frag,
	};
	mac->ops->event(mac->ctx, &ev);
}

static void vlc_mac_ev_value(struct vlc_mac *mac, u8 kind, u8 reason,
			     u16 value, u16 cw)
{
	struct vlc_mac_event ev;

	if (!vlc_mac_ev_on(mac))
		return;
	ev = (struct vlc_mac_event){
		.kind = kind, .reason = reason, .dst = -1, .src = -1,
		.seqfrag = -1, .value = value, .cw = cw,
	};
	mac->ops->event(mac->ctx, &ev);
}

static u32 vlc_mac_random_below(struct vlc_mac *mac, u32 n)
{
	u32 r;

	if (mac->ops && mac->ops->random) {
		r = mac->ops->random(mac->ctx);
	} else {
		/* xorshift32: enough to decorrelate backoffs */
		r = mac->rng;
		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		mac->rng = r;
	}
	/* Scale instead of '%': no division helper on 32-bit ARM. */
	return (u32)(((u64)r * n) >> 32);
}

/* A loss doubles the contention window, up to cw_max. */
static void vlc_mac_cw_double(struct vlc_mac *mac)
{
	mac->tx.cw = min_t(u16, mac->tx.cw * 2, mac->p.cw_max);
}

static void vlc_mac_draw_backoff(struct vlc_mac *mac)
{
	mac->tx.backoff = vlc_mac_random_below(mac, mac->tx.cw);
	mac->stats.backoffs++;
	vlc_mac_ev_value(mac, VLC_MAC_EV_BACKOFF, 0, mac->tx.backoff,
			 mac->tx.cw);
}

/* What a queued Ethernet frame looks like on air. */
struct vlc_mac_pktinfo {
	int dst;		/* short address or -1 */
	bool sfull;
	u8 et;
	bool group;
	const u8 *payload;	/* air payload: [ethertype] + data */
	unsigned int len;
};

static void vlc_mac_pktinfo(const struct vlc_mac *mac, const u8 *eth,
			    unsigned int len, struct vlc_mac_pktinfo *pi)
{
	u16 type = (eth[12] << 8) | eth[13];
	unsigned int off = VLC_MAC_ETH_HLEN;

	pi->dst = vlc_mac_short_addr(eth);
	pi->group = pi->dst < 0 || pi->dst == VLC_MAC_BCAST;
	pi->sfull = memcmp(eth + VLC_MAC_ALEN, vlc_mac_prefix,
			   sizeof(vlc_mac_prefix)) ||
		    eth[VLC_MAC_ALEN + 5] != mac->p.short_addr;
	for (pi->et = 0; pi->et < VLC_MAC_ET_FULL; pi->et++)
		if (vlc_mac_ethertype[pi->et] == type)
			break;
	if (pi->et == VLC_MAC_ET_FULL)
		off -= 2;	/* the ethertype leads the payload */
	pi->payload = eth + off;
	pi->len = len - off;
}

/**
 * vlc_mac_tx_full - whether vlc_mac_xmit() would refuse with -ENOSPC
 * @mac: the MAC
 */
bool vlc_mac_tx_full(const struct vlc_mac *mac)
{
	return mac->tx.q_count >= VLC_MAC_TXQ_LEN;
}

static struct vlc_mac_txpkt *vlc_mac_txq_slot(struct vlc_mac *mac,
					      unsigned int i)
{
	i += mac->tx.q_head;
	if (i >= VLC_MAC_TXQ_LEN)
		i -= VLC_MAC_TXQ_LEN;
	return &mac->tx.q[i];
}

/* The head packet becomes current: new sequence number, contend. */
static void vlc_mac_start_packet(struct vlc_mac *mac)
{
	struct vlc_mac_txpkt *pkt = vlc_mac_txq_slot(mac, 0);
	struct vlc_mac_pktinfo pi;
	u8 slot;

	vlc_mac_pktinfo(mac, pkt->data, pkt->len, &pi);
	/* Per destination, so traffic to others never looks like a wrap. */
	slot = pi.dst < 0 ? VLC_MAC_BCAST : pi.dst;
	mac->tx.seq = mac->tx.seq_next[slot]++ & 7;
	mac->tx.frag = 0;
	mac->tx.off = 0;
	mac->tx.retries = 0;
	mac->tx.rts_retries = 0;
	mac->tx.rts = !pi.group && mac->p.rts_threshold &&
		       pkt->len >= mac->p.rts_threshold;
	mac->tx.state = VLC_MAC_TX_CONTEND;
	mac->bcn.armed = false;
	vlc_mac_draw_backoff(mac);
}

/**
 * vlc_mac_xmit - queue an Ethernet frame from the stack
 * @mac: the MAC
 * @frame: destination, source, ethertype, payload
 * @len: bytes in @frame
 *
 * Return: 0; -ENOSPC when the queue is full (stop the netdev queue);
 * -EINVAL when @len is not 15..VLC_MAC_FRAME_MAX.
 */
int vlc_mac_xmit(struct vlc_mac *mac, const u8 *frame, unsigned int len)
{
	struct vlc_mac_txpkt *pkt;

	if (len <= VLC_MAC_ETH_HLEN || len > VLC_MAC_FRAME_MAX)
		return -EINVAL;
	if (vlc_mac_tx_full(mac))
		return -ENOSPC;
	pkt = vlc_mac_txq_slot(mac, mac->tx.q_count);
	memcpy(pkt->data, frame, len);
	pkt->len = len;
	mac->tx.q_count++;
	if (mac->tx.state == VLC_MAC_TX_IDLE)
		vlc_mac_start_packet(mac);
	return 0;
}

/* The head packet leaves the queue. */
static void vlc_mac_complete(struct vlc_mac *mac, bool ok)
{
	unsigned int len = vlc_mac_txq_slot(mac, 0)->len;

	mac->tx.q_head = mac->tx.q_head + 1 < VLC_MAC_TXQ_LEN ?
			mac->tx.q_head + 1 : 0;
	mac->tx.q_count--;
	mac->tx.cw = mac->p.cw_min;
	mac->tx.state = VLC_MAC_TX_IDLE;
	if (mac->tx.q_count)
		vlc_mac_start_packet(mac);
	/* Last, so that a callback sees a consistent queue. */
	if (mac->ops && mac->ops->tx_done)
		mac->ops->tx_done(mac->ctx, len, ok);
}

/**
 * vlc_mac_flush - drop every queued packet (interface going down)
 * @mac: the MAC
 *
 * Each packet is reported with tx_done(ok = false); a frame being
 * emitted is cut, receivers count it as truncated.
 */
void vlc_mac_flush(struct vlc_mac *mac)
{
	unsigned int len;

	mac->tx.emit.sym = 0;
	mac->tx.emit.nsyms = 0;
	mac->tx.emitting = 0;
	mac->bcn.armed = false;
	mac->resp.type = 0;
	mac->nav.frames = 0;
	mac->nav.probe = 0;
	mac->tx.state = VLC_MAC_TX_IDLE;
	mac->tx.cw = mac->p.cw_min;
	while (mac->tx.q_count) {
		len = vlc_mac_txq_slot(mac, 0)->len;
		mac->tx.q_head = mac->tx.q_head + 1 < VLC_MAC_TXQ_LEN ?
				mac->tx.q_head + 1 : 0;
		mac->tx.q_count--;
		if (mac->ops && mac->ops->tx_done)
			mac->ops->tx_done(mac->ctx, len, false);
	}
}

static void vlc_mac_emit_start(struct vlc_mac *mac, unsigned int nbytes)
{
	struct vlc_mac_emit *e = &mac->tx.emit;

	e->nbytes = nbytes;
	e->sym = 0;
	e->nsyms = vlc_mac_frame_symbols(&mac->p, nbytes);
	e->pre = mac->p.preamble;
	e->bits = mac->p.bits_per_symbol;
	mac->stats.tx_frames++;
	mac->stats.tx_bytes_air += nbytes;
	vlc_mac_ev_frame(mac, VLC_MAC_EV_TX, 0,
			 mac->tx.emitting == VLC_MAC_T_DATA ? mac->tx.retries :
			 mac->tx.emitting == VLC_MAC_T_RTS ?
			 mac->tx.rts_retries : 0,
			 e->buf + 1, nbytes - 1, nbytes);
}

static unsigned int vlc_mac_put_crc(u8 *buf, unsigned int start,
				    unsigned int n)
{
	u16 fcs = ~crc_ccitt(0xffff, buf + start, n - start);

	buf[n++] = fcs & 0xff;
	buf[n++] = fcs >> 8;
	return n;
}

/* An ACK or a CTS: type, dst, tx, then seq|frag (ACK) or the frames
 * still reserved after this one (CTS, 16 bits, most significant first).
 */
static void vlc_mac_build_resp(struct vlc_mac *mac)
{
	u8 *b = mac->tx.emit.buf;
	unsigned int n = 0;

	b[n++] = VLC_MAC_SFD;
	b[n++] = mac->resp.type << VLC_MAC_TYPE_SHIFT;
	b[n++] = mac->resp.dst;
	b[n++] = mac->p.short_addr;
	if (mac->resp.type == VLC_MAC_T_CTS) {
		b[n++] = mac->resp.dur >> 8;
		b[n++] = mac->resp.dur & 0xff;
		mac->stats.tx_cts++;
	} else {
		b[n++] = mac->resp.sf;
	}
	n = vlc_mac_put_crc(b, 1, n);
	mac->tx.emitting = mac->resp.type;
	mac->resp.type = 0;
	vlc_mac_emit_start(mac, n);
}

/* RTS for the current fragment: it reserves the medium until the ACK of
 * the packet's last fragment, as the fragments would be cut now.
 */
static void vlc_mac_build_rts(struct vlc_mac *mac)
{
	struct vlc_mac_txpkt *pkt = vlc_mac_txq_slot(mac, 0);
	struct vlc_mac_pktinfo pi;
	unsigned int n = 0, rest, first, dur;
	u8 *b = mac->tx.emit.buf;
	struct vlc_mac_hdr dh;
	u8 h0 = VLC_MAC_T_DATA << VLC_MAC_TYPE_SHIFT;

	vlc_mac_pktinfo(mac, pkt->data, pkt->len, &pi);
	if (pi.sfull)
		h0 |= VLC_MAC_H_SFULL;
	vlc_mac_hdr_parse(&h0, 1, &dh);
	rest = pi.len - mac->tx.off;
	first = mac->tx.retries ? mac->tx.len : mac->tx.frag_len;
	dur = vlc_mac_exchange(&mac->p, dh.hlen, rest, first,
			       mac->tx.frag_len);
	/* location beacons that will go between the fragments */
	if (mac->p.loc_interval)
		dur += (dur / mac->p.loc_interval + 1) *
		       (mac->p.sifs +
			vlc_mac_frame_symbols(&mac->p, VLC_MAC_BEACON_LEN));
	dur = min_t(unsigned int, dur, mac->nav.max);

	b[n++] = VLC_MAC_SFD;
	b[n++] = VLC_MAC_T_RTS << VLC_MAC_TYPE_SHIFT;
	b[n++] = pi.dst;
	b[n++] = mac->p.short_addr;
	b[n++] = dur >> 8;
	b[n++] = dur & 0xff;
	n = vlc_mac_put_crc(b, 1, n);
	mac->tx.dst = pi.dst;
	mac->tx.state = VLC_MAC_TX_SEND;
	mac->bcn.loc_turn = false;
	mac->tx.emitting = VLC_MAC_T_RTS;
	mac->stats.tx_rts++;
	vlc_mac_emit_start(mac, n);
}

static bool vlc_mac_loc_due(const struct vlc_mac *mac)
{
	return mac->p.loc_interval && mac->bcn.since_loc >= mac->p.loc_interval;
}

/* A beacon keeps neighbours locked (PHY signal and sync estimates) and
 * their carrier up while nobody has data to send.
 */
static void vlc_mac_build_beacon(struct vlc_mac *mac)
{
	u8 *b = mac->tx.emit.buf;
	unsigned int n = 0;

	b[n++] = VLC_MAC_SFD;
	b[n++] = VLC_MAC_T_BEACON << VLC_MAC_TYPE_SHIFT;
	b[n++] = mac->p.short_addr;
	n = vlc_mac_put_crc(b, 1, n);
	mac->tx.emitting = VLC_MAC_T_BEACON;
	mac->bcn.armed = false;
	/* Location beacons keep their schedule: one that went late does
	 * not push back the next, so they average one per loc_interval.
	 */
	if (vlc_mac_loc_due(mac))
		mac->bcn.since_loc = min_t(u16, mac->bcn.since_loc -
					   mac->p.loc_interval,
					   mac->p.loc_interval - 1);
	else
		mac->bcn.since_loc = 0;
	mac->stats.tx_beacons++;
	vlc_mac_emit_start(mac, n);
}

static void vlc_mac_build_data(struct vlc_mac *mac)
{
	struct vlc_mac_txpkt *pkt = vlc_mac_txq_slot(mac, 0);
	struct vlc_mac_pktinfo pi;
	unsigned int n = 0, flen;
	u8 *b = mac->tx.emit.buf;
	bool last;
	u8 h0;

	vlc_mac_pktinfo(mac, pkt->data, pkt->len, &pi);
	if (mac->tx.retries) {
		/* A retransmission carries exactly the bytes of the first
		 * attempt: the receiver may hold them already (only our ACK
		 * was lost) and appends the next fragment after them.
		 */
		flen = mac->tx.len;
		last = mac->tx.last;
	} else {
		/* Every fragment but the last has frag_cur >= FRAG_MIN
		 * bytes, so a packet never needs more than 32.
		 */
		flen = pi.len - mac->tx.off;
		last = flen <= mac->tx.frag_len;
		if (!last)
			flen = mac->tx.frag_len;
	}
	h0 = VLC_MAC_T_DATA << VLC_MAC_TYPE_SHIFT |
	     pi.et << VLC_MAC_H_ET_SHIFT;
	if (last)
		h0 |= VLC_MAC_H_LAST;
	if (pi.dst < 0)
		h0 |= VLC_MAC_H_DFULL;
	if (pi.sfull)
		h0 |= VLC_MAC_H_SFULL;

	b[n++] = VLC_MAC_SFD;
	b[n++] = h0;
	if (pi.dst < 0) {
		memcpy(b + n, pkt->data, VLC_MAC_ALEN);
		n += VLC_MAC_ALEN;
	} else {
		b[n++] = pi.dst;
	}
	b[n++] = mac->p.short_addr;
	if (pi.sfull) {
		memcpy(b + n, pkt->data + VLC_MAC_ALEN, VLC_MAC_ALEN);
		n += VLC_MAC_ALEN;
	}
	b[n++] = mac->tx.seq << VLC_MAC_SEQ_SHIFT | mac->tx.frag;
	b[n++] = flen;
	memcpy(b + n, pi.payload + mac->tx.off, flen);
	n = vlc_mac_put_crc(b, 1, n + flen);

	mac->tx.dst = pi.dst < 0 ? VLC_MAC_BCAST : pi.dst;
	mac->tx.group = pi.group;
	mac->tx.len = flen;
	mac->tx.last = last;
	mac->tx.state = VLC_MAC_TX_SEND;
	mac->bcn.loc_turn = false;
	mac->tx.emitting = VLC_MAC_T_DATA;
	mac->stats.tx_fragments++;
	vlc_mac_emit_start(mac, n);
}

/* The current fragment got through (ACK, or sent if group). */
static void vlc_mac_frag_done(struct vlc_mac *mac)
{
	mac->tx.cw = mac->p.cw_min;
	if (mac->tx.last) {
		vlc_mac_complete(mac, true);
		return;
	}
	mac->tx.off += mac->tx.len;
	mac->tx.frag++;
	mac->tx.retries = 0;
	mac->tx.burst_wait = mac->p.sifs;
	mac->tx.state = VLC_MAC_TX_BURST;
}

/* Our DATA or RTS ended: wait for its response @resp, ACK or CTS. */
static void vlc_mac_wait_start(struct vlc_mac *mac, u8 resp)
{
	mac->tx.state = resp == VLC_MAC_T_CTS ? VLC_MAC_TX_WAIT_CTS :
			VLC_MAC_TX_WAIT_ACK;
	mac->resp.wait = 0;
	mac->resp.wait_busy = false;
}

/* The response awaited in the state we are in: ACK, CTS or 0 (none). */
static u8 vlc_mac_awaited(const struct vlc_mac *mac)
{
	if (mac->tx.state == VLC_MAC_TX_WAIT_ACK)
		return VLC_MAC_T_ACK;
	if (mac->tx.state == VLC_MAC_TX_WAIT_CTS)
		return VLC_MAC_T_CTS;
	return 0;
}

static void vlc_mac_emit_done(struct vlc_mac *mac)
{
	u8 type = mac->tx.emitting;

	mac->tx.emitting = 0;
	if (type == VLC_MAC_T_RTS) {
		vlc_mac_wait_start(mac, VLC_MAC_T_CTS);
		return;
	}
	if (type != VLC_MAC_T_DATA)
		return;
	if (mac->tx.group) {
		vlc_mac_frag_done(mac);
		return;
	}
	vlc_mac_wait_start(mac, VLC_MAC_T_ACK);
}

static bool vlc_mac_rx_busy(const struct vlc_mac *mac)
{
	return mac->rx.state == VLC_MAC_RX_HUNT ||
	       mac->rx.state == VLC_MAC_RX_FRAME;
}

/* Draw when the next acquisition beacon is due: in [ivl, 2 ivl) frames
 * after our last emission, so that two acquiring nodes drift apart.
 */
static void vlc_mac_acq_draw(struct vlc_mac *mac, u16 ivl)
{
	mac->bcn.acq_ivl = ivl;
	mac->bcn.acq_due = ivl + vlc_mac_random_below(mac, ivl);
}

/* The PHY lost its lock or never had one: until it locks, beacon after
 * VLC_MAC_ACQ_IVL idle frames, doubling up to beacon_interval. Two idle
 * nodes whose grids start aligned (or about half a frame apart) see
 * nothing of each other but lit data slots, and a beacon every
 * beacon_interval would keep them apart for that long.
 */
static void vlc_mac_acq_start(struct vlc_mac *mac)
{
	mac->sync.acq_moved = 0;
	if (mac->p.beacon_interval > VLC_MAC_ACQ_IVL)
		vlc_mac_acq_draw(mac, VLC_MAC_ACQ_IVL);
}

/* Locked. On a neighbour's frame (the medium was busy): that neighbour
 * may still be acquiring and see nothing of us but lit data slots, so
 * one hello beacon soon. Then only the beacon_interval ones: a beacon
 * blinds us while it lasts, and the resync loop needs to hear.
 */
static void vlc_mac_acq_locked(struct vlc_mac *mac)
{
	if (!mac->bcn.acq_ivl)
		return;
	if (mac->idle_run >= mac->p.difs) {
		mac->bcn.acq_ivl = 0;
		return;
	}
	mac->bcn.acq_ivl = mac->p.beacon_interval;
	mac->bcn.acq_due = min_t(u32, mac->bcn.since_emit,
				 U16_MAX - VLC_MAC_ACQ_HELLO) +
			   vlc_mac_random_below(mac, VLC_MAC_ACQ_HELLO);
}

/* An acquisition or hello beacon, if one is due: after DIFS on a free
 * medium, without a backoff (its due time is random already).
 */
static bool vlc_mac_acq_beacon(struct vlc_mac *mac)
{
	u32 ivl = mac->bcn.acq_ivl;

	if (!ivl || mac->bcn.since_emit < mac->bcn.acq_due ||
	    mac->idle_run < mac->p.difs || vlc_mac_rx_busy(mac))
		return false;
	ivl *= 2;
	if (ivl >= mac->p.beacon_interval)
		mac->bcn.acq_ivl = 0;
	else
		vlc_mac_acq_draw(mac, ivl);
	vlc_mac_build_beacon(mac);
	return true;
}

/* Decide whether a frame starts now; false means stay idle. */
static bool vlc_mac_tx_start(struct vlc_mac *mac)
{
	if (mac->resp.type) {
		/* ACK and CTS owe nothing to carrier sense: SIFS and go. */
		if (mac->resp.delay) {
			mac->resp.delay--;
			return false;
		}
		vlc_mac_build_resp(mac);
		return true;
	}
	switch (mac->tx.state) {
	case VLC_MAC_TX_CONTEND:
		/* While our PHY is still acquiring, nobody can decode us
		 * and we cannot hear whether the medium is free: hold data
		 * (beacons still go, so that neighbours find us).
		 */
		if (mac->sync.acquiring && vlc_mac_acq_beacon(mac))
			return true;
		if (mac->idle_run < mac->p.difs || mac->tx.backoff ||
		    vlc_mac_rx_busy(mac) || mac->sync.acquiring)
			return false;
		if (vlc_mac_loc_due(mac) && !mac->bcn.loc_turn) {
			/* The location beacon takes this turn; the packet
			 * follows DIFS later without a new backoff. Once per
			 * fragment, so that short intervals cannot starve it.
			 */
			mac->bcn.loc_turn = true;
			vlc_mac_build_beacon(mac);
			return true;
		}
		if (mac->tx.rts) {
			vlc_mac_build_rts(mac);
			return true;
		}
		break;
	case VLC_MAC_TX_BURST:
		if (mac->tx.burst_wait) {
			mac->tx.burst_wait--;
			return false;
		}
		if (vlc_mac_loc_due(mac) && !mac->bcn.loc_turn) {
			/* Between two fragments of ours, on a medium we
			 * hold; the next fragment follows SIFS later.
			 */
			mac->bcn.loc_turn = true;
			mac->tx.burst_wait = mac->p.sifs;
			vlc_mac_build_beacon(mac);
			return true;
		}
		break;
	case VLC_MAC_TX_IDLE:
		if (vlc_mac_acq_beacon(mac))
			return true;
		if ((!mac->p.beacon_interval ||
		     mac->bcn.since_emit < mac->p.beacon_interval) &&
		    !vlc_mac_loc_due(mac))
			return false;
		/* Contend like data, so beacons of many nodes spread out. */
		if (!mac->bcn.armed) {
			mac->bcn.armed = true;
			vlc_mac_draw_backoff(mac);
		}
		if (mac->idle_run < mac->p.difs || mac->tx.backoff ||
		    vlc_mac_rx_busy(mac))
			return false;
		vlc_mac_build_beacon(mac);
		return true;
	default:
		return false;
	}
	vlc_mac_build_data(mac);
	return true;
}

/**
 * vlc_mac_tx_symbol - the symbol to send in the frame that starts now
 * @mac: the MAC
 *
 * Called once per PHY frame, before vlc_mac_rx_frame() of that frame.
 * Return: a data value 0..(1 << bits_per_symbol) - 1, or VLC_SYM_IDLE.
 */
int vlc_mac_tx_symbol(struct vlc_mac *mac)
{
	struct vlc_mac_emit *e = &mac->tx.emit;
	unsigned int i, bit;
	int sym;

	mac->tx.this_frame = false;
	if (e->sym >= e->nsyms && !vlc_mac_tx_start(mac)) {
		if (mac->bcn.since_emit < U16_MAX)
			mac->bcn.since_emit++;
		return VLC_SYM_IDLE;
	}
	mac->bcn.since_emit = 0;

	i = e->sym++;
	if (i < e->pre) {
		sym = i & ((1 << e->bits) - 1);
	} else {
		bit = (i - e->pre) * e->bits;
		sym = (e->buf[bit >> 3] >> (8 - e->bits - (bit & 7))) &
		      ((1 << e->bits) - 1);
	}
	mac->tx.this_frame = true;
	if (e->sym >= e->nsyms)
		vlc_mac_emit_done(mac);
	return sym;
}

static void vlc_mac_send_ack(struct vlc_mac *mac, u8 dst, u8 sf)
{
	mac->resp.type = VLC_MAC_T_ACK;
	mac->resp.delay = mac->p.sifs;
	mac->resp.dst = dst;
	mac->resp.sf = sf;
}

/* An RTS or CTS between others: stay silent for what it announced. */
static void vlc_mac_nav_update(struct vlc_mac *mac, unsigned int dur)
{
	u8 why = VLC_MAC_NAV_SET;

	if (dur > mac->nav.max) {
		mac->stats.nav_clamped++;
		dur = mac->nav.max;
		why = VLC_MAC_NAV_CLAMPED;
	}
	if (dur > mac->nav.frames) {
		mac->nav.frames = dur;
		mac->stats.nav_set++;
		vlc_mac_ev_value(mac, VLC_MAC_EV_NAV, why, dur, 0);
	}
}

static void vlc_mac_rx_rts(struct vlc_mac *mac, const struct vlc_mac_hdr *h)
{
	unsigned int dst = h->dst, tx = h->tx, dur = h->dur, cts;

	mac->stats.rx_rts++;
	if (tx == VLC_MAC_BCAST || dst == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return;
	}
	if (dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		vlc_mac_nav_update(mac, dur);
		/* The sender may not get its CTS: if nothing starts by the
		 * time its DATA would, the reservation is void.
		 */
		mac->nav.probe = 2 * mac->p.sifs + VLC_MAC_ACK_SLACK +
			vlc_mac_frame_symbols(&mac->p, VLC_MAC_CTS_LEN);
		return;
	}
	/* Answer only while nobody else holds the medium for us to hear. */
	if (mac->nav.frames || mac->resp.type)
		return;
	cts = mac->p.sifs + vlc_mac_frame_symbols(&mac->p, VLC_MAC_CTS_LEN);
	mac->resp.type = VLC_MAC_T_CTS;
	mac->resp.delay = mac->p.sifs;
	mac->resp.dst = tx;
	mac->resp.dur = dur > cts ? min(dur - cts, mac->nav.max) : 0;
}

static void vlc_mac_rx_cts(struct vlc_mac *mac, const struct vlc_mac_hdr *h)
{
	unsigned int dst = h->dst, tx = h->tx, dur = h->dur;

	mac->stats.rx_cts++;
	if (tx == VLC_MAC_BCAST || dst == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return;
	}
	if (dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		vlc_mac_nav_update(mac, dur);
		mac->nav.probe = 0;	/* the exchange is on */
		return;
	}
	if (vlc_mac_awaited(mac) != VLC_MAC_T_CTS || tx != mac->tx.dst) {
		mac->stats.rx_unexpected_ack++;
		return;
	}
	/* The medium is ours: the fragment follows SIFS after the CTS. */
	mac->tx.rts_retries = 0;
	mac->tx.burst_wait = mac->p.sifs;
	mac->tx.state = VLC_MAC_TX_BURST;
}

/* Remember who sent a beacon, how bright, and when. */
static void vlc_mac_rx_beacon(struct vlc_mac *mac, u8 tx)
{
	struct vlc_mac_beacon *e = NULL, *old = &mac->bcn.heard[0];
	unsigned int i;

	mac->stats.rx_beacons++;
	if (tx == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return;
	}
	for (i = 0; i < VLC_MAC_BEACONS_MAX; i++) {
		if (mac->bcn.heard[i].used && mac->bcn.heard[i].id == tx) {
			e = &mac->bcn.heard[i];
			break;
		}
		/* else a free entry, or the one heard least recently */
		if (old->used && (!mac->bcn.heard[i].used ||
				  mac->now - mac->bcn.heard[i].last >
				  mac->now - old->last))
			old = &mac->bcn.heard[i];
	}
	if (!e) {
		e = old;
		e->used = true;
		e->id = tx;
		e->count = 0;
	}
	if (e->count < U16_MAX)
		e->count++;
	e->level = mac->rx.signal;
	e->last = mac->now;
}

/**
 * vlc_mac_beacons - the neighbours heard by their beacons
 * @mac: the MAC
 * @out: filled with up to @max entries; @last holds the age instead, in
 *	frames since that neighbour's last beacon ended
 * @max: room in @out
 *
 * Return: the number of entries written.
 */
unsigned int vlc_mac_beacons(const struct vlc_mac *mac,
			     struct vlc_mac_beacon *out, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < VLC_MAC_BEACONS_MAX && n < max; i++) {
		if (!mac->bcn.heard[i].used)
			continue;
		out[n] = mac->bcn.heard[i];
		out[n].last = mac->now - mac->bcn.heard[i].last;
		n++;
	}
	return n;
}

static void vlc_mac_rx_ack(struct vlc_mac *mac, const struct vlc_mac_hdr *h)
{
	u8 dst = h->dst, tx = h->tx, sf = h->sf;

	if (dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		return;
	}
	if (vlc_mac_awaited(mac) != VLC_MAC_T_ACK || tx != mac->tx.dst ||
	    sf != (mac->tx.seq << VLC_MAC_SEQ_SHIFT | mac->tx.frag)) {
		mac->stats.rx_unexpected_ack++;
		return;
	}
	mac->stats.tx_acked++;
	/* Through at the first attempt: try a longer next fragment. */
	if (!mac->tx.retries)
		mac->tx.frag_len = min_t(u16, mac->tx.frag_len +
					 VLC_MAC_FRAG_STEP, mac->p.frag_size);
	vlc_mac_frag_done(mac);
}

static struct vlc_mac_reasm *vlc_mac_reasm_find(struct vlc_mac *mac, u8 tx,
						bool group)
{
	struct vlc_mac_reasm *r;
	unsigned int i;

	for (i = 0; i < VLC_MAC_RX_SOURCES; i++) {
		r = &mac->rx.reasm[i];
		if (!r->used || r->tx != tx || r->group != group)
			continue;
		if (mac->idle_clock - r->mark > mac->rx.lifetime) {
			if (!r->complete)
				mac->stats.rx_incomplete++;
			r->used = false;
			return NULL;
		}
		return r;
	}
	return NULL;
}

/* A free entry, or the least recently used one. */
static struct vlc_mac_reasm *vlc_mac_reasm_get(struct vlc_mac *mac)
{
	struct vlc_mac_reasm *r, *old = &mac->rx.reasm[0];
	unsigned int i;

	for (i = 0; i < VLC_MAC_RX_SOURCES; i++) {
		r = &mac->rx.reasm[i];
		if (!r->used)
			return r;
		if (mac->now - r->last > mac->now - old->last)
			old = r;
	}
	if (!old->complete)
		mac->stats.rx_incomplete++;
	return old;
}

static void vlc_mac_deliver(struct vlc_mac *mac, struct vlc_mac_reasm *r)
{
	unsigned int et = (r->hdr0 & VLC_MAC_H_ET_MASK) >> VLC_MAC_H_ET_SHIFT;
	unsigned int base = VLC_MAC_ETH_HLEN;
	u8 *f = r->frame;

	if (et == VLC_MAC_ET_FULL) {
		/* the ethertype and at least one byte, as vlc_mac_xmit()
		 * sends: nothing shorter than 15 bytes reaches the stack
		 */
		if (r->len <= 2) {
			mac->stats.rx_bad_header++;
			r->used = false;
			return;
		}
		base -= 2;
	} else {
		f[12] = vlc_mac_ethertype[et] >> 8;
		f[13] = vlc_mac_ethertype[et] & 0xff;
	}
	if (r->hdr0 & VLC_MAC_H_DFULL)
		memcpy(f, r->addr, VLC_MAC_ALEN);
	else
		vlc_mac_long_addr(f, r->group ? VLC_MAC_BCAST :
				  mac->p.short_addr);
	if (r->hdr0 & VLC_MAC_H_SFULL)
		memcpy(f + VLC_MAC_ALEN, r->addr + VLC_MAC_ALEN, VLC_MAC_ALEN);
	else
		vlc_mac_long_addr(f + VLC_MAC_ALEN, r->tx);
	r->complete = true;
	mac->stats.rx_delivered++;
	if (mac->ops && mac->ops->deliver)
		mac->ops->deliver(mac->ctx, f, base + r->len);
}

/* The reassembly that DATA header @h (byte 0 @h0) continues or starts;
 * NULL if the fragment is not taken: a duplicate (acknowledged again),
 * out of order, an orphan, or not of the same packet.
 */
static struct vlc_mac_reasm *vlc_mac_reasm_match(struct vlc_mac *mac,
						 const struct vlc_mac_hdr *h,
						 u8 h0, bool group)
{
	unsigned int seq = h->sf >> VLC_MAC_SEQ_SHIFT;
	unsigned int frag = h->sf & VLC_MAC_FRAG_MASK;
	struct vlc_mac_reasm *r;

	r = vlc_mac_reasm_find(mac, h->tx, group);
	if (r && r->seq == seq) {
		if (frag < r->next_frag) {
			/* Our ACK was lost: ACK again, deliver nothing. */
			mac->stats.rx_dup++;
			r->last = mac->now;
			r->mark = mac->idle_clock;
			if (!group)
				vlc_mac_send_ack(mac, h->tx, h->sf);
			return NULL;
		}
		if (frag > r->next_frag || r->complete) {
			mac->stats.rx_out_of_order++;
			return NULL;
		}
		/* Every fragment must describe the same packet. */
		if ((h0 ^ r->hdr0) & ~VLC_MAC_H_LAST ||
		    (h->dfull && memcmp(h->dfull, r->addr, VLC_MAC_ALEN)) ||
		    (h->sfull && memcmp(h->sfull, r->addr + VLC_MAC_ALEN,
					VLC_MAC_ALEN))) {
			mac->stats.rx_bad_header++;
			return NULL;
		}
		return r;
	}
	if (frag) {
		mac->stats.rx_orphan++;
		return NULL;
	}
	if (r) {
		if (!r->complete)
			mac->stats.rx_incomplete++;
	} else {
		r = vlc_mac_reasm_get(mac);
	}
	r->used = true;
	r->group = group;
	r->complete = false;
	r->tx = h->tx;
	r->seq = seq;
	r->next_frag = 0;
	r->hdr0 = h0;
	r->len = 0;
	if (h->dfull)
		memcpy(r->addr, h->dfull, VLC_MAC_ALEN);
	if (h->sfull)
		memcpy(r->addr + VLC_MAC_ALEN, h->sfull, VLC_MAC_ALEN);
	return r;
}

/* A DATA frame with a good CRC: header @h of @b, @n bytes from the
 * header on.
 */
static void vlc_mac_rx_data(struct vlc_mac *mac, const struct vlc_mac_hdr *h,
			    const u8 *b, unsigned int n)
{
	const u8 *payload = b + h->hlen;
	struct vlc_mac_reasm *r;
	unsigned int len = h->len, base;
	u8 h0 = b[0], dst = h->dst, tx = h->tx, sf = h->sf;
	bool group = dst == VLC_MAC_BCAST;

	if (h->flen != n || tx == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return;
	}
	if (!group && dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		return;
	}
	r = vlc_mac_reasm_match(mac, h, h0, group);
	if (!r)
		return;

	base = ((h0 & VLC_MAC_H_ET_MASK) >> VLC_MAC_H_ET_SHIFT) ==
	       VLC_MAC_ET_FULL ? VLC_MAC_ETH_HLEN - 2 : VLC_MAC_ETH_HLEN;
	if (r->len + len > VLC_MAC_FRAME_MAX - base) {
		mac->stats.rx_too_long++;
		r->used = false;
		return;
	}
	memcpy(r->frame + base + r->len, payload, len);
	r->len += len;
	r->next_frag++;
	r->last = mac->now;
	r->mark = mac->idle_clock;
	if (!group)
		vlc_mac_send_ack(mac, tx, sf);
	if (h0 & VLC_MAC_H_LAST)
		vlc_mac_deliver(mac, r);
}

static void vlc_mac_rx_complete(struct vlc_mac *mac)
{
	const u8 *b = mac->rx.buf;
	unsigned int n = mac->rx.pos;
	struct vlc_mac_hdr h;

	if (crc_ccitt(0xffff, b, n) != VLC_MAC_CRC_GOOD) {
		mac->stats.rx_crc_errors++;
		if (mac->rx.hard)
			mac->stats.rx_hard_crc_errors++;
		vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_CRC, 0, b, n,
				 n + 1);
		return;
	}
	mac->stats.rx_frames_ok++;
	if (mac->rx.hard)
		mac->stats.rx_hard_frames_ok++;
	vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_OK, 0, b, n, n + 1);
	vlc_mac_hdr_parse(b, n, &h);
	switch (h.type) {
	case VLC_MAC_T_ACK:
		vlc_mac_rx_ack(mac, &h);
		break;
	case VLC_MAC_T_BEACON:
		vlc_mac_rx_beacon(mac, h.tx);
		break;
	case VLC_MAC_T_RTS:
		vlc_mac_rx_rts(mac, &h);
		break;
	case VLC_MAC_T_CTS:
		vlc_mac_rx_cts(mac, &h);
		break;
	default:
		vlc_mac_rx_data(mac, &h, b, n);
	}
}

/* rx.pos bytes are in: learn how many more the frame has from what is
 * known so far, or finish it. Nothing here trusts a length it has not
 * bounded.
 */
static void vlc_mac_rx_advance(struct vlc_mac *mac)
{
	struct vlc_mac_hdr h;

	vlc_mac_hdr_parse(mac->rx.buf, mac->rx.pos, &h);
	if (mac->rx.pos == 1) {
		if (!h.hlen)
			goto bad;
		/* DATA: its len byte first */
		mac->rx.need = h.flen ? h.flen : h.hlen;
		return;
	}
	if (h.type == VLC_MAC_T_DATA && mac->rx.pos == h.hlen) {
		if (!h.flen || h.flen > sizeof(mac->rx.buf))
			goto bad;
		mac->rx.need = h.flen;
		return;
	}
	mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
	vlc_mac_rx_complete(mac);
	return;
bad:
	mac->stats.rx_bad_header++;
	vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_BAD_HEADER, 0,
			 mac->rx.buf, mac->rx.pos, mac->rx.pos + 1);
	mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
}

/* The PHY's hard decision @hard (-1: none) stands for an erasure, or
 * inside a frame for a dark frame: a symbol is due there, and the CRC
 * catches what the hard decision gets wrong.
 */
static int vlc_mac_rx_hard(struct vlc_mac *mac, int hard)
{
	mac->stats.rx_hard_symbols++;
	mac->rx.hard = true;
	return hard;
}

static void vlc_mac_rx_symbol(struct vlc_mac *mac, int sym, int hard,
			      unsigned int bits)
{
	switch (mac->rx.state) {
	case VLC_MAC_RX_WAIT_IDLE:
		if (sym == VLC_SYM_IDLE)
			mac->rx.state = VLC_MAC_RX_IDLE;
		return;
	case VLC_MAC_RX_IDLE:
		if (sym == VLC_SYM_IDLE)
			return;
		/* An erasure may be a preamble still settling: hunt too. */
		mac->rx.state = VLC_MAC_RX_HUNT;
		mac->rx.reg = sym < 0 ? 0 : sym;
		mac->rx.nbits = sym < 0 ? 0 : bits;
		mac->rx.hunt = 1;
		return;
	case VLC_MAC_RX_HUNT:
		if (sym == VLC_SYM_IDLE) {
			mac->stats.rx_no_delimiter++;
			vlc_mac_ev_frame(mac, VLC_MAC_EV_RX,
					 VLC_MAC_RX_NO_DELIMITER, 0, NULL, 0, 0);
			mac->rx.state = VLC_MAC_RX_IDLE;
			return;
		}
		if (++mac->rx.hunt > VLC_MAC_HUNT_MAX) {
			mac->stats.rx_no_delimiter++;
			vlc_mac_ev_frame(mac, VLC_MAC_EV_RX,
					 VLC_MAC_RX_NO_DELIMITER, 0, NULL, 0, 0);
			mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
			return;
		}
		if (sym < 0 && hard >= 0) {
			/* Lit: the preamble or the SFD. The SFD is 3 bits
			 * or more from every preamble window, so a wrong hard
			 * decision or two cannot fake it.
			 */
			sym = vlc_mac_rx_hard(mac, hard);
		} else if (sym < 0) {
			/* The level estimate may still settle: start over. */
			mac->rx.nbits = 0;
			return;
		}
		mac->rx.reg = (mac->rx.reg << bits) | sym;
		if (mac->rx.nbits < 8)
			mac->rx.nbits += bits;
		if (mac->rx.nbits >= 8 && (mac->rx.reg & 0xff) == VLC_MAC_SFD) {
			mac->rx.state = VLC_MAC_RX_FRAME;
			mac->rx.pos = 0;
			mac->rx.need = 1;
			mac->rx.bits = 0;
			mac->rx.byte = 0;
			mac->rx.dark = 0;
			mac->rx.hard = false;
		}
		return;
	case VLC_MAC_RX_FRAME:
		/* A symbol is due: take the hard decision for a dark frame
		 * too, unless VLC_MAC_RX_DARK_END come in a row (the sender
		 * stopped, or the length read was wrong). The length is only
		 * bounded, not trusted: a wrong one costs the CRC.
		 */
		if (sym != VLC_SYM_IDLE)
			mac->rx.dark = 0;
		if (sym == VLC_SYM_IDLE && hard >= 0 &&
		    ++mac->rx.dark < VLC_MAC_RX_DARK_END) {
			sym = vlc_mac_rx_hard(mac, hard);
		} else if (sym == VLC_SYM_IDLE) {
			mac->stats.rx_truncated++;
			vlc_mac_ev_frame(mac, VLC_MAC_EV_RX,
					 VLC_MAC_RX_TRUNCATED, 0, mac->rx.buf,
					 mac->rx.pos, mac->rx.pos + 1);
			mac->rx.state = VLC_MAC_RX_IDLE;
			return;
		}
		if (sym < 0 && hard >= 0) {
			sym = vlc_mac_rx_hard(mac, hard);
		} else if (sym < 0) {
			mac->stats.rx_erasure_aborts++;
			vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_ERASURE,
					 0, mac->rx.buf, mac->rx.pos,
					 mac->rx.pos + 1);
			mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
			return;
		}
		mac->rx.byte = (mac->rx.byte << bits) | sym;
		mac->rx.bits += bits;
		if (mac->rx.bits < 8)
			return;
		mac->rx.buf[mac->rx.pos++] = mac->rx.byte;
		mac->rx.bits = 0;
		mac->rx.byte = 0;
		if (mac->rx.pos >= mac->rx.need)
			vlc_mac_rx_advance(mac);
		return;
	}
}

/* Resync: every node runs the same phase and rate (PI) loop on what it
 * sees, and follows the sum of its neighbours; nobody leads. The PHY
 * reports where the neighbours' frames sit in ours (their light in our
 * S1 or S2), positive when late; several neighbours' light adds up, so
 * the report is the sum of their offsets, and IN (0) under its threshold.
 *
 * Phase: the mean over 16 frames that could carry a neighbour's light,
 * outside the dead band, moves our grid by a quarter of it (not a half:
 * with n neighbours on one side the sum is n times the mean offset, and
 * the loop stays stable up to n = 7).
 *
 * Rate: the same mean adds mean / 2048 ns per frame to our rate for the
 * first 255 windows after an acquisition (about 2 s), mean / 8192 after
 * that; the rate
 * moves our grid while locked, our own transmissions included, in steps
 * of 1 us (under what the PHY sees, and a move every few frames rather
 * than every frame in a trace) or with the next correction. It learns
 * our skew against the others: no standing offset (a phase-only loop
 * keeps skew * 16 frames / gain), and no drift while we send a long
 * frame blind. The network's common rate is seen by nobody; the rate
 * leaks 1/4096 every 16 windows so that it stays near the clocks' mean.
 *
 * One node following a fixed one: poles at 0.79 and 0.96 per window, no
 * overshoot; the rate is learnt with a time constant of 27 windows (0.2 s
 * at the default timing). Then the gain drops by 4: with three or more
 * nodes the reports under traffic are noisy (a sender's light and the
 * idle nodes' change places in the sum), and the fast rate walks with
 * them, the sender's grid with it while it sends blind: in a host model
 * of five nodes, one saturating, half the goodput was lost to erasures.
 * Acquisition (coarse) reports are applied at
 * once, by half, so that two acquiring nodes meet in the middle; but
 * when a report is what the previous one said minus our move for it, the
 * neighbour stood still (it is locked, perhaps on a wrong grid that it
 * will leave once we are near), and the whole of it goes (see
 * vlc_mac_acq_step()); so does the first large fine offset after the
 * lock when it is the half we left. Limits and measurements:
 * Documentation/networking/vlc.rst, "Resynchronisation".
 */
static s64 vlc_mac_sshr(s64 v, unsigned int shift)
{
	/* on the magnitude: no signed shift, rounds toward zero */
	u64 mag = v < 0 ? -(u64)v : (u64)v;

	mag >>= shift;
	return v < 0 ? -(s64)mag : (s64)mag;
}

/* An offset of @off ns is what the last acquisition report said less
 * our move for it: the neighbour did not move since.
 */
static bool vlc_mac_acq_still(const struct vlc_mac *mac, s32 off)
{
	s64 err = (s64)off - ((s64)mac->sync.acq_off - mac->sync.acq_moved);
	s64 mag = off < 0 ? -(s64)off : off;

	if (err < 0)
		err = -err;
	return mac->sync.acq_moved &&
	       err <= max_t(s64, VLC_MAC_ACQ_STILL_NS, mag / 8);
}

/* The move for an acquisition report of @off ns: half of it, or all of
 * it when the neighbour did not move since the last one, since halving
 * toward a neighbour that stands still takes several reports and leaves
 * the rest to the slow fine loop (vlc-benchmarks.rst, "Synchronisation").
 */
static s32 vlc_mac_acq_step(struct vlc_mac *mac, s32 off)
{
	s32 step = vlc_mac_acq_still(mac, off) ? off : off / 2;

	mac->sync.acq_off = off;
	mac->sync.acq_moved = step;
	return step;
}

static void vlc_mac_phase(struct vlc_mac *mac, s64 ns)
{
	if (!ns)
		return;
	mac->stats.phase_corrections++;
	if (mac->ops && mac->ops->phase)
		mac->ops->phase(mac->ctx, (s32)ns);
}

/* @heard: the frame could carry a neighbour's light (we did not emit).
 * At most one move per frame: the rate's share plus any correction.
 * Acquisition reports count even in a frame we lit: the search leaves
 * our own data slot out, and while the PHY acquires we start nothing
 * but beacons, whose 48 frames (2-slot) would otherwise keep two nodes
 * that beacon at once from moving toward each other for that long.
 */
static void vlc_mac_resync(struct vlc_mac *mac, const struct vlc_phy_rx *rx,
			   bool heard)
{
	s64 mean, move, mag;
	unsigned int ki;

	if (rx->acquiring) {
		if (!rx->coarse)
			return;
		mac->sync.sum = 0;
		mac->sync.n = 0;
		mac->sync.settle = 0;
		vlc_mac_phase(mac, vlc_mac_acq_step(mac, rx->offset_ns));
		return;
	}
	/* the rate moves the grid in steps of about VLC_MAC_SYNC_STEP_NS */
	mac->sync.frac += mac->sync.rate;
	/* The PHY locks within sync_ns of the neighbour, and the report
	 * that locked it moved us half of that. If the first large fine
	 * offset after the lock is the other half, the neighbour stood
	 * still (locked already, or sending a beacon): move it all now
	 * rather than a quarter every 16 frames. The prediction vouches
	 * for the estimate even in a frame we lit (S1 and S2, where the
	 * PHY sees the offset, are dark in our frames too); the rate's
	 * share waits for the next frame.
	 */
	if (mac->sync.acq_moved && rx->coarse) {
		bool still = vlc_mac_acq_still(mac, rx->offset_ns);

		mac->sync.acq_moved = 0;
		if (still) {
			mac->sync.sum = 0;
			mac->sync.n = 0;
			vlc_mac_phase(mac, rx->offset_ns);
			return;
		}
	}
	move = vlc_mac_sshr(mac->sync.frac, VLC_MAC_SYNC_FRAC);
	if (move >= VLC_MAC_SYNC_STEP_NS || move <= -VLC_MAC_SYNC_STEP_NS)
		mac->sync.frac -= move * (1 << VLC_MAC_SYNC_FRAC);
	else
		move = 0;
	/* Idle frames count: an idle neighbour's illumination spilling into
	 * S1/S2 is the only sync signal between idle nodes.
	 */
	if (!heard || rx->sync == VLC_PHY_SYNC_NONE)
		goto out;
	mac->sync.sum += rx->offset_ns;
	if (++mac->sync.n < 1 << VLC_MAC_SYNC_SHIFT)
		goto out;
	mean = vlc_mac_sshr(mac->sync.sum, VLC_MAC_SYNC_SHIFT);
	mac->sync.sum = 0;
	mac->sync.n = 0;
	mac->sync.acq_moved = 0;
	if (mac->sync.settle < VLC_MAC_SYNC_KI_SETTLE)
		mac->sync.settle++;
	if (!(++mac->sync.windows & (VLC_MAC_SYNC_LEAK_EVERY - 1)))
		mac->sync.rate -= vlc_mac_sshr(mac->sync.rate,
					       VLC_MAC_SYNC_LEAK_SHIFT);
	mag = mean < 0 ? -mean : mean;
	if (mag <= mac->p.sync_deadband_ns || mag < 2)
		goto out;
	ki = mac->sync.settle < VLC_MAC_SYNC_KI_SETTLE ?
	     VLC_MAC_SYNC_KI_SHIFT : VLC_MAC_SYNC_KI_TRACK;
	mac->sync.rate = clamp_t(s64, mac->sync.rate + vlc_mac_sshr(mean, ki),
				 -VLC_MAC_SYNC_RATE_MAX, VLC_MAC_SYNC_RATE_MAX);
	/* with a correction, whatever the rate gathered goes too */
	if (!move) {
		move = vlc_mac_sshr(mac->sync.frac, VLC_MAC_SYNC_FRAC);
		mac->sync.frac -= move * (1 << VLC_MAC_SYNC_FRAC);
	}
	move += vlc_mac_sshr(mean, VLC_MAC_SYNC_KP_SHIFT);
out:
	/* A locked PHY's coarse report is a sample like the others (acting
	 * on it at once, by half, would restart the window and starve the
	 * rate while the skew is large); the frame's move waits for the
	 * next, so that a move in a frame reported coarse is always half
	 * or all of its offset, as vlc_phase traces show.
	 */
	if (rx->coarse) {
		mac->sync.frac += move * (1 << VLC_MAC_SYNC_FRAC);
		return;
	}
	vlc_mac_phase(mac, move);
}

/* An ACK (@type DATA) or a CTS (RTS) did not come: contend again from a
 * doubled window while *@tries is under retry_limit, else drop the
 * packet. Only DATA retries count as tx_retries.
 */
static void vlc_mac_retry(struct vlc_mac *mac, u8 type, u8 *tries)
{
	if (*tries < mac->p.retry_limit) {
		(*tries)++;
		if (type == VLC_MAC_T_DATA)
			mac->stats.tx_retries++;
		vlc_mac_ev_retry(mac, type, *tries, VLC_MAC_RETRY_AGAIN);
		vlc_mac_cw_double(mac);
		mac->tx.state = VLC_MAC_TX_CONTEND;
		vlc_mac_draw_backoff(mac);
	} else {
		mac->stats.tx_dropped++;
		vlc_mac_ev_retry(mac, type, *tries, VLC_MAC_RETRY_DROP);
		vlc_mac_complete(mac, false);
	}
}

/* One frame of waiting for the response @resp (ACK or CTS) to our DATA
 * or RTS; @busy: others kept the medium busy. A frame being received
 * may be the response: it may finish. On timeout the DATA or RTS is
 * sent again after a backoff from a doubled window, up to retry_limit
 * times. Hidden senders need the doubling: their RTS (72 frames) collide
 * at the receiver whenever they start less than 72 frames apart.
 */
static void vlc_mac_wait(struct vlc_mac *mac, u8 resp, bool busy)
{
	bool cts = resp == VLC_MAC_T_CTS;

	mac->resp.wait++;
	if (busy)
		mac->resp.wait_busy = true;
	if (mac->resp.wait <= (cts ? mac->resp.cts_timeout :
			       mac->resp.ack_timeout) ||
	    vlc_mac_rx_busy(mac))
		return;
	if (mac->resp.wait_busy)
		mac->stats.collisions++;
	if (cts) {
		/* the fragment's length is not to blame and stays */
		mac->stats.cts_timeouts++;
		vlc_mac_retry(mac, VLC_MAC_T_RTS, &mac->tx.rts_retries);
		return;
	}
	/* Fragments of this length get lost: halve the next new ones (this
	 * one is resent as it was).
	 */
	mac->tx.frag_len = max_t(u16, mac->tx.frag_len / 2, VLC_MAC_FRAG_MIN);
	vlc_mac_retry(mac, VLC_MAC_T_DATA, &mac->tx.retries);
}

/**
 * vlc_mac_rx_frame - what the PHY received in the frame that just ended
 * @mac: the MAC
 * @rx: the PHY's report (untrusted symbol values are checked)
 *
 * Called once per PHY frame, after vlc_mac_tx_symbol() of that frame.
 * May call ops->deliver, ops->tx_done and ops->phase.
 */
void vlc_mac_rx_frame(struct vlc_mac *mac, const struct vlc_phy_rx *rx)
{
	unsigned int bits = mac->p.bits_per_symbol;
	bool busy, own = mac->tx.this_frame;
	int sym = rx->sym, hard = -1;
	u8 resp;

	mac->now++;
	if (mac->bcn.since_loc < U16_MAX)
		mac->bcn.since_loc++;
	if (rx->acquiring && !mac->sync.acquiring)
		vlc_mac_acq_start(mac);
	else if (!rx->acquiring && mac->sync.acquiring)
		vlc_mac_acq_locked(mac);
	mac->sync.acquiring = rx->acquiring;
	if (mac->nav.frames)
		mac->nav.frames--;
	if (own || (rx->flags & VLC_PHY_RX_OWN_TX)) {
		/* Half duplex: we can only have seen our own light. */
		mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
		busy = true;
		vlc_mac_resync(mac, rx, false);
	} else {
		if (sym >= 0 && (rx->bits != bits || sym >= 1 << bits))
			sym = VLC_SYM_ERASURE;
		else if (sym < 0 && sym != VLC_SYM_IDLE)
			sym = VLC_SYM_ERASURE;
		if ((rx->flags & VLC_PHY_RX_HARD) && rx->bits == bits &&
		    rx->hard >= 0 && rx->hard < 1 << bits)
			hard = rx->hard;
		busy = rx->carrier || sym != VLC_SYM_IDLE;
		if (mac->nav.probe) {
			/* An overheard RTS: did its exchange start? */
			if (busy) {
				mac->nav.probe = 0;
			} else if (!--mac->nav.probe && mac->nav.frames) {
				mac->nav.frames = 0;
				mac->stats.nav_reset++;
				vlc_mac_ev_value(mac, VLC_MAC_EV_NAV,
						 VLC_MAC_NAV_RESET, 0, 0);
			}
		}
		vlc_mac_resync(mac, rx, true);
		mac->rx.signal = rx->signal;
		vlc_mac_rx_symbol(mac, sym, hard, bits);
		busy = busy || vlc_mac_rx_busy(mac);
	}
	mac->tx.this_frame = false;
	/* Virtual carrier sense: a reservation heard is as busy as light. */
	if (mac->nav.frames && !busy) {
		mac->stats.nav_frames++;
		busy = true;
	}

	/* DIFS of idle first, then the backoff counts down, idle only. */
	if (busy) {
		mac->idle_run = 0;
	} else if (mac->idle_run < mac->p.difs) {
		mac->idle_run++;
	} else {
		mac->idle_clock++;
		if ((mac->tx.state == VLC_MAC_TX_CONTEND ||
		     mac->bcn.armed) && mac->tx.backoff)
			mac->tx.backoff--;
	}

	resp = vlc_mac_awaited(mac);
	if (resp)
		vlc_mac_wait(mac, resp, busy && !own);
}
