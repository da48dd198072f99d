/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcqcn_cc: DCQCN for the RoCEv2 QPs of an endpoint whose device has a
 * lossless qdisc. Internal declarations.
 */
#ifndef _DCQCN_H
#define _DCQCN_H

#include <linux/bits.h>
#include <linux/hashtable.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <net/net_namespace.h>
#include <net/lossless_cc.h>
#include <net/sch_generic.h>

#include "dcqcn_cnp.h"
#include "dcqcn_rp.h"
#include "../sch_lossless/lossless_compat.h"

/* rxe's UDP source port of a new QP (dcqcn_dev.c) */
#define DCQCN_RXE_SPORT_BASE	0xc000
#define DCQCN_RXE_SPORT_BITS	14

#define DCQCN_MAX_QPS		4096	/* per device */
#define DCQCN_QP_IDLE		(5 * HZ)	/* unused this long: forgotten */
#define DCQCN_GC_PERIOD		HZ
#define DCQCN_DUMP_QPS		64	/* QPs in one statistics dump */

/**
 * struct dcqcn_cfg - the settings of one device
 * @np: priorities with a notification point
 * @rp: priorities with a reaction point (their RoCEv2 packets leave ECT(0))
 * @cnp_dscp: DSCP of the CNPs sent
 * @cnp_prio: skb priority of the CNPs sent
 * @pkey: P_Key of the CNPs sent
 * @min_time_between_cnps: us, per QP
 * @rp_params: the RP knobs (rates in bit/s)
 * @trust: the qdisc's trust (enum tc_lossless_trust), for packets in
 * @dscp_prio: the qdisc's DSCP to priority map, the same
 */
struct dcqcn_cfg {
	u8 np;
	u8 rp;
	u8 cnp_dscp;
	u8 cnp_prio;
	u16 pkey;
	u32 min_time_between_cnps;
	struct dcqcn_rp_params rp_params;
	u8 trust;
	u8 dscp_prio[TC_LOSSLESS_NUM_DSCP];
};

/**
 * struct dcqcn_qp - one QP of this endpoint, as the wire shows it
 * @node: in dcqcn_dev.qps
 * @id_node: in dcqcn_dev.ids
 * @id: its number on the device, for the qdisc's pacing (dcqcn_qp_flow())
 * @peer: the peer's address, IPv6 or IPv4-mapped
 * @sport: UDP source port of the local QP (rxe: from its QP number)
 * @peer_qpn: the peer's QP number, the DestQP of the QP's packets out
 * @prio: priority of its packets out
 * @last_used: jiffies, its last packet out
 * @last_cnp: ns, the last CNP sent for it
 * @cnp_sent: CNPs sent for it
 * @cnp_handled: CNPs it reacted to
 * @rp: its rate machine
 * @next_tx: ns, when its next packet may go (pacing, dcqcn_pace.c)
 * @paced: its packets that waited for that
 */
struct dcqcn_qp {
	struct hlist_node node;
	struct hlist_node id_node;
	u32 id;
	struct in6_addr peer;
	u16 sport;
	u32 peer_qpn;
	u8 prio;
	unsigned long last_used;
	u64 last_cnp;
	u64 cnp_sent;
	u64 cnp_handled;
	struct dcqcn_rp rp;
	u64 next_tx;
	u64 paced;
};

