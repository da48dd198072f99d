// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic classification for sch_lossless (skb-free part).
 */
#include <linux/pkt_sched.h>

#include "lossless_classify.h"

void lossless_prio_map_identity(struct lossless_prio_map *map)
{
	int prio;

	for (prio = 0; prio < TC_LOSSLESS_NUM_PRIO; prio++)
		map->tc[prio] = prio;
}

void lossless_dscp_map_default(struct lossless_dscp_map *map)
{
	int dscp;

	for (dscp = 0; dscp < TC_LOSSLESS_NUM_DSCP; dscp++)
		map->prio[dscp] = dscp >> 3;
}

u8 lossless_packet_prio(bool tagged, u16 tci, u32 skb_priority)
{
	if (tagged)
		return lossless_pcp_of_tci(tci);
	if (skb_priority < TC_LOSSLESS_NUM_PRIO)
		return skb_priority;
	return 0;
}

int lossless_direct_tc(u32 skb_priority, u32 qdisc_handle)
{
	u32 minor = TC_H_MIN(skb_priority);

	if (TC_H_MAJ(skb_priority) != qdisc_handle || !qdisc_handle)
		return -1;
	if (minor < 1 || minor > TC_LOSSLESS_NUM_TC)
		return -1;
	return minor - 1;
}
