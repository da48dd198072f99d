// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: receiving PFC frames (IEEE 802.1Qbb), the port's pause.
 *
 * A bridge drops frames to 01-80-C2-00-00-01 in its rx_handler, before any
 * protocol handler sees them, so the port catches them earlier: a netfilter
 * netdev ingress hook on the qdisc's device. A valid PFC frame stops each
 * lossless priority it names for quanta x 512 bit times at the port's
 * speed; a time of 0 (XON) resumes it at once. The frame is consumed.
 * Malformed frames and 802.3x PAUSE frames are counted and dropped: MAC
 * Control frames are never forwarded.
 *
 * A pause stops the port's priority whatever queue its packets are in: a
 * device has one receiver, with one hook, and every lossless qdisc on the
 * device (the children of mq on a multi-queue NIC, one per transmit
 * queue) hears each frame. A qdisc joins its device's receiver once its
 * options are valid (the end of init) and leaves it in destroy.
 *
 * Locking: the receivers and their lists of qdiscs change under RTNL; the
 * hook reads the list under RCU (netfilter's), and a qdisc and a receiver
 * are freed after RCU, so a hook that still sees one may use it. The
 * hook runs in softirq context, maybe on several CPUs at once; a qdisc's
 * pfc_lock serialises its updates of pause[]. The dequeue path reads
 * pause[].until locklessly (READ_ONCE, a u64 on 64-bit machines) under the
 * qdisc's root lock; a pause that starts as the dequeue looks lets one more
 * packet go, as on a real link where a frame is already being sent.
 */
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_netdev.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/pkt_sched.h>

#include "lossless.h"
#include "lossless_trace.h"

/* The PFC receiver of a device: its hook and the lossless qdiscs on it */
struct lossless_pfc_rx {
	struct list_head node;		/* in its netns's pfc_rxs: RTNL */
	struct net_device *dev;		/* its netns is the hook's */
	struct nf_hook_ops hook;
	struct list_head qdiscs;	/* their pfc_rcv_node: RTNL, RCU */
	struct rcu_head rcu;
};

/* Fold the pause of priority @p up to @now into its total (pfc_lock held). */
static void lossless_pause_account(struct lossless_sched_data *q, int p, u64 now)
{
	struct lossless_pause *ps = &q->pause[p];
	u64 end = min(now, ps->until);

	if (now <= ps->start)
		return;		/* accounted up to a later time already */
	if (end > ps->start)
		ps->total_ns += end - ps->start;
	ps->start = now;
}

static void lossless_pfc_apply(struct lossless_sched_data *q, const struct net_device *dev,
			       const struct lossless_pfc *pfc)
{
	u64 now = ktime_get_ns(), bps = q->speed * 8;
	u8 classes = 0;
	int p, tc;

	spin_lock(&q->pfc_lock);
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		struct lossless_pause *ps = &q->pause[p];

		if (!(pfc->enable & BIT(p)) || !(q->pfc_enable & BIT(p)))
			continue;
		lossless_pause_account(q, p, now);
		if (pfc->quanta[p]) {
			WRITE_ONCE(ps->until, now + lossless_pfc_quanta_to_ns(pfc->quanta[p], bps));
			ps->xoff_until = ps->until;
		} else {
			WRITE_ONCE(ps->until, now);
			ps->xoff_until = min(ps->xoff_until, now);
		}
		classes |= BIT(q->prio_map.tc[p]);
	}
	spin_unlock(&q->pfc_lock);
	trace_lossless_pause_rx(dev, pfc->enable & q->pfc_enable, pfc->quanta);
	/* a frame counts once for each class it paused or resumed */
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++)
		if (classes & BIT(tc))
			atomic64_inc(&q->pfc_rx[tc]);
}

/* A qdisc of the device hears a frame: a valid one, or (@pfc NULL) not */
static void lossless_pfc_hear(struct lossless_sched_data *q, const struct net_device *dev,
			      const struct lossless_pfc *pfc)
{
	if (!pfc) {
		atomic64_inc(&q->pfc_rx_bad);
		return;
	}
	if (pfc->enable & READ_ONCE(q->pfc_enable)) {
		lossless_pfc_apply(q, dev, pfc);
		/* an XON, or a pause ended early: look at the queues again */
		__netif_schedule(qdisc_root(q->sch));
	}
}

static unsigned int lossless_pfc_hook(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct lossless_pfc_rx *rx = priv;
	struct lossless_sched_data *q;
	struct lossless_pfc pfc;
	bool valid;

	if (skb->protocol != htons(ETH_P_PAUSE))
		return NF_ACCEPT;
	valid = skb_mac_header_was_set(skb) &&
		pskb_may_pull(skb, LOSSLESS_PFC_FRAME_LEN - ETH_HLEN) &&
		!lossless_pfc_parse(skb_mac_header(skb), skb->len + ETH_HLEN, &pfc);
	list_for_each_entry_rcu(q, &rx->qdiscs, pfc_rcv_node)
		lossless_pfc_hear(q, state->in, valid ? &pfc : NULL);
	if (!valid)
		return NF_DROP;
	consume_skb(skb);
	return NF_STOLEN;
}

