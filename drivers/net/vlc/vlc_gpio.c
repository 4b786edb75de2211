// SPDX-License-Identifier: GPL-2.0
/* vlc_gpio.ko: VLC net_devices on GPIO pins and IIO ADC channels, described
 * by firmware (compatible "linux-vlc,vlc-gpio", see
 * Documentation/devicetree/bindings/net/linux-vlc,vlc-gpio.yaml).
 *
 * TX is an LED on "tx-gpios". RX is one of, chosen by "rx-mode" or else by
 * which properties are present:
 *
 *  led:        an LED used as a light sensor (reverse-bias charge, then
 *              time the discharge), on "led-cathode-gpios" and optionally
 *              "led-anode-gpios"; without the latter the TX LED senses
 *              too (shared_led). "sense-gpios" is the one-pin form: the
 *              sensing LED's anode is tied to ground.
 *  comparator: a photodiode and comparator on "rx-gpios".
 *  adc:        a photodiode on an IIO ADC channel ("io-channels",
 *              io-channel-names = "rx").
 *
 * Pins that may sleep (I2C/SPI expanders, every IIO read) force the
 * thread executor; otherwise the pins run from an hrtimer in hard-IRQ
 * context. Everything is devm-managed: remove() only unregisters the
 * net_device, whose ndo_stop switches the LED off.
 */

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/gpio/consumer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/iio/consumer.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "vlc_compat.h"
#include "vlc_netdev.h"

/* Light scale of the LED sensor: level = VLC_GPIO_LED_K / t_discharge_ns,
 * so 1000000 means "discharged in 100 us". The photocurrent that
 * discharges the junction capacitance C from Vdd to the input threshold
 * is I = C * (Vdd - Vth) / t, so k / t is linear in light, which is what
 * the PHY's ambient fit and D1/D2 comparison assume.
 */
#define VLC_GPIO_LED_K		100000000000ULL
/* Faster than this is "as bright as we can tell": caps the level at
 * 4e9 < U32_MAX, and is about the interrupt latency anyway.
 */
#define VLC_GPIO_LED_MIN_NS	25
/* Reverse-bias charge: tens of pF through a pin driver take nanoseconds;
 * one microsecond is a generous margin and costs little per window.
 */
#define VLC_GPIO_CHARGE_NS	1000

/* Comparator: level = parts per million of the window read as light. */
#define VLC_GPIO_CMP_FULL	1000000U

/* Default smallest lit-slot level above ambient for the ADC, in its units
 * (millivolts when the channel has a scale).
 */
#define VLC_GPIO_ADC_MIN_LEVEL	10

enum vlc_gpio_rx_mode {
	VLC_GPIO_RX_LED,
	VLC_GPIO_RX_COMPARATOR,
	VLC_GPIO_RX_ADC,
};

static const char * const vlc_gpio_rx_modes[] = {
	[VLC_GPIO_RX_LED]	 = "led",
	[VLC_GPIO_RX_COMPARATOR] = "comparator",
	[VLC_GPIO_RX_ADC]	 = "adc",
};

/**
 * struct vlc_gpio - pin context of one device (devm-allocated)
 * @dev: the platform device
 * @ndev: the net_device, valid from probe to remove
 * @mode: receiver type
 * @tx: TX LED; the anode of the sensing LED when @shared
 * @cathode: sensing LED cathode (led mode)
 * @anode: sensing LED anode when it is not the TX LED (led mode), or NULL
 * @rx: comparator output (comparator mode)
 * @chan: ADC channel (adc mode)
 * @irq: edge interrupt of @cathode or @rx, or 0 when polling
 * @shared: the TX LED is the sensing LED
 * @can_sleep: some pin may sleep, or an LED receiver turns pins around:
 *	thread executor
 * @lock: guards the comparator integration against its IRQ handler
 * @t0: start of the measurement window, ns (CLOCK_MONOTONIC)
 * @t_fall: led mode: time the cathode was seen low, 0 if not yet
 * @last_t: comparator: time of the last edge (or of @t0)
 * @lit_ns: comparator: time read as light in the window so far
 * @level: comparator: current level of the output (light = 1)
 * @open: comparator: a window is open
 * @adc0: adc mode: the sample taken at rx_begin
 * @rx_errors: failed ADC reads
 */
