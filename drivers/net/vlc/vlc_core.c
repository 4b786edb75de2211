// SPDX-License-Identifier: GPL-2.0
/* vlc.ko: the VLC core (netdev glue, MAC, PHY and executors). Pin backends
 * (vlc_gpio.ko, vlc_sim.ko) create devices with vlc_netdev_setup() and
 * vlc_dev_attach().
 */

#include <linux/module.h>

MODULE_DESCRIPTION("Visible-light communication (VLC) network device core");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
