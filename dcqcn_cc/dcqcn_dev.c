// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: the state of a device and of its QPs.
 *
 * A device's state is made when its lossless qdisc is first given dcqcn
 * options and goes with the qdisc. It is found by ifindex in a table of
 * its network namespace's (pernet: a namespace sees only its own) from
 * the receive hook. Its QPs are learnt from the packets it sends: a
 * QP is the pair (peer address, IPv4 or IPv6, UDP source port), since rxe
 * keeps a QP's
 * source port fixed once the QP is connected, and its packets name the
 * peer's QP (DestQP). A packet that comes in for a QP (a CE-marked one,
 * a CNP) is matched by its own UDP source port: rxe derives the port of
 * a connected QP from the flow label, by default from the product of the
 * two QP numbers (rdma_get_udp_sport()), so both ends of a connection use
 * the same port; failing that, by the port rxe gives a QP it creates,
 * 0xC000 plus a 14-bit hash of the local QP number, which the packet
 * names. A QP's first packet out makes its state, its packets keep the
 * peer's QP number up to date, and a QP that has sent nothing for
 * DCQCN_QP_IDLE is forgotten: nothing stays for a QP that no longer
 * exists. Two QPs to the same peer on the same port would share a state.
 *
 * Locking: a namespace's table of devices changes under RTNL and is read
 * under RCU; it outlives them (the namespace's devices, and so their
 * qdiscs, go first). A device's lock (taken with bottom halves off from process
 * context) covers its settings, QPs and counters; the receive hook, the
 * qdisc's enqueue and the idle timer take it in softirq context.
 */
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>

#include "dcqcn.h"

/* What dcqcn_cc keeps per network namespace: its devices' states */
struct dcqcn_net {
	DECLARE_HASHTABLE(devs, 4);	/* by ifindex: RTNL, RCU */
};

static unsigned int dcqcn_net_id __read_mostly;

static struct dcqcn_net *dcqcn_net(const struct net *net)
{
	return net_generic(net, dcqcn_net_id);
}

/* rxe's UDP source port of a new QP: 0xC000 plus a 14-bit hash of its number */
static u16 dcqcn_rxe_sport(u32 qpn)
{
	return DCQCN_RXE_SPORT_BASE +
	       (hash_32(qpn, DCQCN_RXE_SPORT_BITS) & (BIT(DCQCN_RXE_SPORT_BITS) - 1));
}

static u32 dcqcn_qp_key(const struct in6_addr *peer, u16 sport)
{
	return ipv6_addr_hash(peer) ^ ((u32)sport << 16);
}

/* Under dd->lock. */
struct dcqcn_qp *dcqcn_qp_find(struct dcqcn_dev *dd, const struct in6_addr *peer, u16 sport)
{
	struct dcqcn_qp *qp;

	hash_for_each_possible(dd->qps, qp, node, dcqcn_qp_key(peer, sport))
		if (ipv6_addr_equal(&qp->peer, peer) && qp->sport == sport)
			return qp;
	return NULL;
}

/* Under dd->lock: the QP numbered @id (dcqcn_qp_flow()), or NULL. */
struct dcqcn_qp *dcqcn_qp_by_id(struct dcqcn_dev *dd, u32 id)
{
	struct dcqcn_qp *qp;

	hash_for_each_possible(dd->ids, qp, id_node, id)
		if (qp->id == id)
			return qp;
	return NULL;
}

/*
 * Under dd->lock: the QP a packet from @peer with UDP source port @sport
 * for local QP @qpn belongs to (see above), or NULL.
 */
struct dcqcn_qp *dcqcn_qp_find_in(struct dcqcn_dev *dd, const struct in6_addr *peer,
				  u16 sport, u32 qpn)
{
	return dcqcn_qp_find(dd, peer, sport) ?: dcqcn_qp_find(dd, peer, dcqcn_rxe_sport(qpn));
}

/*
 * Under dd->lock: the QP, made on first use; NULL when there are too many.
 * A new QP's id is one no QP of the device has (at most DCQCN_MAX_QPS of
 * 2^32 are taken): a QP forgotten while packets of its flow still wait in
 * the qdisc is not confused with a new one.
 */
struct dcqcn_qp *dcqcn_qp_get(struct dcqcn_dev *dd, const struct in6_addr *peer, u16 sport,
			      u64 now)
{
	struct dcqcn_qp *qp = dcqcn_qp_find(dd, peer, sport);

	if (qp)
		return qp;
	if (dd->nqps >= DCQCN_MAX_QPS)
		goto refused;
	qp = kzalloc(sizeof(*qp), GFP_ATOMIC | __GFP_NOWARN);
	if (!qp)
		goto refused;
	qp->peer = *peer;
	qp->sport = sport;
	qp->next_tx = now;
	do
		qp->id = ++dd->next_id;
	while (!qp->id || dcqcn_qp_by_id(dd, qp->id));
	dcqcn_rp_init(&qp->rp, &dd->cfg.rp_params, now);
	hash_add(dd->qps, &qp->node, dcqcn_qp_key(peer, sport));
	hash_add(dd->ids, &qp->id_node, qp->id);
	dd->nqps++;
	return qp;

refused:
	dd->qp_refused++;
	return NULL;
}

