/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoints of the VLC driver: what each PHY frame measured and decided,
 * and the phase corrections that keep the frame grids together.
 *
 *	trace-cmd record -e vlc ip link set vlc0 up; trace-cmd report
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vlc

#if !defined(_TRACE_VLC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_VLC_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

TRACE_EVENT(vlc_phy_frame,
	TP_PROTO(const struct net_device *ndev, int sym, u32 margin,
		 bool carrier, int sync, s32 offset_ns, u32 ambient,
		 u32 signal, u32 noise, u32 flags),
	TP_ARGS(ndev, sym, margin, carrier, sync, offset_ns, ambient, signal,
		noise, flags),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(int, sym)
		__field(u32, margin)
		__field(bool, carrier)
		__field(int, sync)
		__field(s32, offset_ns)
		__field(u32, ambient)
		__field(u32, signal)
		__field(u32, noise)
		__field(u32, flags)
	),
	TP_fast_assign(
		__assign_str(dev, ndev->name);
		__entry->sym = sym;
		__entry->margin = margin;
		__entry->carrier = carrier;
		__entry->sync = sync;
		__entry->offset_ns = offset_ns;
		__entry->ambient = ambient;
		__entry->signal = signal;
		__entry->noise = noise;
		__entry->flags = flags;
	),
	TP_printk("%s sym=%d margin=%u carrier=%d sync=%d offset=%d ambient=%u signal=%u noise=%u flags=%#x",
		  __get_str(dev), __entry->sym, __entry->margin,
		  __entry->carrier, __entry->sync, __entry->offset_ns,
		  __entry->ambient, __entry->signal, __entry->noise,
		  __entry->flags)
);

TRACE_EVENT(vlc_phase,
	TP_PROTO(const struct net_device *ndev, s32 ns),
	TP_ARGS(ndev, ns),
	TP_STRUCT__entry(
		__string(dev, ndev->name)
		__field(s32, ns)
	),
	TP_fast_assign(
		__assign_str(dev, ndev->name);
		__entry->ns = ns;
	),
	TP_printk("%s move frame grid by %d ns", __get_str(dev), __entry->ns)
);

#endif /* _TRACE_VLC_H */

#include <trace/define_trace.h>
