// SPDX-License-Identifier: GPL-2.0
/* Generic netlink family "vlc": the PHY and MAC settings of a vlc
 * net_device read and changed at run time, and the neighbours it hears by
 * their beacons (tools/vlcctl). Described by its YNL spec,
 * Documentation/netlink/specs/vlc.yaml, which include/uapi/linux/vlc.h is
 * generated from and which this policy, these operations and groups must
 * match (scripts/ynl-check.sh).
 *
 * Context: process context only. Devices are looked up in the caller's
 * netns under RTNL, which also keeps them registered while in use; the
 * executor lock is taken inside RTNL, as ndo_open does.
 */

#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <uapi/linux/vlc.h>

#include "vlc_compat.h"
#include "vlc_fec.h"
#include "vlc_netdev.h"
#include "vlc_nl.h"
#include "vlc_sim_ctl.h"

/* not const: older kernels point to it from policies without const */
static struct netlink_range_validation vlc_nl_u16 = {
	.max = U16_MAX,
};

static struct netlink_range_validation vlc_nl_slot_ns = {
	.min = VLC_PHY_SLOT_NS_MIN,
	.max = VLC_PHY_FRAME_NS_MAX,
};

static struct netlink_range_validation vlc_nl_frame_ns = {
	.min = VLC_PHY_FRAME_NS_MIN,
	.max = VLC_PHY_FRAME_NS_MAX,
};

static struct netlink_range_validation vlc_nl_tolerance_ns = {
	.max = VLC_PHY_FRAME_NS_MAX,
};

static struct netlink_range_validation vlc_nl_sim_speed = {
	.max = VLC_SIM_SPEED_MAX,
};

static struct netlink_range_validation vlc_nl_sim_light = {
	.max = VLC_SIM_LIGHT_MAX,
};

static struct netlink_range_validation vlc_nl_sim_ppm = {
	.max = VLC_SIM_PPM_MAX,
};

static struct netlink_range_validation vlc_nl_sim_late_us = {
	.max = VLC_SIM_LATE_US_MAX,
};

static struct netlink_range_validation vlc_nl_sim_burst_us = {
	.max = VLC_SIM_BURST_US_MAX,
};

static struct netlink_range_validation_signed vlc_nl_sim_skew = {
	.min = VLC_SIM_SKEW_MIN,
	.max = VLC_SIM_SKEW_MAX,
};

static struct netlink_range_validation_signed vlc_nl_sim_phase_us = {
	.min = VLC_SIM_PHASE_US_MIN,
	.max = VLC_SIM_PHASE_US_MAX,
};

/* The simulated medium (vlc_nl_sim.c). The nested sets are the spec's,
 * their (ro) attributes included: vlc_nl_sim.c refuses those in requests.
 */
const struct nla_policy vlc_sim_nl_policy[VLC_SIM_ATTR_MAX + 1] = {
	[VLC_SIM_ATTR_SPEED]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_speed),
	[VLC_SIM_ATTR_SEED]	= { .type = NLA_U64 },
	[VLC_SIM_ATTR_AMBIENT]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_light),
	[VLC_SIM_ATTR_FLICKER]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_light),
	[VLC_SIM_ATTR_FLICKER_HZ] = NLA_POLICY_RANGE(NLA_U32, 1,
						     VLC_SIM_FLICKER_HZ_MAX),
	[VLC_SIM_ATTR_NOISE]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_light),
	[VLC_SIM_ATTR_SER_PPM]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_sim_ppm),
	[VLC_SIM_ATTR_LATE_PPM]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_sim_ppm),
	[VLC_SIM_ATTR_LATE_US]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_late_us),
	[VLC_SIM_ATTR_BURST_PPM] = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &vlc_nl_sim_ppm),
	[VLC_SIM_ATTR_BURST_US]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_sim_burst_us),
	[VLC_SIM_ATTR_VTIME_US]	= { .type = NLA_U64 },
	[VLC_SIM_ATTR_NODES]	= { .type = NLA_U32 },
};