/**
 * struct dcqcn_dev - the state of one device (one lossless root qdisc)
 * @node: in its namespace's table of devices (RTNL for writers, RCU for
 *	  readers)
 * @rcu: frees it
 * @net: the device's namespace
 * @ifindex: the device
 * @gc: forgets idle QPs
 * @lock: everything below
 * @cfg: the settings
 * @qps: the QPs, by (peer, sport)
 * @ids: the QPs, by id
 * @nqps: how many
 * @next_id: the id of the next QP
 * @ip_id: IPv4 id of the next CNP
 * @np_ecn_marked: np_ecn_marked_roce_packets: CE RoCEv2 packets in
 * @np_cnp_sent: np_cnp_sent
 * @np_cnp_no_peer: CE packets of a QP whose peer QP is not known: no CNP
 * @rp_cnp_handled: rp_cnp_handled
 * @rp_cnp_ignored: rp_cnp_ignored: CNPs not taken, for any reason below
 * @cnp_fault: CNPs not taken, by enum dcqcn_cnp_fault (DCQCN_CNP_OK unused)
 * @cnp_no_qp: well-formed CNPs for no QP of ours with a reaction point
 * @ect_set: RoCEv2 packets out made ECT(0)
 * @paced: packets out that waited for their QP's rate
 * @qp_refused: packets out of a new QP not followed (DCQCN_MAX_QPS)
 */
struct dcqcn_dev {
	struct hlist_node node;
	struct rcu_head rcu;
	possible_net_t net;
	int ifindex;
	struct timer_list gc;

	spinlock_t lock;		/* cfg, qps, nqps, ip_id, counters */
	struct dcqcn_cfg cfg;
	DECLARE_HASHTABLE(qps, 8);
	DECLARE_HASHTABLE(ids, 8);
	unsigned int nqps;
	u32 next_id;
	u16 ip_id;
	u64 np_ecn_marked;
	u64 np_cnp_sent;
	u64 np_cnp_no_peer;
	u64 rp_cnp_handled;
	u64 rp_cnp_ignored;
	u64 cnp_fault[DCQCN_CNP_FAULTS];
	u64 cnp_no_qp;
	u64 ect_set;
	u64 paced;
	u64 qp_refused;
};

/* A QP as the qdisc's pacing knows it (a flow): nonzero */
static inline u64 dcqcn_qp_flow(const struct dcqcn_qp *qp)
{
	return BIT_ULL(32) | qp->id;
}

static inline u32 dcqcn_flow_id(u64 flow)
{
	return (u32)flow;
}

/* dcqcn_dev.c */
struct dcqcn_dev *dcqcn_dev_create(struct Qdisc *sch);
void dcqcn_dev_publish(struct dcqcn_dev *dd);
void dcqcn_dev_destroy(struct dcqcn_dev *dd);
struct dcqcn_dev *dcqcn_dev_find(const struct net *net, int ifindex);
struct dcqcn_qp *dcqcn_qp_find(struct dcqcn_dev *dd, const struct in6_addr *peer, u16 sport);
struct dcqcn_qp *dcqcn_qp_find_in(struct dcqcn_dev *dd, const struct in6_addr *peer,
				  u16 sport, u32 qpn);
struct dcqcn_qp *dcqcn_qp_get(struct dcqcn_dev *dd, const struct in6_addr *peer, u16 sport,
			      u64 now);
struct dcqcn_qp *dcqcn_qp_by_id(struct dcqcn_dev *dd, u32 id);
bool dcqcn_qp_named(const struct dcqcn_qp *qp, u32 qpn);

/* dcqcn_netlink.c */
int dcqcn_change(struct Qdisc *sch, void **cc, const struct nlattr *opt,
		 const struct lossless_cc_port *port, struct netlink_ext_ack *extack);
int dcqcn_dump(void *cc, struct sk_buff *skb);
int dcqcn_dump_stats(void *cc, struct sk_buff *skb);

/* dcqcn_tx.c */
enum lossless_cc_verdict dcqcn_classify(void *cc, struct sk_buff *skb, int prio, u64 now,
					u64 *flow, u64 *time);

/* dcqcn_pace.c */
u64 dcqcn_sent(void *cc, u64 flow, unsigned int len, bool waited, u64 now);

/* dcqcn_rx.c */
void dcqcn_trace_rate(struct dcqcn_dev *dd, struct dcqcn_qp *qp, u64 now);
int dcqcn_rx_init(void);
void dcqcn_rx_exit(void);
int dcqcn_dev_init(void);
void dcqcn_dev_exit(void);

#endif /* _DCQCN_H */
