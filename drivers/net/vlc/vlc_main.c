// SPDX-License-Identifier: GPL-2.0
/* vlc.ko's entry point: module init and exit, which register the "vlc"
 * generic netlink family and the LED notifier. The module holds the
 * netdev glue, the MAC, the PHY and the executors. Pin backends
 * (vlc_gpio.ko, vlc_sim.ko) create devices with vlc_netdev_setup() and
 * vlc_dev_attach(); user space tunes them through the "vlc" generic
 * netlink family (vlc_nl.c) and their brightness through an LED class
 * device each (vlc_led.c).
 */

#include <linux/genetlink.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "vlc_netdev.h"
#include "vlc_nl.h"

static int __init vlc_main_init(void)
{
	int err;

	err = vlc_led_init();
	if (err)
		return err;
	err = vlc_nl_init();
	if (err)
		vlc_led_exit();
	return err;
}

static void __exit vlc_main_exit(void)
{
	vlc_nl_exit();
	vlc_led_exit();
}

module_init(vlc_main_init);
module_exit(vlc_main_exit);

MODULE_DESCRIPTION("Visible-light communication (VLC) network device core");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY("vlc");