struct vlc_gpio {
	struct device *dev;
	struct net_device *ndev;
	enum vlc_gpio_rx_mode mode;
	struct gpio_desc *tx;
	struct gpio_desc *cathode;
	struct gpio_desc *anode;
	struct gpio_desc *rx;
	struct iio_channel *chan;
	int irq;
	bool shared;
	bool can_sleep;

	raw_spinlock_t lock;
	u64 t0;
	atomic64_t t_fall;
	u64 last_t;
	u64 lit_ns;
	bool level;
	bool open;
	int adc0;
	atomic_t rx_errors;
};

/* Value writes and reads: pins that sleep only ever run in the thread. */
static void vlc_gpio_set(struct vlc_gpio *g, struct gpio_desc *d, int v)
{
	if (g->can_sleep)
		gpiod_set_value_cansleep(d, v);
	else
		gpiod_set_value(d, v);
}

static int vlc_gpio_get(struct vlc_gpio *g, struct gpio_desc *d)
{
	return g->can_sleep ? gpiod_get_value_cansleep(d) : gpiod_get_value(d);
}

/* ---- TX ---- */

static void vlc_gpio_emit(void *ctx, bool on, u64 t_ns)
{
	struct vlc_gpio *g = ctx;

	/* The shared LED's cathode floats after a measurement: ground it
	 * before the anode goes high, or the LED cannot light.
	 */
	if (on && g->shared)
		gpiod_direction_output(g->cathode, 0);
	vlc_gpio_set(g, g->tx, on);
}

/* ---- RX a) LED as a sensor ----
 *
 * rx_begin: anode low, cathode high (reverse bias charges the junction
 * capacitance), then the cathode becomes an input and photocurrent
 * discharges it; rx_end: the time it took to read low gives the light,
 * level = k / t (see VLC_GPIO_LED_K). The falling edge is timestamped by
 * the line's interrupt when there is one. The interrupt stays disabled
 * while the cathode is an output: gpiolib refuses to drive a line whose
 * interrupt is enabled (hence IRQ_DISABLE_UNLAZY at probe).
 *
 * Without an interrupt the line is polled once, at rx_end: all we learn is
 * whether it discharged within the window, so the level is k / window or
 * 0. That is a 1-bit sensor with its threshold at "discharges within one
 * slot", which still decides D1 against D2 when the neighbour's LED is
 * much brighter than the room.
 */
static irqreturn_t vlc_gpio_led_irq(int irq, void *data)
{
	struct vlc_gpio *g = data;
	u64 now = ktime_get_ns();

	/* A stale edge latched while the line was an output reads high. */
	if (!gpiod_get_value(g->cathode))
		atomic64_cmpxchg(&g->t_fall, 0, now);
	return IRQ_HANDLED;
}

static void vlc_gpio_led_rx_begin(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;

	/* The anode is low: parked so, or the PHY switched the shared LED
	 * off before this window.
	 */
	gpiod_direction_output(g->cathode, 1);
	ndelay(VLC_GPIO_CHARGE_NS);
	atomic64_set(&g->t_fall, 0);
	gpiod_direction_input(g->cathode);
	g->t0 = ktime_get_ns();
	if (g->irq)
		enable_irq(g->irq);
}

static u32 vlc_gpio_led_rx_end(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;
	u64 now = ktime_get_ns();
	u64 t_fall, dt;

	if (g->irq)
		disable_irq_nosync(g->irq);
	t_fall = atomic64_read(&g->t_fall);
	if (t_fall) {
		dt = t_fall - g->t0;
	} else if (!vlc_gpio_get(g, g->cathode)) {
		/* Low but no edge seen: with an interrupt, it fell before
		 * the interrupt was armed (very bright); polling, only "some
		 * time within the window" is known.
		 */
		dt = g->irq ? VLC_GPIO_LED_MIN_NS : now - g->t0;
	} else {
		return 0;	/* darker than one window can measure */
	}
	return div64_u64(VLC_GPIO_LED_K, max_t(u64, dt, VLC_GPIO_LED_MIN_NS));
}

/* ---- RX b) photodiode + comparator ----
 *
 * The mean light of the window is the fraction of it the comparator read
 * "light". With an edge interrupt, the time between edges is integrated
 * exactly (to the interrupt latency): each edge closes a run of the
 * previous level. Without one, the line is sampled at both ends of the
 * window and the two samples averaged (0, 1/2 or 1).
 */
