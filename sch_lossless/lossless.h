/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_lossless: private data shared by the qdisc and class operations.
 */
#ifndef _SCH_LOSSLESS_H
#define _SCH_LOSSLESS_H

#include <net/sch_generic.h>
#include <net/gen_stats.h>

#include "lossless_classify.h"

#define LOSSLESS_DEFAULT_BUFFER	(4U << 20)	/* bytes */
#define LOSSLESS_MAX_BUFFER	BIT(30)		/* bytes */

/*
 * One traffic class: a FIFO and its counters. Written by enqueue and
 * dequeue under the qdisc's root lock; class dumps read the counters
 * without that lock (6.1 copies class statistics unlocked), so a dump
 * taken under load is a snapshot.
 */
struct lossless_class {
	struct qdisc_skb_head q;
	struct gnet_stats_basic_sync bstats;	/* packets and bytes sent */
	struct gnet_stats_queue qstats;		/* backlog (bytes), drops */
};

struct lossless_sched_data {
	/* read-mostly: set by init/change under sch_tree_lock */
	struct lossless_prio_map prio_map;
	u32 buffer;				/* bytes, shared by all classes */

	/* read-write on every packet */
	struct lossless_class classes[TC_LOSSLESS_NUM_TC];
};

extern const struct Qdisc_class_ops lossless_class_ops;

#endif /* _SCH_LOSSLESS_H */
