// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core, receive side: vlc_mac_rx_frame(), once a frame inside
 * the frame clock; the delimiter hunt, byte assembly, the decode of a
 * complete frame (vlc_mac_hdr_parse()), reassembly and delivery to the
 * stack, and what received RTS, CTS, ACK and beacons change. The on-air
 * format is at the top of vlc_mac.c.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "vlc_mac_priv.h"

#define VLC_MAC_HUNT_MAX	(VLC_MAC_PREAMBLE_MAX + 8 + 16)
#define VLC_MAC_FRAG_STEP	16	/* fragment growth per clean ACK */
/* Dark frames in a row that end a frame as truncated (see
 * vlc_mac_rx_symbol()): SIFS is 2, so a header that announced too long
 * a frame does not run into the ACK that follows it.
 */
#define VLC_MAC_RX_DARK_END	2
/* The same inside a coded frame once its coded header, which says how
 * long it is, has been decoded: a burst of late callbacks leaves dark
 * symbols the decoder can take as erasures, up to two bytes of 2-slot.
 */
#define VLC_MAC_RX_DARK_CODED	16

static void vlc_mac_long_addr(u8 *addr, u8 short_addr)
{
	if (short_addr == VLC_MAC_BCAST) {
		memset(addr, 0xff, VLC_MAC_ALEN);
		return;
	}
	memcpy(addr, vlc_mac_prefix, sizeof(vlc_mac_prefix));
	addr[5] = short_addr;
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

/* An RTS or CTS: true when it is for us. A malformed one is counted; one
 * between others reserves the medium, and @probe frames are left for
 * the exchange to start.
 */
static bool vlc_mac_rx_resv_to_us(struct vlc_mac *mac,
				  const struct vlc_mac_hdr *h, u16 probe)
{
	unsigned int dst = h->dst, tx = h->tx;

	if (tx == VLC_MAC_BCAST || dst == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return false;
	}
	if (dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		vlc_mac_nav_update(mac, h->dur);
		mac->nav.probe = probe;
		return false;
	}
	return true;
}

static void vlc_mac_rx_rts(struct vlc_mac *mac, const struct vlc_mac_hdr *h)
{
	unsigned int tx = h->tx, dur = h->dur, cts;

	mac->stats.rx_rts++;
	/* The sender may not get its CTS: if nothing starts by the time
	 * its DATA would, the reservation is void.
	 */
	if (!vlc_mac_rx_resv_to_us(mac, h, 2 * mac->p.sifs +
				   VLC_MAC_ACK_SLACK +
				   vlc_mac_frame_symbols(&mac->p,
							 VLC_MAC_CTS_LEN)))
		return;
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
	unsigned int tx = h->tx;

	mac->stats.rx_cts++;
	/* between others: the exchange is on */
	if (!vlc_mac_rx_resv_to_us(mac, h, 0))
		return;
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
	if (!mac->tx.retries) {
		mac->tx.frag_len = min_t(u16, mac->tx.frag_len +
					 VLC_MAC_FRAG_STEP, mac->p.frag_size);
		vlc_mac_fec_through(mac);
	}
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
	unsigned int base = VLC_MAC_ETH_HLEN;
	u8 *f = r->frame;

	if (r->et == VLC_MAC_ET_FULL) {
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
		f[12] = vlc_mac_ethertype[r->et] >> 8;
		f[13] = vlc_mac_ethertype[r->et] & 0xff;
	}
	if (r->dfull)
		memcpy(f, r->addr, VLC_MAC_ALEN);
	else
		vlc_mac_long_addr(f, r->group ? VLC_MAC_BCAST :
				  mac->p.short_addr);
	if (r->sfull)
		memcpy(f + VLC_MAC_ALEN, r->addr + VLC_MAC_ALEN, VLC_MAC_ALEN);
	else
		vlc_mac_long_addr(f + VLC_MAC_ALEN, r->tx);
	r->complete = true;
	mac->stats.rx_delivered++;
	if (mac->ops && mac->ops->deliver)
		mac->ops->deliver(mac->ctx, f, base + r->len);
}

/* The reassembly that DATA header @h continues or starts; NULL if the
 * fragment is not taken: a duplicate (acknowledged again), out of order,
 * an orphan, or not of the same packet.
 */
static struct vlc_mac_reasm *vlc_mac_reasm_match(struct vlc_mac *mac,
						 const struct vlc_mac_hdr *h,
						 bool group)
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
			if (!group) {
				vlc_mac_fec_lost(mac);
				vlc_mac_send_ack(mac, h->tx, h->sf);
			}
			return NULL;
		}
		if (frag > r->next_frag || r->complete) {
			mac->stats.rx_out_of_order++;
			return NULL;
		}
		/* Every fragment must describe the same packet. */
		if (h->et != r->et || !!h->dfull != r->dfull ||
		    !!h->sfull != r->sfull ||
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
	r->et = h->et;
	r->dfull = !!h->dfull;
	r->sfull = !!h->sfull;
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
	u8 dst = h->dst, tx = h->tx, sf = h->sf;
	bool group = dst == VLC_MAC_BCAST;

	if (h->flen != n || tx == VLC_MAC_BCAST) {
		mac->stats.rx_bad_header++;
		return;
	}
	if (!group && dst != mac->p.short_addr) {
		mac->stats.rx_other++;
		return;
	}
	r = vlc_mac_reasm_match(mac, h, group);
	if (!r)
		return;

	base = h->et == VLC_MAC_ET_FULL ? VLC_MAC_ETH_HLEN - 2 :
					  VLC_MAC_ETH_HLEN;
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
	if (h->last)
		vlc_mac_deliver(mac, r);
}