static irqreturn_t vlc_gpio_cmp_irq(int irq, void *data)
{
	struct vlc_gpio *g = data;
	u64 now = ktime_get_ns();
	unsigned long flags;

	raw_spin_lock_irqsave(&g->lock, flags);
	if (g->open) {
		if (g->level)
			g->lit_ns += now - g->last_t;
		g->last_t = now;
	}
	g->level = gpiod_get_value(g->rx) > 0;
	raw_spin_unlock_irqrestore(&g->lock, flags);
	return IRQ_HANDLED;
}

static void vlc_gpio_cmp_rx_begin(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;
	bool level = vlc_gpio_get(g, g->rx) > 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&g->lock, flags);
	g->t0 = ktime_get_ns();
	g->last_t = g->t0;
	g->lit_ns = 0;
	g->level = level;
	g->open = true;
	raw_spin_unlock_irqrestore(&g->lock, flags);
}

static u32 vlc_gpio_cmp_rx_end(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;
	unsigned long flags;
	u64 now, lit, win;

	if (!g->irq) {
		u32 l = (g->level ? 1 : 0) + (vlc_gpio_get(g, g->rx) > 0);

		return l * (VLC_GPIO_CMP_FULL / 2);
	}
	raw_spin_lock_irqsave(&g->lock, flags);
	now = ktime_get_ns();
	if (g->level)
		g->lit_ns += now - g->last_t;
	lit = g->lit_ns;
	win = now - g->t0;
	g->open = false;
	raw_spin_unlock_irqrestore(&g->lock, flags);

	if (!win)
		return g->level ? VLC_GPIO_CMP_FULL : 0;
	return div64_u64(min(lit, win) * VLC_GPIO_CMP_FULL, win);
}

/* ---- RX c) photodiode on an IIO ADC channel ----
 *
 * One read costs a conversion plus a sleep on its completion, so the
 * window mean is estimated from a sample at each end of the window (the
 * trapezoid rule). Negative processed values are clamped to dark. A failed
 * read counts as dark and is counted; the PHY sees an erasure at worst.
 */
#if IS_ENABLED(CONFIG_IIO)
static int vlc_gpio_adc_read(struct vlc_gpio *g)
{
	int val, err;

	might_sleep();
	err = iio_read_channel_processed(g->chan, &val);
	if (err < 0) {
		atomic_inc(&g->rx_errors);
		return 0;
	}
	return max(val, 0);
}

static void vlc_gpio_adc_rx_begin(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;

	g->adc0 = vlc_gpio_adc_read(g);
}

static u32 vlc_gpio_adc_rx_end(void *ctx, u64 t_ns)
{
	struct vlc_gpio *g = ctx;

	return ((u32)g->adc0 + (u32)vlc_gpio_adc_read(g)) / 2;
}

static int vlc_gpio_adc_probe(struct vlc_gpio *g)
{
	g->chan = devm_iio_channel_get(g->dev, "rx");
	if (IS_ERR(g->chan))
		return dev_err_probe(g->dev, PTR_ERR(g->chan),
				     "io-channels: no channel named \"rx\"\n");
	g->can_sleep = true;	/* iio_read_channel_*() may sleep */
	return 0;
}
#else
static void vlc_gpio_adc_rx_begin(void *ctx, u64 t_ns)
{
}

static u32 vlc_gpio_adc_rx_end(void *ctx, u64 t_ns)
{
	return 0;
}

static int vlc_gpio_adc_probe(struct vlc_gpio *g)
{
	return dev_err_probe(g->dev, -ENODEV,
			     "io-channels: kernel built without IIO\n");
}
#endif

/* One ops table per receiver and executor kind: can_sleep and shared_led
 * are constants of the table, the backend picks the table.
 */
#define VLC_GPIO_OPS(name, rx, sleep, shared)			\
	static const struct vlc_pin_ops name = {			\
		.emit = vlc_gpio_emit,					\
		.rx_begin = vlc_gpio_##rx##_rx_begin,			\
		.rx_end = vlc_gpio_##rx##_rx_end,			\
		.can_sleep = sleep,					\
		.shared_led = shared,					\
	}

