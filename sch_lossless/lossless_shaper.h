/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The port shaper of sch_lossless: a token bucket in bytes.
 *
 * Tokens accrue at @rate bytes per second up to @burst. A packet may leave
 * while the bucket is not negative, and takes its length from it, so the
 * bucket can go below zero by one packet: the long-run rate is exact
 * whatever the packet sizes, and no packet is ever too big to send.
 */
#ifndef _SCH_LOSSLESS_SHAPER_H
#define _SCH_LOSSLESS_SHAPER_H

#include <linux/bits.h>
#include <linux/time64.h>
#include <linux/types.h>

#define LOSSLESS_MIN_RATE	1000		/* bytes/s, 8 kbit/s: a full frame a 1.5 s */
#define LOSSLESS_MAX_RATE	BIT_ULL(40)	/* bytes/s, about 8.8 Tbit/s */
#define LOSSLESS_MAX_BURST	BIT(30)		/* bytes */

/*
 * The bucket is kept in nanobytes (bytes x 10^9) so that refilling is
 * exact: elapsed ns x rate in bytes/s is a whole number of nanobytes, and
 * no fraction of a byte is lost however often it is refilled. A full 1 GiB
 * bucket is about 2^60 nanobytes, well inside an s64.
 */
struct lossless_shaper {
	u64 rate;	/* bytes per second, 0: no shaper */
	u32 burst;	/* bytes */
	s64 tokens;	/* nanobytes, in [-(largest packet), burst] x 10^9 */
	u64 t_last;	/* ns, when tokens was last brought up to date */
};

/* Default bucket: 2 ms at @rate, at least two packets of @mtu bytes, at most 1 GiB. */
u32 lossless_shaper_default_burst(u64 rate, u32 mtu);

void lossless_shaper_set(struct lossless_shaper *s, u64 rate, u32 burst, u64 now);

/* Bring the bucket up to date at @now (ns, monotonic). */
void lossless_shaper_refill(struct lossless_shaper *s, u64 now);

static inline bool lossless_shaper_may_send(const struct lossless_shaper *s)
{
	return !s->rate || s->tokens >= 0;
}

static inline void lossless_shaper_consume(struct lossless_shaper *s, u32 len)
{
	if (s->rate)
		s->tokens -= (s64)len * NSEC_PER_SEC;
}

/* ns until the bucket is back at zero (0 when it may send now) */
u64 lossless_shaper_wait_ns(const struct lossless_shaper *s);

#endif /* _SCH_LOSSLESS_SHAPER_H */
