/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of an endpoint, run inside its lossless qdisc.
 *
 * sch_lossless is the port of a NIC as well as of a switch. A module that
 * plays the NIC's congestion control (dcqcn_cc: DCQCN for rdma_rxe)
 * registers these operations; a lossless qdisc then hands it the nested
 * TCA_LOSSLESS_DCQCN options, the packets it queues and its statistics
 * dumps. The module says which packets are paced and when each flow may
 * send; the packets stay in the qdisc, which holds them until then (as
 * sch_fq paces its flows). The qdisc holds a reference on the module while
 * it has state there, so the module cannot go while a qdisc uses it.
 */
#ifndef _NET_LOSSLESS_CC_H
#define _NET_LOSSLESS_CC_H

#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/sch_generic.h>

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
 * @owner: the module
 * @change: under RTNL: create (*@cc NULL) or change the state of qdisc
 *	@sch from the TCA_LOSSLESS_DCQCN nest @opt (NULL: only the port's
 *	speed, @speed bytes/s, may have changed); all or nothing: on an
 *	error nothing changed and the extack says why
 * @destroy: under RTNL: the qdisc goes; free @cc
 * @dump: put the TCA_LOSSLESS_DCQCN nest (the settings)
 * @dump_stats: put the TCA_LOSSLESS_STATS_DCQCN nest (counters, QPs)
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
	struct module *owner;
	int (*change)(struct Qdisc *sch, void **cc, const struct nlattr *opt, u64 speed,
		      struct netlink_ext_ack *extack);
	void (*destroy)(void *cc);
	int (*dump)(void *cc, struct sk_buff *skb);
	int (*dump_stats)(void *cc, struct sk_buff *skb);
	enum lossless_cc_verdict (*classify)(void *cc, struct sk_buff *skb, int prio, u64 now,
					     u64 *flow, u64 *time);
	u64 (*sent)(void *cc, u64 flow, unsigned int len, bool waited, u64 now);
};

int lossless_cc_register(const struct lossless_cc_ops *ops);
void lossless_cc_unregister(const struct lossless_cc_ops *ops);
int lossless_cc_prio(struct Qdisc *sch, const struct sk_buff *skb);

#endif /* _NET_LOSSLESS_CC_H */
