// SPDX-License-Identifier: GPL-2.0
/*
 * VLC MAC core, transmit side: medium access (whether a frame may start
 * now; backoff), DATA fragments, RTS, the ACK and CTS we owe, beacons,
 * and the wait for the response to our DATA or RTS. The on-air format is
 * at the top of vlc_mac.c.
 */

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/crc-ccitt.h>

#include "vlc_mac_priv.h"

/* Acquisition beacons (see vlc_mac_acq_beacon()): the first interval in
 * frames, and the hello beacon's window after a lock.
 */
#define VLC_MAC_ACQ_IVL		24
#define VLC_MAC_ACQ_HELLO	16

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

void vlc_mac_draw_backoff(struct vlc_mac *mac)
{
	mac->tx.backoff = vlc_mac_random_below(mac, mac->tx.cw);
	mac->stats.backoffs++;
	vlc_mac_ev_value(mac, VLC_MAC_EV_BACKOFF, 0, mac->tx.backoff,
			 mac->tx.cw);
}

/* The plain frame of @nbytes (delimiter included) in the emit buffer
 * goes on air, coded at the level it gets (vlc_mac_fec.c).
 */
static void vlc_mac_emit_start(struct vlc_mac *mac, unsigned int nbytes)
{
	struct vlc_mac_emit *e = &mac->tx.emit;
	unsigned int level, n = nbytes - 1;

	level = vlc_mac_fec_fit(vlc_mac_fec_level(mac, mac->tx.emitting, n),
				n, mac->p.bits_per_symbol);
	vlc_mac_ev_frame(mac, VLC_MAC_EV_TX, 0,
			 mac->tx.emitting == VLC_MAC_T_DATA ? mac->tx.retries :
			 mac->tx.emitting == VLC_MAC_T_RTS ?
			 mac->tx.rts_retries : 0,
			 e->buf + 1, n, 1 + vlc_mac_fec_len(level, n));
	e->level = 0;
	if (level)
		nbytes = vlc_mac_fec_encode(mac, n, level);
	e->nbytes = nbytes;
	e->sym = 0;
	e->nsyms = vlc_mac_frame_symbols(&mac->p, nbytes);
	e->pre = mac->p.preamble;
	e->bits = mac->p.bits_per_symbol;
	mac->stats.tx_frames++;
	mac->stats.tx_bytes_air += nbytes;
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
	dur = vlc_mac_exchange(&mac->p,
			       vlc_mac_fec_level(mac, VLC_MAC_T_DATA,
						 dh.hlen + first + 2),
			       dh.hlen, rest, first, mac->tx.frag_len);
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
	unsigned int n = 0, flen, cap;
	u8 *b = mac->tx.emit.buf;
	struct vlc_mac_hdr dh;
	bool last;
	u8 h0;

	vlc_mac_pktinfo(mac, pkt->data, pkt->len, &pi);
	h0 = VLC_MAC_T_DATA << VLC_MAC_TYPE_SHIFT |
	     pi.et << VLC_MAC_H_ET_SHIFT;
	if (pi.dst < 0)
		h0 |= VLC_MAC_H_DFULL;
	if (pi.sfull)
		h0 |= VLC_MAC_H_SFULL;
	/* with its parity, no longer on air than the longest plain frame
	 * (vlc_mac_fec_fit())
	 */
	vlc_mac_hdr_parse(&h0, 1, &dh);
	cap = min_t(unsigned int, mac->tx.frag_len,
		    vlc_mac_fec_room(vlc_mac_fec_level(mac, VLC_MAC_T_DATA,
						       dh.hlen +
						       mac->tx.frag_len + 2),
				     dh.hlen, mac->p.bits_per_symbol));
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
		last = flen <= cap;
		if (!last)
			flen = cap;
	}
	if (last)
		h0 |= VLC_MAC_H_LAST;

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
void vlc_mac_frag_done(struct vlc_mac *mac)
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
void vlc_mac_acq_start(struct vlc_mac *mac)
{
	if (mac->p.beacon_interval > VLC_MAC_ACQ_IVL)
		vlc_mac_acq_draw(mac, VLC_MAC_ACQ_IVL);
}

/* Locked. On a neighbour's frame (the medium was busy): that neighbour
 * may still be acquiring and see nothing of us but lit data slots, so
 * one hello beacon soon. Then only the beacon_interval ones: a beacon
 * blinds us while it lasts, and the resync loop needs to hear.
 */
void vlc_mac_acq_locked(struct vlc_mac *mac)
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
	bool acquiring = vlc_sync_acquiring(&mac->sync.loop);

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
		if (acquiring && vlc_mac_acq_beacon(mac))
			return true;
		if (mac->idle_run < mac->p.difs || mac->tx.backoff ||
		    vlc_mac_rx_busy(mac) || acquiring)
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
		if (e->level && !(bit & 7))
			vlc_mac_fec_emit(mac, bit >> 3);
		sym = (e->buf[bit >> 3] >> (8 - e->bits - (bit & 7))) &
		      ((1 << e->bits) - 1);
	}
	mac->tx.this_frame = true;
	if (e->sym >= e->nsyms)
		vlc_mac_emit_done(mac);
	return sym;
}

void vlc_mac_send_ack(struct vlc_mac *mac, u8 dst, u8 sf)
{
	mac->resp.type = VLC_MAC_T_ACK;
	mac->resp.delay = mac->p.sifs;
	mac->resp.dst = dst;
	mac->resp.sf = sf;
}

/* An ACK (@type DATA) or a CTS (RTS) did not come: contend again from a
 * doubled window while *@tries is under retry_limit, else drop the
 * packet. Only DATA retries count as tx_retries.
 */
static void vlc_mac_retry(struct vlc_mac *mac, u8 type, u8 *tries)
{
	if (vlc_mac_head_expired(mac)) {
		mac->stats.tx_expired++;
		vlc_mac_ev_retry(mac, type, *tries, VLC_MAC_RETRY_DROP);
		vlc_mac_complete(mac, false);
	} else if (*tries < mac->p.retry_limit) {
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
void vlc_mac_wait(struct vlc_mac *mac, u8 resp, bool busy)
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
	vlc_mac_fec_lost(mac);
	vlc_mac_retry(mac, VLC_MAC_T_DATA, &mac->tx.retries);
}
