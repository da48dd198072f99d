// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: a lossless Ethernet port model.
 *
 * Eight traffic classes, one FIFO each. A packet's 802.1Q priority comes
 * from its VLAN tag's PCP or skb->priority (trust pcp) or from its DSCP
 * through a map (trust dscp); a priority to traffic class map picks the
 * class. Strict classes are served first, traffic class 7 first; the ETS
 * classes share what is left by deficit round robin with their quanta. A
 * token bucket (rate, burst) in front of the scheduler makes the port a
 * link of that speed. Each class marks ECN like a DCQCN congestion point
 * (lossless_mark.h) and tail-drops over its limit or when the shared
 * buffer is full, counting every drop by reason. The packets of flows the
 * endpoint's congestion control paces wait in front of their classes until
 * their time (lossless_pace.c).
 *
 * Locking: enqueue, dequeue and reset run under the qdisc's root lock;
 * qdisc and class changes validate outside it and commit under
 * sch_tree_lock(); dumps run under RTNL.
 */
#include <linux/module.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/lossless_cc.h>
#include <net/pkt_sched.h>

#include "lossless.h"

/* The TCI of the packet's outer VLAN tag, offloaded or in the frame. */
static bool lossless_vlan_tci(const struct sk_buff *skb, u16 *tci)
{
	struct vlan_hdr *vh, _vh;

	if (skb_vlan_tag_present(skb)) {
		*tci = skb_vlan_tag_get(skb);
		return true;
	}
	if (!eth_type_vlan(skb->protocol) || !skb_mac_header_was_set(skb))
		return false;
	vh = skb_header_pointer(skb, skb_mac_offset(skb) + ETH_HLEN, sizeof(_vh), &_vh);
	if (!vh)
		return false;
	*tci = ntohs(vh->h_vlan_TCI);
	return true;
}

/* The TOS / traffic class byte of an IPv4 or IPv6 packet, or -1. */
static int lossless_dsfield(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb);

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP): {
		struct iphdr *iph, _iph;

		iph = skb_header_pointer(skb, off, sizeof(_iph), &_iph);
		return iph ? iph->tos : -1;
	}
	case htons(ETH_P_IPV6): {
		struct ipv6hdr *ip6h, _ip6h;

		ip6h = skb_header_pointer(skb, off, sizeof(_ip6h), &_ip6h);
		return ip6h ? ipv6_get_dsfield(ip6h) : -1;
	}
	}
	return -1;
}

/*
 * The packet's priority, or -1 when skb->priority names a class directly;
 * its traffic class in @tc. Inline in enqueue, out of line for the
 * endpoint's congestion control (lossless_classify()).
 */
static __always_inline int lossless_classify_skb(struct lossless_sched_data *q,
						 struct Qdisc *sch,
						 const struct sk_buff *skb, u8 *tc)
{
	int direct = lossless_direct_tc(skb->priority, sch->handle);
	u16 tci = 0;
	bool tagged;
	u8 prio;
	int ds;

	if (direct >= 0) {
		*tc = direct;
		return -1;
	}
	ds = q->trust == TC_LOSSLESS_TRUST_DSCP ? lossless_dsfield(skb) : -1;
	if (ds >= 0) {
		prio = lossless_dscp_to_prio(&q->dscp_map, ds);
	} else {
		tagged = lossless_vlan_tci(skb, &tci);
		prio = lossless_packet_prio(tagged, tci, skb->priority);
	}
	*tc = lossless_prio_to_tc(&q->prio_map, prio);
	return prio;
}

int lossless_classify(struct lossless_sched_data *q, struct Qdisc *sch,
		      const struct sk_buff *skb, u8 *tc)
{
	return lossless_classify_skb(q, sch, skb, tc);
}

/* The congestion point: mark an ECT packet CE with probability p(backlog). */
static void lossless_mark(struct lossless_class *c, struct sk_buff *skb)
{
	u32 prob = lossless_mark_prob(&c->ecn, c->qstats.backlog);
	int ds;

	if (!prob || !lossless_mark_decide(prob, get_random_u32()))
		return;
	ds = lossless_dsfield(skb);
	/* Only ECT(0) and ECT(1) become CE: never a non-ECT or CE packet. */
	if (ds < 0 || !(ds & INET_ECN_MASK) || INET_ECN_is_ce(ds))
		return;
	if (INET_ECN_set_ce(skb))
		c->ecn_marked++;
}

