// SPDX-License-Identifier: GPL-2.0
/* VLC device: the PHY's and the MAC's client, the executor's run
 * function, the snapshot NAPI reads, the work items the tick hands its
 * heavy parts to, and the configuration API of the backends and of
 * netlink. vlc_netdev.c is the net_device around it.
 *
 * Context map (see vlc_netdev.h): the executor's side runs under
 * vlc_exec_lock(); ndo_start_xmit and NAPI meet it in two SPSC rings.
 */

#include <linux/etherdevice.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <uapi/linux/vlc.h>

#include "vlc_compat.h"
#include "vlc_netdev.h"

#define CREATE_TRACE_POINTS
#include "vlc_trace.h"

/* ---- executor context: runs under vlc_exec_lock() ---- */

/* The executor's lock orders the writers of xstats; the thread and
 * simulator executors hold a mutex, preemptible, and a 32-bit writer must
 * not be preempted inside the seqcount: the _irqsave variants.
 */
static void vlc_xstats_add(struct vlc_dev *vd, u64_stats_t *ctr, u64 v)
{
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&vd->xstats.syncp);
	u64_stats_add(ctr, v);
	u64_stats_update_end_irqrestore(&vd->xstats.syncp, flags);
}

/* NAPI has work. From hard IRQ (the hrtimer executor) its softirq runs
 * as the interrupt exits. Anywhere else (a thread executor, a work item,
 * the simulator's thread, process context under the executor's lock) a
 * softirq raised there would wait for the next interrupt, and a
 * bottom-half section cannot be wrapped around a lock that sleeps nor
 * opened under one that spins: a hard irq_work schedules NAPI instead.
 */
static void vlc_dev_kick(struct vlc_dev *vd)
{
	if (in_hardirq())
		napi_schedule(&vd->napi);
	else
		irq_work_queue(&vd->kick);
}

static void vlc_dev_kick_fn(struct irq_work *work)
{
	struct vlc_dev *vd = container_of(work, struct vlc_dev, kick);

	napi_schedule(&vd->napi);
}

static void vlc_dev_event(struct vlc_dev *vd, int ev)
{
	/* What the event announces (vd->carrier) must be visible before its
	 * bit; NAPI's test_and_clear_bit() orders its reads after the bit.
	 */
	smp_mb__before_atomic();
	set_bit(ev, &vd->events);
	vlc_dev_kick(vd);
}

/* A packet of @len bytes left the device: BQL hears of it in NAPI. */
static void vlc_dev_tx_left(struct vlc_dev *vd, unsigned int len)
{
	vd->left_ns = vlc_exec_now(&vd->exec);
	WRITE_ONCE(vd->bql.pkts, vd->bql.pkts + 1);
	WRITE_ONCE(vd->bql.bytes, vd->bql.bytes + len);
	vlc_dev_event(vd, VLC_EV_TX_DONE);
}

/* Move skbs from the stack's ring into the MAC while it has room. With
 * no carrier there is nobody to send to: they are dropped, not kept to
 * go out stale when a neighbour comes back.
 */
static void vlc_dev_feed_mac(struct vlc_dev *vd)
{
	unsigned int tail = vd->txq_tail;
	bool took = false;

	/* acquire: pairs with the release in ndo_start_xmit */
	while (tail != smp_load_acquire(&vd->txq_head) &&
	       (!vd->carrier || !vlc_mac_tx_full(&vd->mac))) {
		struct sk_buff *skb = vd->txq[tail % VLC_TXQ_LEN];

		if (!vd->carrier ||
		    vlc_mac_xmit(&vd->mac, skb->data, skb->len)) {
			atomic64_inc(&vd->tx_dropped);
			vlc_dev_tx_left(vd, skb->len);
		}
		dev_consume_skb_any(skb);
		tail++;
		took = true;
	}
	if (took) {
		/* release: the slots are free once the skbs are consumed */
		smp_store_release(&vd->txq_tail, tail);
		vlc_dev_event(vd, VLC_EV_WAKE);
	}
}

static int vlc_dev_tx_symbol(void *ctx)
{
	struct vlc_dev *vd = ctx;

	vlc_dev_feed_mac(vd);
	return vlc_mac_tx_symbol(&vd->mac);
}

