// SPDX-License-Identifier: GPL-2.0
/* VLC net_device glue: netdev_ops, stats, NAPI and BQL around the device
 * of vlc_dev.c. The device is Ethernet-like (ARPHRD_ETHER) so ARP, ND,
 * bridges, batman-adv, MACsec and tcpdump work unchanged; the MAC below
 * compresses the Ethernet header on air and restores it on receive.
 *
 * Context map (see vlc_netdev.h): ndo_start_xmit and NAPI never take the
 * executor lock; they meet the executor in two SPSC rings.
 */

#include <linux/etherdevice.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/neighbour.h>
#include <net/netdev_queues.h>
#include <uapi/linux/vlc.h>

#include "vlc_compat.h"
#include "vlc_netdev.h"

/* ---- process context: the stack's transmit watchdog ---- */

/* The watchdog's timer, the stack's transmit lock held: the executor's
 * lock may be a mutex, so a work item flushes.
 */
static void vlc_netdev_tx_timeout(struct net_device *ndev, unsigned int txq)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	schedule_work(&vd->timeout_work);
}

/* Free entries of the stack's ring once its head is at @head. */
static unsigned int vlc_netdev_txq_room(struct vlc_dev *vd, unsigned int head)
{
	/* acquire: pairs with the release in vlc_dev_feed_mac() */
	return VLC_TXQ_LEN - (head - smp_load_acquire(&vd->txq_tail));
}

static bool vlc_netdev_txq_full(struct vlc_dev *vd, unsigned int head)
{
	return !vlc_netdev_txq_room(vd, head);
}

/* ---- events: to whoever listens (vlc_nl.c) ---- */

static ATOMIC_NOTIFIER_HEAD(vlc_dev_events);

/**
 * vlc_dev_register_notifier - be told of the devices' events
 * @nb: called with an enum vlc_event and a struct vlc_dev_event_info,
 *	in softirq or process context: it must not sleep
 */
int vlc_dev_register_notifier(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&vlc_dev_events, nb);
}

void vlc_dev_unregister_notifier(struct notifier_block *nb)
{
	atomic_notifier_chain_unregister(&vlc_dev_events, nb);
}

static void vlc_dev_notify(struct net_device *ndev, u8 event, int neigh)
{
	struct vlc_dev_event_info info = { .ndev = ndev, .neigh = neigh };

	atomic_notifier_call_chain(&vlc_dev_events, event, &info);
}

/* ---- NAPI: softirq context ---- */

/* Lock and neighbours, as of the executor's last frame, for netlink. */
static void vlc_napi_notify_state(struct vlc_dev *vd)
{
	struct vlc_notify *nt = &vd->notify;
	DECLARE_BITMAP(now, 256);
	struct vlc_snap *s = &vd->snap_napi;
	unsigned int i;
	bool locked;

	vlc_dev_read_snap(vd, s);
	locked = s->phy.frames && !s->rx.acquiring;
	if (locked != nt->locked) {
		nt->locked = locked;
		vlc_dev_notify(vd->ndev, locked ? VLC_EVENT_LOCK :
				       VLC_EVENT_UNLOCK, -1);
	}
	bitmap_zero(now, 256);
	for (i = 0; i < s->nbeacons; i++)
		__set_bit(s->beacons[i].id, now);
	for (i = 0; i < 256; i++) {
		if (test_bit(i, now) == test_bit(i, nt->neigh))
			continue;
		vlc_dev_notify(vd->ndev, test_bit(i, now) ? VLC_EVENT_NEIGH_NEW :
				       VLC_EVENT_NEIGH_GONE, i);
	}
	bitmap_copy(nt->neigh, now, 256);
}

