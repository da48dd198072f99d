/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_lossless: private data shared by the qdisc and class operations.
 */
#ifndef _SCH_LOSSLESS_H
#define _SCH_LOSSLESS_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/netfilter.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <net/sch_generic.h>
#include <net/gen_stats.h>
#include <net/pkt_sched.h>

#include "lossless_classify.h"
#include "lossless_compat.h"
#include "lossless_mark.h"
#include "lossless_pfc.h"
#include "lossless_shaper.h"
#include "lossless_wd.h"

#define LOSSLESS_DEFAULT_BUFFER	(4U << 20)	/* bytes */
#define LOSSLESS_MAX_SIZE	LOSSLESS_MAX_BURST	/* bytes: buffer, limit, kmax, burst */
#define LOSSLESS_DEFAULT_XOFF	(64U << 10)	/* bytes */
#define LOSSLESS_DEFAULT_XON	(32U << 10)	/* bytes */
#define LOSSLESS_MAX_RESPONSE	NSEC_PER_SEC	/* ns */
#define LOSSLESS_CTL_LIMIT	64	/* MAC Control frames queued at most */
#define LOSSLESS_MAX_FLOWS	4096	/* paced flows waiting at once */
#define LOSSLESS_FLOW_HASH_BITS	9
#define LOSSLESS_PACE_BATCH	64	/* paced packets one dequeue moves at most */

/*
 * One traffic class: a FIFO, its configuration and its counters. Written
 * by enqueue and dequeue under the qdisc's root lock and by class change
 * under sch_tree_lock(); dumps read them without the lock (6.1 copies
 * class statistics unlocked), so a dump taken under load is a snapshot.
 */
struct lossless_class {
	struct qdisc_skb_head q;
	struct list_head alist;		/* on the ETS active list when queued */
	u32 deficit;			/* bytes, ETS */

	/* configuration */
	u32 quantum;			/* bytes; 0: strict priority */
	u32 limit;			/* bytes; 0: only the shared buffer */
	struct lossless_ecn ecn;
	u32 xoff;			/* bytes in from this port: XOFF above */
	u32 xon;			/* bytes: XON at or below */
	u32 headroom;			/* bytes above xoff; 0: auto */

	/* statistics */
	struct gnet_stats_basic_sync bstats;	/* packets and bytes sent */
	struct gnet_stats_queue qstats;		/* backlog (bytes), drops */
	u64 ecn_marked;
	u64 limit_drops;
	u64 buffer_drops;
	u64 hook_remapped;		/* hook-flow packets moved into the class */
	u64 in;				/* packets in: sent, dropped or queued */
	u64 ingress_drops;		/* dropped: their in-port's headroom full */
	u64 flushed;			/* thrown away by lossless_reset() */
	u64 out;			/* packets dequeued (a GSO packet counts one,
					 * as for "in"; bstats counts its segments)
					 */
	u64 qhist[TC_LOSSLESS_QHIST_FINE_BUCKETS];	/* backlogs found on enqueue */
	u32 peak_backlog;		/* bytes */
	u32 paced_qlen;			/* packets waiting for their flow's time */
	u32 paced_backlog;		/* bytes, the same (not in qstats.backlog) */
	u64 paced;			/* packets that waited */
};

/* The pause the peer put on one priority (lossless_pfc_rx.c) */
struct lossless_pause {
	u64 until;	/* ns: paused while now < until */
	u64 start;	/* ns: time before this is in total_ns */
	u64 total_ns;	/* time paused, up to start */
	u64 xoff_until;	/* ns: end of the last XOFF's pause (an XON cuts it short) */
};

/* One priority of an ingress port (lossless_port.c), under port->lock */
struct lossless_port_prio {
	u32 bytes;		/* queued anywhere, charged to this port */
	u32 xoff, xon, headroom;	/* bytes, from the port's class */
	u32 peak_headroom;	/* bytes, most ever above xoff */
	u64 xoff_sent;		/* XOFF frames, refreshes included */
	u64 xon_sent;
	u64 headroom_drops;
};

/* An ingress port: the qdisc of a device, seen from other qdiscs */
struct lossless_port {
	struct hlist_node node;		/* in the table of ports: RTNL, RCU */
	struct rcu_head rcu;
	refcount_t ref;			/* the owner's, and one per charged skb */
	int ifindex;			/* in its netns's table */
	struct hrtimer timer;		/* the refresh is due: schedules tx */
	struct tasklet_struct tx;	/* sends XOFF, XON and refreshes */

	spinlock_t lock;		/* all below */
	struct net_device *dev;		/* NULL once the owner is gone */
	u8 pfc_enable;			/* lossless priorities */
	u8 xoff;			/* congested: over xoff, not yet down to xon */
	u8 told;			/* paused, as the last frame told the peer */
	bool uplink;			/* one of the switch's uplinks (READ_ONCE) */
	u64 refresh_at;			/* ns: send the XOFFs again */
	u64 retry_ns;			/* a frame did not go: next try after */
	u64 speed_bps;
	struct lossless_port_prio prio[LOSSLESS_PFC_NUM_PRIO];
};