const struct nla_policy vlc_sim_node_nl_policy[VLC_SIM_NODE_ATTR_MAX + 1] = {
	[VLC_SIM_NODE_ATTR_ID]	= NLA_POLICY_MAX(NLA_U32, VLC_SIM_NODE_ID_MAX),
	[VLC_SIM_NODE_ATTR_IFINDEX] = { .type = NLA_U32 },
	[VLC_SIM_NODE_ATTR_IFNAME] = { .type = NLA_NUL_STRING },
	[VLC_SIM_NODE_ATTR_NETNS_COOKIE] = { .type = NLA_U64 },
	[VLC_SIM_NODE_ATTR_SKEW_PPM] = NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&vlc_nl_sim_skew),
	[VLC_SIM_NODE_ATTR_PHASE_US] = NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&vlc_nl_sim_phase_us),
	[VLC_SIM_NODE_ATTR_RX]	= NLA_POLICY_MAX(NLA_U8, VLC_SIM_RX_MAX),
	[VLC_SIM_NODE_ATTR_BURSTS] = { .type = NLA_U64 },
	[VLC_SIM_NODE_ATTR_RX_LIT] = { .type = NLA_U64 },
};

const struct nla_policy vlc_sim_edge_nl_policy[VLC_SIM_EDGE_ATTR_MAX + 1] = {
	[VLC_SIM_EDGE_ATTR_FROM] = NLA_POLICY_MAX(NLA_U32, VLC_SIM_NODE_ID_MAX),
	[VLC_SIM_EDGE_ATTR_TO]	= NLA_POLICY_MAX(NLA_U32, VLC_SIM_NODE_ID_MAX),
	[VLC_SIM_EDGE_ATTR_GAIN] = NLA_POLICY_MAX(NLA_U32, VLC_SIM_GAIN_MAX),
	[VLC_SIM_EDGE_ATTR_BOTH] = { .type = NLA_FLAG },
	[VLC_SIM_EDGE_ATTR_COVER_US] = { .type = NLA_U32 },
};

/* What a request may carry; the attributes only GET reports are refused
 * (strict validation: no policy).
 */
static const struct nla_policy vlc_nl_policy[VLC_ATTR_MAX + 1] = {
	[VLC_ATTR_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[VLC_ATTR_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[VLC_ATTR_MODULATION]	= NLA_POLICY_MAX(NLA_U8, VLC_MODULATION_MAX),
	[VLC_ATTR_BRIGHTNESS]	= NLA_POLICY_MAX(NLA_U32,
						 VLC_PHY_BRIGHTNESS_MAX),
	/* The PHY's limits; the executor's and how the slots fit the frame
	 * are checked with a message.
	 */
	[VLC_ATTR_SYNC_NS]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_slot_ns),
	[VLC_ATTR_GUARD_NS]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_slot_ns),
	[VLC_ATTR_DATA_NS]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_slot_ns),
	[VLC_ATTR_FRAME_NS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_frame_ns),
	[VLC_ATTR_TOLERANCE_NS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&vlc_nl_tolerance_ns),
	/* Only what the MAC's fields can hold; the MAC's checks do the rest,
	 * with a message. 65536 must not become 0.
	 */
	[VLC_ATTR_RTS_THRESHOLD] = NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_RETRY_LIMIT]	= NLA_POLICY_MAX(NLA_U32, U8_MAX),
	[VLC_ATTR_CW_MIN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_CW_MAX]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_FRAG_SIZE]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_BEACON_INTERVAL] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &vlc_nl_u16),
	[VLC_ATTR_LOC_INTERVAL]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_MAX_AGE]	= NLA_POLICY_FULL_RANGE(NLA_U32, &vlc_nl_u16),
	[VLC_ATTR_FEC]		= NLA_POLICY_MAX(NLA_U32, U8_MAX),
	[VLC_ATTR_SIM]		= NLA_POLICY_NESTED(vlc_sim_nl_policy),
	[VLC_ATTR_SIM_NODE]	= NLA_POLICY_NESTED(vlc_sim_node_nl_policy),
	[VLC_ATTR_SIM_EDGE]	= NLA_POLICY_NESTED(vlc_sim_edge_nl_policy),
};