int vlc_napi_poll(struct napi_struct *napi, int budget)
{
	struct vlc_dev *vd = container_of(napi, struct vlc_dev, napi);
	struct net_device *ndev = vd->ndev;
	unsigned int tail = vd->rxq_tail;
	int done = 0;

	while (done < budget) {
		struct vlc_rx_slot *slot = &vd->rxq[tail % VLC_RXQ_LEN];
		struct sk_buff *skb;

		/* acquire: pairs with the release in vlc_dev_deliver() */
		if (tail == smp_load_acquire(&vd->rxq_head))
			break;

		skb = napi_alloc_skb(napi, slot->len);
		if (skb) {
			skb_put_data(skb, slot->data, slot->len);
			skb->protocol = eth_type_trans(skb, ndev);
			u64_stats_update_begin(&vd->nstats.syncp);
			u64_stats_inc(&vd->nstats.rx_packets);
			u64_stats_add(&vd->nstats.rx_bytes, slot->len);
			u64_stats_update_end(&vd->nstats.syncp);
			napi_gro_receive(napi, skb);
		} else {
			u64_stats_update_begin(&vd->nstats.syncp);
			u64_stats_inc(&vd->nstats.rx_missed);
			u64_stats_update_end(&vd->nstats.syncp);
		}
		tail++;
		/* release: the executor may reuse the slot after this */
		smp_store_release(&vd->rxq_tail, tail);
		done++;
	}

	/* acquire: the totals were written before the event's bit */
	if (test_and_clear_bit(VLC_EV_TX_DONE, &vd->events)) {
		unsigned int pkts = READ_ONCE(vd->bql.pkts);
		unsigned int bytes = READ_ONCE(vd->bql.bytes);

		netdev_completed_queue(ndev, pkts - vd->bql.seen_pkts,
				       bytes - vd->bql.seen_bytes);
		vd->bql.seen_pkts = pkts;
		vd->bql.seen_bytes = bytes;
	}
	if (test_and_clear_bit(VLC_EV_CARRIER, &vd->events)) {
		bool on = READ_ONCE(vd->carrier);

		if (on != netif_carrier_ok(ndev))
			vlc_dev_notify(ndev, on ? VLC_EVENT_CARRIER_ON :
					  VLC_EVENT_CARRIER_OFF, -1);
		if (on)
			netif_carrier_on(ndev);
		else
			netif_carrier_off(ndev);
	}
	if (test_and_clear_bit(VLC_EV_STATE, &vd->events))
		vlc_napi_notify_state(vd);
	/* The stack may have filled the ring again since the executor made
	 * room; waking it then would overwrite an skb the MAC has not taken.
	 * The executor raises the event again when it takes one. The bit's
	 * test_and_clear is a full barrier between the executor's new tail
	 * and the look at the stop: it pairs with the one in ndo_start_xmit's
	 * netif_subqueue_maybe_stop().
	 */
	if (test_and_clear_bit(VLC_EV_WAKE, &vd->events) &&
	    netif_queue_stopped(ndev) &&
	    !vlc_netdev_txq_full(vd, READ_ONCE(vd->txq_head)))
		netif_wake_queue(ndev);

	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* ---- process context ---- */

static int vlc_netdev_open(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	unsigned long flags;
	u64 first;
	int err;

	/* Codecs allocate: here, never in the tick. Without the library
	 * FEC is off; coded frames that arrive whole are still taken.
	 */
	err = vlc_fec_init(&vd->fec);
	if (!err) {
		err = vlc_fec_init(&vd->fec_hdr);
		if (err)
			vlc_fec_exit(&vd->fec);
	}
	if (err == -EOPNOTSUPP)
		pr_notice_once("vlc: this kernel has no REED_SOLOMON: forward error correction off\n");
	else if (err)
		return err;

	netif_carrier_off(ndev);
	WRITE_ONCE(vd->carrier, false);
	memset(&vd->notify, 0, sizeof(vd->notify));
	napi_enable(&vd->napi);

	flags = vlc_exec_lock(&vd->exec);
	if (err)
		vlc_mac_set_fec(&vd->mac, NULL, NULL, false);
	else
		vlc_mac_set_fec(&vd->mac, &vd->fec, &vd->fec_hdr,
				vd->exec.kind != VLC_EXEC_EXTERNAL);
	first = vlc_phy_start(&vd->phy, vlc_exec_now(&vd->exec));
	vd->left_ns = vlc_exec_now(&vd->exec);
	vlc_exec_unlock(&vd->exec, flags);

	err = vlc_exec_start(&vd->exec, first);
	if (err) {
		napi_disable(&vd->napi);
		flags = vlc_exec_lock(&vd->exec);
		vlc_mac_set_fec(&vd->mac, NULL, NULL, false);
		vlc_exec_unlock(&vd->exec, flags);
		vlc_fec_exit(&vd->fec_hdr);
		vlc_fec_exit(&vd->fec);
		netdev_err(ndev, "cannot start the %s executor: %d\n",
			   vlc_exec_kind_name(vd->exec.kind), err);
		return err;
	}
	netif_start_queue(ndev);
	return 0;
}

static int vlc_netdev_stop(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	unsigned long flags;

	netif_stop_queue(ndev);
	vlc_exec_stop(&vd->exec);
	/* no tick queues it any more; vlc_phy_start() forgets its frame */
	cancel_work_sync(&vd->acq_work);
	/* nor this one: a decode taken is ended before it returns */
	cancel_work_sync(&vd->fec_work);
	/* the watchdog stopped before ndo_stop was called */
	cancel_work_sync(&vd->timeout_work);

	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_stop(&vd->phy, vlc_exec_now(&vd->exec));
	vlc_mac_flush(&vd->mac);
	vlc_mac_set_fec(&vd->mac, NULL, NULL, false);
	vlc_dev_publish(vd);
	vlc_exec_unlock(&vd->exec, flags);
	vlc_fec_exit(&vd->fec_hdr);
	vlc_fec_exit(&vd->fec);

	napi_disable(&vd->napi);
	/* a kick queued before that finds NAPI disabled: let it end */
	irq_work_sync(&vd->kick);
	/* Nothing runs any more: empty both rings. */
	while (vd->txq_tail != vd->txq_head) {
		dev_kfree_skb(vd->txq[vd->txq_tail % VLC_TXQ_LEN]);
		atomic64_inc(&vd->tx_dropped);
		vd->txq_tail++;
	}
	vd->rxq_tail = vd->rxq_head;
	vd->events = 0;
	netdev_reset_queue(ndev);
	vd->bql.seen_pkts = vd->bql.pkts;
	vd->bql.seen_bytes = vd->bql.bytes;
	netif_carrier_off(ndev);
	return 0;
}

static netdev_tx_t vlc_netdev_start_xmit(struct sk_buff *skb,
					 struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	unsigned int head = vd->txq_head;

	if (unlikely(vlc_netdev_txq_full(vd, head))) {
		netif_stop_queue(ndev);
		netdev_err_once(ndev, "tx ring full with the queue awake\n");
		return NETDEV_TX_BUSY;
	}
	if (skb_linearize(skb) || skb->len < ETH_HLEN) {
		atomic64_inc(&vd->tx_dropped);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	vd->txq[head % VLC_TXQ_LEN] = skb;
	/* before the executor can see it leave */
	netdev_sent_queue(ndev, skb->len);
	/* release: the executor sees the skb pointer before the new head */
	smp_store_release(&vd->txq_head, head + 1);

	/* Stopped while full; the executor may have made room since, and
	 * NAPI seen the queue still awake: after the stop, a full barrier,
	 * then the tail again, and the queue restarted if there is room.
	 */
	netif_subqueue_maybe_stop(ndev, 0, vlc_netdev_txq_room(vd, head + 1),
				  1, 1);
	return NETDEV_TX_OK;
}

static void vlc_netdev_get_stats64(struct net_device *ndev,
				   struct rtnl_link_stats64 *st)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	struct vlc_exec_stats *x = &vd->xstats;
	struct vlc_napi_stats *n = &vd->nstats;
	const struct vlc_mac_stats *m = &vd->snap.mac;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&x->syncp);
		st->tx_packets = u64_stats_read(&x->tx_packets);
		st->tx_bytes = u64_stats_read(&x->tx_bytes);
		st->tx_errors = u64_stats_read(&x->tx_errors);
		st->rx_dropped = u64_stats_read(&x->rx_dropped);
	} while (u64_stats_fetch_retry(&x->syncp, start));
	do {
		start = u64_stats_fetch_begin(&n->syncp);
		st->rx_packets = u64_stats_read(&n->rx_packets);
		st->rx_bytes = u64_stats_read(&n->rx_bytes);
		st->rx_missed_errors = u64_stats_read(&n->rx_missed);
	} while (u64_stats_fetch_retry(&n->syncp, start));
	st->tx_dropped = atomic64_read(&vd->tx_dropped);

	/* The MAC's own, as of its last frame (ethtool -S has the rest),
	 * read in place: a snapshot is too big for a stack that bonding
	 * may have nested stats calls on.
	 */
	do {
		start = read_seqcount_begin(&vd->snap_seq);
		st->rx_crc_errors = m->rx_crc_errors;
		st->rx_errors = m->rx_crc_errors + m->rx_truncated +
				m->rx_bad_header + m->rx_erasure_aborts +
				m->rx_too_long;
		st->collisions = m->collisions;
	} while (read_seqcount_retry(&vd->snap_seq, start));
}