VLC_GPIO_OPS(vlc_gpio_led_ops, led, true, false);
VLC_GPIO_OPS(vlc_gpio_led_shared_ops, led, true, true);
VLC_GPIO_OPS(vlc_gpio_cmp_ops, cmp, false, false);
VLC_GPIO_OPS(vlc_gpio_cmp_sleep_ops, cmp, true, false);
VLC_GPIO_OPS(vlc_gpio_adc_ops, adc, true, false);

static const struct vlc_pin_ops *vlc_gpio_pin_ops(const struct vlc_gpio *g)
{
	switch (g->mode) {
	case VLC_GPIO_RX_LED:
		return g->shared ? &vlc_gpio_led_shared_ops : &vlc_gpio_led_ops;
	case VLC_GPIO_RX_COMPARATOR:
		return g->can_sleep ? &vlc_gpio_cmp_sleep_ops :
				      &vlc_gpio_cmp_ops;
	default:
		return &vlc_gpio_adc_ops;
	}
}

/* ---- probe ---- */

/* An optional u32 property: absent keeps *val. */
static int vlc_gpio_read_u32(struct device *dev, const char *prop, u32 *val)
{
	int err;

	if (!device_property_present(dev, prop))
		return 0;
	err = device_property_read_u32(dev, prop, val);
	if (err)
		return dev_err_probe(dev, err, "%s: not a u32\n", prop);
	return 0;
}

/* Timing properties are in microseconds, as the overlay parameters are. */
static int vlc_gpio_read_us(struct device *dev, const char *prop, u32 *ns)
{
	u32 us = *ns / NSEC_PER_USEC;
	int err;

	err = vlc_gpio_read_u32(dev, prop, &us);
	if (err)
		return err;
	if (us > U32_MAX / NSEC_PER_USEC) {
		dev_err(dev, "%s: %u us is too long\n", prop, us);
		return -EINVAL;
	}
	*ns = us * NSEC_PER_USEC;
	return 0;
}

static int vlc_gpio_config(struct vlc_gpio *g, struct vlc_dev *vd)
{
	struct device *dev = g->dev;
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	enum vlc_refusal why;
	const char *s;
	u32 bright;
	int err;

	vlc_dev_get_phy_config(vd, &t, &mode, &bright);
	err = vlc_gpio_read_us(dev, "frame-us", &t.frame_ns) ?:
	      vlc_gpio_read_us(dev, "sync-us", &t.sync_ns) ?:
	      vlc_gpio_read_us(dev, "guard-us", &t.guard_ns) ?:
	      vlc_gpio_read_us(dev, "data-us", &t.data_ns) ?:
	      vlc_gpio_read_us(dev, "tolerance-us", &t.tolerance_ns) ?:
	      vlc_gpio_read_u32(dev, "brightness", &bright);
	if (err)
		return err;

	if (!device_property_read_string(dev, "modulation", &s)) {
		if (!strcmp(s, "2slot")) {
			mode = VLC_PHY_MODE_2SLOT;
		} else if (!strcmp(s, "4ppm")) {
			mode = VLC_PHY_MODE_4PPM;
		} else {
			dev_err(dev, "modulation: \"%s\" is neither \"2slot\" nor \"4ppm\"\n",
				s);
			return -EINVAL;
		}
	}
	if (bright > VLC_PHY_BRIGHTNESS_MAX) {
		dev_err(dev, "brightness: %u is above %u per mille\n", bright,
			VLC_PHY_BRIGHTNESS_MAX);
		return -EINVAL;
	}

	err = vlc_dev_set_phy_config(vd, &t, mode, bright, &why);
	if (err) {
		dev_err(dev, "%s: %s (frame %u us, sync %u, guard %u, data %u, tolerance %u, %s, brightness %u)\n",
			vlc_refusal_field(why) == VLC_FIELD_BRIGHTNESS ?
			"brightness" :
			"frame-us/sync-us/guard-us/data-us/tolerance-us",
			vlc_refusal_msg(why),
			t.frame_ns / 1000, t.sync_ns / 1000, t.guard_ns / 1000,
			t.data_ns / 1000, t.tolerance_ns / 1000,
			mode == VLC_PHY_MODE_4PPM ? "4ppm" : "2slot", bright);
		return err;
	}
	return 0;
}

/* Which receiver: "rx-mode" names it, or exactly one property set is
 * present. Both ways, a missing or contradictory set is an error naming
 * the property.
 */
