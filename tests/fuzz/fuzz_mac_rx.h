/* SPDX-License-Identifier: GPL-2.0 */
/* What fuzz_mac_rx's files share: the harness's state, the model of what
 * the air carried and the MAC did (fuzz_mac_rx.c), and the steps the
 * input's program (fuzz_mac_rx_input.c) drives it with.
 */
#ifndef _FUZZ_MAC_RX_H
#define _FUZZ_MAC_RX_H

#include "vlc_mac.h"
#include "fuzz.h"
#include "fuzz_mac_air.h"

#define HIST		4096	/* symbols kept, > 8 * VLC_MAC_AIR_MAX */
#define SYM_OWN		(-3)	/* in the history: our own frame */
#define MAX_GOOD	1024	/* good DATA frames kept per input */
#define MAX_FRAMES	131072	/* PHY frames per input */
#define WAIT_MAX	4000	/* frames to wait for the MAC to be quiet */
#define CODED_KEPT	4	/* coded frames a good count may stand for */

enum {
	OP_REPORT,	/* one PHY report, every field from the input */
	OP_IDLE,	/* idle frames */
	OP_DATA,	/* a DATA frame from a peer */
	OP_ACK,		/* an ACK, possibly for the MAC's last DATA */
	OP_BEACON,
	OP_FRAME,	/* any header bytes, with a good CRC */
	OP_XMIT,	/* queue a packet */
	OP_WAIT,	/* until the MAC is quiet, then idle frames */
	OP_PARAM,	/* change one parameter */
	OP_FLUSH,
	OP_TEMPLATE,	/* carrier, acquiring, sync, offset of reports */
	OP_PACKET,	/* all fragments of a packet from a peer */
	OP_CODED,	/* a coded frame from a peer */
	OP_COUNT
};

/* A DATA frame with a good CRC as it was on air. */
struct good {
	u8 h0, dst, tx, sf, len;
	u8 me;		/* our short address when it came */
	u8 addr[2 * VLC_MAC_ALEN];
	u32 at;		/* frame count at its last symbol */
	u8 payload[VLC_MAC_FRAG_MAX];
};

struct pkt {
	u16 len;
	u8 data[VLC_MAC_FRAME_MAX];
};

struct fz_mac_rx {
	struct vlc_mac mac;
	struct vlc_mac_params p;	/* as the MAC has them */
	u32 frames;
	int last_tx;

	/* what the MAC heard, as documented for vlc_mac_rx_frame() */
	s8 hist[HIST];
	u32 datarun;		/* data symbols in a row, ending now */
	u32 bits_at;		/* frame count of the last bits change */
	bool lost_track;	/* a good frame the harness could not see */
	struct good good[MAX_GOOD];
	u32 ngood;

	/* delivery in the call in progress */
	u32 ndeliv;
	u32 deliv_len;
	u8 deliv[VLC_MAC_FRAME_MAX + 1];

	/* the transmit queue */
	struct pkt q[VLC_MAC_TXQ_LEN];
	u32 qhead, qcount, accepted, done;

	/* the frame being emitted */
	bool run, run_cut, run_head, run_codecs;
	u32 run_len, run_nbits;
	u8 run_pre, run_bits, run_me, run_fec;
	u8 ebuf[VLC_MAC_CODED_MAX];
	struct pkt head;
	bool last_data;		/* the last DATA emitted, for OP_ACK */
	u8 last_dst, last_sf;

	/* resync */
	u64 maxoff;
	u64 nphase;

	/* reports */
	struct vlc_phy_rx tmpl;
	bool coarse_once;

	bool codecs;		/* the MAC has them */
	/* the last coded frames a peer sent, the last at coded_i */
	struct coded {
		u8 inner[VLC_MAC_AIR_MAX];	/* the frame inside */
		u16 n;
		u32 end;	/* frame count at its last symbol */
		bool ok;	/* its damage within the parity's reach */
	} coded[CODED_KEPT];
	u32 coded_i;

	struct vlc_mac_stats before;
};

extern struct fz_mac_rx S;

/* The harness's codecs, which code what a peer sends and check what the
 * MAC sends, and the MAC's own (unless the input says it has none): one
 * encode at a time per struct vlc_fec, and the MAC's spans many frames.
 */
extern struct vlc_fec FEC, MAC_FEC;

/* the MAC's callbacks, which check what it does */
extern const struct vlc_mac_ops ops;

/* One PHY frame, and the checks of what the MAC did in it: @rx as the
 * PHY reports it (step()), a report of symbol @sym from the template of
 * reports (step_sym()); idle frames until the MAC sends no more
 * (wait_quiet()).
 */
void step(struct vlc_phy_rx *rx, bool gen);
void step_sym(int sym, unsigned int bits);
void wait_quiet(void);

#endif /* _FUZZ_MAC_RX_H */
