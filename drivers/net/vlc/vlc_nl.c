// SPDX-License-Identifier: GPL-2.0
/* Generic netlink family "vlc": the PHY settings of a vlc net_device read
 * and changed at run time (tools/vlcctl). See include/uapi/linux/vlc.h.
 *
 * Context: process context only. Devices are looked up in the caller's
 * netns under RTNL, which also keeps them registered while in use; the
 * executor lock is taken inside RTNL, as ndo_open does.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <uapi/linux/vlc.h>

#include "vlc_dev.h"
#include "vlc_nl.h"

static const struct nla_policy vlc_nl_policy[VLC_ATTR_MAX + 1] = {
	[VLC_ATTR_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[VLC_ATTR_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[VLC_ATTR_MODE]		= NLA_POLICY_MAX(NLA_U8, VLC_MODE_MAX),
	[VLC_ATTR_BRIGHTNESS]	= NLA_POLICY_MAX(NLA_U32,
						 VLC_PHY_BRIGHTNESS_MAX),
	/* zero and too long are refused by the PHY with a message */
	[VLC_ATTR_SYNC_NS]	= { .type = NLA_U32 },
	[VLC_ATTR_GUARD_NS]	= { .type = NLA_U32 },
	[VLC_ATTR_DATA_NS]	= { .type = NLA_U32 },
	[VLC_ATTR_FRAME_NS]	= { .type = NLA_U32 },
	[VLC_ATTR_TOLERANCE_NS]	= { .type = NLA_U32 },
};

static struct genl_family vlc_nl_family;

/* Everything GET reports, read under the executor lock at once. */
struct vlc_nl_state {
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 brightness;
	struct vlc_phy_stats stats;
	struct vlc_phy_rx rx;
	u8 short_addr;
};

static void vlc_nl_snapshot(struct vlc_dev *vd, struct vlc_nl_state *st)
{
	unsigned long flags;

	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_get_config(&vd->phy, &st->t, &st->mode, &st->brightness);
	st->stats = vd->phy.stats;
	st->rx = vd->phy.last_rx;
	st->short_addr = vd->mac.p.short_addr;
	vlc_exec_unlock(&vd->exec, flags);
}

static int vlc_nl_fill(struct sk_buff *skb, struct net_device *ndev,
		       u32 portid, u32 seq, int flags)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	bool running = netif_running(ndev);
	struct vlc_nl_state st;
	u32 bmin = 0, bmax = 0;
	void *hdr;

	vlc_nl_snapshot(vd, &st);
	vlc_phy_brightness_range(&st.t, st.mode, &bmin, &bmax);

	hdr = genlmsg_put(skb, portid, seq, &vlc_nl_family, flags,
			  VLC_CMD_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (nla_put_u32(skb, VLC_ATTR_IFINDEX, ndev->ifindex) ||
	    nla_put_string(skb, VLC_ATTR_IFNAME, ndev->name) ||
	    nla_put_u8(skb, VLC_ATTR_MODE, st.mode) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS, st.brightness) ||
	    nla_put_u32(skb, VLC_ATTR_SYNC_NS, st.t.sync_ns) ||
	    nla_put_u32(skb, VLC_ATTR_GUARD_NS, st.t.guard_ns) ||
	    nla_put_u32(skb, VLC_ATTR_DATA_NS, st.t.data_ns) ||
	    nla_put_u32(skb, VLC_ATTR_FRAME_NS, st.t.frame_ns) ||
	    nla_put_u32(skb, VLC_ATTR_TOLERANCE_NS, st.t.tolerance_ns) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS_MIN, bmin) ||
	    nla_put_u32(skb, VLC_ATTR_BRIGHTNESS_MAX, bmax) ||
	    nla_put_u8(skb, VLC_ATTR_SHORT_ADDR, st.short_addr) ||
	    nla_put_string(skb, VLC_ATTR_EXECUTOR,
			   vlc_exec_kind_name(vd->exec.kind)) ||
	    nla_put_u8(skb, VLC_ATTR_RUNNING, running) ||
	    nla_put_u8(skb, VLC_ATTR_CARRIER,
		       running && netif_carrier_ok(ndev)) ||
	    nla_put_u8(skb, VLC_ATTR_LOCKED,
		       running && st.stats.frames && !st.rx.acquiring) ||
	    nla_put_u32(skb, VLC_ATTR_SIGNAL, st.rx.signal) ||
	    nla_put_u32(skb, VLC_ATTR_NOISE, st.rx.noise) ||
	    nla_put_u32(skb, VLC_ATTR_AMBIENT, st.rx.ambient) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_FRAMES, st.stats.frames,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_SYMBOLS_TX,
			      st.stats.symbols_tx, VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_SYMBOLS_RX,
			      st.stats.symbols_rx, VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_ERASURES, st.stats.erasures,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_LATE, st.stats.late,
			      VLC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_ATTR_PHY_OVERRUNS, st.stats.overruns,
			      VLC_ATTR_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
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

