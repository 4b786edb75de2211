/* SPDX-License-Identifier: GPL-2.0 */
/* The host simulator: PHY cores wired through simulated pins to one
 * optical medium (vlc_light.h, the light model vlc_sim.ko uses), in
 * virtual time. Pure C and deterministic, for the tests, fuzzers and
 * benches: built into the KUnit module and on the host alike.
 */
#ifndef _VLC_HSIM_H
#define _VLC_HSIM_H

#include <linux/types.h>

#include "vlc_phy.h"
#include "vlc_light.h"
#include "vlc_sync.h"

#define VLC_HSIM_NODES		3
#define VLC_HSIM_RING		64	/* LED transitions kept per node */
#define VLC_HSIM_SENT		16	/* symbols remembered per node */

enum vlc_hsim_tx {
	VLC_HSIM_TX_IDLE,	/* never send */
	VLC_HSIM_TX_SEQ,	/* send seq[] in order, then idle */
	VLC_HSIM_TX_RANDOM,	/* random symbols, idle_per256 idle frames */
	VLC_HSIM_TX_MIRROR,	/* the opposite symbol of node mirror */
};

/* Whether a node moves its grid on what its PHY reports. */
enum vlc_hsim_resync {
	VLC_HSIM_RESYNC_OFF,	/* never move our grid */
	VLC_HSIM_RESYNC_MAC,	/* the MAC's resync loop (vlc_sync.c) */
};

#define VLC_HSIM_RESYNC_DEADBAND 2000	/* ns, as the MAC's default */

/* How a receiver did against the symbols of its reference transmitter. */
struct vlc_hsim_score {
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

struct vlc_hsim;

struct vlc_hsim_node {
	struct vlc_phy phy;
	struct vlc_hsim *chan;
	int idx;
	bool active;
	/* set_bits: refuse a new mode (a frame on air), the last bits taken */
	bool hold_mode;
	unsigned int bits;

	/* LED timeline, in absolute virtual time */
	u64 ev_t[VLC_HSIM_RING];
	bool ev_on[VLC_HSIM_RING];
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
	enum vlc_hsim_tx tx;
	const u8 *seq;
	u32 seq_len;
	u32 seq_pos;
	u32 idle_per256;
	int mirror;
	int sent[VLC_HSIM_SENT];
	u32 tx_frames;
	u64 fr_start;		/* start of the frame in progress */
	u64 fr_on_mark;		/* on_total at that start */

	/* receive side of the client */
	int ref;		/* node whose symbols we should decode, or -1 */
	u32 rx_frames;
	u32 score_from;		/* frames before this are warm-up */
	struct vlc_hsim_score score;

	/* one-shot lateness injected into the next tick */
	u64 late_ns;

	/* resync */
	enum vlc_hsim_resync resync;
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
typedef void (*vlc_hsim_frame_fn)(struct vlc_hsim *ch, struct vlc_hsim_node *n,
				  int sym, u64 on_ns, u64 len_ns);

/* Called with every report a node's PHY delivers, after scoring. */
typedef void (*vlc_hsim_rx_fn)(struct vlc_hsim *ch, struct vlc_hsim_node *n,
			       const struct vlc_phy_rx *rx);

struct vlc_hsim {
	struct vlc_hsim_node node[VLC_HSIM_NODES];
	u32 gain[VLC_HSIM_NODES][VLC_HSIM_NODES];	/* [from][to] */
	u32 ambient;		/* DC level */
	u32 flicker100;		/* amplitude of 100 Hz mains flicker */
	u32 flicker120;		/* amplitude of 120 Hz mains flicker */
	u32 noise;		/* rms noise of a noise_ref_ns window */
	u32 noise_ref_ns;
	u64 rng;
	u64 now;
	u32 steps;		/* events run, to yield the CPU now and then */
	vlc_hsim_frame_fn on_frame;
	vlc_hsim_rx_fn on_rx;
	void *priv;
};

u64 vlc_hsim_rand(struct vlc_hsim *ch);
u32 vlc_hsim_rand_below(struct vlc_hsim *ch, u32 n);
s64 vlc_hsim_gauss_q16(struct vlc_hsim *ch);

void vlc_hsim_init(struct vlc_hsim *ch, u64 seed);
void vlc_hsim_node_init(struct vlc_hsim *ch, int idx);
void vlc_hsim_set_led_rx(struct vlc_hsim *ch, int idx);
void vlc_hsim_start(struct vlc_hsim *ch, int idx, u64 t_ns);
void vlc_hsim_run_until(struct vlc_hsim *ch, u64 t_ns);
void vlc_hsim_run_frames(struct vlc_hsim *ch, int idx, u32 frames);
bool vlc_hsim_step(struct vlc_hsim *ch);
u64 vlc_hsim_on_ns(const struct vlc_hsim_node *n, u64 t);
u64 vlc_hsim_lit_ns(const struct vlc_hsim_node *n, u64 a, u64 b);
void vlc_hsim_score_reset(struct vlc_hsim_node *n);
s32 vlc_hsim_offset(const struct vlc_hsim *ch, int a, int b);

#endif /* _VLC_HSIM_H */