static struct genl_family vlc_nl_family;

/* Everything GET reports: the settings, and the executor's state of its
 * last frame.
 */
struct vlc_nl_state {
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 brightness;
	struct vlc_snap snap;
};

/* Context: RTNL held, as by every writer of the settings; the executor's
 * lock is not taken (struct vlc_snap).
 */
static void vlc_nl_snapshot(struct vlc_dev *vd, struct vlc_nl_state *st)
{
	ASSERT_RTNL();
	vlc_phy_get_config(&vd->phy, &st->t, &st->mode, &st->brightness);
	vlc_dev_read_snap(vd, &st->snap);
}

/* The beacon table, ages in milliseconds of the current frame time. */
static int vlc_nl_put_beacons(struct sk_buff *skb,
			      const struct vlc_nl_state *st)
{
	struct nlattr *list, *entry;
	unsigned int i;

	list = nla_nest_start(skb, VLC_ATTR_BEACONS);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < st->snap.nbeacons; i++) {
		const struct vlc_mac_beacon *b = &st->snap.beacons[i];
		u64 age = div_u64((u64)b->last * st->t.frame_ns, NSEC_PER_MSEC);

		entry = nla_nest_start(skb, VLC_BEACONS_ENTRY);
		if (!entry ||
		    nla_put_u8(skb, VLC_BEACON_ATTR_ID, b->id) ||
		    nla_put_u32(skb, VLC_BEACON_ATTR_LEVEL, b->level) ||
		    nla_put_u32(skb, VLC_BEACON_ATTR_COUNT, b->count) ||
		    nla_put_u32(skb, VLC_BEACON_ATTR_AGE_MS,
				min_t(u64, age, U32_MAX))) {
			nla_nest_cancel(skb, list);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, list);
	return 0;
}

