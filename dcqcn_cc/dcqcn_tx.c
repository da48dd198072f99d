// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: RoCEv2 packets going out, as the qdisc queues them.
 *
 * Like the firmware of an RDMA NIC: a RoCEv2 packet (over IPv4 or IPv6) of
 * a priority with a reaction point leaves ECT(0), since rxe never sets ECT
 * and a switch can only mark ECN-capable packets (the ICRC does not cover
 * the TOS byte or the traffic class).
 * Every RoCEv2 packet out also keeps its QP's state: the peer's QP number
 * (the packet's DestQP), its priority and when it was last used; on a
 * priority with a reaction point it is paced: the qdisc holds it until
 * its QP's time (dcqcn_pace.c), and it counts for the RP byte counter
 * when it goes. CNPs (ours) are left alone.
 *
 * Called by sch_lossless's enqueue under the qdisc's root lock with
 * bottom halves off.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/lossless_cc.h>

#include "dcqcn.h"
#include "dcqcn_cnp.h"

/*
 * The IP header of a packet out that may be RoCEv2: UDP, over IPv4 and
 * not a fragment, or over IPv6 without extension headers (RoCEv2 sends
 * none). Return: its length, 0 for any other packet; its destination in
 * *@daddr (IPv4-mapped for IPv4) and its DS field in *@ds.
 */
static unsigned int dcqcn_tx_ip(const struct sk_buff *skb, unsigned int off,
				struct in6_addr *daddr, u8 *ds)
{
	const struct ipv6hdr *ip6h;
	const struct iphdr *iph;
	struct ipv6hdr _ip6h;
	struct iphdr _iph;

	switch (skb->protocol) {
	case htons(ETH_P_IP):
		iph = skb_header_pointer(skb, off, sizeof(_iph), &_iph);
		if (!iph || iph->protocol != IPPROTO_UDP || ip_is_fragment(iph) ||
		    iph->ihl < 5)
			return 0;
		ipv6_addr_set_v4mapped(iph->daddr, daddr);
		*ds = iph->tos;
		return iph->ihl * 4;
	case htons(ETH_P_IPV6):
		ip6h = skb_header_pointer(skb, off, sizeof(_ip6h), &_ip6h);
		if (!ip6h || ip6h->nexthdr != IPPROTO_UDP)
			return 0;
		*daddr = ip6h->daddr;
		*ds = ipv6_get_dsfield(ip6h);
		return sizeof(*ip6h);
	default:
		return 0;
	}
}

/*
 * Return: LOSSLESS_CC_PACE for a packet of a known QP, the QP in *@flow,
 * and in *@time when the QP may send next if its priority has a reaction
 * point, else 0 (not paced, but behind any packets of the QP that still
 * wait: the reaction point may just have been turned off); else
 * LOSSLESS_CC_PASS.
 */
enum lossless_cc_verdict dcqcn_classify(void *cc, struct sk_buff *skb, int prio, u64 now,
					u64 *flow, u64 *time)
{
	struct dcqcn_dev *dd = cc;
	unsigned int off = skb_network_offset(skb), hlen;
	enum lossless_cc_verdict verdict = LOSSLESS_CC_PASS;
	u8 *bth, _bth[IB_BTH_BYTES], ds;
	struct in6_addr daddr;
	struct udphdr *uh, _uh;
	struct dcqcn_bth b;
	struct dcqcn_qp *qp;
	bool rp, ect;
	u16 sport;

	if (prio < 0)
		return LOSSLESS_CC_PASS;
	hlen = dcqcn_tx_ip(skb, off, &daddr, &ds);
	if (!hlen)
		return LOSSLESS_CC_PASS;
	uh = skb_header_pointer(skb, off + hlen, sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(ROCE_V2_UDP_DPORT))
		return LOSSLESS_CC_PASS;
	bth = skb_header_pointer(skb, off + hlen + sizeof(_uh), sizeof(_bth), _bth);
	if (!bth || dcqcn_bth_read(bth, IB_BTH_BYTES, &b) || b.opcode == ROCE_CNP_OPCODE)
		return LOSSLESS_CC_PASS;
	/* the headers may move when made writable: keep what is needed */
	sport = ntohs(uh->source);

	rp = READ_ONCE(dd->cfg.rp) & BIT(prio);
	ect = rp && !INET_ECN_is_capable(ds) && !skb_ensure_writable(skb, off + hlen);
	if (ect && skb->protocol == htons(ETH_P_IPV6))
		ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK, INET_ECN_ECT_0);
	else if (ect)
		ipv4_change_dsfield(ip_hdr(skb), (u8)~INET_ECN_MASK, INET_ECN_ECT_0);

	spin_lock(&dd->lock);
	if (ect)
		dd->ect_set++;
	qp = dcqcn_qp_get(dd, &daddr, sport, now);
	if (qp) {
		qp->peer_qpn = b.qpn;
		qp->prio = prio;
		qp->last_used = jiffies;
		*flow = dcqcn_qp_flow(qp);
		*time = rp ? qp->next_tx : 0;
		verdict = LOSSLESS_CC_PACE;
	}
	spin_unlock(&dd->lock);
	return verdict;
}
