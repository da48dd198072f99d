// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: RoCEv2 packets coming in, before rxe sees them.
 *
 * A netfilter hook at IPv4 LOCAL_IN, in every namespace, looks at UDP to
 * 4791 arriving on a device that has DCQCN:
 *
 * - a CNP (BTH opcode 0x81) names one of our QPs (DestQP): the reaction
 *   point of that QP cuts its rate (dcqcn_rp_cnp()), and the CNP is
 *   consumed (rxe would drop it as a bad QP type);
 * - any other packet marked CE, of a priority with a notification point,
 *   asks for a CNP back to the sender: to its address, from the local
 *   QP's port, with DestQP the peer's QP of the local QP the packet is for
 *   (learnt from that QP's packets out, dcqcn_tx.c; dcqcn_dev.c says how
 *   a packet in finds its QP), at most one per QP per
 *   min_time_between_cnps.
 *
 * The hook runs in softirq context under RCU; the device's state is found
 * under RCU and locked with its spinlock. The CNP is sent after the lock
 * is dropped, through the IPv4 output path (routing, LOCAL_OUT, the
 * device's qdisc), with the priority cnp_prio and the DSCP cnp_dscp.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ktime.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/lossless_cc.h>
#include <net/route.h>

#include "dcqcn.h"
#include "dcqcn_cnp.h"
#include "../sch_lossless/lossless_classify.h"

#define CREATE_TRACE_POINTS
#include "dcqcn_trace.h"

/* Send one CNP: from @saddr to @daddr, as @info says. */
static int dcqcn_send_cnp(struct net *net, const struct dcqcn_cnp_info *info, u8 prio)
{
	struct flowi4 fl4 = {
		.daddr = info->daddr,
		.saddr = info->saddr,
		.flowi4_tos = (info->dscp << 2) & IPTOS_TOS_MASK,
		.flowi4_proto = IPPROTO_UDP,
	};
	struct sk_buff *skb;
	struct rtable *rt;
	int hlen, err;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	hlen = LL_RESERVED_SPACE(rt->dst.dev);
	skb = alloc_skb(hlen + ROCE_CNP_IPV4_BYTES + rt->dst.dev->needed_tailroom, GFP_ATOMIC);
	if (!skb) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	skb_reserve(skb, hlen);
	skb_reset_network_header(skb);
	dcqcn_cnp_write_ipv4(skb_put(skb, ROCE_CNP_IPV4_BYTES), ROCE_CNP_IPV4_BYTES, info);
	skb->protocol = htons(ETH_P_IP);
	skb->priority = prio;
	skb_dst_set(skb, &rt->dst);
	err = ip_local_out(net, NULL, skb);
	/* net_xmit_eval() evaluates its argument twice */
	return net_xmit_eval(err);
}

/* Under dd->lock: the rate of @qp has changed. */
void dcqcn_trace_rate(struct dcqcn_dev *dd, struct dcqcn_qp *qp, u64 now)
{
	const struct dcqcn_rp_params *p = &dd->cfg.rp_params;

	if (!trace_dcqcn_rate_enabled())
		return;
	trace_dcqcn_rate(dd->ifindex, qp->peer, qp->sport, qp->rp.rc, qp->rp.rt,
			 DCQCN_ALPHA_SHOWN(dcqcn_rp_alpha(&qp->rp, p, now)),
			 dcqcn_rp_stage(&qp->rp, p));
}

/*
 * A packet with the CNP opcode, from @peer, port @sport, @len bytes of it
 * linear at its IP header: if it is a well-formed CNP (dcqcn_cnp.c) that
 * names a QP of ours with a reaction point by its peer, port and QP
 * number, that QP's rate machine takes it; else it is counted by reason.
 * Under RCU.
 */
static void dcqcn_rx_cnp(struct dcqcn_dev *dd, const u8 *pkt, unsigned int len,
			 __be32 peer, u16 sport)
{
	enum dcqcn_cnp_fault fault;
	struct dcqcn_qp *qp = NULL;
	struct dcqcn_bth b;

	fault = dcqcn_cnp_check_ipv4(pkt, len, &b);
	spin_lock(&dd->lock);
	if (fault == DCQCN_CNP_OK) {
		qp = dcqcn_qp_find_in(dd, peer, sport, b.qpn);
		if (qp && (!dcqcn_qp_named(qp, b.qpn) || !(dd->cfg.rp & BIT(qp->prio))))
			qp = NULL;
		if (!qp)
			dd->cnp_no_qp++;
	} else {
		dd->cnp_fault[fault]++;
	}
	if (qp) {
		const struct dcqcn_rp_params *p = &dd->cfg.rp_params;
		u64 rc = qp->rp.rc, now = ktime_get_ns();
		bool cut = dcqcn_rp_cnp(&qp->rp, p, now);

		qp->cnp_handled++;
		dd->rp_cnp_handled++;
		trace_dcqcn_cnp_handled(dd->ifindex, qp->peer, qp->sport, cut, qp->rp.rc,
					qp->rp.rt, DCQCN_ALPHA_SHOWN(qp->rp.alpha));
		if (qp->rp.rc != rc)
			dcqcn_trace_rate(dd, qp, now);
	} else {
		dd->rp_cnp_ignored++;
	}
	spin_unlock(&dd->lock);
}

/* A CE-marked packet for local QP @qpn, from port @in_sport. Under RCU. */
static void dcqcn_rx_ce(struct dcqcn_dev *dd, struct net *net, const struct iphdr *iph,
			u16 in_sport, u32 qpn)
{
	struct dcqcn_cnp_info info;
	u64 now = ktime_get_ns();
	struct dcqcn_qp *qp;
	u16 sport;
	u8 prio;

	spin_lock(&dd->lock);
	dd->np_ecn_marked++;
	qp = dcqcn_qp_find_in(dd, iph->saddr, in_sport, qpn);
	if (!qp) {
		dd->np_cnp_no_peer++;
		spin_unlock(&dd->lock);
		return;
	}
	if (qp->cnp_sent &&
	    now - qp->last_cnp < (u64)dd->cfg.min_time_between_cnps * NSEC_PER_USEC) {
		spin_unlock(&dd->lock);
		return;
	}
	qp->last_cnp = now;
	sport = qp->sport;
	info = (struct dcqcn_cnp_info) {
		.saddr = iph->daddr,
		.daddr = iph->saddr,
		.sport = sport,
		.dscp = dd->cfg.cnp_dscp,
		.ttl = IPDEFTTL,
		.id = dd->ip_id++,
		.pkey = dd->cfg.pkey,
		.dest_qp = qp->peer_qpn,
	};
	prio = dd->cfg.cnp_prio;
	spin_unlock(&dd->lock);

	if (dcqcn_send_cnp(net, &info, prio))
		return;
	trace_dcqcn_cnp_sent(dd->ifindex, info.daddr, sport, info.dest_qp);
	spin_lock(&dd->lock);
	dd->np_cnp_sent++;
	qp = dcqcn_qp_find(dd, iph->saddr, sport);
	if (qp)
		qp->cnp_sent++;
	spin_unlock(&dd->lock);
}

/*
 * The priority of a packet in, as the device's lossless qdisc would give
 * it (its trust and DSCP map, which it tells dcqcn_change()): by its DSCP,
 * or by its VLAN tag's PCP or its skb priority. The settings are read
 * without the lock: a change may be seen half done for a packet.
 */
static u8 dcqcn_rx_prio(struct dcqcn_dev *dd, const struct sk_buff *skb,
			const struct iphdr *iph)
{
	if (READ_ONCE(dd->cfg.trust) == TC_LOSSLESS_TRUST_DSCP)
		return READ_ONCE(dd->cfg.dscp_prio[iph->tos >> 2]);
	return lossless_packet_prio(skb_vlan_tag_present(skb), skb_vlan_tag_get(skb),
				    skb->priority);
}

static unsigned int dcqcn_rx(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	const struct iphdr *iph = ip_hdr(skb);
	unsigned int ihl = iph->ihl * 4;
	struct dcqcn_bth b;
	struct dcqcn_dev *dd;
	struct udphdr *uh;

	if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph) || !state->in)
		return NF_ACCEPT;
	if (!pskb_may_pull(skb, ihl + sizeof(*uh) + IB_BTH_BYTES))
		return NF_ACCEPT;
	iph = ip_hdr(skb);
	uh = (struct udphdr *)(skb_network_header(skb) + ihl);
	if (uh->dest != htons(ROCE_V2_UDP_DPORT))
		return NF_ACCEPT;
	dd = dcqcn_dev_find(state->net, state->in->ifindex);
	if (!dd)
		return NF_ACCEPT;
	dcqcn_bth_read((u8 *)(uh + 1), IB_BTH_BYTES, &b);

	if (b.opcode == ROCE_CNP_OPCODE) {
		/* the whole CNP, linear, for its checks */
		if (pskb_may_pull(skb, ROCE_CNP_IPV4_BYTES)) {
			iph = ip_hdr(skb);
			uh = (struct udphdr *)(skb_network_header(skb) + ihl);
		}
		dcqcn_rx_cnp(dd, skb_network_header(skb),
			     min_t(unsigned int, skb_headlen(skb) - skb_network_offset(skb),
				   ntohs(iph->tot_len)),
			     iph->saddr, ntohs(uh->source));
		consume_skb(skb);
		return NF_STOLEN;
	}
	if (!INET_ECN_is_ce(iph->tos))
		return NF_ACCEPT;
	if (READ_ONCE(dd->cfg.np) & BIT(dcqcn_rx_prio(dd, skb, iph)))
		dcqcn_rx_ce(dd, state->net, iph, ntohs(uh->source), b.qpn);
	return NF_ACCEPT;
}

static const struct nf_hook_ops dcqcn_rx_ops = {
	.hook = dcqcn_rx,
	.pf = NFPROTO_IPV4,
	.hooknum = NF_INET_LOCAL_IN,
	.priority = NF_IP_PRI_FIRST,
};

static int __net_init dcqcn_rx_net_init(struct net *net)
{
	return nf_register_net_hook(net, &dcqcn_rx_ops);
}

static void __net_exit dcqcn_rx_net_exit(struct net *net)
{
	nf_unregister_net_hook(net, &dcqcn_rx_ops);
}

static struct pernet_operations dcqcn_rx_net_ops = {
	.init = dcqcn_rx_net_init,
	.exit = dcqcn_rx_net_exit,
};

int dcqcn_rx_init(void)
{
	return register_pernet_subsys(&dcqcn_rx_net_ops);
}

void dcqcn_rx_exit(void)
{
	unregister_pernet_subsys(&dcqcn_rx_net_ops);
}