/* The classes paused now, and when the first of their pauses ends. */
u8 lossless_paused_classes(struct lossless_sched_data *q, u64 now, u64 *next)
{
	u8 paused = 0;
	int p;

	*next = U64_MAX;
	if (!q->pfc_enable)
		return 0;
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		u64 until = READ_ONCE(q->pause[p].until);

		if (!(q->pfc_enable & BIT(p)) || until <= now)
			continue;
		paused |= BIT(q->prio_map.tc[p]);
		*next = min(*next, until);
	}
	return paused;
}

/* Time traffic class @tc spent paused by the peer, in us. */
u64 lossless_pause_us(struct lossless_sched_data *q, int tc)
{
	u64 now = ktime_get_ns(), ns = 0;
	int p;

	spin_lock_bh(&q->pfc_lock);
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		if (q->prio_map.tc[p] != tc)
			continue;
		lossless_pause_account(q, p, now);
		ns += q->pause[p].total_ns;
	}
	spin_unlock_bh(&q->pfc_lock);
	return div_u64(ns, NSEC_PER_USEC);
}

/* The lossless priorities of traffic class @tc. */
u8 lossless_tc_prios(const struct lossless_sched_data *q, int tc)
{
	u8 prios = 0;
	int p;

	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++)
		if (q->prio_map.tc[p] == tc)
			prios |= BIT(p);
	return prios & q->pfc_enable;
}

/*
 * For the watchdog, in softirq: the time priorities @prios were paused in
 * all up to @now, and the last time an XOFF was in force for any of them
 * (@now while one is, 0 if none ever was). An XON ends the pause it finds
 * but is no pause itself: a stream of XONs leaves the time where the last
 * XOFF ended.
 */
void lossless_pause_read(struct lossless_sched_data *q, u8 prios, u64 now,
			 u64 *paused_ns, u64 *last_xoff)
{
	int p;

	*paused_ns = 0;
	*last_xoff = 0;
	spin_lock(&q->pfc_lock);
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		if (!(prios & BIT(p)))
			continue;
		lossless_pause_account(q, p, now);
		*paused_ns += q->pause[p].total_ns;
		*last_xoff = max(*last_xoff, min(q->pause[p].xoff_until, now));
	}
	spin_unlock(&q->pfc_lock);
}

/* Under RTNL: the receiver of @dev, made and hooked when it has none. */
static struct lossless_pfc_rx *lossless_pfc_rx_get(struct net_device *dev)
{
	struct list_head *rxs = &lossless_net(dev_net(dev))->pfc_rxs;
	struct lossless_pfc_rx *rx;
	int err;

	list_for_each_entry(rx, rxs, node)
		if (rx->dev == dev)
			return rx;
	rx = kzalloc(sizeof(*rx), GFP_KERNEL_ACCOUNT);
	if (!rx)
		return ERR_PTR(-ENOMEM);
	rx->dev = dev;
	INIT_LIST_HEAD(&rx->qdiscs);
	rx->hook.hook = lossless_pfc_hook;
	rx->hook.priv = rx;
	rx->hook.pf = NFPROTO_NETDEV;
	rx->hook.hooknum = NF_NETDEV_INGRESS;
	rx->hook.priority = INT_MIN;		/* before any nftables chain */
	rx->hook.dev = dev;
	err = nf_register_net_hook(dev_net(dev), &rx->hook);
	if (err) {
		kfree(rx);
		return ERR_PTR(err);
	}
	list_add(&rx->node, rxs);
	return rx;
}

/* qdisc init, under RTNL, its options valid: hear its device's PFC frames. */
int lossless_pfc_rx_attach(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfc_rx *rx;

	ASSERT_RTNL();
	rx = lossless_pfc_rx_get(qdisc_dev(sch));
	if (IS_ERR(rx))
		return PTR_ERR(rx);
	q->sch = sch;
	q->pfc_rcv = rx;
	list_add_tail_rcu(&q->pfc_rcv_node, &rx->qdiscs);
	return 0;
}

/*
 * qdisc destroy, under RTNL. A hook may still be looking at the qdisc: it
 * is freed after RCU. The last qdisc of the device takes the hook away.
 */
void lossless_pfc_rx_detach(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfc_rx *rx = q->pfc_rcv;

	ASSERT_RTNL();
	if (!rx)
		return;
	list_del_rcu(&q->pfc_rcv_node);
	q->pfc_rcv = NULL;
	if (!list_empty(&rx->qdiscs))
		return;
	/* a device leaves its netns only after its qdiscs are gone */
	nf_unregister_net_hook(dev_net(rx->dev), &rx->hook);
	list_del(&rx->node);
	kfree_rcu(rx, rcu);
}
