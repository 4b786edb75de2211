/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLC MAC core, private: what its files share and nothing else includes.
 *
 *   vlc_mac.c       parameters, the transmit queue, events, the on-air
 *                   header parser; the frame clock is inline below
 *   vlc_mac_tx.c    medium access, backoff, fragments, responses and
 *                   beacons out, the response wait
 *   vlc_mac_rx.c    delimiter hunt, byte assembly, frame decode,
 *                   reassembly and delivery; vlc_mac_rx_frame(),
 *                   which runs the resync loop (vlc_sync.c)
 *   vlc_mac_fec.c   coded frames: the parity a frame gets, its
 *                   encoding, the coded header, the decode and where
 *                   it runs (vlc_fec.c does the arithmetic)
 *
 * The on-air format is described at the top of vlc_mac.c.
 */
#ifndef _VLC_MAC_PRIV_H
#define _VLC_MAC_PRIV_H

#include <linux/types.h>
#include <linux/limits.h>
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
#define VLC_MAC_ACK_SLACK	4	/* frames of executor jitter */

/* Coded frames (vlc_mac_fec.c): the first byte's type, the coded header
 * (2 bytes, 2 parity) and the level of its parity, the highest level of
 * the short frames (ACK, RTS, CTS, BEACON).
 */
#define VLC_MAC_T_CODED		7
#define VLC_MAC_FEC_HDR		4
#define VLC_MAC_FEC_HDR_LEVEL	1
#define VLC_MAC_FEC_CTL_LEVEL	2
/* the frame inside, after its delimiter: a beacon .. the longest DATA */
#define VLC_MAC_BODY_MIN	(VLC_MAC_BEACON_LEN - 1)
#define VLC_MAC_BODY_MAX	(VLC_MAC_AIR_MAX - 1)

/* struct vlc_mac_rx.form */
#define VLC_MAC_FORM_UNKNOWN	0	/* byte 0 still coming */
#define VLC_MAC_FORM_PLAIN	1
#define VLC_MAC_FORM_CODED	2

/* struct vlc_mac_dec.stage */
#define VLC_MAC_DEC_IDLE	0
#define VLC_MAC_DEC_PENDING	1	/* waits for the owner's decode */
#define VLC_MAC_DEC_BUSY	2	/* being decoded, off the lock */

#define VLC_MAC_CRC_GOOD	0xf0b8		/* residue of X.25 FCS */

/* 02:56:4c:43:00:XX travels as XX; ethertypes coded in the header */
extern const u8 vlc_mac_prefix[5];
extern const u16 vlc_mac_ethertype[3];

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
 * @et: DATA: the ethertype's code, VLC_MAC_ET_*
 * @last: DATA: the packet's last fragment
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
	u8 et;
	bool last;
	const u8 *dfull;
	const u8 *sfull;
};

/* What a queued Ethernet frame looks like on air. */
struct vlc_mac_pktinfo {
	int dst;		/* short address or -1 */
	bool sfull;
	u8 et;
	bool group;
	const u8 *payload;	/* air payload: [ethertype] + data */
	unsigned int len;
};

/* @n bytes that end in their CRC-16/X.25, low byte first */
static inline bool vlc_mac_crc_good(const u8 *b, unsigned int n)
{
	return crc_ccitt(0xffff, b, n) == VLC_MAC_CRC_GOOD;
}

/* Tracing (ops->event): nothing is built unless someone listens. */
static inline bool vlc_mac_ev_on(const struct vlc_mac *mac)
{
	return mac->ops && mac->ops->event;
}

/* Packet @i of the transmit queue, 0 being its head. */
static inline struct vlc_mac_txpkt *vlc_mac_txq_slot(struct vlc_mac *mac,
						     unsigned int i)
{
	i += mac->tx.q_head;
	if (i >= VLC_MAC_TXQ_LEN)
		i -= VLC_MAC_TXQ_LEN;
	return &mac->tx.q[i];
}

/* A frame is being received: the medium is busy. */
static inline bool vlc_mac_rx_busy(const struct vlc_mac *mac)
{
	return mac->rx.state == VLC_MAC_RX_HUNT ||
	       mac->rx.state == VLC_MAC_RX_FRAME;
}