/*
 * MAC Control frames (PFC, PAUSE) go into their own queue, sent before
 * any class and never paused: the PFC frames of lossless_port.c must get
 * through while the data is held.
 */
static int lossless_enqueue_ctl(struct sk_buff *skb, struct Qdisc *sch,
				struct sk_buff **to_free)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	q->in++;
	if (unlikely(q->ctl.qlen >= LOSSLESS_CTL_LIMIT))
		return qdisc_drop(skb, sch, to_free);
	__qdisc_enqueue_tail(skb, &q->ctl);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/* Queue @skb in class @c's FIFO: the congestion point marks it first. */
static void lossless_class_queue(struct lossless_sched_data *q, struct lossless_class *c,
				 struct sk_buff *skb)
{
	if (c->ecn.enabled)
		lossless_mark(c, skb);
	if (!c->q.qlen) {
		if (c->quantum) {
			c->deficit = c->quantum;
			list_add_tail(&c->alist, &q->active);
		} else {
			q->strict_busy |= BIT(c - q->classes);
		}
	}
	c->qhist[lossless_qhist_fine_bucket(c->qstats.backlog)]++;
	__qdisc_enqueue_tail(skb, &c->q);
	c->qstats.backlog += qdisc_pkt_len(skb);
	if (c->qstats.backlog > c->peak_backlog)
		c->peak_backlog = c->qstats.backlog;
}

