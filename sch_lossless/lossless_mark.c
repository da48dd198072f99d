// SPDX-License-Identifier: GPL-2.0
/*
 * ECN marking probability of sch_lossless (skb-free, see lossless_mark.h).
 */
#include <linux/math64.h>

#include "lossless_mark.h"

void lossless_ecn_init(struct lossless_ecn *ecn)
{
	ecn->enabled = false;
	ecn->kmin = LOSSLESS_DEFAULT_KMIN;
	ecn->kmax = LOSSLESS_DEFAULT_KMAX;
	ecn->pmax = LOSSLESS_DEFAULT_PMAX;
}

u32 lossless_mark_prob(const struct lossless_ecn *ecn, u32 qlen)
{
	if (qlen < ecn->kmin)
		return 0;
	if (qlen > ecn->kmax)
		return LOSSLESS_PROB_ONE;
	if (ecn->kmax == ecn->kmin)
		return ecn->pmax;
	return div_u64((u64)ecn->pmax * (qlen - ecn->kmin), ecn->kmax - ecn->kmin);
}
