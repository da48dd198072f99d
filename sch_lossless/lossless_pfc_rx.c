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
 * Locking: the hook runs in softirq context, maybe on several CPUs at
 * once; pfc_lock serialises it. The dequeue path reads pause[].until
 * locklessly (READ_ONCE, a u64 on 64-bit machines) under the qdisc's root
 * lock; a pause that starts as the dequeue looks lets one more packet go,
 * as on a real link where a frame is already being sent.
 */
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_netdev.h>
#include <linux/skbuff.h>
#include <net/pkt_sched.h>

#include "lossless.h"
#include "lossless_trace.h"

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

static unsigned int lossless_pfc_hook(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct Qdisc *sch = priv;
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfc pfc;
	int err;

	if (skb->protocol != htons(ETH_P_PAUSE))
		return NF_ACCEPT;
	if (!skb_mac_header_was_set(skb) ||
	    !pskb_may_pull(skb, LOSSLESS_PFC_FRAME_LEN - ETH_HLEN)) {
		atomic64_inc(&q->pfc_rx_bad);
		return NF_DROP;
	}
	err = lossless_pfc_parse(skb_mac_header(skb), skb->len + ETH_HLEN, &pfc);
	if (err) {
		atomic64_inc(&q->pfc_rx_bad);
		return NF_DROP;
	}
	if (pfc.enable & q->pfc_enable) {
		lossless_pfc_apply(q, state->in, &pfc);
		/* an XON, or a pause ended early: look at the queues again */
		__netif_schedule(qdisc_root(sch));
	}
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

int lossless_pfc_rx_init(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	int err;

	q->pfc_hook.hook = lossless_pfc_hook;
	q->pfc_hook.priv = sch;
	q->pfc_hook.pf = NFPROTO_NETDEV;
	q->pfc_hook.hooknum = NF_NETDEV_INGRESS;
	q->pfc_hook.priority = INT_MIN;		/* before any nftables chain */
	q->pfc_hook.dev = dev;
	err = nf_register_net_hook(dev_net(dev), &q->pfc_hook);
	if (!err)
		q->pfc_net = dev_net(dev);
	return err;
}

void lossless_pfc_rx_destroy(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	if (q->pfc_net)
		nf_unregister_net_hook(q->pfc_net, &q->pfc_hook);
	q->pfc_net = NULL;
}
