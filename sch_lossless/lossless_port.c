// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: ingress accounting and PFC transmission (IEEE 802.1Qbb).
 *
 * A switch pauses its peer for the buffer that the peer's traffic holds,
 * wherever that traffic waits. Each lossless qdisc owns a port object for
 * its device, in a table of its network namespace's (pernet, by ifindex:
 * a namespace sees, and fills, only its own). When any lossless qdisc queues a
 * packet that came in through a device with a port (skb->skb_iif, set by
 * the receive path and kept by the bridge and by routing), it charges the
 * packet's length to that port's priority; the charge is released when
 * the packet leaves its queue, sent or dropped. A packet made locally
 * (skb_iif 0) or from a device without a lossless qdisc is not charged.
 *
 * Per (port, priority), with the thresholds of the port's own class for
 * that priority:
 *
 *   bytes > xoff             the priority is congested: XOFF the peer
 *   bytes <= xon             the congestion is over: XON (quanta 0)
 *   bytes + len > xoff + headroom
 *                            the packet is dropped and counted
 *                            (headroom_drops): the peer did not stop in
 *                            time, the headroom was too small
 *
 * Frames go out of the port's device from the port's tasklet (softirq,
 * so never under another qdisc's lock): scheduled at once when a priority
 * changes state, and by the port's hrtimer before the pause it asked for
 * runs out (lossless_pfc_refresh_ns()) while any priority stays congested.
 * One frame carries the state of every priority that changed or needs
 * refreshing; an XOFF asks for the longest pause (65535 quanta) so that a
 * lost refresh costs nothing but the refresh period.
 *
 * Locking and lifetime: a namespace's table of ports is written under RTNL
 * (qdisc init and destroy) and read under RCU; it outlives its ports (the
 * namespace's devices, and so their qdiscs, go first). A port is freed after RCU when the
 * owner's reference and the references of all charged packets are gone.
 * port->lock (taken with BHs off, inside the qdisc root locks, never the
 * other way round) protects the state and counters; the owner's detach
 * clears port->dev under it, then cancels the timer and kills the
 * tasklet, which wait for a running callback, so the tasklet may use the
 * device it read. Neither re-arms the other once port->dev is NULL.
 */
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/dst.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/pkt_sched.h>

#include "lossless.h"

#define CREATE_TRACE_POINTS
#include "lossless_trace.h"

#define LOSSLESS_XOFF_QUANTA	LOSSLESS_PFC_MAX_QUANTA
/* A frame could not go out (the device down, its queue full): try again
 * after 100 us, twice as long each time up to 100 ms, so that a port whose
 * device stays down costs ten wake-ups a second and tells the peer within
 * 100 ms of coming back.
 */
#define LOSSLESS_RETRY_MIN_NS	(100 * NSEC_PER_USEC)
#define LOSSLESS_RETRY_MAX_NS	(100 * NSEC_PER_MSEC)

static unsigned int lossless_net_id __read_mostly;

/* The state of @net: its ports and PFC receivers. */
struct lossless_net *lossless_net(const struct net *net)
{
	return net_generic(net, lossless_net_id);
}

static void lossless_port_put(struct lossless_port *port)
{
	if (refcount_dec_and_test(&port->ref))
		kfree_rcu(port, rcu);
}

/* A reference to the port of @ifindex in @net, or NULL. */
static struct lossless_port *lossless_port_get(struct net *net, int ifindex)
{
	struct lossless_port *port;

	rcu_read_lock();
	hash_for_each_possible_rcu(lossless_net(net)->ports, port, node, ifindex) {
		if (port->ifindex == ifindex && refcount_inc_not_zero(&port->ref)) {
			rcu_read_unlock();
			return port;
		}
	}
	rcu_read_unlock();
	return NULL;
}

/* Have the frame work run now (port->lock held, port attached). */
static void lossless_port_kick(struct lossless_port *port)
{
	tasklet_schedule(&port->tx);
}

/* One PFC frame from @dev, or NULL. */
static struct sk_buff *lossless_port_frame(struct net_device *dev, const struct lossless_pfc *pfc)
{
	int hlen = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;

	skb = alloc_skb(hlen + LOSSLESS_PFC_FRAME_LEN + dev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, hlen);
	skb_reset_mac_header(skb);
	lossless_pfc_encode(skb_put(skb, LOSSLESS_PFC_FRAME_LEN), dev->dev_addr, pfc);
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = htons(ETH_P_PAUSE);
	skb->priority = TC_PRIO_CONTROL;
	skb->dev = dev;
	return skb;
}

/* Send one PFC frame out of @dev (its qdisc sends it first); false if it
 * could not be queued.
 */
static bool lossless_port_send(struct net_device *dev, const struct lossless_pfc *pfc)
{
	struct sk_buff *skb = lossless_port_frame(dev, pfc);

	return skb && dev_queue_xmit(skb) == NET_XMIT_SUCCESS;
}

/* A frame went out (port->lock held): count it for each priority it told. */
static void lossless_port_count(struct lossless_port *port, u8 xoff, u8 xon)
{
	int p;

	for (p = 0; p < LOSSLESS_PFC_NUM_PRIO; p++) {
		if (xoff & BIT(p))
			port->prio[p].xoff_sent++;
		else if (xon & BIT(p))
			port->prio[p].xon_sent++;
	}
}

/* The refresh is due: do it from the tasklet, which sends every frame. */
static enum hrtimer_restart lossless_port_timer(struct hrtimer *timer)
{
	struct lossless_port *port = container_of(timer, struct lossless_port, timer);

	tasklet_schedule(&port->tx);
	return HRTIMER_NORESTART;
}

/* Send what the peer must be told, if anything, and plan the refresh. */
static void lossless_port_tx(struct tasklet_struct *t)
{
	struct lossless_port *port = from_tasklet(port, t, tx);
	struct hrtimer *timer = &port->timer;
	struct lossless_pfc pfc = {};
	struct net_device *dev;
	u8 xoff, xon, changed;
	u64 now, refresh;
	bool sent;
	int p;

	spin_lock(&port->lock);
	dev = port->dev;
	if (!dev)
		goto unlock;
	now = ktime_get_ns();
	xoff = port->xoff & port->pfc_enable;
	changed = xoff ^ port->told;
	if (!changed && !(xoff && now >= port->refresh_at)) {
		if (xoff)
			hrtimer_start(timer, ns_to_ktime(port->refresh_at - now),
				      HRTIMER_MODE_REL);
		goto unlock;
	}
	/* one frame: every congested priority (a refresh for those already
	 * paused) and an XON for each that is no longer
	 */
	xon = changed & ~xoff;
	pfc.enable = xoff | xon;
	for (p = 0; p < LOSSLESS_PFC_NUM_PRIO; p++)
		if (xoff & BIT(p))
			pfc.quanta[p] = LOSSLESS_XOFF_QUANTA;
	port->told = xoff;
	if (xoff) {
		refresh = lossless_pfc_refresh_ns(LOSSLESS_XOFF_QUANTA, port->speed_bps);
		port->refresh_at = now + refresh;
		hrtimer_start(timer, ns_to_ktime(refresh), HRTIMER_MODE_REL);
	}
	spin_unlock(&port->lock);

	sent = lossless_port_send(dev, &pfc);

	spin_lock(&port->lock);
	if (sent) {
		port->retry_ns = 0;
		lossless_port_count(port, xoff, xon);
	} else {
		/* not sent: what changed is still to tell, try again soon */
		port->told ^= changed;
		port->refresh_at = now;
		port->retry_ns = clamp(port->retry_ns * 2, LOSSLESS_RETRY_MIN_NS,
				       LOSSLESS_RETRY_MAX_NS);
		if (port->dev)
			hrtimer_start(timer, ns_to_ktime(port->retry_ns), HRTIMER_MODE_REL);
	}
	spin_unlock(&port->lock);
	if (sent && xoff)
		trace_lossless_xoff_sent(dev, xoff, LOSSLESS_XOFF_QUANTA);
	if (sent && xon)
		trace_lossless_xon_sent(dev, xon, 0);
	return;

unlock:
	spin_unlock(&port->lock);
}

/**
 * lossless_skb_iif() - the device a packet came in by, in @sch's namespace
 * @sch: the qdisc about to queue it
 * @skb: the packet
 *
 * skb->skb_iif is an index of the namespace the packet was received in. A
 * packet routed in another namespace and handed to this device without
 * crossing a veth (a macvlan or an ipvlan: no skb_scrub_packet()) keeps
 * that namespace's index, and that namespace's route: a packet whose route
 * (skb_dst, which lossless_port_attach() keeps until the qdisc) belongs to
 * another namespace came in by no port of this one. A packet bridged in
 * another namespace carries no route and is not told apart.
 *
 * Return: the index, or 0 (made here, or by no device of this namespace).
 */
int lossless_skb_iif(const struct Qdisc *sch, const struct sk_buff *skb)
{
	const struct dst_entry *dst = skb_dst(skb);

	if (dst && dst->dev && !net_eq(dev_net(dst->dev), dev_net(qdisc_dev(sch))))
		return 0;
	return skb->skb_iif;
}

/*
 * lossless_port_charge() - charge a packet to the port it came in through
 * @sch: the qdisc about to queue it (its root lock held)
 * @skb: the packet, forwarded and marked uncharged
 * @iif: the device it came in by (lossless_skb_iif())
 * @prio: its priority
 *
 * Return: 0 when queued may go on (charged or not chargeable), -ENOBUFS
 * when the port's headroom for @prio is full: drop the packet.
 */
int lossless_port_charge(struct Qdisc *sch, struct sk_buff *skb, int iif, u8 prio)
{
	struct lossless_skb_cb *cb = lossless_skb_cb(skb);
	unsigned int len = qdisc_pkt_len(skb);
	struct lossless_port_prio *pp;
	struct lossless_port *port;
	int err = 0;

	port = lossless_port_get(dev_net(qdisc_dev(sch)), iif);
	if (!port)
		return 0;
	pp = &port->prio[prio];
	spin_lock(&port->lock);
	if (!port->dev || !(port->pfc_enable & BIT(prio))) {
		spin_unlock(&port->lock);
		lossless_port_put(port);
		return 0;
	}
	if (pp->bytes + len > pp->xoff + pp->headroom) {
		pp->headroom_drops++;
		err = -ENOBUFS;
	} else {
		pp->bytes += len;
		if (pp->bytes > pp->xoff) {
			pp->peak_headroom = max(pp->peak_headroom, pp->bytes - pp->xoff);
			if (!(port->xoff & BIT(prio))) {
				port->xoff |= BIT(prio);
				lossless_port_kick(port);
			}
		}
	}
	spin_unlock(&port->lock);
	if (err) {
		lossless_port_put(port);
		return err;
	}
	cb->port = port;
	cb->prio = prio;
	return 0;
}

/* Whether the device @ifindex of the qdisc's netns is a lossless uplink. */
bool lossless_port_uplink(struct Qdisc *sch, int ifindex)
{
	struct net *net = dev_net(qdisc_dev(sch));
	struct lossless_port *port;
	bool uplink = false;

	rcu_read_lock();
	hash_for_each_possible_rcu(lossless_net(net)->ports, port, node, ifindex) {
		if (port->ifindex == ifindex) {
			uplink = READ_ONCE(port->uplink);
			break;
		}
	}
	rcu_read_unlock();
	return uplink;
}

/*
 * The packet leaves its queue, sent or dropped: release its charge to the
 * port it came in through (lossless_port_release() checks it has one).
 */
void lossless_port_uncharge(struct sk_buff *skb)
{
	struct lossless_skb_cb *cb = lossless_skb_cb(skb);
	struct lossless_port *port = cb->port;
	struct lossless_port_prio *pp = &port->prio[cb->prio];

	spin_lock(&port->lock);
	pp->bytes -= qdisc_pkt_len(skb);
	if ((port->xoff & BIT(cb->prio)) && pp->bytes <= pp->xon) {
		port->xoff &= ~BIT(cb->prio);
		if (port->dev)
			lossless_port_kick(port);
	}
	spin_unlock(&port->lock);
	cb->port = NULL;
	lossless_port_put(port);
}

/*
 * Copy the qdisc's settings into its port: the lossless priorities, the
 * speed, and each priority's thresholds from the class it maps to.
 */
static void lossless_port_set(struct lossless_port *port, const struct lossless_sched_data *q)
{
	int p;

	port->pfc_enable = q->pfc_enable;
	WRITE_ONCE(port->uplink, q->uplink);
	port->speed_bps = q->speed * BITS_PER_BYTE;
	for (p = 0; p < LOSSLESS_PFC_NUM_PRIO; p++) {
		const struct lossless_class *c = &q->classes[q->prio_map.tc[p]];
		struct lossless_port_prio *pp = &port->prio[p];

		pp->xoff = c->xoff;
		pp->xon = c->xon;
		pp->headroom = c->headroom ?: q->auto_headroom;
		if ((port->xoff & BIT(p)) && pp->bytes <= pp->xon)
			port->xoff &= ~BIT(p);
	}
}

/* The qdisc's settings changed (under sch_tree_lock()): its port follows. */
void lossless_port_configure(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_port *port = q->port;

	if (!port)		/* init: attached once the options are good */
		return;
	spin_lock(&port->lock);
	lossless_port_set(port, q);
	/* a priority no longer lossless, or no longer congested: tell the peer */
	if (port->dev && (port->xoff & port->pfc_enable) != port->told)
		lossless_port_kick(port);
	spin_unlock(&port->lock);
}

/* The port's counters for traffic class @tc: the sum of its priorities. */
void lossless_port_tc_stats(struct lossless_sched_data *q, int tc,
			    struct lossless_port_stats *st)
{
	struct lossless_port *port = q->port;
	int p;

	memset(st, 0, sizeof(*st));
	spin_lock_bh(&port->lock);
	for (p = 0; p < LOSSLESS_PFC_NUM_PRIO; p++) {
		const struct lossless_port_prio *pp = &port->prio[p];

		if (q->prio_map.tc[p] != tc)
			continue;
		st->xoff_sent += pp->xoff_sent;
		st->xon_sent += pp->xon_sent;
		st->headroom_drops += pp->headroom_drops;
		st->peak_headroom = max(st->peak_headroom, pp->peak_headroom);
		st->bytes += pp->bytes;
		if (port->told & BIT(p))
			st->pausing = 1;
	}
	spin_unlock_bh(&port->lock);
}

/* qdisc init, under RTNL: the port of the qdisc's device. */
int lossless_port_attach(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	struct lossless_port *port;

	ASSERT_RTNL();
	port = kzalloc(sizeof(*port), GFP_KERNEL_ACCOUNT);
	if (!port)
		return -ENOMEM;
	refcount_set(&port->ref, 1);
	port->ifindex = dev->ifindex;
	spin_lock_init(&port->lock);
	hrtimer_setup(&port->timer, lossless_port_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	tasklet_setup(&port->tx, lossless_port_tx);
	port->dev = dev;
	lossless_port_set(port, q);	/* not seen by anyone yet */
	/* a packet's route up to the qdisc: lossless_skb_iif() reads it */
	netif_keep_dst(dev);
	/* the newest qdisc of a device takes its ingress (see the lookup) */
	hash_add_rcu(lossless_net(dev_net(dev))->ports, &port->node, port->ifindex);
	q->port = port;
	return 0;
}

/*
 * qdisc destroy, under RTNL: no more charges or frames. Packets charged
 * to the port elsewhere keep it until they leave their queues. A peer we
 * paused is told to resume at once (one XON, not repeated): traffic that
 * was waiting for this qdisc goes to the one that replaces it.
 */
void lossless_port_detach(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_port *port = q->port;
	struct lossless_pfc pfc = {};
	struct net_device *dev;
	struct sk_buff *skb;

	ASSERT_RTNL();
	if (!port)
		return;
	hash_del_rcu(&port->node);
	spin_lock_bh(&port->lock);
	dev = port->dev;
	pfc.enable = port->told;
	port->told = 0;
	port->dev = NULL;
	spin_unlock_bh(&port->lock);
	/* neither rearms the other once dev is NULL */
	hrtimer_cancel(&port->timer);
	tasklet_kill(&port->tx);
	/* the device's queues are being changed: straight to the driver */
	skb = pfc.enable ? lossless_port_frame(dev, &pfc) : NULL;
	if (skb && dev_direct_xmit(skb, 0) == NETDEV_TX_OK) {
		spin_lock_bh(&port->lock);
		lossless_port_count(port, 0, pfc.enable);
		spin_unlock_bh(&port->lock);
		trace_lossless_xon_sent(dev, pfc.enable, 0);
	}
	q->port = NULL;
	lossless_port_put(port);
}

static int __net_init lossless_net_init(struct net *net)
{
	struct lossless_net *ln = lossless_net(net);

	hash_init(ln->ports);
	INIT_LIST_HEAD(&ln->pfc_rxs);
	return 0;
}

static struct pernet_operations lossless_net_ops = {
	.init = lossless_net_init,
	.id = &lossless_net_id,
	.size = sizeof(struct lossless_net),
};

/* Module init and exit: the per-namespace tables. */
int lossless_port_init(void)
{
	return register_pernet_subsys(&lossless_net_ops);
}

void lossless_port_exit(void)
{
	unregister_pernet_subsys(&lossless_net_ops);
}
