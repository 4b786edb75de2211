// SPDX-License-Identifier: GPL-2.0
/* vlc_sim.ko: a simulated optical medium for VLC net_devices, in the spirit
 * of mac802154_hwsim and netdevsim. Every node is a full VLC device (the
 * real netdev, MAC and PHY code); only the light is simulated:
 *
 *	ip link add vlc0 type vlc
 *	ip link del vlc0
 *
 * The light a node measures over a window is what the light model says
 * (vlc_light.h): every neighbour's LED over that window times the edge
 * gain, ambient light (DC and mains flicker) and Gaussian noise, the
 * model the host benches measure too. Each node has a clock
 * skew and phase; one kthread runs all nodes in virtual time, event by
 * event, paced to the wall clock by the speed parameter. Given the seed,
 * a run is deterministic. The medium, its nodes' clocks, its edges and
 * faults are read and set through the "vlc" generic netlink family
 * (vlc_nl_sim.c, "vlcctl sim"; Documentation/networking/vlc.rst,
 * "Simulator").
 *
 * A node senses with a photodiode (default) or with its own LED, as the
 * seed's LED-to-LED method does: 1/VLC_LIGHT_LED_DIV of the
 * responsivity, blind while the LED is lit, and pin ops with shared_led
 * set.
 */

#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <net/rtnetlink.h>

#include "vlc_compat.h"
#include "vlc_light.h"
#include "vlc_netdev.h"
#include "vlc_sim_ctl.h"

#define VLC_SIM_HIST		32	/* LED transitions remembered per node */

/* The uint parameters, each with its range: a value out of it, or not a
 * number, is refused (-EINVAL) with a message naming the parameter, at
 * load time and through /sys/module/vlc_sim/parameters alike, and the
 * parameter keeps its value. Netlink sets the same values (the medium's
 * settings, VLC_SIM_ATTR_*), within the same ranges (its policy).
 */
struct vlc_sim_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
};

static int vlc_sim_param_set(const char *val, const struct kernel_param *kp)
{
	const struct vlc_sim_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < p->min || v > p->max) {
		pr_err("vlc_sim: %s: expected %u..%u\n", kp->name, p->min,
		       p->max);
		return -EINVAL;
	}
	WRITE_ONCE(*p->val, v);
	return 0;
}

static int vlc_sim_param_get(char *buf, const struct kernel_param *kp)
{
	const struct vlc_sim_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*p->val));
}

static const struct kernel_param_ops vlc_sim_param_ops = {
	.set	= vlc_sim_param_set,
	.get	= vlc_sim_param_get,
};

static unsigned int speed = 100;
static struct vlc_sim_param speed_p = { &speed, 0, VLC_SIM_SPEED_MAX };
module_param_cb(speed, &vlc_sim_param_ops, &speed_p, 0644);
__MODULE_PARM_TYPE(speed, "uint");
MODULE_PARM_DESC(speed, "virtual time per wall time, percent, 0..100000; 0 = as fast as possible (default 100: real time)");

static unsigned int boards;
static struct vlc_sim_param boards_p = { &boards, 0, VLC_SIM_MAX_NODES };
module_param_cb(boards, &vlc_sim_param_ops, &boards_p, 0444);
__MODULE_PARM_TYPE(boards, "uint");
MODULE_PARM_DESC(boards, "nodes created at load, vlc0 to vlcN-1, registered as a board's driver registers its device: no rtnl link kind, so network managers see an Ethernet port; removed at unload (default 0, at most 64)");

static u64 seed = 1;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "seed of the noise and fault generators (default 1)");

static unsigned int ambient = 2000;
static struct vlc_sim_param ambient_p = { &ambient, 0, VLC_SIM_LIGHT_MAX };
module_param_cb(ambient, &vlc_sim_param_ops, &ambient_p, 0644);
__MODULE_PARM_TYPE(ambient, "uint");
MODULE_PARM_DESC(ambient, "ambient light, DC part, in units of a lit LED at full gain / 1000, 0..1000000 (default 2000)");

static unsigned int flicker;
static struct vlc_sim_param flicker_p = { &flicker, 0, VLC_SIM_LIGHT_MAX };
module_param_cb(flicker, &vlc_sim_param_ops, &flicker_p, 0644);
__MODULE_PARM_TYPE(flicker, "uint");
MODULE_PARM_DESC(flicker, "amplitude of mains flicker on the ambient light, same units, 0..1000000 (default 0)");

