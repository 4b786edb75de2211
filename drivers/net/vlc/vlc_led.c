// SPDX-License-Identifier: GPL-2.0
/* The illumination of every VLC net_device as an LED class device,
 * /sys/class/leds/<ifname>::illumination. Its brightness is the PHY's
 * brightness setting in per-mille, the one "vlcctl set brightness" and
 * the device tree's "brightness" change: it goes through the same checked
 * path (vlc_dev_set_phy_config()), and reading it returns the setting
 * whichever interface made it. max_brightness is the most the slot
 * timing and mode allow (vlc_phy_brightness_range()); the LED core clamps
 * a larger write to it, and it follows timing and mode changes. A write
 * below the minimum, 0 (LED_OFF) included, sets the minimum: a node in
 * the link emits at least its data slots, and LED_OFF must not fail (a
 * trigger's removal writes it). netlink refuses such a setting instead;
 * the light goes off with the interface (ip link set vlc0 down).
 *
 * Name: "devicename:color:function" (Documentation/leds/leds-class.rst).
 * The devicename is the interface name, the kernel's name of a network
 * device (phyN is a wiphy's); the colour is left out, the driver cannot
 * know it;
 * no LED_FUNCTION_* fits a light that is both a room's lamp and a
 * transmitter (torch is a flash LED's mode, backlight a display's), so
 * the function is "illumination". A renamed interface gets its LED
 * registered again under the new name; one moved to another netns keeps
 * it (LEDs have no netns), and two of the same name in two namespaces get
 * the LED core's "_1" suffix on the second.
 *
 * Lifetime: a netdevice notifier registers the LED when a VLC device is
 * registered and removes it when the device is unregistered. Both happen
 * in work items of an ordered workqueue, outside RTNL, for the LED core
 * must not be called with RTNL held: unregistering an LED deactivates its
 * trigger, and the netdev trigger then takes RTNL; registering takes
 * leds_list_lock, under which loading a trigger module may activate the
 * netdev trigger. So the LED appears and goes a moment after the
 * interface (its uevent tells when). The LED holds no reference on the
 * net_device: netns deletion and rtnl_link_unregister() wait for the
 * device to be freed under pernet_ops_rwsem, which the netdev trigger's
 * deactivation takes too. Instead the LED forgets the device, under RTNL
 * and its own lock, when the device is unregistered; it may outlive the
 * device for a moment, doing nothing, so it has no parent device.
 *
 * Context: brightness_set_blocking runs in process context (the LED
 * core's work item) and takes RTNL, which serialises it with the netlink
 * SET, then the executor's lock (a mutex for the thread and simulator
 * executors): it may sleep, hence the blocking variant.
 */

#include <linux/leds.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "vlc_netdev.h"

#define VLC_LED_FUNCTION	"illumination"

/**
 * struct vlc_led - the LED class device of one VLC net_device
 * @cdev: the LED
 * @lock: held to use @vd without RTNL
 * @vd: the device; NULL once it is unregistered. Written under RTNL and
 *	@lock, read under either.
 * @add: registers @cdev
 * @del: unregisters @cdev and frees this
 * @registered: @cdev was registered (by @add)
 * @ifname: the interface name @name was made from
 * @name: @cdev's name
 */
struct vlc_led {
	struct led_classdev cdev;
	struct mutex lock;	/* protects @vd against unregistration */
	struct vlc_dev *vd;
	struct work_struct add;
	struct work_struct del;
	bool registered;
	char ifname[IFNAMSIZ];
	char name[IFNAMSIZ + sizeof("::" VLC_LED_FUNCTION)];
};

/* Ordered: a device's LED is removed before one of the same name is added. */
static struct workqueue_struct *vlc_led_wq;

static u32 vlc_led_max(struct vlc_dev *vd)
{
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 b, min, max;

	vlc_dev_get_phy_config(vd, &t, &mode, &b);
	if (vlc_phy_brightness_range(&t, mode, &min, &max))
		return 0;	/* not reached: the PHY holds checked timing */
	return max;
}

/**
 * vlc_led_update_max - the timing or mode changed: new max_brightness
 * @vd: VLC device
 *
 * Context: RTNL held if the device is registered, as by every writer of
 * the PHY's settings then. The LED core reads max_brightness unlocked.
 */
void vlc_led_update_max(struct vlc_dev *vd)
{
	if (!vd->led)
		return;	/* not registered: probe, KUnit */
	ASSERT_RTNL();
	WRITE_ONCE(vd->led->cdev.max_brightness, vlc_led_max(vd));
}

static enum led_brightness vlc_led_get(struct led_classdev *cdev)
{
	struct vlc_led *led = container_of(cdev, struct vlc_led, cdev);
	u32 b = cdev->brightness;	/* the last one, once the device went */

	mutex_lock(&led->lock);
	if (led->vd)
		b = vlc_dev_brightness(led->vd);
	mutex_unlock(&led->lock);
	return b;
}

