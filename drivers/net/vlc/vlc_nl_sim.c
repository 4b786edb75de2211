// SPDX-License-Identifier: GPL-2.0
/* The simulated medium over the "vlc" generic netlink family:
 * VLC_CMD_SIM_GET, VLC_CMD_SIM_SET and VLC_CMD_SIM_NODE_GET read and
 * change vlc_sim.ko's medium, nodes and edges through the controls it
 * registers (vlc_sim_ctl.h). tools/vlcctl drives them ("vlcctl sim").
 *
 * The medium is the machine's, shared across network namespaces: every
 * command needs CAP_NET_ADMIN in the initial user namespace
 * (GENL_ADMIN_PERM in vlc_nl.c), as creating a node does.
 *
 * Context: process context. RTNL is held across each request: it keeps
 * the controls registered and the nodes' devices alive.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <uapi/linux/vlc.h>

#include "vlc_nl.h"
#include "vlc_sim_ctl.h"

static const struct vlc_sim_ctl *vlc_nl_sim_ctl;	/* RTNL */

/**
 * vlc_nl_sim_register - offer the simulator's controls to netlink
 * @ctl: vlc_sim.ko's controls, until vlc_nl_sim_unregister()
 *
 * Context: RTNL held.
 */
void vlc_nl_sim_register(const struct vlc_sim_ctl *ctl)
{
	ASSERT_RTNL();
	vlc_nl_sim_ctl = ctl;
}
EXPORT_SYMBOL_GPL(vlc_nl_sim_register);

/**
 * vlc_nl_sim_unregister - withdraw them, before the module goes
 * @ctl: what vlc_nl_sim_register() was given
 *
 * Context: RTNL held: no request is using them once it is dropped.
 */
void vlc_nl_sim_unregister(const struct vlc_sim_ctl *ctl)
{
	ASSERT_RTNL();
	if (vlc_nl_sim_ctl == ctl)
		vlc_nl_sim_ctl = NULL;
}
EXPORT_SYMBOL_GPL(vlc_nl_sim_unregister);

static const struct vlc_sim_ctl *vlc_nl_sim(struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	if (!vlc_nl_sim_ctl)
		NL_SET_ERR_MSG(extack, "vlc_sim: the simulator is not loaded");
	return vlc_nl_sim_ctl;
}

/* The medium's u32 settings, in the order replies carry them. */
static const u8 vlc_nl_sim_u32[] = {
	VLC_SIM_ATTR_SPEED, VLC_SIM_ATTR_AMBIENT, VLC_SIM_ATTR_FLICKER,
	VLC_SIM_ATTR_FLICKER_HZ, VLC_SIM_ATTR_NOISE, VLC_SIM_ATTR_SER_PPM,
	VLC_SIM_ATTR_LATE_PPM, VLC_SIM_ATTR_LATE_US, VLC_SIM_ATTR_BURST_PPM,
	VLC_SIM_ATTR_BURST_US,
};

/* The first of @ro that @tb carries, refused: replies carry them, and a
 * request that does is refused, as for the device's own attributes.
 */
static int vlc_nl_sim_ro(struct nlattr **tb, const u8 *ro, unsigned int n,
			 struct netlink_ext_ack *extack)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (tb[ro[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[ro[i]],
					    "read-only attribute");
			return -EINVAL;
		}
	}
	return 0;
}

static int vlc_nl_sim_put_medium(struct sk_buff *skb,
				 const struct vlc_sim_medium *m)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, VLC_ATTR_SIM);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(vlc_nl_sim_u32); i++)
		if (nla_put_u32(skb, vlc_nl_sim_u32[i],
				m->val[vlc_nl_sim_u32[i]]))
			goto cancel;
	if (nla_put_u64_64bit(skb, VLC_SIM_ATTR_SEED, m->seed,
			      VLC_SIM_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_SIM_ATTR_VTIME_US, m->vtime_us,
			      VLC_SIM_ATTR_PAD) ||
	    nla_put_u32(skb, VLC_SIM_ATTR_NODES, m->nodes))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

int vlc_nl_sim_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct vlc_sim_ctl *ctl;
	struct vlc_sim_medium m = {};
	struct sk_buff *msg;
	void *hdr;
	int err = -EOPNOTSUPP;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rtnl_lock();
	ctl = vlc_nl_sim(info->extack);
	if (ctl)
		ctl->get_medium(&m);
	rtnl_unlock();
	if (!ctl)
		goto err;

	err = -EMSGSIZE;
	hdr = vlc_nl_put(msg, info->snd_portid, info->snd_seq, 0,
			 VLC_CMD_SIM_GET);
	if (!hdr || vlc_nl_sim_put_medium(msg, &m))
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return err;
}

