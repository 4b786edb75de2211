/* SPDX-License-Identifier: GPL-2.0 */
/* Private state of one VLC net_device, shared by the netdev glue, the
 * executors and the pin backends of this directory.
 *
 * Contexts: the executor runs the PHY and the MAC (hard IRQ for the
 * hrtimer executor, a kthread otherwise) under vlc_exec_lock(). The stack
 * talks to it through two single-producer single-consumer rings, so
 * ndo_start_xmit and NAPI never take that lock:
 *
 *   ndo_start_xmit --skb ring--> executor: MAC --rx ring--> NAPI poll
 */
#ifndef _VLC_NETDEV_H
#define _VLC_NETDEV_H

#include <linux/bitmap.h>
#include <linux/if_ether.h>
#include <linux/irq_work.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/prandom.h>
#include <linux/seqlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/vlc.h>

#include "vlc_exec.h"
#include "vlc_mac.h"
#include "vlc_phy.h"

#define VLC_DRV_NAME	"vlc"

struct vlc_led;

#define VLC_TXQ_LEN	16	/* skbs between the stack and the MAC */
#define VLC_RXQ_LEN	8	/* frames between the MAC and NAPI */
#define VLC_RX_BUF	VLC_MAC_FRAME_MAX

/* Counters written by the executor only (single writer). */
struct vlc_exec_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_errors;
	u64_stats_t rx_dropped;
	struct u64_stats_sync syncp;
};

/* Counters written by NAPI only. */
struct vlc_napi_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t rx_missed;
	struct u64_stats_sync syncp;
};

/* Packets that left the device's queues (sent, failed or dropped), for
 * byte queue limits: running totals the executor writes and NAPI reports
 * to netdev_completed_queue().
 */
struct vlc_bql {
	unsigned int pkts;
	unsigned int bytes;
	unsigned int seen_pkts;		/* NAPI's */
	unsigned int seen_bytes;
};

struct vlc_rx_slot {
	u16 len;
	u8 data[VLC_RX_BUF];
};

/**
 * struct vlc_snap - what readers see of the executor's state
 * @phy: the PHY's counters
 * @mac: the MAC's counters
 * @rx: the PHY's report of the last frame
 * @mp: the MAC's settings (the executor changes its bits per symbol)
 * @nav: frames the NAV still reserves
 * @nbeacons: entries of @beacons used
 * @beacons: the neighbours heard, their age in frames (vlc_mac_beacons())
 *
 * Published once a frame under a seqcount, so that ethtool -S and
 * VLC_CMD_GET, which anybody may call, never take the executor's lock: a
 * thread executor's is a mutex that a preempted reader would hold
 * against the real-time thread.
 */
struct vlc_snap {
	struct vlc_phy_stats phy;
	struct vlc_mac_stats mac;
	struct vlc_phy_rx rx;
	struct vlc_mac_params mp;
	u16 nav;
	unsigned int nbeacons;
	struct vlc_mac_beacon beacons[VLC_MAC_BEACONS_MAX];
};

/* Events the executor hands to NAPI, in vlc_dev.events */
enum {
	VLC_EV_CARRIER,		/* the PHY's view of the carrier changed */
	VLC_EV_WAKE,		/* room in the skb ring again */
	VLC_EV_TX_DONE,		/* packets left the device (struct vlc_bql) */
	VLC_EV_STATE,		/* lock or beacons heard changed: tell netlink */
};

/**
 * struct vlc_notify - what the events group was last told
 * @acquiring: the executor's view, to raise VLC_EV_STATE
 * @rx_beacons: the MAC's beacon count, likewise
 * @locked: NAPI's, to send VLC_EVENT_LOCK and UNLOCK once each
 * @neigh: NAPI's, the neighbours in the beacon table
 */
struct vlc_notify {
	bool acquiring;
	u64 rx_beacons;
	bool locked;
	DECLARE_BITMAP(neigh, 256);
};

/**
 * struct vlc_dev - netdev_priv() of every VLC net_device
 * @ndev: the net_device this is the private part of
 * @exec: what runs the PHY; its lock protects @phy and @mac
 * @phy: the frame engine
 * @mac: the MAC state machine
 * @napi: delivers received frames and carrier changes in softirq context
 * @kick: schedules @napi from hard IRQ for executors that run elsewhere
 * @acq_work: runs the PHY's acquisition search in process context, for
 *	the hrtimer and thread executors (see vlc_phy_acq_begin())
 * @fec: the Reed-Solomon codecs, made at ndo_open, freed at ndo_stop
 * @fec_hdr: the codecs that decode coded headers in the tick while
 *	@fec_work decodes a body with @fec; made and freed with it
 * @fec_work: decodes a coded frame in process context, for the hrtimer
 *	and thread executors (see vlc_mac_fec_begin())
 * @timeout_work: flushes the MAC when the stack's transmit watchdog
 *	fires
 * @txq: skbs from ndo_start_xmit to the executor
 * @txq_head: next free entry, written by ndo_start_xmit
 * @txq_tail: next entry to take, written by the executor
 * @rxq: frames from the MAC to NAPI
 * @rxq_head: written by the executor
 * @rxq_tail: written by NAPI
 * @events: VLC_EV_* bits, set by the executor, cleared by NAPI
 * @carrier: the executor's view of the carrier (a neighbour is seen)
 * @xstats: counters written in executor context
 * @nstats: counters written in NAPI context
 * @tx_dropped: packets dropped before reaching the MAC; while the
 *	executor sees no carrier, all of them
 * @bql: byte queue limits: what left the skb ring and the MAC
 * @left_ns: when a packet last left the device, on the executor's clock
 * @hold_ns: the longest a packet may keep the MAC; the transmit
 *	watchdog fires past it
 * @snap_seq: orders @snap for readers; its writers hold the executor's
 *	lock and run with interrupts off
 * @snap: the executor's state for readers, vlc_dev_read_snap()
 * @notify: what the events group of the netlink family was told
 * @snap_napi: NAPI's copy of @snap, too big for its stack
 * @bus_info: what ethtool -i prints as bus-info (backend name)
 * @led: the LED class device (vlc_led.c), or NULL; RTNL protects it
 * @brightness: the PHY's brightness as last set, vlc_dev_brightness()
 * @rnd: the MAC's random numbers (backoffs), executor context; seeded
 *	when attached. get_random_u32() takes locks that sleep on
 *	PREEMPT_RT, so the hard-IRQ tick never calls it.
 * @random: replaces @rnd when set. The simulator seeds its own, to
 *	replay runs.
 */