/* The port's counters of one traffic class */
struct lossless_port_stats {
	u64 xoff_sent, xon_sent, headroom_drops;
	u32 peak_headroom, bytes;
	u8 pausing;		/* the peer is told to pause a priority */
};

/*
 * The PFC watchdog of a port (lossless_pfcwd.c). Its timer polls every
 * class under the qdisc's root lock, which guards all of this; the masks
 * are read by enqueue and dequeue under the same lock.
 */
struct lossless_pfcwd {
	struct lossless_wd_config cfg;
	struct timer_list timer;
	struct Qdisc *sch;
	u64 last_poll;			/* ns */
	u8 ignore;			/* classes whose pauses are ignored (forward) */
	u8 drop;			/* classes whose packets are dropped (drop) */
	u8 pfc_off;			/* priorities it turned PFC off for */
	struct lossless_wd_queue queue[TC_LOSSLESS_NUM_TC];
	u64 last_sent[TC_LOSSLESS_NUM_TC];	/* packets, at the last poll */
	u64 last_paused[TC_LOSSLESS_NUM_TC];	/* ns paused, at the last poll */
	u64 dropped[TC_LOSSLESS_NUM_TC];
};

struct lossless_pfc_rx;

/* What sch_lossless keeps per network namespace (lossless_port.c) */
struct lossless_net {
	DECLARE_HASHTABLE(ports, 4);	/* by ifindex: RTNL, RCU */
	struct list_head pfc_rxs;	/* PFC receivers (lossless_pfc_rx.c): RTNL */
};

struct lossless_sched_data {
	/* read-mostly: set by init/change under sch_tree_lock */
	u8 trust;			/* enum tc_lossless_trust */
	struct lossless_prio_map prio_map;
	struct lossless_dscp_map dscp_map;
	u32 buffer;			/* bytes, shared by all classes */
	u8 pfc_enable;			/* bit n: priority n is lossless */
	u64 speed_cfg;			/* bytes/s as set; 0: automatic */
	u64 speed;			/* bytes/s used for pause times */
	u32 cable;			/* m, headroom auto */
	u32 mtu_cfg;			/* bytes as set; 0: the device's */
	u32 mtu;			/* bytes, headroom auto */
	u32 response;			/* ns the peer takes to stop; 0: IEEE's */
	u32 auto_headroom;		/* bytes, headroom auto */
	bool uplink;			/* the port is an uplink */
	u8 hook_remap[TC_LOSSLESS_NUM_PRIO];	/* hook flows: priority -> priority */
	u8 hook_mask;			/* priorities remapped here (uplink only) */
	u8 hook_dscp[TC_LOSSLESS_NUM_PRIO];	/* DSCP a flow moved to a priority gets */

	/* read-write on every packet */
	struct lossless_shaper shaper;
	struct qdisc_skb_head ctl;	/* MAC Control frames: first out, never paused */
	struct list_head active;	/* ETS classes with packets, DRR order */
	u8 strict_busy;			/* bit n: strict class n has packets */
	struct lossless_class classes[TC_LOSSLESS_NUM_TC];

	/* PFC received (lossless_pfc_rx.c) */
	spinlock_t pfc_lock;		/* the hook's updates of pause[] */
	struct lossless_pause pause[TC_LOSSLESS_NUM_PRIO];
	atomic64_t pfc_rx[TC_LOSSLESS_NUM_TC];
	atomic64_t pfc_rx_bad;

	/* seldom used */
	struct qdisc_watchdog watchdog;	/* the shaper's and pauses' timer */
	u64 throttled;			/* times the shaper held the port */
	u64 in;				/* packets in, PFC frames too */
	u64 flushed;			/* packets thrown away by lossless_reset() */
	u64 out;			/* packets dequeued, PFC frames too; as in */
	struct lossless_pfc_rx *pfc_rcv;	/* its device's PFC receiver */
	struct list_head pfc_rcv_node;	/* in pfc_rcv->qdiscs */
	struct Qdisc *sch;		/* the qdisc, for the receiver */
	struct lossless_port *port;	/* this device as an ingress port */
	struct lossless_pfcwd wd;
	void *cc;			/* the endpoint's congestion control */
	const struct lossless_cc_ops *cc_ops;	/* (lossless_cc.c) */

	/* its paced flows with packets waiting (lossless_pace.c) */
	DECLARE_HASHTABLE(flows, LOSSLESS_FLOW_HASH_BITS);	/* by key */
	struct rb_root_cached waiting;	/* by the time their head may go */
	u32 nflows;
	u64 pace_refused;		/* packets not paced: no flow to be had */
};

/* What a queued packet carries in its qdisc control block */
struct lossless_skb_cb {
	struct lossless_port *port;	/* charged to; NULL: not charged */
	u8 prio;
	u8 tc;				/* its class */
};

static inline struct lossless_skb_cb *lossless_skb_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct lossless_skb_cb));
	return (struct lossless_skb_cb *)qdisc_skb_cb(skb)->data;
}

