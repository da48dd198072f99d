// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: a lossless Ethernet port model.
 *
 * Eight traffic classes, one FIFO each, selected by the packet's 802.1Q
 * priority (the PCP of its VLAN tag, else skb->priority) through a
 * priority to traffic class map. Classes are served in strict priority,
 * traffic class 7 first. All classes share one buffer of `buffer` bytes;
 * a packet that does not fit is dropped at the tail and counted.
 *
 * Locking: enqueue, dequeue and reset run under the qdisc's root lock;
 * change() validates outside and commits under sch_tree_lock(); dumps run
 * under RTNL.
 */
#include <linux/module.h>
#include <linux/if_vlan.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "lossless.h"
#include "lossless_compat.h"

/*
 * The policy checks types and lengths; ranges are checked in
 * lossless_validate() so that each rejection names its option.
 */
static const struct nla_policy lossless_policy[TCA_LOSSLESS_MAX + 1] = {
	[TCA_LOSSLESS_BUFFER] = { .type = NLA_U32 },
};

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

static u8 lossless_classify(struct lossless_sched_data *q, struct Qdisc *sch,
			    const struct sk_buff *skb)
{
	int tc = lossless_direct_tc(skb->priority, sch->handle);
	u16 tci = 0;
	bool tagged;

	if (tc >= 0)
		return tc;
	tagged = lossless_vlan_tci(skb, &tci);
	return lossless_prio_to_tc(&q->prio_map,
				   lossless_packet_prio(tagged, tci, skb->priority));
}

static int lossless_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_class *c = &q->classes[lossless_classify(q, sch, skb)];
	unsigned int len = qdisc_pkt_len(skb);

	if (unlikely(sch->qstats.backlog + len > q->buffer)) {
		c->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	__qdisc_enqueue_tail(skb, &c->q);
	c->qstats.backlog += len;
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/* The class served next: the highest non-empty traffic class. */
static struct lossless_class *lossless_next_class(struct lossless_sched_data *q)
{
	int tc;

	for (tc = TC_LOSSLESS_NUM_TC - 1; tc >= 0; tc--)
		if (q->classes[tc].q.qlen)
			return &q->classes[tc];
	return NULL;
}

static struct sk_buff *lossless_dequeue(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_class *c = lossless_next_class(q);
	struct sk_buff *skb;

	if (!c)
		return NULL;
	skb = __qdisc_dequeue_head(&c->q);
	c->qstats.backlog -= qdisc_pkt_len(skb);
	bstats_update(&c->bstats, skb);
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);
	sch->q.qlen--;
	return skb;
}

static struct sk_buff *lossless_peek(struct Qdisc *sch)
{
	struct lossless_class *c = lossless_next_class(qdisc_priv(sch));

	return c ? c->q.head : NULL;
}

/* Drop from the lowest classes until the backlog fits in the buffer. */
static void lossless_trim(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	unsigned int pkts = 0, bytes = 0;
	int tc;

	for (tc = 0; tc < TC_LOSSLESS_NUM_TC && sch->qstats.backlog > q->buffer; tc++) {
		struct lossless_class *c = &q->classes[tc];
		struct sk_buff *skb;

		while (sch->qstats.backlog > q->buffer &&
		       (skb = __qdisc_dequeue_head(&c->q))) {
			unsigned int len = qdisc_pkt_len(skb);

			c->qstats.backlog -= len;
			c->qstats.drops++;
			qdisc_qstats_backlog_dec(sch, skb);
			qdisc_qstats_drop(sch);
			sch->q.qlen--;
			pkts++;
			bytes += len;
			rtnl_kfree_skbs(skb, skb);
		}
	}
	qdisc_tree_reduce_backlog(sch, pkts, bytes);
}

static int lossless_validate(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct nlattr *a = tb[TCA_LOSSLESS_BUFFER];

	if (a && (!nla_get_u32(a) || nla_get_u32(a) > LOSSLESS_MAX_BUFFER)) {
		NL_SET_ERR_MSG_ATTR(extack, a, "buffer must be 1 byte to 1 GiB");
		return -EINVAL;
	}
	return 0;
}

static int lossless_change(struct Qdisc *sch, struct nlattr *opt,
			   struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_LOSSLESS_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_LOSSLESS_MAX, opt, lossless_policy, extack);
	if (err < 0)
		return err;
	err = lossless_validate(tb, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	if (tb[TCA_LOSSLESS_BUFFER])
		q->buffer = nla_get_u32(tb[TCA_LOSSLESS_BUFFER]);
	lossless_trim(sch);
	sch_tree_unlock(sch);
	return 0;
}

static int lossless_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int tc;

	/* The private area comes zeroed: the class queues are empty. */
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++)
		gnet_stats_basic_sync_init(&q->classes[tc].bstats);
	lossless_prio_map_identity(&q->prio_map);
	q->buffer = LOSSLESS_DEFAULT_BUFFER;

	if (opt)
		return lossless_change(sch, opt, extack);
	return 0;
}

static void lossless_reset(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int tc;

	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		__qdisc_reset_queue(&q->classes[tc].q);
		q->classes[tc].qstats.backlog = 0;
	}
	sch->qstats.backlog = 0;
	sch->q.qlen = 0;
}

static int lossless_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_LOSSLESS_BUFFER, q->buffer)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static struct Qdisc_ops lossless_qdisc_ops __read_mostly = {
	.cl_ops		= &lossless_class_ops,
	.id		= "lossless",
	.priv_size	= sizeof(struct lossless_sched_data),
	.enqueue	= lossless_enqueue,
	.dequeue	= lossless_dequeue,
	.peek		= lossless_peek,
	.init		= lossless_init,
	.reset		= lossless_reset,
	.change		= lossless_change,
	.dump		= lossless_dump,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("lossless");

static int __init lossless_module_init(void)
{
	return register_qdisc(&lossless_qdisc_ops);
}

static void __exit lossless_module_exit(void)
{
	unregister_qdisc(&lossless_qdisc_ops);
}

module_init(lossless_module_init);
module_exit(lossless_module_exit);
MODULE_DESCRIPTION("Lossless Ethernet port: 8 traffic classes, strict priority");
MODULE_LICENSE("GPL");
