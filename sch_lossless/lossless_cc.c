// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the endpoint's congestion control modules (include/net/
 * lossless_cc.h), such as dcqcn_cc, found by name.
 *
 * A module registers its operations under its name. The qdisc has one
 * nest of options, TCA_LOSSLESS_DCQCN, for the module named "dcqcn": a
 * qdisc given that nest looks the module up by the name, asks it for state, and keeps that
 * state and the operations (q->cc, q->cc_ops) and a reference on the
 * module until the qdisc goes: the module cannot be unloaded while a
 * qdisc uses it, and the data path never looks at the registry again.
 * The nests' contents are the module's own uAPI; the qdisc opens and
 * closes them and reads nothing inside.
 *
 * Locking: the registry and every control call are under RTNL; q->cc and
 * q->cc_ops are set under sch_tree_lock() and read by enqueue and dequeue
 * under the root lock. The module locks its own state.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <net/lossless_cc.h>

#include "lossless.h"

static LIST_HEAD(lossless_cc_list);	/* RTNL */

/* The congestion control the qdisc has options for (TCA_LOSSLESS_DCQCN) */
#define LOSSLESS_CC_NAME	"dcqcn"
#define LOSSLESS_CC_MODULE	"dcqcn_cc"

/* Under RTNL: the module registered as @name, or NULL. */
static struct lossless_cc_ops *lossless_cc_find(const char *name)
{
	struct lossless_cc_ops *ops;

	list_for_each_entry(ops, &lossless_cc_list, list)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

int lossless_cc_register(struct lossless_cc_ops *ops)
{
	int err = 0;

	if (!ops->name || !ops->change || !ops->destroy || !ops->dump || !ops->dump_stats ||
	    !ops->classify || !ops->sent)
		return -EINVAL;
	rtnl_lock();
	if (lossless_cc_find(ops->name))
		err = -EEXIST;
	else
		list_add_tail(&ops->list, &lossless_cc_list);
	rtnl_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(lossless_cc_register);

void lossless_cc_unregister(struct lossless_cc_ops *ops)
{
	rtnl_lock();
	list_del(&ops->list);
	rtnl_unlock();
}
EXPORT_SYMBOL_GPL(lossless_cc_unregister);

/*
 * Validate and apply the options @opt of the congestion control with the
 * module's change(): all or nothing. Called by lossless_change() once its
 * own settings are valid, before they are committed, with the port's
 * settings the module needs in @port; the state is published under
 * sch_tree_lock() by lossless_cc_commit().
 */
int lossless_cc_change(struct Qdisc *sch, const struct nlattr *opt,
		       const struct lossless_cc_port *port, void **cc,
		       const struct lossless_cc_ops **ops, struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_cc_ops *found;
	int err;

	ASSERT_RTNL();
	*cc = q->cc;
	*ops = q->cc_ops;
	if (!opt && !*ops)
		return 0;
	if (!*ops) {
		found = lossless_cc_find(LOSSLESS_CC_NAME);
		if (!found || !try_module_get(found->owner)) {
			NL_SET_ERR_MSG_MOD(extack, LOSSLESS_CC_NAME " needs the module "
					   LOSSLESS_CC_MODULE ": modprobe " LOSSLESS_CC_MODULE);
			return -EOPNOTSUPP;
		}
		*ops = found;
	}
	err = (*ops)->change(sch, cc, opt, port, extack);
	if (err && !q->cc_ops) {
		module_put((*ops)->owner);
		*ops = NULL;
		*cc = NULL;
	}
	return err;
}

/* Under sch_tree_lock(): what lossless_cc_change() made is in force. */
void lossless_cc_commit(struct lossless_sched_data *q, void *cc,
			const struct lossless_cc_ops *ops)
{
	q->cc = cc;
	q->cc_ops = ops;
}

void lossless_cc_destroy(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	if (!q->cc_ops)
		return;
	q->cc_ops->destroy(q->cc);
	module_put(q->cc_ops->owner);
	q->cc = NULL;
	q->cc_ops = NULL;
}

/* The module's counters (@stats) or settings, in the nest the qdisc opens. */
static int lossless_cc_put(struct lossless_sched_data *q, struct sk_buff *skb, bool stats)
{
	struct nlattr *nest;
	int err;

	if (!q->cc_ops)
		return 0;
	nest = nla_nest_start_noflag(skb, stats ? TCA_LOSSLESS_STATS_DCQCN : TCA_LOSSLESS_DCQCN);
	if (!nest)
		return -EMSGSIZE;
	err = stats ? q->cc_ops->dump_stats(q->cc, skb) : q->cc_ops->dump(q->cc, skb);
	if (err) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int lossless_cc_dump(struct lossless_sched_data *q, struct sk_buff *skb)
{
	return lossless_cc_put(q, skb, false);
}

int lossless_cc_dump_stats(struct lossless_sched_data *q, struct sk_buff *skb)
{
	return lossless_cc_put(q, skb, true);
}