/* Under the executor's lock: readers see this frame's state. */
void vlc_dev_publish(struct vlc_dev *vd)
{
	struct vlc_snap *s = &vd->snap;
	unsigned long flags;

	/* A writer preempted or interrupted inside would keep the readers
	 * spinning; and the hrtimer executor writes from hard IRQ, so every
	 * writer runs as it does, for lockdep's one class of seqcount.
	 */
	local_irq_save(flags);
	write_seqcount_begin(&vd->snap_seq);
	s->phy = *vlc_phy_get_stats(&vd->phy);
	s->mac = *vlc_mac_get_stats(&vd->mac);
	s->rx = *vlc_phy_get_last_rx(&vd->phy);
	s->mp = *vlc_mac_get_params(&vd->mac);
	s->nav = vlc_mac_nav_frames(&vd->mac);
	s->nbeacons = vlc_mac_beacons(&vd->mac, s->beacons,
				      ARRAY_SIZE(s->beacons));
	write_seqcount_end(&vd->snap_seq);
	local_irq_restore(flags);
}

/**
 * vlc_dev_read_snap - the executor's state as of its last frame
 * @vd: VLC device
 * @s: filled with it
 *
 * Context: any; never waits for the executor.
 */
void vlc_dev_read_snap(struct vlc_dev *vd, struct vlc_snap *s)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&vd->snap_seq);
		*s = vd->snap;
	} while (read_seqcount_retry(&vd->snap_seq, seq));
}

static void vlc_dev_rx_frame(void *ctx, const struct vlc_phy_rx *rx)
{
	struct vlc_dev *vd = ctx;
	bool carrier = rx->sync != VLC_PHY_SYNC_NONE;
	const u32 *level;
	unsigned int nmeas;

	/* A late frame was not decoded: it tells nothing of the neighbours,
	 * and a carrier lost would flush every packet queued for them.
	 */
	if (rx->flags & (VLC_PHY_RX_LATE | VLC_PHY_RX_OVERRUN))
		carrier = vd->carrier;

	/* The levels the decision was made on are still in the PHY's
	 * slot table (S1 first); read, never written, under our lock.
	 */
	level = vlc_phy_frame_levels(&vd->phy, &nmeas);
	trace_vlc_phy_frame(vd->ndev, vlc_mac_get_params(&vd->mac)->short_addr,
			    vlc_phy_frame_start(&vd->phy), rx,
			    vlc_phy_frame_tx_sym(&vd->phy), level, nmeas);
	vlc_mac_rx_frame(&vd->mac, rx);
	if (carrier != vd->carrier) {
		WRITE_ONCE(vd->carrier, carrier);
		vlc_dev_event(vd, VLC_EV_CARRIER);
		/* The packets queued for the lost neighbours go now, counted
		 * as failed (the MAC's) and dropped (the ring's).
		 */
		if (!carrier) {
			vlc_mac_flush(&vd->mac);
			vlc_dev_feed_mac(vd);
		}
	}
	vlc_dev_publish(vd);
	if (rx->acquiring != vd->notify.acquiring ||
	    vlc_mac_get_stats(&vd->mac)->rx_beacons != vd->notify.rx_beacons) {
		vd->notify.acquiring = rx->acquiring;
		vd->notify.rx_beacons = vlc_mac_get_stats(&vd->mac)->rx_beacons;
		vlc_dev_event(vd, VLC_EV_STATE);
	}
}

static bool vlc_dev_set_bits(void *ctx, unsigned int bits)
{
	struct vlc_dev *vd = ctx;

	return vlc_mac_set_bits(&vd->mac, bits);
}

static const struct vlc_phy_client_ops vlc_dev_phy_client = {
	.tx_symbol	= vlc_dev_tx_symbol,
	.rx_frame	= vlc_dev_rx_frame,
	.set_bits	= vlc_dev_set_bits,
};