static int lossless_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	u64 now = 0, flow = 0, time = 0;
	struct lossless_class *c;
	bool paced = false;
	int prio, iif;
	u8 tc;

	if (unlikely(skb->protocol == htons(ETH_P_PAUSE)))
		return lossless_enqueue_ctl(skb, sch, to_free);
	prio = lossless_classify_skb(q, sch, skb, &tc);
	iif = skb->skb_iif ? lossless_skb_iif(sch, skb) : 0;
	if (unlikely(q->hook_mask) && prio >= 0 && (q->hook_mask & BIT(prio)) &&
	    iif && lossless_port_uplink(sch, iif) &&
	    lossless_hook_remap(q, skb, prio, &tc)) {
		/* a hook flow: onto another priority, still charged to prio */
		q->classes[tc].hook_remapped++;
	}
	/* the endpoint's congestion control: is it paced? */
	if (q->cc_ops) {
		now = ktime_get_ns();
		paced = q->cc_ops->classify(q->cc, skb, prio, now, &flow, &time) ==
			LOSSLESS_CC_PACE;
	}
	q->in++;
	c = &q->classes[tc];
	c->in++;
	if (unlikely(q->wd.drop & BIT(tc))) {
		/* the watchdog found this class stuck: action drop */
		q->wd.dropped[tc]++;
		c->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (unlikely(c->limit && c->qstats.backlog + c->paced_backlog + len > c->limit)) {
		c->limit_drops++;
		c->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (unlikely(sch->qstats.backlog + len > q->buffer)) {
		c->buffer_drops++;
		c->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	lossless_skb_uncharged(skb);
	if (skb->skb_iif) {
		/*
		 * A packet from another port no longer belongs to its sender's
		 * socket, as on a wire: its send buffer must not throttle the
		 * sender for what queues here (veth keeps the socket).
		 */
		skb_orphan(skb);
		/* charged to its ingress port; over its headroom: dropped */
		if (prio >= 0 && iif && lossless_port_charge(sch, skb, iif, prio)) {
			c->ingress_drops++;
			c->qstats.drops++;
			return qdisc_drop(skb, sch, to_free);
		}
	}
	lossless_skb_cb(skb)->tc = tc;
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	if (!paced || !lossless_pace_hold(sch, skb, flow, time, now))
		lossless_class_queue(q, c, skb);
	return NET_XMIT_SUCCESS;
}

/*
 * The class to serve: strict ones from 7 down, then ETS by DRR; a class
 * the peer paused (bit set in @paused) is passed over: an ETS one goes to
 * the tail of the round with its deficit unchanged. The round goes on as
 * long as one active ETS class is not paused, however many rounds of
 * deficit its head packet needs.
 */
static struct lossless_class *lossless_pick(struct lossless_sched_data *q, u8 paused)
{
	u8 strict = q->strict_busy & ~paused;
	struct lossless_class *c;
	bool sendable = false;

	if (strict)
		return &q->classes[fls(strict) - 1];
	list_for_each_entry(c, &q->active, alist)
		if (!(paused & BIT(c - q->classes)))
			sendable = true;
	if (!sendable)
		return NULL;	/* every active class is paused, or none is active */
	for (;;) {
		c = list_first_entry(&q->active, struct lossless_class, alist);
		if (paused & BIT(c - q->classes)) {
			list_move_tail(&c->alist, &q->active);
			continue;
		}
		if (qdisc_pkt_len(c->q.head) <= c->deficit) {
			c->deficit -= qdisc_pkt_len(c->q.head);
			return c;
		}
		c->deficit += c->quantum;
		list_move_tail(&c->alist, &q->active);
	}
}

static struct sk_buff *lossless_dequeue(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	u64 now = 0, next = U64_MAX;
	unsigned int moved = 0;
	struct lossless_class *c;
	struct sk_buff *skb;
	u8 paused = 0;

	if (!sch->q.qlen)
		return NULL;
	if (unlikely(q->ctl.qlen)) {
		skb = __qdisc_dequeue_head(&q->ctl);
		qdisc_qstats_backlog_dec(sch, skb);
		sch->q.qlen--;
		lossless_shaper_consume(&q->shaper, qdisc_pkt_len(skb));
		qdisc_bstats_update(sch, skb);
		q->out++;
		return skb;
	}
	if (q->shaper.rate || q->pfc_enable || q->nflows)
		now = ktime_get_ns();
	/* the paced packets whose time has come join their classes */
	while (q->nflows && moved++ < LOSSLESS_PACE_BATCH && (skb = lossless_pace_due(sch, now)))
		lossless_class_queue(q, &q->classes[lossless_skb_cb(skb)->tc], skb);
	/* the shaper holds what is in the classes' queues */
	if (q->shaper.rate && (q->strict_busy || !list_empty(&q->active))) {
		lossless_shaper_refill(&q->shaper, now);
		if (!lossless_shaper_may_send(&q->shaper)) {
			q->throttled++;
			qdisc_watchdog_schedule_ns(&q->watchdog,
						   now + lossless_shaper_wait_ns(&q->shaper));
			return NULL;
		}
	}
	if (q->pfc_enable)
		paused = lossless_paused_classes(q, now, &next) & ~q->wd.ignore;
	c = lossless_pick(q, paused);
	if (!c) {
		/*
		 * all that is queued is paused or waits for its flow's time:
		 * look again when a pause ends or a paced packet is due
		 */
		next = min(next, lossless_pace_next(q));
		if (next != U64_MAX)
			qdisc_watchdog_schedule_ns(&q->watchdog, next);
		return NULL;
	}
	skb = lossless_class_pop(sch, c);
	lossless_shaper_consume(&q->shaper, qdisc_pkt_len(skb));
	bstats_update(&c->bstats, skb);
	qdisc_bstats_update(sch, skb);
	c->out++;
	q->out++;
	return skb;
}

/*
 * Drop until the backlog fits in the buffer: paced packets first (the
 * furthest from the wire), then from the lowest classes.
 */
void lossless_trim(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	unsigned int pkts = 0, bytes = 0;
	int tc;

	pkts = lossless_pace_trim(sch, &bytes);
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC && sch->qstats.backlog > q->buffer; tc++) {
		struct lossless_class *c = &q->classes[tc];

		while (sch->qstats.backlog > q->buffer && c->q.qlen) {
			struct sk_buff *skb = lossless_class_pop(sch, c);

			c->buffer_drops++;
			c->qstats.drops++;
			qdisc_qstats_drop(sch);
			pkts++;
			bytes += qdisc_pkt_len(skb);
			rtnl_kfree_skbs(skb, skb);
		}
	}
	qdisc_tree_reduce_backlog(sch, pkts, bytes);
}

/* Make class @c strict (@quantum 0) or ETS, keeping the active list right. */
void lossless_class_set_quantum(struct lossless_sched_data *q, struct lossless_class *c,
				u32 quantum)
{
	u8 bit = BIT(c - q->classes);

	if (c->quantum && c->q.qlen)
		list_del_init(&c->alist);
	q->strict_busy &= ~bit;
	c->quantum = quantum;
	if (!c->q.qlen)
		return;
	if (quantum) {
		c->deficit = quantum;
		list_add_tail(&c->alist, &q->active);
	} else {
		q->strict_busy |= bit;
	}
}

static int lossless_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int tc, p, err;

	/* The private area comes zeroed: queues empty, all classes strict. */
	INIT_LIST_HEAD(&q->active);
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		struct lossless_class *c = &q->classes[tc];

		INIT_LIST_HEAD(&c->alist);
		lossless_ecn_init(&c->ecn);
		gnet_stats_basic_sync_init(&c->bstats);
		c->xoff = LOSSLESS_DEFAULT_XOFF;
		c->xon = LOSSLESS_DEFAULT_XON;
	}
	q->trust = TC_LOSSLESS_TRUST_PCP;
	lossless_prio_map_identity(&q->prio_map);
	lossless_dscp_map_default(&q->dscp_map);
	q->buffer = LOSSLESS_DEFAULT_BUFFER;
	hash_init(q->flows);
	q->waiting = RB_ROOT_CACHED;
	spin_lock_init(&q->pfc_lock);
	qdisc_watchdog_init(&q->watchdog, sch);
	lossless_pfcwd_init(sch);
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++)
		q->hook_remap[p] = p;	/* no hook flow moves */
	/* nothing is published before the options are known to be good */
	err = lossless_change(sch, opt, extack);
	if (err)
		return err;
	err = lossless_port_attach(sch);
	if (err)
		return err;
	err = lossless_pfc_rx_attach(sch);
	if (err)
		NL_SET_ERR_MSG_MOD(extack, "cannot hook the device's ingress for PFC frames");
	return err;
}