/* The medium's settings a request carries, or an error. */
static int vlc_nl_sim_medium_attrs(struct genl_info *info,
				   struct vlc_sim_medium *m)
{
	static const u8 ro[] = { VLC_SIM_ATTR_VTIME_US, VLC_SIM_ATTR_NODES };
	struct nlattr *tb[VLC_SIM_ATTR_MAX + 1];
	unsigned int i;
	int err;

	if (!info->attrs[VLC_ATTR_SIM])
		return 0;
	err = nla_parse_nested(tb, VLC_SIM_ATTR_MAX, info->attrs[VLC_ATTR_SIM],
			       vlc_sim_nl_policy, info->extack);
	if (!err)
		err = vlc_nl_sim_ro(tb, ro, ARRAY_SIZE(ro), info->extack);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(vlc_nl_sim_u32); i++) {
		u8 a = vlc_nl_sim_u32[i];

		if (tb[a]) {
			m->val[a] = nla_get_u32(tb[a]);
			__set_bit(a, &m->given);
		}
	}
	if (tb[VLC_SIM_ATTR_SEED]) {
		m->seed = nla_get_u64(tb[VLC_SIM_ATTR_SEED]);
		__set_bit(VLC_SIM_ATTR_SEED, &m->given);
	}
	return 0;
}

/* The node a request's VLC_ATTR_SIM_NODE names, and the settings it
 * carries; *@id stays U32_MAX without one.
 */
static int vlc_nl_sim_node_attrs(const struct vlc_sim_ctl *ctl,
				 struct genl_info *info, u32 *id,
				 struct vlc_sim_node_conf *c)
{
	static const u8 ro[] = {
		VLC_SIM_NODE_ATTR_IFINDEX, VLC_SIM_NODE_ATTR_IFNAME,
		VLC_SIM_NODE_ATTR_NETNS_COOKIE, VLC_SIM_NODE_ATTR_BURSTS,
		VLC_SIM_NODE_ATTR_RX_LIT,
	};
	struct nlattr *tb[VLC_SIM_NODE_ATTR_MAX + 1];
	struct nlattr *nest = info->attrs[VLC_ATTR_SIM_NODE];
	struct net_device *ndev;
	int err;

	*id = U32_MAX;
	if (!nest)
		return 0;
	err = nla_parse_nested(tb, VLC_SIM_NODE_ATTR_MAX, nest,
			       vlc_sim_node_nl_policy, info->extack);
	if (!err)
		err = vlc_nl_sim_ro(tb, ro, ARRAY_SIZE(ro), info->extack);
	if (err)
		return err;
	if (!tb[VLC_SIM_NODE_ATTR_ID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "sim node: no id given");
		NL_SET_ERR_ATTR_MISS(info->extack, nest, VLC_SIM_NODE_ATTR_ID);
		return -EINVAL;
	}
	*id = nla_get_u32(tb[VLC_SIM_NODE_ATTR_ID]);
	ndev = ctl->node_dev(*id);
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[VLC_SIM_NODE_ATTR_ID],
				    "sim node: no such node");
		return -ENODEV;
	}
	if (tb[VLC_SIM_NODE_ATTR_SKEW_PPM]) {
		c->skew_ppm = nla_get_s32(tb[VLC_SIM_NODE_ATTR_SKEW_PPM]);
		__set_bit(VLC_SIM_NODE_ATTR_SKEW_PPM, &c->given);
	}
	if (tb[VLC_SIM_NODE_ATTR_PHASE_US]) {
		c->phase_us = nla_get_s32(tb[VLC_SIM_NODE_ATTR_PHASE_US]);
		__set_bit(VLC_SIM_NODE_ATTR_PHASE_US, &c->given);
	}
	if (tb[VLC_SIM_NODE_ATTR_RX]) {
		/* the PHY reads its pin ops at every slot */
		if (netif_running(ndev)) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[VLC_SIM_NODE_ATTR_RX],
					    "sim node rx: set it while the interface is down");
			return -EBUSY;
		}
		c->rx = nla_get_u8(tb[VLC_SIM_NODE_ATTR_RX]);
		__set_bit(VLC_SIM_NODE_ATTR_RX, &c->given);
	}
	return 0;
}

/* One VLC_ATTR_SIM_EDGE of a request, checked; @gain and @cover_us point
 * into @v, or are NULL when the edge does not carry them.
 */
struct vlc_nl_sim_edge {
	u32 from;
	u32 to;
	bool both;
	u32 v[2];
	const u32 *gain;
	const u32 *cover_us;
};

