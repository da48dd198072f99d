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
#include <linux/math64.h>
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

/* p(q) in millionths for a queue of @qlen bytes (inline: every packet asks) */
static inline u32 lossless_mark_prob(const struct lossless_ecn *ecn, u32 qlen)
{
	if (qlen < ecn->kmin)
		return 0;
	if (qlen > ecn->kmax)
		return LOSSLESS_PROB_ONE;
	if (ecn->kmax == ecn->kmin)
		return ecn->pmax;
	return div_u64((u64)ecn->pmax * (qlen - ecn->kmin), ecn->kmax - ecn->kmin);
}

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

/*
 * The histogram as the qdisc keeps it, eight buckets to the octave (uapi:
 * TC_LOSSLESS_QHIST_FINE_BUCKETS), so that a reader can tell queueing
 * delays apart by less than a factor of two. In units u of 256 bytes:
 * buckets 0 to 15 are u itself (up to 4 KiB); from there, u in
 * [2^e, 2^(e+1)) falls in octave e - 4 and, within it, in eighth
 * (u >> (e - 3)) & 7, its three bits after the leading one; 16 MiB and up
 * is the last bucket.
 */
#define LOSSLESS_QHIST_FINE_LINEAR	16	/* buckets of 256 bytes */
#define LOSSLESS_QHIST_FINE_TOP		(16U << 20)	/* bytes: the last bucket */

static inline unsigned int lossless_qhist_fine_bucket(u32 backlog)
{
	u32 u = backlog >> 8;
	unsigned int e;

	if (u < LOSSLESS_QHIST_FINE_LINEAR)
		return u;
	if (backlog >= LOSSLESS_QHIST_FINE_TOP)
		return TC_LOSSLESS_QHIST_FINE_BUCKETS - 1;
	e = fls(u) - 1;
	return LOSSLESS_QHIST_FINE_LINEAR + (e - 4) * 8 + ((u >> (e - 3)) & 7);
}

/*
 * The log2 bucket (lossless_qhist_bucket()) that fine bucket @fine lies in:
 * 256-byte buckets 0-3 are [0, 1 KiB), 4-7 [1, 2) KiB, 8-15 [2, 4) KiB;
 * then octave k is log2 bucket 3 + k, and the last is 16 MiB and up in
 * both.
 */
static inline unsigned int lossless_qhist_fold(unsigned int fine)
{
	if (fine < LOSSLESS_QHIST_FINE_LINEAR)
		return fls(fine >> 2);
	return 3 + (fine - LOSSLESS_QHIST_FINE_LINEAR) / 8;
}

#endif /* _SCH_LOSSLESS_MARK_H */
