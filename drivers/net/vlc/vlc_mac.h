/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLC MAC core: delimiting, compressed header, CRC, fragmentation,
 * CSMA/CA with backoff, stop-and-wait ARQ and the resync policy.
 *
 * Pure C, shared by the kernel and the host tests: no sleeping, no
 * allocation (every buffer is an array in struct vlc_mac), no locking
 * (the caller serialises all calls), no floating point, no 64-bit '/'.
 * Time is counted in PHY frames: vlc_mac_tx_symbol() then
 * vlc_mac_rx_frame() are called once each per frame.
 *
 * The on-air format is described at the top of vlc_mac.c and in
 * Documentation/networking/vlc.rst.
 */
#ifndef _VLC_MAC_H
#define _VLC_MAC_H

#include <linux/types.h>

#include "vlc_fec.h"
#include "vlc_phy.h"
#include "vlc_sync.h"

/* Largest Ethernet frame taken from the stack: 1514 + one VLAN tag. */
#define VLC_MAC_FRAME_MAX	1518
#define VLC_MAC_ETH_HLEN	14
#define VLC_MAC_ALEN		6

/* Default RTS threshold in bytes of Ethernet frame: see vlc.rst for
 * the measurements behind it.
 */
#define VLC_MAC_RTS_DEFAULT	200

/* Payload bytes of one fragment on air: protocol limits. */
#define VLC_MAC_FRAG_MIN	48	/* 1506 bytes in <= 32 fragments */
#define VLC_MAC_FRAG_MAX	240
#define VLC_MAC_FRAGS_MAX	32	/* 5-bit fragment index */

/* Longest header: type, 6-byte dst, tx, 6-byte src, seq/frag, len. */
#define VLC_MAC_HDR_MAX		16
/* Bytes of one frame after the preamble: delimiter, header, data, CRC. */
#define VLC_MAC_AIR_MAX		(1 + VLC_MAC_HDR_MAX + VLC_MAC_FRAG_MAX + 2)
/* The same frame coded (vlc_mac_fec.c): delimiter, the coded header (2
 * bytes and their 2 parity), the frame after its delimiter, and the
 * parity of its codewords, at most two of VLC_FEC_PARITY_MAX.
 */
#define VLC_MAC_CODED_MAX	(VLC_MAC_AIR_MAX + 4 + 2 * VLC_FEC_PARITY_MAX)

#define VLC_MAC_BCAST		0xff	/* short address of broadcast */
#define VLC_MAC_TXQ_LEN		4	/* packets the MAC holds */
#define VLC_MAC_RX_SOURCES	4	/* reassemblies in progress */
#define VLC_MAC_PREAMBLE_MAX	32

/* PHY frames needed to carry a 98-byte Ethernet ping (84-byte IPv4/ICMP
 * packet, 64-byte ICMP message) one way, from the first preamble symbol
 * of the DATA to the last symbol of its ACK, with the default parameters
 * (1 bit per frame, 8-symbol preamble, SIFS 2): DATA 744 + SIFS 2 +
 * ACK 64. Medium access (DIFS + mean backoff) comes on top. Asserted by
 * the "overhead" test case so that this figure cannot drift.
 */
#define VLC_MAC_PING98_FRAMES	810

/* PHY frames to carry a 1514-byte Ethernet frame (1500-byte IPv4 packet)
 * one way, same conventions: 7 fragments (6 x 240 + 60 bytes), DATA
 * 7 * 72 + 1500 * 8 = 12504, ACKs 7 * 64 = 448, SIFS 13 * 2 = 26. The UDP
 * payload (1472 bytes) is 90.7% of these symbols. Asserted by "overhead".
 */
#define VLC_MAC_MTU_FRAMES	12978

/* The same after RTS/CTS (packets of rts_threshold bytes and more): RTS
 * 72, SIFS 2, CTS 72, SIFS 2 in front. Asserted by "overhead".
 */
#define VLC_MAC_MTU_FRAMES_RTS	(VLC_MAC_MTU_FRAMES + 148)

