// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn: queue histogram helpers, threshold bounds and clamping.
 */
#include <math.h>

#include "aiecn.h"

/* a relative slack on quantiles against floating-point rounding */
#define AIECN_QUANTILE_SLACK	0.000000001

/* The last bucket is open-ended; 32 MiB stands in for its upper bound */
#define AIECN_HIST_CAP	(32u * 1024 * 1024)

uint32_t aiecn_hist_upper(int bucket)
{
	if (bucket < 0)
		return 0;
	if (bucket == 0)
		return 1024;
	if (bucket >= AIECN_HIST_BUCKETS - 1)
		return AIECN_HIST_CAP;
	return 1u << (bucket + 10);
}

uint32_t aiecn_hist_quantile(const uint64_t delta[AIECN_HIST_BUCKETS], double q)
{
	uint64_t total = 0, cum = 0;
	double need;
	int i;

	for (i = 0; i < AIECN_HIST_BUCKETS; i++)
		total += delta[i];
	if (!total)
		return 0;
	if (!(q > 0))		/* also NaN */
		q = 0;
	if (q > 1)
		q = 1;
	/*
	 * The first bucket where the count reaches q * total, and at least one
	 * packet: q = 0 is the lowest non-empty bucket. The slack keeps
	 * 0.07 * 100 = 7.000000000000001 from asking for an eighth packet.
	 */
	need = (q - AIECN_QUANTILE_SLACK) * (double)total;
	if (need < 1)
		need = 1;
	for (i = 0; i < AIECN_HIST_BUCKETS; i++) {
		cum += delta[i];
		if ((double)cum >= need)
			return aiecn_hist_upper(i);
	}
	return aiecn_hist_upper(AIECN_HIST_BUCKETS - 1);
}

uint32_t aiecn_hist_peak(const uint64_t delta[AIECN_HIST_BUCKETS])
{
	int i;

	for (i = AIECN_HIST_BUCKETS - 1; i >= 0; i--)
		if (delta[i])
			return aiecn_hist_upper(i);
	return 0;
}

double aiecn_utilisation(const struct aiecn_sample *x)
{
	double cap = x->line_rate * x->interval_s;

	if (!isfinite(cap) || cap <= 0)
		return 0;
	return (double)x->tx_bytes / cap;
}

uint32_t aiecn_kmax_ceiling(const struct aiecn_bounds *b)
{
	uint32_t c = b->xoff > b->cnp_allowance ? b->xoff - b->cnp_allowance : 0;

	return c < b->kmax_hi ? c : b->kmax_hi;
}

static uint32_t clamp_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
	if (v < lo)
		v = lo;
	if (v > hi)		/* hi last: with bad bounds the ceiling wins */
		v = hi;
	return v;
}

int aiecn_clamp(struct aiecn_thresholds *t, const struct aiecn_bounds *b)
{
	struct aiecn_thresholds old = *t;
	uint32_t pmax_lo = b->pmax_lo ? b->pmax_lo : 1;
	uint32_t pmax_hi = b->pmax_hi <= 100 ? b->pmax_hi : 100;

	/* kmax first: kmin's range depends on it */
	t->kmax = clamp_u32(t->kmax, b->kmax_lo, aiecn_kmax_ceiling(b));
	t->kmin = clamp_u32(t->kmin, b->kmin_lo, t->kmax);
	t->pmax = clamp_u32(t->pmax, pmax_lo, pmax_hi);
	return t->kmin != old.kmin || t->kmax != old.kmax || t->pmax != old.pmax;
}

int aiecn_bounds_valid(const struct aiecn_bounds *b, const char **why)
{
	const char *w = NULL;

	if (b->xoff <= b->cnp_allowance)
		w = "xoff must be above cnp_allowance";
	else if (!b->kmax_lo)
		w = "kmax_lo must be above 0";
	else if (b->kmax_lo > b->kmax_hi)
		w = "kmax_lo is above kmax_hi";
	else if (b->kmax_lo > b->xoff - b->cnp_allowance)
		w = "kmax_lo is above xoff - cnp_allowance";
	else if (b->kmin_lo > b->kmax_lo)
		w = "kmin_lo is above kmax_lo";
	else if (b->pmax_lo < 1 || b->pmax_hi > 100)
		w = "pmax bounds must be within 1..100 percent";
	else if (b->pmax_lo > b->pmax_hi)
		w = "pmax_lo is above pmax_hi";
	if (why)
		*why = w;
	return !w;
}
