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
 * a run is deterministic. Topology, clocks and faults are set through
 * debugfs (Documentation/networking/vlc.rst, "Simulator").
 *
 * A node senses with a photodiode (default) or with its own LED, as the
 * seed's LED-to-LED method does: 1/VLC_LIGHT_LED_DIV of the
 * responsivity, blind while the LED is lit, and pin ops with shared_led
 * set.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <net/rtnetlink.h>

#include "vlc_compat.h"
#include "vlc_light.h"
#include "vlc_netdev.h"

#define VLC_SIM_MAX_NODES	64
#define VLC_SIM_HIST		32	/* LED transitions remembered per node */
#define VLC_SIM_GAIN_MAX	1000
#define VLC_SIM_SKEW_MAX	100000	/* ppm */
#define VLC_SIM_BURST_US_MAX	10000000	/* 10 s */
#define VLC_SIM_PHASE_MAX	10000000000LL	/* ns, 10 s */

/* The uint parameters, each with its range: a value out of it, or not a
 * number, is refused (-EINVAL) with a message naming the parameter, at
 * load time and through /sys/module/vlc_sim/parameters alike, and the
 * parameter keeps its value.
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

#define VLC_SIM_PPM_MAX		1000000
#define VLC_SIM_LIGHT_MAX	1000000	/* a thousand lit LEDs */

static unsigned int speed = 100;
static struct vlc_sim_param speed_p = { &speed, 0, 100000 };
module_param_cb(speed, &vlc_sim_param_ops, &speed_p, 0644);
__MODULE_PARM_TYPE(speed, "uint");
MODULE_PARM_DESC(speed, "virtual time per wall time, percent, 0..100000; 0 = as fast as possible (default 100: real time)");

static unsigned int boards;
static struct vlc_sim_param boards_p = { &boards, 0, VLC_SIM_MAX_NODES };
module_param_cb(boards, &vlc_sim_param_ops, &boards_p, 0444);
__MODULE_PARM_TYPE(boards, "uint");
MODULE_PARM_DESC(boards, "nodes created at load, vlc0 to vlcN-1, registered as a board's driver registers its device: no rtnl link kind, so network managers see an Ethernet port; removed at unload (default 0, at most 64)");

static ulong seed = 1;
module_param(seed, ulong, 0444);
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
static struct vlc_sim_param flicker_hz_p = { &flicker_hz, 1, 10000 };
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

static unsigned int late_ns = 500000;
static struct vlc_sim_param late_ns_p = { &late_ns, 0, NSEC_PER_SEC };
module_param_cb(late_ns, &vlc_sim_param_ops, &late_ns_p, 0644);
__MODULE_PARM_TYPE(late_ns, "uint");
MODULE_PARM_DESC(late_ns, "fault: how late a late callback runs, ns, 0..1000000000 (default 500000: one frame)");

static unsigned int burst_ppm;
static struct vlc_sim_param burst_ppm_p = { &burst_ppm, 0, VLC_SIM_PPM_MAX };
module_param_cb(burst_ppm, &vlc_sim_param_ops, &burst_ppm_p, 0644);
__MODULE_PARM_TYPE(burst_ppm, "uint");
MODULE_PARM_DESC(burst_ppm, "fault: probability per measured window, in ppm (at most 1000000), that an error burst starts at that receiver; debugfs N/bursts counts them (default 0)");

static unsigned int burst_us = 2000;
static struct vlc_sim_param burst_us_p = { &burst_us, 0, VLC_SIM_BURST_US_MAX };
module_param_cb(burst_us, &vlc_sim_param_ops, &burst_us_p, 0644);
__MODULE_PARM_TYPE(burst_us, "uint");
MODULE_PARM_DESC(burst_us, "fault: length of an error burst in virtual time, us, at most 10000000; every window of the receiver that starts within it gets random extra light of up to a lit LED (default 2000: four frames)");

struct vlc_sim_tx {
	u64 t;
	bool on;
};

struct vlc_sim_node;

/* One debugfs file of a node: which node, which attribute. */
struct vlc_sim_attr_file {
	struct vlc_sim_node *node;
	const struct vlc_sim_attr *attr;
};

#define VLC_SIM_NATTRS	2

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
	struct dentry *dbg;
	struct vlc_sim_attr_file files[VLC_SIM_NATTRS];
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
	struct dentry *dbg;
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

