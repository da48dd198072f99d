/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of an endpoint, run inside its lossless qdisc.
 *
 * sch_lossless is the port of a NIC as well as of a switch. A module that
 * plays the NIC's congestion control (dcqcn_cc: DCQCN for rdma_rxe)
 * registers these operations under its name; a lossless qdisc given that
 * module's options (for "dcqcn", the nest TCA_LOSSLESS_DCQCN, whose
 * contents are the module's own uAPI, linux/lossless_dcqcn.h) looks it up
 * by name and hands it those options, the port's settings it needs, the
 * packets it queues and its statistics dumps, each nest opened by the
 * qdisc. The module says which packets are paced and when each flow may
 * send; the packets stay in the qdisc, which holds them until then (as
 * sch_fq paces its flows). The qdisc holds a reference on the module while
 * it has state there, so the module cannot go while a qdisc uses it.
 */
#ifndef _NET_LOSSLESS_CC_H
#define _NET_LOSSLESS_CC_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/sch_generic.h>
#include <uapi/linux/sch_lossless.h>

/**
 * struct lossless_cc_port - what the module is told of its qdisc's port
 * @speed: bytes/s the port sends at: its speed, or its shaper's rate when
 *	that is lower
 * @trust: enum tc_lossless_trust: how a packet's priority is found
 * @dscp_prio: the DSCP to priority map (trust dscp)
 */
struct lossless_cc_port {
	u64 speed;
	u8 trust;
	u8 dscp_prio[TC_LOSSLESS_NUM_DSCP];
};

/**
 * enum lossless_cc_verdict - what a congestion control module says of a packet
 * @LOSSLESS_CC_PASS: not paced
 * @LOSSLESS_CC_PACE: a packet of a paced flow; it goes at its flow's time,
 *	behind the flow's packets that wait (time 0: behind them only)
 */
enum lossless_cc_verdict {
	LOSSLESS_CC_PASS,
	LOSSLESS_CC_PACE,
};

/**
 * struct lossless_cc_ops - a congestion control module's side
 * @list: in the registry (RTNL)
 * @name: what a qdisc looks it up by
 * @owner: the module
 * @change: under RTNL: create (*@cc NULL) or change the state of qdisc
 *	@sch from the module's options @opt (NULL: only the port's settings
 *	@port may have changed); all or nothing: on an error nothing changed
 *	and the extack says why
 * @destroy: under RTNL: the qdisc goes; free @cc
 * @dump: put the settings, in the nest the qdisc opened
 * @dump_stats: put the counters, in the nest the qdisc opened
 * @classify: @skb of priority @prio (-1: none) comes to the qdisc, the
 *	time (ns) in @now; under the qdisc's root lock, bottom halves off.
 *	Return LOSSLESS_CC_PACE when the packet belongs to a flow the module
 *	knows, with the flow in *@flow (nonzero) and in *@time when its next
 *	packet may go (ns; 0: the flow is not paced); the qdisc then holds
 *	the packet, in its own queues, until that time and behind the flow's
 *	packets that wait. LOSSLESS_CC_PASS: the packet is not paced.
 * @sent: a packet of @len bytes of @flow leaves its pacing at @now, for its
 *	class's queue, after waiting for its time (@waited) or not: under the
 *	root lock. Return when the flow's next packet may go (ns; not later
 *	than @now for a flow the module no longer knows).
 */
struct lossless_cc_ops {
	struct list_head list;
	const char *name;
	struct module *owner;
	int (*change)(struct Qdisc *sch, void **cc, const struct nlattr *opt,
		      const struct lossless_cc_port *port, struct netlink_ext_ack *extack);
	void (*destroy)(void *cc);
	int (*dump)(void *cc, struct sk_buff *skb);
	int (*dump_stats)(void *cc, struct sk_buff *skb);
	enum lossless_cc_verdict (*classify)(void *cc, struct sk_buff *skb, int prio, u64 now,
					     u64 *flow, u64 *time);
	u64 (*sent)(void *cc, u64 flow, unsigned int len, bool waited, u64 now);
};

int lossless_cc_register(struct lossless_cc_ops *ops);
void lossless_cc_unregister(struct lossless_cc_ops *ops);

#endif /* _NET_LOSSLESS_CC_H */
