// SPDX-License-Identifier: GPL-2.0
/* KUnit tests of the VLC net_device glue: what the stack sees of a vlc
 * device before any light is involved.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/sch_generic.h>

#include "vlc_netdev.h"

static struct net_device *vlc_test_ndev(struct kunit *test)
{
	struct net_device *ndev;

	ndev = alloc_netdev(sizeof(struct vlc_dev), "vlct%d", NET_NAME_ENUM,
			    vlc_netdev_setup);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ndev);
	return ndev;
}

static void vlc_netdev_test_setup(struct kunit *test)
{
	struct net_device *ndev = vlc_test_ndev(test);
	struct vlc_dev *vd = netdev_priv(ndev);

	KUNIT_EXPECT_EQ(test, ndev->type, (unsigned short)ARPHRD_ETHER);
	KUNIT_EXPECT_EQ(test, ndev->mtu, (unsigned int)ETH_DATA_LEN);
	KUNIT_EXPECT_EQ(test, ndev->addr_len, (unsigned char)ETH_ALEN);
	KUNIT_EXPECT_TRUE(test, is_valid_ether_addr(ndev->dev_addr));
	KUNIT_EXPECT_PTR_EQ(test, vd->ndev, ndev);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, ndev->ethtool_ops);
	free_netdev(ndev);
}

/* The random address travels in one byte on air: 02:56:4c:43:00:XX with
 * XX in 1..254, so two boards collide one time in 254 and the test asks
 * only that eight draws are not all the same.
 */
#define VLC_TEST_ADDR_DRAWS	8

static void vlc_netdev_test_random_addr(struct kunit *test)
{
	static const u8 prefix[] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };
	u8 first = 0;
	bool differ = false;
	int i;

	for (i = 0; i < VLC_TEST_ADDR_DRAWS; i++) {
		struct net_device *ndev = vlc_test_ndev(test);
		u8 last = ndev->dev_addr[ETH_ALEN - 1];

		KUNIT_EXPECT_EQ(test,
				memcmp(ndev->dev_addr, prefix, sizeof(prefix)), 0);
		KUNIT_EXPECT_GE(test, last, 1);
		KUNIT_EXPECT_LE(test, last, 254);
		KUNIT_EXPECT_EQ(test, ndev->addr_assign_type,
				(unsigned char)NET_ADDR_RANDOM);
		if (i == 0)
			first = last;
		else if (last != first)
			differ = true;
		free_netdev(ndev);
	}
	KUNIT_EXPECT_TRUE(test, differ);
}

static void vlc_test_pin_emit(void *ctx, bool on, u64 t_ns) { }
static void vlc_test_pin_rx_begin(void *ctx, u64 t_ns) { }
static u32 vlc_test_pin_rx_end(void *ctx, u64 t_ns) { return 0; }

static const struct vlc_pin_ops vlc_test_pins = {
	.emit = vlc_test_pin_emit,
	.rx_begin = vlc_test_pin_rx_begin,
	.rx_end = vlc_test_pin_rx_end,
};

/* The default timing scaled to a 200 us frame: the PHY could run it. */
static const struct vlc_phy_timing vlc_test_fast = {
	.sync_ns = 16000, .guard_ns = 8000, .data_ns = 20000,
	.frame_ns = 200000, .tolerance_ns = 8000,
};

/* What the PHY takes from @kind's executor, or the reason it refused. */
static int vlc_test_timing(struct kunit *test, enum vlc_exec_kind kind,
			   const struct vlc_phy_timing *t,
			   enum vlc_refusal *why)
{
	struct net_device *ndev = vlc_test_ndev(test);
	struct vlc_dev *vd = netdev_priv(ndev);
	int err;

	*why = VLC_REFUSE_NONE;
	KUNIT_ASSERT_EQ(test, vlc_dev_attach(vd, &vlc_test_pins, NULL, kind),
			0);
	err = vlc_dev_set_phy_config(vd, t, VLC_PHY_MODE_2SLOT, 200, why);
	free_netdev(ndev);
	return err;
}