struct vlc_dev {
	struct net_device *ndev;
	struct vlc_exec exec;
	struct vlc_phy phy;
	struct vlc_mac mac;
	struct napi_struct napi;
	struct irq_work kick;
	struct work_struct acq_work;
	struct vlc_fec fec;
	struct vlc_fec fec_hdr;
	struct work_struct fec_work;
	struct work_struct timeout_work;

	struct sk_buff *txq[VLC_TXQ_LEN];
	unsigned int txq_head;
	unsigned int txq_tail;

	struct vlc_rx_slot rxq[VLC_RXQ_LEN];
	unsigned int rxq_head;
	unsigned int rxq_tail;

	unsigned long events;
	bool carrier;

	struct vlc_exec_stats xstats;
	struct vlc_napi_stats nstats;
	atomic64_t tx_dropped;
	struct vlc_bql bql;
	u64 left_ns;
	u64 hold_ns;
	seqcount_t snap_seq;
	struct vlc_snap snap;
	struct vlc_notify notify;
	struct vlc_snap snap_napi;
	const char *bus_info;
	struct vlc_led *led;
	u32 brightness;
	struct rnd_state rnd;
	u32 (*random)(struct vlc_dev *vd);
};

extern const struct ethtool_ops vlc_ethtool_ops;

/* What a device tells the listeners of its events (an enum vlc_event):
 * lock, carrier and neighbours.
 */
struct vlc_dev_event_info {
	struct net_device *ndev;
	int neigh;		/* the neighbour's short address, or -1 */
};

/* Between vlc_dev.c and vlc_netdev.c: the snapshot published under the
 * executor's lock, the MAC's short address from the device's, and the
 * NAPI poll the device is attached with.
 */
void vlc_dev_publish(struct vlc_dev *vd);
void vlc_dev_sync_short_addr(struct vlc_dev *vd);
int vlc_napi_poll(struct napi_struct *napi, int budget);

int vlc_dev_register_notifier(struct notifier_block *nb);
void vlc_dev_unregister_notifier(struct notifier_block *nb);

void vlc_netdev_setup(struct net_device *ndev);
bool vlc_netdev_is_vlc(const struct net_device *ndev);
int vlc_dev_attach(struct vlc_dev *vd, const struct vlc_pin_ops *pins,
		   void *pin_ctx, enum vlc_exec_kind kind);
u64 vlc_dev_run(void *ctx, u64 now_ns);
int vlc_dev_set_pins(struct vlc_dev *vd, const struct vlc_pin_ops *pins);
void vlc_dev_set_rx_min_level(struct vlc_dev *vd, u32 level);
void vlc_dev_get_phy_config(struct vlc_dev *vd, struct vlc_phy_timing *t,
			    enum vlc_phy_mode *mode, u32 *brightness);
u32 vlc_dev_brightness(struct vlc_dev *vd);
int vlc_dev_set_phy_config(struct vlc_dev *vd, const struct vlc_phy_timing *t,
			   enum vlc_phy_mode mode, u32 brightness,
			   enum vlc_refusal *why);
void vlc_dev_get_mac_params(struct vlc_dev *vd, struct vlc_mac_params *p);
void vlc_dev_read_snap(struct vlc_dev *vd, struct vlc_snap *s);
int vlc_dev_set_mac_params(struct vlc_dev *vd, const struct vlc_mac_params *p,
			   enum vlc_refusal *why);

/* vlc_led.c: where the LED core is (Kconfig: VLC depends on it or on
 * its absence, so it is never a module for a built-in vlc).
 */
#if IS_ENABLED(CONFIG_LEDS_CLASS)
int vlc_led_init(void);
void vlc_led_exit(void);
void vlc_led_update_max(struct vlc_dev *vd);
#else
static inline int vlc_led_init(void) { return 0; }
static inline void vlc_led_exit(void) { }
static inline void vlc_led_update_max(struct vlc_dev *vd) { }
#endif

#endif /* _VLC_NETDEV_H */
