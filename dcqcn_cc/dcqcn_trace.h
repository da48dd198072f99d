/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcqcn_cc tracepoints:
 *
 *   dcqcn:dcqcn_cnp_sent     the notification point sent a CNP for a QP
 *   dcqcn:dcqcn_cnp_handled  a CNP came for a QP with a reaction point;
 *                            "cut" says whether it cut the rate (not
 *                            within rate_reduce_monitor_period)
 *   dcqcn:dcqcn_rate         a QP's current rate changed (a cut or an
 *                            increase event)
 *
 * A QP is shown as its device, the peer's address (IPv6, or IPv4-mapped:
 * ::ffff:192.0.2.1) and its UDP source port; rates in bit/s, alpha in 1/1024ths, stage as enum
 * tc_lossless_dcqcn_stage (0 line, 1 fast recovery, 2 additive, 3 hyper).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dcqcn

#if !defined(_DCQCN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DCQCN_TRACE_H

#include <linux/in6.h>
#include <linux/tracepoint.h>

TRACE_EVENT(dcqcn_cnp_sent,
	    TP_PROTO(int ifindex, const struct in6_addr *peer, u16 sport, u32 dest_qp),
	    TP_ARGS(ifindex, peer, sport, dest_qp),
	    TP_STRUCT__entry(__field(int, ifindex)
			     __array(u8, peer, 16)
			     __field(u16, sport)
			     __field(u32, dest_qp)),
	    TP_fast_assign(__entry->ifindex = ifindex;
			   memcpy(__entry->peer, peer, 16);
			   __entry->sport = sport;
			   __entry->dest_qp = dest_qp;),
	    TP_printk("ifindex=%d peer=%pI6c sport=%u dest_qp=%u",
		      __entry->ifindex, __entry->peer, __entry->sport, __entry->dest_qp)
);

TRACE_EVENT(dcqcn_cnp_handled,
	    TP_PROTO(int ifindex, const struct in6_addr *peer, u16 sport, bool cut, u64 rc,
		     u64 rt, u32 alpha),
	    TP_ARGS(ifindex, peer, sport, cut, rc, rt, alpha),
	    TP_STRUCT__entry(__field(int, ifindex)
			     __array(u8, peer, 16)
			     __field(u16, sport)
			     __field(bool, cut)
			     __field(u64, rc)
			     __field(u64, rt)
			     __field(u32, alpha)),
	    TP_fast_assign(__entry->ifindex = ifindex;
			   memcpy(__entry->peer, peer, 16);
			   __entry->sport = sport;
			   __entry->cut = cut;
			   __entry->rc = rc;
			   __entry->rt = rt;
			   __entry->alpha = alpha;),
	    TP_printk("ifindex=%d peer=%pI6c sport=%u cut=%d rate=%llu target=%llu alpha=%u",
		      __entry->ifindex, __entry->peer, __entry->sport, __entry->cut,
		      __entry->rc, __entry->rt, __entry->alpha)
);

TRACE_EVENT(dcqcn_rate,
	    TP_PROTO(int ifindex, const struct in6_addr *peer, u16 sport, u64 rc, u64 rt,
		     u32 alpha, u8 stage),
	    TP_ARGS(ifindex, peer, sport, rc, rt, alpha, stage),
	    TP_STRUCT__entry(__field(int, ifindex)
			     __array(u8, peer, 16)
			     __field(u16, sport)
			     __field(u64, rc)
			     __field(u64, rt)
			     __field(u32, alpha)
			     __field(u8, stage)),
	    TP_fast_assign(__entry->ifindex = ifindex;
			   memcpy(__entry->peer, peer, 16);
			   __entry->sport = sport;
			   __entry->rc = rc;
			   __entry->rt = rt;
			   __entry->alpha = alpha;
			   __entry->stage = stage;),
	    TP_printk("ifindex=%d peer=%pI6c sport=%u rate=%llu target=%llu alpha=%u stage=%u",
		      __entry->ifindex, __entry->peer, __entry->sport, __entry->rc,
		      __entry->rt, __entry->alpha, __entry->stage)
);

#endif /* _DCQCN_TRACE_H */

/* This part must be outside the include guard */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE dcqcn_trace
#include <trace/define_trace.h>
