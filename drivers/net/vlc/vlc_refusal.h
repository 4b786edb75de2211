/* SPDX-License-Identifier: GPL-2.0 */
/* Why a setting of the PHY, the executor or the MAC is refused: one code
 * per check, naming the field it refuses, the fields it was checked
 * against, and a message, in one table. The checks are pure C and
 * report the code; the glue prints the message, and vlc_nl.c points the
 * extended ACK at the attribute that carries the field.
 */
#ifndef _VLC_REFUSAL_H
#define _VLC_REFUSAL_H

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/types.h>

/* The settings, whatever carries them (netlink, device tree, tests). */
enum vlc_field {
	VLC_FIELD_MODULATION,
	VLC_FIELD_BRIGHTNESS,
	VLC_FIELD_SYNC,
	VLC_FIELD_GUARD,
	VLC_FIELD_DATA,
	VLC_FIELD_FRAME,
	VLC_FIELD_TOLERANCE,
	VLC_FIELD_RTS_THRESHOLD,
	VLC_FIELD_RETRY_LIMIT,
	VLC_FIELD_CW_MIN,
	VLC_FIELD_CW_MAX,
	VLC_FIELD_FRAG_SIZE,
	VLC_FIELD_BEACON_INTERVAL,
	VLC_FIELD_LOC_INTERVAL,
	VLC_FIELD_MAX_AGE,
	VLC_FIELD_SHORT_ADDR,
	VLC_FIELD_BITS_PER_SYMBOL,
	VLC_FIELD_SIFS,
	VLC_FIELD_DIFS,
	VLC_FIELD_PREAMBLE,
	VLC_FIELD_ACK_TIMEOUT,
	VLC_FIELD_SYNC_DEADBAND,
	VLC_FIELD_FEC,
};

#define VLC_F(f)	BIT(VLC_FIELD_##f)
/* what the length of the frame's measured part depends on */
#define VLC_F_SLOTS	(VLC_F(MODULATION) | VLC_F(SYNC) | VLC_F(GUARD) | \
			 VLC_F(DATA))

/* One per check; VLC_REFUSE_NONE (0) for a setting accepted. */
enum vlc_refusal {
	VLC_REFUSE_NONE,
	VLC_REFUSE_MODULATION,
	VLC_REFUSE_SYNC_MIN,
	VLC_REFUSE_GUARD_MIN,
	VLC_REFUSE_DATA_MIN,
	VLC_REFUSE_FRAME_MAX,
	VLC_REFUSE_FRAME_MIN,
	VLC_REFUSE_GUARD_TOLERANCE,
	VLC_REFUSE_FRAME_SLOTS,
	VLC_REFUSE_BRIGHTNESS_TIMING,
	VLC_REFUSE_BRIGHTNESS_MAX,
	VLC_REFUSE_BRIGHTNESS_MIN,
	VLC_REFUSE_EXEC_FRAME,
	VLC_REFUSE_EXEC_SYNC,
	VLC_REFUSE_EXEC_GUARD,
	VLC_REFUSE_EXEC_DATA,
	VLC_REFUSE_SHORT_ADDR,
	VLC_REFUSE_BITS_PER_SYMBOL,
	VLC_REFUSE_FRAG_SIZE,
	VLC_REFUSE_RETRY_LIMIT,
	VLC_REFUSE_CW_MAX,
	VLC_REFUSE_CW_MIN,
	VLC_REFUSE_SIFS,
	VLC_REFUSE_DIFS,
	VLC_REFUSE_PREAMBLE,
	VLC_REFUSE_ACK_TIMEOUT_MIN,
	VLC_REFUSE_ACK_TIMEOUT_MAX,
	VLC_REFUSE_SYNC_DEADBAND,
	VLC_REFUSE_BEACON_INTERVAL,
	VLC_REFUSE_LOC_INTERVAL,
	VLC_REFUSE_RTS_THRESHOLD,
	VLC_REFUSE_MAX_AGE,
	VLC_REFUSE_FEC,
	VLC_REFUSE_FEC_UNAVAILABLE,
	VLC_REFUSE_COUNT
};