static void vlc_dev_deliver(void *ctx, const u8 *frame, unsigned int len)
{
	struct vlc_dev *vd = ctx;
	unsigned int head = vd->rxq_head, tail;
	struct vlc_rx_slot *slot;

	/* acquire: the slot NAPI released is free to overwrite */
	tail = smp_load_acquire(&vd->rxq_tail);
	if (len > VLC_RX_BUF || head - tail >= VLC_RXQ_LEN) {
		vlc_xstats_add(vd, &vd->xstats.rx_dropped, 1);
		return;
	}
	slot = &vd->rxq[head % VLC_RXQ_LEN];
	memcpy(slot->data, frame, len);
	slot->len = len;
	/* release: NAPI sees the slot filled before the new head */
	smp_store_release(&vd->rxq_head, head + 1);
	vlc_dev_kick(vd);
}

static void vlc_dev_tx_done(void *ctx, unsigned int len, bool ok)
{
	struct vlc_dev *vd = ctx;
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&vd->xstats.syncp);
	if (ok) {
		u64_stats_inc(&vd->xstats.tx_packets);
		u64_stats_add(&vd->xstats.tx_bytes, len);
	} else {
		u64_stats_inc(&vd->xstats.tx_errors);
	}
	u64_stats_update_end_irqrestore(&vd->xstats.syncp, flags);
	vlc_dev_tx_left(vd, len);
}

static void vlc_dev_phase(void *ctx, s32 ns)
{
	struct vlc_dev *vd = ctx;
	/* Called from vlc_mac_rx_frame(): last_rx is the frame's report. */
	const struct vlc_phy_rx *rx = vlc_phy_get_last_rx(&vd->phy);

	trace_vlc_phase(vd->ndev, vlc_mac_get_params(&vd->mac)->short_addr, ns,
			rx->coarse, rx->offset_ns);
	vlc_phy_adjust_phase(&vd->phy, ns);
}

static u32 vlc_dev_random(void *ctx)
{
	struct vlc_dev *vd = ctx;

	return vd->random ? vd->random(vd) : prandom_u32_state(&vd->rnd);
}

/* The MAC's events become tracepoints (cheap no-ops while disabled). */
static void vlc_dev_mac_event(void *ctx, const struct vlc_mac_event *ev)
{
	struct vlc_dev *vd = ctx;
	u8 node = vlc_mac_get_params(&vd->mac)->short_addr;

	switch (ev->kind) {
	case VLC_MAC_EV_TX:
		trace_vlc_mac_tx(vd->ndev, node, ev);
		break;
	case VLC_MAC_EV_RX:
		trace_vlc_mac_rx(vd->ndev, node, ev);
		break;
	case VLC_MAC_EV_RETRY:
		trace_vlc_mac_retry(vd->ndev, node, ev);
		break;
	case VLC_MAC_EV_BACKOFF:
		trace_vlc_mac_backoff(vd->ndev, node, ev);
		break;
	case VLC_MAC_EV_NAV:
		trace_vlc_mac_nav(vd->ndev, node, ev);
		break;
	}
}

static const struct vlc_mac_ops vlc_dev_mac_ops = {
	.deliver	= vlc_dev_deliver,
	.tx_done	= vlc_dev_tx_done,
	.phase		= vlc_dev_phase,
	.random		= vlc_dev_random,
	.event		= vlc_dev_mac_event,
};

/**
 * vlc_dev_run - the executor's run function: one slot boundary
 * @ctx: the struct vlc_dev
 * @now_ns: the time the executor really runs (CLOCK_MONOTONIC, or the
 *	simulator's virtual clock)
 *
 * Context: under vlc_exec_lock(); hard IRQ for the hrtimer executor.
 * Return: absolute time of the next boundary.
 */
u64 vlc_dev_run(void *ctx, u64 now_ns)
{
	struct vlc_dev *vd = ctx;

	u64 next;

	vlc_exec_assert_held(&vd->exec);
	next = vlc_phy_tick(&vd->phy, now_ns);
	if (vlc_phy_acq_pending(&vd->phy))
		queue_work(system_dfl_wq, &vd->acq_work);
	if (vlc_mac_fec_pending(&vd->mac))
		queue_work(system_highpri_wq, &vd->fec_work);
	return next;
}
EXPORT_SYMBOL_GPL(vlc_dev_run);

/* ---- process context: the acquisition search ---- */

/* About a million instructions per searched frame: too much for a tick,
 * so the tick captures and this work item searches, on any CPU, while
 * the ticks go on. Frames captured meanwhile are skipped.
 */