/* The response awaited in the state we are in: ACK, CTS or 0 (none). */
static inline u8 vlc_mac_awaited(const struct vlc_mac *mac)
{
	if (mac->tx.state == VLC_MAC_TX_WAIT_ACK)
		return VLC_MAC_T_ACK;
	if (mac->tx.state == VLC_MAC_TX_WAIT_CTS)
		return VLC_MAC_T_CTS;
	return 0;
}

/* vlc_mac.c */
void vlc_mac_hdr_parse(const u8 *b, unsigned int n, struct vlc_mac_hdr *h);
unsigned int vlc_mac_exchange(const struct vlc_mac_params *p,
			      unsigned int level, unsigned int hlen,
			      unsigned int rest, unsigned int first,
			      unsigned int frag);
void vlc_mac_ev_frame(struct vlc_mac *mac, u8 kind, u8 reason, u8 attempt,
		      const u8 *h, unsigned int n, unsigned int len);
void vlc_mac_ev_retry(struct vlc_mac *mac, u8 type, u8 attempt, u8 reason);
void vlc_mac_ev_value(struct vlc_mac *mac, u8 kind, u8 reason, u16 value,
		      u16 cw);
void vlc_mac_pktinfo(const struct vlc_mac *mac, const u8 *eth,
		     unsigned int len, struct vlc_mac_pktinfo *pi);
void vlc_mac_complete(struct vlc_mac *mac, bool ok);
bool vlc_mac_head_expired(struct vlc_mac *mac);

/* vlc_mac_rx.c */
void vlc_mac_rx_body(struct vlc_mac *mac, const u8 *b, unsigned int n,
		     unsigned int air);

/* vlc_mac_fec.c */
unsigned int vlc_mac_fec_level(const struct vlc_mac *mac, u8 type,
			       unsigned int n);
unsigned int vlc_mac_fec_fixed(u8 fec);
unsigned int vlc_mac_fec_len(unsigned int level, unsigned int n);
unsigned int vlc_mac_fec_fit(unsigned int level, unsigned int n,
			     unsigned int bits);
unsigned int vlc_mac_fec_room(unsigned int level, unsigned int hlen,
			      unsigned int bits);
unsigned int vlc_mac_fec_encode(struct vlc_mac *mac, unsigned int n,
				unsigned int level);
void vlc_mac_fec_emit(struct vlc_mac *mac, unsigned int k);
int vlc_mac_fec_header(struct vlc_mac *mac);
void vlc_mac_fec_rx_done(struct vlc_mac *mac);
void vlc_mac_fec_note(struct vlc_mac *mac, unsigned int bytes,
		      unsigned int erased);
void vlc_mac_fec_lost(struct vlc_mac *mac);
void vlc_mac_fec_through(struct vlc_mac *mac);

/* vlc_mac_tx.c */
void vlc_mac_draw_backoff(struct vlc_mac *mac);
void vlc_mac_frag_done(struct vlc_mac *mac);
void vlc_mac_send_ack(struct vlc_mac *mac, u8 dst, u8 sf);
void vlc_mac_wait(struct vlc_mac *mac, u8 resp, bool busy);
void vlc_mac_acq_start(struct vlc_mac *mac);
void vlc_mac_acq_locked(struct vlc_mac *mac);

/*
 * The frame clock, which vlc_mac_rx_frame() runs around what it receives
 * once a frame; inline, since it runs every frame on the receive path.
 */

/* A frame has passed: count it, follow the PHY's lock (acquisition
 * beacons), count the NAV down.
 */
static inline void vlc_mac_clock_start(struct vlc_mac *mac,
				       const struct vlc_phy_rx *rx)
{
	mac->now++;
	if (mac->bcn.since_loc < U16_MAX)
		mac->bcn.since_loc++;
	/* the loop runs on every frame, after this: it holds the last's */
	if (rx->acquiring && !vlc_sync_acquiring(&mac->sync.loop))
		vlc_mac_acq_start(mac);
	else if (!rx->acquiring && vlc_sync_acquiring(&mac->sync.loop))
		vlc_mac_acq_locked(mac);
	if (mac->nav.frames)
		mac->nav.frames--;
}

/* The frame was @busy (light, or a frame being received; @own: ours):
 * medium access and the response wait advance.
 */
static inline void vlc_mac_clock_end(struct vlc_mac *mac, bool busy,
				     bool own)
{
	u8 resp;

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

#endif /* _VLC_MAC_PRIV_H */
