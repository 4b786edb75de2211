/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoints of the VLC driver: what each PHY frame measured and decided,
 * the phase corrections that keep the frame grids together, and what the
 * MAC sends, receives, retries and waits for.
 *
 *	trace-cmd record -e vlc ip link set vlc0 up; trace-cmd report
 *
 * Every event names the device and the node's short address on air
 * ("vlc0/12"): simulated nodes in several namespaces may all be vlc0.
 * Include it after vlc_netdev.h (the MAC's event and its reasons).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vlc

#if !defined(_TRACE_VLC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_VLC_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

#include "vlc_compat.h"

struct vlc_phy_rx;
struct vlc_mac_event;

/* Measured slots of a frame: S1 G D1 G D2 G S2, or 4-PPM's 11. */
#define VLC_TRACE_LEVELS	11

/* vlc_phy_frame - one PHY frame decided (hard IRQ under the hrtimer)
 * @ndev: the device
 * @node: its short address
 * @start: frame start in the executor's clock (the simulator's virtual
 *	time), ns
 * @rx: the PHY's report
 * @tx: the symbol this node sent in the frame (-1: none)
 * @level: the measured slots' levels, S1 first (backend units)
 * @nlevels: their number
 */
TRACE_EVENT(vlc_phy_frame,
	TP_PROTO(const struct net_device *ndev, u8 node, u64 start,
		 const struct vlc_phy_rx *rx, int tx, const u32 *level,
		 unsigned int nlevels),
	TP_ARGS(ndev, node, start, rx, tx, level, nlevels),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(u8, node)
		__field(u64, start)
		__field(int, sym)
		__field(int, tx)
		__field(u32, margin)
		__field(bool, carrier)
		__field(bool, acquiring)
		__field(int, sync)
		__field(s32, offset_ns)
		__field(bool, coarse)
		__field(u32, ambient)
		__field(u32, signal)
		__field(u32, noise)
		__field(u32, flags)
		__field(u8, nlevels)
		__dynamic_array(u32, level,
				min_t(unsigned int, nlevels, VLC_TRACE_LEVELS))
	),
	TP_fast_assign(
		vlc_assign_str(dev, ndev->name);
		__entry->node = node;
		__entry->start = start;
		__entry->sym = rx->sym;
		__entry->tx = tx;
		__entry->margin = rx->margin;
		__entry->carrier = rx->carrier;
		__entry->acquiring = rx->acquiring;
		__entry->sync = rx->sync;
		__entry->offset_ns = rx->offset_ns;
		__entry->coarse = rx->coarse;
		__entry->ambient = rx->ambient;
		__entry->signal = rx->signal;
		__entry->noise = rx->noise;
		__entry->flags = rx->flags;
		__entry->nlevels = min_t(unsigned int, nlevels,
					 VLC_TRACE_LEVELS);
		memcpy(__get_dynamic_array(level), level,
		       __entry->nlevels * sizeof(*level));
	),
	TP_printk("%s/%u start=%llu sym=%d tx=%d margin=%u carrier=%d acq=%d sync=%d offset=%d coarse=%d ambient=%u signal=%u noise=%u flags=%#x levels=%s",
		  __get_str(dev), __entry->node, __entry->start, __entry->sym, __entry->tx,
		  __entry->margin, __entry->carrier, __entry->acquiring,
		  __entry->sync, __entry->offset_ns, __entry->coarse,
		  __entry->ambient, __entry->signal, __entry->noise,
		  __entry->flags,
		  __print_array(__get_dynamic_array(level), __entry->nlevels,
				4))
);

/* vlc_phase - the MAC moves the frame grid
 * @ndev: the device
 * @node: its short address
 * @ns: the correction, positive = later
 * @coarse: the frame's report was coarse: the move acts on it (by half,
 *	or all of it when the neighbour stood still), not on the mean of
 *	16 fine reports
 * @offset_ns: the PHY's report of the frame that triggered it
 */
TRACE_EVENT(vlc_phase,
	TP_PROTO(const struct net_device *ndev, u8 node, s32 ns, bool coarse,
		 s32 offset_ns),
	TP_ARGS(ndev, node, ns, coarse, offset_ns),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(u8, node)
		__field(s32, ns)
		__field(bool, coarse)
		__field(s32, offset_ns)
	),
	TP_fast_assign(
		vlc_assign_str(dev, ndev->name);
		__entry->node = node;
		__entry->ns = ns;
		__entry->coarse = coarse;
		__entry->offset_ns = offset_ns;
	),
	TP_printk("%s/%u move frame grid by %d ns coarse=%d offset=%d",
		  __get_str(dev), __entry->node, __entry->ns, __entry->coarse,
		  __entry->offset_ns)
);

