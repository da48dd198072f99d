// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic classification for sch_lossless (skb-free part).
 */
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