static void lossless_reset(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int tc;

	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		struct lossless_class *c = &q->classes[tc];
		struct sk_buff *skb;

		while ((skb = __qdisc_dequeue_head(&c->q))) {
			lossless_port_release(skb);
			rtnl_kfree_skbs(skb, skb);
			c->flushed++;
			q->flushed++;
		}
		c->qstats.backlog = 0;
		list_del_init(&c->alist);
	}
	lossless_pace_flush(sch);
	q->flushed += q->ctl.qlen;
	__qdisc_reset_queue(&q->ctl);
	q->strict_busy = 0;
	sch->qstats.backlog = 0;
	sch->q.qlen = 0;
	qdisc_watchdog_cancel(&q->watchdog);
}

static void lossless_destroy(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	lossless_pfcwd_stop(sch);
	lossless_cc_destroy(sch);
	lossless_pfc_rx_detach(sch);
	lossless_port_detach(sch);
	qdisc_watchdog_cancel(&q->watchdog);
}

static struct Qdisc_ops lossless_qdisc_ops __read_mostly = {
	.cl_ops		= &lossless_class_ops,
	.id		= "lossless",
	.priv_size	= sizeof(struct lossless_sched_data),
	.enqueue	= lossless_enqueue,
	.dequeue	= lossless_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= lossless_init,
	.reset		= lossless_reset,
	.destroy	= lossless_destroy,
	.change		= lossless_change,
	.dump		= lossless_dump,
	.dump_stats	= lossless_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("lossless");

static int __init lossless_module_init(void)
{
	int err = lossless_pace_init();

	if (err)
		return err;
	err = lossless_port_init();
	if (err)
		goto pace;
	err = register_qdisc(&lossless_qdisc_ops);
	if (err)
		goto port;
	return 0;

port:
	lossless_port_exit();
pace:
	lossless_pace_exit();
	return err;
}

static void __exit lossless_module_exit(void)
{
	unregister_qdisc(&lossless_qdisc_ops);
	lossless_port_exit();
	lossless_pace_exit();
}

module_init(lossless_module_init);
module_exit(lossless_module_exit);
MODULE_DESCRIPTION("Lossless Ethernet port: 8 traffic classes, strict and ETS, shaper, ECN");
MODULE_LICENSE("GPL");
