// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core (MAC v1): framing, header compression, CRC, fragmentation,
 * CSMA/CA and stop-and-wait ARQ over a PHY that carries one symbol of 1
 * or 2 bits per frame. Documentation/networking/vlc.rst draws the same.
 * This file holds the parameters, the transmit queue, the events and the
 * header parser; vlc_mac_tx.c and vlc_mac_rx.c the rest,
 * vlc_mac_priv.h what they share, the frame clock among it.
 *
 * The on-air frame is described below (DOC: On-air frame), which
 * Documentation/networking/vlc.rst includes.
 */

/**
 * DOC: On-air frame
 *
 * Bytes go MSB first, 1 or 2 bits per symbol::
 *
 *   preamble  p symbols 0,1,0,1.. (2-slot) or 0,1,2,3,0.. (4-PPM), p = 8:
 *             lights every data slot so the receiver's level estimate
 *             settles; the receiver tolerates erasures and a missed start
 *             here, and 8 symbols leave 4+ even if the first ones are lost.
 *   SFD       0x97: Hamming distance >= 3 from every 8-bit window of any
 *             preamble prefix of either mode (checked exhaustively).
 *   header    byte 0: type[7:5] last[4] ethertype[3:2] dfull[1] sfull[0]
 *     DATA:   dst (1 or 6 with dfull), tx (1), src (6, sfull only),
 *             seq[7:5]|frag[4:0] (1), len (1, 1..240)
 *     ACK:    dst (1), tx (1), seq|frag (1) of the fragment; bits 4:0 of
 *             byte 0 are zero (reserved, like types 0, 6 and 7)
 *     RTS:    dst (1), tx (1), duration (2, most significant first):
 *             frames from the end of the RTS to the end of the packet's
 *             last ACK; bits 4:0 of byte 0 zero
 *     CTS:    dst (1, the RTS's tx), tx (1), duration (2): what is left
 *             of the RTS's after the CTS
 *     BEACON: tx (1); bits 4:0 of byte 0 zero. Sent after beacon_interval
 *             frames without emitting, contending like DATA, so that idle
 *             neighbours keep their lock and carrier.
 *   payload   len bytes: the Ethernet payload, prefixed by the 2 bytes of
 *             the ethertype when it is not coded (ethertype 3)
 *   CRC       CRC-16/CCITT (X.25: init 0xffff, complemented, low byte
 *             first) over header and payload
 *   idle      the end of a frame is known from the header; at least one
 *             idle frame separates frames.
 *
 * Addresses of the form ``02:56:4c:43:00:XX`` ("VLC", locally
 * administered) travel as the one byte XX, all ones as 0xff; anything
 * else travels in full with dfull/sfull, so every frame is restored
 * byte-exact. "tx" is the sender's short address and the key of ARQ; the
 * Ethernet source costs nothing when it is the sender's own
 * ``02:56:4c:43:00:tx``. Ethertype 0 = IPv4, 1 = ARP, 2 = IPv6. Frames to
 * 0xff or to a full address (multicast, bridged hosts) are group frames:
 * sent once, never acknowledged (nobody knows who should answer, and
 * ARP/ND/IP recover a loss); everything else is unicast.
 */

/* Why the sizes, the contention window, RTS/CTS and the location beacons
 * are what they are: vlc.rst, "MAC".
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "vlc_mac_priv.h"

const u8 vlc_mac_prefix[5] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };

const u16 vlc_mac_ethertype[3] = {
	[VLC_MAC_ET_IPV4] = 0x0800,
	[VLC_MAC_ET_ARP] = 0x0806,
	[VLC_MAC_ET_IPV6] = 0x86dd,
};

static const struct vlc_mac_params vlc_mac_defaults = {
	.short_addr = 1,
	.bits_per_symbol = 1,
	.frag_size = 240,
	.retry_limit = 7,
	.cw_min = 32,
	.cw_max = 256,
	.difs = 4,
	.sifs = 2,
	.ack_timeout = 0,	/* derived from the others */
	.preamble = 8,
	.sync_deadband_ns = 2000,
	.beacon_interval = 1000,
	.loc_interval = 0,
	.rts_threshold = VLC_MAC_RTS_DEFAULT,
	.fec = VLC_MAC_FEC_OFF,
};

