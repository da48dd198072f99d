// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: pacing, the flows of the endpoint's congestion control
 * held to their rates inside the qdisc.
 *
 * The congestion control module (include/net/lossless_cc.h) names the
 * flow of each packet it paces (for dcqcn_cc, a QP) and when the flow's
 * next packet may go. A packet that comes before its flow's time, or
 * while packets of its flow wait, waits in its flow's queue here, behind
 * them. The flows with packets are in a tree by the time their head may
 * go; dequeue moves the packets that are due into their classes' queues,
 * where the scheduler, PFC and the shaper see them as any other, and
 * sets the qdisc's watchdog for the earliest time left. This is the
 * per-QP rate limiter an RDMA NIC has in front of its port's queues, and
 * the way sch_fq paces its flows.
 *
 * A waiting packet counts in the qdisc's qlen and backlog, in its class's
 * as the class is dumped ("paced_packets", "paced_backlog"), and in the
 * shared buffer and its class's limit; a reset frees it and counts it
 * flushed, a smaller buffer drops it (first: it is the furthest from the
 * wire; from the head of the flow due last) as a buffer drop. A flow
 * lives while it has packets waiting: the module keeps its time from one
 * packet to the next. At most
 * LOSSLESS_MAX_FLOWS flows wait at once; a packet that would need another
 * goes unpaced, and is counted (pace_refused).
 *
 * Locking: everything here runs under the qdisc's root lock (or RTNL with
 * the qdisc stopped, for reset).
 */
#include <linux/rbtree.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/lossless_cc.h>

#include "lossless.h"

/**
 * struct lossless_flow - a paced flow with packets waiting
 * @node: in lossless_sched_data.flows, by @key
 * @tnode: in lossless_sched_data.waiting, by @time
 * @key: the flow, as the congestion control module names it
 * @time: ns, when its head packet may go
 * @q: its packets, in order
 */
struct lossless_flow {
	struct hlist_node node;
	struct rb_node tnode;
	u64 key;
	u64 time;
	struct qdisc_skb_head q;
};

static struct kmem_cache *lossless_flow_cache __read_mostly;

int lossless_pace_init(void)
{
	lossless_flow_cache = KMEM_CACHE(lossless_flow, 0);
	return lossless_flow_cache ? 0 : -ENOMEM;
}

void lossless_pace_exit(void)
{
	kmem_cache_destroy(lossless_flow_cache);
}

static bool lossless_flow_before(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct lossless_flow, tnode)->time <
	       rb_entry(b, struct lossless_flow, tnode)->time;
}

static struct lossless_flow *lossless_flow_find(struct lossless_sched_data *q, u64 key)
{
	struct lossless_flow *f;

	hash_for_each_possible(q->flows, f, node, key)
		if (f->key == key)
			return f;
	return NULL;
}

static void lossless_flow_free(struct lossless_sched_data *q, struct lossless_flow *f)
{
	rb_erase_cached(&f->tnode, &q->waiting);
	hash_del(&f->node);
	q->nflows--;
	kmem_cache_free(lossless_flow_cache, f);
}

/* Take the head packet of @f off its queue and out of its class's count. */
static struct sk_buff *lossless_flow_pop(struct lossless_sched_data *q,
					 struct lossless_flow *f)
{
	struct sk_buff *skb = __qdisc_dequeue_head(&f->q);
	struct lossless_class *c = &q->classes[lossless_skb_cb(skb)->tc];

	c->paced_qlen--;
	c->paced_backlog -= qdisc_pkt_len(skb);
	return skb;
}

/**
 * lossless_pace_hold() - hold a packet of a paced flow until its time
 * @sch: the qdisc, which has counted @skb in its qlen and backlog
 * @skb: the packet, its class in its control block
 * @flow: its flow, as the congestion control module named it
 * @time: ns, when the flow's next packet may go, as the module says
 *	(0: not paced, only kept behind its flow's packets that wait)
 * @now: ns
 *
 * Return: true when @skb waits here; false when it goes into its class's
 * queue now (counted sent by the module if it is paced).
 */
