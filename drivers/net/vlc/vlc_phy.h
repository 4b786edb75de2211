/* SPDX-License-Identifier: GPL-2.0 */
/* VLC PHY core: the frame engine between the pins and the MAC.
 *
 * One frame is one PWM period. The measured part is dark except for the
 * data slot carrying the symbol; the rest of the period lights the room:
 *
 *   2-slot: S1 G D1 G D2 G S2 | IA ID IB
 *   4-PPM:  S1 G D1 G D2 G D3 G D4 G S2 | IA ID IB
 *
 * See Documentation/networking/vlc.rst for the drawing and the rationale.
 * The engine is pure C: no sleeping, no allocation, no printing, no
 * floating point and no 64-bit '/' so it builds for armhf and the host.
 */
#ifndef _VLC_PHY_H
#define _VLC_PHY_H

#include <linux/types.h>
#include <linux/vlc.h>

/* struct vlc_phy_acq, for its size only (and VLC_PHY_ID_WINDOWS, which
 * sizes its bins and our slot table alike)
 */
#include "vlc_phy_acq.h"
#include "vlc_refusal.h"

/* Symbol values besides data values 0..(1 << bits) - 1. */
#define VLC_SYM_IDLE		(-1)	/* no data slot lit: no carrier */
#define VLC_SYM_ERASURE		(-2)	/* lit, but no safe decision */

#define VLC_PHY_BRIGHTNESS_MAX	1000	/* brightness is in per-mille */

/* Number of slots of the largest frame: 4-PPM, 11 measured + IA, IB and
 * the ID part, split into VLC_PHY_ID_WINDOWS windows while acquiring.
 */
#define VLC_PHY_MAX_SLOTS	(13 + VLC_PHY_ID_WINDOWS)

enum vlc_phy_mode {
	VLC_PHY_MODE_2SLOT,	/* 1 bit per frame, differential D1/D2 */
	VLC_PHY_MODE_4PPM,	/* 2 bits per frame, one of D1..D4 lit */
};

enum vlc_phy_sync {
	VLC_PHY_SYNC_NONE,	/* no neighbour seen recently */
	VLC_PHY_SYNC_IN,	/* S1 and S2 both dark */
	VLC_PHY_SYNC_EARLY,	/* light in S2: neighbour's frame is early */
	VLC_PHY_SYNC_LATE,	/* light in S1: neighbour's frame is late */
};

/**
 * struct vlc_phy_timing - slot lengths in nanoseconds
 * @sync_ns: length of S1 and of S2
 * @guard_ns: length of each guard slot
 * @data_ns: length of each data slot
 * @frame_ns: the whole PWM period
 * @tolerance_ns: timer lateness that the guards absorb; a boundary handled
 *	later than this makes the frame an erasure
 */
struct vlc_phy_timing {
	u32 sync_ns;
	u32 guard_ns;
	u32 data_ns;
	u32 frame_ns;
	u32 tolerance_ns;
};

#define VLC_PHY_FRAME_NS_MAX	100000000U	/* 100 ms */
/* No timer can run slots shorter; the acquisition grid (frame_ns / 64)
 * must not be 0, or its search divides by zero.
 */
#define VLC_PHY_FRAME_NS_MIN	10000U		/* 10 us */
/* Nor can it keep slots shorter than this apart; the hrtimer and thread
 * executors ask for more (VLC_EXEC_SLOT_NS_MIN).
 */
#define VLC_PHY_SLOT_NS_MIN	1000U		/* 1 us */

/* Frame flags, in struct vlc_phy_rx.flags */
#define VLC_PHY_RX_LATE		0x1	/* a boundary was late > tolerance */
#define VLC_PHY_RX_OVERRUN	0x2	/* slots were skipped */
#define VLC_PHY_RX_OWN_TX	0x4	/* we emitted a symbol in this frame */
#define VLC_PHY_RX_TX_ABORTED	0x8	/* our symbol was not sent intact */
#define VLC_PHY_RX_HARD		0x10	/* @hard holds a hard decision */