static int vlc_nl_put_state(struct sk_buff *skb, struct net_device *ndev,
			    const struct vlc_nl_state *st, u32 portid,
			    u32 seq, int flags)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	bool running = netif_running(ndev);
	u32 bmin = 0, bmax = 0;
	void *hdr;

	vlc_phy_brightness_range(&st->t, st->mode, &bmin, &bmax);

	hdr = genlmsg_put(skb, portid, seq, &vlc_nl_family, flags,
			  VLC_CMD_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (nla_put_u32(skb, VLC_ATTR_IFINDEX, ndev->ifindex) ||
	    nla_put_string(skb, VLC_ATTR_IFNAME, ndev->name) ||
	    nla_put_u8(skb, VLC_ATTR_MODULATION, st->mode) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS, st->brightness) ||
	    nla_put_u32(skb, VLC_ATTR_SYNC_NS, st->t.sync_ns) ||
	    nla_put_u32(skb, VLC_ATTR_GUARD_NS, st->t.guard_ns) ||
	    nla_put_u32(skb, VLC_ATTR_DATA_NS, st->t.data_ns) ||
	    nla_put_u32(skb, VLC_ATTR_FRAME_NS, st->t.frame_ns) ||
	    nla_put_u32(skb, VLC_ATTR_TOLERANCE_NS, st->t.tolerance_ns) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS_MIN, bmin) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS_MAX, bmax) ||
	    nla_put_u8(skb, VLC_ATTR_SHORT_ADDR, st->snap.mp.short_addr) ||
	    nla_put_string(skb, VLC_ATTR_EXECUTOR,
			   vlc_exec_kind_name(vd->exec.kind)) ||
	    nla_put_u8(skb, VLC_ATTR_RUNNING, running) ||
	    nla_put_u8(skb, VLC_ATTR_CARRIER,
		       running && netif_carrier_ok(ndev)) ||
	    nla_put_u8(skb, VLC_ATTR_LOCKED,
		       running && st->snap.phy.frames && !st->snap.rx.acquiring) ||
	    nla_put_u32(skb, VLC_ATTR_SIGNAL, st->snap.rx.signal) ||
	    nla_put_u32(skb, VLC_ATTR_NOISE, st->snap.rx.noise) ||
	    nla_put_u32(skb, VLC_ATTR_AMBIENT, st->snap.rx.ambient) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_FRAMES, st->snap.phy.frames,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_SYMBOLS_TX,
			      st->snap.phy.symbols_tx, VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_SYMBOLS_RX,
			      st->snap.phy.symbols_rx, VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_ERASURES, st->snap.phy.erasures,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_LATE, st->snap.phy.late,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_OVERRUNS, st->snap.phy.overruns,
			      VLC_ATTR_PAD) ||
	    nla_put_u32(skb, VLC_ATTR_RTS_THRESHOLD, st->snap.mp.rts_threshold) ||
	    nla_put_u32(skb, VLC_ATTR_RETRY_LIMIT, st->snap.mp.retry_limit) ||
	    nla_put_u32(skb, VLC_ATTR_CW_MIN, st->snap.mp.cw_min) ||
	    nla_put_u32(skb, VLC_ATTR_CW_MAX, st->snap.mp.cw_max) ||
	    nla_put_u32(skb, VLC_ATTR_FRAG_SIZE, st->snap.mp.frag_size) ||
	    nla_put_u32(skb, VLC_ATTR_BEACON_INTERVAL,
			st->snap.mp.beacon_interval) ||
	    nla_put_u32(skb, VLC_ATTR_LOC_INTERVAL, st->snap.mp.loc_interval) ||
	    nla_put_u32(skb, VLC_ATTR_MAX_AGE, st->snap.mp.max_age) ||
	    nla_put_u32(skb, VLC_ATTR_FEC, st->snap.mp.fec) ||
	    nla_put_u32(skb, VLC_ATTR_NAV, st->snap.nav) ||
	    vlc_nl_put_beacons(skb, st)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int vlc_nl_fill(struct sk_buff *skb, struct net_device *ndev,
		       u32 portid, u32 seq, int flags)
{
	struct vlc_nl_state *st;
	int err;

	/* a snapshot is too big for the stack */
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	vlc_nl_snapshot(netdev_priv(ndev), st);
	err = vlc_nl_put_state(skb, ndev, st, portid, seq, flags);
	kfree(st);
	return err;
}

/* The vlc device a request names, or NULL with the extack set.
 * Context: RTNL held; the device stays registered until it is dropped.
 */
static struct net_device *vlc_nl_dev(struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr *attr = info->attrs[VLC_ATTR_IFINDEX];
	struct net_device *ndev;

	ASSERT_RTNL();
	if (attr) {
		ndev = __dev_get_by_index(net, nla_get_u32(attr));
	} else if (info->attrs[VLC_ATTR_IFNAME]) {
		attr = info->attrs[VLC_ATTR_IFNAME];
		ndev = __dev_get_by_name(net, nla_data(attr));
	} else {
		GENL_SET_ERR_MSG(info, "ifindex or ifname: no device given");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, VLC_ATTR_IFINDEX);
		return ERR_PTR(-EINVAL);
	}
	if (!ndev) {
		if (nla_type(attr) == VLC_ATTR_IFINDEX)
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "ifindex: no such device in this network namespace");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "ifname: no such device in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	if (!vlc_netdev_is_vlc(ndev)) {
		if (nla_type(attr) == VLC_ATTR_IFINDEX)
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "ifindex: not a vlc device");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "ifname: not a vlc device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return ndev;
}