/* Time node @tx had its LED on within [t0, t1) of global time. */
static u64 vlc_sim_lit_ns(const struct vlc_sim_node *tx, u64 t0, u64 t1)
{
	unsigned int i, n = min_t(unsigned int, tx->hist_n, VLC_SIM_HIST);
	u64 end = t1, lit = 0;

	for (i = 0; i < n; i++) {
		const struct vlc_sim_tx *h;

		h = &tx->hist[(tx->hist_n - 1 - i) % VLC_SIM_HIST];
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
	n->hist_n++;
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
		now += READ_ONCE(late_ns);
	atomic64_set(&vlc_sim.vtime, now);

	mutex_lock(&n->vd.exec.mlock);
	if (n->vd.exec.running) {
		local = vlc_sim_to_local(n, now);
		next = vlc_dev_run(&n->vd, local);
		n->next_g = max(vlc_sim_to_global(n, next), now + 1);
	}
	mutex_unlock(&n->vd.exec.mlock);
}

/* Sleep while virtual time is ahead of wall time * speed. */
static bool vlc_sim_pace(u64 v)
{
	u32 pct = READ_ONCE(speed);
	u64 wall = ktime_get_ns();
	u64 due;

	if (!pct) {
		vlc_sim.pace_wall = wall;
		vlc_sim.pace_v = v;
		return false;
	}
	due = vlc_sim.pace_wall + div_u64((v - vlc_sim.pace_v) * 100, pct);
	if (due <= wall + NSEC_PER_MSEC)
		return false;
	usleep_range(div_u64(due - wall, NSEC_PER_USEC),
		     div_u64(due - wall, NSEC_PER_USEC) + 200);
	return true;
}

static int vlc_sim_thread(void *unused)
{
	unsigned int events = 0;

	while (!kthread_should_stop()) {
		struct vlc_sim_node *n;

		mutex_lock(&vlc_sim.lock);
		n = vlc_sim_next();
		if (!n) {
			mutex_unlock(&vlc_sim.lock);
			msleep_interruptible(20);
			vlc_sim.pace_wall = ktime_get_ns();
			vlc_sim.pace_v = atomic64_read(&vlc_sim.vtime);
			continue;
		}
		if (vlc_sim_pace(n->next_g)) {
			mutex_unlock(&vlc_sim.lock);
			continue;
		}
		vlc_sim_step(n);
		mutex_unlock(&vlc_sim.lock);
		if (!(++events & 63))
			cond_resched();
	}
	return 0;
}

/* ---- debugfs: topology, clocks and faults ---- */

static int vlc_sim_edges_show(struct seq_file *m, void *v)
{
	struct vlc_sim_node *a, *b;

	mutex_lock(&vlc_sim.lock);
	list_for_each_entry(a, &vlc_sim.nodes, list)
		list_for_each_entry(b, &vlc_sim.nodes, list)
			if (a != b && a->gain[b->id])
				seq_printf(m, "%u %u %u\n", b->id, a->id,
					   a->gain[b->id]);
	mutex_unlock(&vlc_sim.lock);
	return 0;
}

static int vlc_sim_edges_open(struct inode *inode, struct file *file)
{
	return single_open(file, vlc_sim_edges_show, NULL);
}

/* "FROM TO GAIN" sets the light from node FROM seen by node TO;
 * "FROM TO GAIN sym" sets both directions; "cover FROM TO MS" darkens
 * the edge both ways for MS milliseconds of virtual time.
 */
static ssize_t vlc_sim_edges_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct vlc_sim_node *a, *b;
	unsigned int from, to, val;
	char buf[64], word[8] = "";
	bool cover;
	int n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	cover = !strncmp(buf, "cover ", 6);
	n = sscanf(buf + (cover ? 6 : 0), "%u %u %u %7s", &from, &to, &val,
		   word);
	if (n < 3 || from >= VLC_SIM_MAX_NODES || to >= VLC_SIM_MAX_NODES ||
	    from == to || (!cover && val > VLC_SIM_GAIN_MAX) ||
	    (n == 4 && strcmp(word, "sym"))) {
		pr_err("vlc_sim: edges: expected \"FROM TO GAIN [sym]\" or \"cover FROM TO MS\", GAIN <= %u\n",
		       VLC_SIM_GAIN_MAX);
		return -EINVAL;
	}
	mutex_lock(&vlc_sim.lock);
	a = vlc_sim.by_id[from];
	b = vlc_sim.by_id[to];
	if (!a || !b) {
		mutex_unlock(&vlc_sim.lock);
		pr_err("vlc_sim: edges: no node %u\n", a ? to : from);
		return -ENODEV;
	}
	if (cover) {
		u64 until = atomic64_read(&vlc_sim.vtime) +
			    (u64)val * NSEC_PER_MSEC;

		b->covered_until[from] = until;
		a->covered_until[to] = until;
	} else {
		b->gain[from] = val;
		if (n == 4)
			a->gain[to] = val;
	}
	mutex_unlock(&vlc_sim.lock);
	return len;
}

