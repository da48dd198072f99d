// SPDX-License-Identifier: GPL-2.0
/*
 * ECN marking probability of sch_lossless (skb-free, see lossless_mark.h).
 */
#include "lossless_mark.h"

void lossless_ecn_init(struct lossless_ecn *ecn)
{
	ecn->enabled = false;
	ecn->kmin = LOSSLESS_DEFAULT_KMIN;
	ecn->kmax = LOSSLESS_DEFAULT_KMAX;
	ecn->pmax = LOSSLESS_DEFAULT_PMAX;
}