static int vlc_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *ndev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	rtnl_lock();
	ndev = vlc_nl_dev(info);
	if (IS_ERR(ndev))
		err = PTR_ERR(ndev);
	else
		err = vlc_nl_fill(msg, ndev, info->snd_portid, info->snd_seq,
				  0);
	rtnl_unlock();

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int vlc_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct net_device *ndev;
	int idx = 0, start = cb->args[0];
	int err = 0;

	rtnl_lock();
	for_each_netdev(net, ndev) {
		if (!vlc_netdev_is_vlc(ndev))
			continue;
		if (idx >= start) {
			err = vlc_nl_fill(skb, ndev,
					  NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (err)
				break;
		}
		idx++;
	}
	rtnl_unlock();
	cb->args[0] = idx;

	/* A device that does not fit an empty skb would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* The attribute that carries each field, or 0: not a netlink setting. */
static const u8 vlc_nl_field_attr[] = {
	[VLC_FIELD_MODULATION]		= VLC_ATTR_MODULATION,
	[VLC_FIELD_BRIGHTNESS]		= VLC_ATTR_BRIGHTNESS,
	[VLC_FIELD_SYNC]		= VLC_ATTR_SYNC_NS,
	[VLC_FIELD_GUARD]		= VLC_ATTR_GUARD_NS,
	[VLC_FIELD_DATA]		= VLC_ATTR_DATA_NS,
	[VLC_FIELD_FRAME]		= VLC_ATTR_FRAME_NS,
	[VLC_FIELD_TOLERANCE]		= VLC_ATTR_TOLERANCE_NS,
	[VLC_FIELD_RTS_THRESHOLD]	= VLC_ATTR_RTS_THRESHOLD,
	[VLC_FIELD_RETRY_LIMIT]		= VLC_ATTR_RETRY_LIMIT,
	[VLC_FIELD_CW_MIN]		= VLC_ATTR_CW_MIN,
	[VLC_FIELD_CW_MAX]		= VLC_ATTR_CW_MAX,
	[VLC_FIELD_FRAG_SIZE]		= VLC_ATTR_FRAG_SIZE,
	[VLC_FIELD_BEACON_INTERVAL]	= VLC_ATTR_BEACON_INTERVAL,
	[VLC_FIELD_LOC_INTERVAL]	= VLC_ATTR_LOC_INTERVAL,
	[VLC_FIELD_MAX_AGE]		= VLC_ATTR_MAX_AGE,
	[VLC_FIELD_FEC]			= VLC_ATTR_FEC,
};

/* The request's attribute for @field, or NULL: it did not carry it. */
static struct nlattr *vlc_nl_field(struct genl_info *info, unsigned int field)
{
	if (field >= ARRAY_SIZE(vlc_nl_field_attr) ||
	    !vlc_nl_field_attr[field])
		return NULL;
	return info->attrs[vlc_nl_field_attr[field]];
}

/* The attribute to blame for @r: the refused field's if the request
 * carried it, else the first it carried of those the field was checked
 * against (a new tolerance-us over the guard-us in use), else none.
 */
static struct nlattr *vlc_nl_refused_attr(struct genl_info *info,
					  enum vlc_refusal r)
{
	unsigned long also = vlc_refusal_also(r);
	struct nlattr *attr;
	unsigned int f;

	attr = vlc_nl_field(info, vlc_refusal_field(r));
	if (attr)
		return attr;
	for_each_set_bit(f, &also, BITS_PER_TYPE(u32)) {
		attr = vlc_nl_field(info, f);
		if (attr)
			break;
	}
	return attr;
}

/* The extended ACK of a check's refusal @r: its message, and the
 * attribute it refused.
 */
static void vlc_nl_refused(struct genl_info *info, enum vlc_refusal r)
{
	struct nlattr *attr = vlc_nl_refused_attr(info, r);
	const char *msg = vlc_refusal_msg(r);

	/* -EINVAL from a check that named nothing: not expected */
	if (!msg) {
		NL_SET_ERR_MSG(info->extack, "settings refused");
		return;
	}
	vlc_nl_err_msg(info->extack, msg);
	NL_SET_BAD_ATTR(info->extack, attr);
}

/* The PHY settings a request carries, over the current ones.
 * Return: whether it carries any.
 */
static bool vlc_nl_phy_attrs(struct nlattr **a, struct vlc_phy_timing *t,
			     enum vlc_phy_mode *mode, u32 *brightness)
{
	bool any = false;

	if (a[VLC_ATTR_MODULATION]) {
		*mode = nla_get_u8(a[VLC_ATTR_MODULATION]);
		any = true;
	}
	if (a[VLC_ATTR_BRIGHTNESS]) {
		*brightness = nla_get_u32(a[VLC_ATTR_BRIGHTNESS]);
		any = true;
	}
	if (a[VLC_ATTR_SYNC_NS]) {
		t->sync_ns = nla_get_u32(a[VLC_ATTR_SYNC_NS]);
		any = true;
	}
	if (a[VLC_ATTR_GUARD_NS]) {
		t->guard_ns = nla_get_u32(a[VLC_ATTR_GUARD_NS]);
		any = true;
	}
	if (a[VLC_ATTR_DATA_NS]) {
		t->data_ns = nla_get_u32(a[VLC_ATTR_DATA_NS]);
		any = true;
	}
	if (a[VLC_ATTR_FRAME_NS]) {
		t->frame_ns = nla_get_u32(a[VLC_ATTR_FRAME_NS]);
		any = true;
	}
	if (a[VLC_ATTR_TOLERANCE_NS]) {
		t->tolerance_ns = nla_get_u32(a[VLC_ATTR_TOLERANCE_NS]);
		any = true;
	}
	return any;
}

/* The settings that set how often the executor runs: a request that
 * carries one needs CAP_NET_ADMIN in the initial user namespace (vlc.rst,
 * "Timing limits"). Return: the first such attribute, or NULL.
 */
static struct nlattr *vlc_nl_timing_attr(struct nlattr **a)
{
	static const int types[] = {
		VLC_ATTR_MODULATION, VLC_ATTR_SYNC_NS, VLC_ATTR_GUARD_NS,
		VLC_ATTR_DATA_NS, VLC_ATTR_FRAME_NS, VLC_ATTR_TOLERANCE_NS,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (a[types[i]])
			return a[types[i]];
	return NULL;
}

/* The MAC settings a request carries, over the current ones; the policy
 * made sure that each fits its field. Return: whether it carries any.
 */
static bool vlc_nl_mac_attrs(struct nlattr **a, struct vlc_mac_params *p)
{
	bool any = false;

	if (a[VLC_ATTR_RTS_THRESHOLD]) {
		p->rts_threshold = nla_get_u32(a[VLC_ATTR_RTS_THRESHOLD]);
		any = true;
	}
	if (a[VLC_ATTR_RETRY_LIMIT]) {
		p->retry_limit = nla_get_u32(a[VLC_ATTR_RETRY_LIMIT]);
		any = true;
	}
	if (a[VLC_ATTR_CW_MIN]) {
		p->cw_min = nla_get_u32(a[VLC_ATTR_CW_MIN]);
		any = true;
	}
	if (a[VLC_ATTR_CW_MAX]) {
		p->cw_max = nla_get_u32(a[VLC_ATTR_CW_MAX]);
		any = true;
	}
	if (a[VLC_ATTR_FRAG_SIZE]) {
		p->frag_size = nla_get_u32(a[VLC_ATTR_FRAG_SIZE]);
		any = true;
	}
	if (a[VLC_ATTR_BEACON_INTERVAL]) {
		p->beacon_interval = nla_get_u32(a[VLC_ATTR_BEACON_INTERVAL]);
		any = true;
	}
	if (a[VLC_ATTR_LOC_INTERVAL]) {
		p->loc_interval = nla_get_u32(a[VLC_ATTR_LOC_INTERVAL]);
		any = true;
	}
	if (a[VLC_ATTR_MAX_AGE]) {
		p->max_age = nla_get_u32(a[VLC_ATTR_MAX_AGE]);
		any = true;
	}
	if (a[VLC_ATTR_FEC]) {
		p->fec = nla_get_u32(a[VLC_ATTR_FEC]);
		any = true;
	}
	return any;
}

/* Parity needs the kernel's Reed-Solomon: without it a request may turn
 * FEC off, nothing else. Only what the request carries is refused, so
 * that the other settings stay changeable whatever fec holds.
 */
static int vlc_nl_fec_check(struct nlattr **a, enum vlc_refusal *why)
{
	if (!a[VLC_ATTR_FEC] || vlc_fec_available() ||
	    nla_get_u32(a[VLC_ATTR_FEC]) == VLC_FEC_OFF)
		return 0;
	*why = VLC_REFUSE_FEC_UNAVAILABLE;
	return -EOPNOTSUPP;
}

static int vlc_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vlc_phy_timing t, old_t;
	enum vlc_phy_mode mode, old_mode;
	u32 brightness, old_brightness;
	struct vlc_mac_params mp;
	struct net_device *ndev;
	enum vlc_refusal why = VLC_REFUSE_NONE;
	struct nlattr *timing;
	struct vlc_dev *vd;
	bool phy, mac;
	int err = 0;

	timing = vlc_nl_timing_attr(info->attrs);
	if (timing && !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_ATTR(info->extack, timing,
				    "timing and modulation: changing them needs CAP_NET_ADMIN in the initial user namespace");
		return -EPERM;
	}

	rtnl_lock();
	ndev = vlc_nl_dev(info);
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		goto out;
	}
	vd = netdev_priv(ndev);

	/* Another SET cannot slip in between: RTNL serialises them, and
	 * the address (hence the MAC's short address) changes under RTNL.
	 */
	vlc_dev_get_phy_config(vd, &old_t, &old_mode, &old_brightness);
	t = old_t;
	mode = old_mode;
	brightness = old_brightness;
	phy = vlc_nl_phy_attrs(info->attrs, &t, &mode, &brightness);
	vlc_dev_get_mac_params(vd, &mp);
	mac = vlc_nl_mac_attrs(info->attrs, &mp);

	/* All or nothing: the MAC's settings are checked before the PHY's
	 * are applied (which checks them), with the symbols of the mode
	 * they will run in.
	 */
	if (mac) {
		mp.bits_per_symbol = vlc_phy_bits(mode);
		err = vlc_mac_check_params(&mp, &why);
		if (!err)
			err = vlc_nl_fec_check(info->attrs, &why);
		if (err) {
			vlc_nl_refused(info, why);
			goto out;
		}
	}
	if (phy) {
		err = vlc_dev_set_phy_config(vd, &t, mode, brightness, &why);
		if (err) {
			if (err == -EINVAL)
				vlc_nl_refused(info, why);
			goto out;
		}
	}
	if (mac) {
		err = vlc_dev_set_mac_params(vd, &mp, &why);
		if (err) {
			/* Checked above: not expected, but undone anyway. */
			if (phy)
				vlc_dev_set_phy_config(vd, &old_t, old_mode,
						       old_brightness, NULL);
			vlc_nl_refused(info, why);
		}
	}
out:
	rtnl_unlock();
	return err;
}

