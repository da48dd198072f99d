// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the traffic classes seen as tc classes 1:1 .. 1:8.
 *
 * The classes are fixed: they cannot be added, deleted or grafted; `tc
 * class change` sets their scheduling (strict or ETS quantum), limit and
 * ECN marking, and `tc -s class show` reports each queue.
 */
#include <linux/kernel.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "lossless.h"

static const struct nla_policy lossless_class_policy[TCA_LOSSLESS_CLASS_MAX + 1] = {
	[TCA_LOSSLESS_CLASS_STRICT]	= { .type = NLA_FLAG },
	[TCA_LOSSLESS_CLASS_QUANTUM]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_LIMIT]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_ECN]	= { .type = NLA_U8 },
	[TCA_LOSSLESS_CLASS_KMIN]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_KMAX]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_PMAX]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_XOFF]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_XON]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_CLASS_HEADROOM]	= { .type = NLA_U32 },
};

/* Class handles are traffic class + 1, so that 0 stays "no class". */
static unsigned long lossless_class_find(struct Qdisc *sch, u32 classid)
{
	u32 minor = TC_H_MIN(classid);

	if (TC_H_MAJ(classid) && TC_H_MAJ(classid) != sch->handle)
		return 0;
	if (minor < 1 || minor > TC_LOSSLESS_NUM_TC)
		return 0;
	return minor;
}

static struct Qdisc *lossless_class_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

/* A size option: 1 byte to 1 GiB. */
static bool lossless_size_ok(u32 val)
{
	return val && val <= LOSSLESS_MAX_SIZE;
}

static int lossless_class_change(struct Qdisc *sch, u32 classid, u32 parentid,
				 struct nlattr **tca, unsigned long *arg,
				 struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_LOSSLESS_CLASS_MAX + 1];
	struct lossless_class *c;
	struct lossless_ecn ecn;
	u32 quantum, limit, xoff, xon, headroom;
	int err;

	if (!*arg) {
		NL_SET_ERR_MSG_MOD(extack,
				   "lossless has exactly 8 classes, 1:1 to 1:8; none can be added");
		return -EOPNOTSUPP;
	}
	c = lossless_class_of(sch, *arg);
	if (!tca[TCA_OPTIONS])
		return 0;
	err = nla_parse_nested(tb, TCA_LOSSLESS_CLASS_MAX, tca[TCA_OPTIONS],
			       lossless_class_policy, extack);
	if (err < 0)
		return err;

	quantum = c->quantum;
	limit = c->limit;
	ecn = c->ecn;
	xoff = c->xoff;
	xon = c->xon;
	headroom = c->headroom;
	if (tb[TCA_LOSSLESS_CLASS_STRICT] && tb[TCA_LOSSLESS_CLASS_QUANTUM]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_QUANTUM],
				    "strict and quantum exclude each other");
		return -EINVAL;
	}
	if (tb[TCA_LOSSLESS_CLASS_STRICT])
		quantum = 0;
	if (tb[TCA_LOSSLESS_CLASS_QUANTUM]) {
		quantum = nla_get_u32(tb[TCA_LOSSLESS_CLASS_QUANTUM]);
		if (!lossless_size_ok(quantum)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_QUANTUM],
					    "quantum must be 1 byte to 1 GiB");
			return -EINVAL;
		}
	}
	if (tb[TCA_LOSSLESS_CLASS_LIMIT]) {
		limit = nla_get_u32(tb[TCA_LOSSLESS_CLASS_LIMIT]);
		if (!lossless_size_ok(limit)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_LIMIT],
					    "limit must be 1 byte to 1 GiB");
			return -EINVAL;
		}
	}
	if (tb[TCA_LOSSLESS_CLASS_ECN]) {
		u8 on = nla_get_u8(tb[TCA_LOSSLESS_CLASS_ECN]);

		if (on > 1) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_ECN],
					    "ecn must be 0 or 1");
			return -EINVAL;
		}
		ecn.enabled = on;
	}
	if (tb[TCA_LOSSLESS_CLASS_KMIN])
		ecn.kmin = nla_get_u32(tb[TCA_LOSSLESS_CLASS_KMIN]);
	if (tb[TCA_LOSSLESS_CLASS_KMAX])
		ecn.kmax = nla_get_u32(tb[TCA_LOSSLESS_CLASS_KMAX]);
	if (tb[TCA_LOSSLESS_CLASS_PMAX])
		ecn.pmax = nla_get_u32(tb[TCA_LOSSLESS_CLASS_PMAX]);
	if (ecn.kmax > LOSSLESS_MAX_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_KMAX],
				    "kmax must be at most 1 GiB");
		return -EINVAL;
	}
	if (ecn.kmin > ecn.kmax) {
		struct nlattr *a = tb[TCA_LOSSLESS_CLASS_KMIN] ?: tb[TCA_LOSSLESS_CLASS_KMAX];

		NL_SET_ERR_MSG_ATTR(extack, a, "kmin must not exceed kmax");
		return -EINVAL;
	}
	if (ecn.pmax > LOSSLESS_PROB_ONE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_PMAX], "pmax must be 0 to 100%");
		return -EINVAL;
	}

	if (tb[TCA_LOSSLESS_CLASS_XOFF]) {
		xoff = nla_get_u32(tb[TCA_LOSSLESS_CLASS_XOFF]);
		if (!lossless_size_ok(xoff)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_XOFF],
					    "xoff must be 1 byte to 1 GiB");
			return -EINVAL;
		}
	}
	if (tb[TCA_LOSSLESS_CLASS_XON])
		xon = nla_get_u32(tb[TCA_LOSSLESS_CLASS_XON]);
	if (xon > xoff) {
		struct nlattr *a = tb[TCA_LOSSLESS_CLASS_XON] ?: tb[TCA_LOSSLESS_CLASS_XOFF];

		NL_SET_ERR_MSG_ATTR(extack, a, "xon must not exceed xoff");
		return -EINVAL;
	}
	if (tb[TCA_LOSSLESS_CLASS_HEADROOM]) {
		headroom = nla_get_u32(tb[TCA_LOSSLESS_CLASS_HEADROOM]);
		if (headroom && headroom < q->mtu) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_HEADROOM],
					    "headroom must hold at least one MTU (see the qdisc's mtu)");
			return -EINVAL;
		}
		if (headroom > LOSSLESS_MAX_SIZE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_CLASS_HEADROOM],
					    "headroom must be at most 1 GiB (0: auto)");
			return -EINVAL;
		}
	}

	sch_tree_lock(sch);
	if (quantum != c->quantum)
		lossless_class_set_quantum(q, c, quantum);
	c->limit = limit;
	c->ecn = ecn;
	c->xoff = xoff;
	c->xon = xon;
	c->headroom = headroom;
	lossless_port_configure(sch);
	sch_tree_unlock(sch);
	return 0;
}