static int vlc_nl_sim_edge_attrs(const struct vlc_sim_ctl *ctl,
				 struct nlattr *nest, struct vlc_nl_sim_edge *e,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[VLC_SIM_EDGE_ATTR_MAX + 1];
	int err;

	err = nla_parse_nested(tb, VLC_SIM_EDGE_ATTR_MAX, nest,
			       vlc_sim_edge_nl_policy, extack);
	if (err)
		return err;
	if (!tb[VLC_SIM_EDGE_ATTR_FROM] || !tb[VLC_SIM_EDGE_ATTR_TO]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "sim edge: from and to needed");
		NL_SET_ERR_ATTR_MISS(extack, nest,
				     tb[VLC_SIM_EDGE_ATTR_FROM] ?
				     VLC_SIM_EDGE_ATTR_TO :
				     VLC_SIM_EDGE_ATTR_FROM);
		return -EINVAL;
	}
	e->from = nla_get_u32(tb[VLC_SIM_EDGE_ATTR_FROM]);
	e->to = nla_get_u32(tb[VLC_SIM_EDGE_ATTR_TO]);
	e->both = nla_get_flag(tb[VLC_SIM_EDGE_ATTR_BOTH]);
	if (!ctl->node_dev(e->from)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[VLC_SIM_EDGE_ATTR_FROM],
				    "sim edge from: no such node");
		return -ENODEV;
	}
	if (!ctl->node_dev(e->to)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[VLC_SIM_EDGE_ATTR_TO],
				    "sim edge to: no such node");
		return -ENODEV;
	}
	if (e->from == e->to) {
		NL_SET_ERR_MSG_ATTR(extack, tb[VLC_SIM_EDGE_ATTR_TO],
				    "sim edge: a node does not see its own light");
		return -EINVAL;
	}
	e->gain = NULL;
	e->cover_us = NULL;
	if (tb[VLC_SIM_EDGE_ATTR_GAIN]) {
		e->v[0] = nla_get_u32(tb[VLC_SIM_EDGE_ATTR_GAIN]);
		e->gain = &e->v[0];
	}
	if (tb[VLC_SIM_EDGE_ATTR_COVER_US]) {
		e->v[1] = nla_get_u32(tb[VLC_SIM_EDGE_ATTR_COVER_US]);
		e->cover_us = &e->v[1];
	}
	if (!e->gain && !e->cover_us) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "sim edge: neither gain nor cover given");
		return -EINVAL;
	}
	return 0;
}

/* Every VLC_ATTR_SIM_EDGE of the request checked, then (@apply) set. */
static int vlc_nl_sim_edges(const struct vlc_sim_ctl *ctl,
			    struct genl_info *info, bool apply)
{
	struct vlc_nl_sim_edge e;
	struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != VLC_ATTR_SIM_EDGE)
			continue;
		err = vlc_nl_sim_edge_attrs(ctl, a, &e, info->extack);
		if (err)
			return err;
		if (apply)
			ctl->set_edge(e.from, e.to, e.both, e.gain, e.cover_us);
	}
	return 0;
}

/* All or nothing: everything is checked before anything changes, and
 * nothing fails once checked (RTNL keeps the nodes as they were).
 */
int vlc_nl_sim_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct vlc_sim_ctl *ctl;
	struct vlc_sim_node_conf *c;
	struct vlc_sim_medium *m;
	u32 id;
	int err;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!m || !c) {
		err = -ENOMEM;
		goto out_free;
	}
	err = vlc_nl_sim_medium_attrs(info, m);
	if (err)
		goto out_free;

	rtnl_lock();
	ctl = vlc_nl_sim(info->extack);
	if (!ctl) {
		err = -EOPNOTSUPP;
		goto out;
	}
	err = vlc_nl_sim_node_attrs(ctl, info, &id, c);
	if (!err)
		err = vlc_nl_sim_edges(ctl, info, false);
	if (err)
		goto out;

	if (m->given)
		ctl->set_medium(m);
	if (id != U32_MAX && c->given)
		ctl->set_node(id, c);
	vlc_nl_sim_edges(ctl, info, true);
out:
	rtnl_unlock();
out_free:
	kfree(c);
	kfree(m);
	return err;
}

static int vlc_nl_sim_put_edge(struct sk_buff *skb, u32 from, u32 to,
			       u32 gain, u32 cover_us)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, VLC_ATTR_SIM_EDGE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VLC_SIM_EDGE_ATTR_FROM, from) ||
	    nla_put_u32(skb, VLC_SIM_EDGE_ATTR_TO, to) ||
	    nla_put_u32(skb, VLC_SIM_EDGE_ATTR_GAIN, gain) ||
	    (cover_us && nla_put_u32(skb, VLC_SIM_EDGE_ATTR_COVER_US,
				     cover_us))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Node @id: its settings and counters, and an edge for each node whose
 * light it sees or whose edge is covered. Context: RTNL held.
 */
