// SPDX-License-Identifier: GPL-2.0
/* KUnit tests of the VLC net_device glue: what the stack sees of a vlc
 * device before any light is involved.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>

#include "vlc_dev.h"

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

static void vlc_netdev_test_two_devices_differ(struct kunit *test)
{
	struct net_device *a = vlc_test_ndev(test);
	struct net_device *b = vlc_test_ndev(test);

	/* Random addresses: two boards must not share a MAC address. */
	KUNIT_EXPECT_FALSE(test, ether_addr_equal(a->dev_addr, b->dev_addr));
	free_netdev(a);
	free_netdev(b);
}

static struct kunit_case vlc_netdev_test_cases[] = {
	KUNIT_CASE(vlc_netdev_test_setup),
	KUNIT_CASE(vlc_netdev_test_two_devices_differ),
	{}
};

static struct kunit_suite vlc_netdev_test_suite = {
	.name = "vlc_netdev",
	.test_cases = vlc_netdev_test_cases,
};

kunit_test_suite(vlc_netdev_test_suite);
