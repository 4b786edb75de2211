// SPDX-License-Identifier: GPL-2.0
/* VLC ethtool_ops: the driver's name and bus, the link, and the PHY's and
 * MAC's counters (ethtool -S), read from the snapshot the executor
 * publishes, as ndo_get_stats64 reads it.
 */

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#include "vlc_netdev.h"

static void vlc_ethtool_get_drvinfo(struct net_device *ndev,
				    struct ethtool_drvinfo *info)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	strscpy(info->driver, VLC_DRV_NAME, sizeof(info->driver));
	if (vd->bus_info)
		strscpy(info->bus_info, vd->bus_info, sizeof(info->bus_info));
}

struct vlc_ethtool_stat {
	char name[ETH_GSTRING_LEN];
	bool mac;		/* in struct vlc_mac_stats, else vlc_phy_stats */
	size_t offset;
};

#define VLC_PHY_STAT(n) { "phy_" #n, false, offsetof(struct vlc_phy_stats, n) }
#define VLC_MAC_STAT(n) { "mac_" #n, true, offsetof(struct vlc_mac_stats, n) }

static const struct vlc_ethtool_stat vlc_ethtool_stats[] = {
	VLC_PHY_STAT(frames),
	VLC_PHY_STAT(symbols_tx),
	VLC_PHY_STAT(symbols_rx),
	VLC_PHY_STAT(erasures),
	VLC_PHY_STAT(idle),
	VLC_PHY_STAT(late),
	VLC_PHY_STAT(overruns),
	VLC_PHY_STAT(sync_early),
	VLC_PHY_STAT(sync_late),
	VLC_PHY_STAT(acq_coarse),
	VLC_PHY_STAT(acq_locks),
	VLC_PHY_STAT(acq_lost),
	VLC_MAC_STAT(tx_frames),
	VLC_MAC_STAT(tx_fragments),
	VLC_MAC_STAT(tx_retries),
	VLC_MAC_STAT(tx_acked),
	VLC_MAC_STAT(tx_dropped),
	VLC_MAC_STAT(tx_expired),
	VLC_MAC_STAT(tx_bytes_air),
	VLC_MAC_STAT(rx_frames_ok),
	VLC_MAC_STAT(rx_truncated),
	VLC_MAC_STAT(rx_erasure_aborts),
	VLC_MAC_STAT(rx_hard_symbols),
	VLC_MAC_STAT(rx_hard_frames_ok),
	VLC_MAC_STAT(rx_hard_crc_errors),
	VLC_MAC_STAT(rx_no_delimiter),
	VLC_MAC_STAT(rx_bad_header),
	VLC_MAC_STAT(rx_dup),
	VLC_MAC_STAT(rx_out_of_order),
	VLC_MAC_STAT(rx_orphan),
	VLC_MAC_STAT(rx_incomplete),
	VLC_MAC_STAT(rx_too_long),
	VLC_MAC_STAT(rx_unexpected_ack),
	VLC_MAC_STAT(rx_other),
	VLC_MAC_STAT(rx_beacons),
	VLC_MAC_STAT(tx_beacons),
	VLC_MAC_STAT(rx_delivered),
	VLC_MAC_STAT(tx_rts),
	VLC_MAC_STAT(tx_cts),
	VLC_MAC_STAT(rx_rts),
	VLC_MAC_STAT(rx_cts),
	VLC_MAC_STAT(cts_timeouts),
	VLC_MAC_STAT(nav_set),
	VLC_MAC_STAT(nav_reset),
	VLC_MAC_STAT(nav_clamped),
	VLC_MAC_STAT(nav_frames),
	VLC_MAC_STAT(backoffs),
	VLC_MAC_STAT(phase_corrections),
	VLC_MAC_STAT(fec_corrected_symbols),
	VLC_MAC_STAT(fec_corrected_frames),
	VLC_MAC_STAT(fec_uncorrectable),
	VLC_MAC_STAT(fec_tx_frames),
	VLC_MAC_STAT(fec_busy),
	VLC_MAC_STAT(fec_deferred),
};

static int vlc_ethtool_get_sset_count(struct net_device *ndev, int sset)
{
	return sset == ETH_SS_STATS ? ARRAY_SIZE(vlc_ethtool_stats) :
				      -EOPNOTSUPP;
}

static void vlc_ethtool_get_strings(struct net_device *ndev, u32 sset,
				    u8 *data)
{
	unsigned int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < ARRAY_SIZE(vlc_ethtool_stats); i++)
		memcpy(data + i * ETH_GSTRING_LEN, vlc_ethtool_stats[i].name,
		       ETH_GSTRING_LEN);
}

static void vlc_ethtool_get_stats(struct net_device *ndev,
				  struct ethtool_stats *es, u64 *data)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	const struct vlc_snap *s = &vd->snap;
	unsigned int i, seq;

	/* in place, as ndo_get_stats64 */
	do {
		seq = read_seqcount_begin(&vd->snap_seq);
		for (i = 0; i < ARRAY_SIZE(vlc_ethtool_stats); i++) {
			const struct vlc_ethtool_stat *st = &vlc_ethtool_stats[i];
			const void *base = st->mac ? (void *)&s->mac :
						     (void *)&s->phy;

			data[i] = *(const u64 *)(base + st->offset);
		}
	} while (read_seqcount_retry(&vd->snap_seq, seq));
}

const struct ethtool_ops vlc_ethtool_ops = {
	.get_drvinfo		= vlc_ethtool_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= vlc_ethtool_get_sset_count,
	.get_strings		= vlc_ethtool_get_strings,
	.get_ethtool_stats	= vlc_ethtool_get_stats,
};