/* The PHY's checks name the refused value in a static string of this
 * module. NL_SET_ERR_MSG() only takes literals, so this does what it
 * does, and points at the attribute the message starts with when the
 * request carried it.
 */
static void vlc_nl_set_why(struct genl_info *info, const char *why)
{
	static const struct {
		const char *prefix;
		int type;
	} names[] = {
		{ "mode", VLC_ATTR_MODE },
		{ "brightness", VLC_ATTR_BRIGHTNESS },
		{ "sync_ns", VLC_ATTR_SYNC_NS },
		{ "guard_ns", VLC_ATTR_GUARD_NS },
		{ "data_ns", VLC_ATTR_DATA_NS },
		{ "frame_ns", VLC_ATTR_FRAME_NS },
		{ "tolerance_ns", VLC_ATTR_TOLERANCE_NS },
	};
	unsigned int i;

	if (!why)
		why = "settings refused by the PHY";
	do_trace_netlink_extack(why);
	info->extack->_msg = why;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strncmp(why, names[i].prefix, strlen(names[i].prefix))) {
			info->extack->bad_attr = info->attrs[names[i].type];
			break;
		}
	}
}

static int vlc_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	struct net_device *ndev;
	const char *why = NULL;
	u32 brightness;
	int err;

	rtnl_lock();
	ndev = vlc_nl_dev(info);
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		goto out;
	}

	/* Another SET cannot slip in between: RTNL serialises them. */
	vlc_dev_get_phy_config(netdev_priv(ndev), &t, &mode, &brightness);
	if (a[VLC_ATTR_MODE])
		mode = nla_get_u8(a[VLC_ATTR_MODE]);
	if (a[VLC_ATTR_BRIGHTNESS])
		brightness = nla_get_u32(a[VLC_ATTR_BRIGHTNESS]);
	if (a[VLC_ATTR_SYNC_NS])
		t.sync_ns = nla_get_u32(a[VLC_ATTR_SYNC_NS]);
	if (a[VLC_ATTR_GUARD_NS])
		t.guard_ns = nla_get_u32(a[VLC_ATTR_GUARD_NS]);
	if (a[VLC_ATTR_DATA_NS])
		t.data_ns = nla_get_u32(a[VLC_ATTR_DATA_NS]);
	if (a[VLC_ATTR_FRAME_NS])
		t.frame_ns = nla_get_u32(a[VLC_ATTR_FRAME_NS]);
	if (a[VLC_ATTR_TOLERANCE_NS])
		t.tolerance_ns = nla_get_u32(a[VLC_ATTR_TOLERANCE_NS]);

	err = vlc_dev_set_phy_config(netdev_priv(ndev), &t, mode, brightness,
				     &why);
	if (err == -EINVAL)
		vlc_nl_set_why(info, why);
out:
	rtnl_unlock();
	return err;
}

static const struct genl_small_ops vlc_nl_ops[] = {
	{
		.cmd	= VLC_CMD_GET,
		.doit	= vlc_nl_get_doit,
		.dumpit	= vlc_nl_get_dumpit,
	},
	{
		.cmd	= VLC_CMD_SET,
		.doit	= vlc_nl_set_doit,
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
	.resv_start_op	= VLC_CMD_SET + 1,
};

int __init vlc_nl_init(void)
{
	BUILD_BUG_ON((int)VLC_MODE_2SLOT != (int)VLC_PHY_MODE_2SLOT);
	BUILD_BUG_ON((int)VLC_MODE_4PPM != (int)VLC_PHY_MODE_4PPM);

	return genl_register_family(&vlc_nl_family);
}

void __exit vlc_nl_exit(void)
{
	genl_unregister_family(&vlc_nl_family);
}