static unsigned int flicker_hz = 100;
static struct vlc_sim_param flicker_hz_p = { &flicker_hz, 1,
					      VLC_SIM_FLICKER_HZ_MAX };
module_param_cb(flicker_hz, &vlc_sim_param_ops, &flicker_hz_p, 0644);
__MODULE_PARM_TYPE(flicker_hz, "uint");
MODULE_PARM_DESC(flicker_hz, "flicker frequency, 1..10000 Hz; mains: 100 or 120 (default 100)");

static unsigned int noise = 10;
static struct vlc_sim_param noise_p = { &noise, 0, VLC_SIM_LIGHT_MAX };
module_param_cb(noise, &vlc_sim_param_ops, &noise_p, 0644);
__MODULE_PARM_TYPE(noise, "uint");
MODULE_PARM_DESC(noise, "rms Gaussian noise of a 50 us measurement (the default data slot; longer ones average it down), same units, 0..1000000 (default 10)");

static unsigned int ser_ppm;
static struct vlc_sim_param ser_ppm_p = { &ser_ppm, 0, VLC_SIM_PPM_MAX };
module_param_cb(ser_ppm, &vlc_sim_param_ops, &ser_ppm_p, 0644);
__MODULE_PARM_TYPE(ser_ppm, "uint");
MODULE_PARM_DESC(ser_ppm, "fault: probability per measured window, in ppm (0..1000000), of a spurious full-light pulse (default 0)");

static unsigned int late_ppm;
static struct vlc_sim_param late_ppm_p = { &late_ppm, 0, VLC_SIM_PPM_MAX };
module_param_cb(late_ppm, &vlc_sim_param_ops, &late_ppm_p, 0644);
__MODULE_PARM_TYPE(late_ppm, "uint");
MODULE_PARM_DESC(late_ppm, "fault: probability per slot boundary, in ppm (0..1000000), that the callback runs late (default 0)");

static unsigned int late_us = 500;
static struct vlc_sim_param late_us_p = { &late_us, 0, VLC_SIM_LATE_US_MAX };
module_param_cb(late_us, &vlc_sim_param_ops, &late_us_p, 0644);
__MODULE_PARM_TYPE(late_us, "uint");
MODULE_PARM_DESC(late_us, "fault: how late a late callback runs, us, 0..1000000 (default 500: one frame)");

static unsigned int burst_ppm;
static struct vlc_sim_param burst_ppm_p = { &burst_ppm, 0, VLC_SIM_PPM_MAX };
module_param_cb(burst_ppm, &vlc_sim_param_ops, &burst_ppm_p, 0644);
__MODULE_PARM_TYPE(burst_ppm, "uint");
MODULE_PARM_DESC(burst_ppm, "fault: probability per measured window, in ppm (at most 1000000), that an error burst starts at that receiver; vlcctl sim show counts them (default 0)");

static unsigned int burst_us = 2000;
static struct vlc_sim_param burst_us_p = { &burst_us, 0, VLC_SIM_BURST_US_MAX };
module_param_cb(burst_us, &vlc_sim_param_ops, &burst_us_p, 0644);
__MODULE_PARM_TYPE(burst_us, "uint");
MODULE_PARM_DESC(burst_us, "fault: length of an error burst in virtual time, us, at most 10000000; every window of the receiver that starts within it gets random extra light of up to a lit LED (default 2000: four frames)");

struct vlc_sim_tx {
	u64 t;
	bool on;
};

struct vlc_sim_node {
	struct vlc_dev vd;	/* must stay first: netdev_priv() is a vlc_dev */
	struct list_head list;
	unsigned int id;
	struct rnd_state mac_rnd;	/* the MAC's backoffs, seeded */
	char bus[16];
	s32 skew_ppm;
	s64 phase_ns;
	u16 gain[VLC_SIM_MAX_NODES];		/* light from node i */
	u64 covered_until[VLC_SIM_MAX_NODES];	/* edge from node i dark */
	struct vlc_sim_tx hist[VLC_SIM_HIST];
	unsigned int hist_n;
	u64 rx_t0;
	u64 next_g;
	u64 burst_until;	/* error burst on this receiver until then */
	u64 bursts;		/* error bursts started */
	u64 rx_lit;		/* windows measured while our own LED was lit */
	bool led_rx;		/* senses with its LED, not a photodiode */
	bool active;
};

