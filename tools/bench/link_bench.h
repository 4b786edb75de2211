/* SPDX-License-Identifier: GPL-2.0 */
/* What link_bench's files share: the two nodes on the host simulator,
 * the timer-lateness model, and the link set-up (link_bench_link.c).
 */
#ifndef _LINK_BENCH_H
#define _LINK_BENCH_H

#include <linux/limits.h>

#include "vlc_phy.h"
#include "vlc_mac.h"
#include "vlc_fec.h"
#include "vlc_hsim.h"

#define SIG		10000U
#define T0		1000000ULL
#define LOCK_TOL	5000
#define LOCK_HOLD	32
#define SKEW_SETTLE	4096	/* frames after the lock: the rate is learnt */
#define SKEW_SLIP	100000	/* ns: the grids have slipped apart */

enum jit_kind { JIT_NONE, JIT_CONST, JIT_UNIF, JIT_MODEL, JIT_BURST };

struct jitter {
	enum jit_kind kind;
	u32 a;		/* const, unif: NS; model, burst: mean M */
	u32 p;		/* model, burst: tail probability per million */
	u32 t;		/* model, burst: tail end */
	u32 len;	/* burst: ns a run of late callbacks lasts */
	u64 end[2];	/* burst: per node, the end of its run */
};

struct lnode {
	struct vlc_mac mac;
	struct vlc_hsim_node *cn;
	u64 late;		/* lateness of the next tick */
	u32 frames;		/* reports received */
	u32 carrier_losses;
	bool counting;		/* locked: count carrier losses */
	u32 defer_ticks;
	u32 defer_left;
	u64 late_calls;		/* callbacks drawn late */
};

/* What a node of mac_pair() senses with. */
enum lb_rx {
	LB_RX_PD,	/* a photodiode */
	LB_RX_LED,	/* its own LED, blind while lit (vlc_sim's "led") */
	LB_RX_LED2,	/* a second LED beside the TX LED, never blind */
};

/* The medium of mac_pair(): each node sees the other's lit LED at gain,
 * ambient light with 100 Hz flicker, noise (rms over a default data
 * slot); rx_min is the PHY's smallest signal (rx_min_level).
 */
/* The medium of mac_pair(): each node sees the other's lit LED at gain,
 * ambient light with 100 Hz flicker, noise (rms over a default data
 * slot); rx_min is the PHY's smallest signal (rx_min_level).
 */
struct lb_medium {
	u32 gain;
	u32 ambient;
	u32 flicker;
	u32 noise;
	u32 rx_min;
	enum lb_rx rx;
};

extern struct vlc_hsim ch;
extern struct lnode ln[2];
extern struct lb_medium lb_med;
extern u32 lb_frame_ns;
extern u32 lb_guard_ns;
extern struct jitter jit;
extern u64 jrng;
extern u32 lb_delivered;
/* called after each of node 0's ticks while set: ber's record of the
 * symbols node 0 sent
 */
extern void (*lb_tick0)(void);
extern const struct vlc_mac_ops *lb_ops;

u64 splitmix(u64 *s);
struct vlc_phy_timing lb_timing(u64 num, u64 den, s32 ppm);
int lb_tx_symbol(void *ctx);
void lb_rx_frame(void *ctx, const struct vlc_phy_rx *rx);
int jit_parse(const char *s);
void lb_run_frames(u32 frames, u32 (*count)(void));
void lb_phase(void *ctx, s32 ns);
u32 lb_random(void *ctx);
u32 frames1(void);
int mac_pair(u64 seed, s32 ppm, u32 defer, u32 *off);
u32 mac_lock(u32 max, s32 tol);

int goodput(int argc, char **argv);

#endif /* _LINK_BENCH_H */
