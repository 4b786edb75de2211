/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private state of one VLC net_device, shared by the netdev glue, the
 * executors and the pin backends of this directory.
 */
#ifndef _VLC_DEV_H
#define _VLC_DEV_H

#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>

#define VLC_DRV_NAME	"vlc"

/* Counters kept by the netdev glue; PHY and MAC keep their own. */
struct vlc_dev_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_dropped;
	struct u64_stats_sync syncp;
};

/**
 * struct vlc_dev - netdev_priv() of every VLC net_device
 * @ndev: the net_device this is the private part of
 * @stats: packet counters for ndo_get_stats64
 * @bus_info: what ethtool -i prints as bus-info (backend name)
 */
struct vlc_dev {
	struct net_device *ndev;
	struct vlc_dev_stats stats;
	const char *bus_info;
};

void vlc_netdev_setup(struct net_device *ndev);

#endif /* _VLC_DEV_H */
