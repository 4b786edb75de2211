// SPDX-License-Identifier: GPL-2.0
/*
 * vlc_wire.ko: GPIO chips joined by simulated light, for testing only
 * (never shipped). The light is that of the shared light model
 * (vlc_light.h, "Light model"), the one vlc_sim.ko and the host
 * simulator use, in its units: every other chip's lit LED adds gain
 * (VLC_LIGHT_FULL, what a lit LED reads at full gain, by default), and
 * the room adds ambient DC and mains flicker, vlc_sim's parameters of
 * the same names and units. The model's noise is left out: the lines
 * are digital, and the test is of the stack's timing, not of luck.
 * Each chip is one board's pins:
 *
 *   line 0 "led"    an LED: lights the other chips while it is an output
 *                   driven high;
 *   line 1 "cmp"    a photodiode and comparator: reads high while the
 *                   light on the chip is at least half of what a lit LED
 *                   at full gain gives;
 *   line 2 "sense"  an LED used as a sensor: driven high it is charged;
 *                   as an input it reads high until the light it senses
 *                   has discharged it. As in the model's
 *                   vlc_light_led_sense(), it senses 1/VLC_LIGHT_LED_DIV
 *                   of the light, and none while line 0 lights it.
 *
 * Every chip faces every other. The lines never sleep (raw lock, no bus):
 * vlc_gpio runs its comparator receiver from the hrtimer executor in hard
 * IRQ, as on a board's MMIO GPIO block. Lines 1 and 2 have edge
 * interrupts from irq_sim, delivered from a hard irq_work even on
 * PREEMPT_RT; the discharge ends in a hard-IRQ hrtimer. The light is
 * brought up to date whenever an LED changes and, while there is
 * flicker, on a hard-IRQ hrtimer often enough to follow it, and when a
 * shadow (shadow_us, off by default) comes and goes.
 *
 * Chips come from the device tree (compatible "linux-vlc,test-wire"), or
 * the module creates devices=N chips itself, each with a vlc-gpio device
 * described by software nodes: even ones receive with the comparator,
 * odd ones with the LED sensor (tests/wire/run.sh).
 */

#include <dt-bindings/gpio/gpio.h>
#include <linux/gpio/driver.h>
#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "../../drivers/net/vlc/vlc_compat.h"
#include "../../drivers/net/vlc/vlc_light.h"

enum { WIRE_LED, WIRE_CMP, WIRE_SENSE, WIRE_LINES };

#define WIRE_CMP_THRESHOLD	(VLC_LIGHT_FULL / 2)
#define WIRE_LIGHT_MAX		1000000	/* a thousand lit LEDs, as vlc_sim */
#define WIRE_MAX_DEVICES	8
/* Flicker is sampled 20 times a period, windows over which
 * vlc_light_flicker_mean() is exact, but not more often than every
 * 10 us, which a TCG guest could not keep up with.
 */
#define WIRE_FLICKER_STEPS	20
#define WIRE_FLICKER_MIN_NS	10000

static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "chips, each with a vlc-gpio device on software nodes, to create at load (0..8; default 0: device tree only)");

static unsigned int lit_us = 100;
module_param(lit_us, uint, 0444);
MODULE_PARM_DESC(lit_us, "discharge time of the sensing LED lit by one LED at full gain, us (default 100)");

static unsigned int ambient = 2;
module_param(ambient, uint, 0444);
MODULE_PARM_DESC(ambient, "ambient light, DC part, in units of a lit LED at full gain / 1000, 0..1000000 (default 2)");

static unsigned int flicker;
module_param(flicker, uint, 0444);
MODULE_PARM_DESC(flicker, "amplitude of mains flicker on the ambient light, same units, at most ambient (default 0)");

static unsigned int flicker_hz = 100;
module_param(flicker_hz, uint, 0444);
MODULE_PARM_DESC(flicker_hz, "flicker frequency, 1..10000 Hz; mains: 100 or 120 (default 100)");