static void vlc_dev_acq_work(struct work_struct *work)
{
	struct vlc_dev *vd = container_of(work, struct vlc_dev, acq_work);
	unsigned long flags;
	bool taken;

	flags = vlc_exec_lock(&vd->exec);
	taken = vlc_phy_acq_begin(&vd->phy);
	vlc_exec_unlock(&vd->exec, flags);
	if (!taken)
		return;
	vlc_phy_acq_search(&vd->phy);
	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_acq_end(&vd->phy);
	vlc_exec_unlock(&vd->exec, flags);
}

/* ---- process context: the Reed-Solomon decode ---- */

/* Far heavier than a slot (vlc-benchmarks.rst, "FEC cost"): the tick
 * completes a coded frame, this work item decodes it without the lock
 * while the ticks go on, and hands it back to the MAC, which delivers
 * and acknowledges it. Its ACK is due SIFS after the frame: a high
 * priority worker.
 */
static void vlc_dev_fec_work(struct work_struct *work)
{
	struct vlc_dev *vd = container_of(work, struct vlc_dev, fec_work);
	unsigned long flags;
	bool taken;

	flags = vlc_exec_lock(&vd->exec);
	taken = vlc_mac_fec_begin(&vd->mac);
	vlc_exec_unlock(&vd->exec, flags);
	if (!taken)
		return;
	vlc_mac_fec_decode(&vd->mac);
	flags = vlc_exec_lock(&vd->exec);
	vlc_mac_fec_end(&vd->mac);
	vlc_exec_unlock(&vd->exec, flags);
}

/* ---- process context: the stack's transmit watchdog ---- */

/* The longest a packet may keep the MAC is @hold frames of @frame_ns at
 * the settings in use. The watchdog fires a second past it, and never
 * before the stack's default of 5 s (nor after a day).
 */
static void vlc_dev_watchdog_set(struct vlc_dev *vd, u32 hold, u32 frame_ns)
{
	u64 ns = (u64)hold * frame_ns + NSEC_PER_SEC;

	ns = clamp_t(u64, ns, 5ULL * NSEC_PER_SEC,
		     24ULL * 3600 * NSEC_PER_SEC);
	WRITE_ONCE(vd->hold_ns, ns);
	WRITE_ONCE(vd->ndev->watchdog_timeo,
		   msecs_to_jiffies(div_u64(ns, NSEC_PER_MSEC)));
}

/* The queue stayed stopped past the watchdog. If no packet has left the
 * MAC for as long on the executor's own clock either (a simulator's runs
 * slower than the wall's under load), the medium is jammed: what the MAC
 * holds is stale and goes, counted as failed, and the skb ring moves on
 * into the MAC. The stack counts the timeout (queues/tx-0/tx_timeout)
 * and logs it.
 */
static void vlc_dev_timeout_work(struct work_struct *work)
{
	struct vlc_dev *vd = container_of(work, struct vlc_dev, timeout_work);
	unsigned long flags;

	flags = vlc_exec_lock(&vd->exec);
	if (vlc_exec_now(&vd->exec) - vd->left_ns >= READ_ONCE(vd->hold_ns)) {
		vlc_mac_flush(&vd->mac);
		vlc_dev_feed_mac(vd);
	}
	vlc_exec_unlock(&vd->exec, flags);
}

/* ---- configuration: the backends and netlink ---- */

/* The MAC's short address follows the Ethernet address when that has the
 * compressible form 02:56:4c:43:00:XX; any other address keeps the short
 * address it had, which then only names this node in ACKs.
 */
void vlc_dev_sync_short_addr(struct vlc_dev *vd)
{
	int sa = vlc_mac_short_addr(vd->ndev->dev_addr);
	struct vlc_mac_params p;
	unsigned long flags;

	if (sa < 0 || sa == VLC_MAC_BCAST)
		return;
	flags = vlc_exec_lock(&vd->exec);
	p = *vlc_mac_get_params(&vd->mac);
	p.short_addr = sa;
	vlc_mac_set_params(&vd->mac, &p, NULL);
	vlc_dev_publish(vd);
	vlc_exec_unlock(&vd->exec, flags);
}