/*
 * Whether @qpn, the QP number a packet from @qp's peer names (a CNP's
 * DestQP), is the local QP of @qp: rxe gives a connected QP the port
 * rdma_get_udp_sport() makes of the two QP numbers (no flow label set),
 * and a QP before that the one dcqcn_rxe_sport() makes of its own.
 */
bool dcqcn_qp_named(const struct dcqcn_qp *qp, u32 qpn)
{
	return rdma_get_udp_sport(0, qpn, qp->peer_qpn) == qp->sport ||
	       dcqcn_rxe_sport(qpn) == qp->sport;
}

static void dcqcn_qp_del(struct dcqcn_dev *dd, struct dcqcn_qp *qp)
{
	hash_del(&qp->node);
	hash_del(&qp->id_node);
	dd->nqps--;
	kfree(qp);
}

/* Every DCQCN_GC_PERIOD: forget the QPs that sent nothing for a while. */
static void dcqcn_gc(struct timer_list *t)
{
	struct dcqcn_dev *dd = timer_container_of(dd, t, gc);
	struct hlist_node *tmp;
	struct dcqcn_qp *qp;
	int bkt;

	spin_lock(&dd->lock);
	hash_for_each_safe(dd->qps, bkt, tmp, qp, node)
		if (time_after(jiffies, qp->last_used + DCQCN_QP_IDLE))
			dcqcn_qp_del(dd, qp);
	spin_unlock(&dd->lock);
	mod_timer(&dd->gc, jiffies + DCQCN_GC_PERIOD);
}

/* Under RCU: the newest state of the device (see dcqcn_change()). */
struct dcqcn_dev *dcqcn_dev_find(const struct net *net, int ifindex)
{
	struct dcqcn_dev *dd;

	hash_for_each_possible_rcu(dcqcn_net(net)->devs, dd, node, ifindex)
		if (dd->ifindex == ifindex)
			return dd;
	return NULL;
}

/* Under RTNL: the state of the device of qdisc @sch, not yet in the table. */
struct dcqcn_dev *dcqcn_dev_create(struct Qdisc *sch)
{
	struct net_device *dev = qdisc_dev(sch);
	struct dcqcn_dev *dd;

	ASSERT_RTNL();
	dd = kzalloc(sizeof(*dd), GFP_KERNEL_ACCOUNT);
	if (!dd)
		return NULL;
	write_pnet(&dd->net, dev_net(dev));
	dd->ifindex = dev->ifindex;
	spin_lock_init(&dd->lock);
	hash_init(dd->qps);
	hash_init(dd->ids);
	timer_setup(&dd->gc, dcqcn_gc, 0);
	return dd;
}

/* Under RTNL: the state goes into the table; its timer starts. */
void dcqcn_dev_publish(struct dcqcn_dev *dd)
{
	ASSERT_RTNL();
	hash_add_rcu(dcqcn_net(read_pnet(&dd->net))->devs, &dd->node, dd->ifindex);
	mod_timer(&dd->gc, jiffies + DCQCN_GC_PERIOD);
}

static void dcqcn_dev_free_rcu(struct rcu_head *head)
{
	struct dcqcn_dev *dd = container_of(head, struct dcqcn_dev, rcu);
	struct hlist_node *tmp;
	struct dcqcn_qp *qp;
	int bkt;

	hash_for_each_safe(dd->qps, bkt, tmp, qp, node)
		dcqcn_qp_del(dd, qp);
	kfree(dd);
}

/*
 * Under RTNL, when the qdisc goes: out of the table, the timer stopped;
 * freed once no receive hook can still be looking at it.
 */
void dcqcn_dev_destroy(struct dcqcn_dev *dd)
{
	ASSERT_RTNL();
	if (!hlist_unhashed(&dd->node))
		hash_del_rcu(&dd->node);
	timer_delete_sync(&dd->gc);
	call_rcu(&dd->rcu, dcqcn_dev_free_rcu);
}

static int __net_init dcqcn_net_init(struct net *net)
{
	hash_init(dcqcn_net(net)->devs);
	return 0;
}

static struct pernet_operations dcqcn_net_ops = {
	.init = dcqcn_net_init,
	.id = &dcqcn_net_id,
	.size = sizeof(struct dcqcn_net),
};

/* Module init and exit: the per-namespace tables. */
int dcqcn_dev_init(void)
{
	return register_pernet_subsys(&dcqcn_net_ops);
}

void dcqcn_dev_exit(void)
{
	unregister_pernet_subsys(&dcqcn_net_ops);
}
