/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of an endpoint, run inside its lossless qdisc.
 *
 * sch_lossless is the port of a NIC as well as of a switch. A module that
 * plays the NIC's congestion control (dcqcn_cc: DCQCN for rdma_rxe)
 * registers these operations; a lossless qdisc then hands it the nested
 * TCA_LOSSLESS_DCQCN options, the packets it queues and its statistics
 * dumps. The qdisc holds a reference on the module while it has state
 * there, so the module cannot go while a qdisc uses it.
 */
#ifndef _NET_LOSSLESS_CC_H
#define _NET_LOSSLESS_CC_H

#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/sch_generic.h>

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
 * @enqueue: @skb of priority @prio (-1: none) comes to the qdisc: under
 *	the qdisc's root lock, bottom halves off. Return true to take it
 *	(it must wait, the module gives it back to the device later): the
 *	qdisc does not queue it. The packets the module gives back come
 *	through @enqueue again.
 */
struct lossless_cc_ops {
	struct module *owner;
	int (*change)(struct Qdisc *sch, void **cc, const struct nlattr *opt, u64 speed,
		      struct netlink_ext_ack *extack);
	void (*destroy)(void *cc);
	int (*dump)(void *cc, struct sk_buff *skb);
	int (*dump_stats)(void *cc, struct sk_buff *skb);
	bool (*enqueue)(void *cc, struct sk_buff *skb, int prio);
};

int lossless_cc_register(const struct lossless_cc_ops *ops);
void lossless_cc_unregister(const struct lossless_cc_ops *ops);
int lossless_cc_prio(struct Qdisc *sch, const struct sk_buff *skb);

#endif /* _NET_LOSSLESS_CC_H */
