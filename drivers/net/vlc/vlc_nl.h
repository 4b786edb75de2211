/* SPDX-License-Identifier: GPL-2.0 */
/* The "vlc" generic netlink family (vlc_nl.c, vlc_nl_sim.c), registered
 * by vlc.ko.
 */
#ifndef _VLC_NL_H
#define _VLC_NL_H

struct genl_info;
struct net_device;
struct netlink_callback;
struct nla_policy;
struct sk_buff;

int vlc_nl_init(void);
void vlc_nl_exit(void);
void *vlc_nl_put(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd);

/* The simulated medium's commands (vlc_nl_sim.c), and the policies of
 * their nested attributes (vlc_nl.c).
 */
extern const struct nla_policy vlc_sim_nl_policy[];
extern const struct nla_policy vlc_sim_node_nl_policy[];
extern const struct nla_policy vlc_sim_edge_nl_policy[];
int vlc_nl_sim_get_doit(struct sk_buff *skb, struct genl_info *info);
int vlc_nl_sim_set_doit(struct sk_buff *skb, struct genl_info *info);
int vlc_nl_sim_node_get_doit(struct sk_buff *skb, struct genl_info *info);
int vlc_nl_sim_node_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);

#endif /* _VLC_NL_H */