static const struct file_operations vlc_sim_edges_fops = {
	.owner		= THIS_MODULE,
	.open		= vlc_sim_edges_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= vlc_sim_edges_write,
};

/* Signed per-node attributes (skew_ppm, phase_ns). The debugfs simple
 * attributes of this kernel only parse unsigned input, hence these.
 */
static int vlc_sim_set_skew(struct vlc_sim_node *n, s64 v)
{
	u64 g, l;

	if (v < -VLC_SIM_SKEW_MAX || v > VLC_SIM_SKEW_MAX) {
		pr_err("vlc_sim: skew_ppm %lld out of range +-%d\n", v,
		       VLC_SIM_SKEW_MAX);
		return -EINVAL;
	}
	/* Keep the node's local time continuous across the change. */
	g = atomic64_read(&vlc_sim.vtime);
	l = vlc_sim_to_local(n, g);
	n->skew_ppm = v;
	n->phase_ns += l - vlc_sim_to_local(n, g);
	return 0;
}

static int vlc_sim_set_phase(struct vlc_sim_node *n, s64 v)
{
	/* beyond this, local time * skew could overflow within days */
	if (v < -VLC_SIM_PHASE_MAX || v > VLC_SIM_PHASE_MAX) {
		pr_err("vlc_sim: phase_ns %lld out of range +-%lld\n", v,
		       VLC_SIM_PHASE_MAX);
		return -EINVAL;
	}
	n->phase_ns = v;
	return 0;
}

struct vlc_sim_attr {
	const char *name;
	size_t offset;		/* of an s64 or s32 in struct vlc_sim_node */
	bool is_s32;
	int (*set)(struct vlc_sim_node *n, s64 v);
};

static const struct vlc_sim_attr vlc_sim_attrs[VLC_SIM_NATTRS] = {
	{ "skew_ppm", offsetof(struct vlc_sim_node, skew_ppm), true,
	  vlc_sim_set_skew },
	{ "phase_ns", offsetof(struct vlc_sim_node, phase_ns), false,
	  vlc_sim_set_phase },
};

static ssize_t vlc_sim_attr_read(struct file *file, char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	const struct vlc_sim_attr_file *f = file->private_data;
	const struct vlc_sim_attr *a = f->attr;
	void *p = (void *)f->node + a->offset;
	char buf[24];
	int l;

	l = scnprintf(buf, sizeof(buf), "%lld\n",
		      a->is_s32 ? (s64)*(s32 *)p : *(s64 *)p);
	return simple_read_from_buffer(ubuf, len, ppos, buf, l);
}

static ssize_t vlc_sim_attr_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	const struct vlc_sim_attr_file *f = file->private_data;
	const struct vlc_sim_attr *a = f->attr;
	struct vlc_sim_node *n = f->node;
	s64 v;
	int err;

	err = kstrtoll_from_user(ubuf, len, 0, &v);
	if (err) {
		pr_err("vlc_sim: %s: not a number\n", a->name);
		return err;
	}
	mutex_lock(&vlc_sim.lock);
	err = a->set(n, v);
	n->active = false;	/* reschedule on the new clock */
	mutex_unlock(&vlc_sim.lock);
	return err ? err : len;
}

static const struct file_operations vlc_sim_attr_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= vlc_sim_attr_read,
	.write		= vlc_sim_attr_write,
	.llseek		= default_llseek,
};

/* ---- debugfs: the receiver of a node and its fault counters ---- */

static const char *vlc_sim_rx_name(bool led)
{
	return led ? "led" : "pd";
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

static ssize_t vlc_sim_rx_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct vlc_sim_node *n = file->private_data;
	char buf[8];
	int l;

	l = scnprintf(buf, sizeof(buf), "%s\n",
		      vlc_sim_rx_name(READ_ONCE(n->led_rx)));
	return simple_read_from_buffer(ubuf, len, ppos, buf, l);
}

/* "pd" or "led"; only while the interface is down. */
static ssize_t vlc_sim_rx_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct vlc_sim_node *n = file->private_data;
	char buf[8];
	bool led;
	int err = 0;

	if (len >= sizeof(buf)) {
		pr_err("vlc_sim: rx: expected \"pd\" or \"led\"\n");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "led")) {
		led = true;
	} else if (sysfs_streq(buf, "pd")) {
		led = false;
	} else {
		pr_err("vlc_sim: rx: expected \"pd\" or \"led\"\n");
		return -EINVAL;
	}
	/* dellink removes this file under RTNL: never wait for it here */
	if (!rtnl_trylock())
		return restart_syscall();
	err = vlc_sim_set_rx(n, led);
	if (err == -EBUSY)
		netdev_err(n->vd.ndev, "vlc_sim: rx: set it while the interface is down\n");
	rtnl_unlock();
	return err ? err : len;
}