/**
 * struct vlc_mac_params - MAC settings (see vlc_mac_set_params())
 * @short_addr: this node's 8-bit address, 0..254; Ethernet addresses
 *	02:56:4c:43:00:XX are sent on air as XX
 * @bits_per_symbol: 1 (2-slot PHY mode) or 2 (4-PPM)
 * @frag_size: largest payload bytes per fragment, VLC_MAC_FRAG_MIN..MAX;
 *	the MAC halves the fragment length (down to VLC_MAC_FRAG_MIN) after
 *	every lost fragment and lengthens it again by 16 bytes per fragment
 *	acknowledged at the first attempt
 * @retry_limit: retransmissions of a fragment before the packet is
 *	dropped, 0..15
 * @cw_min: initial contention window in frames, 1..@cw_max
 * @cw_max: largest contention window, up to 1024
 * @difs: idle frames before contending, > @sifs, up to 64
 * @sifs: idle frames between a frame and its ACK, 1..15
 * @ack_timeout: frames to wait for an ACK after the last DATA symbol;
 *	0 derives it from the ACK's airtime (see vlc_mac_ack_timeout())
 * @preamble: alternating symbols before the delimiter, 2..32
 * @sync_deadband_ns: mean neighbour offsets smaller than this are left
 *	alone, 0..1000000
 * @beacon_interval: frames without emitting anything after which a
 *	beacon is sent (neighbours keep their lock and carrier on it);
 *	0 = never, else 64..65535
 * @loc_interval: frames between location beacons, sent whatever the
 *	traffic so that every node in view can tell where it is (see
 *	vlc_mac_beacons()); 0 = off, else 64..65535
 * @rts_threshold: unicast packets of at least this many bytes (Ethernet
 *	frame) reserve the medium with RTS/CTS first; 0 = never,
 *	1..VLC_MAC_FRAME_MAX
 * @max_age: frames a packet may have spent in the MAC when it starts or
 *	retries; older ones are dropped and counted (tx_expired); 0 = no
 *	limit, else 64..65535
 * @fec: Reed-Solomon parity of the frames this node sends (vlc_fec.h):
 *	VLC_MAC_FEC_OFF, VLC_MAC_FEC_AUTO (the parity follows the erasures
 *	the link sees), or the parity symbols per codeword of one level, 2,
 *	4, 8, 16 or 32. A receiver decodes a frame at the parity its header
 *	names, whatever its own setting.
 */
struct vlc_mac_params {
	u8 short_addr;
	u8 bits_per_symbol;
	u16 frag_size;
	u8 retry_limit;
	u16 cw_min;
	u16 cw_max;
	u8 difs;
	u8 sifs;
	u16 ack_timeout;
	u8 preamble;
	u32 sync_deadband_ns;
	u16 beacon_interval;
	u16 loc_interval;
	u16 rts_threshold;
	u16 max_age;
	u8 fec;
};

/* struct vlc_mac_params.fec besides a parity count */
#define VLC_MAC_FEC_OFF		0
#define VLC_MAC_FEC_AUTO	0xff

/* Frame types on air: bits 7:5 of the first header byte. */
#define VLC_MAC_T_DATA		1
#define VLC_MAC_T_ACK		2
#define VLC_MAC_T_RTS		3
#define VLC_MAC_T_CTS		4
#define VLC_MAC_T_BEACON	5

/**
 * enum vlc_mac_event_kind - what a struct vlc_mac_event reports
 * @VLC_MAC_EV_TX: a frame starts on air (its first preamble symbol)
 * @VLC_MAC_EV_RX: a frame ended: received with a good CRC, or dropped
 * @VLC_MAC_EV_RETRY: no ACK (DATA) or CTS (RTS) came in time: retried,
 *	or the packet dropped at the retry limit
 * @VLC_MAC_EV_BACKOFF: a backoff was drawn
 * @VLC_MAC_EV_NAV: an RTS or CTS for others set or extended the NAV, or
 *	the exchange an RTS announced never started and it was released
 */
enum vlc_mac_event_kind {
	VLC_MAC_EV_TX,
	VLC_MAC_EV_RX,
	VLC_MAC_EV_RETRY,
	VLC_MAC_EV_BACKOFF,
	VLC_MAC_EV_NAV,
};

/* struct vlc_mac_event.reason of VLC_MAC_EV_RX, VLC_MAC_EV_RETRY and
 * VLC_MAC_EV_NAV; the receive drops match the rx_* counters.
 */