static unsigned int gain = VLC_LIGHT_FULL;
module_param(gain, uint, 0444);
MODULE_PARM_DESC(gain, "what a lit LED gives every other chip, same units, 0..1000 (default 1000: full gain)");

/* A shadow that passes now and then, as a hand or a door does: a test
 * turns it on for a phase to have symbols lost inside frames.
 */
static unsigned int shadow_us;
module_param(shadow_us, uint, 0644);
MODULE_PARM_DESC(shadow_us, "a passing shadow hides every LED's light for this long, us, every shadow_ms; 0: none (default 0); writable");

static unsigned int shadow_ms = 1000;
module_param(shadow_ms, uint, 0444);
MODULE_PARM_DESC(shadow_ms, "how often the shadow passes, ms, 1..100000 (default 1000)");

static unsigned int timing[5];
static unsigned int n_timing;
module_param_array(timing, uint, &n_timing, 0444);
MODULE_PARM_DESC(timing, "frame-us,sync-us,guard-us,data-us,tolerance-us of the created devices");

/**
 * struct wire_chip - one board's pins
 * @gc: the gpio_chip
 * @domain: irq_sim domain of the lines
 * @node: in wire_chips
 * @fall: ends the discharge of the sensing LED
 * @out: line is an output
 * @val: value driven on an output line
 * @charging: the sensing LED is an input and not yet discharged, so it
 *	reads high
 * @gone: off the medium (unbinding): arms no timer
 * @blind: its own LED has been lit since @t_last: the sensing LED
 *	senses nothing
 * @led: light of the other chips' LEDs on it since @t_last
 * @light: light on it at @t_last; the comparator reads it
 * @charge: charge left, in light x ns as a photodiode would sense it:
 *	the sensing LED senses 1/VLC_LIGHT_LED_DIV of that light and holds
 *	as much less charge, so the fraction stays exact in integers
 * @t_last: time the above were last brought up to date
 */
struct wire_chip {
	struct gpio_chip gc;
	struct irq_domain *domain;
	struct list_head node;
	struct hrtimer fall;
	bool out[WIRE_LINES];
	bool val[WIRE_LINES];
	bool charging;
	bool gone;
	bool blind;
	u32 led;
	u32 light;
	u64 charge;
	u64 t_last;
};

/* The medium: every chip, under one raw lock (taken from hard IRQ). */
static LIST_HEAD(wire_chips);
static DEFINE_RAW_SPINLOCK(wire_lock);
static struct hrtimer wire_tick;
static u64 wire_tick_ns;
static struct hrtimer wire_shadow;
static bool wire_shadowed;	/* under wire_lock */

static bool wire_lit(const struct wire_chip *c)
{
	return c->out[WIRE_LED] && c->val[WIRE_LED];
}

static bool wire_cmp(u32 light)
{
	return light >= WIRE_CMP_THRESHOLD;
}

/* Light of the other chips' lit LEDs on @c. */
static u32 wire_led_light(const struct wire_chip *c)
{
	const struct wire_chip *o;
	u32 l = 0;

	if (wire_shadowed)
		return 0;
	list_for_each_entry(o, &wire_chips, node)
		if (o != c && wire_lit(o))
			l += gain;
	return l;
}

/* The room's light at @t; flicker <= ambient, the clamp takes rounding. */
static u32 wire_ambient_at(u64 t)
{
	if (!flicker)
		return ambient;
	return max_t(s64, ambient +
		     vlc_light_flicker_at(flicker, flicker_hz, t), 0);
}

/* An edge on @line: pending in irq_sim if the consumer asked for it. */
static void wire_edge(struct wire_chip *c, unsigned int line, bool rising)
{
	unsigned int irq = irq_find_mapping(c->domain, line);
	u32 type;

	if (!irq)
		return;
	type = irq_get_trigger_type(irq);
	if ((rising && (type & IRQ_TYPE_EDGE_RISING)) ||
	    (!rising && (type & IRQ_TYPE_EDGE_FALLING)))
		irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, true);
}

