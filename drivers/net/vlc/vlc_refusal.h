/* SPDX-License-Identifier: GPL-2.0 */
/* Why a setting of the PHY, the executor or the MAC is refused: one code
 * per check, naming the field it refuses, the fields it was checked
 * against, and a message, in one list (vlc_refusal_list.h). The checks
 * are pure C and report the code; the glue prints the message, and
 * vlc_nl.c points the extended ACK at the attribute that carries the
 * field.
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
#define VLC_REFUSAL(code, ...)	VLC_REFUSE_##code,
#include "vlc_refusal_list.h"
#undef VLC_REFUSAL
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
#define VLC_REFUSAL(code, f, a, m)	\
		[VLC_REFUSE_##code] = { VLC_FIELD_##f, a, m },
#include "vlc_refusal_list.h"
#undef VLC_REFUSAL
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
