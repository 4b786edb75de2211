// SPDX-License-Identifier: GPL-2.0
/* vlc.ko: the VLC core (netdev glue, MAC, PHY and executors). Pin backends
 * (vlc_gpio.ko, vlc_sim.ko) create devices with vlc_netdev_setup() and
 * vlc_dev_attach(); user space tunes them through the "vlc" generic
 * netlink family (vlc_nl.c).
 */

#include <linux/genetlink.h>
#include <linux/module.h>

#include "vlc_nl.h"

static int __init vlc_core_init(void)
{
	return vlc_nl_init();
}

static void __exit vlc_core_exit(void)
{
	vlc_nl_exit();
}

module_init(vlc_core_init);
module_exit(vlc_core_exit);

MODULE_DESCRIPTION("Visible-light communication (VLC) network device core");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY("vlc");
