// SPDX-License-Identifier: GPL-2.0
/*
 * The port shaper of sch_lossless (skb-free, see lossless_shaper.h).
 */
#include <linux/math64.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "lossless_shaper.h"

u32 lossless_shaper_default_burst(u64 rate, u32 mtu)
{
	/* rate <= LOSSLESS_MAX_RATE: no overflow */
	u64 burst = max_t(u64, div_u64(rate * 2, MSEC_PER_SEC), 2ULL * mtu);

	return min_t(u64, burst, LOSSLESS_MAX_BURST);
}

void lossless_shaper_set(struct lossless_shaper *s, u64 rate, u32 burst, u64 now)
{
	s->rate = rate;
	s->burst = burst;
	s->tokens = (s64)burst * NSEC_PER_SEC;
	s->t_last = now;
}

void lossless_shaper_refill(struct lossless_shaper *s, u64 now)
{
	s64 full = (s64)s->burst * NSEC_PER_SEC;
	u64 elapsed;

	if (!s->rate || now <= s->t_last)
		return;
	elapsed = now - s->t_last;
	s->t_last = now;
	/* Past the time to fill the bucket from empty it is full. */
	if (elapsed >= div64_u64(full, s->rate) + 1) {
		s->tokens = full;
		return;
	}
	/* elapsed x rate <= full + rate: no overflow */
	s->tokens = min_t(s64, s->tokens + (s64)(elapsed * s->rate), full);
}

u64 lossless_shaper_wait_ns(const struct lossless_shaper *s)
{
	if (!s->rate || s->tokens >= 0)
		return 0;
	return div64_u64((u64)-s->tokens + s->rate - 1, s->rate);
}