/* What the sensing LED sensed since @t_last drains its charge: the mean
 * light over that window, as the model has it (the LEDs' light did not
 * change within it), nothing if its own LED was lit.
 */
static void wire_drain(struct wire_chip *c, u64 now)
{
	s64 light;
	u64 used;

	if (c->blind || now <= c->t_last)
		return;
	light = c->led + ambient +
		vlc_light_flicker_mean(flicker, flicker_hz, c->t_last, now);
	used = max_t(s64, light, 0) * (now - c->t_last);
	c->charge -= min(c->charge, used);
}

/* The charge is gone now, or the hrtimer ends it when it will be at the
 * light of now; a change of light before then re-arms it.
 */
static void wire_arm(struct wire_chip *c, u64 now)
{
	u32 rate = c->blind ? 0 : c->light;

	if (c->gone || (c->charge && !rate))
		return;
	if (c->charge) {
		hrtimer_start(&c->fall,
			      ns_to_ktime(now + div_u64(c->charge + rate - 1,
							rate)),
			      HRTIMER_MODE_ABS_HARD);
		return;
	}
	c->charging = false;
	wire_edge(c, WIRE_SENSE, false);
}

/* Bring @c's receivers up to @now and to the light there is now. */
static void wire_update(struct wire_chip *c, u64 now)
{
	u32 l;

	if (c->charging)
		wire_drain(c, now);
	c->t_last = now;
	c->blind = wire_lit(c);
	c->led = wire_led_light(c);
	l = c->led + wire_ambient_at(now);
	if (wire_cmp(l) != wire_cmp(c->light))
		wire_edge(c, WIRE_CMP, wire_cmp(l));
	c->light = l;
	if (c->charging)
		wire_arm(c, now);
}

/* An LED changed, or the flicker moved on: every chip sees it. */
static void wire_relight(u64 now)
{
	struct wire_chip *c;

	list_for_each_entry(c, &wire_chips, node)
		wire_update(c, now);
}

static enum hrtimer_restart wire_fall(struct hrtimer *t)
{
	struct wire_chip *c = container_of(t, struct wire_chip, fall);
	unsigned long flags;

	raw_spin_lock_irqsave(&wire_lock, flags);
	if (c->charging)
		wire_update(c, ktime_get_ns());
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart wire_flicker_tick(struct hrtimer *t)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wire_lock, flags);
	wire_relight(ktime_get_ns());
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	hrtimer_forward_now(t, ns_to_ktime(wire_tick_ns));
	return HRTIMER_RESTART;
}

/* The shadow comes for shadow_us (if not 0) every shadow_ms, and goes. */
static enum hrtimer_restart wire_shadow_tick(struct hrtimer *t)
{
	u64 us = READ_ONCE(shadow_us), period = (u64)shadow_ms * USEC_PER_MSEC;
	unsigned long flags;
	bool on;