static int vlc_gpio_rx_mode(struct vlc_gpio *g)
{
	struct device *dev = g->dev;
	bool led = device_property_present(dev, "led-cathode-gpios") ||
		   device_property_present(dev, "sense-gpios");
	bool cmp = device_property_present(dev, "rx-gpios");
	bool adc = device_property_present(dev, "io-channels");
	const char *s;
	int m;

	if (!device_property_read_string(dev, "rx-mode", &s)) {
		m = match_string(vlc_gpio_rx_modes,
				 ARRAY_SIZE(vlc_gpio_rx_modes), s);
		if (m < 0)
			return dev_err_probe(dev, -EINVAL,
					     "rx-mode: not one of led, comparator, adc\n");
		g->mode = m;
		if (m == VLC_GPIO_RX_LED && !led)
			return dev_err_probe(dev, -EINVAL,
					     "rx-mode \"led\" needs led-cathode-gpios or sense-gpios\n");
		if (m == VLC_GPIO_RX_COMPARATOR && !cmp)
			return dev_err_probe(dev, -EINVAL,
					     "rx-mode \"comparator\" needs rx-gpios\n");
		if (m == VLC_GPIO_RX_ADC && !adc)
			return dev_err_probe(dev, -EINVAL,
					     "rx-mode \"adc\" needs io-channels\n");
		return 0;
	}
	if (led + cmp + adc > 1)
		return dev_err_probe(dev, -EINVAL,
				     "%s and %s both present: set rx-mode\n",
				     led ? "led-cathode-gpios" : "rx-gpios",
				     adc ? "io-channels" : "rx-gpios");
	if (!(led + cmp + adc))
		return dev_err_probe(dev, -EINVAL,
				     "no receiver: need led-cathode-gpios, sense-gpios, rx-gpios or io-channels\n");
	g->mode = led ? VLC_GPIO_RX_LED :
		  cmp ? VLC_GPIO_RX_COMPARATOR : VLC_GPIO_RX_ADC;
	return 0;
}

/* An edge interrupt for timestamps, if the line has one and never sleeps.
 * No interrupt is not an error: the receiver then polls.
 */
static int vlc_gpio_request_irq(struct vlc_gpio *g, struct gpio_desc *d,
				const char *prop, irq_handler_t fn,
				unsigned long trig, bool autoen)
{
	int irq, err;

	if (gpiod_cansleep(d))
		return 0;
	irq = gpiod_to_irq(d);
	if (irq <= 0) {
		dev_dbg(g->dev, "%s: no interrupt (%d), polling\n", prop, irq);
		return 0;
	}
	/* Disabling must reach the chip at once, so that gpiolib lets the
	 * line become an output again (led mode).
	 */
	if (!autoen)
		irq_set_status_flags(irq, IRQ_DISABLE_UNLAZY);
	/* The handlers only take a timestamp under a raw lock: forced into
	 * a thread (PREEMPT_RT, threadirqs) it would carry the thread's
	 * wake-up latency.
	 */
	err = devm_request_irq(g->dev, irq, fn,
			       trig | IRQF_NO_THREAD |
			       (autoen ? 0 : IRQF_NO_AUTOEN),
			       dev_name(g->dev), g);
	if (err) {
		if (!autoen)
			irq_clear_status_flags(irq, IRQ_DISABLE_UNLAZY);
		return dev_err_probe(g->dev, err, "%s: interrupt %d\n", prop,
				     irq);
	}
	if (!autoen) {
		/* Requesting it marked the line "IRQ enabled" in gpiolib;
		 * one enable/disable cycle records that it is off.
		 */
		enable_irq(irq);
		disable_irq(irq);
	}
	g->irq = irq;
	return 0;
}