static struct vlc_sim {
	struct mutex lock;	/* nodes, edges, and every run() */
	struct list_head nodes;
	struct vlc_sim_node *by_id[VLC_SIM_MAX_NODES];
	struct task_struct *thread;
	atomic64_t vtime;	/* global virtual time, ns */
	u64 pace_wall;
	u64 pace_v;
	struct rnd_state rnd;
} vlc_sim;

/* ---- clocks: local = global * (1 + skew) + phase ---- */

static u64 vlc_sim_to_local(const struct vlc_sim_node *n, u64 g)
{
	return g + div_s64((s64)g * n->skew_ppm, 1000000) + n->phase_ns;
}

static u64 vlc_sim_to_global(const struct vlc_sim_node *n, u64 l)
{
	s64 x = (s64)l - n->phase_ns;

	return x - div_s64(x * n->skew_ppm, 1000000 + n->skew_ppm);
}

static u64 vlc_sim_clock(void *ctx)
{
	struct vlc_sim_node *n = ctx;

	return vlc_sim_to_local(n, atomic64_read(&vlc_sim.vtime));
}

/* ---- light ---- */

/* Time node @tx had its LED on within [t0, t1) of global time. Its
 * history may grow meanwhile (ndo_open and ndo_stop emit under the
 * node's own lock, not vlc_sim.lock): the entries are read up to the
 * count published, and never the slot the next one goes to.
 */
static u64 vlc_sim_lit_ns(const struct vlc_sim_node *tx, u64 t0, u64 t1)
{
	/* acquire: pairs with the release in vlc_sim_emit() */
	unsigned int cnt = smp_load_acquire(&tx->hist_n);
	unsigned int i, n = min_t(unsigned int, cnt, VLC_SIM_HIST - 1);
	u64 end = t1, lit = 0;

	for (i = 0; i < n; i++) {
		const struct vlc_sim_tx *h;

		h = &tx->hist[(cnt - 1 - i) % VLC_SIM_HIST];
		if (h->on && h->t < end)
			lit += end - max(h->t, t0);
		if (h->t <= t0)
			break;
		end = h->t;
	}
	return lit;
}

/* Irwin-Hall: the sum of 12 uniforms is close to Gaussian, sd 4096. */
static s32 vlc_sim_gauss(u32 sd)
{
	s32 sum = 0;
	int i;

	for (i = 0; i < 12; i++)
		sum += prandom_u32_state(&vlc_sim.rnd) >> 20;
	return div_s64((s64)(sum - 24570) * sd, 4096);
}

static bool vlc_sim_chance(unsigned int ppm)
{
	return ppm && prandom_u32_state(&vlc_sim.rnd) % 1000000 < ppm;
}

/* An error burst: light of a random level up to a lit LED at full gain
 * on every window of @rx that starts within burst_us of the first one.
 */
static s64 vlc_sim_burst(struct vlc_sim_node *rx, u64 t0)
{
	if (rx->burst_until <= t0) {
		if (!vlc_sim_chance(READ_ONCE(burst_ppm)))
			return 0;
		rx->burst_until = t0 + (u64)READ_ONCE(burst_us) * NSEC_PER_USEC;
		rx->bursts++;
	}
	return prandom_u32_state(&vlc_sim.rnd) % (VLC_LIGHT_FULL + 1);
}

/* Mean light @rx measures over [t0, t1) of global time. The random draws
 * keep their order (noise, ser_ppm, burst) so that a seed replays the
 * same run whichever faults are off.
 */
