/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Generic netlink interface of visible-light communication (VLC) devices:
 * read and change the PHY and MAC settings of a vlc net_device at run
 * time, and read the neighbours it hears by their beacons.
 *
 * Family VLC_GENL_NAME. VLC_CMD_GET with VLC_ATTR_IFINDEX (or
 * VLC_ATTR_IFNAME) answers for one device; as a dump (NLM_F_DUMP) it lists
 * every vlc device of the caller's network namespace. VLC_CMD_SET
 * (CAP_NET_ADMIN over the netns; the timing and the modulation, in the
 * initial user namespace) changes the settings it carries, all together
 * or none: the settings it leaves out keep their values, and on error the
 * extended ACK names the value that was refused.
 *
 * Multicast group VLC_MCGRP_EVENTS: VLC_CMD_EVENT, with VLC_ATTR_IFINDEX,
 * VLC_ATTR_IFNAME and VLC_ATTR_EVENT, for the devices of the listener's
 * network namespace.
 *
 * Attributes marked (ro) only appear in replies; a request carrying one is
 * refused.
 */
#ifndef _UAPI_LINUX_VLC_H
#define _UAPI_LINUX_VLC_H

#define VLC_GENL_NAME		"vlc"
#define VLC_GENL_VERSION	1
#define VLC_MCGRP_EVENTS	"events"

enum vlc_cmd {
	VLC_CMD_UNSPEC,
	VLC_CMD_GET,		/* doit: one device; dumpit: all of the netns */
	VLC_CMD_SET,		/* needs CAP_NET_ADMIN over the netns */
	VLC_CMD_EVENT,		/* notification of VLC_MCGRP_EVENTS */

	__VLC_CMD_MAX,
	VLC_CMD_MAX = __VLC_CMD_MAX - 1
};

/* VLC_ATTR_EVENT values */
enum vlc_event {
	VLC_EVENT_UNSPEC,
	VLC_EVENT_LOCK,		/* the PHY locked to a neighbour (fine sync) */
	VLC_EVENT_UNLOCK,	/* ... lost it, and acquires again */
	VLC_EVENT_CARRIER_ON,	/* the interface has carrier */
	VLC_EVENT_CARRIER_OFF,
	VLC_EVENT_NEIGH_NEW,	/* a neighbour's beacons heard: VLC_ATTR_NEIGH_ID */
	VLC_EVENT_NEIGH_GONE,	/* ... and forgotten, for a newer one */

	__VLC_EVENT_MAX,
	VLC_EVENT_MAX = __VLC_EVENT_MAX - 1
};

/* VLC_ATTR_MODULATION values */
enum vlc_modulation {
	VLC_MODULATION_2SLOT,	/* 1 bit per frame, differential D1/D2 */
	VLC_MODULATION_4PPM,	/* 2 bits per frame, one of D1..D4 lit */

	__VLC_MODULATION_MAX,
	VLC_MODULATION_MAX = __VLC_MODULATION_MAX - 1
};

enum vlc_attr {
	VLC_ATTR_UNSPEC,
	VLC_ATTR_PAD,
	VLC_ATTR_IFINDEX,		/* u32 */
	VLC_ATTR_IFNAME,		/* string, in the caller's netns */

	/* settings (GET and SET); timings in nanoseconds */
	VLC_ATTR_MODULATION,		/* u8, enum vlc_modulation */
	VLC_ATTR_BRIGHTNESS,		/* u32, per-mille of full light */
	VLC_ATTR_SYNC_NS,		/* u32, S1 and S2 */
	VLC_ATTR_GUARD_NS,		/* u32, each guard slot */
	VLC_ATTR_DATA_NS,		/* u32, each data slot */
	VLC_ATTR_FRAME_NS,		/* u32, the whole PWM period */
	VLC_ATTR_TOLERANCE_NS,		/* u32, timer lateness absorbed */

	/* state (ro) */
	VLC_ATTR_BRIGHTNESS_MIN,	/* u32, range the timing allows */
	VLC_ATTR_BRIGHTNESS_MAX,	/* u32 */
	VLC_ATTR_SHORT_ADDR,		/* u8, address on air */
	VLC_ATTR_EXECUTOR,		/* string: hrtimer, thread, external */
	VLC_ATTR_RUNNING,		/* u8, interface up */
	VLC_ATTR_CARRIER,		/* u8, a neighbour is seen */
	VLC_ATTR_LOCKED,		/* u8, fine sync (not acquiring) */
	VLC_ATTR_SIGNAL,		/* u32, lit data slot above ambient */
	VLC_ATTR_NOISE,			/* u32, noise rms */
	VLC_ATTR_AMBIENT,		/* u32, ambient at the data slots */
	VLC_ATTR_PHY_FRAMES,		/* u64, frame periods elapsed */
	VLC_ATTR_PHY_SYMBOLS_TX,	/* u64 */
	VLC_ATTR_PHY_SYMBOLS_RX,	/* u64 */
	VLC_ATTR_PHY_ERASURES,		/* u64 */
	VLC_ATTR_PHY_LATE,		/* u64, boundaries later than tolerance */
	VLC_ATTR_PHY_OVERRUNS,		/* u64 */

	/* MAC settings (GET and SET); times in PHY frames (FRAME_NS each) */
	VLC_ATTR_RTS_THRESHOLD,		/* u32, bytes: 0 off, 1..1518 */
	VLC_ATTR_RETRY_LIMIT,		/* u32, 0..15 */
	VLC_ATTR_CW_MIN,		/* u32, frames: 1..CW_MAX */
	VLC_ATTR_CW_MAX,		/* u32, frames: 1..1024 */
	VLC_ATTR_FRAG_SIZE,		/* u32, bytes: 48..240 */
	VLC_ATTR_BEACON_INTERVAL,	/* u32, frames: 0 off, 64..65535 */
	VLC_ATTR_LOC_INTERVAL,		/* u32, frames: 0 off, 64..65535 */

	/* MAC state (ro) */
	VLC_ATTR_NAV,			/* u32, frames still reserved by others */
	VLC_ATTR_BEACONS,		/* nested: VLC_BEACONS_ENTRY list */

	/* notifications (ro) */
	VLC_ATTR_EVENT,			/* u8, enum vlc_event */
	VLC_ATTR_NEIGH_ID,		/* u8, a neighbour's short address */

	__VLC_ATTR_MAX,
	VLC_ATTR_MAX = __VLC_ATTR_MAX - 1
};

/* Inside VLC_ATTR_BEACONS: one entry per neighbour heard by its beacons
 * (location beacons, or the idle beacons that keep links locked).
 */
enum vlc_beacons_attr {
	VLC_BEACONS_UNSPEC,
	VLC_BEACONS_ENTRY,		/* nested: enum vlc_beacon_attr */

	__VLC_BEACONS_MAX,
	VLC_BEACONS_MAX = __VLC_BEACONS_MAX - 1
};

enum vlc_beacon_attr {
	VLC_BEACON_ATTR_UNSPEC,
	VLC_BEACON_ATTR_ID,		/* u8, the neighbour's short address */
	VLC_BEACON_ATTR_LEVEL,		/* u32, its light above ambient */
	VLC_BEACON_ATTR_COUNT,		/* u32, beacons heard (saturates) */
	VLC_BEACON_ATTR_AGE_MS,		/* u32, since its last beacon */

	__VLC_BEACON_ATTR_MAX,
	VLC_BEACON_ATTR_MAX = __VLC_BEACON_ATTR_MAX - 1
};

#endif /* _UAPI_LINUX_VLC_H */