static inline void lossless_skb_uncharged(struct sk_buff *skb)
{
	lossless_skb_cb(skb)->port = NULL;
}

static inline struct lossless_class *lossless_class_of(struct Qdisc *sch, unsigned long cl)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	return &q->classes[cl - 1];
}

/* lossless_qdisc.c */
int lossless_classify(struct lossless_sched_data *q, struct Qdisc *sch,
		      const struct sk_buff *skb, u8 *tc);

/* lossless_pace.c */
int lossless_pace_init(void);
void lossless_pace_exit(void);
bool lossless_pace_hold(struct Qdisc *sch, struct sk_buff *skb, u64 flow, u64 time, u64 now);
struct sk_buff *lossless_pace_due(struct Qdisc *sch, u64 now);
u64 lossless_pace_next(struct lossless_sched_data *q);
void lossless_pace_flush(struct Qdisc *sch);
unsigned int lossless_pace_trim(struct Qdisc *sch, unsigned int *bytes);
void lossless_class_set_quantum(struct lossless_sched_data *q, struct lossless_class *c,
				u32 quantum);

/* lossless_pfc_rx.c */
int lossless_pfc_rx_attach(struct Qdisc *sch);
void lossless_pfc_rx_detach(struct Qdisc *sch);
u8 lossless_paused_classes(struct lossless_sched_data *q, u64 now, u64 *next);
u64 lossless_pause_us(struct lossless_sched_data *q, int tc);
void lossless_pause_read(struct lossless_sched_data *q, u8 prios, u64 now,
			 u64 *paused_ns, u64 *last_xoff);
u8 lossless_tc_prios(const struct lossless_sched_data *q, int tc);

/* lossless_hook.c */
bool lossless_hook_remap(struct lossless_sched_data *q, struct sk_buff *skb, u8 from, u8 *tc);

/* lossless_pfcwd.c */
void lossless_pfcwd_init(struct Qdisc *sch);
void lossless_pfcwd_set(struct Qdisc *sch, const struct lossless_wd_config *cfg, u8 pfc_on);
void lossless_pfcwd_start(struct Qdisc *sch);
void lossless_pfcwd_stop(struct Qdisc *sch);
u32 lossless_pfcwd_poll_us(const struct lossless_sched_data *q);

/* lossless_port.c */
int lossless_port_init(void);
void lossless_port_exit(void);
struct lossless_net *lossless_net(const struct net *net);
int lossless_port_attach(struct Qdisc *sch);
void lossless_port_detach(struct Qdisc *sch);
void lossless_port_configure(struct Qdisc *sch);
int lossless_skb_iif(const struct Qdisc *sch, const struct sk_buff *skb);
int lossless_port_charge(struct Qdisc *sch, struct sk_buff *skb, int iif, u8 prio);
void lossless_port_uncharge(struct sk_buff *skb);
bool lossless_port_uplink(struct Qdisc *sch, int ifindex);
void lossless_port_tc_stats(struct lossless_sched_data *q, int tc,
			    struct lossless_port_stats *st);

/* lossless_cc.c */
struct lossless_cc_ops;
struct lossless_cc_port;
int lossless_cc_change(struct Qdisc *sch, const struct nlattr *opt,
		       const struct lossless_cc_port *port, void **cc,
		       const struct lossless_cc_ops **ops, struct netlink_ext_ack *extack);
void lossless_cc_commit(struct lossless_sched_data *q, void *cc,
			const struct lossless_cc_ops *ops);
void lossless_cc_destroy(struct Qdisc *sch);
int lossless_cc_dump(struct lossless_sched_data *q, struct sk_buff *skb);
int lossless_cc_dump_stats(struct lossless_sched_data *q, struct sk_buff *skb);

/* lossless_netlink.c */
int lossless_change(struct Qdisc *sch, struct nlattr *opt, struct netlink_ext_ack *extack);
int lossless_dump(struct Qdisc *sch, struct sk_buff *skb);
int lossless_dump_stats(struct Qdisc *sch, struct gnet_dump *d);
int lossless_put_class_stats(struct sk_buff *skb, struct lossless_sched_data *q, int tc);
void lossless_trim(struct Qdisc *sch);

/* The packet leaves its queue, sent or dropped: release its charge, if any. */
static inline void lossless_port_release(struct sk_buff *skb)
{
	if (lossless_skb_cb(skb)->port)
		lossless_port_uncharge(skb);
}

/* Take the head packet of class @c off the queues (under the root lock). */
static inline struct sk_buff *lossless_class_pop(struct Qdisc *sch, struct lossless_class *c)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb = __qdisc_dequeue_head(&c->q);

	lossless_port_release(skb);
	c->qstats.backlog -= qdisc_pkt_len(skb);
	if (!c->q.qlen) {
		if (c->quantum)
			list_del_init(&c->alist);
		else
			q->strict_busy &= ~BIT(c - q->classes);
	}
	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	return skb;
}

extern const struct Qdisc_class_ops lossless_class_ops;

#endif /* _SCH_LOSSLESS_H */