/**
 * vlc_mac_rx_body - a frame is in, after its delimiter: check, take it
 * @mac: the MAC
 * @b: header, payload and CRC: a plain frame's, or the one a coded
 *	frame carries, decoded
 * @n: bytes at @b
 * @air: bytes the frame took on air, delimiter included, for tracing
 */
void vlc_mac_rx_body(struct vlc_mac *mac, const u8 *b, unsigned int n,
		     unsigned int air)
{
	struct vlc_mac_hdr h;

	if (!vlc_mac_crc_good(b, n)) {
		mac->stats.rx_crc_errors++;
		if (mac->rx.hard)
			mac->stats.rx_hard_crc_errors++;
		vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_CRC, 0, b, n,
				 air);
		return;
	}
	mac->stats.rx_frames_ok++;
	if (mac->rx.hard)
		mac->stats.rx_hard_frames_ok++;
	vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_OK, 0, b, n, air);
	vlc_mac_hdr_parse(b, n, &h);
	/* a coded frame's length comes from its coded header */
	if (h.type != VLC_MAC_T_DATA && h.flen != n) {
		mac->stats.rx_bad_header++;
		return;
	}
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

/* A frame ends before its time: @reason VLC_MAC_RX_ERASURE or
 * VLC_MAC_RX_TRUNCATED, counted by the caller.
 */
static void vlc_mac_rx_abort(struct vlc_mac *mac, u8 reason, u8 state)
{
	const u8 *b = mac->rx.buf;
	unsigned int n = mac->rx.pos;

	/* an erasure costs its byte; a frame cut short is not the timer's */
	vlc_mac_fec_note(mac, n + 1, mac->rx.neras +
			 (reason == VLC_MAC_RX_ERASURE));
	/* a coded frame's header gives nothing away before it is decoded */
	if (mac->rx.form == VLC_MAC_FORM_CODED) {
		b = n > VLC_MAC_FEC_HDR ? b + VLC_MAC_FEC_HDR : NULL;
		n = n > VLC_MAC_FEC_HDR ? n - VLC_MAC_FEC_HDR : 0;
	}
	vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, reason, 0, b, n,
			 mac->rx.pos + 1);
	mac->rx.state = state;
}

/* rx.pos bytes are in: learn how many more the frame has from what is
 * known so far, or finish it. Nothing here trusts a length it has not
 * bounded.
 */