/**
 * struct vlc_phy_rx - what one frame brought in, for the MAC and tracing
 * @sym: data value, VLC_SYM_IDLE or VLC_SYM_ERASURE
 * @hard: with VLC_PHY_RX_HARD in @flags, the data value of the brightest
 *	data slot, whatever the margin and even in an idle frame: for a
 *	receiver that knows a symbol is due (inside a frame) and has a CRC
 *	to catch what it gets wrong. Only set when locked and measured.
 * @bits: bits per symbol of the frame (1 or 2)
 * @carrier: some data slot was lit above the noise (for CSMA); true when
 *	the frame could not be measured, so a MAC defers rather than collides
 * @sync: neighbour timing as seen in S1/S2, or by acquisition
 * @offset_ns: estimated neighbour offset, positive = neighbour late. When
 *	locked (fine sync) its magnitude saturates at min(sync_ns, half the
 *	neighbour's on-time); while acquiring it is the last acquisition
 *	estimate, any value in (-frame_ns / 2, frame_ns / 2]
 * @coarse: @offset_ns is a fresh acquisition estimate, not yet reported;
 *	what a node does with it is the resync loop's (vlc_sync.c)
 * @acquiring: no fine lock yet: symbols are withheld (erasure or idle),
 *	and @offset_ns is only to be acted upon when @coarse is set
 * @margin: decision statistic relative to the decision threshold, in
 *	per-mille; a data symbol is only reported when it is >= 1000
 * @ambient: ambient light level at the data slots (backend units)
 * @signal: current estimate of a lit data slot above ambient
 * @noise: current estimate of the measurement noise (rms)
 * @flags: VLC_PHY_RX_*
 * @skipped: whole frames lost to an overrun just before this one
 */
struct vlc_phy_rx {
	int sym;
	int hard;
	u8 bits;
	bool carrier;
	enum vlc_phy_sync sync;
	s32 offset_ns;
	bool coarse;
	bool acquiring;
	u32 margin;
	u32 ambient;
	u32 signal;
	u32 noise;
	u32 flags;
	u32 skipped;
};

/**
 * struct vlc_phy_client_ops - the MAC side, called once per frame
 * @tx_symbol: return the symbol to send in the frame that starts now, or
 *	VLC_SYM_IDLE.
 * @rx_frame: one frame was received.
 * @set_bits: optional; a new mode starts with the frame that starts now:
 *	from its @tx_symbol on, symbols carry @bits bits. Return false to
 *	keep the old settings one more frame, while a frame the client
 *	began is still on air: it must end in the symbols it began with.
 *
 * Both are called from vlc_phy_tick(), i.e. in hard-IRQ context under the
 * hrtimer executor: they must not sleep and should only queue work.
 */
struct vlc_phy_client_ops {
	int (*tx_symbol)(void *ctx);
	void (*rx_frame)(void *ctx, const struct vlc_phy_rx *rx);
	bool (*set_bits)(void *ctx, unsigned int bits);
};

/**
 * struct vlc_phy_stats - counters, for ethtool -S
 * @frames: frame periods elapsed (including skipped ones)
 * @symbols_tx: data symbols handed to the LED
 * @symbols_rx: data symbols decided
 * @erasures: frames delivered as VLC_SYM_ERASURE
 * @idle: frames delivered as VLC_SYM_IDLE
 * @late: boundaries handled later than tolerance_ns
 * @overruns: ticks that had to skip whole slots
 * @sync_early: frames that saw the neighbour early
 * @sync_late: frames that saw the neighbour late
 * @acq_coarse: coarse (acquisition) estimates reported
 * @acq_locks: transitions from acquisition to fine lock
 * @acq_lost: fine locks given up (unexplained light, or signal expired)
 */
struct vlc_phy_stats {
	u64 frames;
	u64 symbols_tx;
	u64 symbols_rx;
	u64 erasures;
	u64 idle;
	u64 late;
	u64 overruns;
	u64 sync_early;
	u64 sync_late;
	u64 acq_coarse;
	u64 acq_locks;
	u64 acq_lost;
};

/* One slot of the frame being run; times relative to the frame start. */
struct vlc_phy_slot {
	u32 start;
	u32 len;
	u16 centre;		/* in 1/4096 of frame_ns, for the ambient fit */
	u8 kind;
	bool on;
};

/* Time sums of the ambient line of one sync hypothesis (vlc_phy_rx.c): they
 * depend only on the slot layout and the slots the hypothesis keeps.
 */