bool lossless_pace_hold(struct Qdisc *sch, struct sk_buff *skb, u64 flow, u64 time, u64 now)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_class *c = &q->classes[lossless_skb_cb(skb)->tc];
	struct lossless_flow *f = lossless_flow_find(q, flow);

	if (!f) {
		if (!time)
			return false;	/* not paced, and nothing of its flow waits */
		if (time <= now)
			goto go;
		f = q->nflows < LOSSLESS_MAX_FLOWS ?
		    kmem_cache_zalloc(lossless_flow_cache, GFP_ATOMIC | __GFP_NOWARN) : NULL;
		if (!f) {
			q->pace_refused++;
			goto go;
		}
		f->key = flow;
		f->time = time;
		hash_add(q->flows, &f->node, flow);
		rb_add_cached(&f->tnode, &q->waiting, lossless_flow_before);
		q->nflows++;
	}
	__qdisc_enqueue_tail(skb, &f->q);
	c->paced_qlen++;
	c->paced_backlog += qdisc_pkt_len(skb);
	c->paced++;
	return true;

go:
	q->cc_ops->sent(q->cc, flow, qdisc_pkt_len(skb), false, now);
	return false;
}

/**
 * lossless_pace_due() - the next packet whose time has come
 * @sch: the qdisc
 * @now: ns
 *
 * Return: the packet, off its flow's queue, for its class's queue (its
 * flow's next time asked of the module), or NULL when none is due.
 */
struct sk_buff *lossless_pace_due(struct Qdisc *sch, u64 now)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct rb_node *n = rb_first_cached(&q->waiting);
	struct lossless_flow *f;
	struct sk_buff *skb;
	u64 time;

	if (!n)
		return NULL;
	f = rb_entry(n, struct lossless_flow, tnode);
	if (f->time > now)
		return NULL;
	skb = lossless_flow_pop(q, f);
	time = q->cc_ops->sent(q->cc, f->key, qdisc_pkt_len(skb), true, now);
	if (!f->q.qlen) {
		lossless_flow_free(q, f);
		return skb;
	}
	rb_erase_cached(&f->tnode, &q->waiting);
	f->time = time;
	rb_add_cached(&f->tnode, &q->waiting, lossless_flow_before);
	return skb;
}

/* ns: when the next packet waiting here is due; U64_MAX: none waits. */
u64 lossless_pace_next(struct lossless_sched_data *q)
{
	struct rb_node *n = rb_first_cached(&q->waiting);

	return n ? rb_entry(n, struct lossless_flow, tnode)->time : U64_MAX;
}

/* Reset: free every packet waiting and every flow, counted as flushed. */
void lossless_pace_flush(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_flow *f;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(q->flows, bkt, tmp, f, node) {
		while (f->q.qlen) {
			struct sk_buff *skb = lossless_flow_pop(q, f);

			q->classes[lossless_skb_cb(skb)->tc].flushed++;
			q->flushed++;
			lossless_port_release(skb);
			rtnl_kfree_skbs(skb, skb);
		}
		lossless_flow_free(q, f);
	}
}

/*
 * The buffer was made smaller: drop the head packets of the flow due
 * last, then of the one before, while the backlog is over it, out of the
 * qdisc's counts too. Return the packets dropped, their bytes added to
 * *@bytes (for the parents' counts).
 */
unsigned int lossless_pace_trim(struct Qdisc *sch, unsigned int *bytes)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_flow *f;
	unsigned int pkts = 0;
	struct rb_node *n;

	while (sch->qstats.backlog > q->buffer && (n = rb_last(&q->waiting.rb_root))) {
		f = rb_entry(n, struct lossless_flow, tnode);
		while (sch->qstats.backlog > q->buffer && f->q.qlen) {
			struct sk_buff *skb = lossless_flow_pop(q, f);
			struct lossless_class *c = &q->classes[lossless_skb_cb(skb)->tc];

			c->buffer_drops++;
			c->qstats.drops++;
			sch->q.qlen--;
			qdisc_qstats_backlog_dec(sch, skb);
			qdisc_qstats_drop(sch);
			pkts++;
			*bytes += qdisc_pkt_len(skb);
			lossless_port_release(skb);
			rtnl_kfree_skbs(skb, skb);
		}
		if (!f->q.qlen)
			lossless_flow_free(q, f);
	}
	return pkts;
}
