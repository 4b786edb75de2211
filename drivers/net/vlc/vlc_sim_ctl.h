/* SPDX-License-Identifier: GPL-2.0 */
/* The controls of the simulated medium: what vlc_sim.ko offers the "vlc"
 * generic netlink family of vlc.ko (vlc_nl_sim.c), and the limits that
 * family's policy checks (Documentation/netlink/specs/vlc.yaml).
 */
#ifndef _VLC_SIM_CTL_H
#define _VLC_SIM_CTL_H

#include <linux/types.h>
#include <uapi/linux/vlc.h>

#define VLC_SIM_MAX_NODES	64
#define VLC_SIM_NODE_ID_MAX	(VLC_SIM_MAX_NODES - 1)
#define VLC_SIM_GAIN_MAX	1000
#define VLC_SIM_SKEW_MAX	100000			/* ppm */
#define VLC_SIM_SKEW_MIN	(-VLC_SIM_SKEW_MAX)
#define VLC_SIM_PHASE_US_MAX	10000000		/* 10 s */
#define VLC_SIM_PHASE_US_MIN	(-VLC_SIM_PHASE_US_MAX)
#define VLC_SIM_SPEED_MAX	100000			/* percent */
#define VLC_SIM_LIGHT_MAX	1000000			/* a thousand lit LEDs */
#define VLC_SIM_FLICKER_HZ_MAX	10000
#define VLC_SIM_PPM_MAX		1000000
#define VLC_SIM_LATE_US_MAX	1000000			/* 1 s */
#define VLC_SIM_BURST_US_MAX	10000000		/* 10 s */

struct net_device;

/**
 * struct vlc_sim_medium - the settings of the medium
 * @val: the u32 settings, indexed by their VLC_SIM_ATTR_*
 * @given: which VLC_SIM_ATTR_* a change carries (@val, and SEED)
 * @seed: seed of the noise and fault generators
 * @vtime_us: virtual time (read only)
 * @nodes: nodes on the medium (read only)
 */
struct vlc_sim_medium {
	u32 val[VLC_SIM_ATTR_MAX + 1];
	unsigned long given;
	u64 seed;
	u64 vtime_us;
	u32 nodes;
};

/**
 * struct vlc_sim_node_conf - the settings and counters of one node
 * @given: which VLC_SIM_NODE_ATTR_* a change carries
 * @skew_ppm: clock skew
 * @phase_us: clock phase
 * @rx: enum vlc_sim_rx
 * @bursts: error bursts started at this receiver (read only)
 * @rx_lit: windows measured while its own LED was lit (read only)
 * @gain: light seen from each node, per mille (read only here: edges)
 * @cover_us: what is left of the cover of the edge from each node
 */
struct vlc_sim_node_conf {
	unsigned long given;
	s32 skew_ppm;
	s32 phase_us;
	u8 rx;
	u64 bursts;
	u64 rx_lit;
	u16 gain[VLC_SIM_MAX_NODES];
	u32 cover_us[VLC_SIM_MAX_NODES];
};

/**
 * struct vlc_sim_ctl - what vlc_sim.ko lets netlink read and change
 * @node_dev: the device of node @id, or NULL: no such node
 * @get_medium: the medium's settings, all of them
 * @set_medium: change those that @m gives
 * @get_node: the settings, counters and edges into node @id
 * @set_node: change those that @c gives; the caller checked that the
 *	node exists and, for RX, that its interface is down
 * @set_edge: the light from node @from seen by node @to (and the other
 *	way if @both): a @gain and/or a cover for @cover_us; the caller
 *	checked that both nodes exist and differ
 *
 * Context: every one is called in process context with RTNL held, which
 * keeps the nodes registered; none fails once the caller's checks passed.
 */
struct vlc_sim_ctl {
	struct net_device *(*node_dev)(u32 id);
	void (*get_medium)(struct vlc_sim_medium *m);
	void (*set_medium)(const struct vlc_sim_medium *m);
	void (*get_node)(u32 id, struct vlc_sim_node_conf *c);
	void (*set_node)(u32 id, const struct vlc_sim_node_conf *c);
	void (*set_edge)(u32 from, u32 to, bool both, const u32 *gain,
			 const u32 *cover_us);
};

void vlc_nl_sim_register(const struct vlc_sim_ctl *ctl);
void vlc_nl_sim_unregister(const struct vlc_sim_ctl *ctl);

#endif /* _VLC_SIM_CTL_H */