static u32 vlc_sim_level(struct vlc_sim_node *rx, u64 t0, u64 t1)
{
	u64 len = max_t(u64, t1 - t0, 1), own;
	struct vlc_sim_node *tx;
	s64 light, level;

	lockdep_assert_held(&vlc_sim.lock);
	light = READ_ONCE(ambient) +
		vlc_light_flicker_mean(READ_ONCE(flicker), READ_ONCE(flicker_hz),
				       t0, t1);
	list_for_each_entry(tx, &vlc_sim.nodes, list) {
		u32 g = rx->gain[tx->id];

		if (tx == rx || !g || rx->covered_until[tx->id] > t1)
			continue;
		light += div64_u64(vlc_sim_lit_ns(tx, t0, t1) * g *
				   VLC_LIGHT_FULL, len * VLC_SIM_GAIN_MAX);
	}
	level = vlc_sim_gauss(vlc_light_noise_rms(READ_ONCE(noise),
						  VLC_LIGHT_NOISE_REF_NS, len));
	if (vlc_sim_chance(READ_ONCE(ser_ppm)))
		light += VLC_LIGHT_FULL;
	if (READ_ONCE(burst_ppm) || rx->burst_until > t0)
		light += vlc_sim_burst(rx, t0);

	own = vlc_sim_lit_ns(rx, t0, t1);
	if (own)
		rx->rx_lit++;
	if (rx->led_rx)
		light = vlc_light_led_sense(light, own, len);
	level += light;
	return clamp_val(level, 0, U32_MAX);
}

/* The MAC's random numbers: executor context, serialised by its lock. */
static u32 vlc_sim_mac_random(struct vlc_dev *vd)
{
	struct vlc_sim_node *n = container_of(vd, struct vlc_sim_node, vd);

	return prandom_u32_state(&n->mac_rnd);
}

/* ---- pin operations: called from run(), under vlc_sim.lock ---- */

static void vlc_sim_emit(void *ctx, bool on, u64 t_ns)
{
	struct vlc_sim_node *n = ctx;

	n->hist[n->hist_n % VLC_SIM_HIST] = (struct vlc_sim_tx){
		.t = atomic64_read(&vlc_sim.vtime), .on = on,
	};
	/* release: the entry before the count that shows it */
	smp_store_release(&n->hist_n, n->hist_n + 1);
}

static void vlc_sim_rx_begin(void *ctx, u64 t_ns)
{
	struct vlc_sim_node *n = ctx;

	n->rx_t0 = atomic64_read(&vlc_sim.vtime);
}

static u32 vlc_sim_rx_end(void *ctx, u64 t_ns)
{
	struct vlc_sim_node *n = ctx;

	/* ndo_stop ends a window without vlc_sim.lock; nobody reads it */
	if (current != vlc_sim.thread)
		return 0;
	return vlc_sim_level(n, n->rx_t0, atomic64_read(&vlc_sim.vtime));
}

/* A photodiode next to the LED: measures in every window. */
static const struct vlc_pin_ops vlc_sim_pins_pd = {
	.emit		= vlc_sim_emit,
	.rx_begin	= vlc_sim_rx_begin,
	.rx_end		= vlc_sim_rx_end,
	.can_sleep	= false,
	.shared_led	= false,
};

/* The LED itself: the PHY leaves the windows in which it emits dark. */
static const struct vlc_pin_ops vlc_sim_pins_led = {
	.emit		= vlc_sim_emit,
	.rx_begin	= vlc_sim_rx_begin,
	.rx_end		= vlc_sim_rx_end,
	.can_sleep	= false,
	.shared_led	= true,
};

/* ---- the virtual-time executor ---- */

/* Pick the node whose next boundary comes first; NULL if none runs. */
static struct vlc_sim_node *vlc_sim_next(void)
{
	struct vlc_sim_node *n, *best = NULL;

	list_for_each_entry(n, &vlc_sim.nodes, list) {
		if (!READ_ONCE(n->vd.exec.running)) {
			n->active = false;
			continue;
		}
		if (!n->active) {
			n->next_g = vlc_sim_to_global(n, n->vd.exec.next_ns);
			n->active = true;
		}
		if (!best || n->next_g < best->next_g)
			best = n;
	}
	return best;
}