	us = min(us, period / 2);
	raw_spin_lock_irqsave(&wire_lock, flags);
	on = !wire_shadowed && us;
	if (on != wire_shadowed) {
		wire_shadowed = on;
		wire_relight(ktime_get_ns());
	}
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	hrtimer_forward_now(t, ns_to_ktime((on ? us : period - us) *
					       NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Drive @line; wire_lock held. */
static void wire_drive(struct wire_chip *c, unsigned int line, bool v)
{
	c->out[line] = true;
	c->val[line] = v;
	if (line == WIRE_SENSE)
		c->charging = false;
	else if (line == WIRE_LED)
		wire_relight(ktime_get_ns());
}

static int wire_get_direction(struct gpio_chip *gc, unsigned int line)
{
	struct wire_chip *c = gpiochip_get_data(gc);

	return READ_ONCE(c->out[line]) ? GPIO_LINE_DIRECTION_OUT :
					 GPIO_LINE_DIRECTION_IN;
}

static int wire_direction_output(struct gpio_chip *gc, unsigned int line,
				 int v)
{
	struct wire_chip *c = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&wire_lock, flags);
	wire_drive(c, line, v);
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	return 0;
}

static int wire_direction_input(struct gpio_chip *gc, unsigned int line)
{
	struct wire_chip *c = gpiochip_get_data(gc);
	unsigned long flags;
	bool charge;
	u64 now;

	raw_spin_lock_irqsave(&wire_lock, flags);
	now = ktime_get_ns();
	charge = line == WIRE_SENSE && c->out[line] && c->val[line];
	c->out[line] = false;
	if (line == WIRE_LED) {
		wire_relight(now);
	} else if (charge) {
		/* A charged sensing LED starts to discharge: one LED at full
		 * gain, of which it senses 1/VLC_LIGHT_LED_DIV, empties it in
		 * lit_us.
		 */
		wire_update(c, now);
		c->charge = (u64)VLC_LIGHT_FULL * lit_us * NSEC_PER_USEC;
		c->charging = true;
		wire_arm(c, now);
	}
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	return 0;
}

static int wire_get(struct gpio_chip *gc, unsigned int line)
{
	struct wire_chip *c = gpiochip_get_data(gc);
	unsigned long flags;
	int v;

	raw_spin_lock_irqsave(&wire_lock, flags);
	if (c->out[line])
		v = c->val[line];
	else if (line == WIRE_CMP)
		v = wire_cmp(c->light);
	else if (line == WIRE_SENSE)
		v = c->charging;
	else
		v = 0;
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	return v;
}

static void wire_set(struct gpio_chip *gc, unsigned int line, int v)
{
	struct wire_chip *c = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&wire_lock, flags);
	if (c->out[line])
		wire_drive(c, line, v);
	raw_spin_unlock_irqrestore(&wire_lock, flags);
}

VLC_GPIO_CHIP_SET(wire_set_compat, wire_set)

static int wire_to_irq(struct gpio_chip *gc, unsigned int line)
{
	struct wire_chip *c = gpiochip_get_data(gc);

	if (line == WIRE_LED)
		return -ENXIO;
	return irq_create_mapping(c->domain, line);
}

/* devm action, first at unbind: off the medium, no timer left. */
static void wire_leave(void *data)
{
	struct wire_chip *c = data;
	unsigned long flags;

	raw_spin_lock_irqsave(&wire_lock, flags);
	list_del(&c->node);
	c->gone = true;
	c->charging = false;
	wire_relight(ktime_get_ns());
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	hrtimer_cancel(&c->fall);
}

/* devm action: the mappings to_irq() made go before the domain. */
static void wire_dispose(void *data)
{
	struct wire_chip *c = data;
	unsigned int line;

	for (line = 0; line < WIRE_LINES; line++)
		irq_dispose_mapping(irq_find_mapping(c->domain, line));
}

static int wire_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct wire_chip *c;
	unsigned long flags;
	int err;

