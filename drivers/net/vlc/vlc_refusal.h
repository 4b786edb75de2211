/* SPDX-License-Identifier: GPL-2.0 */
/* Why a setting of the PHY, the executor or the MAC is refused: one code
 * per check, naming the field it refuses, the fields it was checked
 * against, and a message. The checks are pure C and report the code; the
 * glue prints the message, and vlc_nl.c points the extended ACK at the
 * attribute that carries the field. NL_SET_ERR_MSG_ATTR() takes a literal
 * at its call site (the extended ACK keeps a pointer to it), hence each
 * message is a macro.
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

/* The messages: literals, for NL_SET_ERR_MSG_ATTR() in vlc_nl.c. */
#define VLC_MSG_MODULATION	"modulation is neither 2slot nor 4ppm"
#define VLC_MSG_SYNC_MIN	"sync-us below 1 us"
#define VLC_MSG_GUARD_MIN	"guard-us below 1 us"
#define VLC_MSG_DATA_MIN	"data-us below 1 us"
#define VLC_MSG_FRAME_MAX	"frame-us above 100 ms"
#define VLC_MSG_FRAME_MIN	"frame-us below 10 us"
#define VLC_MSG_GUARD_TOLERANCE	"guard-us shorter than tolerance-us"
#define VLC_MSG_FRAME_SLOTS \
	"frame-us too short for its sync-us, guard-us and data-us slots"
#define VLC_MSG_BRIGHTNESS_TIMING	"timing invalid for brightness"
#define VLC_MSG_BRIGHTNESS_MAX \
	"brightness above the maximum the illumination part allows"
#define VLC_MSG_BRIGHTNESS_MIN	"brightness below the minimum of one data slot"
#define VLC_MSG_EXEC_FRAME \
	"frame-us below 250 us, the shortest a timer executor runs"
#define VLC_MSG_EXEC_SYNC \
	"sync-us below 10 us, the shortest slot a timer executor runs"
#define VLC_MSG_EXEC_GUARD \
	"guard-us below 10 us, the shortest slot a timer executor runs"
#define VLC_MSG_EXEC_DATA \
	"data-us below 10 us, the shortest slot a timer executor runs"
#define VLC_MSG_SHORT_ADDR	"short_addr: 255 is broadcast (0..254)"
#define VLC_MSG_BITS_PER_SYMBOL	"bits_per_symbol: must be 1 or 2"
#define VLC_MSG_FRAG_SIZE \
	"frag-size: must be 48..240 (32 fragments per packet)"
#define VLC_MSG_RETRY_LIMIT	"retry-limit: must be 0..15"
#define VLC_MSG_CW_MAX	"cw-max: must be 1..1024"
#define VLC_MSG_CW_MIN	"cw-min: must be 1..cw-max"
#define VLC_MSG_SIFS	"sifs: must be 1..15 (receivers need an idle frame)"
#define VLC_MSG_DIFS	"difs: must be sifs+1..64 (ACKs go first)"
#define VLC_MSG_PREAMBLE	"preamble: must be 2..32 symbols"
#define VLC_MSG_ACK_TIMEOUT_MIN	"ack_timeout: shorter than SIFS plus an ACK"
#define VLC_MSG_ACK_TIMEOUT_MAX \
	"ack_timeout: must be 0 (derived) or at most 4096"
#define VLC_MSG_SYNC_DEADBAND	"sync_deadband_ns: must be 0..1000000"
#define VLC_MSG_BEACON_INTERVAL \
	"beacon-interval: must be 0 (off) or 64..65535 frames"
#define VLC_MSG_LOC_INTERVAL \
	"loc-interval: must be 0 (off) or 64..65535 frames"
#define VLC_MSG_RTS_THRESHOLD \
	"rts-threshold: must be 0 (off) or 1..1518 bytes"
#define VLC_MSG_MAX_AGE	"max-age: must be 0 (off) or 64..65535 frames"
#define VLC_MSG_FEC \
	"fec: must be off, auto, or 2, 4, 8, 16 or 32 parity symbols"
#define VLC_MSG_FEC_UNAVAILABLE	"fec: this kernel has no REED_SOLOMON"

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