static void vlc_sim_step(struct vlc_sim_node *n)
{
	u64 now = max_t(u64, n->next_g, atomic64_read(&vlc_sim.vtime));
	u64 local, next;

	if (READ_ONCE(late_ppm) &&
	    prandom_u32_state(&vlc_sim.rnd) % 1000000 < READ_ONCE(late_ppm))
		now += (u64)READ_ONCE(late_us) * NSEC_PER_USEC;
	atomic64_set(&vlc_sim.vtime, now);

	mutex_lock(&n->vd.exec.mlock);
	if (n->vd.exec.running) {
		local = vlc_sim_to_local(n, now);
		next = vlc_dev_run(&n->vd, local);
		n->next_g = max(vlc_sim_to_global(n, next), now + 1);
	}
	mutex_unlock(&n->vd.exec.mlock);
}

/* Microseconds to sleep before virtual time @v is due at wall time *
 * speed; 0: run it now. Under vlc_sim.lock, which the sleep is not.
 */
static unsigned long vlc_sim_pace(u64 v)
{
	u32 pct = READ_ONCE(speed);
	u64 wall = ktime_get_ns();
	u64 due;

	if (!pct) {
		vlc_sim.pace_wall = wall;
		vlc_sim.pace_v = v;
		return 0;
	}
	due = vlc_sim.pace_wall + div_u64((v - vlc_sim.pace_v) * 100, pct);
	if (due <= wall + NSEC_PER_MSEC)
		return 0;
	return div_u64(due - wall, NSEC_PER_USEC);
}

static int vlc_sim_thread(void *unused)
{
	unsigned int events = 0;

	while (!kthread_should_stop()) {
		struct vlc_sim_node *n;
		unsigned long us;

		mutex_lock(&vlc_sim.lock);
		n = vlc_sim_next();
		if (!n) {
			mutex_unlock(&vlc_sim.lock);
			msleep_interruptible(20);
			vlc_sim.pace_wall = ktime_get_ns();
			vlc_sim.pace_v = atomic64_read(&vlc_sim.vtime);
			continue;
		}
		/* Nodes come and go, and settings change, while it sleeps:
		 * their callers hold RTNL and wait for the lock.
		 */
		us = vlc_sim_pace(n->next_g);
		if (us) {
			mutex_unlock(&vlc_sim.lock);
			usleep_range(us, us + 200);
			continue;
		}
		vlc_sim_step(n);
		mutex_unlock(&vlc_sim.lock);
		if (!(++events & 63))
			cond_resched();
	}
	return 0;
}

/* ---- the controls, for the "vlc" netlink family (vlc_sim_ctl.h) ---- */

/* Every control runs with RTNL held, as node_link() and node_unlink()
 * do: by_id[] and the nodes stay as they are meanwhile.
 */

/* The medium's u32 settings are the module parameters. */
static unsigned int *const vlc_sim_knobs[VLC_SIM_ATTR_MAX + 1] = {
	[VLC_SIM_ATTR_SPEED]		= &speed,
	[VLC_SIM_ATTR_AMBIENT]		= &ambient,
	[VLC_SIM_ATTR_FLICKER]		= &flicker,
	[VLC_SIM_ATTR_FLICKER_HZ]	= &flicker_hz,
	[VLC_SIM_ATTR_NOISE]		= &noise,
	[VLC_SIM_ATTR_SER_PPM]		= &ser_ppm,
	[VLC_SIM_ATTR_LATE_PPM]		= &late_ppm,
	[VLC_SIM_ATTR_LATE_US]		= &late_us,
	[VLC_SIM_ATTR_BURST_PPM]	= &burst_ppm,
	[VLC_SIM_ATTR_BURST_US]		= &burst_us,
};

static struct net_device *vlc_sim_node_dev(u32 id)
{
	ASSERT_RTNL();
	if (id >= VLC_SIM_MAX_NODES || !vlc_sim.by_id[id])
		return NULL;
	return vlc_sim.by_id[id]->vd.ndev;
}

static void vlc_sim_medium_get(struct vlc_sim_medium *m)
{
	struct vlc_sim_node *n;
	unsigned int a;

	for (a = 0; a <= VLC_SIM_ATTR_MAX; a++)
		if (vlc_sim_knobs[a])
			m->val[a] = READ_ONCE(*vlc_sim_knobs[a]);
	m->seed = seed;
	m->vtime_us = div_u64(atomic64_read(&vlc_sim.vtime), NSEC_PER_USEC);
	m->nodes = 0;
	list_for_each_entry(n, &vlc_sim.nodes, list)
		m->nodes++;
}