TRACE_DEFINE_ENUM(VLC_MAC_RX_OK);
TRACE_DEFINE_ENUM(VLC_MAC_RX_CRC);
TRACE_DEFINE_ENUM(VLC_MAC_RX_NO_DELIMITER);
TRACE_DEFINE_ENUM(VLC_MAC_RX_TRUNCATED);
TRACE_DEFINE_ENUM(VLC_MAC_RX_ERASURE);
TRACE_DEFINE_ENUM(VLC_MAC_RX_BAD_HEADER);
TRACE_DEFINE_ENUM(VLC_MAC_RETRY_AGAIN);
TRACE_DEFINE_ENUM(VLC_MAC_RETRY_DROP);
TRACE_DEFINE_ENUM(VLC_MAC_NAV_SET);
TRACE_DEFINE_ENUM(VLC_MAC_NAV_CLAMPED);
TRACE_DEFINE_ENUM(VLC_MAC_NAV_RESET);

#define vlc_show_type(t)					\
	__print_symbolic(t,					\
			 { 0, "?" },				\
			 { VLC_MAC_T_DATA, "DATA" },		\
			 { VLC_MAC_T_ACK, "ACK" },		\
			 { VLC_MAC_T_RTS, "RTS" },		\
			 { VLC_MAC_T_CTS, "CTS" },		\
			 { VLC_MAC_T_BEACON, "BEACON" })

#define vlc_show_reason(r)					\
	__print_symbolic(r,					\
			 { VLC_MAC_RX_OK, "ok" },		\
			 { VLC_MAC_RX_CRC, "crc" },		\
			 { VLC_MAC_RX_NO_DELIMITER, "no_delimiter" }, \
			 { VLC_MAC_RX_TRUNCATED, "truncated" },	\
			 { VLC_MAC_RX_ERASURE, "erasure" },	\
			 { VLC_MAC_RX_BAD_HEADER, "bad_header" }, \
			 { VLC_MAC_RETRY_AGAIN, "retry" },	\
			 { VLC_MAC_RETRY_DROP, "drop" },	\
			 { VLC_MAC_NAV_SET, "set" },		\
			 { VLC_MAC_NAV_CLAMPED, "clamped" },	\
			 { VLC_MAC_NAV_RESET, "reset" })

/* A frame sent, received or given up on: addresses are short ones,
 * 255 for group frames, -1 when unknown; seq and frag are -1 but for
 * DATA and ACK.
 */
DECLARE_EVENT_CLASS(vlc_mac_frame,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(u8, node)
		__field(u8, type)
		__field(u8, reason)
		__field(u8, attempt)
		__field(int, dst)
		__field(int, src)
		__field(int, seq)
		__field(int, frag)
		__field(u16, len)
	),
	TP_fast_assign(
		vlc_assign_str(dev, ndev->name);
		__entry->node = node;
		__entry->type = ev->type;
		__entry->reason = ev->reason;
		__entry->attempt = ev->attempt;
		__entry->dst = ev->dst;
		__entry->src = ev->src;
		__entry->seq = ev->seqfrag < 0 ? -1 : ev->seqfrag >> 5;
		__entry->frag = ev->seqfrag < 0 ? -1 : ev->seqfrag & 0x1f;
		__entry->len = ev->len;
	),
	TP_printk("%s/%u %s %s src=%d dst=%d len=%u seq=%d frag=%d attempt=%u",
		  __get_str(dev), __entry->node, vlc_show_type(__entry->type),
		  vlc_show_reason(__entry->reason), __entry->src,
		  __entry->dst, __entry->len, __entry->seq, __entry->frag,
		  __entry->attempt)
);

/* A frame starts on air (reason is "ok"). */
DEFINE_EVENT(vlc_mac_frame, vlc_mac_tx,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev)
);

/* A frame ended: "ok" (good CRC, for us or not) or why it was dropped. */
DEFINE_EVENT(vlc_mac_frame, vlc_mac_rx,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev)
);

/* No ACK for a DATA, or no CTS for an RTS: "retry" or "drop". */
DEFINE_EVENT(vlc_mac_frame, vlc_mac_retry,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev)
);

TRACE_EVENT(vlc_mac_backoff,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(u8, node)
		__field(u16, backoff)
		__field(u16, cw)
	),
	TP_fast_assign(
		vlc_assign_str(dev, ndev->name);
		__entry->node = node;
		__entry->backoff = ev->value;
		__entry->cw = ev->cw;
	),
	TP_printk("%s/%u backoff=%u cw=%u", __get_str(dev), __entry->node,
		  __entry->backoff, __entry->cw)
);

/* The NAV, after an RTS or CTS between others (the vlc_mac_rx before it
 * names the frame), or released.
 */
TRACE_EVENT(vlc_mac_nav,
	TP_PROTO(const struct net_device *ndev, u8 node,
		 const struct vlc_mac_event *ev),
	TP_ARGS(ndev, node, ev),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(u8, node)
		__field(u8, reason)
		__field(u16, nav)
	),
	TP_fast_assign(
		vlc_assign_str(dev, ndev->name);
		__entry->node = node;
		__entry->reason = ev->reason;
		__entry->nav = ev->value;
	),
	TP_printk("%s/%u nav=%u %s", __get_str(dev), __entry->node,
		  __entry->nav, vlc_show_reason(__entry->reason))
);

#endif /* _TRACE_VLC_H */

/* beside the driver, as net/mac802154/trace.h */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vlc_trace
#include <trace/define_trace.h>