/* The message of @r, or NULL for VLC_REFUSE_NONE. */
static inline const char *vlc_refusal_msg(enum vlc_refusal r)
{
	static const char *const msg[VLC_REFUSE_COUNT] = {
		[VLC_REFUSE_MODULATION] = VLC_MSG_MODULATION,
		[VLC_REFUSE_SYNC_MIN] = VLC_MSG_SYNC_MIN,
		[VLC_REFUSE_GUARD_MIN] = VLC_MSG_GUARD_MIN,
		[VLC_REFUSE_DATA_MIN] = VLC_MSG_DATA_MIN,
		[VLC_REFUSE_FRAME_MAX] = VLC_MSG_FRAME_MAX,
		[VLC_REFUSE_FRAME_MIN] = VLC_MSG_FRAME_MIN,
		[VLC_REFUSE_GUARD_TOLERANCE] = VLC_MSG_GUARD_TOLERANCE,
		[VLC_REFUSE_FRAME_SLOTS] = VLC_MSG_FRAME_SLOTS,
		[VLC_REFUSE_BRIGHTNESS_TIMING] = VLC_MSG_BRIGHTNESS_TIMING,
		[VLC_REFUSE_BRIGHTNESS_MAX] = VLC_MSG_BRIGHTNESS_MAX,
		[VLC_REFUSE_BRIGHTNESS_MIN] = VLC_MSG_BRIGHTNESS_MIN,
		[VLC_REFUSE_EXEC_FRAME] = VLC_MSG_EXEC_FRAME,
		[VLC_REFUSE_EXEC_SYNC] = VLC_MSG_EXEC_SYNC,
		[VLC_REFUSE_EXEC_GUARD] = VLC_MSG_EXEC_GUARD,
		[VLC_REFUSE_EXEC_DATA] = VLC_MSG_EXEC_DATA,
		[VLC_REFUSE_SHORT_ADDR] = VLC_MSG_SHORT_ADDR,
		[VLC_REFUSE_BITS_PER_SYMBOL] = VLC_MSG_BITS_PER_SYMBOL,
		[VLC_REFUSE_FRAG_SIZE] = VLC_MSG_FRAG_SIZE,
		[VLC_REFUSE_RETRY_LIMIT] = VLC_MSG_RETRY_LIMIT,
		[VLC_REFUSE_CW_MAX] = VLC_MSG_CW_MAX,
		[VLC_REFUSE_CW_MIN] = VLC_MSG_CW_MIN,
		[VLC_REFUSE_SIFS] = VLC_MSG_SIFS,
		[VLC_REFUSE_DIFS] = VLC_MSG_DIFS,
		[VLC_REFUSE_PREAMBLE] = VLC_MSG_PREAMBLE,
		[VLC_REFUSE_ACK_TIMEOUT_MIN] = VLC_MSG_ACK_TIMEOUT_MIN,
		[VLC_REFUSE_ACK_TIMEOUT_MAX] = VLC_MSG_ACK_TIMEOUT_MAX,
		[VLC_REFUSE_SYNC_DEADBAND] = VLC_MSG_SYNC_DEADBAND,
		[VLC_REFUSE_BEACON_INTERVAL] = VLC_MSG_BEACON_INTERVAL,
		[VLC_REFUSE_LOC_INTERVAL] = VLC_MSG_LOC_INTERVAL,
		[VLC_REFUSE_RTS_THRESHOLD] = VLC_MSG_RTS_THRESHOLD,
		[VLC_REFUSE_MAX_AGE] = VLC_MSG_MAX_AGE,
		[VLC_REFUSE_FEC] = VLC_MSG_FEC,
		[VLC_REFUSE_FEC_UNAVAILABLE] = VLC_MSG_FEC_UNAVAILABLE,
	};

	return (unsigned int)r < ARRAY_SIZE(msg) ? msg[r] : NULL;
}