/**
 * vlc_nl_put - start a message of the family
 * @skb: the message
 * @portid: the receiver's port
 * @seq: the request's sequence number
 * @flags: netlink flags (NLM_F_MULTI in dumps)
 * @cmd: enum vlc_cmd
 *
 * Return: the header, or NULL if it does not fit.
 */
void *vlc_nl_put(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &vlc_nl_family, flags, cmd);
}

enum {
	VLC_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group vlc_nl_mcgrps[] = {
	[VLC_NL_MCGRP_EVENTS] = { .name = VLC_MCGRP_EVENTS },
};

/* A device's event to the listeners of the events group. Softirq or
 * process context (NAPI sends them): allocates atomically; a
 * notification that does not fit is lost, as a socket that overruns
 * loses them.
 */
static int vlc_nl_notify(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	const struct vlc_dev_event_info *info = data;
	struct net_device *ndev = info->ndev;
	int neigh = info->neigh;
	struct net *net = dev_net(ndev);
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&vlc_nl_family, net, VLC_NL_MCGRP_EVENTS))
		return NOTIFY_DONE;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!skb)
		return NOTIFY_DONE;
	hdr = genlmsg_put(skb, 0, 0, &vlc_nl_family, 0, VLC_CMD_EVENT);
	if (!hdr ||
	    nla_put_u32(skb, VLC_ATTR_IFINDEX, ndev->ifindex) ||
	    nla_put_string(skb, VLC_ATTR_IFNAME, ndev->name) ||
	    nla_put_u8(skb, VLC_ATTR_EVENT, event) ||
	    (neigh >= 0 && nla_put_u8(skb, VLC_ATTR_NEIGH_ID, neigh))) {
		nlmsg_free(skb);
		return NOTIFY_DONE;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&vlc_nl_family, net, skb, 0,
				VLC_NL_MCGRP_EVENTS, GFP_ATOMIC);
	return NOTIFY_OK;
}