struct vlc_refusal_info {
	u8 field;		/* the VLC_FIELD_* it refuses */
	u32 also;		/* VLC_F() bits: the fields checked against */
	const char *msg;	/* for the log and the extended ACK */
};

/* What a refusal says; NULL for VLC_REFUSE_NONE. */
static inline const struct vlc_refusal_info *
vlc_refusal_info(enum vlc_refusal r)
{
	static const struct vlc_refusal_info info[VLC_REFUSE_COUNT] = {
		[VLC_REFUSE_MODULATION] = { VLC_FIELD_MODULATION, 0,
			"modulation is neither 2slot nor 4ppm" },
		[VLC_REFUSE_SYNC_MIN] = { VLC_FIELD_SYNC, 0,
			"sync-us below 1 us" },
		[VLC_REFUSE_GUARD_MIN] = { VLC_FIELD_GUARD, 0,
			"guard-us below 1 us" },
		[VLC_REFUSE_DATA_MIN] = { VLC_FIELD_DATA, 0,
			"data-us below 1 us" },
		[VLC_REFUSE_FRAME_MAX] = { VLC_FIELD_FRAME, 0,
			"frame-us above 100 ms" },
		[VLC_REFUSE_FRAME_MIN] = { VLC_FIELD_FRAME, 0,
			"frame-us below 10 us" },
		[VLC_REFUSE_GUARD_TOLERANCE] = {
			VLC_FIELD_GUARD, VLC_F(TOLERANCE),
			"guard-us shorter than tolerance-us" },
		[VLC_REFUSE_FRAME_SLOTS] = { VLC_FIELD_FRAME, VLC_F_SLOTS,
			"frame-us too short for its sync-us, guard-us and data-us slots" },
		[VLC_REFUSE_BRIGHTNESS_TIMING] = {
			VLC_FIELD_BRIGHTNESS, VLC_F_SLOTS | VLC_F(FRAME),
			"timing invalid for brightness" },
		[VLC_REFUSE_BRIGHTNESS_MAX] = {
			VLC_FIELD_BRIGHTNESS, VLC_F_SLOTS | VLC_F(FRAME),
			"brightness above the maximum the illumination part allows" },
		[VLC_REFUSE_BRIGHTNESS_MIN] = {
			VLC_FIELD_BRIGHTNESS, VLC_F(DATA) | VLC_F(FRAME),
			"brightness below the minimum of one data slot" },
		[VLC_REFUSE_EXEC_FRAME] = { VLC_FIELD_FRAME, 0,
			"frame-us below 250 us, the shortest a timer executor runs" },
		[VLC_REFUSE_EXEC_SYNC] = { VLC_FIELD_SYNC, 0,
			"sync-us below 10 us, the shortest slot a timer executor runs" },
		[VLC_REFUSE_EXEC_GUARD] = { VLC_FIELD_GUARD, 0,
			"guard-us below 10 us, the shortest slot a timer executor runs" },
		[VLC_REFUSE_EXEC_DATA] = { VLC_FIELD_DATA, 0,
			"data-us below 10 us, the shortest slot a timer executor runs" },
		[VLC_REFUSE_SHORT_ADDR] = { VLC_FIELD_SHORT_ADDR, 0,
			"short_addr: 255 is broadcast (0..254)" },
		[VLC_REFUSE_BITS_PER_SYMBOL] = {
			VLC_FIELD_BITS_PER_SYMBOL, VLC_F(MODULATION),
			"bits_per_symbol: must be 1 or 2" },
		[VLC_REFUSE_FRAG_SIZE] = { VLC_FIELD_FRAG_SIZE, 0,
			"frag-size: must be 48..240 (32 fragments per packet)" },
		[VLC_REFUSE_RETRY_LIMIT] = { VLC_FIELD_RETRY_LIMIT, 0,
			"retry-limit: must be 0..15" },
		[VLC_REFUSE_CW_MAX] = { VLC_FIELD_CW_MAX, 0,
			"cw-max: must be 1..1024" },
		[VLC_REFUSE_CW_MIN] = { VLC_FIELD_CW_MIN, VLC_F(CW_MAX),
			"cw-min: must be 1..cw-max" },
		[VLC_REFUSE_SIFS] = { VLC_FIELD_SIFS, 0,
			"sifs: must be 1..15 (receivers need an idle frame)" },
		[VLC_REFUSE_DIFS] = { VLC_FIELD_DIFS, VLC_F(SIFS),
			"difs: must be sifs+1..64 (ACKs go first)" },
		[VLC_REFUSE_PREAMBLE] = { VLC_FIELD_PREAMBLE, 0,
			"preamble: must be 2..32 symbols" },
		[VLC_REFUSE_ACK_TIMEOUT_MIN] = {
			VLC_FIELD_ACK_TIMEOUT, VLC_F(SIFS) | VLC_F(PREAMBLE) | VLC_F(MODULATION),
			"ack_timeout: shorter than SIFS plus an ACK" },
		[VLC_REFUSE_ACK_TIMEOUT_MAX] = { VLC_FIELD_ACK_TIMEOUT, 0,
			"ack_timeout: must be 0 (derived) or at most 4096" },
		[VLC_REFUSE_SYNC_DEADBAND] = { VLC_FIELD_SYNC_DEADBAND, 0,
			"sync_deadband_ns: must be 0..1000000" },
		[VLC_REFUSE_BEACON_INTERVAL] = { VLC_FIELD_BEACON_INTERVAL, 0,
			"beacon-interval: must be 0 (off) or 64..65535 frames" },
		[VLC_REFUSE_LOC_INTERVAL] = { VLC_FIELD_LOC_INTERVAL, 0,
			"loc-interval: must be 0 (off) or 64..65535 frames" },
		[VLC_REFUSE_RTS_THRESHOLD] = { VLC_FIELD_RTS_THRESHOLD, 0,
			"rts-threshold: must be 0 (off) or 1..1518 bytes" },
		[VLC_REFUSE_MAX_AGE] = { VLC_FIELD_MAX_AGE, 0,
			"max-age: must be 0 (off) or 64..65535 frames" },
		[VLC_REFUSE_FEC] = { VLC_FIELD_FEC, 0,
			"fec: must be off, auto, or 2, 4, 8, 16 or 32 parity symbols" },
		[VLC_REFUSE_FEC_UNAVAILABLE] = { VLC_FIELD_FEC, 0,
			"fec: this kernel has no REED_SOLOMON" },
	};

	if (r <= VLC_REFUSE_NONE || r >= VLC_REFUSE_COUNT)
		return NULL;
	return &info[r];
}

/* The message of @r, or NULL for VLC_REFUSE_NONE. */
static inline const char *vlc_refusal_msg(enum vlc_refusal r)
{
	const struct vlc_refusal_info *i = vlc_refusal_info(r);

	return i ? i->msg : NULL;
}

/* The field @r refuses; meaningless for VLC_REFUSE_NONE. */
static inline enum vlc_field vlc_refusal_field(enum vlc_refusal r)
{
	const struct vlc_refusal_info *i = vlc_refusal_info(r);

	return i ? i->field : 0;
}

/* The fields (VLC_F() bits) @r checked its field against: a request that
 * changed one of those instead is pointed at it.
 */
static inline u32 vlc_refusal_also(enum vlc_refusal r)
{
	const struct vlc_refusal_info *i = vlc_refusal_info(r);

	return i ? i->also : 0;
}

#endif /* _VLC_REFUSAL_H */