static void vlc_sim_medium_set(const struct vlc_sim_medium *m)
{
	unsigned int a;

	for (a = 0; a <= VLC_SIM_ATTR_MAX; a++)
		if (vlc_sim_knobs[a] && test_bit(a, &m->given))
			WRITE_ONCE(*vlc_sim_knobs[a], m->val[a]);
	if (test_bit(VLC_SIM_ATTR_SEED, &m->given)) {
		mutex_lock(&vlc_sim.lock);
		seed = m->seed;
		prandom_seed_state(&vlc_sim.rnd, seed);
		mutex_unlock(&vlc_sim.lock);
	}
}

static void vlc_sim_node_get(u32 id, struct vlc_sim_node_conf *c)
{
	struct vlc_sim_node *n = vlc_sim.by_id[id];
	unsigned int i;
	u64 now;

	mutex_lock(&vlc_sim.lock);
	now = atomic64_read(&vlc_sim.vtime);
	c->skew_ppm = n->skew_ppm;
	c->phase_us = clamp_val(div_s64(n->phase_ns, NSEC_PER_USEC), S32_MIN,
				S32_MAX);
	c->rx = n->led_rx ? VLC_SIM_RX_LED : VLC_SIM_RX_PD;
	c->bursts = n->bursts;
	c->rx_lit = n->rx_lit;
	for (i = 0; i < VLC_SIM_MAX_NODES; i++) {
		c->gain[i] = n->gain[i];
		if (n->covered_until[i] > now)
			c->cover_us[i] = min_t(u64, U32_MAX,
					       DIV_ROUND_UP_ULL(n->covered_until[i] - now,
								NSEC_PER_USEC));
	}
	mutex_unlock(&vlc_sim.lock);
}

/* Keep the node's local time continuous across a change of skew. */
static void vlc_sim_set_skew(struct vlc_sim_node *n, s32 v)
{
	u64 g = atomic64_read(&vlc_sim.vtime);
	u64 l = vlc_sim_to_local(n, g);

	lockdep_assert_held(&vlc_sim.lock);
	n->skew_ppm = v;
	n->phase_ns += l - vlc_sim_to_local(n, g);
}

/* The PHY reads shared_led from its pin ops at every slot: they are only
 * swapped while the interface is down. Context: RTNL held.
 */
static int vlc_sim_set_rx(struct vlc_sim_node *n, bool led)
{
	int err;

	err = vlc_dev_set_pins(&n->vd, led ? &vlc_sim_pins_led :
					     &vlc_sim_pins_pd);
	if (err)
		return err;
	mutex_lock(&vlc_sim.lock);
	n->led_rx = led;
	mutex_unlock(&vlc_sim.lock);
	vlc_dev_set_rx_min_level(&n->vd, VLC_LIGHT_FULL / 10 /
				 (led ? VLC_LIGHT_LED_DIV : 1));
	return 0;
}

static void vlc_sim_node_set(u32 id, const struct vlc_sim_node_conf *c)
{
	struct vlc_sim_node *n = vlc_sim.by_id[id];

	/* the caller saw the interface down, and RTNL keeps it so */
	if (test_bit(VLC_SIM_NODE_ATTR_RX, &c->given))
		WARN_ON_ONCE(vlc_sim_set_rx(n, c->rx == VLC_SIM_RX_LED));
	mutex_lock(&vlc_sim.lock);
	if (test_bit(VLC_SIM_NODE_ATTR_SKEW_PPM, &c->given))
		vlc_sim_set_skew(n, c->skew_ppm);
	if (test_bit(VLC_SIM_NODE_ATTR_PHASE_US, &c->given))
		n->phase_ns = (s64)c->phase_us * NSEC_PER_USEC;
	n->active = false;	/* reschedule on the new clock */
	mutex_unlock(&vlc_sim.lock);
}

static void vlc_sim_edge_set(u32 from, u32 to, bool both, const u32 *gain,
			     const u32 *cover_us)
{
	struct vlc_sim_node *a = vlc_sim.by_id[from], *b = vlc_sim.by_id[to];

	mutex_lock(&vlc_sim.lock);
	if (gain) {
		b->gain[from] = *gain;
		if (both)
			a->gain[to] = *gain;
	}
	if (cover_us) {
		u64 until = atomic64_read(&vlc_sim.vtime) +
			    (u64)*cover_us * NSEC_PER_USEC;

		b->covered_until[from] = until;
		if (both)
			a->covered_until[to] = until;
	}
	mutex_unlock(&vlc_sim.lock);
}

