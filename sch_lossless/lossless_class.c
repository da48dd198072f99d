// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the traffic classes seen as tc classes 1:1 .. 1:8.
 *
 * The classes are fixed: they cannot be added, deleted or grafted. They
 * exist so that `tc -s class show` reports each queue.
 */
#include <linux/kernel.h>
#include <net/pkt_sched.h>

#include "lossless.h"

/* Class handles are traffic class + 1, so that 0 stays "no class". */
static unsigned long lossless_class_find(struct Qdisc *sch, u32 classid)
{
	u32 minor = TC_H_MIN(classid);

	if (minor < 1 || minor > TC_LOSSLESS_NUM_TC)
		return 0;
	return minor;
}

static struct Qdisc *lossless_class_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
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
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = TC_H_MAKE(sch->handle, cl);
	tcm->tcm_info = 0;
	return 0;
}

static int lossless_class_dump_stats(struct Qdisc *sch, unsigned long cl,
				     struct gnet_dump *d)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_class *c = &q->classes[cl - 1];

	if (gnet_stats_copy_basic(d, NULL, &c->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &c->qstats, c->q.qlen) < 0)
		return -1;
	return 0;
}

const struct Qdisc_class_ops lossless_class_ops = {
	.leaf		= lossless_class_leaf,
	.find		= lossless_class_find,
	.walk		= lossless_class_walk,
	.dump		= lossless_class_dump,
	.dump_stats	= lossless_class_dump_stats,
};