void vlc_mac_default_params(struct vlc_mac_params *p)
{
	*p = vlc_mac_defaults;
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

/**
 * vlc_mac_hold_max - the most frames one packet may keep the MAC's queue
 * @mac: the MAC
 *
 * Every attempt of the longest exchange the protocol allows (what a NAV
 * is clamped to), each after the longest contention. An owner's
 * transmit watchdog waits longer than this before it calls the medium
 * jammed.
 */
u32 vlc_mac_hold_max(const struct vlc_mac *mac)
{
	return (mac->p.retry_limit + 1U) *
	       (mac->nav.max + mac->p.difs + mac->p.cw_max);
}

/* fec: off, auto, or the parity of a level a frame header can name */
static bool vlc_mac_fec_ok(u8 fec)
{
	return fec == VLC_MAC_FEC_OFF || fec == VLC_MAC_FEC_AUTO ||
	       vlc_mac_fec_fixed(fec);
}

int vlc_mac_check_params(const struct vlc_mac_params *p,
			 enum vlc_refusal *why)
{
	enum vlc_refusal r = VLC_REFUSE_NONE;

	if (p->short_addr == VLC_MAC_BCAST)
		r = VLC_REFUSE_SHORT_ADDR;
	else if (p->bits_per_symbol != 1 && p->bits_per_symbol != 2)
		r = VLC_REFUSE_BITS_PER_SYMBOL;
	else if (p->frag_size < VLC_MAC_FRAG_MIN ||
		 p->frag_size > VLC_MAC_FRAG_MAX)
		r = VLC_REFUSE_FRAG_SIZE;
	else if (p->retry_limit > 15)
		r = VLC_REFUSE_RETRY_LIMIT;
	else if (p->cw_max < 1 || p->cw_max > 1024)
		r = VLC_REFUSE_CW_MAX;
	else if (p->cw_min < 1 || p->cw_min > p->cw_max)
		r = VLC_REFUSE_CW_MIN;
	else if (p->sifs < 1 || p->sifs > 15)
		r = VLC_REFUSE_SIFS;
	else if (p->difs <= p->sifs || p->difs > 64)
		r = VLC_REFUSE_DIFS;
	else if (p->preamble < 2 || p->preamble > VLC_MAC_PREAMBLE_MAX)
		r = VLC_REFUSE_PREAMBLE;
	else if (p->ack_timeout &&
		 p->ack_timeout < p->sifs +
		 vlc_mac_frame_symbols(p, VLC_MAC_ACK_LEN))
		r = VLC_REFUSE_ACK_TIMEOUT_MIN;
	else if (p->ack_timeout > 4096)
		r = VLC_REFUSE_ACK_TIMEOUT_MAX;
	else if (p->sync_deadband_ns > 1000000)
		r = VLC_REFUSE_SYNC_DEADBAND;
	else if (p->beacon_interval && p->beacon_interval < 64)
		r = VLC_REFUSE_BEACON_INTERVAL;
	else if (p->loc_interval && p->loc_interval < 64)
		r = VLC_REFUSE_LOC_INTERVAL;
	else if (p->rts_threshold > VLC_MAC_FRAME_MAX)
		r = VLC_REFUSE_RTS_THRESHOLD;
	else if (p->max_age && p->max_age < 64)
		r = VLC_REFUSE_MAX_AGE;
	else if (!vlc_mac_fec_ok(p->fec))
		r = VLC_REFUSE_FEC;

	if (why)
		*why = r;
	return r ? -EINVAL : 0;
}

/* The addressed frames: DATA is variable, the others fixed. */
static void vlc_mac_hdr_data(const u8 *b, unsigned int n,
			     struct vlc_mac_hdr *h)
{
	unsigned int p = 1;

	h->et = (b[0] & VLC_MAC_H_ET_MASK) >> VLC_MAC_H_ET_SHIFT;
	h->last = b[0] & VLC_MAC_H_LAST;
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
 * and the RTS and each DATA fragment size a DATA header with it.
 */
void vlc_mac_hdr_parse(const u8 *b, unsigned int n, struct vlc_mac_hdr *h)
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
 * the others at most @frag, DATA coded at @level (0: plain) and the
 * short frames as vlc_mac_fec_level() codes them. For each: SIFS, DATA
 * (@hlen header bytes), SIFS, ACK; the CTS and the SIFS before it come
 * first. Fragments that grow on the way only make it shorter. No slack:
 * frames are counted, not timed, so a late callback costs a symbol, not
 * a frame; and a NAV that outlived the exchange would keep everybody
 * but the sender out of the next contention (the sender would capture
 * the medium).
 */
unsigned int vlc_mac_exchange(const struct vlc_mac_params *p,
			      unsigned int level, unsigned int hlen,
			      unsigned int rest, unsigned int first,
			      unsigned int frag)
{
	unsigned int ctl = min_t(unsigned int, level, VLC_MAC_FEC_CTL_LEVEL);
	unsigned int ack = p->sifs + vlc_mac_frame_symbols(p, 1 +
			   vlc_mac_fec_len(ctl, VLC_MAC_ACK_LEN - 1));
	unsigned int n = p->sifs + vlc_mac_frame_symbols(p, 1 +
			 vlc_mac_fec_len(ctl, VLC_MAC_CTS_LEN - 1));
	unsigned int f = first, i;

	for (i = 0; rest && i < VLC_MAC_FRAGS_MAX; i++) {
		f = min(f, rest);
		n += p->sifs + vlc_mac_frame_symbols(p, 1 +
			vlc_mac_fec_len(level, hlen + f + 2)) + ack;
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
			     vlc_mac_exchange(&worst, VLC_FEC_LEVELS - 1,
					      VLC_MAC_HDR_MAX,
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
 * vlc_mac_set_bits - the PHY's mode changes with the frame that starts now
 * @mac: the MAC
 * @bits: bits per symbol from this frame on
 *
 * Return: false while a frame of ours is on air: it ends in the symbols
 * it began with, and the PHY keeps its mode until then.
 */
bool vlc_mac_set_bits(struct vlc_mac *mac, unsigned int bits)
{
	struct vlc_mac_params p = mac->p;

	if (mac->tx.emit.sym < mac->tx.emit.nsyms)
		return false;
	if (p.bits_per_symbol != bits) {
		p.bits_per_symbol = bits;
		vlc_mac_set_params(mac, &p, NULL);
	}
	return true;
}

/**
 * vlc_mac_set_params - change parameters
 * @mac: the MAC
 * @p: new parameters
 * @why: set to the refusal, naming the bad field; or NULL
 *
 * A frame already on air finishes as it started. Return: 0, or -EINVAL
 * with the previous parameters kept.
 */
int vlc_mac_set_params(struct vlc_mac *mac, const struct vlc_mac_params *p,
		       enum vlc_refusal *why)
{
	int ret = vlc_mac_check_params(p, why);

	if (!ret)
		vlc_mac_apply_params(mac, p);
	return ret;
}

/**
 * vlc_mac_set_fec - the Reed-Solomon codecs the MAC encodes and decodes with
 * @mac: the MAC
 * @fec: codecs ready (vlc_fec_init()), or NULL: frames go out without
 *	parity whatever the fec setting, and coded frames are taken only
 *	when they arrive whole
 * @hdr: codecs ready that decode the coded headers, or NULL: a header
 *	that lost a symbol ends its frame. An owner that decodes bodies
 *	while the tick runs gives these codecs of their own: the tick
 *	decodes a header meanwhile, and one struct vlc_fec decodes one
 *	word at a time.
 * @defer: the owner runs the decode (vlc_mac_fec_pending() and on, in
 *	vlc_mac_fec.c); else the MAC decodes in the call that completed
 *	the frame
 *
 * Context: serialised by the caller as every call into the MAC, and
 * with no decode taken (vlc_mac_fec_begin()) and not ended; @fec and
 * @hdr stay valid until they are replaced.
 */
void vlc_mac_set_fec(struct vlc_mac *mac, struct vlc_fec *fec,
		     struct vlc_fec *hdr, bool defer)
{
	mac->fec = fec;
	mac->fec_hdr = hdr;
	mac->coding.defer = defer;
	mac->coding.dec.stage = VLC_MAC_DEC_IDLE;
}

/* A frame sent or received: its addresses from the header @h, of which
 * @n bytes are known; @len bytes from the delimiter on.
 */
void vlc_mac_ev_frame(struct vlc_mac *mac, u8 kind, u8 reason, u8 attempt,
		      const u8 *h, unsigned int n, unsigned int len)
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
void vlc_mac_ev_retry(struct vlc_mac *mac, u8 type, u8 attempt, u8 reason)
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

void vlc_mac_ev_value(struct vlc_mac *mac, u8 kind, u8 reason, u16 value,
		      u16 cw)
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

void vlc_mac_pktinfo(const struct vlc_mac *mac, const u8 *eth,
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
	pkt->born = mac->now;
	mac->tx.q_count++;
	if (mac->tx.state == VLC_MAC_TX_IDLE)
		vlc_mac_start_packet(mac);
	return 0;
}

/* The head packet leaves the queue. Return: its length. */
static unsigned int vlc_mac_txq_pop(struct vlc_mac *mac)
{
	unsigned int len = vlc_mac_txq_slot(mac, 0)->len;

	mac->tx.q_head = mac->tx.q_head + 1 < VLC_MAC_TXQ_LEN ?
			mac->tx.q_head + 1 : 0;
	mac->tx.q_count--;
	return len;
}

/**
 * vlc_mac_head_expired - the head packet is older than max_age
 * @mac: the MAC, with a packet queued
 */
bool vlc_mac_head_expired(struct vlc_mac *mac)
{
	return mac->p.max_age &&
	       mac->now - vlc_mac_txq_slot(mac, 0)->born > mac->p.max_age;
}

/* Drop the packets at the head that are older than max_age, counted:
 * whoever sent them has given up waiting. Return: whether one is left.
 */
static bool vlc_mac_expire(struct vlc_mac *mac)
{
	unsigned int len;

	while (mac->tx.q_count && vlc_mac_head_expired(mac)) {
		len = vlc_mac_txq_pop(mac);
		mac->stats.tx_expired++;
		if (mac->ops && mac->ops->tx_done)
			mac->ops->tx_done(mac->ctx, len, false);
	}
	return mac->tx.q_count;
}

/* The head packet leaves the queue. */
void vlc_mac_complete(struct vlc_mac *mac, bool ok)
{
	unsigned int len = vlc_mac_txq_pop(mac);

	mac->tx.cw = mac->p.cw_min;
	mac->tx.state = VLC_MAC_TX_IDLE;
	if (vlc_mac_expire(mac))
		vlc_mac_start_packet(mac);
	/* Last, so that a callback sees a consistent queue. */
	if (mac->ops && mac->ops->tx_done)
		mac->ops->tx_done(mac->ctx, len, ok);
}

/**
 * vlc_mac_flush - drop every queued packet (interface going down, or no
 *	neighbour left to send to)
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
		len = vlc_mac_txq_pop(mac);
		if (mac->ops && mac->ops->tx_done)
			mac->ops->tx_done(mac->ctx, len, false);
	}
}
