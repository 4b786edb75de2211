// SPDX-License-Identifier: GPL-2.0
/*
 * VLC net_device glue: netdev_ops, ethtool_ops and stats. The device is
 * Ethernet-like (ARPHRD_ETHER) so ARP, ND, bridges, batman-adv and tcpdump
 * work unchanged; the MAC below compresses the Ethernet header on air.
 */

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/netdevice.h>

#include "vlc_dev.h"

static void vlc_stats_add(u64_stats_t *ctr, struct vlc_dev_stats *s, u64 v)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_add(ctr, v);
	u64_stats_update_end(&s->syncp);
}

static int vlc_netdev_open(struct net_device *ndev)
{
	netif_start_queue(ndev);
	return 0;
}

static int vlc_netdev_stop(struct net_device *ndev)
{
	netif_stop_queue(ndev);
	return 0;
}

static netdev_tx_t vlc_netdev_start_xmit(struct sk_buff *skb,
					 struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	/* No MAC below yet: account for the packet and drop it. */
	vlc_stats_add(&vd->stats.tx_dropped, &vd->stats, 1);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static void vlc_netdev_get_stats64(struct net_device *ndev,
				   struct rtnl_link_stats64 *st)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	struct vlc_dev_stats *s = &vd->stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		st->rx_packets = u64_stats_read(&s->rx_packets);
		st->rx_bytes = u64_stats_read(&s->rx_bytes);
		st->tx_packets = u64_stats_read(&s->tx_packets);
		st->tx_bytes = u64_stats_read(&s->tx_bytes);
		st->tx_dropped = u64_stats_read(&s->tx_dropped);
	} while (u64_stats_fetch_retry(&s->syncp, start));
}

static const struct net_device_ops vlc_netdev_ops = {
	.ndo_open		= vlc_netdev_open,
	.ndo_stop		= vlc_netdev_stop,
	.ndo_start_xmit		= vlc_netdev_start_xmit,
	.ndo_get_stats64	= vlc_netdev_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

static void vlc_ethtool_get_drvinfo(struct net_device *ndev,
				    struct ethtool_drvinfo *info)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	strscpy(info->driver, VLC_DRV_NAME, sizeof(info->driver));
	if (vd->bus_info)
		strscpy(info->bus_info, vd->bus_info, sizeof(info->bus_info));
}

static const struct ethtool_ops vlc_ethtool_ops = {
	.get_drvinfo		= vlc_ethtool_get_drvinfo,
	.get_link		= ethtool_op_get_link,
};

/**
 * vlc_netdev_setup - initialise a VLC net_device
 * @ndev: device allocated with room for struct vlc_dev in its priv area
 *
 * Used as the setup callback of alloc_netdev() and of rtnl_link_ops.
 */
void vlc_netdev_setup(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	ether_setup(ndev);
	ndev->netdev_ops = &vlc_netdev_ops;
	ndev->ethtool_ops = &vlc_ethtool_ops;
	ndev->needs_free_netdev = true;
	ndev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	eth_hw_addr_random(ndev);

	vd->ndev = ndev;
	u64_stats_init(&vd->stats.syncp);
}
EXPORT_SYMBOL_GPL(vlc_netdev_setup);