static int vlc_nl_sim_fill_node(struct sk_buff *skb,
				const struct vlc_sim_ctl *ctl, u32 id,
				struct vlc_sim_node_conf *c, u32 portid,
				u32 seq, int flags)
{
	struct net_device *ndev = ctl->node_dev(id);
	struct nlattr *nest;
	void *hdr;
	u32 from;

	memset(c, 0, sizeof(*c));
	ctl->get_node(id, c);
	hdr = vlc_nl_put(skb, portid, seq, flags, VLC_CMD_SIM_NODE_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, VLC_ATTR_SIM_NODE);
	if (!nest ||
	    nla_put_u32(skb, VLC_SIM_NODE_ATTR_ID, id) ||
	    nla_put_u32(skb, VLC_SIM_NODE_ATTR_IFINDEX, ndev->ifindex) ||
	    nla_put_string(skb, VLC_SIM_NODE_ATTR_IFNAME, ndev->name) ||
	    nla_put_u64_64bit(skb, VLC_SIM_NODE_ATTR_NETNS_COOKIE,
			      dev_net(ndev)->net_cookie,
			      VLC_SIM_NODE_ATTR_PAD) ||
	    nla_put_s32(skb, VLC_SIM_NODE_ATTR_SKEW_PPM, c->skew_ppm) ||
	    nla_put_s32(skb, VLC_SIM_NODE_ATTR_PHASE_US, c->phase_us) ||
	    nla_put_u8(skb, VLC_SIM_NODE_ATTR_RX, c->rx) ||
	    nla_put_u64_64bit(skb, VLC_SIM_NODE_ATTR_BURSTS, c->bursts,
			      VLC_SIM_NODE_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, VLC_SIM_NODE_ATTR_RX_LIT, c->rx_lit,
			      VLC_SIM_NODE_ATTR_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	for (from = 0; from < VLC_SIM_MAX_NODES; from++) {
		if (!c->gain[from] && !c->cover_us[from])
			continue;
		if (vlc_nl_sim_put_edge(skb, from, id, c->gain[from],
					c->cover_us[from]))
			goto cancel;
	}
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int vlc_nl_sim_node_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[VLC_ATTR_SIM_NODE];
	struct nlattr *tb[VLC_SIM_NODE_ATTR_MAX + 1];
	const struct vlc_sim_ctl *ctl;
	struct vlc_sim_node_conf *c;
	struct sk_buff *msg;
	u32 id;
	int err;

	if (!nest) {
		GENL_SET_ERR_MSG(info, "sim node: no node given");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, VLC_ATTR_SIM_NODE);
		return -EINVAL;
	}
	err = nla_parse_nested(tb, VLC_SIM_NODE_ATTR_MAX, nest,
			       vlc_sim_node_nl_policy, info->extack);
	if (err)
		return err;
	if (!tb[VLC_SIM_NODE_ATTR_ID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "sim node: no id given");
		NL_SET_ERR_ATTR_MISS(info->extack, nest, VLC_SIM_NODE_ATTR_ID);
		return -EINVAL;
	}
	id = nla_get_u32(tb[VLC_SIM_NODE_ATTR_ID]);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!msg || !c) {
		err = -ENOMEM;
		goto err;
	}
	rtnl_lock();
	ctl = vlc_nl_sim(info->extack);
	if (!ctl) {
		err = -EOPNOTSUPP;
	} else if (!ctl->node_dev(id)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[VLC_SIM_NODE_ATTR_ID],
				    "sim node: no such node");
		err = -ENODEV;
	} else {
		err = vlc_nl_sim_fill_node(msg, ctl, id, c, info->snd_portid,
					   info->snd_seq, 0);
	}
	rtnl_unlock();
	if (err)
		goto err;
	kfree(c);
	return genlmsg_reply(msg, info);
err:
	kfree(c);
	nlmsg_free(msg);
	return err;
}

int vlc_nl_sim_node_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	const struct vlc_sim_ctl *ctl;
	struct vlc_sim_node_conf *c;
	u32 id = cb->args[0];
	int err = 0;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	rtnl_lock();
	ctl = vlc_nl_sim(cb->extack);
	if (!ctl)
		err = -EOPNOTSUPP;
	for (; ctl && id < VLC_SIM_MAX_NODES; id++) {
		if (!ctl->node_dev(id))
			continue;
		err = vlc_nl_sim_fill_node(skb, ctl, id, c,
					   NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err)
			break;
	}
	rtnl_unlock();
	kfree(c);
	cb->args[0] = id;

	/* A node that does not fit an empty skb would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}
