/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ECN marking of sch_lossless: the DCQCN congestion point (CP).
 *
 * RED-style marking on the instantaneous queue q of a class, in bytes
 * (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, section 3):
 *
 *              | 0                                q <  kmin
 *   p(q)  =    | pmax * (q - kmin) / (kmax - kmin)  kmin <= q <= kmax
 *              | 1                                q >  kmax
 *
 * with p(q) = pmax on the whole of [kmin, kmax] when kmin == kmax.
 * Probabilities are in millionths (TC_LOSSLESS_PMAX_SCALE is 1).
 */
#ifndef _SCH_LOSSLESS_MARK_H
#define _SCH_LOSSLESS_MARK_H

#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <uapi/linux/sch_lossless.h>

#define LOSSLESS_PROB_ONE	TC_LOSSLESS_PMAX_SCALE

/* The DCQCN paper's example setting */
#define LOSSLESS_DEFAULT_KMIN	(5 * 1024)	/* bytes */
#define LOSSLESS_DEFAULT_KMAX	(200 * 1024)	/* bytes */
#define LOSSLESS_DEFAULT_PMAX	(LOSSLESS_PROB_ONE / 100)	/* 1% */

struct lossless_ecn {
	bool enabled;
	u32 kmin;	/* bytes */
	u32 kmax;	/* bytes, >= kmin */
	u32 pmax;	/* millionths, <= LOSSLESS_PROB_ONE */
};

void lossless_ecn_init(struct lossless_ecn *ecn);

/* p(q) in millionths for a queue of @qlen bytes */
u32 lossless_mark_prob(const struct lossless_ecn *ecn, u32 qlen);

/*
 * lossless_mark_decide() - draw a marking decision
 * @prob: probability in millionths
 * @rnd: a uniformly distributed 32-bit random number
 *
 * True with probability @prob: when rnd, scaled to [0, 1000000), is
 * below @prob.
 */
static inline bool lossless_mark_decide(u32 prob, u32 rnd)
{
	return ((u64)rnd * LOSSLESS_PROB_ONE >> 32) < prob;
}

/*
 * The queue-occupancy histogram, the telemetry an ECN tuner (tools/aiecn)
 * reads: the bucket of a backlog of @backlog bytes, log2-spaced from 1 KiB
 * (uapi: TC_LOSSLESS_QHIST_BUCKETS). Bucket 0 is [0, 1024), bucket i
 * [2^(i+9), 2^(i+10)): fls() is i + 10 there.
 */
static inline unsigned int lossless_qhist_bucket(u32 backlog)
{
	if (backlog < 1024)
		return 0;
	return min_t(unsigned int, fls(backlog) - 10, TC_LOSSLESS_QHIST_BUCKETS - 1);
}

#endif /* _SCH_LOSSLESS_MARK_H */
