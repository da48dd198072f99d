// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: RoCEv2 packets coming in, before rxe sees them.
 *
 * Netfilter hooks at IPv4 and IPv6 LOCAL_IN, in every namespace, look at
 * UDP to 4791 (RoCEv2 over either) arriving on a device that has DCQCN:
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
 * is dropped, in the CE packet's family, through the IP output path
 * (routing, LOCAL_OUT, the device's qdisc), with the priority cnp_prio and
 * the DSCP cnp_dscp.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/ktime.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/lossless_cc.h>
#include <net/route.h>

#include "dcqcn.h"
#include "dcqcn_cnp.h"
#include "../sch_lossless/lossless_classify.h"

#define CREATE_TRACE_POINTS
#include "dcqcn_trace.h"

/* A CNP as @info says, for @dev, in a new skb; NULL without memory. */
static struct sk_buff *dcqcn_cnp_skb(const struct net_device *dev,
				     const struct dcqcn_cnp_info *info, u8 prio)
{
	unsigned int bytes = dcqcn_cnp_bytes(info->ipv6), hlen = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;

	skb = alloc_skb(hlen + bytes + dev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, hlen);
	skb_reset_network_header(skb);
	dcqcn_cnp_write(skb_put(skb, bytes), bytes, info);
	skb->protocol = info->ipv6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	skb->priority = prio;
	return skb;
}

/* Send one CNP over IPv4 through the output path. */
static int dcqcn_send_cnp4(struct net *net, const struct dcqcn_cnp_info *info, u8 prio)
{
	struct flowi4 fl4 = {
		.daddr = info->daddr.s6_addr32[3],
		.saddr = info->saddr.s6_addr32[3],
		.flowi4_tos = (info->dscp << 2) & IPTOS_TOS_MASK,
		.flowi4_proto = IPPROTO_UDP,
	};
	struct sk_buff *skb;
	struct rtable *rt;
	int err;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	skb = dcqcn_cnp_skb(rt->dst.dev, info, prio);
	if (!skb) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	skb_dst_set(skb, &rt->dst);
	err = ip_local_out(net, NULL, skb);
	/* net_xmit_eval() evaluates its argument twice */
	return net_xmit_eval(err);
}

/*
 * Send one CNP over IPv6 through the output path, out of device @oif (the
 * one the CE packet came in by: a link-local peer needs it).
 */
static int dcqcn_send_cnp6(struct net *net, const struct dcqcn_cnp_info *info, u8 prio,
			   int oif)
{
	struct flowi6 fl6 = {
		.daddr = info->daddr,
		.saddr = info->saddr,
		.flowi6_oif = oif,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *dst;
	struct sk_buff *skb;
	int err;

	dst = ip6_route_output(net, NULL, &fl6);
	err = dst->error;
	if (err) {
		dst_release(dst);
		return err;
	}
	skb = dcqcn_cnp_skb(dst->dev, info, prio);
	if (!skb) {
		dst_release(dst);
		return -ENOMEM;
	}
	skb_dst_set(skb, dst);
	err = ip6_local_out(net, NULL, skb);
	return net_xmit_eval(err);
}

/* Under dd->lock: the rate of @qp has changed. */
void dcqcn_trace_rate(struct dcqcn_dev *dd, struct dcqcn_qp *qp, u64 now)
{
	const struct dcqcn_rp_params *p = &dd->cfg.rp_params;

	if (!trace_dcqcn_rate_enabled())
		return;
	trace_dcqcn_rate(dd->ifindex, &qp->peer, qp->sport, qp->rp.rc, qp->rp.rt,
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
			 const struct in6_addr *peer, u16 sport)
{
	enum dcqcn_cnp_fault fault;
	struct dcqcn_qp *qp = NULL;
	struct dcqcn_bth b;

	fault = dcqcn_cnp_check(pkt, len, &b);
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
		trace_dcqcn_cnp_handled(dd->ifindex, &qp->peer, qp->sport, cut, qp->rp.rc,
					qp->rp.rt, DCQCN_ALPHA_SHOWN(qp->rp.alpha));
		if (qp->rp.rc != rc)
			dcqcn_trace_rate(dd, qp, now);
	} else {
		dd->rp_cnp_ignored++;
	}
	spin_unlock(&dd->lock);
}

/**
 * struct dcqcn_rx_pkt - a RoCEv2 packet in, as the hook reads it
 * @ipv6: over IPv6 (else IPv4)
 * @saddr: its source, IPv4-mapped for IPv4
 * @daddr: its destination, the same
 * @ds: its DS field (DSCP and ECN)
 * @sport: its UDP source port
 * @len: the IP packet's length
 * @bth: its BTH
 */
struct dcqcn_rx_pkt {
	bool ipv6;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u8 ds;
	u16 sport;
	unsigned int len;
	struct dcqcn_bth bth;
};

/* A CE-marked packet @p, for local QP @p->bth.qpn, came in by @in. Under RCU. */
static void dcqcn_rx_ce(struct dcqcn_dev *dd, struct net *net, const struct net_device *in,
			const struct dcqcn_rx_pkt *p)
{
	struct dcqcn_cnp_info info;
	u64 now = ktime_get_ns();
	struct dcqcn_qp *qp;
	u16 sport;
	u8 prio;
	int err;

	spin_lock(&dd->lock);
	dd->np_ecn_marked++;
	qp = dcqcn_qp_find_in(dd, &p->saddr, p->sport, p->bth.qpn);
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
		.ipv6 = p->ipv6,
		.saddr = p->daddr,
		.daddr = p->saddr,
		.sport = sport,
		.dscp = dd->cfg.cnp_dscp,
		.ttl = IPDEFTTL,
		.id = p->ipv6 ? 0 : dd->ip_id++,
		.pkey = dd->cfg.pkey,
		.dest_qp = qp->peer_qpn,
	};
	prio = dd->cfg.cnp_prio;
	spin_unlock(&dd->lock);

	if (p->ipv6)
		err = dcqcn_send_cnp6(net, &info, prio, in->ifindex);
	else
		err = dcqcn_send_cnp4(net, &info, prio);
	if (err)
		return;
	trace_dcqcn_cnp_sent(dd->ifindex, &info.daddr, sport, info.dest_qp);
	spin_lock(&dd->lock);
	dd->np_cnp_sent++;
	qp = dcqcn_qp_find(dd, &p->saddr, sport);
	if (qp)
		qp->cnp_sent++;
	spin_unlock(&dd->lock);
}

/*
 * The priority of a packet in, as the device's lossless qdisc would give
 * it (its trust and DSCP map, which it tells dcqcn_change()): by the DSCP
 * of its DS field @ds, or by its VLAN tag's PCP or its skb priority. The
 * settings are read without the lock: a change may be seen half done for
 * a packet.
 */
static u8 dcqcn_rx_prio(struct dcqcn_dev *dd, const struct sk_buff *skb, u8 ds)
{
	if (READ_ONCE(dd->cfg.trust) == TC_LOSSLESS_TRUST_DSCP)
		return READ_ONCE(dd->cfg.dscp_prio[ds >> 2]);
	return lossless_packet_prio(skb_vlan_tag_present(skb), skb_vlan_tag_get(skb),
				    skb->priority);
}

/*
 * The IP header of a packet in that may be RoCEv2 (UDP; IPv4 and not a
 * fragment, or IPv6 without extension headers), made linear with its UDP
 * header and a BTH after it: its length, or 0 for any other packet. What
 * the packet says is in *@p, but its BTH.
 */
static unsigned int dcqcn_rx_ip(struct sk_buff *skb, bool ipv6, struct dcqcn_rx_pkt *p)
{
	const struct ipv6hdr *ip6h;
	const struct iphdr *iph;
	unsigned int hlen;

	if (ipv6) {
		if (ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return 0;
		hlen = sizeof(*ip6h);
	} else {
		iph = ip_hdr(skb);
		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return 0;
		hlen = iph->ihl * 4;
	}
	if (!pskb_may_pull(skb, skb_network_offset(skb) + hlen + sizeof(struct udphdr) +
			   IB_BTH_BYTES))
		return 0;
	p->ipv6 = ipv6;
	if (ipv6) {
		ip6h = ipv6_hdr(skb);
		p->saddr = ip6h->saddr;
		p->daddr = ip6h->daddr;
		p->ds = ipv6_get_dsfield(ip6h);
		p->len = sizeof(*ip6h) + ntohs(ip6h->payload_len);
	} else {
		iph = ip_hdr(skb);
		ipv6_addr_set_v4mapped(iph->saddr, &p->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &p->daddr);
		p->ds = iph->tos;
		p->len = ntohs(iph->tot_len);
	}
	return hlen;
}

static unsigned int dcqcn_rx(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	bool ipv6 = state->pf == NFPROTO_IPV6;
	struct dcqcn_rx_pkt p;
	struct dcqcn_dev *dd;
	struct udphdr *uh;
	unsigned int hlen;

	if (!state->in)
		return NF_ACCEPT;
	hlen = dcqcn_rx_ip(skb, ipv6, &p);
	if (!hlen)
		return NF_ACCEPT;
	uh = (struct udphdr *)(skb_network_header(skb) + hlen);
	if (uh->dest != htons(ROCE_V2_UDP_DPORT))
		return NF_ACCEPT;
	dd = dcqcn_dev_find(state->net, state->in->ifindex);
	if (!dd)
		return NF_ACCEPT;
	p.sport = ntohs(uh->source);
	dcqcn_bth_read((u8 *)(uh + 1), IB_BTH_BYTES, &p.bth);

	if (p.bth.opcode == ROCE_CNP_OPCODE) {
		/* the whole CNP, linear, for its checks */
		pskb_may_pull(skb, skb_network_offset(skb) + dcqcn_cnp_bytes(ipv6));
		dcqcn_rx_cnp(dd, skb_network_header(skb),
			     min_t(unsigned int, skb_headlen(skb) - skb_network_offset(skb), p.len),
			     &p.saddr, p.sport);
		consume_skb(skb);
		return NF_STOLEN;
	}
	if (!INET_ECN_is_ce(p.ds))
		return NF_ACCEPT;
	if (READ_ONCE(dd->cfg.np) & BIT(dcqcn_rx_prio(dd, skb, p.ds)))
		dcqcn_rx_ce(dd, state->net, state->in, &p);
	return NF_ACCEPT;
}

static const struct nf_hook_ops dcqcn_rx_ops[] = {
	{
		.hook = dcqcn_rx,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP_PRI_FIRST,
	},
	{
		.hook = dcqcn_rx,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP6_PRI_FIRST,
	},
};

static int __net_init dcqcn_rx_net_init(struct net *net)
{
	return nf_register_net_hooks(net, dcqcn_rx_ops, ARRAY_SIZE(dcqcn_rx_ops));
}

static void __net_exit dcqcn_rx_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, dcqcn_rx_ops, ARRAY_SIZE(dcqcn_rx_ops));
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
