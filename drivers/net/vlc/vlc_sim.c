// SPDX-License-Identifier: GPL-2.0
/*
 * vlc_sim.ko: a simulated optical medium for VLC net_devices, in the spirit
 * of mac802154_hwsim. Nodes are created and removed from user space:
 *
 *	ip link add vlc0 type vlc
 *	ip link del vlc0
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include "vlc_dev.h"

struct vlc_sim_node {
	struct vlc_dev vd;	/* must stay first: netdev_priv() is a vlc_dev */
};

static void vlc_sim_setup(struct net_device *ndev)
{
	struct vlc_sim_node *node = netdev_priv(ndev);

	vlc_netdev_setup(ndev);
	node->vd.bus_info = "vlc_sim";
}

static int vlc_sim_validate(struct nlattr *tb[], struct nlattr *data[],
			    struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG(extack, "vlc: address must be 6 bytes");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG(extack, "vlc: address must be unicast");
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

static struct rtnl_link_ops vlc_sim_link_ops __read_mostly = {
	.kind		= VLC_DRV_NAME,
	.priv_size	= sizeof(struct vlc_sim_node),
	.setup		= vlc_sim_setup,
	.validate	= vlc_sim_validate,
};

static int __init vlc_sim_init(void)
{
	return rtnl_link_register(&vlc_sim_link_ops);
}

static void __exit vlc_sim_exit(void)
{
	rtnl_link_unregister(&vlc_sim_link_ops);
}

module_init(vlc_sim_init);
module_exit(vlc_sim_exit);

MODULE_DESCRIPTION("Simulated optical medium for VLC network devices");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RTNL_LINK(VLC_DRV_NAME);
