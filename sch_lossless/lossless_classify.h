/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic classification for sch_lossless: from an 802.1Q priority to a
 * traffic class. No skb in here, so that KUnit can test it as it is.
 */
#ifndef _SCH_LOSSLESS_CLASSIFY_H
#define _SCH_LOSSLESS_CLASSIFY_H

#include <linux/pkt_sched.h>
#include <linux/types.h>
#include <uapi/linux/sch_lossless.h>

/* Priority to traffic class map (802.1Q table 8-5 style, identity by default) */
struct lossless_prio_map {
	u8 tc[TC_LOSSLESS_NUM_PRIO];
};

/* DSCP to priority map, DSCP / 8 by default (the class selector) */
struct lossless_dscp_map {
	u8 prio[TC_LOSSLESS_NUM_DSCP];
};

void lossless_prio_map_identity(struct lossless_prio_map *map);
void lossless_dscp_map_default(struct lossless_dscp_map *map);

/* The priority of a DSCP: @dsfield is the whole TOS / traffic class byte. */
static inline u8 lossless_dscp_to_prio(const struct lossless_dscp_map *map, u8 dsfield)
{
	return map->prio[dsfield >> 2];
}

/*
 * lossless_pcp_of_tci() - the Priority Code Point of an 802.1Q tag
 * @tci: the Tag Control Information, host order (PCP:3 DEI:1 VID:12)
 */
static inline u8 lossless_pcp_of_tci(u16 tci)
{
	return tci >> 13;
}

/*
 * The priority of a packet: the PCP of its VLAN tag when it has one, else
 * skb->priority when that is an 802.1Q priority (0..7), else 0 (best effort).
 */
static inline u8 lossless_packet_prio(bool tagged, u16 tci, u32 skb_priority)
{
	if (tagged)
		return lossless_pcp_of_tci(tci);
	if (skb_priority < TC_LOSSLESS_NUM_PRIO)
		return skb_priority;
	return 0;
}

/*
 * A skb->priority of the form MAJOR:MINOR whose MAJOR is this qdisc's handle
 * and MINOR one of its classes (1..TC_LOSSLESS_NUM_TC) picks the class
 * directly, as it does for prio and ets. Returns the traffic class, or -1.
 */
static inline int lossless_direct_tc(u32 skb_priority, u32 qdisc_handle)
{
	u32 minor = TC_H_MIN(skb_priority);

	if (TC_H_MAJ(skb_priority) != qdisc_handle || !qdisc_handle)
		return -1;
	if (minor < 1 || minor > TC_LOSSLESS_NUM_TC)
		return -1;
	return minor - 1;
}

static inline u8 lossless_prio_to_tc(const struct lossless_prio_map *map, u8 prio)
{
	return map->tc[prio & (TC_LOSSLESS_NUM_PRIO - 1)];
}

#endif /* _SCH_LOSSLESS_CLASSIFY_H */