enum vlc_mac_event_reason {
	VLC_MAC_RX_OK,
	VLC_MAC_RX_CRC,			/* bad CRC */
	VLC_MAC_RX_NO_DELIMITER,	/* light, but no delimiter */
	VLC_MAC_RX_TRUNCATED,		/* idle before the announced end */
	VLC_MAC_RX_ERASURE,		/* an erasure inside the frame */
	VLC_MAC_RX_BAD_HEADER,		/* unknown type, impossible length */
	VLC_MAC_RETRY_AGAIN,		/* sent again after a backoff */
	VLC_MAC_RETRY_DROP,		/* retry limit: packet dropped */
	VLC_MAC_NAV_SET,		/* set or extended */
	VLC_MAC_NAV_CLAMPED,		/* set to nav_max, not what was said */
	VLC_MAC_NAV_RESET,		/* released: the exchange never began */
};

/**
 * struct vlc_mac_event - one thing the MAC did, for ops->event
 * @kind: VLC_MAC_EV_*
 * @type: frame type VLC_MAC_T_*; 0 when unknown (no header byte yet)
 * @reason: VLC_MAC_RX_*, VLC_MAC_RETRY_* or VLC_MAC_NAV_*
 * @dst: TX, RX: short destination address, VLC_MAC_BCAST for group
 *	frames; RETRY: the peer; -1 when unknown
 * @src: TX, RX: the sender's short address; -1 when unknown
 * @seqfrag: DATA and ACK: seq << 5 | frag; -1 when unknown or none
 * @len: TX, RX: bytes from the delimiter to the CRC (RX drops: as far
 *	as received); DATA: the payload bytes are @len less the framing
 * @attempt: TX, RETRY: retransmissions of this DATA or RTS so far
 * @value: BACKOFF: frames drawn; NAV: frames now reserved
 * @cw: BACKOFF: the contention window it was drawn from
 */
struct vlc_mac_event {
	u8 kind;
	u8 type;
	u8 reason;
	u8 attempt;
	s16 dst;
	s16 src;
	s16 seqfrag;
	u16 len;
	u16 value;
	u16 cw;
};

/**
 * struct vlc_mac_ops - what the MAC needs from its owner
 * @deliver: a complete, verified Ethernet frame rebuilt for the stack;
 *	@frame is only valid during the call
 * @tx_done: a packet of @len bytes left the queue: acknowledged or sent
 *	(@ok) or dropped after the retry limit
 * @phase: move this node's frame grid by @ns (positive = later)
 * @random: a random 32-bit value for backoff; may be NULL (then an
 *	internal xorshift generator is used)
 * @event: what the MAC did, for tracing; may be NULL (then nothing is
 *	built); @ev is only valid during the call
 */
struct vlc_mac_ops {
	void (*deliver)(void *ctx, const u8 *frame, unsigned int len);
	void (*tx_done)(void *ctx, unsigned int len, bool ok);
	void (*phase)(void *ctx, s32 ns);
	u32 (*random)(void *ctx);
	void (*event)(void *ctx, const struct vlc_mac_event *ev);
};