/* A timer executor runs no frame or slot shorter than it can keep; the
 * simulator's virtual clock runs what the PHY allows.
 */
static void vlc_netdev_test_exec_limits(struct kunit *test)
{
	struct vlc_phy_timing t = vlc_test_fast;
	enum vlc_refusal why;

	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_EXTERNAL, &t,
					      &why), 0);
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_HRTIMER, &t,
					      &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, VLC_REFUSE_EXEC_FRAME);
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_THREAD, &t,
					      &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, VLC_REFUSE_EXEC_FRAME);

	t = vlc_phy_default_timing;
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_HRTIMER, &t,
					      &why), 0);
	t.guard_ns = 9000;
	t.tolerance_ns = 9000;
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_HRTIMER, &t,
					      &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, VLC_REFUSE_EXEC_GUARD);
	KUNIT_EXPECT_EQ(test, vlc_refusal_field(why), VLC_FIELD_GUARD);
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_EXTERNAL, &t,
					      &why), 0);

	t = vlc_phy_default_timing;
	t.data_ns = 9000;
	KUNIT_EXPECT_EQ(test, vlc_test_timing(test, VLC_EXEC_THREAD, &t,
					      &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, VLC_REFUSE_EXEC_DATA);
	KUNIT_EXPECT_EQ(test, vlc_refusal_field(why), VLC_FIELD_DATA);
}

struct vlc_test_reader {
	struct net_device *ndev;
	u64 *data;
	struct completion done;
};

static int vlc_test_reader_fn(void *arg)
{
	struct vlc_test_reader *r = arg;

	r->ndev->ethtool_ops->get_ethtool_stats(r->ndev, NULL, r->data);
	complete(&r->done);
	return 0;
}

/* ethtool -S, which anybody may run, reads the published snapshot: it
 * goes on while the thread executor's mutex is held, as the executor
 * goes on while a reader runs.
 */