static int vlc_led_set(struct led_classdev *cdev, enum led_brightness value)
{
	struct vlc_led *led = container_of(cdev, struct vlc_led, cdev);
	struct vlc_dev *vd;
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	enum vlc_refusal why = VLC_REFUSE_NONE;
	u32 old, min, max;
	int err;

	rtnl_lock();
	vd = led->vd;
	if (!vd) {
		/* Being unregistered: the device goes, or gets another LED
		 * (rename, netns move) and keeps its light. Not an error:
		 * removing a trigger sets LED_OFF before the LED core knows.
		 */
		err = 0;
		goto out;
	}
	vlc_dev_get_phy_config(vd, &t, &mode, &old);
	if (!vlc_phy_brightness_range(&t, mode, &min, &max) && value < min)
		value = min;
	err = vlc_dev_set_phy_config(vd, &t, mode, value, &why);
	if (err)
		netdev_warn(vd->ndev, "LED brightness %u refused: %s\n",
			    value, vlc_refusal_msg(why) ?: "?");
out:
	rtnl_unlock();
	return err;
}

static void vlc_led_add(struct work_struct *work)
{
	struct vlc_led *led = container_of(work, struct vlc_led, add);
	int err;

	rtnl_lock();
	if (!led->vd) {
		/* already unregistered: led->del follows */
		rtnl_unlock();
		return;
	}
	led->cdev.max_brightness = vlc_led_max(led->vd);
	rtnl_unlock();

	err = led_classdev_register(NULL, &led->cdev);
	if (err)
		pr_warn("vlc: LED %s not registered: %d\n", led->name, err);
	else
		led->registered = true;
}

static void vlc_led_del(struct work_struct *work)
{
	struct vlc_led *led = container_of(work, struct vlc_led, del);

	if (led->registered)
		led_classdev_unregister(&led->cdev);
	mutex_destroy(&led->lock);
	kfree(led);
}

/* Context: RTNL held. */
static void vlc_led_attach(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	struct vlc_led *led;

	led = kzalloc(sizeof(*led), GFP_KERNEL);
	if (!led)
		return;	/* the device works without it */
	mutex_init(&led->lock);
	led->vd = vd;
	strscpy(led->ifname, netdev_name(ndev), sizeof(led->ifname));
	snprintf(led->name, sizeof(led->name), "%s::%s", led->ifname,
		 VLC_LED_FUNCTION);
	led->cdev.name = led->name;
	led->cdev.brightness_get = vlc_led_get;
	led->cdev.brightness_set_blocking = vlc_led_set;
	/* Leave the light as it is when the LED goes: the device may stay
	 * (rename, netns move).
	 */
	led->cdev.flags = LED_RETAIN_AT_SHUTDOWN;
	INIT_WORK(&led->add, vlc_led_add);
	INIT_WORK(&led->del, vlc_led_del);
	vd->led = led;
	queue_work(vlc_led_wq, &led->add);
}

/* Context: RTNL held. */
static void vlc_led_detach(struct net_device *ndev)
{
	struct vlc_dev *vd = netdev_priv(ndev);
	struct vlc_led *led = vd->led;

	/* NETDEV_UNREGISTER is sent again while the device's refs drain. */
	if (!led)
		return;
	vd->led = NULL;
	/* No callback uses the device after this: it may be freed. */
	mutex_lock(&led->lock);
	led->vd = NULL;
	mutex_unlock(&led->lock);
	queue_work(vlc_led_wq, &led->del);
}

static int vlc_led_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct vlc_led *led;

	if (!vlc_netdev_is_vlc(ndev))
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_REGISTER:
		/* After a netns move it is there already, but the move may
		 * have renamed the device, without NETDEV_CHANGENAME.
		 */
		led = ((struct vlc_dev *)netdev_priv(ndev))->led;
		if (led && !strcmp(led->ifname, netdev_name(ndev)))
			break;
		vlc_led_detach(ndev);
		vlc_led_attach(ndev);
		break;
	case NETDEV_UNREGISTER:
		/* A netns move keeps NETREG_REGISTERED: LEDs have no netns,
		 * so the LED stays as it is.
		 */
		if (ndev->reg_state != NETREG_REGISTERED)
			vlc_led_detach(ndev);
		break;
	case NETDEV_CHANGENAME:
		vlc_led_detach(ndev);
		vlc_led_attach(ndev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block vlc_led_notifier = {
	.notifier_call = vlc_led_netdev_event,
};

int __init vlc_led_init(void)
{
	int err;

	vlc_led_wq = alloc_ordered_workqueue("vlc_led", 0);
	if (!vlc_led_wq)
		return -ENOMEM;
	err = register_netdevice_notifier(&vlc_led_notifier);
	if (err)
		destroy_workqueue(vlc_led_wq);
	return err;
}

void vlc_led_exit(void)
{
	/* The backends are gone, so are their devices; drain the LEDs. */
	unregister_netdevice_notifier(&vlc_led_notifier);
	destroy_workqueue(vlc_led_wq);
}