/**
 * vlc_dev_attach - bind a VLC device to its pins and executor
 * @vd: private part of a device set up by vlc_netdev_setup()
 * @pins: pin operations of the backend
 * @pin_ctx: passed to @pins
 * @kind: executor; pins that can sleep are never run from an hrtimer
 *
 * Context: process context, before register_netdevice().
 * Return: 0, or -EINVAL if @kind cannot drive @pins.
 */
int vlc_dev_attach(struct vlc_dev *vd, const struct vlc_pin_ops *pins,
		   void *pin_ctx, enum vlc_exec_kind kind)
{
	struct vlc_mac_params mp;
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;

	if (pins->can_sleep && kind == VLC_EXEC_HRTIMER) {
		netdev_err(vd->ndev, "pins can sleep: hrtimer executor refused\n");
		return -EINVAL;
	}
	/* the name array, read when the thread starts: not registered yet,
	 * netdev_name() would give "(unnamed net_device)" for good
	 */
	vlc_exec_init(&vd->exec, kind, vlc_dev_run, vd, vd->ndev->name);
	vlc_phy_init(&vd->phy, pins, pin_ctx, &vlc_dev_phy_client, vd);
	vlc_phy_get_config(&vd->phy, &t, &mode, &vd->brightness);
	/* the simulator runs the search in virtual time, deterministically */
	vlc_phy_set_acq_defer(&vd->phy, kind != VLC_EXEC_EXTERNAL);
	INIT_WORK(&vd->acq_work, vlc_dev_acq_work);
	INIT_WORK(&vd->fec_work, vlc_dev_fec_work);
	INIT_WORK(&vd->timeout_work, vlc_dev_timeout_work);
	vd->kick = IRQ_WORK_INIT_HARD(vlc_dev_kick_fn);
	prandom_seed_state(&vd->rnd, get_random_u64());
	seqcount_init(&vd->snap_seq);
	vlc_mac_default_params(&mp);
	vlc_mac_init(&vd->mac, &mp, &vlc_dev_mac_ops, vd);
	vlc_dev_watchdog_set(vd, vlc_mac_hold_max(&vd->mac), t.frame_ns);
	vlc_dev_sync_short_addr(vd);
	vlc_dev_publish(vd);
	netif_napi_add(vd->ndev, &vd->napi, vlc_napi_poll);
	return 0;
}
EXPORT_SYMBOL_GPL(vlc_dev_attach);

/**
 * vlc_dev_set_pins - swap the pin operations of a device that is down
 * @vd: VLC device
 * @pins: new pin operations, same context as before
 *
 * Context: process context, RTNL held. Return: 0, -EBUSY while the
 * interface is up, or -EINVAL if the executor cannot drive @pins.
 */
