// SPDX-License-Identifier: GPL-2.0
/* KUnit tests of the VLC net_device glue: what the stack sees of a vlc
 * device before any light is involved.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>

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

static struct kunit_case vlc_netdev_test_cases[] = {
	KUNIT_CASE(vlc_netdev_test_setup),
	KUNIT_CASE(vlc_netdev_test_random_addr),
	{}
};

static struct kunit_suite vlc_netdev_test_suite = {
	.name = "vlc_netdev",
	.test_cases = vlc_netdev_test_cases,
};

kunit_test_suite(vlc_netdev_test_suite);