static int vlc_netdev_set_mac_address(struct net_device *ndev, void *addr)
{
	int err = eth_mac_addr(ndev, addr);

	if (!err)
		vlc_dev_sync_short_addr(netdev_priv(ndev));
	return err;
}

/* ARP and ND retry after 1 s by default; on a 2000 bit/s link a request
 * and its reply take about that on air alone, more behind other traffic,
 * and three unanswered retries drop the packets queued on the entry.
 * See vlc.rst, "Queueing and neighbour resolution".
 */
#define VLC_NEIGH_RETRANS	(4 * HZ)

static int vlc_netdev_neigh_setup(struct net_device *ndev,
				  struct neigh_parms *p)
{
	NEIGH_VAR_INIT(p, RETRANS_TIME, VLC_NEIGH_RETRANS);
	return 0;
}

static const struct net_device_ops vlc_netdev_ops = {
	.ndo_open		= vlc_netdev_open,
	.ndo_stop		= vlc_netdev_stop,
	.ndo_start_xmit		= vlc_netdev_start_xmit,
	.ndo_tx_timeout		= vlc_netdev_tx_timeout,
	.ndo_get_stats64	= vlc_netdev_get_stats64,
	.ndo_set_mac_address	= vlc_netdev_set_mac_address,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_neigh_setup	= vlc_netdev_neigh_setup,
};