/**
 * struct vlc_mac_stats - MAC counters, for ethtool -S
 * @tx_frames: frames put on air (every type)
 * @tx_fragments: DATA frames put on air, retransmissions included
 * @tx_retries: retransmissions of a fragment
 * @tx_acked: ACKs received for our fragments
 * @tx_dropped: packets dropped after the retry limit
 * @tx_expired: packets dropped older than max_age
 * @tx_bytes_air: bytes sent, delimiter to CRC (preamble excluded)
 * @rx_frames_ok: frames received with a good CRC
 * @rx_crc_errors: frames with a bad CRC
 * @rx_truncated: idle before the end announced by the header
 * @rx_erasure_aborts: an erasure inside a frame, without a hard decision
 * @rx_no_delimiter: light, but no delimiter where one was due
 * @rx_bad_header: unknown type, reserved bits set, impossible length
 * @rx_dup: fragments already received (re-acknowledged, not delivered)
 * @rx_out_of_order: a fragment beyond the next expected one
 * @rx_orphan: a fragment of a packet whose start was never received
 * @rx_incomplete: reassemblies abandoned (sender moved on, or expired)
 * @rx_too_long: reassembly would exceed VLC_MAC_FRAME_MAX
 * @rx_unexpected_ack: an ACK or CTS to us that we were not waiting for
 * @rx_other: good frames for another node
 * @rx_beacons: beacons received
 * @tx_beacons: beacons sent
 * @rx_delivered: Ethernet frames handed to the stack
 * @tx_rts: RTS frames sent
 * @tx_cts: CTS frames sent (answers to an RTS)
 * @rx_rts: RTS frames received, for us or not
 * @rx_cts: CTS frames received, for us or not
 * @cts_timeouts: RTS that got no CTS (the packet contends again)
 * @nav_set: times an RTS or CTS for others set or extended our NAV
 * @nav_reset: NAV released because the exchange an RTS announced never
 *	started
 * @nav_clamped: announced durations longer than any exchange can take,
 *	cut to that bound (a NAV can never silence a node for longer)
 * @nav_frames: frames this node was kept silent by its NAV alone
 * @collisions: ACK or CTS timeouts after the medium was busy in the wait
 * @backoffs: random backoffs drawn
 * @rx_hard_symbols: erased or dark symbols taken from the PHY's hard
 *	decision (inside a frame, and in the hunt for its SFD)
 * @rx_hard_frames_ok: frames with a good CRC that took hard decisions
 * @rx_hard_crc_errors: frames with a bad CRC that took hard decisions
 * @phase_corrections: frames in which our grid moved (ops->phase called):
 *	a correction, or the resync rate's share, or both in one call
 * @fec_corrected_symbols: symbols (bytes) the Reed-Solomon decoder
 *	restored, erased or wrong
 * @fec_corrected_frames: frames that needed the decoder and passed their
 *	CRC after it
 * @fec_uncorrectable: frames the decoder refused or could not correct,
 *	and frames it "corrected" that then failed their CRC
 * @fec_tx_frames: frames sent with parity
 * @fec_busy: coded frames dropped because the decoder still had one
 * @fec_deferred: coded frames handed to the owner's decode, off the tick
 */
struct vlc_mac_stats {
	u64 tx_frames;
	u64 tx_fragments;
	u64 tx_retries;
	u64 tx_acked;
	u64 tx_dropped;
	u64 tx_expired;
	u64 tx_bytes_air;
	u64 rx_frames_ok;
	u64 rx_crc_errors;
	u64 rx_truncated;
	u64 rx_erasure_aborts;
	u64 rx_no_delimiter;
	u64 rx_bad_header;
	u64 rx_dup;
	u64 rx_out_of_order;
	u64 rx_orphan;
	u64 rx_incomplete;
	u64 rx_too_long;
	u64 rx_unexpected_ack;
	u64 rx_other;
	u64 rx_beacons;
	u64 tx_beacons;
	u64 rx_delivered;
	u64 tx_rts;
	u64 tx_cts;
	u64 rx_rts;
	u64 rx_cts;
	u64 cts_timeouts;
	u64 nav_set;
	u64 nav_reset;
	u64 nav_clamped;
	u64 nav_frames;
	u64 collisions;
	u64 backoffs;
	u64 phase_corrections;
	u64 rx_hard_symbols;
	u64 rx_hard_frames_ok;
	u64 rx_hard_crc_errors;
	u64 fec_corrected_symbols;
	u64 fec_corrected_frames;
	u64 fec_uncorrectable;
	u64 fec_tx_frames;
	u64 fec_busy;
	u64 fec_deferred;
};

/**
 * struct vlc_mac_beacon - a neighbour heard by its beacons
 * @used: entry valid
 * @id: the neighbour's short address
 * @level: light of its lit data slot above ambient (the PHY's signal
 *	estimate) when its last beacon ended
 * @count: beacons heard from it, saturating
 * @last: MAC frame counter (struct vlc_mac.now) at its last beacon
 */
struct vlc_mac_beacon {
	bool used;
	u8 id;
	u16 count;
	u32 level;
	u32 last;
};

#define VLC_MAC_BEACONS_MAX	16	/* neighbours remembered */

/* One queued packet, kept as the Ethernet frame the stack gave. */
struct vlc_mac_txpkt {
	u32 born;		/* struct vlc_mac.now when it was queued */
	u16 len;
	u8 data[VLC_MAC_FRAME_MAX];
};

