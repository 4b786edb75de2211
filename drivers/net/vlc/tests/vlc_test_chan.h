/* SPDX-License-Identifier: GPL-2.0 */
/* Deterministic integer model of an optical channel for the PHY tests:
 * PHYs wired through fake pins, in virtual time. Pure C, built both into
 * the KUnit module and the host tests.
 */
#ifndef _VLC_TEST_CHAN_H
#define _VLC_TEST_CHAN_H

#include <linux/types.h>

#include "vlc_phy.h"
#include "vlc_light.h"
#include "vlc_sync.h"

#define VLC_CHAN_NODES		3
#define VLC_CHAN_RING		64	/* LED transitions kept per node */
#define VLC_CHAN_SENT		16	/* symbols remembered per node */

enum vlc_chan_tx {
	VLC_CHAN_TX_IDLE,	/* never send */
	VLC_CHAN_TX_SEQ,	/* send seq[] in order, then idle */
	VLC_CHAN_TX_RANDOM,	/* random symbols, idle_per256 idle frames */
	VLC_CHAN_TX_MIRROR,	/* the opposite symbol of node mirror */
};

/* Whether a node moves its grid on what its PHY reports. */
enum vlc_chan_resync {
	VLC_CHAN_RESYNC_OFF,	/* never move our grid */
	VLC_CHAN_RESYNC_MAC,	/* the MAC's resync loop (vlc_sync.c) */
};

#define VLC_CHAN_RESYNC_DEADBAND 2000	/* ns, as the MAC's default */

/* How a receiver did against the symbols of its reference transmitter. */
struct vlc_chan_score {
	u32 frames;
	u32 correct;	/* decided, equal to what was sent */
	u32 wrong;	/* decided, not what was sent (or nothing sent) */
	u32 erasures;
	u32 idle;	/* nothing sent, idle seen */
	u32 missed;	/* a symbol sent, idle seen */
	u32 sync[4];	/* by enum vlc_phy_sync */
	s64 offset_sum;	/* of offset_ns over EARLY/LATE frames */
	s32 offset_min;
	s32 offset_max;
	u32 min_margin;	/* smallest margin of a correct decision */
};

struct vlc_chan;

struct vlc_chan_node {
	struct vlc_phy phy;
	struct vlc_chan *chan;
	int idx;
	bool active;

	/* LED timeline, in absolute virtual time */
	u64 ev_t[VLC_CHAN_RING];
	bool ev_on[VLC_CHAN_RING];
	u32 ev_head;
	u32 ev_count;
	bool ev_base;		/* state before the oldest kept event */
	bool led;
	bool led_rx;		/* senses with its own LED, not a photodiode */
	u64 on_since;
	u64 on_total;

	/* receive window */
	u64 rx_t0;
	bool rx_open;

	/* pin calls, to check what a tick touched */
	u32 pin_calls;
	u64 pin_min_t;

	/* transmit side of the client */
	enum vlc_chan_tx tx;
	const u8 *seq;
	u32 seq_len;
	u32 seq_pos;
	u32 idle_per256;
	int mirror;
	int sent[VLC_CHAN_SENT];
	u32 tx_frames;
	u64 fr_start;		/* start of the frame in progress */
	u64 fr_on_mark;		/* on_total at that start */

	/* receive side of the client */
	int ref;		/* node whose symbols we should decode, or -1 */
	u32 rx_frames;
	u32 score_from;		/* frames before this are warm-up */
	struct vlc_chan_score score;

	/* one-shot lateness injected into the next tick */
	u64 late_ns;

	/* resync */
	enum vlc_chan_resync resync;
	struct vlc_sync sync;
	u32 rs_coarse;		/* moves for acquisition reports */
	u32 rs_fine;		/* moves while locked */

	/* deferred acquisition search, as an executor's worker runs it:
	 * taken after the tick that captured a frame, its outcome applied
	 * defer_ticks ticks later (0: the search runs in the tick)
	 */
	u32 defer_ticks;
	u32 defer_left;
	u32 searches;		/* deferred searches run */
	u32 tick_search;	/* ticks that searched although deferred */

	/* decided symbols in order, whatever the frame numbers */
	u8 *log;
	u32 log_len;
	u32 log_n;
	u32 log_erasures;
};

/* Called at each frame start of a node, after the PHY applied its pending
 * settings, with the previous frame: the symbol sent, the LED on-time and
 * the length of the frame (all 0/idle at the first frame).
 */
typedef void (*vlc_chan_frame_fn)(struct vlc_chan *ch, struct vlc_chan_node *n,
				  int sym, u64 on_ns, u64 len_ns);

/* Called with every report a node's PHY delivers, after scoring. */
typedef void (*vlc_chan_rx_fn)(struct vlc_chan *ch, struct vlc_chan_node *n,
			       const struct vlc_phy_rx *rx);

struct vlc_chan {
	struct vlc_chan_node node[VLC_CHAN_NODES];
	u32 gain[VLC_CHAN_NODES][VLC_CHAN_NODES];	/* [from][to] */
	u32 ambient;		/* DC level */
	u32 flicker100;		/* amplitude of 100 Hz mains flicker */
	u32 flicker120;		/* amplitude of 120 Hz mains flicker */
	u32 noise;		/* rms noise of a noise_ref_ns window */
	u32 noise_ref_ns;
	u64 rng;
	u64 now;
	u32 steps;		/* events run, to yield the CPU now and then */
	vlc_chan_frame_fn on_frame;
	vlc_chan_rx_fn on_rx;
	void *priv;
};

u64 vlc_chan_rand(struct vlc_chan *ch);
u32 vlc_chan_rand_below(struct vlc_chan *ch, u32 n);
s64 vlc_chan_gauss_q16(struct vlc_chan *ch);

void vlc_chan_init(struct vlc_chan *ch, u64 seed);
void vlc_chan_node_init(struct vlc_chan *ch, int idx);
void vlc_chan_set_led_rx(struct vlc_chan *ch, int idx);
void vlc_chan_start(struct vlc_chan *ch, int idx, u64 t_ns);
void vlc_chan_run_until(struct vlc_chan *ch, u64 t_ns);
void vlc_chan_run_frames(struct vlc_chan *ch, int idx, u32 frames);
bool vlc_chan_step(struct vlc_chan *ch);
u64 vlc_chan_on_ns(const struct vlc_chan_node *n, u64 t);
u64 vlc_chan_lit_ns(const struct vlc_chan_node *n, u64 a, u64 b);
void vlc_chan_score_reset(struct vlc_chan_node *n);
s32 vlc_chan_offset(const struct vlc_chan *ch, int a, int b);

#endif /* _VLC_TEST_CHAN_H */