/* The field @r refuses; meaningless for VLC_REFUSE_NONE. */
static inline enum vlc_field vlc_refusal_field(enum vlc_refusal r)
{
	static const u8 field[VLC_REFUSE_COUNT] = {
		[VLC_REFUSE_MODULATION] = VLC_FIELD_MODULATION,
		[VLC_REFUSE_SYNC_MIN] = VLC_FIELD_SYNC,
		[VLC_REFUSE_GUARD_MIN] = VLC_FIELD_GUARD,
		[VLC_REFUSE_DATA_MIN] = VLC_FIELD_DATA,
		[VLC_REFUSE_FRAME_MAX] = VLC_FIELD_FRAME,
		[VLC_REFUSE_FRAME_MIN] = VLC_FIELD_FRAME,
		[VLC_REFUSE_GUARD_TOLERANCE] = VLC_FIELD_GUARD,
		[VLC_REFUSE_FRAME_SLOTS] = VLC_FIELD_FRAME,
		[VLC_REFUSE_BRIGHTNESS_TIMING] = VLC_FIELD_BRIGHTNESS,
		[VLC_REFUSE_BRIGHTNESS_MAX] = VLC_FIELD_BRIGHTNESS,
		[VLC_REFUSE_BRIGHTNESS_MIN] = VLC_FIELD_BRIGHTNESS,
		[VLC_REFUSE_EXEC_FRAME] = VLC_FIELD_FRAME,
		[VLC_REFUSE_EXEC_SYNC] = VLC_FIELD_SYNC,
		[VLC_REFUSE_EXEC_GUARD] = VLC_FIELD_GUARD,
		[VLC_REFUSE_EXEC_DATA] = VLC_FIELD_DATA,
		[VLC_REFUSE_SHORT_ADDR] = VLC_FIELD_SHORT_ADDR,
		[VLC_REFUSE_BITS_PER_SYMBOL] = VLC_FIELD_BITS_PER_SYMBOL,
		[VLC_REFUSE_FRAG_SIZE] = VLC_FIELD_FRAG_SIZE,
		[VLC_REFUSE_RETRY_LIMIT] = VLC_FIELD_RETRY_LIMIT,
		[VLC_REFUSE_CW_MAX] = VLC_FIELD_CW_MAX,
		[VLC_REFUSE_CW_MIN] = VLC_FIELD_CW_MIN,
		[VLC_REFUSE_SIFS] = VLC_FIELD_SIFS,
		[VLC_REFUSE_DIFS] = VLC_FIELD_DIFS,
		[VLC_REFUSE_PREAMBLE] = VLC_FIELD_PREAMBLE,
		[VLC_REFUSE_ACK_TIMEOUT_MIN] = VLC_FIELD_ACK_TIMEOUT,
		[VLC_REFUSE_ACK_TIMEOUT_MAX] = VLC_FIELD_ACK_TIMEOUT,
		[VLC_REFUSE_SYNC_DEADBAND] = VLC_FIELD_SYNC_DEADBAND,
		[VLC_REFUSE_BEACON_INTERVAL] = VLC_FIELD_BEACON_INTERVAL,
		[VLC_REFUSE_LOC_INTERVAL] = VLC_FIELD_LOC_INTERVAL,
		[VLC_REFUSE_RTS_THRESHOLD] = VLC_FIELD_RTS_THRESHOLD,
		[VLC_REFUSE_MAX_AGE] = VLC_FIELD_MAX_AGE,
		[VLC_REFUSE_FEC] = VLC_FIELD_FEC,
		[VLC_REFUSE_FEC_UNAVAILABLE] = VLC_FIELD_FEC,
	};

	return (unsigned int)r < ARRAY_SIZE(field) ? field[r] : 0;
}

/* The fields (VLC_F() bits) @r checked its field against: a request that
 * changed one of those instead is pointed at it.
 */
static inline u32 vlc_refusal_also(enum vlc_refusal r)
{
	static const u32 also[VLC_REFUSE_COUNT] = {
		[VLC_REFUSE_GUARD_TOLERANCE] = VLC_F(TOLERANCE),
		[VLC_REFUSE_FRAME_SLOTS] = VLC_F_SLOTS,
		[VLC_REFUSE_BRIGHTNESS_TIMING] = VLC_F_SLOTS | VLC_F(FRAME),
		[VLC_REFUSE_BRIGHTNESS_MAX] = VLC_F_SLOTS | VLC_F(FRAME),
		[VLC_REFUSE_BRIGHTNESS_MIN] = VLC_F(DATA) | VLC_F(FRAME),
		[VLC_REFUSE_BITS_PER_SYMBOL] = VLC_F(MODULATION),
		[VLC_REFUSE_CW_MIN] = VLC_F(CW_MAX),
		[VLC_REFUSE_DIFS] = VLC_F(SIFS),
		[VLC_REFUSE_ACK_TIMEOUT_MIN] = VLC_F(SIFS) | VLC_F(PREAMBLE) |
			VLC_F(MODULATION),
	};

	return (unsigned int)r < ARRAY_SIZE(also) ? also[r] : 0;
}

#endif /* _VLC_REFUSAL_H */
