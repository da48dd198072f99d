// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: deadlock prevention, hook flows moved to another priority.
 *
 * In a leaf-spine fabric a lossless packet goes up to a spine and down to
 * a leaf once; the buffer dependencies follow that order and cannot form a
 * cycle. A packet that "bounces", in through an uplink and out through an
 * uplink of the same switch (a failed link below, a routing change), goes
 * down and up again: a hook flow. Two such flows in opposite directions
 * close a cycle of PFC pauses, a deadlock. Moving a hook flow to another
 * lossless priority at the bounce (Tagger, Hu et al., CoNEXT 2017; the
 * switch vendors' "hook-flow remap") puts the rest of its path in queues
 * that no up-down flow uses, so the cycle cannot close.
 *
 * The egress qdisc of an uplink (`uplink`) with `hook-remap FROM:TO` moves
 * a packet of priority FROM that came in through another uplink to
 * priority TO: its traffic class becomes TO's, and the packet is rewritten
 * so that the next switch queues it on TO as well: trust dscp, its DSCP
 * becomes the lowest one the DSCP map sends to TO (the ECN bits are kept,
 * the IPv4 checksum updated); trust pcp, its skb priority and its VLAN
 * tag's PCP become TO. Its buffer use is still charged to the priority it
 * came in on (FROM) at its ingress port, so congestion of TO here pauses
 * FROM toward the upstream port: the only priority that upstream port's
 * peer sent it on.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>

#include "lossless.h"

/*
 * Rewrite the DSCP of an IPv4 or IPv6 packet, keeping its ECN bits; false
 * when there is none to rewrite, or it cannot be found for sure (a VLAN
 * tag in the frame: the network header offset may point at the tag).
 */
static bool lossless_hook_set_dscp(struct sk_buff *skb, u8 dscp)
{
	int off = skb_network_offset(skb);

	if (eth_type_vlan(skb->protocol))
		return false;
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		if (skb_ensure_writable(skb, off + sizeof(struct iphdr)))
			return false;
		ipv4_change_dsfield((struct iphdr *)(skb->data + off), INET_ECN_MASK, dscp << 2);
		return true;
	case htons(ETH_P_IPV6):
		if (skb_ensure_writable(skb, off + sizeof(struct ipv6hdr)))
			return false;
		ipv6_change_dsfield((struct ipv6hdr *)(skb->data + off), INET_ECN_MASK, dscp << 2);
		return true;
	}
	return false;
}

/* Rewrite the PCP of the packet's outer VLAN tag, if it has one. */
static void lossless_hook_set_pcp(struct sk_buff *skb, u8 prio)
{
	int off = skb_mac_offset(skb) + ETH_HLEN;
	struct vlan_hdr *vh;
	u16 tci;

	if (skb_vlan_tag_present(skb)) {
		tci = skb_vlan_tag_get(skb) & ~VLAN_PRIO_MASK;
		__vlan_hwaccel_put_tag(skb, skb->vlan_proto, tci | (prio << VLAN_PRIO_SHIFT));
		return;
	}
	if (!eth_type_vlan(skb->protocol) || !skb_mac_header_was_set(skb) || off < ETH_HLEN ||
	    skb_ensure_writable(skb, off + VLAN_HLEN))
		return;
	vh = (struct vlan_hdr *)(skb->data + off);
	tci = ntohs(vh->h_vlan_TCI) & ~VLAN_PRIO_MASK;
	vh->h_vlan_TCI = htons(tci | (prio << VLAN_PRIO_SHIFT));
}

/*
 * lossless_hook_remap() - move a hook flow's packet off priority @from
 * @q: the egress qdisc's data, an uplink with @from in its hook_mask
 * @skb: the packet, in through another uplink
 * @from: its priority
 * @tc: the traffic class of the priority it moves to
 *
 * Trust dscp moves only a packet whose DSCP could be rewritten (an IP
 * packet, no VLAN tag in the frame): one that the next switch would still
 * queue on @from stays where it is.
 *
 * Return: true when the packet moved.
 */
bool lossless_hook_remap(struct lossless_sched_data *q, struct sk_buff *skb, u8 from, u8 *tc)
{
	u8 to = q->hook_remap[from];

	if (q->trust == TC_LOSSLESS_TRUST_DSCP) {
		if (!lossless_hook_set_dscp(skb, q->hook_dscp[to]))
			return false;
	} else {
		skb->priority = to;
		lossless_hook_set_pcp(skb, to);
	}
	*tc = lossless_prio_to_tc(&q->prio_map, to);
	return true;
}
