/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_lossless tracepoints: PFC frames sent and received.
 *
 *   lossless:lossless_xoff_sent   an XOFF (or its refresh) left a port
 *   lossless:lossless_xon_sent    an XON left a port
 *   lossless:lossless_pause_rx    a PFC frame from the peer paused or
 *                                 resumed lossless priorities of a port
 *   lossless:lossless_wd_detected the PFC watchdog found a class stuck in
 *                                 pause and applies its action
 *   lossless:lossless_wd_restored the class obeys PFC again
 *   lossless:lossless_wd_pfc_off  the limit was reached: PFC is off for
 *                                 the class's priorities on the port
 *
 * "prios" is a bitmap of 802.1Q priorities; "action" is enum
 * tc_lossless_pfcwd_action (0 drop, 1 forward, 2 alert).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lossless

#if !defined(_SCH_LOSSLESS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCH_LOSSLESS_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(lossless_pfc_tx,
		    TP_PROTO(const struct net_device *dev, u8 prios, u16 quanta),
		    TP_ARGS(dev, prios, quanta),
		    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
				     __field(u8, prios)
				     __field(u16, quanta)),
		    TP_fast_assign(strscpy(__entry->dev, dev->name, IFNAMSIZ);
				   __entry->prios = prios;
				   __entry->quanta = quanta;),
		    TP_printk("dev=%s prios=0x%02x quanta=%u",
			      __entry->dev, __entry->prios, __entry->quanta)
);

DEFINE_EVENT(lossless_pfc_tx, lossless_xoff_sent,
	     TP_PROTO(const struct net_device *dev, u8 prios, u16 quanta),
	     TP_ARGS(dev, prios, quanta)
);

DEFINE_EVENT(lossless_pfc_tx, lossless_xon_sent,
	     TP_PROTO(const struct net_device *dev, u8 prios, u16 quanta),
	     TP_ARGS(dev, prios, quanta)
);

TRACE_EVENT(lossless_pause_rx,
	    TP_PROTO(const struct net_device *dev, u8 prios, const u16 *quanta),
	    TP_ARGS(dev, prios, quanta),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u8, prios)
			     __array(u16, quanta, 8)),
	    TP_fast_assign(strscpy(__entry->dev, dev->name, IFNAMSIZ);
			   __entry->prios = prios;
			   memcpy(__entry->quanta, quanta, sizeof(__entry->quanta));),
	    TP_printk("dev=%s prios=0x%02x quanta=%u,%u,%u,%u,%u,%u,%u,%u",
		      __entry->dev, __entry->prios,
		      __entry->quanta[0], __entry->quanta[1], __entry->quanta[2],
		      __entry->quanta[3], __entry->quanta[4], __entry->quanta[5],
		      __entry->quanta[6], __entry->quanta[7])
);

DECLARE_EVENT_CLASS(lossless_wd,
		    TP_PROTO(const struct net_device *dev, int tc, u8 prios, u8 action),
		    TP_ARGS(dev, tc, prios, action),
		    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
				     __field(int, tc)
				     __field(u8, prios)
				     __field(u8, action)),
		    TP_fast_assign(strscpy(__entry->dev, dev->name, IFNAMSIZ);
				   __entry->tc = tc;
				   __entry->prios = prios;
				   __entry->action = action;),
		    TP_printk("dev=%s tc=%d prios=0x%02x action=%u",
			      __entry->dev, __entry->tc, __entry->prios, __entry->action)
);

DEFINE_EVENT(lossless_wd, lossless_wd_detected,
	     TP_PROTO(const struct net_device *dev, int tc, u8 prios, u8 action),
	     TP_ARGS(dev, tc, prios, action)
);

DEFINE_EVENT(lossless_wd, lossless_wd_restored,
	     TP_PROTO(const struct net_device *dev, int tc, u8 prios, u8 action),
	     TP_ARGS(dev, tc, prios, action)
);

DEFINE_EVENT(lossless_wd, lossless_wd_pfc_off,
	     TP_PROTO(const struct net_device *dev, int tc, u8 prios, u8 action),
	     TP_ARGS(dev, tc, prios, action)
);

#endif /* _SCH_LOSSLESS_TRACE_H */

/* This part must be outside the include guard */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lossless_trace
#include <trace/define_trace.h>