static int vlc_gpio_led_probe(struct vlc_gpio *g)
{
	struct device *dev = g->dev;
	const char *prop = "led-cathode-gpios";
	int err;

	g->cathode = devm_gpiod_get_optional(dev, "led-cathode", GPIOD_OUT_LOW);
	if (IS_ERR(g->cathode))
		return dev_err_probe(dev, PTR_ERR(g->cathode), "%s\n", prop);
	if (g->cathode) {
		if (device_property_present(dev, "sense-gpios"))
			return dev_err_probe(dev, -EINVAL,
					     "sense-gpios and led-cathode-gpios both present\n");
		g->anode = devm_gpiod_get_optional(dev, "led-anode",
						   GPIOD_OUT_LOW);
		if (IS_ERR(g->anode))
			return dev_err_probe(dev, PTR_ERR(g->anode),
					     "led-anode-gpios\n");
		/* No anode of its own: the TX LED senses. */
		g->shared = !g->anode;
	} else {
		prop = "sense-gpios";
		g->cathode = devm_gpiod_get(dev, "sense", GPIOD_OUT_LOW);
		if (IS_ERR(g->cathode))
			return dev_err_probe(dev, PTR_ERR(g->cathode), "%s\n",
					     prop);
	}
	/* The charge needs a real high on the cathode and, when shared, on
	 * the TX anode: inverted flags would reverse the bias.
	 */
	if (gpiod_is_active_low(g->cathode))
		return dev_err_probe(dev, -EINVAL,
				     "%s: must be GPIO_ACTIVE_HIGH\n", prop);
	if (g->shared && gpiod_is_active_low(g->tx))
		return dev_err_probe(dev, -EINVAL,
				     "tx-gpios: must be GPIO_ACTIVE_HIGH when the TX LED also senses\n");
	/* Every measured slot turns the cathode around, and gpiolib's
	 * direction calls may take what hard IRQ must not (bcm2835: the
	 * pinctrl core's mutexes for the output's drive, then fsel_lock, a
	 * spinlock_t): an LED receiver always runs in the thread.
	 */
	g->can_sleep = true;

	/* The interrupt needs the line as an input when it is requested. */
	err = gpiod_direction_input(g->cathode);
	if (err)
		return dev_err_probe(dev, err, "%s: cannot be an input\n", prop);
	err = vlc_gpio_request_irq(g, g->cathode, prop, vlc_gpio_led_irq,
				   IRQF_TRIGGER_FALLING, false);
	if (err)
		return err;
	/* Park it as an output low: LED dark and unbiased. */
	return gpiod_direction_output(g->cathode, 0);
}

static int vlc_gpio_cmp_probe(struct vlc_gpio *g)
{
	g->rx = devm_gpiod_get(g->dev, "rx", GPIOD_IN);
	if (IS_ERR(g->rx))
		return dev_err_probe(g->dev, PTR_ERR(g->rx), "rx-gpios\n");
	g->can_sleep |= gpiod_cansleep(g->rx);
	return vlc_gpio_request_irq(g, g->rx, "rx-gpios", vlc_gpio_cmp_irq,
				    IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING,
				    true);
}

/* devm action: whatever happened, the LED ends dark. */
static void vlc_gpio_led_off(void *data)
{
	struct vlc_gpio *g = data;

	gpiod_set_value_cansleep(g->tx, 0);
}

static u32 vlc_gpio_rx_min_default(struct vlc_gpio *g, struct vlc_dev *vd)
{
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	u32 bright;

	switch (g->mode) {
	case VLC_GPIO_RX_LED:
		/* A lit slot discharges within the slot: at least k / data.
		 * Half of that leaves room for ambient and latency.
		 */
		vlc_dev_get_phy_config(vd, &t, &mode, &bright);
		return div_u64(VLC_GPIO_LED_K, t.data_ns) / 2;
	case VLC_GPIO_RX_COMPARATOR:
		return VLC_GPIO_CMP_FULL / 10;
	default:
		return VLC_GPIO_ADC_MIN_LEVEL;
	}
}

/* The TX LED's line, dark whatever happens, then the receiver's lines
 * of its mode.
 */
static int vlc_gpio_get_pins(struct vlc_gpio *g)
{
	struct device *dev = g->dev;
	int err;

	g->tx = devm_gpiod_get(dev, "tx", GPIOD_OUT_LOW);
	if (IS_ERR(g->tx))
		return dev_err_probe(dev, PTR_ERR(g->tx), "tx-gpios\n");
	g->can_sleep = gpiod_cansleep(g->tx);
	err = devm_add_action_or_reset(dev, vlc_gpio_led_off, g);
	if (err)
		return err;

	err = vlc_gpio_rx_mode(g);
	if (err)
		return err;
	switch (g->mode) {
	case VLC_GPIO_RX_LED:
		return vlc_gpio_led_probe(g);
	case VLC_GPIO_RX_COMPARATOR:
		return vlc_gpio_cmp_probe(g);
	default:
		return vlc_gpio_adc_probe(g);
	}
}