/* One reassembly: the Ethernet frame is rebuilt in place in @frame. */
struct vlc_mac_reasm {
	bool used;
	bool group;		/* broadcast/multicast: never acknowledged */
	bool complete;		/* delivered; kept to recognise duplicates */
	u8 tx;			/* transmitter's short address */
	u8 seq;
	u8 next_frag;
	u8 et;			/* VLC_MAC_ET_*, as fragment 0 coded it */
	bool dfull;		/* @addr holds the full destination */
	bool sfull;		/* @addr holds the full source */
	u8 addr[2 * VLC_MAC_ALEN];	/* full dst, full src, as on air */
	u16 len;		/* payload bytes so far */
	u32 last;		/* frame count of the last fragment, for LRU */
	u32 mark;		/* idle_clock then, for expiry */
	u8 frame[VLC_MAC_FRAME_MAX];
};

enum vlc_mac_tx_state {
	VLC_MAC_TX_IDLE,	/* queue empty */
	VLC_MAC_TX_CONTEND,	/* DIFS, then backoff, then send */
	VLC_MAC_TX_BURST,	/* next fragment SIFS after an ACK or CTS */
	VLC_MAC_TX_SEND,	/* symbols of a DATA or RTS frame going out */
	VLC_MAC_TX_WAIT_ACK,
	VLC_MAC_TX_WAIT_CTS,
};

enum vlc_mac_rx_state {
	VLC_MAC_RX_WAIT_IDLE,	/* a frame may only start after idle */
	VLC_MAC_RX_IDLE,
	VLC_MAC_RX_HUNT,	/* preamble: looking for the delimiter */
	VLC_MAC_RX_FRAME,	/* header, payload, CRC */
};

/* A frame being emitted symbol by symbol. */
struct vlc_mac_emit {
	u16 sym;		/* next symbol index */
	u16 nsyms;		/* preamble + data symbols */
	u16 nbytes;
	u8 pre;			/* preamble and bits per symbol, as */
	u8 bits;		/* they were when the frame started */
	u8 level;		/* a coded frame's parity level, 0: plain */
	u8 words;		/* its codewords, */
	u8 word;		/* the one being encoded, */
	u16 body;		/* its body's bytes and */
	u16 fed;		/* those the encoder has had */
	u8 buf[VLC_MAC_CODED_MAX];
};

/* The transmit queue, the fragment in flight, medium access and the
 * frame on air. Frames are PHY frames, bytes are bytes of payload.
 */
struct vlc_mac_tx {
	enum vlc_mac_tx_state state;
	struct vlc_mac_txpkt q[VLC_MAC_TXQ_LEN];	/* a ring */
	u8 q_head;		/* index of the oldest packet in @q */
	u8 q_count;		/* packets in @q, the current one included */
	u8 seq_next[256];	/* next sequence number, per destination */

	/* the fragment in flight, of the packet at the head of @q */
	u8 seq;			/* its packet's sequence number, 0..7 */
	u8 frag;		/* its index in the packet, 0..31 */
	u8 dst;			/* short address; VLC_MAC_BCAST: group */
	bool group;		/* broadcast/multicast: never acknowledged */
	bool last;		/* the packet's last fragment */
	bool rts;		/* the packet goes after RTS/CTS */
	u16 off;		/* bytes: its offset in the air payload */
	u16 len;		/* bytes: its length */
	u16 frag_len;		/* bytes: new fragments' length, adapted */
	u8 retries;		/* retransmissions of it so far */
	u8 rts_retries;		/* RTS sent for it without a CTS */

	/* medium access */
	u16 cw;			/* frames: contention window */
	u16 backoff;		/* idle frames of backoff left */
	u8 burst_wait;		/* frames to the next frame of a burst */

	/* the frame on air */
	u8 emitting;		/* its type VLC_MAC_T_*, 0: none */
	bool this_frame;	/* we emit in the PHY frame in progress */
	struct vlc_mac_emit emit;
};

/* Responses: the ACK or CTS we owe SIFS after a neighbour's DATA or RTS,
 * and the one we wait for after ours.
 */
