// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the endpoint's congestion control module (include/net/
 * lossless_cc.h), such as dcqcn_cc.
 *
 * One module at a time registers its operations. A qdisc given the
 * TCA_LOSSLESS_DCQCN nest asks it for state, keeps that state and the
 * operations (q->cc, q->cc_ops) and a reference on the module until the
 * qdisc goes: the module cannot be unloaded while a qdisc uses it, and
 * the data path never looks at the registration again.
 *
 * Locking: the registration and every control call are under RTNL;
 * q->cc and q->cc_ops are set under sch_tree_lock() and read by enqueue
 * under the root lock. The module locks its own state.
 */
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/lossless_cc.h>

#include "lossless.h"

static const struct lossless_cc_ops *lossless_cc_registered;	/* RTNL */

int lossless_cc_register(const struct lossless_cc_ops *ops)
{
	int err = 0;

	if (!ops->change || !ops->destroy || !ops->dump || !ops->dump_stats ||
	    !ops->classify || !ops->sent)
		return -EINVAL;
	rtnl_lock();
	if (lossless_cc_registered)
		err = -EBUSY;
	else
		lossless_cc_registered = ops;
	rtnl_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(lossless_cc_register);

void lossless_cc_unregister(const struct lossless_cc_ops *ops)
{
	rtnl_lock();
	if (lossless_cc_registered == ops)
		lossless_cc_registered = NULL;
	rtnl_unlock();
}
EXPORT_SYMBOL_GPL(lossless_cc_unregister);

/*
 * Validate and apply the nest @opt with the module's change(): all or
 * nothing. Called by lossless_change() once its own settings are valid,
 * before they are committed; the state is published under
 * sch_tree_lock() by lossless_cc_commit().
 */
int lossless_cc_change(struct Qdisc *sch, const struct nlattr *opt, u64 speed, void **cc,
		       const struct lossless_cc_ops **ops, struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int err;

	ASSERT_RTNL();
	*cc = q->cc;
	*ops = q->cc_ops;
	if (!opt && !*ops)
		return 0;
	if (!*ops) {
		*ops = lossless_cc_registered;
		if (!*ops || !try_module_get((*ops)->owner)) {
			*ops = NULL;
			NL_SET_ERR_MSG_MOD(extack,
					   "dcqcn needs the module dcqcn_cc: modprobe dcqcn_cc");
			return -EOPNOTSUPP;
		}
	}
	err = (*ops)->change(sch, cc, opt, speed, extack);
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

/*
 * The priority qdisc @sch gives @skb (by its trust and maps), or -1:
 * for the module's receive path, which has to tell which priority a
 * packet that came in belongs to. The maps are read without the lock, as
 * the classification does: a change may be seen half done for a packet.
 */
int lossless_cc_prio(struct Qdisc *sch, const struct sk_buff *skb)
{
	u8 tc;

	return lossless_classify(qdisc_priv(sch), sch, skb, &tc);
}
EXPORT_SYMBOL_GPL(lossless_cc_prio);

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

int lossless_cc_dump(struct lossless_sched_data *q, struct sk_buff *skb)
{
	return q->cc_ops ? q->cc_ops->dump(q->cc, skb) : 0;
}

int lossless_cc_dump_stats(struct lossless_sched_data *q, struct sk_buff *skb)
{
	return q->cc_ops ? q->cc_ops->dump_stats(q->cc, skb) : 0;
}
