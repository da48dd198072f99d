/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_lossless: private data shared by the qdisc and class operations.
 */
#ifndef _SCH_LOSSLESS_H
#define _SCH_LOSSLESS_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/netfilter.h>
#include <linux/spinlock.h>
#include <net/sch_generic.h>
#include <net/gen_stats.h>
#include <net/pkt_sched.h>

#include "lossless_classify.h"
#include "lossless_mark.h"
#include "lossless_pfc.h"
#include "lossless_shaper.h"

#define LOSSLESS_DEFAULT_BUFFER	(4U << 20)	/* bytes */
#define LOSSLESS_MAX_SIZE	LOSSLESS_MAX_BURST	/* bytes: buffer, limit, kmax, burst */

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

	/* statistics */
	struct gnet_stats_basic_sync bstats;	/* packets and bytes sent */
	struct gnet_stats_queue qstats;		/* backlog (bytes), drops */
	u64 ecn_marked;
	u64 limit_drops;
	u64 buffer_drops;
	u32 peak_backlog;		/* bytes */
};

/* The pause the peer put on one priority (lossless_pfc_rx.c) */
struct lossless_pause {
	u64 until;	/* ns: paused while now < until */
	u64 start;	/* ns: time before this is in total_ns */
	u64 total_ns;	/* time paused, up to start */
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

	/* read-write on every packet */
	struct lossless_shaper shaper;
	struct list_head active;	/* ETS classes with packets, DRR order */
	struct lossless_class classes[TC_LOSSLESS_NUM_TC];

	/* PFC received (lossless_pfc_rx.c) */
	spinlock_t pfc_lock;		/* the hook's updates of pause[] */
	struct lossless_pause pause[TC_LOSSLESS_NUM_PRIO];
	atomic64_t pfc_rx[TC_LOSSLESS_NUM_TC];
	atomic64_t pfc_rx_bad;

	/* seldom used */
	struct qdisc_watchdog watchdog;	/* the shaper's and pauses' timer */
	u64 throttled;			/* times the shaper held the port */
	struct nf_hook_ops pfc_hook;	/* PFC frames in */
	struct net *pfc_net;		/* where pfc_hook is registered */
};

static inline struct lossless_class *lossless_class_of(struct Qdisc *sch, unsigned long cl)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	return &q->classes[cl - 1];
}

/* lossless_qdisc.c */
void lossless_class_set_quantum(struct lossless_sched_data *q, struct lossless_class *c,
				u32 quantum);

/* lossless_pfc_rx.c */
int lossless_pfc_rx_init(struct Qdisc *sch);
void lossless_pfc_rx_destroy(struct Qdisc *sch);
u8 lossless_paused_classes(struct lossless_sched_data *q, u64 now, u64 *next);
u64 lossless_pause_us(struct lossless_sched_data *q, int tc);

/* lossless_netlink.c */
int lossless_change(struct Qdisc *sch, struct nlattr *opt, struct netlink_ext_ack *extack);
int lossless_dump(struct Qdisc *sch, struct sk_buff *skb);
int lossless_dump_stats(struct Qdisc *sch, struct gnet_dump *d);
int lossless_put_class_stats(struct sk_buff *skb, struct lossless_sched_data *q, int tc);
void lossless_trim(struct Qdisc *sch);

extern const struct Qdisc_class_ops lossless_class_ops;

#endif /* _SCH_LOSSLESS_H */
