// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn heuristic mode: an online search for the lowest kmax that keeps the
 * class's throughput, with PFC kept silent.
 *
 * A lower kmax marks earlier: shorter queues, more room before XOFF, but
 * past some point DCQCN senders back off too much and the link idles. The
 * search lowers kmax one step per decision window while the utilisation
 * holds against the best seen, steps back to the last good setting when it
 * falls, and cuts hard on any XOFF. Only windows that say something about
 * kmax count: idle ones, and ones where the peer paused us (throughput
 * then depends on the peer), hold the setting.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aiecn.h"

static double kmin_ratio(const struct aiecn_search *s)
{
	double r = s->kmin_ratio;

	if (!(r >= AIECN_SEARCH_RATIO_LO))	/* also NaN */
		r = AIECN_SEARCH_RATIO_LO;
	if (r > AIECN_SEARCH_RATIO_HI)
		r = AIECN_SEARCH_RATIO_HI;
	return r;
}

/* @v * @f to the nearest byte, within u32 */
static uint32_t scale_u32(uint32_t v, double f)
{
	double r = v * f + 0.5;

	return r >= UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* The setting for @kmax: kmin follows at the ratio, pmax is kept */
static struct aiecn_thresholds at_kmax(const struct aiecn_search *s, uint32_t kmax)
{
	struct aiecn_thresholds t = s->cur;

	t.kmax = kmax;
	aiecn_clamp(&t, &s->b);
	/* kmin from the kmax that will be used, not the one asked for */
	t.kmin = scale_u32(t.kmax, kmin_ratio(s));
	aiecn_clamp(&t, &s->b);
	return t;
}

static int same(const struct aiecn_thresholds *a, const struct aiecn_thresholds *b)
{
	return a->kmin == b->kmin && a->kmax == b->kmax && a->pmax == b->pmax;
}

static void window_reset(struct aiecn_search *s)
{
	s->n = 0;
	s->tx = 0;
	s->cap_bytes = 0;
	s->marked = 0;
	s->pfc_rx = 0;
}

static int install(struct aiecn_search *s, const struct aiecn_thresholds *t,
		   struct aiecn_thresholds *out)
{
	s->cur = *t;
	s->pending = 0;
	s->settle = AIECN_SEARCH_SETTLE;
	window_reset(s);
	*out = s->cur;
	return 1;
}

void aiecn_search_init(struct aiecn_search *s, const struct aiecn_thresholds *start,
		       const struct aiecn_bounds *b)
{
	memset(s, 0, sizeof(*s));
	s->b = *b;
	s->cur = *start;
	/* Installing the start setting is the caller's; fix it if it must */
	s->pending = aiecn_clamp(&s->cur, b);
	s->kmin_ratio = start->kmax ? (double)start->kmin / start->kmax : 0;
	s->kmin_ratio = kmin_ratio(s);
	s->good = s->cur;
	snprintf(s->why, sizeof(s->why), "start");
}

/* PFC must stay silent: any XOFF cuts kmax and kmin at once */
static int xoff_cut(struct aiecn_search *s, const struct aiecn_sample *x,
		    struct aiecn_thresholds *out)
{
	struct aiecn_thresholds t = at_kmax(s, scale_u32(s->cur.kmax, AIECN_SEARCH_CUT));
	uint32_t old = s->cur.kmax;

	/* What caused it is not good, and nothing measured so far counts */
	s->good = t;
	s->best = 0;
	s->floor_until = 0;
	/* Do not probe back up into it for a while */
	s->cap = t.kmax;
	s->cap_until = s->windows + AIECN_SEARCH_BACKOFF;
	window_reset(s);
	if (same(&t, &s->cur) && !s->pending) {
		snprintf(s->why, sizeof(s->why),
			 "pfc: XOFF sent (%llu), kmax %u at its lowest, holding",
			 (unsigned long long)x->xoff_tx, old);
		*out = s->cur;
		return 0;
	}
	snprintf(s->why, sizeof(s->why), "pfc: XOFF sent (%llu), kmax %u -> %u",
		 (unsigned long long)x->xoff_tx, old, t.kmax);
	return install(s, &t, out);
}

static int lower(struct aiecn_search *s, double ratio, struct aiecn_thresholds *out)
{
	uint32_t target = scale_u32(s->cur.kmax, AIECN_SEARCH_STEP);
	uint32_t lo = s->b.kmax_lo;
	struct aiecn_thresholds t;

	if (s->windows <= s->floor_until && s->floor > lo)
		lo = s->floor;
	if (target < lo)
		target = lo;
	t = at_kmax(s, target);
	if (t.kmax >= s->cur.kmax) {
		snprintf(s->why, sizeof(s->why),
			 "throughput holds (%.2f of best), kmax %u at its floor, holding",
			 ratio, s->cur.kmax);
		*out = s->cur;
		return 0;
	}
	snprintf(s->why, sizeof(s->why), "throughput holds (%.2f of best), lowering kmax %u -> %u",
		 ratio, s->cur.kmax, t.kmax);
	return install(s, &t, out);
}

/*
 * Throughput fell at the last good setting itself: either the load changed
 * (start a new baseline) or, with marks in the window, ECN may be holding
 * the senders back, so give them one step more.
 */
static int fell_at_good(struct aiecn_search *s, double ratio, uint64_t marked,
			struct aiecn_thresholds *out)
{
	uint32_t hi = aiecn_kmax_ceiling(&s->b);
	uint32_t target = s->cur.kmax;
	struct aiecn_thresholds t;

	if (s->windows <= s->cap_until && s->cap < hi)
		hi = s->cap;
	if (marked && s->cur.kmax < hi) {
		target = scale_u32(s->cur.kmax, 1 / AIECN_SEARCH_STEP);
		if (target <= s->cur.kmax)
			target = s->cur.kmax + 1;
		if (target > hi)
			target = hi;
	}
	t = at_kmax(s, target);
	if (t.kmax <= s->cur.kmax) {
		snprintf(s->why, sizeof(s->why),
			 "throughput fell to %.2f of best at the good setting, new baseline",
			 ratio);
		*out = s->cur;
		return 0;
	}
	snprintf(s->why, sizeof(s->why),
		 "throughput fell to %.2f of best with marks, raising kmax %u -> %u",
		 ratio, s->cur.kmax, t.kmax);
	s->good = t;
	return install(s, &t, out);
}

static int decide(struct aiecn_search *s, struct aiecn_thresholds *out)
{
	double util = s->cap_bytes > 0 ? s->tx / s->cap_bytes : 0;
	uint64_t marked = s->marked, pfc_rx = s->pfc_rx;
	double ratio;

	window_reset(s);
	s->windows++;
	*out = s->cur;

	if (pfc_rx) {
		snprintf(s->why, sizeof(s->why), "paused by the peer (%llu PFC frames), holding",
			 (unsigned long long)pfc_rx);
		return 0;
	}
	if (util < AIECN_SEARCH_IDLE) {
		snprintf(s->why, sizeof(s->why), "idle (utilisation %.2f), holding", util);
		return 0;
	}
	if (s->best <= 0)
		s->best = util;		/* first window at a fresh baseline */
	ratio = util / s->best;
	if (ratio >= AIECN_SEARCH_HOLD) {
		if (util > s->best)
			s->best = util;
		s->good = s->cur;
		return lower(s, ratio, out);
	}
	if (s->cur.kmax < s->good.kmax) {
		/* The last step down cost throughput: undo it and stay a while */
		snprintf(s->why, sizeof(s->why),
			 "throughput fell to %.2f of best, back up, kmax %u -> %u",
			 ratio, s->cur.kmax, s->good.kmax);
		s->floor = s->good.kmax;
		s->floor_until = s->windows + AIECN_SEARCH_BACKOFF;
		return install(s, &s->good, out);
	}
	s->best = util;
	return fell_at_good(s, ratio, marked, out);
}

int aiecn_search_step(struct aiecn_search *s, const struct aiecn_sample *x,
		      struct aiecn_thresholds *out, const char **why)
{
	double cap = x->line_rate * x->interval_s;

	if (why)
		*why = s->why;
	if (x->xoff_tx)
		return xoff_cut(s, x, out);
	if (s->pending) {
		snprintf(s->why, sizeof(s->why), "start clamped into bounds");
		return install(s, &s->cur, out);
	}
	*out = s->cur;
	if (s->settle > 0) {
		s->settle--;
		snprintf(s->why, sizeof(s->why), "settling after a change");
		return 0;
	}
	/* An unusable sample still takes its place in the window's time */
	if (isfinite(cap) && cap > 0) {
		s->tx += (double)x->tx_bytes;
		s->cap_bytes += cap;
	}
	s->marked += x->marked;
	s->pfc_rx += x->pfc_rx;
	if (++s->n < AIECN_SEARCH_WINDOW) {
		snprintf(s->why, sizeof(s->why), "gathering (%d of %d)", s->n,
			 AIECN_SEARCH_WINDOW);
		return 0;
	}
	return decide(s, out);
}