struct vlc_phy_tsum {
	s64 st;		/* centres of the slots kept */
	s64 stt;	/* n * their squares - st^2 */
	s64 tmean;	/* Q16 mean centre */
	u8 n;
};

/* 4-PPM's 11 hypotheses, and acquisition's line through the guards. */
#define VLC_PHY_NHYP	12

/**
 * struct vlc_phy - state of one PHY; plain data, owned by the executor
 *
 * Nothing here points to allocated memory, so an executor may embed it
 * and a simulator may run many. All fields are private to the PHY core
 * (vlc_phy.c, vlc_phy_rx.c, vlc_phy_acq.c) except @stats, @last_rx and
 * the read-only accessors below; @acq is vlc_phy_acq.c's alone.
 */
struct vlc_phy {
	const struct vlc_pin_ops *pins;
	void *pin_ctx;
	const struct vlc_phy_client_ops *client;
	void *client_ctx;

	/* settings in use, and the ones to apply at the next frame */
	struct vlc_phy_timing timing;
	enum vlc_phy_mode mode;
	u32 brightness;
	struct vlc_phy_timing new_timing;
	enum vlc_phy_mode new_mode;
	u32 new_brightness;
	u32 rx_min_level;
	s32 phase_pending;

	/* the frame in progress */
	struct vlc_phy_slot slot[VLC_PHY_MAX_SLOTS];
	u32 level[VLC_PHY_MAX_SLOTS];
	u8 nslots;
	u8 nmeas;
	bool layout_ok;	/* slot[0..nmeas) laid out for timing and mode */
	bool fits_ok;	/* tsum[] computed for that layout */
	u32 meas_ns;	/* their length */
	struct vlc_phy_tsum tsum[VLC_PHY_NHYP];
	u8 cur;
	bool led;
	bool measuring;
	bool decoded;
	int tx_sym;
	u32 frame_flags;
	u32 skipped;
	u64 frame_start;
	u64 next_ns;
	/* absolute ns: frames that start before this ran while our grid
	 * moved, or while the neighbour answered the move
	 */
	u64 settle_ns;

	/* receiver estimates */
	u32 signal;
	u64 noise_var;
	u32 noise;
	u32 noise_samples;
	u32 since_signal;
	bool spilled;		/* the last frame not ours showed a spill */
	u32 unexplained;	/* locked frames in a row with light the fine
				 * model cannot explain
				 */
	bool fine_big_seen;	/* fine_big_ns holds the last large fine
				 * offset, of the frame before
				 */
	s32 fine_big_ns;
	bool locked;
	/* acquisition holds a frame: the tick calls vlc_phy_acq_tick() */
	bool acq_busy;
	struct vlc_phy_acq acq;

	struct vlc_phy_stats stats;
	struct vlc_phy_rx last_rx;
};

extern const struct vlc_phy_timing vlc_phy_default_timing;

int vlc_phy_timing_check(const struct vlc_phy_timing *t,
			 enum vlc_phy_mode mode, enum vlc_refusal *why);
int vlc_phy_brightness_range(const struct vlc_phy_timing *t,
			     enum vlc_phy_mode mode, u32 *min, u32 *max);

/* Driving the engine (hrtimer, RT kthread or virtual-time simulator alike):
 *
 *	next = vlc_phy_start(phy, now);
 *	loop: sleep until next; next = vlc_phy_tick(phy, now);
 *
 * vlc_phy_tick() returns the absolute time of the next slot boundary; it
 * never drifts, whatever the lateness of @now_ns. Most ticks cost a few
 * compares and one or two pin calls; the tick that ends S2 also decodes
 * the frame (7 to 11 line fits from one pass of sums, each a few
 * divisions) and calls the client. The setters, vlc_phy_adjust_phase() and
 * vlc_phy_tick() must be serialised by the caller; settings take effect
 * at the next frame start, and a rejected setting changes nothing.
 */
void vlc_phy_init(struct vlc_phy *phy, const struct vlc_pin_ops *pins,
		  void *pin_ctx, const struct vlc_phy_client_ops *client,
		  void *client_ctx);
int vlc_phy_set_config(struct vlc_phy *phy, const struct vlc_phy_timing *t,
		       enum vlc_phy_mode mode, u32 brightness,
		       enum vlc_refusal *why);