struct vlc_mac_resp {
	u8 type;		/* owed: VLC_MAC_T_ACK or _CTS; 0: none */
	u8 delay;		/* frames before it goes (SIFS) */
	u8 dst;			/* short address it goes to */
	u8 sf;			/* ACK: seq << 5 | frag acknowledged */
	u16 dur;		/* CTS: frames still reserved after it */
	u16 ack_timeout;	/* frames: @p.ack_timeout, or derived */
	u16 cts_timeout;	/* frames after an RTS to wait for its CTS */
	u16 wait;		/* frames since our DATA or RTS ended */
	bool wait_busy;		/* the medium was busy during @wait */
};

/* Virtual carrier sense: reservations heard in the RTS and CTS of others. */
struct vlc_mac_nav {
	u16 frames;		/* frames the medium stays reserved */
	u16 probe;		/* frames left for an overheard RTS's
				 * exchange to start; 0: none pending
				 */
	u16 max;		/* frames: longest reservation any exchange
				 * needs; no NAV is set for longer
				 */
};

/* One bit per byte of a coded frame. */
#define VLC_MAC_ERAS_WORDS	((VLC_MAC_CODED_MAX + 31) / 32)

/* The receiver: delimiter hunt, byte assembly, the frame being received
 * and the reassemblies.
 */
struct vlc_mac_rx {
	enum vlc_mac_rx_state state;
	u32 reg;		/* delimiter hunt: last symbols received */
	u8 nbits;		/* bits of @reg that are valid, up to 8 */
	u8 hunt;		/* symbols spent hunting */
	u8 bits;		/* bits of @byte assembled */
	u8 byte;		/* the byte being assembled */
	u8 dark;		/* dark frames in a row inside the frame */
	bool hard;		/* the frame took a hard decision */
	bool lost;		/* byte 0 lost a symbol without a hard
				 * decision: fatal unless the frame is coded
				 */
	u8 form;		/* VLC_MAC_FORM_*: plain, coded, not known */
	u8 level;		/* coded: the parity level of its header */
	u16 body;		/* coded: bytes of the plain frame inside */
	u16 pos;		/* bytes in @buf */
	u16 need;		/* bytes @buf holds at the next decision */
	u16 neras;		/* bytes of @buf that lost a symbol */
	u32 signal;		/* the PHY's signal estimate, last frame */
	u32 lifetime;		/* @idle_clock ticks a reassembly lives */
	u32 eras[VLC_MAC_ERAS_WORDS];	/* a bit per byte of @buf */
	u8 buf[VLC_MAC_CODED_MAX];	/* header, payload, CRC; coded: the
					 * coded header first, parity last
					 */
	struct vlc_mac_reasm reasm[VLC_MAC_RX_SOURCES];
};

/* A coded frame handed to the decoder (vlc_mac_fec_begin()). */
struct vlc_mac_dec {
	u8 stage;		/* VLC_MAC_DEC_* */
	u8 level;		/* parity level its header names */
	u16 n;			/* bytes of the frame inside */
	u16 len;		/* bytes of @buf: coded header on */
	bool ok;		/* decoded, and its CRC is good */
	u16 fixed;		/* symbols the decoder corrected */
	u32 eras[VLC_MAC_ERAS_WORDS];
	u8 buf[VLC_MAC_CODED_MAX];
};

/* Parity of the frames we send, and the decode of those we receive. */
struct vlc_mac_coding {
	u32 est;		/* erased bytes per byte received, 16.16,
				 * a moving average (vlc_mac_fec_note())
				 */
	u8 bump;		/* levels added after fragments were lost */
	u8 clean;		/* fragments through at once since a bump */
	bool defer;		/* the owner decodes (vlc_mac_fec_begin()) */
	struct vlc_mac_dec dec;
};

/* The resync loop (vlc_sync.c), which also follows the PHY's lock. */
struct vlc_mac_sync {
	struct vlc_sync loop;
};

/* Beacons: when ours are due, and the neighbours heard by theirs. */
struct vlc_mac_bcn {
	bool armed;		/* one is due and contends */
	u16 since_emit;		/* frames since we emitted, capped */
	u16 acq_ivl;		/* frames: acquisition beacons' interval;
				 * 0: off
				 */
	u16 acq_due;		/* @since_emit when the next one is due */
	u16 since_loc;		/* frames since our last location beacon,
				 * capped
				 */
	bool loc_turn;		/* one took the current fragment's turn */
	struct vlc_mac_beacon heard[VLC_MAC_BEACONS_MAX];
};