/* A random address of the form that travels in one byte on air,
 * 02:56:4c:43:00:XX with XX in 1..254. Boards should be given distinct
 * ones (device tree, ip link set address); see vlc.rst.
 */
static void vlc_netdev_random_addr(struct net_device *ndev)
{
	u8 addr[ETH_ALEN] = { 0x02, 0x56, 0x4c, 0x43, 0x00, 0 };

	addr[5] = 1 + get_random_u32_below(254);
	eth_hw_addr_set(ndev, addr);
	ndev->addr_assign_type = NET_ADDR_RANDOM;
}

/**
 * vlc_netdev_setup - initialise a VLC net_device
 * @ndev: device allocated with room for struct vlc_dev in its priv area
 *
 * Used as the setup callback of alloc_netdev() and of rtnl_link_ops. The
 * backend then calls vlc_dev_attach() before the device is registered.
 */
void vlc_netdev_setup(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);

	ether_setup(ndev);
	ndev->netdev_ops = &vlc_netdev_ops;
	ndev->ethtool_ops = &vlc_ethtool_ops;
	ndev->needs_free_netdev = true;
	ndev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	/* A 1500-byte packet takes seconds on air: keep the qdisc short. */
	ndev->tx_queue_len = 32;
	vlc_netdev_random_addr(ndev);

	vd->ndev = ndev;
	u64_stats_init(&vd->xstats.syncp);
	u64_stats_init(&vd->nstats.syncp);
	atomic64_set(&vd->tx_dropped, 0);
}
EXPORT_SYMBOL_GPL(vlc_netdev_setup);

/**
 * vlc_netdev_is_vlc - whether netdev_priv(@ndev) is a struct vlc_dev
 * @ndev: any net_device
 */
bool vlc_netdev_is_vlc(const struct net_device *ndev)
{
	return ndev->netdev_ops == &vlc_netdev_ops;
}