void vlc_phy_get_config(const struct vlc_phy *phy, struct vlc_phy_timing *t,
			enum vlc_phy_mode *mode, u32 *brightness);
int vlc_phy_set_timing(struct vlc_phy *phy, const struct vlc_phy_timing *t,
		       enum vlc_refusal *why);
int vlc_phy_set_mode(struct vlc_phy *phy, enum vlc_phy_mode mode,
		     enum vlc_refusal *why);
int vlc_phy_set_brightness(struct vlc_phy *phy, u32 brightness,
			   enum vlc_refusal *why);
void vlc_phy_set_pins(struct vlc_phy *phy, const struct vlc_pin_ops *pins);
void vlc_phy_set_rx_min_level(struct vlc_phy *phy, u32 level);

u64 vlc_phy_start(struct vlc_phy *phy, u64 now_ns);
u64 vlc_phy_tick(struct vlc_phy *phy, u64 now_ns);
void vlc_phy_stop(struct vlc_phy *phy, u64 now_ns);
/* Positive @ns delays our frame grid by stretching the dark ID part. */
void vlc_phy_adjust_phase(struct vlc_phy *phy, s32 ns);

/* The acquisition search (about a million instructions per frame, see
 * vlc_phy_acq.c) runs inside vlc_phy_tick(), spread over the ticks of a
 * frame, unless deferred. Deferred, the tick only captures a frame, and
 * the executor runs the search in process context:
 *
 *	under the lock:		if (!vlc_phy_acq_begin(phy)) return;
 *	without it:		vlc_phy_acq_search(phy);
 *	under the lock:		vlc_phy_acq_end(phy);
 *
 * vlc_phy_acq_pending() says, under the lock, that a frame waits. The
 * search touches only its own part of the state, so ticks go on while it
 * runs; frames captured meanwhile are not searched, and an outcome that
 * the tick made stale (a lock, an unlock, a grid move) is dropped.
 */
void vlc_phy_set_acq_defer(struct vlc_phy *phy, bool defer);
bool vlc_phy_acq_pending(const struct vlc_phy *phy);
bool vlc_phy_acq_begin(struct vlc_phy *phy);
void vlc_phy_acq_search(struct vlc_phy *phy);
void vlc_phy_acq_end(struct vlc_phy *phy);
/* For the host simulator: the search runs in the tick now. */
bool vlc_phy_acq_in_tick(const struct vlc_phy *phy);

/* Absolute time of the next slot boundary, for the executor. */
static inline u64 vlc_phy_next_ns(const struct vlc_phy *phy)
{
	return phy->next_ns;
}

/* Absolute start of the frame in progress. */
static inline u64 vlc_phy_frame_start(const struct vlc_phy *phy)
{
	return phy->frame_start;
}

/* What the PHY's owner reads of it, under the executor's lock: the
 * counters, the last frame's report, and that frame's window levels
 * (S1 first, @nmeas of them) and the symbol it sent (-1: none).
 */
static inline const struct vlc_phy_stats *
vlc_phy_get_stats(const struct vlc_phy *phy)
{
	return &phy->stats;
}

static inline const struct vlc_phy_rx *
vlc_phy_get_last_rx(const struct vlc_phy *phy)
{
	return &phy->last_rx;
}

static inline const u32 *vlc_phy_frame_levels(const struct vlc_phy *phy,
					      unsigned int *nmeas)
{
	*nmeas = phy->nmeas;
	return phy->level;
}

static inline int vlc_phy_frame_tx_sym(const struct vlc_phy *phy)
{
	return phy->tx_sym;
}

static inline unsigned int vlc_phy_bits(enum vlc_phy_mode mode)
{
	return mode == VLC_PHY_MODE_4PPM ? 2 : 1;
}

/* @v >> @shift on its magnitude: rounds toward zero, either sign alike
 * (the PHY's fits and the resync loop's filters)
 */
static inline s64 vlc_phy_sshr(s64 v, unsigned int shift)
{
	u64 mag = v < 0 ? -(u64)v : (u64)v;

	mag >>= shift;
	return v < 0 ? -(s64)mag : (s64)mag;
}

#endif /* _VLC_PHY_H */