static void vlc_mac_rx_advance(struct vlc_mac *mac)
{
	struct vlc_mac_hdr h;
	int need;

	if (mac->rx.form == VLC_MAC_FORM_UNKNOWN) {
		if (mac->rx.buf[0] >> VLC_MAC_TYPE_SHIFT == VLC_MAC_T_CODED) {
			mac->rx.form = VLC_MAC_FORM_CODED;
			mac->rx.need = VLC_MAC_FEC_HDR;
			return;
		}
		mac->rx.form = VLC_MAC_FORM_PLAIN;
		if (mac->rx.lost) {
			mac->stats.rx_erasure_aborts++;
			vlc_mac_rx_abort(mac, VLC_MAC_RX_ERASURE,
					 VLC_MAC_RX_WAIT_IDLE);
			return;
		}
	}
	if (mac->rx.form == VLC_MAC_FORM_CODED) {
		if (mac->rx.pos == VLC_MAC_FEC_HDR) {
			need = vlc_mac_fec_header(mac);
			if (need == -EBADMSG) {
				mac->stats.fec_uncorrectable++;
				vlc_mac_rx_abort(mac, VLC_MAC_RX_BAD_HEADER,
						 VLC_MAC_RX_WAIT_IDLE);
				return;
			}
			if (need < 0)
				goto bad;
			mac->rx.need = need;
			return;
		}
		mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
		vlc_mac_fec_rx_done(mac);
		return;
	}

	vlc_mac_hdr_parse(mac->rx.buf, mac->rx.pos, &h);
	if (mac->rx.pos == 1) {
		if (!h.hlen)
			goto bad;
		/* DATA: its len byte first */
		mac->rx.need = h.flen ? h.flen : h.hlen;
		return;
	}
	if (h.type == VLC_MAC_T_DATA && mac->rx.pos == h.hlen) {
		if (!h.flen || h.flen > VLC_MAC_BODY_MAX)
			goto bad;
		mac->rx.need = h.flen;
		return;
	}
	mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
	vlc_mac_fec_note(mac, mac->rx.pos, mac->rx.neras);
	vlc_mac_rx_body(mac, mac->rx.buf, mac->rx.pos, mac->rx.pos + 1);
	return;
bad:
	mac->stats.rx_bad_header++;
	vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_BAD_HEADER, 0,
			 mac->rx.buf, mac->rx.pos, mac->rx.pos + 1);
	mac->rx.state = VLC_MAC_RX_WAIT_IDLE;
}

/* The byte being assembled lost a symbol: a coded frame's decoder is
 * told so.
 */
static void vlc_mac_rx_erased(struct vlc_mac *mac)
{
	u32 bit = 1U << (mac->rx.pos % 32);

	if (mac->rx.eras[mac->rx.pos / 32] & bit)
		return;
	mac->rx.eras[mac->rx.pos / 32] |= bit;
	mac->rx.neras++;
}