/**
 * struct vlc_mac - state of one MAC; plain data, owned by the caller
 * @ops: callbacks
 * @ctx: passed to @ops
 * @p: parameters in use
 * @rng: xorshift32 state, when ops->random is NULL
 * @now: the frame clock: frames since init, wrapping
 * @idle_run: idle frames in a row, up to DIFS
 * @idle_clock: idle frames after a full DIFS, wrapping (ages reassemblies)
 * @tx: queue, fragment in flight, medium access, frame on air
 * @resp: ACK or CTS owed, and the wait for ours
 * @nav: reservations heard
 * @rx: receiver and reassemblies
 * @sync: the PHY's lock and the resync loop
 * @bcn: beacons due and heard
 * @stats: counters
 * @coding: parity sent, erasures seen, the decode handed over
 * @fec: the owner's Reed-Solomon codecs (vlc_mac_set_fec()), or NULL
 * @fec_hdr: the codecs that decode coded headers in the tick, or NULL
 *
 * All fields are private to the MAC core (vlc_mac*.c) except @stats
 * (read-only).
 */
struct vlc_mac {
	const struct vlc_mac_ops *ops;
	void *ctx;
	struct vlc_mac_params p;
	u32 rng;
	u32 now;
	u16 idle_run;
	u32 idle_clock;
	struct vlc_mac_tx tx;
	struct vlc_mac_resp resp;
	struct vlc_mac_nav nav;
	struct vlc_mac_rx rx;
	struct vlc_mac_sync sync;
	struct vlc_mac_bcn bcn;
	struct vlc_mac_stats stats;
	struct vlc_mac_coding coding;
	struct vlc_fec *fec;
	struct vlc_fec *fec_hdr;
};

void vlc_mac_default_params(struct vlc_mac_params *p);
int vlc_mac_check_params(const struct vlc_mac_params *p,
			 enum vlc_refusal *why);
void vlc_mac_init(struct vlc_mac *mac, const struct vlc_mac_params *p,
		  const struct vlc_mac_ops *ops, void *ctx);
int vlc_mac_set_params(struct vlc_mac *mac, const struct vlc_mac_params *p,
		       enum vlc_refusal *why);
void vlc_mac_set_fec(struct vlc_mac *mac, struct vlc_fec *fec,
		     struct vlc_fec *hdr, bool defer);
bool vlc_mac_fec_pending(const struct vlc_mac *mac);
bool vlc_mac_fec_begin(struct vlc_mac *mac);
void vlc_mac_fec_decode(struct vlc_mac *mac);
void vlc_mac_fec_end(struct vlc_mac *mac);
int vlc_mac_xmit(struct vlc_mac *mac, const u8 *frame, unsigned int len);
bool vlc_mac_tx_full(const struct vlc_mac *mac);
void vlc_mac_flush(struct vlc_mac *mac);
bool vlc_mac_set_bits(struct vlc_mac *mac, unsigned int bits);
int vlc_mac_tx_symbol(struct vlc_mac *mac);
void vlc_mac_rx_frame(struct vlc_mac *mac, const struct vlc_phy_rx *rx);
int vlc_mac_short_addr(const u8 *addr);
unsigned int vlc_mac_beacons(const struct vlc_mac *mac,
			     struct vlc_mac_beacon *out, unsigned int max);
u32 vlc_mac_hold_max(const struct vlc_mac *mac);
unsigned int vlc_mac_frame_symbols(const struct vlc_mac_params *p,
				   unsigned int nbytes);

/* Frames to wait for an ACK, as in use. */
static inline unsigned int vlc_mac_ack_timeout(const struct vlc_mac *mac)
{
	return mac->resp.ack_timeout;
}

/* What the MAC's owner reads of it, under the executor's lock: the
 * counters, the settings in use, and the frames the NAV still holds.
 */
static inline const struct vlc_mac_stats *
vlc_mac_get_stats(const struct vlc_mac *mac)
{
	return &mac->stats;
}

static inline const struct vlc_mac_params *
vlc_mac_get_params(const struct vlc_mac *mac)
{
	return &mac->p;
}

static inline u32 vlc_mac_nav_frames(const struct vlc_mac *mac)
{
	return mac->nav.frames;
}

#endif /* _VLC_MAC_H */