static void lossless_class_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	unsigned long cl;

	if (arg->stop)
		return;
	for (cl = 1; cl <= TC_LOSSLESS_NUM_TC; cl++)
		if (!tc_qdisc_stats_dump(sch, cl, arg))
			break;
}

static int lossless_class_dump(struct Qdisc *sch, unsigned long cl,
			       struct sk_buff *skb, struct tcmsg *tcm)
{
	const struct lossless_class *c = lossless_class_of(sch, cl);
	struct nlattr *opts;

	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = TC_H_MAKE(sch->handle, cl);
	tcm->tcm_info = 0;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (c->quantum ? nla_put_u32(skb, TCA_LOSSLESS_CLASS_QUANTUM, c->quantum) :
			 nla_put_flag(skb, TCA_LOSSLESS_CLASS_STRICT))
		goto nla_put_failure;
	if (c->limit && nla_put_u32(skb, TCA_LOSSLESS_CLASS_LIMIT, c->limit))
		goto nla_put_failure;
	if (nla_put_u8(skb, TCA_LOSSLESS_CLASS_ECN, c->ecn.enabled) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_KMIN, c->ecn.kmin) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_KMAX, c->ecn.kmax) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_PMAX, c->ecn.pmax) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_XOFF, c->xoff) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_XON, c->xon) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CLASS_HEADROOM, c->headroom))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int lossless_class_dump_stats(struct Qdisc *sch, unsigned long cl,
				     struct gnet_dump *d)
{
	struct lossless_class *c = lossless_class_of(sch, cl);
	struct gnet_stats_queue qs = c->qstats;
	struct nlattr *stats;

	/* the class holds its paced packets too */
	qs.backlog += c->paced_backlog;
	if (gnet_stats_copy_basic(d, NULL, &c->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &qs, c->q.qlen + c->paced_qlen) < 0)
		return -1;

	stats = nla_nest_start_noflag(d->skb, TCA_STATS_APP);
	if (!stats)
		return -1;
	if (lossless_put_class_stats(d->skb, qdisc_priv(sch), cl - 1) ||
	    nla_put(d->skb, TCA_LOSSLESS_STATS_QHIST_FINE, sizeof(c->qhist), c->qhist)) {
		nla_nest_cancel(d->skb, stats);
		return -1;
	}
	nla_nest_end(d->skb, stats);
	return 0;
}

const struct Qdisc_class_ops lossless_class_ops = {
	.leaf		= lossless_class_leaf,
	.find		= lossless_class_find,
	.change		= lossless_class_change,
	.walk		= lossless_class_walk,
	.dump		= lossless_class_dump,
	.dump_stats	= lossless_class_dump_stats,
};