/* A coded frame whose length its decoded coded header gave. */
static bool vlc_mac_rx_known_len(const struct vlc_mac *mac)
{
	return mac->rx.form == VLC_MAC_FORM_CODED &&
	       mac->rx.pos >= VLC_MAC_FEC_HDR;
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

/* Looking for the delimiter: a preamble's symbols, then the SFD. */
static void vlc_mac_rx_hunt(struct vlc_mac *mac, int sym, int hard,
			    unsigned int bits)
{
	if (sym == VLC_SYM_IDLE || ++mac->rx.hunt > VLC_MAC_HUNT_MAX) {
		mac->stats.rx_no_delimiter++;
		vlc_mac_ev_frame(mac, VLC_MAC_EV_RX, VLC_MAC_RX_NO_DELIMITER,
				 0, NULL, 0, 0);
		mac->rx.state = sym == VLC_SYM_IDLE ? VLC_MAC_RX_IDLE :
						      VLC_MAC_RX_WAIT_IDLE;
		return;
	}
	if (sym < 0 && hard >= 0) {
		/* Lit: the preamble or the SFD. The SFD is 3 bits or more
		 * from every preamble window, so a wrong hard decision or
		 * two cannot fake it.
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
	if (mac->rx.nbits < 8 || (mac->rx.reg & 0xff) != VLC_MAC_SFD)
		return;
	mac->rx.state = VLC_MAC_RX_FRAME;
	mac->rx.pos = 0;
	mac->rx.need = 1;
	mac->rx.bits = 0;
	mac->rx.byte = 0;
	mac->rx.dark = 0;
	mac->rx.hard = false;
	mac->rx.lost = false;
	mac->rx.form = VLC_MAC_FORM_UNKNOWN;
	mac->rx.neras = 0;
	memset(mac->rx.eras, 0, sizeof(mac->rx.eras));
}

/* Inside a frame: a symbol is due. Take the hard decision for a dark
 * frame too, unless VLC_MAC_RX_DARK_END come in a row (the sender
 * stopped, or the length read was wrong). The length is only bounded,
 * not trusted: a wrong one costs the CRC.
 *
 * Return: the symbol's value, or -1 if the frame was given up.
 */
static int vlc_mac_rx_due(struct vlc_mac *mac, int sym, int hard,
			  unsigned int bits)
{
	if (sym != VLC_SYM_IDLE)
		mac->rx.dark = 0;
	if (sym == VLC_SYM_IDLE && vlc_mac_rx_known_len(mac) &&
	    ++mac->rx.dark < VLC_MAC_RX_DARK_CODED) {
		/* its length is protected: a dark symbol is erased */
		sym = hard >= 0 ? vlc_mac_rx_hard(mac, hard) : (1 << bits) - 1;
		vlc_mac_rx_erased(mac);
		return sym;
	}
	if (sym == VLC_SYM_IDLE && hard >= 0 &&
	    (vlc_mac_rx_known_len(mac) ||
	     ++mac->rx.dark < VLC_MAC_RX_DARK_END)) {
		sym = vlc_mac_rx_hard(mac, hard);
		vlc_mac_rx_erased(mac);
		return sym;
	}
	if (sym == VLC_SYM_IDLE) {
		mac->stats.rx_truncated++;
		vlc_mac_rx_abort(mac, VLC_MAC_RX_TRUNCATED, VLC_MAC_RX_IDLE);
		return -1;
	}
	if (sym >= 0)
		return sym;
	if (hard >= 0) {
		sym = vlc_mac_rx_hard(mac, hard);
		vlc_mac_rx_erased(mac);
		return sym;
	}
	/* Only a coded frame survives it (DOC: Coded frames): ones, so that
	 * its type still reads 7.
	 */
	if (mac->rx.form == VLC_MAC_FORM_PLAIN) {
		mac->stats.rx_erasure_aborts++;
		vlc_mac_rx_abort(mac, VLC_MAC_RX_ERASURE, VLC_MAC_RX_WAIT_IDLE);
		return -1;
	}
	if (mac->rx.form == VLC_MAC_FORM_UNKNOWN)
		mac->rx.lost = true;
	vlc_mac_rx_erased(mac);
	return (1 << bits) - 1;
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
		vlc_mac_rx_hunt(mac, sym, hard, bits);
		return;
	case VLC_MAC_RX_FRAME:
		sym = vlc_mac_rx_due(mac, sym, hard, bits);
		if (sym < 0)
			return;
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

/* The resync loop on this frame; @heard: we did not emit in it. */
static void vlc_mac_resync(struct vlc_mac *mac, const struct vlc_phy_rx *rx,
			   bool heard)
{
	s32 ns = vlc_sync_frame(&mac->sync.loop, rx, heard,
				mac->p.sync_deadband_ns);

	if (!ns)
		return;
	mac->stats.phase_corrections++;
	if (mac->ops && mac->ops->phase)
		mac->ops->phase(mac->ctx, ns);
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

	vlc_mac_clock_start(mac, rx);
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
	vlc_mac_clock_end(mac, busy, own);
}