static const struct file_operations vlc_sim_rx_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= vlc_sim_rx_read,
	.write		= vlc_sim_rx_write,
	.llseek		= default_llseek,
};

static int vlc_sim_bursts_get(void *data, u64 *val)
{
	struct vlc_sim_node *n = data;

	mutex_lock(&vlc_sim.lock);
	*val = n->bursts;
	mutex_unlock(&vlc_sim.lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vlc_sim_bursts_fops, vlc_sim_bursts_get, NULL,
			 "%llu\n");

static int vlc_sim_rx_lit_get(void *data, u64 *val)
{
	struct vlc_sim_node *n = data;

	mutex_lock(&vlc_sim.lock);
	*val = n->rx_lit;
	mutex_unlock(&vlc_sim.lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vlc_sim_rx_lit_fops, vlc_sim_rx_lit_get, NULL,
			 "%llu\n");

static int vlc_sim_vtime_get(void *data, u64 *val)
{
	*val = atomic64_read(&vlc_sim.vtime);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vlc_sim_vtime_fops, vlc_sim_vtime_get, NULL,
			 "%llu\n");

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
	char name[8];
	int i;

	mutex_lock(&vlc_sim.lock);
	list_for_each_entry(o, &vlc_sim.nodes, list) {
		o->gain[n->id] = VLC_SIM_GAIN_MAX;
		n->gain[o->id] = VLC_SIM_GAIN_MAX;
	}
	list_add_tail(&n->list, &vlc_sim.nodes);
	vlc_sim.by_id[n->id] = n;
	mutex_unlock(&vlc_sim.lock);

	snprintf(name, sizeof(name), "%u", n->id);
	n->dbg = debugfs_create_dir(name, vlc_sim.dbg);
	for (i = 0; i < VLC_SIM_NATTRS; i++) {
		n->files[i].node = n;
		n->files[i].attr = &vlc_sim_attrs[i];
		debugfs_create_file(vlc_sim_attrs[i].name, 0600, n->dbg,
				    &n->files[i], &vlc_sim_attr_fops);
	}
	debugfs_create_file("rx", 0600, n->dbg, n, &vlc_sim_rx_fops);
	debugfs_create_file("bursts", 0400, n->dbg, n, &vlc_sim_bursts_fops);
	debugfs_create_file("rx_lit", 0400, n->dbg, n, &vlc_sim_rx_lit_fops);
}

/* Off the medium, before the net_device is unregistered. */
static void vlc_sim_node_unlink(struct vlc_sim_node *n)
{
	struct vlc_sim_node *o;

	debugfs_remove_recursive(n->dbg);
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
	vlc_sim.dbg = debugfs_create_dir("vlc_sim", NULL);
	debugfs_create_file("edges", 0600, vlc_sim.dbg, NULL,
			    &vlc_sim_edges_fops);
	debugfs_create_file("vtime_ns", 0400, vlc_sim.dbg, NULL,
			    &vlc_sim_vtime_fops);

	vlc_sim.thread = kthread_run(vlc_sim_thread, NULL, "vlc_sim");
	if (IS_ERR(vlc_sim.thread)) {
		err = PTR_ERR(vlc_sim.thread);
		goto err_dbg;
	}
	err = rtnl_link_register(&vlc_sim_link_ops);
	if (err)
		goto err_thread;
	err = vlc_sim_add_boards();
	if (err)
		goto err_boards;
	return 0;

err_boards:
	vlc_sim_del_boards();
	rtnl_link_unregister(&vlc_sim_link_ops);
err_thread:
	kthread_stop(vlc_sim.thread);
err_dbg:
	debugfs_remove_recursive(vlc_sim.dbg);
	return err;
}

static void __exit vlc_sim_exit(void)
{
	vlc_sim_del_boards();
	rtnl_link_unregister(&vlc_sim_link_ops);
	kthread_stop(vlc_sim.thread);
	debugfs_remove_recursive(vlc_sim.dbg);
}

module_init(vlc_sim_init);
module_exit(vlc_sim_exit);

MODULE_DESCRIPTION("Simulated optical medium for VLC network devices");
MODULE_AUTHOR("linux-vlc developers");
MODULE_LICENSE("GPL");