/* mac-address / local-mac-address; else the random one of setup.
 * One that is there but unusable (the overlay's mac_hi without
 * mac_lo: four bytes) is refused, not replaced behind the user's back.
 */
static int vlc_gpio_set_mac(struct device *dev, struct net_device *ndev)
{
	const char *mac;

	mac = device_property_present(dev, "mac-address") ? "mac-address" :
	      device_property_present(dev, "local-mac-address") ?
	      "local-mac-address" : NULL;
	if (!device_get_ethdev_address(dev, ndev))
		ndev->addr_assign_type = NET_ADDR_PERM;
	else if (mac)
		return dev_err_probe(dev, -EINVAL,
				     "%s: not 6 bytes of a unicast address\n",
				     mac);
	return 0;
}

/* The PHY on these pins, run by @kind, with the device's properties. */
static int vlc_gpio_attach(struct vlc_gpio *g, struct vlc_dev *vd,
			   enum vlc_exec_kind kind)
{
	u32 min_level;
	int err;

	err = vlc_dev_attach(vd, vlc_gpio_pin_ops(g), g, kind);
	if (err)
		return err;
	err = vlc_gpio_config(g, vd);
	if (err)
		return err;
	min_level = vlc_gpio_rx_min_default(g, vd);
	err = vlc_gpio_read_u32(g->dev, "rx-min-level", &min_level);
	if (err)
		return err;
	vlc_dev_set_rx_min_level(vd, min_level);
	return 0;
}

static int vlc_gpio_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	enum vlc_exec_kind kind;
	struct net_device *ndev;
	struct vlc_dev *vd;
	struct vlc_gpio *g;
	int err;

	g = devm_kzalloc(dev, sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->dev = dev;
	raw_spin_lock_init(&g->lock);
	atomic64_set(&g->t_fall, 0);
	atomic_set(&g->rx_errors, 0);
	err = vlc_gpio_get_pins(g);
	if (err)
		return err;

	ndev = alloc_netdev(sizeof(struct vlc_dev), "vlc%d", NET_NAME_ENUM,
			    vlc_netdev_setup);
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, dev);
	vd = netdev_priv(ndev);
	vd->bus_info = dev_name(dev);
	g->ndev = ndev;

	kind = g->can_sleep ? VLC_EXEC_THREAD : VLC_EXEC_HRTIMER;
	err = vlc_gpio_set_mac(dev, ndev) ?: vlc_gpio_attach(g, vd, kind);
	if (err)
		goto err_free;

	err = register_netdev(ndev);
	if (err) {
		dev_err_probe(dev, err, "register_netdev\n");
		goto err_free;
	}
	platform_set_drvdata(pdev, g);

	dev_info(dev, "%s: rx %s%s%s, %s executor\n", netdev_name(ndev),
		 vlc_gpio_rx_modes[g->mode],
		 g->shared ? " (shared TX LED)" : "",
		 g->mode == VLC_GPIO_RX_ADC ? "" :
		 g->irq ? ", edge irq" : ", polled",
		 kind == VLC_EXEC_THREAD ? "thread" : "hrtimer");
	return 0;

err_free:
	/* Not registered: needs_free_netdev does not apply yet. */
	free_netdev(ndev);
	return err;
}

static void vlc_gpio_remove(struct platform_device *pdev)
{
	struct vlc_gpio *g = platform_get_drvdata(pdev);

	/* Stops the executor and frees the net_device (needs_free_netdev);
	 * devm then releases the interrupt and the pins, after
	 * vlc_gpio_led_off().
	 */
	unregister_netdev(g->ndev);
}

VLC_PLATFORM_REMOVE(vlc_gpio_remove_compat, vlc_gpio_remove)

static const struct of_device_id vlc_gpio_of_match[] = {
	{ .compatible = "linux-vlc,vlc-gpio" },
	{ }
};
MODULE_DEVICE_TABLE(of, vlc_gpio_of_match);

static struct platform_driver vlc_gpio_driver = {
	.probe	= vlc_gpio_probe,
	.remove	= vlc_gpio_remove_compat,
	.driver	= {
		.name		= "vlc-gpio",
		.of_match_table	= vlc_gpio_of_match,
	},
};
module_platform_driver(vlc_gpio_driver);

MODULE_DESCRIPTION("VLC network devices on GPIO pins and IIO ADC channels");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
MODULE_ALIAS("platform:vlc-gpio");