static void vlc_netdev_test_reader_lockless(struct kunit *test)
{
	struct net_device *ndev = vlc_test_ndev(test);
	struct vlc_dev *vd = netdev_priv(ndev);
	struct vlc_test_reader r = { .ndev = ndev };
	struct task_struct *task;
	unsigned long flags;
	bool done;
	int n;

	KUNIT_ASSERT_EQ(test, vlc_dev_attach(vd, &vlc_test_pins, NULL,
					     VLC_EXEC_THREAD), 0);
	n = ndev->ethtool_ops->get_sset_count(ndev, ETH_SS_STATS);
	KUNIT_ASSERT_GT(test, n, 0);
	r.data = kunit_kcalloc(test, n, sizeof(*r.data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.data);
	init_completion(&r.done);

	flags = vlc_exec_lock(&vd->exec);
	task = kthread_run(vlc_test_reader_fn, &r, "vlc-test-reader");
	done = !IS_ERR(task) && wait_for_completion_timeout(&r.done, HZ);
	vlc_exec_unlock(&vd->exec, flags);
	if (!IS_ERR(task) && !done)
		wait_for_completion(&r.done);

	KUNIT_EXPECT_FALSE(test, IS_ERR(task));
	KUNIT_EXPECT_TRUE_MSG(test, done,
			      "ethtool -S waited for the executor's lock");
	free_netdev(ndev);
}

/* A broadcast Ethernet frame of 100 bytes' payload to @ndev's queue. */
static void vlc_test_xmit(struct net_device *ndev)
{
	struct sk_buff *skb = alloc_skb(ETH_HLEN + 100, GFP_KERNEL);
	struct ethhdr *eh;

	if (!skb)
		return;
	eh = skb_put_zero(skb, ETH_HLEN + 100);
	eth_broadcast_addr(eh->h_dest);
	ether_addr_copy(eh->h_source, ndev->dev_addr);
	eh->h_proto = htons(ETH_P_IP);
	skb->protocol = eh->h_proto;
	skb->dev = ndev;
	skb_reset_mac_header(skb);
	dev_queue_xmit(skb);
}

/* The external executor's clock, which the watchdog case moves. */
static u64 vlc_test_clock_ns;

static u64 vlc_test_clock(void *ctx)
{
	return READ_ONCE(vlc_test_clock_ns);
}

/* Wait, 20 s at most, for @want transmit timeouts of @ndev and, if
 * @errors, a packet counted as failed; the timeouts seen.
 */
static long vlc_test_timeouts(struct net_device *ndev, long want,
			      bool errors, struct rtnl_link_stats64 *st)
{
	struct netdev_queue *txq = netdev_get_tx_queue(ndev, 0);
	unsigned long end = jiffies + 20 * HZ;
	long fired;

	do {
		msleep(100);
		fired = atomic_long_read(&txq->trans_timeout);
		dev_get_stats(ndev, st);
	} while ((fired < want || (errors && !st->tx_errors)) &&
		 time_before(jiffies, end));
	return fired;
}

/* A jammed medium: a neighbour in view, but the MAC never gets a frame
 * out (the executor never runs a frame). The skb ring and BQL fill and
 * the queue stops; the stack's watchdog must fire, and once the
 * executor's own clock has gone past the longest a packet may take, the
 * device must flush what the MAC holds, so that the queue moves again
 * instead of staying stopped for good. Before that (a simulator slower
 * than the wall) it must not.
 */
static void vlc_netdev_test_tx_watchdog(struct kunit *test)
{
	struct net_device *ndev = vlc_test_ndev(test);
	struct vlc_dev *vd = netdev_priv(ndev);
	struct rtnl_link_stats64 st = {};
	unsigned long end;
	long fired;
	int i, err;

	KUNIT_ASSERT_EQ(test, vlc_dev_attach(vd, &vlc_test_pins, NULL,
					     VLC_EXEC_EXTERNAL), 0);
	KUNIT_EXPECT_GE(test, ndev->watchdog_timeo, 5 * HZ);
	vlc_test_clock_ns = 0;
	vlc_exec_set_clock(&vd->exec, vlc_test_clock, NULL);
	rtnl_lock();
	err = register_netdevice(ndev);
	if (!err)
		err = dev_open(ndev, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, err, 0);

	ndev->watchdog_timeo = HZ / 10;
	WRITE_ONCE(vd->carrier, true);
	netif_carrier_on(ndev);
	/* linkwatch gives the device its qdisc and starts the watchdog */
	end = jiffies + 10 * HZ;
	while (qdisc_tx_is_noop(ndev) && time_before(jiffies, end))
		msleep(20);
	KUNIT_ASSERT_FALSE(test, qdisc_tx_is_noop(ndev));
	for (i = 0; i < 2 * VLC_TXQ_LEN; i++)
		vlc_test_xmit(ndev);

	/* the watchdog's period is rounded to seconds */
	fired = vlc_test_timeouts(ndev, 2, false, &st);
	KUNIT_EXPECT_GE_MSG(test, fired, 2,
			    "the transmit watchdog never fired");
	KUNIT_EXPECT_EQ_MSG(test, st.tx_errors, 0ULL,
			    "flushed before the executor's clock moved");

	WRITE_ONCE(vlc_test_clock_ns, vd->hold_ns);
	fired = vlc_test_timeouts(ndev, fired + 2, true, &st);
	KUNIT_EXPECT_GT_MSG(test, st.tx_errors, 0ULL,
			    "nothing the MAC held was flushed");

	rtnl_lock();
	dev_close(ndev);
	unregister_netdevice(ndev);	/* needs_free_netdev: frees it */
	rtnl_unlock();
}

static struct kunit_case vlc_netdev_test_cases[] = {
	KUNIT_CASE(vlc_netdev_test_setup),
	KUNIT_CASE(vlc_netdev_test_random_addr),
	KUNIT_CASE(vlc_netdev_test_exec_limits),
	KUNIT_CASE(vlc_netdev_test_reader_lockless),
	KUNIT_CASE(vlc_netdev_test_tx_watchdog),
	{}
};

static struct kunit_suite vlc_netdev_test_suite = {
	.name = "vlc_netdev",
	.test_cases = vlc_netdev_test_cases,
};

kunit_test_suite(vlc_netdev_test_suite);