static const struct vlc_sim_ctl vlc_sim_ctl = {
	.node_dev	= vlc_sim_node_dev,
	.get_medium	= vlc_sim_medium_get,
	.set_medium	= vlc_sim_medium_set,
	.get_node	= vlc_sim_node_get,
	.set_node	= vlc_sim_node_set,
	.set_edge	= vlc_sim_edge_set,
};

/* ---- rtnl_link_ops: ip link add/del type vlc ---- */

static void vlc_sim_setup(struct net_device *ndev)
{
	vlc_netdev_setup(ndev);
}

static int vlc_sim_validate(struct nlattr *tb[], struct nlattr *data[],
			    struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG(extack, "vlc: address must be 6 bytes");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG(extack, "vlc: address must be unicast");
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

/* All a node needs before its net_device is registered: an ID, the
 * address that travels as that ID unless one was given, and the PHY and
 * MAC on the medium's clock. Called with RTNL held.
 */
static int vlc_sim_node_init(struct net_device *ndev, bool has_addr,
			     struct netlink_ext_ack *extack)
{
	struct vlc_sim_node *n = netdev_priv(ndev);
	int id, err;

	mutex_lock(&vlc_sim.lock);
	for (id = 0; id < VLC_SIM_MAX_NODES && vlc_sim.by_id[id]; id++)
		;
	mutex_unlock(&vlc_sim.lock);
	if (id == VLC_SIM_MAX_NODES) {
		NL_SET_ERR_MSG(extack, "vlc_sim: too many nodes");
		return -ENOSPC;
	}
	n->id = id;
	snprintf(n->bus, sizeof(n->bus), "vlc_sim.%d", id);
	n->vd.bus_info = n->bus;
	/* 02:56:4c:43:00:XX compresses to the short address XX on air. */
	if (!has_addr) {
		u8 addr[ETH_ALEN] = { 0x02, 0x56, 0x4c, 0x43, 0x00, id + 1 };

		eth_hw_addr_set(ndev, addr);
	}

	err = vlc_dev_attach(&n->vd, &vlc_sim_pins_pd, n, VLC_EXEC_EXTERNAL);
	if (err)
		return err;
	vlc_exec_set_clock(&n->vd.exec, vlc_sim_clock, n);
	/* backoffs from the seed too: a run of the medium replays */
	prandom_seed_state(&n->mac_rnd, seed + 0x9e3779b97f4a7c15ULL * (id + 1));
	n->vd.random = vlc_sim_mac_random;
	vlc_dev_set_rx_min_level(&n->vd, VLC_LIGHT_FULL / 10);
	return 0;
}

/* Onto the medium once registered; everybody sees everybody until
 * edges say otherwise.
 */
static void vlc_sim_node_link(struct vlc_sim_node *n)
{
	struct vlc_sim_node *o;

	mutex_lock(&vlc_sim.lock);
	list_for_each_entry(o, &vlc_sim.nodes, list) {
		o->gain[n->id] = VLC_SIM_GAIN_MAX;
		n->gain[o->id] = VLC_SIM_GAIN_MAX;
	}
	list_add_tail(&n->list, &vlc_sim.nodes);
	vlc_sim.by_id[n->id] = n;
	mutex_unlock(&vlc_sim.lock);
}

/* Off the medium, before the net_device is unregistered. */
static void vlc_sim_node_unlink(struct vlc_sim_node *n)
{
	struct vlc_sim_node *o;

	mutex_lock(&vlc_sim.lock);
	list_del(&n->list);
	vlc_sim.by_id[n->id] = NULL;
	list_for_each_entry(o, &vlc_sim.nodes, list) {
		o->gain[n->id] = 0;
		o->covered_until[n->id] = 0;
	}
	mutex_unlock(&vlc_sim.lock);
}

static int vlc_sim_newlink(struct net_device *ndev, struct nlattr *tb[],
			   struct nlattr *data[],
			   struct netlink_ext_ack *extack)
{
	int err;

	/* One medium, clock and ID space for the whole machine: a node
	 * created in any namespace sees and is seen by all the others, so
	 * only the initial user namespace's admin may add one.
	 */
	if (!capable(CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack,
			       "vlc_sim: a node needs CAP_NET_ADMIN in the initial user namespace");
		return -EPERM;
	}
	err = vlc_sim_node_init(ndev, !!tb[IFLA_ADDRESS], extack);
	if (err)
		return err;
	err = register_netdevice(ndev);
	if (err)
		return err;
	vlc_sim_node_link(netdev_priv(ndev));
	return 0;
}

VLC_RTNL_NEWLINK(vlc_sim_newlink_compat, vlc_sim_newlink)

static void vlc_sim_dellink(struct net_device *ndev, struct list_head *head)
{
	vlc_sim_node_unlink(netdev_priv(ndev));
	unregister_netdevice_queue(ndev, head);
}

static struct rtnl_link_ops vlc_sim_link_ops __read_mostly = {
	.kind		= VLC_DRV_NAME,
	.priv_size	= sizeof(struct vlc_sim_node),
	.setup		= vlc_sim_setup,
	.validate	= vlc_sim_validate,
	.newlink	= vlc_sim_newlink_compat,
	.dellink	= vlc_sim_dellink,
};

/* ---- boards=N: nodes registered as a board's driver registers vlc0 ---- */

static struct net_device *vlc_sim_boards[VLC_SIM_MAX_NODES];

static void vlc_sim_del_boards(void)
{
	int i;

	rtnl_lock();
	for (i = 0; i < VLC_SIM_MAX_NODES; i++) {
		if (!vlc_sim_boards[i])
			continue;
		vlc_sim_node_unlink(netdev_priv(vlc_sim_boards[i]));
		/* needs_free_netdev: this frees it */
		unregister_netdevice(vlc_sim_boards[i]);
		vlc_sim_boards[i] = NULL;
	}
	rtnl_unlock();
}

static int vlc_sim_add_boards(void)
{
	struct net_device *ndev;
	unsigned int i;
	int err;

	for (i = 0; i < boards; i++) {
		ndev = alloc_netdev(sizeof(struct vlc_sim_node), "vlc%d",
				    NET_NAME_ENUM, vlc_sim_setup);
		if (!ndev)
			return -ENOMEM;
		rtnl_lock();
		err = vlc_sim_node_init(ndev, false, NULL);
		if (!err)
			err = register_netdevice(ndev);
		if (!err)
			vlc_sim_node_link(netdev_priv(ndev));
		rtnl_unlock();
		if (err) {
			/* Not registered: needs_free_netdev does not apply. */
			free_netdev(ndev);
			return err;
		}
		vlc_sim_boards[i] = ndev;
	}
	return 0;
}

static int __init vlc_sim_init(void)
{
	int err;

	mutex_init(&vlc_sim.lock);
	INIT_LIST_HEAD(&vlc_sim.nodes);
	prandom_seed_state(&vlc_sim.rnd, seed);

	vlc_sim.thread = kthread_run(vlc_sim_thread, NULL, "vlc_sim");
	if (IS_ERR(vlc_sim.thread))
		return PTR_ERR(vlc_sim.thread);
	err = rtnl_link_register(&vlc_sim_link_ops);
	if (err)
		goto err_thread;
	err = vlc_sim_add_boards();
	if (err)
		goto err_boards;
	rtnl_lock();
	vlc_nl_sim_register(&vlc_sim_ctl);
	rtnl_unlock();
	return 0;

err_boards:
	vlc_sim_del_boards();
	rtnl_link_unregister(&vlc_sim_link_ops);
err_thread:
	kthread_stop(vlc_sim.thread);
	return err;
}

static void __exit vlc_sim_exit(void)
{
	rtnl_lock();
	vlc_nl_sim_unregister(&vlc_sim_ctl);
	rtnl_unlock();
	vlc_sim_del_boards();
	rtnl_link_unregister(&vlc_sim_link_ops);
	kthread_stop(vlc_sim.thread);
}

module_init(vlc_sim_init);
module_exit(vlc_sim_exit);

MODULE_DESCRIPTION("Simulated optical medium for VLC network devices");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