int vlc_dev_set_pins(struct vlc_dev *vd, const struct vlc_pin_ops *pins)
{
	unsigned long flags;

	ASSERT_RTNL();
	if (netif_running(vd->ndev))
		return -EBUSY;
	if (pins->can_sleep && vd->exec.kind == VLC_EXEC_HRTIMER)
		return -EINVAL;
	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_set_pins(&vd->phy, pins);
	vlc_exec_unlock(&vd->exec, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(vlc_dev_set_pins);

/**
 * vlc_dev_set_rx_min_level - tell the PHY the backend's light scale
 * @vd: VLC device
 * @level: smallest level above ambient that can be a lit slot
 */
void vlc_dev_set_rx_min_level(struct vlc_dev *vd, u32 level)
{
	unsigned long flags;

	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_set_rx_min_level(&vd->phy, level);
	vlc_exec_unlock(&vd->exec, flags);
}
EXPORT_SYMBOL_GPL(vlc_dev_set_rx_min_level);

/**
 * vlc_dev_get_phy_config - the PHY settings the next frame will use
 * @vd: VLC device
 * @t: slot timing
 * @mode: 2-slot or 4-PPM
 * @brightness: per-mille
 */
void vlc_dev_get_phy_config(struct vlc_dev *vd, struct vlc_phy_timing *t,
			    enum vlc_phy_mode *mode, u32 *brightness)
{
	unsigned long flags;

	flags = vlc_exec_lock(&vd->exec);
	vlc_phy_get_config(&vd->phy, t, mode, brightness);
	vlc_exec_unlock(&vd->exec, flags);
}
EXPORT_SYMBOL_GPL(vlc_dev_get_phy_config);

/**
 * vlc_dev_set_phy_config - check and apply PHY settings together
 * @vd: VLC device
 * @t: slot timing
 * @mode: 2-slot or 4-PPM
 * @brightness: per-mille
 * @why: set to the refusal, naming the bad value; or NULL
 *
 * Besides the PHY's checks, the hrtimer and thread executors refuse frames
 * and slots shorter than VLC_EXEC_FRAME_NS_MIN and VLC_EXEC_SLOT_NS_MIN.
 *
 * Context: process context; RTNL held once the device is registered
 * (max_brightness of its LED follows). Return: 0, or -EINVAL with nothing
 * changed.
 */
int vlc_dev_set_phy_config(struct vlc_dev *vd, const struct vlc_phy_timing *t,
			   enum vlc_phy_mode mode, u32 brightness,
			   enum vlc_refusal *why)
{
	unsigned long flags;
	u32 hold;
	int ret;

	ret = vlc_exec_check_timing(vd->exec.kind, t->frame_ns, t->sync_ns,
				    t->guard_ns, t->data_ns, why);
	if (ret)
		return ret;
	/* The MAC takes the new mode's symbols when the PHY does, at a frame
	 * start with none of its frames on air (vlc_dev_set_bits()).
	 */
	flags = vlc_exec_lock(&vd->exec);
	ret = vlc_phy_set_config(&vd->phy, t, mode, brightness, why);
	hold = vlc_mac_hold_max(&vd->mac);
	vlc_exec_unlock(&vd->exec, flags);
	if (!ret) {
		WRITE_ONCE(vd->brightness, brightness);
		vlc_dev_watchdog_set(vd, hold, t->frame_ns);
		vlc_led_update_max(vd);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(vlc_dev_set_phy_config);

/**
 * vlc_dev_brightness - the brightness set last, for anybody to read
 * @vd: VLC device
 *
 * Context: any; never takes the executor's lock, which a thread
 * executor's mutex would let any reader hold against it.
 */
u32 vlc_dev_brightness(struct vlc_dev *vd)
{
	return READ_ONCE(vd->brightness);
}

/**
 * vlc_dev_get_mac_params - the MAC settings in use
 * @vd: VLC device
 * @p: filled with them
 */
void vlc_dev_get_mac_params(struct vlc_dev *vd, struct vlc_mac_params *p)
{
	unsigned long flags;

	flags = vlc_exec_lock(&vd->exec);
	*p = *vlc_mac_get_params(&vd->mac);
	vlc_exec_unlock(&vd->exec, flags);
}

/**
 * vlc_dev_set_mac_params - check and apply MAC settings together
 * @vd: VLC device
 * @p: new settings; @p->short_addr and @p->bits_per_symbol are ignored:
 *	they follow the Ethernet address and the PHY mode, whatever was
 *	read before
 * @why: set to the refusal, naming the bad field; or NULL
 *
 * A frame already on air finishes as it started.
 * Context: process context. Return: 0, or -EINVAL with nothing changed.
 */
int vlc_dev_set_mac_params(struct vlc_dev *vd, const struct vlc_mac_params *p,
			   enum vlc_refusal *why)
{
	struct vlc_mac_params np = *p;
	struct vlc_phy_timing t;
	enum vlc_phy_mode mode;
	unsigned long flags;
	u32 hold, b;
	int ret;

	flags = vlc_exec_lock(&vd->exec);
	np.short_addr = vlc_mac_get_params(&vd->mac)->short_addr;
	np.bits_per_symbol = vlc_mac_get_params(&vd->mac)->bits_per_symbol;
	ret = vlc_mac_set_params(&vd->mac, &np, why);
	vlc_dev_publish(vd);
	hold = vlc_mac_hold_max(&vd->mac);
	vlc_phy_get_config(&vd->phy, &t, &mode, &b);
	vlc_exec_unlock(&vd->exec, flags);
	if (!ret)
		vlc_dev_watchdog_set(vd, hold, t.frame_ns);
	return ret;
}