static struct notifier_block vlc_nl_events = {
	.notifier_call = vlc_nl_notify,
};

static const struct genl_small_ops vlc_nl_ops[] = {
	{
		.cmd	= VLC_CMD_GET,
		.doit	= vlc_nl_get_doit,
		.dumpit	= vlc_nl_get_dumpit,
	},
	{
		.cmd	= VLC_CMD_SET,
		.doit	= vlc_nl_set_doit,
		/* CAP_NET_ADMIN over the netns of the device, as for links:
		 * root of a user namespace that owns it (a container) may,
		 * except for what vlc_nl_timing_attr() names.
		 */
		.flags	= GENL_UNS_ADMIN_PERM,
	},
	/* The simulated medium is the machine's, across namespaces. */
	{
		.cmd	= VLC_CMD_SIM_GET,
		.doit	= vlc_nl_sim_get_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= VLC_CMD_SIM_SET,
		.doit	= vlc_nl_sim_set_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= VLC_CMD_SIM_NODE_GET,
		.doit	= vlc_nl_sim_node_get_doit,
		.dumpit	= vlc_nl_sim_node_get_dumpit,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family vlc_nl_family __ro_after_init = {
	.name		= VLC_GENL_NAME,
	.version	= VLC_GENL_VERSION,
	.maxattr	= VLC_ATTR_MAX,
	.policy		= vlc_nl_policy,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.small_ops	= vlc_nl_ops,
	.n_small_ops	= ARRAY_SIZE(vlc_nl_ops),
	.mcgrps		= vlc_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(vlc_nl_mcgrps),
	.resv_start_op	= 0,	/* every command: reserved bits must be 0 */
};

int __init vlc_nl_init(void)
{
	int err;

	BUILD_BUG_ON((int)VLC_MODULATION_2SLOT != (int)VLC_PHY_MODE_2SLOT);
	BUILD_BUG_ON((int)VLC_MODULATION_4PPM != (int)VLC_PHY_MODE_4PPM);
	BUILD_BUG_ON(VLC_FEC_OFF != VLC_MAC_FEC_OFF);
	BUILD_BUG_ON(VLC_FEC_AUTO != VLC_MAC_FEC_AUTO);

	err = genl_register_family(&vlc_nl_family);
	if (err)
		return err;
	err = vlc_dev_register_notifier(&vlc_nl_events);
	if (err)
		genl_unregister_family(&vlc_nl_family);
	return err;
}

void __exit vlc_nl_exit(void)
{
	vlc_dev_unregister_notifier(&vlc_nl_events);
	genl_unregister_family(&vlc_nl_family);
}