	c = devm_kzalloc(dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	hrtimer_setup(&c->fall, wire_fall, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_HARD);
	c->domain = devm_irq_domain_create_sim(dev, dev_fwnode(dev),
					       WIRE_LINES);
	if (IS_ERR(c->domain))
		return PTR_ERR(c->domain);
	err = devm_add_action_or_reset(dev, wire_dispose, c);
	if (err)
		return err;

	c->gc.label = dev_name(dev);
	c->gc.parent = dev;
	c->gc.owner = THIS_MODULE;
	c->gc.base = -1;
	c->gc.ngpio = WIRE_LINES;
	c->gc.can_sleep = false;
	c->gc.get_direction = wire_get_direction;
	c->gc.direction_input = wire_direction_input;
	c->gc.direction_output = wire_direction_output;
	c->gc.get = wire_get;
	c->gc.set = wire_set_compat;
	c->gc.to_irq = wire_to_irq;
	err = devm_gpiochip_add_data(dev, &c->gc, c);
	if (err)
		return err;

	raw_spin_lock_irqsave(&wire_lock, flags);
	list_add_tail(&c->node, &wire_chips);
	wire_update(c, ktime_get_ns());
	raw_spin_unlock_irqrestore(&wire_lock, flags);
	return devm_add_action_or_reset(dev, wire_leave, c);
}

static const struct of_device_id wire_of_match[] = {
	{ .compatible = "linux-vlc,test-wire" },
	{ }
};
MODULE_DEVICE_TABLE(of, wire_of_match);

static struct platform_driver wire_driver = {
	.probe	= wire_probe,
	.driver	= {
		.name		= "vlc-wire",
		.of_match_table	= wire_of_match,
	},
};

/* ---- devices=N: chips and vlc-gpio devices on software nodes ---- */

struct wire_board {
	struct software_node chip_node;
	struct software_node vlc_node;
	struct software_node_ref_args refs[2];
	struct property_entry props[10];
	u8 mac[ETH_ALEN];
	char name[24];
	struct platform_device *chip;
	struct platform_device *vlc;
};

static struct wire_board *wire_boards;

static const char * const wire_timing_props[] = {
	"frame-us", "sync-us", "guard-us", "data-us", "tolerance-us"
};

/* locally administered; device i gets 02:56:4c:43:00:0a + i */
static const u8 wire_mac[ETH_ALEN] = { 0x02, 0x56, 0x4c, 0x43, 0x00, 0x0a };

static void wire_board_props(struct wire_board *b, unsigned int i)
{
	struct property_entry *p = b->props;
	unsigned int k;

	/* The references outlive this function: PROPERTY_ENTRY_GPIO()'s
	 * compound literal would not.
	 */
	b->refs[0] = SOFTWARE_NODE_REFERENCE(&b->chip_node, WIRE_LED,
					     GPIO_ACTIVE_HIGH);
	b->refs[1] = SOFTWARE_NODE_REFERENCE(&b->chip_node,
					     i % 2 ? WIRE_SENSE : WIRE_CMP,
					     GPIO_ACTIVE_HIGH);
	*p++ = PROPERTY_ENTRY_REF_ARRAY_LEN("tx-gpios", &b->refs[0], 1);
	*p++ = PROPERTY_ENTRY_REF_ARRAY_LEN(i % 2 ? "led-cathode-gpios" :
					    "rx-gpios", &b->refs[1], 1);
	for (k = 0; k < n_timing; k++)
		*p++ = PROPERTY_ENTRY_U32(wire_timing_props[k], timing[k]);
	memcpy(b->mac, wire_mac, ETH_ALEN);
	b->mac[ETH_ALEN - 1] += i;
	*p++ = PROPERTY_ENTRY_U8_ARRAY("local-mac-address", b->mac);
}

static void wire_boards_remove(unsigned int n)
{
	while (n--) {
		struct wire_board *b = &wire_boards[n];

		platform_device_unregister(b->vlc);
		platform_device_unregister(b->chip);
		software_node_unregister(&b->vlc_node);
		software_node_unregister(&b->chip_node);
	}
	kfree(wire_boards);
}

static int wire_board_add(struct wire_board *b, unsigned int i)
{
	struct platform_device_info info = { .id = i };
	int err;

	snprintf(b->name, sizeof(b->name), "vlc-wire-%u", i);
	b->chip_node.name = b->name;
	err = software_node_register(&b->chip_node);
	if (err)
		return err;
	wire_board_props(b, i);
	b->vlc_node.properties = b->props;
	err = software_node_register(&b->vlc_node);
	if (err)
		goto err_chip_node;

	info.name = "vlc-wire";
	info.fwnode = software_node_fwnode(&b->chip_node);
	b->chip = platform_device_register_full(&info);
	err = PTR_ERR_OR_ZERO(b->chip);
	if (err)
		goto err_vlc_node;
	info.name = "vlc-gpio";
	info.fwnode = software_node_fwnode(&b->vlc_node);
	b->vlc = platform_device_register_full(&info);
	err = PTR_ERR_OR_ZERO(b->vlc);
	if (err)
		goto err_chip;
	return 0;

err_chip:
	platform_device_unregister(b->chip);
err_vlc_node:
	software_node_unregister(&b->vlc_node);
err_chip_node:
	software_node_unregister(&b->chip_node);
	return err;
}

static int __init wire_init(void)
{
	unsigned int i;
	int err;

	if (devices > WIRE_MAX_DEVICES) {
		pr_err("vlc_wire: devices: %u is above %u\n", devices,
		       WIRE_MAX_DEVICES);
		return -EINVAL;
	}
	if (n_timing && n_timing != ARRAY_SIZE(timing)) {
		pr_err("vlc_wire: timing: give all five of frame-us,sync-us,guard-us,data-us,tolerance-us\n");
		return -EINVAL;
	}
	if (!lit_us) {
		pr_err("vlc_wire: lit_us: must be at least 1\n");
		return -EINVAL;
	}
	if (ambient > WIRE_LIGHT_MAX) {
		pr_err("vlc_wire: ambient: %u is above %u\n", ambient,
		       WIRE_LIGHT_MAX);
		return -EINVAL;
	}
	if (flicker > ambient) {
		pr_err("vlc_wire: flicker: %u is above ambient (%u): light would go below zero\n",
		       flicker, ambient);
		return -EINVAL;
	}
	if (!flicker_hz || flicker_hz > 10000) {
		pr_err("vlc_wire: flicker_hz: %u is not within 1..10000\n",
		       flicker_hz);
		return -EINVAL;
	}
	if (gain > VLC_LIGHT_FULL) {
		pr_err("vlc_wire: gain: %u is above full gain (%u)\n", gain,
		       VLC_LIGHT_FULL);
		return -EINVAL;
	}
	wire_tick_ns = max_t(u64, WIRE_FLICKER_MIN_NS,
			     NSEC_PER_SEC / (flicker_hz * WIRE_FLICKER_STEPS));
	if (!shadow_ms || shadow_ms > 100000) {
		pr_err("vlc_wire: shadow_ms: %u is not within 1..100000\n",
		       shadow_ms);
		return -EINVAL;
	}
	hrtimer_setup(&wire_tick, wire_flicker_tick, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	hrtimer_setup(&wire_shadow, wire_shadow_tick, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	err = platform_driver_register(&wire_driver);
	if (err)
		return err;
	wire_boards = kcalloc(devices, sizeof(*wire_boards), GFP_KERNEL);
	if (!wire_boards && devices) {
		err = -ENOMEM;
		goto err_driver;
	}
	for (i = 0; i < devices; i++) {
		err = wire_board_add(&wire_boards[i], i);
		if (err)
			goto err_boards;
	}
	if (flicker)
		hrtimer_start(&wire_tick, ns_to_ktime(wire_tick_ns),
			      HRTIMER_MODE_REL_HARD);
	hrtimer_start(&wire_shadow, ms_to_ktime(shadow_ms),
		      HRTIMER_MODE_REL_HARD);
	return 0;

err_boards:
	wire_boards_remove(i);
err_driver:
	platform_driver_unregister(&wire_driver);
	return err;
}
module_init(wire_init);

static void __exit wire_exit(void)
{
	hrtimer_cancel(&wire_shadow);
	hrtimer_cancel(&wire_tick);
	wire_boards_remove(devices);
	platform_driver_unregister(&wire_driver);
}
module_exit(wire_exit);

MODULE_DESCRIPTION("GPIO chips joined by simulated light (linux-vlc tests only)");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
